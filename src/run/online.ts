/**
 * The stages that need the API: read the live state (live-read.ts), plan, check queries, apply (each
 * stack carried through in finish.ts). run() loads this module with one import once the manifests are
 * valid, so `validate` never loads the HTTP client.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { ObservabilityApi } from '../api/client.js'
import { applyEstimate } from '../apply/requests.js'
import type { Auth, Config } from '../config/types.js'
import { diagnostic, hasErrors, type Diagnostic } from '../diagnostics.js'
import { errorMessage } from '../error-message.js'
import { KINDS } from '../kinds/index.js'
import { FingerprintKey } from '../kinds/fingerprint-key.js'
import type { LiveState, PlanSettings } from '../kinds/kind.js'
import { isOwnershipTag, ownershipTag, stackOfTag } from '../kinds/ownership.js'
import { checkQueries } from '../live/check-queries.js'
import { livePreview } from '../live-preview/write.js'
import { sentToDryRun, validateOnServer } from '../live/server-validation.js'
import { redactDeep, redactor, SECRET_VAR_MIN_LENGTH, silentLogger, type Logger } from '../log.js'
import { findManifestFiles, readManifestFile, textDigest } from '../manifest/files.js'
import type { ManifestSet } from '../manifest/load.js'
import type { Estimate, PlanFile, Plan } from '../plan/types.js'
import { computePlan, type PlanOutcome } from '../planner/planner.js'
import { previewOf } from '../planner/preview.js'
import {
  checkPlanPolicies,
  readsLabels,
  type CheckedManifests,
  type PlanPolicies,
  type PlanPolicyInput,
  type PullRequestLabels
} from '../policy/check.js'
import { crossStackConflicts } from './cross-stack.js'
import { finishStack } from './finish.js'
import { collectBeforePlanning } from './heap.js'
import {
  asksDashboardPatch,
  readsRoles,
  readsService,
  readsTeam,
  startLiveRead,
  startRead,
  type LiveRead
} from './live-read.js'
import {
  appliedPlanText,
  applySectionOf,
  inputsDigest,
  liveDigest,
  readSavedPlan,
  restoreOutcome,
  sealedPlan,
  savedPlanFor,
  sealedPlanParts,
  type Sealed
} from './saved-plan.js'
import { EMPTY_OUTPUTS, type OnlineCommand, type RunDependencies, type StackOutcome } from './types.js'

// run() reaches the live read through this module's one import (early.ts).
export { startLiveRead, type LiveRead } from './live-read.js'

/** One stack as the online stages take it. A run without the `stacks` layout is a run of one. */
export interface StackToPlan {
  /** The stack's name: its ownership tag is obsdeploy:<name>. */
  name: string
  manifests: ManifestSet
  /** What its policies' plan-time rules need (policy/check.ts); absent when it has none. */
  planRules?: PlanPolicies
  prune: boolean
  /** The other stacks of the repository: a dashboard of theirs named like a manifest is no clash. */
  siblings: readonly string[]
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
      `Read live state in ${api.stats.requests} request(s): ${live.Dashboard.length} dashboard(s), ${live.Alert.length} alert(s)`
    )
    // A plan of one stack records the live state it was made from for `apply --plan` (saved-plan.ts):
    // digested before planning, as read.
    const liveAsRead =
      config.command === 'plan' && !config.stacks && stacks.length === 1 ? liveDigest(live) : undefined
    // The garbage of loading and reading goes before planning adds its own (heap.ts says why).
    collectBeforePlanning(
      live.Dashboard.length +
        live.Alert.length +
        stacks.reduce((n, s) => n + s.manifests.specs.Dashboard.length + s.manifests.specs.Alert.length, 0)
    )
    const planned = planStacks(config, stacks, api.prefix, live, now)
    const plans = planned.map(p => p.outcome.plan)
    const queried = await checkPlans(config, planned, { api, live, log, now, deps, stacks })
    if (liveAsRead !== undefined) recordApplySection(config, planned[0]!, liveAsRead, queried[0]!, log)
    await writeLivePreviews(config, planned, { api, live, log, now, deps })
    const planFile = await writePlan(
      config.planPath,
      config.stacks ? { schemaVersion: 1, stacks: plans } : plans[0]!,
      Object.keys(config.secretVars).length > 0
        ? redactor(Object.values(config.secretVars), SECRET_VAR_MIN_LENGTH)
        : undefined,
      config.auth
    )
    const outcomes: StackOutcome[] = []
    for (const p of planned) {
      const forStack = saved === undefined ? undefined : savedPlanFor(saved, p.stack.name, config.savedPlan!)
      outcomes.push(
        await finishStack(config, p, { api, log, forStack, planFile, deps, many: stacks.length > 1, live })
      )
    }
    return { diagnostics: [], stacks: outcomes, planFile }
  } finally {
    await api.close()
  }
}

