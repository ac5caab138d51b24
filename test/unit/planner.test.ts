/**
 * The planner on its own (src/planner/planner.ts), with a small kind of its own: what every kind's changes
 * share (actions, field lists, notes, prune, where a change's manifest line is), what the plan records
 * around them (settings, references, fingerprints), and what later kinds learn from earlier ones.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from '@jest/globals'
import { KINDS, type AnyKind } from '../../src/kinds/index.js'
import type { LiveState, PlanContext, PlannedChange, PlanSettings } from '../../src/kinds/kind.js'
import { registryTiles } from '../../src/kinds/registry.js'
import { validateText, type ManifestSet } from '../../src/manifest/load.js'
import { computePlan, type PlanInput } from '../../src/planner/planner.js'
import { FingerprintStream, fingerprint } from '../../src/planner/fingerprint.js'
import { diffValues, joinKey, keyedField } from '../../src/plan/diff.js'
import { isActionable, type Change, type Plan } from '../../src/plan/types.js'
import type { Json } from '../../src/json.js'
import { shopSettings } from '../support/shop-stack.js'

interface Rec {
  id?: string
  name: string
  value: Json
}

const NOW = new Date('2026-11-22T12:00:00.000Z')

const settings = shopSettings

/** No manifests, and none of the warnings an empty file gets. */
const noManifests = (): ManifestSet => ({ ...validateText('empty.yaml', '', 'self-hosted'), diagnostics: [] })

const live = (over: Partial<LiveState> = {}): LiveState => ({
  Dashboard: [],
  Alert: [],
  Source: [],
  ...over
})

/**
 * A kind of saved searches whose desired records are given and whose live ones are in `savedSearches`:
 * paired by name; every unpaired live one is this stack's and left the manifests.
 */
/** The names the plan's references give saved searches. */
const savedSearchNames = (p: Plan) => p.references?.keys.savedSearchId?.names

function savedSearchKind(desired: Rec[], hooks: Partial<AnyKind> = {}): AnyKind {
  return {
    kind: 'SavedSearch',
    nouns: ['saved search', 'saved searches'],
    fingerprint: { specs: 'savedSearches', whenEmpty: true, names: { key: 'savedSearches', at: 3 } },
    referredBy: [{ key: 'savedSearchId', as: 'savedSearch' }],
    copies: undefined,
    seenOn: undefined,
    live: { read: async () => [] },
    desired: () =>
      desired.map((d, i) => ({
        name: d.name,
        address: `SavedSearch/${d.name}`,
        source: { file: 'searches.yaml', line: i + 1, column: 1 },
        value: d
      })),
    pair: (ds, ctx) => {
      const all = (ctx.live.SavedSearch ?? []) as unknown as Rec[]
      const pairs = ds.map(d => {
        const l = all.find(r => r.name === d.name)
        return l ? { desired: d, live: l } : { desired: d }
      })
      return { pairs, orphans: all.filter(r => !ds.some(d => d.name === r.name)) }
    },
    normalDesired: (d: { value: Rec }) => d.value.value,
    normalLive: (l: Rec) => l.value,
    keyedPaths: new Set(['tiles']),
    liveName: (l: Rec) => l.name,
    liveId: (l: Rec) => l.id,
    refine: () => {},
    operations: () => [],
    requests: () => ({ requests: 0 }),
    ...hooks
  } as AnyKind
}

const searches = (...records: Rec[]) => records as unknown as LiveState['SavedSearch']

function plan(over: Partial<PlanInput> & { kinds: readonly AnyKind[] }) {
  return computePlan({
    command: 'plan',
    settings: settings(),
    manifests: noManifests(),
    live: live(),
    now: NOW,
    ...over
  })
}

