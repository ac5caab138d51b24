/**
 * Live resources -> manifest files a human would write: one file per dashboard with its alerts, and one
 * per kind for connections, sources, webhooks and saved searches (with their alerts). Names instead of
 * ids, every server default left out, the short `series` form where it says exactly the same as the
 * tile's config, a comment wherever an id could not be mapped to a name, and secrets only as
 * `${secret.NAME}` placeholders. Pure: the command does the I/O.
 */
import type { Document, Node } from 'yaml'
import {
  sameId,
  type LiveAlert,
  type LiveConnection,
  type LiveDashboard,
  type LiveSavedSearch,
  type LiveSource,
  type LiveTeamMember,
  type LiveTile,
  type LiveWebhook
} from '../api/schemas.js'
import { equal, type JsonObject } from '../json.js'
import { livePlacement } from '../kinds/dashboard/layout.js'
import { WHERE_LANGUAGES } from '../manifest/vocabulary.js'
import { isOwnershipTag, orderedUserTags } from '../kinds/ownership.js'
import { isRegistryDashboard, Registry } from '../kinds/registry.js'
import { TILE_CONFIG_FIELDS } from '../kinds/returned-fields.js'
import { normalizeConfig, normalTile, seriesToConfig, type SeriesLike } from '../kinds/tile-normal-form.js'
import {
  connectionDocuments,
  Namer,
  savedSearchDocument,
  SecretNames,
  sourceDocuments,
  teamMemberDocuments,
  webhookDocuments,
  type ResourceExportInput
} from './resources.js'
import { yamlLibrary } from '../yaml-library.js'

export interface ExportInput {
  dashboards: LiveDashboard[]
  /** Every live dashboard (the selection may be narrower): link-outs name theirs. Default: `dashboards`. */
  allDashboards?: LiveDashboard[]
  alerts: LiveAlert[]
  sources: LiveSource[]
  webhooks?: LiveWebhook[]
  /** Absent where the API cannot list them (managed mode has no connections). */
  connections?: LiveConnection[]
  savedSearches?: LiveSavedSearch[]
  /** Self-hosted: the team's members and invitations (absent: none written). */
  teamMembers?: LiveTeamMember[]
  ownershipTag: string
  /** Which connections, sources and webhooks the stack owns (the rest are exported with `adopt: true`). */
  registry?: Registry
  mode?: 'self-hosted' | 'managed'
  /** Every live record of each kind, for names (the selection may export fewer). */
  all?: Pick<ExportInput, 'sources' | 'webhooks' | 'connections' | 'savedSearches'>
}

export interface ExportedFile {
  /** File name (no folder), unique within the export. */
  name: string
  text: string
  kind: 'Dashboard' | 'Connection' | 'Source' | 'Webhook' | 'SavedSearch' | 'TeamMember'
  /** What it holds, in words: `dashboard "Checkout"`, `webhooks`. */
  what: string
  alerts: number
  /** Alerts of a dashboard whose name another exported one shares: an alert could not say which (see its note). */
  alertsLeftOut?: number
}

