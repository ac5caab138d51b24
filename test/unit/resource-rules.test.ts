/**
 * Offline validation of the kinds besides dashboards and alerts against the real server's request rules
 * (docs/server-rules.md R163-R217): each rule a manifest can break is reported at file:line:col, with the
 * server's own words where they help. Test names carry the rule ids.
 */
import { describe, expect, it } from '@jest/globals'
import { validateText } from '../../src/manifest/load.js'

const SECRETS = {
  URL: 'https://hooks.example.com/a',
  TOKEN: 'token-value',
  LOOPBACK: 'http://127.0.0.1:9000/x',
  FTP: 'ftp://hooks.example.com/x',
  NOT_SLACK: 'https://example.com/x',
  PASSWORD: 'pw'
}
const errors = (text: string, mode: 'self-hosted' | 'managed' = 'self-hosted') =>
  validateText('m.yaml', text, mode, { PLAIN: 'x' }, SECRETS)
    .diagnostics.filter(d => d.severity === 'error')
    .map(d => `${d.line}:${d.column} ${d.field}: ${d.message}`)
const doc = (...lines: string[]) => lines.join('\n')

const webhook = (...more: string[]) =>
  doc('kind: Webhook', 'name: hook', 'service: generic', 'url: ${secret.URL}', ...more)
const source = (sourceKind: string, ...more: string[]) =>
  doc(
    'kind: Source',
    'name: src',
    `sourceKind: ${sourceKind}`,
    'connectionId: 65a1f0c2b3d4e5f6a7b8c9c0',
    'from: { databaseName: d, tableName: t }',
    'timestampValueExpression: ts',
    ...more
  )
const search = (...more: string[]) =>
  doc('kind: SavedSearch', 'name: s', 'sourceId: 65a1f0c2b3d4e5f6a7b8c901', ...more)

describe('webhooks (R163-R176)', () => {
  const cases: Array<[string, string, string]> = [
    [
      'R163 name is not empty',
      doc('kind: Webhook', "name: ''", 'service: generic', 'url: ${secret.URL}'),
      '2:7 name: must not be empty'
    ],
    [
      'R164 service',
      doc('kind: Webhook', 'name: a', 'service: teams', 'url: ${secret.URL}'),
      '3:10 service: must be one of slack, generic, incidentio, got "teams"'
    ],
    [
      'R166 the url scheme',
      doc('kind: Webhook', 'name: a', 'service: generic', 'url: ${secret.FTP}'),
      '4:6 url:'
    ],
    [
      'R167 a slack url is on slack.com',
      doc('kind: Webhook', 'name: a', 'service: slack', 'url: ${secret.NOT_SLACK}'),
      "4:6 url: a slack webhook's host must end in slack.com"
    ],
    [
      'R168 no private address',
      doc('kind: Webhook', 'name: a', 'service: generic', 'url: ${secret.LOOPBACK}'),
      '4:6 url: points at a private or reserved address'
    ],
    [
      'R170 description length',
      webhook(`description: ${'x'.repeat(2049)}`),
      '5:14 description: must be at most 2048 characters'
    ],
    ['R171 body length', webhook(`body: ${'x'.repeat(16385)}`), '5:7 body: must be at most 16384 characters'],
    [
      'R173 a header name does not start with a digit',
      webhook("headers: { 1X: '${secret.TOKEN}' }"),
      '5:16 headers.1X: Header name cannot start with a number'
    ],
    [
      'R175 at most 100 query parameters',
      webhook(
        `queryParams: { ${Array.from({ length: 101 }, (_, i) => `k${i}: '\${secret.TOKEN}'`).join(', ')} }`
      ),
      '5:14 queryParams: A webhook cannot have more than 100 query parameters'
    ],
    [
      'R176 slack takes no headers',
      doc(
        'kind: Webhook',
        'name: a',
        'service: slack',
        'url: ${secret.NOT_SLACK}',
        "headers: { X: '${secret.TOKEN}' }"
      ),
      '5:10 headers: headers is not supported for the slack webhook service'
    ]
  ]
  it.each(cases)('%s', (_rule, text, expected) => {
    expect(errors(text).some(e => e.startsWith(expected))).toBe(true)
  })

  it('the url and the header values take only secret placeholders, naming the field', () => {
    expect(
      errors(doc('kind: Webhook', 'name: a', 'service: generic', 'url: https://hooks.example.com/x'))
    ).toEqual([
      '4:6 url: is a secret: write it as `${secret.NAME}` and set NAME as a secret variable (the `secret-vars` input; the CLI: OBSDEPLOY_SECRET_NAME), not as text or a plain `${NAME}`'
    ])
    expect(errors(webhook('headers: { Authorization: "${PLAIN}" }'))[0]).toMatch(
      /^5:27 headers\.Authorization: is a secret/
    )
  })

  it('a valid generic webhook with headers and query parameters validates', () => {
    expect(
      errors(
        webhook("headers: { Authorization: '${secret.TOKEN}' }", "queryParams: { k: '${secret.TOKEN}' }")
      )
    ).toEqual([])
  })
})

