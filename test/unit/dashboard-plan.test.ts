/**
 * The dashboard kind without a server (src/kinds/dashboard/): which live dashboard a manifest means, what the plan
 * says about it, and the request bodies its create and update send. The live side is what a create sent, echoed
 * with ids (as the server stores it), then edited as a user would in the UI.
 */
import { describe, expect, it } from '@jest/globals'
import type { LiveAlert, LiveDashboard } from '../../src/api/schemas.js'
import type { PlanOutcome } from '../../src/planner/planner.js'
import {
  SOURCES,
  TAG,
  apply,
  change,
  created,
  dashboard,
  dashboardChanges,
  errors,
  plan,
  settings,
  tile,
  warnings
} from '../support/dashboard-plan.js'

describe('a dashboard created, then planned again', () => {
  const yaml = dashboard(
    'Checkout',
    tile('Errors') +
      tile(
        'Latency',
        'displayType: number\n      source: Metrics\n      select: [{ aggFn: avg, valueExpression: Duration }]'
      ),
    'tags: [team-a]\nsavedQuery: "service:cart"\nsavedFilterValues: [{ condition: "A = 1" }]\n' +
      'filters:\n  - name: Service\n    expression: ServiceName\n    source: Logs\n' +
      'containers:\n  - title: Main\n    tabs: [{ title: One }, { title: Two }]\n'
  )

  it('the create sends the manifest with the sources resolved and the ownership tag; the next plan is a no-op', async () => {
    const { sent, stored } = await apply(plan(yaml))
    expect(sent).toHaveLength(1)
    const body = sent[0]!.body!
    expect(body.name).toBe('Checkout')
    expect(body.tags).toEqual(['team-a', TAG])
    expect(body.filters).toEqual([
      { type: 'QUERY_EXPRESSION', name: 'Service', expression: 'ServiceName', sourceId: 'src-logs' }
    ])
    expect(body.savedQuery).toBe('service:cart')
    expect(body.savedQueryLanguage).toBe('lucene')
    expect(body.savedFilterValues).toEqual([{ condition: 'A = 1' }])
    const containers = body.containers as Array<{ id: string; title: string; tabs: Array<{ id: string }> }>
    expect(containers.map(c => c.title)).toEqual(['Main'])
    expect(containers[0]!.id).toMatch(/^main-[0-9a-f]{6}$/)
    expect(containers[0]!.tabs.map(t => t.id)).toEqual([
      expect.stringMatching(/^one-[0-9a-f]{6}$/),
      expect.stringMatching(/^two-[0-9a-f]{6}$/)
    ])
    expect((body.tiles as Array<{ config: { sourceId: string } }>).map(t => t.config.sourceId)).toEqual([
      'src-logs',
      'src-metrics'
    ])
    const again = plan(yaml, [...stored.values()])
    expect(dashboardChanges(again).map(c => [c.name, c.action, c.fields])).toEqual([['Checkout', 'noop', []]])
    expect(errors(again)).toEqual([])
  })

  it('a create sends no empty filters, saved query, saved filter values or containers', async () => {
    const { sent } = await apply(plan(dashboard('Bare', tile('Errors'))))
    expect(Object.keys(sent[0]!.body!).sort()).toEqual(['name', 'tags', 'tiles'])
  })

  it('an update keeps the ids of tiles, filters, containers and tabs of the same name; new ones get new ids', async () => {
    const [live] = await created(yaml)
    const edited = yaml
      .replace('tiles:\n', 'tiles:\n' + tile('New tile'))
      .replace('filters:\n', 'filters:\n  - name: Region\n    expression: Region\n    source: Logs\n')
      .replace('{ title: Two }', '{ title: Two }, { title: Three }')
    const o = plan(edited, [live!])
    expect(change(o, 'Checkout').action).toBe('update')
    const { sent } = await apply(o)
    const body = sent[0]!.body!
    expect(sent[0]!.id).toBe(live!.id)
    const tiles = body.tiles as Array<{ id?: string; name: string }>
    expect(tiles.map(t => [t.name, t.id])).toEqual([
      ['New tile', undefined],
      ['Errors', live!.tiles[0]!.id],
      ['Latency', live!.tiles[1]!.id]
    ])
    const filters = body.filters as Array<{ id: string; name: string }>
    // Filter ids are the server's: the create sent none, so the stored one is the echo's undefined.
    expect(filters.map(f => f.name)).toEqual(['Region', 'Service'])
    const containers = body.containers as Array<{ id: string; tabs: Array<{ id: string; title: string }> }>
    const liveContainers = live!.containers as typeof containers
    expect(containers[0]!.id).toBe(liveContainers[0]!.id)
    expect(containers[0]!.tabs.slice(0, 2)).toEqual(liveContainers[0]!.tabs)
    expect(containers[0]!.tabs[2]!.id).toMatch(/^three-[0-9a-f]{6}$/)
  })

  it('an update clears what the manifest no longer sets: filters, saved query and language, values, containers', async () => {
    const [live] = await created(yaml)
    const o = plan(
      dashboard(
        'Checkout',
        tile('Errors') +
          tile(
            'Latency',
            'displayType: number\n      source: Metrics\n      select: [{ aggFn: avg, valueExpression: Duration }]'
          )
      ),
      [live!]
    )
    expect(change(o, 'Checkout').fields.map(f => [f.path, f.after])).toEqual([
      ['containers', undefined],
      ['filters', undefined],
      ['savedFilterValues', undefined],
      ['savedQuery', undefined],
      ['savedQueryLanguage', undefined],
      ['tags', []]
    ])
    const { sent } = await apply(o)
    expect(sent[0]!.body).toMatchObject({
      filters: [],
      savedQuery: null,
      savedQueryLanguage: null,
      savedFilterValues: [],
      containers: [],
      tags: [TAG]
    })
  })

  it('an update sends nothing for what neither side has', async () => {
    const [live] = await created(dashboard('Bare', tile('Errors')))
    const { sent } = await apply(
      plan(dashboard('Bare', tile('Errors', undefined, '    w: 7\n').replace('    w: 6\n', '')), [live!])
    )
    expect(Object.keys(sent[0]!.body!).sort()).toEqual(['name', 'tags', 'tiles'])
  })
})

