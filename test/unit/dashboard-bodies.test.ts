/**
 * The request bodies of a dashboard (src/kinds/dashboard/bodies.ts), field by field: what a create sends, what an
 * update sends back or clears (a PUT keeps the dashboard-level fields it omits), link-outs to created dashboards,
 * the saved query's language, and the managed filter.
 */
import { describe, expect, it } from '@jest/globals'
import type { LiveDashboard } from '../../src/api/schemas.js'
import { createBody, savedQueryOf, updateBody } from '../../src/kinds/dashboard/bodies.js'
import type { DashboardRequest } from '../../src/kinds/dashboard/desired.js'

const TAG = 'obsdeploy:shop'
const self = { tag: TAG, mode: 'self-hosted' as const }

const errorsTile = {
  spec: { name: 'Errors' },
  body: { name: 'Errors', x: 0, y: 0, w: 6, h: 3, config: { displayType: 'line', sourceId: 'src-logs' } }
}
/** A table tile whose click opens the dashboard `target` (by name, until the apply knows its id). */
const linkTile = (target: string) => ({
  spec: { name: 'Link' },
  body: {
    name: 'Link',
    x: 0,
    y: 3,
    w: 6,
    h: 3,
    config: {
      displayType: 'table',
      sourceId: 'src-logs',
      onClick: { type: 'dashboard', target: { mode: 'id', dashboard: target } }
    }
  }
})

const request = (over: Partial<DashboardRequest> = {}, spec: Partial<DashboardRequest['spec']> = {}) =>
  ({
    spec: { name: 'D', ...spec },
    tiles: [errorsTile],
    filters: [],
    waitsFor: new Set<string>(),
    linksLater: false,
    ...over
  }) as DashboardRequest

const live = (over: Partial<LiveDashboard> = {}) =>
  ({ id: 'd1', name: 'D', tags: [TAG], tiles: [{ id: 't1', ...errorsTile.body }], ...over }) as LiveDashboard

describe('a create body', () => {
  it('has the user tags in their order without repeats or ownership tags, then this stack’s tag', () => {
    const body = createBody(request({}, { tags: ['b', 'obsdeploy:other', 'a', 'b'] }), self)
    expect(body.tags).toEqual(['b', 'a', TAG])
    expect(createBody(request(), self).tags).toEqual([TAG])
  })

  it('sends a link-out only once the target has an id, which idOf gives; without idOf none', () => {
    const d = request({ tiles: [linkTile('Other')] })
    const config = (body: Record<string, unknown>) =>
      (body.tiles as Array<{ config: Record<string, unknown> }>)[0]!.config
    expect(config(createBody(d, self)).onClick).toBeUndefined()
    expect(config(createBody(d, { ...self, idOf: () => undefined })).onClick).toBeUndefined()
    expect(
      config(createBody(d, { ...self, idOf: n => (n === 'Other' ? 'd-other' : undefined) })).onClick
    ).toEqual({ type: 'dashboard', target: { mode: 'id', id: 'd-other' } })
    expect(config(updateBody(d, live(), self)).onClick).toBeUndefined()
    expect(config(updateBody(d, live(), { ...self, idOf: () => 'd-9' })).onClick).toEqual({
      type: 'dashboard',
      target: { mode: 'id', id: 'd-9' }
    })
  })

  it('sends each dashboard-level field the manifest sets, and only those', () => {
    const filter = { type: 'QUERY_EXPRESSION', name: 'S', expression: 'S' }
    const body = createBody(
      request(
        { filters: [filter] },
        {
          savedQuery: 'a:b',
          savedQueryLanguage: 'sql',
          savedFilterValues: [{ condition: 'x = 1' }],
          containers: [{ title: 'Main' }]
        }
      ),
      self
    )
    expect(body).toEqual({
      name: 'D',
      tags: [TAG],
      tiles: [errorsTile.body],
      filters: [filter],
      savedQuery: 'a:b',
      savedQueryLanguage: 'sql',
      savedFilterValues: [{ condition: 'x = 1' }],
      containers: [{ id: expect.stringMatching(/^main-/), title: 'Main', collapsed: false }]
    })
    expect(Object.keys(createBody(request({}, { savedFilterValues: [] }), self)).sort()).toEqual([
      'name',
      'tags',
      'tiles'
    ])
  })

  it('places a tile in its container by id', () => {
    const body = createBody(
      request(
        { tiles: [{ spec: { name: 'Errors', container: 'Main' }, body: errorsTile.body }] },
        { containers: [{ title: 'Main' }] }
      ),
      self
    )
    const [container] = body.containers as Array<{ id: string }>
    expect(body.tiles).toEqual([{ ...errorsTile.body, containerId: container!.id }])
  })

  it('in managed mode keeps only the managed fields; self-hosted keeps what it has', () => {
    const d = request({ tiles: [{ spec: errorsTile.spec, body: { ...errorsTile.body, extra: 1 } }] })
    expect((createBody(d, { tag: TAG, mode: 'managed' }).tiles as object[])[0]).not.toHaveProperty('extra')
    expect((createBody(d, self).tiles as object[])[0]).toHaveProperty('extra', 1)
    expect((updateBody(d, live(), { tag: TAG, mode: 'managed' }).tiles as object[])[0]).not.toHaveProperty(
      'extra'
    )
    expect((updateBody(d, live(), self).tiles as object[])[0]).toHaveProperty('extra', 1)
  })
})

