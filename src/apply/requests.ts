/**
 * How many requests an apply sends, estimated from the plan, and how long they take at the run's pace: the plan says
 * it when that is more than a minute ("about 31 min at 100 requests a minute"), and the apply's progress counts it
 * down. Each change's own requests are its kind's to say (Kind.requests, in Change.estimate); the apply adds the
 * registry writes their entries take (batched: kinds/registry.ts) and the re-reads at its end (copies.ts).
 * Pure: the plan's changes and the run's settings in, numbers out.
 */
import { pacedDurationMs } from '../api/pacer.js'
import type { RateLimit } from '../config/types.js'
import { registryWrites } from '../kinds/registry.js'
import { ESTIMATE_VERSION, isActionable, type Change, type Estimate } from '../plan/types.js'
import { copiesRereads } from './copies.js'

/**
 * The estimate of a plan's apply. `dryRuns`: the dashboards server-validation sends to the server's dry run first
 * (live/server-validation.ts), which an apply does before its first write.
 */
export function applyEstimate(
  changes: readonly Change[],
  settings: { concurrency: number; rateLimit: RateLimit | null; dryRuns: number }
): Estimate {
  const applied = changes.filter(isActionable)
  const { changes: own, registry, rereads } = RequestsLeft.of(applied, settings.concurrency).parts()
  const parts = { changes: own, registry, dryRuns: settings.dryRuns, rereads }
  const requests = parts.changes + parts.registry + parts.dryRuns + parts.rereads
  const pace = settings.rateLimit ?? undefined
  return {
    version: ESTIMATE_VERSION,
    requests,
    parts,
    concurrency: settings.concurrency,
    ...(pace ? { pace: { ...pace }, durationMs: Math.round(pacedDurationMs(requests, pace)) } : {})
  }
}

/**
 * The requests an apply has still to send, as its changes settle, and how long they take at `pace`: what its progress
 * counts down.
 */
export class RequestsLeft {
  private own = 0
  private entries = 0

  private constructor(
    private readonly concurrency: number,
    /** The re-reads at the end: still to come until the apply is over. */
    private readonly rereads: number
  ) {}

  static of(changes: readonly Change[], concurrency: number): RequestsLeft {
    const left = new RequestsLeft(concurrency, copiesRereads(changes))
    for (const c of changes) {
      left.own += c.estimate?.requests ?? 0
      left.entries += c.estimate?.registry ?? 0
    }
    return left
  }

  /** A change settled: its requests are sent (or will never be). */
  settled(change: Change): void {
    this.own -= change.estimate?.requests ?? 0
    this.entries -= change.estimate?.registry ?? 0
  }

  parts(): { changes: number; registry: number; rereads: number } {
    return {
      changes: this.own,
      registry: registryWrites(this.entries, this.concurrency),
      rereads: this.rereads
    }
  }

  get total(): number {
    const { changes, registry, rereads } = this.parts()
    return changes + registry + rereads
  }

  /** What progress says: the requests left, and with a pace the time they take at it. */
  left(pace: RateLimit | null | undefined): { requests: number; ms?: number } {
    const requests = this.total
    return pace ? { requests, ms: Math.round(pacedDurationMs(requests, pace)) } : { requests }
  }
}