describe('filters of an update', () => {
  it('take the id of the live filter of the same name, in order; a new one a placeholder no live filter has', async () => {
    const yaml = dashboard(
      'F',
      tile('Errors'),
      'filters:\n  - { name: A, expression: a, source: Logs }\n  - { name: A, expression: a2, source: Logs }\n  - { name: B, expression: b, source: Logs }\n  - { name: C, expression: c, source: Logs }\n'
    )
    const [live] = await created(yaml)
    live!.filters = [
      { id: 'new-filter-1', type: 'QUERY_EXPRESSION', name: 'B', expression: 'b', sourceId: 'src-logs' },
      { id: 'fa1', type: 'QUERY_EXPRESSION', name: 'A', expression: 'a', sourceId: 'src-logs' },
      { id: 'fa2', type: 'QUERY_EXPRESSION', name: 'A', expression: 'a2', sourceId: 'src-logs' }
    ]
    const o = plan(yaml, [live!])
    expect(change(o, 'F').fields.map(f => f.path)).toEqual(['filters'])
    const { sent } = await apply(o)
    expect((sent[0]!.body!.filters as Array<{ id: string; name: string }>).map(f => [f.name, f.id])).toEqual([
      ['A', 'fa1'],
      ['A', 'fa2'],
      ['B', 'new-filter-1'],
      ['C', expect.stringMatching(/^[0-9a-f]{24}$/)]
    ])
  })
})

