/**
 * Fields a dashboard's select items come back with that the servers' own write schemas refuse: a `level` on
 * an aggregation other than quantile, and a value expression on a count. Both are leftovers of switching a
 * tile's aggregation in the web UI; the managed cloud keeps returning them (TF `dashboard_select_fixups.go`).
 * Dropped as the dashboard is read, so a plan does not show them as changes and an export stays valid.
 */
import type { LiveDashboard } from './schemas.js'

type Item = Record<string, unknown>

export function dropStaleSelectFields(dashboard: LiveDashboard): LiveDashboard {
  for (const tile of dashboard.tiles) {
    const select = tile.config?.select
    if (Array.isArray(select)) select.forEach(fixItem)
    tile.series?.forEach(fixItem)
  }
  return dashboard
}

function fixItem(item: unknown): void {
  if (item === null || typeof item !== 'object') return
  const it = item as Item
  if (typeof it.aggFn !== 'string') return
  if ('level' in it && it.aggFn !== 'quantile') delete it.level
  // An empty one is what the servers return for every count: not a leftover.
  if (it.aggFn === 'count' && typeof it.valueExpression === 'string' && it.valueExpression !== '')
    delete it.valueExpression
}
