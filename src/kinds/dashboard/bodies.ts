/** Request bodies: a new dashboard, and an update that sends back what the manifest does not model. */
import type { LiveDashboard } from '../../api/schemas.js'
import type { Mode } from '../../config/types.js'
import { managedDashboardBody } from '../managed-request.js'
import { userTags } from '../ownership.js'
import { carriedDashboardFields, tileAsSent } from './carry.js'
import type { DesiredDashboard } from './desired.js'
import { keyedLiveTiles } from './tiles.js'

export function createBody(d: DesiredDashboard, tag: string, mode: Mode): Record<string, unknown> {
  return forMode(mode, {
    name: d.spec.name,
    tags: [...userTags(d.spec.tags ?? []), tag],
    tiles: d.tiles.map(t => ({ ...t.body }))
  })
}

export function updateBody(
  d: DesiredDashboard,
  live: LiveDashboard,
  tag: string,
  mode: Mode
): Record<string, unknown> {
  const liveTiles = keyedLiveTiles(live)
  return forMode(mode, {
    // A PUT replaces what it is sent: fields the manifest does not manage go back as they are.
    ...carriedDashboardFields(live),
    name: d.spec.name,
    // The user's tags and this stack's: a dashboard has one owner, so adopting one from another stack
    // removes that stack's tag (the plan says so).
    tags: [...new Set([...userTags(d.spec.tags ?? []), tag])],
    tiles: d.tiles.map(t => tileAsSent({ ...t.body }, liveTiles.get(t.spec.name)))
  })
}

const forMode = (mode: Mode, body: Record<string, unknown>) =>
  mode === 'managed' ? managedDashboardBody(body) : body
