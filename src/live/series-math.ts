/**
 * The arithmetic of a preview over the charts route's answer (POST /api/v2/charts/series): the route returns
 * a row only for a bucket and group with data, counts as strings, a bucket's start as epoch ms, buckets as
 * ClickHouse's toStartOfInterval aligns them (to the epoch, in UTC), and the range inclusive at both ends
 * (docs/real-server.md). Here those rows become whole time axes, ranked groups and whole-range values.
 * Pure: no request, no masking (tile-preview.ts and alert-replay.ts do both).
 */
import type { SeriesPoint } from '../api/schemas.js'
import type { Axis } from '../plan/preview.js'

type BucketValue = number | null

export const MINUTE = 60_000
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR

/** The route's granularities (v2/charts.ts granularitySchema) in ms; `auto` is never sent. */
export const GRANULARITY_MS: Readonly<Record<string, number>> = {
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

/** The bucket `t` falls in, as toStartOfInterval puts it: epoch-aligned (UTC). */
export function bucketStart(t: number, step: number): number {
  return Math.floor(t / step) * step
}

/**
 * The axis of the `count` whole buckets that end at `end` (a bucket boundary): the range a preview queries.
 * Whole buckets only, so no bucket is cut short (a partial last bucket would read as a drop).
 */
export function axisEndingAt(end: number, step: number, count: number): Axis {
  return { start: end - count * step, step, count }
}

/** The axis's range as the route takes it: `[start, end]` with both ends inclusive (rows at `end` are dropped). */
export function rangeOf(axis: Axis): { startTime: number; endTime: number } {
  return { startTime: axis.start, endTime: axis.start + axis.count * axis.step }
}

/** A bucket's start in ms: the route gives epoch ms; a date text is read too. */
export function bucketTime(ts: unknown): number {
  if (typeof ts === 'number') return ts
  const n = Number(ts)
  if (Number.isFinite(n)) return n
  const t = Date.parse(String(ts))
  return Number.isNaN(t) ? Number.NaN : t
}

/** A value as the route returns it (a count is a string): a finite number, or null. */
export function numberOf(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN
  return Number.isFinite(n) ? n : null
}

/** A row's group as text parts (`[]` ungrouped); a missing value reads as empty. */
export function groupOf(p: SeriesPoint): string[] {
  return Array.isArray(p.group) ? p.group.map(v => (v === null || v === undefined ? '' : String(v))) : []
}

/** One group's values along an axis: one entry per bucket, null where the route returned no row. */
export interface GroupValues {
  group: string[]
  values: BucketValue[]
}

/**
 * Each group's values of series `index` along `axis`, groups in the order first met. A row outside the axis
 * (the bucket at its inclusive end) is dropped.
 */
export function groupsAlong(points: readonly SeriesPoint[], axis: Axis, index = 0): GroupValues[] {
  const byGroup = new Map<string, GroupValues>()
  for (const p of points) {
    const i = (bucketTime(p.ts_bucket) - axis.start) / axis.step
    if (!Number.isInteger(i) || i < 0 || i >= axis.count) continue
    const group = groupOf(p)
    const key = JSON.stringify(group)
    let g = byGroup.get(key)
    if (!g) {
      g = { group, values: new Array<BucketValue>(axis.count).fill(null) }
      byGroup.set(key, g)
    }
    const v = numberOf(p[`series_${index}.data`])
    if (v !== null) g.values[i] = v
  }
  return [...byGroup.values()]
}

/** Aggregates whose buckets add up to the whole range's value: a group's total, and "other", are sums only for these. */
export const ADDITIVE = new Set(['count', 'sum'])

/** Values of buckets combine exactly into the range's value for these (avg through its sum and count). */
export function combine(aggFn: string, values: readonly BucketValue[]): number | null {
  const present = values.filter((v): v is number => v !== null)
  if (aggFn === 'count') return present.reduce((a, b) => a + b, 0)
  if (present.length === 0) return null
  switch (aggFn) {
    case 'sum':
      return present.reduce((a, b) => a + b, 0)
    case 'min':
      return Math.min(...present)
    case 'max':
      return Math.max(...present)
    default:
      return null
  }
}

/** Whether `combine` gives the exact value of the range for this aggregate. */
export function combinesExactly(aggFn: string): boolean {
  return ['count', 'sum', 'min', 'max'].includes(aggFn)
}

/** Element-wise sum of lines (a null bucket adds nothing; all null stays null). */
export function sumAlong(lines: readonly BucketValue[][], count: number): BucketValue[] {
  const out = new Array<BucketValue>(count).fill(null)
  for (const values of lines)
    values.forEach((v, i) => {
      if (v !== null) out[i] = (out[i] ?? 0) + v
    })
  return out
}

/** How a group ranks: its total for a count or a sum, else its largest bucket (an average has no total). */
export function rankOf(aggFn: string, values: readonly BucketValue[]): number {
  const present = values.filter((v): v is number => v !== null)
  if (present.length === 0) return Number.NEGATIVE_INFINITY
  return ADDITIVE.has(aggFn) ? present.reduce((a, b) => a + b, 0) : Math.max(...present)
}

/** Buckets that hold a row. */
export function bucketsWithData(values: readonly BucketValue[]): number {
  return values.filter(v => v !== null).length
}
