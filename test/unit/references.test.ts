/**
 * References by name between resources (src/kinds/references.ts): what a name resolves to (the live id,
 * a placeholder for a resource this run creates, or a plan error at the field with a hint), how an id reads
 * in a plan, and how the apply binds placeholders to the ids the creates returned.
 */
import { describe, expect, it } from '@jest/globals'
import type { Diagnostic } from '../../src/diagnostics.js'
import {
  bindPlaceholders,
  placeholder,
  placeholderTokens,
  References,
  resourceReady,
  type RefSpec
} from '../../src/kinds/references.js'
import { wordFor } from '../../src/kinds/nouns.js'
import type { ParsedDocument } from '../../src/manifest/yaml.js'

function refs() {
  const reports: Diagnostic[] = []
  const r = new References(d => reports.push(d))
  return { r, reports }
}

const at = (file: string, index: number, line: number) => ({
  doc: { file, index, locate: () => ({ file, line, column: 5 }) } as unknown as ParsedDocument,
  path: ['spec', 'source'] as const
})

describe('References.resolve', () => {
  it('a declared name: its paired live id, or a placeholder for the create of this run', () => {
    const { r, reports } = refs()
    r.live('Source', [{ id: 's1', name: 'Logs' }])
    r.declare('Source', ['Logs', 'Traces'])
    r.paired('Source', [['Logs', 's1']], [])
    expect(r.resolve({ kind: 'Source', name: 'Logs' })).toStrictEqual({
      kind: 'Source',
      value: 's1',
      label: 'Logs',
      declared: 'Logs'
    })
    expect(r.resolve({ kind: 'Source', name: 'Traces' })).toStrictEqual({
      kind: 'Source',
      value: 'new:Source/Traces',
      label: 'Traces (new)',
      declared: 'Traces'
    })
    expect(r.liveIdOf('Source', 'Logs')).toBe('s1')
    expect(r.liveIdOf('Source', 'Traces')).toBeUndefined()
    expect(reports).toStrictEqual([])
  })

  it('an undeclared name: the one live record of that name', () => {
    const { r, reports } = refs()
    r.live('Webhook', [
      { id: 'w1', name: 'pager' },
      { id: 'w2', name: 'mail' }
    ])
    expect(r.resolve({ kind: 'Webhook', name: 'mail' })).toStrictEqual({
      kind: 'Webhook',
      value: 'w2',
      label: 'mail'
    })
    expect(reports).toStrictEqual([])
  })

  it('an ambiguous name is a plan error at its field, with the ids; the result is marked unresolved', () => {
    const { r, reports } = refs()
    r.live('Webhook', [
      { id: 'w1', name: 'pager' },
      { id: 'w2', name: 'pager' }
    ])
    expect(r.resolve({ kind: 'Webhook', name: 'pager', at: at('alerts.yaml', 0, 7) })).toStrictEqual({
      kind: 'Webhook',
      value: 'unresolved:pager',
      label: 'unresolved:pager',
      error: true
    })
    expect(reports).toStrictEqual([
      {
        severity: 'error',
        stage: 'plan',
        message: 'webhook name "pager" is ambiguous: 2 have it (ids w1, w2); use the id instead',
        file: 'alerts.yaml',
        line: 7,
        column: 5,
        field: 'spec.source'
      }
    ])
  })

  it('an unknown name: a guess when one is close, else the known names (ten at most)', () => {
    const { r, reports } = refs()
    r.live('Source', [{ id: 's1', name: 'Logs' }])
    r.declare('Source', ['Metrics'])
    r.resolve({ kind: 'Source', name: 'Log' })
    r.resolve({ kind: 'Source', name: 'zzz' })
    expect(reports.map(d => d.message)).toStrictEqual([
      'no data source named "Log" (did you mean "Logs"?)',
      'no data source named "zzz"; known: Metrics, Logs'
    ])
    const many = refs()
    many.r.live(
      'Connection',
      Array.from({ length: 11 }, (_, i) => ({
        id: `c${i}`,
        name: `conn-${String.fromCharCode(97 + i)}${i}x`
      }))
    )
    many.r.resolve({ kind: 'Connection', name: 'qqqqqqqqqqqq' })
    expect(many.reports[0]!.message).toBe(
      'no connection named "qqqqqqqqqqqq"; known: conn-a0x, conn-b1x, conn-c2x, conn-d3x, conn-e4x, conn-f5x, conn-g6x, conn-h7x, conn-i8x, conn-j9x, ...'
    )
    const none = refs()
    none.r.live('Connection', [])
    none.r.resolve({ kind: 'Connection', name: 'x' })
    expect(none.reports[0]!.message).toBe('no connection named "x"')
  })

  it('a kind this API cannot list: a name is an error saying why, an id is taken as it is', () => {
    const { r, reports } = refs()
    r.live('SavedSearch', undefined, 'managed mode has no saved searches route')
    expect(r.resolve({ kind: 'SavedSearch', name: 'x' })).toMatchObject({
      value: 'unresolved:x',
      error: true
    })
    expect(r.resolve({ kind: 'SavedSearch', id: 'abc' })).toStrictEqual({
      kind: 'SavedSearch',
      value: 'abc',
      label: 'abc'
    })
    r.live('Webhook', undefined)
    r.resolve({ kind: 'Webhook', name: 'y' })
    expect(reports.map(d => d.message)).toStrictEqual([
      'this API cannot list saved searches (managed mode has no saved searches route): name it by id instead',
      'this API cannot list webhooks: name it by id instead'
    ])
  })

  it('an id: kept when it exists (labelled by its name), an error when the listed records lack it', () => {
    const { r, reports } = refs()
    r.live('Source', [{ id: 's1', name: 'Logs' }])
    expect(r.resolve({ kind: 'Source', id: 's1' })).toStrictEqual({
      kind: 'Source',
      value: 's1',
      label: 'Logs'
    })
    expect(r.resolve({ kind: 'Source', id: 's9', at: at('a.yaml', 0, 3) })).toStrictEqual({
      kind: 'Source',
      value: 'unresolved:s9',
      label: 'unresolved:s9',
      error: true
    })
    expect(reports.map(d => [d.message, d.line])).toStrictEqual([['no data source with id "s9"', 3]])
  })

  it('a problem is reported once per place (or per message without one)', () => {
    const { r, reports } = refs()
    r.live('Source', [])
    const ref: RefSpec = { kind: 'Source', name: 'x', at: at('a.yaml', 0, 3) }
    r.resolve(ref)
    r.resolve(ref)
    r.resolve({ ...ref, at: at('a.yaml', 1, 9) })
    r.resolve({ ...ref, at: at('b.yaml', 0, 3) })
    r.resolve({ kind: 'Source', name: 'y' })
    r.resolve({ kind: 'Source', name: 'y' })
    expect(reports.map(d => `${d.file}:${d.line}`)).toStrictEqual([
      'a.yaml:3',
      'a.yaml:9',
      'b.yaml:3',
      'undefined:undefined'
    ])
  })
})

