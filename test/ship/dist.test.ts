/**
 * The committed dist/ as check-dist, the Marketplace and a licence review see it: each bundle folder holds
 * only what a fresh build makes (a leftover chunk fails check-dist, which removes dist/ before building), it
 * carries the notices of the packages bundled into it, and the action holds one copy of each HTTP library.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from '@jest/globals'
import { minVersion, satisfies } from 'semver'
import { parse } from 'yaml'
import { STAMP_FILE } from '../../scripts/dist-stamp.mjs'
import { lockedPackages, parseNotices } from '../../scripts/licenses.js'
import { bundleFiles } from '../../scripts/bundle-files.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const locked = lockedPackages(path.join(root, 'package-lock.json'))

/** A package's own name: an npm alias (`js-yaml-4` for `npm:js-yaml@4`) is installed under another. */
function packageName(installedAs: string): string {
  const manifest = path.join(root, 'node_modules', installedAs, 'package.json')
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { name: string }).name
}

/** The packages src/ imports by name (not node: built-ins, not relative paths), from every file under a folder. */
function importedPackages(folder: string): Set<string> {
  const names = new Set<string>()
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue
    const text = readFileSync(path.join(entry.parentPath, entry.name), 'utf8')
    for (const [, spec] of text.matchAll(/(?:\bfrom\s+|\bimport\(\s*)'([^'.][^']*)'/g)) {
      if (spec.startsWith('node:')) continue
      names.add(
        packageName(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0])
      )
    }
  }
  return names
}
const imported = importedPackages(path.join(root, 'src'))
const github = [...imported].filter(name => name.startsWith('@actions/'))

/** How many copies of a library a bundle folder holds, counted by a string each copy carries once. */
function copies(folder: string, marker: string): number {
  return readdirSync(path.join(root, folder))
    .filter(file => file.endsWith('.js'))
    .reduce((n, file) => n + readFileSync(path.join(root, folder, file), 'utf8').split(marker).length - 1, 0)
}

/** The Node versions each bundle is promised to: the action's runtime, and the CLI's engines floor. */
const runtime = (parse(readFileSync(path.join(root, 'action.yml'), 'utf8')) as { runs: { using: string } })
  .runs.using
const enginesFloor = minVersion(
  (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } }).engines
    .node
)!.version
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } }>
}

// The action's folder also holds the hash of the sources it was built from, which `npm test` checks.
describe.each([
  [
    'dist',
    'the action',
    [...imported],
    `${/^node(\d+)$/.exec(runtime)![1]}.0.0`,
    [path.basename(STAMP_FILE)]
  ],
  ['dist/cli', 'the CLI', [...imported].filter(name => !github.includes(name)), enginesFloor, []]
])('%s (%s)', (folder, _, expectedPackages, oldestNode, stamped) => {
  const dir = path.join(root, folder)
  const bundle = bundleFiles(dir)

  it('holds only what a fresh build makes: index.js, the chunks and side files it loads, package.json, licenses.txt', () => {
    const files = readdirSync(dir).filter(file => statSync(path.join(dir, file)).isFile())
    expect(files.sort()).toEqual([...bundle.made, ...stamped].sort())
    expect(bundle.missing).toEqual([])
    expect(bundle.made.filter(file => /^\d+\.index\.js$/.test(file)).length).toBeGreaterThan(0)
  })

  it(`bundles only packages whose engines allow Node ${oldestNode}, the oldest it is promised to`, () => {
    const names = parseNotices(readFileSync(path.join(dir, 'licenses.txt'), 'utf8'), name =>
      locked.has(name)
    ).map(notice => notice.name)
    const refusing = names
      .map(name => ({ name, node: lock.packages[`node_modules/${name}`]?.engines?.node }))
      .filter(({ node }) => node !== undefined && !satisfies(oldestNode, node))
    expect(refusing).toEqual([])
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

describe('one copy of each HTTP library', () => {
  // Each copy of undici registers its diagnostics channels once; each @actions/http-client defines its error once.
  const UNDICI = "'undici:request:create'"
  const HTTP_CLIENT = 'class HttpClientError'

  it('the action bundle holds one undici and one @actions/http-client', () => {
    expect({ undici: copies('dist', UNDICI), httpClient: copies('dist', HTTP_CLIENT) }).toEqual({
      undici: 1,
      httpClient: 1
    })
  })

  it('the action evaluates neither at start-up: they are in chunks that only API and GitHub calls load', () => {
    const entry = readFileSync(path.join(root, 'dist', 'index.js'), 'utf8')
    expect({ undici: entry.includes(UNDICI), httpClient: entry.includes(HTTP_CLIENT) }).toEqual({
      undici: false,
      httpClient: false
    })
  })

  it('the CLI bundle holds one undici and none of the GitHub libraries', () => {
    expect({ undici: copies('dist/cli', UNDICI), httpClient: copies('dist/cli', HTTP_CLIENT) }).toEqual({
      undici: 1,
      httpClient: 0
    })
    expect(github.length).toBeGreaterThanOrEqual(2)
  })

  it('the lock file resolves each to one version (package.json overrides)', () => {
    const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string }>
    }
    const versions = (name: string) =>
      Object.entries(lock.packages)
        .filter(([key]) => key.endsWith(`node_modules/${name}`))
        .map(([key, pkg]) => `${key}@${pkg.version}`)
    expect(versions('undici')).toHaveLength(1)
    expect(versions('@actions/http-client')).toHaveLength(1)
  })
})
