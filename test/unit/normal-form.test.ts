import { describe, expect, it } from '@jest/globals'
import {
  normalizeConfig,
  normalizeGroupBy,
  normalTile,
  seriesToConfig
} from '../../src/kinds/tile-normal-form.js'
import { ownershipTag, userTags } from '../../src/kinds/ownership.js'
import { diffValues } from '../../src/plan/diff.js'

const layout = { name: 'T', x: 0, y: 0, w: 6, h: 3 }

describe('one normal form for a tile, whichever form it is written or read in', () => {
  it('reads a series tile as the server returns it (FACTS.md)', () => {
    const sent = normalTile({
      ...layout,
      series: [
        {
          type: 'time',
          sourceId: 's1',
          aggFn: 'count',
          where: 'level:error',
          groupBy: ['service', 'host'],
          dataSource: 'events'
        }
      ]
    })
    const returned = normalTile({
      ...layout,
      config: {
        displayType: 'line',
        sourceId: 's1',
        select: [{ aggFn: 'count', where: 'level:error', whereLanguage: 'lucene' }],
        groupBy: 'service,host',
        asRatio: false,
        fillNulls: true
      }
    })
    expect(sent).toEqual(returned)
    expect(sent.config).toEqual({
      displayType: 'line',
      sourceId: 's1',
      select: [{ aggFn: 'count', where: 'level:error' }],
      groupBy: 'service,host'
    })
  })

  it('keeps only the first series of a number tile, and asRatio only on a time tile with two series', () => {
    const number = seriesToConfig(
      [
        { type: 'number', aggFn: 'count' },
        { type: 'number', aggFn: 'max', field: 'd' }
      ],
      true
    )
    expect(number.select).toHaveLength(1)
    expect(normalizeConfig(number).asRatio).toBeUndefined()
    const ratio = normalizeConfig(
      seriesToConfig(
        [
          { type: 'time', aggFn: 'count' },
          { type: 'time', aggFn: 'count', where: 'x:1' }
        ],
        true
      )
    )
    expect(ratio.asRatio).toBe(true)
    expect(
      normalizeConfig({ displayType: 'line', select: [{ aggFn: 'count' }], asRatio: true }).asRatio
    ).toBeUndefined()
  })

  it('treats unset and set-to-the-default alike, but keeps a non-default', () => {
    expect(normalizeConfig({ displayType: 'line', select: [{ aggFn: 'count' }], fillNulls: true })).toEqual(
      normalizeConfig({ displayType: 'line', select: [{ aggFn: 'count', where: '' }] })
    )
    expect(
      normalizeConfig({ displayType: 'line', select: [{ aggFn: 'count' }], fillNulls: false }).fillNulls
    ).toBe(false)
  })

  it('keeps config keys it does not model (an update sends them back, so both sides hold them), not unknown select keys', () => {
    expect(
      normalizeConfig({
        displayType: 'line',
        select: [{ aggFn: 'count', futureKey: 1 }],
        seriesReturnType: 'column'
      })
    ).toEqual({
      displayType: 'line',
      select: [{ aggFn: 'count' }],
      seriesReturnType: 'column'
    })
  })

  it('compares groupBy written as a list or as a comma-joined string, with any spacing', () => {
    expect(normalizeGroupBy(['a', 'b'])).toBe('a,b')
    expect(normalizeGroupBy('a, b')).toBe('a,b')
    expect(normalizeGroupBy([])).toBeUndefined()
  })

  it('drops the value expression of a count and compares a number format on the tile', () => {
    const a = normalizeConfig({
      displayType: 'number',
      select: [{ aggFn: 'count', valueExpression: 'x', numberFormat: { output: 'number' } }]
    })
    const b = normalizeConfig({
      displayType: 'number',
      select: [{ aggFn: 'count' }],
      numberFormat: { output: 'number' }
    })
    expect(a).toEqual(b)
  })
})

describe('the ownership tag', () => {
  it('fits the 32-character tag limit and keeps long stacks apart', () => {
    expect(ownershipTag('shop')).toBe('obsdeploy:shop')
    const a = ownershipTag('a-very-long-stack-name-for-production-east')
    const b = ownershipTag('a-very-long-stack-name-for-production-west')
    expect(a.length).toBeLessThanOrEqual(32)
    expect(b.length).toBeLessThanOrEqual(32)
    expect(a).not.toBe(b)
    expect(a.startsWith('obsdeploy:')).toBe(true)
  })

  it('is never counted among the user tags, and tag order does not matter', () => {
    expect(userTags(['b', 'obsdeploy:shop', 'a', 'obsdeploy:other', 'a'])).toEqual(['a', 'b'])
  })
})

describe('field-level differences', () => {
  it('names tiles by name and lists each leaf that differs', () => {
    const before = { tiles: { Errors: { w: 6, select: [{ where: 'a' }] } } }
    const after = { tiles: { Errors: { w: 12, select: [{ where: 'b' }] }, New: { w: 1 } } }
    expect(diffValues(before, after, new Set(['tiles']))).toEqual([
      { path: 'tiles["Errors"].select[0].where', before: 'a', after: 'b' },
      { path: 'tiles["Errors"].w', before: 6, after: 12 },
      { path: 'tiles["New"]', after: { w: 1 } }
    ])
    expect(diffValues(before, before)).toEqual([])
  })
})
