// @ts-check
/**
 * The fast pass of `npm run mutate`: the same mutants, tested by the unit tests only
 * (jest.stryker-unit.config.js). Its score is a lower bound of the full suite's (docs/testing.md).
 * `npx stryker run stryker.unit.config.mjs --mutate '<glob>' --incrementalFile reports/unit-<group>.json`
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
import full from './stryker.config.mjs'

export default {
  ...full,
  jest: { configFile: 'jest.stryker-unit.config.js' },
  incrementalFile: 'reports/stryker-unit-incremental.json'
}
