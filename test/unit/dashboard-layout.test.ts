/**
 * Containers and tabs by title (src/kinds/dashboard/layout.ts): the ids a create or update sends (the live ones
 * of the same title kept, new ones made from the title and never one already taken), where each tile is sent,
 * and the normal form in which both sides of a plan compare containers (by title, no ids).
 */
import { describe, expect, it } from '@jest/globals'
import type { LiveDashboard, LiveTile } from '../../src/api/schemas.js'
import { layoutOf, livePlacement, normalContainers } from '../../src/kinds/dashboard/layout.js'

/** A live dashboard with these containers (as the server might return them: not always a list of records). */
const liveWith = (containers: unknown): LiveDashboard =>
  ({ id: 'd', name: 'D', tags: [], tiles: [], containers }) as LiveDashboard

describe('ids of new containers and tabs', () => {
  it('are a readable slug of the title and a digest of it: the same title, the same id', () => {
    const { containers } = layoutOf([
      { title: '  Überblick: Fehler & Latenz!! ' },
      { title: '***' },
      { title: 'A very long container title that goes on and on beyond forty chars' },
      { title: 'Main', tabs: [{ title: 'Tab' }, { title: 'tab!' }] }
    ])
    expect(containers).toStrictEqual([
      { id: 'berblick-fehler-latenz-cc35fc', title: '  Überblick: Fehler & Latenz!! ', collapsed: false },
      { id: 'group-596f41', title: '***', collapsed: false },
      {
        id: 'a-very-long-container-title-that-goes-on-98bba3',
        title: 'A very long container title that goes on and on beyond forty chars',
        collapsed: false
      },
      {
        id: 'main-eb814b',
        title: 'Main',
        collapsed: false,
        tabs: [
          { id: 'tab-90ddf1', title: 'Tab' },
          { id: 'tab-ad3a6a', title: 'tab!' }
        ]
      }
    ])
  })

  it('never take an id a live container or tab has: a title given back after a UI rename gets a suffix', () => {
    // "Main" was renamed "Old" in the UI; the manifest still has Main (a new container) and adds Old's tab again.
    const live = liveWith([
      { id: 'main-eb814b', title: 'Old', tabs: [{ id: 'tab-90ddf1', title: 'Renamed tab' }] },
      { id: 'main-eb814b-2', title: 'Older' }
    ])
    const { containers } = layoutOf(
      [
        { title: 'Main', tabs: [{ title: 'Tab' }] },
        { title: 'Old', tabs: [{ title: 'Tab' }] }
      ],
      live
    )
    expect(containers.map(c => [c.id, (c.tabs as Array<{ id: string }>).map(t => t.id)])).toEqual([
      ['main-eb814b-3', ['tab-90ddf1']],
      ['main-eb814b', ['tab-90ddf1-2']]
    ])
  })

  it('two new containers of one title (refused by the manifest rules, but never one id) get two ids', () => {
    const { containers } = layoutOf([{ title: 'Main' }, { title: 'Main' }])
    expect(containers.map(c => c.id)).toEqual(['main-eb814b', 'main-eb814b-2'])
  })
})

describe('an update keeps the ids of live containers and tabs of the same title', () => {
  it('each live container and tab is used once, in order; numeric ids are sent as text', () => {
    const live = liveWith([
      {
        id: 1,
        title: 'A',
        tabs: [
          { id: 't1', title: 'T' },
          { id: 't2', title: 'T' },
          { id: 't3', title: 'U' }
        ]
      },
      { id: 2, title: 'A' },
      { id: 3, title: 'B' }
    ])
    const layout = layoutOf(
      [
        { title: 'B', collapsed: true, collapsible: false, bordered: true },
        { title: 'A', tabs: [{ title: 'T' }, { title: 'T' }, { title: 'U' }] },
        { title: 'A' }
      ],
      live
    )
    expect(layout.containers).toStrictEqual([
      { id: '3', title: 'B', collapsed: true, collapsible: false, bordered: true },
      {
        id: '1',
        title: 'A',
        collapsed: false,
        tabs: [
          { id: 't1', title: 'T' },
          { id: 't2', title: 'T' },
          { id: 't3', title: 'U' }
        ]
      },
      { id: '2', title: 'A', collapsed: false }
    ])
  })

  it('a live dashboard without containers, or with containers that are not a list, has none to keep', () => {
    for (const containers of [undefined, null, 'x', {}]) {
      const { containers: sent } = layoutOf([{ title: 'Main' }], liveWith(containers))
      expect(sent).toStrictEqual([{ id: 'main-eb814b', title: 'Main', collapsed: false }])
    }
    expect(layoutOf(undefined).containers).toEqual([])
  })
})

