/** What run() is given and what it returns: the entry points report the result. */
import type { ObservabilityApi } from '../api/client.js'
import type { ApplyProgress, ApplyResult } from '../apply/types.js'
import type { ChangedFiles } from '../config/stack-layout.js'
import type { Config, RunCommand } from '../config/types.js'
import type { Diagnostic } from '../diagnostics.js'
import type { Logger } from '../log.js'
import type { PolicyReview } from '../plan/policy-review.js'
import type { Plan } from '../plan/types.js'
import type { PullRequestLabels } from '../policy/check.js'
import type { BaseRead, CentralRead } from '../policy/sources.js'

export interface RunDependencies {
  log?: Logger
  now?: () => Date
  /** Tests and benchmarks may pass their own client. */
  api?: (config: Config) => ObservabilityApi
  /** Told as each change of an apply starts and ends (the entry points render it). */
  progress?: (progress: ApplyProgress) => void
  /** Told when the apply's requests wait for the client-side rate limit (how long, in ms). */
  pacing?: (waitMs: number) => void
  /**
   * With stacks: the pull request's changed files, so the run plans the stacks they touch. Absent: no
   * pull request, or its files could not be listed; every stack is planned then.
   */
  changed?: ChangedFiles
  /**
   * The pull request's labels, which plan-time policy rules read (`labels`); none known when absent. Asked
   * only when a rule reads them (on a push it is a request to GitHub), once per run.
   */
  labels?: () => Promise<PullRequestLabels>
  /**
   * On a pull request: its base commit's manifest files, read through GitHub (src/github/base-files.ts).
   * The rules in force are the base's, so the pull request cannot switch one off by editing it.
   */
  baseFiles?: () => Promise<BaseRead>
  /** The `policy-source` input's files (through GitHub in the action; a path or git ref in the CLI). */
  policySource?: () => Promise<CentralRead>
  /**
   * What the event says of the live preview (`live-preview`, live-preview/): the pull request a plan writes copies
   * of, or why this event may not write any (a fork's), and whether a pull request is closed (asked through GitHub,
   * for the sweep). Absent: no copy is written or swept (the CLI sweeps with its own command).
   */
  livePreview?: LivePreviewEvent
}

export interface LivePreviewEvent {
  pullRequest?: number
  refused?: string
  isClosed?: (pullRequest: number) => Promise<boolean | undefined>
}

/** The action's outputs (config/outputs.ts describes them). */
export interface RunOutputs {
  hasChanges: boolean
  creates: number
  updates: number
  deletes: number
  planFile: string
  /** The stacks this run covers, as JSON for a job matrix: `[{"stack":"payments","folder":"..."}]`. */
  matrix: string
}

export const EMPTY_OUTPUTS: RunOutputs = {
  hasChanges: false,
  creates: 0,
  updates: 0,
  deletes: 0,
  planFile: '',
  matrix: '[]'
}

/** The commands that go online: validate stops before. */
export type OnlineCommand = Exclude<RunCommand, 'validate'>

/** What became of one stack: its plan, what its apply did, and its own problems. */
export interface StackOutcome {
  stack: string
  exitCode: 0 | 1
  /** Its validation, plan and apply diagnostics. */
  diagnostics: Diagnostic[]
  plan?: Plan
  apply?: ApplyResult
  outputs: RunOutputs
}

/** One stack of a run with stacks on: the same facts a run of one stack has. */
export interface StackResult {
  stack: string
  /** Its folder, relative to the workspace. */
  folder: string
  exitCode: 0 | 1
  /** Its validation, plan and apply diagnostics. */
  diagnostics: Diagnostic[]
  plan?: Plan
  apply?: ApplyResult
  outputs: RunOutputs
  /** The rules the stack was held to (RunResult.policies). */
  policies?: PolicyReview
}

/** What a run with stacks on did, stack by stack. */
export interface StacksRun {
  /** Why these stacks: "the stacks the pull request changes", "all stacks". */
  reason: string
  /** The stacks of the repository that this run left out (unchanged on a pull request, or not named). */
  skipped: string[]
  /** The run's own problems: the layout, the selection, reading the live state. */
  diagnostics: Diagnostic[]
  results: StackResult[]
}

export interface RunResult {
  exitCode: 0 | 1
  /**
   * Validation, plan and apply diagnostics (the plan's own diagnostics are in `plan` too). With stacks,
   * the run's own and every stack's: what annotations and the failure message are made of.
   */
  diagnostics: Diagnostic[]
  plan?: Plan
  apply?: ApplyResult
  /** Summed over the stacks when there are several. */
  outputs: RunOutputs
  /** Where the plan JSON was written. */
  planFile?: string
  /** With stacks on: each stack's result; `plan` and `apply` are then absent. */
  stacks?: StacksRun
  /** The rules the run was held to, where they came from, and what a pull request does to them. */
  policies?: PolicyReview
}
