/** Request bodies: a new dashboard, and an update that keeps what the manifest does not manage. */
import type { LiveDashboard } from '../../api/schemas.js'
import { userTags } from '../ownership.js'
import { isModelledConfigKey } from '../tile-normal-form.js'
import type { DesiredDashboard } from './desired.js'
import { keyedLiveTiles } from './tiles.js'

/** Dashboard fields we do not manage but must not lose: a PUT may replace the whole record. */
const CARRIED_DASHBOARD_FIELDS = [
  'filters',
  'savedQuery',
  'savedQueryLanguage',
  'savedFilterValues',
  'containers'
]
const CARRIED_TILE_FIELDS = ['containerId', 'tabId']

export function createBody(d: DesiredDashboard, tag: string): Record<string, unknown> {
  return {
    name: d.spec.name,
    tags: [...userTags(d.spec.tags ?? []), tag],
    tiles: d.tiles.map(t => ({ ...t.body }))
  }
}

export function updateBody(d: DesiredDashboard, live: LiveDashboard, tag: string): Record<string, unknown> {
  const liveTiles = keyedLiveTiles(live)
  const body: Record<string, unknown> = {}
  for (const field of CARRIED_DASHBOARD_FIELDS)
    if (live[field] !== undefined && live[field] !== null) body[field] = live[field]
  body.name = d.spec.name
  // The user's tags and this stack's: a dashboard has one owner, so adopting one from another stack
  // removes that stack's tag (the plan says so).
  body.tags = [...new Set([...userTags(d.spec.tags ?? []), tag])]
  body.tiles = d.tiles.map(t => {
    const before = liveTiles.get(t.spec.name)
    if (!before) return { ...t.body }
    // The id exactly as the server sent it: the server matches tiles by id.
    const tile: Record<string, unknown> = { id: before.id, ...t.body }
    for (const field of CARRIED_TILE_FIELDS)
      if (before[field] !== undefined && before[field] !== null) tile[field] = before[field]
    // Config keys we do not model (set in the UI) survive an update of the same display type.
    const sent = tile.config as Record<string, unknown> | undefined
    if (sent && before.config && before.config.displayType === sent.displayType) {
      const extra = Object.fromEntries(
        Object.entries(before.config).filter(([k]) => !isModelledConfigKey(k) && !(k in sent))
      )
      tile.config = { ...extra, ...sent }
    }
    if (tile.id === undefined) delete tile.id
    return tile
  })
  return body
}
