// Jest as `npm run mutate` runs it (stryker.config.mjs): the suite minus the tests that run the built
// bundle (test/e2e, test/ship), because Stryker mutates src/ and never rebuilds dist/; without the dist/
// stamp check, since mutated sources never match the stamp; and a mutant's run loads only the test
// files that hold the tests covering it (test/support/stryker/).
import base from './jest.config.js'

export default {
  ...base,
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/', '<rootDir>/test/ship/'],
  globalSetup: undefined,
  setupFilesAfterEnv: ['<rootDir>/test/support/stryker/record-tests.mjs'],
  testSequencer: '<rootDir>/test/support/stryker/jest-sequencer.mjs'
}
