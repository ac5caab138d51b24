/**
 * Both sides of a dashboard in one normal form: name, owner, the user's tags, tiles by name (with the titles of
 * their container and tab, and link-outs by the target's name), filters without their ids, the saved query as the
 * server resolves its language, saved filter values, containers by title. Ids the server or the UI assigned
 * (filters', containers', tabs') never show.
 */
import type { LiveDashboard } from '../../api/schemas.js'
import { clean, type Json, type JsonObject } from '../../json.js'
import type { Desired, PlanContext } from '../kind.js'
import { isOwnershipTag, userTags } from '../ownership.js'
import { isRegistryDashboard, registryNormalForm } from '../registry.js'
import { savedQueryOf } from './bodies.js'
import { tileAsCompared } from './carry.js'
import type { DesiredDashboard } from './desired.js'
import { normalFilters } from './filters.js'
import { livePlacement, normalContainers } from './layout.js'
import { namedLink } from './links.js'
import { flatTile, keyedLiveTiles, pairTiles, tileSpecs } from './tiles.js'

/** The dashboard as the planned request leaves it: an update sends back what the manifest does not model. */
export function normalDesired(
  d: Desired<DesiredDashboard>,
  ctx: PlanContext,
  live?: LiveDashboard
): JsonObject {
  const pairing = pairTiles(tileSpecs(d.value), live)
  const tiles: JsonObject = {}
  d.value.tiles.forEach((t, i) => {
    const { key, live: before } = pairing.desired[i]!
    const flat = flatTile(tileAsCompared(t.body, before))
    tiles[key] = namedLink({ ...flat, ...placed(t.spec.container, t.spec.tab) }, ctx)
  })
  const { spec } = d.value
  return withoutUndefined({
    name: d.name,
    owner: ctx.settings.ownershipTag,
    tags: userTags(spec.tags ?? []),
    tiles,
    filters: normalFilters(d.value.filters),
    ...savedQueryOf(d.value),
    savedFilterValues: normalSavedFilterValues(spec.savedFilterValues),
    containers: normalContainers(spec.containers)
  })
}

export function normalLive(l: LiveDashboard, ctx: PlanContext): JsonObject {
  // Only an extra registry dashboard of the stack gets here (its delete): what it holds, counted, not shown.
  if (isRegistryDashboard(l)) return registryNormalForm(l, ctx.settings.ownershipTag)
  const tiles: JsonObject = {}
  for (const [key, t] of keyedLiveTiles(l)) {
    const at = livePlacement(t, l)
    tiles[key] = namedLink({ ...flatTile(t), ...placed(at.container, at.tab) }, ctx)
  }
  const owner = l.tags.includes(ctx.settings.ownershipTag)
    ? ctx.settings.ownershipTag
    : l.tags.find(isOwnershipTag)
  return withoutUndefined({
    name: l.name,
    owner,
    tags: userTags(l.tags),
    tiles,
    filters: normalFilters(l.filters),
    savedQuery: l.savedQuery,
    savedQueryLanguage: l.savedQueryLanguage,
    savedFilterValues: normalSavedFilterValues(l.savedFilterValues),
    containers: normalContainers(l.containers)
  })
}

const placed = (container?: string, tab?: string): JsonObject =>
  (clean({ container, tab }) ?? {}) as JsonObject

/** Saved filter values; `type: sql` is the default (and only) type. */
function normalSavedFilterValues(
  list: ReadonlyArray<Record<string, unknown>> | null | undefined
): Json | undefined {
  return clean((list ?? []).map(v => ({ ...v, type: v.type === 'sql' ? undefined : v.type })))
}

function withoutUndefined(o: Record<string, unknown>): JsonObject {
  return Object.fromEntries(
    Object.entries(o).filter(([, v]) => v !== undefined && v !== null && v !== '')
  ) as JsonObject
}