describe('which live dashboard a manifest means', () => {
  const live = (id: string, name: string, tags: string[] = [TAG], tiles: string[] = []): LiveDashboard => ({
    id,
    name,
    tags,
    tiles: tiles.map((t, i) => ({
      id: `${id}-${i}`,
      name: t,
      x: 0,
      y: 0,
      w: 6,
      h: 3,
      config: { displayType: 'markdown', markdown: t }
    }))
  })

  it('an id pin wins over a name match, whatever the order; an unowned pin is adopted with a note', () => {
    const o = plan(
      dashboard('Same', tile('Errors')) + dashboard('Pinned', tile('Errors'), 'id: d-theirs\n'),
      [live('d-mine', 'Same'), live('d-theirs', 'Other name', ['obsdeploy:other'])]
    )
    expect(change(o, 'Same')).toMatchObject({ action: 'update', id: 'd-mine' })
    expect(change(o, 'Pinned')).toMatchObject({ action: 'update', id: 'd-theirs' })
    expect(change(o, 'Pinned').notes).toContain(
      'adopts dashboard d-theirs from obsdeploy:other: this stack takes ownership and removes that tag, so the other stack no longer manages it (nor its alerts)'
    )
    const o2 = plan(dashboard('P', tile('Errors'), 'id: d-free\n'), [live('d-free', 'P', ['x'])])
    expect(change(o2, 'P').notes).toContain(
      "adopts existing dashboard d-free: it gets this stack's ownership tag obsdeploy:shop"
    )
    const o3 = plan(dashboard('P', tile('Errors'), 'id: d-mine\n'), [live('d-mine', 'P')])
    expect(change(o3, 'P').notes).toEqual([])
  })

  it('a pinned manifest takes no dashboard by name too: its namesake is an orphan', () => {
    const o = plan(dashboard('P', tile('Errors'), 'id: d2\n'), [live('d1', 'P'), live('d2', 'Other')])
    expect(dashboardChanges(o).map(c => [c.name, c.action, c.id])).toEqual([
      ['P', 'update', 'd2'],
      ['P', 'delete', 'd1']
    ])
  })

  it('an unknown pin is a plan error at the id', () => {
    const o = plan(dashboard('C', tile('E'), 'id: nope\n'), [live('d1', 'A')])
    expect(o.plan.diagnostics.filter(d => d.severity === 'error')).toEqual([
      expect.objectContaining({
        message: 'no dashboard with id "nope" exists',
        field: 'id',
        line: 4,
        column: 5
      })
    ])
  })

  it('renamedFrom keeps the id of the dashboard of the old name; a look-alike only gets a hint', () => {
    const o = plan(dashboard('New name', tile('Errors'), 'renamedFrom: Old name\n'), [
      live('d1', 'Old name', [TAG], ['Errors'])
    ])
    expect(dashboardChanges(o).map(c => [c.name, c.action, c.id])).toEqual([['New name', 'update', 'd1']])
    expect(change(o, 'New name').notes).toContain(
      'renamed from "Old name": keeps its id, its tile ids and its alerts'
    )
    const o2 = plan(dashboard('New name', tile('Errors')), [
      live('d1', 'Old name', [TAG], ['Errors']),
      live('d2', 'Twin', [TAG], ['Errors'])
    ])
    expect(dashboardChanges(o2).map(c => [c.name, c.action, c.notes])).toEqual([
      [
        'New name',
        'create',
        ['looks like a rename of "Old name": add `renamedFrom: "Old name"` to keep its id and alerts']
      ],
      ['Old name', 'delete', ['no longer in the manifests (prune is on)']],
      ['Twin', 'delete', ['no longer in the manifests (prune is on)']]
    ])
    // Different tiles: no hint.
    const o3 = plan(dashboard('New name', tile('Errors')), [live('d1', 'Old name', [TAG], ['Other'])])
    expect(change(o3, 'New name').notes).toEqual([])
  })

  it('a name taken by a dashboard this stack does not own is an error naming its owner; adopt takes it', () => {
    const theirs = live('d9', 'Taken', ['obsdeploy:other', 'team'])
    expect(errors(plan(dashboard('Taken', tile('E')), [theirs]))).toEqual([
      'a dashboard named "Taken" already exists (id d9) and is not owned by stack "shop" (it carries obsdeploy:other). It is not overwritten: to manage it from this manifest, add `adopt: true` (or `id: d9`); to keep both, give this manifest another name.'
    ])
    expect(errors(plan(dashboard('Taken', tile('E')), [live('d9', 'Taken', ['team'])]))).toEqual([
      'a dashboard named "Taken" already exists (id d9) and is not owned by stack "shop". It is not overwritten: to manage it from this manifest, add `adopt: true` (or `id: d9`); to keep both, give this manifest another name.'
    ])
    const adopted = plan(dashboard('Taken', tile('E'), 'adopt: true\n'), [theirs])
    expect(change(adopted, 'Taken')).toMatchObject({
      action: 'update',
      id: 'd9',
      notes: [
        'adopts dashboard d9 from obsdeploy:other: this stack takes ownership and removes that tag, so the other stack no longer manages it (nor its alerts)'
      ]
    })
    // Each error at its line: the name, or the adopt flag.
    const at = (o: PlanOutcome) =>
      o.plan.diagnostics.filter(d => d.severity === 'error').map(d => [d.field, d.line])
    expect(at(plan(dashboard('Taken', tile('E')), [theirs]))).toEqual([['name', 3]])
    expect(
      at(plan(dashboard('Taken', tile('E'), 'adopt: true\n'), [theirs, live('d8', 'Taken', [])]))
    ).toEqual([['adopt', 4]])
    // Pinned by another manifest: that one manages it, and the name is free for a new dashboard.
    const pinned = plan(dashboard('Taken', tile('E')) + dashboard('Pin', tile('E'), 'id: d9\n'), [theirs])
    expect(errors(pinned)).toEqual([])
    expect(dashboardChanges(pinned).map(c => [c.name, c.action, c.id])).toEqual([
      ['Pin', 'update', 'd9'],
      ['Taken', 'create', undefined]
    ])
    const two = plan(dashboard('Taken', tile('E'), 'adopt: true\n'), [theirs, live('d8', 'Taken', [])])
    expect(errors(two)).toEqual([
      '2 dashboards are named "Taken" (ids d8, d9); pin the one to adopt with `id:`'
    ])
  })

  it("a sibling stack's dashboard of the same name stays theirs, even with adopt", () => {
    const sibling = live('d5', 'Shared', ['obsdeploy:shop-b'])
    const s = settings({ siblingTags: ['obsdeploy:shop-b'] })
    const o = plan(dashboard('Shared', tile('E')), [sibling], {}, s)
    expect(change(o, 'Shared')).toMatchObject({
      action: 'create',
      notes: [
        'a new dashboard: dashboard d5 of the same name belongs to another stack of this repository (obsdeploy:shop-b) and stays theirs'
      ]
    })
    const a = plan(dashboard('Shared', tile('E'), 'adopt: true\n'), [sibling], {}, s)
    expect(change(a, 'Shared').notes).toEqual([
      'a new dashboard: dashboard d5 of the same name belongs to another stack of this repository (obsdeploy:shop-b) and stays theirs, because `adopt: true` never takes one from another stack; to move it to this stack, pin it with `id: d5`'
    ])
  })

  it('the registry dashboard is never paired nor pruned; two owned of one name pair with the first id', () => {
    const registry = live('r1', 'obsdeploy registry (stack shop)', [TAG, 'obsdeploy-registry'])
    const o = plan(dashboard('A', tile('E')), [live('d2', 'A'), live('d1', 'A'), registry])
    expect(dashboardChanges(o).map(c => [c.name, c.action, c.id])).toEqual([
      ['A', 'update', 'd1'],
      ['A', 'delete', 'd2']
    ])
  })
})

