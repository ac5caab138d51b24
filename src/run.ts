/**
 * The pipeline both entry points share: load manifests -> validate -> read live state -> plan ->
 * (apply) -> a result the entry points report. It never touches GitHub and never exits the process;
 * errors become diagnostics and an exit code.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { ObservabilityApi } from './api/client.js'
import type { ApplyResult } from './apply/types.js'
import type { Config } from './config/types.js'
import { diagnostic, hasErrors, type Diagnostic } from './diagnostics.js'
import { errorMessage } from './error-message.js'
import type { PlanSettings } from './kinds/kind.js'
import { ownershipTag } from './kinds/ownership.js'
import { silentLogger, type Logger } from './log.js'
import { loadManifests } from './manifest/load.js'
import { countChanges, isActionable, Plan, type Plan as PlanType } from './plan/types.js'
import type { ReportInput } from './report/model.js'

export interface RunDependencies {
  log?: Logger
  now?: () => Date
  /** Tests and benchmarks may pass their own client. */
  api?: (config: Config) => ObservabilityApi
}

export interface RunOutputs {
  hasChanges: boolean
  creates: number
  updates: number
  deletes: number
  planFile: string
}

export interface RunResult {
  exitCode: 0 | 1
  diagnostics: Diagnostic[]
  plan?: PlanType
  apply?: ApplyResult
  outputs: RunOutputs
  /** Everything a renderer needs. */
  report: ReportInput
}

export const EMPTY_OUTPUTS: RunOutputs = {
  hasChanges: false,
  creates: 0,
  updates: 0,
  deletes: 0,
  planFile: ''
}

