// Jest as the fast pass of `npm run mutate` runs it (stryker.unit.config.mjs): the unit tests only. A mutant
// covered by the planner runs every scenario and contract test under the full config (Stryker's Jest runner
// cannot stop at the first failure), about two minutes a mutant on two shared cores; the unit tests take
// seconds. What they kill the full suite kills too, so the score is a lower bound; a survivor here is checked
// against the full suite (see docs/testing.md).
import full from './jest.stryker.config.js'

export default { ...full, testMatch: ['<rootDir>/test/unit/**/*.test.ts'] }
