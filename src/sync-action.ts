/**
 * The action's `command: sync`: each stack's manifests rewritten from the live state (run/sync.ts), committed to
 * the branch `obsdeploy/sync/<stack>` and proposed as one pull request per stack (github/sync-pull.ts), or that
 * pull request closed once the UI and the repository agree again. The job summary says, per stack, what changed
 * on the server and what became of its pull request.
 */
import * as core from './github/core.js'
import { formatDiagnostic, hasErrors, type Diagnostic } from './diagnostics.js'
import type { RunnerContext } from './github/context.js'
import { defaultBranchOf, syncRefusal } from './github/events.js'
import { printable } from './log.js'
import type { Config } from './config/types.js'
import { runLink } from './report/links.js'
import { syncMarkdown, syncTitle } from './report/sync.js'
import { cutToSize } from './report/budget.js'
import { SUMMARY_LIMIT } from './report/markdown.js'
import type { SyncedStack } from './run/sync.js'
import type { Logger } from './log.js'

/** The branch of a stack's sync: one per stack, its name safe as a git ref whatever the stack is called. */
export const syncBranch = (stack: string): string =>
  `obsdeploy/sync/${stack.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+|\.+$/g, '') || 'stack'}`

export async function runSyncAction(
  config: Config<'sync'>,
  runner: RunnerContext,
  token: string,
  log: Logger
): Promise<void> {
  const refusal = syncRefusal(runner.event)
  if (refusal) return fail(refusal)
  if (!runner.repository) return fail('sync needs GITHUB_REPOSITORY: it runs in a GitHub Actions workflow')
  if (!token)
    return fail(
      'sync needs a github-token with `contents: write` and `pull-requests: write` to push its branch and open its pull request'
    )
  const base =
    (runner.event && defaultBranchOf(runner.event)) ??
    process.env.GITHUB_REF_NAME ??
    process.env.GITHUB_BASE_REF
  if (!base)
    return fail('sync cannot tell the default branch: the event names none, and GITHUB_REF_NAME is unset')

  const { runSync, writeSynced } = await import('./run/sync.js')
  const { publishSync, SyncPermissionError } = await import('./github/sync-pull.js')
  const result = await runSync(config, { write: false, deps: { log } })
  const problems: Diagnostic[] = [...result.diagnostics]
  const summary: string[] = []
  const runUrl = runLink({ github: runner.links })?.url
  for (const stack of result.stacks) {
    if (hasErrors(stack.diagnostics)) {
      problems.push(...stack.diagnostics)
      summary.push(`### Stack ${printable(stack.stack)}: not synced (see the errors)`)
      continue
    }
    const written = await writeSynced(config.cwd, stack.outcome.files)
    if (written.length > 0) {
      problems.push(...written)
      continue
    }
    const body = syncMarkdown(stack, {
      ...(runUrl ? { runUrl } : {}),
      ...(config.uiUrl ? { uiUrl: config.uiUrl } : {})
    })
    try {
      const outcome = await publishSync({
        token,
        ...runner.repository,
        cwd: config.cwd,
        base,
        stack: stack.stack,
        branch: syncBranch(stack.stack),
        files: stack.outcome.files.map(f => f.path),
        title: syncTitle(stack),
        body,
        commitMessage: commitMessage(stack),
        closeComment: `The UI and the repository agree again (read at ${stack.readAt}): nothing left to sync, so obsdeploy closes this pull request.`
      })
      const said =
        outcome.operation === 'none'
          ? `stack ${printable(stack.stack)}: the manifests say what the server holds; no pull request`
          : `stack ${printable(stack.stack)}: pull request #${outcome.number} ${outcome.operation} (${outcome.url})`
      core.info(said)
      summary.push(outcome.operation === 'none' || outcome.operation === 'closed' ? `### ${said}` : body)
    } catch (e) {
      if (e instanceof SyncPermissionError) return fail(e.message, summary)
      throw e
    }
  }
  for (const d of problems) {
    if (d.severity === 'error') core.error(printable(formatDiagnostic(d)))
    else core.warning(printable(formatDiagnostic(d)))
  }
  await writeSummary(summary)
  if (hasErrors(problems) || result.exitCode !== 0)
    core.setFailed(`sync: ${problems.filter(d => d.severity === 'error').length} error(s) (see the log)`)
}

function commitMessage(stack: SyncedStack): string {
  const lines = stack.outcome.records.map(r => `- ${r.kind} ${r.name}: ${r.action} on the server`)
  return `obsdeploy sync (stack ${stack.stack}): edits made on the server\n\n${lines.slice(0, 50).join('\n')}\n`
}

async function fail(message: string, summary: string[] = []): Promise<void> {
  await writeSummary([...summary, `**obsdeploy sync failed**: ${printable(message)}`])
  core.setFailed(message)
}

async function writeSummary(parts: readonly string[]): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY || parts.length === 0) return
  const text = parts.join('\n\n')
  // GitHub's limit is in bytes: cut at a line (report/budget.ts), and say it was cut.
  const cut = cutToSize(text, SUMMARY_LIMIT - 8, 'bytes')
  await core.summary.addRaw(cut === text ? text : `${cut}\n\n…`).write({ overwrite: false })
}
