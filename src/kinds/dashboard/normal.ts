/** Both sides of a dashboard in one normal form: name, owner, the user's tags, tiles by name. */
import type { LiveDashboard } from '../../api/schemas.js'
import type { JsonObject } from '../../json.js'
import type { Desired, PlanContext } from '../kind.js'
import { isOwnershipTag, userTags } from '../ownership.js'
import { tileAsSent } from './carry.js'
import type { DesiredDashboard } from './desired.js'
import { flatTile, keyedLiveTiles } from './tiles.js'

/** The dashboard as the planned request leaves it: an update sends back what the manifest does not model. */
export function normalDesired(
  d: Desired<DesiredDashboard>,
  ctx: PlanContext,
  live?: LiveDashboard
): JsonObject {
  const liveTiles = live ? keyedLiveTiles(live) : undefined
  const tiles: JsonObject = {}
  for (const t of d.value.tiles)
    tiles[t.spec.name] = flatTile(tileAsSent(t.body, liveTiles?.get(t.spec.name)))
  return withoutUndefined({
    name: d.name,
    owner: ctx.settings.ownershipTag,
    tags: userTags(d.value.spec.tags ?? []),
    tiles
  })
}

export function normalLive(l: LiveDashboard, ctx: PlanContext): JsonObject {
  const tiles: JsonObject = {}
  for (const [key, t] of keyedLiveTiles(l)) tiles[key] = flatTile(t)
  const owner = l.tags.includes(ctx.settings.ownershipTag)
    ? ctx.settings.ownershipTag
    : l.tags.find(isOwnershipTag)
  return withoutUndefined({ name: l.name, owner, tags: userTags(l.tags), tiles })
}

function withoutUndefined(o: Record<string, unknown>): JsonObject {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as JsonObject
}
