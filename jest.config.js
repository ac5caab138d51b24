// ES modules end to end: ts-jest transpiles each file (type checking is `npm run typecheck`), and
// `--experimental-vm-modules` (set in the npm scripts) lets jest load the ESM-only @actions packages. The
// scripts also pass `--disable-warning=ExperimentalWarning` (Node 20.11+): each worker would otherwise print
// that vm modules are experimental; other warnings, and all warnings of the processes tests start, still show.
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }] },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  // A copy of the project that `npm run mutate` works in: not a second package for Jest to find.
  modulePathIgnorePatterns: ['<rootDir>/.stryker-tmp/'],
  // Stops the run when dist/ (which the e2e tests run) was built from other sources than src/, and gives the
  // run a temp folder of its own, which the teardown removes, failing the run if a test left anything there.
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
  // The settings the entry points give zod (src/zod-setup.ts), so the tests parse as dist/ does.
  setupFiles: ['<rootDir>/src/zod-setup.ts'],
  testTimeout: 60000,
  maxWorkers: 2,
  // How long a worker may take to exit once its files are done before Jest kills it and warns of a leak
  // (default 500 ms). A worker grows to about 1 GB over some sixty files, and with no handle left open took
  // 5 to 6 s to exit on the two shared cores (measured from its 'exit' event to its end); a worker that a
  // leaked handle keeps alive is still killed and reported, after this long.
  workerGracefulExitTimeout: 30000
}
