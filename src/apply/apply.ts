/**
 * Apply exactly the plan: build each change's operations through its kind, run them as a graph, and
 * report per change. Independent changes go on when one fails; the result says so, and the run exits
 * non-zero, so a rerun converges.
 */
import type { ObservabilityApi } from '../api/client.js'
import type { RateLimit } from '../config/types.js'
import type { AnyKind } from '../kinds/index.js'
import { KINDS } from '../kinds/index.js'
import type {
  ApplyContext,
  DashboardFacts,
  LiveState,
  Operation,
  OperationContext,
  PlannedChange,
  PlanSettings
} from '../kinds/kind.js'
import { Registry, registryName, RegistryWriter } from '../kinds/registry.js'
import { RESOURCE_KINDS, type ResourceKind } from '../plan/types.js'
import type { Logger } from '../log.js'
import { findCopies } from './copies.js'
import { RequestsLeft } from './requests.js'
import type { ApplyOutcome, ApplyProgress, ApplyResult, OutcomeStatus } from './types.js'
import { runOperations, type EngineHooks, type OperationOutcome } from './engine.js'

export interface ApplyInput {
  api: ObservabilityApi
  planned: readonly PlannedChange[]
  dashboards: DashboardFacts
  settings: PlanSettings
  /** What the stack owns of the kinds without tags (the plan read it): kept up to date by the apply. */
  registry?: Registry
  concurrency: number
  log: Logger
  kinds?: readonly AnyKind[]
  /** A change's operations: its kind's by default; an apply of a saved plan builds them from the plan (run/saved-plan.ts). */
  operations?: (pc: PlannedChange, octx: OperationContext) => Operation[]
  /** Told as each change starts and ends; the entry points show it (a long apply is not silent). */
  onProgress?: (progress: ApplyProgress) => void
  /**
   * The live state the plan read. With it, the apply looks for copies of what it created at its end
   * (apply/copies.ts), first waiting `settleMs` when a create's response was lost, so a late commit can land.
   */
  before?: LiveState
  settleMs?: number
  /** Told when requests wait for the client-side rate limit (how long, in ms), once per wait. */
  onPacing?: (waitMs: number) => void
  /**
   * The plan estimates its changes' requests (Change.estimate): progress counts them down, and says how long the
   * requests left take at the client-side pace (`rate-limit`; none when it is off).
   */
  countdown?: { pace: RateLimit | null }
}

/** Every operation of a kind provides this token: deletes of earlier kinds wait for it. */
const kindDone = (kind: ResourceKind) => `kind-done:${kind}`
/** Kinds that no other kind refers to and that delete nothing: deletes do not wait for them. */
const INDEPENDENT = new Set<ResourceKind>(['ServiceSettings'])

export async function applyPlan(input: ApplyInput): Promise<ApplyResult> {
  const kinds = new Map((input.kinds ?? KINDS).map(k => [k.kind, k]))
  const registry = input.registry ?? Registry.empty(input.settings.stack, input.settings.ownershipTag)
  const octx = { settings: input.settings, dashboards: input.dashboards, registry }
  const opsByChange = new Map<PlannedChange, Operation[]>()
  const build = input.operations ?? ((pc: PlannedChange) => kinds.get(pc.change.kind)!.operations(pc, octx))
  for (const pc of input.planned) opsByChange.set(pc, build(pc, octx))
  orderDeletes(opsByChange)
  const all = [...opsByChange.values()].flat()

  const ctx: ApplyContext = {
    api: input.api,
    settings: input.settings,
    dashboards: input.dashboards,
    registry: new RegistryWriter(registry, input.api, input.settings.mode),
    facts: new Map(),
    log: input.log,
    reread: sharedReader(),
    lostResponses: new Set()
  }
  const stopPacing = watchPacing(input)
  const outcomes = await runOperations(
    all,
    ctx,
    input.concurrency,
    progressHooks(opsByChange, input.onProgress, input.concurrency, input.countdown)
  ).finally(stopPacing)

  const result: ApplyResult = { outcomes: [], complete: true }
  for (const [pc, ops] of opsByChange) {
    if (ops.length === 0) continue
    const c = pc.change
    const outcome: ApplyOutcome = {
      address: c.address,
      kind: c.kind,
      name: c.name,
      action: c.action,
      status: 'applied',
      id: c.id
    }
    const messages: string[] = []
    for (const op of ops) {
      const o = outcomes.get(op)!
      if (o.state === 'failed') {
        outcome.status = 'failed'
        messages.push(ops.length > 1 ? `${op.label}: ${o.error}` : o.error)
      } else if (o.state === 'skipped') {
        if (outcome.status !== 'failed') outcome.status = 'skipped'
        messages.push(`not attempted: ${o.reason}`)
      } else {
        const r = o.result
        if (r.status === 'adopted' && outcome.status === 'applied') outcome.status = 'adopted'
        if (r.id && c.action !== 'delete') outcome.id = r.id
        if (r.message) messages.push(r.message)
        if (r.requestId) outcome.requestId = r.requestId
        if (r.result !== undefined) outcome.result = r.result
        if (r.convergence) result.convergence = r.convergence
      }
    }
    if (messages.length > 0) outcome.message = messages.join('; ')
    if (outcome.status === 'failed' || outcome.status === 'skipped') result.complete = false
    result.outcomes.push(outcome)
  }
  if (result.convergence && !result.convergence.converged) result.complete = false
  if (input.before) await settleCopies(input, ctx, kinds, result)
  return result
}