describe('sources (R180-R202)', () => {
  it('R180: the kind is one of the server kinds, with a hint', () => {
    expect(errors(source('logs'))).toEqual([
      '3:13 sourceKind: must be one of log, trace, session, metric, promql, got "logs" (did you mean "log"?)'
    ])
  })

  it('R183: a connection, by name or id', () => {
    expect(
      errors(
        doc(
          'kind: Source',
          'name: s',
          'sourceKind: promql',
          'from: { databaseName: d, tableName: t }',
          'timestampValueExpression: ts'
        )
      )
    ).toEqual(['1:1 connection: needs the ClickHouse connection: `connection` (by name) or `connectionId`'])
  })

  it('R185, R187: the database and the timestamp column are required, in the server words', () => {
    expect(errors(source('promql').replace('databaseName: d', "databaseName: ''"))).toEqual([
      '5:23 from.databaseName: Database is required'
    ])
    expect(
      errors(source('promql').replace('timestampValueExpression: ts', "timestampValueExpression: ''"))
    ).toEqual(['6:27 timestampValueExpression: Timestamp Column is required'])
  })

  it('R189: at most 10 query settings', () => {
    const settings = Array.from({ length: 11 }, (_, i) => `{ setting: s${i}, value: v }`).join(', ')
    expect(errors(source('promql', `querySettings: [${settings}]`))).toEqual([
      '7:16 querySettings: at most 10 settings'
    ])
  })

  it('R190, R197: log and trace sources need their expressions', () => {
    expect(errors(source('log'))).toEqual(['1:1 defaultTableSelectExpression: is required'])
    expect(errors(source('trace', 'defaultTableSelectExpression: x'))).toEqual(
      [
        'durationExpression',
        'traceIdExpression',
        'spanIdExpression',
        'parentSpanIdExpression',
        'spanNameExpression',
        'spanKindExpression'
      ].map(f => `1:1 ${f}: is required`)
    )
  })

  it('R193-R195: materialized views: granularity and aggregated columns', () => {
    expect(
      errors(
        source(
          'log',
          'defaultTableSelectExpression: x',
          'materializedViews: [{ databaseName: d, tableName: mv, dimensionColumns: a, minGranularity: 5 minutes, timestampColumn: ts, aggregatedColumns: [] }]'
        )
      )
    ).toEqual([
      '8:92 materializedViews[0].minGranularity: must be a granularity like 15s, 5m, 1h, 1d (or "5 minute")',
      '8:143 materializedViews[0].aggregatedColumns: At least one aggregated column is required'
    ])
  })

  it('R198: the duration precision is 0-9', () => {
    const trace = source(
      'trace',
      'defaultTableSelectExpression: x',
      'durationExpression: d',
      'durationPrecision: 10',
      ...[
        'traceIdExpression',
        'spanIdExpression',
        'parentSpanIdExpression',
        'spanNameExpression',
        'spanKindExpression'
      ].map(f => `${f}: a`)
    )
    expect(errors(trace)).toEqual(['9:20 durationPrecision: must be at most 9'])
  })

  it('R200: a session source needs its trace source', () => {
    expect(errors(source('session'))).toEqual([
      '1:1 traceSource: needs the correlated trace source: `traceSource` (by name) or `traceSourceId`'
    ])
  })

  it('R201: a metric source needs a metric table', () => {
    expect(errors(source('metric', 'metricTables: {}', 'resourceAttributesExpression: r'))).toEqual([
      '7:15 metricTables: At least one metric table must be specified'
    ])
  })
})

describe('connections (R205-R207)', () => {
  const connection = (...more: string[]) =>
    doc('kind: Connection', 'name: c', 'host: http://ch:8123', 'username: u', ...more)
  it('R205: host and username are required', () => {
    expect(errors(doc('kind: Connection', 'name: c', 'username: u'))).toEqual(['1:1 host: is required'])
  })
  it('R206: the password is a secret', () => {
    expect(errors(connection('password: ${secret.PASSWORD}'))).toEqual([])
    expect(errors(connection('password: ${PLAIN}'))[0]).toMatch(/^5:11 password: is a secret/)
  })
  it('R207: the settings prefix is letters, digits and _', () => {
    expect(errors(connection('hyperdxSettingPrefix: a-b'))).toEqual([
      '5:23 hyperdxSettingPrefix: must be letters, digits and _ (the server refuses anything else)'
    ])
  })
  it('the managed API has no connections', () => {
    expect(errors(connection(), 'managed')).toContain(
      '1:7 kind: the managed API has no connections: Connection manifests need self-hosted mode'
    )
  })
})

describe('saved searches (R210-R217)', () => {
  it('R211: a source, by name or id', () => {
    expect(errors(doc('kind: SavedSearch', 'name: s'))).toEqual([
      '1:1 source: needs the source: `source` (by name) or `sourceId`'
    ])
  })
  it('R213: where is at most 8192 characters', () => {
    expect(errors(search(`where: ${'x'.repeat(8193)}`))).toEqual([
      '4:8 where: must be at most 8192 characters'
    ])
  })
  it('R214: whereLanguage is lucene or sql', () => {
    expect(errors(search('whereLanguage: kql'))).toEqual([
      '4:16 whereLanguage: must be one of lucene, sql, got "kql" (did you mean "sql"?)'
    ])
  })
  it('R217: a filter must render in the sidebar', () => {
    expect(errors(search("filters: [{ condition: 'a = 1' }]"))).toEqual([
      "4:24 filters[0].condition: must be one sidebar filter: `<column> IN ('a', ...)`, `<column> NOT IN (...)` or `<column> BETWEEN <n> AND <n>` (the server refuses any other new filter)"
    ])
    expect(
      errors(
        search("filters: [{ condition: \"service IN ('a', 'b')\" }, { condition: 'd BETWEEN 1 AND 5' }]")
      )
    ).toEqual([])
  })
})
