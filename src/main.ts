/**
 * The action: inputs -> Config -> run() -> annotations, job summary, PR comment and outputs. Every
 * output is set exactly once, on every path, failures included: later steps and the log never see a
 * placeholder value first and the real one after.
 */
import { createHash } from 'node:crypto'
import * as core from './github/core.js'
import { parseActionConfig } from './config/parse.js'
import { diagnostic, formatDiagnostic, hasErrors, type Diagnostic } from './diagnostics.js'
import { errorWithStack } from './error-message.js'
import { annotateChanges, annotateDiagnostics } from './github/annotations.js'
import { defaultPlanPath, readRunnerContext, type RunnerContext } from './github/context.js'
import { eventPolicy, labelsOfEvent, livePreviewOf, serviceGateFor } from './github/events.js'
import { readActionInputs } from './github/inputs.js'
import { printable, visible, type Logger } from './log.js'
import type { ChangedFiles } from './config/stack-layout.js'
import {
  COMMENT_LIMIT,
  renderMarkdown,
  renderStacksMarkdown,
  SUMMARY_LIMIT,
  type MarkdownOptions
} from './report/markdown.js'
import { reportOf, stacksReportOf, type RunContext } from './report/input.js'
import { labelOf, stacksLabelOf, type Label } from './report/model.js'
import { progressReporter } from './report/progress.js'
import type { PullRequestLabels } from './policy/check.js'
import { run } from './run/run.js'
import {
  EMPTY_OUTPUTS,
  type LivePreviewEvent,
  type RunDependencies,
  type RunOutputs,
  type RunResult
} from './run/types.js'
import type { ActionCommand, Config, RunCommand } from './config/types.js'
import { reviewIsLoud } from './plan/policy-review.js'
import { parsePolicySource } from './github/policy-source-address.js'

// Messages may hold names and servers' text (the kinds log them as they are): printable, one line each.
const actionLogger: Logger = {
  info: m => core.info(printable(m)),
  // Operational warnings go to the log; annotations are kept for problems at a manifest line.
  warn: m => core.info(`Warning: ${printable(m)}`),
  debug: m => core.debug(printable(m))
}

/** The values the outputs get when the run ends, whichever way it ends. */
interface Outputs {
  run: RunOutputs
  commentUrl: string
}

export async function main(): Promise<void> {
  const outputs: Outputs = { run: EMPTY_OUTPUTS, commentUrl: '' }
  try {
    await runAction(outputs)
  } catch (e) {
    // The stack keeps its lines (the runner escapes them); what else a message holds is shown, not obeyed.
    core.setFailed(`obsdeploy failed unexpectedly: ${visible(errorWithStack(e))}`)
  } finally {
    setOutputs(outputs)
  }
}

async function runAction(outputs: Outputs): Promise<void> {
  const raw = readActionInputs()
  const runner = readRunnerContext()
  const repoName = runner.repository?.repo ?? 'default'
  const { config: parsed, diagnostics } = parseActionConfig(raw, {
    cwd: runner.workspace,
    defaultStack: repoName,
    defaultPlanPath: defaultPlanPath(runner),
    serviceGate: policy => serviceGateFor(runner.event, policy),
    label: name => `input \`${name}\``
  })
  if (!parsed) return failOnInputs(diagnostics)
  for (const d of diagnostics) core.warning(printable(d.message))
  if (isSync(parsed)) {
    const { runSyncAction } = await import('./sync-action.js')
    return runSyncAction(parsed, runner, raw['github-token'] ?? '', actionLogger)
  }
  const config = parsed as Config<RunCommand>
  if (await refusedByEvent(runner, config)) return

  const token = raw['github-token'] ?? ''
  const preview = livePreviewOfRun(runner, config, token)
  // A pull request that closed: its preview copies are deleted, and nothing is planned.
  if (preview?.closed !== undefined) return deleteClosedCopies(runner, config, preview.closed, preview.event)
  // With stacks, a pull request plans the stacks it changes (unless `stack` names them).
  const changed =
    config.stacks && config.stacks.only.length === 0 && runner.event?.payload.pull_request
      ? await changedFiles(runner, token)
      : undefined

  // On a pull request the rules in force are its base commit's; `policy-source` adds rules from elsewhere.
  const policies = policyReaders(runner, config, token)
  if ('problem' in policies) return failOnInputs([policies.problem])

  // Plan-time policy rules may read the pull request's labels: from the event, or after a merge from the
  // pull request that merged the commit.
  // Asked only when a stack's rules read them, once.
  let asked: Promise<PullRequestLabels> | undefined
  const labels = () => (asked ??= pullRequestLabels(runner, token))

  // One line per applied change (or one every few seconds for a large apply): a stuck run shows where it is.
  const progress = progressReporter({
    live: false,
    write: text => core.info(text.replace(/\n$/, '')),
    pace: config.rateLimit
  })
  let result
  try {
    result = await run(config, {
      log: actionLogger,
      progress: progress.update,
      pacing: progress.pacing,
      changed,
      labels,
      ...policies,
      ...(preview ? { livePreview: preview.event } : {})
    })
  } finally {
    progress.done()
  }
  outputs.run = result.outputs
  await publish(runner, config, result, token, outputs)
}

