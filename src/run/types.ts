/** What run() is given and what it returns: the entry points report the result. */
import type { ObservabilityApi } from '../api/client.js'
import type { ApplyProgress, ApplyResult } from '../apply/types.js'
import type { Config } from '../config/types.js'
import type { Diagnostic } from '../diagnostics.js'
import type { Logger } from '../log.js'
import type { Plan } from '../plan/types.js'

export interface RunDependencies {
  log?: Logger
  now?: () => Date
  /** Tests and benchmarks may pass their own client. */
  api?: (config: Config) => ObservabilityApi
  /** Told as each change of an apply starts and ends (the entry points render it). */
  progress?: (progress: ApplyProgress) => void
}

/** The action's outputs (config/outputs.ts describes them). */
export interface RunOutputs {
  hasChanges: boolean
  creates: number
  updates: number
  deletes: number
  planFile: string
}

export const EMPTY_OUTPUTS: RunOutputs = {
  hasChanges: false,
  creates: 0,
  updates: 0,
  deletes: 0,
  planFile: ''
}

export interface RunResult {
  exitCode: 0 | 1
  /** Validation, plan and apply diagnostics (the plan's own diagnostics are in `plan` too). */
  diagnostics: Diagnostic[]
  plan?: Plan
  apply?: ApplyResult
  outputs: RunOutputs
  /** Where the plan JSON was written. */
  planFile?: string
}
