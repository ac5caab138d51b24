/**
 * A run over the `stacks` layout: the repository's stacks are read, the ones to run selected (named, or
 * changed by the pull request, or all), each stack's manifests loaded and validated with its own
 * variables, and the valid ones planned together from one read of the live state (online.ts). Each stack
 * stands alone: one stack's invalid manifest or failed apply never holds back another's, and the report
 * says stack by stack what happened. A problem of the layout itself (a broken stack.yaml, a manifest of no
 * stack, two stacks of one name) stops the run before anything is planned: ownership would be in doubt.
 */
import {
  contains,
  readStackLayout,
  selectStacks,
  type StackDefinition,
  type StackLayout
} from '../config/stack-layout.js'
import type { Config } from '../config/types.js'
import { diagnostic, hasErrors, type Diagnostic } from '../diagnostics.js'
import { silentLogger } from '../log.js'
import { loadManifests } from '../manifest/load.js'
import type { ParsedDocument } from '../manifest/yaml.js'
import { checkPolicies, type CheckedManifests } from '../policy/check.js'
import type { EnforcedPolicies } from '../policy/sources.js'
import { baseOfStack, readEnforced } from './enforced.js'
import { loadWithPolicies } from './load.js'
import { startEarly } from './early.js'
import {
  EMPTY_OUTPUTS,
  type RunDependencies,
  type RunOutputs,
  type RunResult,
  type StackOutcome,
  type StackResult
} from './types.js'

export async function runStacks(
  config: Config,
  stacks: NonNullable<Config['stacks']>,
  deps: RunDependencies
): Promise<RunResult> {
  const log = deps.log ?? silentLogger
  const layout = await readStackLayout(config.manifests, config.cwd)
  const selection = selectStacks(layout, { only: stacks.only, changed: deps.changed })
  const own: Diagnostic[] = [...layout.diagnostics, ...selection.diagnostics]
  const chosen = new Set(selection.stacks)
  const summary = {
    reason: selection.reason,
    skipped: layout.stacks.filter(s => !chosen.has(s)).map(s => s.name),
    diagnostics: own
  }
  if (hasErrors(own)) {
    return {
      exitCode: 1,
      diagnostics: [...own],
      outputs: { ...EMPTY_OUTPUTS },
      stacks: { ...summary, results: [] }
    }
  }
  log.info(
    `Stacks: ${selection.stacks.map(s => s.name).join(', ') || 'none'} (${selection.reason})${summary.skipped.length > 0 ? `; not run: ${summary.skipped.join(', ')}` : ''}`
  )
  const matrix = JSON.stringify(selection.stacks.map(s => ({ stack: s.name, folder: s.folder })))

  const loading = loadStacks(config, deps, layout, selection.stacks)
  // The live read goes out while the stacks load (validate never loads the client).
  const early =
    config.command === 'validate' || selection.stacks.length === 0
      ? undefined
      : startEarly(
          config,
          deps,
          loading.then(l => plannable(l.loaded).map(s => s.manifests))
        )
  early?.catch(() => undefined) // awaited below; never unhandled should loading throw first
  const { loaded, diagnostics } = await loading
  own.push(...diagnostics)
  const offline = (l: LoadedStack): StackOutcome => ({
    stack: l.stack.name,
    exitCode: hasErrors(l.manifests.diagnostics) ? 1 : 0,
    diagnostics: [...l.manifests.diagnostics],
    outputs: { ...EMPTY_OUTPUTS }
  })
  const online = await planTogether(config, deps, layout, plannable(loaded), early)
  own.push(...online.diagnostics)
  const planFile = online.planFile
  const results: StackResult[] = loaded.map(l => ({
    ...(online.outcomes.get(l.stack) ?? offline(l)),
    stack: l.stack.name,
    folder: l.stack.folder,
    ...(l.review ? { policies: l.review } : {})
  }))
  return {
    exitCode: hasErrors(own) || results.some(r => r.exitCode !== 0) ? 1 : 0,
    diagnostics: [...own, ...results.flatMap(r => r.diagnostics)],
    outputs: { ...sumOutputs(results.map(r => r.outputs)), planFile: planFile ?? '', matrix },
    ...(planFile ? { planFile } : {}),
    stacks: { ...summary, results }
  }
}

/** A stack's manifests as loaded and checked by its policies. */
type LoadedStack = CheckedManifests & { stack: StackDefinition }

/**
 * The selected stacks' manifests, each loaded with its variables and checked by the policies that hold in
 * it (its own, the repository's, the enforced ones); and the problems of those policies, which are the run's.
 */
