/**
 * The `stacks` layout: many stacks in one repository. Among the files the `manifests` globs match, each
 * `stack.yaml` makes its folder a stack; the other files of that folder (subfolders included) are the
 * stack's manifests. Every manifest belongs to exactly one stack: a file outside every stack folder and a
 * stack folder inside another are errors, so which stack a file plans never depends on guesswork. The one
 * exception: a file outside the stacks that holds only `kind: Policy` documents is the repository's policy,
 * which holds in every stack.
 *
 * Which stacks a run plans (selectStacks): the ones named by the `stack` input; else, on a pull request,
 * the ones it changed; else all of them.
 */
import { diagnostic, type Diagnostic } from '../diagnostics.js'
import { findManifestFiles, readManifestFile } from '../manifest/files.js'
import { didYouMean } from '../manifest/issues.js'
import { parseYamlFile } from '../manifest/yaml.js'
import { isStackFile, readStackFile } from './stack-file.js'

export interface StackDefinition {
  name: string
  /** The stack's folder, relative to the workspace, `/`-separated (`.` for the workspace itself). */
  folder: string
  /** Its stack.yaml. */
  file: string
  vars: Record<string, unknown>
  /** The stack's own prune choice; the `prune` input when absent. */
  prune?: boolean
  /** Its manifest files: the matched files in its folder, stack.yaml aside. */
  manifests: string[]
}

export interface StackLayout {
  /** Every stack of the repository, by folder. */
  stacks: StackDefinition[]
  /**
   * Files outside every stack's folder that hold only `kind: Policy` documents: the repository's
   * policies, which hold in every stack (each rule's `stacks` still scopes it).
   */
  policies: string[]
  /** Problems of the layout itself: stack files, files without a stack, nesting, names. */
  diagnostics: Diagnostic[]
}

/** Reads the layout: the stack files among the matched files, and each stack's share of the rest. */
export async function readStackLayout(patterns: readonly string[], cwd: string): Promise<StackLayout> {
  const found = await findManifestFiles(patterns, cwd)
  const diagnostics = [...found.diagnostics]
  const stackFiles = found.files.filter(isStackFile)
  if (found.files.length > 0 && stackFiles.length === 0) {
    diagnostics.push(
      diagnostic(
        'config',
        'error',
        `stacks is on, but no stack.yaml is among the files matched by ${patterns.map(p => `'${p}'`).join(', ')}: add one to each stack's folder (\`name: <stack>\`), or turn stacks off`
      )
    )
  }
  const stacks: StackDefinition[] = []
  const names = new Map<string, string>()
  for (const file of stackFiles) {
    const read = await readStackFile(file, cwd)
    diagnostics.push(...read.diagnostics)
    if (!read.stack) continue
    const folder = folderOf(file)
    const outer = stackFiles.find(other => other !== file && contains(folderOf(other), folder))
    if (outer) {
      diagnostics.push(
        diagnostic(
          'validate',
          'error',
          `is inside the folder of the stack in ${outer}: stacks do not nest, because each manifest must belong to one stack. Move this folder beside that one, not inside it`,
          { file, line: 1, column: 1 }
        )
      )
      continue
    }
    const taken = names.get(read.stack.name)
    if (taken) {
      diagnostics.push(
        diagnostic(
          'validate',
          'error',
          `stack "${read.stack.name}" is already defined by ${taken}: each stack needs its own name, because the name is its ownership tag`,
          { ...read.nameAt, field: 'name' }
        )
      )
      continue
    }
    names.set(read.stack.name, file)
    stacks.push({
      name: read.stack.name,
      folder,
      file,
      vars: read.stack.vars ?? {},
      prune: read.stack.prune,
      manifests: []
    })
  }
  const nested = new Set(stackFiles.map(folderOf))
  const policies: string[] = []
  for (const file of found.files) {
    if (isStackFile(file)) continue
    const owner = stacks.find(s => contains(s.folder, file))
    if (owner) owner.manifests.push(file)
    else if (![...nested].some(folder => contains(folder, file))) {
      if (await holdsOnlyPolicies(file, cwd)) {
        policies.push(file)
        continue
      }
      diagnostics.push(
        diagnostic(
          'validate',
          'error',
          'belongs to no stack: with stacks on, every manifest lives in a folder with a stack.yaml (or below one). Move it into a stack, or add a stack.yaml to its folder',
          { file, line: 1, column: 1 }
        )
      )
    }
  }
  return { stacks: stacks.sort((a, b) => a.folder.localeCompare(b.folder)), policies, diagnostics }
}

