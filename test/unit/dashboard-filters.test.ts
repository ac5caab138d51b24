/**
 * Dashboard filters as the requests send them (src/kinds/dashboard/filters.ts): a create without ids, an update
 * with the id of the live filter of each name or a placeholder the server replaces, and the normal form both
 * sides of a plan compare (no ids).
 */
import { describe, expect, it } from '@jest/globals'
import { filterBody, normalFilters, withFilterIds } from '../../src/kinds/dashboard/filters.js'
import { apply, change, created, dashboard, plan, tile } from '../support/dashboard-plan.js'

describe('a filter as the request sends it', () => {
  it('names its sources by id only, and keeps every other field of the manifest', () => {
    expect(
      filterBody(
        {
          type: 'QUERY_EXPRESSION',
          name: 'Service',
          expression: 'ServiceName',
          source: 'Logs',
          appliesToSources: ['Logs'],
          where: 'x',
          whereLanguage: 'sql'
        },
        'src-logs',
        ['src-logs', 'src-traces']
      )
    ).toStrictEqual({
      type: 'QUERY_EXPRESSION',
      name: 'Service',
      expression: 'ServiceName',
      where: 'x',
      whereLanguage: 'sql',
      sourceId: 'src-logs',
      appliesToSourceIds: ['src-logs', 'src-traces']
    })
  })

  it('without a source or a list of sources sends neither key (not even undefined)', () => {
    const body = filterBody(
      { name: 'F', expression: 'e', sourceId: 'raw', appliesToSourceIds: ['raw'] },
      undefined,
      undefined
    )
    expect(body).toStrictEqual({ type: 'QUERY_EXPRESSION', name: 'F', expression: 'e' })
    expect(Object.keys(body)).toEqual(['type', 'name', 'expression'])
  })
})

describe('the filters of an update', () => {
  it('new filters get placeholders shaped like ObjectIds (the cloud refuses others), unique, none a live id', () => {
    const bodies = [{ name: 'A' }, { name: 'B' }, { name: 'C' }]
    const fresh = withFilterIds(bodies, []).map(f => f.id as string)
    expect(fresh.every(id => /^[0-9a-f]{24}$/.test(id))).toBe(true)
    expect(new Set(fresh).size).toBe(3)
    // The same request at plan and at apply: minted from a counter, not at random.
    expect(withFilterIds(bodies, []).map(f => f.id)).toEqual(fresh)
    const live = [
      { id: fresh[1], name: 'X' },
      { id: 7, name: 'B' }
    ]
    const sent = withFilterIds(bodies, live)
    expect(sent.map(f => f.name)).toEqual(['A', 'B', 'C'])
    expect(sent[0]!.id).toBe(fresh[0])
    expect(sent[1]!.id).toBe('7')
    // The second placeholder is a live filter's id: the next one is minted instead.
    expect(sent[2]!.id).not.toBe(fresh[1])
    expect(sent[2]!.id).toMatch(/^[0-9a-f]{24}$/)
    expect(new Set(sent.map(f => f.id)).size).toBe(3)
  })

  it('a live filter is used once: a second filter of its name gets a placeholder; the id comes first', () => {
    const sent = withFilterIds(
      [
        { name: 'A', expression: 'one' },
        { name: 'A', expression: 'two' }
      ],
      [{ id: 'fa', name: 'A', expression: 'old' }]
    )
    expect(sent).toEqual([
      { id: 'fa', name: 'A', expression: 'one' },
      { id: expect.stringMatching(/^[0-9a-f]{24}$/), name: 'A', expression: 'two' }
    ])
    expect(Object.keys(sent[0]!)).toEqual(['id', 'name', 'expression'])
  })

  it('the update of a dashboard whose filters the UI reordered sends each one with its own id', async () => {
    const yaml = dashboard(
      'F',
      tile('E'),
      'filters:\n  - { name: A, expression: a, source: Logs }\n  - { name: B, expression: b, source: Logs }\n'
    )
    const [live] = await created(yaml)
    live!.filters = [
      { id: 'fb', type: 'QUERY_EXPRESSION', name: 'B', expression: 'b', sourceId: 'src-logs' },
      { id: 'fa', type: 'QUERY_EXPRESSION', name: 'A', expression: 'a', sourceId: 'src-logs' }
    ]
    const o = plan(yaml.replace('expression: b', 'expression: b2'), [live!])
    // Filters compare in order: the UI's order shows as a change of both.
    expect(change(o, 'F').fields.map(f => f.path)).toEqual([
      'filters[0].expression',
      'filters[0].name',
      'filters[1].expression',
      'filters[1].name'
    ])
    const { sent } = await apply(o)
    expect(sent[0]!.body!.filters).toEqual([
      { id: 'fa', type: 'QUERY_EXPRESSION', name: 'A', expression: 'a', sourceId: 'src-logs' },
      { id: 'fb', type: 'QUERY_EXPRESSION', name: 'B', expression: 'b2', sourceId: 'src-logs' }
    ])
  })
})

describe('filters in the normal form', () => {
  it('leave out ids and empty fields, keep the order; none is no filters at all', () => {
    expect(
      normalFilters([
        { id: 'f2', name: 'B', expression: 'b', where: undefined },
        { id: 'f1', name: 'A', expression: 'a' }
      ])
    ).toStrictEqual([
      { name: 'B', expression: 'b' },
      { name: 'A', expression: 'a' }
    ])
    expect(normalFilters([])).toBeUndefined()
    expect(normalFilters(null)).toBeUndefined()
    expect(normalFilters(undefined)).toBeUndefined()
    expect(normalFilters([{ id: 'only' }])).toStrictEqual([{}])
  })
})
