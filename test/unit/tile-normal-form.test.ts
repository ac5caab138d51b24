/**
 * The tile normal form (src/kinds/tile-normal-form.ts), form by form: the config form a series tile is sent
 * and stored in (FACTS.md "How a series tile comes back"), what a plan compares (defaults dropped, texts
 * trimmed, ids as text, a number format on the tile), and the exact form export writes (as stored, only the
 * defaults the server returns by itself left out). test/unit/normal-form.test.ts holds the first cases.
 */
import { describe, expect, it } from '@jest/globals'
import {
  normalizeConfig,
  normalizeGroupBy,
  normalTile,
  seriesToConfig
} from '../../src/kinds/tile-normal-form.js'

const layout = { name: 'T', x: 1, y: 2, w: 6, h: 3 }

describe('a series tile in the config form it is stored in', () => {
  it('a time series: every field of each select item, count without its field, the defaults filled in', () => {
    expect(
      seriesToConfig(
        [
          {
            type: 'time',
            sourceId: 's1',
            aggFn: 'avg',
            field: 'Duration',
            level: 0.9,
            where: 'a:1',
            whereLanguage: 'sql',
            alias: 'mean',
            metricName: 'm',
            metricDataType: 'gauge',
            groupBy: ['svc']
          },
          { type: 'time', aggFn: 'count', field: 'ignored' }
        ],
        undefined
      )
    ).toEqual({
      displayType: 'line',
      sourceId: 's1',
      select: [
        {
          aggFn: 'avg',
          where: 'a:1',
          whereLanguage: 'sql',
          valueExpression: 'Duration',
          alias: 'mean',
          level: 0.9,
          metricName: 'm',
          metricType: 'gauge'
        },
        { aggFn: 'count', where: '', whereLanguage: 'lucene' }
      ],
      groupBy: ['svc'],
      asRatio: false
    })
  })

  it('a series without a type is a time series; a stacked bar keeps its display type', () => {
    expect(seriesToConfig([{ aggFn: 'count' }], undefined).displayType).toBe('line')
    expect(seriesToConfig([{ type: 'time', displayType: 'stacked_bar', aggFn: 'count' }], true)).toEqual({
      displayType: 'stacked_bar',
      select: [{ aggFn: 'count', where: '', whereLanguage: 'lucene' }],
      asRatio: false
    })
    expect(seriesToConfig([{ type: 'time', displayType: 'other', aggFn: 'count' }], true).displayType).toBe(
      'line'
    )
    // No series at all: an empty line chart, not a crash.
    expect(seriesToConfig([], undefined)).toEqual({ displayType: 'line', select: [], asRatio: false })
  })

  it('asRatio is stored on a line, stacked bar or table tile: true only when asked with exactly two series', () => {
    const two = [{ aggFn: 'count' }, { aggFn: 'count', where: 'x' }]
    expect(
      seriesToConfig(
        two.map(s => ({ ...s, type: 'table' })),
        true
      ).asRatio
    ).toBe(true)
    expect(seriesToConfig(two, false).asRatio).toBe(false)
    expect(seriesToConfig(two, undefined).asRatio).toBe(false)
    expect(seriesToConfig([...two, { aggFn: 'count' }], true).asRatio).toBe(false)
    expect(seriesToConfig([{ type: 'number', aggFn: 'count' }], true)).not.toHaveProperty('asRatio')
  })

  it('a markdown series is its text; a search series its fields, query and language', () => {
    expect(seriesToConfig([{ type: 'markdown', content: '# Hi' }], undefined)).toStrictEqual({
      displayType: 'markdown',
      markdown: '# Hi'
    })
    expect(seriesToConfig([{ type: 'markdown' }], undefined)).toStrictEqual({
      displayType: 'markdown',
      markdown: ''
    })
    expect(
      seriesToConfig(
        [{ type: 'search', sourceId: 's1', fields: ['a', 'b'], where: 'x', whereLanguage: 'sql' }],
        true
      )
    ).toStrictEqual({
      displayType: 'search',
      sourceId: 's1',
      select: 'a, b',
      where: 'x',
      whereLanguage: 'sql'
    })
    expect(seriesToConfig([{ type: 'search', sourceId: 's1' }], undefined)).toStrictEqual({
      displayType: 'search',
      sourceId: 's1',
      select: '',
      where: '',
      whereLanguage: 'lucene'
    })
  })

  it("the number format of the first series that has one is the tile's; a number tile reads only its first", () => {
    const fmt = { output: 'byte' }
    expect(
      seriesToConfig(
        [
          { type: 'time', aggFn: 'count' },
          { type: 'time', aggFn: 'count', numberFormat: fmt },
          { type: 'time', aggFn: 'count', numberFormat: { output: 'percent' } }
        ],
        undefined
      ).numberFormat
    ).toStrictEqual(fmt)
    const number = seriesToConfig(
      [
        { type: 'number', aggFn: 'count' },
        { type: 'number', aggFn: 'sum', field: 'b', numberFormat: fmt }
      ],
      undefined
    )
    expect(number).not.toHaveProperty('numberFormat')
    expect(number.select).toEqual([{ aggFn: 'count', where: '', whereLanguage: 'lucene' }])
    expect(seriesToConfig([{ type: 'time', aggFn: 'count' }], undefined)).not.toHaveProperty('groupBy')
  })
})

