/**
 * Part of Jest's global setup (global-setup.mjs): the e2e and ship tests run the committed dist/, so when
 * dist/ was built from other sources than the working tree's, the run stops before any test, with the one
 * fix that helps. A run limited to paths that never touch dist/ (`npm run test:unit`, one unit test file)
 * is not held up.
 * Plain JavaScript, like the stamp it checks: Jest loads a global setup without its module mapping.
 */
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { distStaleness } from '../../scripts/dist-stamp.mjs'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
/** The test folders whose tests run the built bundle. */
const DIST_TESTS = ['test/e2e', 'test/ship']

export default function freshDist(globalConfig) {
  if (!runsDist(globalConfig.testPathPatterns)) return
  const why = distStaleness(ROOT)
  if (why) throw new Error(`dist/ is stale: run npm run build (${why})`)
}

/** Whether the run includes a test that runs dist/: all tests, or paths that select one. */
function runsDist(patterns) {
  if (!patterns.isSet()) return true
  const selected = patterns.toExecutor({ rootDir: ROOT })
  return DIST_TESTS.some(dir =>
    readdirSync(path.join(ROOT, dir)).some(file => selected.isMatch(path.join(ROOT, dir, file)))
  )
}
