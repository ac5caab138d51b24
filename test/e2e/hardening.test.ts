/**
 * Hardening, through the built bundles (dist/) as a user and a runner meet them: a symlinked manifest leaks
 * nothing anywhere, a wrong server fails in seconds and the process ends, each output is written once, an
 * apply shows progress, and each CLI mistake gets one line that says what to do. Elapsed times are asserted
 * loosely (seconds against what used to take a minute), never exactly.
 */
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import http from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startEmulator, type Emulator } from '../../emulator/index.js'
import { closedPort } from '../contract/helpers.js'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-api.js'
import { alert, dashboard, timeTile } from '../support/harness.js'
import {
  ACTION_BUNDLE,
  CLI_BUNDLE,
  pullRequestEvent,
  pushEvent,
  REPO_ROOT,
  runAction,
  runCli,
  type ActionRun
} from './runner.js'

const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'
const OUTPUTS = ['has-changes', 'creates', 'updates', 'deletes', 'plan-file', 'comment-url', 'matrix']

let emu: Emulator
let gh: FakeGitHub
let temp: string
let workspace: string
let html: http.Server
let htmlUrl: string
const runs: ActionRun[] = []

async function action(options: Parameters<typeof runAction>[0]): Promise<ActionRun> {
  const run = await runAction(options)
  runs.push(run)
  return run
}

const cli = (args: string[], env: Record<string, string> = {}, cwd = workspace) => runCli(args, { cwd, env })

/** Runs `fn` and says how long it took, in seconds. */
async function timed<T>(fn: () => Promise<T>): Promise<{ result: T; seconds: number }> {
  const started = performance.now()
  const result = await fn()
  return { result, seconds: (performance.now() - started) / 1000 }
}

beforeAll(async () => {
  for (const bundle of [ACTION_BUNDLE, CLI_BUNDLE])
    if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run \`npm run build\` first.`)
  emu = await startEmulator({ port: 0, rateLimits: { selfHosted: false, managed: false } })
  gh = await startFakeGitHub()
  temp = await mkdtemp(path.join(tmpdir(), 'obsdeploy-hardening-'))
  workspace = path.join(temp, 'repo')
  await mkdir(path.join(workspace, 'observability'), { recursive: true })
  await writeFile(
    path.join(workspace, 'observability', 'checkout.yaml'),
    dashboard('Checkout', timeTile('Errors', 0, 0)) + alert('Checkout errors', 'Checkout', 'Errors')
  )
  // A web app where the API should be: 200 and HTML to every request.
  html = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' })
    res.end('<!doctype html><html><head><title>HyperDX</title></head><body></body></html>')
  })
  await new Promise<void>(resolve => html.listen(0, '127.0.0.1', resolve))
  htmlUrl = `http://127.0.0.1:${(html.address() as { port: number }).port}`
})

afterAll(async () => {
  await Promise.all(runs.map(r => r.cleanup()))
  await emu.close()
  await gh.close()
  html.closeAllConnections()
  await new Promise(resolve => html.close(resolve))
  await rm(temp, { recursive: true, force: true })
})

