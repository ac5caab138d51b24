/**
 * Deleting preview copies that outlived their pull request: those of a closed pull request (GitHub says so, through
 * the entry point's `isClosed`), and those last written longer ago than `live-preview-ttl` (the copy's
 * `obsdeploy-at:` tag; the server returns no dates). HyperDX has no time to live of its own, so whoever writes a copy
 * must remove it: every run of the stack with `live-preview` sweeps, and the CLI's `sweep-previews`.
 */
import type { ObservabilityApi } from '../api/client.js'
import type { LiveDashboard } from '../api/schemas.js'
import { copyFacts, previewStackTag } from '../kinds/dashboard/preview-copy.js'
import { errorMessage } from '../error-message.js'
import type { SweptCopy } from '../plan/live-preview.js'

const DAY_MS = 24 * 3600 * 1000

/** The copies of one stack among those the live read set aside. */
export const copiesOfStack = (copies: readonly LiveDashboard[], stack: string): LiveDashboard[] =>
  copies.filter(c => c.tags.includes(previewStackTag(stack)))

export interface SweepRules {
  now: Date
  ttlMs: number
  /** Whether GitHub says a pull request is closed; undefined when it cannot say (no token, no answer). */
  isClosed?: (pullRequest: number) => Promise<boolean | undefined>
  /** Only the copies of these pull requests go, whatever their age (`--pr N`, a pull request that closed). */
  pullRequests?: readonly number[]
}

/** Why a copy goes, or undefined when it stays. GitHub is asked once per pull request. */
export async function sweepReason(
  copy: LiveDashboard,
  rules: SweepRules,
  asked: Map<number, Promise<boolean | undefined>>
): Promise<string | undefined> {
  const { pullRequest, writtenAt } = copyFacts(copy)
  if (rules.pullRequests)
    return pullRequest !== undefined && rules.pullRequests.includes(pullRequest)
      ? `a copy of pull request #${pullRequest}`
      : undefined
  if (!writtenAt) return 'no date of its last write (its obsdeploy-at: tag is missing)'
  const age = rules.now.getTime() - writtenAt.getTime()
  if (age > rules.ttlMs) return `last written ${days(age)} ago (live-preview-ttl: ${days(rules.ttlMs)})`
  if (pullRequest === undefined || !rules.isClosed) return undefined
  let closed = asked.get(pullRequest)
  if (!closed) asked.set(pullRequest, (closed = rules.isClosed(pullRequest).catch(() => undefined)))
  return (await closed) === true ? `pull request #${pullRequest} is closed` : undefined
}

/** Deletes each copy a rule says goes, one request each through the paced client; what went, and what failed. */
export async function sweepCopies(
  api: ObservabilityApi,
  copies: readonly LiveDashboard[],
  rules: SweepRules
): Promise<{ swept: SweptCopy[]; requests: number }> {
  const asked = new Map<number, Promise<boolean | undefined>>()
  const swept: SweptCopy[] = []
  let requests = 0
  for (const copy of copies) {
    const why = await sweepReason(copy, rules, asked)
    if (why === undefined) continue
    const { pullRequest } = copyFacts(copy)
    const entry: SweptCopy = {
      name: copy.name,
      id: copy.id,
      ...(pullRequest !== undefined ? { pullRequest } : {}),
      why
    }
    requests++
    try {
      await api.deleteDashboard(copy.id)
    } catch (e) {
      entry.problem = errorMessage(e)
    }
    swept.push(entry)
  }
  return { swept, requests }
}

function days(ms: number): string {
  const n = ms / DAY_MS
  const shown = n >= 10 || Number.isInteger(n) ? String(Math.round(n)) : n.toFixed(1)
  return `${shown} day${shown === '1' ? '' : 's'}`
}
