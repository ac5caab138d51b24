/**
 * JSON values and the two operations every comparison needs: `clean` reduces a value to the form two
 * sides are compared in, and `equal` compares two cleaned values.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
export type JsonObject = { [key: string]: Json }

/** JSON-only, with null, empty strings, empty lists and empty mappings removed, keys sorted. */
export function clean(value: unknown): Json | undefined {
  if (value === null || value === undefined) return undefined
  if (typeof value === 'string') return value === '' ? undefined : value
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined
  if (typeof value === 'boolean') return value
  if (Array.isArray(value)) {
    const items = value.map(clean).filter((v): v is Json => v !== undefined)
    return items.length === 0 ? undefined : items
  }
  if (typeof value === 'object') {
    const out: Record<string, Json> = {}
    for (const key of Object.keys(value).sort()) {
      const v = clean((value as Record<string, unknown>)[key])
      if (v !== undefined) out[key] = v
    }
    return Object.keys(out).length === 0 ? undefined : out
  }
  return undefined
}

export function equal(a: Json | undefined, b: Json | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}
