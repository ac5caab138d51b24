/**
 * `sync`, the CLI's and the action's: each stack's manifests planned against one read of the live state, the
 * files rewritten to say what the server holds (export/sync.ts), and that checked: the written files must
 * validate, and their plan is what the report calls "after merging". With `write`, the files are written (never
 * through a link, never over a file that changed since it was read); without, only the outcome is returned.
 */
import { readFile, unlink } from 'node:fs/promises'
import path from 'node:path'
import { createApi } from '../api/client.js'
import { folderOf, readStackLayout, selectStacks, type StackDefinition } from '../config/stack-layout.js'
import type { Config } from '../config/types.js'
import { diagnostic, hasErrors, type Diagnostic } from '../diagnostics.js'
import { errorMessage } from '../error-message.js'
import { syncManifests, type SyncedFile } from '../export/sync.js'
import { lstatOrNothing, writeNoFollow } from '../export/write.js'
import type { LiveState } from '../kinds/kind.js'
import { ownershipTag } from '../kinds/ownership.js'
import { readLiveState } from '../live/read.js'
import { silentLogger } from '../log.js'
import { findManifestFiles } from '../manifest/files.js'
import { loadManifests, validateTexts, type ManifestSet } from '../manifest/load.js'
import type { SyncStackReport } from '../plan/sync.js'
import { computePlan, type PlanOutcome } from '../planner/planner.js'
import { asksDashboardPatch, readsRoles, readsService, readsTeam } from './live-read.js'
import { planSettings } from './online.js'
import type { RunDependencies } from './types.js'

export interface SyncedStack extends SyncStackReport {
  /** The stack's folder (`.`: the workspace), where a record no manifest declares gets its file. */
  folder: string
  diagnostics: Diagnostic[]
  /** Files written (with `write`), as the outcome lists them. */
  written: boolean
}

export interface SyncResult {
  stacks: SyncedStack[]
  /** Problems of the run as a whole (the live state could not be read, the stack layout). */
  diagnostics: Diagnostic[]
  exitCode: number
}

export async function runSync(
  config: Config<'sync'>,
  options: { write: boolean; deps?: RunDependencies; now?: () => Date }
): Promise<SyncResult> {
  const log = options.deps?.log ?? silentLogger
  const now = options.now ?? (() => new Date())
  const found = await stacksOf(config)
  if (hasErrors(found.diagnostics)) return { stacks: [], diagnostics: found.diagnostics, exitCode: 1 }
  const loaded = await Promise.all(found.stacks.map(s => loadStack(config, s)))
  const broken = loaded.flatMap(l => l.manifests.diagnostics.filter(d => d.severity === 'error'))
  if (broken.length > 0)
    return {
      stacks: [],
      diagnostics: [
        ...broken,
        diagnostic('validate', 'error', 'sync reads manifests that validate: fix the errors above first')
      ],
      exitCode: 1
    }
  const api = createApi(config, { log })
  let live: LiveState
  try {
    const sets = loaded.map(l => l.manifests)
    live = await readLiveState(api, {
      service: readsService(config, sets),
      dashboardPatch: asksDashboardPatch(config, sets),
      team: readsTeam(config, sets),
      roles: readsRoles(config, sets)
    })
  } catch (e) {
    await api.close()
    return {
      stacks: [],
      diagnostics: [diagnostic('plan', 'error', `could not read the live state: ${errorMessage(e)}`)],
      exitCode: 1
    }
  }
  await api.close()
  log.info(`Read live state in ${api.stats.requests} request(s)`)
  const stacks: SyncedStack[] = []
  for (const l of loaded) stacks.push(await syncStack(config, l, live, now, options.write, found.stacks))
  const failed = stacks.some(s => hasErrors(s.diagnostics))
  return { stacks, diagnostics: found.diagnostics, exitCode: failed ? 1 : 0 }
}

interface LoadedStack {
  definition: StackDefinition
  manifests: ManifestSet
  texts: Map<string, string>
}

