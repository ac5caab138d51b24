/**
 * The whole tile, dashboard and alert language, offline: heatmap and event-pattern tiles, formulas, number tiles with
 * several operands, colours, table link-outs, containers and tabs, dashboard filters, saved queries and alert
 * schedules. Each rule is the server's (common-utils dashboardValidation.ts, core/formula.ts, types.ts; utils/zod.ts),
 * or stricter where the server would keep something that shows as a change on every plan.
 */
import { describe, expect, it } from '@jest/globals'
import { validateText } from '../../src/manifest/load.js'
import { formulaProblem } from '../../src/manifest/formula.js'

/** `field: message` of every error. */
function problems(text: string, mode: 'self-hosted' | 'managed' = 'self-hosted'): string[] {
  return validateText('m.yaml', text, mode)
    .diagnostics.filter(d => d.severity === 'error')
    .map(d => `${d.field ?? '-'}: ${d.message}`)
}

/** A dashboard with one tile T whose config is `config` (YAML flow or block lines, indented by 6). */
const configTile = (config: string, dashboard = '') => `kind: Dashboard
name: D
${dashboard}tiles:
  - name: T
    x: 0
    y: 0
    w: 6
    h: 3
    config:
${config
  .trim()
  .split('\n')
  .map(l => `      ${l}`)
  .join('\n')}
`