describe('the changes of a kind', () => {
  const desired: Rec[] = [
    { name: 'new one', value: { query: { a: 1 }, tiles: { Errors: { w: 6 }, 'p99 latency': { w: 3 } } } },
    { name: 'edited', value: { query: 'b', limit: 5, tags: ['a', 'b'] } },
    { name: 'same', value: { query: 'c' } }
  ]
  const liveRecords = searches(
    { id: 'id-edited', name: 'edited', value: { query: 'old', tags: ['a'] } },
    { id: 'id-same', name: 'same', value: { query: 'c' } },
    { id: 'id-gone', name: 'gone', value: 'a bare value' }
  )

  it('create, update, no-op and delete: each with its fields, id, notes and manifest line', () => {
    const { plan: p, planned } = plan({
      kinds: [savedSearchKind(desired)],
      live: live({ SavedSearch: liveRecords })
    })
    expect(p.changes).toStrictEqual([
      {
        kind: 'SavedSearch',
        name: 'new one',
        address: 'SavedSearch/new one',
        // A whole record: one entry per top-level field, one per keyed child (tiles by name).
        fields: [
          { path: 'query', after: { a: 1 } },
          { path: 'tiles["Errors"]', after: { w: 6 } },
          { path: 'tiles["p99 latency"]', after: { w: 3 } }
        ],
        dependsOn: [],
        action: 'create',
        notes: [],
        source: { file: 'searches.yaml', line: 1, column: 1 }
      },
      {
        kind: 'SavedSearch',
        name: 'edited',
        address: 'SavedSearch/edited',
        // A field only one side has; a list of another length is one entry.
        fields: [
          { path: 'limit', after: 5 },
          { path: 'query', before: 'old', after: 'b' },
          { path: 'tags', before: ['a'], after: ['a', 'b'] }
        ],
        dependsOn: [],
        action: 'update',
        id: 'id-edited',
        notes: [],
        source: { file: 'searches.yaml', line: 2, column: 1 }
      },
      {
        // A no-op carries no manifest line.
        kind: 'SavedSearch',
        name: 'same',
        address: 'SavedSearch/same',
        fields: [],
        dependsOn: [],
        action: 'noop',
        id: 'id-same',
        notes: []
      },
      {
        kind: 'SavedSearch',
        name: 'gone',
        address: 'SavedSearch/gone@id-gone',
        fields: [{ path: '(root)', before: 'a bare value' }],
        dependsOn: [],
        action: 'delete',
        id: 'id-gone',
        notes: ['no longer in the manifests (prune is on)']
      }
    ])
    expect(planned.map(pc => [pc.change.action, pc.desired?.name, (pc.live as Rec | undefined)?.id])).toEqual(
      [
        ['create', 'new one', undefined],
        ['update', 'edited', 'id-edited'],
        ['noop', 'same', 'id-same'],
        ['delete', undefined, 'id-gone']
      ]
    )
  })

  it('keyed children are named in brackets, in a diff too; a keyed field that holds no mapping is one entry', () => {
    const { plan: p } = plan({
      kinds: [
        savedSearchKind([
          { name: 'keyed', value: { tiles: { Errors: { w: 6 }, Same: 1 } } },
          { name: 'list', value: { tiles: ['a', 'b'], other: null } },
          { name: 'text', value: { tiles: 'ab', none: null } },
          { name: 'null', value: { tiles: null } }
        ])
      ],
      live: live({
        SavedSearch: searches({ id: 'k', name: 'keyed', value: { tiles: { Errors: { w: 4 }, Same: 1 } } })
      })
    })
    expect(p.changes.map(c => c.fields)).toEqual([
      [{ path: 'tiles["Errors"].w', before: 4, after: 6 }],
      [
        { path: 'tiles', after: ['a', 'b'] },
        { path: 'other', after: null }
      ],
      [
        { path: 'tiles', after: 'ab' },
        { path: 'none', after: null }
      ],
      [{ path: 'tiles', after: null }]
    ])
  })

  it('without prune a record that left the manifests is a deferred delete that says so', () => {
    const { plan: p } = plan({
      kinds: [savedSearchKind([])],
      settings: settings({ prune: false }),
      live: live({ SavedSearch: searches({ id: 'x1', name: 'gone', value: { query: 'q' } }) })
    })
    expect(p.prune).toBe(false)
    expect(p.changes).toStrictEqual([
      {
        kind: 'SavedSearch',
        name: 'gone',
        address: 'SavedSearch/gone@x1',
        fields: [{ path: 'query', before: 'q' }],
        dependsOn: [],
        action: 'delete',
        id: 'x1',
        notes: ['no longer in the manifests: would be deleted with prune'],
        deferred: 'prune'
      }
    ])
  })

  it("carries each applied change's requests as its kind estimates them; a no-op and a deferred change none", () => {
    const asked: string[] = []
    const kind = savedSearchKind(
      [
        { name: 'new', value: 1 },
        { name: 'same', value: 1 }
      ],
      {
        requests: (pc: PlannedChange) => {
          asked.push(pc.change.name)
          return pc.change.action === 'create' ? { requests: 2, registry: 1 } : { requests: 0 }
        }
      }
    )
    const { plan: p } = plan({
      kinds: [kind],
      settings: settings({ prune: false }),
      live: live({
        SavedSearch: searches({ id: 's1', name: 'same', value: 1 }, { id: 'g1', name: 'gone', value: 1 })
      })
    })
    expect(p.changes.map(c => [c.name, c.action, c.estimate])).toEqual([
      ['new', 'create', { requests: 2, registry: 1 }],
      ['same', 'noop', undefined],
      ['gone', 'delete', undefined]
    ])
    expect(asked).toEqual(['new'])
  })

  it('tells later kinds which records this run deletes: deletes and replaces, not deferred ones', () => {
    const seen: Record<string, boolean> = {}
    const first = savedSearchKind(
      [
        { name: 'replaced', value: 1 },
        { name: 'updated', value: 1 }
      ],
      {
        refine: (pc: PlannedChange) => {
          if (pc.change.name === 'replaced') pc.change.action = 'replace'
          if (pc.change.name === 'kept back') pc.change.deferred = 'prune'
        }
      }
    )
    const later = {
      ...savedSearchKind([]),
      kind: 'Alert',
      referredBy: undefined,
      live: undefined,
      desired: (ctx: PlanContext) => {
        for (const id of ['r1', 'g1', 'k1', 'u1']) seen[id] = ctx.refs.isDeleted('SavedSearch', id)
        return []
      },
      pair: () => ({ pairs: [], orphans: [] })
    } as unknown as AnyKind
    plan({
      kinds: [first, later],
      live: live({
        SavedSearch: searches(
          { id: 'r1', name: 'replaced', value: 0 },
          { id: 'g1', name: 'gone', value: 0 },
          { id: 'k1', name: 'kept back', value: 0 },
          { id: 'u1', name: 'updated', value: 0 }
        )
      })
    })
    expect(seen).toEqual({ r1: true, g1: true, k1: false, u1: false })
  })

  it('registers the live records, declared names and pairs: a reference resolves to the id it keeps', () => {
    const resolved: unknown[] = []
    const later = {
      ...savedSearchKind([]),
      kind: 'Alert',
      referredBy: undefined,
      live: undefined,
      desired: (ctx: PlanContext) => {
        resolved.push(
          ctx.refs.resolve({ kind: 'SavedSearch', name: 'edited' }).value,
          ctx.refs.resolve({ kind: 'SavedSearch', name: 'new one' }).value,
          ctx.refs.resolve({ kind: 'SavedSearch', name: 'unmanaged' }).value,
          ctx.refs.isManaged('SavedSearch', 'id-edited'),
          ctx.refs.isManaged('SavedSearch', 'id-gone'),
          ctx.refs.isManaged('SavedSearch', 'id-unmanaged')
        )
        return []
      },
      pair: () => ({ pairs: [], orphans: [] })
    } as unknown as AnyKind
    // The unmanaged record is listed but neither paired nor an orphan of this stack.
    const kind = savedSearchKind([desired[0]!, desired[1]!], {
      pair: (ds: Parameters<AnyKind['pair']>[0], ctx: PlanContext) => {
        const all = (ctx.live.SavedSearch ?? []) as unknown as Rec[]
        return {
          pairs: ds.map(d => {
            const l = all.find(r => r.name === d.name)
            return l ? { desired: d, live: l } : { desired: d }
          }),
          orphans: all.filter(r => r.name === 'gone')
        }
      }
    })
    const { plan: p } = plan({
      kinds: [kind, later],
      live: live({
        SavedSearch: [...liveRecords!, ...searches({ id: 'id-unmanaged', name: 'unmanaged', value: 0 })!]
      })
    })
    expect(resolved).toEqual(['id-edited', 'new:SavedSearch/new one', 'id-unmanaged', true, true, false])
    expect(savedSearchNames(p)).toEqual({
      'id-edited': 'edited',
      'id-same': 'same',
      'id-gone': 'gone',
      'id-unmanaged': 'unmanaged',
      'new:SavedSearch/new one': 'new one (new)'
    })
  })

  it('a live record without an id is neither resolvable nor a reference name', () => {
    const { plan: p } = plan({
      kinds: [savedSearchKind([])],
      live: live({
        SavedSearch: searches({ name: 'no id', value: 0 }, { id: 's1', name: 'with id', value: 0 })
      })
    })
    expect(savedSearchNames(p)).toEqual({ s1: 'with id' })
  })
})

