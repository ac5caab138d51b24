/**
 * One normal form for a tile, whichever form it was written or read in. FACTS.md: the server stores a
 * `series` tile in the newer `config` form, joins groupBy, drops dataSource, keeps only the first
 * series of a number tile, keeps asRatio only where it means something, and fills in defaults. A plan
 * that compared the forms as written would show changes on every run, so both the manifest's tile and
 * the server's tile are reduced to this form before any comparison.
 */
import { clean, equal, sortedKeys, type Json, type JsonObject } from '../json.js'
import { isMetricItem, METRIC_VALUE_EXPRESSION } from '../manifest/metric-item.js'
import { SELECT_ITEM_FIELDS } from './returned-fields.js'

/** The comparable part of a tile: layout plus a config with every default removed. */
export interface NormalTile {
  name: string
  x: number
  y: number
  w: number
  h: number
  config: JsonObject
}

/** A series as CONTRACT.md shows it (with `sourceId` resolved), from a manifest or an older server. */
export interface SeriesLike {
  type?: string
  sourceId?: string
  aggFn?: string
  field?: string
  level?: number
  where?: string
  whereLanguage?: string
  groupBy?: string[] | string
  alias?: string
  metricName?: string
  metricDataType?: string
  displayType?: string
  numberFormat?: unknown
  fields?: string[]
  content?: string
  [key: string]: unknown
}

/** HyperDX returns asRatio on builder line, stacked_bar and table tiles: true with exactly two select items. */
const RATIO_TYPES = ['line', 'stacked_bar', 'table']

/** FACTS.md "How a series tile comes back": series -> config. */
export function seriesToConfig(series: readonly SeriesLike[], asRatio: boolean | undefined): JsonObject {
  const first = series[0] ?? {}
  const type = first.type ?? 'time'
  const displayType = type === 'time' ? (first.displayType === 'stacked_bar' ? 'stacked_bar' : 'line') : type
  if (displayType === 'markdown') return { displayType, markdown: first.content ?? '' }
  const config: Record<string, unknown> = { displayType, sourceId: first.sourceId }
  if (displayType === 'search') {
    config.select = (first.fields ?? []).join(', ')
    config.where = first.where ?? ''
    config.whereLanguage = first.whereLanguage ?? 'lucene'
    return config as JsonObject
  }
  const kept = displayType === 'number' ? series.slice(0, 1) : series
  config.select = kept.map(s => ({
    aggFn: s.aggFn,
    where: s.where ?? '',
    whereLanguage: s.whereLanguage ?? 'lucene',
    valueExpression: s.aggFn === 'count' ? undefined : s.field,
    alias: s.alias,
    level: s.level,
    metricName: s.metricName,
    metricType: s.metricDataType
  }))
  const numberFormat = kept.find(s => s.numberFormat !== undefined)?.numberFormat
  if (numberFormat !== undefined) config.numberFormat = numberFormat
  if (first.groupBy !== undefined) config.groupBy = first.groupBy
  if (RATIO_TYPES.includes(displayType)) config.asRatio = asRatio === true && kept.length === 2
  return config as JsonObject
}

/**
 * Defaults the server fills in (FACTS.md and the OpenAPI `default`s). A key whose value equals its
 * default is dropped, so "unset" and "set to the default" compare equal.
 */
const CONFIG_DEFAULTS: Record<string, Json> = {
  // alignDateRangeToGranularity, fitYAxisToData and compareToPreviousPeriod are returned only when set
  // (udash convertToExternalTileChartConfig): an explicit value is a value, not a default.
  asRatio: false,
  fillNulls: true,
  showOperandSeries: true,
  groupByColumnsOnLeft: false,
  where: '',
  whereLanguage: 'lucene'
}
/** The defaults the server itself returns when a config does not set them (udash convertToExternalTileChartConfig). */
const RETURNED_DEFAULTS: Record<string, Json> = {
  asRatio: false,
  fillNulls: true,
  where: '',
  whereLanguage: 'lucene'
}
const SELECT_DEFAULTS: Record<string, Json> = { where: '', whereLanguage: 'lucene' }
const KNOWN_SELECT_KEYS = new Set(Object.keys(SELECT_ITEM_FIELDS))

/**
 * Every config key is part of the normal form: the ones the manifest models, and the ones an update sends
 * back as read (returned-fields.ts), which then compare equal. A key the update cannot keep so shows as
 * a change. Defaults are dropped, so "unset" and "set to the default" compare equal.
 *
 * `exact` (export) keeps what the server stores as it stores it: texts as written, a number format where it
 * is, and only the defaults the server returns by itself left out, so a manifest written from it changes nothing.
 */