/**
 * What the live preview may do on this event (`live-preview`), with GitHub asked whether a pull request is closed
 * (the sweep deletes its copies); undefined when the input is off.
 */
function livePreviewOfRun(
  runner: RunnerContext,
  config: Config<RunCommand>,
  token: string
): { event: LivePreviewEvent; closed?: number } | undefined {
  if (!config.livePreview.write || !runner.event) return undefined
  const { closed, ...allowed } = livePreviewOf(runner.event)
  const repository = runner.repository
  const isClosed =
    repository && token
      ? async (pullRequest: number) => {
          const { isPullRequestClosed } = await import('./github/pull-state.js')
          return isPullRequestClosed({ token, ...repository, pullRequest })
        }
      : undefined
  return {
    event: { ...allowed, ...(isClosed ? { isClosed } : {}) },
    ...(closed !== undefined ? { closed } : {})
  }
}

/** A closed pull request: its preview copies deleted, said in the log and the job summary. */
async function deleteClosedCopies(
  runner: RunnerContext,
  config: Config<RunCommand>,
  pullRequest: number,
  event: LivePreviewEvent
): Promise<void> {
  const { sweepPreviews } = await import('./run/preview-sweep.js')
  const swept = await sweepPreviews(config, { log: actionLogger, livePreview: event }, [pullRequest])
  const livePreview = {
    pullRequest,
    copies: [],
    swept: swept.stacks.flatMap(s => s.livePreview.swept),
    requests: swept.stacks.reduce((n, s) => n + s.livePreview.requests, 0)
  }
  const report = reportOf(config, { diagnostics: swept.diagnostics, livePreview }, reportContext(runner))
  await writeSummary(options => renderMarkdown(report, options))
  annotateDiagnostics(swept.diagnostics)
  const failed = livePreview.swept.filter(s => s.problem !== undefined)
  if (swept.exitCode !== 0)
    core.setFailed(
      failed.length > 0
        ? `${failed.length} preview copy(ies) of pull request #${pullRequest} could not be deleted: ${printable(failed[0]!.problem!)}`
        : failureReason(config, { exitCode: 1, diagnostics: swept.diagnostics, outputs: EMPTY_OUTPUTS })
    )
}

/** What the event does not allow (a command it may not run) fails the run, with a summary that says why. */
async function refusedByEvent(runner: RunnerContext, config: Config<RunCommand>): Promise<boolean> {
  if (!runner.event) return false
  const policy = eventPolicy(runner.event, config.command, config.serviceUpdate)
  for (const w of policy.warnings) core.warning(w)
  if (!policy.refusal) return false
  const refused = { diagnostics: [diagnostic('config', 'error', policy.refusal)] }
  const report = reportOf(config, refused, reportContext(runner))
  await writeSummary(options => renderMarkdown(report, options))
  core.setFailed(policy.refusal)
  return true
}

/**
 * What a finished run tells GitHub: annotations, the job summary, on a pull request its sticky comment and its
 * label, and a failed step that says why.
 */
