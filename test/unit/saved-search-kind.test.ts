/**
 * The SavedSearch kind (src/kinds/saved-search.ts) planned from manifests and applied to an in-memory server: a
 * PUT is a full replace, so every request carries the whole search with the server's defaults spelled out; the
 * stack owns the searches with its tag (an adopted one's other tag is replaced); defaults and the filters' `sql`
 * type compare equal to a manifest that leaves them out; a lost create is found by name and this stack's tag.
 */
import { describe, expect, it } from '@jest/globals'
import { savedSearchKind } from '../../src/kinds/saved-search.js'
import { actions, apply, change, plan, RecordStore, settings, TAG } from '../support/record-store.js'

const LOGS = { id: 'src-logs', name: 'App logs', kind: 'log' }
const search = (...more: string[]) =>
  ['kind: SavedSearch', 'name: Errors', 'source: App logs', ...more, ''].join('\n')

/** What `search()` sends: the whole search, the server's defaults spelled out. */
const sentBody = (over: Record<string, unknown> = {}) => ({
  name: 'Errors',
  sourceId: 'src-logs',
  select: '',
  where: '',
  whereLanguage: 'lucene',
  orderBy: '',
  tags: [TAG],
  filters: [],
  ...over
})
/** What the server stores of it. */
const stored = (over: Record<string, unknown> = {}) => ({ id: 'q1', ...sentBody(), ...over })
const storeWith = (...searches: Array<Record<string, unknown> & { id: string }>) =>
  new RecordStore({ sources: [LOGS], 'saved-searches': searches })

describe('creating a saved search', () => {
  it('sends the whole search, defaults spelled out, with the ownership tag; the next plan is a no-op', async () => {
    const store = storeWith()
    const yaml = search(
      'where: level:error',
      'tags: [team-b, team-a]',
      'filters:',
      '  - condition: "Service IN (\'a\')"',
      '  - { type: sql, condition: "Level IN (\'x\')" }'
    )
    const p = plan(store, yaml)
    expect(p.diagnostics).toEqual([])
    expect(change(p, 'SavedSearch/Errors').fields).toEqual([
      { path: 'filters', after: [{ condition: "Service IN ('a')" }, { condition: "Level IN ('x')" }] },
      { path: 'name', after: 'Errors' },
      { path: 'owner', after: TAG },
      { path: 'source', after: 'App logs' },
      { path: 'tags', after: ['team-a', 'team-b'] },
      { path: 'where', after: 'level:error' }
    ])
    expect(change(p, 'SavedSearch/Errors').notes).toEqual([])
    await apply(store, p)
    expect(store.sent()).toStrictEqual([
      {
        method: 'POST',
        collection: 'saved-searches',
        body: {
          name: 'Errors',
          sourceId: 'src-logs',
          select: '',
          where: 'level:error',
          whereLanguage: 'lucene',
          orderBy: '',
          tags: ['team-b', 'team-a', TAG],
          filters: [
            { type: 'sql', condition: "Service IN ('a')" },
            { type: 'sql', condition: "Level IN ('x')" }
          ]
        }
      }
    ])
    expect(actions(plan(store, yaml))).toEqual([])
  })

  it('every field as the manifest sets it; a source by id', async () => {
    const store = storeWith()
    const yaml = search(
      'select: Timestamp, Body',
      'where: "Level = 1"',
      'whereLanguage: sql',
      'orderBy: Timestamp DESC'
    ).replace('source: App logs', 'sourceId: src-logs')
    const p = plan(store, yaml)
    expect(change(p, 'SavedSearch/Errors').fields).toContainEqual({ path: 'whereLanguage', after: 'sql' })
    await apply(store, p)
    expect(store.sent()[0]!.body).toStrictEqual({
      name: 'Errors',
      sourceId: 'src-logs',
      select: 'Timestamp, Body',
      where: 'Level = 1',
      whereLanguage: 'sql',
      orderBy: 'Timestamp DESC',
      tags: [TAG],
      filters: []
    })
    expect(actions(plan(store, yaml))).toEqual([])
  })

  it('a source that resolves to nothing is a plan error at the field that names it', () => {
    const store = storeWith()
    expect(plan(store, search().replace('App logs', 'App log')).diagnostics).toEqual([
      'error source: no data source named "App log" (did you mean "App logs"?)'
    ])
    expect(plan(store, search().replace('source: App logs', 'sourceId: nope')).diagnostics).toEqual([
      'error sourceId: no data source with id "nope"'
    ])
  })

  it("a lost create response: the re-read takes this stack's search of that name, not another stack's", async () => {
    const theirs = stored({ id: 'q0', tags: ['obsdeploy:billing'] })
    const other = stored({ id: 'q00', name: 'Other' })
    const store = storeWith(theirs, other)
    store.loseCreateResponses = 1
    const s = settings({ siblingTags: ['obsdeploy:billing'] })
    const yaml = search() + '---\n' + search().replace('Errors', 'Other')
    const result = await apply(store, plan(store, yaml, {}, s), s)
    const mine = store.records['saved-searches'].find(q => q.id !== 'q0' && q.id !== 'q00')!
    expect(result.outcomes.map(o => [o.address, o.status, o.id])).toEqual([
      ['SavedSearch/Errors', 'adopted', mine.id]
    ])
    expect(store.sent().filter(r => r.method === 'POST')).toHaveLength(1)
  })
})

