/** A tile written with `series:` is planned in the user's words (src/kinds/dashboard/series-view.ts). */
import { describe, expect, it } from '@jest/globals'
import { inSeriesTerms } from '../../src/kinds/dashboard/series-view.js'
import { TAG, change, created, dashboard, plan } from '../support/dashboard-plan.js'

const seriesTile = (where: string, extra = '') =>
  `  - name: "Errors"\n    x: 0\n    y: 0\n    w: 6\n    h: 3\n    series:\n      - type: time\n        source: Logs\n        aggFn: sum\n        field: Duration\n        where: "${where}"\n${extra}`

describe('a series tile in the plan', () => {
  it('an update names series fields, not the config keys the server stores', async () => {
    const yaml = dashboard('D', seriesTile('level:error'))
    const [d] = await created(yaml)
    const live = [{ ...d!, id: 'd-1', tags: [TAG] }]
    const c = change(
      plan(dashboard('D', seriesTile('level:warn').replace('field: Duration', 'field: Latency')), live),
      'D'
    )
    expect(c.fields.map(f => f.path).sort()).toEqual([
      'tiles["Errors"].series[0].field',
      'tiles["Errors"].series[0].where'
    ])
  })

  it('a created tile shows series, with its type and fields', () => {
    const c = change(plan(dashboard('D', seriesTile('level:error'))), 'D')
    const tile = c.fields.find(f => f.path === 'tiles["Errors"]')!.after as Record<string, unknown>
    expect(tile).not.toHaveProperty('select')
    expect(tile).not.toHaveProperty('displayType')
    expect(tile.series).toEqual([
      expect.objectContaining({ type: 'time', aggFn: 'sum', field: 'Duration', where: 'level:error' })
    ])
  })

  it('maps paths and values; leaves a config tile and a layout field as they are', () => {
    const names = new Set(['S'])
    expect(
      inSeriesTerms(
        { path: 'tiles["S"].select[1]', after: { aggFn: 'avg', valueExpression: 'D', metricType: 'gauge' } },
        names
      )
    ).toEqual({
      path: 'tiles["S"].series[1]',
      after: { aggFn: 'avg', field: 'D', metricDataType: 'gauge' }
    })
    expect(inSeriesTerms({ path: 'tiles["S"].displayType', before: 'line', after: 'table' }, names)).toEqual({
      path: 'tiles["S"].series[0].type',
      before: 'time',
      after: 'table'
    })
    expect(inSeriesTerms({ path: 'tiles["S"].groupBy', after: 'service' }, names).path).toBe(
      'tiles["S"].series[0].groupBy'
    )
    expect(inSeriesTerms({ path: 'tiles["S"].x', before: 0, after: 6 }, names).path).toBe('tiles["S"].x')
    const config = { path: 'tiles["C"].select[0].where', before: 'a', after: 'b' }
    expect(inSeriesTerms(config, names)).toBe(config)
  })
})
