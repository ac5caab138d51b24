/**
 * Every field the servers return on the records this tool writes, and what a plan does with it. This is
 * how "nothing changes on the server that the plan does not show" holds field by field:
 * - `compared`: in the normal form; a difference is a planned change.
 * - `carried`: the manifest language has no word for it (a tile config key no table lists, from a server
 *   newer than ours), so an update sends it back exactly as read. Where the update changes a field it
 *   depends on (`keptWhileSame`), it is not sent back, and the plan shows it going away.
 * - `identity`: the record's or the tile's id, sent back as read (in the path, or a tile's `id`).
 * - `untouched`: computed by the server, or left out of a partial PATCH: no request of ours changes it.
 * The real GET response schemas (test/fixtures/openapi), and the fields HyperDX's converters return, are
 * checked against these tables by test/unit/returned-fields.test.ts: a returned field cannot be forgotten.
 */
import { diagnostic, type Diagnostic, type SourceLocation } from '../diagnostics.js'

export type Treatment = 'compared' | 'carried' | 'identity' | 'untouched'

export interface FieldRule {
  treatment: Treatment
  /** carried: sent back only while the update leaves these sibling fields as they are. */
  keptWhileSame?: readonly string[]
}

const compared: FieldRule = { treatment: 'compared' }
const identity: FieldRule = { treatment: 'identity' }
const untouched: FieldRule = { treatment: 'untouched' }
/** A tile setting that belongs to its display type (and, for formulas, to its select items). */
const carriedOnSameTile = (...more: string[]): FieldRule => ({
  treatment: 'carried',
  keptWhileSame: ['displayType', ...more]
})

/** HyperDX `convertToExternalDashboard`; the managed `ClickStackDashboardResponse`. */
export const DASHBOARD_FIELDS: Readonly<Record<string, FieldRule>> = {
  id: identity,
  name: compared,
  tiles: compared,
  tags: compared,
  filters: compared,
  savedQuery: compared,
  savedQueryLanguage: compared,
  savedFilterValues: compared,
  containers: compared
}

/** HyperDX `convertTileToExternalChart`; `series` and tile-level `asRatio` are CONTRACT.md's form. */
export const TILE_FIELDS: Readonly<Record<string, FieldRule>> = {
  id: identity,
  name: compared,
  x: compared,
  y: compared,
  w: compared,
  h: compared,
  config: compared,
  series: compared,
  asRatio: compared,
  containerId: compared,
  tabId: compared
}

/** Every variant of HyperDX `convertToExternalTileChartConfig` (builder and raw SQL). */
export const TILE_CONFIG_FIELDS: Readonly<Record<string, FieldRule>> = {
  displayType: compared,
  sourceId: compared,
  select: compared,
  groupBy: compared,
  asRatio: compared,
  alignDateRangeToGranularity: compared,
  fillNulls: compared,
  fitYAxisToData: compared,
  compareToPreviousPeriod: compared,
  numberFormat: compared,
  seriesLimit: compared,
  having: compared,
  orderBy: compared,
  groupByColumnsOnLeft: compared,
  limit: compared,
  where: compared,
  whereLanguage: compared,
  markdown: compared,
  configType: compared,
  connectionId: compared,
  sqlTemplate: compared,
  formulas: compared,
  showOperandSeries: compared,
  onClick: compared,
  color: compared,
  colorRules: compared,
  backgroundChart: compared
}
/** A config key no table lists (a server newer than ours): kept like a UI setting of the same tile. */
export const UNKNOWN_CONFIG_FIELD: FieldRule = carriedOnSameTile()

/** HyperDX `convertToExternalSelectItem` and `convertToExternalHeatmapSelectItem`. */
export const SELECT_ITEM_FIELDS: Readonly<Record<string, FieldRule>> = {
  aggFn: compared,
  valueExpression: compared,
  alias: compared,
  level: compared,
  where: compared,
  whereLanguage: compared,
  metricName: compared,
  metricType: compared,
  periodAggFn: compared,
  numberFormat: compared,
  countExpression: compared,
  heatmapScaleType: compared
}

