/**
 * What each GitHub event may do. Pure: it reads the event name, ref and payload and decides; main.ts
 * acts on the decision. A pull request never changes live resources (but for the opt-in live preview's copies:
 * livePreviewOf), and service settings move only at
 * a release unless the user says otherwise.
 */
import type { RunCommand, ServiceGate, ServiceUpdatePolicy } from '../config/types.js'

export interface EventContext {
  eventName: string
  ref?: string
  payload: Record<string, unknown>
}

export interface EventPolicy {
  /** Set when the command must not run on this event; the run fails with this message. */
  refusal?: string
  warnings: string[]
  serviceGate: ServiceGate
}

const PULL_REQUEST_EVENTS = [
  'pull_request',
  'pull_request_target',
  'pull_request_review',
  'pull_request_review_comment'
]

/** The labels in a pull_request event's payload; undefined when the event has no pull request. */
export function labelsOfEvent(payload: Record<string, unknown>): { names: string[] } | undefined {
  const pr = payload.pull_request as { labels?: unknown } | undefined
  if (!pr) return undefined
  const labels = Array.isArray(pr.labels) ? pr.labels : []
  return {
    names: labels
      .map(l => (l as { name?: unknown } | null)?.name)
      .filter((n): n is string => typeof n === 'string')
  }
}

export function defaultBranchOf(ctx: EventContext): string | undefined {
  const repo = ctx.payload.repository as { default_branch?: unknown } | undefined
  return typeof repo?.default_branch === 'string' ? repo.default_branch : undefined
}

export function serviceGateFor(ctx: EventContext | undefined, policy: ServiceUpdatePolicy): ServiceGate {
  if (policy === 'always') return { open: true, reason: 'service-update: always' }
  if (policy === 'never') return { open: false, reason: 'service-update: never' }
  if (!ctx)
    return {
      open: false,
      reason: 'waits for a release (service-update: on-release; pass --release to apply now)'
    }
  const release = ctx.payload.release as { tag_name?: unknown } | undefined
  if (ctx.eventName === 'release' && ctx.payload.action === 'published') {
    return { open: true, reason: `release ${String(release?.tag_name ?? '')} published`.trim() }
  }
  if (ctx.eventName === 'push' && ctx.ref?.startsWith('refs/tags/')) {
    return { open: true, reason: `tag ${ctx.ref.slice('refs/tags/'.length)} pushed` }
  }
  return { open: false, reason: 'waits for a release (service-update: on-release)' }
}

export function eventPolicy(
  ctx: EventContext,
  command: RunCommand,
  policy: ServiceUpdatePolicy
): EventPolicy {
  const warnings: string[] = []
  const serviceGate = serviceGateFor(ctx, policy)
  if (ctx.eventName === 'pull_request_target') {
    warnings.push(
      "pull_request_target runs with this repository's secrets: checking out the pull request's code in this workflow exposes them to that code. Plan on pull_request instead."
    )
  }
  if (command !== 'apply') return { warnings, serviceGate }

  const defaultBranch = defaultBranchOf(ctx)
  const onDefaultBranch = defaultBranch === undefined || ctx.ref === `refs/heads/${defaultBranch}`
  const refuse = (refusal: string): EventPolicy => ({ refusal, warnings, serviceGate })
  if (PULL_REQUEST_EVENTS.includes(ctx.eventName)) {
    return refuse(
      `apply is refused on ${ctx.eventName} events: a pull request must not change live resources before it is reviewed and merged. Run plan on pull requests, and apply on push to the default branch.`
    )
  }
  switch (ctx.eventName) {
    case 'push':
      if (ctx.ref?.startsWith('refs/tags/') || onDefaultBranch) return { warnings, serviceGate }
      return refuse(
        `apply runs on pushes to the default branch (${defaultBranch}) or tags; this push is to ${ctx.ref ?? 'an unknown ref'}.`
      )
    case 'release':
      if (ctx.payload.action === 'published') return { warnings, serviceGate }
      return refuse(
        `apply on release events runs when a release is published; this event is "${String(ctx.payload.action)}".`
      )
    case 'workflow_dispatch':
    case 'schedule':
      if (onDefaultBranch) return { warnings, serviceGate }
      return refuse(
        `apply from ${ctx.eventName} runs only on the default branch (${defaultBranch}); this run is on ${ctx.ref}.`
      )
    default:
      return refuse(
        `apply is not allowed on ${ctx.eventName} events; use push to the default branch, a tag, a published release, or workflow_dispatch.`
      )
  }
}

/** What the event allows the live preview (`live-preview`): see livePreviewOf. */
export interface LivePreviewOfEvent {
  /** The pull request a plan writes copies of. */
  pullRequest?: number
  /** Why this event may write no copy. */
  refused?: string
  /** A pull request that closed: its copies are deleted, and nothing is planned. */
  closed?: number
}

/**
 * The live preview writes to the live server, the one exception to "a pull request never changes live resources":
 * only on a `pull_request` of this repository. A fork's author must not write there (the head repository is
 * someone else's), nor may `pull_request_target` (it runs the base's secrets beside the pull request's files).
 * Other events write no copy; they sweep old ones.
 */
export function livePreviewOf(ctx: EventContext): LivePreviewOfEvent {
  const pr = ctx.payload.pull_request as
    | {
        number?: unknown
        head?: { repo?: { full_name?: unknown } | null }
        base?: { repo?: { full_name?: unknown } }
      }
    | undefined
  if (!pr || typeof pr.number !== 'number') return {}
  const pullRequest = pr.number
  if (ctx.eventName === 'pull_request' && ctx.payload.action === 'closed') return { closed: pullRequest }
  if (ctx.eventName !== 'pull_request')
    return {
      pullRequest,
      refused: `live-preview writes copies on pull_request events only, not on ${ctx.eventName}: no copy was written`
    }
  const head = pr.head?.repo?.full_name
  const base = pr.base?.repo?.full_name
  if (typeof head !== 'string' || head !== base)
    return {
      pullRequest,
      refused: `live-preview is refused on a pull request from a fork (${typeof head === 'string' ? head : 'a deleted repository'}): its author must not write to the live server, so no copy was written`
    }
  return { pullRequest }
}

/**
 * Why `command: sync` may not run on this event: it rewrites the default branch's manifests into a pull request of
 * its own, so it runs on the default branch only (a schedule, a manual run, a push), never on a pull request's code.
 */
export function syncRefusal(ctx: EventContext | undefined): string | undefined {
  if (!ctx) return undefined
  if (PULL_REQUEST_EVENTS.includes(ctx.eventName))
    return `sync is refused on ${ctx.eventName} events: it rewrites the default branch's manifests into a pull request of its own. Run it on a schedule or workflow_dispatch (see examples/workflows/sync.yml)`
  const defaultBranch = defaultBranchOf(ctx)
  if (defaultBranch !== undefined && ctx.ref !== `refs/heads/${defaultBranch}`)
    return `sync runs on the default branch (${defaultBranch}), so its pull request starts from what is merged; this run is on ${ctx.ref ?? 'an unknown ref'}`
  return undefined
}
