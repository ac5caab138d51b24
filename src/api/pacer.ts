/**
 * Client-side pacing below the server's rate limit, so a large plan or apply never sees a 429:
 * - at most `requests` starts in any window of `windowMs` (a sliding window, which also keeps every fixed
 *   window of the server's below the limit), with a margin for the time a request takes to arrive;
 * - what the server says it has left (`RateLimit-Remaining` / `X-RateLimit-Remaining` with its reset):
 *   a run that starts right after another one (plan, then apply) inherits that run's window at the
 *   server, which a fresh client cannot know. So the first request goes alone, and later ones start only
 *   while the server's last count says there is room;
 * - a server that says "no more until T" (a 429) pauses every request until T.
 */
import { setTimeout as delay } from 'node:timers/promises'
import type { RateLimit } from '../config/types.js'

export interface Clock {
  now(): number
  /** Rejects when `signal` aborts: a cancelled run leaves no timer behind to keep the process alive. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => delay(ms, undefined, { signal })
}

/** How long a caller may wait for its turn, and when to stop waiting. */
export interface WaitLimits {
  signal?: AbortSignal
  /** Clock time by which the request must start; later is refused with PastDeadline. */
  deadline?: number
}

/** The next slot would start after the caller's deadline (its retry budget). */
export class PastDeadline extends Error {
  constructor(readonly startsAt: number) {
    super('the next slot starts after the deadline')
    this.name = 'PastDeadline'
  }
}

/** What a response said about the server's window. */
export interface ServerBudget {
  /** Requests the server will still accept in its current window, this one counted. */
  remaining: number
  /** When that window resets (ms epoch). */
  resetAt: number
}

const FIRST_ANSWER_WAIT_MS = 30_000

/**
 * The window the pacer keeps between a request and the `requests`-th after it: the configured one plus 2% and
 * 100 ms, since a request sent exactly one window after another can arrive a little later.
 */
export function pacedWindowMs(limit: RateLimit): number {
  return limit.windowMs * 1.02 + 100
}

/**
 * How long `requests` take once the pacer holds them back: one paced window per `limit.requests`. An estimate for
 * people (a plan's "about 31 min"): the time each request takes is not in it, nor a 429's pause.
 */
export function pacedDurationMs(requests: number, limit: RateLimit): number {
  return (requests / limit.requests) * pacedWindowMs(limit)
}

export class Pacer {
  private readonly starts: number[] = []
  private pausedUntil = 0
  private queue: Promise<void> = Promise.resolve()
  private readonly windowMs: number
  /** Tickets handed out so far; a ticket numbers a request in start order. */
  private sent = 0
  /** The newest server count, with the ticket of the request it answered. */
  private budget?: ServerBudget & { ticket: number }
  /** Until the first response, only one request is in flight (see the header comment). */
  private firstAnswer?: Promise<void>
  private answered?: () => void
  /** While requests wait for a slot: until when (ms epoch), for whoever shows progress. */
  private holding?: number

  constructor(
    private readonly limit: RateLimit | null,
    private readonly clock: Clock = realClock,
    /** Send the first request alone (the caller reports every answer with observe()). */
    private readonly probeFirst = false
  ) {
    this.windowMs = limit ? pacedWindowMs(limit) : 0
  }

  /**
   * Resolves with a ticket when a request may start; requests start in the order they asked. Rejects
   * with PastDeadline when the slot would come after `limits.deadline`, and with the signal's reason
   * when it aborts; either way the queue moves on.
   */
  acquire(limits: WaitLimits = {}): Promise<number> {
    const turn = this.queue.then(() => this.waitForSlot(limits))
    this.queue = turn.then(
      () => undefined,
      () => undefined
    )
    return turn
  }

  /** A response (or a failure: `budget` undefined) for the request holding `ticket`. */
  observe(ticket: number, budget: ServerBudget | undefined): void {
    if (budget && (!this.budget || ticket >= this.budget.ticket)) this.budget = { ...budget, ticket }
    this.answered?.()
    this.answered = undefined
  }

  /** How long (ms) requests are still held for the rate limit; undefined when none is. */
  heldFor(): number | undefined {
    const left = this.holding === undefined ? 0 : this.holding - this.clock.now()
    return left > 0 ? left : undefined
  }

  /** The server said to hold off until `until` (ms epoch). */
  pause(until: number): void {
    if (until > this.pausedUntil) this.pausedUntil = until
  }

  private async waitForSlot({ signal, deadline }: WaitLimits): Promise<number> {
    /** Waits until `until`, unless that is past the deadline or the caller gives up first. */
    const waitUntil = async (until: number, now: number) => {
      if (deadline !== undefined && until > deadline) throw new PastDeadline(until)
      this.holding = Math.max(this.holding ?? 0, until)
      try {
        await this.clock.sleep(until - now, signal)
      } finally {
        if (this.holding !== undefined && this.holding <= this.clock.now()) this.holding = undefined
      }
      signal?.throwIfAborted()
    }
    for (;;) {
      signal?.throwIfAborted()
      const now = this.clock.now()
      if (now < this.pausedUntil) {
        await waitUntil(this.pausedUntil, now)
        continue
      }
      if (this.sent === 1 && this.firstAnswer) {
        // Bounded, in case an answer is never reported, and over when the caller gives up. The timer is
        // cleared: a pending one would keep the process alive after the run.
        let timer: ReturnType<typeof setTimeout> | undefined
        let stop: (() => void) | undefined
        await Promise.race([
          this.firstAnswer,
          new Promise(resolve => (timer = setTimeout(resolve, FIRST_ANSWER_WAIT_MS))),
          new Promise(resolve => {
            stop = () => resolve(undefined)
            signal?.addEventListener('abort', stop, { once: true })
          })
        ])
        clearTimeout(timer)
        if (stop) signal?.removeEventListener('abort', stop)
        signal?.throwIfAborted()
        this.firstAnswer = undefined
        continue
      }
      if (this.budget) {
        if (now >= this.budget.resetAt) this.budget = undefined
        else if (this.budget.remaining - (this.sent - 1 - this.budget.ticket) <= 0) {
          await waitUntil(this.budget.resetAt, now)
          continue
        }
      }
      if (this.limit) {
        while (this.starts.length > 0 && this.starts[0]! <= now - this.windowMs) this.starts.shift()
        if (this.starts.length >= this.limit.requests) {
          await waitUntil(this.starts[0]! + this.windowMs, now)
          continue
        }
        this.starts.push(now)
      }
      if (this.sent === 0 && this.probeFirst)
        this.firstAnswer = new Promise(resolve => (this.answered = resolve))
      return this.sent++
    }
  }
}