export function exportManifests(input: ExportInput): ExportedFile[] {
  const usedFiles = new Set<string>()
  const all = input.all ?? input
  const namer = new Namer({
    Connection: all.connections,
    Source: all.sources,
    Webhook: all.webhooks,
    SavedSearch: all.savedSearches,
    Dashboard: input.allDashboards ?? input.dashboards
  })
  const secrets = new SecretNames()
  const resources: ResourceExportInput = {
    connections: input.connections,
    sources: input.sources,
    savedSearches: input.savedSearches,
    webhooks: input.webhooks,
    teamMembers: input.teamMembers,
    ownershipTag: input.ownershipTag,
    registry: input.registry ?? Registry.empty('', input.ownershipTag),
    mode: input.mode ?? 'self-hosted',
    namer,
    secrets
  }
  const files: ExportedFile[] = []
  const kindFile = (
    kind: ExportedFile['kind'],
    file: string,
    what: string,
    docs: Document[],
    alerts = 0,
    notes: string[] = []
  ) => {
    if (docs.length === 0 && notes.length === 0) return
    const used = secrets.all.splice(0)
    const header = [
      `# Exported ${what} by obsdeploy export.`,
      ...notes.map(n => `# ${n}`),
      ...(used.length > 0
        ? [
            `# Secret variables these manifests need (secret-vars; the CLI: OBSDEPLOY_SECRET_<NAME>): ${used.join(', ')}`
          ]
        : [])
    ].join('\n')
    files.push({
      name: uniqueFileName(file, usedFiles),
      text: `${header}\n${docs.map(doc => doc.toString({ lineWidth: 0 })).join('---\n')}`,
      kind,
      what,
      alerts
    })
  }
  kindFile('Connection', 'connections', 'connections', connectionDocuments(resources))
  kindFile('Source', 'sources', 'data sources', sourceDocuments(resources))
  const skipped: string[] = []
  kindFile('Webhook', 'webhooks', 'webhooks', webhookDocuments(resources, skipped), 0, skipped)
  const searchDocs: Document[] = []
  let searchAlerts = 0
  for (const search of input.savedSearches ?? []) {
    searchDocs.push(savedSearchDocument(search, resources))
    const alerts = input.alerts
      .filter(a => a.source === 'saved_search' && a.savedSearchId === search.id)
      .sort((a, b) => (a.name ?? a.id).localeCompare(b.name ?? b.id))
    for (const a of alerts) searchDocs.push(alertDocument(a, undefined, search, resources))
    searchAlerts += alerts.length
  }
  kindFile('SavedSearch', 'saved-searches', 'saved searches', searchDocs, searchAlerts)
  const teamNotes: string[] = []
  kindFile(
    'TeamMember',
    'team-members',
    'team members',
    teamMemberDocuments(resources, teamNotes),
    0,
    teamNotes
  )
  return [...files, ...dashboardFiles(input, resources, usedFiles)]
}

function dashboardFiles(
  input: ExportInput,
  resources: ResourceExportInput,
  usedFiles: Set<string>
): ExportedFile[] {
  // Same-named dashboards, on the server and in this export: each gets an `id:` pin (pair.ts matches a pin before
  // a name), which is also what lets validate accept manifests of one name (rules.ts checkAcrossDocuments).
  const liveByName = groupByName(
    (input.allDashboards ?? input.dashboards).filter(d => !isRegistryDashboard(d))
  )
  const exportedByName = groupByName(input.dashboards)
  return input.dashboards.map(d => {
    const notes: string[] = []
    const twins = liveByName.get(d.name) ?? []
    const pin = twins.length > 1 ? d.id : undefined
    if (pin !== undefined)
      notes.push(
        `${twins.length} dashboards are named "${d.name}" (ids ${twins.map(t => t.id).join(', ')}): each is pinned to its own with \`id:\`, so a plan matches it by id, not by name, and validate accepts the shared name as long as every manifest of that name keeps its pin`
      )
    const alerts = input.alerts
      .filter(a => a.source !== 'saved_search' && a.dashboardId === d.id)
      .sort((a, b) => (a.name ?? a.id).localeCompare(b.name ?? b.id))
    // An alert names its dashboard by name: with two manifests of that name, it could not say which (rules.ts).
    const sharedHere = (exportedByName.get(d.name) ?? []).length > 1
    if (sharedHere && alerts.length > 0)
      notes.push(
        `its ${alerts.length} alert(s) are not exported (${alerts.map(a => JSON.stringify(a.name ?? a.id)).join(', ')}): an alert names its dashboard by name, which another exported dashboard has too. Rename one of the dashboards (its pin keeps its id) and add its alerts; until then, a plan with prune deletes them`
      )
    const docs = [dashboardDocument(d, input, notes, resources, pin)]
    const exported = sharedHere ? [] : alerts
    for (const a of exported) docs.push(alertDocument(a, d, undefined, resources))
    const name = uniqueFileName(d.name, usedFiles)
    const header = `# Exported from dashboard ${d.id} by obsdeploy export.\n`
    return {
      name,
      text: header + docs.map(doc => doc.toString({ lineWidth: 0 })).join('---\n'),
      kind: 'Dashboard' as const,
      what: `dashboard "${d.name}"`,
      alerts: exported.length,
      ...(exported.length < alerts.length ? { alertsLeftOut: alerts.length - exported.length } : {})
    }
  })
}

