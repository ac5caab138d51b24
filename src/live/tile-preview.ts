/**
 * A tile's data preview, each display type as itself: a line or stacked_bar tile's up to 5 largest groups
 * along the whole 24 h axis (the rest counted, and summed into "other" only where sums mean something), a
 * number with the 24 h before it, a table's top rows, a pie's or bar's parts. Values from the data pass
 * `preview-values` here, as they are collected, so the plan file never holds a raw one.
 */
import type { ObservabilityApi } from '../api/client.js'
import type { SeriesPoint } from '../api/schemas.js'
import { dataValue, type ValuesMode } from '../mask-value.js'
import type { Axis, Line, TileSeries } from '../plan/preview.js'
import {
  ADDITIVE,
  DAY,
  GRANULARITY_MS,
  axisEndingAt,
  bucketStart,
  bucketsWithData,
  combine,
  combinesExactly,
  groupOf,
  groupsAlong,
  numberOf,
  rangeOf,
  rankOf,
  sumAlong,
  type GroupValues
} from './series-math.js'
import { askSeries } from './series-rows.js'
import { fillOf, sortOf, type TileQuery } from './tile-query.js'

/** A tile's chart: the last 24 hours in 48 whole buckets. */
export const TILE_GRANULARITY = '30m'
export const TILE_STEP = GRANULARITY_MS[TILE_GRANULARITY]!
export const TILE_BUCKETS = DAY / TILE_STEP
/** Lines drawn of a grouped tile; rows of a table; parts of a pie or bar. */
export const MAX_LINES = 5
export const MAX_ROWS = 10
export const MAX_BARS = 10
/**
 * A whole-range value (table, pie, bar) is asked as one bucket of the route's coarsest granularity: 30 days,
 * epoch-aligned, so 24 hours fall in one bucket on 29 days of 30; on the others two buckets are combined.
 */
const WHOLE = '30d'

/** The 24 h axis of whole buckets that ends at the last bucket boundary before `now`. */
export function tileAxis(now: number): Axis {
  return axisEndingAt(bucketStart(now, TILE_STEP), TILE_STEP, TILE_BUCKETS)
}

/** What a preview of one tile found: the fields it fills, and the line said of it (the plan's evidence). */
export interface TileFindings {
  fields: Partial<TileSeries>
  empty: boolean
  /** What was charted, in words, with no value from the data in it. */
  said: string
}

interface Ask {
  api: ObservabilityApi
  query: TileQuery
  body: Record<string, unknown>
  axis: Axis
  values: ValuesMode
}

/** One tile's preview, by how it draws. */
export async function previewTile(displayType: string, ask: Ask): Promise<TileFindings> {
  if (displayType === 'number') return numberTile(ask)
  if (displayType === 'table') return tableTile(ask)
  if (displayType === 'pie' || displayType === 'bar') return barsTile(ask)
  return linesTile(ask)
}

const aggOf = (q: TileQuery) => String(q.series[0]!.aggFn)
const nameOf = (group: readonly string[], values: ValuesMode) =>
  group.length === 0 ? undefined : dataValue(group.join(', '), values)
