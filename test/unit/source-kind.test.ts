/**
 * The Source kind (src/kinds/source.ts) planned from manifests and applied to an in-memory server: the requests a
 * create, a link and an update send (references as ids, sources of one run that refer to each other linked by a
 * second request, a session's trace source created first), the fields a newer server returns sent back as read,
 * what compares equal (the server's defaults, short granularities, references by name), the registry entries
 * written, and the plan errors of a reference that resolves to nothing, at its field.
 */
import { describe, expect, it } from '@jest/globals'
import { sourceKind } from '../../src/kinds/source.js'
import { actions, apply, change, plan, RecordStore, TAG } from '../support/record-store.js'

const WAREHOUSE = { id: 'conn-1', name: 'Warehouse', host: 'http://ch:8123', username: 'u' }

const source = (name: string, sourceKind: string, ...more: string[]) =>
  [
    '---',
    'kind: Source',
    `name: ${name}`,
    `sourceKind: ${sourceKind}`,
    'connection: Warehouse',
    'from: { databaseName: app, tableName: t }',
    'timestampValueExpression: Timestamp',
    ...more,
    ''
  ].join('\n')

const TRACE_FIELDS = [
  'defaultTableSelectExpression: Timestamp, SpanName',
  'durationExpression: Duration',
  'traceIdExpression: TraceId',
  'spanIdExpression: SpanId',
  'parentSpanIdExpression: ParentSpanId',
  'spanNameExpression: SpanName',
  'spanKindExpression: SpanKind'
]
const logs = (...more: string[]) =>
  source('App logs', 'log', 'defaultTableSelectExpression: Timestamp, Body', ...more)
const traces = (...more: string[]) => source('App traces', 'trace', ...TRACE_FIELDS, ...more)

/** What `logs()` and `traces()` create: the manifests in the API's words. */
const LOGS_BODY = {
  kind: 'log',
  name: 'App logs',
  connection: 'conn-1',
  from: { databaseName: 'app', tableName: 't' },
  timestampValueExpression: 'Timestamp',
  defaultTableSelectExpression: 'Timestamp, Body'
}
const TRACES_BODY = {
  kind: 'trace',
  name: 'App traces',
  connection: 'conn-1',
  from: { databaseName: 'app', tableName: 't' },
  timestampValueExpression: 'Timestamp',
  defaultTableSelectExpression: 'Timestamp, SpanName',
  durationExpression: 'Duration',
  traceIdExpression: 'TraceId',
  spanIdExpression: 'SpanId',
  parentSpanIdExpression: 'ParentSpanId',
  spanNameExpression: 'SpanName',
  spanKindExpression: 'SpanKind'
}
/** What the server stores of them. */
const storedLogs = (over: Record<string, unknown> = {}) => ({ id: 'src-logs', ...LOGS_BODY, ...over })
const storedTraces = (over: Record<string, unknown> = {}) => ({ id: 'src-traces', ...TRACES_BODY, ...over })
const ownedLogs = (over: Record<string, unknown> = {}) =>
  new RecordStore({ connections: [WAREHOUSE], sources: [storedLogs(over)] }).owns({
    Source: { 'src-logs': { name: 'App logs' } }
  })

