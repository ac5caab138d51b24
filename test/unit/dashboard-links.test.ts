/**
 * Table link-outs (src/kinds/dashboard/links.ts): what the request sends for each kind of link, how a link to a
 * dashboard by name is settled (a live id, a wait for a create of this apply, or a plan error), and the words in
 * which both sides of a plan compare links (the target's name, never its id).
 */
import { describe, expect, it } from '@jest/globals'
import type { LiveDashboard } from '../../src/api/schemas.js'
import { linkBody, linkedNames, withLinkIds } from '../../src/kinds/dashboard/links.js'
import type { PlanOutcome } from '../../src/planner/planner.js'
import {
  TAG,
  apply,
  change,
  created,
  dashboard,
  dashboardChanges,
  errors,
  plan,
  settings,
  tile
} from '../support/dashboard-plan.js'

const table = (name: string, link: string, extra = '') =>
  dashboard(
    name,
    tile(
      'T',
      `displayType: table\n      source: Logs\n      select: [{ aggFn: count }]\n      groupBy: service\n      onClick: ${link}`
    ),
    extra
  )
const to = (target: string) =>
  `{ type: dashboard, target: { mode: id, dashboard: ${JSON.stringify(target)} } }`
const onClick = (body: Record<string, unknown> | undefined) =>
  (body!.tiles as Array<{ config: { onClick?: unknown } }>)[0]!.config.onClick
const errorsAt = (o: PlanOutcome) =>
  o.plan.diagnostics.filter(d => d.severity === 'error').map(d => [d.field, d.line, d.message])

describe('a link-out as the request sends it', () => {
  const noSource = () => {
    throw new Error('no source asked for')
  }

  it('an external link as the manifest has it', () => {
    const link = { type: 'external' as const, urlTemplate: 'https://runbooks.example.com/{{service}}' }
    expect(linkBody(link, noSource)).toStrictEqual(link)
  })

  it('a search link names its source by id, by name or by raw id; a dashboard link keeps the name until paired', () => {
    const asked: unknown[] = []
    const sourceId = (ref: { source?: string; id?: string }) => {
      asked.push(ref)
      return `id-of-${ref.source ?? ref.id}`
    }
    expect(
      linkBody(
        { type: 'search', target: { mode: 'id', source: 'Logs' }, whereTemplate: 'a = {{a}}' },
        sourceId
      )
    ).toStrictEqual({ type: 'search', target: { mode: 'id', id: 'id-of-Logs' }, whereTemplate: 'a = {{a}}' })
    expect(linkBody({ type: 'search', target: { mode: 'id', id: 'raw' } }, sourceId)).toStrictEqual({
      type: 'search',
      target: { mode: 'id', id: 'id-of-raw' }
    })
    expect(asked).toEqual([
      { source: 'Logs', id: undefined },
      { source: undefined, id: 'raw' }
    ])
    expect(
      linkBody({ type: 'dashboard', target: { mode: 'id', dashboard: 'Other' } }, noSource)
    ).toStrictEqual({
      type: 'dashboard',
      target: { mode: 'id', dashboard: 'Other' }
    })
    expect(linkBody({ type: 'dashboard', target: { mode: 'id', id: 'd1' } }, noSource)).toStrictEqual({
      type: 'dashboard',
      target: { mode: 'id', id: 'd1' }
    })
  })

  it('a template link sends its template only', () => {
    expect(
      linkBody(
        { type: 'dashboard', target: { mode: 'template', template: '{{service}} overview' } },
        noSource
      )
    ).toStrictEqual({ type: 'dashboard', target: { mode: 'template', template: '{{service}} overview' } })
    expect(
      linkBody(
        { type: 'search', target: { mode: 'template', template: '{{source}}', source: 'Logs' } },
        noSource
      )
    ).toStrictEqual({ type: 'search', target: { mode: 'template', template: '{{source}}' } })
  })
})

