/**
 * Request bodies: a new dashboard, and an update. A PUT keeps the dashboard-level fields it omits (filters, saved
 * query, saved filter values, containers: FACTS.md), so an update sends each of them whenever the manifest sets it or
 * the live dashboard has one the manifest does not: what the plan compares is what the request leaves.
 */
import type { LiveDashboard } from '../../api/schemas.js'
import type { Mode } from '../../config/types.js'
import { managedDashboardBody } from '../managed-request.js'
import { orderedUserTags } from '../ownership.js'
import { tileAsSent, unknownDashboardFields } from './carry.js'
import type { DashboardRequest } from './desired.js'
import { withFilterIds } from './filters.js'
import { layoutOf } from './layout.js'
import { withLinkIds } from './links.js'
import { pairTiles, tileSpecs } from './tiles.js'

type Body = Record<string, unknown>

export interface BodyOptions {
  tag: string
  mode: Mode
  /** The id of a dashboard this apply created, by name (for link-outs to it); undefined while it does not exist. */
  idOf?: (name: string) => string | undefined
}

export function createBody(d: DashboardRequest, options: BodyOptions): Body {
  const layout = layoutOf(d.spec.containers)
  const body: Body = {
    name: d.spec.name,
    tags: [...orderedUserTags(d.spec.tags ?? []), options.tag],
    tiles: withLinkIds(
      d.tiles.map(t => ({ ...t.body, ...layout.placement(t.spec) })),
      options.idOf ?? (() => undefined)
    )
  }
  // A create keeps what it is sent: only what the manifest sets (a filter's id is the server's to give).
  if (d.filters.length > 0) body.filters = d.filters
  const query = savedQueryOf(d)
  if (query.savedQuery !== null) body.savedQuery = query.savedQuery
  if (query.savedQueryLanguage !== null) body.savedQueryLanguage = query.savedQueryLanguage
  if (d.spec.savedFilterValues?.length) body.savedFilterValues = d.spec.savedFilterValues
  if (layout.containers.length > 0) body.containers = layout.containers
  return forMode(options.mode, body)
}

export function updateBody(d: DashboardRequest, live: LiveDashboard, options: BodyOptions): Body {
  const pairing = pairTiles(tileSpecs(d), live)
  const layout = layoutOf(d.spec.containers, live)
  const body: Body = {
    name: d.spec.name,
    // The user's tags and this stack's: a dashboard has one owner, so adopting one from another stack
    // removes that stack's tag (the plan says so).
    tags: [...new Set([...orderedUserTags(d.spec.tags ?? []), options.tag])],
    tiles: withLinkIds(
      d.tiles.map((t, i) => ({
        ...tileAsSent(t.body, pairing.desired[i]!.live),
        ...layout.placement(t.spec)
      })),
      options.idOf ?? (() => undefined)
    )
  }
  const has = (v: unknown) => (Array.isArray(v) ? v.length > 0 : v !== undefined && v !== null)
  const liveFilters = live.filters ?? []
  if (d.filters.length > 0 || has(liveFilters)) body.filters = withFilterIds(d.filters, liveFilters)
  const query = savedQueryOf(d)
  if (query.savedQuery !== null || has(live.savedQuery)) body.savedQuery = query.savedQuery
  if (query.savedQueryLanguage !== null || has(live.savedQueryLanguage))
    body.savedQueryLanguage = query.savedQueryLanguage
  if (d.spec.savedFilterValues?.length || has(live.savedFilterValues))
    body.savedFilterValues = d.spec.savedFilterValues ?? []
  if (layout.containers.length > 0 || has(live.containers)) body.containers = layout.containers
  // What a newer server holds that this version does not know goes back as read (the managed gateway refuses a key
  // it does not declare: there the update leaves it out, and the plan says so).
  return options.mode === 'managed'
    ? forMode(options.mode, body)
    : { ...unknownDashboardFields(live), ...body }
}

/**
 * The saved query as the server stores it (udash resolveSavedQueryLanguage): a query without a language is Lucene;
 * null where there is none.
 */
export function savedQueryOf(d: DashboardRequest): {
  savedQuery: string | null
  savedQueryLanguage: string | null
} {
  const savedQuery = d.spec.savedQuery ?? null
  const savedQueryLanguage = d.spec.savedQueryLanguage ?? (savedQuery ? 'lucene' : null)
  return { savedQuery, savedQueryLanguage }
}

const forMode = (mode: Mode, body: Body) => (mode === 'managed' ? managedDashboardBody(body) : body)
