/**
 * The test run's own temp folder. Jest's global setup claims it and points the temp-folder variables at it,
 * so the workers and every process they start make their scratch folders there; the global teardown names
 * whatever is left (a folder a test made and never removed, or removed only on success), fails the run, and
 * removes the folder. A leak is then reported by the run that made it, and never accumulates in /tmp; a run
 * next to others on the same machine sees only its own folders.
 * Plain JavaScript: Jest loads its global setup and teardown without its transform.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

/** What os.tmpdir() reads: TMPDIR, TMP, TEMP on POSIX; TEMP, TMP on Windows. */
const VARIABLES = ['TMPDIR', 'TMP', 'TEMP']
/** Caches a program keeps in the temp folder on purpose: tsx's compile cache, `tsx-<uid>`. */
const CACHES = [/^tsx-\d+$/]
/** Where setup leaves the claim for teardown: both run in Jest's main process. */
const CLAIM = Symbol.for('obsdeploy.test-temp-folder')

/** Makes the run's temp folder and points the temp-folder variables at it; returns its path. */
export function claimTempFolder() {
  const dir = mkdtempSync(path.join(tmpdir(), 'obsdeploy-test-run-'))
  globalThis[CLAIM] = { dir, previous: Object.fromEntries(VARIABLES.map(name => [name, process.env[name]])) }
  for (const name of VARIABLES) process.env[name] = dir
  return dir
}

/**
 * Restores the variables, removes the run's temp folder and returns what the tests left in it (caches
 * aside); nothing when no folder was claimed (a Jest config without this setup, such as Stryker's).
 */
export function releaseTempFolder() {
  const claim = globalThis[CLAIM]
  if (claim === undefined) return []
  delete globalThis[CLAIM]
  for (const [name, value] of Object.entries(claim.previous)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
  const left = leftovers(claim.dir)
  rmSync(claim.dir, { recursive: true, force: true })
  return left
}

/** The entries of a temp folder that a test left behind: everything but the caches, sorted. */
export function leftovers(dir) {
  return readdirSync(dir)
    .filter(name => !CACHES.some(cache => cache.test(name)))
    .sort()
}

/** The teardown's report: which folders a test left, and where such a folder should have gone. */
export function leftoversMessage(left) {
  return [
    `The tests left ${left.length} ${left.length === 1 ? 'entry' : 'entries'} in the temp folder: ${left.join(', ')}.`,
    'Each scratch folder must go also when its test fails: scratchDir() (test/support/scratch.ts) removes it after',
    "the file's tests; runAction() folders go after the file; otherwise remove it in afterEach/afterAll or a finally."
  ].join('\n')
}
