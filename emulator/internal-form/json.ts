/** The small operations on JSON objects that the server's converters make, named after the lodash calls they stand for. */
import { isPlainObject } from '../errors.js'
import type { JsonObject } from '../types.js'

type Json = JsonObject

/** lodash `isNil`, negated. */
export const has = (value: unknown): boolean => value !== undefined && value !== null

/** lodash `pick`: the listed keys the object has, in the list's order. */
export function pick(source: Json, keys: readonly string[]): Json {
  const out: Json = {}
  for (const key of keys) if (key in source) out[key] = source[key]
  return out
}

/** lodash `omitBy(isNil)`, as the converter applies it to the config (not to the select items inside). */
export function dropNil(value: Json): Json {
  for (const key of Object.keys(value)) if (!has(value[key])) delete value[key]
  return value
}

/** A config's select items that are objects (a search tile's `select` is a string: no items). */
export const items = (select: unknown): Json[] =>
  Array.isArray(select) ? (select as unknown[]).filter(isPlainObject) : []
