/**
 * `command: validate` end to end, through the built bundles (dist/): annotations at manifest lines, every
 * problem in the job summary (GitHub shows only 10 annotations per type), every output set, and the exit
 * code; on the examples, a clean pass with no credentials and no network. Then the CLI bundle.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import {
  ACTION_BUNDLE,
  CLI_BUNDLE,
  parseAnnotations,
  parseOutputFile,
  pullRequestEvent,
  pushEvent,
  REPO_ROOT,
  runAction,
  runCli,
  type ActionRun,
  type Annotation
} from './runner.js'

const BROKEN = 'observability/checkout-broken.yaml'
const FIFTEEN = 'observability/fifteen-errors.yaml'
const TITLE = 'obsdeploy validate'

let workspace: string
/** A CommonJS preload that makes any network connection fail loudly (NODE_OPTIONS=--require). */
let noNetwork: string
/** A CommonJS preload that reports every function compiled from a string (`new Function`) on stderr. */
let codegenProbe: string
const runs: ActionRun[] = []

const track = (run: ActionRun) => {
  runs.push(run)
  return run
}
const fileErrors = (run: ActionRun) =>
  run.annotations.filter(a => a.level === 'error' && a.file !== undefined)

beforeAll(async () => {
  for (const bundle of [ACTION_BUNDLE, CLI_BUNDLE]) {
    if (!existsSync(bundle)) {
      throw new Error(
        `${path.relative(REPO_ROOT, bundle)} is missing: run \`npm run build\` before the e2e tests.`
      )
    }
  }
  workspace = await mkdtemp(path.join(tmpdir(), 'obsdeploy-e2e-validate-'))
  await mkdir(path.join(workspace, 'observability'))
  await cp(path.join(REPO_ROOT, 'examples/broken/checkout-broken.yaml'), path.join(workspace, BROKEN))
  await cp(
    path.join(REPO_ROOT, 'test/fixtures/manifests/e2e/fifteen-errors.yaml'),
    path.join(workspace, FIFTEEN)
  )
  noNetwork = path.join(workspace, 'no-network.cjs')
  await writeFile(
    noNetwork,
    [
      "const net = require('node:net')",
      "const dns = require('node:dns')",
      'const refuse = what => function () {',
      "  process.stderr.write('NETWORK ACCESS: ' + what + '\\n')",
      "  throw new Error('network access is not allowed in this test: ' + what)",
      '}',
      "net.Socket.prototype.connect = refuse('connect')",
      "dns.lookup = refuse('dns.lookup')",
      "dns.promises.lookup = refuse('dns.promises.lookup')",
      ''
    ].join('\n')
  )
  codegenProbe = path.join(workspace, 'codegen-probe.cjs')
  await writeFile(
    codegenProbe,
    [
      'const report = () => process.stderr.write("CODEGEN: a function was compiled from a string\\n")',
      'globalThis.Function = new Proxy(Function, {',
      '  construct(target, args) { report(); return Reflect.construct(target, args) },',
      '  apply(target, self, args) { report(); return Reflect.apply(target, self, args) }',
      '})',
      ''
    ].join('\n')
  )
})

afterAll(async () => {
  await Promise.all(runs.map(r => r.cleanup()))
  if (workspace) await rm(workspace, { recursive: true, force: true })
})

