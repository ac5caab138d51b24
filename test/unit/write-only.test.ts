/**
 * How secrets and write-only values show in a plan (src/kinds/write-only.ts): a returned secret (a webhook's
 * url) only as markers that say whether it changes; a write-only value (a connection's password, a
 * webhook's headers) against the fingerprint the stack's registry keeps of what it last sent; and the
 * registry entry after a write: fingerprints of what was sent, kept for what was left alone, dropped for
 * what was cleared.
 */
import { describe, expect, it } from '@jest/globals'
import { FingerprintKey } from '../../src/kinds/fingerprint-key.js'
import type { RegistryEntry } from '../../src/kinds/registry.js'
import {
  entryAfterWrite,
  secretMarkers,
  SECRET,
  SECRET_CHANGED,
  WRITE_ONLY_CHANGED,
  WRITE_ONLY_SET,
  WRITE_ONLY_UNKNOWN,
  writeOnlyState
} from '../../src/kinds/write-only.js'

const KEY = FingerprintKey.fromSecret('bearer:test-key')

describe('a secret the server returns', () => {
  it('the markers the plan shows: never the value', () => {
    expect([SECRET, SECRET_CHANGED]).toStrictEqual(['(secret)', '(secret: changed)'])
    const url = 'https://hooks.example.com/T000/B000/XXXX'
    // Unchanged, changed, and a create (nothing live to compare with).
    expect(secretMarkers(url, url)).toStrictEqual({ live: SECRET, desired: SECRET })
    expect(secretMarkers(`${url}-2`, url)).toStrictEqual({ live: SECRET, desired: SECRET_CHANGED })
    expect(secretMarkers(url, undefined)).toStrictEqual({ live: undefined, desired: SECRET })
  })

  it('a live value that is null or empty is no secret to compare with; a live side alone has no desired marker', () => {
    expect(secretMarkers('x', null)).toStrictEqual({ live: undefined, desired: SECRET })
    expect(secretMarkers('x', '')).toStrictEqual({ live: undefined, desired: SECRET })
    expect(secretMarkers(undefined, 'x')).toStrictEqual({ live: SECRET, desired: undefined })
    expect(secretMarkers(undefined, '')).toStrictEqual({ live: undefined, desired: undefined })
  })
})

describe('a write-only value against what the stack last sent', () => {
  const sent = (field: string, value: unknown): RegistryEntry => ({
    name: 'clickhouse',
    writeOnly: { [field]: KEY.fingerprint(value) }
  })

  it('the markers the plan shows: never the value', () => {
    expect([WRITE_ONLY_SET, WRITE_ONLY_CHANGED, WRITE_ONLY_UNKNOWN]).toStrictEqual([
      '(write-only: set)',
      '(write-only: changed)',
      '(write-only: unknown, will be sent)'
    ])
  })

  it('the same value as last sent: set on both sides, nothing to send', () => {
    expect(writeOnlyState('password', 'pw-1', sent('password', 'pw-1'), KEY)).toStrictEqual({
      live: WRITE_ONLY_SET,
      desired: WRITE_ONLY_SET,
      changed: false,
      removed: false
    })
    // A map (webhook headers): the same entries in another order are the same value.
    expect(
      writeOnlyState('headers', { b: '2', a: '1' }, sent('headers', { a: '1', b: '2' }), KEY)
    ).toStrictEqual({
      live: WRITE_ONLY_SET,
      desired: WRITE_ONLY_SET,
      changed: false,
      removed: false
    })
  })

  it('another value: changed, and the request carries it', () => {
    expect(writeOnlyState('password', 'pw-2', sent('password', 'pw-1'), KEY)).toStrictEqual({
      live: WRITE_ONLY_SET,
      desired: WRITE_ONLY_CHANGED,
      changed: true,
      removed: false
    })
  })

  it('nothing recorded (an adopted record, or a fingerprint of another field): unknown, sent once', () => {
    const unknown = { live: undefined, desired: WRITE_ONLY_UNKNOWN, changed: true, removed: false }
    expect(writeOnlyState('password', 'pw-1', undefined, KEY)).toStrictEqual(unknown)
    expect(writeOnlyState('password', 'pw-1', { name: 'clickhouse' }, KEY)).toStrictEqual(unknown)
    expect(writeOnlyState('password', 'pw-1', sent('headers', 'pw-1'), KEY)).toStrictEqual(unknown)
  })

  it('the manifest has none: removed when the stack sent one, otherwise nothing at all', () => {
    expect(writeOnlyState('password', undefined, sent('password', 'pw-1'), KEY)).toStrictEqual({
      live: WRITE_ONLY_SET,
      desired: undefined,
      changed: false,
      removed: true
    })
    // An empty map is no value either.
    expect(writeOnlyState('headers', {}, sent('headers', { a: '1' }), KEY)).toStrictEqual({
      live: WRITE_ONLY_SET,
      desired: undefined,
      changed: false,
      removed: true
    })
    expect(writeOnlyState('headers', {}, undefined, KEY)).toStrictEqual({
      live: undefined,
      desired: undefined,
      changed: false,
      removed: false
    })
  })

  it('a value that is not empty is a value: an empty string, a map with an entry', () => {
    expect(writeOnlyState('password', '', undefined, KEY).desired).toBe(WRITE_ONLY_UNKNOWN)
    expect(writeOnlyState('headers', { a: '' }, sent('headers', {}), KEY).desired).toBe(WRITE_ONLY_CHANGED)
  })
})

