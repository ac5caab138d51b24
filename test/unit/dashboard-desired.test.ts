/**
 * What a dashboard's manifest asks the server for (src/kinds/dashboard/desired.ts): each tile body as it will be
 * sent, with data sources and connections resolved by name or by id, and each reference the plan cannot resolve
 * reported at its own field.
 */
import { describe, expect, it } from '@jest/globals'
import type { DesiredDashboard } from '../../src/kinds/dashboard/desired.js'
import type { Desired, PlannedChange } from '../../src/kinds/kind.js'
import { KINDS } from '../../src/kinds/index.js'
import { validateText } from '../../src/manifest/load.js'
import { computePlan } from '../../src/planner/planner.js'
import { shopSettings } from '../support/shop-stack.js'

const SOURCES = [
  { id: 'src-logs', name: 'Logs', kind: 'log' },
  { id: 'src-metrics', name: 'Metrics', kind: 'metric' }
]
const CONNECTIONS = [{ id: 'conn-local', name: 'Local' }]

/** One dashboard of the given tiles (YAML list items) and extra top-level fields, planned with nothing live. */
function plan(tiles: string, extra = '') {
  const manifests = validateText(
    'd.yaml',
    `kind: Dashboard\nname: D\n${extra}${tiles === '' ? '' : `tiles:\n${tiles}`}`,
    'self-hosted'
  )
  expect(manifests.diagnostics.filter(d => d.severity === 'error')).toEqual([])
  const outcome = computePlan({
    command: 'plan',
    settings: shopSettings(),
    manifests,
    live: {
      Dashboard: [],
      Alert: [],
      Source: SOURCES,
      Webhook: [],
      Connection: CONNECTIONS,
      SavedSearch: []
    },
    now: new Date(0),
    kinds: KINDS
  })
  const desired = (
    outcome.planned.find(pc => pc.change.kind === 'Dashboard') as PlannedChange<DesiredDashboard>
  ).desired as Desired<DesiredDashboard>
  return {
    /** Each tile's body as the server will receive it. */
    bodies: desired.value.tiles.map(t => t.body),
    filters: desired.value.filters,
    /** The plan's errors: field and message. */
    errors: outcome.plan.diagnostics.filter(d => d.severity === 'error').map(d => [d.field, d.message])
  }
}

const at = (name: string, body: string) =>
  `  - name: ${name}\n    x: 0\n    y: 0\n    w: 6\n    h: 3\n${body}`
const config = (name: string, lines: string[]) =>
  at(name, `    config:\n${lines.map(l => `      ${l}\n`).join('')}`)
const series = (name: string, items: string[], more = '') =>
  at(name, `${more}    series:\n${items.map(s => `      - ${s}\n`).join('')}`)

describe('a series tile', () => {
  it('sends asRatio as the manifest sets it, and none when it does not', () => {
    const both = [
      '{ type: time, source: Logs, aggFn: count }',
      '{ type: time, source: Logs, aggFn: sum, field: Duration }'
    ]
    const { bodies } = plan(
      series('Ratio', both, '    asRatio: true\n') +
        series('Plain', both, '    asRatio: false\n') +
        series('Unset', both)
    )
    expect(bodies.map(b => b.asRatio)).toEqual([true, false, undefined])
    expect(bodies[2]).not.toHaveProperty('asRatio')
  })

  it('sends each series with the id of its source, named or by id, and a markdown series as its text only', () => {
    const { bodies, errors } = plan(
      series('Time', ['{ type: time, source: Logs, aggFn: count, groupBy: [a] }']) +
        series('Table', ['{ type: table, sourceId: src-metrics, aggFn: count }']) +
        series('Text', ['{ type: markdown, content: "# Hi" }']) +
        series('Number', ['{ type: number, source: Logs, aggFn: count }'])
    )
    expect(errors).toEqual([])
    expect(bodies.flatMap(b => b.series as unknown[])).toStrictEqual([
      {
        type: 'time',
        aggFn: 'count',
        groupBy: ['a'],
        sourceId: 'src-logs',
        where: '',
        whereLanguage: 'lucene'
      },
      {
        type: 'table',
        aggFn: 'count',
        sourceId: 'src-metrics',
        where: '',
        whereLanguage: 'lucene',
        groupBy: []
      },
      { type: 'markdown', content: '# Hi' },
      // Only time and table series need a groupBy.
      { type: 'number', aggFn: 'count', sourceId: 'src-logs', where: '', whereLanguage: 'lucene' }
    ])
  })

  it('an unknown source id is an error at the series’ sourceId', () => {
    const { errors } = plan(series('S', ['{ type: number, sourceId: src-nope, aggFn: count }']))
    expect(errors).toEqual([['tiles[0].series[0].sourceId', 'no data source with id "src-nope"']])
  })
})

describe('a dashboard without tiles', () => {
  it('sends none', () => {
    expect(plan('').bodies).toEqual([])
  })
})

