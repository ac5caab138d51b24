/**
 * Field-level differences between two normal forms: one entry per leaf that differs, with the path a
 * reviewer can find in the manifest (`tiles["Errors"].select[0].where`).
 */
import { equal, type Json } from '../json.js'
import type { FieldChange } from './types.js'

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/

/**
 * `byName` lists the paths whose children are keyed by a user-chosen name (tiles by tile name): those
 * keys are always written as `["name"]`.
 */
export function diffValues(
  before: Json | undefined,
  after: Json | undefined,
  byName: ReadonlySet<string> = new Set(),
  path = ''
): FieldChange[] {
  if (equal(before, after)) return []
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()
    return keys.flatMap(k => diffValues(before[k], after[k], byName, joinKey(path, k, byName.has(path))))
  }
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    return before.flatMap((b, i) => diffValues(b, after[i], byName, `${path}[${i}]`))
  }
  const change: FieldChange = { path: path || '(root)' }
  if (before !== undefined) change.before = before
  if (after !== undefined) change.after = after
  return [change]
}

export function joinKey(path: string, key: string, forceBrackets = false): string {
  if (!forceBrackets && IDENTIFIER.test(key)) return path ? `${path}.${key}` : key
  return `${path}[${keyLabel(key)}]`
}

/**
 * Keyed records of one name are told apart by a short id (tiles of one name: kinds/dashboard/tiles.ts). The
 * key holds both, split by a character no name shown to a reviewer holds; paths write it `["name" #id]`.
 */
const ID_MARK = '\u0000'

export const qualifiedKey = (name: string, shortId: string): string => `${name}${ID_MARK}${shortId}`

/** A key as a path writes it: `"name"`, or `"name" #id` for a qualified key. */
export function keyLabel(key: string): string {
  const at = key.indexOf(ID_MARK)
  return at < 0 ? JSON.stringify(key) : `${JSON.stringify(key.slice(0, at))} #${key.slice(at + 1)}`
}

/** A key in a sentence's quotes: the name, or `name #id`. */
export const keyText = (key: string): string => key.replace(ID_MARK, ' #')

/**
 * The inverse of joinKey with brackets, for a keyed field at the top: `tiles["Errors"].x` read at `tiles` is
 * `{ key: 'Errors', rest: '.x' }`; undefined for a path outside that field.
 */
export function keyedField(path: string, field: string): { key: string; rest: string } | undefined {
  if (!path.startsWith(`${field}["`)) return undefined
  const m = /^\[("(?:[^"\\]|\\.)*")(?: #([^\]]+))?\](.*)$/s.exec(path.slice(field.length))
  if (!m) return undefined
  try {
    const name = JSON.parse(m[1]!) as string
    return { key: m[2] === undefined ? name : qualifiedKey(name, m[2]), rest: m[3]! }
  } catch {
    return undefined
  }
}

const isObject = (v: Json | undefined): v is { [k: string]: Json } =>
  v !== null && typeof v === 'object' && !Array.isArray(v)
