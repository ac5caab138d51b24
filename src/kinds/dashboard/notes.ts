/**
 * What a dashboard update does to its tiles' alerts, as notes for the reviewer (FACTS.md: the server
 * deletes the alerts of a tile that goes away, and a tile that can no longer carry alerts loses them).
 */
import { sameId, type LiveDashboard, type RawId } from '../../api/schemas.js'
import { tileDisplayType } from '../../manifest/rules.js'
import type { PlanContext, PlannedChange } from '../kind.js'
import type { DesiredDashboard } from './desired.js'
import { flatTile, isAlertable, keyedLiveTiles, liveDisplayType, sameContent } from './tiles.js'

export function noteTileConsequences(
  pc: PlannedChange<DesiredDashboard, LiveDashboard>,
  ctx: PlanContext
): void {
  const { change, desired, live } = pc
  if (!desired || !live || pc.replaces) return
  const desiredByName = new Map(desired.value.tiles.map(t => [t.spec.name, t]))
  const liveTiles = keyedLiveTiles(live)
  const dropped = [...liveTiles].filter(([key]) => !desiredByName.has(key))
  const added = desired.value.tiles.filter(t => !liveTiles.has(t.spec.name))
  const alertsOn = (tileId: RawId | undefined) =>
    tileId !== undefined
      ? ctx.live.alerts
          .filter(a => a.dashboardId === live.id && sameId(a.tileId, tileId))
          .map(a => `"${a.name ?? a.id}"`)
      : []
  for (const [key, tile] of dropped) {
    const twin = added.find(a => sameContent(flatTile(a.body), flatTile(tile)))
    const alerts = alertsOn(tile.id)
    const alertText =
      alerts.length > 0
        ? `; the server deletes its alert${alerts.length > 1 ? 's' : ''} ${alerts.join(', ')}`
        : ''
    if (twin) {
      change.notes.push(
        `tile "${key}" renamed to "${twin.spec.name}": tiles are matched by name, so "${twin.spec.name}" is a new tile with a new id${alertText}`
      )
    } else if (alerts.length > 0) {
      change.notes.push(`tile "${key}" is removed${alertText}`)
    }
  }
  for (const t of desired.value.tiles) {
    const before = liveTiles.get(t.spec.name)
    if (!before || isAlertable(tileDisplayType(t.spec)) || !isAlertable(liveDisplayType(before))) continue
    const alerts = alertsOn(before.id)
    if (alerts.length > 0) {
      change.notes.push(
        `tile "${t.spec.name}" becomes a ${tileDisplayType(t.spec)} tile, which cannot carry alerts: the server deletes ${alerts.join(', ')}`
      )
    }
  }
}
