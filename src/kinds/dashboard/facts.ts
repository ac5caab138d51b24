/** What the alert kind needs to know of the planned dashboards: their live ids, tile ids, and what goes away. */
import type { LiveDashboard, RawId } from '../../api/schemas.js'
import { tileDisplayType } from '../../manifest/rules.js'
import type { PlanContext, PlannedChange } from '../kind.js'
import type { DesiredDashboard } from './desired.js'
import { isAlertable, pairTiles, tileIdsOf, tileSpecs } from './tiles.js'

export function recordDashboardFacts(
  changes: PlannedChange<DesiredDashboard, LiveDashboard>[],
  ctx: PlanContext
): void {
  for (const { change, desired, live } of changes) {
    if (desired) {
      ctx.dashboards.desired.set(desired.name, {
        address: change.address,
        liveId: live?.id,
        tileIds: live ? tileIdsOf(tileSpecs(desired.value), live) : new Map<string, RawId>(),
        pinnedNames: new Map(desired.value.tiles.flatMap(t => (t.spec.id ? [[t.spec.id, t.spec.name]] : [])))
      })
    }
    if (!live) continue
    const droppedTileIds = new Set<string>()
    if (desired) {
      // Desired tiles that can carry alerts: a live tile not among them goes away, or loses its alerts.
      const pairing = pairTiles(tileSpecs(desired.value), live)
      const alertable = new Set(
        desired.value.tiles.flatMap((t, i) =>
          isAlertable(tileDisplayType(t.spec)) ? [pairing.desired[i]!.live] : []
        )
      )
      for (const t of live.tiles)
        if (t.id !== undefined && !alertable.has(t)) droppedTileIds.add(String(t.id))
    }
    ctx.dashboards.live.set(live.id, {
      address: change.address,
      desiredName: desired?.name,
      deleted: change.action === 'delete' && !change.deferred,
      droppedTileIds
    })
  }
}