describe('creating sources', () => {
  it('two new sources that refer to each other: created without the reference, then linked; the next plan is a no-op', async () => {
    const store = new RecordStore({ connections: [WAREHOUSE] })
    const first = plan(store, logs('traceSource: App traces') + traces('logSource: App logs'))
    expect(first.diagnostics).toEqual([])
    expect(change(first, 'Source/App logs').fields).toEqual(
      expect.arrayContaining([
        { path: 'connection', after: 'Warehouse' },
        { path: 'sourceKind', after: 'log' },
        { path: 'traceSource', after: 'App traces (new)' }
      ])
    )
    expect(change(first, 'Source/App logs').notes).toEqual([
      'recorded as this stack\'s in its registry dashboard "obsdeploy registry (stack shop)" (the apply creates that dashboard)'
    ])
    const result = await apply(store, first)
    expect(result.complete).toBe(true)
    const logsId = store.find('sources', 'App logs')!.id
    const tracesId = store.find('sources', 'App traces')!.id
    const posts = store.sent().filter(r => r.method === 'POST')
    expect(posts.map(r => [r.collection, r.body])).toEqual([
      ['sources', LOGS_BODY],
      ['sources', TRACES_BODY]
    ])
    const puts = store.sent().filter(r => r.method === 'PUT')
    expect(puts.map(r => [r.id, r.body])).toEqual(
      expect.arrayContaining([
        [logsId, { ...posts[0]!.body, traceSourceId: tracesId }],
        [tracesId, { ...posts[1]!.body, logSourceId: logsId }]
      ])
    )
    expect(puts).toHaveLength(2)
    expect(store.find('sources', 'App logs')!.traceSourceId).toBe(tracesId)

    const again = plan(store, logs('traceSource: App traces') + traces('logSource: App logs'))
    expect(actions(again)).toEqual([])
    expect(again.diagnostics).toEqual([])
  })

  it("a session source's trace source is created first and sent with it; only the trace source is linked", async () => {
    const store = new RecordStore({ connections: [WAREHOUSE] })
    const yaml = source('Sessions', 'session', 'traceSource: App traces') + traces('sessionSource: Sessions')
    await apply(store, plan(store, yaml))
    const tracesId = store.find('sources', 'App traces')!.id
    const sessionsId = store.find('sources', 'Sessions')!.id
    const sent = store
      .sent()
      .map(r => [r.method, r.body?.name, r.body?.traceSourceId, r.body?.sessionSourceId])
    expect(sent).toEqual([
      ['POST', 'App traces', undefined, undefined],
      ['POST', 'Sessions', tracesId, undefined],
      ['PUT', 'App traces', undefined, sessionsId]
    ])
    expect(actions(plan(store, yaml))).toEqual([])
  })

  it('one source that refers to an existing one needs no link request', async () => {
    const store = new RecordStore({ connections: [WAREHOUSE], sources: [storedLogs()] }).owns({
      Source: { 'src-logs': { name: 'App logs' } }
    })
    await apply(store, plan(store, logs() + traces('logSource: App logs')))
    expect(store.sent()).toEqual([
      { method: 'POST', collection: 'sources', body: expect.objectContaining({ logSourceId: 'src-logs' }) }
    ])
  })

  it('references by id are sent as given; the registry records the new source under its name', async () => {
    const store = new RecordStore({ connections: [WAREHOUSE], sources: [storedLogs()] })
    const yaml = source(
      'Metrics',
      'metric',
      'resourceAttributesExpression: Attrs',
      'metricTables: { gauge: g }'
    )
      .replace('connection: Warehouse', 'connectionId: conn-1')
      .concat('logSourceId: src-logs\n')
    const p = plan(store, yaml)
    expect(p.diagnostics).toEqual([])
    expect(change(p, 'Source/Metrics').fields).toContainEqual({ path: 'logSource', after: 'App logs' })
    await apply(store, p)
    expect(store.sent()[0]!.body).toStrictEqual({
      kind: 'metric',
      name: 'Metrics',
      connection: 'conn-1',
      from: { databaseName: 'app', tableName: 't' },
      timestampValueExpression: 'Timestamp',
      resourceAttributesExpression: 'Attrs',
      metricTables: { gauge: 'g' },
      logSourceId: 'src-logs'
    })
    const metricsId = store.find('sources', 'Metrics')!.id
    expect(plan(store, yaml).outcome.registry.entry('Source', metricsId)).toStrictEqual({ name: 'Metrics' })
  })

  it('a create whose response is lost is found by name and adopted, not sent twice', async () => {
    const store = new RecordStore({ connections: [WAREHOUSE] })
    store.loseCreateResponses = 1
    const result = await apply(store, plan(store, logs()))
    expect(result.outcomes.map(o => [o.address, o.status, o.id])).toEqual([
      ['Source/App logs', 'adopted', store.find('sources', 'App logs')!.id]
    ])
    expect(store.sent().filter(r => r.method === 'POST')).toHaveLength(1)
    expect(actions(plan(store, logs()))).toEqual([])
  })
})

describe('references that resolve to nothing', () => {
  it('an unknown connection or source is a plan error at the field that names it, by name or by id', () => {
    const store = new RecordStore({ connections: [WAREHOUSE] })
    const byName = plan(
      store,
      logs('traceSource: Nope').replace('connection: Warehouse', 'connection: Wherehouse')
    )
    expect(byName.diagnostics).toEqual([
      'error connection: no connection named "Wherehouse" (did you mean "Warehouse"?)',
      'error traceSource: no data source named "Nope"; known: App logs'
    ])
    const byId = plan(
      store,
      logs('traceSourceId: src-none').replace('connection: Warehouse', 'connectionId: c-none')
    )
    expect(byId.diagnostics).toEqual([
      'error connectionId: no connection with id "c-none"',
      'error traceSourceId: no data source with id "src-none"'
    ])
  })
})

