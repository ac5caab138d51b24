/**
 * A dashboard's tiles as manifests: the short `series` form where it says exactly what the tile's config says,
 * else the config form; sources, connections and link-out targets by name; a comment on each setting the
 * manifest language cannot say yet. Exactly what the server holds (its own defaults aside), so applying the
 * manifest changes nothing.
 */
import type { LiveDashboard, LiveTile } from '../../api/schemas.js'
import { equal, type JsonObject } from '../../json.js'
import { WHERE_LANGUAGES } from '../../manifest/vocabulary.js'
import type { Namer } from '../exporting.js'
import type { ExportContext } from '../kind.js'
import { TILE_CONFIG_FIELDS } from '../returned-fields.js'
import { normalizeConfig, normalTile, seriesToConfig, type SeriesLike } from '../tile-normal-form.js'
import { livePlacement } from './layout.js'

type Body = Record<string, unknown>

/** The series form when it round-trips to exactly the tile's config; otherwise the config form. */
export function exportTile(
  t: LiveTile,
  d: LiveDashboard,
  ctx: ExportContext,
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
  const sourceRef = ctx.namer.ref('Source', 'source', config.sourceId, comments, 'data source')
  const series = asSeries(config)
  if (!ctx.alternateForms && series && equal(storedFromSeries(series.series, series.asRatio), config)) {
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
      : ctx.mode === 'managed'
        ? { connectionId }
        : ctx.namer.ref('Connection', 'connection', connectionId, comments, 'connection')
  return {
    ...base,
    config: {
      ...(rest.configType !== undefined ? { configType: rest.configType } : {}),
      displayType: rest.displayType,
      ...connectionRef,
      ...(config.sourceId !== undefined ? sourceRef : {}),
      ...omit(rest, ['displayType', 'configType']),
      ...(onClick !== undefined ? { onClick: namedTarget(onClick as Body, ctx.namer, comments) } : {})
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

function omit(o: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([k, v]) => !keys.includes(k) && v !== undefined))
}