describe('the normal form a plan compares', () => {
  it('drops every default the server fills in, and keeps a value that is not the default', () => {
    expect(
      normalizeConfig({
        displayType: 'line',
        select: [{ aggFn: 'count', where: '', whereLanguage: 'lucene' }],
        asRatio: false,
        fillNulls: true,
        showOperandSeries: true,
        groupByColumnsOnLeft: false,
        where: '',
        whereLanguage: 'lucene'
      })
    ).toStrictEqual({ displayType: 'line', select: [{ aggFn: 'count' }] })
    const set = {
      seriesLimit: 5,
      fillNulls: false,
      showOperandSeries: false,
      groupByColumnsOnLeft: true,
      where: 'x:1',
      whereLanguage: 'sql'
    }
    expect(normalizeConfig({ displayType: 'table', select: [{ aggFn: 'count' }], ...set })).toStrictEqual({
      displayType: 'table',
      select: [{ aggFn: 'count' }],
      ...set
    })
    expect(
      normalizeConfig({
        displayType: 'line',
        select: [{ aggFn: 'count', where: 'y', whereLanguage: 'sql' }]
      })
    ).toStrictEqual({ displayType: 'line', select: [{ aggFn: 'count', where: 'y', whereLanguage: 'sql' }] })
  })

  it('a config without a display type is a line chart', () => {
    expect(
      normalizeConfig({ select: [{ aggFn: 'count' }, { aggFn: 'count' }], asRatio: true })
    ).toStrictEqual({
      select: [{ aggFn: 'count' }, { aggFn: 'count' }],
      asRatio: true
    })
    expect(normalizeConfig({ select: 'a', groupBy: ['x'] })).toStrictEqual({ select: 'a', groupBy: 'x' })
  })

  it('a number tile has no grouping; a numeric source id compares as text', () => {
    expect(
      normalizeConfig({ displayType: 'number', sourceId: 7, select: [{ aggFn: 'count' }], groupBy: 'svc' })
    ).toStrictEqual({ displayType: 'number', sourceId: '7', select: [{ aggFn: 'count' }] })
    expect(
      normalizeConfig({ displayType: 'number', select: [{ aggFn: 'count' }], groupBy: 'svc' }, true)
    ).toStrictEqual({ displayType: 'number', select: [{ aggFn: 'count' }] })
    expect(normalizeConfig({ displayType: 'line', sourceId: 's1', groupBy: ' a , b,' })).toStrictEqual({
      displayType: 'line',
      sourceId: 's1',
      groupBy: 'a,b'
    })
  })

  it("a markdown tile's trailing whitespace is no change; its other text is, and so is a query's", () => {
    expect(normalizeConfig({ displayType: 'line', where: 'a:1 ' }).where).toBe('a:1 ')
    expect(normalizeConfig({ displayType: 'markdown', markdown: '# Hi  \n\n' })).toStrictEqual({
      displayType: 'markdown',
      markdown: '# Hi'
    })
    expect(normalizeConfig({ displayType: 'markdown', markdown: '  # Hi' }).markdown).toBe('  # Hi')
    expect(normalizeConfig({ displayType: 'markdown', markdown: ' \n' })).toStrictEqual({
      displayType: 'markdown'
    })
    expect(normalizeConfig({ displayType: 'markdown', markdown: null })).toStrictEqual({
      displayType: 'markdown'
    })
  })

  it('search columns compare as one list, however spaced; an event-pattern select as written', () => {
    expect(normalizeConfig({ displayType: 'search', select: ' a,b ,, c ' }).select).toBe('a, b, c')
    expect(normalizeConfig({ displayType: 'search', select: ['a', ' b'] }).select).toBe('a, b')
    expect(normalizeConfig({ displayType: 'search', select: ' , ' })).toStrictEqual({ displayType: 'search' })
    expect(normalizeConfig({ displayType: 'search' })).toStrictEqual({ displayType: 'search' })
    expect(normalizeConfig({ displayType: 'search', select: null })).toStrictEqual({ displayType: 'search' })
    expect(normalizeConfig({ displayType: 'table', select: ' count() ,b' }).select).toBe('count(), b')
    expect(normalizeConfig({ displayType: 'event_patterns', select: ' Body ,x' }).select).toBe(' Body ,x')
    expect(normalizeConfig({ displayType: 'line', select: { not: 'a list' } }).select).toStrictEqual({
      not: 'a list'
    })
  })

  it('select items: a missing one is left out, a count has no value expression, other aggregations keep theirs', () => {
    expect(
      normalizeConfig({
        displayType: 'line',
        select: [
          null,
          { aggFn: 'count', valueExpression: 'x' },
          { aggFn: 'sum', valueExpression: 'x', periodAggFn: 'delta', countExpression: '' }
        ]
      }).select
    ).toStrictEqual([{ aggFn: 'count' }, { aggFn: 'sum', valueExpression: 'x', periodAggFn: 'delta' }])
  })

  // metric-item.ts: what HyperDX's templates store (''), a manifest without one, and the placeholder a write sends.
  it("a metric item's value expression: none, '' and Value are the same; any other text is compared", () => {
    const gauge = { aggFn: 'avg', metricName: 'nodejs.eventloop.delay.p99', metricType: 'gauge' }
    const normal = (item: Record<string, unknown>) =>
      normalizeConfig({ displayType: 'line', sourceId: 'm', select: [item] })
    const none = normal(gauge)
    expect(none.select).toStrictEqual([gauge])
    expect(normal({ ...gauge, valueExpression: '' })).toStrictEqual(none)
    expect(normal({ ...gauge, valueExpression: 'Value', where: '', whereLanguage: 'lucene' })).toStrictEqual(
      none
    )
    expect(normal({ ...gauge, valueExpression: 'Value * 1000' }).select).toStrictEqual([
      { ...gauge, valueExpression: 'Value * 1000' }
    ])
    // Not a metric item (no type, or an empty name): Value is a column like any other.
    for (const item of [
      { aggFn: 'avg', metricName: 'm', valueExpression: 'Value' },
      { aggFn: 'avg', metricName: '', metricType: 'gauge', valueExpression: 'Value' },
      { aggFn: 'avg', valueExpression: 'Value' }
    ])
      expect((normal(item).select as Array<Record<string, unknown>>)[0]!.valueExpression).toBe('Value')
    // The series form (a metric series without `field`) is the same tile.
    expect(
      normalTile({
        ...layout,
        series: [
          { type: 'time', sourceId: 'm', aggFn: 'avg', metricName: gauge.metricName, metricDataType: 'gauge' }
        ]
      }).config
    ).toStrictEqual(
      normalTile({ ...layout, config: { displayType: 'line', sourceId: 'm', select: [gauge] } }).config
    )
  })

  it('a number format is compared on the tile when every item that has one agrees, else on each item', () => {
    const byte = { output: 'byte' }
    const pct = { output: 'percent' }
    expect(
      normalizeConfig({
        displayType: 'line',
        select: [
          { aggFn: 'count', numberFormat: byte },
          { aggFn: 'max', valueExpression: 'd' }
        ]
      })
    ).toStrictEqual({
      displayType: 'line',
      numberFormat: byte,
      select: [{ aggFn: 'count' }, { aggFn: 'max', valueExpression: 'd' }]
    })
    const differ = normalizeConfig({
      displayType: 'line',
      select: [
        { aggFn: 'count', numberFormat: byte },
        { aggFn: 'count', numberFormat: pct }
      ]
    })
    expect(differ).not.toHaveProperty('numberFormat')
    expect(differ.select).toStrictEqual([
      { aggFn: 'count', numberFormat: byte },
      { aggFn: 'count', numberFormat: pct }
    ])
    // One on the tile already: the items keep theirs.
    expect(
      normalizeConfig({
        displayType: 'line',
        numberFormat: pct,
        select: [{ aggFn: 'count', numberFormat: byte }]
      })
    ).toStrictEqual({
      displayType: 'line',
      numberFormat: pct,
      select: [{ aggFn: 'count', numberFormat: byte }]
    })
  })

  it('asRatio stays only where the server keeps it: a line, stacked bar or table tile with two select items', () => {
    const two = [{ aggFn: 'count' }, { aggFn: 'count', where: 'x' }]
    for (const displayType of ['line', 'stacked_bar', 'table'])
      expect(normalizeConfig({ displayType, select: two, asRatio: true }).asRatio).toBe(true)
    expect(normalizeConfig({ displayType: 'pie', select: two, asRatio: true })).not.toHaveProperty('asRatio')
    expect(normalizeConfig({ displayType: 'line', select: 'a, b', asRatio: true })).not.toHaveProperty(
      'asRatio'
    )
    expect(
      normalizeConfig({ displayType: 'line', select: [...two, { aggFn: 'sum' }], asRatio: true })
    ).not.toHaveProperty('asRatio')
  })
})

