/**
 * The internal form of a tile: what HyperDX 2.36 keeps in Mongo and what its web UI routes (`GET /dashboards`) return,
 * against the v2 form the emulator stores (StoredTile.config). The conversions are the server's
 * (packages/api/src/routers/external-api/v2/utils/dashboards.ts): to-internal.ts writes a record from the v2 form,
 * to-external.ts reads the v2 form from a record; the code is ours.
 *
 * A stored tile's internal form is its v2 config converted the way a v2 POST converts it, then its `ui` overlay
 * (types.ts TileUi, overlay.ts) applied: the overlay holds what the record has beyond that. So
 * - a v2 write computes the record the real converter writes and keeps the difference as `ui` (a PUT's `$set` writes
 *   a select item's missing `whereLanguage` as `aggConditionLanguage: null`, a POST's save leaves the key out; a
 *   series tile is written in its own form, `seriesReturnType: 'column'` and all);
 * - a web UI write stores the v2 form of what it sent (what a v2 read shows) and the rest as `ui`, so the UI reads
 *   back exactly what it wrote.
 */
import { normalizeConfig } from '../tiles.js'
import type { JsonObject, StoredTile, TileConfig } from '../types.js'
import { applyUi, diffUi } from './overlay.js'
import { fallbackExternal, internalToExternal } from './to-external.js'
import { configToInternal, finishRecord } from './to-internal.js'

type Json = JsonObject

/** A stored tile's config converted as a v2 POST would write it, before its `ui` overlay. */
export function baseInternalConfig(tile: Pick<StoredTile, 'name' | 'config'>): Json {
  const config = structuredClone(tile.config) as Json
  // PromQL tiles (made in the UI) are stored as the UI sent them, without the name.
  if (config.configType === 'promql') return { ...config, name: tile.name }
  return finishRecord(configToInternal(tile.name ?? '', config), 'insert')
}

/** The tile as the record holds it (what GET /dashboards returns, before the alert is added to its config). */
export function internalTile(tile: StoredTile): Json {
  const config = applyUi(baseInternalConfig(tile), tile.ui)
  return {
    id: tile.id,
    x: tile.x,
    y: tile.y,
    w: tile.w,
    h: tile.h,
    ...(tile.containerId !== undefined ? { containerId: tile.containerId } : {}),
    ...(tile.tabId !== undefined ? { tabId: tile.tabId } : {}),
    config,
    ...structuredClone(tile.ui?.tile ?? {})
  }
}

const TILE_KEYS = new Set(['id', 'x', 'y', 'w', 'h', 'containerId', 'tabId', 'config'])

/**
 * A tile the web UI sent (already validated) as the emulator stores it: the v2 form of its config, and the rest as
 * `ui`, so that a v2 read shows what the real one shows and the UI reads back what it wrote.
 */
export function storedFromInternal(tile: Json): StoredTile {
  const internal = structuredClone((tile.config ?? {}) as Json)
  const name = typeof internal.name === 'string' ? internal.name : ''
  let config: TileConfig
  if (internal.configType === 'promql') {
    const { name: _name, ...rest } = internal
    config = rest as TileConfig
  } else {
    const external = internalToExternal(internal) ?? fallbackExternal(internal)
    config = normalizeConfig(external as TileConfig)
  }
  const stored: StoredTile = {
    id: String(tile.id),
    name,
    x: tile.x as number,
    y: tile.y as number,
    w: tile.w as number,
    h: tile.h as number,
    config
  }
  if (tile.containerId !== undefined) stored.containerId = tile.containerId as string
  if (tile.tabId !== undefined) stored.tabId = tile.tabId as string
  const ui = diffUi(baseInternalConfig(stored), internal) ?? {}
  const extra = Object.fromEntries(Object.entries(tile).filter(([key]) => !TILE_KEYS.has(key)))
  if (Object.keys(extra).length > 0) ui.tile = structuredClone(extra)
  if (Object.keys(ui).length > 0) stored.ui = ui
  return stored
}
