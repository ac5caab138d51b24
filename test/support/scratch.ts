/**
 * Scratch folders that go when the test file is done: a suite that made a folder per test left thousands
 * in the machine's temp folder. Importing this module registers the file's cleanup.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll } from '@jest/globals'

const made: string[] = []

afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A new empty folder under the temp folder, named `<prefix>XXXXXX`, removed after the file's tests. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix))
  made.push(dir)
  return dir
}