describe('the ids of dashboard links in the bodies of a second request', () => {
  const tileLinkingTo = (target: Record<string, unknown>) => ({
    name: 'T',
    config: { displayType: 'table', onClick: { type: 'dashboard', target, whereTemplate: 'w' } }
  })

  it('a link by name gets the id of the created dashboard; one without an id yet is left out', () => {
    const ids = new Map([['Second', 'id-2']])
    const [linked, unresolved, other, plain] = withLinkIds(
      [
        tileLinkingTo({ mode: 'id', dashboard: 'Second' }),
        tileLinkingTo({ mode: 'id', dashboard: 'Later' }),
        tileLinkingTo({ mode: 'id', id: 'raw' }),
        { name: 'M', config: { displayType: 'markdown' } }
      ],
      name => ids.get(name)
    )
    expect(linked).toStrictEqual({
      name: 'T',
      config: {
        displayType: 'table',
        onClick: { type: 'dashboard', target: { mode: 'id', id: 'id-2' }, whereTemplate: 'w' }
      }
    })
    expect(unresolved).toStrictEqual({ name: 'T', config: { displayType: 'table' } })
    expect(other).toStrictEqual(tileLinkingTo({ mode: 'id', id: 'raw' }))
    expect(plain).toStrictEqual({ name: 'M', config: { displayType: 'markdown' } })
  })

  it('the names a tile waits for: only a dashboard link by name', () => {
    expect(linkedNames(tileLinkingTo({ mode: 'id', dashboard: 'Second' }))).toEqual(['Second'])
    expect(linkedNames(tileLinkingTo({ mode: 'id', id: 'raw' }))).toEqual([])
    expect(linkedNames({ config: { onClick: { type: 'search', target: { dashboard: 'x' } } } })).toEqual([])
    expect(linkedNames({ series: [] })).toEqual([])
  })
})

