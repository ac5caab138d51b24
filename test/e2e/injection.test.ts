/**
 * Untrusted names and server text on the built bundles' (dist/) real stdout and stderr: a name cannot start
 * a line the runner obeys (`::error::`, `::stop-commands::`, `##[...]`), cannot drive a terminal (ESC, BEL),
 * and bidirectional or invisible characters show as `\u{202E}` in the log, the annotations, the summary
 * and the comment; `#123` in a name links no issue; an invalid input is one error, not two.
 */
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startEmulator, type Emulator } from '../../emulator/index.js'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-api.js'
import { dashboard, timeTile } from '../support/harness.js'
import {
  ACTION_BUNDLE,
  CLI_BUNDLE,
  pullRequestEvent,
  pushEvent,
  runAction,
  runCli,
  type ActionRun
} from './runner.js'

/** Names that try it; each holds INJECTED, so a line it forged can be found. */
const NEWLINE = 'X\n::error::INJECTED newline'
const RETURN = 'Y\r::warning::INJECTED return'
const STOP = '::stop-commands::INJECTED'
const LEGACY = 'Z\n##[error]INJECTED legacy'
/** A name that reads backwards from U+202E on, as `Legacy` + `exe.jpg`; one per stack (names are unique). */
const bidi = (stack: string) => `${stack}\u202Egpj.exe INJECTED`

/**
 * A character a terminal, the runner or a reader would act on or not see, raw: C0 (but a line break) and
 * C1 controls, DEL, bidirectional controls, zero-width characters.
 */
// eslint-disable-next-line no-control-regex -- the point
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069]/

/**
 * What the runner obeys: each line (it splits at CR and LF) that starts, after white space, with `::` or
 * `##[`, as `{ command, message }`.
 */
function obeyed(output: string): Array<{ command: string; message: string }> {
  return output.split(/\r\n|\r|\n/).flatMap(line => {
    const m = /^[\s\u0085]*(?:::([\w-]+)(?: [^:]*)?::(.*)|##\[([\w-]+)[^\]]*\](.*))$/.exec(line)
    return m ? [{ command: (m[1] ?? m[3])!, message: m[2] ?? m[4] ?? '' }] : []
  })
}

/** Commands no name may forge: any stop-commands, and any command whose message is a name's. */
const forged = (output: string) =>
  obeyed(output).filter(c => c.command === 'stop-commands' || /^INJECTED/.test(c.message))

let emu: Emulator
let gh: FakeGitHub
let temp: string
const runs: ActionRun[] = []

beforeAll(async () => {
  for (const bundle of [ACTION_BUNDLE, CLI_BUNDLE])
    if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run \`npm run build\` first.`)
  emu = await startEmulator({ port: 0, rateLimits: { selfHosted: false, managed: false } })
  gh = await startFakeGitHub()
  temp = await mkdtemp(path.join(tmpdir(), 'obsdeploy-injection-'))
})

afterAll(async () => {
  await Promise.all(runs.map(r => r.cleanup()))
  await emu.close()
  await gh.close()
  await rm(temp, { recursive: true, force: true })
})

/** A workspace of one manifest file per dashboard name. */
async function workspace(name: string, names: readonly string[]): Promise<string> {
  const dir = path.join(temp, name)
  await rm(path.join(dir, 'observability'), { recursive: true, force: true })
  await mkdir(path.join(dir, 'observability'), { recursive: true })
  for (const [i, n] of names.entries())
    await writeFile(path.join(dir, 'observability', `d${i}.yaml`), dashboard(n, timeTile('Errors', 0, 0)))
  return dir
}

async function action(cwd: string, inputs: Record<string, string>, pr?: number): Promise<ActionRun> {
  const run = await runAction({
    cwd,
    eventName: pr ? 'pull_request' : 'push',
    event: pr ? pullRequestEvent(pr) : pushEvent('refs/heads/main'),
    inputs: {
      'api-url': emu.url,
      'api-key': emu.credentials.apiKey,
      'github-token': 'ghs_fake_token_for_tests',
      ...inputs
    },
    env: { GITHUB_API_URL: gh.url }
  })
  runs.push(run)
  return run
}

