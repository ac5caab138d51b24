/**
 * The Lucene check's fast path: a plain expression skips the PEG parser only because the parser accepts
 * every plain expression. These properties hold that claim against the real parser on many inputs: the
 * plain grammar's own strings (keywords and odd words included), and random strings near it, where the
 * fast path may say "plain" only for strings the parser accepts.
 */
import { describe, expect, it } from '@jest/globals'
import lucene from '@hyperdx/lucene'
import fc from 'fast-check'
import { checkLucene, isCommonLucene, isPlainLucene } from '../../src/manifest/lucene.js'

const SEED = 1717
const parses = (s: string): boolean => {
  try {
    lucene.parse(s)
    return true
  } catch {
    return false
  }
}

const KEYWORDS = ['AND', 'OR', 'NOT', 'TO', 'and', 'or', 'not', 'to']
const word = fc.oneof(
  fc.constantFrom(...KEYWORDS, '1', '0.5', '1.2.3', '_', 'a.', 'x_y', 'ANDa', 'NOTx', 'TOb'),
  fc.stringMatching(/^\w[\w.]{0,12}$/)
)
const field = fc.oneof(
  fc.constantFrom(...KEYWORDS, 'service', 'a.b', '_x'),
  fc.stringMatching(/^[A-Za-z_][\w.]{0,8}$/)
)
const term = fc
  .tuple(fc.option(field, { nil: undefined }), word)
  .map(([f, w]) => (f === undefined ? w : `${f}:${w}`))
const separator = fc.constantFrom(' ', ' AND ', ' OR ', ' NOT ', ' AND NOT ', ' OR NOT ')
const plain = fc
  .tuple(fc.boolean(), term, fc.array(fc.tuple(separator, term), { maxLength: 8 }))
  .map(([not, first, rest]) => `${not ? 'NOT ' : ''}${first}${rest.map(([s, t]) => s + t).join('')}`)

/** Strings near the plain grammar: its pieces and the characters Lucene gives a meaning to. */
const near = fc
  .array(
    fc.oneof(
      fc.constantFrom(...KEYWORDS, ' ', '  ', ':', '.', '_', 'a', 'Z', '9', '\t', 'é'),
      fc.constantFrom(...'+-&|!(){}[]^"~*?\\/<>=\'#@$%,;'.split(''))
    ),
    { maxLength: 14 }
  )
  .map(parts => parts.join(''))

describe('the plain Lucene fast path', () => {
  it('covers the expressions manifests mostly hold', () => {
    for (const s of [
      'service:api',
      'service:s1 AND level:l3',
      'NOT a OR b',
      'x.y:z',
      'status:500 OR status:502'
    ])
      expect(isPlainLucene(s)).toBe(true)
    for (const s of ['x:y:z', 'a  b', 'x:"a b"', 'a:(b OR c)', 'x:>5', 'x:a*', ' a', 'a ', 'é', 'a\tb'])
      expect(isPlainLucene(s)).toBe(false)
  })

  it('the parser accepts every plain expression (10,000 generated)', () => {
    fc.assert(
      fc.property(plain, s => {
        expect(isPlainLucene(s)).toBe(true)
        expect(parses(s)).toBe(true)
      }),
      { numRuns: 10_000, seed: SEED }
    )
  })

  it('says "plain" only for what the parser accepts, and checkLucene agrees with the parser (10,000 near misses)', () => {
    let plainSeen = 0
    fc.assert(
      fc.property(near, s => {
        if (isPlainLucene(s)) {
          plainSeen++
          expect(parses(s)).toBe(true)
        }
        // The whole check, fast path and cache included, accepts exactly what the parser accepts.
        expect(checkLucene(s) === undefined).toBe(s.trim() === '' || parses(s))
      }),
      { numRuns: 10_000, seed: SEED }
    )
    expect(plainSeen).toBeGreaterThan(100)
  })

  it('an invalid expression still gets the parser’s message and column', () => {
    expect(checkLucene('service:api AND (level:error')).toEqual({
      offset: expect.any(Number),
      message: expect.stringMatching(/^Lucene syntax error at column \d+ of the expression: unexpected /)
    })
  })

  /** The common forms: quotes, comparisons, wildcards, ranges, field groups, parentheses, `-`. */
  const value = fc.oneof(
    word,
    fc.tuple(fc.constantFrom('>', '>=', '<', '<='), word).map(([op, w]) => op + w),
    word.map(w => `${w}*`),
    word.map(w => `${w}-${w}`),
    fc.stringMatching(/^[^"\\\n\r]{0,12}$/).map(q => `"${q}"`)
  )
  const range = fc
    .tuple(fc.constantFrom('[', '{'), word, word, fc.constantFrom(']', '}'))
    .map(([o, a, b, c]) => `${o}${a} TO ${b}${c}`)
  const group = fc
    .tuple(value, fc.array(fc.tuple(fc.constantFrom(' ', ' OR ', ' AND '), value), { maxLength: 3 }))
    .map(([v, rest]) => `(${v}${rest.map(([s, w]) => s + w).join('')})`)
  const clause = fc
    .tuple(fc.boolean(), field, fc.oneof(value, value, range, group))
    .map(([minus, f, v]) => `${minus ? '-' : ''}${f}:${v}`)
  const { common } = fc.letrec(tie => ({
    common: fc
      .tuple(fc.boolean(), tie('unit'), fc.array(fc.tuple(separator, tie('unit')), { maxLength: 4 }))
      .map(([not, first, rest]) => `${not ? 'NOT ' : ''}${first}${rest.map(([s, t]) => s + t).join('')}`),
    unit: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      clause,
      term,
      tie('common').map(e => `(${e})`)
    )
  }))
  const nearCommon = fc
    .array(
      fc.oneof(
        fc.constantFrom(...KEYWORDS, ' ', ':', 'a', 'x:', '9', '"', '(', ')', '[', ']', '{', '}', ' TO '),
        fc.constantFrom(...'-*><=.\\\t'.split(''))
      ),
      { maxLength: 16 }
    )
    .map(parts => parts.join(''))

  it('the parser accepts every common expression (10,000 generated), and the check skips them', () => {
    let recognised = 0
    fc.assert(
      fc.property(common, s => {
        if (isCommonLucene(s)) {
          recognised++
          expect(parses(s)).toBe(true)
        }
      }),
      { numRuns: 10_000, seed: SEED }
    )
    // All but the few nested deeper than the scanner goes.
    expect(recognised).toBeGreaterThan(9_000)
    for (const s of [
      'service:"checkout api" AND (level:error OR level:warn)',
      'duration:[100 TO 500] AND NOT path:"/health"',
      'http.status_code:>=500',
      'http.method:(GET OR POST) AND -user.id:internal-*'
    ])
      expect(isCommonLucene(s)).toBe(true)
  })

  it('says "common" only for what the parser accepts (20,000 near misses)', () => {
    let seen = 0
    fc.assert(
      fc.property(nearCommon, s => {
        if (isCommonLucene(s)) {
          seen++
          expect(parses(s)).toBe(true)
        }
        expect(checkLucene(s) === undefined).toBe(s.trim() === '' || parses(s))
      }),
      { numRuns: 20_000, seed: SEED }
    )
    expect(seen).toBeGreaterThan(100)
  })
})
