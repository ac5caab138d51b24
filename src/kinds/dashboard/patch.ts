/**
 * The narrowest write the server offers for a dashboard update. A v2 PUT rewrites every tile through the API's
 * form, which resets the settings only the web UI can set (ui-only.ts) on all of them, also on tiles the update does
 * not change. HyperDX's MCP tool `clickstack_patch_dashboard` (api/mcp.ts) sets the name and tags and replaces one
 * tile by id, leaving every other stored tile as it is. So an update that changes only the name, the tags and
 * existing tiles, where every changed tile says all it says in the tool's tile form, is sent as patches: one per
 * changed tile (a tile renamed keeping its `id:` pin is a changed tile), the first also with the name and tags.
 * Anything else (tiles added or removed, filters, the saved
 * query, containers, a tile moved between containers, a form the tool would narrow) takes the PUT.
 */
import type { LiveDashboard, LiveTile } from '../../api/schemas.js'
import { isMetricItem } from '../../manifest/metric-item.js'
import { keyedField } from '../../plan/diff.js'
import type { Change } from '../../plan/types.js'
import { holdsUnmanagedSettings, seriesAsConfig, tileAsSent } from './carry.js'
import type { DashboardRequest, DashboardWrite } from './desired.js'
import { pairTiles, tileSpecs } from './tiles.js'

type Body = Record<string, unknown>

/** The tool's tile config keys by display type (mcp/tools/dashboards/schemas.ts); any other is dropped by it. */
const COMMON = ['displayType', 'sourceId', 'select', 'numberFormat']
const PATCH_CONFIG_KEYS: Readonly<Record<string, readonly string[]>> = {
  line: [
    ...COMMON,
    'groupBy',
    'fillNulls',
    'alignDateRangeToGranularity',
    'asRatio',
    'compareToPreviousPeriod',
    'fitYAxisToData',
    'seriesLimit'
  ],
  stacked_bar: [...COMMON, 'groupBy', 'fillNulls', 'alignDateRangeToGranularity', 'asRatio', 'seriesLimit'],
  table: [...COMMON, 'groupBy', 'having', 'orderBy', 'asRatio', 'groupByColumnsOnLeft'],
  number: [...COMMON, 'color'],
  pie: [...COMMON, 'groupBy', 'orderBy', 'limit'],
  bar: [...COMMON, 'groupBy', 'orderBy', 'limit'],
  heatmap: [...COMMON, 'where', 'whereLanguage'],
  search: ['displayType', 'sourceId', 'select', 'where', 'whereLanguage'],
  event_patterns: ['displayType', 'sourceId', 'select', 'where', 'whereLanguage'],
  markdown: ['displayType', 'markdown']
}
const PATCH_SQL_KEYS = [
  'configType',
  'displayType',
  'connectionId',
  'sourceId',
  'sqlTemplate',
  'fillNulls',
  'alignDateRangeToGranularity',
  'numberFormat',
  'compareToPreviousPeriod',
  'fitYAxisToData',
  'color'
]
const PATCH_SQL_TYPES = ['line', 'stacked_bar', 'table', 'number', 'pie', 'bar']
/** A select item's keys. Not `periodAggFn` (the tool knows `isDelta` instead): a tile with one takes the PUT. */
const PATCH_SELECT_KEYS = [
  'aggFn',
  'valueExpression',
  'where',
  'whereLanguage',
  'alias',
  'level',
  'numberFormat',
  'metricName',
  'metricType'
]
/** The metric types the tool takes (mcpTileMetricTypeSchema: not summary). */
const PATCH_METRIC_TYPES = ['gauge', 'sum', 'histogram', 'exponential histogram']
const PATCH_HEATMAP_SELECT_KEYS = ['valueExpression', 'countExpression', 'heatmapScaleType']
const PATCH_NUMBER_FORMAT_KEYS = [
  'output',
  'mantissa',
  'thousandSeparated',
  'average',
  'decimalBytes',
  'factor',
  'currencySymbol',
  'unit'
]
/** The tool takes a quantile level only from this set. */
const PATCH_LEVELS = [0.5, 0.9, 0.95, 0.99]

const within = (value: unknown, keys: readonly string[]): boolean =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  // A key whose value is undefined is not sent.
  Object.entries(value).every(([k, v]) => v === undefined || keys.includes(k))

function patchableFormat(value: unknown): boolean {
  return value === undefined || within(value, PATCH_NUMBER_FORMAT_KEYS)
}