describe('a symlinked manifest in a pull request', () => {
  let run: ActionRun
  let repo: string
  beforeAll(async () => {
    repo = path.join(temp, 'pr')
    await mkdir(path.join(repo, 'observability'), { recursive: true })
    const credentials = path.join(temp, 'credentials')
    await writeFile(credentials, `[default]\naws_secret_access_key = ${SECRET}\n`)
    await writeFile(path.join(repo, 'observability', 'ok.yaml'), dashboard('Fine', timeTile('Errors', 0, 0)))
    await symlink(credentials, path.join(repo, 'observability', 'x.yaml'))
    run = await action({
      cwd: repo,
      eventName: 'pull_request',
      event: pullRequestEvent(31),
      inputs: { command: 'validate', 'github-token': 'ghs_fake_token_for_tests' },
      env: { GITHUB_API_URL: gh.url }
    })
  })

  it('is refused with an error at the link, naming the link', () => {
    expect(run.exitCode).toBe(1)
    expect(run.annotations).toContainEqual(
      expect.objectContaining({
        level: 'error',
        file: 'observability/x.yaml',
        message: expect.stringMatching(/^is a symbolic link to a file outside the workspace: refused/)
      })
    )
  })

  it("never shows the target's content: not in the log, the annotations, the summary, the comment or the outputs", async () => {
    const comments = gh.comments(31)
    expect(comments).toHaveLength(1)
    expect(comments[0]!.body).toContain('observability/x.yaml')
    const outputs = await readFile(run.env.GITHUB_OUTPUT!, 'utf8')
    for (const [where, text] of Object.entries({
      stdout: run.stdout,
      stderr: run.stderr,
      summary: run.summary,
      comment: comments[0]!.body,
      outputs
    })) {
      for (const leaked of [SECRET, 'aws_secret_access_key', path.join(temp, 'credentials')])
        expect({ where, leaked: text.includes(leaked) }).toEqual({ where, leaked: false })
    }
  })

  it('writes each output once, failure or not', () => {
    expect(run.outputWrites).toEqual(Object.fromEntries(OUTPUTS.map(o => [o, 1])))
    expect(run.outputs['comment-url']).toBe(gh.comments(31)[0]!.html_url)
  })
})

describe('manifests outside the workspace', () => {
  it('are refused by pattern and by path, naming the input and the pattern, and never read', async () => {
    const secrets = path.join(temp, 'outside')
    await mkdir(secrets, { recursive: true })
    await writeFile(path.join(secrets, 'leak.yaml'), `kind: Dashboard\nname: ${SECRET}\n`)
    for (const pattern of ['../outside/*.yaml', '/etc/passwd']) {
      const run = await action({
        cwd: workspace,
        eventName: 'pull_request',
        event: pullRequestEvent(32),
        inputs: { command: 'validate', manifests: pattern, 'github-token': 'ghs_fake_token_for_tests' },
        env: { GITHUB_API_URL: gh.url }
      })
      expect(run.exitCode).toBe(1)
      expect(run.stdout).toContain(`::manifests: '${pattern}' reaches outside the workspace (${workspace})`)
      for (const text of [run.stdout, run.stderr, run.summary])
        expect(text).not.toMatch(/root:x|wJalrXUtnFEMI/)
    }
  })
})

describe('the action writes each output exactly once', () => {
  it.each([
    ['a plan that succeeds', 'push', pushEvent('refs/heads/main'), {}],
    ['invalid inputs', 'push', pushEvent('refs/heads/main'), { concurrency: '-1' }],
    ['an apply refused on a pull request', 'pull_request', pullRequestEvent(32), { command: 'apply' }]
  ])('%s', async (_what, eventName, event, inputs: Record<string, string>) => {
    const run = await action({
      cwd: workspace,
      eventName,
      event,
      inputs: {
        command: 'plan',
        'api-url': emu.url,
        'api-key': emu.credentials.apiKey,
        'github-token': 'ghs_fake_token_for_tests',
        ...inputs
      },
      env: { GITHUB_API_URL: gh.url }
    })
    expect(run.outputWrites).toEqual(Object.fromEntries(OUTPUTS.map(o => [o, 1])))
  })

  it('an api-url ending in /api/v2 is stripped with a warning, and the plan goes on', async () => {
    const run = await action({
      cwd: workspace,
      inputs: { command: 'plan', 'api-url': `${emu.url}/api/v2`, 'api-key': emu.credentials.apiKey }
    })
    expect(run.exitCode).toBe(0)
    expect(run.annotations).toContainEqual(
      expect.objectContaining({
        level: 'warning',
        message: expect.stringContaining(`input \`api-url\`: ends in /api/v2: dropped it`)
      })
    )
    expect(run.outputs.creates).toBe('2')
  })

  it('an apply logs one line per change as it goes', async () => {
    const run = await action({
      cwd: workspace,
      inputs: { command: 'apply', 'api-url': emu.url, 'api-key': emu.credentials.apiKey, stack: 'progress' }
    })
    expect(run.exitCode).toBe(0)
    const lines = run.stdout.split('\n').filter(l => /^\[\d+\/2\] /.test(l))
    expect(lines).toEqual([
      expect.stringMatching(/^\[1\/2\] create dashboard "Checkout": done \(\d+\.\d s\)$/),
      expect.stringMatching(/^\[2\/2\] create alert "Checkout errors": done \(\d+\.\d s\)$/)
    ])
  })
})

