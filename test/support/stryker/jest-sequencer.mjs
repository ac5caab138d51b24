/**
 * Jest's test sequencer under `npm run mutate`. Stryker runs a mutant with a test name pattern that
 * selects the tests covering it, but Jest still loads every related test file, about a second each
 * here (native ES modules, a fresh module registry per file). This drops the files that hold none of
 * those tests, using the dry run's list (record-tests.mjs). What it keeps is what Jest would run;
 * without a pattern or a list it keeps everything.
 */
import { existsSync, readFileSync } from 'node:fs'
import Sequencer from '@jest/test-sequencer'
import { STRYKER_GLOBAL, TESTS_BY_FILE } from './tests-by-file.mjs'

export default class MutantSequencer extends Sequencer {
  #pattern
  #list

  constructor(options) {
    super(options)
    const { globalConfig, contexts } = options
    const underStryker = contexts.some(c => c.config.globals?.[STRYKER_GLOBAL] !== undefined)
    // Jest matches the pattern case-insensitively against "describe … test" names.
    this.#pattern = globalConfig.testNamePattern ? new RegExp(globalConfig.testNamePattern, 'i') : undefined
    this.#list = underStryker ? TESTS_BY_FILE : undefined
  }

  sort(tests) {
    const files = this.#pattern && this.#list && existsSync(this.#list) ? this.#filesMatching() : undefined
    return super.sort(files ? tests.filter(t => files.has(t.path)) : tests)
  }

  #filesMatching() {
    const files = new Set()
    for (const line of readFileSync(this.#list, 'utf8').split('\n')) {
      if (!line) continue
      const { file, test } = JSON.parse(line)
      if (this.#pattern.test(test)) files.add(file)
    }
    return files
  }
}