describe('updating a source', () => {
  it('fields a newer server returns are sent back as read and never shown; computed ones are never sent', async () => {
    const store = ownedLogs({
      futureSetting: { mode: 'fast' },
      createdAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-02T00:00:00Z',
      team: 't1',
      teamId: 't1',
      _id: 'src-logs',
      __v: 3
    })
    expect(actions(plan(store, logs()))).toEqual([])
    const p = plan(store, logs('section: Apps'))
    expect(change(p, 'Source/App logs').fields).toEqual([{ path: 'section', after: 'Apps' }])
    await apply(store, p)
    expect(store.sent()).toEqual([
      {
        method: 'PUT',
        collection: 'sources',
        id: 'src-logs',
        body: {
          kind: 'log',
          name: 'App logs',
          connection: 'conn-1',
          section: 'Apps',
          from: { databaseName: 'app', tableName: 't' },
          timestampValueExpression: 'Timestamp',
          defaultTableSelectExpression: 'Timestamp, Body',
          futureSetting: { mode: 'fast' }
        }
      }
    ])
    // Its name did not change: the registry already says it all, so it is not written.
    expect(store.requests.filter(r => r.collection === 'dashboards')).toEqual([])
  })

  it('a field this tool knows that the manifest drops is cleared, not carried', () => {
    const p = plan(
      ownedLogs({ serviceNameExpression: 'ServiceName', querySettings: [{ setting: 'a', value: '1' }] }),
      logs()
    )
    expect(change(p, 'Source/App logs').fields).toEqual([
      { path: 'querySettings', before: [{ setting: 'a', value: '1' }] },
      { path: 'serviceNameExpression', before: 'ServiceName' }
    ])
  })

  it('the server defaults and its short granularities compare equal to a manifest that leaves them out or spells them out', () => {
    const views = [
      'materializedViews:',
      '  - databaseName: app',
      '    tableName: mv',
      '    dimensionColumns: a',
      '    minGranularity: 15 second',
      '    timestampColumn: ts',
      '    aggregatedColumns: [{ aggFn: count, mvColumn: c }]',
      '  - { databaseName: app, tableName: mv2, dimensionColumns: a, minGranularity: 10 minute, timestampColumn: ts, aggregatedColumns: [{ aggFn: count, mvColumn: c }] }',
      '  - { databaseName: app, tableName: mv3, dimensionColumns: a, minGranularity: 12 hour, timestampColumn: ts, aggregatedColumns: [{ aggFn: count, mvColumn: c }] }',
      'metadataMaterializedViews: { kvRollupTable: kv, granularity: 30 day }'
    ]
    const view = (tableName: string, minGranularity: string) => ({
      databaseName: 'app',
      tableName,
      dimensionColumns: 'a',
      minGranularity,
      timestampColumn: 'ts',
      aggregatedColumns: [{ aggFn: 'count', mvColumn: 'c' }]
    })
    const store = ownedLogs({
      disabled: false,
      materializedViews: [view('mv', '15s'), view('mv2', '10m'), view('mv3', '12h')],
      metadataMaterializedViews: { kvRollupTable: 'kv', granularity: '30d' },
      highlightedRowAttributeExpressions: []
    })
    expect(actions(plan(store, logs(...views)))).toEqual([])
    const changed = plan(
      store,
      logs(...views, 'disabled: true')
        .replace('12 hour', '12 minute')
        .replace('30 day', '1 day')
    )
    expect(change(changed, 'Source/App logs').fields).toEqual([
      { path: 'disabled', after: true },
      { path: 'materializedViews[2].minGranularity', before: '12h', after: '12m' },
      { path: 'metadataMaterializedViews.granularity', before: '30d', after: '1d' }
    ])
  })

  it('a trace source: precision 3 is the default either way; another precision is a change', () => {
    const stored = storedTraces({ durationPrecision: 3 })
    const store = new RecordStore({ connections: [WAREHOUSE], sources: [stored] }).owns({
      Source: { 'src-traces': { name: 'App traces' } }
    })
    expect(actions(plan(store, traces()))).toEqual([])
    expect(actions(plan(store, traces('durationPrecision: 3')))).toEqual([])
    expect(change(plan(store, traces('durationPrecision: 6')), 'Source/App traces').fields).toEqual([
      { path: 'durationPrecision', after: 6 }
    ])
    // Only a trace source has that default: another kind's precision is compared as it is.
    const log = ownedLogs({ durationPrecision: 3 })
    expect(change(plan(log, logs()), 'Source/App logs').fields).toEqual([
      { path: 'durationPrecision', before: 3 }
    ])
  })

  it('a reference moved to another source is shown by name and sent as its id', async () => {
    const other = { ...storedLogs(), id: 'src-other', name: 'Other logs' }
    const traceStored = storedTraces({ logSourceId: 'src-logs', metricSourceId: null })
    const store = new RecordStore({
      connections: [WAREHOUSE],
      sources: [storedLogs(), other, traceStored]
    }).owns({
      Source: { 'src-traces': { name: 'App traces' } }
    })
    const p = plan(store, traces('logSource: Other logs'))
    expect(change(p, 'Source/App traces').fields).toEqual([
      { path: 'logSource', before: 'App logs', after: 'Other logs' }
    ])
    await apply(store, p)
    expect(store.sent().map(r => [r.method, r.id, r.body?.logSourceId])).toEqual([
      ['PUT', 'src-traces', 'src-other']
    ])
  })

  it('adopting an unowned source of the same name sends no request: the registry records it', async () => {
    const store = new RecordStore({ connections: [WAREHOUSE], sources: [storedLogs()] })
    const p = plan(store, logs('adopt: true'))
    expect(change(p, 'Source/App logs')).toMatchObject({
      action: 'update',
      fields: [{ path: 'owner', after: TAG }]
    })
    await apply(store, p)
    expect(store.sent()).toEqual([])
    expect(plan(store, logs()).outcome.registry.entry('Source', 'src-logs')).toStrictEqual({
      name: 'App logs'
    })
    expect(actions(plan(store, logs()))).toEqual([])
  })

  it('a rename through an id pin updates the source and the name the registry keeps', async () => {
    const store = ownedLogs()
    const yaml = logs('id: src-logs').replace('name: App logs', 'name: Service logs')
    const p = plan(store, yaml)
    expect(change(p, 'Source/Service logs').fields).toEqual([
      { path: 'name', before: 'App logs', after: 'Service logs' }
    ])
    await apply(store, p)
    expect(store.sent().map(r => [r.method, r.id, r.body?.name])).toEqual([
      ['PUT', 'src-logs', 'Service logs']
    ])
    expect(plan(store, yaml).outcome.registry.entry('Source', 'src-logs')).toStrictEqual({
      name: 'Service logs'
    })
  })

  it('a source no manifest declares is deleted with prune, and forgotten by the registry', async () => {
    const store = ownedLogs()
    const p = plan(store, '')
    expect(change(p, 'Source/App logs@src-logs').action).toBe('delete')
    await apply(store, p)
    expect(store.sent()).toEqual([{ method: 'DELETE', collection: 'sources', id: 'src-logs' }])
    expect(plan(store, '').outcome.registry.owns('Source', 'src-logs')).toBe(false)
  })
})

describe('the live side as the plan reads it', () => {
  it('reads the sources list; the owner is the registry’s, references are labels, computed fields dropped', async () => {
    const store = ownedLogs({
      traceSourceId: 'src-gone',
      createdAt: 'x',
      connection: null,
      metadataMaterializedViews: null
    })
    expect((await sourceKind.live!.read(store.api(), { service: false })) as unknown[]).toEqual(
      store.live().Source
    )
    const p = plan(store, '')
    const [live] = p.outcome.planned.filter(pc => pc.change.kind === 'Source')
    expect(live!.change.fields).toEqual([
      { path: 'defaultTableSelectExpression', before: 'Timestamp, Body' },
      { path: 'from', before: { databaseName: 'app', tableName: 't' } },
      { path: 'name', before: 'App logs' },
      { path: 'owner', before: TAG },
      { path: 'sourceKind', before: 'log' },
      { path: 'timestampValueExpression', before: 'Timestamp' },
      { path: 'traceSource', before: 'src-gone' }
    ])
  })
})
