/** Managed IP access entries: one address and its one-address CIDR are one entry (no perpetual change). */
import { describe, expect, it } from '@jest/globals'
import { ipKey, patchBody } from '../../src/kinds/service-settings.js'

describe('IP access entries', () => {
  it('an address is the same entry as its one-address CIDR (unverified on the real cloud): no change, no PATCH', () => {
    expect(ipKey('10.1.2.3')).toBe(ipKey('10.1.2.3/32'))
    expect(ipKey('2001:db8::1')).toBe(ipKey('2001:db8::1/128'))
    expect(ipKey('10.0.0.0/8')).not.toBe(ipKey('10.0.0.0'))
    const body = patchBody(
      { kind: 'ServiceSettings', ipAccessList: [{ source: '10.1.2.3', description: 'office' }] },
      { ipAccessList: [{ source: '10.1.2.3/32', description: 'office' }] }
    )
    expect(body).toEqual({})
  })
})
