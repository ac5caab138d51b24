/**
 * Offline validation against the real server's request rules (docs/server-rules.md): each rule a manifest can break is
 * reported at file:line:col with what the server accepts, and what the server accepts validates. Test names carry the
 * rule ids of docs/server-rules.md.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from '@jest/globals'
import type { Diagnostic } from '../../src/diagnostics.js'
import { validateText } from '../../src/manifest/load.js'
import { lines, oneTile as tile } from '../support/manifest-text.js'

type Mode = 'self-hosted' | 'managed'
const short = (d: Diagnostic) => `${d.line}:${d.column} ${d.field}: ${d.message}`
const errors = (text: string, mode: Mode = 'self-hosted') =>
  validateText('m.yaml', text, mode)
    .diagnostics.filter(d => d.severity === 'error')
    .map(short)

const lineConfig = (...select: string[]) =>
  tile('    config:', '      displayType: line', '      source: Logs', '      select:', ...select)

const OUTPUTS = 'currency, percent, byte, time, duration, number, data_rate, throughput'

describe('numberFormat (R112-R115, common-utils types.ts NumberFormatSchema)', () => {
  it('R112: output is required, at the numberFormat mapping, listing the outputs', () => {
    expect(
      errors(lineConfig('        - aggFn: count', '          numberFormat:', '            mantissa: 2'))
    ).toEqual([`15:13 tiles[0].config.select[0].numberFormat.output: is required: one of ${OUTPUTS}`])
  })

  it('R112: output is one of the server outputs, with a hint', () => {
    expect(
      errors(
        tile(
          '    config:',
          '      displayType: number',
          '      source: Logs',
          '      select: [{ aggFn: count }]',
          '      numberFormat: { output: procent }'
        )
      )
    ).toEqual([
      `13:31 tiles[0].config.numberFormat.output: must be one of ${OUTPUTS}, got "procent" (did you mean "percent"?)`
    ])
  })

  it('R113: numericUnit is one of the server units, with a hint', () => {
    const [only, ...rest] = errors(
      tile(
        '    series:',
        '      - type: number',
        '        source: Logs',
        '        aggFn: sum',
        '        field: bytes',
        '        numberFormat: { output: byte, numericUnit: byte_iec }'
      )
    )
    expect(rest).toEqual([])
    expect(only).toMatch(
      /^14:52 tiles\[0\]\.series\[0\]\.numberFormat\.numericUnit: must be one of bytes_iec, bytes_si, .*, wpm, got "byte_iec" \(did you mean "bytes_iec"\?\)$/
    )
  })

  it('R114: mantissa is a whole number', () => {
    expect(
      errors(
        lineConfig('        - aggFn: count', '          numberFormat: { output: number, mantissa: 1.5 }')
      )
    ).toEqual(['14:53 tiles[0].config.select[0].numberFormat.mantissa: must be a whole number, got 1.5'])
  })

  it('accepts every field the server accepts', () => {
    expect(
      errors(
        lineConfig(
          '        - aggFn: sum',
          '          valueExpression: bytes',
          '          numberFormat:',
          '            output: data_rate',
          '            numericUnit: megabits_sec',
          '            mantissa: 2',
          '            thousandSeparated: true',
          '            average: false',
          '            decimalBytes: true',
          '            factor: 0.125',
          '            currencySymbol: $',
          '            unit: Mb/s'
        )
      )
    ).toEqual([])
  })
})

describe('search tiles (R93, zod.ts externalDashboardSearchChartConfigSchema)', () => {
  it('R93: a search config needs select, at the config', () => {
    expect(errors(tile('    config:', '      displayType: search', '      source: Logs'))).toEqual([
      '10:7 tiles[0].config.select: is required: the columns to show, as text ("" for the default columns) or a list'
    ])
  })

  it('R93: accepts select as text, empty text (the default columns) or a list; and a search series with no fields', () => {
    for (const select of ['"level, service"', '""', '[level, service]']) {
      expect(
        errors(
          tile('    config:', '      displayType: search', '      source: Logs', `      select: ${select}`)
        )
      ).toEqual([])
    }
    expect(errors(tile('    series: [{ type: search, source: Logs, fields: [] }]'))).toEqual([])
  })

  it('R93: a list of columns is sent as one text of at most 10,000 characters', () => {
    const columns = Array.from({ length: 1000 }, (_, i) => `column${i}`)
    expect(
      errors(
        tile(
          '    config:',
          '      displayType: search',
          '      source: Logs',
          `      select: [${columns.join(', ')}]`
        )
      )
    ).toEqual([
      '12:15 tiles[0].config.select: is sent as one expression of 10888 characters; the server takes at most 10000'
    ])
  })
})

describe('quantile level (R57, R120, zod.ts externalQuantileLevelSchema)', () => {
  it('R120: a select item level is 0.5, 0.9, 0.95 or 0.99', () => {
    expect(errors(lineConfig('        - { aggFn: quantile, valueExpression: d, level: 0.75 }'))).toEqual([
      '13:57 tiles[0].config.select[0].level: must be one of 0.5, 0.9, 0.95, 0.99, got 0.75'
    ])
    for (const level of [0.5, 0.9, 0.95, 0.99])
      expect(
        errors(lineConfig(`        - { aggFn: quantile, valueExpression: d, level: ${level} }`))
      ).toEqual([])
  })

  it('R57: a series level too (it becomes a select item, and only these levels come back from a GET)', () => {
    expect(
      errors(tile('    series: [{ type: time, source: Logs, aggFn: quantile, field: d, level: 0.75 }]'))
    ).toEqual(['9:76 tiles[0].series[0].level: must be one of 0.5, 0.9, 0.95, 0.99, got 0.75'])
  })

  it('R121: a level only with quantile', () => {
    expect(errors(lineConfig('        - { aggFn: avg, valueExpression: d, level: 0.5 }'))).toEqual([
      '13:52 tiles[0].config.select[0].level: level only applies to quantile'
    ])
  })
})

describe('series (R54, R58-R66, zod.ts chartSeriesSchema)', () => {
  it('R54: every series but markdown needs a data source, whatever else is wrong with the tile', () => {
    expect(errors(tile('    series: [{ type: time, dataSource: events, aggFn: count }]'))).toEqual([
      '9:14 tiles[0].series[0]: needs a data source: `source` (by name) or `sourceId`'
    ])
    expect(errors(tile('    series: [{ type: time, aggFn: count, level: 2 }]'))).toEqual([
      '9:14 tiles[0].series[0]: needs a data source: `source` (by name) or `sourceId`',
      '9:49 tiles[0].series[0].level: must be one of 0.5, 0.9, 0.95, 0.99, got 2'
    ])
  })

  it('R66: markdown content up to 100,000 characters', () => {
    expect(errors(tile(`    series: [{ type: markdown, content: ${'x'.repeat(100000)} }]`))).toEqual([])
    expect(errors(tile(`    series: [{ type: markdown, content: ${'x'.repeat(100001)} }]`))).toEqual([
      '9:41 tiles[0].series[0].content: must be at most 100000 characters'
    ])
  })

  it('a series filter has no length limit on the server', () => {
    expect(
      errors(tile(`    series: [{ type: time, source: Logs, aggFn: count, where: ${'a'.repeat(10001)} }]`))
    ).toEqual([])
  })
})

describe('config expressions (R77, R78, R97, R119, R122)', () => {
  it('R77: a groupBy list is sent joined with commas, at most 10,000 characters', () => {
    const fields = Array.from({ length: 10 }, (_, i) => `f${i}_${'x'.repeat(1000)}`)
    expect(
      errors(
        tile(
          '    config:',
          '      displayType: table',
          '      source: Logs',
          '      select: [{ aggFn: count }]',
          `      groupBy: [${fields.join(', ')}]`
        )
      )
    ).toEqual([
      '13:16 tiles[0].config.groupBy: is sent as one expression of 10039 characters; the server takes at most 10000'
    ])
  })

  it('R122: a select filter or alias over 10,000 characters', () => {
    expect(errors(lineConfig(`        - { aggFn: count, alias: ${'a'.repeat(10001)} }`))).toEqual([
      '13:34 tiles[0].config.select[0].alias: must be at most 10000 characters'
    ])
  })
})

describe('managed mode (R230, the cloud OpenAPI ClickStack* schemas)', () => {
  const increase = lineConfig('        - { aggFn: increase, valueExpression: requests }')
  const seriesIncrease = tile('    series: [{ type: time, source: Logs, aggFn: increase, field: requests }]')
  const limited = tile(
    '    config:',
    '      displayType: line',
    '      source: Logs',
    '      select: [{ aggFn: count }]',
    '      seriesLimit: 5'
  )

  it('R230: increase is refused in managed mode, in config and series form, and accepted self-hosted', () => {
    const message =
      'increase is not available in managed mode: the managed API takes avg, count, count_distinct, last_value, max, min, quantile, sum, any, none'
    expect(errors(increase, 'managed')).toEqual([`13:20 tiles[0].config.select[0].aggFn: ${message}`])
    expect(errors(seriesIncrease, 'managed')).toEqual([`9:49 tiles[0].series[0].aggFn: ${message}`])
    expect(errors(increase)).toEqual([])
    expect(errors(seriesIncrease)).toEqual([])
  })

  it('R230: seriesLimit is refused in managed mode and accepted self-hosted', () => {
    expect(errors(limited, 'managed')).toEqual([
      '13:20 tiles[0].config.seriesLimit: seriesLimit is not part of the managed API: remove it in managed mode'
    ])
    expect(errors(limited)).toEqual([])
  })
})

describe('dashboard fields', () => {
  it('R8: a tag may be empty; at most 32 characters', () => {
    expect(errors(lines('kind: Dashboard', 'name: D', 'tags: ["", ok]'))).toEqual([])
    expect(errors(lines('kind: Dashboard', 'name: D', `tags: [${'t'.repeat(33)}]`))).toEqual([
      '3:8 tags[0]: must be at most 32 characters'
    ])
  })
})

describe('ServiceSettings name (R237: the cloud OpenAPI ServicePatchRequest, CONTRACT.md)', () => {
  const service = (name: string) =>
    validateText('s.yaml', lines('kind: ServiceSettings', `name: ${name}`), 'managed')
  it('says what the cloud accepts and which character it refuses', () => {
    expect(service('"prod/eu"').diagnostics.map(short)).toEqual([
      `2:7 name: must be 1-50 characters of letters, digits and whitespace, not only whitespace (the cloud API's rule); "/" is not allowed`
    ])
    expect(service('Analytics prod 2').diagnostics).toEqual([])
  })
})

// The files and names its rows cite are checked with every document's (docs-paths.test.ts).
describe('docs/server-rules.md', () => {
  const doc = readFileSync(new URL('../../docs/server-rules.md', import.meta.url), 'utf8')
  const rows = doc.split('\n').filter(l => /^\| R\d+ /.test(l))

  it('has one row per rule, R1 to R244, in order', () => {
    expect(rows.map(r => r.split('|')[1]!.trim())).toEqual(Array.from({ length: 244 }, (_, i) => `R${i + 1}`))
  })
})