describe('labels and names', () => {
  it("an id reads as the manifest's name, the live name when unique, name (id) when not, else the id", () => {
    const { r } = refs()
    r.live('Source', [
      { id: 's1', name: 'Logs' },
      { id: 's2', name: 'Old' },
      { id: 's3', name: 'Twin' },
      { id: 's4', name: 'Twin' },
      { id: 's5', name: 'Declared' }
    ])
    r.declare('Source', ['Renamed', 'Declared'])
    r.paired('Source', [['Renamed', 's1']], ['s2'])
    expect(r.label('Source', 's1')).toBe('Renamed')
    expect(r.label('Source', 's2')).toBe('Old')
    expect(r.label('Source', 's3')).toBe('Twin (s3)')
    expect(r.label('Source', 's5')).toBe('Declared (s5)')
    expect(r.label('Source', 'gone')).toBe('gone')
    expect(r.labelOfValue('Source', 'new:Source/Fresh')).toBe('Fresh (new)')
    expect(r.labelOfValue('Source', 'unresolved:x')).toBe('unresolved:x')
    expect(r.labelOfValue('Source', 's1')).toBe('Renamed')
    expect(r.isManaged('Source', 's1')).toBe(true)
    expect(r.isManaged('Source', 's2')).toBe(true)
    expect(r.isManaged('Source', 's3')).toBe(false)
    r.markDeleted('Source', 's2')
    expect(r.isDeleted('Source', 's2')).toBe(true)
    expect(r.isDeleted('Source', 's1')).toBe(false)
    expect(r.isDeleted('Webhook', 's2')).toBe(false)
  })

  it("names: each live id by the manifest's name or its own, each create's placeholder; nameless ones left out", () => {
    const { r } = refs()
    r.live('Webhook', [
      { id: 'w1', name: 'pager' },
      { id: 'w2', name: '' },
      { id: 'w3', name: 'mail' }
    ])
    r.declare('Webhook', ['paging', 'fresh'])
    r.paired('Webhook', [['paging', 'w1']], [])
    expect(r.names('Webhook')).toStrictEqual({ w1: 'paging', w3: 'mail', 'new:Webhook/fresh': 'fresh (new)' })
    expect(r.names('Connection')).toStrictEqual({})
  })
})

