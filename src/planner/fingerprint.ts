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

/**
 * JSON without volatile fields. Keys keep their order: a server writes the same record the same way
 * every time, and sorting every object of a thousand dashboards would cost more than the whole diff.
 */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (key, v: unknown) => (VOLATILE.has(key) ? undefined : v))
}

export function fingerprint(value: unknown): string {
  return `sha256:${createHash('sha256').update(stableJson(value)).digest('hex')}`
}

/** Order-independent: lists of records are fingerprinted sorted by id. */
export function byId<T extends { id?: string }>(records: readonly T[]): T[] {
  return [...records].sort((a, b) => (a.id ?? '').localeCompare(b.id ?? ''))
}