describe('what an update does besides its fields', () => {
  const alert = (id: string, dashboardId: string, tileId: string, name?: string): LiveAlert =>
    ({ id, name, dashboardId, tileId }) as LiveAlert

  it('names the alerts the server deletes with a removed, renamed or no longer alertable tile', async () => {
    const [live] = await created(
      dashboard(
        'D',
        tile('Gone') +
          tile(
            'Old name',
            'displayType: line\n      source: Logs\n      select: [{ aggFn: count, where: x }]'
          ) +
          tile('Kept') +
          tile('Table')
      )
    )
    const [gone, old, kept, table] = live!.tiles.map(t => String(t.id))
    const alerts = [
      alert('a1', live!.id, gone!, 'A one'),
      alert('a2', live!.id, gone!),
      alert('a3', live!.id, old!, 'A three'),
      alert('a4', live!.id, table!, 'A four'),
      alert('a5', 'other', kept!, 'elsewhere'),
      // Another dashboard's alert on a tile id that this one drops too: not this dashboard's.
      alert('a6', 'other', gone!, 'elsewhere, same tile id')
    ]
    const o = plan(
      dashboard(
        'D',
        tile(
          'New name',
          'displayType: line\n      source: Logs\n      select: [{ aggFn: count, where: x }]'
        ) +
          tile('Kept') +
          tile('Table', 'displayType: table\n      source: Logs\n      select: [{ aggFn: count }]')
      ),
      [live!],
      { Alert: alerts }
    )
    expect(change(o, 'D').notes).toEqual([
      'tile "Gone" is removed; the server deletes its alerts "A one", "a2"',
      'tile "Old name" renamed to "New name": tiles are matched by name (or an `id:` pin), so "New name" is a new tile with a new id; the server deletes its alert "A three"',
      'tile "Table" becomes a table tile, which cannot carry alerts: the server deletes "A four"'
    ])
    // The alert kind learns which tile ids go away.
    expect([...o.dashboards.live.get(live!.id)!.droppedTileIds].sort()).toEqual([gone, old, table].sort())
    expect(o.dashboards.live.get(live!.id)).toMatchObject({
      desiredName: 'D',
      deleted: false,
      address: 'Dashboard/D'
    })
    expect(o.dashboards.desired.get('D')).toMatchObject({ liveId: live!.id, address: 'Dashboard/D' })
  })

  it('a removed tile without alerts and a renamed one without alerts: only the rename is noted', async () => {
    const [live] = await created(
      dashboard(
        'D',
        tile(
          'Gone',
          'displayType: number\n      source: Logs\n      select: [{ aggFn: max, valueExpression: x }]'
        ) + tile('Old')
      )
    )
    const o = plan(dashboard('D', tile('New')), [live!])
    expect(change(o, 'D').notes).toEqual([
      'tile "Old" renamed to "New": tiles are matched by name (or an `id:` pin), so "New" is a new tile with a new id'
    ])
  })

  it('warns that an adopted dashboard loses the PromQL tiles the API does not show; not for its own', async () => {
    const [mine] = await created(dashboard('D', tile('E')))
    const promql = (o: PlanOutcome) => warnings(o).filter(w => w.includes('PromQL'))
    expect(promql(plan(dashboard('D', tile('E2')), [mine!]))).toEqual([])
    const theirs = { ...mine!, tags: [] }
    expect(promql(plan(dashboard('D', tile('E2'), 'adopt: true\n'), [theirs]))).toEqual([
      'dashboard "D" was not created by this stack: tiles this API cannot show (PromQL) are removed by an update. The API leaves PromQL tiles out of what it returns and an update replaces the whole tile list, so no client of this API can protect them; this plan cannot see whether it has any'
    ])
    // Pinned: adopted too, even when it already carries the tag; but a no-op sends nothing.
    expect(promql(plan(dashboard('D', tile('E2'), `id: ${mine!.id}\n`), [mine!]))).toHaveLength(1)
    expect(promql(plan(dashboard('D', tile('E'), `id: ${mine!.id}\n`), [mine!]))).toEqual([])
  })

  it('checks source kinds of tiles it writes: heatmaps, formulas and search link-outs', () => {
    const o = plan(
      dashboard(
        'K',
        tile(
          'Heat',
          'displayType: heatmap\n      source: Logs\n      select: [{ valueExpression: Duration }]'
        ) +
          tile(
            'Heat ok',
            'displayType: heatmap\n      source: Traces\n      select: [{ valueExpression: Duration }]'
          ) +
          tile(
            'Formula',
            'displayType: line\n      source: Logs\n      select: [{ aggFn: count }]\n      formulas: [{ expression: "A * 2" }]'
          )
      ),
      [],
      { Source: [...SOURCES.slice(1), { id: 'src-logs', name: 'Logs', kind: 'session' }] }
    )
    expect(o.plan.diagnostics.filter(d => d.severity === 'error').map(d => [d.field, d.message])).toEqual([
      ['tiles[0].config.source', 'a heatmap tile needs a trace source; this one is a session source'],
      [
        'tiles[2].config.formulas',
        'formulas need a metric, log or trace source; this one is a session source'
      ]
    ])
  })
})

