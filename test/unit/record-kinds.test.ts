/**
 * What the record kinds (connections, sources, saved searches, webhooks) share (src/kinds/records.ts):
 * which live record a manifest takes (a pin, this stack's of the same name, an adopted one, or none), the
 * plan errors that refuse another stack's or an unowned record, what is left as an orphan to delete, and the
 * requests a change sends: the delete and what the registry forgets, the update or the adopt and what it
 * records, the create with its bound references, its registry entry and a lost response, the link request.
 */
import { describe, expect, it, jest } from '@jest/globals'
import { UnknownOutcomeError } from '../../src/api/errors.js'
import type { Diagnostic } from '../../src/diagnostics.js'
import type {
  ApplyContext,
  Desired,
  OperationContext,
  PlanContext,
  PlanSettings
} from '../../src/kinds/kind.js'
import {
  changesMoreThanOwner,
  desiredRecords,
  pairRecords,
  recordOperations,
  registryNote,
  registryOwner,
  registryPair,
  type OwnershipSpec,
  type RecordDesired,
  type RecordWrites
} from '../../src/kinds/records.js'
import type { Located } from '../../src/manifest/rules.js'
import type { Change, ResourceKind } from '../../src/plan/types.js'
import { shopSettings } from '../support/shop-stack.js'

interface Spec {
  name: string
  id?: string
  adopt?: boolean
  service?: string
}
interface Live {
  id: string
  name: string
  /** The ownership tag it carries, if any. */
  owner?: string
  service?: string
}

const MINE = 'obsdeploy:shop'
const SIBLING = 'obsdeploy:billing'
const STRANGER = 'obsdeploy:elsewhere'

const settings = shopSettings

/** A manifest whose fields sit on lines of their own: `kind` line 1, `name` 2, `id` 3, `adopt` 4. */
const LINES: Record<string, number> = { kind: 1, name: 2, id: 3, adopt: 4 }
function located(spec: Spec, file = 'records.yaml'): Located<Spec> {
  return {
    spec,
    doc: { locate: (path: string[]) => ({ file, line: LINES[path[0]!] ?? 99, column: 1 }) }
  } as unknown as Located<Spec>
}

function planContext(over: { settings?: Partial<PlanSettings>; registry?: unknown } = {}) {
  const reports: Diagnostic[] = []
  const ctx = {
    settings: settings(over.settings),
    report: (d: Diagnostic) => reports.push(d),
    registry: over.registry ?? { owns: () => false, ownerOf: () => undefined, dashboard: undefined }
  } as unknown as PlanContext
  return { ctx, reports }
}

const desired = (...specs: Spec[]): Desired<RecordDesired<Spec>>[] =>
  specs.map(s => ({
    name: s.name,
    address: `SavedSearch/${s.name}`,
    source: { file: 'records.yaml', line: 2, column: 1 },
    value: { spec: s, located: located(s) }
  }))

/** Ownership by tag, as saved searches have it: tags can move, so another stack's may be adopted. */
const byTag = (over: Partial<OwnershipSpec<Live>> = {}): OwnershipSpec<Live> => ({
  kind: 'SavedSearch',
  liveId: l => l.id,
  liveName: l => l.name,
  owns: l => l.owner === MINE,
  otherOwner: l => (l.owner !== MINE ? l.owner : undefined),
  adoptFromOthers: true,
  ...over
})

/** Each pair as manifest name -> live id (or "create"), with its notes. */
const summary = (p: { pairs: Array<{ desired: { name: string }; live?: Live; notes?: string[] }> }) =>
  p.pairs.map(x => ({ name: x.desired.name, live: x.live?.id ?? 'create', notes: x.notes }))

describe('desiredRecords', () => {
  it('one desired record per manifest: name, address, value, and the name line as its source', () => {
    const { ctx, reports } = planContext()
    const specs = [{ name: 'errors' }, { name: 'slow' }]
    const ds = desiredRecords(
      'SavedSearch',
      specs.map(s => located(s)),
      [],
      ctx
    )
    expect(ds.map(d => ({ name: d.name, address: d.address, spec: d.value.spec }))).toStrictEqual([
      { name: 'errors', address: 'SavedSearch/errors', spec: { name: 'errors' } },
      { name: 'slow', address: 'SavedSearch/slow', spec: { name: 'slow' } }
    ])
    expect(ds[0]!.source).toStrictEqual({ file: 'records.yaml', line: 2, column: 1 })
    expect(ds[1]!.value.located.spec).toBe(specs[1])
    expect(reports).toStrictEqual([])
  })

  it('a kind this API cannot list is a plan error at each manifest, naming the mode', () => {
    const { ctx, reports } = planContext()
    desiredRecords('Webhook', [located({ name: 'a' }), located({ name: 'b' }, 'b.yaml')], undefined, ctx)
    expect(reports).toStrictEqual([
      {
        severity: 'error',
        stage: 'plan',
        message: 'this API has no webhooks route (self-hosted): Webhook manifests cannot be applied here',
        file: 'records.yaml',
        line: 1,
        column: 1,
        field: 'kind'
      },
      expect.objectContaining({ file: 'b.yaml', field: 'kind' })
    ])
  })

  it('in managed mode the error names the path prefix in use', () => {
    const { ctx, reports } = planContext({ settings: { mode: 'managed', managedPrefix: 'clickstack' } })
    desiredRecords('SavedSearch', [located({ name: 'a' })], undefined, ctx)
    expect(reports.map(r => r.message)).toStrictEqual([
      'this API has no saved searches route (managed, prefix clickstack): SavedSearch manifests cannot be applied here'
    ])
  })
})

