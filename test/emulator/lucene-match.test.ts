import { describe, expect, test } from '@jest/globals'
import { compileLucene } from '../../emulator/lucene-match.js'

const event = { level: 'error', service: 'checkout', duration: 250, message: 'payment request failed' }
const matches = (where: string) => compileLucene(where)(event)

describe('Lucene matching of chart filters', () => {
  test('an empty where matches everything', () => {
    expect(matches('')).toBe(true)
    expect(matches('   ')).toBe(true)
  })

  test('field:value terms, quoted phrases and trailing wildcards', () => {
    expect(matches('level:error')).toBe(true)
    expect(matches('level:warn')).toBe(false)
    expect(matches('message:"payment request failed"')).toBe(true)
    expect(matches('message:"payment"')).toBe(false)
    expect(matches('service:check*')).toBe(true)
    expect(matches('service:*')).toBe(true)
    expect(matches('missing:*')).toBe(false)
    expect(matches('duration:250')).toBe(true)
  })

  test('AND, OR, NOT, negated fields and parentheses', () => {
    expect(matches('level:error AND service:checkout')).toBe(true)
    expect(matches('level:error service:cart')).toBe(false)
    expect(matches('level:info OR service:checkout')).toBe(true)
    expect(matches('NOT level:info')).toBe(true)
    expect(matches('level:error AND NOT service:checkout')).toBe(false)
    expect(matches('-service:cart')).toBe(true)
    expect(matches('(level:info OR level:error) AND (service:cart OR service:checkout)')).toBe(true)
  })

  test('numeric comparisons, ranges and bare terms', () => {
    expect(matches('duration:>200')).toBe(true)
    expect(matches('duration:<=200')).toBe(false)
    expect(matches('duration:[100 TO 250]')).toBe(true)
    expect(matches('duration:{100 TO 250}')).toBe(false)
    expect(matches('failed')).toBe(true)
    expect(matches('timeout')).toBe(false)
  })

  test('a broken query throws the parser error', () => {
    expect(() => compileLucene('level:(error')).toThrow(/Expected/)
  })
})
