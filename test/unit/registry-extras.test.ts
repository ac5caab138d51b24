/**
 * More than one registry dashboard of a stack (src/kinds/registry.ts), left by two applies that each created one:
 * which one the plan keeps and which it names as extras, how the plan shows an extra's delete (with prune; deferred
 * without), the apply's delete of an extra (the kept one first holds every entry, the extra's newest included), the
 * writer's part in that, and the apply that created a registry finding another one at its end (apply/copies.ts).
 */
import { describe, expect, it, jest } from '@jest/globals'
import type { ObservabilityApi } from '../../src/api/client.js'
import type { LiveDashboard } from '../../src/api/schemas.js'
import { findCopies } from '../../src/apply/copies.js'
import { dashboardOperations } from '../../src/kinds/dashboard/operations.js'
import { savedDashboard } from '../../src/kinds/dashboard/saved.js'
import { KINDS } from '../../src/kinds/index.js'
import type { ApplyContext, LiveState, PlannedChange } from '../../src/kinds/kind.js'
import {
  parseRegistry,
  Registry,
  registryTiles,
  RegistryWriter,
  type Owned
} from '../../src/kinds/registry.js'
import { validateText } from '../../src/manifest/load.js'
import { computePlan } from '../../src/planner/planner.js'
import type { Change } from '../../src/plan/types.js'
import { SHOP_TAG, shopSettings } from '../support/shop-stack.js'

const NAME = 'obsdeploy registry (stack shop)'
const registry = (id: string, owned: Owned, tags = [SHOP_TAG, 'obsdeploy-registry']): LiveDashboard =>
  ({ id, name: NAME, tags, tiles: registryTiles('shop', owned), filters: [] }) as unknown as LiveDashboard
const hand = (id: string): LiveDashboard =>
  ({
    id,
    name: NAME,
    tags: [SHOP_TAG, 'obsdeploy-registry'],
    tiles: [{ name: 't', config: { displayType: 'markdown', markdown: 'edited by hand' } }],
    filters: []
  }) as unknown as LiveDashboard
const ownedIn = (body: unknown): Owned => {
  const parsed = parseRegistry(body as LiveDashboard)
  if ('problem' in parsed) throw new Error(parsed.problem)
  return parsed.owned
}

describe('which registry dashboard the plan keeps', () => {
  it('the lowest id, in code-unit order; the others are extras; the entries are the union of all', () => {
    const r = Registry.read(
      [
        registry('b0', { Webhook: { w2: { name: 'b' } } }),
        registry('B1', { Connection: { c1: { name: 'db' } } }),
        registry('a9', { Webhook: { w1: { name: 'a' } } })
      ],
      'shop',
      SHOP_TAG
    )
    // 'B' (0x42) sorts before 'a' (0x61) in code units; a locale's order would put it after.
    expect(r.dashboard?.id).toBe('B1')
    expect(r.extras.map(d => d.id)).toStrictEqual(['a9', 'b0'])
    expect(r.snapshot()).toStrictEqual({
      Connection: { c1: { name: 'db' } },
      Webhook: { w1: { name: 'a' }, w2: { name: 'b' } }
    })
  })

  it('no extras while one of them cannot be read; the problem names the one that cannot', () => {
    const r = Registry.read([registry('r1', {}), hand('r2')], 'shop', SHOP_TAG)
    expect(r.extras).toStrictEqual([])
    expect(r.problem).toMatch(
      /^the registry dashboard "obsdeploy registry \(stack shop\)" \(r2\) cannot be read/
    )
  })

  it("never another stack's, nor one that carries another stack's tag too", () => {
    const theirs = ['obsdeploy:billing', 'obsdeploy-registry']
    const r = Registry.read(
      [
        registry('r1', {}),
        registry('r2', {}, [SHOP_TAG, 'obsdeploy:billing', 'obsdeploy-registry']),
        registry('x1', {}, theirs),
        registry('x2', {}, theirs)
      ],
      'shop',
      SHOP_TAG
    )
    expect(r.dashboard?.id).toBe('r1')
    expect(r.extras).toStrictEqual([])
    expect(
      Registry.read([registry('x1', {}, theirs), registry('x2', {}, theirs)], 'shop', SHOP_TAG).extras
    ).toEqual([])
  })
})