describe('pairRecords: which live record a manifest takes', () => {
  it("a pin takes that record, even one another manifest's name matches; this stack's needs no note", () => {
    const { ctx, reports } = planContext()
    const live: Live[] = [{ id: 'r1', name: 'errors', owner: MINE }]
    const p = pairRecords(desired({ name: 'errors' }, { name: 'renamed', id: 'r1' }), live, ctx, byTag())
    expect(summary(p)).toStrictEqual([
      { name: 'renamed', live: 'r1', notes: [] },
      { name: 'errors', live: 'create', notes: undefined }
    ])
    expect(p.orphans).toStrictEqual([])
    expect(reports).toStrictEqual([])
  })

  it('a pin of an unowned record adopts it, with a note of the tag it gets', () => {
    const { ctx } = planContext()
    const p = pairRecords(desired({ name: 'x', id: 'r1' }), [{ id: 'r1', name: 'x' }], ctx, byTag())
    expect(summary(p)).toStrictEqual([
      {
        name: 'x',
        live: 'r1',
        notes: [
          'adopts existing saved search r1: this stack takes ownership (it gets the tag obsdeploy:shop)'
        ]
      }
    ])
  })

  it('an unowned record a pin adopts is taken: a manifest of its name is then a create, not a clash', () => {
    const { ctx, reports } = planContext()
    const live: Live[] = [{ id: 'r1', name: 'errors' }]
    const p = pairRecords(desired({ name: 'errors' }, { name: 'renamed', id: 'r1' }), live, ctx, byTag())
    expect(summary(p).map(x => [x.name, x.live])).toStrictEqual([
      ['renamed', 'r1'],
      ['errors', 'create']
    ])
    expect(reports).toStrictEqual([])
  })

  it('a pin of no record, or of one another pin took, is a plan error at `id`', () => {
    const { ctx, reports } = planContext()
    const live: Live[] = [{ id: 'r1', name: 'x', owner: MINE }]
    const p = pairRecords(
      desired({ name: 'a', id: 'nope' }, { name: 'b', id: 'r1' }, { name: 'c', id: 'r1' }),
      live,
      ctx,
      byTag()
    )
    expect(summary(p)).toStrictEqual([{ name: 'b', live: 'r1', notes: [] }])
    expect(reports).toStrictEqual([
      {
        severity: 'error',
        stage: 'plan',
        message: 'no saved search with id "nope" exists',
        file: 'records.yaml',
        line: 3,
        column: 1,
        field: 'id'
      },
      expect.objectContaining({
        message: 'saved search id "r1" is already matched by another manifest',
        line: 3
      })
    ])
  })

  it("a pin of another stack's record adopts it only where ownership can move", () => {
    const live: Live[] = [{ id: 'r1', name: 'x', owner: STRANGER }]
    const tags = planContext()
    expect(summary(pairRecords(desired({ name: 'x', id: 'r1' }), live, tags.ctx, byTag()))).toStrictEqual([
      {
        name: 'x',
        live: 'r1',
        notes: [
          'adopts existing saved search r1: this stack takes ownership (it gets the tag obsdeploy:shop)'
        ]
      }
    ])
    expect(tags.reports).toStrictEqual([])

    const fixed = planContext()
    const p = pairRecords(
      desired({ name: 'x', id: 'r1' }),
      live,
      fixed.ctx,
      byTag({ adoptFromOthers: false })
    )
    expect(p.pairs).toStrictEqual([])
    expect(fixed.reports).toStrictEqual([
      expect.objectContaining({
        field: 'id',
        line: 3,
        message:
          'saved search "x" (id r1) is owned by another stack (obsdeploy:elsewhere); a stack never takes over another stack\'s saved searches: remove it from that stack\'s manifests first, or give this manifest another name'
      })
    ])
  })

  it("this stack's record of the same name, the lowest id first; the rest of its records are orphans", () => {
    const { ctx, reports } = planContext()
    const live: Live[] = [
      { id: 'r3', name: 'errors', owner: MINE },
      { id: 'r2', name: 'gone', owner: MINE },
      { id: 'r1', name: 'errors', owner: MINE },
      { id: 'r0', name: 'not ours' }
    ]
    const p = pairRecords(desired({ name: 'errors' }), live, ctx, byTag())
    expect(p.pairs).toStrictEqual([{ desired: expect.anything(), live: live[2] }])
    expect(p.orphans.map(l => l.id)).toStrictEqual(['r2', 'r3'])
    expect(reports).toStrictEqual([])
  })

  it('nothing live (or a kind not listed): every manifest is a create and nothing is an orphan', () => {
    const { ctx, reports } = planContext()
    const p = pairRecords(desired({ name: 'a' }, { name: 'b' }), undefined, ctx, byTag())
    expect(p).toStrictEqual({
      pairs: [{ desired: expect.anything() }, { desired: expect.anything() }],
      orphans: []
    })
    expect(reports).toStrictEqual([])
  })

  it('an unowned record of the same name is never overwritten: a plan error that says how to adopt it', () => {
    const { ctx, reports } = planContext()
    const p = pairRecords(desired({ name: 'errors' }), [{ id: 'r9', name: 'errors' }], ctx, byTag())
    expect(p).toStrictEqual({ pairs: [], orphans: [] })
    expect(reports).toStrictEqual([
      {
        severity: 'error',
        stage: 'plan',
        message:
          'a saved search named "errors" already exists (id r9) and is not owned by stack "shop". It is not overwritten: to manage it from this manifest, add `adopt: true` (or `id: r9`); to keep both, give this manifest another name.',
        file: 'records.yaml',
        line: 2,
        column: 1,
        field: 'name'
      }
    ])
  })

  it("another stack's record of the same name: the error names it; where it cannot move, it is refused as foreign", () => {
    const live: Live[] = [{ id: 'r9', name: 'errors', owner: STRANGER }]
    const tags = planContext()
    pairRecords(desired({ name: 'errors' }), live, tags.ctx, byTag())
    expect(tags.reports.map(r => [r.field, r.message])).toStrictEqual([
      [
        'name',
        'a saved search named "errors" already exists (id r9) and is not owned by stack "shop" (it is obsdeploy:elsewhere\'s). It is not overwritten: to manage it from this manifest, add `adopt: true` (or `id: r9`); to keep both, give this manifest another name.'
      ]
    ])
    const fixed = planContext()
    pairRecords(desired({ name: 'errors' }), live, fixed.ctx, byTag({ adoptFromOthers: false }))
    expect(fixed.reports.map(r => [r.field, r.message])).toStrictEqual([
      [
        'name',
        'saved search "errors" (id r9) is owned by another stack (obsdeploy:elsewhere); a stack never takes over another stack\'s saved searches: remove it from that stack\'s manifests first, or give this manifest another name'
      ]
    ])
  })

  it('`adopt: true` takes the one unowned record of the name, with a note; two of the name need a pin', () => {
    const one = planContext()
    const p = pairRecords(
      desired({ name: 'errors', adopt: true }),
      [{ id: 'r9', name: 'errors' }],
      one.ctx,
      byTag()
    )
    expect(summary(p)).toStrictEqual([
      {
        name: 'errors',
        live: 'r9',
        notes: [
          'adopts existing saved search r9: this stack takes ownership (it gets the tag obsdeploy:shop)'
        ]
      }
    ])
    expect(p.orphans).toStrictEqual([])
    expect(one.reports).toStrictEqual([])

    const two = planContext()
    const q = pairRecords(
      desired({ name: 'errors', adopt: true }),
      [
        { id: 'r9', name: 'errors' },
        { id: 'r8', name: 'errors' }
      ],
      two.ctx,
      byTag()
    )
    expect(q.pairs).toStrictEqual([])
    expect(two.reports).toStrictEqual([
      expect.objectContaining({
        field: 'adopt',
        line: 4,
        message: '2 saved searches are named "errors" (ids r8, r9); pin the one to adopt with `id:`'
      })
    ])
  })

  it("`adopt: true` of another stack's record: taken where tags move, refused where they cannot", () => {
    const live: Live[] = [{ id: 'r9', name: 'errors', owner: STRANGER }]
    const tags = planContext()
    expect(
      summary(pairRecords(desired({ name: 'errors', adopt: true }), live, tags.ctx, byTag()))
    ).toStrictEqual([
      {
        name: 'errors',
        live: 'r9',
        notes: [
          'adopts existing saved search r9: this stack takes ownership (it gets the tag obsdeploy:shop)'
        ]
      }
    ])
    const fixed = planContext()
    const p = pairRecords(
      desired({ name: 'errors', adopt: true }),
      live,
      fixed.ctx,
      byTag({ adoptFromOthers: false })
    )
    expect(p.pairs).toStrictEqual([])
    expect(fixed.reports.map(r => [r.field, r.line])).toStrictEqual([['adopt', 4]])
    expect(fixed.reports[0]!.message).toContain('is owned by another stack (obsdeploy:elsewhere)')
  })

  it('a record of a sibling stack of the same name stays theirs: a new one, with a note (adopt never takes it)', () => {
    const { ctx, reports } = planContext({ settings: { siblingTags: [SIBLING] } })
    const live: Live[] = [{ id: 'r5', name: 'errors', owner: SIBLING }]
    expect(summary(pairRecords(desired({ name: 'errors' }), live, ctx, byTag()))).toStrictEqual([
      {
        name: 'errors',
        live: 'create',
        notes: [
          'a new saved search: saved search r5 of the same name belongs to another stack of this repository (obsdeploy:billing) and stays theirs'
        ]
      }
    ])
    expect(summary(pairRecords(desired({ name: 'errors', adopt: true }), live, ctx, byTag()))).toStrictEqual([
      {
        name: 'errors',
        live: 'create',
        notes: [
          'a new saved search: saved search r5 of the same name belongs to another stack of this repository (obsdeploy:billing) and stays theirs, because `adopt: true` never takes one from another stack'
        ]
      }
    ])
    expect(reports).toStrictEqual([])
  })

  it('a sibling beside an unowned record of the name: the unowned one decides (an error without adopt)', () => {
    const { ctx, reports } = planContext({ settings: { siblingTags: [SIBLING] } })
    const live: Live[] = [
      { id: 'r5', name: 'errors', owner: SIBLING },
      { id: 'r6', name: 'errors' }
    ]
    const p = pairRecords(desired({ name: 'errors' }), live, ctx, byTag())
    expect(p.pairs).toStrictEqual([])
    expect(reports.map(r => r.message)).toStrictEqual([expect.stringContaining('already exists (id r6)')])
    const adopt = planContext({ settings: { siblingTags: [SIBLING] } })
    expect(
      summary(pairRecords(desired({ name: 'errors', adopt: true }), live, adopt.ctx, byTag()))
    ).toStrictEqual([
      {
        name: 'errors',
        live: 'r6',
        notes: [
          'adopts existing saved search r6: this stack takes ownership (it gets the tag obsdeploy:shop)'
        ]
      }
    ])
  })

  it("a twin the server refuses beside a sibling's record is a plan error naming both stacks; another is a create", () => {
    const { ctx, reports } = planContext({ settings: { siblingTags: [SIBLING] } })
    const refusesTwin = (spec: Spec, l: Live) =>
      spec.service === l.service ? 'one per service and name' : undefined
    const live: Live[] = [{ id: 'w5', name: 'pager', owner: SIBLING, service: 'slack' }]
    const p = pairRecords(
      desired({ name: 'pager', service: 'slack' }),
      live,
      ctx,
      byTag({ kind: 'Webhook', refusesTwin })
    )
    expect(p.pairs).toStrictEqual([])
    expect(reports).toStrictEqual([
      expect.objectContaining({
        field: 'name',
        line: 2,
        message:
          'stack "shop" cannot create webhook "pager": another stack of this repository (obsdeploy:billing) has one (id w5), and one per service and name'
      })
    ])
    const other = planContext({ settings: { siblingTags: [SIBLING] } })
    const q = pairRecords(
      desired({ name: 'pager', service: 'generic' }),
      live,
      other.ctx,
      byTag({ kind: 'Webhook', refusesTwin })
    )
    expect(summary(q)).toStrictEqual([
      {
        name: 'pager',
        live: 'create',
        notes: [
          'a new webhook: webhook w5 of the same name belongs to another stack of this repository (obsdeploy:billing) and stays theirs'
        ]
      }
    ])
    expect(other.reports).toStrictEqual([])
  })
})

