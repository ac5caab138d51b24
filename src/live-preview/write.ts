/**
 * The live preview of a pull request's plan (`live-preview`): each dashboard the plan creates or changes is written
 * to the server as a preview copy (kinds/dashboard/preview-copy.ts), so a reviewer opens it in the real UI. The
 * copies of the pull request are found again by their tags (this stack's, this pull request's), then by name: the
 * next push updates them, and one whose dashboard the plan no longer changes is deleted. Copies of closed pull
 * requests and old ones are swept (sweep.ts). Every write goes through the run's paced client, and the section this
 * returns counts them in the plan.
 *
 * It is the one thing a pull request writes to the live server, so it runs only when the entry point says the event
 * allows it (a pull request of this repository: a fork's author must not write there), and writes nothing while the
 * plan has an error.
 */
import type { ObservabilityApi } from '../api/client.js'
import type { LiveDashboard } from '../api/schemas.js'
import type { Mode } from '../config/types.js'
import { errorMessage } from '../error-message.js'
import { createBody, updateBody, type BodyOptions } from '../kinds/dashboard/bodies.js'
import type { DesiredDashboard } from '../kinds/dashboard/desired.js'
import {
  copiedName,
  copyBody,
  copyFacts,
  copyName,
  previewCopyTags
} from '../kinds/dashboard/preview-copy.js'
import type { DashboardFacts, LiveState, PlannedChange } from '../kinds/kind.js'
import { placeholderTokens } from '../kinds/references.js'
import type { LivePreview, LivePreviewCopy } from '../plan/live-preview.js'
import { copiesOfStack, sweepCopies, type SweepRules } from './sweep.js'

const WRITES = new Set(['create', 'update', 'replace'])

export interface LivePreviewRun {
  stack: string
  mode: Mode
  /** The pull request the plan is of; absent on other events (the run only sweeps). */
  pullRequest?: number
  /** Why this event may not write copies (a fork's pull request): nothing is written or deleted then. */
  refused?: string
  /** Why the plan's copies are not written: it has errors. Old copies are still swept. */
  held?: string
  /** Keep raw SQL tiles (`live-preview-sql`). */
  sql: boolean
  sweep: Omit<SweepRules, 'pullRequests'>
}

export async function livePreview(
  api: ObservabilityApi,
  plan: { planned: readonly PlannedChange[]; dashboards: DashboardFacts; live: LiveState },
  run: LivePreviewRun
): Promise<LivePreview> {
  if (run.refused !== undefined)
    return {
      ...(run.pullRequest ? { pullRequest: run.pullRequest } : {}),
      notWritten: run.refused,
      copies: [],
      swept: [],
      requests: 0
    }
  const mine = copiesOfStack(plan.live.previewCopies ?? [], run.stack)
  const ofThis = mine.filter(
    c => run.pullRequest !== undefined && copyFacts(c).pullRequest === run.pullRequest
  )
  // This pull request's copies are rewritten below (or kept, with the plan's errors): never swept by age here.
  const { swept, requests: sweeps } = await sweepCopies(
    api,
    mine.filter(c => !ofThis.includes(c)),
    run.sweep
  )
  if (run.pullRequest === undefined) return { copies: [], swept, requests: sweeps }
  const section = { pullRequest: run.pullRequest, swept }
  if (run.held !== undefined)
    return {
      ...section,
      notWritten: run.held,
      copies: ofThis.map(c => ({
        dashboard: copiedName(run.pullRequest!, c.name),
        name: c.name,
        id: c.id,
        action: 'kept' as const
      })),
      requests: sweeps
    }
  const written = await writeCopies(api, plan, run, run.pullRequest, ofThis)
  return { ...section, copies: written.copies, requests: sweeps + written.requests }
}

/** The plan's dashboards as copies: created, updated (found by name among this pull request's), or deleted. */
async function writeCopies(
  api: ObservabilityApi,
  plan: { planned: readonly PlannedChange[]; dashboards: DashboardFacts },
  run: LivePreviewRun,
  pullRequest: number,
  existing: readonly LiveDashboard[]
): Promise<{ copies: LivePreviewCopy[]; requests: number }> {
  const options: BodyOptions = {
    // Replaced by the copy's tags (copyBody): no request of a copy carries the stack's ownership tag.
    tag: '',
    mode: run.mode,
    // A link-out names the stack's own dashboard (a copy of it may not exist).
    idOf: name => plan.dashboards.desired.get(name)?.liveId
  }
  const tags = previewCopyTags(run.stack, pullRequest, run.sweep.now)
  const left = [...existing]
  const copies: LivePreviewCopy[] = []
  let requests = 0
  for (const pc of plan.planned) {
    if (!writesDashboard(pc)) continue
    const d = pc.desired!.value as DesiredDashboard
    const name = copyName(pullRequest, d.spec.name)
    const at = left.findIndex(c => c.name === name)
    const old = at >= 0 ? left.splice(at, 1)[0] : undefined
    const entry: LivePreviewCopy = { dashboard: d.spec.name, name, action: old ? 'updated' : 'created' }
    if (old) entry.id = old.id
    copies.push(entry)
    if (placeholderTokens([d.tiles.map(t => t.body), d.filters]).length > 0) {
      // Its source or connection does not exist before the merge: there is no id to write.
      entry.action = 'failed'
      entry.problem =
        'it names a source or connection this pull request creates, which exists only after the merge'
      continue
    }
    const request = old ? updateBody(d, old, options) : createBody(d, options)
    const { body, sqlLeftOut } = copyBody(request, { name, tags, sql: run.sql })
    if (sqlLeftOut.length > 0) entry.sqlLeftOut = sqlLeftOut
    requests++
    try {
      const saved = old ? await api.updateDashboard(old.id, body) : await api.createDashboard(body)
      entry.id = saved.id
    } catch (e) {
      entry.action = 'failed'
      entry.problem = errorMessage(e)
    }
  }
  // A copy whose dashboard the plan no longer changes (or a second one of a name) goes.
  for (const c of left) {
    const entry: LivePreviewCopy = {
      dashboard: copiedName(pullRequest, c.name),
      name: c.name,
      id: c.id,
      action: 'deleted'
    }
    requests++
    try {
      await api.deleteDashboard(c.id)
    } catch (e) {
      entry.action = 'failed'
      entry.problem = errorMessage(e)
    }
    copies.push(entry)
  }
  return { copies, requests }
}

const writesDashboard = ({ change, desired }: PlannedChange): boolean =>
  change.kind === 'Dashboard' && desired !== undefined && !change.deferred && WRITES.has(change.action)
