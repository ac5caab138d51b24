/**
 * What a report is made from: the plan JSON, what an apply did, and the diagnostics of all stages.
 * model.ts computes from it the facts every format shows; the renderers are pure functions of those,
 * so the same plan renders the same in the PR comment, the job summary and the terminal.
 */
import type { ApplyResult } from '../apply/types.js'
import type { Config, Mode, RunCommand, ServiceGate } from '../config/types.js'
import type { Diagnostic } from '../diagnostics.js'
import type { LivePreview } from '../plan/live-preview.js'
import type { PolicyReview } from '../plan/policy-review.js'
import type { Plan } from '../plan/types.js'

export interface ReportInput {
  command: RunCommand
  mode: Mode
  stack: string
  /** With stacks on: the stack's folder. */
  folder?: string
  /** Validation, plan, apply and config diagnostics (the plan's own diagnostics are in `plan` too). */
  diagnostics: Diagnostic[]
  plan?: Plan
  apply?: ApplyResult
  /** Where the full plan JSON is: the terminal report names it; markdown never does (a runner's path). */
  planFile?: string
  /** Base URL of the web UI: links to `${uiUrl}/dashboards/${id}` and `${uiUrl}/alerts`. */
  uiUrl?: string
  /** Why ServiceSettings are or are not applied by this run. */
  serviceGate?: ServiceGate
  /** What triggered the run, in words ("pull_request #12", "push to main"), when known. */
  trigger?: string
  /** Where the run happened on GitHub, for the commit, run and manifest links. */
  github?: GitHubRun
  /** When the report was made (ISO 8601), so a reader can tell whether a sticky comment is current. */
  time?: string
  /** The rules the run was held to and what a pull request does to them (src/policy). */
  policies?: PolicyReview
  /** A run that only deleted preview copies (a closed pull request): what it did. A plan has its own (plan.livePreview). */
  livePreview?: LivePreview
}

/** The runner's context as links need it; every part is checked before it goes into a URL. */
export interface GitHubRun {
  /** GITHUB_SERVER_URL, e.g. https://github.com. */
  serverUrl: string
  /** owner/repo. */
  repository: string
  /** The commit under review: a pull request's head, or the pushed commit. */
  sha?: string
  runId?: string
  runAttempt?: string
}

/** What the entry point knows of where and when it runs. */
export interface RunContext {
  trigger?: string
  github?: GitHubRun
  time?: string
}

/** The report of a run: what it was configured with, what it found, and where and when it ran. */
export function reportOf(
  config: Pick<Config, 'command' | 'mode' | 'stack' | 'uiUrl' | 'serviceGate'>,
  found: Pick<ReportInput, 'diagnostics' | 'plan' | 'apply' | 'planFile' | 'policies' | 'livePreview'>,
  context: RunContext = {}
): ReportInput {
  return {
    command: config.command,
    mode: config.mode,
    stack: config.stack,
    diagnostics: found.diagnostics,
    plan: found.plan,
    apply: found.apply,
    planFile: found.planFile,
    ...(found.policies ? { policies: found.policies } : {}),
    ...(found.livePreview ? { livePreview: found.livePreview } : {}),
    uiUrl: config.uiUrl,
    serviceGate: config.serviceGate,
    ...context
  }
}

/**
 * The report of a run over many stacks (the `stacks` layout): a section per stack, each the report a run
 * of that stack alone makes, under one heading, in one size budget.
 */
export interface StacksReportInput extends Pick<
  ReportInput,
  'command' | 'mode' | 'planFile' | 'uiUrl' | 'serviceGate' | 'trigger' | 'github' | 'time'
> {
  /** Why these stacks: "the stacks the pull request changes", "all stacks". */
  reason: string
  /** The stacks of the repository the run left out. */
  skipped: string[]
  /** The run's own problems: the layout of stacks, the selection, the live read. */
  diagnostics: Diagnostic[]
  stacks: ReportInput[]
}

/** The report of a run over many stacks: each stack's report, and the run's own facts. */
export function stacksReportOf(
  config: Pick<Config, 'command' | 'mode' | 'uiUrl' | 'serviceGate'>,
  run: {
    reason: string
    skipped: string[]
    diagnostics: Diagnostic[]
    results: ReadonlyArray<
      { stack: string; folder: string } & Pick<ReportInput, 'diagnostics' | 'plan' | 'apply' | 'policies'>
    >
  },
  planFile: string | undefined,
  context: RunContext = {}
): StacksReportInput {
  return {
    command: config.command,
    mode: config.mode,
    reason: run.reason,
    skipped: run.skipped,
    diagnostics: run.diagnostics,
    stacks: run.results.map(r => ({
      ...reportOf({ ...config, stack: r.stack }, r, context),
      folder: r.folder
    })),
    planFile,
    uiUrl: config.uiUrl,
    serviceGate: config.serviceGate,
    ...context
  }
}