describe('registryPair: ownership through the registry', () => {
  const registry = {
    owns: (kind: string, id: string) => kind === 'Webhook' && id === 'mine',
    ownerOf: (kind: string, id: string) => (kind === 'Webhook' && id === 'theirs' ? STRANGER : undefined)
  }

  it("owned when the registry lists it; another stack's registry entry is never adopted", () => {
    const { ctx, reports } = planContext({ registry })
    const live: Live[] = [
      { id: 'mine', name: 'pager' },
      { id: 'theirs', name: 'ops' },
      { id: 'left', name: 'old' }
    ]
    ;(ctx as { live: unknown }).live = { Webhook: live }
    const pair = registryPair<Live>('Webhook', c => (c.live as unknown as { Webhook: Live[] }).Webhook)
    const p = pair(
      desired({ name: 'pager' }, { name: 'ops', adopt: true }, { name: 'old', adopt: true }),
      ctx
    )
    expect(summary(p)).toStrictEqual([
      { name: 'pager', live: 'mine', notes: undefined },
      {
        name: 'old',
        live: 'left',
        notes: [
          'adopts existing webhook left: this stack takes ownership (recorded in its registry dashboard "obsdeploy registry (stack shop)")'
        ]
      }
    ])
    expect(reports.map(r => [r.field, r.message])).toStrictEqual([
      [
        'adopt',
        'webhook "ops" (id theirs) is owned by another stack (obsdeploy:elsewhere); a stack never takes over another stack\'s webhooks: remove it from that stack\'s manifests first, or give this manifest another name'
      ]
    ])
  })

  it("a record this stack's registry lists is its own, even if another stack's registry claims it too", () => {
    const { ctx, reports } = planContext({
      registry: { owns: () => true, ownerOf: () => STRANGER }
    })
    const pair = registryPair<Live>('Webhook', () => [{ id: 'w1', name: 'pager' }])
    expect(summary(pair(desired({ name: 'renamed', id: 'w1' }), ctx))).toStrictEqual([
      { name: 'renamed', live: 'w1', notes: [] }
    ])
    expect(reports).toStrictEqual([])
  })

  it('passes the twin rule on', () => {
    const { ctx, reports } = planContext({
      registry: { owns: () => false, ownerOf: () => SIBLING },
      settings: { siblingTags: [SIBLING] }
    })
    const pair = registryPair<Live>(
      'Webhook',
      () => [{ id: 'w1', name: 'pager' }],
      () => 'no twins'
    )
    expect(pair(desired({ name: 'pager' }), ctx).pairs).toStrictEqual([])
    expect(reports.map(r => r.message)).toStrictEqual([
      expect.stringMatching(/has one \(id w1\), and no twins$/)
    ])
  })
})