function groupByName<T extends { name: string }>(list: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>()
  for (const r of list) out.set(r.name, [...(out.get(r.name) ?? []), r])
  return out
}

function dashboardDocument(
  d: LiveDashboard,
  input: ExportInput,
  notes: string[],
  resources: ResourceExportInput,
  pin: string | undefined
): Document {
  const owned = d.tags.includes(input.ownershipTag)
  const value: Record<string, unknown> = { kind: 'Dashboard', name: d.name }
  if (pin !== undefined) value.id = pin
  const tags = orderedUserTags(d.tags)
  if (tags.length > 0) value.tags = tags
  // Adopting is explicit: an exported dashboard this stack does not own yet is adopted on the next apply.
  if (!owned) value.adopt = true
  // Names from every source, not only the ones the selection exports.
  Object.assign(value, dashboardSettings(d, resources.namer, notes))
  const tileComments = new Map<number, string[]>()
  const seenTiles = new Set<string>()
  value.tiles = d.tiles.map((t, i) => {
    const comments: string[] = []
    if (seenTiles.has(t.name))
      comments.push(
        `another tile of this dashboard is named "${t.name}": tiles are matched by name, rename one`
      )
    seenTiles.add(t.name)
    const tile = exportTile(t, d, resources, comments)
    if (comments.length > 0) tileComments.set(i, comments)
    return tile
  })
  const doc = new (yamlLibrary().Document)(value)
  const other = d.tags.find(t => isOwnershipTag(t) && t !== input.ownershipTag)
  if (other) notes.push(`owned by another stack (${other}): adopting it takes it over`)
  if (notes.length > 0) doc.commentBefore = notes.map(n => ` ${n}`).join('\n')
  const tilesNode = doc.get('tiles', true) as { items?: Node[] } | undefined
  for (const [i, comments] of tileComments) {
    const node = tilesNode?.items?.[i]
    if (node) node.commentBefore = comments.map(c => ` ${c}`).join('\n')
  }
  return doc
}

type Body = Record<string, unknown>
const records = (v: unknown): Body[] => (Array.isArray(v) ? (v as Body[]) : [])

/**
 * The dashboard-level settings in the manifest's words: filters with their sources by name, the saved query (its
 * language only where it is not the default), saved filter values, containers by title. No ids.
 */