describe('tile settings the manifest language has no word for', () => {
  const yaml = (displayType = 'line', w = 6) =>
    dashboard(
      'D',
      tile(
        'Errors',
        `displayType: ${displayType}\n      source: Logs\n      select: [{ aggFn: count }]`
      ).replace('w: 6', `w: ${w}`)
    )

  async function withUiSetting() {
    const [live] = await created(yaml())
    Object.assign(live!.tiles[0]!.config!, { futureSetting: { a: 1 }, emptySetting: null })
    return live!
  }

  it('are sent back as read by an update, and named in a notice of every plan', async () => {
    const live = await withUiSetting()
    const same = plan(yaml(), [live])
    expect(change(same, 'D').action).toBe('noop')
    expect(same.plan.diagnostics.filter(d => d.severity === 'notice').map(d => d.message)).toEqual([
      'dashboard "D" has settings the manifest language cannot express yet (set in the UI?), kept as they are: an update sends them back unchanged: tiles["Errors"].futureSetting'
    ])
    const wider = plan(yaml('line', 8), [live])
    expect(change(wider, 'D').fields.map(f => f.path)).toEqual(['tiles["Errors"].w'])
    const { sent } = await apply(wider)
    const [t] = sent[0]!.body!.tiles as Array<{ id: string; w: number; config: Record<string, unknown> }>
    expect(t).toMatchObject({ id: live.tiles[0]!.id, w: 8 })
    expect(t!.config.futureSetting).toEqual({ a: 1 })
    expect(t!.config).not.toHaveProperty('emptySetting')
  })

  it("are removed, with a note saying why, by an update that changes the tile's display type", async () => {
    const live = await withUiSetting()
    const o = plan(yaml('stacked_bar'), [live])
    expect(change(o, 'D').notes).toEqual([
      'tile "Errors": futureSetting (set in the UI; the manifest language cannot express it yet) is removed by this update, because the update changes the tile\'s displayType'
    ])
    expect(change(o, 'D').fields.map(f => [f.path, f.after])).toEqual([
      ['tiles["Errors"].displayType', 'stacked_bar'],
      ['tiles["Errors"].futureSetting', undefined]
    ])
    expect(o.plan.diagnostics.filter(d => d.severity === 'notice')).toEqual([])
    const { sent } = await apply(o)
    expect((sent[0]!.body!.tiles as Array<{ config: object }>)[0]!.config).not.toHaveProperty('futureSetting')
  })

  it('a new tile and a tile the live side lacks carry nothing', async () => {
    const live = await withUiSetting()
    const o = plan(yaml().replace('tiles:\n', 'tiles:\n' + tile('Other')), [live])
    const { sent } = await apply(o)
    const tiles = sent[0]!.body!.tiles as Array<{ name: string; id?: string; config: object }>
    expect(tiles[0]).toMatchObject({ name: 'Other' })
    expect(tiles[0]).not.toHaveProperty('id')
    expect(tiles[0]!.config).not.toHaveProperty('futureSetting')
  })
})

describe('link-outs between dashboards', () => {
  const table = (name: string, link: string) =>
    dashboard(
      name,
      tile(
        'T',
        `displayType: table\n      source: Logs\n      select: [{ aggFn: count }]\n      groupBy: service\n      onClick: ${link}`
      )
    )
  const to = (target: string) =>
    `{ type: dashboard, target: { mode: id, dashboard: ${JSON.stringify(target)} } }`
  const onClick = (body: Record<string, unknown> | undefined) =>
    (body!.tiles as Array<{ config: { onClick?: unknown } }>)[0]!.config.onClick

  it('to one created earlier waits for it; to a later one (or itself) is set by a second request', async () => {
    const o = plan(table('First', to('Second')) + table('Second', to('First')) + table('Self', to('Self')))
    expect(errors(o)).toEqual([])
    const later =
      'a link-out names a dashboard created later in this apply (or this one): it is set by a second request once that exists'
    expect(dashboardChanges(o).map(c => [c.name, c.notes])).toEqual([
      ['First', [later]],
      ['Second', []],
      ['Self', [later]]
    ])
    const { sent, stored } = await apply(o)
    const ids = new Map([...stored.values()].map(d => [d.name, d.id]))
    const requests = sent.map(s => [s.method, s.body?.name ?? s.id])
    // Second waits for First's create; First and Self are read back and updated once their targets exist.
    expect(requests.slice(0, 2)).toEqual([
      ['create', 'First'],
      ['create', 'Second']
    ])
    expect(requests.slice(2)).toEqual(
      expect.arrayContaining([
        ['create', 'Self'],
        ['get', ids.get('First')],
        ['update', 'First'],
        ['get', ids.get('Self')],
        ['update', 'Self']
      ])
    )
    expect(requests).toHaveLength(7)
    const bodyOf = (method: string, name: string) =>
      sent.find(s => s.method === method && s.body?.name === name)!.body
    // A create without the target's id yet sends no link; the second request and a later create send the id.
    expect(onClick(bodyOf('create', 'First'))).toBeUndefined()
    expect(onClick(bodyOf('create', 'Self'))).toBeUndefined()
    expect(onClick(bodyOf('create', 'Second'))).toEqual({
      type: 'dashboard',
      target: { mode: 'id', id: ids.get('First') }
    })
    expect(onClick(bodyOf('update', 'First'))).toEqual({
      type: 'dashboard',
      target: { mode: 'id', id: ids.get('Second') }
    })
    expect(onClick(bodyOf('update', 'Self'))).toEqual({
      type: 'dashboard',
      target: { mode: 'id', id: ids.get('Self') }
    })
    // Planned again: links compare by the target's name, and nothing changes.
    const again = plan(
      table('First', to('Second')) + table('Second', to('First')) + table('Self', to('Self')),
      [...stored.values()]
    )
    expect(dashboardChanges(again).map(c => [c.name, c.action])).toEqual([
      ['First', 'noop'],
      ['Second', 'noop'],
      ['Self', 'noop']
    ])
  })

  it('to a live dashboard by name; to one this plan deletes, or that does not exist, is a plan error', () => {
    const other = { id: 'd-other', name: 'Other', tags: ['team'], tiles: [] } as LiveDashboard
    const mineGone = { id: 'd-gone', name: 'Gone', tags: [TAG], tiles: [] } as LiveDashboard
    const ok = plan(table('A', to('Other')), [other])
    expect(errors(ok)).toEqual([])
    expect(change(ok, 'A').fields).toContainEqual({
      path: 'tiles["T"]',
      after: expect.objectContaining({
        onClick: { type: 'dashboard', target: { mode: 'id', dashboard: 'Other' } }
      })
    })
    expect(errors(plan(table('A', to('Gone')), [mineGone]))).toEqual([
      'links to dashboard "Gone", which this plan deletes (it is no longer in the manifests)'
    ])
    // Without prune it stays, and the link is fine.
    expect(errors(plan(table('A', to('Gone')), [mineGone], {}, settings({ prune: false })))).toEqual([])
    expect(errors(plan(table('A', to('Nowhere')), [other]))).toEqual([
      'no dashboard named "Nowhere"; known: A, Other'
    ])
    expect(
      plan(table('A', '{ type: dashboard, target: { mode: id, id: d-missing } }'), [
        other
      ]).plan.diagnostics.filter(d => d.severity === 'error')
    ).toEqual([
      expect.objectContaining({
        message: 'no dashboard with id "d-missing"',
        field: 'tiles[0].config.onClick.target.id'
      })
    ])
  })
})