/**
 * Tells onPacing, once per wait of more than a second, that requests are held for the client-side rate limit: a
 * long apply says it is pacing instead of seeming stuck on one change.
 */
function watchPacing(input: ApplyInput): () => void {
  const { onPacing, api } = input
  if (!onPacing || !api.pacingFor) return () => {}
  let pacing = false
  const timer = setInterval(() => {
    const left = api.pacingFor!()
    // Said when a wait of more than a second begins; not again until requests flow.
    if (left !== undefined && left >= 1000 && !pacing) onPacing(left)
    pacing = left !== undefined
  }, 250)
  timer.unref()
  return () => clearInterval(timer)
}

/** The copies an apply's creates left (apply/copies.ts): this run's own late commits deleted, others reported. */
async function settleCopies(
  input: ApplyInput,
  ctx: ApplyContext,
  kinds: ReadonlyMap<ResourceKind, AnyKind>,
  result: ApplyResult
): Promise<void> {
  const lost = ctx.lostResponses!
  if (lost.size > 0 && input.settleMs) {
    input.log.info(
      `waiting ${Math.round(input.settleMs / 1000)} s for creates whose response was lost to land, then looking for copies`
    )
    await new Promise(resolve => setTimeout(resolve, input.settleMs))
  }
  let found: Awaited<ReturnType<typeof findCopies>>
  try {
    found = await findCopies({
      api: input.api,
      kinds,
      outcomes: result.outcomes,
      before: input.before!,
      settings: input.settings,
      lostResponses: lost,
      registry: ctx.registry
    })
  } catch (e) {
    // The apply is done; an unanswered re-read only means copies were not looked for. Said, not fatal.
    input.log.warn(
      `could not look for copies of what this apply created: ${e instanceof Error ? e.message : String(e)}`
    )
    return
  }
  for (const { outcome, id } of found.removed) {
    const note = `a copy (id ${id}) that the server committed late, after this create's response was lost and it was created again, was deleted`
    outcome.message = outcome.message ? `${outcome.message}; ${note}` : note
  }
  const copies = found.left.map(({ outcome, ids, why }) => ({
    address: outcome.address,
    message: `${outcome.kind} "${outcome.name}" exists ${ids.length + 1} times (ids ${[outcome.id, ...ids].join(', ')}): ${why}. This run keeps ${outcome.id}; the next plan deletes the other${ids.length === 1 ? '' : 's'} with prune, as a copy. Let one apply of a stack run at a time (the workflow's \`concurrency:\` setting)`
  }))
  if (found.registries) {
    const [kept, ...extra] = found.registries.ids
    const name = registryName(input.settings.stack)
    const them = extra.length === 1 ? 'it' : 'them'
    copies.push({
      address: `Dashboard/${name}`,
      message: `the registry dashboard "${name}" exists ${extra.length + 1} times (ids ${found.registries.ids.join(', ')}): ${found.registries.why}. What each apply created is recorded in one of them, and a plan reads them as one, so the stack still owns it all; the next plan names the extra one${extra.length === 1 ? '' : 's'} (${extra.join(', ')}), and \`apply --prune\` writes ${extra.length === 1 ? 'its' : 'their'} entries into ${kept} (the lowest id) and deletes ${them}. Let one apply of a stack run at a time (the workflow's \`concurrency:\` setting)`
    })
  }
  if (copies.length === 0) return
  result.complete = false
  result.copies = copies
}