async function publish(
  runner: RunnerContext,
  config: Config<RunCommand>,
  result: RunResult,
  token: string,
  outputs: Outputs
): Promise<void> {
  const context = reportContext(runner)
  const stacks = result.stacks && stacksReportOf(config, result.stacks, result.planFile, context)
  const report = reportOf(config, result, context)
  const markdown = (options: MarkdownOptions) =>
    stacks ? renderStacksMarkdown(stacks, options) : renderMarkdown(report, options)
  const plans = stacks
    ? stacks.stacks.flatMap(s => (s.plan ? [s.plan] : []))
    : result.plan
      ? [result.plan]
      : []
  const shown = annotateDiagnostics(result.diagnostics)
  let notices = countNotices(result.diagnostics)
  for (const plan of plans) notices += annotateChanges(plan.changes, notices).shown
  if (shown.total > shown.shown)
    core.info(`${shown.total - shown.shown} more problem(s) are listed in the job summary.`)
  await writeSummary(markdown)

  if (runner.issueNumber !== undefined && config.commentOnPr && config.command !== 'apply') {
    // Deferred changes (prune pending, waits for a release) are worth a comment too: a reviewer should see them.
    // So is a change to the rules in force (a rule removed or weakened, a suppression added).
    const worthSaying =
      plans.some(p => p.changes.some(c => c.action !== 'noop')) ||
      hasErrors(result.diagnostics) ||
      [result.policies, ...(result.stacks?.results ?? []).map(r => r.policies)].some(reviewIsLoud)
    // With stacks, one comment for the run's stacks; a matrix leg names its stack and keeps its own.
    const key = config.stacks ? config.stacks.only.join(',') || '*' : config.stack
    const url = await comment(runner, token, key, config.apiUrl, markdown, worthSaying)
    outputs.commentUrl = url ?? ''
  }
  if (runner.issueNumber !== undefined && config.labels && config.command === 'plan' && plans.length > 0) {
    await label(runner, token, stacks ? stacksLabelOf(stacks) : labelOf(report))
  }
  if (result.exitCode !== 0) core.setFailed(failureReason(config, result))
}

/** Why the step fails: drift, or the first errors. */
function failureReason(config: Config<RunCommand>, result: RunResult): string {
  const errors = result.diagnostics.filter(d => d.severity === 'error')
  return config.command === 'drift' && errors.length === 0
    ? 'drift: the live state differs from the manifests (see the job summary)'
    : `${errors.length} error(s): ${errors
        .slice(0, 3)
        .map(e => printable(formatDiagnostic(e)))
        .join(' | ')}${errors.length > 3 ? ' …' : ''}`
}

const isSync = (config: Config<ActionCommand>): config is Config<'sync'> => config.command === 'sync'

/** Where and when the run is, for the report's links and footer. */
function reportContext(runner: RunnerContext): RunContext {
  return { trigger: runner.trigger, github: runner.links, time: new Date().toISOString() }
}

/** A short, stable name for an API base URL (the URL itself may be private). */
function apiKey(apiUrl: string): string {
  return createHash('sha256').update(apiUrl).digest('hex').slice(0, 8)
}

function setOutputs({ run: o, commentUrl }: Outputs): void {
  core.setOutput('has-changes', String(o.hasChanges))
  core.setOutput('creates', String(o.creates))
  core.setOutput('updates', String(o.updates))
  core.setOutput('deletes', String(o.deletes))
  core.setOutput('plan-file', o.planFile)
  core.setOutput('comment-url', commentUrl)
  core.setOutput('matrix', o.matrix)
}

function countNotices(ds: readonly Diagnostic[]): number {
  return Math.min(10, ds.filter(d => d.severity === 'notice').length)
}

/** One annotation per problem of the inputs (each names its input), and no second error that repeats them. */
function failOnInputs(diagnostics: Diagnostic[]): void {
  for (const d of diagnostics) {
    if (d.severity === 'error') core.error(printable(formatDiagnostic(d)))
    else core.warning(printable(d.message))
  }
  process.exitCode = 1
}

/** The report as markdown within a size limit: one stack's, or the sections of many. */
type Markdown = (options: MarkdownOptions) => string

async function writeSummary(markdown: Markdown): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) return
  await core.summary
    .addRaw(markdown({ maxLength: SUMMARY_LIMIT, measure: 'bytes' }))
    .write({ overwrite: false })
}

/** The pull request's changed files; when GitHub cannot list them, undefined (every stack is planned). */
async function changedFiles(runner: RunnerContext, token: string): Promise<ChangedFiles | undefined> {
  const why = 'so every stack is planned'
  if (!runner.repository || !token || runner.issueNumber === undefined) {
    core.warning(`The pull request's changed files cannot be listed without a github-token, ${why}.`)
    return undefined
  }
  const { listPullRequestFiles } = await import('./github/pull-files.js')
  const files = await listPullRequestFiles({
    token,
    owner: runner.repository.owner,
    repo: runner.repository.repo,
    issueNumber: runner.issueNumber
  })
  if ('warning' in files) {
    core.warning(printable(files.warning))
    return undefined
  }
  return files
}

