// ES modules end to end: ts-jest transpiles each file (type checking is `npm run typecheck`), and
// `--experimental-vm-modules` (set in the npm scripts) lets jest load the ESM-only @actions packages.
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }] },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  // A copy of the project that `npm run mutate` works in: not a second package for Jest to find.
  modulePathIgnorePatterns: ['<rootDir>/.stryker-tmp/'],
  // Stops the run when dist/ (which the e2e tests run) was built from other sources than src/.
  globalSetup: '<rootDir>/test/support/fresh-dist.mjs',
  // The settings the entry points give zod (src/zod-setup.ts), so the tests parse as dist/ does.
  setupFiles: ['<rootDir>/src/zod-setup.ts'],
  testTimeout: 60000,
  maxWorkers: 2
}