/** HyperDX `translateAlertDocumentToExternalAlert`; the managed `ClickStackAlertResponse`. */
export const ALERT_FIELDS: Readonly<Record<string, FieldRule>> = {
  id: identity,
  name: compared,
  message: compared,
  note: compared,
  threshold: compared,
  thresholdMax: compared,
  thresholdType: compared,
  interval: compared,
  source: compared,
  numConsecutiveWindows: compared,
  channel: compared,
  // The published managed request schema has no `channels`; sent where the cloud's reads return it (alert.ts).
  channels: compared,
  dashboardId: compared,
  tileId: compared,
  savedSearchId: compared,
  groupBy: compared,
  scheduleOffsetMinutes: compared,
  scheduleStartAt: compared,
  // HyperDX after 2.36 (pull requests 3063/3065): compared where the manifest sets them, else kept (alert-kept.ts).
  displayName: compared,
  tags: compared,
  state: untouched,
  silenced: untouched,
  executionErrors: untouched,
  teamId: untouched,
  createdAt: untouched,
  updatedAt: untouched
}

/**
 * The managed `ClickStackRole`. Name, description and permissions are compared (the rules as a set, the server's
 * own `read Connection` rule left out: role-permissions.ts) and an update sends them all; `isPredefined` decides
 * whether a role is planned at all; the timestamps are the server's.
 */
export const ROLE_FIELDS: Readonly<Record<string, FieldRule>> = {
  id: identity,
  name: compared,
  description: compared,
  permissions: compared,
  isPredefined: untouched,
  createdAt: untouched,
  updatedAt: untouched
}

/** The managed `ClickStackCASLPermission` (and HyperDX's `fields`, which the cloud's schema does not declare). */
export const ROLE_PERMISSION_FIELDS: Readonly<Record<string, FieldRule>> = {
  action: compared,
  subject: compared,
  inverted: compared,
  integration: compared,
  conditions: compared,
  fields: compared
}

const SERVICE_MANAGED = ['name', 'releaseChannel', 'ipAccessList', 'privateEndpointIds', 'endpoints']
/**
 * The managed `Service`. The fields a ServiceSettings manifest declares are compared; the PATCH sends
 * only those that differ, so every other field (writable ones like `tags` too) is untouched.
 */
export const SERVICE_FIELDS: Readonly<Record<string, FieldRule>> = {
  ...Object.fromEntries(SERVICE_MANAGED.map(f => [f, compared])),
  transparentDataEncryptionKeyId: compared,
  id: identity,
  ...Object.fromEntries(
    [
      'provider',
      'region',
      'state',
      'clickhouseVersion',
      'engineVersion',
      'tier',
      'minTotalMemoryGb',
      'maxTotalMemoryGb',
      'minReplicaMemoryGb',
      'maxReplicaMemoryGb',
      'numReplicas',
      'minReplicas',
      'maxReplicas',
      'autoscalingMode',
      'replicaMemoryGb',
      'idleScaling',
      'idleTimeoutMinutes',
      'createdAt',
      'encryptionKey',
      'encryptionAssumedRoleIdentifier',
      'iamRole',
      'availablePrivateEndpointIds',
      'dataWarehouseId',
      'isPrimary',
      'isReadonly',
      'byocId',
      'hasTransparentDataEncryption',
      'encryptionRoleId',
      'profile',
      'complianceType',
      'tags',
      'enableCoreDumps',
      'scalingSchedule',
      'currentScaling'
    ].map(f => [f, untouched])
  )
}

/**
 * The fields of `live` an update sends back as read: carried ones the update does not set itself, unless
 * it changes a field they depend on (`differs` says whether the update changes a sibling field).
 */
export function carriedFields(
  live: Record<string, unknown>,
  sent: Record<string, unknown>,
  rules: Readonly<Record<string, FieldRule>>,
  differs: (field: string) => boolean,
  unknown: FieldRule = untouched
): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(live)) {
    const rule = rules[key] ?? unknown
    if (rule.treatment !== 'carried' || key in sent || value === undefined || value === null) continue
    if (rule.keptWhileSame?.some(differs)) continue
    out[key] = value
  }
  return out
}

/**
 * The notice every plan carries for a record with carried settings: nothing to apply, but a UI edit of
 * something the manifest cannot express is visible all the same.
 */
export function keptSettingsNotice(what: string, paths: readonly string[], at: SourceLocation): Diagnostic {
  return diagnostic(
    'plan',
    'notice',
    `${what} has settings the manifest language cannot express yet (set in the UI?), kept as they are: an update sends them back unchanged: ${paths.join(', ')}`,
    at
  )
}