describe('a dashboard link settled against the live dashboards', () => {
  it('to a dashboard of the manifests that is live: its id, also when it was renamed (renamedFrom)', async () => {
    const [target] = await created(dashboard('Old name', tile('E')))
    const o = plan(table('A', to('New name')) + dashboard('New name', tile('E'), 'renamedFrom: Old name\n'), [
      target!
    ])
    expect(errors(o)).toEqual([])
    expect(change(o, 'A').notes).toEqual([])
    const { sent } = await apply(o)
    const a = sent.find(s => s.body?.name === 'A')!
    expect(a.method).toBe('create')
    expect(onClick(a.body)).toEqual({ type: 'dashboard', target: { mode: 'id', id: target!.id } })
  })

  it('to a live dashboard of the manifests that this plan leaves alone: its id, sent with the create', async () => {
    const [b] = await created(dashboard('B', tile('E')))
    const o = plan(table('A', to('B')) + dashboard('B', tile('E')), [b!])
    expect(dashboardChanges(o).map(c => [c.name, c.action])).toEqual([
      ['B', 'noop'],
      ['A', 'create']
    ])
    const { sent } = await apply(o)
    expect(sent.map(s => s.method)).toEqual(['create'])
    expect(onClick(sent[0]!.body)).toEqual({ type: 'dashboard', target: { mode: 'id', id: b!.id } })
  })

  it('an update that links to a dashboard this apply creates waits for that create, wherever it stands', async () => {
    const [created1] = await created(table('A', to('A')))
    // Another id than the recording API gives the create below.
    const live = { ...created1!, id: 'd-a' }
    const o = plan(table('A', to('B')) + dashboard('B', tile('E')), [live])
    expect(dashboardChanges(o).map(c => [c.name, c.action, c.notes])).toEqual([
      ['A', 'update', []],
      ['B', 'create', []]
    ])
    const { sent, stored } = await apply(o)
    expect(sent.map(s => s.method)).toEqual(['create', 'update'])
    const b = [...stored.values()].find(d => d.name === 'B')!
    expect(onClick(sent[1]!.body)).toEqual({ type: 'dashboard', target: { mode: 'id', id: b.id } })
  })

  it('to a raw id of a live dashboard: no error, and the next plan compares it by that dashboard name', async () => {
    const other = { id: 'd-other', name: 'Other', tags: ['team'], tiles: [] } as LiveDashboard
    const yaml = table('A', '{ type: dashboard, target: { mode: id, id: d-other } }')
    const o = plan(yaml, [other])
    expect(errors(o)).toEqual([])
    expect(change(o, 'A').fields).toContainEqual({
      path: 'tiles["T"]',
      after: expect.objectContaining({
        onClick: { type: 'dashboard', target: { mode: 'id', dashboard: 'Other' } }
      })
    })
    const { stored } = await apply(o)
    const again = plan(yaml, [other, ...stored.values()])
    expect(change(again, 'A').action).toBe('noop')
    // The same link written by name is the same link.
    expect(change(plan(table('A', to('Other')), [other, ...stored.values()]), 'A').action).toBe('noop')
  })

  it('a live link to a dashboard that no longer exists is compared by its id', async () => {
    const other = { id: 'd-other', name: 'Other', tags: ['team'], tiles: [] } as LiveDashboard
    const [live] = await created(table('A', to('A')))
    const stale = {
      ...live!,
      tiles: live!.tiles.map(t => ({
        ...t,
        config: { ...t.config, onClick: { type: 'dashboard', target: { mode: 'id', id: 'd-gone' } } }
      }))
    }
    const o = plan(table('A', to('Other')), [other, stale])
    expect(change(o, 'A').fields).toEqual([
      {
        path: 'tiles["T"].onClick.target.dashboard',
        after: 'Other'
      },
      { path: 'tiles["T"].onClick.target.id', before: 'd-gone' }
    ])
  })

  it('errors name the field and line: a link to a dashboard this plan deletes, an unknown name, an unknown id', () => {
    const gone = { id: 'd-gone', name: 'Gone', tags: [TAG], tiles: [] } as LiveDashboard
    expect(errorsAt(plan(table('A', to('Gone')), [gone]))).toEqual([
      [
        'tiles[0].config.onClick.target.dashboard',
        15,
        'links to dashboard "Gone", which this plan deletes (it is no longer in the manifests)'
      ]
    ])
    expect(errorsAt(plan(table('A', to('Nowhere'))))).toEqual([
      ['tiles[0].config.onClick.target.dashboard', 15, 'no dashboard named "Nowhere"; known: A']
    ])
    expect(
      errorsAt(
        plan(table('A', '{ type: dashboard, target: { mode: id, id: d-missing } }'), [], {}, settings())
      )
    ).toEqual([['tiles[0].config.onClick.target.id', 15, 'no dashboard with id "d-missing"']])
  })

  it('a plan with an unknown name shows the link as written, not a placeholder id', () => {
    const o = plan(table('A', to('Nowhere')))
    expect(errors(o)).toEqual(['no dashboard named "Nowhere"; known: A'])
    expect(JSON.stringify(change(o, 'A'))).not.toContain('unresolved')
    expect(change(o, 'A').fields).toContainEqual({
      path: 'tiles["T"]',
      after: expect.objectContaining({
        onClick: { type: 'dashboard', target: { mode: 'id', dashboard: 'Nowhere' } }
      })
    })
  })

  it('a dashboard this plan keeps without prune can be linked to, by its id', async () => {
    const gone = { id: 'd-gone', name: 'Gone', tags: [TAG], tiles: [] } as LiveDashboard
    const o = plan(table('A', to('Gone')), [gone], {}, settings({ prune: false }))
    expect(errors(o)).toEqual([])
    const { sent } = await apply(o, settings({ prune: false }))
    expect(onClick(sent[0]!.body)).toEqual({ type: 'dashboard', target: { mode: 'id', id: 'd-gone' } })
  })
})

describe('a search link-out in the plan', () => {
  it('is compared by source id, and shows no change when the live one names the same source', async () => {
    const yaml = table('S', '{ type: search, target: { mode: id, source: Traces } }')
    expect(change(plan(yaml), 'S').fields).toContainEqual({
      path: 'tiles["T"]',
      after: expect.objectContaining({
        onClick: { type: 'search', target: { mode: 'id', sourceId: 'src-traces' } }
      })
    })
    const [live] = await created(yaml)
    expect(change(plan(yaml, [live!]), 'S').action).toBe('noop')
    const moved = plan(yaml.replace('source: Traces', 'source: Logs'), [live!])
    expect(change(moved, 'S').fields).toEqual([
      { path: 'tiles["T"].onClick.target.sourceId', before: 'src-traces', after: 'src-logs' }
    ])
  })
})