describe('where a tile is sent', () => {
  const layout = layoutOf([{ title: 'Main', tabs: [{ title: 'One' }] }, { title: 'Side' }])
  const main = layout.containers[0]!

  it('with the ids of its container and tab; a container or tab the layout lacks is left out', () => {
    const tabId = (main.tabs as Array<{ id: string }>)[0]!.id
    expect(layout.placement({ container: 'Main', tab: 'One' })).toStrictEqual({ containerId: main.id, tabId })
    expect(layout.placement({ container: 'Main' })).toStrictEqual({ containerId: main.id })
    expect(layout.placement({ container: 'Main', tab: 'Nope' })).toStrictEqual({ containerId: main.id })
    expect(layout.placement({ container: 'Side', tab: 'One' })).toStrictEqual({
      containerId: layout.containers[1]!.id
    })
    expect(layout.placement({ container: 'Nope', tab: 'One' })).toStrictEqual({})
    expect(layout.placement({ tab: 'One' })).toStrictEqual({})
    expect(layout.placement({})).toStrictEqual({})
  })
})

describe('containers in the normal form', () => {
  it('keyed by title (or id), without ids, collapsed only when true, tabs by title (or id)', () => {
    expect(
      normalContainers([
        {
          id: 'c1',
          title: 'Main',
          collapsed: false,
          bordered: true,
          tabs: [{ id: 't1', title: 'One' }, { id: 't2' }]
        },
        { id: 'c2', title: 'Main', collapsed: true },
        { id: 'c3', title: 'Main' },
        { id: 'c4' },
        { id: 5, title: 7 }
      ])
    ).toStrictEqual({
      Main: { bordered: true, tabs: ['One', 't2'] },
      'Main (2)': { collapsed: true },
      'Main (3)': {},
      c4: {},
      '5': {}
    })
  })

  it('no containers (none, an empty list, not a list) are absent', () => {
    expect(normalContainers(undefined)).toBeUndefined()
    expect(normalContainers([])).toBeUndefined()
    expect(normalContainers({ a: 1 })).toBeUndefined()
  })

  it('a container without a title keeps its id as key, also for its copies', () => {
    expect(Object.keys(normalContainers([{ id: 'x' }, { id: 'x' }])!)).toEqual(['x', 'x (2)'])
  })
})

describe('where a live tile is', () => {
  const live = liveWith([
    { id: 'c1', title: 'Main', tabs: [{ id: 't1', title: 'One' }, { id: 't2' }] },
    { id: 'c2' }
  ])
  const tileIn = (containerId?: string, tabId?: string) =>
    ({ name: 'T', x: 0, y: 0, w: 1, h: 1, containerId, tabId }) as LiveTile

  it('by the titles of its container and tab, or their ids where they have no title', () => {
    expect(livePlacement(tileIn('c1', 't1'), live)).toStrictEqual({ container: 'Main', tab: 'One' })
    expect(livePlacement(tileIn('c1', 't2'), live)).toStrictEqual({ container: 'Main', tab: 't2' })
    expect(livePlacement(tileIn('c1'), live)).toStrictEqual({ container: 'Main' })
    expect(livePlacement(tileIn('c1', 'gone'), live)).toStrictEqual({ container: 'Main' })
    expect(livePlacement(tileIn('c2', 't1'), live)).toStrictEqual({ container: 'c2' })
  })

  it('nowhere when its container is gone or it has none', () => {
    expect(livePlacement(tileIn('gone', 't1'), live)).toStrictEqual({})
    expect(livePlacement(tileIn(), live)).toStrictEqual({})
    expect(livePlacement(tileIn('c1'), liveWith(undefined))).toStrictEqual({})
  })
})
