/**
 * Client-side pacing below the server's rate limit, so a large plan or apply never sees a 429: at most
 * `requests` starts in any window of `windowMs` (a sliding window, which also keeps every fixed window
 * of the server's below the limit). A margin covers the time a request takes to reach the server.
 * Servers that say "no more until T" (429, or a remaining count of 0) pause every request until T.
 */
import type { RateLimit } from '../config.js'

export interface Clock {
  now(): number
  sleep(ms: number): Promise<void>
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: ms => new Promise(resolve => setTimeout(resolve, ms))
}

export class Pacer {
  private readonly starts: number[] = []
  private pausedUntil = 0
  private queue: Promise<void> = Promise.resolve()
  private readonly windowMs: number

  constructor(
    private readonly limit: RateLimit | null,
    private readonly clock: Clock = realClock
  ) {
    // 2% plus 100 ms: a request sent exactly one window after another can arrive a little later.
    this.windowMs = limit ? limit.windowMs * 1.02 + 100 : 0
  }

  /** Resolves when a request may start; requests start in the order they asked. */
  acquire(): Promise<void> {
    const turn = this.queue.then(() => this.waitForSlot())
    this.queue = turn.catch(() => undefined)
    return turn
  }

  /** The server said to hold off until `until` (ms epoch). */
  pause(until: number): void {
    if (until > this.pausedUntil) this.pausedUntil = until
  }

  private async waitForSlot(): Promise<void> {
    for (;;) {
      const now = this.clock.now()
      if (now < this.pausedUntil) {
        await this.clock.sleep(this.pausedUntil - now)
        continue
      }
      if (!this.limit) return
      while (this.starts.length > 0 && this.starts[0]! <= now - this.windowMs) this.starts.shift()
      if (this.starts.length < this.limit.requests) {
        this.starts.push(now)
        return
      }
      await this.clock.sleep(this.starts[0]! + this.windowMs - now)
    }
  }
}
