/**
 * The npm package as a user gets it: `npm pack`, installed into an empty project with no network, and
 * `npx observability-deploy validate` run there. The CLI has no runtime dependencies (everything is bundled
 * into dist/cli/), so the tarball alone must work.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { bundleFiles } from '../../scripts/bundle-files.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'

/**
 * npm run (as in `npm test`) exports its settings as npm_* variables; a nested npm would take the outer
 * project's prefix and scripts for its own. The nested commands get a clean environment instead.
 */
const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([name]) => !/^npm_/i.test(name) || /^npm_config_(cache|userconfig)$/i.test(name)
  )
)

let work: string
let files: string[]
let app: string

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'obsdeploy-pack-'))
  const packed = JSON.parse(
    execFileSync(npm, ['pack', '--json', '--pack-destination', work], { cwd: root, env, encoding: 'utf8' })
  ) as { filename: string; files: { path: string }[] }[]
  files = packed[0].files.map(file => file.path)
  app = path.join(work, 'app')
  mkdirSync(app)
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'uses-obsdeploy', private: true }))
  execFileSync(
    npm,
    ['install', '--no-audit', '--no-fund', '--offline', path.join(work, packed[0].filename)],
    { cwd: app, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }
  )
}, 120_000)

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true })
})

/** `npx observability-deploy ...` in the project that installed the tarball; --offline proves no download. */
const obsdeploy = (...args: string[]) => {
  const result = spawnSync(npx, ['--offline', 'observability-deploy', ...args], {
    cwd: app,
    env: { ...env, NO_COLOR: '1' },
    encoding: 'utf8',
    timeout: 60_000
  })
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}

describe('the npm package', () => {
  it('carries the CLI bundle, the schemas and the documents', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'LICENSE',
        'CHANGELOG.md',
        'dist/cli/index.js',
        'dist/cli/licenses.txt',
        'schema/manifest.schema.json',
        'schema/plan.schema.json',
        'schema/stack.schema.json'
      ])
    )
  })

  it('ships the CLI bundle as a fresh build makes it: no leftover chunk that nothing loads', () => {
    const shipped = files
      .filter(file => file.startsWith('dist/cli/'))
      .map(file => file.slice('dist/cli/'.length))
    expect(shipped.sort()).toEqual(bundleFiles(path.join(root, 'dist', 'cli')).made)
  })

  it('leaves out the sources, tests, emulator, the action bundle and the repository tooling', () => {
    const unwanted = files.filter(file =>
      /^(src|test|emulator|bench|scripts|examples|\.github|\.ci)\/|^dist\/[^/]+$|^\.env|^tsconfig|^jest\.config/.test(
        file
      )
    )
    expect(unwanted).toEqual([])
    expect(files).not.toContain('dist/index.js')
  })

  it('needs nothing from the registry: no runtime dependencies', () => {
    const installed = JSON.parse(
      readFileSync(path.join(app, 'node_modules', 'observability-deploy', 'package.json'), 'utf8')
    ) as { dependencies?: object; peerDependencies?: object; bin?: Record<string, string> }
    expect(Object.keys(installed.dependencies ?? {})).toEqual([])
    expect(Object.keys(installed.peerDependencies ?? {})).toEqual([])
    expect(installed.bin).toEqual({ obsdeploy: 'dist/cli/index.js' })
    expect(existsSync(path.join(app, 'node_modules', '.bin', 'obsdeploy'))).toBe(true)
  })

  it('validates the example manifests: exit 0 and "valid"', () => {
    cpSync(path.join(root, 'examples', 'observability'), path.join(app, 'observability'), { recursive: true })
    const result = obsdeploy('validate', 'observability')
    expect(result).toEqual({ status: 0, output: expect.stringMatching(/\bvalid\b/) })
  }, 120_000)

  it('reads --var and a file js-yaml refuses with the yaml library it carries (dist/cli/yaml.cjs)', () => {
    mkdirSync(path.join(app, 'var-and-tab'))
    writeFileSync(path.join(app, 'var-and-tab', 'a.yaml'), 'kind: Dashboard\nname: ${NAME}\n')
    expect(obsdeploy('validate', 'var-and-tab', '--var', 'NAME=Checkout')).toEqual({
      status: 0,
      output: expect.stringMatching(/\bvalid\b/)
    })
    // A tab before a key sends the file to the yaml library, which says where and why.
    writeFileSync(path.join(app, 'var-and-tab', 'b.yaml'), 'kind: Dashboard\nname: B\n\ttags: []\n')
    const refused = obsdeploy('validate', 'var-and-tab', '--var', 'NAME=Checkout')
    expect(refused.status).toBe(1)
    expect(refused.output).toMatch(/^var-and-tab\/b\.yaml:3:\d+ /m)
  }, 120_000)

  it('says the installation is incomplete, not that YAML is wrong, when yaml.cjs is missing', () => {
    const cli = path.join(app, 'node_modules', 'observability-deploy', 'dist', 'cli')
    const copy = path.join(work, 'cli-without-yaml')
    cpSync(cli, copy, { recursive: true })
    rmSync(path.join(copy, 'yaml.cjs'))
    const result = spawnSync(
      process.execPath,
      [path.join(copy, 'index.js'), 'validate', 'var-and-tab', '--var', 'NAME=x'],
      {
        cwd: app,
        env: { ...env, NO_COLOR: '1' },
        encoding: 'utf8',
        timeout: 60_000
      }
    )
    expect(result.status).not.toBe(0)
    expect(`${result.stdout}${result.stderr}`).toContain('this installation of obsdeploy is incomplete')
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/not valid YAML/)
  }, 120_000)

  it('reports a broken manifest as file:line:col field: message, with exit 1', () => {
    mkdirSync(path.join(app, 'broken'))
    writeFileSync(
      path.join(app, 'broken', 'checkout.yaml'),
      [
        'kind: Dashboard',
        'name: Checkout',
        'tiles:',
        '  - name: Errors',
        '    x: 0',
        '    y: 0',
        '    w: 30',
        '    h: 3',
        ''
      ].join('\n')
    )
    const result = obsdeploy('validate', 'broken')
    expect(result.status).toBe(1)
    expect(result.output).toMatch(/^broken\/checkout\.yaml:7:\d+ tiles\[0\]\.w: .+$/m)
  }, 120_000)
})
