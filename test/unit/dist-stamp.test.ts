/** The build's stamp of its sources, and the check that stops `npm test` when dist/ is older than src/. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { STAMP_FILE, distStaleness, stamp } from '../../scripts/dist-stamp.mjs'

const REPO = fileURLToPath(new URL('../..', import.meta.url))

const lock = (version: string, undiciVersion = '7.0.0') =>
  JSON.stringify({
    name: 'x',
    version,
    lockfileVersion: 3,
    packages: { '': { name: 'x', version }, 'node_modules/undici': { version: undiciVersion } }
  })

const pkg = (version: string, build: string, test = 'jest') =>
  JSON.stringify({ name: 'x', version, scripts: { build, test } })

let root: string
const write = (file: string, text: string) => {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
  writeFileSync(path.join(root, file), text)
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'obsdeploy-stamp-'))
  write('src/main.ts', 'export const a = 1\n')
  write('src/kinds/alert.ts', 'export const b = 2\n')
  write('tsconfig.json', '{}\n')
  write('package-lock.json', lock('1.0.0'))
  write('package.json', pkg('1.0.0', 'ncc build src/index.ts -o dist'))
  write('scripts/yaml-bundle.ts', 'await build()\n')
  write('scripts/other.ts', 'not part of the build\n')
  write('test/x.test.ts', 'not bundled\n')
  write(STAMP_FILE, stamp(root))
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

describe('the dist/ stamp', () => {
  it('matches the sources it was written from', () => {
    expect(distStaleness(root)).toBeUndefined()
  })

  it.each([
    ['a source changes', () => write('src/kinds/alert.ts', 'export const b = 3\n')],
    ['a source is added', () => write('src/kinds/new.ts', '')],
    ['a source is removed', () => rmSync(path.join(root, 'src/main.ts'))],
    ['a dependency is locked at another version', () => write('package-lock.json', lock('1.0.0', '7.0.1'))],
    ['the compiler settings change', () => write('tsconfig.json', '{ "target": "ES2020" }\n')],
    [
      'the build command changes',
      () => write('package.json', pkg('1.0.0', 'ncc build src/index.ts -o dist -m'))
    ],
    ['the script that writes yaml.cjs changes', () => write('scripts/yaml-bundle.ts', 'await build(2)\n')]
  ])('is stale when %s', (_, change) => {
    change()
    expect(distStaleness(root)).toBe(
      `${STAMP_FILE} does not match src, tsconfig.json, package-lock.json, package.json, scripts/yaml-bundle.ts`
    )
  })

  it.each([
    ['a test changes', () => write('test/x.test.ts', 'changed\n')],
    ['another script changes', () => write('scripts/other.ts', 'changed\n')],
    [
      'only the package version changes (npm version, after the release build)',
      () => write('package-lock.json', lock('1.1.0'))
    ],
    ['a checkout turns line endings into CRLF', () => write('src/main.ts', 'export const a = 1\r\n')],
    [
      'package.json changes elsewhere than the build command',
      () => write('package.json', pkg('1.1.0', 'ncc build src/index.ts -o dist', 'jest --ci'))
    ]
  ])('stays fresh when %s', (_, change) => {
    change()
    expect(distStaleness(root)).toBeUndefined()
  })

  it('says so when dist/ has no stamp', () => {
    rmSync(path.join(root, STAMP_FILE))
    expect(distStaleness(root)).toBe(`${STAMP_FILE} is missing`)
  })

  it('is written by npm run build, so the committed dist/ carries one', () => {
    expect(JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')).scripts.build).toMatch(
      /&& node scripts\/dist-stamp\.mjs$/
    )
    expect(readFileSync(path.join(REPO, STAMP_FILE), 'utf8')).toMatch(/^[0-9a-f]{64} {2}src /)
  })
})
