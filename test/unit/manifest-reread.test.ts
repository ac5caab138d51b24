/**
 * A loaded set holds no manifest text: a position asked for after loading (a plan's `name` of a change,
 * a problem found later) reads the file again, and a file changed since has no positions to give.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from '@jest/globals'
import { loadManifests } from '../../src/manifest/load.js'
import { parseYamlFile } from '../../src/manifest/yaml.js'
import { alert, dashboard, timeTile } from '../support/harness.js'

const text =
  '# first\n' +
  dashboard('Checkout', timeTile('Errors', 0, 0)) +
  alert('Checkout errors', 'Checkout', 'Errors')

const dirs: string[] = []
afterEach(() => dirs.splice(0).forEach(d => rmSync(d, { recursive: true, force: true })))

async function loaded() {
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'reread-'))
  dirs.push(cwd)
  writeFileSync(path.join(cwd, 'm.yaml'), text)
  const set = await loadManifests({ patterns: ['m.yaml'], cwd, mode: 'self-hosted' })
  expect(set.diagnostics).toEqual([])
  return { cwd, set }
}

describe('positions after loading', () => {
  it('are read from the file again, and equal those of the text as loaded', async () => {
    const { set } = await loaded()
    const inMemory = parseYamlFile('m.yaml', text).documents
    const [dash] = set.specs.Dashboard
    const [al] = set.specs.Alert
    expect(dash!.doc.locate(['name'])).toEqual(inMemory[0]!.locate(['name']))
    expect(dash!.doc.locate(['tiles', 0, 'name']).line).toBeGreaterThan(2)
    expect(dash!.doc.locate(['tiles', 0, 'name'])).toEqual(inMemory[0]!.locate(['tiles', 0, 'name']))
    expect(al!.doc.locate(['tile'])).toEqual(inMemory[1]!.locate(['tile']))
  })

  it('of a file changed since it was loaded point at its first line, never at the wrong field', async () => {
    const { cwd, set } = await loaded()
    writeFileSync(path.join(cwd, 'm.yaml'), `\n\n\n${text}`)
    expect(set.specs.Alert[0]!.doc.locate(['tile'])).toEqual({ file: 'm.yaml', line: 1, column: 1 })
  })
})