describe('a config tile', () => {
  it('by source id: sent as it is; an unknown id is an error at its sourceId', () => {
    const ok = plan(config('T', ['displayType: line', 'sourceId: src-metrics', 'select: [{ aggFn: count }]']))
    expect(ok.errors).toEqual([])
    expect(ok.bodies[0]!.config).toMatchObject({ sourceId: 'src-metrics' })
    const bad = plan(config('T', ['displayType: line', 'sourceId: src-nope', 'select: [{ aggFn: count }]']))
    expect(bad.errors).toEqual([['tiles[0].config.sourceId', 'no data source with id "src-nope"']])
  })

  it('sends Value for a metric item without a value expression (the v2 schema wants one; the renderer ignores it)', () => {
    const { bodies } = plan(
      config('Metrics', [
        'displayType: line',
        'source: Metrics',
        'select:',
        '  - { aggFn: avg, metricName: nodejs.eventloop.delay.p99, metricType: gauge }',
        '  - { aggFn: sum, metricName: jvm.cpu.time, metricType: sum, valueExpression: "Value * 2" }',
        '  - { aggFn: count, metricName: http.server.duration, metricType: histogram }'
      ]) +
        series('Series', [
          '{ type: time, source: Metrics, aggFn: avg, metricName: go.memory.used, metricDataType: sum }'
        ])
    )
    expect((bodies[0]!.config as { select: unknown[] }).select).toStrictEqual([
      {
        aggFn: 'avg',
        metricName: 'nodejs.eventloop.delay.p99',
        metricType: 'gauge',
        where: '',
        whereLanguage: 'lucene',
        valueExpression: 'Value'
      },
      {
        aggFn: 'sum',
        metricName: 'jvm.cpu.time',
        metricType: 'sum',
        valueExpression: 'Value * 2',
        where: '',
        whereLanguage: 'lucene'
      },
      // A count takes none.
      {
        aggFn: 'count',
        metricName: 'http.server.duration',
        metricType: 'histogram',
        where: '',
        whereLanguage: 'lucene'
      }
    ])
    // The series form needs none: the server takes a series without `field` and stores ''.
    expect((bodies[1]!.series as Array<Record<string, unknown>>)[0]).not.toHaveProperty('field')
  })

  it('sends a list groupBy as one comma-separated expression, a text one as it is', () => {
    const { bodies } = plan(
      config('List', ['displayType: line', 'source: Logs', 'select: [{ aggFn: count }]', 'groupBy: [a, b]']) +
        config('Text', ['displayType: line', 'source: Logs', 'select: [{ aggFn: count }]', 'groupBy: "a, b"'])
    )
    expect(bodies.map(b => (b.config as { groupBy: unknown }).groupBy)).toEqual(['a,b', 'a, b'])
  })

  it('a search tile sends its select list as one expression, a text select as it is', () => {
    const { bodies } = plan(
      config('S', ['displayType: search', 'source: Logs', 'select: [a, b]']) +
        config('T', ['displayType: search', 'source: Logs', 'select: "a"'])
    )
    expect(bodies.map(b => b.config)).toEqual([
      { displayType: 'search', sourceId: 'src-logs', select: 'a, b', whereLanguage: 'lucene' },
      { displayType: 'search', sourceId: 'src-logs', select: 'a', whereLanguage: 'lucene' }
    ])
  })
})

describe('a raw SQL tile', () => {
  const sql = (connection: string, more: string[] = []) =>
    config('Q', ['configType: sql', 'displayType: table', connection, 'sqlTemplate: "SELECT 1"', ...more])

  it('sends the id of its connection, named or by id, and no connection name', () => {
    for (const ref of ['connection: Local', 'connectionId: conn-local']) {
      const { bodies, errors } = plan(sql(ref))
      expect(errors).toEqual([])
      expect(bodies[0]!.config).toStrictEqual({
        configType: 'sql',
        displayType: 'table',
        connectionId: 'conn-local',
        sqlTemplate: 'SELECT 1'
      })
    }
  })

  it('with a data source sends its id too', () => {
    const { bodies } = plan(sql('connection: Local', ['source: Logs']))
    expect(bodies[0]!.config).toMatchObject({ connectionId: 'conn-local', sourceId: 'src-logs' })
    expect(bodies[0]!.config).not.toHaveProperty('source')
  })

  it('an unknown connection is an error at the field that names it', () => {
    expect(plan(sql('connection: Remote')).errors).toEqual([
      ['tiles[0].config.connection', 'no connection named "Remote"; known: Local']
    ])
    expect(plan(sql('connectionId: conn-x')).errors).toEqual([
      ['tiles[0].config.connectionId', 'no connection with id "conn-x"']
    ])
  })
})

describe('a filter', () => {
  it('by source id and applied to sources by id: sent as they are; an unknown id is an error at its field', () => {
    const tile = config('T', ['displayType: line', 'source: Logs', 'select: [{ aggFn: count }]'])
    const filter = (source: string, applies: string) =>
      `filters:\n  - name: F\n    expression: X\n    ${source}\n    appliesToSourceIds: [${applies}]\n`
    const ok = plan(tile, filter('sourceId: src-logs', 'src-metrics, src-logs'))
    expect(ok.errors).toEqual([])
    expect(ok.filters).toEqual([
      {
        type: 'QUERY_EXPRESSION',
        name: 'F',
        expression: 'X',
        sourceId: 'src-logs',
        appliesToSourceIds: ['src-metrics', 'src-logs']
      }
    ])
    expect(plan(tile, filter('sourceId: src-nope', 'src-logs, src-gone')).errors).toEqual([
      ['filters[0].appliesToSourceIds[1]', 'no data source with id "src-gone"'],
      ['filters[0].sourceId', 'no data source with id "src-nope"']
    ])
  })
})
