/**
 * Jest setup file of `npm run mutate`: during Stryker's dry run, which runs every test once, appends
 * each test's file and full name (what a test name pattern is matched against) to the sandbox's list.
 */
import { appendFileSync } from 'node:fs'
import { afterAll, beforeEach, expect } from '@jest/globals'
import { ACTIVE_MUTANT, STRYKER_GLOBAL, TESTS_BY_FILE } from './tests-by-file.mjs'

if (globalThis[STRYKER_GLOBAL] !== undefined && process.env[ACTIVE_MUTANT] === undefined) {
  const names = []
  beforeEach(() => {
    names.push(expect.getState().currentTestName)
  })
  afterAll(() => {
    const { testPath } = expect.getState()
    const lines = names.map(test => `${JSON.stringify({ file: testPath, test })}\n`).join('')
    appendFileSync(TESTS_BY_FILE, lines)
  })
}
