/**
 * Every rule of docs/server-rules.md that a manifest can break, one manifest each: offline validation refuses it at
 * the line marked `# here`, and the same manifest with validation skipped makes the emulator (the real server's rules,
 * emulator/rules) refuse the request with the server's text. If offline validation missed one of these rules, its row
 * would fail here; if the emulator stopped enforcing one, too.
 */
import { describe, expect, it } from '@jest/globals'
import { applyUnchecked, type Mode } from '../../scripts/server-parity.js'
import { validateText } from '../../src/manifest/load.js'
import { call } from '../emulator/helpers.js'
import { errors, obsdeploy, useScenario } from '../support/harness.js'
import { oneTile } from '../support/manifest-text.js'

interface Row {
  rule: string
  mode?: Mode
  /** The manifest; the error is expected on the line that carries `# here`. */
  text: string
  /** The field path offline validation reports. */
  field: string
  /** What the emulator answers (a part of the 400 text). */
  server: string
}

const LOGS = '65a1f0c2b3d4e5f6a7b8c901'
const xs = (n: number) => 'x'.repeat(n)

const tile = (...body: string[]) => oneTile(...body).trimEnd()
const config = (displayType: string, ...rest: string[]) =>
  tile('    config:', `      displayType: ${displayType}`, '      source: Logs', ...rest)
const select = (...items: string[]) => ['      select:', ...items.map(i => `        - ${i}`)]
/** A valid line tile T and an alert on it with `fields`. */
const alert = (...fields: string[]) =>
  [
    tile('    series: [{ type: time, source: Logs, aggFn: count }]'),
    '---',
    'kind: Alert',
    'name: A',
    'dashboard: D',
    'tile: T',
    'channel: { type: webhook, webhook: ops-pager }',
    ...fields
  ].join('\n')
const alertWith = (override: Record<string, string>) => {
  const base: Record<string, string> = { threshold: '1', thresholdType: 'above', interval: '5m', ...override }
  return alert(...Object.entries(base).map(([k, v]) => `${k}: ${v}`))
}