describe('containers and tabs', () => {
  const yaml = (containers: string, placement = '    container: Main\n    tab: Two\n') =>
    dashboard('L', tile('Placed', undefined, placement) + tile('Loose'), `containers:\n${containers}`)
  const main =
    '  - title: Main\n    collapsible: true\n    bordered: false\n    tabs: [{ title: One }, { title: Two }]\n'

  it('a tile is sent with the ids of its container and tab; the next plan compares them by title', async () => {
    const { sent, stored } = await apply(plan(yaml(main + '  - title: Side\n    collapsed: true\n')))
    const body = sent[0]!.body!
    const containers = body.containers as Array<
      Record<string, unknown> & { id: string; tabs?: Array<{ id: string }> }
    >
    expect(
      containers.map(c => ({ ...c, id: undefined, tabs: c.tabs?.map(t => ({ ...t, id: undefined })) }))
    ).toEqual([
      {
        id: undefined,
        title: 'Main',
        collapsed: false,
        collapsible: true,
        bordered: false,
        tabs: [
          { id: undefined, title: 'One' },
          { id: undefined, title: 'Two' }
        ]
      },
      { id: undefined, title: 'Side', collapsed: true, tabs: undefined }
    ])
    const tiles = body.tiles as Array<Record<string, unknown>>
    expect(tiles[0]).toMatchObject({ containerId: containers[0]!.id, tabId: containers[0]!.tabs![1]!.id })
    expect(tiles[1]).not.toHaveProperty('containerId')
    expect(tiles[1]).not.toHaveProperty('tabId')
    const live = [...stored.values()]
    expect(
      dashboardChanges(plan(yaml(main + '  - title: Side\n    collapsed: true\n'), live))[0]!.action
    ).toBe('noop')
    // A tile in a container without tabs, and one naming a tab the container lacks: the container only.
    const noTab = plan(yaml(main + '  - title: Side\n    collapsed: true\n', '    container: Side\n'), live)
    expect(change(noTab, 'L').fields).toEqual([
      { path: 'tiles["Placed"].container', before: 'Main', after: 'Side' },
      { path: 'tiles["Placed"].tab', before: 'Two' }
    ])
  })

  it('a container renamed in the UI, a tab moved, collapsed set: each shows by title', async () => {
    const [live] = await created(yaml(main))
    const c = (live!.containers as Array<Record<string, unknown>>)[0]!
    c.title = 'Renamed'
    c.collapsed = true
    const o = plan(yaml(main), [live!])
    expect(change(o, 'L').fields.map(f => [f.path, f.before, f.after])).toEqual([
      ['containers["Main"]', undefined, { collapsible: true, bordered: false, tabs: ['One', 'Two'] }],
      [
        'containers["Renamed"]',
        { collapsed: true, collapsible: true, bordered: false, tabs: ['One', 'Two'] },
        undefined
      ],
      ['tiles["Placed"].container', 'Renamed', 'Main']
    ])
    // The update sends the container with a new id (no live one has its title), and the tile with it.
    const { sent } = await apply(o)
    const [sentContainer] = sent[0]!.body!.containers as Array<{ id: string }>
    expect(sentContainer!.id).not.toBe(c.id)
    expect((sent[0]!.body!.tiles as Array<{ containerId: string }>)[0]!.containerId).toBe(sentContainer!.id)
  })
})

describe('saved filter values', () => {
  it('type sql is the default: a live value with it equals a manifest value without', async () => {
    const yaml = dashboard('V', tile('E'), 'savedFilterValues: [{ condition: "A = 1" }]\n')
    const [live] = await created(yaml)
    live!.savedFilterValues = [{ type: 'sql', condition: 'A = 1' }]
    expect(change(plan(yaml, [live!]), 'V').action).toBe('noop')
    live!.savedFilterValues = [{ type: 'other', condition: 'A = 1' }]
    expect(change(plan(yaml, [live!]), 'V').fields).toEqual([
      { path: 'savedFilterValues[0].type', before: 'other' }
    ])
  })
})

