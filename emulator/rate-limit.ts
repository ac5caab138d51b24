import type { RateLimit } from './types.js'

export interface RateDecision {
  allowed: boolean
  limit: number
  remaining: number
  /** Seconds until the window frees a slot (at least 1 while the window holds any request). */
  resetSeconds: number
}

/**
 * A per-key sliding-window limiter (FACTS.md: self-hosted 100 requests a minute per key, managed 10 per 10 seconds
 * per key). Every admitted request counts, whatever its outcome (a 400 or 404 uses a slot too); a request refused
 * with 429 does not, so a client that waits as told gets through.
 */
export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>()

  constructor(readonly config: RateLimit) {}

  take(key: string, now: number): RateDecision {
    const windowStart = now - this.config.windowMs
    let times = this.hits.get(key)
    if (times === undefined) {
      times = []
      this.hits.set(key, times)
    }
    let expired = 0
    while (expired < times.length && times[expired] <= windowStart) expired++
    if (expired > 0) times.splice(0, expired)
    const allowed = times.length < this.config.requests
    if (allowed) times.push(now)
    const oldest = times[0]
    const resetSeconds =
      oldest === undefined ? 0 : Math.max(1, Math.ceil((oldest + this.config.windowMs - now) / 1000))
    return {
      allowed,
      limit: this.config.requests,
      remaining: Math.max(0, this.config.requests - times.length),
      resetSeconds
    }
  }
}