describe('the plan of a stack with an extra registry dashboard', () => {
  const plan = (dashboards: LiveDashboard[], prune = true) =>
    computePlan({
      command: 'plan',
      settings: shopSettings({ prune }),
      manifests: { ...validateText('empty.yaml', '', 'self-hosted'), diagnostics: [] },
      live: { Dashboard: dashboards, Alert: [], Source: [] } as LiveState,
      now: new Date('2026-11-22T12:00:00.000Z'),
      kinds: KINDS
    })
  const two = () => [
    registry('r2', { Webhook: { w2: { name: 'b' } }, TeamMember: { 'jane.doe@example.com': { name: 'x' } } }),
    registry('r1', { Webhook: { w1: { name: 'a' } } })
  ]

  it('names the extra as a delete of its own, with what it holds counted and why it goes', () => {
    const { plan: p } = plan(two())
    expect(p.diagnostics.filter(d => d.severity === 'error')).toEqual([])
    expect(p.changes).toStrictEqual([
      {
        kind: 'Dashboard',
        name: NAME,
        address: `Dashboard/${NAME}@r2`,
        action: 'delete',
        id: 'r2',
        fields: [
          { path: 'name', before: NAME },
          { path: 'owner', before: SHOP_TAG },
          { path: 'entries', before: { Webhook: 1, TeamMember: 1 } }
        ],
        notes: [
          'an extra registry dashboard of this stack, left by two applies that each created one at the same time: its entries are written into the one the stack keeps (id r1, the lowest id) before it is deleted (prune is on)'
        ],
        dependsOn: [],
        // Read again, written into the kept one, deleted.
        estimate: { requests: 3 }
      }
    ])
    // A team member's entry is an email: never in a plan.
    expect(JSON.stringify(p)).not.toContain('jane')
  })

  it('without prune, it would be deleted with prune (deferred)', () => {
    const [change] = plan(two(), false).plan.changes
    expect(change).toMatchObject({ action: 'delete', id: 'r2', deferred: 'prune' })
    expect(change!.notes[0]).toMatch(/before it is deleted: would be deleted with prune$/)
  })

  it('one registry dashboard, or an unreadable second one: no change of it', () => {
    expect(plan([registry('r1', {})]).plan.changes).toEqual([])
    const { plan: p } = plan([registry('r1', {}), hand('r2')])
    expect(p.changes).toEqual([])
    expect(p.diagnostics.map(d => d.severity)).toEqual(['error'])
  })

  it('the fingerprint of the live state covers what the extra holds', () => {
    const before = plan(two()).plan.fingerprint.live
    const more = two()
    more[0] = registry('r2', { Webhook: { w2: { name: 'b' }, w3: { name: 'c' } } })
    expect(plan(more).plan.fingerprint.live).not.toBe(before)
  })
})

/** An API that records the registry's requests, with the extra as the server holds it now. */
function server(now: Record<string, LiveDashboard>) {
  const calls: Array<[string, string, unknown?]> = []
  const api = {
    getDashboard: jest.fn(async (id: string) => {
      calls.push(['GET', id])
      const d = now[id]
      if (!d) throw new Error(`GET ${id}: 404`)
      return d
    }),
    updateDashboard: jest.fn(async (id: string, body: unknown) => {
      calls.push(['PUT', id, body])
      return { id }
    }),
    createDashboard: jest.fn(async (body: unknown) => {
      calls.push(['POST', '', body])
      return { id: 'new' }
    }),
    deleteDashboard: jest.fn(async (id: string) => {
      calls.push(['DELETE', id])
      return 'deleted' as const
    }),
    listDashboards: jest.fn(async (): Promise<LiveDashboard[]> => Object.values(now))
  }
  return { api, calls, typed: api as unknown as ObservabilityApi }
}

