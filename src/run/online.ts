/**
 * The stages that need the API: read the live state, plan, check queries, apply. run() loads this
 * module with one import once the manifests are valid, so `validate` never loads the HTTP client.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { createApi, type ObservabilityApi } from '../api/client.js'
import { applyPlan, type ApplyInput } from '../apply/apply.js'
import { applyEstimate } from '../apply/requests.js'
import type { ApplyResult } from '../apply/types.js'
import type { Auth, Config, RunCommand } from '../config/types.js'
import { diagnostic, hasErrors, type Diagnostic } from '../diagnostics.js'
import { errorMessage } from '../error-message.js'
import { KINDS } from '../kinds/index.js'
import { FingerprintKey } from '../kinds/fingerprint-key.js'
import type { LiveState, PlanSettings } from '../kinds/kind.js'
import { isOwnershipTag, ownershipTag, stackOfTag } from '../kinds/ownership.js'
import { checkQueries } from '../live/check-queries.js'
import { readLiveState } from '../live/read.js'
import { sentToDryRun, validateOnServer } from '../live/server-validation.js'
import { redactDeep, redactor, SECRET_VAR_MIN_LENGTH, silentLogger, type Logger } from '../log.js'
import { findManifestFiles, readManifestFile, textDigest } from '../manifest/files.js'
import type { ManifestSet } from '../manifest/load.js'
import {
  countChanges,
  ESTIMATE_VERSION,
  isActionable,
  type Estimate,
  type PlanFile,
  type Plan
} from '../plan/types.js'
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
import { collectBeforePlanning } from './heap.js'
import {
  appliedPlanText,
  applySectionOf,
  compareWithSavedPlan,
  inputsDigest,
  liveDigest,
  readSavedPlan,
  restoreOutcome,
  sealedPlan,
  savedPlanFor,
  sealedPlanParts,
  type SavedForStack
} from './saved-plan.js'
import { EMPTY_OUTPUTS, type RunDependencies, type RunOutputs } from './types.js'

/** The commands that go online: validate stops before. */
export type OnlineCommand = Exclude<RunCommand, 'validate'>

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
    // A plan of one stack records the live state it was made from for `apply --plan` (saved-plan.ts):
    // digested before planning, as read.
    const liveAsRead =
      config.command === 'plan' && !config.stacks && stacks.length === 1 ? liveDigest(live) : undefined
    // The garbage of loading and reading goes before planning adds its own (heap.ts says why).
    collectBeforePlanning(
      live.dashboards.length +
        live.alerts.length +
        stacks.reduce((n, s) => n + s.manifests.dashboards.length + s.manifests.alerts.length, 0)
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
    const found = plans.map(p => p.diagnostics.length)
    // How long an apply of each plan takes at this run's pace: the plan says it, the apply counts it down.
    if (config.command === 'plan' || config.command === 'apply')
      for (const { outcome } of planned) outcome.plan.estimate = estimateOf(config, outcome)
    // What the report pictures (report/preview/): layouts from the planned changes, data from the query check.
    if (config.command === 'plan')
      for (const { outcome } of planned)
        outcome.plan.preview = previewOf(outcome.planned, config.checkQueries)
    if (config.checkQueries && config.command === 'plan') {
      for (const { outcome } of planned) {
        // Query findings are plan diagnostics: in the plan JSON, and a query the server refuses fails the plan.
        outcome.plan.diagnostics.push(
          ...(await checkQueries(api, outcome.planned, {
            mode: config.mode,
            now: now(),
            log,
            preview: outcome.plan.preview
          }))
        )
      }
    }
    // Query findings come from this run's queries, not from planning: a plan with them is planned again.
    const queried =
      liveAsRead !== undefined &&
      (plans[0]!.diagnostics.length > found[0]! || plans[0]!.changes.some(c => c.evidence))
    // Policy rules over the plan (on: plan), after the queries they may read: their errors fail the plan,
    // so nothing is applied.
    for (const { stack, outcome } of planned) {
      if (!stack.planRules) continue
      const labels = deps.labels && readsLabels(stack.planRules) ? await deps.labels() : undefined
      outcome.plan.diagnostics.push(
        ...checkPlanPolicies(
          stack.planRules,
          outcome.plan,
          outcome.planned,
          planPolicyInput(config, stack, stacks, live, outcome.plan, labels)
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
    if (liveAsRead !== undefined) {
      const [{ stack, settings, outcome }] = planned as [(typeof planned)[number]]
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
  const read = startRead(config, deps, service, dashboardPatch, team)
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
  return startRead(
    config,
    deps,
    manifests.then(sets => readsService(config, sets)),
    manifests.then(sets => asksDashboardPatch(config, sets)),
    manifests.then(sets => readsTeam(config, sets))
  )
}

/** The managed service is read when a manifest sets service settings. */
const readsService = (config: Config, sets: readonly ManifestSet[]): boolean =>
  config.mode === 'managed' && sets.some(m => m.services.length > 0)

/** Whether dashboards can be patched is asked (self-hosted) when a manifest declares a dashboard. */
const asksDashboardPatch = (config: Config, sets: readonly ManifestSet[]): boolean =>
  config.mode === 'self-hosted' && sets.some(m => m.dashboards.length > 0)

/** The team is read (self-hosted) when a manifest declares a team member (or a registry lists one: read.ts). */
const readsTeam = (config: Config, sets: readonly ManifestSet[]): boolean =>
  config.mode === 'self-hosted' && sets.some(m => (m.teamMembers?.length ?? 0) > 0)

/**
 * startLiveRead, told whether to read the managed service (`service`) and to ask whether dashboards can be
 * patched (`dashboardPatch`) once that is known.
 */
function startRead(
  config: Config,
  deps: RunDependencies,
  service: Promise<boolean>,
  dashboardPatch: Promise<boolean> = Promise.resolve(false),
  team: Promise<boolean> = Promise.resolve(false)
): LiveRead {
  const api = deps.api ? deps.api(config) : createApi(config, { log: deps.log ?? silentLogger })
  const stop = new AbortController()
  const live = readLiveState(api, { service, dashboardPatch, team, signal: stop.signal })
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
  for (const d of live.dashboards) {
    if (d.tags.includes(own)) continue
    for (const tag of d.tags) if (isOwnershipTag(tag)) add(d.name, stackOfTag(tag))
  }
  for (const other of all)
    if (other !== stack) for (const d of other.manifests.dashboards) add(d.spec.name, other.name)
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

function planSettings(
  config: Config<OnlineCommand>,
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

/** A stack's plan carried through: refused on errors, returned for plan and drift, or applied. */
async function finishStack(
  config: Config<OnlineCommand>,
  {
    stack,
    settings,
    outcome
  }: {
    stack: Pick<StackToPlan, 'name'> & { manifests: Pick<ManifestSet, 'diagnostics'> }
    settings: PlanSettings
    outcome: PlanOutcome
  },
  run: {
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
    ...(run.operations ? { operations: run.operations } : {}),
    before: run.live,
    ...(run.deps.pacing ? { onPacing: run.deps.pacing } : {}),
    // A plan file older than estimates has none to count down.
    ...(plan.estimate?.version === ESTIMATE_VERSION ? { countdown: { pace: config.rateLimit } } : {}),
    // A create that timed out may commit up to about as late again: wait that long before looking for copies.
    settleMs: 2 * config.requestTimeoutMs,
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
  for (const copy of apply.copies ?? []) {
    const at = plan.changes.find(c => c.address === copy.address)?.source
    diagnostics.push(diagnostic('apply', 'error', copy.message, at))
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
