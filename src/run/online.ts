/**
 * The stages that need the API: read the live state, plan, check queries, apply. run() loads this
 * module with one import once the manifests are valid, so `validate` never loads the HTTP client.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { createApi, type ObservabilityApi } from '../api/client.js'
import { applyPlan } from '../apply/apply.js'
import type { ApplyResult } from '../apply/types.js'
import type { Config, RunCommand } from '../config/types.js'
import { diagnostic, hasErrors, type Diagnostic } from '../diagnostics.js'
import { errorMessage } from '../error-message.js'
import type { LiveState, PlanSettings } from '../kinds/kind.js'
import { ownershipTag } from '../kinds/ownership.js'
import { checkQueries } from '../live/check-queries.js'
import { readLiveState } from '../live/read.js'
import { redactDeep, redactor, SECRET_VAR_MIN_LENGTH, silentLogger, type Logger } from '../log.js'
import type { ManifestSet } from '../manifest/load.js'
import { countChanges, isActionable, PlanFile, type Plan } from '../plan/types.js'
import { computePlan, type PlanOutcome } from '../planner/planner.js'
import { crossStackConflicts } from './cross-stack.js'
import { EMPTY_OUTPUTS, type RunDependencies, type RunOutputs } from './types.js'

/** The commands that go online: validate stops before. */
export type OnlineCommand = Exclude<RunCommand, 'validate'>

/** One stack as the online stages take it. A run without the `stacks` layout is a run of one. */
export interface StackToPlan {
  /** The stack's name: its ownership tag is obsdeploy:<name>. */
  name: string
  manifests: ManifestSet
  prune: boolean
  /** The other stacks of the repository: a dashboard of theirs named like a manifest is no clash. */
  siblings: readonly string[]
}

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

export interface OnlineResult {
  /** Problems of the run as a whole: the live state could not be read. */
  diagnostics: Diagnostic[]
  stacks: StackOutcome[]
  /** Where the plan JSON was written: one stack's plan, or with stacks on the plans of all. */
  planFile?: string
}

/**
 * Plans every stack from ONE read of the live state, through one client: the stacks talk to the same API,
 * so N stacks cost the list calls of one, and their requests share one pacer (a managed key's rate limit
 * is per key, not per stack or job). Stacks are then applied one after another, so `concurrency` bounds
 * the whole run.
 */
export async function runOnline(
  config: Config<OnlineCommand>,
  stacks: readonly StackToPlan[],
  deps: RunDependencies,
  started?: LiveRead
): Promise<OnlineResult> {
  const log = deps.log ?? silentLogger
  const now = deps.now ?? (() => new Date())
  // The saved plan is read before anything is written: plan-path may be the same file.
  const saved =
    config.command === 'apply' && config.savedPlan
      ? await readSavedPlan(config.savedPlan, config.cwd)
      : undefined

  const { api, live: reading } =
    started ?? startLiveRead(config, deps, Promise.resolve(stacks.map(s => s.manifests)))
  try {
    let live
    try {
      live = await reading
    } catch (e) {
      const failed = diagnostic('plan', 'error', `could not read the live state: ${errorMessage(e)}`)
      return {
        diagnostics: [failed],
        stacks: stacks.map(s => ({
          stack: s.name,
          exitCode: 1,
          diagnostics: [...s.manifests.diagnostics],
          outputs: { ...EMPTY_OUTPUTS }
        }))
      }
    }
    log.info(
      `Read live state in ${api.stats.requests} request(s): ${live.dashboards.length} dashboard(s), ${live.alerts.length} alert(s)`
    )
    const planned = stacks.map(stack => {
      const settings = planSettings(config, stack)
      settings.managedPrefix = api.prefix
      return {
        stack,
        settings,
        outcome: computePlan({
          command: config.command,
          settings,
          manifests: stack.manifests,
          live,
          now: now()
        })
      }
    })
    const plans = planned.map(p => p.outcome.plan)
    crossStackConflicts(plans).forEach((problems, i) => plans[i]!.diagnostics.push(...problems))
    if (config.checkQueries && config.command === 'plan') {
      for (const { outcome } of planned) {
        // Query findings are plan diagnostics: in the plan JSON, and a query the server refuses fails the plan.
        outcome.plan.diagnostics.push(
          ...(await checkQueries(api, outcome.planned, { mode: config.mode, now: now(), log }))
        )
      }
    }
    const planFile = await writePlan(
      config.planPath,
      config.stacks ? { schemaVersion: 1, stacks: plans } : plans[0]!,
      redactor(Object.values(config.secretVars), SECRET_VAR_MIN_LENGTH)
    )
    const outcomes: StackOutcome[] = []
    for (const p of planned) {
      const forStack = saved === undefined ? undefined : savedPlanFor(saved, p.stack.name, config.savedPlan!)
      outcomes.push(
        await finishStack(config, p, { api, log, forStack, planFile, deps, many: stacks.length > 1 })
      )
    }
    return { diagnostics: [], stacks: outcomes, planFile }
  } finally {
    await api.close()
  }
}

/** A read of the live state under way, started before the manifests were loaded (see startLiveRead). */
export interface LiveRead {
  api: ObservabilityApi
  /** Settles once; a failure is reported by runOnline, as when the read starts there. */
  live: Promise<LiveState>
  /** Ends the read and the client: the run stops before planning (its manifests are invalid). */
  abandon(): Promise<void>
}

/**
 * Starts reading the live state: it needs only the config, so the list calls run while the manifests
 * load. Whether the service is read too waits for the manifests (`manifests`). Nothing is written, and
 * nothing is reported here: runOnline reports a failed read, after validation, as before.
 */
