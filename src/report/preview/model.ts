/**
 * A plan's preview as facts for every format: per dashboard its layout (when the plan creates it or changes
 * its layout) and its tiles' data (with check-queries), per alert its replay; each in order of importance,
 * loudest first, so a size cut takes the least important. No markup: the renderers escape the names.
 */
import type { AlertSeries, LayoutPreview, Preview, TileSeries } from '../../plan/preview.js'
import { PREVIEW_VERSION } from '../../plan/preview.js'
import type { Plan } from '../../plan/types.js'
import { plural } from '../wording.js'
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
  return { data: p.tiles !== undefined, dashboards, alerts }
}

const alertWeight = (a: AlertSeries): number =>
  (a.status === 'error' ? 3 : a.status === 'empty' ? 2 : a.status === 'ok' ? 1 : 0) * 1e9 + (a.fired ?? 0)

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

/** "would have fired 3 times in 7 days (of 2,016 5m windows) at above 10". */
export function firedWords(a: AlertSeries, format: (n: number) => string): string {
  const at = `${a.thresholdType.replace(/_/g, ' ')} ${format(a.threshold)}${a.thresholdMax !== undefined ? ` and ${format(a.thresholdMax)}` : ''}`
  const days = Math.round((a.endTime - a.startTime) / 86_400_000)
  if (a.fired === undefined || a.windows === undefined) return `threshold ${at}`
  const times =
    a.fired === 0 ? 'would not have fired' : `would have fired ${a.fired === 1 ? 'once' : `${a.fired} times`}`
  return `${times} in ${days} days (of ${a.windows.toLocaleString('en-US')} ${a.granularity} windows) at ${at}`
}

/** "24 h", "7 days": the range a series covers. */
export function rangeWords(startTime: number, endTime: number): string {
  const hours = Math.round((endTime - startTime) / 3_600_000)
  return hours % 24 === 0 && hours > 24 ? `${hours / 24} days` : `${hours} h`
}