async function loadStacks(
  config: Config,
  deps: RunDependencies,
  layout: StackLayout,
  selected: readonly StackDefinition[]
): Promise<{ loaded: LoadedStack[]; diagnostics: Diagnostic[] }> {
  const enforced = readEnforced(deps, config.vars)
  const loaded: LoadedStack[] = []
  const repository = await repositoryPolicies(layout.policies, config)
  const rules = await enforced
  const diagnostics = [...repository.diagnostics, ...(rules?.diagnostics ?? [])]
  // A stack is not planned without the rules that hold in it: a broken repository policy or policy source
  // holds back all.
  const brokenPolicies = hasErrors(repository.diagnostics) || hasErrors(rules?.diagnostics ?? [])
  for (const stack of selected) {
    // The base commit's files of this stack's folder, and those outside every stack's (the repository's).
    const inStack = (file: string) =>
      contains(stack.folder, file) || !layout.stacks.some(s => contains(s.folder, file))
    const checked = await loadStack(
      stack,
      config,
      repository.policies,
      rules && { base: baseOfStack(rules.base, inStack), central: rules.central }
    )
    if (brokenPolicies)
      checked.manifests.diagnostics.push(
        diagnostic(
          'validate',
          'error',
          `stack "${stack.name}" is not planned: ${hasErrors(repository.diagnostics) ? `the repository's policies (${layout.policies.join(', ')}) have errors` : 'its policy source could not be read'}`
        )
      )
    loaded.push({ ...checked, stack })
  }
  return { loaded, diagnostics }
}

/** The stacks that may be planned: those whose manifests and policies have no errors. */
const plannable = (loaded: readonly LoadedStack[]) => loaded.filter(l => !hasErrors(l.manifests.diagnostics))

/**
 * The plannable stacks planned (and applied) together, from the live read started early (runOnline); the
 * read dropped when there is none to plan. Validate starts no read, and plans nothing.
 */
async function planTogether(
  config: Config,
  deps: RunDependencies,
  layout: StackLayout,
  planned: readonly LoadedStack[],
  early: ReturnType<typeof startEarly> | undefined
): Promise<{ outcomes: Map<StackDefinition, StackOutcome>; planFile?: string; diagnostics: Diagnostic[] }> {
  const outcomes = new Map<StackDefinition, StackOutcome>()
  if (early === undefined || config.command === 'validate') return { outcomes, diagnostics: [] }
  if (planned.length === 0) {
    // No stack to plan: the read is dropped.
    await early.then(
      e => e.read.abandon(),
      () => undefined
    )
    return { outcomes, diagnostics: [] }
  }
  const { runOnline, read } = await early
  const online = await runOnline(
    { ...config, command: config.command },
    planned.map(({ stack, manifests, planRules }) => ({
      name: stack.name,
      manifests,
      planRules,
      prune: stack.prune ?? config.prune,
      siblings: layout.stacks.filter(s => s !== stack).map(s => s.name)
    })),
    deps,
    read
  )
  planned.forEach((l, i) => outcomes.set(l.stack, online.stacks[i]!))
  return { outcomes, planFile: online.planFile, diagnostics: online.diagnostics }
}

/**
 * The repository's policies (files outside every stack's folder that hold only Policy documents), read
 * with the run's variables. Their own problems (a rule that is not valid CEL) are the run's, said once.
 */
async function repositoryPolicies(
  files: readonly string[],
  config: Config
): Promise<{ policies: ParsedDocument[]; diagnostics: Diagnostic[] }> {
  if (files.length === 0) return { policies: [], diagnostics: [] }
  const set = await loadManifests({
    patterns: [],
    files,
    cwd: config.cwd,
    mode: config.mode,
    vars: config.vars,
    secrets: config.secretVars,
    secretValues: config.command === 'validate' ? 'optional' : 'required'
  })
  const policies = set.policies ?? []
  // No stack is named: the rules scoped to stacks are checked for their CEL, and run in their stacks.
  const { manifests } = await checkPolicies(set, { stack: '' })
  return { policies, diagnostics: manifests.diagnostics }
}

/** A stack's manifests, validated with its variables; the run's `vars` override the stack's own. */
async function loadStack(
  stack: StackDefinition,
  config: Config,
  repository: readonly ParsedDocument[],
  enforced: EnforcedPolicies | undefined
): Promise<CheckedManifests> {
  const checked = await loadWithPolicies({
    stack: stack.name,
    repository,
    ...(enforced ? { enforced: Promise.resolve(enforced) } : {}),
    patterns: [],
    files: stack.manifests,
    cwd: config.cwd,
    mode: config.mode,
    vars: { ...stack.vars, ...config.vars },
    secrets: config.secretVars,
    secretValues: config.command === 'validate' ? 'optional' : 'required'
  })
  if (stack.manifests.length === 0) {
    // As with no manifests at all: an empty desired state would read as "delete everything it owns".
    checked.manifests.diagnostics.push(
      diagnostic(
        'validate',
        'error',
        `stack "${stack.name}" has no manifests in ${stack.folder}: refused rather than planned as empty, which would delete everything it owns`,
        { file: stack.file, line: 1, column: 1 }
      )
    )
  }
  return checked
}

function sumOutputs(all: readonly RunOutputs[]): RunOutputs {
  return all.reduce(
    (sum, o) => ({
      ...sum,
      hasChanges: sum.hasChanges || o.hasChanges,
      creates: sum.creates + o.creates,
      updates: sum.updates + o.updates,
      deletes: sum.deletes + o.deletes
    }),
    { ...EMPTY_OUTPUTS }
  )
}