const ROWS: Row[] = [
  {
    rule: 'R112 numberFormat.output is required',
    text: config('line', ...select('aggFn: count'), '      numberFormat: { mantissa: 2 } # here'),
    field: 'tiles[0].config.numberFormat.output',
    server: 'tiles.0.config.numberFormat.output: Required'
  },
  {
    rule: 'R113 numberFormat.numericUnit is an enum',
    text: config(
      'line',
      ...select('aggFn: count'),
      '      numberFormat: { output: byte, numericUnit: furlongs } # here'
    ),
    field: 'tiles[0].config.numberFormat.numericUnit',
    server: "tiles.0.config.numberFormat.numericUnit: Invalid enum value. Expected 'bytes_iec' | 'bytes_si'"
  },
  {
    rule: 'R93 a search config needs select',
    text: tile('    config:', '      displayType: search # here', '      source: Logs'),
    field: 'tiles[0].config.select',
    server: 'tiles.0.config.select: Required'
  },
  {
    rule: 'R120 a select level is 0.5, 0.9, 0.95 or 0.99',
    text: config('line', ...select('{ aggFn: quantile, valueExpression: d, level: 0.75 } # here')),
    field: 'tiles[0].config.select[0].level',
    server: 'tiles.0.config.select.0.level: Invalid input'
  },
  {
    rule: 'R57 a series level is at most 1',
    text: tile('    series: [{ type: time, source: Logs, aggFn: quantile, field: d, level: 1.5 }] # here'),
    field: 'tiles[0].series[0].level',
    server: 'tiles.0.series.0.level: Number must be less than or equal to 1'
  },
  {
    rule: 'R54 a series needs a source',
    text: tile('    series: [{ type: time, dataSource: events, aggFn: count }] # here'),
    field: 'tiles[0].series[0]',
    server: 'tiles.0.series.0.sourceId: Required'
  },
  {
    rule: 'R117 count takes no value expression',
    text: config('line', ...select('{ aggFn: count, valueExpression: d } # here')),
    field: 'tiles[0].config.select[0].valueExpression',
    server: 'tiles.0.config.select.0: Value expression cannot be used with count aggregation function'
  },
  {
    rule: 'R118 other functions need a value expression',
    text: config('line', ...select('{ aggFn: avg } # here')),
    field: 'tiles[0].config.select[0].aggFn',
    server: 'tiles.0.config.select.0: Value expression is required for non-count aggregation functions'
  },
  {
    rule: 'R121 a level only with quantile',
    text: config('line', ...select('{ aggFn: avg, valueExpression: d, level: 0.5 } # here')),
    field: 'tiles[0].config.select[0].level',
    server: 'tiles.0.config.select.0: Level can only be used with quantile aggregation function'
  },
  {
    rule: 'R76 a number tile has one select item',
    text: config('number', '      select: [{ aggFn: count }, { aggFn: count }] # here'),
    field: 'tiles[0].config.select',
    server:
      'tiles.0.config.select: Number tiles support a single select item unless formulas are used (extra items are formula operands)'
  },
  {
    rule: 'R75 a pie tile has exactly one select item',
    text: config('pie', '      select: [{ aggFn: count }, { aggFn: count }] # here'),
    field: 'tiles[0].config.select',
    server: 'tiles.0.config.select: Array must contain exactly 1 element(s)'
  },
  {
    rule: 'R74 at most 20 select items',
    text: config('line', `      select: [${Array(21).fill('{ aggFn: count }').join(', ')}] # here`),
    field: 'tiles[0].config.select',
    server: 'tiles.0.config.select: Array must contain at most 20 element(s)'
  },
  {
    rule: 'R73 asRatio needs exactly two select items',
    text: config('line', '      select: [{ aggFn: count }]', '      asRatio: true # here'),
    field: 'tiles[0].config.asRatio',
    server: 'tiles.0.config: asRatio can only be used with exactly two select items'
  },
  {
    rule: 'R79 seriesLimit is at least 0',
    text: config('line', '      select: [{ aggFn: count }]', '      seriesLimit: -1 # here'),
    field: 'tiles[0].config.seriesLimit',
    server: 'tiles.0.config.seriesLimit: Number must be greater than or equal to 0'
  },
  {
    rule: 'R77 groupBy is at most 10,000 characters',
    text: config('table', '      select: [{ aggFn: count }]', `      groupBy: ${xs(10001)} # here`),
    field: 'tiles[0].config.groupBy',
    server: 'tiles.0.config.groupBy: String must contain at most 10000 character(s)'
  },
  {
    rule: 'R122 a select alias is at most 10,000 characters',
    text: config('line', ...select(`{ aggFn: count, alias: ${xs(10001)} } # here`)),
    field: 'tiles[0].config.select[0].alias',
    server: 'tiles.0.config.select.0.alias: String must contain at most 10000 character(s)'
  },
  {
    rule: 'R97 markdown is at most 50,000 characters',
    text: tile('    config:', '      displayType: markdown', `      markdown: ${xs(50001)} # here`),
    field: 'tiles[0].config.markdown',
    server: 'tiles.0.config.markdown: String must contain at most 50000 character(s)'
  },
  {
    rule: 'R66 series markdown is at most 100,000 characters',
    text: tile(`    series: [{ type: markdown, content: ${xs(100001)} }] # here`),
    field: 'tiles[0].series[0].content',
    server: 'tiles.0.series.0.content: String must contain at most 100000 character(s)'
  },
  {
    rule: 'R52 all series of a tile have one type',
    text: tile(
      '    series:',
      '      - { type: time, source: Logs, aggFn: count }',
      '      - { type: table, source: Logs, aggFn: count } # here'
    ),
    field: 'tiles[0].series[1].type',
    server: 'tiles.0.series: All series must have the same type'
  },
  {
    rule: 'R41 x is at most 23',
    text: tile('    series: [{ type: time, source: Logs, aggFn: count }]').replace(
      '    x: 0',
      '    x: 24 # here'
    ),
    field: 'tiles[0].x',
    server: 'tiles.0.x: Number must be less than or equal to 23'
  },
  {
    rule: 'R43 w is at most 24',
    text: tile('    series: [{ type: time, source: Logs, aggFn: count }]').replace(
      '    w: 6',
      '    w: 25 # here'
    ),
    field: 'tiles[0].w',
    server: 'tiles.0.w: Number must be less than or equal to 24'
  },
  {
    rule: 'R44 h is at least 1',
    text: tile('    series: [{ type: time, source: Logs, aggFn: count }]').replace(
      '    h: 3',
      '    h: 0 # here'
    ),
    field: 'tiles[0].h',
    server: 'tiles.0.h: Number must be greater than or equal to 1'
  },
  {
    rule: 'R3 a dashboard name is at most 1024 characters',
    text: tile('    series: [{ type: time, source: Logs, aggFn: count }]').replace(
      'name: D',
      `name: ${xs(1025)} # here`
    ),
    field: 'name',
    server: 'name: String must contain at most 1024 character(s)'
  },
  {
    rule: 'R8 a tag is at most 32 characters',
    text: `tags: [${xs(33)}] # here\n${tile('    series: [{ type: time, source: Logs, aggFn: count }]')}`,
    field: 'tags[0]',
    server: 'tags.0: String must contain at most 32 character(s)'
  },
  {
    rule: 'R7 at most 50 tags (49 and the ownership tag)',
    text: `tags: [${Array.from({ length: 50 }, (_, i) => `t${i}`).join(', ')}] # here\n${tile(
      '    series: [{ type: time, source: Logs, aggFn: count }]'
    )}`,
    field: 'tags',
    server: 'tags: Array must contain at most 50 element(s)'
  },
  {
    rule: 'R134 thresholdType is one of the server values',
    text: alertWith({ thresholdType: 'over # here' }),
    field: 'thresholdType',
    server: "thresholdType: Invalid enum value. Expected 'above' | 'below'"
  },
  {
    rule: 'R132 interval is one of the server values',
    text: alertWith({ interval: '2m # here' }),
    field: 'interval',
    server: "interval: Invalid enum value. Expected '1m' | '5m'"
  },
  {
    rule: 'R136 between needs thresholdMax',
    text: alertWith({ thresholdType: 'between # here' }),
    field: 'thresholdMax',
    server: 'thresholdMax: thresholdMax is required for between/not_between threshold types'
  },
  {
    rule: 'R137 thresholdMax is at least threshold',
    text: alertWith({ threshold: '10', thresholdType: 'between', thresholdMax: '5 # here' }),
    field: 'thresholdMax',
    server: 'thresholdMax: thresholdMax must be greater than or equal to threshold'
  },
  {
    rule: 'R149 an alert name is at most 512 characters',
    text: alertWith({}).replace('name: A', `name: ${xs(513)} # here`),
    field: 'name',
    server: 'name: String must contain at most 512 character(s)'
  },
  {
    rule: 'R150 an alert message is not empty',
    text: alertWith({ message: '"" # here' }),
    field: 'message',
    server: 'message: String must contain at least 1 character(s)'
  },
  {
    rule: 'R151 a note is at most 4096 characters',
    text: alertWith({ note: `${xs(4097)} # here` }),
    field: 'note',
    server: 'note: String must contain at most 4096 character(s)'
  },
  {
    rule: 'R152 numConsecutiveWindows is at least 1',
    text: alertWith({ numConsecutiveWindows: '0 # here' }),
    field: 'numConsecutiveWindows',
    server: 'numConsecutiveWindows: Number must be greater than or equal to 1'
  },
  {
    rule: 'R230 managed select items have no increase',
    mode: 'managed',
    text: config('line', ...select('{ aggFn: increase, valueExpression: d } # here')),
    field: 'tiles[0].config.select[0].aggFn',
    server:
      "tiles.0.config.select.0.aggFn: Invalid enum value. Expected 'avg' | 'count' | 'count_distinct' | 'last_value' | 'max' | 'min' | 'quantile' | 'sum' | 'any' | 'none', received 'increase'"
  },
  {
    rule: 'R230 managed series have no increase',
    mode: 'managed',
    text: tile('    series: [{ type: time, source: Logs, aggFn: increase, field: d }] # here'),
    field: 'tiles[0].series[0].aggFn',
    server: "tiles.0.series.0.aggFn: Invalid enum value. Expected 'avg' | 'count'"
  },
  {
    rule: 'R230 managed tile configs have no seriesLimit',
    mode: 'managed',
    text: config('line', '      select: [{ aggFn: count }]', '      seriesLimit: 5 # here'),
    field: 'tiles[0].config.seriesLimit',
    server: "tiles.0.config: Unrecognized key(s) in object: 'seriesLimit'"
  },
  {
    rule: 'R237 a service name is letters, digits and whitespace',
    mode: 'managed',
    text: 'kind: ServiceSettings\nname: prod-eu # here',
    field: 'name',
    server: 'name: Service name must contain only letters, digits and whitespace'
  },
  {
    rule: 'R238 an IP access list source is an address or CIDR',
    mode: 'managed',
    text: 'kind: ServiceSettings\nipAccessList:\n  - { source: 10.0.0.300 } # here',
    field: 'ipAccessList[0].source',
    server: 'ipAccessList.add.0.source: Invalid IP address or CIDR'
  }
]