describe('action: validate on a broken manifest', () => {
  let run: ActionRun
  beforeAll(async () => {
    run = track(
      await runAction({
        inputs: { command: 'validate', manifests: BROKEN },
        cwd: workspace,
        eventName: 'push',
        event: pushEvent('refs/heads/main'),
        env: { NODE_OPTIONS: `--require ${noNetwork}` }
      })
    )
  })

  it('annotates each problem at its file, line and column as "field: message"', () => {
    const at = (line: number, col: number, message: string): Annotation => ({
      level: 'error',
      file: BROKEN,
      line,
      col,
      title: TITLE,
      message
    })
    expect(fileErrors(run)).toEqual([
      at(8, 8, 'tiles[0].w: must be between 1 and 24'),
      at(
        14,
        29,
        'tiles[0].series[0].where: Lucene syntax error at column 13 of the expression: unexpected end of input'
      ),
      at(15, 9, 'tiles[0].series[0].grupBy: unknown field "grupBy" (did you mean "groupBy"?)'),
      at(20, 7, 'tile: dashboard "Checkout (broken)" has no tile named "Eror" (did you mean "Errors"?)'),
      at(22, 16, 'thresholdMax: is required when thresholdType is between'),
      at(23, 11, 'interval: must be one of 1m, 5m, 15m, 30m, 1h, 6h, 12h, 1d, got "2m" (did you mean "1m"?)')
    ])
  })

  it('fails the step with exit code 1 and a summary error naming the count', () => {
    expect(run.stderr).toBe('')
    expect(run.exitCode).toBe(1)
    expect(run.failed).toBe(true)
    const failure = run.annotations.filter(a => a.level === 'error' && a.file === undefined)
    expect(failure).toHaveLength(1)
    expect(failure[0]!.message).toMatch(
      /^6 error\(s\): observability\/checkout-broken\.yaml:8:8 tiles\[0\]\.w: /
    )
  })

  it('sets every output, with no changes and no plan file', () => {
    expect(run.outputs).toEqual({
      'has-changes': 'false',
      creates: '0',
      updates: '0',
      deletes: '0',
      'plan-file': '',
      'comment-url': '',
      // One stack: this run's (the repository's name), for a job matrix.
      matrix: '[{"stack":"shop"}]'
    })
  })

  it('lists every problem in the job summary', () => {
    expect(run.summary).toContain('Validation failed: 6 errors.')
    for (const place of ['8:8', '14:29', '15:9', '20:7', '22:16', '23:11']) {
      expect(run.summary).toContain(`[${BROKEN}:${place}](`)
    }
  })

  it('gives no warnings and makes no network connection', () => {
    expect(run.annotations.filter(a => a.level === 'warning')).toEqual([])
    expect(run.stderr).not.toContain('NETWORK ACCESS')
  })
})

describe('action: validate with more problems than GitHub shows as annotations', () => {
  let run: ActionRun
  const places = [
    '6:8',
    '7:8',
    '8:8',
    '9:8',
    '13:16',
    '14:29',
    '15:9',
    '21:5',
    '23:15',
    '28:7',
    '29:12',
    '30:16',
    '31:11',
    '32:18',
    '33:24'
  ]
  beforeAll(async () => {
    run = track(
      await runAction({
        inputs: { command: 'validate', manifests: FIFTEEN },
        cwd: workspace,
        eventName: 'pull_request',
        event: pullRequestEvent(42),
        env: { NODE_OPTIONS: `--require ${noNetwork}` }
      })
    )
  })

  it('stops the error annotations at 10', () => {
    expect(fileErrors(run)).toHaveLength(10)
    expect(run.stdout).toContain('5 more problem(s) are listed in the job summary.')
  })

  it('lists all 15 problems in the job summary, each at its place', () => {
    expect(run.summary).toContain('Validation failed: 15 errors.')
    expect(places).toHaveLength(15)
    for (const place of places) expect(run.summary).toContain(`[${FIFTEEN}:${place}](`)
    const listed = run.summary.split('\n').filter(l => l.startsWith('- ❌ '))
    expect(listed).toHaveLength(15)
  })

  it('annotates the first 10 in file order', () => {
    expect(fileErrors(run).map(a => `${a.line}:${a.col}`)).toEqual(places.slice(0, 10))
  })

  it('on a pull request without a token, warns that there is no comment and stays offline', () => {
    expect(run.env.GITHUB_REF).toBe('refs/pull/42/merge')
    expect(run.annotations.filter(a => a.level === 'warning')).toEqual([
      {
        level: 'warning',
        message: 'No pull request comment: no github-token. The plan is in the job summary.'
      }
    ])
    expect(run.stderr).not.toContain('NETWORK ACCESS')
  })

  it('exits 1 and sets the outputs', () => {
    expect(run.exitCode).toBe(1)
    expect(run.outputs['has-changes']).toBe('false')
    expect(run.outputs['plan-file']).toBe('')
  })
})

