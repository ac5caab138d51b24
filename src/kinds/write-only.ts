/**
 * How secrets and write-only values appear in normal forms, and so in plans: never as values, only as
 * markers that compare equal when nothing changed.
 * - A secret the server returns (a webhook's url) is compared with the live value, and both sides show
 *   `(secret)`, or the desired side `(secret: changed)`.
 * - A write-only value (connection password, webhook headers and query parameters, an incident.io body) is
 *   never returned. The stack's registry keeps a fingerprint of what it last sent (registry.ts), keyed with
 *   the API credential (fingerprint-key.ts): the live side shows `(write-only: set)` when there is one, the
 *   desired side the same when the manifest's value matches it, `(write-only: changed)` when not, and
 *   `(write-only: unknown, will be sent)` when the stack never sent one (an adopted resource) or cannot
 *   compare (another credential made the fingerprint): that shows once, and the apply sends the value and
 *   records it. An unkeyed fingerprint of an earlier version that matches is renewed the same way, once.
 */
import type { FingerprintKey } from './fingerprint-key.js'
import type { Fingerprint, RegistryEntry } from './registry.js'

export const SECRET = '(secret)'
export const SECRET_CHANGED = '(secret: changed)'
export const WRITE_ONLY_SET = '(write-only: set)'
export const WRITE_ONLY_CHANGED = '(write-only: changed)'
export const WRITE_ONLY_UNKNOWN = '(write-only: unknown, will be sent)'
export const WRITE_ONLY_OTHER_KEY = '(write-only: recorded with another API key, will be sent)'
export const WRITE_ONLY_RENEW = '(write-only: set, sent once more to replace an unkeyed fingerprint)'

/** A returned secret: markers for both sides. */
export function secretMarkers(
  desired: string | undefined,
  live: string | null | undefined
): { desired?: string; live?: string } {
  const liveValue = live ?? undefined
  const known = liveValue !== undefined && liveValue !== ''
  return {
    live: known ? SECRET : undefined,
    // A create has nothing to compare with: it just sets the secret.
    desired: desired === undefined ? undefined : !known || desired === liveValue ? SECRET : SECRET_CHANGED
  }
}

/** One write-only field as the plan sees it. */
export interface WriteOnlyState {
  desired?: string
  live?: string
  /** The value differs from what was last sent (or nothing was recorded): the request must carry it. */
  changed: boolean
  /** The stack sent a value before, and the manifest no longer has one. */
  removed: boolean
}

const isEmpty = (v: unknown): boolean =>
  v === undefined || (typeof v === 'object' && v !== null && Object.keys(v).length === 0)

export function writeOnlyState(
  field: string,
  desired: unknown,
  entry: RegistryEntry | undefined,
  key: FingerprintKey | undefined
): WriteOnlyState {
  const fp = entry?.writeOnly?.[field]
  const live = fp ? WRITE_ONLY_SET : undefined
  if (isEmpty(desired)) return { live, desired: undefined, changed: false, removed: fp !== undefined }
  if (!fp) return { live, desired: WRITE_ONLY_UNKNOWN, changed: true, removed: false }
  // Without the run's key nothing can be compared: the value is sent, as for one never recorded.
  const comparison = key ? key.compare(fp, desired) : 'other-key'
  const shown = {
    same: WRITE_ONLY_SET,
    changed: WRITE_ONLY_CHANGED,
    'other-key': WRITE_ONLY_OTHER_KEY,
    renew: WRITE_ONLY_RENEW
  }[comparison]
  return { live, desired: shown, changed: comparison !== 'same', removed: false }
}

/**
 * The registry entry after a write: fingerprints of the write-only values sent now; a field the request
 * left alone keeps its fingerprint, one it cleared loses it.
 */
export function entryAfterWrite(
  name: string,
  previous: RegistryEntry | undefined,
  sent: Readonly<Record<string, unknown>>,
  key: FingerprintKey | undefined,
  cleared: readonly string[] = []
): RegistryEntry {
  const writeOnly: Record<string, Fingerprint> = { ...previous?.writeOnly }
  for (const [field, value] of Object.entries(sent)) {
    // Without a key no fingerprint is recorded: the next plan sends the value again rather than guess.
    if (isEmpty(value) || !key) delete writeOnly[field]
    else writeOnly[field] = key.fingerprint(value)
  }
  for (const field of cleared) delete writeOnly[field]
  return Object.keys(writeOnly).length > 0 ? { name, writeOnly } : { name }
}