describe('planning a saved search this stack owns', () => {
  it("the server's defaults compare equal to a manifest that leaves them out", () => {
    expect(actions(plan(storeWith(stored()), search()))).toEqual([])
    expect(
      actions(
        plan(
          storeWith(stored({ filters: [{ type: 'sql', condition: 'A IN (1)' }] })),
          search('filters: [{ condition: "A IN (1)" }]')
        )
      )
    ).toEqual([])
  })

  it('an update sends the whole search again, with what the manifest no longer sets reset', async () => {
    const store = storeWith(
      stored({ select: 'Body', where: 'x', whereLanguage: 'sql', orderBy: 'T', tags: ['team', TAG] })
    )
    const p = plan(store, search('where: y'))
    expect(change(p, 'SavedSearch/Errors').fields).toEqual([
      { path: 'orderBy', before: 'T' },
      { path: 'select', before: 'Body' },
      { path: 'tags', before: ['team'] },
      { path: 'where', before: 'x', after: 'y' },
      { path: 'whereLanguage', before: 'sql' }
    ])
    await apply(store, p)
    expect(store.sent()).toStrictEqual([
      {
        method: 'PUT',
        collection: 'saved-searches',
        id: 'q1',
        body: sentBody({ where: 'y' })
      }
    ])
    expect(actions(plan(store, search('where: y')))).toEqual([])
  })

  it('a filter of another type the server holds is shown with its type; an sql one without', () => {
    const store = storeWith(
      stored({
        filters: [
          { type: 'sql', condition: 'A IN (1)' },
          { type: 'lucene', condition: 'b:2' }
        ]
      })
    )
    expect(change(plan(store, search()), 'SavedSearch/Errors').fields).toEqual([
      { path: 'filters', before: [{ condition: 'A IN (1)' }, { type: 'lucene', condition: 'b:2' }] }
    ])
  })

  it('a search of another source is shown by name, and moved by its id', async () => {
    const store = new RecordStore({
      sources: [LOGS, { id: 'src-2', name: 'Audit', kind: 'log' }],
      'saved-searches': [stored()]
    })
    const p = plan(store, search().replace('App logs', 'Audit'))
    expect(change(p, 'SavedSearch/Errors').fields).toEqual([
      { path: 'source', before: 'App logs', after: 'Audit' }
    ])
    await apply(store, p)
    expect(store.sent()[0]!.body!.sourceId).toBe('src-2')
  })

  it('a search no manifest declares is deleted with prune', async () => {
    const store = storeWith(stored())
    const p = plan(store, '')
    expect(change(p, 'SavedSearch/Errors@q1').fields).toEqual([
      { path: 'name', before: 'Errors' },
      { path: 'owner', before: TAG },
      { path: 'source', before: 'App logs' }
    ])
    await apply(store, p)
    expect(store.sent()).toEqual([{ method: 'DELETE', collection: 'saved-searches', id: 'q1' }])
  })

  it('a search the server returns without a source or filters shows neither', () => {
    const store = storeWith({ id: 'q1', name: 'Errors', tags: [TAG], where: 'x' })
    expect(change(plan(store, ''), 'SavedSearch/Errors@q1').fields).toEqual([
      { path: 'name', before: 'Errors' },
      { path: 'owner', before: TAG },
      { path: 'where', before: 'x' }
    ])
  })

  it('reads the saved searches list', async () => {
    const store = storeWith(stored())
    expect(await savedSearchKind.live!.read(store.api(), { service: false })).toEqual(
      store.live().SavedSearch
    )
  })
})

describe('adoption', () => {
  it("adopting another stack's search moves the tag: the update is sent even when nothing else changes", async () => {
    const store = storeWith(stored({ tags: ['team', 'obsdeploy:elsewhere'] }))
    const refused = plan(store, search('tags: [team]'))
    expect(refused.diagnostics).toEqual([
      'error name: a saved search named "Errors" already exists (id q1) and is not owned by stack "shop" (it is obsdeploy:elsewhere\'s). It is not overwritten: to manage it from this manifest, add `adopt: true` (or `id: q1`); to keep both, give this manifest another name.'
    ])
    const p = plan(store, search('tags: [team]', 'adopt: true'))
    expect(p.diagnostics).toEqual([])
    expect(change(p, 'SavedSearch/Errors').fields).toEqual([
      { path: 'owner', before: 'obsdeploy:elsewhere', after: TAG }
    ])
    await apply(store, p)
    expect(store.sent()).toStrictEqual([
      {
        method: 'PUT',
        collection: 'saved-searches',
        id: 'q1',
        body: sentBody({ tags: ['team', TAG] })
      }
    ])
    expect(actions(plan(store, search('tags: [team]')))).toEqual([])
  })

  it('an untagged search is no one’s: adopting it adds the tag', async () => {
    const store = storeWith(stored({ tags: [] }))
    const p = plan(store, search('adopt: true'))
    expect(change(p, 'SavedSearch/Errors').fields).toEqual([{ path: 'owner', after: TAG }])
    await apply(store, p)
    expect(store.sent()[0]!.body!.tags).toEqual([TAG])
  })
})
