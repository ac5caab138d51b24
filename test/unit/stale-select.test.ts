/**
 * Select fields the managed cloud returns though its write schema refuses them (TF dashboard_select_fixups.go): a
 * `level` on an aggregation other than quantile, a count's value expression. Dropped as a dashboard is read.
 */
import { describe, expect, it } from '@jest/globals'
import { LiveDashboard } from '../../src/api/schemas.js'
import { dropStaleSelectFields } from '../../src/api/stale-select.js'

const read = (tile: Record<string, unknown>) =>
  dropStaleSelectFields(
    LiveDashboard.parse({ id: 'd1', name: 'D', tiles: [{ x: 0, y: 0, w: 6, h: 3, ...tile }] })
  ).tiles[0]!

describe('stale select fields on read', () => {
  it('drops a level on anything but a quantile, and a count value expression; keeps what is valid', () => {
    const tile = read({
      config: {
        displayType: 'line',
        select: [
          { aggFn: 'count', level: 0.95, valueExpression: 'Duration', where: '' },
          { aggFn: 'avg', level: 0.5, valueExpression: 'Duration' },
          { aggFn: 'quantile', level: 0.99, valueExpression: 'Duration' },
          { aggFn: 'count', valueExpression: '' }
        ]
      }
    })
    expect(tile.config!.select).toEqual([
      { aggFn: 'count', where: '' },
      { aggFn: 'avg', valueExpression: 'Duration' },
      { aggFn: 'quantile', level: 0.99, valueExpression: 'Duration' },
      // An empty one is what every count comes back with: not a leftover.
      { aggFn: 'count', valueExpression: '' }
    ])
  })

  it('a series keeps its level only on a quantile too; other shapes pass as they are', () => {
    expect(read({ series: [{ type: 'time', aggFn: 'sum', level: 0.9, field: 'x' }] }).series).toEqual([
      { type: 'time', aggFn: 'sum', field: 'x' }
    ])
    expect(read({ config: { displayType: 'search', select: 'a, b' } }).config).toEqual({
      displayType: 'search',
      select: 'a, b'
    })
  })
})
