/**
 * What a tile asks the charts route, read from either of the API's tile shapes (config, or series): its
 * series, how it draws, whether it fills empty buckets, how its rows sort, and why a tile cannot be asked.
 */
import { normalizeGroupBy, seriesToConfig, type SeriesLike } from '../kinds/tile-normal-form.js'
import { AGG_FNS } from '../manifest/vocabulary.js'

/** Display types the charts route can feed: everything else says why not (whyNotQueried). */
const QUERYABLE = new Set(['line', 'stacked_bar', 'table', 'number', 'pie', 'bar'])
/** The charts route takes the tile functions except these (OpenAPI ChartSeries). */
const CHART_AGG_FNS = new Set<string>(AGG_FNS.filter(f => !['any', 'none', 'increase'].includes(f)))

export interface TileQuery {
  /** The route's series, one per select item it can run (at most 5), each with the tile's group-by. */
  series: Array<Record<string, unknown>>
  groupBy: string[]
  /** Each series' column name in a table: its alias, else `aggFn(field)`. */
  names: string[]
}

function configOf(body: Record<string, unknown>): Record<string, unknown> {
  return (
    (body.config as Record<string, unknown> | undefined) ??
    seriesToConfig((body.series as SeriesLike[]) ?? [], undefined)
  )
}

/** The tile's query in the charts route's shape, or nothing for tiles that are not aggregations. */
export function tileQuery(body: Record<string, unknown>): TileQuery | undefined {
  const config = configOf(body)
  if (
    !QUERYABLE.has(String(config.displayType)) ||
    config.configType === 'sql' ||
    !Array.isArray(config.select) ||
    typeof config.sourceId !== 'string'
  )
    return undefined
  // A number tile shows one value: its grouping has no effect (tile-normal-form.ts drops it too).
  const groupBy = config.displayType === 'number' ? [] : (normalizeGroupBy(config.groupBy)?.split(',') ?? [])
  const items = (config.select as Array<Record<string, unknown>>)
    .filter(s => CHART_AGG_FNS.has(String(s.aggFn)))
    .slice(0, 5)
  const series = items.map(s => {
    const q: Record<string, unknown> = {
      sourceId: config.sourceId,
      aggFn: s.aggFn,
      where: s.where ?? '',
      whereLanguage: s.whereLanguage ?? 'lucene',
      groupBy
    }
    if (s.valueExpression !== undefined) q.field = s.valueExpression
    // A quantile is at its level: without it the server computes a default one.
    if (s.level !== undefined) q.level = s.level
    // A metric tile queries its metric, not events.
    if (s.metricName !== undefined) q.metricName = s.metricName
    if (s.metricType !== undefined) q.metricDataType = s.metricType
    return q
  })
  const names = items.map(s =>
    typeof s.alias === 'string' && s.alias !== ''
      ? s.alias
      : `${String(s.aggFn)}(${typeof s.valueExpression === 'string' ? s.valueExpression : ''})`
  )
  return series.length > 0 ? { series, groupBy, names } : undefined
}

/** How a tile draws, from either of the API's shapes (config, or series). */
export function displayTypeOf(body: Record<string, unknown>): string {
  const config = body.config as Record<string, unknown> | undefined
  const series = Array.isArray(body.series) ? (body.series as Array<Record<string, unknown>>) : []
  if (config) return String(config.displayType ?? 'unknown')
  const first = series[0]
  if (!first) return 'unknown'
  if (first.type === 'time' || first.type === undefined)
    return first.displayType === 'stacked_bar' ? 'stacked_bar' : 'line'
  return String(first.type)
}

/** ChartUtils.tsx shouldFillNullsWithZero: an empty bucket is drawn as zero unless the tile sets fillNulls false. */
export function fillOf(body: Record<string, unknown>): 'zero' | 'gap' {
  return configOf(body).fillNulls === false ? 'gap' : 'zero'
}

/**
 * How a table's rows sort: by a series (its index), ascending or not. A series with `sortOrder`, or the
 * config's `orderBy` naming a series' alias (ASC or DESC); otherwise the first series, largest first.
 */
export function sortOf(
  body: Record<string, unknown>,
  names: readonly string[]
): { index: number; asc: boolean } {
  const series = Array.isArray(body.series) ? (body.series as Array<Record<string, unknown>>) : []
  const sorted = series.findIndex(s => s.sortOrder === 'asc' || s.sortOrder === 'desc')
  if (sorted >= 0 && sorted < names.length) return { index: sorted, asc: series[sorted]!.sortOrder === 'asc' }
  const orderBy = (body.config as Record<string, unknown> | undefined)?.orderBy
  if (typeof orderBy === 'string' && orderBy.trim() !== '') {
    const named = names.findIndex(n => orderBy.includes(n))
    return { index: Math.max(0, named), asc: /\basc\s*$/i.test(orderBy) }
  }
  return { index: 0, asc: false }
}

/** The tile's number format, as the server takes it (on the config, or on a series). */
export function numberFormatOf(body: Record<string, unknown>): { numberFormat?: Record<string, unknown> } {
  const config = body.config as Record<string, unknown> | undefined
  const series = Array.isArray(body.series) ? (body.series as Array<Record<string, unknown>>) : []
  const format =
    config?.numberFormat ??
    (Array.isArray(config?.select)
      ? (config.select as Array<Record<string, unknown>>).find(s => s.numberFormat)?.numberFormat
      : undefined) ??
    series.find(s => s.numberFormat)?.numberFormat
  return format !== null && typeof format === 'object' && !Array.isArray(format)
    ? { numberFormat: format as Record<string, unknown> }
    : {}
}

/** Why a tile's data cannot be previewed, in one sentence. */
export function whyNotQueried(body: Record<string, unknown>): string {
  const config = body.config as Record<string, unknown> | undefined
  if (config?.configType === 'sql') return 'a raw-SQL tile: the charts route runs builder queries only'
  const type = displayTypeOf(body)
  if (type === 'markdown') return 'a markdown tile: no query'
  if (type === 'search') return 'a search tile: it lists events, it charts nothing'
  if (type === 'heatmap') return 'a heatmap tile: the charts route returns no distribution to draw it from'
  return `a ${type} tile without an aggregation the charts route runs`
}
