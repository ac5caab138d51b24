/**
 * A dashboard change as requests (src/kinds/dashboard/operations.ts) and as a saved plan carries it
 * (saved.ts): which requests run, in which order (the tokens they wait for and provide, the lock they hold),
 * what they send, what they return, a create whose response is lost, and the saved form read back.
 */
import { describe, expect, it } from '@jest/globals'
import { UnknownOutcomeError } from '../../src/api/errors.js'
import type { LiveDashboard } from '../../src/api/schemas.js'
import type { DesiredDashboard } from '../../src/kinds/dashboard/desired.js'
import { dashboardKind } from '../../src/kinds/dashboard/index.js'
import { dashboardOperations } from '../../src/kinds/dashboard/operations.js'
import { savedDashboard } from '../../src/kinds/dashboard/saved.js'
import type {
  ApplyContext,
  Desired,
  Operation,
  OperationContext,
  OperationResult,
  PlanSettings
} from '../../src/kinds/kind.js'
import { Registry } from '../../src/kinds/registry.js'
import type { Change } from '../../src/plan/types.js'
import { SHOP_TAG, shopSettings } from '../support/shop-stack.js'

const TAG = SHOP_TAG
const settings = shopSettings

const octx = (
  over: Partial<PlanSettings> = {},
  desiredIds: Record<string, string> = {}
): OperationContext => ({
  settings: settings(over),
  dashboards: {
    desired: new Map(
      Object.entries(desiredIds).map(([name, liveId]) => [
        name,
        { address: `Dashboard/${name}`, liveId, tileIds: new Map(), pinnedNames: new Map() }
      ])
    ),
    live: new Map()
  },
  registry: Registry.empty('shop', TAG)
})

const change = (action: Change['action'], over: Partial<Change> = {}): Change => ({
  kind: 'Dashboard',
  name: 'D',
  address: 'Dashboard/D',
  action,
  fields: [],
  notes: [],
  dependsOn: [],
  ...over
})

type Body = Record<string, unknown>
const tile = (name: string, config: Body = {}) => ({
  spec: { name },
  body: { name, x: 0, y: 0, w: 6, h: 3, config: { displayType: 'line', sourceId: 'src-logs', ...config } }
})
const linkTo = (dashboard: string) => ({
  displayType: 'table',
  onClick: { type: 'dashboard', target: { mode: 'id', dashboard } }
})

const desired = (over: Partial<DesiredDashboard> = {}, name = 'D'): Desired<DesiredDashboard> => ({
  name,
  address: `Dashboard/${name}`,
  source: { file: 'd.yaml', line: 2, column: 1 },
  value: {
    spec: { kind: 'Dashboard', name },
    located: undefined as never,
    tiles: [tile('Errors')] as never,
    filters: [],
    waitsFor: new Set<string>(),
    linksLater: false,
    ...over
  }
})

const live = (over: Partial<LiveDashboard> = {}) =>
  ({
    id: 'd1',
    name: 'D',
    tags: [TAG],
    tiles: [{ id: 't1', ...tile('Errors').body }],
    ...over
  }) as LiveDashboard

interface Call {
  method: string
  id?: string
  body?: Body
}

/** An API that records each call and answers as the server would (a write echoed with ids). */
function context(
  facts: Record<string, OperationResult> = {},
  answers: {
    create?: Array<Error | undefined>
    list?: LiveDashboard[]
    got?: LiveDashboard
    deleted?: 'deleted' | 'absent'
  } = {},
  s = settings()
) {
  const calls: Call[] = []
  const warnings: string[] = []
  const creates = [...(answers.create ?? [])]
  const written = (id: string, body: Body) => ({
    ...body,
    id,
    tiles: (body.tiles as Body[]).map((t, i) => ({ id: t.id ?? `${id}-t${i}`, ...t }))
  })
  const api = {
    createDashboard: async (body: Body) => {
      calls.push({ method: 'create', body })
      const failure = creates.shift()
      if (failure) throw failure
      return written('new-1', body)
    },
    updateDashboard: async (id: string, body: Body) => {
      calls.push({ method: 'update', id, body })
      return written(id, body)
    },
    getDashboard: async (id: string) => {
      calls.push({ method: 'get', id })
      return answers.got ?? live({ id })
    },
    deleteDashboard: async (id: string) => {
      calls.push({ method: 'delete', id })
      return answers.deleted ?? 'deleted'
    },
    listDashboards: async () => {
      calls.push({ method: 'list' })
      return answers.list ?? []
    }
  }
  const ctx = {
    api,
    settings: s,
    facts: new Map(Object.entries(facts)),
    log: { info() {}, debug() {}, warn: (m: string) => warnings.push(m) },
    reread: async (_what: string, read: () => Promise<unknown[]>) => read()
  } as unknown as ApplyContext
  return { ctx, calls, warnings }
}

