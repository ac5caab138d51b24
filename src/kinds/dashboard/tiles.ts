/** Live and desired tiles side by side: keyed by name, in the tile normal form, with their ids. */
import type { LiveTile, RawId } from '../../api/schemas.js'
import { equal, type Json, type JsonObject } from '../../json.js'
import { ALERTABLE_DISPLAY_TYPES } from '../../manifest/vocabulary.js'
import { normalTile, type SeriesLike } from '../tile-normal-form.js'

export const isAlertable = (type: string | undefined) =>
  (ALERTABLE_DISPLAY_TYPES as readonly (string | undefined)[]).includes(type)

/** Live tiles by name; a second tile of the same name (made in the UI) gets a distinct key. */
export function keyedLiveTiles<T extends { name: string }>(l: { tiles: readonly T[] }): Map<string, T> {
  const out = new Map<string, T>()
  for (const t of l.tiles) {
    let key = t.name
    for (let n = 2; out.has(key); n++) key = `${t.name} (${n})`
    out.set(key, t)
  }
  return out
}

/** Tile ids by tile name, as the server sent them. */
export function tileIdsOf(d: { tiles: ReadonlyArray<{ name: string; id?: RawId }> }): Map<string, RawId> {
  const ids = new Map<string, RawId>()
  for (const [key, t] of keyedLiveTiles(d)) if (t.id !== undefined) ids.set(key, t.id)
  return ids
}

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