describe('an update body', () => {
  it('keeps the live ids of tiles of the same name and tags the dashboard for this stack only', () => {
    const body = updateBody(request({}, { tags: ['x', 'x'] }), live({ tags: ['obsdeploy:other', 'y'] }), self)
    expect(body.tags).toEqual(['x', TAG])
    expect(updateBody(request(), live(), self).tags).toEqual([TAG])
    expect((body.tiles as Array<{ id?: string }>).map(t => t.id)).toEqual(['t1'])
  })

  it('sends nothing for a dashboard-level field neither side has (empty lists and nulls are none)', () => {
    const bare = live({
      filters: [],
      savedQuery: null,
      savedQueryLanguage: null,
      savedFilterValues: [],
      containers: []
    } as Partial<LiveDashboard>)
    expect(Object.keys(updateBody(request(), bare, self)).sort()).toEqual(['name', 'tags', 'tiles'])
    expect(Object.keys(updateBody(request(), live(), self)).sort()).toEqual(['name', 'tags', 'tiles'])
  })

  it('clears each field the live dashboard has and the manifest no longer sets', () => {
    const was = live({
      filters: [{ id: 'f1', type: 'QUERY_EXPRESSION', name: 'S', expression: 'S' }],
      savedQuery: 'a:b',
      savedQueryLanguage: 'lucene',
      savedFilterValues: [{ condition: 'x = 1' }],
      containers: [{ id: 'c1', title: 'Main' }]
    } as Partial<LiveDashboard>)
    expect(updateBody(request(), was, self)).toEqual({
      name: 'D',
      tags: [TAG],
      tiles: [{ id: 't1', ...errorsTile.body }],
      filters: [],
      savedQuery: null,
      savedQueryLanguage: null,
      savedFilterValues: [],
      containers: []
    })
    // The language alone is a field of its own.
    expect(
      updateBody(request(), live({ savedQueryLanguage: 'sql' } as Partial<LiveDashboard>), self)
    ).toEqual(expect.objectContaining({ savedQueryLanguage: null }))
    expect(
      updateBody(request(), live({ savedQuery: 'q' } as Partial<LiveDashboard>), self)
    ).not.toHaveProperty('savedQueryLanguage')
  })

  it('sends what the manifest sets, with the ids of live filters and containers of the same name', () => {
    const was = live({
      filters: [{ id: 'f1', type: 'QUERY_EXPRESSION', name: 'S', expression: 'Old' }],
      containers: [{ id: 'c1', title: 'Main' }]
    } as Partial<LiveDashboard>)
    const body = updateBody(
      request(
        { filters: [{ type: 'QUERY_EXPRESSION', name: 'S', expression: 'New' }] },
        {
          savedQuery: 'a:b',
          savedFilterValues: [{ condition: 'x = 1' }],
          containers: [{ title: 'Main' }]
        }
      ),
      was,
      self
    )
    expect(body).toEqual(
      expect.objectContaining({
        filters: [{ id: 'f1', type: 'QUERY_EXPRESSION', name: 'S', expression: 'New' }],
        savedQuery: 'a:b',
        savedQueryLanguage: 'lucene',
        savedFilterValues: [{ condition: 'x = 1' }],
        containers: [{ id: 'c1', title: 'Main', collapsed: false }]
      })
    )
    const fresh = updateBody(
      request({ filters: [{ name: 'S' }] }, { containers: [{ title: 'Main' }] }),
      live(),
      self
    )
    expect(fresh.filters).toEqual([{ id: expect.stringMatching(/^[0-9a-f]{24}$/), name: 'S' }])
    expect(fresh.containers).toEqual([
      { id: expect.stringMatching(/^main-/), title: 'Main', collapsed: false }
    ])
  })
})

describe('the saved query as the server stores it', () => {
  it('a query without a language is lucene; none is null for both', () => {
    expect(savedQueryOf(request({}, { savedQuery: 'a:b' }))).toEqual({
      savedQuery: 'a:b',
      savedQueryLanguage: 'lucene'
    })
    expect(savedQueryOf(request({}, { savedQuery: 'a', savedQueryLanguage: 'sql' }))).toEqual({
      savedQuery: 'a',
      savedQueryLanguage: 'sql'
    })
    expect(savedQueryOf(request())).toEqual({ savedQuery: null, savedQueryLanguage: null })
    expect(savedQueryOf(request({}, { savedQuery: '' }))).toEqual({
      savedQuery: '',
      savedQueryLanguage: null
    })
  })
})
