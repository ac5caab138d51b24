/**
 * Deleting preview copies without planning: the action on a closed pull request (its copies), and the CLI's
 * `sweep-previews` (the copies of `--pr N`, or those older than `live-preview-ttl`). The stack's copies (every
 * stack's of the layout with `stacks`) are found by their tags in one list of the dashboards, through the paced
 * client, and deleted one request each.
 */
import { createApi } from '../api/client.js'
import type { Config, Command } from '../config/types.js'
import { readStackLayout } from '../config/stack-layout.js'
import { diagnostic, type Diagnostic } from '../diagnostics.js'
import { errorMessage } from '../error-message.js'
import { isPreviewCopy } from '../kinds/dashboard/preview-copy.js'
import { silentLogger } from '../log.js'
import { copiesOfStack, sweepCopies } from '../live-preview/sweep.js'
import type { LivePreview } from '../plan/live-preview.js'
import type { RunDependencies } from './types.js'

export interface PreviewSweep {
  exitCode: 0 | 1
  diagnostics: Diagnostic[]
  /** What was deleted, stack by stack. */
  stacks: Array<{ stack: string; livePreview: LivePreview }>
}

export async function sweepPreviews(
  config: Config<Command>,
  deps: Pick<RunDependencies, 'api' | 'log' | 'now' | 'livePreview'>,
  /** Only these pull requests' copies; otherwise those older than the TTL and (with `isClosed`) of closed ones. */
  pullRequests?: readonly number[]
): Promise<PreviewSweep> {
  const log = deps.log ?? silentLogger
  const names = await stackNames(config)
  if ('problem' in names) return { exitCode: 1, diagnostics: [names.problem], stacks: [] }
  const api = deps.api ? deps.api(config as Config) : createApi(config, { log })
  try {
    let copies
    try {
      copies = (await api.listDashboards()).filter(isPreviewCopy)
    } catch (e) {
      return {
        exitCode: 1,
        diagnostics: [diagnostic('plan', 'error', `could not list the dashboards: ${errorMessage(e)}`)],
        stacks: []
      }
    }
    const now = (deps.now ?? (() => new Date()))()
    const isClosed = deps.livePreview?.isClosed
    const stacks: PreviewSweep['stacks'] = []
    let failed = false
    for (const stack of names.stacks) {
      const { swept, requests } = await sweepCopies(api, copiesOfStack(copies, stack), {
        now,
        ttlMs: config.livePreview.ttlMs,
        ...(isClosed ? { isClosed } : {}),
        ...(pullRequests ? { pullRequests } : {})
      })
      failed ||= swept.some(s => s.problem !== undefined)
      const only = pullRequests?.length === 1 ? { pullRequest: pullRequests[0]! } : {}
      stacks.push({ stack, livePreview: { ...only, copies: [], swept, requests } })
      log.info(`Live preview of stack ${stack}: ${swept.length} copy(ies) deleted in ${requests} request(s)`)
    }
    return { exitCode: failed ? 1 : 0, diagnostics: [], stacks }
  } finally {
    await api.close()
  }
}

/** The stack, or with `stacks` each stack of the layout (or those `stack` names). */
async function stackNames(config: Config<Command>): Promise<{ stacks: string[] } | { problem: Diagnostic }> {
  if (!config.stacks) return { stacks: [config.stack] }
  if (config.stacks.only.length > 0) return { stacks: config.stacks.only }
  const layout = await readStackLayout(config.manifests, config.cwd)
  const error = layout.diagnostics.find(d => d.severity === 'error')
  if (error) return { problem: error }
  return { stacks: layout.stacks.map(s => s.name) }
}
