/**
 * JSON values and the two operations every comparison needs: `clean` reduces a value to the form two
 * sides are compared in, and `equal` compares two cleaned values.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
export type JsonObject = { [key: string]: Json }

/** A mapping: an object that is neither null nor a list. */
export const isMapping = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v)

/** JSON-only, with null, empty strings, empty lists and empty mappings removed, keys sorted. */
export function clean(value: unknown): Json | undefined {
  if (value === null || value === undefined) return undefined
  if (typeof value === 'string') return value === '' ? undefined : value
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined
  if (typeof value === 'boolean') return value
  if (Array.isArray(value)) {
    const items: Json[] = []
    for (const item of value) {
      const v = clean(item)
      if (v !== undefined) items.push(v)
    }
    return items.length === 0 ? undefined : items
  }
  if (typeof value === 'object') {
    const out: Record<string, Json> = {}
    let kept = 0
    for (const key of sortedKeys(value)) {
      const v = clean((value as Record<string, unknown>)[key])
      if (v !== undefined) {
        out[key] = v
        kept++
      }
    }
    return kept === 0 ? undefined : out
  }
  return undefined
}

/**
 * An object's keys in sorted order. A plan cleans the same values many times over, and a cleaned value's
 * keys are sorted already: those cost one pass.
 */
export function sortedKeys(value: object): string[] {
  const keys = Object.keys(value)
  if (keys.length > 32) return keys.sort()
  // Insertion sort in place: an object's few keys, and no work array per call as Array#sort makes (the
  // same order: keys are distinct, compared by UTF-16 code units as sort() compares them).
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!
    let j = i - 1
    while (j >= 0 && keys[j]! > key) {
      keys[j + 1] = keys[j]!
      j--
    }
    keys[j + 1] = key
  }
  return keys
}

export function equal(a: Json | undefined, b: Json | undefined): boolean {
  // Two scalars (or a scalar and anything): JSON text is equal exactly when they are.
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return a === b
  return JSON.stringify(a) === JSON.stringify(b)
}