/**
 * The tool's own checks of a select item's metric fields, which the API does not make (mcp/tools/query/schemas.ts
 * getMetricSelectIssues): name and type together, a type it knows, increase only on a sum, a histogram only with
 * quantile or count. Its missing value expression the tool fills in with `Value`, as an update sends it anyway.
 */
function toolTakesMetric(s: Body): boolean {
  if (s.aggFn === 'increase' && s.metricType !== 'sum') return false
  if (s.metricName === undefined && s.metricType === undefined) return true
  if (!isMetricItem(s) || !PATCH_METRIC_TYPES.includes(s.metricType as string)) return false
  const histogram = s.metricType === 'histogram' || s.metricType === 'exponential histogram'
  return !histogram || s.aggFn === 'quantile' || s.aggFn === 'count'
}

/** The config as the tool takes it, when it says all the API's form says; undefined when it would not. */
function patchConfig(config: Body): Body | undefined {
  const type = String(config.displayType)
  const sql = config.configType === 'sql'
  if (
    sql
      ? !PATCH_SQL_TYPES.includes(type) || !within(config, PATCH_SQL_KEYS)
      : !within(config, PATCH_CONFIG_KEYS[type] ?? [])
  )
    return undefined
  if (!patchableFormat(config.numberFormat)) return undefined
  if (Array.isArray(config.select)) {
    const keys = type === 'heatmap' ? PATCH_HEATMAP_SELECT_KEYS : PATCH_SELECT_KEYS
    for (const item of config.select as unknown[]) {
      if (!within(item, keys)) return undefined
      const s = item as Body
      if (!patchableFormat(s.numberFormat)) return undefined
      if (s.level !== undefined && !PATCH_LEVELS.includes(s.level as number)) return undefined
      if (!toolTakesMetric(s)) return undefined
    }
  }
  return config
}

/** The tile as the patch tool takes it, or undefined when the tool's form would lose something of it. */
export function patchTile(body: Body, live: LiveTile): Body | undefined {
  // A setting carried from the live tile (a newer server's key) is one the tool would drop.
  if (holdsUnmanagedSettings(live)) return undefined
  const sent = tileAsSent(body, live)
  const config = (sent.config as Body | undefined) ?? seriesAsConfig(sent)
  const patched = config ? patchConfig(config) : undefined
  if (!patched) return undefined
  return { name: sent.name, x: sent.x, y: sent.y, w: sent.w, h: sent.h, config: patched }
}

/** How this update is sent (see the module's comment). `canPatch`: the server offers the tool. */
export function dashboardWrite(
  change: Pick<Change, 'fields'>,
  d: DashboardRequest,
  live: LiveDashboard,
  canPatch: boolean
): DashboardWrite {
  if (!canPatch) return { via: 'put' }
  const pairing = pairTiles(tileSpecs(d), live)
  // Each key of the diff to the desired tile's key it changes: a tile renamed keeping its `id:` pin shows as its
  // old key removed and its new one added, and is patched by id like any changed tile.
  const liveKeys = new Map([...pairing.live].map(([k, t]) => [t, k]))
  const changes = new Map<string, string>()
  const renamed = new Set<string>()
  const tiles = new Map(
    d.tiles.map((t, i) => {
      const { key, live: paired } = pairing.desired[i]!
      const liveKey = paired && liveKeys.get(paired)!
      if (liveKey !== undefined) changes.set(key, key).set(liveKey, key)
      if (liveKey !== undefined && liveKey !== key) renamed.add(key)
      return [key, { body: t.body, live: paired }]
    })
  )
  const changed = new Set<string>()
  for (const f of change.fields) {
    if (f.path === 'name' || f.path === 'owner' || f.path === 'tags' || f.path.startsWith('tags[')) continue
    const at = keyedField(f.path, 'tiles')
    // Anything outside the tiles; a tile moved between containers and tabs.
    if (!at || /^\.(container|tab)\b/.test(at.rest)) return { via: 'put' }
    const key = changes.get(at.key)
    // A tile added or removed (a whole tile, and not one side of a rename).
    if (key === undefined || (at.rest === '' && !renamed.has(key))) return { via: 'put' }
    changed.add(key)
  }
  for (const key of changed) {
    const { body, live: paired } = tiles.get(key)!
    if (paired?.id === undefined || !patchTile(body, paired)) return { via: 'put' }
  }
  return { via: 'patch', tiles: [...changed] }
}