async function syncStack(
  config: Config<'sync'>,
  stack: LoadedStack,
  live: LiveState,
  now: () => Date,
  write: boolean,
  all: readonly StackDefinition[]
): Promise<SyncedStack> {
  const { definition } = stack
  const settings = planSettings(config, {
    name: definition.name,
    prune: definition.prune ?? config.prune,
    siblings: all.filter(s => s !== definition).map(s => s.name)
  })
  const vars = { ...definition.vars, ...config.vars }
  const plan = (manifests: ManifestSet): PlanOutcome =>
    computePlan({ command: 'plan', settings, manifests, live, now: now() })
  const first = plan(stack.manifests)
  const diagnostics = first.plan.diagnostics.filter(d => d.severity === 'error')
  const base = {
    stack: definition.name,
    folder: definition.folder,
    written: false,
    plan: first.plan,
    readAt: first.plan.createdAt
  }
  if (diagnostics.length > 0)
    return { ...base, outcome: { files: [], records: [], left: [] }, after: [], diagnostics }
  const textsWith = (changed: ReadonlyMap<string, string>) =>
    [...stack.texts].flatMap(([p, text]) => {
      const t = changed.has(p) ? changed.get(p)! : text
      return t === '' ? [] : [{ path: p, text: t }]
    })
  const outcome = syncManifests({
    files: [...stack.texts].map(([p, text]) => ({ path: p, text })),
    changes: first.plan.changes,
    live,
    ownershipTag: ownershipTag(definition.name),
    registry: first.registry,
    mode: config.mode,
    folder: definition.folder,
    replan: texts => {
      const manifests = validateTexts(textsWith(texts), config.mode, vars, config.secretVars)
      return hasErrors(manifests.diagnostics) ? undefined : plan(manifests).plan.changes
    }
  })
  // The files as sync leaves them must validate; their plan is what is left after merging.
  const finalTexts = new Map(outcome.files.map(f => [f.path, f.after ?? '']))
  const checked = validateTexts(
    [
      ...textsWith(finalTexts),
      ...outcome.files
        .filter(f => f.before === null && f.after !== null)
        .map(f => ({ path: f.path, text: f.after! }))
    ],
    config.mode,
    vars,
    config.secretVars
  )
  const invalid = checked.diagnostics.filter(d => d.severity === 'error')
  if (invalid.length > 0)
    return {
      ...base,
      outcome,
      after: [],
      diagnostics: [
        ...invalid,
        diagnostic(
          'validate',
          'error',
          `stack "${definition.name}": the manifests sync would write do not validate (above): nothing was written. This is a defect of obsdeploy; please report it`
        )
      ]
    }
  const after = plan(checked).plan.changes.filter(c => c.action !== 'noop')
  if (!write || outcome.files.length === 0) return { ...base, outcome, after, diagnostics: [] }
  const problems = await writeSynced(config.cwd, outcome.files)
  return { ...base, outcome, after, diagnostics: problems, written: problems.length === 0 }
}

/** The stacks: each folder with a stack.yaml (with `stacks`), else one of every matched file. */
async function stacksOf(
  config: Config<'sync'>
): Promise<{ stacks: StackDefinition[]; diagnostics: Diagnostic[] }> {
  if (config.stacks) {
    const layout = await readStackLayout(config.manifests, config.cwd)
    const selected = selectStacks(layout, { only: config.stacks.only })
    return { stacks: selected.stacks, diagnostics: [...layout.diagnostics, ...selected.diagnostics] }
  }
  const found = await findManifestFiles(config.manifests, config.cwd)
  const folders = found.files.map(folderOf)
  const diagnostics = [...found.diagnostics]
  if (found.files.length === 0)
    diagnostics.push(
      diagnostic(
        'config',
        'error',
        `no manifest files match ${config.manifests.map(p => `'${p}'`).join(', ')}: sync rewrites the manifests a stack has, and there are none`
      )
    )
  return {
    stacks: [
      {
        name: config.stack,
        folder: commonFolder(folders),
        file: '',
        vars: {},
        manifests: found.files
      }
    ],
    diagnostics
  }
}

async function loadStack(config: Config<'sync'>, definition: StackDefinition): Promise<LoadedStack> {
  const manifests = await loadManifests({
    patterns: [],
    files: definition.manifests,
    cwd: config.cwd,
    mode: config.mode,
    vars: { ...definition.vars, ...config.vars },
    secrets: config.secretVars
  })
  const texts = new Map<string, string>()
  for (const file of definition.manifests)
    texts.set(file, await readFile(path.resolve(config.cwd, file), 'utf8'))
  return { definition, manifests, texts }
}

/** The deepest folder holding every file (`.`: the workspace). */
function commonFolder(folders: readonly string[]): string {
  if (folders.length === 0) return '.'
  let common = folders[0]!.split('/')
  for (const f of folders.slice(1)) {
    const parts = f.split('/')
    let n = 0
    while (n < common.length && common[n] === parts[n]) n++
    common = common.slice(0, n)
  }
  return common.join('/') || '.'
}

/**
 * Writes what sync decided: a file is rewritten only while it still holds the text sync read (an edit since is
 * kept, and said), never through a symbolic link; a new file never replaces one; a file with no document left is
 * removed.
 */
export async function writeSynced(cwd: string, files: readonly SyncedFile[]): Promise<Diagnostic[]> {
  const problems: Diagnostic[] = []
  const refuse = (file: string, why: string) =>
    problems.push(diagnostic('apply', 'error', `${file}: ${why}; not written`, { file, line: 1, column: 1 }))
  for (const f of files) {
    const at = path.resolve(cwd, f.path)
    try {
      const info = await lstatOrNothing(at)
      if (info?.isSymbolicLink()) {
        refuse(f.path, 'is a symbolic link: sync never writes through a link')
        continue
      }
      if (f.before === null) {
        if (info) {
          refuse(f.path, 'exists already: sync adds a record only in a new file')
          continue
        }
      } else if (!info || (await readFile(at, 'utf8')) !== f.before) {
        refuse(f.path, 'changed since sync read it')
        continue
      }
      if (f.after === null) await unlink(at)
      else await writeNoFollow(at, f.after, f.before === null)
    } catch (e) {
      refuse(f.path, `cannot be written: ${errorMessage(e)}`)
    }
  }
  return problems
}
