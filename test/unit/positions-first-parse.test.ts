/**
 * A valid file is parsed once, for its values. Its top-level positions (a manifest's `name`, which every
 * change of a plan shows) come from one more parse of its top level, made when first asked for; deeper
 * positions, wanted only for a problem, from a second parse made on demand. All equal the yaml library's.
 */
import { describe, expect, it } from '@jest/globals'
import { validateText } from '../../src/manifest/load.js'
import { parseYamlFile, yamlStats } from '../../src/manifest/yaml.js'
import { alert, dashboard, timeTile } from '../support/harness.js'

const file = [
  '# a comment first\n' + dashboard('Checkout', timeTile('Errors', 0, 0) + timeTile('Warnings', 6, 0)),
  alert('Checkout errors', 'Checkout', 'Errors'),
  '---\nkind: Alert\nname:   "quoted, far right"\ndashboard: Checkout\ntile: Errors\nthreshold: 1\nthresholdType: above\ninterval: 5m\nchannel: { type: webhook, webhook: ops-pager }\n',
  "---\n\nkind: Dashboard\nname: 'single'\ntags: [a, b]\ntiles: []\n"
].join('')

const lineOf = (text: string): number => file.slice(0, file.indexOf(text)).split('\n').length

/** The same text parsed by the yaml library (a file js-yaml refuses takes that path: an alias does). */
const viaYamlLibrary = (text: string) => parseYamlFile('f.yaml', `${text}\n---\nx: &a 1\ny: *a\n`)

describe('positions from the first parse', () => {
  it('a plan’s positions (a document’s start, its name and kind) need one parse of the top level, and equal the yaml library’s', () => {
    const before = yamlStats.secondParses
    const tops = yamlStats.positionParses
    const ours = parseYamlFile('f.yaml', file).documents
    const theirs = viaYamlLibrary(file).documents
    expect(ours).toHaveLength(4)
    ours.forEach((doc, i) => {
      const other = theirs[i]!
      expect(doc.start).toEqual(other.start)
      for (const key of ['name', 'kind']) expect(doc.locate([key])).toEqual(other.locate([key]))
    })
    expect(yamlStats.secondParses).toBe(before)
    expect(yamlStats.positionParses).toBe(tops + 1)
  })

  it('finds name and kind after nesting the first parse does not record (flow, block, sequences of mappings)', () => {
    const nested = [
      'kind: Dashboard\ntags: [a, [b, {c: d, e: [f]}]]\nmeta:\n  - {x: 1}\n  - y:\n      z: |\n        text\n  - [1, 2]\n',
      'extra: {k: v}\nname: "after nesting"\n---\n? plain\n: 1\nlist:\n- - - deep\nname: second\nkind: Alert\n'
    ].join('')
    const ours = parseYamlFile('f.yaml', nested).documents
    const theirs = viaYamlLibrary(nested).documents
    expect(ours).toHaveLength(2)
    ours.forEach((doc, i) => {
      for (const key of ['name', 'kind']) expect(doc.locate([key])).toEqual(theirs[i]!.locate([key]))
    })
  })

  it('any other position parses the file a second time, once, and agrees with the yaml library', () => {
    const before = yamlStats.secondParses
    const [ours] = parseYamlFile('f.yaml', file).documents
    const [theirs] = viaYamlLibrary(file).documents
    for (const path of [
      ['tiles', 1, 'series', 0, 'where'],
      ['tiles', 0],
      ['tiles', 5, 'x'],
      ['tiles'],
      ['nope']
    ])
      expect(ours!.locate(path)).toEqual(theirs!.locate(path))
    expect(ours!.locateKey(['tiles', 1], 'h')).toEqual(theirs!.locateKey(['tiles', 1], 'h'))
    expect(ours!.locateKey([], 'tiles')).toEqual(theirs!.locateKey([], 'tiles'))
    expect(ours!.scalarAt(['name'])?.columnOf(3)).toEqual(theirs!.scalarAt(['name'])?.columnOf(3))
    expect(yamlStats.secondParses).toBe(before + 1)
  })

  it('validating valid manifests parses each file once; their raw values are dropped, their specs kept', () => {
    const before = yamlStats.secondParses
    const tops = yamlStats.positionParses
    const set = validateText('f.yaml', file, 'self-hosted')
    expect(set.diagnostics.filter(d => d.severity === 'error')).toEqual([])
    expect(yamlStats.positionParses).toBe(tops)
    expect(set.specs.Dashboard.map(d => [d.spec.name, d.doc.locate(['name']).line])).toEqual([
      ['Checkout', lineOf('name: "Checkout"')],
      ['single', lineOf("name: 'single'")]
    ])
    expect(set.specs.Dashboard.every(d => d.doc.value === undefined)).toBe(true)
    expect(yamlStats.secondParses).toBe(before)
  })
})

describe('a character inside a scalar', () => {
  // Every style spells `a.b(\'x\') && c` with white space, quotes or escapes of its own.
  const value = "a.b('x') && c"
  const text = [
    "plain: a.b('x') && c",
    "single: 'a.b(''x'') &&\n  c'",
    'double: "a.b(\\u0027x\') \\\n  && c"',
    "literal: |-\n  a.b('x')\n    && c",
    "folded: >-\n  a.b('x') &&\n  c",
    "multi: a.b('x')\n  && c",
    'other: not the value'
  ].join('\n')
  const expected: Record<string, Array<[number, number]>> = {
    plain: [
      [1, 8],
      [1, 11],
      [1, 20]
    ],
    single: [
      [2, 10],
      [2, 13],
      [3, 3]
    ],
    double: [
      [4, 10],
      [4, 13],
      [5, 6]
    ],
    literal: [
      [7, 3],
      [7, 6],
      [8, 8]
    ],
    folded: [
      [10, 3],
      [10, 6],
      [11, 3]
    ],
    multi: [
      [12, 8],
      [12, 11],
      [13, 6]
    ]
  }

  it('is found where it is written, in every style, alike from both parsers', () => {
    const [ours] = parseYamlFile('f.yaml', text).documents
    const [theirs] = viaYamlLibrary(text).documents
    for (const [key, places] of Object.entries(expected)) {
      // The `a`, the `(`, the `c`.
      const found = [0, 3, value.length - 1].map(offset => ours!.locateIn([key], value, offset))
      expect([key, found.map(l => [l?.line, l?.column])]).toEqual([key, places])
      for (const offset of [0, 3, 9, value.length - 1, value.length])
        expect([key, offset, ours!.locateIn([key], value, offset)]).toEqual([
          key,
          offset,
          theirs!.locateIn([key], value, offset)
        ])
    }
  })

  it('is not found where the source does not spell the value', () => {
    const [doc] = parseYamlFile('f.yaml', text).documents
    expect(doc!.locateIn(['other'], value, 0)).toBeUndefined()
    expect(doc!.locateIn(['nope'], value, 0)).toBeUndefined()
  })
})