/** A dashboard D with `head` lines at the top level and a valid line tile T (its extra lines after `tileLines`). */
const dash = (head: string[], ...tileLines: string[]) =>
  [
    'kind: Dashboard',
    'name: D',
    ...head,
    'tiles:',
    '  - name: T',
    '    x: 0',
    '    y: 0',
    '    w: 6',
    '    h: 3',
    ...tileLines,
    '    series: [{ type: time, source: Logs, aggFn: count }]'
  ].join('\n')
const filter = (fields: string) =>
  dash(['filters:', `  - { name: F, expression: x, source: Logs, ${fields} } # here`])
const number = (...rest: string[]) => config('number', ...rest)
const soonAfter = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z')

/** The whole surface (issue 15): containers, filters, saved filter values, formulas, colours, heatmaps, link-outs, schedules. */
ROWS.push(
  {
    rule: 'R15 a container title is at most 256 characters',
    text: dash(['containers:', `  - { title: ${xs(257)} } # here`]),
    field: 'containers[0].title',
    server: 'containers.0.title: String must contain at most 256 character(s)'
  },
  {
    rule: 'R18 a container has at most 20 tabs',
    text: dash([
      'containers:',
      `  - { title: C, tabs: [${Array.from({ length: 21 }, (_, i) => `{ title: t${i} }`).join(', ')}] } # here`
    ]),
    field: 'containers[0].tabs',
    server: 'containers.0.tabs: Array must contain at most 20 element(s)'
  },
  {
    rule: 'R24 a filter type is QUERY_EXPRESSION',
    text: filter('type: OTHER'),
    field: 'filters[0].type',
    server: "filters.0.type: Invalid enum value. Expected 'QUERY_EXPRESSION', received 'OTHER'"
  },
  {
    rule: 'R25 a filter name is not empty',
    text: dash(['filters:', "  - { name: '', expression: x, source: Logs } # here"]),
    field: 'filters[0].name',
    server: 'filters.0.name: String must contain at least 1 character(s)'
  },
  {
    rule: 'R26 a filter expression is not empty',
    text: dash(['filters:', "  - { name: F, expression: '', source: Logs } # here"]),
    field: 'filters[0].expression',
    server: 'filters.0.expression: String must contain at least 1 character(s)'
  },
  {
    rule: 'R29 a filter metric type is a metric type',
    text: filter('sourceMetricType: counter'),
    field: 'filters[0].sourceMetricType',
    server: "filters.0.sourceMetricType: Invalid enum value. Expected 'gauge' | 'histogram'"
  },
  {
    rule: 'R30 a filter language is sql or lucene',
    text: filter('whereLanguage: promql'),
    field: 'filters[0].whereLanguage',
    server: "filters.0.whereLanguage: Invalid enum value. Expected 'sql' | 'lucene', received 'promql'"
  },
  {
    rule: 'R32 a variable name is an identifier',
    text: filter('isVariableEnabled: true, variableName: 1abc'),
    field: 'filters[0].variableName',
    server: 'filters.0.variableName: Invalid'
  },
  {
    rule: 'R33 a filter broadcasts, is a variable, or both',
    text: filter('isBroadcastEnabled: false'),
    field: 'filters[0].isBroadcastEnabled',
    server:
      'filters.0.isBroadcastEnabled: Filter "F" must broadcast its value, be available as a variable, or both'
  },
  {
    rule: 'R34 variableName needs isVariableEnabled',
    text: filter('variableName: f'),
    field: 'filters[0].variableName',
    server: 'filters.0.variableName: Filter "F" sets variableName but is not available as a variable'
  },
  {
    rule: 'R35 appliesToSourceIds needs broadcasting',
    text: filter('isVariableEnabled: true, isBroadcastEnabled: false, appliesToSources: [Logs]'),
    field: 'filters[0].appliesToSources',
    server:
      'filters.0.appliesToSourceIds: Filter "F" sets appliesToSourceIds but does not broadcast its value'
  },
  {
    rule: 'R36 a variable filter has a variable name',
    text: dash([
      'filters:',
      "  - { name: '!!!', expression: x, source: Logs, isVariableEnabled: true } # here"
    ]),
    field: 'filters[0].variableName',
    server: 'filters.0.variableName: Variable name is required for filter "!!!"'
  },
  {
    rule: 'R37 variable names are unique',
    text: dash([
      'filters:',
      '  - { name: F, expression: x, source: Logs, isVariableEnabled: true }',
      '  - { name: G, expression: y, source: Logs, isVariableEnabled: true, variableName: F } # here'
    ]),
    field: 'filters[1].variableName',
    server: 'filters.1.variableName: Variable names must be unique: "F"'
  },
  {
    rule: 'R12 a saved filter value is at most 10000 characters',
    text: dash(['savedFilterValues:', `  - { condition: ${xs(10001)} } # here`]),
    field: 'savedFilterValues[0].condition',
    server: 'savedFilterValues.0.condition: String must contain at most 10000 character(s)'
  },
  {
    rule: 'R76 a number tile without a formula has one select item',
    text: number('      select: [{ aggFn: count }, { aggFn: count }] # here'),
    field: 'tiles[0].config.select',
    server: 'tiles.0.config.select: Number tiles support a single select item unless formulas are used'
  },
  {
    rule: 'R83 a tile has at most 10 formulas',
    text: config(
      'line',
      '      select: [{ aggFn: count }]',
      `      formulas: [${Array.from({ length: 11 }, () => '{ expression: A }').join(', ')}] # here`
    ),
    field: 'tiles[0].config.formulas',
    server: 'tiles.0.config.formulas: Array must contain at most 10 element(s)'
  },
  {
    rule: 'R84 a formula names existing select items',
    text: config(
      'line',
      '      select: [{ aggFn: count }]',
      '      formulas: [{ expression: A / B }] # here'
    ),
    field: 'tiles[0].config.formulas[0].expression',
    server: 'tiles.0.config.formulas.0.expression: Unknown series "B"'
  },
  {
    rule: 'R85 formulas are not combined with asRatio',
    text: config(
      'line',
      '      select: [{ aggFn: count }, { aggFn: count }]',
      '      asRatio: true',
      '      formulas: [{ expression: A / B }] # here'
    ),
    field: 'tiles[0].config.formulas',
    server: 'tiles.0.config.formulas: formulas cannot be combined with asRatio'
  },
  {
    rule: 'R86 a number tile has at most one formula',
    text: number(
      '      select: [{ aggFn: count }, { aggFn: count }]',
      '      formulas: [{ expression: A }, { expression: B }] # here'
    ),
    field: 'tiles[0].config.formulas',
    server: 'tiles.0.config.formulas: Number charts support a single formula'
  },
  {
    rule: 'R88 a number colour is a palette token',
    text: number('      select: [{ aggFn: count }]', "      color: '#ff0000' # here"),
    field: 'tiles[0].config.color',
    server: "tiles.0.config.color: Invalid enum value. Expected 'chart-blue'"
  },
  {
    rule: 'R89 a colour rule operator is a number-tile operator',
    text: number(
      '      select: [{ aggFn: count }]',
      '      colorRules: [{ operator: regex, value: x, color: chart-red }] # here'
    ),
    field: 'tiles[0].config.colorRules[0].operator',
    server: "tiles.0.config.colorRules.0.operator: Invalid discriminator value. Expected 'gt'"
  },
  {
    rule: 'R90 a between rule has two values',
    text: number(
      '      select: [{ aggFn: count }]',
      '      colorRules: [{ operator: between, value: [1], color: chart-red }] # here'
    ),
    field: 'tiles[0].config.colorRules[0].value',
    server: 'tiles.0.config.colorRules.0.value: Array must contain exactly 2 element(s)'
  },
  {
    rule: 'R91 a colour rule label is at most 40 characters',
    text: number(
      '      select: [{ aggFn: count }]',
      `      colorRules: [{ operator: gt, value: 1, color: chart-red, label: ${xs(41)} }] # here`
    ),
    field: 'tiles[0].config.colorRules[0].label',
    server: 'tiles.0.config.colorRules.0.label: String must contain at most 40 character(s)'
  },
  {
    rule: 'R92 a background chart is a line or an area',
    text: number('      select: [{ aggFn: count }]', '      backgroundChart: { type: bar } # here'),
    field: 'tiles[0].config.backgroundChart.type',
    server:
      "tiles.0.config.backgroundChart.type: Invalid enum value. Expected 'line' | 'area', received 'bar'"
  },
  {
    rule: 'R98 a heatmap has exactly one select item',
    text: tile(
      '    config:',
      '      displayType: heatmap',
      '      source: Traces',
      '      select: [{ valueExpression: a }, { valueExpression: b }] # here'
    ),
    field: 'tiles[0].config.select',
    server: 'tiles.0.config.select: Array must contain exactly 1 element(s)'
  },
  {
    rule: 'R99 a heatmap value expression is not empty',
    text: tile(
      '    config:',
      '      displayType: heatmap',
      '      source: Traces',
      "      select: [{ valueExpression: '' }] # here"
    ),
    field: 'tiles[0].config.select[0].valueExpression',
    server: 'tiles.0.config.select.0.valueExpression: String must contain at least 1 character(s)'
  },
  {
    rule: 'R100 a heatmap scale is log or linear',
    text: tile(
      '    config:',
      '      displayType: heatmap',
      '      source: Traces',
      '      select: [{ valueExpression: a, heatmapScaleType: sqrt }] # here'
    ),
    field: 'tiles[0].config.select[0].heatmapScaleType',
    server:
      "tiles.0.config.select.0.heatmapScaleType: Invalid enum value. Expected 'log' | 'linear', received 'sqrt'"
  },
  {
    rule: 'R108 a link-out filter has an expression',
    text: config(
      'table',
      '      select: [{ aggFn: count }]',
      "      onClick: { type: search, target: { mode: id, source: Logs }, filters: [{ kind: expressionTemplate, expression: '', template: x }] } # here"
    ),
    field: 'tiles[0].config.onClick.filters[0].expression',
    server: 'tiles.0.config.onClick.filters.0.expression: Expression is required'
  },
  {
    rule: 'R109 an external link-out has a URL template',
    text: config(
      'table',
      '      select: [{ aggFn: count }]',
      "      onClick: { type: external, urlTemplate: '' } # here"
    ),
    field: 'tiles[0].config.onClick.urlTemplate',
    server: 'tiles.0.config.onClick.urlTemplate: String must contain at least 1 character(s)'
  },
  {
    rule: 'R144 a schedule offset is at most 1439',
    text: alertWith({ interval: '1d', scheduleOffsetMinutes: '1440 # here' }),
    field: 'scheduleOffsetMinutes',
    server: 'scheduleOffsetMinutes: Number must be less than or equal to 1439'
  },
  {
    rule: 'R145 a schedule offset is less than the interval',
    text: alertWith({ scheduleOffsetMinutes: '5 # here' }),
    field: 'scheduleOffsetMinutes',
    server: 'scheduleOffsetMinutes: scheduleOffsetMinutes must be less than 5 minutes'
  },
  {
    rule: 'R146 a schedule offset is 0 with a start date',
    text: alertWith({ scheduleStartAt: `'${soonAfter(1)}'`, scheduleOffsetMinutes: '2 # here' }),
    field: 'scheduleOffsetMinutes',
    server: 'scheduleOffsetMinutes: scheduleOffsetMinutes must be 0 when scheduleStartAt is provided'
  },
  {
    rule: 'R147 a start date is a UTC date and time',
    text: alertWith({ scheduleStartAt: "'2026-01-01T10:00:00+02:00' # here" }),
    field: 'scheduleStartAt',
    server: 'scheduleStartAt: Invalid datetime'
  },
  {
    rule: 'R148 a start date is within a year',
    text: alertWith({ scheduleStartAt: `'${soonAfter(400)}' # here` }),
    field: 'scheduleStartAt',
    server: 'scheduleStartAt: scheduleStartAt must be within 1 year from now'
  },
  {
    rule: 'R10 managed saved query languages are sql and lucene',
    mode: 'managed',
    text: dash(["savedQuery: 'up'", 'savedQueryLanguage: promql # here']),
    field: 'savedQueryLanguage',
    server: "savedQueryLanguage: Invalid enum value. Expected 'sql' | 'lucene', received 'promql'"
  },
  {
    rule: 'R230 managed tile configs have no formulas',
    mode: 'managed',
    text: config('line', '      select: [{ aggFn: count }]', '      formulas: [{ expression: A }] # here'),
    field: 'tiles[0].config.formulas',
    server: "tiles.0.config: Unrecognized key(s) in object: 'formulas'"
  },
  {
    rule: 'R230 managed filters have no broadcast or variable settings',
    mode: 'managed',
    text: filter('isBroadcastEnabled: true'),
    field: 'filters[0].isBroadcastEnabled',
    server: "filters.0: Unrecognized key(s) in object: 'isBroadcastEnabled'"
  }
)