describe('what the alert kind learns of the dashboards', () => {
  it('a dashboard that left the manifests is deleted with prune; without prune it stays', () => {
    const gone = { id: 'd-gone', name: 'Gone', tags: [TAG], tiles: [] } as LiveDashboard
    const pruned = plan(dashboard('Kept', tile('E')), [gone])
    expect(pruned.dashboards.live.get('d-gone')).toMatchObject({
      address: 'Dashboard/Gone@d-gone',
      deleted: true
    })
    expect(pruned.dashboards.live.get('d-gone')!.desiredName).toBeUndefined()
    const kept = plan(dashboard('Kept', tile('E')), [gone], {}, settings({ prune: false }))
    expect(change(kept, 'Gone')).toMatchObject({ action: 'delete', deferred: 'prune' })
    expect(kept.dashboards.live.get('d-gone')).toMatchObject({ deleted: false })
    expect(kept.dashboards.desired.get('Kept')).toMatchObject({
      address: 'Dashboard/Kept',
      liveId: undefined
    })
  })
})

describe('rename hints', () => {
  const live = (id: string, name: string, tiles: string[]): LiveDashboard => ({
    id,
    name,
    tags: [TAG],
    tiles: tiles.map((t, i) => ({ id: `${id}-${i}`, name: t, x: 0, y: 0, w: 6, h: 3 }))
  })

  it('an orphan is hinted as the rename of one create only, even when two have its tiles', () => {
    const o = plan(dashboard('A', tile('Errors')) + dashboard('B', tile('Errors')), [
      live('d1', 'Old', ['Errors'])
    ])
    expect(dashboardChanges(o).map(c => [c.name, c.action, c.notes])).toEqual([
      ['A', 'create', ['looks like a rename of "Old": add `renamedFrom: "Old"` to keep its id and alerts']],
      ['B', 'create', []],
      ['Old', 'delete', ['no longer in the manifests (prune is on)']]
    ])
  })

  it('a dashboard that pairs is never hinted, even with the tiles of an orphan', () => {
    const o = plan(dashboard('A', tile('Errors')), [
      live('d1', 'A', ['Errors']),
      live('d2', 'Old', ['Errors'])
    ])
    expect(dashboardChanges(o).map(c => [c.name, c.action, c.notes])).toEqual([
      ['A', 'update', []],
      ['Old', 'delete', ['no longer in the manifests (prune is on)']]
    ])
  })

  it('tiles in another order are the same tiles', () => {
    const o = plan(dashboard('A', tile('Latency') + tile('Errors')), [
      live('d1', 'Old', ['Errors', 'Latency'])
    ])
    expect(change(o, 'A').notes).toEqual([
      'looks like a rename of "Old": add `renamedFrom: "Old"` to keep its id and alerts'
    ])
  })

  it('a create without tiles is no rename of an orphan without tiles', () => {
    const o = plan('---\nkind: Dashboard\nname: Empty\ntiles: []\n', [live('d1', 'Old', [])])
    expect(change(o, 'Empty')).toMatchObject({ action: 'create', notes: [] })
  })
})

describe('tile bodies', () => {
  it('a series tile sends the published defaults: empty where, lucene, no group for time and table', async () => {
    const series = (name: string, s: string) =>
      `  - name: ${name}\n    x: 0\n    y: 0\n    w: 6\n    h: 3\n    series:\n      - ${s}\n`
    const yaml = dashboard(
      'S',
      series('Time', '{ type: time, source: Logs, aggFn: count }') +
        series('Table', '{ type: table, source: Logs, aggFn: count }') +
        series('Number', '{ type: number, source: Logs, aggFn: count }') +
        series(
          'Set',
          '{ type: time, source: Logs, aggFn: count, where: "a:1", whereLanguage: sql, groupBy: [x] }'
        )
    )
    const { sent } = await apply(plan(yaml))
    const tiles = sent[0]!.body!.tiles as Array<{ series: Array<Record<string, unknown>> }>
    expect(tiles.map(t => t.series[0]!).map(s => [s.where, s.whereLanguage, s.groupBy])).toEqual([
      ['', 'lucene', []],
      ['', 'lucene', []],
      ['', 'lucene', undefined],
      ['a:1', 'sql', ['x']]
    ])
  })

  it('a search tile sends lucene as its where language unless the manifest names one', async () => {
    const search = (more = '') =>
      dashboard('S', tile('Q', `displayType: search\n      source: Logs\n      select: [a, b]${more}`))
    const [t] = (await apply(plan(search()))).sent[0]!.body!.tiles as Array<{
      config: Record<string, unknown>
    }>
    expect(t!.config).toMatchObject({ whereLanguage: 'lucene', select: 'a, b' })
    const [u] = (await apply(plan(search('\n      whereLanguage: sql')))).sent[0]!.body!.tiles as Array<{
      config: Record<string, unknown>
    }>
    expect(u!.config.whereLanguage).toBe('sql')
  })

  it('two live tiles of one name (made in the UI) are two tiles: the second one is removed, by name and short id', async () => {
    const yaml = dashboard('D', tile('Errors'))
    const [live] = await created(yaml)
    live!.tiles.push({ ...live!.tiles[0]!, id: 'ui-copy', y: 3 })
    const o = plan(yaml, [live!])
    expect(change(o, 'D').fields.map(f => f.path)).toEqual(['tiles["Errors" #ui-copy]'])
    const { sent } = await apply(o)
    expect((sent[0]!.body!.tiles as Array<{ id: string }>).map(t => t.id)).toEqual([live!.tiles[0]!.id])
  })
})

