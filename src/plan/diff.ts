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
  return `${path}[${JSON.stringify(key)}]`
}

/**
 * The inverse of joinKey with brackets, for a keyed field at the top: `tiles["Errors"].x` read at `tiles` is
 * `{ key: 'Errors', rest: '.x' }`; undefined for a path outside that field.
 */
export function keyedField(path: string, field: string): { key: string; rest: string } | undefined {
  if (!path.startsWith(`${field}["`)) return undefined
  const m = /^\[("(?:[^"\\]|\\.)*")\](.*)$/s.exec(path.slice(field.length))
  if (!m) return undefined
  try {
    return { key: JSON.parse(m[1]!) as string, rest: m[2]! }
  } catch {
    return undefined
  }
}

const isObject = (v: Json | undefined): v is { [k: string]: Json } =>
  v !== null && typeof v === 'object' && !Array.isArray(v)
