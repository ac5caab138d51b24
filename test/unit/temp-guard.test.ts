/**
 * The test run's own temp folder (test/support/temp-guard.mjs, claimed by Jest's global setup, released by
 * its teardown): what a test left there is named, and the folder goes either way.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from '@jest/globals'
import { claimTempFolder, leftoversMessage, releaseTempFolder } from '../support/temp-guard.mjs'

const VARIABLES = ['TMPDIR', 'TMP', 'TEMP'] as const
const variables = () => Object.fromEntries(VARIABLES.map(name => [name, process.env[name]]))

describe("the run's temp folder", () => {
  it("points the temp-folder variables at a new folder, then names what was left (tsx's cache aside), removes it and restores", () => {
    const outer = tmpdir()
    const before = variables()
    const dir = claimTempFolder()
    let left: string[]
    let made: string
    try {
      expect(path.dirname(dir)).toBe(outer)
      // What os.tmpdir() reads in the processes Jest starts after its global setup (a test's own
      // process.env is a copy Jest made, which os.tmpdir() does not see).
      expect(variables()).toEqual({ TMPDIR: dir, TMP: dir, TEMP: dir })
      made = path.basename(mkdtempSync(path.join(dir, 'obsdeploy-action-')))
      mkdirSync(path.join(dir, 'tsx-0'))
      writeFileSync(path.join(dir, 'a-file'), '')
    } finally {
      left = releaseTempFolder()
    }
    expect(left).toEqual(['a-file', made])
    expect(existsSync(dir)).toBe(false)
    expect(variables()).toEqual(before)
  })

  it('has nothing to release when no folder was claimed (a Jest config without the setup)', () => {
    expect(releaseTempFolder()).toEqual([])
  })

  it('names each entry left and where a scratch folder belongs', () => {
    const message = leftoversMessage(['obsdeploy-action-AbC123', 'obsdeploy-ws-XyZ789'])
    expect(message).toContain(
      'left 2 entries in the temp folder: obsdeploy-action-AbC123, obsdeploy-ws-XyZ789.'
    )
    expect(message).toContain('scratchDir() (test/support/scratch.ts)')
  })
})
