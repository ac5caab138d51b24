/**
 * One normal form for a tile, whichever form it was written or read in. FACTS.md: the server stores a
 * `series` tile in the newer `config` form, joins groupBy, drops dataSource, keeps only the first
 * series of a number tile, keeps asRatio only where it means something, and fills in defaults. A plan
 * that compared the forms as written would show changes on every run, so both the manifest's tile and
 * the server's tile are reduced to this form before any comparison.
 */
import { clean, equal, type Json, type JsonObject } from '../json.js'
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
  asRatio: false,
  fillNulls: true,
  alignDateRangeToGranularity: true,
  fitYAxisToData: false,
  compareToPreviousPeriod: false,
  showOperandSeries: true,
  groupByColumnsOnLeft: false,
  where: '',
  whereLanguage: 'lucene'
}
const SELECT_DEFAULTS: Record<string, Json> = { where: '', whereLanguage: 'lucene' }
const KNOWN_SELECT_KEYS = new Set(Object.keys(SELECT_ITEM_FIELDS))

/**
 * Every config key is part of the normal form: the ones the manifest models, and the ones an update sends
 * back as read (returned-fields.ts), which then compare equal. A key the update cannot keep so shows as
 * a change. Defaults are dropped, so "unset" and "set to the default" compare equal.
 */
export function normalizeConfig(config: Record<string, unknown>): JsonObject {
  const displayType = String(config.displayType ?? 'line')
  const out: Record<string, Json> = {}
  for (const key of Object.keys(config).sort()) {
    let value = config[key]
    if (key === 'groupBy') value = normalizeGroupBy(value)
    else if (key === 'sourceId' && typeof value === 'number')
      value = String(value) // ids compare as text
    else if (key === 'select') value = normalizeSelect(value, displayType)
    else if (key === 'markdown' && typeof value === 'string') value = value.replace(/\s+$/, '')
    const v = clean(value)
    if (v === undefined) continue
    if (key in CONFIG_DEFAULTS && equal(v, CONFIG_DEFAULTS[key]!)) continue
    out[key] = v
  }
  // A number tile shows one value: a grouping has no effect there, and servers differ on keeping it.
  if (displayType === 'number') delete out.groupBy
  // A series' number format may come back on the tile or on its select item: compare it on the tile.
  if (out.numberFormat === undefined && Array.isArray(out.select)) {
    const formats = out.select.map(s => (s as JsonObject).numberFormat).filter(f => f !== undefined)
    if (formats.length > 0 && formats.every(f => equal(f, formats[0]))) {
      out.numberFormat = formats[0]!
      out.select = out.select.map(s => {
        const { numberFormat: _moved, ...rest } = s as JsonObject
        return rest
      })
    }
  }
  // asRatio survives only on a line, stacked_bar or table tile with exactly two series (FACTS.md).
  if (
    out.asRatio === true &&
    !(RATIO_TYPES.includes(displayType) && Array.isArray(out.select) && out.select.length === 2)
  ) {
    delete out.asRatio
  }
  return out
}

function normalizeSelect(value: unknown, displayType: string): Json | undefined {
  if (displayType === 'search' || typeof value === 'string') {
    const fields = Array.isArray(value) ? value.map(String) : String(value ?? '').split(',')
    const joined = fields
      .map(f => f.trim())
      .filter(Boolean)
      .join(', ')
    return joined === '' ? undefined : joined
  }
  if (!Array.isArray(value)) return clean(value)
  return value.map(item => {
    const out: Record<string, Json> = {}
    const record = (item ?? {}) as Record<string, unknown>
    for (const key of Object.keys(record).sort()) {
      const v = clean(record[key])
      if (v === undefined || !KNOWN_SELECT_KEYS.has(key)) continue
      if (key in SELECT_DEFAULTS && equal(v, SELECT_DEFAULTS[key]!)) continue
      // count takes no value expression (FACTS.md): a stray one is not part of the tile.
      if (key === 'valueExpression' && record.aggFn === 'count') continue
      out[key] = v
    }
    return out
  })
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
export function normalTile(tile: {
  name: string
  x: number
  y: number
  w: number
  h: number
  config?: Record<string, unknown> | null
  series?: readonly SeriesLike[] | null
  asRatio?: boolean | null
}): NormalTile {
  // CONTRACT.md puts asRatio on the tile itself: a server may return it there next to a config.
  const config =
    tile.config && tile.asRatio === true && tile.config.asRatio === undefined
      ? { ...tile.config, asRatio: true }
      : tile.config
  const raw =
    config ?? (tile.series ? seriesToConfig(tile.series, tile.asRatio ?? undefined) : { displayType: 'line' })
  return { name: tile.name, x: tile.x, y: tile.y, w: tile.w, h: tile.h, config: normalizeConfig(raw) }
}