export function normalizeConfig(config: Record<string, unknown>, exact = false): JsonObject {
  const displayType = String(config.displayType ?? 'line')
  const defaults = exact ? RETURNED_DEFAULTS : CONFIG_DEFAULTS
  const out: Record<string, Json> = {}
  for (const key of sortedKeys(config)) {
    // A number tile shows one value: a grouping has no effect there, and servers differ on keeping it.
    if (key === 'groupBy' && displayType === 'number') continue
    let value = config[key]
    if (key === 'sourceId' && typeof value === 'number')
      value = String(value) // ids compare as text
    else if (key === 'select') value = normalizeSelect(value, displayType, exact)
    else if (key === 'groupBy' && !exact) value = normalizeGroupBy(value)
    else if (key === 'markdown' && typeof value === 'string' && !exact) value = value.replace(/\s+$/, '')
    // Exactly as stored: an empty text or list inside a setting is a value too (the select items excepted).
    const v = exact && key !== 'select' ? verbatim(value) : clean(value)
    if (v === undefined) continue
    if (key in defaults && equal(v, defaults[key]!)) continue
    out[key] = v
  }
  // A series' number format may come back on the tile or on its select item: compare it on the tile.
  if (!exact && out.numberFormat === undefined && Array.isArray(out.select)) {
    const formats = out.select.map(s => (s as JsonObject).numberFormat).filter(f => f !== undefined)
    if (formats.length > 0 && formats.every(f => equal(f, formats[0]))) {
      out.numberFormat = formats[0]!
      out.select = out.select.map(s => {
        const { numberFormat: _moved, ...rest } = s as JsonObject
        return rest
      })
    }
  }
  // asRatio survives only on a line, stacked_bar or table tile with exactly two series (FACTS.md). Its
  // default (false) is already gone, so here it is true or absent.
  if (!(RATIO_TYPES.includes(displayType) && Array.isArray(out.select) && out.select.length === 2))
    delete out.asRatio
  return out
}

function normalizeSelect(value: unknown, displayType: string, exact: boolean): Json | undefined {
  // An event-pattern tile's select is one expression, kept as written.
  if (displayType === 'event_patterns' || (exact && typeof value === 'string')) return clean(value)
  if (displayType === 'search' || typeof value === 'string') {
    const fields = Array.isArray(value) ? value.map(String) : String(value ?? '').split(',')
    // An empty list joins to '', which normalizeConfig's clean() drops like any empty text.
    return fields
      .map(f => f.trim())
      .filter(Boolean)
      .join(', ')
  }
  if (!Array.isArray(value)) return clean(value)
  return value.map(item => {
    const out: Record<string, Json> = {}
    const record = (item ?? {}) as Record<string, unknown>
    // A metric item's value expression: none ('' as stored) and the placeholder a write sends are the same
    // (metric-item.ts). Kept in the exact form: an export writes what the server stores.
    const metric = !exact && isMetricItem(record)
    for (const key of sortedKeys(record)) {
      // count takes no value expression (FACTS.md): a stray one is not part of the tile.
      if (key === 'valueExpression' && record.aggFn === 'count') continue
      // Clean in the exact form too: normalizeConfig cleans the whole select after this.
      const v = clean(record[key])
      if (v === undefined || !KNOWN_SELECT_KEYS.has(key)) continue
      if (key in SELECT_DEFAULTS && equal(v, SELECT_DEFAULTS[key]!)) continue
      if (metric && key === 'valueExpression' && v === METRIC_VALUE_EXPRESSION) continue
      out[key] = v
    }
    return out
  })
}

/** A value as stored, without what JSON cannot hold; absent when null or empty text. */
function verbatim(value: unknown): Json | undefined {
  if (value === null || value === undefined || value === '') return undefined
  return JSON.parse(JSON.stringify(value)) as Json
}

/** FACTS.md: the tile's groupBy array comes back as one comma-joined string. */
export function normalizeGroupBy(value: unknown): string | undefined {
  const parts = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(',') : []
  const joined = parts
    .map(p => p.trim())
    .filter(Boolean)
    .join(',')
  return joined === '' ? undefined : joined
}

/** A live tile (config or series form) or a resolved desired tile -> its normal form. */
export function normalTile(
  tile: {
    name: string
    x: number
    y: number
    w: number
    h: number
    config?: Record<string, unknown> | null
    series?: readonly SeriesLike[] | null
    asRatio?: boolean | null
  },
  exact = false
): NormalTile {
  // CONTRACT.md puts asRatio on the tile itself: a server may return it there next to a config.
  const config =
    tile.config && tile.asRatio === true && tile.config.asRatio === undefined
      ? { ...tile.config, asRatio: true }
      : tile.config
  const raw =
    config ?? (tile.series ? seriesToConfig(tile.series, tile.asRatio ?? undefined) : { displayType: 'line' })
  return { name: tile.name, x: tile.x, y: tile.y, w: tile.w, h: tile.h, config: normalizeConfig(raw, exact) }
}
