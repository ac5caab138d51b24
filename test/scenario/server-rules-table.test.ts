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
