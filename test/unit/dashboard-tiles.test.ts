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
  pairTiles,
  tileIdsOf,
  alertTileRef
} from '../../src/kinds/dashboard/tiles.js'
import type { DesiredDashboard } from '../../src/kinds/dashboard/desired.js'
import { keyText } from '../../src/plan/diff.js'
import { apply, change, created, dashboard, plan, tile, warnings } from '../support/dashboard-plan.js'

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

  it('a repeated name keys each tile by its name and short id: a 6-character id whole, an ObjectId its last 6', () => {
    const tiles = [
      { name: 'CPU', id: '55ef66' },
      { name: 'CPU', id: '65f0c0ffee00000000000001' },
      { name: 'Mem', id: '31e132' }
    ]
    expect([...keyedLiveTiles({ tiles }).keys()].map(keyText)).toEqual(['CPU #55ef66', 'CPU #000001', 'Mem'])
    // Two ObjectIds of one name that end alike: their whole ids.
    const alike = [
      { name: 'A', id: '65f0c0ffee00000000000001' },
      { name: 'A', id: '75f0c0ffee00000000000001' }
    ]
    expect([...keyedLiveTiles({ tiles: alike }).keys()].map(keyText)).toEqual(alike.map(t => `A #${t.id}`))
  })

  it('tiles pair by pin first, then by name; a paired tile takes its live key', () => {
    const live = {
      tiles: [
        { name: 'CPU', id: 'aaaaaa' },
        { name: 'CPU', id: 'bbbbbb' },
        { name: 'Heap', id: 'cccccc' }
      ]
    }
    // The pin wins over the name order; the unpinned tile of that name takes the one left.
    const p = pairTiles([{ name: 'CPU' }, { name: 'CPU', id: 'aaaaaa' }, { name: 'Heap' }], live)
    expect(p.desired.map(d => [keyText(d.key), d.live?.id])).toEqual([
      ['CPU #bbbbbb', 'bbbbbb'],
      ['CPU #aaaaaa', 'aaaaaa'],
      ['Heap', 'cccccc']
    ])
    // A pinned tile renamed keeps its live tile; its key is its own name.
    const renamed = pairTiles(
      [
        { name: 'CPU', id: 'aaaaaa' },
        { name: 'CPU (system)', id: 'bbbbbb' }
      ],
      live
    )
    expect(renamed.desired.map(d => [keyText(d.key), d.live?.id])).toEqual([
      ['CPU #aaaaaa', 'aaaaaa'],
      ['CPU (system)', 'bbbbbb']
    ])
  })

  it('tile ids by how an alert names a tile: a unique name, or `#` and a pin', () => {
    const live = {
      tiles: [{ name: 'A', id: 7 }, { name: 'B' }, { name: 'C', id: 'x' }, { name: 'C', id: 'y' }]
    }
    const ids = tileIdsOf(
      [{ name: 'A' }, { name: 'B' }, { name: 'C', id: 'y' }, { name: 'C', id: 'x' }],
      live
    )
    expect([...ids]).toEqual([
      ['A', 7],
      ['#y', 'y'],
      ['#x', 'x']
    ])
    expect(ids.get(alertTileRef({ tile: 'C', tileId: 'x' }))).toBe('x')
  })

  it('an update of a dashboard with three tiles of one name keeps the first and removes the copies by key', async () => {
    const yaml = dashboard('D', tile('Errors'))
    const [live] = await created(yaml)
    live!.tiles.push({ ...live!.tiles[0]!, id: 'copy-1', y: 3 }, { ...live!.tiles[0]!, id: 'copy-2', y: 6 })
    const o = plan(yaml, [live!])
    expect(change(o, 'D').fields.map(f => f.path)).toEqual([
      'tiles["Errors" #copy-1]',
      'tiles["Errors" #copy-2]'
    ])
    const { sent } = await apply(o)
    expect((sent[0]!.body!.tiles as Array<{ id: string }>).map(t => t.id)).toEqual([live!.tiles[0]!.id])
  })
})

describe('tiles of one name, pinned', () => {
  const twoCpu = (second = 'CPU') =>
    dashboard('D', tile('CPU', undefined, '    id: aaaaaa\n') + tile(second, undefined, '    id: bbbbbb\n'))
  const live = async () => {
    const [d] = await created(dashboard('D', tile('CPU') + tile('Other')))
    d!.tiles[0]!.id = 'aaaaaa'
    d!.tiles[1] = { ...d!.tiles[1]!, name: 'CPU', id: 'bbbbbb' }
    return d!
  }

  it('pair with their live tiles by pin: nothing to change', async () => {
    expect(change(plan(twoCpu(), [await live()]), 'D').action).toBe('noop')
  })

  it('renaming one changes only that tile, which keeps its id', async () => {
    const d = await live()
    const o = plan(twoCpu('CPU (system)'), [d])
    const c = change(o, 'D')
    expect(c.fields.map(f => f.path)).toEqual(['tiles["CPU" #bbbbbb]', 'tiles["CPU (system)"]'])
    expect(c.notes).toContain(
      'tile "CPU" #bbbbbb renamed to "CPU (system)": its `id:` pin keeps its id and alerts'
    )
    const { sent } = await apply(o)
    const tiles = sent[0]!.body!.tiles as Array<{ id: string; name: string }>
    expect(tiles.map(t => [t.name, t.id])).toEqual([
      ['CPU', 'aaaaaa'],
      ['CPU (system)', 'bbbbbb']
    ])
  })

  it('where the server can patch tiles, a rename is a patch of that tile alone', async () => {
    const o = plan(twoCpu('CPU (system)'), [await live()], { dashboardPatch: true })
    const d = o.planned.find(p => p.change.name === 'D')!.desired!.value as DesiredDashboard
    expect(d.write).toEqual({ via: 'patch', tiles: ['CPU (system)'] })
  })

  it('a pin no live tile has is a warning at the pin; the tile is matched by name', async () => {
    const yaml = dashboard(
      'D',
      tile('CPU', undefined, '    id: aaaaaa\n') + tile('CPU', undefined, '    id: cccccc\n')
    )
    const o = plan(yaml, [await live()])
    expect(change(o, 'D').action).toBe('noop')
    expect(warnings(o)).toContain(
      'no tile of dashboard "D" has id "cccccc": matched by name with tile bbbbbb; pin it to its live id'
    )
    const at = o.plan.diagnostics.find(d => d.message.startsWith('no tile of dashboard'))!
    expect([at.field, at.line]).toEqual(['tiles[1].id', 20])
  })

  it('a pin on a dashboard that is created is a warning at the pin: the server gives new tiles ids of its own', () => {
    const o = plan(twoCpu(), [])
    expect(change(o, 'D').action).toBe('create')
    const pinned = o.plan.diagnostics.filter(d => d.message.includes('the server gives each new tile an id'))
    expect(pinned.map(d => d.field)).toEqual(['tiles[0].id', 'tiles[1].id'])
    expect(pinned[0]!.severity).toBe('warning')
  })

  it('a change to one of them is a change of that tile alone, by name and short id', async () => {
    const d = await live()
    d.tiles[1]!.w = 7
    expect(change(plan(twoCpu(), [d]), 'D').fields.map(f => f.path)).toEqual(['tiles["CPU" #bbbbbb].w'])
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
