/**
 * What the kinds written through plain create / update / delete routes share (connections, data sources,
 * saved searches, webhooks): reading the manifests, pairing them with live records under the stack's
 * ownership, and turning a change into requests that bind references to resources this run creates.
 *
 * Identity: an `id:` pin, then a record this stack owns of the same name, then (only with `adopt: true`)
 * an unowned one of the same name. A name taken by a record the stack does not own is a plan error that
 * says how to adopt it; one owned by another stack is never taken over. Under the `stacks` layout a name
 * another stack of the repository also uses is no conflict (as for dashboards): each stack keeps its own,
 * since the server allows same-named records, except where it refuses a twin (two webhooks of one service
 * and name): that is a plan error naming both stacks.
 */
import type { RecordCollection } from '../api/client.js'
import { diagnostic } from '../diagnostics.js'
import { formatPath, type PathSegment } from '../manifest/path.js'
import type { Located } from '../manifest/rules.js'
import type { Change, ResourceKind } from '../plan/types.js'
import { createOnce } from './create-once.js'
import { DesiredAt } from './desired-at.js'
import type {
  ApplyContext,
  Desired,
  Kind,
  Operation,
  OperationContext,
  Pairing,
  PlanContext,
  PlannedChange,
  RequestEstimate
} from './kind.js'
import { wordFor } from './nouns.js'
import { bindPlaceholders, placeholderTokens, resourceReady } from './references.js'
import {
  isRegistryKind,
  registryName,
  unrecordedError,
  type RegistryEntry,
  type RegistryKind
} from './registry.js'

/** The fields every kind of this family has for identity. */
interface IdentitySpec {
  name: string
  id?: string
  adopt?: boolean
}

export interface RecordDesired<S extends IdentitySpec> {
  spec: S
  located: Located<S>
}

/** The manifests of a kind as desired records; a kind this API cannot list is a plan error at each. */
export function desiredRecords<S extends IdentitySpec>(
  kind: ResourceKind,
  located: readonly Located<S>[],
  live: readonly unknown[] | undefined,
  ctx: PlanContext
): Desired<RecordDesired<S>>[] {
  return located.map(l => {
    if (live === undefined)
      ctx.report(
        diagnostic(
          'plan',
          'error',
          `this API has no ${wordFor(kind, true)} route (${ctx.settings.mode}${ctx.settings.managedPrefix ? `, prefix ${ctx.settings.managedPrefix}` : ''}): ${kind} manifests cannot be applied here`,
          { ...l.doc.locate(['kind']), field: 'kind' }
        )
      )
    return new DesiredAt(l.spec.name, `${kind}/${l.spec.name}`, { spec: l.spec, located: l }, l.doc)
  })
}

export interface OwnershipSpec<L> {
  kind: ResourceKind
  liveId(l: L): string
  liveName(l: L): string
  /** This stack owns it. */
  owns(l: L): boolean
  /** The ownership tag of another stack that owns it. */
  otherOwner(l: L): string | undefined
  /** Whether adoption may take it from another stack (tags can move; registry entries cannot). */
  adoptFromOthers: boolean
  /** Why the server refuses a new record like this manifest's beside this same-named one (a unique index). */
  refusesTwin?(spec: IdentitySpec, l: L): string | undefined
}

/**
 * A Kind's `pair` for a kind owned through the registry (no tags): by id, owned when the stack's registry
 * lists it, another stack's when that stack's does; never adopted from another stack.
 */
export function registryPair<L extends { id: string; name: string }>(
  kind: RegistryKind,
  liveOf: (ctx: PlanContext) => readonly L[] | undefined,
  refusesTwin?: OwnershipSpec<L>['refusesTwin']
) {
  return <S extends IdentitySpec>(desired: Desired<RecordDesired<S>>[], ctx: PlanContext) =>
    pairRecords(desired, liveOf(ctx), ctx, {
      kind,
      liveId: l => l.id,
      liveName: l => l.name,
      owns: l => ctx.registry.owns(kind, l.id),
      otherOwner: l => ctx.registry.ownerOf(kind, l.id),
      adoptFromOthers: false,
      refusesTwin
    })
}