function dashboardSettings(d: LiveDashboard, namer: Namer, notes: string[]): Body {
  const out: Body = {}
  const filters = records(d.filters).map(f => {
    const { id: _id, type, sourceId, appliesToSourceIds, ...rest } = f
    const filter: Body = type === 'QUERY_EXPRESSION' ? {} : { type }
    filter.name = rest.name
    filter.expression = rest.expression
    Object.assign(filter, namer.ref('Source', 'source', sourceId, notes, 'data source'))
    for (const [k, v] of Object.entries(rest))
      if (!(k in filter) && v !== undefined && v !== null) filter[k] = v
    if (Array.isArray(appliesToSourceIds) && appliesToSourceIds.length > 0) {
      const named = appliesToSourceIds.map(id => namer.ref('Source', 'source', id, [], 'data source').source)
      if (named.every(n => n !== undefined)) filter.appliesToSources = named
      else {
        filter.appliesToSourceIds = appliesToSourceIds
        notes.push(
          `filter "${String(rest.name)}": a source it applies to has no unique name: kept as appliesToSourceIds`
        )
      }
    }
    return filter
  })
  if (filters.length > 0) out.filters = filters
  if (typeof d.savedQuery === 'string' && d.savedQuery !== '') out.savedQuery = d.savedQuery
  // The server makes a query without a language Lucene: only another language is worth writing.
  const language = d.savedQueryLanguage ?? undefined
  if (language !== undefined && !(language === 'lucene' && out.savedQuery !== undefined))
    out.savedQueryLanguage = language
  const values = records(d.savedFilterValues).map(v => (v.type === 'sql' ? { condition: v.condition } : v))
  if (values.length > 0) out.savedFilterValues = values
  const containers = records(d.containers).map(c => {
    const container: Body = { title: c.title }
    if (c.collapsed === true) container.collapsed = true
    if (typeof c.collapsible === 'boolean') container.collapsible = c.collapsible
    if (typeof c.bordered === 'boolean') container.bordered = c.bordered
    if (Array.isArray(c.tabs)) container.tabs = records(c.tabs).map(t => ({ title: t.title }))
    return container
  })
  const titles = containers.map(c => c.title)
  if (new Set(titles).size !== titles.length)
    notes.push('two containers share a title: tiles name containers by title, rename one')
  if (containers.length > 0) out.containers = containers
  return out
}

/** The series form when it round-trips to exactly the tile's config; otherwise the config form. */
function exportTile(
  t: LiveTile,
  d: LiveDashboard,
  resources: ResourceExportInput,
  comments: string[]
): Record<string, unknown> {
  const base: Record<string, unknown> = { name: t.name, x: t.x, y: t.y, w: t.w, h: t.h }
  Object.assign(base, livePlacement(t, d))
  // A manifest tile needs a form and a type: where the server gave none, the plan's reading is written, and said.
  if (!t.config && !t.series)
    comments.push(
      'the server returned this tile with neither config nor series: written as a plan reads it, an empty line chart'
    )
  else if (!t.config && t.series?.[0]?.type === undefined)
    comments.push('the server returned this series without a type: written as a plan reads it, type time')
  // Exactly what the server holds (its own defaults aside): applying the manifest must change nothing.
  const config = modelledOnly(
    normalTile(
      {
        name: t.name,
        x: t.x,
        y: t.y,
        w: t.w,
        h: t.h,
        config: t.config ?? undefined,
        series: (t.series as SeriesLike[] | null) ?? undefined,
        asRatio: t.asRatio
      },
      true
    ).config,
    comments
  )
  const sourceRef = resources.namer.ref('Source', 'source', config.sourceId, comments, 'data source')
  const series = asSeries(config)
  if (series && equal(storedFromSeries(series.series, series.asRatio), config)) {
    const out: Record<string, unknown> = { ...base }
    if (series.asRatio) out.asRatio = true
    out.series = series.series.map(s => {
      const { sourceId: _id, ...rest } = s
      return s.type === 'markdown' ? rest : { type: rest.type, ...sourceRef, ...omit(rest, ['type']) }
    })
    return out
  }
  const { sourceId: _id, connectionId, onClick, ...rest } = config
  // A raw-SQL tile's connection: by name, except in managed mode (the cloud cannot list connections).
  const connectionRef =
    connectionId === undefined
      ? {}
      : resources.mode === 'managed'
        ? { connectionId }
        : resources.namer.ref('Connection', 'connection', connectionId, comments, 'connection')
  return {
    ...base,
    config: {
      ...(rest.configType !== undefined ? { configType: rest.configType } : {}),
      displayType: rest.displayType,
      ...connectionRef,
      ...(config.sourceId !== undefined ? sourceRef : {}),
      ...omit(rest, ['displayType', 'configType']),
      ...(onClick !== undefined ? { onClick: namedTarget(onClick as Body, resources.namer, comments) } : {})
    }
  }
}

