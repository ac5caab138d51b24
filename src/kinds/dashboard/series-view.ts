/**
 * A tile written with `series:` is compared in the config form the server stores (tile-normal-form.ts), but the
 * plan speaks the user's words: `series[0].where`, not `select[0].where`; `series[0].field`, not
 * `valueExpression`. This maps a field change of such a tile, path and values, back to the series form.
 */
import type { Json, JsonObject } from '../../json.js'
import { joinKey, keyedField } from '../../plan/diff.js'
import type { FieldChange } from '../../plan/types.js'

/** Select item keys whose series name differs (tile-normal-form.ts seriesToConfig, read backwards). */
const ITEM_KEYS: Readonly<Record<string, string>> = { valueExpression: 'field', metricType: 'metricDataType' }
/** Config keys that the first series holds. */
const FIRST_SERIES_KEYS: Readonly<Record<string, string>> = {
  displayType: 'type',
  sourceId: 'sourceId',
  groupBy: 'groupBy',
  markdown: 'content',
  numberFormat: 'numberFormat',
  where: 'where',
  whereLanguage: 'whereLanguage'
}

const isObject = (v: Json | undefined): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** A select item as a series item. */
function seriesItem(item: Json | undefined): Json | undefined {
  if (!isObject(item)) return item
  return Object.fromEntries(Object.entries(item).map(([k, v]) => [ITEM_KEYS[k] ?? k, v]))
}

/** The series `type` of a display type: a line or stacked bar is a `time` series. */
const seriesType = (displayType: Json | undefined): Json | undefined =>
  displayType === 'line' || displayType === 'stacked_bar' ? 'time' : displayType

/** A whole tile in the normal (config) form as the series form shows it. */
function seriesTile(tile: Json | undefined): Json | undefined {
  if (!isObject(tile)) return tile
  const { select, displayType, sourceId, groupBy, markdown, numberFormat, where, whereLanguage, ...rest } =
    tile
  const first: JsonObject = { type: seriesType(displayType) ?? 'time' }
  if (displayType === 'stacked_bar') first.displayType = displayType
  if (sourceId !== undefined) first.sourceId = sourceId
  if (markdown !== undefined) first.content = markdown
  let series: Json[]
  if (displayType === 'search') {
    series = [{ ...first, fields: select ?? null, where: where ?? '', whereLanguage: whereLanguage ?? null }]
  } else {
    const items = Array.isArray(select) && select.length > 0 ? select : [{}]
    series = items.map((item, i) => ({
      ...first,
      ...(seriesItem(item) as JsonObject),
      ...(i === 0 && groupBy !== undefined ? { groupBy } : {}),
      ...(i === 0 && numberFormat !== undefined ? { numberFormat } : {})
    }))
  }
  return { ...rest, series }
}

/** `.select[1].valueExpression` -> `.series[1].field`; `.groupBy` -> `.series[0].groupBy`; others unchanged. */
function seriesPath(rest: string): { path: string; value: (v: Json | undefined) => Json | undefined } {
  const item = /^\.select\[(\d+)\](?:\.([A-Za-z]+))?(.*)$/.exec(rest)
  if (item) {
    const [, i, key, more] = item
    if (key === undefined) return { path: `.series[${i}]`, value: seriesItem }
    return { path: `.series[${i}].${ITEM_KEYS[key] ?? key}${more}`, value: v => v }
  }
  if (rest === '.select')
    return { path: '.series', value: v => (Array.isArray(v) ? v.map(i => seriesItem(i) ?? null) : v) }
  const top = /^\.([A-Za-z]+)(.*)$/.exec(rest)
  const key = top ? FIRST_SERIES_KEYS[top[1]!] : undefined
  if (top && key)
    return { path: `.series[0].${key}${top[2]}`, value: top[1] === 'displayType' ? seriesType : v => v }
  return { path: rest, value: v => v }
}

/**
 * The field change in the series form, when it is about a tile of `seriesTiles` (by name); otherwise as it is.
 * A change of the whole `tiles` map (a create) shows those tiles in the series form too.
 */
export function inSeriesTerms(f: FieldChange, seriesTiles: ReadonlySet<string>): FieldChange {
  if (seriesTiles.size === 0) return f
  if (f.path === 'tiles') {
    const map = (v: Json | undefined) =>
      isObject(v)
        ? Object.fromEntries(
            Object.entries(v).map(([name, t]) => [name, seriesTiles.has(name) ? seriesTile(t)! : t])
          )
        : v
    return withValues(f, map)
  }
  const at = keyedField(f.path, 'tiles')
  if (!at || !seriesTiles.has(at.key)) return f
  if (at.rest === '') return withValues(f, seriesTile)
  const mapped = seriesPath(at.rest)
  return withValues({ ...f, path: `${joinKey('tiles', at.key, true)}${mapped.path}` }, mapped.value)
}

function withValues(f: FieldChange, map: (v: Json | undefined) => Json | undefined): FieldChange {
  const out: FieldChange = { ...f }
  if ('before' in f) out.before = map(f.before as Json | undefined)
  if ('after' in f) out.after = map(f.after as Json | undefined)
  return out
}