describe('a reference to a kind this API cannot list', () => {
  const webhookRef = (s: PlanSettings) => {
    const messages: string[] = []
    const webhooks = {
      ...savedSearchKind([]),
      kind: 'Webhook',
      live: { read: async () => undefined },
      desired: () => [],
      pair: () => ({ pairs: [], orphans: [] })
    } as unknown as AnyKind
    const asking = {
      ...savedSearchKind([]),
      kind: 'Alert',
      live: undefined,
      desired: (ctx: PlanContext) => {
        ctx.refs.resolve({ kind: 'Webhook', name: 'ops-pager' })
        return []
      },
      pair: () => ({ pairs: [], orphans: [] })
    } as unknown as AnyKind
    const { plan: p } = plan({ kinds: [webhooks, asking], settings: s })
    for (const d of p.diagnostics) messages.push(d.message)
    return messages
  }

  it('names the mode and the path segment in use', () => {
    expect(webhookRef(settings())).toEqual([
      'this API cannot list webhooks (this server has no such route): name it by id instead'
    ])
    expect(webhookRef(settings({ mode: 'managed', managedPrefix: 'observability' }))).toEqual([
      'this API cannot list webhooks (managed mode, prefix observability has no such route): name it by id instead'
    ])
    expect(webhookRef(settings({ mode: 'managed' }))).toEqual([
      'this API cannot list webhooks (managed mode has no such route): name it by id instead'
    ])
  })
})

