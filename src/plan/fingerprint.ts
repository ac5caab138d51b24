/**
 * Fingerprints of what a plan was computed from. `apply` with a saved plan recomputes them and refuses
 * when either differs, so the applied plan is the one that was reviewed.
 */
import { createHash } from 'node:crypto'

/** Fields that change on their own (alert state, timestamps) and say nothing about the configuration. */
const VOLATILE = new Set([
  'state',
  'createdAt',
  'updatedAt',
  'executionErrors',
  'silenced',
  'lastFiredAt',
  'requestId'
])

/** JSON with sorted keys and without volatile fields: equal data, equal text. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (key, v: unknown) => {
    if (VOLATILE.has(key)) return undefined
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map(k => [k, (v as Record<string, unknown>)[k]])
      )
    }
    return v
  })
}

export function fingerprint(value: unknown): string {
  return `sha256:${createHash('sha256').update(stableJson(value)).digest('hex')}`
}

/** Order-independent: lists of records are fingerprinted sorted by id. */
export function byId<T extends { id?: string }>(records: readonly T[]): T[] {
  return [...records].sort((a, b) => (a.id ?? '').localeCompare(b.id ?? ''))
}