const lost = () => new UnknownOutcomeError({ method: 'POST', path: '/api/v2/dashboards' }, 'socket hang up')
const shape = (ops: Operation[]) => ops.map(o => [o.label, o.lock, o.provides, o.after])

describe('what a dashboard change runs', () => {
  it('nothing for a no-op, a deferred delete, or a delete of a dashboard that is not live', () => {
    expect(dashboardOperations({ change: change('noop'), desired: desired(), live: live() }, octx())).toEqual(
      []
    )
    expect(
      dashboardOperations({ change: change('delete', { deferred: 'prune' }), live: live() }, octx())
    ).toEqual([])
    expect(
      dashboardOperations(
        { change: change('update', { deferred: 'prune' }), desired: desired(), live: live() },
        octx()
      )
    ).toEqual([])
    expect(dashboardOperations({ change: change('delete') }, octx())).toEqual([])
  })

  it('a delete waits for the alerts it deletes, holds the dashboard’s lock, and counts a gone one as deleted', async () => {
    const ops = dashboardOperations({ change: change('delete'), live: live() }, octx())
    expect(ops.map(o => o.address)).toEqual(['Dashboard/D'])
    expect(shape(ops)).toEqual([['delete', 'dashboard:d1', [], ['alerts-cleared:d1']]])
    const { ctx, calls } = context()
    expect(await ops[0]!.run(ctx)).toEqual({ status: 'applied', id: 'd1', message: undefined })
    expect(calls).toEqual([{ method: 'delete', id: 'd1' }])
    const gone = context({}, { deleted: 'absent' })
    expect(await ops[0]!.run(gone.ctx)).toEqual({ status: 'applied', id: 'd1', message: 'already gone' })
  })

  it('an update waits for the alerts it deletes, the dashboards it links to and the records it names, then sends the body bound', async () => {
    const d = desired({
      tiles: [
        tile('Errors', { sourceId: 'new:Source/Fresh' }),
        tile('Other', { sourceId: 'new:Source/Fresh' })
      ] as never,
      filters: [{ name: 'S', expression: 'S', sourceId: 'new:Source/Filtered' }],
      waitsFor: new Set(['Target'])
    })
    const ops = dashboardOperations({ change: change('update'), desired: d, live: live() }, octx())
    expect(ops.map(o => o.address)).toEqual(['Dashboard/D'])
    expect(shape(ops)).toEqual([
      [
        'update',
        'dashboard:d1',
        ['ready:Dashboard/D'],
        ['alerts-cleared:d1', 'ready:Dashboard/Target', 'ready:Source/Fresh', 'ready:Source/Filtered']
      ]
    ])
    const { ctx, calls } = context({
      'ready:Source/Fresh': { status: 'applied', id: 'src-fresh' },
      'ready:Source/Filtered': { status: 'applied', id: 'src-filtered' }
    })
    const result = await ops[0]!.run(ctx)
    expect(result).toEqual({
      status: 'applied',
      id: 'd1',
      tileIds: new Map([
        ['Errors', 't1'],
        ['Other', 'd1-t1']
      ])
    })
    expect(calls).toHaveLength(1)
    expect(calls[0]).toMatchObject({ method: 'update', id: 'd1' })
    const body = calls[0]!.body!
    expect(body.tags).toEqual([TAG])
    expect((body.tiles as Array<{ config: Body }>).map(t => t.config.sourceId)).toEqual([
      'src-fresh',
      'src-fresh'
    ])
    expect(body.filters).toEqual([
      { id: expect.stringMatching(/^[0-9a-f]{24}$/), name: 'S', expression: 'S', sourceId: 'src-filtered' }
    ])
  })

  it('a create holds the lock of its name, provides its ready token, and returns the ids the server gave', async () => {
    const ops = dashboardOperations(
      { change: change('create'), desired: desired({ waitsFor: new Set(['Target']) }) },
      octx()
    )
    expect(ops.map(o => o.address)).toEqual(['Dashboard/D'])
    expect(shape(ops)).toEqual([['create', 'dashboard:D', ['ready:Dashboard/D'], ['ready:Dashboard/Target']]])
    const { ctx, calls } = context()
    expect(await ops[0]!.run(ctx)).toEqual({
      status: 'applied',
      id: 'new-1',
      tileIds: new Map([['Errors', 'new-1-t0']])
    })
    expect(calls).toEqual([
      { method: 'create', body: { name: 'D', tags: [TAG], tiles: [tile('Errors').body] } }
    ])
  })

  it('the body follows the mode and ownership tag of the run', async () => {
    const d = desired({ tiles: [{ spec: { name: 'T' }, body: { ...tile('T').body, extra: 1 } }] as never })
    const ops = dashboardOperations(
      { change: change('create'), desired: d },
      octx({ mode: 'managed', ownershipTag: 'obsdeploy:x' })
    )
    const { ctx, calls } = context()
    await ops[0]!.run(ctx)
    expect(calls[0]!.body!.tags).toEqual(['obsdeploy:x'])
    expect(calls[0]!.body!.tiles).toEqual([tile('T').body])
  })

  it('a link-out takes the id of a dashboard this apply wrote, else the live id the plan paired, else none yet', async () => {
    const d = desired({
      tiles: [tile('A', linkTo('Made')), tile('B', linkTo('Paired')), tile('C', linkTo('Unplanned'))] as never
    })
    const ops = dashboardOperations(
      { change: change('create'), desired: d },
      octx({}, { Paired: 'd-paired', Made: 'd-old' })
    )
    const { ctx, calls } = context({ 'ready:Dashboard/Made': { status: 'applied', id: 'd-made' } })
    await ops[0]!.run(ctx)
    const targets = (calls[0]!.body!.tiles as Array<{ config: { onClick?: { target: unknown } } }>).map(
      t => t.config.onClick?.target
    )
    expect(targets).toEqual([{ mode: 'id', id: 'd-made' }, { mode: 'id', id: 'd-paired' }, undefined])
  })

  it('a create whose response is lost adopts the dashboard of its name with this stack’s tag, not the registry', async () => {
    const ops = dashboardOperations({ change: change('create'), desired: desired() }, octx())
    const list = [
      live({ id: 'other', tags: ['obsdeploy:other'] }),
      live({ id: 'registry', tags: [TAG, 'obsdeploy-registry'] }),
      live({ id: 'renamed', name: 'E' }),
      live({ id: 'ours', tiles: [{ id: 'ours-t', ...tile('Errors').body }] })
    ]
    const { ctx, calls, warnings } = context({}, { create: [lost()], list })
    expect(await ops[0]!.run(ctx)).toEqual({
      status: 'adopted',
      id: 'ours',
      tileIds: new Map([['Errors', 'ours-t']]),
      message: 'the create was committed although its response was lost'
    })
    expect(calls.map(c => c.method)).toEqual(['create', 'list'])
    expect(warnings).toEqual([expect.stringContaining('re-reading dashboards before creating "D" again')])
    // Not there: created again.
    const again = context({}, { create: [lost()], list: list.slice(0, 3) })
    expect(await ops[0]!.run(again.ctx)).toMatchObject({ status: 'applied', id: 'new-1' })
    expect(again.calls.map(c => c.method)).toEqual(['create', 'list', 'create'])
  })

  it('links to dashboards created later are set by a second request, once they and this one exist', async () => {
    const d = desired({
      tiles: [tile('A', linkTo('Later')), tile('B', linkTo('Later')), tile('C', linkTo('D'))] as never,
      linksLater: true
    })
    const ops = dashboardOperations({ change: change('create'), desired: d }, octx())
    expect(ops.map(o => o.address)).toEqual(['Dashboard/D', 'Dashboard/D'])
    expect(shape(ops)).toEqual([
      ['create', 'dashboard:D', ['ready:Dashboard/D'], []],
      // Each target once (a link to itself names its own token again).
      ['set links', 'dashboard:D', [], ['ready:Dashboard/D', 'ready:Dashboard/Later', 'ready:Dashboard/D']]
    ])
    const { ctx, calls } = context(
      {
        'ready:Dashboard/D': { status: 'applied', id: 'd-new' },
        'ready:Dashboard/Later': { status: 'applied', id: 'd-later' }
      },
      { got: live({ id: 'd-new', tiles: [{ id: 'd-new-t0', ...tile('A').body }] }) }
    )
    const result = await ops[1]!.run(ctx)
    expect(calls.map(c => [c.method, c.id])).toEqual([
      ['get', 'd-new'],
      ['update', 'd-new']
    ])
    const sent = calls[1]!.body!
    // The tiles keep the ids the create gave them; each link has its target's id.
    expect(
      (sent.tiles as Body[]).map(t => [t.id, (t.config as { onClick: { target: unknown } }).onClick.target])
    ).toEqual([
      ['d-new-t0', { mode: 'id', id: 'd-later' }],
      [undefined, { mode: 'id', id: 'd-later' }],
      [undefined, { mode: 'id', id: 'd-new' }]
    ])
    expect(result).toEqual({
      status: 'applied',
      id: 'd-new',
      tileIds: new Map([
        ['A', 'd-new-t0'],
        ['B', 'd-new-t1'],
        ['C', 'd-new-t2']
      ])
    })
  })
})