describe('the exact form export writes', () => {
  it('keeps what the server stores as stored, leaving out only the defaults it returns by itself', () => {
    expect(
      normalizeConfig(
        {
          displayType: 'line',
          select: [
            {
              aggFn: 'count',
              where: '',
              whereLanguage: 'lucene',
              alias: ' A ',
              numberFormat: { output: 'byte' }
            },
            { aggFn: 'sum', valueExpression: 'd', numberFormat: { output: 'byte' } }
          ],
          groupBy: ' a , b',
          markdown: 'text  ',
          asRatio: false,
          fillNulls: true,
          showOperandSeries: true,
          groupByColumnsOnLeft: false,
          where: '',
          whereLanguage: 'lucene',
          colorRules: [],
          onClick: { type: 'none', filters: {} }
        },
        true
      )
    ).toStrictEqual({
      displayType: 'line',
      select: [
        { aggFn: 'count', alias: ' A ', numberFormat: { output: 'byte' } },
        { aggFn: 'sum', valueExpression: 'd', numberFormat: { output: 'byte' } }
      ],
      groupBy: ' a , b',
      markdown: 'text  ',
      showOperandSeries: true,
      groupByColumnsOnLeft: false,
      colorRules: [],
      onClick: { type: 'none', filters: {} }
    })
  })

  it("a select item's empty text and an empty search list are left out; a search select stays as written", () => {
    expect(
      normalizeConfig({ displayType: 'line', select: [{ aggFn: 'count', alias: '', level: null }] }, true)
    ).toStrictEqual({ displayType: 'line', select: [{ aggFn: 'count' }] })
    expect(normalizeConfig({ displayType: 'search', select: ' a ,b' }, true).select).toBe(' a ,b')
    expect(normalizeConfig({ displayType: 'search', select: ['a', 'b'] }, true).select).toBe('a, b')
    expect(
      normalizeConfig({ displayType: 'line', sourceId: '', where: null, select: [] }, true)
    ).toStrictEqual({
      displayType: 'line'
    })
    // Select items are compared clean, also in the exact form: an empty text inside one is left out.
    expect(
      normalizeConfig(
        { displayType: 'line', select: [{ aggFn: 'count', numberFormat: { output: 'byte', unit: '' } }] },
        true
      ).select
    ).toStrictEqual([{ aggFn: 'count', numberFormat: { output: 'byte' } }])
  })
})