/**
 * Where the rules in force come from besides the checkout: on a pull request, its base commit (read through
 * the API: the checkout holds the pull request's files, which it may have changed); and `policy-source`.
 */
function policyReaders(
  runner: RunnerContext,
  config: Config,
  token: string
): Pick<RunDependencies, 'baseFiles' | 'policySource'> | { problem: Diagnostic } {
  const readers: Pick<RunDependencies, 'baseFiles' | 'policySource'> = {}
  const pull = runner.event?.payload.pull_request as { base?: { sha?: unknown } } | undefined
  const baseSha = pull?.base?.sha
  if (pull && runner.repository) {
    const repository = runner.repository
    readers.baseFiles = async () => {
      if (typeof baseSha !== 'string') return { unavailable: 'the event names no base commit' }
      const { readBaseFiles } = await import('./github/base-files.js')
      const read = await readBaseFiles({
        token,
        ...repository,
        sha: baseSha,
        patterns: config.manifests,
        cwd: config.cwd
      })
      core.info(
        'unavailable' in read
          ? `The base commit's rules could not be read: ${printable(read.unavailable)}`
          : `Rules in force: the base commit ${read.commit.slice(0, 7)}'s (${read.differing.length} manifest file(s) differ from it)`
      )
      return read
    }
  }
  if (config.policySource) {
    const address = parsePolicySource(config.policySource)
    if ('problem' in address)
      return { problem: diagnostic('config', 'error', `input \`policy-source\` ${address.problem}`) }
    readers.policySource = async () => {
      const { readPolicySource } = await import('./github/policy-source.js')
      return readPolicySource(address, token)
    }
  }
  return readers
}

/** The pull request's labels for policy rules; without them, why not (a rule that needs one then blocks). */
async function pullRequestLabels(runner: RunnerContext, token: string): Promise<PullRequestLabels> {
  const event = runner.event
  const fromEvent = event && labelsOfEvent(event.payload)
  if (fromEvent) return fromEvent
  if (event?.eventName !== 'push')
    return { names: [], unknown: `a ${event?.eventName ?? 'run outside GitHub'} event has no pull request` }
  const sha = runner.links?.sha
  if (!runner.repository || !token || !sha)
    return { names: [], unknown: 'without a github-token the merged pull request cannot be read' }
  const { labelsOfCommit } = await import('./github/pull-labels.js')
  const found = await labelsOfCommit({
    token,
    owner: runner.repository.owner,
    repo: runner.repository.repo,
    sha
  })
  core.info(
    found.unknown
      ? `Pull request labels unknown: ${printable(found.unknown)}`
      : `Labels of the merged pull request: ${found.names.join(', ') || 'none'}`
  )
  return found
}

async function comment(
  runner: RunnerContext,
  token: string,
  stack: string,
  apiUrl: string,
  markdown: Markdown,
  hasChanges: boolean
): Promise<string | undefined> {
  if (!runner.repository || !token) {
    core.warning('No pull request comment: no github-token. The plan is in the job summary.')
    return undefined
  }
  // Octokit is loaded only when there is a comment to write.
  const { commentMarker, upsertStickyComment } = await import('./github/comment.js')
  // One comment per stack, job and API: matrix legs of one job that deploy to different servers keep theirs.
  const marker = commentMarker(stack, `${runner.job}@${apiKey(apiUrl)}`)
  const body = markdown({ maxLength: COMMENT_LIMIT, header: marker })
  const res = await upsertStickyComment(
    { token, owner: runner.repository.owner, repo: runner.repository.repo, issueNumber: runner.issueNumber! },
    marker,
    body,
    { hasChanges }
  )
  if (res.warning) core.warning(printable(res.warning))
  return res.url
}

async function label(runner: RunnerContext, token: string, wanted: Label): Promise<void> {
  if (!runner.repository || !token) {
    core.warning('No pull request labels: no github-token.')
    return
  }
  const { syncLabels } = await import('./github/labels.js')
  const res = await syncLabels(
    { token, owner: runner.repository.owner, repo: runner.repository.repo, issueNumber: runner.issueNumber! },
    wanted
  )
  if (res.warning) core.warning(printable(res.warning))
  else if (res.added.length + res.removed.length > 0)
    core.info(`Labels: ${[...res.added.map(l => `+${l}`), ...res.removed.map(l => `-${l}`)].join(' ')}`)
}