describe('the plan around the changes', () => {
  it('records the run: command, time, mode, stack, tag, prune; the managed prefix only when there is one', () => {
    const { plan: p } = plan({ kinds: [], command: 'apply' })
    expect(p).toMatchObject({
      schemaVersion: 1,
      tool: { name: 'obsdeploy' },
      createdAt: '2026-11-22T12:00:00.000Z',
      command: 'apply',
      mode: 'self-hosted',
      stack: 'shop',
      ownershipTag: 'obsdeploy:shop',
      prune: true,
      changes: [],
      diagnostics: []
    })
    expect(p).not.toHaveProperty('managedPrefix')
    const managed = plan({ kinds: [], settings: settings({ mode: 'managed', managedPrefix: 'clickstack' }) })
    expect(managed.plan).toMatchObject({ mode: 'managed', managedPrefix: 'clickstack' })
  })

  it("keeps the manifests' diagnostics, then its own", () => {
    const manifests = validateText('bad.yaml', 'kind: Nope\nname: x\n', 'self-hosted')
    expect(manifests.diagnostics.length).toBeGreaterThan(0)
    const asking = {
      ...savedSearchKind([]),
      desired: (ctx: PlanContext) => {
        ctx.refs.resolve({ kind: 'Source', name: 'Logs' })
        return []
      }
    } as unknown as AnyKind
    const { plan: p } = plan({ kinds: [asking], manifests })
    expect(p.diagnostics).toEqual([
      ...manifests.diagnostics,
      {
        stage: 'plan',
        severity: 'error',
        message: 'this API cannot list data sources: name it by id instead'
      }
    ])
  })

  it('references: the names of the kinds others refer to where they are listed, where changes are seen, the kinds in words', () => {
    const manifests = validateText(
      'd.yaml',
      'kind: Dashboard\nname: Checkout\ntiles:\n  - name: Notes\n    x: 0\n    y: 0\n    w: 6\n    h: 3\n    series:\n      - type: markdown\n        content: hi\n',
      'self-hosted'
    )
    const some = plan({ kinds: KINDS, manifests, live: live({ Source: [{ id: 's1', name: 'Logs' }] }) }).plan
      .references!
    // Data sources are listed; webhooks, connections and saved searches are not (their lists are absent).
    expect(some.keys).toStrictEqual({
      sourceId: { as: 'source', names: { s1: 'Logs' } },
      appliesToSourceIds: { as: 'appliesToSources', names: { s1: 'Logs' } }
    })
    expect(some.seenOn).toStrictEqual({ 'Dashboard/Checkout': { dashboard: 'Checkout', own: true } })
    expect(some.nouns.Source).toEqual(['data source', 'data sources'])
    expect(Object.keys(some.nouns).sort()).toEqual([...KINDS.map(k => k.kind)].sort())
    const all = plan({
      kinds: KINDS,
      live: live({ Webhook: [{ id: 'w1', name: 'pager' }], Connection: [], SavedSearch: [] })
    }).plan.references!
    expect(Object.keys(all.keys).sort()).toEqual([
      'appliesToSourceIds',
      'connectionId',
      'savedSearchId',
      'sourceId',
      'webhookId'
    ])
    expect(all.keys.webhookId).toEqual({ as: 'webhook', names: { w1: 'pager' } })
  })
})

