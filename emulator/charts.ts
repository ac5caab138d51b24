import { ApiError, bodyValidationError } from './errors.js'
import { compileLucene, type EventMatcher } from './lucene-match.js'
import { parseChartQuery } from './rules/index.js'
import type { JsonObject, StoredEvent, StoredSource } from './types.js'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** FACTS.md "Charts": the granularities the server accepts. */
const GRANULARITY_MS: Record<string, number> = {
  '30s': 30_000,
  '1m': MINUTE,
  '5m': 5 * MINUTE,
  '10m': 10 * MINUTE,
  '15m': 15 * MINUTE,
  '30m': 30 * MINUTE,
  '1h': HOUR,
  '2h': 2 * HOUR,
  '6h': 6 * HOUR,
  '12h': 12 * HOUR,
  '1d': DAY,
  '2d': 2 * DAY,
  '7d': 7 * DAY,
  '30d': 30 * DAY
}

/** `auto` picks the finest granularity that keeps the range within this many buckets. */
const AUTO_MAX_BUCKETS = 60

export interface ChartData {
  data: JsonObject[]
}

interface PreparedSeries {
  aggFn: string
  field?: string
  level?: number
  matches: EventMatcher
  events: StoredEvent[]
}

/**
 * POST /api/v2/charts/series, computed deterministically from the store's events. Errors are `{error}` (FACTS.md).
 * Events in [startTime, endTime] are filtered by the series' Lucene `where`, bucketed on the granularity (aligned to
 * the epoch), grouped by the groupBy fields and aggregated; only buckets with data are returned, like the real server
 * (docs/real-server.md): `group` always (`[]` ungrouped), counts as strings.
 */
export function querySeries(body: unknown, sources: StoredSource[], events: StoredEvent[]): ChartData {
  // The route's body validation answers `{message}` like every other route; the query's own failures are `{error}`.
  const parsed = parseChartQuery(body)
  if (!parsed.ok) throw bodyValidationError(parsed.issues)
  const request = parsed.data as unknown as JsonObject
  const startTime = request.startTime as number
  const endTime = request.endTime as number
  if (startTime > endTime) throw new ApiError(400, 'startTime must be before endTime', 'error')
  const seriesList = request.series as JsonObject[]
  const groupBy = (seriesList[0].groupBy as string[] | undefined) ?? []
  const sameGroupBy = seriesList.every(
    series => JSON.stringify(series.groupBy ?? []) === JSON.stringify(groupBy)
  )
  if (!sameGroupBy) throw new ApiError(400, 'All series must have the same groupBy fields', 'error')
  const step = granularityMs((request.granularity as string | undefined) ?? 'auto', endTime - startTime)

  // The route's range is inclusive at both ends (common-utils renderChartConfig: dateRangeEndInclusive defaults true).
  const inRange = events.filter(event => event.timestamp >= startTime && event.timestamp <= endTime)
  const prepared = seriesList.map((series, index) => prepareSeries(series, index, sources, inRange))

  // v2/charts.ts queries each series on its own (one line chart each) and merges their rows by bucket and group
  // (formatCHResult): series 0's rows in ascending buckets, then any bucket and group only a later series has.
  // A series without rows in a bucket leaves its `series_i.data` out of that row.
  // `column`: ClickHouse's rows as they are, one per series, bucket and group: the series' value, a column per
  // group-by (named by its text here; ClickHouse names an expression's column otherwise), the bucket as ISO text.
  if (request.seriesReturnType === 'column') {
    const data = prepared.flatMap((series, index) =>
      seriesRows(series, groupBy, step).map(row => {
        const out: JsonObject = { [`series_${index}`]: row.value }
        groupBy.forEach((field, i) => (out[field] = row.group[i]))
        out.__hdx_time_bucket = new Date(row.ts).toISOString().replace('.000Z', 'Z')
        return out
      })
    )
    return { data }
  }
  const merged = new Map<string, JsonObject>()
  prepared.forEach((series, index) => {
    for (const row of seriesRows(series, groupBy, step)) {
      const key = `${row.ts}\u0000${row.group.join('\u0000')}`
      let point = merged.get(key)
      if (point === undefined) {
        point = { ts_bucket: row.ts, group: row.group }
        merged.set(key, point)
      }
      point[`series_${index}.data`] = row.value
    }
  })
  return { data: [...merged.values()] }
}

