/** Live and desired tiles side by side: keyed by name (and a short id where names repeat), in the tile normal form, with their ids. */
import type { LiveTile, RawId } from '../../api/schemas.js'
import { sameId } from '../../api/schemas.js'
import { equal, type Json, type JsonObject } from '../../json.js'
import { qualifiedKey } from '../../plan/diff.js'
import { ALERTABLE_DISPLAY_TYPES } from '../../manifest/vocabulary.js'
import { normalTile, type SeriesLike } from '../tile-normal-form.js'

export const isAlertable = (type: string | undefined) =>
  (ALERTABLE_DISPLAY_TYPES as readonly (string | undefined)[]).includes(type)

/**
 * A tile's key in plans: its name; where a name repeats on the dashboard (HyperDX allows it), the name and a short
 * id. Live and desired tiles pair by the desired tile's `id:` pin first, then by name (the first live tile of that
 * name not yet taken); a paired tile takes its live tile's key, so both sides of a diff key it alike.
 */
export interface TilePairing<T> {
  /** Each desired tile's key and its live tile, in manifest order. */
  desired: Array<{ key: string; live?: T }>
  /** Live tiles by key. */
  live: Map<string, T>
}

type KeyedTile = { name: string; id?: RawId }

export function pairTiles<T extends KeyedTile>(
  desired: ReadonlyArray<{ name: string; id?: string }>,
  live?: { tiles: readonly T[] }
): TilePairing<T> {
  const liveTiles = keyedLiveTiles(live ?? { tiles: [] })
  const keyOf = new Map([...liveTiles].map(([k, t]) => [t, k]))
  const taken = new Set<T>()
  const found: Array<T | undefined> = desired.map(d => {
    const pinned = d.id === undefined ? undefined : live?.tiles.find(t => sameId(t.id, d.id))
    if (pinned) taken.add(pinned)
    return pinned
  })
  desired.forEach((d, i) => {
    if (found[i]) return
    const byName = live?.tiles.find(t => t.name === d.name && !taken.has(t))
    if (byName) taken.add(byName)
    found[i] = byName
  })
  const own = keyed(desired)
  return {
    desired: desired.map((d, i) => {
      const l = found[i]
      return { key: l && l.name === d.name ? keyOf.get(l)! : own[i]!, live: l }
    }),
    live: liveTiles
  }
}

/** Live tiles by key. */
export function keyedLiveTiles<T extends KeyedTile>(l: { tiles: readonly T[] }): Map<string, T> {
  const keys = keyed(l.tiles)
  return new Map(l.tiles.map((t, i) => [keys[i]!, t]))
}

/** Each tile's key among its dashboard's tiles: its name, or where the name repeats its name and short id. */
function keyed(tiles: ReadonlyArray<KeyedTile>): string[] {
  const count = new Map<string, number>()
  for (const t of tiles) count.set(t.name, (count.get(t.name) ?? 0) + 1)
  const used = new Set<string>()
  return tiles.map(t => {
    let key = t.name
    if ((count.get(t.name) ?? 0) > 1 && t.id !== undefined) {
      const same = tiles.filter(o => o.name === t.name && o.id !== undefined).map(o => String(o.id))
      const short = shortTileId(String(t.id))
      const unique = same.filter(o => shortTileId(o) === short).length === 1
      key = qualifiedKey(t.name, unique ? short : String(t.id))
    }
    // A repeat without an id (never from the server, which gives every tile one): a counter.
    for (let n = 2; used.has(key); n++) key = `${t.name} (${n})`
    used.add(key)
    return key
  })
}

/** Ids the UI makes are 6 characters; the API's are ObjectIds, whose last 6 hex digits are a counter. */
export const shortTileId = (id: string): string => (id.length <= 8 ? id : id.slice(-6))

/**
 * What an alert may name a dashboard's tile by (see alertTileRef), to the live tile ids: `#id` for each pinned
 * tile, and the name for each tile whose name is unique in the manifest.
 */
export function tileIdsOf(
  desired: ReadonlyArray<{ name: string; id?: string }>,
  live: { tiles: ReadonlyArray<KeyedTile> }
): Map<string, RawId> {
  const ids = new Map<string, RawId>()
  const repeats = new Set(
    desired.filter((d, i) => desired.findIndex(o => o.name === d.name) !== i).map(d => d.name)
  )
  pairTiles(desired, live).desired.forEach(({ live: l }, i) => {
    const d = desired[i]!
    if (l?.id === undefined) return
    if (d.id !== undefined) ids.set(`#${d.id}`, l.id)
    if (!repeats.has(d.name)) ids.set(d.name, l.id)
  })
  return ids
}

/** A dashboard's tile manifests, as pairTiles and tileIdsOf read them. */
export const tileSpecs = (d: { tiles: ReadonlyArray<{ spec: { name: string; id?: string } }> }) =>
  d.tiles.map(t => t.spec)

/** How an alert names its tile in DashboardFacts' tile ids: by the tile's pin, or by its name. */
export const alertTileRef = (s: { tile?: string; tileId?: string }): string =>
  s.tileId !== undefined ? `#${s.tileId}` : (s.tile ?? '')

export function liveDisplayType(t: LiveTile): string | undefined {
  return normalTile(asNormalInput(t)).config.displayType as string | undefined
}

/** A tile's layout and config in one flat record: how tiles compare. */
export function flatTile(t: Record<string, unknown>): JsonObject {
  const n = normalTile(asNormalInput(t))
  return { x: n.x, y: n.y, w: n.w, h: n.h, ...n.config }
}

/** A live tile as the normal form's input. Its callers read the layout and config, never the name. */
function asNormalInput(t: Record<string, unknown>): Parameters<typeof normalTile>[0] {
  return {
    name: String(t.name),
    x: Number(t.x),
    y: Number(t.y),
    w: Number(t.w),
    h: Number(t.h),
    config: (t.config as Record<string, unknown> | null | undefined) ?? undefined,
    series: (t.series as SeriesLike[] | null | undefined) ?? undefined,
    asRatio: (t.asRatio as boolean | null | undefined) ?? undefined
  }
}

/** Same tile apart from its name (for spotting tile renames). */
export function sameContent(a: JsonObject, b: JsonObject): boolean {
  return equal(a as Json, b as Json)
}
