/**
 * When to retry and how long to wait: exponential backoff with jitter, unless the server says how long
 * (Retry-After, RateLimit-Reset, X-RateLimit-Reset plus a second, or the structured RateLimit header).
 */

export type Headers = Record<string, string | string[] | undefined>

const first = (h: string | string[] | undefined): string | undefined => (Array.isArray(h) ? h[0] : h)

/** Retried for every method: the server did not process the request (429) or a gateway failed it. */
export const RETRYABLE_STATUSES = new Set([429, 502, 503, 504])

/**
 * A 500 is retried on a read only: a GET changes nothing, while a write that failed halfway may have been
 * applied (the ClickHouse Terraform provider retries 5xx too, `internal/api/common.go`).
 */
export const isRetryableStatus = (status: number, method: string): boolean =>
  RETRYABLE_STATUSES.has(status) || (status === 500 && method === 'GET')

/**
 * Added to an X-RateLimit-Reset (the managed cloud's header): it counts whole seconds, so at 0 the window
 * may not have turned yet. The ClickHouse Terraform provider waits the same second more (`internal/api/common.go`).
 */
export const X_RATELIMIT_RESET_MARGIN_MS = 1000

/**
 * Milliseconds the server asks us to wait, if it says. Reset values are seconds from now, except
 * that a value that can only be a Unix time (X-RateLimit-Reset is one on some servers) is read as one.
 */
export function serverDelayMs(headers: Headers, now: number): number | undefined {
  const retryAfter = first(headers['retry-after'])
  if (retryAfter !== undefined) {
    const secs = Number(retryAfter)
    if (Number.isFinite(secs)) return Math.max(0, secs * 1000)
    const date = Date.parse(retryAfter)
    if (!Number.isNaN(date)) return Math.max(0, date - now)
  }
  for (const name of ['ratelimit-reset', 'x-ratelimit-reset']) {
    const v = Number(first(headers[name]))
    // An absent header is Number(undefined), NaN: refused by the same test as an unreadable one.
    if (!Number.isFinite(v)) continue
    const margin = name === 'x-ratelimit-reset' ? X_RATELIMIT_RESET_MARGIN_MS : 0
    return resetToDelay(v, now) + margin
  }
  // The IETF draft's structured header: `limit=100, remaining=0, reset=50`, or the newer `"default";r=0;t=50`.
  const structured = first(headers['ratelimit'])
  const reset = structured ? /(?:^|[;,\s])(?:reset|t)=(\d+(?:\.\d+)?)/.exec(structured)?.[1] : undefined
  if (reset !== undefined) return resetToDelay(Number(reset), now)
  return undefined
}

function resetToDelay(value: number, now: number): number {
  // Delta seconds are small; a Unix time in seconds is over a billion.
  if (value > 1e9) return Math.max(0, value * 1000 - now)
  return Math.max(0, value * 1000)
}

/** What the server says is left in its window (`RateLimit-*` or `X-RateLimit-*`), if it says. */
export function serverBudget(
  headers: Headers,
  now: number
): { remaining: number; resetAt: number } | undefined {
  for (const [remainingName, resetName] of [
    ['ratelimit-remaining', 'ratelimit-reset'],
    ['x-ratelimit-remaining', 'x-ratelimit-reset']
  ] as const) {
    const remaining = Number(first(headers[remainingName]))
    const reset = Number(first(headers[resetName]))
    if (Number.isFinite(remaining) && Number.isFinite(reset)) {
      return { remaining, resetAt: now + resetToDelay(reset, now) }
    }
  }
  return undefined
}

export interface BackoffPolicy {
  baseMs: number
  maxMs: number
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 250, maxMs: 20_000 }

/** Exponential backoff with "equal jitter": half fixed, half random, so retries spread out. */
export function backoffMs(
  attempt: number,
  policy: BackoffPolicy = DEFAULT_BACKOFF,
  random = Math.random
): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** attempt)
  return ceiling / 2 + random() * (ceiling / 2)
}