describe('placeholders at apply time', () => {
  it('the tokens of the placeholders a body carries, once each, anywhere in it', () => {
    expect(
      placeholderTokens({
        a: 'new:Source/Logs',
        list: ['x', 'new:Webhook/pager', { deep: 'new:Source/Logs' }],
        n: 1,
        nothing: null,
        'new:Source/key': 'keys are not references',
        text: 'see new:Source/Other'
      })
    ).toStrictEqual(['ready:Source/Logs', 'ready:Webhook/pager'])
    expect(placeholderTokens('new:Connection/a b/c')).toStrictEqual(['ready:Connection/a b/c'])
    expect(placeholderTokens({ a: 'new:/x', b: 'new:Source' })).toStrictEqual([])
  })

  it('binding replaces each placeholder with the id its create returned, and copies nothing without one', () => {
    const facts = new Map([
      ['ready:Source/Logs', { id: 's9' }],
      ['ready:Webhook/pager', { id: 'w9' }]
    ])
    const body = { a: 'new:Source/Logs', list: ['x', { w: 'new:Webhook/pager' }, 3, null], keep: 'new' }
    expect(bindPlaceholders(body, facts)).toStrictEqual({
      a: 's9',
      list: ['x', { w: 'w9' }, 3, null],
      keep: 'new'
    })
    expect(body.a).toBe('new:Source/Logs')
    const plain = { a: 'Logs', list: ['new', 1] }
    expect(bindPlaceholders(plain, facts)).toBe(plain)
    // "new:" that is no placeholder is left as it is.
    expect(bindPlaceholders({ a: 'new:lower', b: 'new:Source/Logs' }, facts)).toStrictEqual({
      a: 'new:lower',
      b: 's9'
    })
  })

  it('a placeholder whose create did not run is an error naming it', () => {
    expect(() => bindPlaceholders({ a: 'new:Source/Logs' }, new Map())).toThrow(
      'Source "Logs" has no id yet (its create did not run)'
    )
    expect(() => bindPlaceholders(['new:Webhook/x'], new Map([['ready:Webhook/x', {}]]))).toThrow(
      'Webhook "x" has no id yet'
    )
  })

  it('words, placeholders and tokens', () => {
    expect([
      wordFor('Source'),
      wordFor('Source', true),
      wordFor('SavedSearch', true),
      wordFor('Alert')
    ]).toStrictEqual(['data source', 'data sources', 'saved searches', 'alert'])
    expect(placeholder('Webhook', 'pager')).toBe('new:Webhook/pager')
    expect(resourceReady('Webhook', 'pager')).toBe('ready:Webhook/pager')
  })
})