/** What the server stores for a series tile (FACTS.md: groupBy joined with ','), exactly. */
function storedFromSeries(series: SeriesLike[], asRatio: boolean): JsonObject {
  const config = seriesToConfig(series, asRatio)
  if (Array.isArray(config.groupBy)) {
    if (config.groupBy.length > 0 && config.displayType !== 'number')
      config.groupBy = config.groupBy.join(',')
    else delete config.groupBy
  }
  return normalizeConfig(config, true)
}

/** A link-out's target by name: a dashboard by its (unique) name, a search page's source by its name. */
function namedTarget(link: Body, namer: Namer, comments: string[]): Body {
  const target = link.target as Body | undefined
  if (!target || target.mode !== 'id' || typeof target.id !== 'string') return link
  const named =
    link.type === 'search'
      ? namer.ref('Source', 'source', target.id, comments, 'data source', 'id')
      : namer.ref('Dashboard', 'dashboard', target.id, comments, 'dashboard', 'id')
  return { ...link, target: { mode: 'id', ...named } }
}

/** The config keys the manifest language has; the others are named in a comment. */
function modelledOnly(config: JsonObject, comments: string[]): JsonObject {
  const out: JsonObject = {}
  const kept: string[] = []
  for (const [key, value] of Object.entries(config)) {
    const rule = TILE_CONFIG_FIELDS[key]
    if (rule?.treatment === 'compared') out[key] = value
    else kept.push(key)
  }
  if (kept.length > 0) {
    comments.push(
      `${kept.join(', ')}: set in the UI, not in the manifest language yet; an update sends them back as they are`
    )
  }
  return out
}

/** The config as CONTRACT.md series, when every part of it has a series equivalent. */
function asSeries(config: JsonObject): { series: SeriesLike[]; asRatio: boolean } | undefined {
  const type = config.displayType
  const allowed = new Set([
    'displayType',
    'sourceId',
    'select',
    'groupBy',
    'asRatio',
    'numberFormat',
    'where',
    'whereLanguage',
    'markdown'
  ])
  if (Object.keys(config).some(k => !allowed.has(k))) return undefined
  // A series filters in Lucene or SQL only.
  const languages = [config, ...(Array.isArray(config.select) ? config.select : [])].map(
    c => (c as JsonObject | null)?.whereLanguage
  )
  if (languages.some(l => l !== undefined && !(WHERE_LANGUAGES as readonly unknown[]).includes(l)))
    return undefined
  // A series' content is required: a markdown tile without text stays in the config form, as stored.
  if (type === 'markdown')
    return typeof config.markdown === 'string'
      ? { series: [{ type: 'markdown', content: config.markdown }], asRatio: false }
      : undefined
  const sourceId = typeof config.sourceId === 'string' ? config.sourceId : undefined
  if (type === 'search') {
    const fields = String(config.select ?? '')
      .split(',')
      .map(f => f.trim())
      .filter(Boolean)
    if (fields.length === 0) return undefined
    const s: SeriesLike = { type: 'search', sourceId, fields }
    if (config.where !== undefined) s.where = String(config.where)
    if (config.whereLanguage !== undefined) s.whereLanguage = String(config.whereLanguage)
    return { series: [s], asRatio: false }
  }
  const seriesType =
    type === 'line' || type === 'stacked_bar'
      ? 'time'
      : type === 'number' || type === 'table'
        ? type
        : undefined
  if (!seriesType || !Array.isArray(config.select)) return undefined
  const groupBy =
    typeof config.groupBy === 'string' ? config.groupBy.split(',').map(g => g.trim()) : undefined
  const series = config.select.map((item, i) => {
    const sel = item as JsonObject
    const s: SeriesLike = { type: seriesType, sourceId, aggFn: String(sel.aggFn) }
    if (type === 'stacked_bar') s.displayType = 'stacked_bar'
    if (sel.valueExpression !== undefined) s.field = String(sel.valueExpression)
    if (sel.level !== undefined) s.level = Number(sel.level)
    if (sel.where !== undefined) s.where = String(sel.where)
    if (sel.whereLanguage !== undefined) s.whereLanguage = String(sel.whereLanguage)
    if (sel.alias !== undefined) s.alias = String(sel.alias)
    if (sel.metricName !== undefined) s.metricName = String(sel.metricName)
    if (sel.metricType !== undefined) s.metricDataType = String(sel.metricType)
    if (groupBy && seriesType !== 'number') s.groupBy = groupBy
    if (i === 0 && config.numberFormat !== undefined) s.numberFormat = config.numberFormat
    return s
  })
  return { series, asRatio: config.asRatio === true }
}

