/** Client-side pacing: the rate-limit input, or the known limit of the mode when it is not set. */
import type { Mode, RateLimit } from './types.js'

const DEFAULT_RATE_LIMITS: Record<Mode, RateLimit> = {
  // FACTS.md: 100 requests a minute per key (self-hosted), 10 per 10 seconds per key (managed).
  'self-hosted': { requests: 100, windowMs: 60_000 },
  managed: { requests: 10, windowMs: 10_000 }
}

/** "100/60s", "10/10s", "600/1m" or "off". */
export function parseRateLimit(
  text: string | undefined,
  mode: Mode,
  fail: (message: string) => void
): RateLimit | null {
  if (text === undefined) return DEFAULT_RATE_LIMITS[mode]
  if (/^(off|none|0)$/i.test(text)) return null
  const m = /^(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?$/.exec(text)
  if (!m || Number(m[1]) < 1 || Number(m[2]) <= 0) {
    fail(`must look like 100/60s (requests per window) or off, got "${text}"`)
    return DEFAULT_RATE_LIMITS[mode]
  }
  const unit = m[3] ?? 's'
  const windowMs = Number(m[2]) * (unit === 'ms' ? 1 : unit === 'm' ? 60_000 : 1000)
  return { requests: Number(m[1]), windowMs }
}