describe("the apply's delete of an extra registry dashboard", () => {
  const planned = (kept: LiveDashboard, extra: LiveDashboard) => {
    const read = Registry.read([kept, extra], 'shop', SHOP_TAG)
    const change: Change = {
      kind: 'Dashboard',
      name: NAME,
      address: `Dashboard/${NAME}@${extra.id}`,
      action: 'delete',
      id: extra.id,
      fields: [],
      notes: [],
      dependsOn: []
    }
    const settings = shopSettings()
    const ops = dashboardOperations({ change, live: extra } as PlannedChange<never, LiveDashboard>, {
      settings,
      dashboards: { desired: new Map(), live: new Map() },
      registry: read
    })
    // A saved plan (`apply --plan`) carries a delete as null, and builds the same operation from the live record.
    const saved = savedDashboard.operations(
      null,
      { change, live: extra },
      {
        settings,
        dashboards: { desired: new Map(), live: new Map() },
        registry: read
      }
    )
    expect(saved?.map(o => [o.label, o.lock])).toStrictEqual(ops.map(o => [o.label, o.lock]))
    return { read, ops, settings }
  }
  const applyWith = (typed: ObservabilityApi, read: Registry) =>
    ({ api: typed, registry: new RegistryWriter(read, typed, 'self-hosted') }) as unknown as ApplyContext

  it('reads the extra again, writes the kept one with every entry, and only then deletes the extra', async () => {
    const kept = registry('r1', { Webhook: { w1: { name: 'a' } } })
    const extra = registry('r2', { Webhook: { w2: { name: 'b' } } })
    // Since the plan, another apply recorded c9 in the extra.
    const { calls, typed } = server({
      r2: registry('r2', { Webhook: { w2: { name: 'b' } }, Connection: { c9: { name: 'late' } } })
    })
    const { read, ops } = planned(kept, extra)
    expect(ops.map(o => [o.label, o.lock, o.after])).toStrictEqual([
      ['merge into the kept registry, then delete', 'dashboard:r2', ['alerts-cleared:r2']]
    ])
    await expect(ops[0]!.run(applyWith(typed, read))).resolves.toStrictEqual({ status: 'applied', id: 'r2' })
    expect(calls.map(c => c.slice(0, 2))).toStrictEqual([
      ['GET', 'r2'],
      ['PUT', 'r1'],
      ['DELETE', 'r2']
    ])
    expect(ownedIn(calls[1]![2])).toStrictEqual({
      Connection: { c9: { name: 'late' } },
      Webhook: { w1: { name: 'a' }, w2: { name: 'b' } }
    })
  })

  it('an id this run deleted, or that no longer existed at plan time, is not taken back from the extra', async () => {
    const kept = registry('r1', { Webhook: { w1: { name: 'a' } } })
    const extra = registry('r2', { Webhook: { w2: { name: 'b' }, gone: { name: 'g' } } })
    // Another apply recorded w1 in the extra after this run's plan; this run deleted w1.
    const { calls, typed } = server({
      r2: registry('r2', { Webhook: { w1: { name: 'a' }, w2: { name: 'b' }, gone: { name: 'g' } } })
    })
    const { read, ops } = planned(kept, extra)
    read.keepOnly('Webhook', new Set(['w1', 'w2']))
    const ctx = applyWith(typed, read)
    await ctx.registry.forget('Webhook', 'w1')
    await ops[0]!.run(ctx)
    expect(calls.map(c => c.slice(0, 2))).toStrictEqual([
      ['PUT', 'r1'],
      ['GET', 'r2'],
      ['PUT', 'r1'],
      ['DELETE', 'r2']
    ])
    expect(ownedIn(calls[2]![2])).toStrictEqual({ Webhook: { w2: { name: 'b' } } })
  })

  it('an extra that cannot be read now, or a kept one that cannot be written: the extra stays', async () => {
    const kept = registry('r1', {})
    const extra = registry('r2', { Webhook: { w2: { name: 'b' } } })
    const edited = server({ r2: hand('r2') })
    const first = planned(kept, extra)
    await expect(first.ops[0]!.run(applyWith(edited.typed, first.read))).rejects.toThrow(
      /^not deleted: it changed since the plan and cannot be read now \(it has no registry tile\)/
    )
    expect(edited.calls.map(c => c[0])).toStrictEqual(['GET'])

    const refused = server({ r2: extra })
    refused.api.updateDashboard.mockRejectedValueOnce(new Error('HTTP 500'))
    const second = planned(kept, extra)
    await expect(second.ops[0]!.run(applyWith(refused.typed, second.read))).rejects.toThrow('HTTP 500')
    expect(refused.api.deleteDashboard).not.toHaveBeenCalled()
  })
})