describe('the action: names cannot forge workflow commands', () => {
  let dir: string
  let apply: ActionRun

  beforeAll(async () => {
    dir = await workspace('action', [NEWLINE, RETURN, STOP, LEGACY, bidi('Action'), 'Clean'])
    apply = await action(dir, { command: 'apply', stack: 'inject' })
  })

  it('an apply prints each name on its own progress line, escaped', () => {
    expect(apply.exitCode).toBe(0)
    const progress = apply.stdout.split('\n').filter(l => /^\[\d+\/6\] /.test(l))
    expect(progress).toHaveLength(6)
    for (const shown of [
      'create dashboard "X ::error::INJECTED newline": done',
      'create dashboard "Y ::warning::INJECTED return": done',
      'create dashboard "::stop-commands::INJECTED": done',
      'create dashboard "Z ##[error]INJECTED legacy": done',
      'create dashboard "Action\\u{202E}gpj.exe INJECTED": done'
    ])
      expect(progress.some(l => l.includes(shown))).toBe(true)
  })

  it('leaves no line on stdout or stderr that the runner would obey for a name, and no raw control or bidi', () => {
    for (const output of [apply.stdout, apply.stderr]) {
      expect(forged(output)).toEqual([])
      expect(output).not.toMatch(RAW)
    }
    // The action's own commands are still there: a notice per change, names escaped in it.
    expect(apply.annotations.filter(a => a.level === 'notice').map(a => a.message)).toContain(
      'Dashboard "Action\\u{202E}gpj.exe INJECTED": create'
    )
  })

  it('a dashboard renamed in the UI and then pruned: its name from the server is escaped too', async () => {
    const clean = [...emu.selfHosted.dashboards.values()].find(d => d.name === 'Clean')!
    emu.selfHosted.updateDashboard(clean.id, {
      name: 'Pruned\r\n::error::INJECTED pruned\u001b[2J',
      tags: clean.tags,
      tiles: clean.tiles
    })
    await rm(path.join(dir, 'observability', 'd5.yaml'))
    const prune = await action(dir, { command: 'apply', stack: 'inject', prune: 'true' })
    expect(prune.exitCode).toBe(0)
    expect(prune.stdout).toMatch(
      /^\[1\/1\] delete dashboard "Pruned ::error::INJECTED pruned\\u\{1B\}\[2J": done/m
    )
    for (const output of [prune.stdout, prune.stderr]) {
      expect(forged(output)).toEqual([])
      expect(output).not.toMatch(RAW)
    }
  })
})

describe('the action: what a reviewer reads', () => {
  let plan: ActionRun

  beforeAll(async () => {
    const dir = await workspace('review', [
      bidi('Review'),
      'Fixes #123 and acme/shop#7 @octocat',
      'Pay\u200Bments'
    ])
    plan = await action(dir, { command: 'plan', stack: 'review' }, 41)
  })

  it('shows bidirectional and zero-width characters as \\u{...} in the comment, the summary and the annotations', () => {
    const comment = gh.comments(41)[0]!.body
    for (const text of [comment, plan.summary, ...plan.annotations.map(a => a.message)])
      expect(text).not.toMatch(/[\u202E\u061C\u200E\u200F\u2066-\u2069]|Pay\u200Bments/)
    for (const text of [comment, plan.summary]) {
      expect(text).toContain('Review\\\\u\\{202E\\}gpj.exe INJECTED')
      expect(text).toContain('Pay\\\\u\\{200B\\}ments')
    }
    expect(plan.annotations.map(a => a.message)).toContain('Dashboard "Pay\\u{200B}ments": create')
  })

  it('links no issue and pings no one from a name', () => {
    // Code blocks link nothing: the name is as it is there.
    const comment = gh.comments(41)[0]!.body.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, '')
    expect(comment).toContain('Fixes #\u200B123 and acme/shop#\u200B7 @\u200Boctocat')
    expect(comment).not.toMatch(/(?<!&)#\d/)
  })
})

