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
  it('new filters get placeholders in order, each one no live filter has', () => {
    const bodies = [{ name: 'A' }, { name: 'B' }, { name: 'C' }]
    expect(withFilterIds(bodies, [])).toEqual([
      { id: 'new-filter-1', name: 'A' },
      { id: 'new-filter-2', name: 'B' },
      { id: 'new-filter-3', name: 'C' }
    ])
    const live = [
      { id: 'new-filter-2', name: 'X' },
      { id: 7, name: 'B' }
    ]
    expect(withFilterIds(bodies, live)).toEqual([
      { id: 'new-filter-1', name: 'A' },
      { id: '7', name: 'B' },
      { id: 'new-filter-3', name: 'C' }
    ])
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
      { id: 'new-filter-1', name: 'A', expression: 'two' }
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