export function startLiveRead(
  config: Config,
  deps: RunDependencies,
  manifests: Promise<readonly ManifestSet[]>
): LiveRead {
  const api = deps.api ? deps.api(config) : createApi(config, { log: deps.log ?? silentLogger })
  const stop = new AbortController()
  const service = manifests.then(sets => config.mode === 'managed' && sets.some(m => m.services.length > 0))
  const live = readLiveState(api, { service, signal: stop.signal })
  // Awaited by runOnline, or dropped when the run stops first: never an unhandled rejection.
  live.catch(() => undefined)
  return {
    api,
    live,
    abandon: async () => {
      stop.abort('the run stopped before planning')
      await live.catch(() => undefined)
      await api.close()
    }
  }
}

function planSettings(config: Config<OnlineCommand>, stack: StackToPlan): PlanSettings {
  return {
    stack: stack.name,
    ownershipTag: ownershipTag(stack.name),
    siblingTags: stack.siblings.map(ownershipTag),
    prune: stack.prune,
    mode: config.mode,
    serviceGate: config.serviceGate,
    servicePath:
      config.mode === 'managed'
        ? `/v1/organizations/${config.organizationId}/services/${config.serviceId}`
        : undefined
  }
}

/** A stack's plan carried through: refused on errors, returned for plan and drift, or applied. */
async function finishStack(
  config: Config<OnlineCommand>,
  { stack, settings, outcome }: { stack: StackToPlan; settings: PlanSettings; outcome: PlanOutcome },
  run: {
    api: ObservabilityApi
    log: Logger
    forStack?: SavedForStack
    planFile: string
    deps: RunDependencies
    many: boolean
  }
): Promise<StackOutcome> {
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

  if (run.forStack !== undefined) {
    const refusal =
      typeof run.forStack === 'object' && 'missing' in run.forStack
        ? outputs.hasChanges
          ? run.forStack.missing
          : undefined
        : compareWithSavedPlan(run.forStack, config.savedPlan!, plan)
    if (refusal) {
      diagnostics.push(diagnostic('apply', 'error', `nothing was applied: ${refusal}`))
      return finish(1)
    }
  }
  if (!outputs.hasChanges) return finish(0)
  const progress = run.deps.progress
  const apply = await applyPlan({
    api: run.api,
    planned: outcome.planned,
    dashboards: outcome.dashboards,
    registry: outcome.registry,
    settings,
    concurrency: config.concurrency,
    log: run.log,
    // With many stacks, each line says whose change it is.
    onProgress: progress && run.many ? p => progress({ ...p, stack: stack.name }) : progress
  })
  for (const o of apply.outcomes) {
    if (o.status === 'failed') {
      const at = plan.changes.find(c => c.address === o.address)?.source
      diagnostics.push(
        diagnostic(
          'apply',
          'error',
          `${o.kind} "${o.name}" (${o.action}) failed: ${o.message ?? 'unknown error'}`,
          at
        )
      )
    }
  }
  if (apply.convergence && !apply.convergence.converged) {
    diagnostics.push(
      diagnostic(
        'apply',
        'error',
        `the service did not reach the desired state: ${apply.convergence.remaining.join('; ')}`
      )
    )
  }
  return finish(apply.complete ? 0 : 1, apply)
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

async function writePlan(planPath: string, plan: PlanFile, scrub: (text: string) => string): Promise<string> {
  await mkdir(path.dirname(planPath), { recursive: true })
  await writeFile(planPath, `${JSON.stringify(redactDeep(plan, scrub), null, 2)}\n`)
  return planPath
}

/** A plan JSON from an earlier plan run, or why it cannot be used. */
async function readSavedPlan(file: string, cwd: string): Promise<PlanFile | string> {
  try {
    const saved = PlanFile.safeParse(JSON.parse(await readFile(path.resolve(cwd, file), 'utf8')))
    return saved.success ? saved.data : `${file} is not a plan file of this tool (schemaVersion 1)`
  } catch (e) {
    return `the saved plan ${file} cannot be read: ${errorMessage(e)}`
  }
}

/**
 * One stack's saved plan. A plan file of many stacks holds those its run planned (on a pull request, the
 * changed ones): a stack it does not hold may be applied only when its plan has nothing to apply.
 */
function savedPlanFor(saved: PlanFile | string, stack: string, file: string): SavedForStack {
  if (typeof saved === 'string' || !('stacks' in saved)) return saved
  const plans = saved.stacks
  return (
    plans.find(p => p.stack === stack) ?? {
      missing: `the saved plan ${file} has no plan for stack "${stack}" (it has ${plans.map(p => `"${p.stack}"`).join(', ') || 'none'}); plan it again and review it`
    }
  )
}

/** A stack's saved plan, why the saved plan cannot be used, or that it holds no plan for the stack. */
type SavedForStack = Plan | string | { missing: string }

/** The applied plan must be the reviewed one: same live state, same manifests. */
function compareWithSavedPlan(saved: Plan | string, file: string, current: Plan): string | undefined {
  if (typeof saved === 'string') return saved
  if (saved.stack !== current.stack || saved.mode !== current.mode) {
    return `the saved plan ${file} is for stack "${saved.stack}" (${saved.mode}), not "${current.stack}" (${current.mode})`
  }
  if (saved.fingerprint.desired !== current.fingerprint.desired) {
    return 'the manifests changed since the saved plan was made; plan again and review it'
  }
  if (saved.fingerprint.live !== current.fingerprint.live) {
    return 'the live state changed since the saved plan was made (someone edited a dashboard or alert?); plan again and review it'
  }
  return undefined
}