// --- operations ---

const change = (over: Partial<Change>): Change =>
  ({
    kind: 'Webhook',
    name: 'pager',
    address: 'Webhook/pager',
    action: 'update',
    fields: [{ path: 'url', before: 'a', after: 'b' }],
    notes: [],
    dependsOn: [],
    ...over
  }) as Change

function applyContext(over: { facts?: Map<string, { id?: string }> } = {}) {
  const calls: string[] = []
  const api = {
    createRecord: jest.fn(async (collection: string, _body: unknown) => {
      calls.push(`create ${collection}`)
      return { id: 'new-id' }
    }),
    updateRecord: jest.fn(async (collection: string, id: string, _body: unknown) => {
      calls.push(`update ${collection} ${id}`)
      return { id }
    }),
    deleteRecord: jest.fn(async (collection: string, id: string): Promise<'deleted' | 'absent'> => {
      calls.push(`delete ${collection} ${id}`)
      return 'deleted'
    })
  }
  const registry = {
    record: jest.fn(async (kind: string, id: string, _entry: unknown) => {
      calls.push(`record ${kind} ${id}`)
    }),
    forget: jest.fn(async (kind: string, id: string) => {
      calls.push(`forget ${kind} ${id}`)
    })
  }
  const warnings: string[] = []
  const ctx = {
    api,
    registry,
    settings: settings(),
    facts: over.facts ?? new Map(),
    log: { info() {}, debug() {}, warn: (m: string) => warnings.push(m) },
    reread: async <T>(_what: string, read: () => Promise<T[]>) => read()
  } as unknown as ApplyContext
  return { ctx, api, registry, calls, warnings }
}