describe('tiles', () => {
  it('heatmap: one value item, a source, a filter', () => {
    expect(
      problems(
        configTile(`displayType: heatmap
source: Traces
select: [{ valueExpression: Duration, countExpression: count(), heatmapScaleType: log }]
where: 'service:cart'`)
      )
    ).toEqual([])
    expect(
      problems(
        configTile(
          `displayType: heatmap\nsource: Traces\nselect: [{ valueExpression: '' }, { valueExpression: x }]`
        )
      )
    ).toEqual(['tiles[0].config.select: needs exactly one item: the value to bucket'])
    expect(
      problems(configTile(`displayType: heatmap\nsource: Traces\nselect: [{ valueExpression: '' }]`))
    ).toEqual(['tiles[0].config.select[0].valueExpression: must not be empty'])
    expect(
      problems(
        configTile(`displayType: heatmap\nsource: Traces\nselect: [{ valueExpression: x, aggFn: count }]`)
      )
    ).toEqual([
      'tiles[0].config.select[0].aggFn: unknown field "aggFn"; known fields: valueExpression, countExpression, heatmapScaleType'
    ])
  })

  it('event_patterns: a source, and optionally the expression to group and a filter', () => {
    expect(problems(configTile('displayType: event_patterns\nsource: Logs'))).toEqual([])
    expect(
      problems(configTile("displayType: event_patterns\nsource: Logs\nselect: Body\nwhere: 'level:'"))
    ).toEqual([
      'tiles[0].config.where: Lucene syntax error at column 7 of the expression: unexpected end of input'
    ])
  })

  it('formulas name existing select items; number tiles take several operands only with a formula', () => {
    const number = (
      formulas: string,
      select = '[{ aggFn: count, where: "level:error" }, { aggFn: count }]'
    ) => configTile(`displayType: number\nsource: Logs\nselect: ${select}${formulas}`)
    expect(problems(number('\nformulas: [{ expression: "A / B * 100", alias: error rate }]'))).toEqual([])
    expect(problems(number(''))).toEqual([
      'tiles[0].config.select: a number tile without a formula shows one select item: use one, or add a formula over them'
    ])
    expect(problems(number('\nformulas: [{ expression: "A / C" }]'))).toEqual([
      "tiles[0].config.formulas[0].expression: formula names C, but the tile's select items are A to B"
    ])
    expect(problems(number('\nformulas: [{ expression: "A" }, { expression: "B" }]'))).toEqual([
      'tiles[0].config.formulas: a number tile shows one value: at most one formula'
    ])
    expect(problems(number('\ncolor: chart-red\nshowOperandSeries: false', '[{ aggFn: count }]'))).toEqual([
      'tiles[0].config.showOperandSeries: unknown field "showOperandSeries"; known fields: displayType, source, sourceId, select, numberFormat, formulas, color, colorRules, backgroundChart, configType'
    ])
  })

  it('line and table formulas: not with asRatio; showOperandSeries only with formulas', () => {
    const line = (extra: string) =>
      configTile(
        `displayType: line\nsource: Logs\nselect: [{ aggFn: count }, { aggFn: count, where: "level:error" }]\n${extra}`
      )
    expect(problems(line('formulas: [{ expression: "B / A" }]\nshowOperandSeries: false'))).toEqual([])
    expect(problems(line('formulas: [{ expression: "B / A" }]\nasRatio: true'))).toEqual([
      'tiles[0].config.formulas: formulas cannot be combined with asRatio: write the ratio as a formula ("A / B")'
    ])
    expect(problems(line('showOperandSeries: true'))).toEqual([
      'tiles[0].config.showOperandSeries: only applies with formulas (the server drops it otherwise)'
    ])
    expect(problems(line('formulas: [{ expression: "A +" }]'))).toEqual([
      'tiles[0].config.formulas[0].expression: formula expects a number, a series or "(" at the end'
    ])
  })

  it('managed mode has no formulas, no showOperandSeries and no promql', () => {
    expect(
      problems(
        configTile(`displayType: table
source: Logs
select: [{ aggFn: count, whereLanguage: promql, where: up }, { aggFn: count }]
formulas: [{ expression: "A / B" }]
showOperandSeries: false`),
        'managed'
      )
    ).toEqual([
      'tiles[0].config.select[0].whereLanguage: promql is not available in managed mode: the managed API takes lucene and sql',
      'tiles[0].config.formulas: formulas is not part of the managed API: remove it in managed mode',
      'tiles[0].config.showOperandSeries: showOperandSeries is not part of the managed API: remove it in managed mode'
    ])
  })

  it('number colours: palette tokens, rules by operator, a sparkline', () => {
    const number = (extra: string) =>
      configTile(`displayType: number\nsource: Logs\nselect: [{ aggFn: count }]\n${extra}`)
    expect(
      problems(
        number(`color: chart-blue
colorRules:
  - { operator: gt, value: 100, color: chart-red, label: high }
  - { operator: between, value: [10, 100], color: chart-warning }
  - { operator: eq, value: ok, color: chart-success }
backgroundChart: { type: area, color: chart-gray }`)
      )
    ).toEqual([])
    expect(
      problems(number('color: "#ff0000"\ncolorRules: [{ operator: between, value: [1], color: chart-1 }]'))
    ).toEqual([
      'tiles[0].config.color: must be one of chart-blue, chart-orange, chart-red, chart-cyan, chart-green, chart-pink, chart-purple, chart-light-blue, chart-brown, chart-gray, chart-success, chart-warning, chart-error, got "#ff0000"',
      'tiles[0].config.colorRules[0].value: must be two numbers: [from, to]',
      expect.stringMatching(
        /^tiles\[0\]\.config\.colorRules\[0\]\.color: must be one of chart-blue, .*got "chart-1"/
      )
    ])
  })

  it('table link-outs: a dashboard or source by name or id, or a template', () => {
    const table = (onClick: string) =>
      configTile(
        `displayType: table\nsource: Logs\nselect: [{ aggFn: count }]\ngroupBy: service\nonClick: ${onClick}`
      )
    expect(problems(table('{ type: dashboard, target: { mode: id, dashboard: Checkout } }'))).toEqual([])
    expect(
      problems(
        table(
          '{ type: search, target: { mode: id, source: Logs }, whereTemplate: "service:{{service}}", filters: [{ kind: expressionTemplate, expression: ServiceName, template: "{{service}}" }] }'
        )
      )
    ).toEqual([])
    expect(
      problems(table('{ type: dashboard, target: { mode: template, template: "{{service}} overview" } }'))
    ).toEqual([])
    expect(
      problems(table('{ type: external, urlTemplate: "https://runbooks.example.com/{{service}}" }'))
    ).toEqual([])
    expect(problems(table('{ type: dashboard, target: { mode: id } }'))).toEqual([
      'tiles[0].config.onClick.target: mode id needs the dashboard: `dashboard` (by name) or `id`'
    ])
    expect(problems(table('{ type: search, target: { mode: id, dashboard: Checkout } }'))).toEqual([
      'tiles[0].config.onClick.target: mode id needs the data source: `source` (by name) or `id`',
      'tiles[0].config.onClick.target.dashboard: a search link names its target with `source`, not `dashboard`'
    ])
    expect(problems(table('{ type: dashboard, target: { mode: template, id: x } }'))).toEqual([
      'tiles[0].config.onClick.target: mode template needs `template`',
      'tiles[0].config.onClick.target.id: only with mode id (this target is a template)'
    ])
  })
})

