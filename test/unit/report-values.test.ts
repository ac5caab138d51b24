import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { stringify } from 'yaml'
import { addedAndRemoved, changedLines, namesOf, readable, yamlText } from '../../src/report/values.js'
import { makePlan } from './report-fixtures.js'

const library = (v: unknown) =>
  stringify(v, { lineWidth: 0, minContentWidth: 0, singleQuote: true }).replace(/\n$/, '')

describe('values as YAML', () => {
  it('writes exactly what the YAML library writes, for any JSON and any string (property)', () => {
    // The fast path skips the library for plain values: it must never differ from it.
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.string({ unit: 'binary' }), (value, text) => {
        for (const v of [value, text, { [text]: text }, [text], { tiles: [value] }])
          expect(yamlText(v)).toBe(library(v))
      }),
      { numRuns: 500 }
    )
  })

  it('names data sources and webhooks the plan knows, and leaves unknown ids alone', () => {
    const names = namesOf(
      makePlan([], {
        names: { sources: { s1: 'Logs' }, webhooks: { w1: 'ops-pager' }, alertDashboards: {} }
      })
    )
    expect(readable({ sourceId: 's1', webhook: 'ops-pager (w1)', other: { sourceId: 's9' } }, names)).toEqual(
      {
        source: 'Logs',
        webhook: 'ops-pager',
        other: { sourceId: 's9' }
      }
    )
    // A filter's sources, by name when every one has one.
    expect(readable({ appliesToSourceIds: ['s1'] }, names)).toEqual({ appliesToSources: ['Logs'] })
    expect(readable({ appliesToSourceIds: ['s1', 's9'] }, names)).toEqual({
      appliesToSourceIds: ['s1', 's9']
    })
    // A plan file of an older version has no references: ids stay ids.
    expect(readable({ sourceId: 's1' }, namesOf(makePlan([], { references: undefined })))).toEqual({
      sourceId: 's1'
    })
    // A later version of the table is not misread.
    const later = makePlan([], {
      references: {
        version: 3,
        keys: { sourceId: { as: 'source', names: { s1: 'Logs' } } },
        seenOn: {},
        nouns: {}
      }
    })
    expect(readable({ sourceId: 's1' }, namesOf(later))).toEqual({ sourceId: 's1' })
  })

  it('shows a changed leaf under its containers, and a source id change by name', () => {
    const names = namesOf(
      makePlan([], { names: { sources: { s1: 'Logs', s2: 'Traces' }, alertDashboards: {} } })
    )
    const lines = changedLines(
      [
        { path: 'tiles["Errors"].sourceId', before: 's1', after: 's2' },
        { path: 'tiles["Errors"].select[1].where', before: 'a:1', after: 'a:2' }
      ],
      names
    ).map(l => `${l.sign} ${l.text}`)
    expect(lines).toEqual([
      '  tiles:',
      '    - name: Errors',
      '-     source: Logs',
      '+     source: Traces',
      '      select[1]:',
      '-       where: a:1',
      '+       where: a:2'
    ])
  })

  it('tells two tiles of one name apart by their short ids, changed or removed whole', () => {
    const names = namesOf(makePlan([], { names: { sources: {}, alertDashboards: {} } }))
    const fields = [
      { path: 'tiles["CPU" #aaaaaa].w', before: 6, after: 7 },
      { path: 'tiles["CPU" #bbbbbb]', before: { x: 6 } },
      { path: 'tiles["CPU (system)"]', after: { x: 6 } }
    ]
    expect(changedLines(fields, names).map(l => `${l.sign} ${l.text}`)).toEqual([
      '  tiles:',
      '    - name: CPU #aaaaaa',
      '-     w: 6',
      '+     w: 7',
      '-   - name: CPU #bbbbbb',
      '-     x: 6',
      '+   - name: CPU (system)',
      '+     x: 6'
    ])
    expect(addedAndRemoved(fields)).toEqual([
      { what: 'tile', name: 'CPU', id: 'bbbbbb', added: false },
      { what: 'tile', name: 'CPU (system)', added: true }
    ])
  })
})
