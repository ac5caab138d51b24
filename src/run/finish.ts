/**
 * A stack's plan carried through to the end: refused when it has errors, returned for plan and drift, held
 * to the saved plan for `apply --plan`, or applied, with what went wrong said at each change's manifest.
 */
import type { ObservabilityApi } from '../api/client.js'
import { applyPlan, type ApplyInput } from '../apply/apply.js'
import type { ApplyResult } from '../apply/types.js'
import type { Config } from '../config/types.js'
import { diagnostic, hasErrors, type Diagnostic } from '../diagnostics.js'
import type { LiveState, PlanSettings } from '../kinds/kind.js'
import type { Logger } from '../log.js'
import type { ManifestSet } from '../manifest/load.js'
import { countChanges, ESTIMATE_VERSION, isActionable, type Plan } from '../plan/types.js'
import type { PlanOutcome } from '../planner/planner.js'
import { compareWithSavedPlan, type SavedForStack } from './saved-plan.js'
import {
  EMPTY_OUTPUTS,
  type OnlineCommand,
  type RunDependencies,
  type RunOutputs,
  type StackOutcome
} from './types.js'

/** The stack a plan was made for. */
interface PlannedStack {
  stack: { name: string; manifests: Pick<ManifestSet, 'diagnostics'> }
  settings: PlanSettings
  outcome: PlanOutcome
}

/** What the run gives each stack it finishes. */
interface FinishRun {
  api: ObservabilityApi
  log: Logger
  forStack?: SavedForStack
  planFile: string
  deps: RunDependencies
  many: boolean
  /** The changes' operations when not their kinds' (a saved plan's, applied as recorded). */
  operations?: ApplyInput['operations']
  /** The live state the plan read: the apply looks for copies of what it creates against it. */
  live: LiveState
}

/** A stack's plan carried through: refused on errors, returned for plan and drift, or applied. */
export async function finishStack(
  config: Config<OnlineCommand>,
  planned: PlannedStack,
  run: FinishRun
): Promise<StackOutcome> {
  const { stack, outcome } = planned
  const plan = outcome.plan
  const diagnostics: Diagnostic[] = [
    ...stack.manifests.diagnostics,
    ...plan.diagnostics.filter(d => d.stage !== 'validate')
  ]
  const outputs = outputsOf(plan, run.planFile)
  const finish = (exitCode: 0 | 1, apply?: ApplyResult): StackOutcome => ({
    stack: stack.name,
    exitCode,
    diagnostics,
    plan,
    ...(apply ? { apply } : {}),
    outputs
  })
  if (hasErrors(plan.diagnostics)) {
    if (config.command === 'apply')
      diagnostics.push(diagnostic('apply', 'error', 'nothing was applied: the plan has errors'))
    return finish(1)
  }
  if (config.command === 'plan') return finish(0)
  if (config.command === 'drift') return finish(outputs.hasChanges ? 1 : 0)

  const refusal =
    run.forStack !== undefined && savedPlanRefusal(run.forStack, config, plan, outputs.hasChanges)
  if (refusal) {
    diagnostics.push(diagnostic('apply', 'error', `nothing was applied: ${refusal}`))
    return finish(1)
  }
  if (!outputs.hasChanges) return finish(0)
  const apply = await applyStack(config, planned, run)
  diagnostics.push(...applyProblems(plan, apply))
  return finish(apply.complete ? 0 : 1, apply)
}

/**
 * Why `apply --plan` applies nothing of this stack: its plan differs from the saved one, or the saved file does not
 * hold this stack while its plan has changes.
 */
function savedPlanRefusal(
  forStack: SavedForStack,
  config: Config<OnlineCommand>,
  plan: Plan,
  hasChanges: boolean
): string | undefined {
  if (typeof forStack === 'object' && 'missing' in forStack) return hasChanges ? forStack.missing : undefined
  return compareWithSavedPlan(forStack, config.savedPlan!, plan)
}

function applyStack(
  config: Config<OnlineCommand>,
  { stack, settings, outcome }: PlannedStack,
  run: FinishRun
): Promise<ApplyResult> {
  const progress = run.deps.progress
  return applyPlan({
    api: run.api,
    planned: outcome.planned,
    dashboards: outcome.dashboards,
    registry: outcome.registry,
    settings,
    concurrency: config.concurrency,
    log: run.log,
    ...(run.operations ? { operations: run.operations } : {}),
    before: run.live,
    ...(run.deps.pacing ? { onPacing: run.deps.pacing } : {}),
    // A plan file older than estimates has none to count down.
    ...(outcome.plan.estimate?.version === ESTIMATE_VERSION ? { countdown: { pace: config.rateLimit } } : {}),
    // A create that timed out may commit up to about as late again: wait that long before looking for copies.
    settleMs: 2 * config.requestTimeoutMs,
    // With many stacks, each line says whose change it is.
    onProgress: progress && run.many ? p => progress({ ...p, stack: stack.name }) : progress
  })
}

/** What went wrong in an apply, each at the manifest of its change: failed changes, copies, a service not converged. */
function applyProblems(plan: Plan, apply: ApplyResult): Diagnostic[] {
  const problems: Diagnostic[] = []
  for (const o of apply.outcomes) {
    if (o.status === 'failed') {
      const at = plan.changes.find(c => c.address === o.address)?.source
      problems.push(
        diagnostic(
          'apply',
          'error',
          `${o.kind} "${o.name}" (${o.action}) failed: ${o.message ?? 'unknown error'}`,
          at
        )
      )
    }
  }
  for (const copy of apply.copies ?? []) {
    const at = plan.changes.find(c => c.address === copy.address)?.source
    problems.push(diagnostic('apply', 'error', copy.message, at))
  }
  if (apply.convergence && !apply.convergence.converged) {
    problems.push(
      diagnostic(
        'apply',
        'error',
        `the service did not reach the desired state: ${apply.convergence.remaining.join('; ')}`
      )
    )
  }
  return problems
}

function outputsOf(plan: Plan, planFile: string): RunOutputs {
  const actionable = plan.changes.filter(isActionable)
  const counts = countChanges(actionable)
  // Service settings that wait for a release still differ from the manifests: drift, and a change to come.
  const waiting = plan.changes.some(c => c.deferred === 'release')
  return {
    hasChanges: actionable.length > 0 || waiting,
    creates: counts.create,
    updates: counts.update + counts.replace,
    deletes: counts.delete,
    planFile,
    matrix: EMPTY_OUTPUTS.matrix
  }
}