describe('dashboard level', () => {
  const dashboard = (head: string, tileExtra = '') => `kind: Dashboard
name: D
${head}
tiles:
  - name: T
    x: 0
    y: 0
    w: 6
    h: 3
    series: [{ type: time, source: Logs, aggFn: count }]
${tileExtra}`

  it('containers and tabs, referred to by title', () => {
    const head = `containers:
  - title: Overview
    tabs: [{ title: Errors }, { title: Latency }]
  - { title: Details, collapsed: true, collapsible: true, bordered: false }`
    expect(problems(dashboard(head, '    container: Overview\n    tab: Latency\n'))).toEqual([])
    expect(problems(dashboard(head, '    container: Overveiw\n'))).toEqual([
      'tiles[0].container: no container titled "Overveiw" in `containers` (did you mean "Overview"?)'
    ])
    expect(problems(dashboard(head, '    container: Details\n    tab: Errors\n'))).toEqual([
      'tiles[0].tab: container "Details" has no tab titled "Errors"'
    ])
    expect(problems(dashboard(head, '    tab: Errors\n'))).toEqual([
      'tiles[0].tab: needs `container`: the container the tab belongs to'
    ])
    expect(
      problems(dashboard('containers: [{ title: A, tabs: [{ title: x }, { title: x }] }, { title: A }]'))
    ).toEqual([
      'containers[0].tabs[1].title: duplicate tab title "x" in container "A"',
      'containers[1].title: duplicate container title "A": tiles name containers by title'
    ])
  })

  it('filters: a source, broadcast or variable, unique variable names, gated fields', () => {
    expect(
      problems(
        dashboard(`filters:
  - { name: Service, expression: ServiceName, source: Logs, appliesToSources: [Logs, Traces] }
  - { name: Level, expression: SeverityText, sourceId: 65a1f0c2b3d4e5f6a7b8c901, where: 'level:*', isVariableEnabled: true }
  - { type: QUERY_EXPRESSION, name: Env, expression: env, source: Metrics, sourceMetricType: gauge, isVariableEnabled: true, variableName: environment, isBroadcastEnabled: false }`)
      )
    ).toEqual([])
    expect(
      problems(
        dashboard(`filters:
  - { name: A, expression: x }
  - { name: B b, expression: x, source: Logs, isVariableEnabled: true }
  - { name: B_b, expression: x, source: Logs, isVariableEnabled: true }
  - { name: C, expression: x, source: Logs, isBroadcastEnabled: false, appliesToSources: [Logs] }
  - { name: D, expression: x, source: Logs, variableName: d }`)
      )
    ).toEqual([
      'filters[0]: needs a data source: `source` (by name) or `sourceId`',
      'filters[2].variableName: variable name "B_b" is also filters[1]\'s: they must be unique',
      'filters[3].isBroadcastEnabled: filter "C" must broadcast its value, be a variable (isVariableEnabled: true), or both',
      'filters[3].appliesToSources: needs a filter that broadcasts its value (isBroadcastEnabled is false)',
      'filters[4].variableName: needs `isVariableEnabled: true` (the server ignores it otherwise)'
    ])
    expect(
      problems(
        dashboard('filters: [{ name: S, expression: x, source: Logs, isBroadcastEnabled: true }]'),
        'managed'
      )
    ).toEqual([
      "filters[0].isBroadcastEnabled: isBroadcastEnabled is not part of the managed API's filters: remove it in managed mode"
    ])
  })

  it('saved query in its language (Lucene checked offline), saved filter values', () => {
    expect(
      problems(
        dashboard(`savedQuery: 'service:cart'
savedFilterValues: [{ condition: "ServiceName IN ('cart')" }, { type: sql, condition: x }]`)
      )
    ).toEqual([])
    expect(problems(dashboard("savedQuery: 'service:'"))).toEqual([
      'savedQuery: Lucene syntax error at column 9 of the expression: unexpected end of input'
    ])
    expect(problems(dashboard("savedQuery: 'x = 1'\nsavedQueryLanguage: sql"))).toEqual([])
    expect(problems(dashboard("savedQuery: 'up'\nsavedQueryLanguage: promql"), 'managed')).toEqual([
      'savedQueryLanguage: promql is not available in managed mode: the managed API takes lucene and sql'
    ])
  })
})