describe('the registry of the kinds without tags', () => {
  const registry = (markdown: string) => ({
    id: 'reg1',
    name: 'obsdeploy registry (stack shop)',
    tags: ['obsdeploy:shop', 'obsdeploy-registry'],
    tiles: [
      { name: 'obsdeploy registry', x: 0, y: 0, w: 24, h: 8, config: { displayType: 'markdown', markdown } }
    ]
  })

  it('an unreadable registry is a plan error', () => {
    const { plan: p } = plan({ kinds: [], live: live({ Dashboard: [registry('edited by hand')] }) })
    expect(p.diagnostics).toEqual([
      expect.objectContaining({
        stage: 'plan',
        severity: 'error',
        message: expect.stringMatching(
          /^the registry dashboard "obsdeploy registry \(stack shop\)" \(reg1\) cannot be read/
        )
      })
    ])
  })

  it('forgets the ids that no longer exist, for the kinds whose records were listed', () => {
    const [tile] = registryTiles('shop', {
      Webhook: { w1: { name: 'kept' }, w2: { name: 'deleted in the UI' } },
      Source: { s9: { name: 'not listed here' } }
    })
    const sources = { ...savedSearchKind([]), kind: 'Source', live: undefined } as unknown as AnyKind
    const webhooks = {
      ...savedSearchKind([]),
      kind: 'Webhook',
      live: { read: async () => [] },
      liveId: (l: { id?: string }) => l.id
    } as unknown as AnyKind
    const { registry: r, plan: p } = plan({
      kinds: [sources, webhooks],
      live: live({
        Dashboard: [registry(String((tile!.config as { markdown: string }).markdown))],
        Webhook: [{ id: 'w1', name: 'kept' }, { name: 'no id' } as never]
      })
    })
    expect(p.diagnostics).toEqual([])
    expect(r.snapshot()).toEqual({
      Webhook: { w1: { name: 'kept' } },
      Source: { s9: { name: 'not listed here' } }
    })
  })
})

