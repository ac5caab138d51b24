/**
 * Runs operations as a dependency graph: at most `concurrency` at once, one at a time per lock (per
 * dashboard), each after the operations that provide what it needs. When an operation fails, the ones
 * that depend on it are skipped and everything independent goes on.
 */
import { errorMessage } from '../error-message.js'
import type { ApplyContext, Operation, OperationResult } from '../kinds/kind.js'

export type OperationOutcome =
  | { state: 'done'; result: OperationResult }
  | { state: 'failed'; error: string }
  | { state: 'skipped'; reason: string }

/** Told when an operation starts and when it settles (done, failed or skipped), in that order. */
export interface EngineHooks {
  started?(op: Operation): void
  settled?(op: Operation, outcome: OperationOutcome): void
}

export async function runOperations(
  operations: readonly Operation[],
  ctx: ApplyContext,
  concurrency: number,
  hooks: EngineHooks = {}
): Promise<Map<Operation, OperationOutcome>> {
  const outcomes = new Map<Operation, OperationOutcome>()
  const settle = (op: Operation, outcome: OperationOutcome) => {
    outcomes.set(op, outcome)
    hooks.settled?.(op, outcome)
  }
  const { waitsFor, dependents } = dependencyGraph(operations)

  const ready: Operation[] = operations.filter(op => waitsFor.get(op)!.size === 0)
  const heldLocks = new Set<string>()
  const running = new Set<Promise<void>>()

  const skip = (op: Operation, reason: string) => {
    if (outcomes.has(op)) return
    settle(op, { state: 'skipped', reason })
    for (const d of dependents.get(op) ?? []) skip(d, reason)
  }
  const finish = (op: Operation, outcome: OperationOutcome) => {
    settle(op, outcome)
    if (op.lock) heldLocks.delete(op.lock)
    if (outcome.state === 'done') {
      for (const token of op.provides) ctx.facts.set(token, outcome.result)
      for (const d of dependents.get(op) ?? []) {
        const deps = waitsFor.get(d)!
        deps.delete(op)
        // Every dependency done: nothing can skip it any more (only a failed dependency does).
        if (deps.size === 0) ready.push(d)
      }
    } else {
      const why = outcome.state === 'failed' ? `${op.address} (${op.label}) failed` : outcome.reason
      for (const d of dependents.get(op) ?? []) skip(d, why)
    }
  }

  // Ends when nothing runs: an operation not started by then waits for one that never comes (not reached).
  for (;;) {
    // Start what may start: free slot, free lock. Others stay queued in order.
    for (let i = 0; i < ready.length && running.size < concurrency;) {
      const op = ready[i]!
      if (op.lock && heldLocks.has(op.lock)) {
        i++
        continue
      }
      ready.splice(i, 1)
      if (op.lock) heldLocks.add(op.lock)
      hooks.started?.(op)
      // Async, so an operation that throws before its first await fails like one that rejects.
      const p: Promise<void> = (async () => op.run(ctx))()
        .then(
          result => finish(op, { state: 'done', result }),
          (e: unknown) => finish(op, { state: 'failed', error: errorMessage(e) })
        )
        .finally(() => running.delete(p))
      running.add(p)
    }
    if (running.size === 0) break
    await Promise.race(running)
  }
  for (const op of operations) if (!outcomes.has(op)) settle(op, { state: 'skipped', reason: 'not reached' })
  return outcomes
}

/** What each operation waits for (the providers of its tokens, never itself), and who waits for each. */
function dependencyGraph(operations: readonly Operation[]): {
  waitsFor: Map<Operation, Set<Operation>>
  dependents: Map<Operation, Operation[]>
} {
  const providers = new Map<string, Operation[]>()
  // Pushed, not copied: a kind's token is provided by each of its thousand operations.
  for (const op of operations)
    for (const token of op.provides) {
      const list = providers.get(token)
      if (list) list.push(op)
      else providers.set(token, [op])
    }

  const waitsFor = new Map<Operation, Set<Operation>>()
  const dependents = new Map<Operation, Operation[]>()
  for (const op of operations) {
    const deps = new Set(op.after.flatMap(t => providers.get(t) ?? []).filter(p => p !== op))
    waitsFor.set(op, deps)
    for (const d of deps) {
      const list = dependents.get(d)
      if (list) list.push(op)
      else dependents.set(d, [op])
    }
  }
  return { waitsFor, dependents }
}