describe('the action: an invalid input', () => {
  it('is one error line, not two', async () => {
    const dir = await workspace('invalid', ['Clean'])
    const run = await action(dir, { command: 'plan', concurrency: '-1' })
    expect(run.exitCode).toBe(1)
    const errors = run.stdout.split('\n').filter(l => l.startsWith('::error'))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain('concurrency')
  })
})

describe('the CLI: names cannot drive the terminal', () => {
  const env = { OBSDEPLOY_API_KEY: '' }
  let dir: string

  beforeAll(async () => {
    env.OBSDEPLOY_API_KEY = emu.credentials.apiKey
    dir = path.join(temp, 'cli')
    await mkdir(path.join(dir, 'observability'), { recursive: true })
    // YAML's own escapes: \e is ESC, \a is BEL.
    const escaped = `kind: Dashboard\nname: "Title \\e]0;INJECTED\\a \\e[2J"\ntiles:\n${timeTile('Errors', 0, 0)}`
    await writeFile(path.join(dir, 'observability', 'esc.yaml'), escaped)
    await writeFile(
      path.join(dir, 'observability', 'bidi.yaml'),
      dashboard(bidi('Cli'), timeTile('Errors', 0, 0))
    )
  })

  it('apply: the progress on stderr and the report on stdout show ESC, BEL and U+202E escaped', async () => {
    const r = await runCli(['apply', 'observability/', '--api-url', emu.url, '--stack', 'cli'], {
      cwd: dir,
      env
    })
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toContain('create dashboard "Title \\u{1B}]0;INJECTED\\u{7} \\u{1B}[2J": done')
    expect(r.stderr).toContain('create dashboard "Cli\\u{202E}gpj.exe INJECTED": done')
    expect(r.stdout).toContain('Dashboard "Title \\u{1B}]0;INJECTED\\u{7} \\u{1B}[2J"')
    for (const output of [r.stdout, r.stderr]) expect(output).not.toMatch(RAW)
  })

  it('export: the listing of what it wrote shows them escaped', async () => {
    const r = await runCli(['export', '--out', 'exported', '--api-url', emu.url, '--stack', 'cli'], {
      cwd: dir,
      env
    })
    expect(r.exitCode).toBe(0)
    expect(await readdir(path.join(dir, 'exported'))).not.toHaveLength(0)
    expect(r.stdout).toContain('dashboard "Title \\u{1B}]0;INJECTED\\u{7} \\u{1B}[2J"')
    expect(r.stdout).toContain('dashboard "Cli\\u{202E}gpj.exe INJECTED"')
    for (const output of [r.stdout, r.stderr]) expect(output).not.toMatch(RAW)
  })

  it('validate: a name with them, or one that looks like another, is a warning at its place', async () => {
    await writeFile(
      path.join(dir, 'observability', 'twin.yaml'),
      dashboard('Pay\u200Bments', timeTile('E', 0, 0))
    )
    await writeFile(path.join(dir, 'observability', 'one.yaml'), dashboard('Payments', timeTile('E', 0, 0)))
    const r = await runCli(['validate', 'observability/'], { cwd: dir, env })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toContain(
      'observability/esc.yaml:2:7 warning: name: dashboard name "Title \\u{1B}]0;INJECTED\\u{7} \\u{1B}[2J" holds characters that do not show: U+001B, U+0007;'
    )
    expect(r.stdout).toContain(
      'observability/twin.yaml:2:7 warning: name: dashboard name "Pay\\u{200B}ments" looks the same as "Payments" (observability/one.yaml:2): they differ only by U+200B (not shown);'
    )
    for (const output of [r.stdout, r.stderr]) expect(output).not.toMatch(RAW)
  })
})