describe('the writer after a lost create response', () => {
  it('writes the lowest-id registry of the stack it finds, keeping what that one holds', async () => {
    const { api, calls, typed } = server({
      r9: registry('r9', {}),
      r5: registry('r5', { Webhook: { theirs: { name: 'other apply' } } }),
      x1: registry('x1', { Webhook: { x: { name: 'x' } } }, ['obsdeploy:billing', 'obsdeploy-registry'])
    })
    api.createDashboard.mockRejectedValueOnce(new Error('socket hang up'))
    const w = new RegistryWriter(Registry.empty('shop', SHOP_TAG), typed, 'self-hosted')
    await w.record('Webhook', 'mine', { name: 'pager' })
    expect(w.made).toBe('lost')
    expect(calls.map(c => c.slice(0, 2))).toStrictEqual([['PUT', 'r5']])
    expect(ownedIn(calls[0]![2])).toStrictEqual({
      Webhook: { mine: { name: 'pager' }, theirs: { name: 'other apply' } }
    })
  })

  it('never overwrites one it cannot read: the write fails with the create error', async () => {
    const { api, typed } = server({ r5: hand('r5') })
    api.createDashboard.mockRejectedValueOnce(new Error('socket hang up'))
    const w = new RegistryWriter(Registry.empty('shop', SHOP_TAG), typed, 'self-hosted')
    await expect(w.record('Webhook', 'mine', { name: 'pager' })).rejects.toThrow('socket hang up')
    expect(api.updateDashboard).not.toHaveBeenCalled()
  })

  it('a writer that created none, or wrote the registry the plan read, made nothing', async () => {
    const { typed } = server({})
    const w = new RegistryWriter(Registry.read([registry('r1', {})], 'shop', SHOP_TAG), typed, 'self-hosted')
    await w.record('Webhook', 'w1', { name: 'a' })
    expect(w.made).toBeUndefined()
    const fresh = new RegistryWriter(Registry.empty('shop', SHOP_TAG), typed, 'self-hosted')
    await fresh.record('Webhook', 'w1', { name: 'a' })
    expect(fresh.made).toBe('created')
  })
})

describe('an apply that created the registry dashboard looks for another at its end', () => {
  const look = (dashboards: LiveDashboard[], made: RegistryWriter['made']) => {
    const list = jest.fn(async () => dashboards)
    const kinds = new Map(
      KINDS.map(k => [k.kind, k.kind === 'Dashboard' ? { ...k, live: { ...k.live!, read: list } } : k])
    )
    const found = findCopies({
      api: {} as ObservabilityApi,
      kinds,
      outcomes: [],
      before: { Dashboard: [], Alert: [], Source: [] },
      settings: { ownershipTag: SHOP_TAG },
      lostResponses: new Set(),
      registry: { made }
    })
    return { found, list }
  }

  it("names every registry dashboard of the stack, lowest first; another stack's are not counted", async () => {
    const theirs = registry('a0', {}, ['obsdeploy:billing', 'obsdeploy-registry'])
    const { found } = look([registry('r2', {}), theirs, registry('r1', {})], 'created')
    await expect(found).resolves.toStrictEqual({
      removed: [],
      left: [],
      registries: { ids: ['r1', 'r2'], why: 'another apply of this stack created one at the same time' }
    })
    const lost = await look([registry('r2', {}), registry('r1', {})], 'lost').found
    expect(lost.registries?.why).toMatch(/^a create of it whose response was lost/)
  })

  it('one registry dashboard: nothing to say; a run that created none does not look', async () => {
    expect((await look([registry('r1', {})], 'created').found).registries).toBeUndefined()
    const { found, list } = look([registry('r1', {}), registry('r2', {})], undefined)
    expect((await found).registries).toBeUndefined()
    expect(list).not.toHaveBeenCalled()
  })
})
