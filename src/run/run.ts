/**
 * The pipeline both entry points share: load manifests -> validate -> read live state -> plan ->
 * (apply) -> a result the entry points report. It never touches GitHub and never exits the process;
 * errors become diagnostics and an exit code. With stacks on, stacks.ts runs the same stages for each
 * stack of the repository.
 */
import type { Config } from '../config/types.js'
import { diagnostic, hasErrors, sortDiagnostics } from '../diagnostics.js'
import { redactDeep, redactingLogger, redactor, SECRET_VAR_MIN_LENGTH, silentLogger } from '../log.js'
import { EmailMask, withEmailMask } from '../mask-email.js'
import type { CheckedManifests } from '../policy/check.js'
import { readEnforced } from './enforced.js'
import { applySavedPlanEarly, startEarly } from './early.js'
import { loadWithPolicies } from './load.js'
import type { OnlineResult } from './online.js'
import { runStacks } from './stacks.js'
import { EMPTY_OUTPUTS, type RunDependencies, type RunResult } from './types.js'

export async function run(config: Config, deps: RunDependencies = {}): Promise<RunResult> {
  const secrets = Object.values(config.secretVars)
  const log = redactingLogger(deps.log ?? silentLogger, secrets, SECRET_VAR_MIN_LENGTH)
  // Defence in depth: secrets never enter plans by design (write-only.ts); any text that quotes one (a
  // server's error message, say) has it replaced before the result leaves run().
  const scrub = redactor(secrets, SECRET_VAR_MIN_LENGTH)
  // One mask of emails for the whole run, keyed by its credential (mask-email.ts): every output names a person alike.
  const mask = EmailMask.forCredential(config.auth)
  const result = await withEmailMask(mask, () => runUnscrubbed(config, { ...deps, log }))
  return secrets.length === 0 ? result : redactDeep(result, scrub)
}

async function runUnscrubbed(config: Config, deps: RunDependencies): Promise<RunResult> {
  if (config.stacks) return runStacks(config, config.stacks, deps)
  const log = deps.log ?? silentLogger
  const enforced = readEnforced(deps, config.vars)
  enforced?.catch(() => undefined) // awaited below
  const load = () =>
    loadWithPolicies({
      enforced: enforced?.then(e => ({ base: e.base, central: e.central })),
      stack: config.stack,
      patterns: config.manifests,
      cwd: config.cwd,
      mode: config.mode,
      vars: config.vars,
      secrets: config.secretVars,
      // Validate is offline: a secret's value is needed only to plan (a fork's pull request has none).
      secretValues: config.command === 'validate' ? 'optional' : 'required'
    })
  const matrix = JSON.stringify([{ stack: config.stack }])
  let loading: Promise<CheckedManifests>
  let early: ReturnType<typeof startEarly> | undefined
  if (config.command === 'apply' && config.savedPlan) {
    // A saved plan that still holds is applied as recorded, without loading the manifests (saved-plan.ts).
    const saved = await applySavedPlanEarly({ ...config, command: config.command }, deps, load)
    if ('applied' in saved) return resultOf(saved.applied, matrix)
    loading = saved.planAgain.loaded
    early = Promise.resolve({ runOnline: saved.runOnline, read: saved.planAgain.read })
  } else {
    loading = load()
    // A run that goes online reads the live state while its manifests load (validate never loads the client).
    early =
      config.command === 'validate'
        ? undefined
        : startEarly(
            config,
            deps,
            loading.then(c => [c.manifests])
          )
  }
  early?.catch(() => undefined) // awaited below; never unhandled should loading throw first
  const { manifests, planRules, review } = await loading
  // The policy source's own problems hold back the stack as its rules would.
  if (enforced)
    manifests.diagnostics = sortDiagnostics([...manifests.diagnostics, ...(await enforced).diagnostics])
  const counts = `${manifests.specs.Dashboard.length} dashboard(s), ${manifests.specs.Alert.length} alert(s), ${manifests.specs.ServiceSettings.length} service setting(s)`
  log.info(`Read ${manifests.files.length} manifest file(s): ${counts}`)
  const offline = (exitCode: 0 | 1): RunResult => ({
    exitCode,
    diagnostics: [...manifests.diagnostics, ...heldPreview(config, deps, exitCode)],
    outputs: { ...EMPTY_OUTPUTS, matrix },
    ...(review ? { policies: review } : {})
  })
  if (hasErrors(manifests.diagnostics)) {
    // Invalid manifests stop the run before anything is planned or written; the read is dropped.
    await early?.then(
      e => e.read.abandon(),
      () => undefined
    )
    return offline(1)
  }
  if (config.command === 'validate' || early === undefined) return offline(0)

  const { runOnline, read } = await early
  // `command` as narrowed above: what goes online is plan, apply or drift.
  const online = await runOnline(
    { ...config, command: config.command },
    [{ name: config.stack, manifests, planRules, prune: config.prune, siblings: [] }],
    deps,
    read
  )
  return { ...resultOf(online, matrix), ...(review ? { policies: review } : {}) }
}

/** The run's result from its one stack's. */
function resultOf(online: OnlineResult, matrix: string): RunResult {
  const [stack] = online.stacks
  return {
    exitCode: hasErrors(online.diagnostics) ? 1 : stack!.exitCode,
    diagnostics: [...stack!.diagnostics, ...online.diagnostics],
    ...(stack!.plan ? { plan: stack!.plan } : {}),
    ...(stack!.apply ? { apply: stack!.apply } : {}),
    outputs: { ...stack!.outputs, matrix },
    ...(online.planFile ? { planFile: online.planFile } : {})
  }
}

/** A pull request's live preview writes no copy while its manifests have errors: the report says so. */
function heldPreview(config: Config, deps: RunDependencies, exitCode: 0 | 1) {
  const event = deps.livePreview
  if (exitCode === 0 || !config.livePreview.write || event?.pullRequest === undefined || event.refused)
    return []
  return [
    diagnostic(
      'validate',
      'notice',
      `live-preview: no preview copy of pull request #${event.pullRequest} was written, because the manifests have errors; copies written by an earlier push stay as they were until they are fixed`
    )
  ]
}
