/**
 * A workspace as `actions/checkout` leaves it, for the tests of `command: sync`: a git clone on `main` whose `origin`
 * is a bare repository on disk (so a push needs no credentials), with an empty global git config and fixed commit
 * dates, so no developer's settings or clock reach the tests.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

export interface GitClone {
  /** The bare repository the clone pushes to. */
  origin: string
  /** The environment git runs with, here and in the action. */
  env: Record<string, string>
  git(cwd: string, ...args: string[]): string
  remove(): void
}

/** Commits what `dir` holds as `main` and pushes it to a new bare `origin`. */
export function cloneOf(dir: string): GitClone {
  const home = mkdtempSync(path.join(tmpdir(), 'obsdeploy-git-'))
  writeFileSync(path.join(home, 'gitconfig'), '')
  const env = {
    GIT_CONFIG_GLOBAL: path.join(home, 'gitconfig'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_DATE: '2026-12-06T12:00:00Z',
    GIT_COMMITTER_DATE: '2026-12-06T12:00:00Z'
  }
  const git = (cwd: string, ...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', ...args], {
      cwd,
      env: { ...process.env, ...env },
      encoding: 'utf8'
    })
  const origin = path.join(home, 'origin.git')
  git(home, 'init', '-q', '--bare', '-b', 'main', origin)
  git(dir, 'init', '-q', '-b', 'main')
  git(dir, 'add', '-A')
  git(dir, 'commit', '-q', '-m', 'manifests')
  git(dir, 'remote', 'add', 'origin', origin)
  git(dir, 'push', '-q', 'origin', 'main')
  return { origin, env, git, remove: () => rmSync(home, { recursive: true, force: true }) }
}
