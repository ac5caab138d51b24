/**
 * Both sides of a dashboard in the one form a plan compares (src/kinds/dashboard/normal.ts): the owner, the user's
 * tags, tiles by name with their container and tab titles, filters without ids, the saved query, saved filter values
 * without the default type, and nothing for a field that is empty on either side.
 */
import { describe, expect, it } from '@jest/globals'
import type { LiveDashboard } from '../../src/api/schemas.js'
import type { DesiredDashboard } from '../../src/kinds/dashboard/desired.js'
import { normalDesired, normalLive } from '../../src/kinds/dashboard/normal.js'
import type { Desired, PlanContext } from '../../src/kinds/kind.js'

const TAG = 'obsdeploy:shop'
const ctx = { settings: { ownershipTag: TAG } } as PlanContext

const config = { displayType: 'line', sourceId: 'src-logs', select: [{ aggFn: 'count' }] }
const body = (name: string, more: Record<string, unknown> = {}) => ({
  name,
  x: 0,
  y: 0,
  w: 6,
  h: 3,
  config: { ...config, ...more }
})
const flat = {
  x: 0,
  y: 0,
  w: 6,
  h: 3,
  displayType: 'line',
  sourceId: 'src-logs',
  select: [{ aggFn: 'count' }]
}

const desired = (
  spec: Partial<DesiredDashboard['spec']> = {},
  tiles: DesiredDashboard['tiles'] = [{ spec: { name: 'T', x: 0, y: 0, w: 6, h: 3 }, body: body('T') }],
  filters: DesiredDashboard['filters'] = []
): Desired<DesiredDashboard> => ({
  name: 'D',
  address: 'Dashboard/D',
  source: { file: 'd.yaml', line: 1, column: 1 },
  value: {
    spec: { kind: 'Dashboard', name: 'D', ...spec },
    located: undefined as never,
    tiles,
    filters,
    waitsFor: new Set(),
    linksLater: false
  }
})

const live = (over: Partial<LiveDashboard> = {}) =>
  ({ id: 'd1', name: 'D', tags: [TAG], tiles: [{ id: 't1', ...body('T') }], ...over }) as LiveDashboard

describe('the live side', () => {
  it('is owned by this stack when it has its tag, else by the first other stack, else by nobody', () => {
    expect(normalLive(live({ tags: ['obsdeploy:a', TAG, 'x'] }), ctx).owner).toBe(TAG)
    expect(normalLive(live({ tags: ['x', 'obsdeploy:a', 'obsdeploy:b'] }), ctx).owner).toBe('obsdeploy:a')
    expect(normalLive(live({ tags: ['x'] }), ctx)).not.toHaveProperty('owner')
    expect(normalLive(live({ tags: ['z', 'obsdeploy:a', 'b'] }), ctx).tags).toEqual(['b', 'z'])
  })

  it('leaves out what is empty, null or blank, and ids the server or the UI gave', () => {
    const bare = live({
      filters: [],
      savedQuery: '',
      savedQueryLanguage: null,
      savedFilterValues: [],
      containers: []
    } as Partial<LiveDashboard>)
    expect(normalLive(bare, ctx)).toStrictEqual({ name: 'D', owner: TAG, tags: [], tiles: { T: flat } })
    const full = live({
      tiles: [{ id: 't1', ...body('T'), containerId: 'c1', tabId: 'tab1' }],
      containers: [{ id: 'c1', title: 'Main', tabs: [{ id: 'tab1', title: 'One' }] }],
      filters: [{ id: 'f1', type: 'QUERY_EXPRESSION', name: 'S', expression: 'S' }],
      savedQuery: 'a:b',
      savedQueryLanguage: 'lucene',
      savedFilterValues: [
        { condition: 'x = 1', type: 'sql' },
        { condition: 'y', type: 'other' }
      ]
    } as Partial<LiveDashboard>)
    expect(normalLive(full, ctx)).toStrictEqual({
      name: 'D',
      owner: TAG,
      tags: [],
      tiles: { T: { ...flat, container: 'Main', tab: 'One' } },
      filters: [{ type: 'QUERY_EXPRESSION', name: 'S', expression: 'S' }],
      savedQuery: 'a:b',
      savedQueryLanguage: 'lucene',
      savedFilterValues: [{ condition: 'x = 1' }, { condition: 'y', type: 'other' }],
      containers: expect.anything()
    })
  })
})

describe('the desired side', () => {
  it('equals the live side of the dashboard its create leaves', () => {
    const d = desired(
      {
        tags: ['b', 'a'],
        savedQuery: 'a:b',
        savedFilterValues: [{ condition: 'x = 1' }],
        containers: [{ title: 'Main', tabs: [{ title: 'One' }] }]
      },
      [{ spec: { name: 'T', x: 0, y: 0, w: 6, h: 3, container: 'Main', tab: 'One' }, body: body('T') }],
      [{ type: 'QUERY_EXPRESSION', name: 'S', expression: 'S' }]
    )
    const created = live({
      tags: ['b', 'a', TAG],
      tiles: [{ id: 't1', ...body('T'), containerId: 'c1', tabId: 'tab1' }],
      containers: [{ id: 'c1', title: 'Main', collapsed: false, tabs: [{ id: 'tab1', title: 'One' }] }],
      filters: [{ id: 'f1', type: 'QUERY_EXPRESSION', name: 'S', expression: 'S' }],
      savedQuery: 'a:b',
      savedQueryLanguage: 'lucene',
      savedFilterValues: [{ condition: 'x = 1', type: 'sql' }]
    } as Partial<LiveDashboard>)
    expect(normalDesired(d, ctx, created)).toStrictEqual(normalLive(created, ctx))
    expect(normalDesired(d, ctx)).toStrictEqual(normalLive(created, ctx))
    expect(normalDesired(d, ctx).tags).toEqual(['a', 'b'])
  })

  it('has only name, owner, tags and tiles when the manifest sets nothing else', () => {
    expect(normalDesired(desired(), ctx)).toStrictEqual({
      name: 'D',
      owner: TAG,
      tags: [],
      tiles: { T: flat }
    })
  })

  it('a tile holds the setting of its live twin that the update sends back as read', () => {
    const carrying = live({ tiles: [{ id: 't1', ...body('T', { aFutureSetting: 7 }) }] })
    expect(normalDesired(desired(), ctx, carrying).tiles).toEqual({ T: { ...flat, aFutureSetting: 7 } })
    expect(normalDesired(desired(), ctx, live()).tiles).toEqual({ T: flat })
  })
})
