/** What the alert kind needs to know of the planned dashboards: their live ids, tile ids, and what goes away. */
import type { LiveDashboard, RawId } from '../../api/schemas.js'
import { tileDisplayType } from '../../manifest/rules.js'
import type { PlanContext, PlannedChange } from '../kind.js'
import type { DesiredDashboard } from './desired.js'
import { isAlertable, keyedLiveTiles, tileIdsOf } from './tiles.js'

export function recordDashboardFacts(
  changes: PlannedChange<DesiredDashboard, LiveDashboard>[],
  ctx: PlanContext
): void {
  for (const { change, desired, live, replaces } of changes) {
    const current = replaces ? undefined : live
    // Desired tiles that can carry alerts: a live tile not among them goes away, or loses its alerts.
    const alertable = new Set(
      desired?.value.tiles.filter(t => isAlertable(tileDisplayType(t.spec))).map(t => t.spec.name) ?? []
    )
    if (desired) {
      ctx.dashboards.desired.set(desired.name, {
        address: change.address,
        liveId: current?.id,
        tileIds: current ? tileIdsOf(current) : new Map<string, RawId>()
      })
    }
    for (const l of [live, replaces]) {
      if (!l) continue
      const droppedTileIds = new Set<string>()
      if (desired && l === current) {
        for (const [key, t] of keyedLiveTiles(l))
          if (t.id !== undefined && !alertable.has(key)) droppedTileIds.add(String(t.id))
      }
      ctx.dashboards.live.set(l.id, {
        address: change.address,
        desiredName: l === current ? desired?.name : undefined,
        deleted: l === replaces || (change.action === 'delete' && !change.deferred),
        droppedTileIds
      })
    }
  }
}