describe('the dashboard kind', () => {
  it('reads the live dashboards by listing them, names and ids them as the server does', async () => {
    const { ctx, calls } = context({}, { list: [live()] })
    expect(dashboardKind.kind).toBe('Dashboard')
    expect(await dashboardKind.live!.read(ctx.api, { service: false })).toEqual([live()])
    expect(calls).toEqual([{ method: 'list' }])
    expect(dashboardKind.liveName(live({ name: 'N' }))).toBe('N')
    expect(dashboardKind.liveId(live({ id: 'i' }))).toBe('i')
    expect([...dashboardKind.keyedPaths!].sort()).toEqual(['containers', 'tiles'])
    expect(dashboardKind.saved).toBe(savedDashboard)
  })
})

describe('a saved dashboard change', () => {
  const full = desired({
    spec: {
      kind: 'Dashboard',
      name: 'D',
      tags: ['team'],
      savedQuery: 'a:b',
      savedQueryLanguage: 'lucene',
      savedFilterValues: [{ condition: 'x = 1' }],
      containers: [{ title: 'Main', tabs: [{ title: 'One' }] }],
      tiles: [{ name: 'Errors', x: 0, y: 0, w: 6, h: 3 }]
    } as DesiredDashboard['spec'],
    tiles: [
      {
        spec: { name: 'Errors', x: 0, y: 0, w: 6, h: 3, container: 'Main', tab: 'One' },
        body: tile('Errors').body
      },
      tile('Later', linkTo('Later'))
    ] as never,
    filters: [{ name: 'S', expression: 'S' }],
    waitsFor: new Set(['Target']),
    linksLater: true
  })
  const saved = () => JSON.parse(JSON.stringify(savedDashboard.save(full.value))) as Record<string, unknown>

  it('holds only what the requests read: the request fields of the spec and of each tile', () => {
    expect(savedDashboard.save(undefined)).toBeNull()
    expect(saved()).toEqual({
      spec: {
        name: 'D',
        tags: ['team'],
        containers: [{ title: 'Main', tabs: [{ title: 'One' }] }],
        savedQuery: 'a:b',
        savedQueryLanguage: 'lucene',
        savedFilterValues: [{ condition: 'x = 1' }]
      },
      tiles: [
        { spec: { name: 'Errors', container: 'Main', tab: 'One' }, body: tile('Errors').body },
        { spec: { name: 'Later' }, body: tile('Later', linkTo('Later')).body }
      ],
      filters: [{ name: 'S', expression: 'S' }],
      waitsFor: ['Target'],
      linksLater: true
    })
    // A field the manifest leaves out is left out, not saved as undefined.
    expect(Object.keys(savedDashboard.save(desired().value) as object)).toEqual([
      'spec',
      'tiles',
      'filters',
      'waitsFor',
      'linksLater'
    ])
    expect((savedDashboard.save(desired().value) as { spec: object }).spec).toStrictEqual({ name: 'D' })
  })

  it('read back, runs the same requests as the plan did', async () => {
    for (const [c, l] of [
      [change('create'), undefined],
      [change('update'), live()]
    ] as const) {
      const planned = dashboardOperations({ change: c, desired: full, live: l }, octx())
      const restored = savedDashboard.operations(saved(), { change: c, live: l }, octx())!
      expect(shape(restored)).toEqual(shape(planned))
      const facts = {
        'ready:Dashboard/D': { status: 'applied', id: 'd-new' },
        'ready:Dashboard/Later': { status: 'applied', id: 'd-later' }
      } as const
      for (const [i, op] of planned.entries()) {
        const a = context(facts)
        const b = context(facts)
        expect(await restored[i]!.run(b.ctx)).toEqual(await op.run(a.ctx))
        expect(b.calls).toEqual(a.calls)
      }
    }
  })

  it('a delete saves nothing and reads back as the delete', () => {
    const ops = savedDashboard.operations(null, { change: change('delete'), live: live() }, octx())!
    expect(shape(ops)).toEqual([['delete', 'dashboard:d1', [], ['alerts-cleared:d1']]])
  })

  it('JSON of another shape is refused, field by field', () => {
    const refused = (edit: (s: Record<string, unknown> & { spec: object }) => unknown) => {
      const s = saved() as Record<string, unknown> & { spec: object }
      const replaced = edit(s)
      return savedDashboard.operations(
        replaced === undefined ? s : replaced,
        { change: change('create') },
        octx()
      )
    }
    // A list is refused for one bad item after good ones.
    const ok = { spec: { name: 'E' }, body: {} }
    expect(refused(() => 'text')).toBeUndefined()
    expect(refused(() => [])).toBeUndefined()
    expect(refused(s => ({ ...s, spec: 'D' }))).toBeUndefined()
    expect(refused(s => ({ ...s, spec: { ...s.spec, name: 1 } }))).toBeUndefined()
    expect(refused(s => ({ ...s, tiles: {} }))).toBeUndefined()
    expect(refused(s => ({ ...s, filters: {} }))).toBeUndefined()
    expect(refused(s => ({ ...s, waitsFor: 'Target' }))).toBeUndefined()
    expect(refused(s => ({ ...s, linksLater: 'yes' }))).toBeUndefined()
    expect(refused(s => ({ ...s, filters: [{}, 'S'] }))).toBeUndefined()
    expect(refused(s => ({ ...s, waitsFor: ['T', 1] }))).toBeUndefined()
    expect(refused(s => ({ ...s, tiles: [ok, 'Errors'] }))).toBeUndefined()
    expect(refused(s => ({ ...s, tiles: [ok, null] }))).toBeUndefined()
    expect(refused(s => ({ ...s, tiles: [ok, { spec: 'Errors', body: {} }] }))).toBeUndefined()
    expect(refused(s => ({ ...s, tiles: [ok, { spec: { name: 1 }, body: {} }] }))).toBeUndefined()
    expect(refused(s => ({ ...s, tiles: [ok, { spec: { name: 'E' }, body: [] }] }))).toBeUndefined()
    // Each of the above alone: the saved JSON as written is accepted.
    expect(refused(() => undefined)).toHaveLength(2)
    expect(
      refused(s => ({ ...s, tiles: [{ spec: { name: 'E' }, body: {} }], filters: [{}], waitsFor: ['T'] }))
    ).toHaveLength(2)
    expect(refused(s => ({ ...s, linksLater: false }))).toHaveLength(1)
  })
})