/** The manifests of a record kind paired with live records, as the header's identity rules say. */
export function pairRecords<S extends IdentitySpec, L>(
  desired: Desired<RecordDesired<S>>[],
  live: readonly L[] | undefined,
  ctx: PlanContext,
  o: OwnershipSpec<L>
): Pairing<RecordDesired<S>, L> {
  const all = [...(live ?? [])].sort((a, b) => o.liveId(a).localeCompare(o.liveId(b)))
  const owned = all.filter(l => o.owns(l))
  const pairing = new RecordPairing<S, L>(ctx, o)
  // 1. Pinned ids first: a pin wins over a name match, whatever the file order.
  const unpinned = pairing.pairPinned(desired, all)
  // 2. This stack's record of the same name; 3. adopt; otherwise create, unless the name is taken.
  const unmatched = pairing.pairOwned(unpinned, owned)
  const allByName = byName(all, o.liveName)
  for (const d of unmatched) pairing.pairUnowned(d, allByName.get(d.name) ?? [])
  return { pairs: pairing.pairs, orphans: owned.filter(l => !pairing.isTaken(l)) }
}

function byName<L>(list: readonly L[], liveName: (l: L) => string): Map<string, L[]> {
  const index = new Map<string, L[]>()
  for (const l of list) index.set(liveName(l), [...(index.get(liveName(l)) ?? []), l])
  return index
}

/** One run of pairRecords: the live records taken so far, the pairs made, and the plan errors' wording. */
class RecordPairing<S extends IdentitySpec, L> {
  readonly pairs: Pairing<RecordDesired<S>, L>['pairs'] = []
  private readonly used = new Set<string>()
  private readonly what: string
  private readonly siblings: Set<string>

  constructor(
    private readonly ctx: PlanContext,
    private readonly o: OwnershipSpec<L>
  ) {
    this.what = wordFor(o.kind)
    this.siblings = new Set(ctx.settings.siblingTags)
  }

  isTaken(l: L): boolean {
    return this.used.has(this.o.liveId(l))
  }

  /** Pairs each manifest that pins an id; returns the others, in order. */
  pairPinned(desired: Desired<RecordDesired<S>>[], all: readonly L[]): Desired<RecordDesired<S>>[] {
    const { o, what } = this
    const byId = new Map(all.map(l => [o.liveId(l), l]))
    const pending: Desired<RecordDesired<S>>[] = []
    for (const d of desired) {
      const pin = d.value.spec.id
      if (pin === undefined) {
        pending.push(d)
        continue
      }
      const l = byId.get(pin)
      const other = l && !o.owns(l) ? o.otherOwner(l) : undefined
      if (!l) this.planError(d, ['id'], `no ${what} with id "${pin}" exists`)
      else if (this.used.has(pin))
        this.planError(d, ['id'], `${what} id "${pin}" is already matched by another manifest`)
      else if (other && !o.adoptFromOthers) this.foreign(d, ['id'], l, other)
      else this.pairs.push({ desired: d, live: this.take(l), notes: o.owns(l) ? [] : [this.adoptionNote(l)] })
    }
    return pending
  }

  /** Pairs each manifest with this stack's record of its name; returns the others, in order. */
  pairOwned(pending: Desired<RecordDesired<S>>[], owned: readonly L[]): Desired<RecordDesired<S>>[] {
    const ownedByName = byName(owned, this.o.liveName)
    const later: Desired<RecordDesired<S>>[] = []
    for (const d of pending) {
      const mine = ownedByName.get(d.name)?.find(l => !this.isTaken(l))
      if (mine) this.pairs.push({ desired: d, live: this.take(mine) })
      else later.push(d)
    }
    return later
  }

