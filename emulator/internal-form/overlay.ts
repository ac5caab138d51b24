/**
 * A tile's `ui` overlay (types.ts TileUi): what a record holds beyond its v2 config converted the way a v2 POST
 * converts it. A stored tile's record is that conversion with the overlay applied; the overlay is the difference
 * between the two. The code is ours.
 */
import { isPlainObject } from '../errors.js'
import type { JsonObject, TileUi, UiOverlay } from '../types.js'

type Json = JsonObject

function applyOverlay(target: Json, overlay: UiOverlay | null | undefined): Json {
  if (!overlay) return target
  for (const key of overlay.unset ?? []) delete target[key]
  Object.assign(target, structuredClone(overlay.set ?? {}))
  return target
}

export function applyUi(base: Json, ui: TileUi | undefined): Json {
  if (ui === undefined) return base
  const out = structuredClone(base)
  if (ui.select && Array.isArray(out.select))
    out.select = (out.select as unknown[]).map((item, i) =>
      isPlainObject(item) ? applyOverlay(item, ui.select?.[i]) : item
    )
  return applyOverlay(out, ui.config)
}

/**
 * JSON equality, key order aside. Not util.isDeepStrictEqual: that compares prototypes, and objects parsed in a test
 * runner's sandbox have another realm's Object.prototype than structuredClone's copies.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    return a.every((item, i) => sameJson(item, b[i]))
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  const left = Object.entries(a).filter(([, v]) => v !== undefined)
  const right = b as Json
  const rightKeys = Object.keys(right).filter(k => right[k] !== undefined)
  return (
    left.length === rightKeys.length &&
    left.every(([key, value]) => key in right && sameJson(value, right[key]))
  )
}

function diffObject(base: Json, actual: Json): UiOverlay | undefined {
  const set: Json = {}
  const unset = Object.keys(base).filter(key => !(key in actual))
  for (const [key, value] of Object.entries(actual))
    if (!(key in base) || !sameJson(base[key], value)) set[key] = structuredClone(value)
  if (Object.keys(set).length === 0 && unset.length === 0) return undefined
  return { ...(Object.keys(set).length > 0 ? { set } : {}), ...(unset.length > 0 ? { unset } : {}) }
}

/** The overlay that turns `base` (a stored config converted) into `actual` (the record); undefined when none. */
export function diffUi(base: Json, actual: Json): TileUi | undefined {
  const ui: TileUi = {}
  let configBase = base
  const b = base.select
  const a = actual.select
  if (
    Array.isArray(b) &&
    Array.isArray(a) &&
    b.length === a.length &&
    b.every(isPlainObject) &&
    a.every(isPlainObject)
  ) {
    const perItem = a.map((item, i) => diffObject(b[i] as Json, item as Json) ?? null)
    if (perItem.some(o => o !== null)) ui.select = perItem
    // The items are told apart one by one: the config-level comparison takes the select list as it ends up.
    configBase = { ...base, select: a }
  }
  const config = diffObject(configBase, actual)
  if (config) ui.config = config
  return ui.config || ui.select ? ui : undefined
}
