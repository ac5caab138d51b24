// @ts-check
/**
 * Mutation testing of the modules where a silent bug costs data: `npm run mutate` (see docs/testing.md).
 * Not part of `npm test` or CI: it takes long on two cores; RELEASING.md runs it before a release.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'jest',
  // The suite is native ES modules: Jest needs vm modules in the process Stryker runs it in (without the
  // warning that they are experimental, as in `npm test`).
  testRunnerNodeArgs: ['--experimental-vm-modules', '--disable-warning=ExperimentalWarning'],
  jest: { configFile: 'jest.stryker.config.js' },
  coverageAnalysis: 'perTest',
  checkers: ['typescript'],
  // Only src/: a mutant that does not compile is skipped sooner (tests and tools are not rechecked).
  tsconfigFile: 'src/tsconfig.json',
  mutate: [
    'src/kinds/**/*.ts',
    'src/planner/**/*.ts',
    'src/plan/**/*.ts',
    'src/apply/**/*.ts',
    'src/api/transport.ts',
    'src/api/retry.ts'
  ],
  ignorePatterns: ['dist', 'coverage', 'bench/.work', 'tmp', '.obsdeploy', 'reports'],
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  concurrency: 2,
  timeoutMS: 20000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  thresholds: { high: 90, low: 85, break: null }
}
