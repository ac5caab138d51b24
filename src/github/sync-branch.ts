/**
 * The git side of a sync: the files the sync wrote, committed alone on the stack's branch and pushed. The commit
 * is built in a temporary index from HEAD (`read-tree`, `update-index`, `write-tree`, `commit-tree`), so HEAD, the
 * branch checked out, the user's index and every other file of the work tree stay as they are: a second stack of
 * the same run starts from the default branch, whatever the first one wrote. Afterwards the synced files are put
 * back as HEAD has them.
 */
import { mkdtemp, rm, rmdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { git, type GitOptions } from './git.js'

/** Who the sync commits as: the workflow's own bot, whatever the runner's git config says. */
export const SYNC_AUTHOR = {
  name: 'github-actions[bot]',
  email: '41898282+github-actions[bot]@users.noreply.github.com'
}

export interface Checkout {
  /** The work tree's top folder: every path below is relative to it, as git status prints them. */
  top: string
  /** HEAD's commit when the sync started. */
  head: string
  run(args: readonly string[], env?: Record<string, string>): Promise<string>
}

export async function openCheckout(cwd: string, secrets: readonly string[]): Promise<Checkout> {
  const top = (await git(cwd, ['rev-parse', '--show-toplevel'], { secrets })).trim()
  // --literal-pathspecs: a manifest named `*.yaml` or `:(glob)x` is that file, never a pattern.
  const run = (args: readonly string[], env?: Record<string, string>): Promise<string> => {
    const options: GitOptions = { secrets, ...(env ? { env } : {}) }
    return git(top, ['--literal-pathspecs', ...args], options)
  }
  const head = (await run(['rev-parse', '--verify', 'HEAD^{commit}'])).trim()
  return { top, head, run }
}

/** The files, relative to `cwd`, as paths from the work tree's top (posix separators). */
export function fromTop(checkout: Checkout, cwd: string, files: readonly string[]): string[] {
  const paths = files.map(f => path.relative(checkout.top, path.resolve(cwd, f)).split(path.sep).join('/'))
  return [...new Set(paths)].sort()
}

/**
 * Those of `paths` whose work tree differs from HEAD: edited, created (untracked) or deleted. git status
 * lists nothing for an empty pathspec only because there is none: without paths it would list the whole tree.
 */
export async function changedPaths(checkout: Checkout, paths: readonly string[]): Promise<string[]> {
  if (paths.length === 0) return []
  const out = await checkout.run([
    'status',
    '--porcelain',
    '-z',
    '--untracked-files=all',
    '--no-renames',
    '--',
    ...paths
  ])
  // Each entry is `XY path`, NUL-terminated; porcelain paths are from the top, as ours are.
  return out
    .split('\0')
    .filter(entry => entry.length > 3)
    .map(entry => entry.slice(3))
}

export interface SyncCommit {
  commit: string
  tree: string
}

/**
 * A commit of HEAD with `paths` as the work tree has them (a path gone from the work tree is deleted), or
 * undefined when its tree is HEAD's. Nothing but a temporary index is written besides git's objects.
 */
export async function commitPaths(
  checkout: Checkout,
  paths: readonly string[],
  message: string
): Promise<SyncCommit | undefined> {
  const folder = await mkdtemp(path.join(tmpdir(), 'obsdeploy-sync-'))
  try {
    const env = { GIT_INDEX_FILE: path.join(folder, 'index') }
    await checkout.run(['read-tree', checkout.head], env)
    await checkout.run(['update-index', '--add', '--remove', '--', ...paths], env)
    const tree = (await checkout.run(['write-tree'], env)).trim()
    const headTree = (await checkout.run(['rev-parse', `${checkout.head}^{tree}`])).trim()
    if (tree === headTree) return undefined
    const commit = (
      await checkout.run([
        '-c',
        `user.name=${SYNC_AUTHOR.name}`,
        '-c',
        `user.email=${SYNC_AUTHOR.email}`,
        'commit-tree',
        tree,
        '-p',
        checkout.head,
        '-m',
        message
      ])
    ).trim()
    return { commit, tree }
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
}

/**
 * The tree the remote branch holds, or undefined when there is no such branch. A shallow checkout (actions/checkout's
 * default) fetches the tip alone; a full one fetches what it lacks, and is not made shallow by the fetch.
 */
export async function remoteTree(checkout: Checkout, branch: string): Promise<string | undefined> {
  const ref = `refs/heads/${branch}`
  try {
    await checkout.run(['ls-remote', '--exit-code', 'origin', ref])
  } catch (error) {
    // ls-remote's exit code 2: the remote answered, and has no such ref.
    if ((error as { exitCode?: unknown }).exitCode === 2) return undefined
    throw error
  }
  const shallow = (await checkout.run(['rev-parse', '--is-shallow-repository'])).trim() === 'true'
  await checkout.run(['fetch', '--no-tags', '--quiet', ...(shallow ? ['--depth=1'] : []), 'origin', ref])
  return (await checkout.run(['rev-parse', 'FETCH_HEAD^{tree}'])).trim()
}

/**
 * Pushes the commit as the branch, over whatever it held: the branch is the sync's, made afresh each run.
 * No local hook runs (a repository's pre-push checks are for people's pushes).
 */
export async function pushCommit(checkout: Checkout, commit: string, branch: string): Promise<void> {
  await checkout.run([
    'push',
    '--force',
    '--no-verify',
    '--quiet',
    'origin',
    `${commit}:refs/heads/${branch}`
  ])
}

/** Puts `paths` back as HEAD has them: edits undone, created files removed, deleted files restored. */
export async function restorePaths(checkout: Checkout, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return
  const listed = await checkout.run(['ls-tree', '-r', '-z', '--name-only', checkout.head, '--', ...paths])
  const inHead = new Set(listed.split('\0').filter(Boolean))
  const tracked = paths.filter(p => inHead.has(p))
  const created = paths.filter(p => !inHead.has(p))
  if (tracked.length > 0) await checkout.run(['checkout', checkout.head, '--', ...tracked])
  if (created.length > 0) {
    await checkout.run(['rm', '--cached', '--quiet', '--ignore-unmatch', '--', ...created])
    for (const p of created) await removeFile(checkout.top, p)
  }
}

/** Removes a file the sync created, and the folders it created for it once they are empty. */
async function removeFile(top: string, file: string): Promise<void> {
  await rm(path.join(top, file), { force: true })
  for (let dir = path.posix.dirname(file); dir !== '.' && dir !== '/'; dir = path.posix.dirname(dir)) {
    try {
      await rmdir(path.join(top, dir))
    } catch {
      return // not empty (or not ours to remove): the folders above are not empty either
    }
  }
}
