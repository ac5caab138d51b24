import { describe, expect, it } from '@jest/globals'
import { EmailMask, withEmailMask } from '../../src/mask-email.js'
import { dataValue, looksPersonal, maskPersonal } from '../../src/mask-value.js'

const TAG = '#[0-9a-f]{4}'

describe('values from the data that look personal', () => {
  const mask = EmailMask.random()
  const masked = (v: string) => withEmailMask(mask, () => maskPersonal(v))

  it('masks an email as a team member is masked, with the same keyed tag', () => {
    expect(masked('jane.doe@customer.example')).toBe(mask.mask('jane.doe@customer.example'))
    expect(masked('jane.doe@customer.example')).toMatch(new RegExp(`^j\\*\\*\\*e@customer\\.example ${TAG}$`))
  })

  it('masks IPv4 and IPv6 addresses and numbers of 6 or more digits, each by a tag of its own', () => {
    expect(masked('203.0.113.47')).toMatch(new RegExp(`^IPv4 ${TAG}$`))
    expect(masked('2001:db8:85a3::8a2e:370:7334')).toMatch(new RegExp(`^IPv6 ${TAG}$`))
    expect(masked('::1')).toMatch(new RegExp(`^IPv6 ${TAG}$`))
    expect(masked('48291736')).toMatch(new RegExp(`^8 digits ${TAG}$`))
    expect(masked('203.0.113.47')).not.toBe(masked('203.0.113.48'))
    expect(masked('203.0.113.47')).toBe(masked('203.0.113.47'))
  })

  it('masks each one inside a longer value and keeps the rest', () => {
    const v = masked('login by li.wei@customer.example from 198.51.100.12 for account 7730019')
    expect(v).toMatch(
      new RegExp(
        `^login by l\\*\\*\\*i@customer\\.example ${TAG} from IPv4 ${TAG} for account 7 digits ${TAG}$`
      )
    )
  })

  it('keeps what does not look personal: service names, short numbers, versions, times, words with @', () => {
    for (const v of ['checkout', 'api-v2', '12345', '1.2.3', '12:30:45', 'GET /cart', 'a@b', '', 'café-ü'])
      expect(masked(v)).toBe(v)
    expect(looksPersonal('checkout')).toBe(false)
    expect(looksPersonal('user 1234567')).toBe(true)
  })

  it('preview-values: show keeps a value whole, mask masks it, hide keeps nothing', () => {
    withEmailMask(mask, () => {
      expect(dataValue('jane@x.example', 'show')).toBe('jane@x.example')
      expect(dataValue('jane@x.example', 'mask')).toBe(mask.mask('jane@x.example'))
      expect(dataValue('checkout', 'mask')).toBe('checkout')
      expect(dataValue('checkout', 'hide')).toBeUndefined()
    })
  })
})
