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
  // A replacer costs a call per key: most values hold no volatile key, and their plain JSON is the same text.
  const plain = JSON.stringify(value) as string | undefined
  if (plain === undefined || !VOLATILE_KEY.test(plain)) return plain as string
  return JSON.stringify(value, (key, v: unknown) => (VOLATILE.has(key) ? undefined : v))
}

/** A volatile field's key as JSON writes it (a string value holding the same text only costs the slow path). */
const VOLATILE_KEY = new RegExp(`"(?:${[...VOLATILE].join('|')})":`)

export function fingerprint(value: unknown): string {
  return `sha256:${createHash('sha256').update(stableJson(value)).digest('hex')}`
}

/** Order-independent: lists of records are fingerprinted sorted by id. */
export function byId<T extends { id?: string }>(records: readonly T[]): T[] {
  return [...records].sort((a, b) => (a.id ?? '').localeCompare(b.id ?? ''))
}

/**
 * fingerprint() of an object written field by field, a list field item by item: each item is hashed as
 * it comes, so a plan of thousands of records holds neither all their normal forms until the end nor one
 * string of them all. The bytes hashed are those of fingerprint() of the whole object.
 */
export class FingerprintStream {
  private readonly hash = createHash('sha256')
  private fields = 0
  /** Items written to the open list, or -1 with no list open. */
  private items = -1
  /** The open list is a volatile field: stableJson leaves it out. */
  private dropped = false

  /** A field whose value is whole. */
  field(key: string, value: unknown): this {
    this.closeList()
    const json = VOLATILE.has(key) ? undefined : stableJson(value)
    if (json !== undefined) this.hash.update(`${this.key(key)}${json}`)
    return this
  }

  /** Opens a list field: items follow. */
  list(key: string): this {
    this.closeList()
    this.dropped = VOLATILE.has(key)
    if (!this.dropped) this.hash.update(`${this.key(key)}[`)
    this.items = 0
    return this
  }

  /** One item of the open list. */
  item(value: unknown): void {
    if (this.dropped) return
    this.hash.update(`${this.items++ > 0 ? ',' : ''}${stableJson(value) ?? 'null'}`)
  }

  digest(): string {
    this.closeList()
    this.hash.update(this.fields === 0 ? '{}' : '}')
    return `sha256:${this.hash.digest('hex')}`
  }

  private key(key: string): string {
    return `${this.fields++ === 0 ? '{' : ','}${JSON.stringify(key)}:`
  }

  private closeList(): void {
    if (this.items < 0) return
    if (!this.dropped) this.hash.update(']')
    this.items = -1
    this.dropped = false
  }
}