export async function run(config: Config, deps: RunDependencies = {}): Promise<RunResult> {
  const log = deps.log ?? silentLogger
  const now = deps.now ?? (() => new Date())
  const report: ReportInput = {
    command: config.command,
    mode: config.mode,
    stack: config.stack,
    diagnostics: [],
    uiUrl: config.uiUrl,
    serviceGate: config.serviceGate
  }
  const finish = (exitCode: 0 | 1, extra: Partial<RunResult> = {}): RunResult => ({
    exitCode,
    diagnostics: report.diagnostics,
    outputs: { ...EMPTY_OUTPUTS },
    report,
    ...extra
  })

  const manifests = await loadManifests({
    patterns: config.manifests,
    cwd: config.cwd,
    mode: config.mode,
    vars: config.vars
  })
  report.diagnostics.push(...manifests.diagnostics)
  const counts = `${manifests.dashboards.length} dashboard(s), ${manifests.alerts.length} alert(s), ${manifests.services.length} service setting(s)`
  log.info(`Read ${manifests.files.length} manifest file(s): ${counts}`)
  if (hasErrors(manifests.diagnostics)) return finish(1)
  if (config.command === 'validate') return finish(0)
  // The saved plan is read before anything is written: plan-path may be the same file.
  const saved =
    config.command === 'apply' && config.savedPlan
      ? await readSavedPlan(config.savedPlan, config.cwd)
      : undefined

  // Loaded only past validation: `validate` starts without the HTTP client and the planner. One at a
  // time: jest's ES module loader mishandles concurrent imports of a shared module graph.
  const { createApi } = await import('./api/client.js')
  const { readLiveState } = await import('./live/read.js')
  const { computePlan } = await import('./planner/planner.js')
  const { applyPlan } = await import('./apply/apply.js')
  const { checkQueries } = await import('./live/check-queries.js')
  const api = deps.api ? deps.api(config) : createApi(config, { log })
  try {
    const settings: PlanSettings = {
      stack: config.stack,
      ownershipTag: ownershipTag(config.stack),
      prune: config.prune,
      mode: config.mode,
      serviceGate: config.serviceGate,
      servicePath:
        config.mode === 'managed'
          ? `/v1/organizations/${config.organizationId}/services/${config.serviceId}`
          : undefined
    }
    let live
    try {
      live = await readLiveState(api, { service: config.mode === 'managed' && manifests.services.length > 0 })
    } catch (e) {
      report.diagnostics.push(
        diagnostic('plan', 'error', `could not read the live state: ${errorMessage(e)}`)
      )
      return finish(1)
    }
    log.info(
      `Read live state in ${api.stats.requests} request(s): ${live.dashboards.length} dashboard(s), ${live.alerts.length} alert(s)`
    )
    const outcome = computePlan({ command: config.command, settings, manifests, live, now: now() })
    const plan = outcome.plan
    report.plan = plan
    if (config.checkQueries && config.command === 'plan') {
      // Query findings are plan diagnostics: in the plan JSON, and a query the server refuses fails the plan.
      plan.diagnostics.push(
        ...(await checkQueries(api, outcome.planned, { mode: config.mode, now: now(), log }))
      )
    }
    report.diagnostics.push(...plan.diagnostics.filter(d => d.stage !== 'validate'))
    const planFile = await writePlan(config.planPath, plan)
    report.planFile = planFile
    const outputs = outputsOf(plan, planFile)
    if (hasErrors(plan.diagnostics)) {
      if (config.command === 'apply')
        report.diagnostics.push(diagnostic('apply', 'error', 'nothing was applied: the plan has errors'))
      return finish(1, { plan, outputs })
    }
    if (config.command === 'plan') return finish(0, { plan, outputs })
    if (config.command === 'drift') return finish(outputs.hasChanges ? 1 : 0, { plan, outputs })

    if (config.command !== 'apply') throw new Error(`unknown command ${config.command}`)
    if (saved) {
      const refusal = compareWithSavedPlan(saved, config.savedPlan!, plan)
      if (refusal) {
        report.diagnostics.push(diagnostic('apply', 'error', `nothing was applied: ${refusal}`))
        return finish(1, { plan, outputs })
      }
    }
    if (!outputs.hasChanges) return finish(0, { plan, outputs })
    const apply = await applyPlan({
      api,
      planned: outcome.planned,
      dashboards: outcome.dashboards,
      settings,
      concurrency: config.concurrency,
      log
    })
    report.apply = apply
    for (const o of apply.outcomes) {
      if (o.status === 'failed') {
        const at = plan.changes.find(c => c.address === o.address)?.source
        report.diagnostics.push(
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
      report.diagnostics.push(
        diagnostic(
          'apply',
          'error',
          `the service did not reach the desired state: ${apply.convergence.remaining.join('; ')}`
        )
      )
    }
    return finish(apply.complete ? 0 : 1, { plan, apply, outputs })
  } finally {
    await api.close()
  }
}

export function outputsOf(plan: PlanType, planFile: string): RunOutputs {
  const actionable = plan.changes.filter(isActionable)
  const counts = countChanges(actionable)
  // Service settings that wait for a release still differ from the manifests: drift, and a change to come.
  const waiting = plan.changes.some(c => c.deferred === 'release')
  return {
    hasChanges: actionable.length > 0 || waiting,
    creates: counts.create,
    updates: counts.update + counts.replace,
    deletes: counts.delete,
    planFile
  }
}

async function writePlan(planPath: string, plan: PlanType): Promise<string> {
  await mkdir(path.dirname(planPath), { recursive: true })
  await writeFile(planPath, `${JSON.stringify(plan, null, 2)}\n`)
  return planPath
}

/** A plan JSON from an earlier plan run, or why it cannot be used. */
async function readSavedPlan(file: string, cwd: string): Promise<PlanType | string> {
  try {
    const saved = Plan.safeParse(JSON.parse(await readFile(path.resolve(cwd, file), 'utf8')))
    return saved.success ? saved.data : `${file} is not a plan file of this tool (schemaVersion 1)`
  } catch (e) {
    return `the saved plan ${file} cannot be read: ${errorMessage(e)}`
  }
}

/** The applied plan must be the reviewed one: same live state, same manifests. */
function compareWithSavedPlan(saved: PlanType | string, file: string, current: PlanType): string | undefined {
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