describe('fingerprints', () => {
  const kind = () => savedSearchKind([{ name: 'edited', value: { query: 'b' } }])
  const liveFp = (records: LiveState['SavedSearch'], over: Partial<LiveState> = {}) =>
    plan({ kinds: [kind()], live: live({ SavedSearch: records, ...over }) }).plan.fingerprint.live

  it('live: changes with a record the plan looked at, or a name it resolves; not with volatile fields', () => {
    const base = liveFp(searches({ id: 'e1', name: 'edited', value: { query: 'a' } }))
    expect(liveFp(searches({ id: 'e1', name: 'edited', value: { query: 'a2' } }))).not.toBe(base)
    expect(liveFp(searches({ id: 'e2', name: 'edited', value: { query: 'a' } }))).not.toBe(base)
    expect(liveFp(searches({ id: 'e1', name: 'edited', value: { query: 'a', updatedAt: 'now' } }))).toBe(base)
    // An orphan is looked at too (its delete is planned): its normal form, not only its name.
    const withOrphan = (value: Json) =>
      liveFp(searches({ id: 'e1', name: 'edited', value: { query: 'a' } }, { id: 'o', name: 'o', value }))
    expect(withOrphan(1)).not.toBe(withOrphan(2))
    const records = searches({ id: 'e1', name: 'edited', value: { query: 'a' } })
    for (const over of [
      { Source: [{ id: 's1', name: 'Logs' }] },
      { Webhook: [] },
      { Connection: [] },
      { Webhook: [{ id: 'w', name: 'W' }] },
      { Connection: [{ id: 'c', name: 'C' }] }
    ] as Partial<LiveState>[])
      expect(liveFp(records, over)).not.toBe(base)
    expect(liveFp(records, { Webhook: [{ id: 'w', name: 'W' }] })).not.toBe(
      liveFp(records, { Connection: [{ id: 'w', name: 'W' }] })
    )
    // Sources are named by id and name only, in id order.
    expect(
      liveFp(records, {
        Source: [
          { id: 's2', name: 'B', kind: 'log' },
          { id: 's1', name: 'A' }
        ]
      })
    ).toBe(
      liveFp(records, {
        Source: [
          { id: 's1', name: 'A' },
          { id: 's2', name: 'B' }
        ]
      })
    )
  })

  it('live: the saved searches the API lists are part of it, named', () => {
    const withSearches = plan({
      kinds: [],
      live: live({ SavedSearch: searches({ id: 'q', name: 'Q', value: 0 }) })
    }).plan.fingerprint.live
    const without = plan({ kinds: [], live: live({ SavedSearch: searches() }) }).plan.fingerprint.live
    expect(withSearches).not.toBe(without)
  })

  const connection = (password: string) =>
    validateText(
      'c.yaml',
      'kind: Connection\nname: ch\nhost: http://ch:8123\nusername: u\npassword: ${secret.PASSWORD}\n',
      'self-hosted',
      {},
      { PASSWORD: password }
    )
  const desiredFp = (manifests: ManifestSet, s = settings()) =>
    plan({ kinds: [], manifests, settings: s }).plan.fingerprint.desired

  it('desired: changes with the stack, prune, mode and the service gate; not with the ownership tag alone', () => {
    const m = noManifests()
    const base = desiredFp(m)
    for (const s of [
      settings({ stack: 'other' }),
      settings({ prune: false }),
      settings({ mode: 'managed' }),
      settings({ serviceGate: { open: false, reason: 'waits for a release' } })
    ])
      expect(desiredFp(m, s)).not.toBe(base)
    expect(desiredFp(m, settings({ ownershipTag: 'obsdeploy:elsewhere' }))).toBe(base)
  })

  it('desired: a changed secret changes it, yet the plan holds neither the secret nor a plain hash of it', () => {
    const a = plan({ kinds: [], manifests: connection('hunter2') }).plan
    const b = plan({ kinds: [], manifests: connection('hunter3') }).plan
    expect(a.fingerprint.desired).not.toBe(b.fingerprint.desired)
    expect(plan({ kinds: [], manifests: connection('hunter2') }).plan.fingerprint.desired).toBe(
      a.fingerprint.desired
    )
    const text = JSON.stringify(a)
    expect(text).not.toContain('hunter2')
    for (const hashed of [JSON.stringify(['hunter2']), 'hunter2'])
      expect(text).not.toContain(createHash('sha256').update(hashed).digest('hex'))
  })

  it('desired: pinned for a fixed input (a saved plan stays valid across versions that hash the same)', () => {
    // Changing this value on purpose invalidates plans saved before the change: say so in the changelog.
    expect(desiredFp(connection('hunter2'))).toBe(
      'sha256:664e20a869c55c296daa4580b9017cf7c0d962bbbb6e9506213063a198b73d44'
    )
  })
})

