/**
 * The facts a layout preview pictures, read from the planned dashboard changes: each created, replaced or
 * layout-changed dashboard's tiles with their grid cells, containers and tabs, live and as the manifests
 * ask. No request: everything is already in the plan's inputs. Gathered here, beside the plan it belongs
 * to (plan/preview.ts), so report/preview/ only renders what the plan holds.
 */
import type { LiveDashboard } from '../api/schemas.js'
import type { DesiredDashboard } from '../kinds/dashboard/desired.js'
import { livePlacement } from '../kinds/dashboard/layout.js'
import { keyedLiveTiles, pairTiles, tileSpecs } from '../kinds/dashboard/tiles.js'
import type { PlannedChange } from '../kinds/kind.js'
import { keyedField, keyText } from '../plan/diff.js'
import type { Change } from '../plan/types.js'
import {
  PREVIEW_VERSION,
  type LayoutPreview,
  type Preview,
  type PreviewContainer,
  type PreviewGrid,
  type PreviewTile
} from '../plan/preview.js'

/** A change path's tile and what under it changed: `tiles["A"].x` -> ["A", "x"]; `tiles["A"]` -> ["A", ""]. */
export function tilePathOf(path: string): [string, string] | undefined {
  const at = keyedField(path, 'tiles')
  return at && [at.key, /^\.([A-Za-z]+)/.exec(at.rest)?.[1] ?? '']
}

const PLACE_FIELDS = new Set(['', 'x', 'y', 'w', 'h', 'container', 'tab'])

/** Whether a dashboard change moves, sizes, adds or removes a tile, or changes its containers. */
export function changesLayout(c: Change): boolean {
  return c.fields.some(f => {
    if (f.path === 'containers' || f.path.startsWith('containers')) return true
    const at = tilePathOf(f.path)
    return at !== undefined && PLACE_FIELDS.has(at[1])
  })
}

/**
 * A plan's preview: its layouts, and with data (check-queries, and how `preview-values` treats values from
 * the data) empty lists the query check fills.
 */
export function previewOf(planned: readonly PlannedChange[], withData: Preview['values'] | boolean): Preview {
  const values = withData === true ? 'mask' : withData === false ? undefined : withData
  return {
    version: PREVIEW_VERSION,
    ...(values !== undefined ? { values } : {}),
    layouts: layoutPreviews(planned),
    ...(values !== undefined ? { tiles: [], alerts: [] } : {})
  }
}

export function layoutPreviews(planned: readonly PlannedChange[]): LayoutPreview[] {
  const out: LayoutPreview[] = []
  for (const pc of planned) {
    const c = pc.change
    if (c.kind !== 'Dashboard' || c.deferred !== undefined || !pc.desired) continue
    if (c.action !== 'create' && c.action !== 'replace' && c.action !== 'update') continue
    if (c.action === 'update' && !changesLayout(c)) continue
    const desired = pc.desired.value as DesiredDashboard
    const live = pc.live as LiveDashboard | undefined
    const edited = new Set<string>()
    for (const f of c.fields) {
      const at = tilePathOf(f.path)
      if (at && !PLACE_FIELDS.has(at[1])) edited.add(keyText(at[0]))
    }
    out.push({
      address: c.address,
      name: c.name,
      action: c.action,
      ...(live && c.action !== 'create' ? { before: liveGrid(live) } : {}),
      after: desiredGrid(desired, live),
      edited: [...edited]
    })
  }
  return out
}

/** Tiles by their keys in the plan's paths (a repeated name with a short id), as the reviewer reads them. */
function desiredGrid(d: DesiredDashboard, live: LiveDashboard | undefined): PreviewGrid {
  const keys = pairTiles(tileSpecs(d), live).desired
  const tiles = d.tiles.map(({ spec }, i) =>
    tileOf(keyText(keys[i]!.key), spec.x, spec.y, spec.w, spec.h, spec.container, spec.tab)
  )
  const containers = (d.spec.containers ?? []).map(c =>
    containerOf(
      c.title,
      c.tabs?.map(t => t.title),
      c.collapsed
    )
  )
  return { tiles, containers }
}

function liveGrid(l: LiveDashboard): PreviewGrid {
  const tiles = [...keyedLiveTiles(l)].map(([key, t]) => {
    const at = livePlacement(t, l)
    return tileOf(keyText(key), t.x, t.y, t.w, t.h, at.container, at.tab)
  })
  const containers = (Array.isArray(l.containers) ? l.containers : []).map(c => {
    const tabs = Array.isArray(c.tabs)
      ? (c.tabs as Array<Record<string, unknown>>).map(t => String(t.title ?? t.id))
      : undefined
    return containerOf(String(c.title ?? c.id), tabs, c.collapsed === true)
  })
  return { tiles, containers }
}

function tileOf(
  name: string,
  x: number,
  y: number,
  w: number,
  h: number,
  container?: string,
  tab?: string
): PreviewTile {
  const t: PreviewTile = { name, x, y, w, h }
  if (container !== undefined) t.container = container
  if (container !== undefined && tab !== undefined) t.tab = tab
  return t
}

function containerOf(title: string, tabs?: string[], collapsed?: boolean): PreviewContainer {
  const c: PreviewContainer = { title }
  if (tabs && tabs.length > 0) c.tabs = tabs
  if (collapsed) c.collapsed = true
  return c
}