describe('action: validate on the examples', () => {
  let run: ActionRun
  beforeAll(async () => {
    run = track(
      await runAction({
        inputs: { command: 'validate', manifests: 'examples/observability/**/*.yaml' },
        eventName: 'push',
        event: pushEvent('refs/heads/main'),
        env: { NODE_OPTIONS: `--require ${noNetwork}` }
      })
    )
  })

  it('passes with exit code 0 and no error annotations, without api-url or api-key', () => {
    expect(run.env['INPUT_API-URL']).toBeUndefined()
    expect(run.env['INPUT_API-KEY']).toBeUndefined()
    expect(run.stderr).toBe('')
    expect(run.exitCode).toBe(0)
    expect(run.failed).toBe(false)
    expect(run.annotations.filter(a => a.level === 'error')).toEqual([])
  })

  it('reads the three example files and makes no network connection', () => {
    expect(run.stdout).toContain('Read 3 manifest file(s): 3 dashboard(s), 4 alert(s), 0 service setting(s)')
    expect(run.stderr).not.toContain('NETWORK ACCESS')
  })

  it('sets the outputs: no changes, no plan file', () => {
    expect(run.outputs).toMatchObject({ 'has-changes': 'false', creates: '0', 'plan-file': '' })
  })
})

// zod compiles a parser for each object schema on its first parse unless it runs jitless: for a start-up
// that compile costs more than it saves. src/zod-setup.ts must run before any schema is built (each reads
// the setting when it is constructed), so the order of the entry points' imports matters.
describe('the bundles run zod jitless: no code compiled from strings', () => {
  it('action: validate of the examples and of a broken manifest', async () => {
    for (const manifests of ['examples/observability/**/*.yaml', BROKEN]) {
      const run = track(
        await runAction({
          inputs: { command: 'validate', manifests },
          cwd: manifests === BROKEN ? workspace : undefined,
          env: { NODE_OPTIONS: `--require ${codegenProbe}` }
        })
      )
      expect(run.stdout).toMatch(/Read \d+ manifest file/)
      expect(run.stderr).not.toContain('CODEGEN')
    }
  })

  it('CLI: validate of the examples', async () => {
    const cli = await runCli(['validate', 'examples/observability'], {
      env: { NODE_OPTIONS: `--require ${codegenProbe}` }
    })
    expect(cli.exitCode).toBe(0)
    expect(cli.stderr).not.toContain('CODEGEN')
  })

  it('has a probe that does see zod compile a parser when zod is not jitless', async () => {
    const script = path.join(workspace, 'jit-zod.mjs')
    await writeFile(
      script,
      `import { z } from ${JSON.stringify(pathToFileURL(path.join(REPO_ROOT, 'node_modules/zod/index.js')).href)}\n` +
        'z.strictObject({ a: z.string() }).parse({ a: "x" })\n'
    )
    const probe = spawnSync(process.execPath, ['--require', codegenProbe, script], { encoding: 'utf8' })
    expect(probe.status).toBe(0)
    expect(probe.stderr).toContain('CODEGEN')
  })
})

