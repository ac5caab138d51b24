/** Version-2 preview entries built by hand, as the collector (src/live/) writes them: for the renderers' tests. */
import { PREVIEW_VERSION, type AlertSeries, type Preview, type TileSeries } from '../../src/plan/preview.js'
import type { Plan } from '../../src/plan/types.js'

/** Sat 2026-11-28 12:00 UTC: the start of every axis here. */
export const T0 = Date.UTC(2026, 10, 28, 12)
export const MIN = 60_000
export const HOUR = 3_600_000
export const DAY = 86_400_000

/** 48 half hours with rows in a quarter of them: a burst at 01:00 and quiet hours between. */
export const sparse = (): Array<number | null> =>
  Array.from({ length: 48 }, (_, i) => (i % 4 === 0 ? (i === 28 ? 40 : i / 4 + 1) : null))

export function tile(over: Partial<TileSeries> = {}): TileSeries {
  return {
    dashboard: 'Checkout',
    tile: 'Errors',
    status: 'ok',
    displayType: 'line',
    startTime: T0,
    endTime: T0 + DAY,
    granularity: '30m',
    axis: { start: T0, step: 30 * MIN, count: 48 },
    fill: 'zero',
    aggFn: 'count',
    lines: [{ values: sparse(), total: 100 }],
    ...over
  }
}

export function alert(over: Partial<AlertSeries> = {}): AlertSeries {
  const count = 2016
  const values = Array.from({ length: count }, (_, i): number | null =>
    i % 7 === 0 ? 2 : i % 3 === 0 ? 1 : null
  )
  for (const i of [100, 101, 102, 900, 2015]) values[i] = 9
  return {
    alert: 'Too many errors',
    dashboard: 'Checkout',
    tile: 'Errors',
    status: 'ok',
    startTime: T0 - 6 * DAY,
    endTime: T0 + DAY,
    granularity: '5m',
    axis: { start: T0 - 6 * DAY, step: 5 * MIN, count },
    fill: 'zero',
    values,
    thresholdType: 'above',
    threshold: 5,
    firing: [100, 101, 102, 900, 2015],
    fired: 5,
    windows: count,
    ...over
  }
}

export function planOf(preview: Partial<Preview>): Plan {
  return { preview: { version: PREVIEW_VERSION, layouts: [], ...preview } } as unknown as Plan
}