describe("a metric item's value expression in the exact form", () => {
  it('is written as stored: Value stays, an empty one is left out', () => {
    const item = { aggFn: 'sum', metricName: 'jvm.cpu.time', metricType: 'sum' }
    const exact = (valueExpression: string) =>
      normalizeConfig({ displayType: 'line', select: [{ ...item, valueExpression }] }, true).select
    expect(exact('Value')).toStrictEqual([{ ...item, valueExpression: 'Value' }])
    expect(exact('')).toStrictEqual([item])
  })
})

describe('groupBy and whole tiles', () => {
  it('a groupBy that is neither a list nor a text is no grouping', () => {
    expect(normalizeGroupBy(undefined)).toBeUndefined()
    expect(normalizeGroupBy(3)).toBeUndefined()
    expect(normalizeGroupBy([' a', 'b '])).toBe('a,b')
    expect(normalizeGroupBy(' , ')).toBeUndefined()
  })

  it("asRatio on the tile (CONTRACT.md's form) counts next to a config that does not set it", () => {
    const select = [{ aggFn: 'count' }, { aggFn: 'count', where: 'x' }]
    expect(normalTile({ ...layout, asRatio: true, config: { displayType: 'line', select } })).toStrictEqual({
      ...layout,
      config: {
        displayType: 'line',
        select: [{ aggFn: 'count' }, { aggFn: 'count', where: 'x' }],
        asRatio: true
      }
    })
    expect(
      normalTile({ ...layout, asRatio: true, config: { displayType: 'line', select, asRatio: false } }).config
    ).not.toHaveProperty('asRatio')
    expect(
      normalTile({ ...layout, asRatio: false, config: { displayType: 'line', select } }).config
    ).not.toHaveProperty('asRatio')
  })

  it('a series tile without a source has none in its normal form, nor in the exact one', () => {
    const tile = { ...layout, series: [{ type: 'time', aggFn: 'count' }] }
    const want = { ...layout, config: { displayType: 'line', select: [{ aggFn: 'count' }] } }
    expect(normalTile(tile)).toStrictEqual(want)
    expect(normalTile(tile, true)).toStrictEqual(want)
    expect(normalizeConfig({ displayType: 'line', sourceId: null })).toStrictEqual({ displayType: 'line' })
  })

  it('a series tile with asRatio on the tile; a tile with neither config nor series is an empty line chart', () => {
    expect(
      normalTile({
        ...layout,
        asRatio: true,
        series: [
          { type: 'time', aggFn: 'count' },
          { type: 'time', aggFn: 'count', where: 'x' }
        ]
      }).config.asRatio
    ).toBe(true)
    expect(normalTile({ ...layout, config: null, series: null })).toStrictEqual({
      ...layout,
      config: { displayType: 'line' }
    })
  })
})
