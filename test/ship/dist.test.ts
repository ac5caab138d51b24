/**
 * The committed dist/ as check-dist, the Marketplace and a licence review see it: each bundle folder holds
 * only what a fresh build makes (a leftover chunk fails check-dist, which removes dist/ before building),
 * and carries the notices of the packages bundled into it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from '@jest/globals'
import { lockedPackages, parseNotices } from '../../scripts/licenses.js'
import { bundleFiles } from '../support/bundle.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const locked = lockedPackages(path.join(root, 'package-lock.json'))

/** The packages src/ imports by name (not node: built-ins, not relative paths), from every file under a folder. */
function importedPackages(folder: string): Set<string> {
  const names = new Set<string>()
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue
    const text = readFileSync(path.join(entry.parentPath, entry.name), 'utf8')
    for (const [, spec] of text.matchAll(/(?:from|import\()\s*'([^'.][^']*)'/g)) {
      if (spec.startsWith('node:')) continue
      names.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0])
    }
  }
  return names
}
const imported = importedPackages(path.join(root, 'src'))
const github = [...imported].filter(name => name.startsWith('@actions/'))

describe.each([
  ['dist', 'the action', [...imported]],
  ['dist/cli', 'the CLI', [...imported].filter(name => !github.includes(name))]
])('%s (%s)', (folder, _, expectedPackages) => {
  const dir = path.join(root, folder)
  const bundle = bundleFiles(dir)

  it('holds only what a fresh build makes: index.js, the chunks it loads, package.json, licenses.txt', () => {
    const files = readdirSync(dir).filter(file => statSync(path.join(dir, file)).isFile())
    expect(files.sort()).toEqual(bundle.made)
    expect(bundle.missing).toEqual([])
    expect(bundle.made.filter(file => /^\d+\.index\.js$/.test(file)).length).toBeGreaterThan(0)
  })

  describe('licenses.txt', () => {
    const notices = parseNotices(readFileSync(path.join(dir, 'licenses.txt'), 'utf8'), name =>
      locked.has(name)
    )
    const names = notices.map(notice => notice.name)

    it('names every package the sources import, each once, sorted', () => {
      expect(expectedPackages.length).toBeGreaterThanOrEqual(8)
      expect(names).toEqual(expect.arrayContaining(expectedPackages))
      expect(names).toEqual([...new Set(names)].sort((a, b) => (a < b ? -1 : 1)))
    })

    it("gives each package's licence id and its licence text", () => {
      for (const notice of notices) {
        const [name, id, ...text] = notice.text.split('\n')
        expect({ name, id }).toEqual({
          name: notice.name,
          id: expect.stringMatching(/^(MIT|ISC|Apache-2\.0|BSD-[23]-Clause)$/)
        })
        expect({ name, text: text.join('\n') }).toEqual({
          name,
          text: expect.stringMatching(/copyright|permission|license/i)
        })
      }
    })
  })
})