/** One series' rows: a bucket and group only where events match, ascending by bucket (as ORDER BY the bucket). */
function seriesRows(
  series: PreparedSeries,
  groupBy: string[],
  step: number
): Array<{ ts: number; group: string[]; value: string | number | null }> {
  const rows = new Map<string, { ts: number; group: string[]; values: number[] }>()
  for (const event of series.events) {
    if (!series.matches(event.fields)) continue
    // toStartOfInterval(toDateTime(ts), INTERVAL n unit): epoch-aligned, at whole seconds.
    const ts = Math.floor((Math.floor(event.timestamp / 1000) * 1000) / step) * step
    const group = groupBy.map(field => String(event.fields[field] ?? ''))
    const key = `${ts}\u0000${group.join('\u0000')}`
    let row = rows.get(key)
    if (row === undefined) {
      row = { ts, group, values: [] }
      rows.set(key, row)
    }
    row.values.push(valueOf(series, event))
  }
  return [...rows.values()]
    .sort((a, b) => a.ts - b.ts || a.group.join('\u0000').localeCompare(b.group.join('\u0000')))
    .map(row => ({ ts: row.ts, group: row.group, value: aggregate(series, row.values) }))
}

function granularityMs(granularity: string, rangeMs: number): number {
  if (granularity !== 'auto') return GRANULARITY_MS[granularity]
  const steps = Object.values(GRANULARITY_MS)
  return steps.find(step => rangeMs / step <= AUTO_MAX_BUCKETS) ?? steps[steps.length - 1]
}

function prepareSeries(
  series: JsonObject,
  index: number,
  sources: StoredSource[],
  events: StoredEvent[]
): PreparedSeries {
  const sourceId = series.sourceId as string
  const source = sources.find(s => s.id === sourceId)
  if (!source) throw new ApiError(404, `Source not found for series ${index}`, 'error')
  const aggFn = series.aggFn as string
  // On a metric source a series reads its metric, named by metricName or else by `field` (v2/charts.ts), and what is
  // aggregated is the metric's own value: the route's value expression is `Value` unless both are given, and the
  // renderer replaces any of them (common-utils renderChartConfig.ts translateMetricChartConfig). So no field needed.
  const metricName =
    source.kind === 'metric' ? (stringOf(series.metricName) ?? stringOf(series.field)) : undefined
  const field = source.kind === 'metric' ? METRIC_VALUE : stringOf(series.field)
  if (aggFn !== 'count' && field === undefined)
    throw new ApiError(400, `field is required for aggFn ${aggFn}`, 'error')
  if (series.whereLanguage === 'sql') {
    throw new ApiError(400, 'The emulator evaluates Lucene filters only (whereLanguage: lucene)', 'error')
  }
  let matches: EventMatcher
  try {
    matches = compileLucene((series.where as string | undefined) ?? '')
  } catch (error) {
    throw new ApiError(400, error instanceof Error ? error.message : String(error), 'error')
  }
  const level = typeof series.level === 'number' ? series.level : 0.5
  const ofSeries = (event: StoredEvent) =>
    event.sourceId === sourceId && (metricName === undefined || event.fields[METRIC_NAME] === metricName)
  return { aggFn, field, level, matches, events: events.filter(ofSeries) }
}

/** A metric event's columns (the OTel metric tables' `MetricName` and `Value`). */
const METRIC_NAME = 'MetricName'
const METRIC_VALUE = 'Value'

const stringOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)

function valueOf(series: PreparedSeries, event: StoredEvent): number {
  if (series.field === undefined) return 1
  const raw = event.fields[series.field]
  if (series.aggFn === 'count_distinct') return raw === undefined ? Number.NaN : hashValue(raw)
  return typeof raw === 'number' ? raw : Number(raw)
}

/** count_distinct only needs equality, so a value is reduced to a number that identifies it. */
const distinctIds = new Map<string, number>()
function hashValue(value: string | number): number {
  const key = `${typeof value}:${String(value)}`
  let id = distinctIds.get(key)
  if (id === undefined) {
    id = distinctIds.size + 1
    distinctIds.set(key, id)
  }
  return id
}

/** A counting aggregate is a UInt64, which the server's JSON gives as a string ("3"); the others are numbers. */
function aggregate(series: PreparedSeries, values: number[]): string | number | null {
  if (series.aggFn === 'count') return String(values.length)
  const numbers = values.filter(value => Number.isFinite(value))
  if (series.aggFn === 'count_distinct') return String(new Set(numbers).size)
  if (numbers.length === 0) return null
  switch (series.aggFn) {
    case 'sum':
      return numbers.reduce((total, value) => total + value, 0)
    case 'avg':
      return numbers.reduce((total, value) => total + value, 0) / numbers.length
    case 'min':
      return Math.min(...numbers)
    case 'max':
      return Math.max(...numbers)
    case 'quantile': {
      const sorted = [...numbers].sort((a, b) => a - b)
      return sorted[Math.min(sorted.length - 1, Math.floor((series.level ?? 0.5) * sorted.length))]
    }
    case 'last_value':
      return numbers[numbers.length - 1]
    default:
      return numbers[0]
  }
}