describe('source kinds of a heatmap the update leaves as it is', () => {
  const heat = (source: string) =>
    dashboard(
      'H',
      tile(
        'Heat',
        `displayType: heatmap\n      source: ${source}\n      select: [{ valueExpression: Duration }]`
      )
    )

  it('a heatmap on a source that is no trace source is allowed while its source stays; moved to another, it is not', async () => {
    const [live] = await created(
      dashboard('H', tile('Heat', 'displayType: line\n      source: Logs\n      select: [{ aggFn: count }]'))
    )
    // Made a heatmap in the UI, on the log source.
    Object.assign(live!.tiles[0]!.config!, {
      displayType: 'heatmap',
      select: [{ valueExpression: 'Duration' }]
    })
    expect(errors(plan(heat('Logs'), [live!]))).toEqual([])
    expect(errors(plan(heat('Metrics'), [live!]))).toEqual([
      'a heatmap tile needs a trace source; this one is a metric source'
    ])
  })
})

describe('tile settings the update sends back', () => {
  it('an empty one is sent back but named in no notice', async () => {
    const yaml = dashboard('D', tile('Errors'))
    const [live] = await created(yaml)
    Object.assign(live!.tiles[0]!.config!, { futureSetting: {} })
    const o = plan(yaml, [live!])
    expect(o.plan.diagnostics.filter(d => d.severity === 'notice')).toEqual([])
  })

  it.each([
    ['one series', '      - { type: table, source: Logs, aggFn: count, sortOrder: desc }\n'],
    [
      'the second of two series',
      '      - { type: table, source: Logs, aggFn: count }\n' +
        '      - { type: table, source: Logs, aggFn: count, sortOrder: desc }\n'
    ]
  ])(
    'a series table with a sort order (%s) stays in series form and carries no config setting',
    async (_, series) => {
      const yaml = (w: number) =>
        dashboard('S', `  - name: T\n    x: 0\n    y: 0\n    w: ${w}\n    h: 3\n    series:\n` + series)
      const [live] = await created(yaml(6))
      // As a server that stores the config form might return it, with a setting of the UI.
      live!.tiles[0] = {
        id: live!.tiles[0]!.id,
        name: 'T',
        x: 0,
        y: 0,
        w: 6,
        h: 3,
        config: { displayType: 'table', sourceId: 'src-logs', select: [{ aggFn: 'count' }], futureSetting: 1 }
      }
      const { sent } = await apply(plan(yaml(8), [live!]))
      const [t] = sent[0]!.body!.tiles as Array<Record<string, unknown>>
      expect(t).toHaveProperty('series')
      expect(t).not.toHaveProperty('config')
    }
  )
})

describe('data sources named by a dashboard', () => {
  it('resolve to ids in tiles and filters; an unknown one is a plan error at its field', async () => {
    const filters = (sources: string) =>
      `filters:\n  - name: F\n    expression: X\n    source: Logs\n    appliesToSources: [${sources}]\n`
    const ok = plan(dashboard('D', tile('T'), filters('Logs, Traces')))
    expect(errors(ok)).toEqual([])
    const { sent } = await apply(ok)
    expect(sent[0]!.body!.filters).toEqual([
      {
        type: 'QUERY_EXPRESSION',
        name: 'F',
        expression: 'X',
        sourceId: 'src-logs',
        appliesToSourceIds: ['src-logs', 'src-traces']
      }
    ])
    const bad = plan(
      dashboard(
        'D',
        tile('T', 'displayType: line\n      source: Nope\n      select: [{ aggFn: count }]'),
        filters('Logs, Nope').replace('source: Logs', 'source: Gone')
      )
    )
    const byId = plan(
      dashboard(
        'D',
        tile('T'),
        filters('Logs').replace('appliesToSources: [Logs]', 'appliesToSourceIds: [src-metrics]')
      )
    )
    expect(
      ((await apply(byId)).sent[0]!.body!.filters as Array<Record<string, unknown>>)[0]!.appliesToSourceIds
    ).toEqual(['src-metrics'])
    expect(change(byId, 'D').source).toMatchObject({ line: 3 })
    const series = plan(
      dashboard(
        'D',
        '  - name: S\n    x: 0\n    y: 0\n    w: 6\n    h: 3\n    series:\n' +
          '      - { type: time, source: Nope, aggFn: count }\n'
      )
    )
    expect(series.plan.diagnostics.filter(d => d.severity === 'error').map(d => d.field)).toEqual([
      'tiles[0].series[0].source'
    ])
    expect(bad.plan.diagnostics.filter(d => d.severity === 'error').map(d => d.field)).toEqual([
      'tiles[0].config.source',
      'filters[0].appliesToSources[1]',
      'filters[0].source'
    ])
  })
})

describe('a search link-out', () => {
  const table = (source: string) =>
    dashboard(
      'L',
      tile(
        'T',
        `displayType: table\n      source: Logs\n      select: [{ aggFn: count }]\n      groupBy: service\n      onClick: { type: search, target: { mode: id, source: ${source} } }`
      )
    )

  it("sends the source's id; an unknown source is a plan error at the target", async () => {
    const { sent } = await apply(plan(table('Traces')))
    const [t] = sent[0]!.body!.tiles as Array<{ config: { onClick: unknown } }>
    expect(t!.config.onClick).toEqual({ type: 'search', target: { mode: 'id', id: 'src-traces' } })
    expect(
      plan(table('Nope'))
        .plan.diagnostics.filter(d => d.severity === 'error')
        .map(d => d.field)
    ).toEqual(['tiles[0].config.onClick.target.source'])
  })
})
