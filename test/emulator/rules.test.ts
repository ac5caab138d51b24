/**
 * The emulator's request rules (emulator/rules) on their own: the value sets against the published OpenAPI documents
 * (test data), and the rules for fields the manifest language does not model yet, each with the real server's text
 * (docs/server-rules.md). The rules a manifest can break are covered end to end by test/scenario/server-rules-table.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from '@jest/globals'
import {
  alertHandlerProblem,
  dashboardHandlerProblem,
  parseAlertBody,
  parseChartQuery,
  parseDashboardBody,
  type DashboardBody,
  type Parsed,
  type RuleMode
} from '../../emulator/rules/index.js'
import * as V from '../../emulator/rules/vocabulary.js'
import { CONNECTION, LOGS, METRICS, OPS_PAGER, TEAM_SLACK, TRACES } from './helpers.js'

type Schemas = Record<string, { enum?: unknown[]; properties?: Record<string, { enum?: unknown[] }> }>
const documentSchemas = (name: string): Schemas =>
  (
    JSON.parse(
      readFileSync(new URL(`../fixtures/openapi/${name}.openapi.json`, import.meta.url), 'utf8')
    ) as {
      components: { schemas: Schemas }
    }
  ).components.schemas
const selfHosted = documentSchemas('self-hosted-v2')
const managed = documentSchemas('managed-cloud')
const sorted = (values: readonly unknown[]) => [...values].map(String).sort()

const text = (parsed: Parsed) =>
  parsed.ok ? 'ok' : parsed.issues.map(i => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')
const place = { name: 'T', x: 0, y: 0, w: 6, h: 3 }
const dashboard = (tiles: object[], extra: object = {}) => ({ name: 'D', tiles, ...extra })
const configTile = (config: object, extra: object = {}) => ({ ...place, config, ...extra })
const line = { displayType: 'line', sourceId: LOGS, select: [{ aggFn: 'count' }] }
const body = (value: unknown, op: 'create' | 'update' = 'create', mode: RuleMode = 'self-hosted') =>
  text(parseDashboardBody(value, op, mode))

describe('value sets agree with the published documents', () => {
  it('number formats, palette, quantile levels, alert enums: as in both documents', () => {
    expect(sorted(V.NUMBER_FORMAT_OUTPUTS)).toEqual(sorted(selfHosted.NumberFormatOutput!.enum!))
    expect(sorted(V.NUMBER_FORMAT_OUTPUTS)).toEqual(
      sorted(managed.ClickStackNumberFormat!.properties!.output!.enum!)
    )
    expect(sorted(V.NUMERIC_UNITS)).toEqual(
      sorted(managed.ClickStackNumberFormat!.properties!.numericUnit!.enum!)
    )
    expect(sorted(V.PALETTE_TOKENS)).toEqual(sorted(selfHosted.ChartPaletteToken!.enum!))
    expect(sorted(V.QUANTILE_LEVELS)).toEqual(sorted(selfHosted.QuantileLevel!.enum!))
    expect(sorted(V.THRESHOLD_TYPES)).toEqual(sorted(selfHosted.AlertThresholdType!.enum!))
    expect(sorted(Object.keys(V.ALERT_INTERVAL_MINUTES))).toEqual(sorted(selfHosted.AlertInterval!.enum!))
    expect(sorted(V.METRIC_DATA_TYPES)).toEqual(sorted(selfHosted.MetricDataType!.enum!))
  })

  it('aggregation functions: the managed document has no increase; the self-hosted source has it (its document lags)', () => {
    expect(sorted(V.MANAGED_AGGREGATE_FUNCTIONS)).toEqual(
      sorted(managed.ClickStackSelectItem!.properties!.aggFn!.enum!)
    )
    expect(sorted(V.AGGREGATE_FUNCTIONS)).toEqual(
      sorted([...selfHosted.AggregationFunction!.enum!, 'increase'])
    )
  })
})

describe('dashboard bodies: fields the manifest language does not model yet', () => {
  it('R84-R86 formulas: parsed against select, one per number tile, not with asRatio', () => {
    const formulas = (list: string[], extra: object = {}) =>
      body(
        dashboard([
          configTile({
            ...line,
            select: [{ aggFn: 'count' }, { aggFn: 'count' }],
            formulas: list.map(expression => ({ expression })),
            ...extra
          })
        ])
      )
    expect(formulas(['A / (A + B) * 100', '-A', '.5 * B'])).toBe('ok')
    expect(formulas(['A + C'])).toBe(
      'tiles.0.config.formulas.0.expression: Unknown series "C" — this chart only has series A through B'
    )
    expect(formulas(['1 + 2'])).toBe(
      'tiles.0.config.formulas.0.expression: Expression must reference at least one series (A, B, C, ...)'
    )
    expect(formulas(['AB'])).toBe(
      'tiles.0.config.formulas.0.expression: Unexpected "AB" — series references are single letters (A, B, C, ...) and functions are not supported'
    )
    expect(formulas(['(A'])).toBe('tiles.0.config.formulas.0.expression: Missing closing parenthesis')
    expect(formulas(['A)'])).toBe('tiles.0.config.formulas.0.expression: Unmatched closing parenthesis')
    expect(formulas(['A %'])).toBe('tiles.0.config.formulas.0.expression: Unexpected character "%"')
    expect(formulas(['A +'])).toBe('tiles.0.config.formulas.0.expression: Unexpected end of expression')
    expect(formulas([' '])).toBe('tiles.0.config.formulas.0.expression: Expression is empty')
    expect(formulas([`${'('.repeat(65)}A${')'.repeat(65)}`])).toBe(
      'tiles.0.config.formulas.0.expression: Expression is nested too deeply (max 64 levels)'
    )
    expect(formulas(['A / B'], { asRatio: true })).toBe(
      'tiles.0.config.formulas: formulas cannot be combined with asRatio; express the ratio as a formula instead (e.g. "A / B")'
    )
    expect(
      body(
        dashboard([
          configTile({
            displayType: 'number',
            sourceId: LOGS,
            select: [{ aggFn: 'count' }, { aggFn: 'count' }],
            formulas: [{ expression: 'A' }, { expression: 'B' }]
          })
        ])
      )
    ).toBe('tiles.0.config.formulas: Number charts support a single formula')
  })

  it('R88-R92 number tile colours', () => {
    const number = (extra: object) =>
      body(
        dashboard([
          configTile({ displayType: 'number', sourceId: LOGS, select: [{ aggFn: 'count' }], ...extra })
        ])
      )
    expect(
      number({
        color: 'chart-red',
        colorRules: [
          { operator: 'gt', value: 5, color: 'chart-error' },
          { operator: 'between', value: [1, 2], color: 'chart-warning', label: 'meh' },
          { operator: 'eq', value: 'down', color: 'chart-gray' }
        ],
        backgroundChart: { type: 'area' }
      })
    ).toBe('ok')
    expect(number({ color: 'chart-1' })).toMatch(
      /^tiles\.0\.config\.color: Invalid enum value\. Expected 'chart-blue' \| /
    )
    expect(number({ colorRules: [{ operator: 'regex', value: 'x', color: 'chart-red' }] })).toBe(
      "tiles.0.config.colorRules.0.operator: Invalid discriminator value. Expected 'gt' | 'gte' | 'lt' | 'lte' | 'between' | 'eq' | 'neq'"
    )
    expect(number({ colorRules: [{ operator: 'between', value: [1], color: 'chart-red' }] })).toBe(
      'tiles.0.config.colorRules.0.value: Array must contain exactly 2 element(s)'
    )
    expect(number({ backgroundChart: {} })).toBe('tiles.0.config.backgroundChart.type: Required')
  })

  it('R102-R105 raw SQL tiles: a connection and a template', () => {
    const raw = (config: object) =>
      body(dashboard([configTile({ configType: 'sql', displayType: 'line', ...config })]))
    expect(raw({ connectionId: CONNECTION, sqlTemplate: 'SELECT 1' })).toBe('ok')
    expect(raw({ sqlTemplate: 'SELECT 1' })).toBe('tiles.0.config.connectionId: Required')
    expect(
      body(
        dashboard([
          configTile({ configType: 'sql', displayType: 'search', connectionId: CONNECTION, sqlTemplate: '' })
        ])
      )
    ).toBe(
      "tiles.0.config.displayType: Invalid discriminator value. Expected 'line' | 'stacked_bar' | 'table' | 'number' | 'pie' | 'bar'"
    )
  })

  it('R106-R109 onClick link-outs of table tiles', () => {
    const table = (onClick: object) =>
      body(
        dashboard([
          configTile({ displayType: 'table', sourceId: LOGS, select: [{ aggFn: 'count' }], onClick })
        ])
      )
    expect(table({ type: 'search', target: { mode: 'template', template: '{{x}}' } })).toBe('ok')
    expect(table({ type: 'dashboard', target: { mode: 'id', id: 'nope' } })).toBe(
      'tiles.0.config.onClick.target.id: Invalid ObjectId'
    )
    expect(table({ type: 'external' })).toBe('tiles.0.config.onClick.urlTemplate: Required')
    expect(
      table({
        type: 'search',
        target: { mode: 'template', template: 'x' },
        filters: [{ kind: 'expressionTemplate', expression: '', template: 'y' }]
      })
    ).toBe('tiles.0.config.onClick.filters.0.expression: Expression is required')
  })

  it('R21-R37 filters: strict, ids on PUT only, variable and broadcast rules; managed filters have no variables', () => {
    const filter = { type: 'QUERY_EXPRESSION', name: 'Service', expression: 'ServiceName', sourceId: LOGS }
    expect(body(dashboard([], { filters: [filter] }))).toBe('ok')
    expect(body(dashboard([], { filters: [{ ...filter, id: 'f1' }] }))).toBe(
      "filters.0: Unrecognized key(s) in object: 'id'"
    )
    expect(body(dashboard([], { filters: [filter] }), 'update')).toBe('filters.0.id: Required')
    expect(body(dashboard([], { filters: [{ ...filter, isBroadcastEnabled: false }] }))).toBe(
      'filters.0.isBroadcastEnabled: Filter "Service" must broadcast its value, be available as a variable, or both'
    )
    expect(body(dashboard([], { filters: [{ ...filter, variableName: 'svc' }] }))).toBe(
      'filters.0.variableName: Filter "Service" sets variableName but is not available as a variable; set isVariableEnabled to true or drop variableName'
    )
    expect(
      body(
        dashboard([], {
          filters: [
            { ...filter, isVariableEnabled: true },
            { ...filter, name: 'Service ', isVariableEnabled: true }
          ]
        })
      )
    ).toBe('filters.1.variableName: Variable names must be unique: "Service"')
    expect(
      body(dashboard([], { filters: [{ ...filter, isVariableEnabled: true }] }), 'create', 'managed')
    ).toBe("filters.0: Unrecognized key(s) in object: 'isVariableEnabled'")
  })

  it('R11, R14-R20 saved query and containers', () => {
    expect(body(dashboard([], { savedQuery: 'level:error', savedQueryLanguage: null }))).toBe(
      'savedQueryLanguage: savedQueryLanguage cannot be null when savedQuery is provided'
    )
    const container = {
      id: 'c',
      title: 'Group',
      collapsed: false,
      tabs: [
        { id: 't', title: 'Tab' },
        { id: 't', title: 'Again' }
      ]
    }
    expect(body(dashboard([], { containers: [container, { ...container, tabs: [] }] }))).toBe(
      'containers.0.tabs.1.id: Duplicate tab id "t" in container "c"; containers.1.id: Container IDs must be unique: "c"'
    )
    expect(body(dashboard([], { containers: [{ id: 'c', title: 'Group' }] }))).toBe(
      'containers.0.collapsed: Required'
    )
  })

  it('R39, R45, R46 the tile envelope', () => {
    expect(body(dashboard([{ ...place, config: line, series: [] }]))).toBe(
      // zod 3 goes on after a length issue, so the tile's own rule reports too.
      'tiles.0.series: Array must contain at least 1 element(s); tiles.0: Tile cannot have both series and config'
    )
    expect(body(dashboard([{ ...place }]))).toBe('tiles.0: Tile must have either series or config')
    expect(body(dashboard([configTile(line, { asRatio: false })]))).toBe(
      'tiles.0: asRatio property is not supported when using config property. Specify config.asRatio instead.'
    )
    expect(body(dashboard([configTile(line, { id: 'x'.repeat(37) })]))).toBe(
      'tiles.0.id: String must contain at most 36 character(s)'
    )
  })

  it('managed tiles: integer grid, required whereLanguage on series and search configs', () => {
    expect(body(dashboard([configTile(line, { x: 1.5 })]), 'create', 'managed')).toBe(
      'tiles.0.x: Expected integer, received float'
    )
    expect(body(dashboard([configTile(line, { x: 1.5 })]))).toBe('ok')
    expect(
      body(
        dashboard([configTile({ displayType: 'search', sourceId: LOGS, select: '' })]),
        'create',
        'managed'
      )
    ).toBe('tiles.0.config.whereLanguage: Required')
    expect(
      body(
        dashboard([
          {
            ...place,
            series: [
              {
                type: 'time',
                sourceId: LOGS,
                aggFn: 'count',
                where: '',
                groupBy: [],
                whereLanguage: 'promql'
              }
            ]
          }
        ]),
        'create',
        'managed'
      )
    ).toBe("tiles.0.series.0.whereLanguage: Invalid enum value. Expected 'sql' | 'lucene', received 'promql'")
  })
})

describe("the handler's checks after the body (udash validateDashboardTiles), in its order", () => {
  const sources = [
    { id: LOGS, kind: 'log', connection: CONNECTION },
    { id: TRACES, kind: 'trace', connection: CONNECTION },
    { id: METRICS, kind: 'metric', connection: CONNECTION }
  ]
  const problem = (value: object, existing?: Parameters<typeof dashboardHandlerProblem>[1]['existing']) => {
    const parsed = parseDashboardBody(value, existing ? 'update' : 'create', 'self-hosted')
    if (!parsed.ok) throw new Error(text(parsed))
    return dashboardHandlerProblem(parsed.data as DashboardBody, {
      sources,
      dashboardIds: new Set(),
      existing
    })
  }
  const UNKNOWN = '65a1f0c2b3d4e5f6a7b8c9ff'

  it('container refs first, then sources, connections, source kinds and onClick targets', () => {
    expect(problem(dashboard([configTile(line, { containerId: 'nope', tabId: 't' })]))).toBe(
      'tiles.0.containerId: Tile references unknown containerId "nope"'
    )
    expect(problem(dashboard([configTile({ ...line, sourceId: UNKNOWN })], { filters: [] }))).toBe(
      `Could not find the following source IDs: ${UNKNOWN}`
    )
    expect(
      problem(
        dashboard([
          configTile({ configType: 'sql', displayType: 'table', connectionId: UNKNOWN, sqlTemplate: 'x' })
        ])
      )
    ).toBe(`Could not find the following connection IDs: ${UNKNOWN}`)
    const heatmap = { displayType: 'heatmap', sourceId: LOGS, select: [{ valueExpression: 'Duration' }] }
    expect(problem(dashboard([configTile(heatmap)]))).toBe(
      `Heatmap tiles require a Trace source. The following source IDs are not Trace sources: ${LOGS}`
    )
    // On PUT, a heatmap tile that was already on that source is not checked again.
    expect(
      problem(dashboard([configTile(heatmap, { id: 'h' })]), { tiles: [{ id: 'h', config: heatmap }] })
    ).toBeUndefined()
    expect(
      problem(
        dashboard([
          configTile({
            displayType: 'table',
            sourceId: LOGS,
            select: [{ aggFn: 'count' }],
            onClick: { type: 'search', target: { mode: 'id', id: METRICS } }
          })
        ])
      )
    ).toBe(`The following onClick search source IDs are not log or trace sources: ${METRICS}`)
  })
})

describe('alert bodies (zod.ts alertSchema, types.ts refinements, controllers/alerts.ts validateAlertInput)', () => {
  const base = {
    source: 'tile',
    dashboardId: LOGS,
    tileId: 't',
    threshold: 1,
    thresholdType: 'above',
    interval: '5m'
  }
  const channel = { type: 'webhook', webhookId: OPS_PAGER }
  const alert = (extra: object, mode: RuleMode = 'self-hosted') =>
    text(parseAlertBody({ ...base, channel, ...extra }, mode))

  it('R128-R130 source picks the branch; without it the body is "Invalid input"', () => {
    expect(alert({})).toBe('ok')
    expect(text(parseAlertBody({ ...base, source: undefined, channel }, 'self-hosted'))).toBe('Invalid input')
    expect(alert({ tileId: '' })).toBe('tileId: String must contain at least 1 character(s)')
  })

  it('R140-R143 channel selection', () => {
    const other = { type: 'webhook', webhookId: TEAM_SLACK }
    expect(alert({ channels: [channel, other] })).toBe('ok')
    expect(alert({ channels: [other, channel] })).toBe(
      'channels: When both "channel" and "channels" are provided, "channel" must match the first entry of "channels"'
    )
    expect(alert({ channels: [channel, channel] })).toBe(
      'channels: Duplicate notification channels are not allowed'
    )
    expect(text(parseAlertBody(base, 'self-hosted'))).toBe('channels: Provide either "channel" or "channels"')
    expect(alert({ channels: Array(11).fill(channel) })).toBe(
      'channels: An alert supports at most 10 notification channels; channels: Duplicate notification channels are not allowed'
    )
    expect(alert({ channel: { type: 'webhook', webhookId: '' } })).toBe(
      "channel.webhookId: Webhook ID can't be empty"
    )
  })

  it('R144-R148 schedule', () => {
    expect(alert({ scheduleOffsetMinutes: 5 })).toBe(
      'scheduleOffsetMinutes: scheduleOffsetMinutes must be less than 5 minutes'
    )
    expect(alert({ interval: '1m', scheduleOffsetMinutes: 1 })).toBe(
      'scheduleOffsetMinutes: scheduleOffsetMinutes must be less than 1 minute'
    )
    expect(alert({ scheduleStartAt: '2026-01-01' })).toBe('scheduleStartAt: Invalid datetime')
    expect(alert({ scheduleStartAt: new Date(Date.now() + 2 * 366 * 86400000).toISOString() })).toBe(
      'scheduleStartAt: scheduleStartAt must be within 1 year from now'
    )
    expect(alert({ scheduleStartAt: new Date().toISOString(), scheduleOffsetMinutes: 2 })).toBe(
      'scheduleOffsetMinutes: scheduleOffsetMinutes must be 0 when scheduleStartAt is provided'
    )
  })

  it('R135 thresholdMax may not be null; managed channels may be email', () => {
    expect(alert({ thresholdMax: null })).toBe('thresholdMax: Expected number, received null')
    expect(alert({ channel: { type: 'email', emailRecipients: ['a@example.com'] } }, 'managed')).toBe('ok')
    expect(alert({ channel: { type: 'email', emailRecipients: [] } })).toMatch(
      /^channel\.type: Invalid literal value, expected "webhook"/
    )
  })

  it('R153-R159 what the alert refers to', () => {
    const parsed = parseAlertBody({ ...base, channel }, 'self-hosted')
    if (!parsed.ok) throw new Error(text(parsed))
    const ctx = (tiles: Array<{ id: string; config: Record<string, unknown> }>, webhooks = [OPS_PAGER]) => ({
      dashboards: new Map([[LOGS, { tiles }]]),
      webhookIds: new Set(webhooks),
      savedSearchIds: new Set<string>()
    })
    expect(alertHandlerProblem(parsed.data, ctx([]))).toBe('Tile not found')
    expect(
      alertHandlerProblem(parsed.data, ctx([{ id: 't', config: { displayType: 'pie' } }]))
    ).toBeUndefined()
    expect(alertHandlerProblem(parsed.data, ctx([{ id: 't', config: { displayType: 'line' } }], []))).toBe(
      'Webhook not found'
    )
    expect(alertHandlerProblem({ ...parsed.data, dashboardId: 'x' }, ctx([]))).toBe('Invalid dashboard ID')
  })
})

describe('chart queries (v2/charts.ts)', () => {
  const series = { sourceId: LOGS, aggFn: 'count', where: '', groupBy: [] }
  it('R218-R223', () => {
    const now = Date.now()
    expect(text(parseChartQuery({ series: [series], startTime: now - 1000, endTime: now }))).toBe('ok')
    expect(
      text(parseChartQuery({ series: Array(6).fill(series), startTime: now - 1000, endTime: now }))
    ).toBe('series: Array must contain at most 5 element(s)')
    expect(text(parseChartQuery({ series: [series], startTime: 1.5, endTime: -1 }))).toBe(
      'endTime: Timestamp must be positive; endTime: Timestamp must be in milliseconds; startTime: Timestamp must be an integer; startTime: Timestamp must be in milliseconds'
    )
  })
})
