/**
 * Live dashboards and alerts -> manifest files a human would write: names instead of ids, every server
 * default left out, the short `series` form where it says exactly the same as the tile's config, and a
 * comment wherever an id could not be mapped to a name. Pure: the command does the I/O.
 */
import { Document, type Node } from 'yaml'
import {
  sameId,
  type LiveAlert,
  type LiveDashboard,
  type LiveSource,
  type LiveTile,
  type LiveWebhook
} from '../api/schemas.js'
import { equal, type JsonObject } from '../json.js'
import { isOwnershipTag, userTags } from '../kinds/ownership.js'
import { TILE_CONFIG_FIELDS } from '../kinds/returned-fields.js'
import { normalizeConfig, normalTile, seriesToConfig, type SeriesLike } from '../kinds/tile-normal-form.js'

export interface ExportInput {
  dashboards: LiveDashboard[]
  alerts: LiveAlert[]
  sources: LiveSource[]
  webhooks?: LiveWebhook[]
  ownershipTag: string
}

export interface ExportedFile {
  /** File name (no folder), unique within the export. */
  name: string
  text: string
  dashboard: string
  alerts: number
}

export function exportManifests(input: ExportInput): ExportedFile[] {
  const usedFiles = new Set<string>()
  const seenNames = new Map<string, string>()
  return input.dashboards.map(d => {
    const notes: string[] = []
    const duplicateOf = seenNames.get(d.name)
    if (duplicateOf)
      notes.push(`another dashboard (${duplicateOf}) has this name too: rename one of them before planning`)
    else seenNames.set(d.name, d.id)
    const docs = [dashboardDocument(d, input, notes)]
    const alerts = input.alerts
      .filter(a => a.dashboardId === d.id)
      .sort((a, b) => (a.name ?? a.id).localeCompare(b.name ?? b.id))
    for (const a of alerts) docs.push(alertDocument(a, d, input))
    const name = uniqueFileName(d.name, usedFiles)
    const header = `# Exported from dashboard ${d.id} by obsdeploy export.\n`
    return {
      name,
      text: header + docs.map(doc => doc.toString({ lineWidth: 0 })).join('---\n'),
      dashboard: d.name,
      alerts: alerts.length
    }
  })
}