describe('the registry entry after a write', () => {
  const previous: RegistryEntry = {
    name: 'old name',
    writeOnly: { headers: KEY.fingerprint({ a: '1' }), queryParams: KEY.fingerprint({ q: '1' }) }
  }

  it('records a fingerprint of each value sent (never the value), under the current name', () => {
    const entry = entryAfterWrite('clickhouse', undefined, { password: 'pw-1' }, KEY)
    expect(Object.keys(entry)).toStrictEqual(['name', 'writeOnly'])
    expect(entry.name).toBe('clickhouse')
    expect(Object.keys(entry.writeOnly!)).toStrictEqual(['password'])
    expect(entry.writeOnly!.password).not.toContain('pw-1')
    expect(KEY.compare(entry.writeOnly!.password!, 'pw-1')).toBe('same')
  })

  it('keeps the fingerprint of a field the request left alone, replaces one it sent', () => {
    const entry = entryAfterWrite('hook', previous, { headers: { a: '2' } }, KEY)
    expect(entry.name).toBe('hook')
    expect(entry.writeOnly!.queryParams).toBe(previous.writeOnly!.queryParams)
    expect(KEY.compare(entry.writeOnly!.headers!, { a: '2' })).toBe('same')
    // The previous entry is not changed in place.
    expect(KEY.compare(previous.writeOnly!.headers!, { a: '1' })).toBe('same')
  })

  it('drops the fingerprint of a field sent empty or cleared; with none left, the entry has no writeOnly', () => {
    expect(Object.keys(entryAfterWrite('hook', previous, { headers: {} }, KEY).writeOnly!)).toStrictEqual([
      'queryParams'
    ])
    expect(
      Object.keys(entryAfterWrite('hook', previous, { headers: undefined }, KEY).writeOnly!)
    ).toStrictEqual(['queryParams'])
    expect(Object.keys(entryAfterWrite('hook', previous, {}, KEY, ['queryParams']).writeOnly!)).toStrictEqual(
      ['headers']
    )
    expect(entryAfterWrite('hook', previous, { headers: {} }, KEY, ['queryParams'])).toStrictEqual({
      name: 'hook'
    })
    expect(entryAfterWrite('hook', undefined, {}, KEY)).toStrictEqual({ name: 'hook' })
  })
})
