/**
 * How long an apply takes at the run's pace, in words every format shares: "about 31 min at 100 requests a minute
 * (about 3,000 requests)". The numbers are estimates (apply/requests.ts), so the words say "about" and round: a
 * minute is the unit up to an hour, five minutes beyond, and seconds only where an apply's progress counts down.
 */
import type { RateLimit } from '../config/types.js'
import { ESTIMATE_VERSION, type Plan } from '../plan/types.js'

/** A plan's apply is announced from this long on: a shorter one is over before anyone waits for it. */
export const LONG_APPLY_MS = 60_000

/**
 * How long the plan's apply takes and at what pace, when that is more than a minute ("about 31 min at 100 requests a
 * minute (about 3,000 requests)"); undefined otherwise, without a pace, or for an estimate of another version.
 */
export function longApply(plan: Plan | undefined): string | undefined {
  const estimate = plan?.estimate
  if (estimate?.version !== ESTIMATE_VERSION || !estimate.pace || estimate.durationMs === undefined)
    return undefined
  if (estimate.durationMs <= LONG_APPLY_MS) return undefined
  return applyWords(estimate.requests, estimate.pace, estimate.durationMs)
}

/** "about 31 min at 100 requests a minute (about 3,000 requests)": `requests` taking `ms` at `pace`. */
export function applyWords(requests: number, pace: RateLimit, ms: number): string {
  return `${aboutDuration(ms)} at ${paceWords(pace)} (about ${aboutCount(requests)} ${requests === 1 ? 'request' : 'requests'})`
}

/** "about 7 s", "about 45 s", "about 31 min", "about 2 h 5 min". */
export function aboutDuration(ms: number): string {
  const seconds = ms / 1000
  if (seconds < 10) return `about ${Math.max(1, Math.round(seconds))} s`
  if (seconds < 57.5) return `about ${Math.round(seconds / 5) * 5} s`
  const minutes = Math.max(1, Math.round(seconds / 60))
  if (minutes < 60) return `about ${minutes} min`
  const fives = Math.round(seconds / 300) * 5
  const [hours, rest] = [Math.floor(fives / 60), fives % 60]
  return rest === 0 ? `about ${hours} h` : `about ${hours} h ${rest} min`
}

/** "100 requests a minute" (self-hosted's), "60 requests a minute" (managed's 10 per 10 s), "7 requests every 45 s". */
export function paceWords(pace: RateLimit): string {
  const perMinute = (pace.requests * 60_000) / pace.windowMs
  if (Number.isInteger(perMinute))
    return `${perMinute.toLocaleString('en-US')} ${perMinute === 1 ? 'request' : 'requests'} a minute`
  return `${pace.requests.toLocaleString('en-US')} ${pace.requests === 1 ? 'request' : 'requests'} every ${pace.windowMs / 1000} s`
}

/** A count as an estimate says it: exact below 100, else to two significant digits ("3,000", "1,200", "900"). */
export function aboutCount(n: number): string {
  if (n < 100) return String(Math.round(n))
  const unit = 10 ** (Math.floor(Math.log10(n)) - 1)
  return (Math.round(n / unit) * unit).toLocaleString('en-US')
}