function alertDocument(
  a: LiveAlert,
  d: LiveDashboard | undefined,
  search: LiveSavedSearch | undefined,
  resources: ResourceExportInput
): Document {
  const comments: string[] = []
  const value: Record<string, unknown> = { kind: 'Alert', name: a.name ?? `alert ${a.id}` }
  if (search) {
    value.source = 'saved_search'
    value.savedSearch = search.name
    if (a.groupBy) value.groupBy = a.groupBy
  } else if (d) {
    const tile = d.tiles.find(t => sameId(t.id, a.tileId))
    if (!tile) comments.push(`tile id ${a.tileId ?? '(none)'} could not be mapped to a tile of "${d.name}"`)
    value.dashboard = d.name
    value.tile = tile?.name ?? String(a.tileId ?? '')
  }
  if (!a.name)
    comments.push(
      `alert ${a.id} has no name on the server: this one was made up, and applying it names the alert`
    )
  value.threshold = a.threshold
  if (a.thresholdMax !== undefined && a.thresholdMax !== null) value.thresholdMax = a.thresholdMax
  value.thresholdType = a.thresholdType
  value.interval = a.interval
  const channels = (a.channels ?? (a.channel ? [a.channel] : [])).map(c =>
    exportChannel(c, resources, comments)
  )
  if (channels.length === 1) value.channel = channels[0]
  else if (channels.length > 1) value.channels = channels
  if (a.message) value.message = a.message
  if (
    a.numConsecutiveWindows !== undefined &&
    a.numConsecutiveWindows !== null &&
    a.numConsecutiveWindows !== 1
  ) {
    value.numConsecutiveWindows = a.numConsecutiveWindows
  }
  if (a.note) value.note = a.note
  if (a.scheduleOffsetMinutes) value.scheduleOffsetMinutes = a.scheduleOffsetMinutes
  if (a.scheduleStartAt) value.scheduleStartAt = a.scheduleStartAt
  const doc = new (yamlLibrary().Document)(value)
  if (comments.length > 0) doc.commentBefore = comments.map(c => ` ${c}`).join('\n')
  return doc
}

/** A channel in the manifest's words: its webhook by name (or id), the managed extras and email as read. */
function exportChannel(
  c: Record<string, unknown>,
  resources: ResourceExportInput,
  comments: string[]
): Record<string, unknown> {
  if (c.type === 'email') {
    // The manifest language requires the list: written empty, and said, where the server returned none.
    if (c.emailRecipients === undefined || c.emailRecipients === null)
      comments.push('email channel: the server returned no emailRecipients: written as an empty list')
    return { type: 'email', emailRecipients: c.emailRecipients ?? [] }
  }
  const { type: _type, webhookId, ...extras } = c
  const out: Record<string, unknown> = {
    type: 'webhook',
    ...resources.namer.ref('Webhook', 'webhook', webhookId, comments, 'webhook')
  }
  for (const [k, v] of Object.entries(extras)) if (v !== null && v !== undefined) out[k] = v
  return out
}

function omit(o: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([k, v]) => !keys.includes(k) && v !== undefined))
}

function uniqueFileName(dashboardName: string, used: Set<string>): string {
  const slug =
    dashboardName
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'dashboard'
  let name = `${slug}.yaml`
  for (let n = 2; used.has(name); n++) name = `${slug}-${n}.yaml`
  used.add(name)
  return name
}
