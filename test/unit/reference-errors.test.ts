/**
 * References at their edges (src/kinds/references.ts): the list of known names is cut after ten, and only
 * then ends with "..."; an id is checked against every live record. test/unit/references.test.ts holds the rest.
 */
import { describe, expect, it } from '@jest/globals'
import type { Diagnostic } from '../../src/diagnostics.js'
import { References } from '../../src/kinds/references.js'

const named = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: `w${i}`, name: `hook-${String.fromCharCode(97 + i)}${i}z` }))

describe('an unknown name lists the known ones', () => {
  it('all ten when there are ten, without "..."', () => {
    const reports: Diagnostic[] = []
    const r = new References(d => reports.push(d))
    r.live('Webhook', named(10))
    r.resolve({ kind: 'Webhook', name: 'qqqqqqqqqqqq' })
    expect(reports.map(d => d.message)).toStrictEqual([
      'no webhook named "qqqqqqqqqqqq"; known: hook-a0z, hook-b1z, hook-c2z, hook-d3z, hook-e4z, hook-f5z, hook-g6z, hook-h7z, hook-i8z, hook-j9z'
    ])
  })

  it('a name both declared and live is listed once', () => {
    const reports: Diagnostic[] = []
    const r = new References(d => reports.push(d))
    r.live('Webhook', [{ id: 'w1', name: 'pager' }])
    r.declare('Webhook', ['pager'])
    r.resolve({ kind: 'Webhook', name: 'qqqqqqqqqqqq' })
    expect(reports.map(d => d.message)).toStrictEqual(['no webhook named "qqqqqqqqqqqq"; known: pager'])
  })
})

describe('a reference by id', () => {
  it('is kept when any live record has it, not only when all do', () => {
    const reports: Diagnostic[] = []
    const r = new References(d => reports.push(d))
    r.live('Source', [
      { id: 's1', name: 'Logs' },
      { id: 's2', name: 'Traces' }
    ])
    expect(r.resolve({ kind: 'Source', id: 's2' })).toStrictEqual({
      kind: 'Source',
      value: 's2',
      label: 'Traces'
    })
    expect(reports).toStrictEqual([])
  })
})
