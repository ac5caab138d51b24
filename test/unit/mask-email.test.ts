/**
 * How a person is named where emails are masked (src/mask-email.ts): enough to tell two people apart, never
 * the whole name, keyed by the run's API credential so that a name reads the same between runs with it and
 * cannot be checked against a guess without it.
 */
import { describe, expect, it } from '@jest/globals'
import { createHash } from 'node:crypto'
import { EmailMask, maskEmail, withEmailMask } from '../../src/mask-email.js'

const bearer = (apiKey: string) => EmailMask.forCredential({ kind: 'bearer', apiKey })
const TAG = '#[0-9a-f]{4}'

describe('a masked email', () => {
  const mask = bearer('the-api-key')

  it('keeps the first and last letters of the name, the domain and a short tag', () => {
    expect(mask.mask('alice@example.com')).toMatch(new RegExp(`^a\\*\\*\\*e@example\\.com ${TAG}$`))
    expect(mask.mask('andrew@example.com')).toMatch(new RegExp(`^a\\*\\*\\*w@example\\.com ${TAG}$`))
  })

  it('never shows the whole name of a short one: two letters stay hidden where there are two', () => {
    expect(mask.mask('a@x.io')).toMatch(new RegExp(`^\\*\\*\\*@x\\.io ${TAG}$`))
    expect(mask.mask('ab@x.io')).toMatch(new RegExp(`^a\\*\\*\\*@x\\.io ${TAG}$`))
    expect(mask.mask('abc@x.io')).toMatch(new RegExp(`^a\\*\\*\\*@x\\.io ${TAG}$`))
    expect(mask.mask('abcd@x.io')).toMatch(new RegExp(`^a\\*\\*\\*d@x\\.io ${TAG}$`))
    for (const name of ['a', 'ab', 'abc', 'abcd', 'ébé', '😀x']) {
      const shown = mask.mask(`${name}@x.io`).split('@')[0]!.replace('***', '')
      expect({ name, whole: shown === name }).toEqual({ name, whole: false })
    }
  })

  it('ignores case, as the server does', () => {
    expect(mask.mask('Jane.Doe@Example.COM')).toBe(mask.mask('jane.doe@example.com'))
    expect(mask.mask('Jane.Doe@Example.COM')).toMatch(/^j\*\*\*e@example\.com /)
  })

  it('is the same under the same credential, and another under another', () => {
    const emails = ['alice@example.com', 'andrew@example.com', 'bob@example.org', 'carol@example.net']
    expect(emails.map(e => bearer('the-api-key').mask(e))).toEqual(emails.map(e => mask.mask(e)))
    const other = emails.map(e => bearer('a-rotated-key').mask(e))
    expect(other.filter((o, i) => o !== mask.mask(emails[i]!)).length).toBeGreaterThan(0)
    // Managed mode's key id and secret key it too.
    const basic = EmailMask.forCredential({ kind: 'basic', keyId: 'id', keySecret: 'secret' })
    expect(emails.map(e => basic.mask(e))).not.toEqual(emails.map(e => mask.mask(e)))
  })

  it('is keyed: its tag is not a plain hash of the email that anyone could test a guess against', () => {
    const emails = ['alice@example.com', 'andrew@example.com', 'bob@example.org', 'carol@example.net']
    const plain = (e: string) => createHash('sha256').update(e).digest('hex').slice(0, 4)
    const tags = emails.map(e => mask.mask(e).split('#')[1])
    expect(tags).not.toEqual(emails.map(plain))
  })

  it('without a credential, is keyed at random: another in each run', () => {
    const emails = ['alice@example.com', 'andrew@example.com', 'bob@example.org', 'carol@example.net']
    const one = EmailMask.forCredential({ kind: 'none' })
    const two = EmailMask.forCredential({ kind: 'none' })
    expect(emails.map(e => one.mask(e))).toEqual(emails.map(e => one.mask(e)))
    expect(emails.map(e => one.mask(e))).not.toEqual(emails.map(e => two.mask(e)))
  })

  it('is never written with what carries it', () => {
    expect(JSON.stringify({ mask })).toBe('{}')
  })
})

describe("the run's mask", () => {
  it('names a person alike in everything a run does, across awaits, and each run by its own key', async () => {
    const one = bearer('one')
    const two = bearer('two')
    const during = async (mask: EmailMask) =>
      withEmailMask(mask, async () => {
        const before = maskEmail('alice@example.com')
        await new Promise(resolve => setImmediate(resolve))
        return [before, maskEmail('alice@example.com')]
      })
    const [a, b] = await Promise.all([during(one), during(two)])
    expect(a).toEqual([one.mask('alice@example.com'), one.mask('alice@example.com')])
    expect(b).toEqual([two.mask('alice@example.com'), two.mask('alice@example.com')])
  })

  it('outside a run, is one random key for the process', () => {
    expect(maskEmail('alice@example.com')).toBe(maskEmail('ALICE@example.com'))
    expect(maskEmail('alice@example.com')).toMatch(new RegExp(`^a\\*\\*\\*e@example\\.com ${TAG}$`))
  })
})