/** Whether a file parses to `kind: Policy` documents only (its problems are reported when it is loaded). */
async function holdsOnlyPolicies(file: string, cwd: string): Promise<boolean> {
  const read = await readManifestFile(file, cwd)
  if (!read.file) return false
  const { documents } = parseYamlFile(file, read.file.text)
  return (
    documents.length > 0 &&
    documents.every(d => (d.value as { kind?: unknown } | null | undefined)?.kind === 'Policy')
  )
}

/** The folder of a `/`-separated path (`.` for a file at the top). */
export function folderOf(file: string): string {
  const slash = file.lastIndexOf('/')
  return slash < 0 ? '.' : file.slice(0, slash)
}

/** Whether `file` (a path relative to the workspace) lies in `folder` or below it. */
export function contains(folder: string, file: string): boolean {
  return folder === '.' || file.startsWith(`${folder}/`)
}

/**
 * Files whose change can change every stack's plan: the workflows and actions under .github/ hold the
 * run's inputs (vars, prune, the tool's version). A change there plans every stack.
 */
const SHARED = /^\.github\//

export interface ChangedFiles {
  /** Paths relative to the repository root; a rename lists both its old and its new path. */
  paths: readonly string[]
}

export interface StackSelection {
  stacks: StackDefinition[]
  /** Why these, in words for the report: "changed by the pull request", "named by the `stack` input". */
  reason: string
  diagnostics: Diagnostic[]
}

/**
 * The stacks a run plans. Named ones (the `stack` input, `--stack`) win; then, with the pull request's
 * changed files, the stacks whose folder holds a changed file, or all of them when a shared file changed;
 * otherwise (no pull request, or its files could not be listed) all of them. Unchanged stacks cost
 * nothing to leave out and nothing to plan: every stack shares one read of the live state.
 */
export function selectStacks(
  layout: StackLayout,
  options: { only?: readonly string[]; changed?: ChangedFiles }
): StackSelection {
  const all = layout.stacks
  if (options.only && options.only.length > 0) {
    const diagnostics: Diagnostic[] = []
    const chosen = new Set<StackDefinition>()
    for (const name of options.only) {
      const stack = all.find(s => s.name === name)
      if (stack) chosen.add(stack)
      else {
        const guess = didYouMean(
          name,
          all.map(s => s.name)
        )
        diagnostics.push(
          diagnostic(
            'config',
            'error',
            `stack: no stack is named "${name}"${guess ? ` (did you mean "${guess}"?)` : ''}; the stacks are ${all.map(s => s.name).join(', ') || 'none'}`
          )
        )
      }
    }
    return {
      stacks: all.filter(s => chosen.has(s)),
      reason: 'the stacks named by `stack`',
      diagnostics
    }
  }
  if (!options.changed) return { stacks: all, reason: 'all stacks', diagnostics: [] }
  const paths = options.changed.paths
  const shared = paths.find(p => SHARED.test(p) || layout.policies.includes(p))
  if (shared)
    return {
      stacks: all,
      reason: `all stacks: ${shared} changed, and it may change every plan`,
      diagnostics: []
    }
  const diagnostics: Diagnostic[] = []
  for (const gone of paths.filter(p => isStackFile(p) && !all.some(s => s.file === p))) {
    diagnostics.push(
      diagnostic(
        'config',
        'warning',
        `${gone} is no longer a stack file. Unless its stack moved to another folder (the same \`name\`), nothing plans that stack any more and its dashboards stay as they are: to delete them, remove its manifests with prune on first, and its stack.yaml once that is applied`
      )
    )
  }
  return {
    stacks: all.filter(s => paths.some(p => contains(s.folder, p))),
    reason: 'the stacks the pull request changes',
    diagnostics
  }
}
