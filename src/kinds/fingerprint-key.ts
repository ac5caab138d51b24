/**
 * Fingerprints of the write-only values a stack sent (connection passwords, webhook headers, query
 * parameters, an incident.io body), as its registry dashboard keeps them (registry.ts). Anyone who can
 * read dashboards can read them, so a fingerprint must be useless for testing guesses without a key that
 * reader lacks: `hmac-sha256$<key id>$<salt>$<mac>`, an HMAC-SHA256 of the value under a key derived
 * (HKDF) from the API credential the plan runs with.
 *
 * Why the API credential, and not a key of its own: it needs no new setting, and who holds it can already
 * reach every write-only value (point a webhook at a server of theirs, and the server sends the headers
 * there), so a fingerprint tells them nothing new. A user who reads dashboards in the UI, or with an API
 * key of their own, cannot test a single guess. The price: a plan run with another credential (a rotated
 * key, a colleague's personal key) cannot compare, and shows each value as "will be sent" once; the apply
 * sends it and records a fingerprint under that credential. The key id says which credential made a
 * fingerprint, so that case is told apart from a changed value. The random salt keeps two equal values
 * from having equal fingerprints.
 *
 * Fingerprints of earlier versions (`scrypt$N$r$p$<salt>$<hash>`, unkeyed: a weak secret could be guessed
 * offline) are still read: a value that matches one is sent once more, so the apply replaces it with a
 * keyed fingerprint, and the plan says why.
 */
import { createHmac, hkdfSync, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto'
import { credentialOf } from '../config/credential.js'
import type { Auth } from '../config/types.js'

export type Fingerprint = string

/** How a value compares with the fingerprint of what was last sent. */
export type Comparison =
  | 'same'
  | 'changed'
  /** Made with another API credential: cannot tell. */
  | 'other-key'
  /** The same value, under an unkeyed fingerprint of an earlier version: to be replaced. */
  | 'renew'

const SCHEME = 'hmac-sha256'

export class FingerprintKey {
  readonly #key: Buffer
  /** Names the credential without revealing it: a digest under the key itself. */
  readonly id: string

  private constructor(key: Buffer) {
    this.#key = key
    this.id = createHmac('sha256', key).update('obsdeploy key id').digest('base64url').slice(0, 11)
  }

  /** The key of the credential a run talks to the API with (with none, the API is open to all anyway). */
  static fromAuth(auth: Auth): FingerprintKey {
    return FingerprintKey.fromSecret(credentialOf(auth) ?? 'none')
  }

  static fromSecret(secret: string): FingerprintKey {
    const key = hkdfSync('sha256', secret, 'obsdeploy', 'write-only fingerprints v1', 32)
    return new FingerprintKey(Buffer.from(key))
  }

  /** A new fingerprint of a value (never the value). */
  fingerprint(value: unknown): Fingerprint {
    const salt = randomBytes(16)
    return `${SCHEME}$${this.id}$${salt.toString('base64url')}$${this.mac(salt, value).toString('base64url')}`
  }

  compare(fp: Fingerprint, value: unknown): Comparison {
    const [scheme, id, salt, mac] = fp.split('$')
    if (scheme === 'scrypt') return matchesScrypt(fp, value) ? 'renew' : 'changed'
    // A hand edit (no salt or mac, another scheme) matches nothing.
    if (scheme !== SCHEME || !salt || !mac) return 'changed'
    if (id !== this.id) return 'other-key'
    const expected = Buffer.from(mac, 'base64url')
    const actual = this.mac(Buffer.from(salt, 'base64url'), value)
    return expected.length === actual.length && timingSafeEqual(expected, actual) ? 'same' : 'changed'
  }

  /** Never serialized with the settings that carry it (a saved plan, a digest of the settings). */
  toJSON(): undefined {
    return undefined
  }

  private mac(salt: Buffer, value: unknown): Buffer {
    return createHmac('sha256', this.#key).update(salt).update(canonical(value)).digest()
  }
}

/** Canonical text of a write-only value: maps with sorted keys. */
function canonical(value: unknown): string {
  if (typeof value === 'string') return `s:${value}`
  const sorted = (v: unknown): unknown =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map(k => [k, sorted((v as Record<string, unknown>)[k])])
        )
      : v
  return `j:${JSON.stringify(sorted(value))}`
}

/** An earlier version's fingerprint, `scrypt$N$r$p$<salt>$<hash>`: whether `value` is what it was made of. */
function matchesScrypt(fp: Fingerprint, value: unknown): boolean {
  const [, n, r, p, salt, hash] = fp.split('$')
  if (!salt || !hash) return false
  const expected = Buffer.from(hash, 'base64url')
  const params = { N: Number(n), r: Number(r), p: Number(p) }
  // A hand edit: no hash (an empty one equals any value's), or a cost far above the one written.
  if (expected.length === 0 || params.N * params.r * params.p > 1 << 20) return false
  try {
    const actual = scryptSync(canonical(value), Buffer.from(salt, 'base64url'), expected.length, params)
    return timingSafeEqual(expected, actual)
  } catch {
    return false // settings scrypt refuses (not a power of two, not a number, its memory limit)
  }
}
