/**
 * A plan's preview as facts for every format: per dashboard its layout (when the plan creates it or changes
 * its layout) and its tiles' data (with check-queries), per alert its replay; each in order of importance,
 * loudest first, so a size cut takes the least important. No markup: the renderers escape the names.
 */
import type { AlertSeries, LayoutPreview, Preview, TileSeries } from '../../plan/preview.js'
import { PREVIEW_VERSION } from '../../plan/preview.js'
import type { Plan } from '../../plan/types.js'
import { plural } from '../wording.js'
import { stepWords } from './chart.js'
import { layoutWeight, tileChanges, type TileChange } from './grid.js'

export interface DashboardPreview {
  name: string
  layout?: LayoutPreview
  tiles: TileSeries[]
  /** Tiles whose query matched nothing, or failed: said in the one line that is never cut. */
  empty: string[]
  failed: string[]
  weight: number
}

export interface PreviewModel {
  /** Whether the data preview ran (check-queries on). */
  data: boolean
  /** `preview-values: hide`: no value from the data is printed, whatever the plan file holds. */
  hide: boolean
  dashboards: DashboardPreview[]
  alerts: AlertSeries[]
}

/** The plan's preview, or none: a plan without one (or of a later version) renders as before. */
export function previewModel(plan: Plan | undefined): PreviewModel | undefined {
  const p: Preview | undefined = plan?.preview
  if (!p || p.version !== PREVIEW_VERSION) return undefined
  const byName = new Map<string, DashboardPreview>()
  const entry = (name: string): DashboardPreview => {
    let d = byName.get(name)
    if (!d) {
      d = { name, tiles: [], empty: [], failed: [], weight: 0 }
      byName.set(name, d)
    }
    return d
  }
  for (const layout of p.layouts) {
    const d = entry(layout.name)
    d.layout = layout
    d.weight += layoutWeight(layout)
  }
  for (const t of p.tiles ?? []) {
    const d = entry(t.dashboard)
    d.tiles.push(t)
    if (t.status === 'empty') d.empty.push(t.tile)
    if (t.status === 'error') d.failed.push(t.tile)
  }
  // Loud first (a query that fails, then one that matches nothing), then by how much the layout changes.
  for (const d of byName.values()) d.weight += d.failed.length * 100_000 + d.empty.length * 10_000
  const dashboards = [...byName.values()].sort((a, b) => b.weight - a.weight)
  const alerts = [...(p.alerts ?? [])].sort((a, b) => alertWeight(b) - alertWeight(a))
  if (dashboards.length === 0 && alerts.length === 0) return undefined
  return { data: p.tiles !== undefined, hide: p.values === 'hide', dashboards, alerts }
}

const alertWeight = (a: AlertSeries): number =>
  (a.status === 'error' ? 3 : a.status === 'empty' ? 2 : a.status === 'ok' ? 1 : 0) * 1e9 +
  (firedCount(a) ?? 0)

/** "2 new, 1 moved, 1 removed": what the layout change is, in words. */
export function layoutWords(layout: LayoutPreview): string {
  if (layout.action === 'create') return `new, ${plural(layout.after.tiles.length, 'tile')}`
  const counts = new Map<TileChange, number>()
  for (const c of tileChanges(layout).values()) counts.set(c, (counts.get(c) ?? 0) + 1)
  const order: TileChange[] = ['new', 'moved', 'resized', 'moved+resized', 'removed', 'edited']
  const said = order
    .filter(c => counts.has(c))
    .map(c => `${counts.get(c)} ${c === 'moved+resized' ? 'moved and resized' : c}`)
  return said.length > 0 ? said.join(', ') : 'containers change'
}

/** "above 10", "between 2 and 5": the alert's threshold in words. */
export function thresholdWords(a: AlertSeries, format: (n: number) => string): string {
  return `${a.thresholdType.replace(/_/g, ' ')} ${format(a.threshold)}${a.thresholdMax !== undefined ? ` and ${format(a.thresholdMax)}` : ''}`
}

/** How many windows would have fired: the windows marked (`firing`), so the count and the marks agree. */
export const firedCount = (a: AlertSeries): number | undefined => a.firing?.length ?? a.fired

/**
 * "would have fired in 3 of 2,016 5m windows in 7 days at above 10, after 3 windows in a row": the count is the
 * windows marked, the windows those of the axis.
 */
export function firedWords(a: AlertSeries, format: (n: number) => string): string {
  const at = thresholdWords(a, format)
  const days = Math.round((a.endTime - a.startTime) / 86_400_000)
  const fired = firedCount(a)
  const windows = a.axis?.count ?? a.windows
  if (fired === undefined || windows === undefined) return `threshold ${at}`
  const interval = a.axis ? stepWords(a.axis.step) : a.granularity
  const inARow =
    (a.numConsecutiveWindows ?? 1) > 1 ? `, after ${a.numConsecutiveWindows} windows in a row` : ''
  // Windows, not notifications: a window counts where the alert would be firing in it.
  const of = `${windows.toLocaleString('en-US')} ${interval} windows`
  const said =
    fired === 0
      ? `would not have fired in any of ${of}`
      : `would have fired in ${fired.toLocaleString('en-US')} of ${of}`
  return `${said} in ${days} days at ${at}${inARow}`
}

/**
 * How alarming a value is for the alert's threshold, higher more: a run of windows drawn as one point shows
 * its most alarming window, so a spike the alert fires on is never averaged away.
 */
function alarmScore(a: AlertSeries): (v: number) => number {
  const t = a.threshold
  const max = a.thresholdMax ?? t
  switch (a.thresholdType) {
    case 'below':
    case 'below_or_equal':
      return v => -v
    case 'equal':
      return v => -Math.abs(v - t)
    case 'not_equal':
      return v => Math.abs(v - t)
    case 'between':
      return v => -Math.max(t - v, v - max, 0)
    case 'not_between':
      return v => Math.max(t - v, v - max)
    default:
      return v => v
  }
}

/**
 * A run of windows [from, to) as one value: a fired window's if the run has one (the most alarming of them),
 * else the most alarming of all; null when no window has a value.
 */
export function alarming(
  a: AlertSeries,
  values: ReadonlyArray<number | null>,
  firing: ReadonlySet<number>
): (from: number, to: number) => number | null {
  const score = alarmScore(a)
  return (from, to) => {
    let best: number | null = null
    let bestFired = false
    for (let i = from; i < to; i++) {
      const v = values[i] ?? null
      if (v === null) continue
      const fired = firing.has(i)
      if (best === null || (fired && !bestFired) || (fired === bestFired && score(v) > score(best))) {
        best = v
        bestFired = fired
      }
    }
    return best
  }
}