describe('failing fast (the CLI bundle)', () => {
  const key = { OBSDEPLOY_API_KEY: 'fast-fail-key-0001' }

  it('a server that answers HTML: the result in seconds, the process ends, and the message says what is wrong', async () => {
    const { result, seconds } = await timed(() => cli(['plan', 'observability/', '--api-url', htmlUrl], key))
    expect(result.exitCode).toBe(1)
    expect(seconds).toBeLessThan(10)
    expect(result.stdout).toContain('The server answered with an HTML page, not the API')
    expect(result.stderr).not.toContain('UND_ERR_DESTROYED')
  })

  it('connection refused on a closed port: the connect budget, then a message that says what to check', async () => {
    const port = await closedPort()
    const { result, seconds } = await timed(() =>
      cli(['plan', 'observability/', '--api-url', `http://127.0.0.1:${port}`, '--connect-budget', '2'], key)
    )
    expect(result.exitCode).toBe(1)
    expect(seconds).toBeLessThan(10)
    expect(result.stdout).toContain('ECONNREFUSED')
    expect(result.stdout).toContain(
      '(connect budget 2.0 s). Nothing has answered at this address yet: check api-url'
    )
  })

  it('https against a plain http server: one attempt, and the hint to use http', async () => {
    const { result, seconds } = await timed(() =>
      cli(['plan', 'observability/', '--api-url', emu.url.replace('http:', 'https:')], key)
    )
    expect(result.exitCode).toBe(1)
    expect(seconds).toBeLessThan(10)
    expect(result.stdout).toContain(
      'connection failed (ERR_SSL_WRONG_VERSION_NUMBER). The server answered in plain HTTP'
    )
  })
})