describe('alert schedule', () => {
  const alert = (extra: string, interval = '5m') => `kind: Dashboard
name: D
tiles:
  - name: T
    x: 0
    y: 0
    w: 6
    h: 3
    series: [{ type: time, source: Logs, aggFn: count }]
---
kind: Alert
name: A
dashboard: D
tile: T
threshold: 1
thresholdType: above
interval: ${interval}
channel: { type: webhook, webhook: ops-pager }
${extra}
`
  const iso = (ms: number) => new Date(ms).toISOString()

  it('an offset below the interval, and 0 with a start date within the allowed range', () => {
    expect(problems(alert('scheduleOffsetMinutes: 4'))).toEqual([])
    expect(problems(alert(`scheduleStartAt: '${iso(Date.now() + 86_400_000)}'`))).toEqual([])
    expect(problems(alert('scheduleOffsetMinutes: 5'))).toEqual([
      'scheduleOffsetMinutes: must be less than the interval (5m is 5 minutes)'
    ])
    expect(problems(alert('scheduleOffsetMinutes: 1', '1m'))).toEqual([
      'scheduleOffsetMinutes: must be less than the interval (1m is 1 minute)'
    ])
    expect(problems(alert(`scheduleOffsetMinutes: 2\nscheduleStartAt: '${iso(Date.now())}'`))).toEqual([
      'scheduleOffsetMinutes: must be 0 (or left out) with scheduleStartAt: the start date aligns the windows'
    ])
    expect(problems(alert(`scheduleStartAt: '${iso(Date.now() + 400 * 86_400_000)}'`))).toEqual([
      'scheduleStartAt: must be within a year from now'
    ])
    expect(problems(alert(`scheduleStartAt: '${iso(Date.now() - 11 * 366 * 86_400_000)}'`))).toEqual([
      'scheduleStartAt: must be within ten years in the past'
    ])
    expect(problems(alert("scheduleStartAt: '2026-01-01T10:00:00+02:00'"))).toEqual([
      'scheduleStartAt: must be a UTC date and time like 2026-01-01T10:00:00Z'
    ])
    expect(problems(alert('scheduleOffsetMinutes: 1440', '1d'))).toEqual([
      'scheduleOffsetMinutes: must be between 0 and 1439',
      'scheduleOffsetMinutes: must be less than the interval (1d is 1440 minutes)'
    ])
  })
})

describe('the formula grammar (core/formula.ts)', () => {
  it.each([
    ['A / (A + B + C) * 100', 3, undefined],
    ['-A * -.5 + 2.', 1, undefined],
    ['((A))', 1, undefined],
    ['', 2, 'is empty'],
    ['2 * 3', 2, 'names no series: use the select items as A, B, ...'],
    [
      'AB',
      2,
      '"AB" at column 1 is not a series: series are single capital letters (A, B, ...), and functions are not supported'
    ],
    [
      'a + 1',
      2,
      '"a" at column 1 is not a series: series are single capital letters (A, B, ...), and functions are not supported'
    ],
    ['A % B', 2, '"%" at column 3 is not part of a formula'],
    ['(A + B', 2, 'misses a closing parenthesis at the end'],
    ['A + B)', 2, 'has an unexpected ")" at column 6'],
    ['A B', 2, 'has an unexpected "B" at column 3'],
    ['Z', 0, "names Z, but the tile's select items are none"],
    [`${'('.repeat(64)}A${')'.repeat(64)}`, 1, undefined],
    [`${'('.repeat(65)}A${')'.repeat(65)}`, 1, 'is nested more than 64 levels deep']
  ])('%s', (expression, count, problem) => {
    expect(formulaProblem(expression, count)).toBe(problem)
  })
})