describe.each(ROWS)('$rule', row => {
  const mode = row.mode ?? 'self-hosted'
  const here = row.text.split('\n').findIndex(l => l.includes('# here')) + 1

  it('is refused offline, at its line', () => {
    const found = validateText('rules.yaml', row.text, mode).diagnostics.filter(d => d.severity === 'error')
    expect(found.map(d => ({ line: d.line, field: d.field }))).toContainEqual({
      line: here,
      field: row.field
    })
  })

  it("is refused by the emulator with the server's text when validation is skipped", async () => {
    const refused = await applyUnchecked(mode, row.text)
    expect(refused.join('\n')).toContain(row.server)
  })
})

describe('through the CLI, against the emulator over HTTP', () => {
  const { emu, ws } = useScenario({ per: 'file' })

  it('stops at validation with the place, and sends no write', async () => {
    ws.write({ 'rules.yaml': ROWS[0]!.text })
    emu.clearLog()
    const result = await obsdeploy(emu, ws, 'apply')
    expect(result.exitCode).toBe(1)
    expect(errors(result)).toContain(
      'is required: one of currency, percent, byte, time, duration, number, data_rate, throughput'
    )
    expect(result.diagnostics.find(d => d.field === ROWS[0]!.field)).toMatchObject({
      file: 'observability/rules.yaml',
      line: ROWS[0]!.text.split('\n').findIndex(l => l.includes('# here')) + 1
    })
    expect(emu.requestLog.filter(r => r.method !== 'GET')).toEqual([])
  })

  it('the same body sent directly is a 400 with the server text', async () => {
    const tile = { name: 'T', x: 0, y: 0, w: 6, h: 3 }
    const config = {
      displayType: 'line',
      sourceId: LOGS,
      select: [{ aggFn: 'count' }],
      numberFormat: { mantissa: 2 }
    }
    const answer = await call(emu, 'POST', '/api/v2/dashboards', {
      body: { name: 'D', tiles: [{ ...tile, config }] }
    })
    expect(answer.status).toBe(400)
    expect(answer.json).toEqual({
      message: 'Body validation failed: tiles.0.config.numberFormat.output: Required'
    })
  })
})
