/**
 * The stages that need the API: read the live state, plan, check queries, apply. run() loads this
 * module with one import once the manifests are valid, so `validate` never loads the HTTP client.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { createApi } from '../api/client.js'
import { applyPlan } from '../apply/apply.js'
import type { Config, RunCommand } from '../config/types.js'
import { diagnostic, hasErrors, type Diagnostic } from '../diagnostics.js'
import { errorMessage } from '../error-message.js'
import type { PlanSettings } from '../kinds/kind.js'
import { ownershipTag } from '../kinds/ownership.js'
import { checkQueries } from '../live/check-queries.js'
import { readLiveState } from '../live/read.js'
import { silentLogger } from '../log.js'
import type { ManifestSet } from '../manifest/load.js'
import { countChanges, isActionable, Plan } from '../plan/types.js'
import { computePlan } from '../planner/planner.js'
import { EMPTY_OUTPUTS, type RunDependencies, type RunOutputs, type RunResult } from './types.js'

/** The commands that go online: validate stops before. */
export type OnlineCommand = Exclude<RunCommand, 'validate'>

export async function runOnline(
  config: Config<OnlineCommand>,
  manifests: ManifestSet,
  deps: RunDependencies
): Promise<RunResult> {
  const log = deps.log ?? silentLogger
  const now = deps.now ?? (() => new Date())
  const diagnostics: Diagnostic[] = [...manifests.diagnostics]
  const finish = (exitCode: 0 | 1, extra: Partial<RunResult> = {}): RunResult => ({
    exitCode,
    diagnostics,
    outputs: { ...EMPTY_OUTPUTS },
    ...extra
  })
  // The saved plan is read before anything is written: plan-path may be the same file.
  const saved =
    config.command === 'apply' && config.savedPlan
      ? await readSavedPlan(config.savedPlan, config.cwd)
      : undefined

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
      diagnostics.push(diagnostic('plan', 'error', `could not read the live state: ${errorMessage(e)}`))
      return finish(1)
    }
    settings.managedPrefix = api.prefix
    log.info(
      `Read live state in ${api.stats.requests} request(s): ${live.dashboards.length} dashboard(s), ${live.alerts.length} alert(s)`
    )
    const outcome = computePlan({ command: config.command, settings, manifests, live, now: now() })
    const plan = outcome.plan
    if (config.checkQueries && config.command === 'plan') {
      // Query findings are plan diagnostics: in the plan JSON, and a query the server refuses fails the plan.
      plan.diagnostics.push(
        ...(await checkQueries(api, outcome.planned, { mode: config.mode, now: now(), log }))
      )
    }
    diagnostics.push(...plan.diagnostics.filter(d => d.stage !== 'validate'))
    const planFile = await writePlan(config.planPath, plan)
    const outputs = outputsOf(plan, planFile)
    if (hasErrors(plan.diagnostics)) {
      if (config.command === 'apply')
        diagnostics.push(diagnostic('apply', 'error', 'nothing was applied: the plan has errors'))
      return finish(1, { plan, outputs, planFile })
    }
    if (config.command === 'plan') return finish(0, { plan, outputs, planFile })
    if (config.command === 'drift') return finish(outputs.hasChanges ? 1 : 0, { plan, outputs, planFile })

    if (saved) {
      const refusal = compareWithSavedPlan(saved, config.savedPlan!, plan)
      if (refusal) {
        diagnostics.push(diagnostic('apply', 'error', `nothing was applied: ${refusal}`))
        return finish(1, { plan, outputs, planFile })
      }
    }
    if (!outputs.hasChanges) return finish(0, { plan, outputs, planFile })
    const apply = await applyPlan({
      api,
      planned: outcome.planned,
      dashboards: outcome.dashboards,
      settings,
      concurrency: config.concurrency,
      log,
      onProgress: deps.progress
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
    return finish(apply.complete ? 0 : 1, { plan, apply, outputs, planFile })
  } finally {
    await api.close()
  }
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
    planFile
  }
}

async function writePlan(planPath: string, plan: Plan): Promise<string> {
  await mkdir(path.dirname(planPath), { recursive: true })
  await writeFile(planPath, `${JSON.stringify(plan, null, 2)}\n`)
  return planPath
}

/** A plan JSON from an earlier plan run, or why it cannot be used. */
async function readSavedPlan(file: string, cwd: string): Promise<Plan | string> {
  try {
    const saved = Plan.safeParse(JSON.parse(await readFile(path.resolve(cwd, file), 'utf8')))
    return saved.success ? saved.data : `${file} is not a plan file of this tool (schemaVersion 1)`
  } catch (e) {
    return `the saved plan ${file} cannot be read: ${errorMessage(e)}`
  }
}

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