  /** A manifest no owned record matches, given the live records of its name: adopt one, create, or a plan error. */
  pairUnowned(d: Desired<RecordDesired<S>>, named: readonly L[]): void {
    const { o, ctx, what } = this
    const sameName = named.filter(l => !this.isTaken(l) && !o.owns(l))
    const others = sameName.filter(l => this.siblingOf(l) === undefined)
    if (others.length === 0) {
      // None, or only other stacks' of this repository: a new one; each stack keeps its own.
      this.pairBesideSiblings(d, sameName)
      return
    }
    const first = others[0]!
    const other = o.otherOwner(first)
    if (d.value.spec.adopt && others.length === 1) {
      if (other && !o.adoptFromOthers) this.foreign(d, ['adopt'], first, other)
      else this.pairs.push({ desired: d, live: this.take(first), notes: [this.adoptionNote(first)] })
    } else if (d.value.spec.adopt) {
      this.planError(
        d,
        ['adopt'],
        `${others.length} ${wordFor(o.kind, true)} are named "${d.name}" (ids ${others.map(o.liveId).join(', ')}); pin the one to adopt with \`id:\``
      )
    } else if (other && !o.adoptFromOthers) {
      this.foreign(d, ['name'], first, other)
    } else {
      this.planError(
        d,
        ['name'],
        `a ${what} named "${d.name}" already exists (id ${o.liveId(first)}) and is not owned by stack "${ctx.settings.stack}"` +
          `${other ? ` (it is ${other}'s)` : ''}. It is not overwritten: to manage it from this manifest, add \`adopt: true\`` +
          ` (or \`id: ${o.liveId(first)}\`); to keep both, give this manifest another name.`
      )
    }
  }

  /** A new record beside other stacks' of its name (none, or only this repository's), unless the server refuses the twin. */
  private pairBesideSiblings(d: Desired<RecordDesired<S>>, siblings: readonly L[]): void {
    const { o, ctx, what } = this
    const twin = siblings.find(l => o.refusesTwin?.(d.value.spec, l) !== undefined)
    if (twin)
      this.planError(
        d,
        ['name'],
        `stack "${ctx.settings.stack}" cannot create ${what} "${d.name}": another stack of this repository (${this.siblingOf(twin)}) has one (id ${o.liveId(twin)}), and ${o.refusesTwin!(d.value.spec, twin)}`
      )
    else {
      const sibling = siblings[0]
      this.pairs.push(
        sibling === undefined
          ? { desired: d }
          : {
              desired: d,
              notes: [siblingNote(what, o.liveId(sibling), this.siblingOf(sibling)!, d.value.spec.adopt)]
            }
      )
    }
  }

  /** The tag of another stack of this repository that owns it. */
  private siblingOf(l: L): string | undefined {
    const other = this.o.otherOwner(l)
    return other !== undefined && this.siblings.has(other) ? other : undefined
  }

  private take(l: L): L {
    this.used.add(this.o.liveId(l))
    return l
  }

  private planError(d: Desired<RecordDesired<S>>, path: PathSegment[], message: string): void {
    this.ctx.report(
      diagnostic('plan', 'error', message, { ...d.value.located.doc.locate(path), field: formatPath(path) })
    )
  }

  private adoptionNote(l: L): string {
    const { o, ctx } = this
    return `adopts existing ${this.what} ${o.liveId(l)}: this stack takes ownership (${isRegistryKind(o.kind) ? `recorded in its registry dashboard "${registryName(ctx.settings.stack)}"` : `it gets the tag ${ctx.settings.ownershipTag}`})`
  }

  private foreign(d: Desired<RecordDesired<S>>, path: PathSegment[], l: L, other: string): void {
    this.planError(
      d,
      path,
      `${this.what} "${this.o.liveName(l)}" (id ${this.o.liveId(l)}) is owned by another stack (${other}); a stack never takes over another stack's ${wordFor(this.o.kind, true)}: remove it from that stack's manifests first, or give this manifest another name`
    )
  }
}

/** A same-named record of another stack of this repository: each stack keeps its own (as dashboards do). */
function siblingNote(what: string, id: string, owner: string, adopt: boolean | undefined): string {
  const kept = `${what} ${id} of the same name belongs to another stack of this repository (${owner}) and stays theirs`
  return adopt
    ? `a new ${what}: ${kept}, because \`adopt: true\` never takes one from another stack`
    : `a new ${what}: ${kept}`
}

/** How one kind of this family writes. */
export interface RecordWrites<D, L> {
  kind: ResourceKind
  collection: RecordCollection
  liveId(l: L): string
  liveName(l: L): string
  /** The create body (references may be placeholders, bound at apply time). */
  createBody(d: D, octx: OperationContext): Record<string, unknown>
  /** The update body, or `undefined` when nothing but ownership changes (no request then). */
  updateBody(d: D, live: L, change: Change, octx: OperationContext): Record<string, unknown> | undefined
  /**
   * Registry kinds: the entry to record after a write, given the body sent (undefined: no request), or
   * undefined when the registry already says it all.
   */
  entryAfter?(
    d: D,
    sent: Record<string, unknown> | undefined,
    live: L | undefined,
    octx: OperationContext
  ): RegistryEntry | undefined
  /**
   * A create may have to leave out references to records of its own kind this run also creates (they may
   * refer back): then this is the whole body, sent by a second request once those exist.
   */
  linkBody?(d: D, octx: OperationContext): Record<string, unknown> | undefined
  /** After a lost create response: the record this create would have made, if the server has it. */
  find?(all: L[], body: Record<string, unknown>, octx: OperationContext): L | undefined
  list(ctx: ApplyContext): Promise<L[]>
}

/** One change of a record kind as operations of the apply graph; recordRequests counts the same requests. */
export function recordOperations<S extends IdentitySpec, D extends RecordDesired<S>, L>(
  pc: PlannedChange<D, L>,
  octx: OperationContext,
  w: RecordWrites<D, L>
): Operation[] {
  const { change, desired, live } = pc
  if (change.action === 'noop' || change.deferred) return []
  const lock = `${w.kind}:${live ? w.liveId(live) : change.name}`
  if (change.action === 'delete' && live) return [deleteOperation(change, lock, w.liveId(live), w)]
  if (!desired) return []
  if (live) return [updateOperation(change, lock, desired, live, octx, w)]
  return createOperations(change, lock, desired, octx, w)
}

/** The registry kind whose entries record this kind's ownership, if it is one. */
const registryKindOf = (kind: ResourceKind): RegistryKind | undefined =>
  isRegistryKind(kind) ? kind : undefined

function deleteOperation<D, L>(change: Change, lock: string, id: string, w: RecordWrites<D, L>): Operation {
  const registryKind = registryKindOf(w.kind)
  return {
    address: change.address,
    label: 'delete',
    lock,
    provides: [],
    after: [],
    run: async ctx => {
      const outcome = await ctx.api.deleteRecord(w.collection, id)
      // Forgotten only once it is gone: the registry never loses a record the stack still has.
      if (registryKind) await ctx.registry.forget(registryKind, id)
      return { status: 'applied', id, message: outcome === 'absent' ? 'already gone' : undefined }
    }
  }
}

/** An update, or an adoption alone when nothing but ownership changes (no request then). */
function updateOperation<D, L>(
  change: Change,
  lock: string,
  desired: Desired<D>,
  live: L,
  octx: OperationContext,
  w: RecordWrites<D, L>
): Operation {
  const registryKind = registryKindOf(w.kind)
  const body = w.updateBody(desired.value, live, change, octx)
  const id = w.liveId(live)
  return {
    address: change.address,
    label: body ? 'update' : 'adopt',
    lock,
    provides: [resourceReady(w.kind, desired.name)],
    after: body ? placeholderTokens(body) : [],
    run: async ctx => {
      if (body) await ctx.api.updateRecord(w.collection, id, bindPlaceholders(body, ctx.facts))
      const entry = registryKind ? w.entryAfter?.(desired.value, body, live, octx) : undefined
      if (registryKind && entry) await ctx.registry.record(registryKind, id, entry)
      return { status: 'applied', id }
    }
  }
}

/** A duplicate-safe create, recorded in the registry for a registry kind, and its link when it needs one. */
function createOperations<D, L>(
  change: Change,
  lock: string,
  desired: Desired<D>,
  octx: OperationContext,
  w: RecordWrites<D, L>
): Operation[] {
  const registryKind = registryKindOf(w.kind)
  const ready = resourceReady(w.kind, desired.name)
  const body = w.createBody(desired.value, octx)
  const link = w.linkBody?.(desired.value, octx)
  const create: Operation = {
    address: change.address,
    label: 'create',
    lock,
    provides: [ready],
    after: placeholderTokens(body),
    run: async ctx => {
      const bound = bindPlaceholders(body, ctx.facts)
      const result = await createOnce(ctx, {
        what: w.collection,
        name: desired.name,
        create: () => ctx.api.createRecord(w.collection, bound),
        created: c => ({ status: 'applied', id: c.id }),
        list: () => w.list(ctx),
        find: all => (w.find ? w.find(all, bound, octx) : all.find(l => w.liveName(l) === desired.name)),
        adopted: found => ({ status: 'adopted', id: w.liveId(found) })
      })
      const entry = registryKind ? w.entryAfter?.(desired.value, bound, undefined, octx) : undefined
      if (registryKind && entry && result.id !== undefined) {
        try {
          await ctx.registry.record(registryKind, result.id, entry)
        } catch (e) {
          throw unrecordedError(
            `${wordFor(w.kind)} "${desired.name}" was created (id ${result.id})`,
            octx.settings.stack,
            e
          )
        }
      }
      return result
    }
  }
  if (!link) return [create]
  const linkOp: Operation = {
    address: change.address,
    label: 'link',
    lock,
    provides: [],
    after: [ready, ...placeholderTokens(link)],
    run: async ctx => {
      const id = ctx.facts.get(ready)?.id
      if (id === undefined) throw new Error(`${wordFor(w.kind)} "${desired.name}" has no id`)
      await ctx.api.updateRecord(w.collection, id, bindPlaceholders(link, ctx.facts))
      return { status: 'applied', id }
    }
  }
  return [linkOp, create]
}

/** A kind's `operations` and `requests`, both from how it writes, so the estimate decides as the requests do. */
export function recordWrites<D extends RecordDesired<IdentitySpec>, L>(
  writes: (octx: OperationContext) => RecordWrites<D, L>
): Pick<Kind<D, L>, 'operations' | 'requests'> {
  return {
    operations: (pc, octx) => recordOperations(pc, octx, writes(octx)),
    requests: (pc, octx) => recordRequests(pc, octx, writes(octx))
  }
}

/**
 * What recordOperations send, decided as they decide it: a delete; an update when more than ownership changes; a
 * create, and its link when it must leave out references first. A registry kind records (or forgets) an entry
 * after the write, in the registry dashboard.
 */
export function recordRequests<S extends IdentitySpec, D extends RecordDesired<S>, L>(
  pc: PlannedChange<D, L>,
  octx: OperationContext,
  w: RecordWrites<D, L>
): RequestEstimate {
  const { change, desired, live } = pc
  const registryKind = isRegistryKind(w.kind)
  if (change.action === 'noop' || change.deferred) return { requests: 0 }
  if (change.action === 'delete')
    return live ? { requests: 1, ...(registryKind ? { registry: 1 } : {}) } : { requests: 0 }
  if (!desired) return { requests: 0 }
  const body = live ? w.updateBody(desired.value, live, change, octx) : w.createBody(desired.value, octx)
  const requests = live ? (body ? 1 : 0) : w.linkBody?.(desired.value, octx) ? 2 : 1
  const entry = registryKind ? w.entryAfter?.(desired.value, body, live, octx) : undefined
  return { requests, ...(entry ? { registry: 1 } : {}) }
}

/** What the apply writes to the registry dashboard for this change, in the plan's words. */
export function registryNote(change: Change, ctx: PlanContext): void {
  if (!isRegistryKind(change.kind) || change.deferred || change.action === 'noop') return
  const name = registryName(ctx.settings.stack)
  const creates = ctx.registry.dashboard ? '' : ' (the apply creates that dashboard)'
  if (change.action === 'create')
    change.notes.push(`recorded as this stack's in its registry dashboard "${name}"${creates}`)
  else if (change.action === 'delete')
    change.notes.push(`removed from the registry dashboard "${name}" once deleted`)
  else if (
    change.fields.some(f => f.path === 'owner' || /^(password|headers|queryParams|body)$/.test(f.path))
  )
    change.notes.push(
      `the registry dashboard "${name}" records its ownership and write-only fingerprints${creates}`
    )
}

/** The live owner in a normal form: this stack's tag, another stack's, or none. */
export function registryOwner(kind: ResourceKind, id: string, ctx: PlanContext): string | undefined {
  if (!isRegistryKind(kind)) return undefined
  return ctx.registry.owns(kind, id) ? ctx.settings.ownershipTag : ctx.registry.ownerOf(kind, id)
}

/** Whether an update changes more than who owns it (a request is needed). */
export const changesMoreThanOwner = (change: Change): boolean => change.fields.some(f => f.path !== 'owner')