describe('the runner utility', () => {
  it('names inputs as the runner does: upper case, spaces to underscores, dashes kept', async () => {
    const run = track(
      await runAction({
        inputs: { command: 'validate', manifests: 'examples/managed/*.yaml', mode: 'managed', 'api-url': '' },
        env: { NODE_OPTIONS: `--require ${noNetwork}` }
      })
    )
    expect(
      Object.keys(run.env)
        .filter(k => k.startsWith('INPUT_'))
        .sort()
    ).toEqual(['INPUT_API-URL', 'INPUT_COMMAND', 'INPUT_MANIFESTS', 'INPUT_MODE'])
    expect(run.exitCode).toBe(0)
    expect(run.stdout).toContain('1 service setting(s)')
  })

  it('has a network guard that does catch a connection, so the no-network checks mean something', async () => {
    const run = track(
      await runAction({
        inputs: {
          command: 'plan',
          manifests: 'examples/observability/*.yaml',
          'api-url': 'http://127.0.0.1:9',
          'api-key': 'not-a-real-key',
          'retry-budget': '0'
        },
        env: { NODE_OPTIONS: `--require ${noNetwork}` }
      })
    )
    expect(run.stderr).toContain('NETWORK ACCESS: connect')
    expect(run.exitCode).toBe(1)
  })

  it('parses escaped workflow commands and keeps the last value of an output', () => {
    expect(
      parseAnnotations('::error file=a%2Cb.yaml,line=3,col=7,title=x%3A y::one%0Atwo 100%25\n::notice::n')
    ).toEqual([
      { level: 'error', file: 'a,b.yaml', line: 3, col: 7, title: 'x: y', message: 'one\ntwo 100%' },
      { level: 'notice', message: 'n' }
    ])
    expect(
      parseOutputFile('a<<EOF\nfirst\nEOF\nb<<X\nline 1\nline 2\nX\na<<EOF2\nsecond\nEOF2\nc=plain\n')
    ).toEqual({
      a: 'second',
      b: 'line 1\nline 2',
      c: 'plain'
    })
  })
})

describe('CLI bundle: validate', () => {
  it('prints file:line:col field: message for each problem of examples/broken and exits 1', async () => {
    const cli = await runCli(['validate', 'examples/broken'])
    const file = 'examples/broken/checkout-broken.yaml'
    expect(cli.stdout.trimEnd().split('\n')).toEqual([
      `${file}:8:8 tiles[0].w: must be between 1 and 24`,
      `${file}:14:29 tiles[0].series[0].where: Lucene syntax error at column 13 of the expression: unexpected end of input`,
      `${file}:15:9 tiles[0].series[0].grupBy: unknown field "grupBy" (did you mean "groupBy"?)`,
      `${file}:20:7 tile: dashboard "Checkout (broken)" has no tile named "Eror" (did you mean "Errors"?)`,
      `${file}:22:16 thresholdMax: is required when thresholdType is between`,
      `${file}:23:11 interval: must be one of 1m, 5m, 15m, 30m, 1h, 6h, 12h, 1d, got "2m" (did you mean "1m"?)`
    ])
    expect(cli.stderr).toContain('6 error(s)')
    expect(cli.exitCode).toBe(1)
  })

  it('passes examples/observability with exit code 0 and nothing on stdout', async () => {
    const cli = await runCli(['validate', 'examples/observability'])
    expect(cli.stdout).toBe('')
    expect(cli.stderr).toContain('valid: examples/observability/**/*.{yaml,yml}')
    expect(cli.exitCode).toBe(0)
  })

  // Two deeply nested files: the first stack overflow in the yaml parser is caught, the second aborts the
  // process with "FATAL ERROR: RegExpCompiler Allocation failed - process out of memory" (exit 134), so
  // the user sees a V8 crash dump instead of two "nested too deeply" errors.
  it('reports two deeply nested files as errors instead of crashing', async () => {
    const dir = path.join(workspace, 'deep')
    await mkdir(dir, { recursive: true })
    await writeFile(path.join(dir, 'a.yaml'), `${'- '.repeat(10000)}x\n`)
    await writeFile(path.join(dir, 'b.yaml'), `${'['.repeat(10000)}${']'.repeat(10000)}\n`)
    // Run from the folder that holds them: the CLI reads manifests inside its working directory only.
    const cli = await runCli(['validate', 'deep'], { cwd: workspace })
    expect({ exitCode: cli.exitCode, signal: cli.signal }).toEqual({ exitCode: 1, signal: null })
    expect(cli.stdout).toContain('a.yaml:1:')
    expect(cli.stdout).toContain('b.yaml:1:')
  })
})