function dashboardDocument(d: LiveDashboard, input: ExportInput, notes: string[]): Document {
  const owned = d.tags.includes(input.ownershipTag)
  const value: Record<string, unknown> = { kind: 'Dashboard', name: d.name }
  const tags = userTags(d.tags)
  if (tags.length > 0) value.tags = tags
  // Adopting is explicit: an exported dashboard this stack does not own yet is adopted on the next apply.
  if (!owned) value.adopt = true
  const tileComments = new Map<number, string[]>()
  const seenTiles = new Set<string>()
  value.tiles = d.tiles.map((t, i) => {
    const comments: string[] = []
    if (seenTiles.has(t.name))
      comments.push(
        `another tile of this dashboard is named "${t.name}": tiles are matched by name, rename one`
      )
    seenTiles.add(t.name)
    const tile = exportTile(t, input.sources, comments)
    if (comments.length > 0) tileComments.set(i, comments)
    return tile
  })
  const doc = new Document(value)
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

/** The series form when it round-trips to exactly the tile's config; otherwise the config form. */
function exportTile(
  t: LiveTile,
  sources: readonly LiveSource[],
  comments: string[]
): Record<string, unknown> {
  const base = { name: t.name, x: t.x, y: t.y, w: t.w, h: t.h }
  const config = modelledOnly(
    normalTile({
      ...base,
      config: t.config ?? undefined,
      series: (t.series as SeriesLike[] | null) ?? undefined,
      asRatio: t.asRatio
    }).config,
    comments
  )
  const sourceRef = sourceReference(config.sourceId, sources, comments)
  const series = asSeries(config)
  if (series && equal(normalizeConfig(seriesToConfig(series.series, series.asRatio)), config)) {
    const out: Record<string, unknown> = { ...base }
    if (series.asRatio) out.asRatio = true
    out.series = series.series.map(s => {
      const { sourceId: _id, ...rest } = s
      return s.type === 'markdown' ? rest : { type: rest.type, ...sourceRef, ...omit(rest, ['type']) }
    })
    return out
  }
  const { sourceId: _id, ...rest } = config
  return {
    ...base,
    config: {
      displayType: rest.displayType,
      ...(config.sourceId !== undefined ? sourceRef : {}),
      ...omit(rest, ['displayType'])
    }
  }
}

/** The config keys the manifest language has; the others are named in a comment. */
function modelledOnly(config: JsonObject, comments: string[]): JsonObject {
  const out: JsonObject = {}
  const kept: string[] = []
  for (const [key, value] of Object.entries(config)) {
    const rule = TILE_CONFIG_FIELDS[key]
    if (rule?.treatment === 'compared' && !rule.unexpressible) out[key] = value
    else kept.push(key)
  }
  if (config.configType === 'sql') {
    comments.push(
      'a raw-SQL tile: the manifest language cannot express it yet, and applying this builder form would replace its SQL'
    )
  } else if (kept.length > 0) {
    comments.push(
      `${kept.join(', ')}: set in the UI, not in the manifest language yet; an update sends them back as they are`
    )
  }
  return out
}

function sourceReference(
  id: unknown,
  sources: readonly LiveSource[],
  comments: string[]
): Record<string, string> {
  if (typeof id !== 'string') return {}
  const named = sources.filter(s => s.id === id)
  const sameName = named[0] ? sources.filter(s => s.name === named[0]!.name) : []
  if (named.length === 1 && sameName.length === 1 && named[0]!.name) return { source: named[0]!.name }
  comments.push(
    named.length === 0
      ? `data source id ${id} could not be mapped to a name (no such source): kept as sourceId`
      : `data source id ${id} has a name shared by another source: kept as sourceId`
  )
  return { sourceId: id }
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
  if (type === 'markdown')
    return { series: [{ type: 'markdown', content: String(config.markdown ?? '') }], asRatio: false }
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
  const groupBy = typeof config.groupBy === 'string' ? config.groupBy.split(',') : undefined
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

function alertDocument(a: LiveAlert, d: LiveDashboard, input: ExportInput): Document {
  const comments: string[] = []
  const tile = d.tiles.find(t => sameId(t.id, a.tileId))
  if (!tile) comments.push(`tile id ${a.tileId ?? '(none)'} could not be mapped to a tile of "${d.name}"`)
  const value: Record<string, unknown> = {
    kind: 'Alert',
    name: a.name ?? `alert ${a.id}`,
    dashboard: d.name,
    tile: tile?.name ?? String(a.tileId ?? '')
  }
  if (!a.name)
    comments.push(
      `alert ${a.id} has no name on the server: this one was made up, and applying it names the alert`
    )
  if (a.source && a.source !== 'tile') value.source = a.source
  value.threshold = a.threshold
  if (a.thresholdMax !== undefined && a.thresholdMax !== null) value.thresholdMax = a.thresholdMax
  value.thresholdType = a.thresholdType
  value.interval = a.interval
  const webhookId = a.channel?.webhookId ?? a.channels?.[0]?.webhookId ?? undefined
  const hook = webhookId !== undefined ? input.webhooks?.filter(w => w.id === webhookId) : undefined
  const unique = hook?.length === 1 && input.webhooks!.filter(w => w.name === hook[0]!.name).length === 1
  if (hook && unique && hook[0]!.name) value.channel = { type: 'webhook', webhook: hook[0]!.name }
  else {
    value.channel = { type: 'webhook', webhookId: webhookId ?? '' }
    comments.push(
      input.webhooks === undefined
        ? 'webhooks cannot be listed in this mode: kept as webhookId'
        : `webhook id ${webhookId ?? '(none)'} could not be mapped to a unique name: kept as webhookId`
    )
  }
  if (a.message) value.message = a.message
  if (
    a.numConsecutiveWindows !== undefined &&
    a.numConsecutiveWindows !== null &&
    a.numConsecutiveWindows !== 1
  ) {
    value.numConsecutiveWindows = a.numConsecutiveWindows
  }
  if (a.note) value.note = a.note
  const doc = new Document(value)
  if (comments.length > 0) doc.commentBefore = comments.map(c => ` ${c}`).join('\n')
  return doc
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