/**
 * Deletes run in the reverse of the kinds' order: a delete waits for every operation of the kinds that may
 * refer to what it deletes (a webhook's delete for the alerts that stop using it, a source's for the
 * dashboards and saved searches). Creates and updates are ordered by what they refer to.
 */
function orderDeletes(opsByChange: Map<PlannedChange, Operation[]>): void {
  for (const [pc, ops] of opsByChange) for (const op of ops) op.provides.push(kindDone(pc.change.kind))
  for (const [pc, ops] of opsByChange) {
    if (pc.change.action !== 'delete') continue
    const later = RESOURCE_KINDS.slice(RESOURCE_KINDS.indexOf(pc.change.kind) + 1).filter(
      k => !INDEPENDENT.has(k)
    )
    for (const op of ops) op.after.push(...later.map(kindDone))
  }
}

/**
 * Operations' starts and ends, as changes' starts and ends: a change ends when its last operation settles. Each says
 * how many requests are left by the plan's estimate, counting a change's as sent when it ends.
 */
function progressHooks(
  opsByChange: ReadonlyMap<PlannedChange, Operation[]>,
  report: ((progress: ApplyProgress) => void) | undefined,
  concurrency: number,
  countdown: ApplyInput['countdown']
): EngineHooks {
  if (!report) return {}
  const changeOf = new Map<Operation, PlannedChange>()
  const left = new Map<PlannedChange, number>()
  for (const [pc, ops] of opsByChange) {
    for (const op of ops) changeOf.set(op, pc)
    if (ops.length > 0) left.set(pc, ops.length)
  }
  const total = left.size
  const changes = [...left.keys()].map(pc => pc.change)
  const requests = countdown ? RequestsLeft.of(changes, concurrency) : undefined
  const started = new Set<PlannedChange>()
  const statuses = new Map<PlannedChange, OutcomeStatus>()
  let done = 0
  const event = (pc: PlannedChange, kind: 'start' | 'end', status?: OutcomeStatus): ApplyProgress => {
    const { address, kind: resource, name, action } = pc.change
    const progress: ApplyProgress = {
      event: kind,
      address,
      kind: resource,
      name,
      action,
      status,
      done,
      total
    }
    if (requests) progress.left = requests.left(countdown!.pace)
    return progress
  }
  return {
    started(op) {
      const pc = changeOf.get(op)!
      if (started.has(pc)) return
      started.add(pc)
      report(event(pc, 'start'))
    },
    settled(op, outcome) {
      const pc = changeOf.get(op)!
      statuses.set(pc, worse(statuses.get(pc), statusOf(outcome)))
      const remaining = left.get(pc)! - 1
      left.set(pc, remaining)
      if (remaining > 0) return
      done++
      requests?.settled(pc.change)
      report(event(pc, 'end', statuses.get(pc)))
    }
  }
}

const statusOf = (o: OperationOutcome): OutcomeStatus =>
  o.state === 'done' ? o.result.status : o.state === 'failed' ? 'failed' : 'skipped'
const RANK: Record<OutcomeStatus, number> = { applied: 0, adopted: 1, skipped: 2, failed: 3 }
const worse = (a: OutcomeStatus | undefined, b: OutcomeStatus): OutcomeStatus =>
  a === undefined || RANK[b] > RANK[a] ? b : a

/** A commit whose response was lost may land a moment later: wait before looking for it. */
const REREAD_DELAY_MS = 500

/**
 * Re-reads after lost responses, shared by the creates that fail at about the same time. A read only
 * serves callers whose failure came before it started, so it sees whatever they may have committed.
 */
function sharedReader(): ApplyContext['reread'] {
  const pending = new Map<string, Promise<unknown[]>>()
  return <T>(what: string, read: () => Promise<T[]>): Promise<T[]> => {
    const waiting = pending.get(what)
    if (waiting) return waiting as Promise<T[]>
    const next = new Promise<T[]>((resolve, reject) => {
      setTimeout(() => {
        pending.delete(what)
        read().then(resolve, reject)
      }, REREAD_DELAY_MS)
    })
    pending.set(what, next as Promise<unknown[]>)
    return next
  }
}
