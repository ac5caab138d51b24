/** clean() sorts keys with sortedKeys: the order Array#sort gives, for any keys (2,000 random objects). */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { clean, equal, sortedKeys } from '../../src/json.js'

describe('sortedKeys and equal', () => {
  it('sortedKeys orders keys as Object.keys(...).sort() does, small objects and large', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: 'binary' }), fc.integer(), { maxKeys: 40 }), o => {
        expect(sortedKeys(o)).toEqual(Object.keys(o).sort())
      }),
      { numRuns: 2000, seed: 1717 }
    )
  })

  it('equal is JSON text equality, with scalars compared directly', () => {
    const json = fc.jsonValue().map(v => clean(v))
    fc.assert(
      fc.property(json, json, (a, b) => {
        expect(equal(a, b)).toBe(JSON.stringify(a) === JSON.stringify(b))
        expect(equal(a, a)).toBe(true)
      }),
      { numRuns: 2000, seed: 1717 }
    )
  })
})