describe('pinned fingerprints and their pieces', () => {
  it('live: the same input hashes the same bytes as before (names, records, an orphan)', () => {
    const { plan: p } = plan({
      kinds: [savedSearchKind([{ name: 'edited', value: { query: 'b' } }])],
      live: live({
        Source: [
          { id: 's2', name: 'B' },
          { id: 's1', name: 'A' }
        ],
        Webhook: [{ id: 'w', name: 'W' }],
        Connection: [{ id: 'c', name: 'C' }],
        SavedSearch: searches(
          { id: 'e1', name: 'edited', value: { query: 'a' } },
          { id: 'o', name: 'orphan', value: 1 }
        )
      })
    })
    expect(p.fingerprint.live).toBe('sha256:7a401059d7d17e6538627f98b8916d589e4775a8892070c5628898768e70c28c')
    expect(plan({ kinds: [] }).plan.fingerprint.desired).toBe(
      'sha256:b2d4ab094b56b07fd16797ebe40972d0c6362033877921dbaaefc842cfb08e44'
    )
  })

  it('a list item that is undefined hashes as null, as in JSON', () => {
    const stream = new FingerprintStream().list('records')
    stream.item(undefined)
    expect(stream.digest()).toBe(fingerprint({ records: [undefined] }))
  })

  it('diff: a value at the root, a field one side lacks, null and lists against mappings', () => {
    expect(diffValues('a', 'b')).toStrictEqual([{ path: '(root)', before: 'a', after: 'b' }])
    expect(diffValues({ a: 1 }, {})).toStrictEqual([{ path: 'a', before: 1 }])
    expect(diffValues(null, { a: 1 })).toStrictEqual([{ path: '(root)', before: null, after: { a: 1 } }])
    expect(diffValues(['x'], { a: 1 })).toStrictEqual([{ path: '(root)', before: ['x'], after: { a: 1 } }])
    expect(diffValues('ab', 'cd')).toStrictEqual([{ path: '(root)', before: 'ab', after: 'cd' }])
  })

  it('a key that is not an identifier is written in brackets', () => {
    expect(joinKey('x', 'ok_1')).toBe('x.ok_1')
    expect(joinKey('x', '1abc')).toBe('x["1abc"]')
    expect(joinKey('x', 'a-b')).toBe('x["a-b"]')
    expect(joinKey('', 'a')).toBe('a')
  })

  it('a keyed field reads back what joinKey wrote: the key, and the path under it', () => {
    for (const key of ['Errors', 'a "quoted" name', 'tiles["x"]', 'ü\\n']) {
      const path = `${joinKey('tiles', key, true)}.select[0].where`
      expect(keyedField(path, 'tiles')).toEqual({ key, rest: '.select[0].where' })
      expect(keyedField(joinKey('tiles', key, true), 'tiles')).toEqual({ key, rest: '' })
    }
    expect(keyedField('tags[0]', 'tiles')).toBeUndefined()
    expect(keyedField('tilesX["a"]', 'tiles')).toBeUndefined()
    expect(keyedField('tiles["bad \\q"]', 'tiles')).toBeUndefined()
  })

  it('a change is actionable unless it is a no-op or deferred', () => {
    const c = (action: Change['action'], deferred?: 'prune') =>
      ({
        kind: 'Dashboard',
        name: 'n',
        address: 'a',
        action,
        fields: [],
        notes: [],
        dependsOn: [],
        deferred
      }) as Change
    expect([c('update'), c('noop'), c('delete', 'prune'), c('delete')].map(isActionable)).toEqual([
      true,
      false,
      false,
      true
    ])
  })
})