const octx = { settings: settings() } as unknown as OperationContext
const pagerDesired = desired({ name: 'pager' })[0]!

type W = RecordWrites<RecordDesired<Spec>, Live>
type EntryAfter = NonNullable<W['entryAfter']>

function writes(over: Partial<W> = {}): W {
  return {
    kind: 'Webhook',
    collection: 'webhooks',
    liveId: l => l.id,
    liveName: l => l.name,
    createBody: d => ({ name: d.spec.name, source: 'new:Source/logs' }),
    updateBody: d => ({ name: d.spec.name, url: 'https://x' }),
    entryAfter: (d, sent) => (sent ? { name: d.spec.name } : undefined),
    list: async () => [],
    ...over
  }
}

describe('recordOperations: the requests a change sends', () => {
  const live: Live = { id: 'w1', name: 'pager' }

  it('a no-op or a deferred change sends nothing; a delete without a live record neither', () => {
    expect(
      recordOperations({ change: change({ action: 'noop' }), desired: pagerDesired, live }, octx, writes())
    ).toStrictEqual([])
    expect(
      recordOperations({ change: change({ deferred: 'prune' }), desired: pagerDesired, live }, octx, writes())
    ).toStrictEqual([])
    expect(recordOperations({ change: change({ action: 'delete' }) }, octx, writes())).toStrictEqual([])
  })

  it('a delete sends one DELETE of the live id, then the registry forgets it', async () => {
    const ops = recordOperations({ change: change({ action: 'delete' }), live }, octx, writes())
    expect(ops.map(({ run: _run, ...o }) => o)).toStrictEqual([
      { address: 'Webhook/pager', label: 'delete', lock: 'Webhook:w1', provides: [], after: [] }
    ])
    const { ctx, calls } = applyContext()
    expect(await ops[0]!.run(ctx)).toStrictEqual({ status: 'applied', id: 'w1', message: undefined })
    expect(calls).toStrictEqual(['delete webhooks w1', 'forget Webhook w1'])
  })

  it('a record already gone says so; a failed delete is not forgotten', async () => {
    const ops = recordOperations({ change: change({ action: 'delete' }), live }, octx, writes())
    const gone = applyContext()
    gone.api.deleteRecord.mockResolvedValueOnce('absent')
    expect(await ops[0]!.run(gone.ctx)).toStrictEqual({
      status: 'applied',
      id: 'w1',
      message: 'already gone'
    })
    const failed = applyContext()
    failed.api.deleteRecord.mockRejectedValueOnce(new Error('503'))
    await expect(ops[0]!.run(failed.ctx)).rejects.toThrow('503')
    expect(failed.registry.forget).not.toHaveBeenCalled()
  })

  it('a kind without a registry (saved searches) deletes without touching it', async () => {
    const ops = recordOperations(
      { change: change({ kind: 'SavedSearch', action: 'delete' }), live },
      octx,
      writes({ kind: 'SavedSearch', collection: 'saved-searches' })
    )
    const { ctx, calls } = applyContext()
    await ops[0]!.run(ctx)
    expect(calls).toStrictEqual(['delete saved-searches w1'])
  })

  it('an update PUTs the body with its references bound, then records the registry entry', async () => {
    const updateBody = jest.fn((_d: RecordDesired<Spec>, _l: Live, _c: Change, _o: OperationContext) => ({
      name: 'pager',
      source: 'new:Source/logs'
    }))
    const ch = change({})
    const ops = recordOperations({ change: ch, desired: pagerDesired, live }, octx, writes({ updateBody }))
    expect(updateBody).toHaveBeenCalledWith(pagerDesired.value, live, ch, octx)
    expect(ops.map(({ run: _run, ...o }) => o)).toStrictEqual([
      {
        address: 'Webhook/pager',
        label: 'update',
        lock: 'Webhook:w1',
        provides: ['ready:Webhook/pager'],
        after: ['ready:Source/logs']
      }
    ])
    const { ctx, api, registry, calls } = applyContext({
      facts: new Map([['ready:Source/logs', { id: 'src-9' }]])
    })
    expect(await ops[0]!.run(ctx)).toStrictEqual({ status: 'applied', id: 'w1' })
    expect(api.updateRecord).toHaveBeenCalledWith('webhooks', 'w1', { name: 'pager', source: 'src-9' })
    expect(registry.record).toHaveBeenCalledWith('Webhook', 'w1', { name: 'pager' })
    expect(calls).toStrictEqual(['update webhooks w1', 'record Webhook w1'])
  })

  it('an update that changes only the owner sends no request: an adopt that records the registry entry', async () => {
    const entryAfter = jest.fn<EntryAfter>(() => ({ name: 'pager' }))
    const ops = recordOperations(
      { change: change({}), desired: pagerDesired, live },
      octx,
      writes({ updateBody: () => undefined, entryAfter })
    )
    expect(ops.map(({ run: _run, ...o }) => o)).toStrictEqual([
      {
        address: 'Webhook/pager',
        label: 'adopt',
        lock: 'Webhook:w1',
        provides: ['ready:Webhook/pager'],
        after: []
      }
    ])
    const { ctx, calls } = applyContext()
    expect(await ops[0]!.run(ctx)).toStrictEqual({ status: 'applied', id: 'w1' })
    expect(entryAfter).toHaveBeenCalledWith(pagerDesired.value, undefined, live, octx)
    expect(calls).toStrictEqual(['record Webhook w1'])
  })

  it('no registry write when the entry is unchanged, or for a kind without a registry', async () => {
    const none = recordOperations(
      { change: change({}), desired: pagerDesired, live },
      octx,
      writes({ entryAfter: () => undefined })
    )
    const a = applyContext()
    await none[0]!.run(a.ctx)
    expect(a.calls).toStrictEqual(['update webhooks w1'])

    const entryAfter = jest.fn<EntryAfter>(() => ({ name: 'x' }))
    const search = recordOperations(
      { change: change({ kind: 'SavedSearch' }), desired: pagerDesired, live },
      octx,
      writes({ kind: 'SavedSearch', collection: 'saved-searches', entryAfter })
    )
    expect(search[0]!.lock).toBe('SavedSearch:w1')
    const b = applyContext()
    await search[0]!.run(b.ctx)
    expect(b.calls).toStrictEqual(['update saved-searches w1'])
    expect(entryAfter).not.toHaveBeenCalled()
  })

  it('a create POSTs the body with references bound, provides its ready token and records the new id', async () => {
    const entryAfter = jest.fn<EntryAfter>((_d, sent) => ({
      name: String(sent?.name)
    }))
    const ops = recordOperations(
      { change: change({ action: 'create' }), desired: pagerDesired },
      octx,
      writes({ entryAfter })
    )
    expect(ops.map(({ run: _run, ...o }) => o)).toStrictEqual([
      {
        address: 'Webhook/pager',
        label: 'create',
        lock: 'Webhook:pager',
        provides: ['ready:Webhook/pager'],
        after: ['ready:Source/logs']
      }
    ])
    const { ctx, api, registry, calls } = applyContext({
      facts: new Map([['ready:Source/logs', { id: 'src-9' }]])
    })
    expect(await ops[0]!.run(ctx)).toStrictEqual({ status: 'applied', id: 'new-id' })
    expect(api.createRecord).toHaveBeenCalledWith('webhooks', { name: 'pager', source: 'src-9' })
    expect(entryAfter).toHaveBeenCalledWith(
      pagerDesired.value,
      { name: 'pager', source: 'src-9' },
      undefined,
      octx
    )
    expect(registry.record).toHaveBeenCalledWith('Webhook', 'new-id', { name: 'pager' })
    expect(calls).toStrictEqual(['create webhooks', 'record Webhook new-id'])
  })

  it('a create that cannot be recorded says it was created, that the stack does not own it, and how to adopt it', async () => {
    const ops = recordOperations(
      { change: change({ action: 'create' }), desired: pagerDesired },
      octx,
      writes()
    )
    const { ctx, registry } = applyContext({ facts: new Map([['ready:Source/logs', { id: 'src-9' }]]) })
    const cause = new Error('registry dashboard update refused (409)')
    registry.record.mockRejectedValueOnce(cause)
    const error = await ops[0]!.run(ctx).then(
      () => undefined,
      (e: unknown) => e as Error
    )
    expect(error?.message).toBe(
      'webhook "pager" was created (id new-id) but could not be recorded in the registry dashboard "obsdeploy registry (stack shop)", so this stack does not own it yet: registry dashboard update refused (409). Add `adopt: true` to its manifest and apply again'
    )
    expect(error?.cause).toBe(cause)
  })

  it('a create of a kind without a registry records nothing', async () => {
    const entryAfter = jest.fn<EntryAfter>(() => ({ name: 'x' }))
    const ops = recordOperations(
      { change: change({ kind: 'SavedSearch', action: 'create' }), desired: pagerDesired },
      octx,
      writes({
        kind: 'SavedSearch',
        collection: 'saved-searches',
        entryAfter,
        createBody: () => ({ name: 'pager' })
      })
    )
    expect(ops[0]!.after).toStrictEqual([])
    const { ctx, calls } = applyContext()
    expect(await ops[0]!.run(ctx)).toStrictEqual({ status: 'applied', id: 'new-id' })
    expect(calls).toStrictEqual(['create saved-searches'])
    expect(entryAfter).not.toHaveBeenCalled()
  })

  it('after a lost create response, the record of the same name is adopted, not created twice', async () => {
    const list = jest.fn<W['list']>(async () => [
      { id: 'other', name: 'other' },
      { id: 'w7', name: 'pager' }
    ])
    const ops = recordOperations(
      { change: change({ action: 'create' }), desired: pagerDesired },
      octx,
      writes({ list, createBody: () => ({ name: 'pager' }) })
    )
    const { ctx, api, registry } = applyContext()
    api.createRecord.mockRejectedValueOnce(
      new UnknownOutcomeError({ method: 'POST', path: '/api/v2/webhooks' }, 'reset')
    )
    expect(await ops[0]!.run(ctx)).toStrictEqual({
      status: 'adopted',
      id: 'w7',
      message: 'the create was committed although its response was lost'
    })
    expect(api.createRecord).toHaveBeenCalledTimes(1)
    expect(list).toHaveBeenCalledWith(ctx)
    expect(registry.record).toHaveBeenCalledWith('Webhook', 'w7', { name: 'pager' })
  })

  it("after a lost create response, a kind's own rule finds the record, given the body sent", async () => {
    const find = jest.fn<NonNullable<W['find']>>((all, body) => all.find(l => l.service === body.service))
    const ops = recordOperations(
      { change: change({ action: 'create' }), desired: pagerDesired },
      octx,
      writes({
        find,
        list: async () => [
          { id: 'w1', name: 'pager', service: 'slack' },
          { id: 'w2', name: 'pager', service: 'generic' }
        ],
        createBody: () => ({ name: 'pager', service: 'generic' })
      })
    )
    const { ctx, api } = applyContext()
    api.createRecord.mockRejectedValueOnce(
      new UnknownOutcomeError({ method: 'POST', path: '/api/v2/webhooks' }, 'reset')
    )
    expect(await ops[0]!.run(ctx)).toMatchObject({ status: 'adopted', id: 'w2' })
    expect(find).toHaveBeenCalledWith(expect.any(Array), { name: 'pager', service: 'generic' }, octx)
  })

  it('a create that must wait for records of its kind sends the whole body later, by a link request', async () => {
    const ops = recordOperations(
      { change: change({ action: 'create' }), desired: pagerDesired },
      octx,
      writes({
        createBody: () => ({ name: 'pager' }),
        linkBody: () => ({ name: 'pager', next: 'new:Webhook/escalation' })
      })
    )
    expect(ops.map(({ run: _run, ...o }) => o)).toStrictEqual([
      {
        address: 'Webhook/pager',
        label: 'link',
        lock: 'Webhook:pager',
        provides: [],
        after: ['ready:Webhook/pager', 'ready:Webhook/escalation']
      },
      {
        address: 'Webhook/pager',
        label: 'create',
        lock: 'Webhook:pager',
        provides: ['ready:Webhook/pager'],
        after: []
      }
    ])
    const facts = new Map([
      ['ready:Webhook/pager', { id: 'w1' }],
      ['ready:Webhook/escalation', { id: 'w2' }]
    ])
    const { ctx, api } = applyContext({ facts })
    expect(await ops[0]!.run(ctx)).toStrictEqual({ status: 'applied', id: 'w1' })
    expect(api.updateRecord).toHaveBeenCalledWith('webhooks', 'w1', { name: 'pager', next: 'w2' })

    const early = applyContext()
    await expect(ops[0]!.run(early.ctx)).rejects.toThrow('webhook "pager" has no id')
    expect(early.api.updateRecord).not.toHaveBeenCalled()
  })

  it('no link request when the kind has nothing to link', () => {
    const ops = recordOperations(
      { change: change({ action: 'create' }), desired: pagerDesired },
      octx,
      writes({ linkBody: () => undefined })
    )
    expect(ops.map(o => o.label)).toStrictEqual(['create'])
  })
})

