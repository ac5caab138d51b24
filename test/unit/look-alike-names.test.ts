/**
 * Names a reader cannot tell apart (manifest/look-alike.ts): a warning at the place of each name that looks
 * like an earlier one of its kind, and at a name that holds characters that do not show.
 */
import { describe, expect, it } from '@jest/globals'
import { validateText } from '../../src/manifest/load.js'
import { lookAlikeKey } from '../../src/manifest/look-alike.js'

/** Dashboards of these names, one document each (the name of document i is on line 2 + 4i). */
const dashboards = (...names: string[]) =>
  names.map(n => `kind: Dashboard\nname: ${JSON.stringify(n)}\ntiles: []\n`).join('---\n')

const warnings = (text: string) =>
  validateText('m.yaml', text, 'self-hosted')
    .diagnostics.filter(d => d.severity === 'warning')
    .map(d => ({ line: d.line, field: d.field, message: d.message }))

describe('names that look alike', () => {
  it('warns at each of Payments with a zero-width space, a Greek Rho and a trailing space', () => {
    const found = warnings(dashboards('Payments', 'Pay\u200bments', '\u03a1ayments', 'Payments '))
    expect(found).toEqual([
      {
        line: 6,
        field: 'name',
        message:
          'dashboard name "Pay\u200bments" looks the same as "Payments" (m.yaml:2): they differ only by U+200B (not shown); a reader cannot tell them apart, so rename one or remove those characters'
      },
      {
        line: 10,
        field: 'name',
        message: expect.stringContaining(
          'dashboard name "\u03a1ayments" looks the same as "Payments" (m.yaml:2): they differ only by U+03A1 (looks like P);'
        )
      },
      {
        line: 14,
        field: 'name',
        message: expect.stringContaining('they differ only by white space at the start or end;')
      }
    ])
  })

  it('compares names of one kind only, and says nothing of names that differ in a way one can see', () => {
    const alert = 'kind: Alert\nname: Payments\ndashboard: Payments\ntile: T\nthreshold: 1\ninterval: 5m\n'
    const text = `${dashboards('Payments', 'payments', 'Payment', 'Zahlungen ü')}---\n${alert}`
    expect(warnings(text)).toEqual([])
  })

  it('folds what looks the same: compatibility forms, no-break spaces, Cyrillic letters, repeated spaces', () => {
    const key = lookAlikeKey('Payments API')
    for (const name of [
      'Ｐayments API',
      'Payments\u00a0API',
      'Pаyments API',
      'Payments  API',
      ' Payments API\t'
    ])
      expect(lookAlikeKey(name)).toBe(key)
    expect(lookAlikeKey('Payments APl')).not.toBe(key)
  })

  it('keys a name of printable ASCII with single spaces as itself, and folds ASCII spacing as before', () => {
    for (const name of ['Payments API', 'a', 'p99 latency (ms) ~ "checkout"/v2', '#1 *top* {x}'])
      expect(lookAlikeKey(name)).toBe(name)
    expect(lookAlikeKey('Payments  API')).toBe('Payments API')
    expect(lookAlikeKey(' Payments API ')).toBe('Payments API')
  })
})

describe('names with characters that do not show', () => {
  it('warns at a name holding a control, bidirectional or invisible character, naming each', () => {
    expect(warnings(dashboards('Legacy\u202egpj.exe', 'Red\u001b[31m', 'X\n::error::pwned'))).toEqual([
      {
        line: 2,
        field: 'name',
        message:
          'dashboard name "Legacy\u202egpj.exe" holds characters that do not show: U+202E; reports print them escaped (\\u{...}), the web UI does not'
      },
      {
        line: 6,
        field: 'name',
        message: expect.stringContaining('holds characters that do not show: U+001B;')
      },
      {
        line: 10,
        field: 'name',
        message: expect.stringContaining('holds characters that do not show: U+000A;')
      }
    ])
  })

  it('lets emoji be: the joiner inside 👩‍💻 and the variation selector of ⚠️ show', () => {
    expect(warnings(dashboards('On call 👩‍💻', '⚠️ Errors'))).toEqual([])
  })
})