describe('messages that say what to do (the CLI bundle)', () => {
  /** stderr's lines, without the trailing empty one. */
  const lines = (text: string) => text.replace(/\n$/, '').split('\n')

  it('an unknown option: one line with a suggestion, and that command’s usage', async () => {
    const r = await cli(['plan', '--jsn'])
    expect(r.exitCode).toBe(2)
    expect(lines(r.stderr)).toEqual([
      'obsdeploy plan: unknown option --jsn (did you mean --json?)',
      'Usage: obsdeploy plan [manifest globs or folders...] --api-url URL [options]   (obsdeploy plan --help lists its options)'
    ])
    const bogus = await cli(['validate', '--bogus-flag'])
    expect(lines(bogus.stderr)[0]).toBe('obsdeploy validate: unknown option --bogus-flag')
    expect(lines(bogus.stderr)).toHaveLength(2)
  })

  it('--api-key names the environment variable and why, and never echoes the value', async () => {
    const r = await cli(['plan', '--api-key', 'sekret-value-123'])
    expect(r.exitCode).toBe(2)
    expect(lines(r.stderr)[0]).toBe(
      'obsdeploy plan: --api-key is not a flag: secrets come only from the environment, so they stay out of shell history and the process list. Set OBSDEPLOY_API_KEY instead (export OBSDEPLOY_API_KEY=...)'
    )
    expect(r.stderr + r.stdout).not.toContain('sekret-value-123')
    const secret = await cli(['plan', '--key-secret=abc'])
    expect(secret.stderr).toContain('Set OBSDEPLOY_KEY_SECRET instead')
  })

  it('a missing key names the variable; managed credentials in self-hosted mode suggest --mode managed', async () => {
    const r = await cli(['plan', '--api-url', emu.url], {
      OBSDEPLOY_KEY_ID: 'id',
      OBSDEPLOY_KEY_SECRET: 'secret'
    })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain(
      'obsdeploy plan: OBSDEPLOY_API_KEY: is required in self-hosted mode: a personal API access key (team settings, API keys). OBSDEPLOY_KEY_ID and OBSDEPLOY_KEY_SECRET are managed-mode credentials: did you mean --mode managed?'
    )
  })

  it.each([
    ['-1', 'got "-1"'],
    ['2.5', 'got "2.5"']
  ])('--concurrency %s: its range, not "ambiguous" or silence', async (value, got) => {
    const r = await cli(['apply', '--concurrency', value, '--api-url', emu.url], {
      OBSDEPLOY_API_KEY: 'k-000001'
    })
    expect(r.exitCode).toBe(2)
    expect(lines(r.stderr)[0]).toBe(
      `obsdeploy apply: --concurrency: must be a whole number from 1 to 64, ${got}`
    )
  })

  it('--vars-file names the option and the path it could not read', async () => {
    const r = await cli(['validate', '--vars-file', 'missing.yaml'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toBe(
      `obsdeploy validate: --vars-file missing.yaml: cannot be read: no such file (${path.join(workspace, 'missing.yaml')})\n`
    )
  })

  it('<command> --help prints that command’s flags, an example and its exit codes', async () => {
    const plan = await cli(['plan', '--help'])
    expect(plan.exitCode).toBe(0)
    expect(plan.stdout).toMatch(/^obsdeploy plan: show what would change against the live API\n/)
    expect(plan.stdout).toContain('--check-queries')
    expect(plan.stdout).toContain('Example:\n  export OBSDEPLOY_API_KEY=')
    expect(plan.stdout).toContain('Exit codes:\n  0  planned')
    expect(plan.stdout).not.toContain('--concurrency')
    const validate = await cli(['validate', '--help'])
    expect(validate.stdout).not.toContain('--api-url')
    const apply = await cli(['apply', '-h'])
    expect(apply.stdout).toMatch(
      /--concurrency N .*\n?.*A whole\s+number\s+from\s+1\s+to\s+64\.\s+\[default: 4\]/
    )
  })

  it('an empty manifest file is a warning: "no documents"', async () => {
    const dir = path.join(temp, 'empty')
    await mkdir(path.join(dir, 'observability'), { recursive: true })
    await writeFile(path.join(dir, 'observability', 'todo.yaml'), '# nothing yet\n')
    await writeFile(path.join(dir, 'observability', 'real.yaml'), dashboard('Real', timeTile('Errors', 0, 0)))
    const r = await cli(['validate', 'observability/'], {}, dir)
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toMatch(
      /^observability\/todo\.yaml:1:1 warning: no documents: the file is empty or holds only comments/m
    )
  })
})

describe('the README', () => {
  it('shows exactly what `obsdeploy --help` prints, and the command it gives runs from a clone', async () => {
    const readme = await readFile(path.join(REPO_ROOT, 'README.md'), 'utf8')
    expect(readme).toContain('npm ci && npx obsdeploy --help')
    const block = /```text\n\$ obsdeploy --help\n([\s\S]*?)```/.exec(readme)![1]
    const fromBundle = await runCli(['--help'])
    expect(fromBundle.stdout).toBe(block)
    // The README's command, as written (npm ci has run: this is the clone the tests run in). Offline: npx
    // must find the package's own bin, not look for a package of that name on the registry.
    const { spawnSync } = await import('node:child_process')
    const npx = spawnSync('npx', ['obsdeploy', '--help'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), npm_config_offline: 'true' }
    })
    expect(npx.status).toBe(0)
    expect(npx.stdout).toBe(block)
  })
})