const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`

async function linesTile({ api, query, body, axis, values }: Ask): Promise<TileFindings> {
  const points = await askSeries(api, {
    series: query.series,
    ...rangeOf(axis),
    granularity: TILE_GRANULARITY
  })
  const aggFn = aggOf(query)
  const fill = fillOf(body)
  const groups = groupsAlong(points, axis).filter(g => bucketsWithData(g.values) > 0)
  const ranked = [...groups].sort((a, b) => rankOf(aggFn, b.values) - rankOf(aggFn, a.values))
  const shown = ranked.slice(0, MAX_LINES)
  const rest = ranked.slice(MAX_LINES)
  const additive = ADDITIVE.has(aggFn)
  const lineOf = (g: GroupValues): Line => {
    const name = nameOf(g.group, values)
    return {
      ...(name !== undefined ? { name } : {}),
      values: g.values,
      total: additive ? combine(aggFn, g.values) : null
    }
  }
  const lines = shown.map(lineOf)
  const grouped = query.groupBy.length > 0
  const otherValues = sumAlong(
    rest.map(g => g.values),
    axis.count
  )
  const fields: Partial<TileSeries> = {
    axis,
    fill,
    aggFn,
    lines,
    ...(grouped ? { moreGroups: rest.length } : {}),
    ...(additive && rest.length > 0
      ? { other: { values: otherValues, total: combine(aggFn, otherValues) } }
      : {})
  }
  const withData = bucketsWithData(
    sumAlong(
      groups.map(g => g.values),
      axis.count
    )
  )
  const said = `data in ${withData} of ${axis.count} ${TILE_GRANULARITY} buckets over the last 24 hours${
    grouped
      ? ` (${plural(groups.length, 'group')}${rest.length > 0 ? `: the ${shown.length} largest charted, ${plural(rest.length, 'more group')}${additive ? ' summed as other' : ''}` : ''})`
      : ''
  }`
  return { fields, empty: groups.length === 0, said }
}

async function numberTile({ api, query, body, axis }: Ask): Promise<TileFindings> {
  const aggFn = aggOf(query)
  const first = query.series[0]!
  // An average over 48 buckets is its sum over their count: both asked beside it, in the same request.
  const avg = aggFn === 'avg' && first.field !== undefined
  const series = avg
    ? [first, { ...first, aggFn: 'sum' }, { ...first, aggFn: 'count', field: undefined }]
    : [first]
  const both: Axis = { start: axis.start - DAY, step: axis.step, count: axis.count * 2 }
  const points = await askSeries(api, {
    series: series.map(dropUndefined),
    ...rangeOf(both),
    granularity: TILE_GRANULARITY
  })
  const along = (index: number) =>
    sumAlong(
      groupsAlong(points, both, index).map(g => g.values),
      both.count
    )
  const v0 = along(0)
  const halves = (v: Array<number | null>) => [v.slice(0, axis.count), v.slice(axis.count)] as const
  const [before, now] = halves(v0)
  let value: number | null
  let previous: number | null
  let approximate: string | undefined
  if (avg) {
    const [sumBefore, sumNow] = halves(along(1))
    const [countBefore, countNow] = halves(along(2))
    const ratio = (s: Array<number | null>, c: Array<number | null>) => {
      const n = combine('count', c)
      return n ? combine('sum', s)! / n : null
    }
    value = ratio(sumNow, countNow)
    previous = ratio(sumBefore, countBefore)
  } else if (combinesExactly(aggFn)) {
    value = combine(aggFn, now)
    previous = combine(aggFn, before)
  } else {
    value = null
    previous = null
    approximate = `a ${aggFn} per ${TILE_GRANULARITY} bucket does not combine into one value for 24 hours: the line shows it per bucket`
  }
  const empty = bucketsWithData(now) === 0
  const fields: Partial<TileSeries> = {
    axis,
    fill: fillOf(body),
    aggFn,
    lines: [{ values: now, total: ADDITIVE.has(aggFn) ? combine(aggFn, now) : null }],
    value,
    previous,
    ...(approximate !== undefined ? { approximate } : {})
  }
  const said =
    value === null
      ? `data in ${bucketsWithData(now)} of ${axis.count} ${TILE_GRANULARITY} buckets over the last 24 hours`
      : `${aggFn} ${value.toLocaleString('en-US')} over the last 24 hours${previous !== null ? ` (the 24 hours before: ${previous.toLocaleString('en-US')})` : ''}`
  return { fields, empty, said }
}

/** Each group's value of each series over the whole axis: one request, one (or two) 30-day buckets. */
async function wholeRange({
  api,
  query,
  axis
}: Ask): Promise<{ rows: Array<{ group: string[]; cells: Array<number | null> }>; approximate?: string }> {
  const { startTime, endTime } = rangeOf(axis)
  // The route's end is inclusive: one ms short keeps the next bucket's first instant out.
  const points = await askSeries(api, {
    series: query.series,
    startTime,
    endTime: endTime - 1,
    granularity: WHOLE
  })
  const byGroup = new Map<string, { group: string[]; parts: SeriesPoint[] }>()
  for (const p of points) {
    const group = groupOf(p)
    const key = JSON.stringify(group)
    const entry = byGroup.get(key) ?? { group, parts: [] }
    entry.parts.push(p)
    byGroup.set(key, entry)
  }
  let straddles = false
  const rows = [...byGroup.values()].map(({ group, parts }) => {
    if (parts.length > 1) straddles = true
    const cells = query.series.map((s, i) => {
      const values = parts.map(p => numberOf(p[`series_${i}.data`]))
      return values.length === 1 ? values[0]! : combine(String(s.aggFn), values)
    })
    return { group, cells }
  })
  const inexact = query.series.map(s => String(s.aggFn)).filter(f => !combinesExactly(f))
  return straddles && inexact.length > 0
    ? {
        rows,
        approximate: `the 24 hours span two of the route's 30-day buckets, and a ${inexact[0]} does not combine across them: its cells are left empty`
      }
    : { rows }
}

async function tableTile(ask: Ask): Promise<TileFindings> {
  const { query, body, values } = ask
  const { rows, approximate } = await wholeRange(ask)
  const { index, asc } = sortOf(body, query.names)
  const key = (r: { cells: Array<number | null> }) => r.cells[index] ?? Number.NEGATIVE_INFINITY
  rows.sort((a, b) => (asc ? key(a) - key(b) : key(b) - key(a)))
  const top = rows.slice(0, MAX_ROWS)
  const fields: Partial<TileSeries> = {
    aggFn: aggOf(query),
    table: {
      columns: [...query.groupBy, ...query.names],
      rows: top.map(r => [...r.group.map(g => dataValue(g, values) ?? null), ...r.cells]),
      more: rows.length - top.length
    },
    ...(approximate !== undefined ? { approximate } : {})
  }
  const said = `${plural(rows.length, 'row')} over the last 24 hours${rows.length > top.length ? ` (the top ${top.length} shown)` : ''}`
  return { fields, empty: rows.length === 0, said }
}

async function barsTile(ask: Ask): Promise<TileFindings> {
  const { query, values } = ask
  const { rows, approximate } = await wholeRange(ask)
  rows.sort((a, b) => (b.cells[0] ?? Number.NEGATIVE_INFINITY) - (a.cells[0] ?? Number.NEGATIVE_INFINITY))
  const top = rows.slice(0, MAX_BARS)
  const fields: Partial<TileSeries> = {
    aggFn: aggOf(query),
    bars: top.map(r => {
      const name = nameOf(r.group, values)
      return { ...(name !== undefined ? { name } : {}), value: r.cells[0] ?? null }
    }),
    moreGroups: rows.length - top.length,
    ...(approximate !== undefined ? { approximate } : {})
  }
  const said = `${plural(rows.length, 'part')} over the last 24 hours${rows.length > top.length ? ` (the largest ${top.length} shown)` : ''}`
  return { fields, empty: rows.length === 0, said }
}

function dropUndefined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))
}