/** One stack planned: what the later stages carry through. */
interface PlannedStack {
  stack: StackToPlan
  settings: PlanSettings
  outcome: PlanOutcome
}

/** Each stack planned from the one live read, with what the plan says beside its changes. */
function planStacks(
  config: Config<OnlineCommand>,
  stacks: readonly StackToPlan[],
  managedPrefix: ObservabilityApi['prefix'],
  live: LiveState,
  now: () => Date
): PlannedStack[] {
  const planned = stacks.map(stack => {
    const settings = planSettings(config, stack)
    settings.managedPrefix = managedPrefix
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
  // How long an apply of each plan takes at this run's pace: the plan says it, the apply counts it down.
  if (config.command === 'plan' || config.command === 'apply')
    for (const { outcome } of planned) outcome.plan.estimate = estimateOf(config, outcome)
  // What the report pictures (report/preview/): layouts from the planned changes, data from the query check.
  if (config.command === 'plan')
    for (const { outcome } of planned)
      outcome.plan.preview = previewOf(
        outcome.planned,
        config.checkQueries ? config.previewValues : undefined
      )
  return planned
}

/**
 * The checks over each plan that ask the server or read what it answered: check-queries, then the policy
 * rules over the plan (which may read the queries' verdicts), then server validation. Their findings are
 * plan diagnostics. Says of each plan whether check-queries found something.
 */
async function checkPlans(
  config: Config<OnlineCommand>,
  planned: readonly PlannedStack[],
  run: {
    api: ObservabilityApi
    live: LiveState
    log: Logger
    now: () => Date
    deps: RunDependencies
    stacks: readonly StackToPlan[]
  }
): Promise<boolean[]> {
  const { api, log } = run
  const found = planned.map(p => p.outcome.plan.diagnostics.length)
  if (config.checkQueries && config.command === 'plan') {
    for (const { outcome } of planned) {
      // Query findings are plan diagnostics: in the plan JSON, and a query the server refuses fails the plan.
      outcome.plan.diagnostics.push(
        ...(await checkQueries(api, outcome.planned, {
          mode: config.mode,
          now: run.now(),
          log,
          preview: outcome.plan.preview,
          previewValues: config.previewValues
        }))
      )
    }
  }
  const queried = planned.map(
    ({ outcome }, i) =>
      outcome.plan.diagnostics.length > found[i]! || outcome.plan.changes.some(c => c.evidence)
  )
  // Policy rules over the plan (on: plan), after the queries they may read: their errors fail the plan,
  // so nothing is applied.
  for (const { stack, outcome } of planned) {
    if (!stack.planRules) continue
    const labels = run.deps.labels && readsLabels(stack.planRules) ? await run.deps.labels() : undefined
    outcome.plan.diagnostics.push(
      ...checkPlanPolicies(
        stack.planRules,
        outcome.plan,
        outcome.planned,
        planPolicyInput(config, stack, run.stacks, run.live, outcome.plan, labels)
      )
    )
  }
  if (config.serverValidation && (config.command === 'plan' || config.command === 'apply')) {
    for (const { outcome, settings } of planned) {
      // A plan that fails already needs no dry run: its errors say what to fix first.
      if (hasErrors(outcome.plan.diagnostics)) continue
      outcome.plan.diagnostics.push(
        ...(await validateOnServer(api, outcome.planned, {
          settings,
          dashboards: outcome.dashboards,
          log
        }))
      )
    }
  }
  return queried
}

/**
 * The live preview (`live-preview`): each stack's copies of what its plan creates or changes, written on a pull
 * request's plan, and old copies swept on every run; the plan's section says what was done. After every check, so a
 * plan with an error (validation stops before, policies and the server's dry run come first) writes none.
 */
async function writeLivePreviews(
  config: Config<OnlineCommand>,
  planned: readonly PlannedStack[],
  run: { api: ObservabilityApi; live: LiveState; log: Logger; now: () => Date; deps: RunDependencies }
): Promise<void> {
  const event = run.deps.livePreview
  if (!config.livePreview.write || !event) return
  for (const { stack, outcome } of planned) {
    const section = await livePreview(
      run.api,
      { planned: outcome.planned, dashboards: outcome.dashboards, live: run.live },
      {
        stack: stack.name,
        mode: config.mode,
        // Copies show a pull request's plan: an apply or drift run only sweeps.
        ...(config.command === 'plan' && event.pullRequest !== undefined
          ? { pullRequest: event.pullRequest }
          : {}),
        ...(event.refused !== undefined ? { refused: event.refused } : {}),
        ...(hasErrors(outcome.plan.diagnostics)
          ? { held: 'the plan has errors: no copy is written until they are fixed' }
          : {}),
        sql: config.livePreview.sql,
        sweep: {
          now: run.now(),
          ttlMs: config.livePreview.ttlMs,
          ...(event.isClosed ? { isClosed: event.isClosed } : {})
        }
      }
    )
    // A run that neither wrote nor swept anything has nothing to say of it.
    if (section.pullRequest === undefined && section.swept.length === 0 && section.notWritten === undefined)
      continue
    outcome.plan.livePreview = section
    run.log.info(
      `Live preview: ${section.copies.length} copy(ies), ${section.swept.length} swept, ${section.requests} request(s)`
    )
  }
}

/**
 * A plan of one stack gets its apply section (saved-plan.ts), so `apply --plan` can apply it as recorded;
 * or the log says why it has none. `liveAsRead` is the live state's digest, taken before planning.
 */
function recordApplySection(
  config: Config<OnlineCommand>,
  { stack, settings, outcome }: PlannedStack,
  liveAsRead: string,
  queried: boolean,
  log: Logger
): void {
  // Query findings come from this run's queries, not from planning: a plan with them is planned again.
  const section = queried
    ? 'check-queries found something'
    : applySectionOf({
        config,
        settings,
        manifests: stack.manifests,
        planRules: stack.planRules,
        live: liveAsRead,
        outcome,
        kinds: KINDS
      })
  if (typeof section === 'string') log.debug(`the plan has no apply section: ${section}`)
  else outcome.plan.apply = section
}

/** How an `apply --plan` of one stack goes on: applied as recorded, or planned again from this read. */
export type SavedApply =
  { applied: OnlineResult } | { planAgain: { read: LiveRead; loaded: Promise<CheckedManifests> } }

/**
 * `apply --plan` of one stack: when the saved plan's apply section holds and nothing it was made from has
 * changed, its changes are applied as recorded, without loading the manifests or planning (saved-plan.ts
 * says why that is exactly as strict as planning again). Otherwise the run plans again as before, from
 * the live read started here and the manifests `load` reads.
 */
export async function applySavedPlan(
  config: Config<'apply'>,
  deps: RunDependencies,
  load: () => Promise<CheckedManifests>
): Promise<SavedApply> {
  const log = deps.log ?? silentLogger
  let loading: Promise<CheckedManifests> | undefined
  const loaded = () => (loading ??= load())
  const manifests = () => loaded().then(c => c.manifests)
  const planAgain = (why: string, read: LiveRead): SavedApply => {
    log.info(`The saved plan is checked by planning again: ${why}`)
    return { planAgain: { read, loaded: loaded() } }
  }
  const sealed = sealedPlan(await readSavedPlan(config.savedPlan!, config.cwd, config.auth), config)
  if (typeof sealed === 'string')
    return planAgain(
      sealed,
      startLiveRead(
        config,
        deps,
        manifests().then(m => [m])
      )
    )
  const settings = planSettings(config, { name: config.stack, prune: config.prune, siblings: [] })
  const { inputs, read } = startSavedRead(config, deps, sealed, settings, manifests)
  const why = await inputs
  if (why !== undefined) return planAgain(why, read)
  let live: LiveState
  try {
    live = await read.live
  } catch {
    // Reported as before, by the run that plans again.
    return planAgain('the live state could not be read', read)
  }
  settings.managedPrefix = read.api.prefix
  if (settings.managedPrefix !== sealed.plan.managedPrefix || liveDigest(live) !== sealed.plan.apply.live)
    return planAgain('the live state changed since the plan', read)
  const restored = restoreOutcome(sealed, live, settings, KINDS)
  if (typeof restored === 'string') return planAgain(restored, read)

  try {
    log.info(
      `Read live state in ${read.api.stats.requests} request(s); the saved plan holds for it and for the manifests: applied as recorded`
    )
    const { apply: _section, ...rest } = sealed.plan
    const plan: Plan = {
      ...rest,
      command: config.command,
      createdAt: (deps.now ?? (() => new Date()))().toISOString()
    }
    // What writePlan would write of this plan: the saved text with this run's time and command.
    const planFile = config.planPath
    await mkdir(path.dirname(planFile), { recursive: true })
    await writeFile(planFile, appliedPlanText(sealed.text, plan.createdAt, plan.command))
    const outcome = await finishStack(
      config,
      {
        // The manifests' own diagnostics are the plan's of the validate stage (the plan holds them first).
        stack: {
          name: config.stack,
          manifests: { diagnostics: plan.diagnostics.filter(d => d.stage === 'validate') }
        },
        settings,
        outcome: { ...restored.outcome, plan }
      },
      { api: read.api, log, planFile, deps, many: false, operations: restored.operations, live }
    )
    return { applied: { diagnostics: [], stacks: [outcome], planFile } }
  } finally {
    await read.api.close()
  }
}

/**
 * The live read of an `apply --plan`, started as the manifest files are digested: it reads what the saved
 * plan read while the plan's inputs are those of now (so the live digest compares), else what the manifests
 * of now ask (`manifests` loads them then). `inputs` says why the plan's inputs changed, if they did.
 */
function startSavedRead(
  config: Config<'apply'>,
  deps: RunDependencies,
  sealed: Sealed,
  settings: PlanSettings,
  manifests: () => Promise<ManifestSet>
): { inputs: Promise<string | undefined>; read: LiveRead } {
  const inputs = manifestDigests(config).then(files =>
    typeof files === 'string'
      ? files
      : inputsDigest(config, settings, files) === sealed.plan.apply.inputs
        ? undefined
        : 'the manifest files, the variables or the settings changed since the plan'
  )
  // The service is read when the saved plan has one, if its manifests are those of now; else as they say.
  const service = inputs.then(why =>
    why === undefined ? sealed.readsService : manifests().then(m => readsService(config, [m]))
  )
  // Whether to ask if dashboards can be patched: as the plan asked (it had dashboard manifests), so the live
  // digest compares; as the manifests of now say when they changed.
  const dashboardPatch = inputs.then(why =>
    why === undefined
      ? config.mode === 'self-hosted' &&
        sealed.plan.changes.some(c => c.kind === 'Dashboard' && c.action !== 'delete')
      : manifests().then(m => asksDashboardPatch(config, [m]))
  )
  // The team: as the plan read it (it had TeamMember changes), or as the manifests of now say.
  const team = inputs.then(why =>
    why === undefined
      ? config.mode === 'self-hosted' && sealed.plan.changes.some(c => c.kind === 'TeamMember')
      : manifests().then(m => readsTeam(config, [m]))
  )
  // The roles: as the plan read them (it had Role changes), or as the manifests of now say.
  const roles = inputs.then(why =>
    why === undefined
      ? config.mode === 'managed' && sealed.plan.changes.some(c => c.kind === 'Role')
      : manifests().then(m => readsRoles(config, [m]))
  )
  return { inputs, read: startRead(config, deps, service, dashboardPatch, team, roles) }
}

const FILES_AT_ONCE = 32

/** Each manifest file's textDigest by path, found and read as loadManifests does; or why not. */
async function manifestDigests(config: Config): Promise<Map<string, string> | string> {
  const found = await findManifestFiles(config.manifests, config.cwd)
  if (found.diagnostics.length > 0) return 'the manifest files cannot all be found'
  const digests = new Map<string, string>()
  // A few files at a time: thousands of files opened at once would run out of file descriptors.
  for (let i = 0; i < found.files.length; i += FILES_AT_ONCE) {
    const batch = found.files.slice(i, i + FILES_AT_ONCE)
    const read = await Promise.all(batch.map(f => readManifestFile(f, config.cwd)))
    for (const [j, r] of read.entries()) {
      if (!r.file || r.diagnostics.length > 0) return 'a manifest file cannot be read'
      digests.set(batch[j]!, textDigest(r.file.text))
    }
  }
  return digests
}

/**
 * What a stack's plan-time policy rules read besides its plan: the pull request's labels (from the entry
 * point), check-queries' verdict on each alert, and the names other stacks manage (from the live ownership
 * tags, and from the other stacks of this run).
 */
function planPolicyInput(
  config: Config<OnlineCommand>,
  stack: StackToPlan,
  all: readonly StackToPlan[],
  live: LiveState,
  plan: Plan,
  labels: PullRequestLabels | undefined
): PlanPolicyInput {
  const own = ownershipTag(stack.name)
  const dashboards: Record<string, string[]> = {}
  const add = (name: string, other: string) => {
    const list = (dashboards[name] ??= [])
    if (!list.includes(other)) list.push(other)
  }
  for (const d of live.Dashboard) {
    if (d.tags.includes(own)) continue
    for (const tag of d.tags) if (isOwnershipTag(tag)) add(d.name, stackOfTag(tag))
  }
  for (const other of all)
    if (other !== stack) for (const d of other.manifests.specs.Dashboard) add(d.spec.name, other.name)
  const alerts = plan.preview?.alerts
  return {
    ...(labels ? { labels } : {}),
    ...(alerts
      ? { queries: new Map(alerts.map(a => [a.alert, { status: a.status, reason: a.reason }])) }
      : {
          queriesUnchecked:
            config.command !== 'plan'
              ? `check-queries runs in plan only, not in ${config.command}`
              : 'check-queries is off'
        }),
    elsewhere: { Dashboard: dashboards }
  }
}

/** What an apply of the plan sends, with the dry runs server-validation sends before it (apply/requests.ts). */
function estimateOf(config: Config<OnlineCommand>, outcome: PlanOutcome): Estimate {
  return applyEstimate(outcome.plan.changes, {
    concurrency: config.concurrency,
    rateLimit: config.rateLimit,
    dryRuns: config.serverValidation ? outcome.planned.filter(sentToDryRun).length : 0
  })
}

export function planSettings(
  config: Pick<Config, 'mode' | 'serviceGate' | 'organizationId' | 'serviceId' | 'auth' | 'maskEmails'>,
  stack: Pick<StackToPlan, 'name' | 'prune' | 'siblings'>
): PlanSettings {
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
        : undefined,
    fingerprintKey: FingerprintKey.fromAuth(config.auth),
    maskEmails: config.maskEmails
  }
}

/** The plan JSON, secrets scrubbed (`scrub`, when there are any), its apply section sealed with `auth`. */
async function writePlan(
  planPath: string,
  plan: PlanFile,
  scrub: ((text: string) => string) | undefined,
  auth: Auth
): Promise<string> {
  await mkdir(path.dirname(planPath), { recursive: true })
  const scrubbed = scrub ? redactDeep(plan, scrub) : plan
  // In parts, never joined (sealedPlanParts says why).
  const parts =
    'stacks' in scrubbed || !scrubbed.apply
      ? [JSON.stringify(scrubbed, null, 2), '\n']
      : sealedPlanParts({ ...scrubbed, apply: scrubbed.apply }, auth)
  await writeFile(planPath, parts)
  return planPath
}
