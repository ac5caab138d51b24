/**
 * Which test file holds which test, as Stryker's dry run saw them: the list that lets a mutant's run
 * (jest-sequencer.mjs) load only the files that hold the tests covering the mutant. Only under Stryker
 * (it sets the global namespace below in Jest's globals), in its sandbox, which goes away with the run.
 */
import { fileURLToPath } from 'node:url'

export const STRYKER_GLOBAL = '__strykerGlobalNamespace__'
/** Set by Stryker while a mutant is active: a mutant's run, not the dry run. */
export const ACTIVE_MUTANT = '__STRYKER_ACTIVE_MUTANT__'

/** In the root of the sandbox this copy of the project is in. */
export const TESTS_BY_FILE = fileURLToPath(new URL('../../../.stryker-tests-by-file.jsonl', import.meta.url))
