/**
 * An alert replayed over the last 7 days as the server's alert check would have run it
 * (packages/api/src/tasks/checkAlerts/index.ts, HyperDX 2.36): each check evaluates the window that ended
 * at "now" rounded down to the interval (roundDownToXMinutes: epoch-aligned), so the replay's windows are
 * the 7 days of whole windows ending at the last such boundary, and the current, unfinished window is not
 * one of them. Per window:
 * - a group whose value crosses the threshold (doesExceedThreshold) is ALERT, or PENDING while fewer than
 *   `numConsecutiveWindows` windows in a row crossed for that group (the check reads the previous
 *   numConsecutiveWindows - 1 windows' history of the group: each must be ALERT or PENDING);
 * - a window with no rows at all is evaluated as the value 0, for every aggregate and threshold type,
 *   under the group "" (so for a grouped alert it never continues a group's run);
 * - a row whose value is null is skipped (no history for that group in that window).
 * A window fires when any group is ALERT in it: the check notifies again at every window that still crosses.
 */
import type { SeriesPoint } from '../api/schemas.js'
import type { Axis } from '../plan/preview.js'
import { bucketStart, bucketTime, groupOf, numberOf } from './series-math.js'

export interface Threshold {
  thresholdType: string
  threshold: number
  thresholdMax?: number
}

/** doesExceedThreshold: above is >=, above_exclusive >, below <, below_or_equal <=, between inclusive. */
export function crosses(value: number, t: Threshold): boolean {
  const { threshold, thresholdMax } = t
  switch (t.thresholdType) {
    case 'above':
      return value >= threshold
    case 'above_exclusive':
      return value > threshold
    case 'below':
      return value < threshold
    case 'below_or_equal':
      return value <= threshold
    case 'equal':
      return value === threshold
    case 'not_equal':
      return value !== threshold
    case 'between':
      return value >= threshold && value <= (thresholdMax ?? threshold)
    case 'not_between':
      return value < threshold || value > (thresholdMax ?? threshold)
    default:
      return false
  }
}

/**
 * The windows replayed: the `count` whole windows of `step` that end at the boundary the check last
 * evaluated up to (now rounded down), and `lookBack` windows before them that only seed a consecutive run.
 */
export function replayAxis(now: number, step: number, range: number): Axis {
  const end = bucketStart(now, step)
  const count = Math.round(range / step)
  return { start: end - count * step, step, count }
}

export interface Replay {
  /** Per window of the axis, the most alarming value of any group; null: no row (evaluated as 0). */
  values: Array<number | null>
  /** Indexes of the windows where the alert would have fired. */
  firing: number[]
  /** The largest value seen (said beside the count). */
  highest?: number
}

/**
 * Replays `points` (the route's series 0 at the alert's interval, from `lookBack` windows before the axis to
 * its end) window by window as the check evaluates them.
 */
export function replay(
  points: readonly SeriesPoint[],
  axis: Axis,
  alert: Threshold & { numConsecutiveWindows?: number },
  lookBack: number
): Replay {
  const first = axis.start - lookBack * axis.step
  const total = axis.count + lookBack
  const rows: Array<Map<string, Array<number | null>>> = Array.from({ length: total }, () => new Map())
  for (const p of points) {
    const i = (bucketTime(p.ts_bucket) - first) / axis.step
    if (!Number.isInteger(i) || i < 0 || i >= total) continue
    const key = JSON.stringify(groupOf(p))
    const list = rows[i]!.get(key) ?? []
    list.push(numberOf(p['series_0.data']))
    rows[i]!.set(key, list)
  }
  const needed = Math.max(1, alert.numConsecutiveWindows ?? 1)
  /** Per group, how many windows in a row it has crossed, up to the window before. */
  let runs = new Map<string, number>()
  const values: Array<number | null> = []
  const firing: number[] = []
  let highest: number | undefined
  rows.forEach((groups, w) => {
    const next = new Map<string, number>()
    let fires = false
    // A window without rows is the value 0 under the ungrouped key (index.ts: "No data returned ... for time bucket").
    const evaluated: Array<[string, number]> =
      groups.size === 0
        ? [['[]', 0]]
        : [...groups].flatMap(([key, list]) => {
            const present = list.filter((v): v is number => v !== null)
            if (present.length === 0) return []
            // The worst of a group's rows in one window (a later OK row does not undo an ALERT one).
            return [[key, present.find(v => crosses(v, alert)) ?? present[0]!] as [string, number]]
          })
    for (const [key, value] of evaluated) {
      if (!crosses(value, alert)) continue
      const run = (runs.get(key) ?? 0) + 1
      next.set(key, run)
      if (run >= needed) fires = true
    }
    runs = next
    if (w < lookBack) return
    const present = groups.size === 0 ? [] : evaluated.map(([, v]) => v)
    values.push(present.length === 0 ? null : mostAlarming(present, alert))
    for (const v of present) highest = highest === undefined ? v : Math.max(highest, v)
    if (fires) firing.push(w - lookBack)
  })
  return { values, firing, ...(highest !== undefined ? { highest } : {}) }
}

/** Of a window's group values, the one that crosses (the furthest in the threshold's direction), else the nearest. */
function mostAlarming(values: readonly number[], t: Threshold): number {
  const low = t.thresholdType === 'below' || t.thresholdType === 'below_or_equal'
  const pick = (list: readonly number[]) => (low ? Math.min(...list) : Math.max(...list))
  const crossing = values.filter(v => crosses(v, t))
  return crossing.length > 0 ? pick(crossing) : pick(values)
}
