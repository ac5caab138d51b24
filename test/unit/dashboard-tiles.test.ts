/**
 * Live and desired tiles side by side (src/kinds/dashboard/tiles.ts): keyed by name (copies made in the UI get
 * their own key), their ids as the server sent them, and the flat form in which tiles compare.
 */
import { describe, expect, it } from '@jest/globals'
import type { LiveTile } from '../../src/api/schemas.js'
import {
  flatTile,
  isAlertable,
  keyedLiveTiles,
  liveDisplayType,
  sameContent,
  tileIdsOf
} from '../../src/kinds/dashboard/tiles.js'
import { apply, change, created, dashboard, plan, tile } from '../support/dashboard-plan.js'

const at = { x: 0, y: 0, w: 6, h: 3 }

describe('live tiles by name', () => {
  it('a third copy of a name gets its own key, even beside a tile named like the second key', () => {
    const tiles = [
      { name: 'X', n: 1 },
      { name: 'X (2)', n: 2 },
      { name: 'X', n: 3 },
      { name: 'X', n: 4 }
    ]
    expect([...keyedLiveTiles({ tiles })].map(([key, t]) => [key, t.n])).toEqual([
      ['X', 1],
      ['X (2)', 2],
      ['X (3)', 3],
      ['X (4)', 4]
    ])
  })

  it('tile ids by key, as the server sent them (numbers stay numbers); a tile without an id has none', () => {
    const ids = tileIdsOf({ tiles: [{ name: 'A', id: 7 }, { name: 'B' }, { name: 'A', id: 'x' }] })
    expect([...ids]).toEqual([
      ['A', 7],
      ['A (2)', 'x']
    ])
  })

  it('an update of a dashboard with three tiles of one name keeps the first and removes the copies by key', async () => {
    const yaml = dashboard('D', tile('Errors'))
    const [live] = await created(yaml)
    live!.tiles.push({ ...live!.tiles[0]!, id: 'copy-1', y: 3 }, { ...live!.tiles[0]!, id: 'copy-2', y: 6 })
    const o = plan(yaml, [live!])
    expect(change(o, 'D').fields.map(f => f.path)).toEqual(['tiles["Errors (2)"]', 'tiles["Errors (3)"]'])
    const { sent } = await apply(o)
    expect((sent[0]!.body!.tiles as Array<{ id: string }>).map(t => t.id)).toEqual([live!.tiles[0]!.id])
  })
})

describe('tiles in the flat form', () => {
  it('are the layout and the normal config, without the name', () => {
    const t = {
      name: 'A',
      ...at,
      config: { displayType: 'line', sourceId: 's', select: [{ aggFn: 'count' }] }
    }
    const flat = flatTile(t)
    expect(flat).toMatchObject({ x: 0, y: 0, w: 6, h: 3, displayType: 'line', sourceId: 's' })
    expect(flat).not.toHaveProperty('name')
    expect(sameContent(flat, flatTile({ ...t, name: 'B' }))).toBe(true)
    expect(sameContent(flat, flatTile({ ...t, w: 7 }))).toBe(false)
    expect(sameContent(flat, flatTile({ ...t, config: { ...t.config, sourceId: 'other' } }))).toBe(false)
  })

  it('a layout number the server sent as text compares equal to the number', () => {
    const t = { name: 'A', ...at, config: { displayType: 'markdown', markdown: 'hi' } }
    expect(flatTile({ ...t, x: '0', y: '0', w: '6', h: '3' })).toEqual(flatTile(t))
  })

  it('a series tile flattens to the config form the server stores; null series, config and asRatio are absent', () => {
    const series = [{ type: 'time', sourceId: 's', aggFn: 'count', where: '' }]
    const asSeries = flatTile({ name: 'A', ...at, series, config: null, asRatio: null })
    expect(asSeries).toEqual(flatTile({ name: 'A', ...at, series }))
    expect(asSeries.displayType).toBe('line')
    expect(flatTile({ name: 'A', ...at, config: null, series: null })).toEqual({ ...at, displayType: 'line' })
  })

  it('asRatio on the tile beside a config counts as the config setting', () => {
    const config = { displayType: 'line', sourceId: 's', select: [{ aggFn: 'count' }, { aggFn: 'sum' }] }
    expect(flatTile({ name: 'A', ...at, config, asRatio: true })).toEqual(
      flatTile({ name: 'A', ...at, config: { ...config, asRatio: true } })
    )
  })
})

describe('display types', () => {
  it('of a live tile in either form; only line, stacked bar and number carry alerts', () => {
    const live = (t: Partial<LiveTile>) => ({ name: 'A', ...at, ...t }) as LiveTile
    expect(liveDisplayType(live({ config: { displayType: 'table' } }))).toBe('table')
    expect(liveDisplayType(live({ series: [{ type: 'number', sourceId: 's', aggFn: 'count' }] }))).toBe(
      'number'
    )
    expect(liveDisplayType(live({}))).toBe('line')
    expect(['line', 'stacked_bar', 'number', 'table', 'pie', undefined].map(isAlertable)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false
    ])
  })
})
