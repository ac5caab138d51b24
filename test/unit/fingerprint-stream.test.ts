/**
 * The plan's fingerprints are hashed record by record as the plan is computed (FingerprintStream), and
 * must stay the very value fingerprint() gives the whole object: a plan saved by an earlier version is
 * checked against them, and an apply with a saved plan refuses on any difference.
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { fingerprint, FingerprintStream, stableJson } from '../../src/planner/fingerprint.js'

/** JSON-ish values with the volatile keys and undefined that stableJson drops. */
const value = fc.letrec(tie => ({
  leaf: fc.oneof(
    fc.string(),
    fc.integer(),
    fc.double({ noNaN: true }),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined)
  ),
  node: fc.oneof(
    { depthSize: 'small' },
    tie('leaf'),
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(
        fc.string(),
        fc.constantFrom('state', 'updatedAt', 'id', 'name', 'requestId', 'states', 'lastFiredAt"')
      ),
      tie('node'),
      {
        maxKeys: 4
      }
    )
  )
})).node

/** stableJson as it was first written: one replacer over every key. Its text is what saved plans hold. */
const VOLATILE = [
  'state',
  'createdAt',
  'updatedAt',
  'executionErrors',
  'silenced',
  'lastFiredAt',
  'requestId'
]
const reference = (v: unknown): string =>
  JSON.stringify(v, (key, x: unknown) => (VOLATILE.includes(key) ? undefined : x))

const record = fc.tuple(fc.string(), fc.option(fc.string(), { nil: undefined }), value)

describe('stableJson', () => {
  it('is the JSON the volatile-key replacer writes, whether the fast path or the replacer answers (2,000 random values)', () => {
    // Values whose strings spell a volatile key as JSON would ("state":) take the replacer for nothing:
    // still the same text.
    const spelled = fc.oneof(value, fc.constantFrom('"state":', 'x"updatedAt":1', '{"requestId":2}'))
    fc.assert(
      fc.property(fc.oneof(value, fc.dictionary(fc.string(), spelled), fc.array(spelled)), v => {
        expect(stableJson(v)).toBe(reference(v))
      }),
      { numRuns: 2000, seed: 1718 }
    )
  })

  it('drops volatile keys at any depth, and keeps keys that only look like them', () => {
    const v = { a: [{ state: 'ALERT', states: 1, b: { createdAt: 'x', name: '"state":' } }], requestId: 'r' }
    expect(stableJson(v)).toBe('{"a":[{"states":1,"b":{"name":"\\"state\\":"}}]}')
    expect(stableJson({ name: 'n', lastFiredAt: null })).toBe('{"name":"n"}')
  })
})

describe('FingerprintStream', () => {
  it('gives fingerprint() of the whole object: fields, lists item by item, in any mix (2,000 random objects)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.constantFrom('records', 'sources', 'webhooks', 'settings', 'state'), fc.boolean()),
          {
            maxLength: 4
          }
        ),
        fc.array(fc.array(record, { maxLength: 5 }), { minLength: 4, maxLength: 4 }),
        fc.array(value, { minLength: 4, maxLength: 4 }),
        (shape, lists, values) => {
          const keys = [...new Set(shape.map(([k]) => k))]
          const whole: Record<string, unknown> = {}
          const stream = new FingerprintStream()
          keys.forEach((key, i) => {
            const asList = shape.find(([k]) => k === key)![1]
            if (asList) {
              whole[key] = lists[i]
              stream.list(key)
              for (const item of lists[i]!) stream.item(item)
            } else {
              whole[key] = values[i]
              stream.field(key, values[i])
            }
          })
          expect(stream.digest()).toBe(fingerprint(whole))
        }
      ),
      { numRuns: 2000, seed: 1717 }
    )
  })

  it('an empty object and a record list with no records', () => {
    expect(new FingerprintStream().digest()).toBe(fingerprint({}))
    const stream = new FingerprintStream().list('records')
    expect(stream.field('webhooks', null).digest()).toBe(fingerprint({ records: [], webhooks: null }))
  })
})
