/**
 * A pull request's base commit, as far as the manifest globs reach: which of this checkout's manifest files
 * are the base's byte for byte (the same git blob sha: read here, not asked of GitHub), and the base's text
 * of every other file the globs match there. The rules in force on a pull request are read from it
 * (src/policy), so a pull request cannot switch off a rule by editing it. When it cannot be read (no token,
 * an API error), the run says why and obeys the pull request's own files.
 */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { findManifestFiles, manifestMatcher } from '../manifest/files.js'
import type { BaseRead } from '../policy/sources.js'
import { blobSha, listTree, readBlobs } from './git-files.js'
import { clientFor, redact, statusMessage } from './rest.js'

export interface BaseTarget {
  token: string
  owner: string
  repo: string
  /** The base commit's sha (`pull_request.base.sha` of the event). */
  sha: string
  /** The manifest globs and the workspace they are relative to. */
  patterns: readonly string[]
  cwd: string
  baseUrl?: string
}

export async function readBaseFiles(target: BaseTarget): Promise<BaseRead> {
  if (!target.token) return { unavailable: 'no github-token to read it with' }
  try {
    const octokit = clientFor(target)
    const repo = { owner: target.owner, repo: target.repo }
    const [tree, local] = await Promise.all([
      listTree(octokit, repo, target.sha),
      findManifestFiles(target.patterns, target.cwd)
    ])
    const prefix = checkoutPrefix(target.cwd)
    const matches = manifestMatcher(target.patterns)
    const here = new Set(local.files)
    const unchanged = new Set<string>()
    const differing: Array<{ path: string; sha: string; size?: number }> = []
    for (const entry of tree) {
      if (prefix && !entry.path.startsWith(`${prefix}/`)) continue
      const file = prefix ? entry.path.slice(prefix.length + 1) : entry.path
      if (!matches(file)) continue
      if (here.has(file) && blobSha(await readFile(path.join(target.cwd, file))) === entry.sha)
        unchanged.add(file)
      else differing.push({ ...entry, path: file })
    }
    const texts = await readBlobs(octokit, repo, differing)
    return {
      commit: target.sha,
      unchanged,
      differing: differing.map(e => ({ path: e.path, text: texts.get(e.sha)! }))
    }
  } catch (error) {
    return {
      unavailable: redact(
        `GitHub answered ${statusMessage(error)}; the job's token needs \`contents: read\``,
        target.token
      )
    }
  }
}

/**
 * Where the workspace sits in the repository: the path from the checkout's root (the nearest folder up
 * with a `.git`) to the workspace, `''` when they are one (the usual checkout).
 */
function checkoutPrefix(cwd: string): string {
  let dir = path.resolve(cwd)
  for (;;) {
    if (existsSync(path.join(dir, '.git')))
      return path.relative(dir, path.resolve(cwd)).split(path.sep).join('/')
    const up = path.dirname(dir)
    if (up === dir) return ''
    dir = up
  }
}