describe('registryNote, registryOwner, changesMoreThanOwner', () => {
  const noted = (c: Partial<Change>, dashboard?: object) => {
    const ch = change({ notes: [], ...c })
    const { ctx } = planContext({ registry: { dashboard } })
    registryNote(ch, ctx)
    return ch.notes
  }

  it('a create is recorded in the registry dashboard, which the apply creates when there is none', () => {
    expect(noted({ action: 'create' })).toStrictEqual([
      'recorded as this stack\'s in its registry dashboard "obsdeploy registry (stack shop)" (the apply creates that dashboard)'
    ])
    expect(noted({ action: 'create' }, { id: 'd1' })).toStrictEqual([
      'recorded as this stack\'s in its registry dashboard "obsdeploy registry (stack shop)"'
    ])
  })

  it('a delete is removed from it once deleted', () => {
    expect(noted({ action: 'delete' }, { id: 'd1' })).toStrictEqual([
      'removed from the registry dashboard "obsdeploy registry (stack shop)" once deleted'
    ])
  })

  it('an update notes the registry only when the owner or a write-only field changes', () => {
    const note =
      'the registry dashboard "obsdeploy registry (stack shop)" records its ownership and write-only fingerprints'
    for (const path of ['owner', 'password', 'headers', 'queryParams', 'body'])
      expect(noted({ fields: [{ path, after: 'x' }] }, { id: 'd1' })).toStrictEqual([note])
    expect(noted({ fields: [{ path: 'owner', after: 'x' }] })).toStrictEqual([
      `${note} (the apply creates that dashboard)`
    ])
    // One such field among others is enough.
    expect(
      noted(
        {
          fields: [
            { path: 'url', after: 'x' },
            { path: 'headers', after: 'y' }
          ]
        },
        { id: 'd1' }
      )
    ).toStrictEqual([note])
    for (const path of ['url', 'description', 'bodyText', 'oldpassword', 'headers2'])
      expect(noted({ fields: [{ path, after: 'x' }] }, { id: 'd1' })).toStrictEqual([])
  })

  it('nothing for a kind without a registry, a deferred change or a no-op', () => {
    expect(noted({ kind: 'SavedSearch', action: 'create' })).toStrictEqual([])
    expect(noted({ action: 'create', deferred: 'release' })).toStrictEqual([])
    expect(noted({ action: 'noop', fields: [{ path: 'owner', after: 'x' }] })).toStrictEqual([])
  })

  it("registryOwner: this stack's tag, another stack's, or none; kinds without a registry have none", () => {
    const { ctx } = planContext({
      registry: {
        owns: (kind: string, id: string) => kind === 'Source' && id === 'mine',
        ownerOf: (kind: string, id: string) => (kind === 'Source' && id === 'theirs' ? STRANGER : undefined)
      }
    })
    expect(registryOwner('Source', 'mine', ctx)).toBe(MINE)
    expect(registryOwner('Source', 'theirs', ctx)).toBe(STRANGER)
    expect(registryOwner('Source', 'nobody', ctx)).toBeUndefined()
    expect(registryOwner('SavedSearch' as ResourceKind, 'mine', ctx)).toBeUndefined()
  })

  it('changesMoreThanOwner: any field but the owner', () => {
    expect(changesMoreThanOwner(change({ fields: [{ path: 'owner', after: 'x' }] }))).toBe(false)
    expect(changesMoreThanOwner(change({ fields: [] }))).toBe(false)
    expect(
      changesMoreThanOwner(
        change({
          fields: [
            { path: 'owner', after: 'x' },
            { path: 'url', after: 'y' }
          ]
        })
      )
    ).toBe(true)
  })
})
