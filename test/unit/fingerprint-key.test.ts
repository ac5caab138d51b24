/**
 * Fingerprints of write-only values in the registry dashboard (src/kinds/fingerprint-key.ts): keyed with the
 * API credential, so a reader of dashboards without it cannot test a single guess; a fingerprint of another
 * credential is told apart from a changed value; and the unkeyed scrypt fingerprints of earlier versions are
 * still recognised, to be replaced once.
 */
import { scryptSync } from 'node:crypto'
import { describe, expect, it } from '@jest/globals'
import { FingerprintKey } from '../../src/kinds/fingerprint-key.js'
import {
  entryAfterWrite,
  WRITE_ONLY_OTHER_KEY,
  WRITE_ONLY_RENEW,
  WRITE_ONLY_SET,
  writeOnlyState
} from '../../src/kinds/write-only.js'

const CI = FingerprintKey.fromAuth({ kind: 'bearer', apiKey: 'ci-api-key' })
const COLLEAGUE = FingerprintKey.fromAuth({ kind: 'bearer', apiKey: 'colleague-api-key' })

/** An unkeyed fingerprint as versions before the key wrote it. */
function scryptFingerprint(text: string): string {
  const salt = Buffer.from('0123456789abcdef')
  const hash = scryptSync(`s:${text}`, salt, 32, { N: 4096, r: 8, p: 1 })
  return `scrypt$4096$8$1$${salt.toString('base64url')}$${hash.toString('base64url')}`
}

describe('a keyed fingerprint', () => {
  it('matches the value it was made of (maps in any key order), never another, and never holds it', () => {
    const fp = CI.fingerprint({ b: 'secret-2', a: 'secret-1' })
    expect(fp).toMatch(/^hmac-sha256\$[\w-]{11}\$[\w-]{22}\$[\w-]{43}$/)
    expect(fp).not.toContain('secret')
    expect(CI.compare(fp, { a: 'secret-1', b: 'secret-2' })).toBe('same')
    expect(CI.compare(fp, { a: 'secret-1', b: 'secret-3' })).toBe('changed')
    expect(CI.compare(CI.fingerprint('x'), ['x'])).toBe('changed')
    // A salt of its own each time: equal values do not show as equal.
    expect(CI.fingerprint('x')).not.toBe(CI.fingerprint('x'))
  })

  it('cannot be checked without the credential: a guess with any other key learns nothing', () => {
    const fp = CI.fingerprint('hunter2')
    // A reader with an API key of their own, or none (the UI), has another key.
    for (const guesser of [COLLEAGUE, FingerprintKey.fromAuth({ kind: 'none' })])
      expect(guesser.compare(fp, 'hunter2')).toBe('other-key')
    // Forged to carry the guesser's key id, the mac still does not match.
    const forged = fp.replace(CI.id, COLLEAGUE.id)
    expect(COLLEAGUE.compare(forged, 'hunter2')).toBe('changed')
  })

  it('is stable across runs and versions: one written today matches with the same credential later', () => {
    const pinned = FingerprintKey.fromAuth({ kind: 'bearer', apiKey: 'pinned-api-key' })
    expect(pinned.id).toBe('DwFKsDUZ0LS')
    const fp = 'hmac-sha256$DwFKsDUZ0LS$DymoKyS6wRoU7TLbNj77qA$fXsxsm5jtHoh9105_JfCYT6y0w8CcPfPe4T85dVy6MY'
    expect(pinned.compare(fp, 's3cret')).toBe('same')
    expect(pinned.compare(fp, 's3cret!')).toBe('changed')
    // Managed keys: both parts count.
    const basic = (keyId: string, keySecret: string) =>
      FingerprintKey.fromAuth({ kind: 'basic', keyId, keySecret }).id
    expect(basic('a', 'b')).not.toBe(basic('a', 'c'))
  })

  it('a hand-edited one matches nothing', () => {
    const [, id, salt, mac] = CI.fingerprint('x').split('$')
    for (const fp of [
      `hmac-md5$${id}$${salt}$${mac}`,
      `hmac-sha256$${id}$$${mac}`,
      `hmac-sha256$${id}$${salt}$`
    ])
      expect(CI.compare(fp, 'x')).toBe('changed')
    expect(CI.compare(`hmac-sha256$${id}$${salt}$AAAA`, 'x')).toBe('changed')
  })

  it('is never serialized with the settings that carry it', () => {
    expect(JSON.stringify({ stack: 'shop', fingerprintKey: CI })).toBe('{"stack":"shop"}')
  })
})

describe('in a plan', () => {
  const recorded = (fp: string) => ({ name: 'warehouse', writeOnly: { password: fp } })

  it('a fingerprint of another credential is "will be sent", not "changed"; the apply records it under this one', () => {
    const state = writeOnlyState('password', 'pw-1', recorded(COLLEAGUE.fingerprint('pw-1')), CI)
    expect(state).toStrictEqual({
      live: WRITE_ONLY_SET,
      desired: WRITE_ONLY_OTHER_KEY,
      changed: true,
      removed: false
    })
    const after = entryAfterWrite(
      'warehouse',
      recorded(COLLEAGUE.fingerprint('pw-1')),
      { password: 'pw-1' },
      CI
    )
    expect(writeOnlyState('password', 'pw-1', after, CI).changed).toBe(false)
  })

  it('an unkeyed fingerprint of an earlier version is recognised and renewed once, not shown as changed', () => {
    const old = recorded(scryptFingerprint('pw-1'))
    expect(CI.compare(old.writeOnly.password, 'pw-1')).toBe('renew')
    expect(writeOnlyState('password', 'pw-1', old, CI)).toStrictEqual({
      live: WRITE_ONLY_SET,
      desired: WRITE_ONLY_RENEW,
      changed: true,
      removed: false
    })
    expect(writeOnlyState('password', 'pw-2', old, CI).desired).toBe('(write-only: changed)')
    const renewed = entryAfterWrite('warehouse', old, { password: 'pw-1' }, CI)
    expect(renewed.writeOnly!.password).toMatch(/^hmac-sha256\$/)
    expect(writeOnlyState('password', 'pw-1', renewed, CI).desired).toBe(WRITE_ONLY_SET)
  })

  it('without a key nothing is compared or recorded: the value is sent', () => {
    expect(writeOnlyState('password', 'pw-1', recorded(CI.fingerprint('pw-1')), undefined).changed).toBe(true)
    expect(entryAfterWrite('warehouse', undefined, { password: 'pw-1' }, undefined)).toStrictEqual({
      name: 'warehouse'
    })
  })
})
