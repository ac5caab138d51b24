/**
 * Governance as an attacker tries it, through the built bundles as the runner runs them: rules never see a
 * resolved secret (the canary in every form stays out of every output, and a prefix probe learns nothing);
 * on a pull request the base commit's rules are in force, so deleting or weakening one is named in the
 * heading and still enforced, and a new suppression is named; `suppressible: false` holds; a central
 * `policy-source` adds rules; when the base cannot be read the heading says so; and the CLI's
 * `--policy-source` reads a git ref.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { startEmulator, type Emulator } from '../../emulator/index.js'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-api.js'
import { workspace, type Workspace } from '../support/harness.js'
import { BASE_SHA, pullRequestEvent, runAction, runCli, type ActionRun } from './runner.js'

const spaces: Workspace[] = []
const runs: ActionRun[] = []
const fakes: FakeGitHub[] = []
let emu: Emulator

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: { selfHosted: false, managed: false } })
})
afterAll(async () => {
  await Promise.all(runs.map(r => r.cleanup()))
  await Promise.all(fakes.map(f => f.close()))
  spaces.forEach(s => s.cleanup())
  await emu.close()
})

const space = (files: Record<string, string>): Workspace => {
  const ws = workspace(files)
  spaces.push(ws)
  return ws
}
const github = async (): Promise<FakeGitHub> => {
  const gh = await startFakeGitHub()
  fakes.push(gh)
  return gh
}

/** The action on a pull request, with the loopback GitHub (the base commit is what `gh` holds). */
async function onPullRequest(
  ws: Workspace,
  gh: FakeGitHub,
  inputs: Record<string, string>,
  number = 5
): Promise<ActionRun> {
  const run = await runAction({
    cwd: ws.dir,
    eventName: 'pull_request',
    event: pullRequestEvent(number),
    inputs: { command: 'validate', 'github-token': 'ghs_fake_token_for_tests', stack: 'shop', ...inputs },
    env: { GITHUB_API_URL: gh.url },
    timeoutMs: 120_000
  })
  runs.push(run)
  return run
}

const tile = (name: string, x: number) => `  - name: ${name}
    x: ${x}
    y: 0
    w: 6
    h: 3
    series: [{ type: time, source: Logs, aggFn: count }]
`
const CHECKOUT = `kind: Dashboard
name: Checkout
tiles:
${tile('A', 0)}${tile('B', 6)}`
const BASE_POLICY = `kind: Policy
name: org
rules:
  - id: tile-budget
    kinds: [Dashboard]
    severity: error
    message: at most 1 tile
    check: size(resource.tiles) <= 1
`
/** The summary's heading, as a reader sees it: markdown escapes and zero-width spaces undone. */
const heading = (run: ActionRun) => readable(run.summary.split('\n').find(l => l.startsWith('### ')) ?? '')
const readable = (markdown: string) =>
  markdown
    .replace(/\\([\\`*_{}[\]()#+!|~])/g, '$1')
    .replace(/\u200b/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&gt;/g, '>')
    .replace(/&lt;/g, '<')
    .replace(/&amp;/g, '&')
const findings = (run: ActionRun, id: string) =>
  run.annotations
    .filter(a => a.file !== undefined && a.message.includes(`: ${id}]`))
    .map(a => `${a.level} ${a.file}:${a.line}:${a.col}`)

describe('rules never see a resolved secret (plan, emulator)', () => {
  const URL = 'https://hooks.example.com/canary/7b3e55a0c1d9'
  const POLICY = `kind: Policy
name: probes
rules:
  - { id: upper, kinds: [Webhook], severity: warning, message: probe, check: "{'a': 1}[resource.url.upperAscii()] == 1" }
  - { id: lower, kinds: [Webhook], severity: warning, message: probe, check: "{'a': 1}[resource.url.lowerAscii()] == 1" }
  - { id: cut, kinds: [Webhook], severity: warning, message: probe, check: "{'a': 1}[resource.url.substring(12)] == 1" }
  - { id: prefix-match, kinds: [Webhook], severity: warning, message: probe, check: "!resource.url.startsWith('https://hooks.example.com/canary/7')" }
  - { id: prefix-miss, kinds: [Webhook], severity: warning, message: probe, check: "!resource.url.startsWith('https://hooks.example.com/canary/X')" }
`
  it('the canary in any case or cut is in no output, and a prefix probe gives one answer for any prefix', async () => {
    const gh = await github()
    const ws = space({
      'policy.yaml': POLICY,
      'hooks.yaml': 'kind: Webhook\nname: pager\nservice: generic\nurl: ${secret.PAGER_URL}\n'
    })
    const run = await onPullRequest(ws, gh, {
      command: 'plan',
      'api-url': emu.url,
      'api-key': emu.credentials.apiKey,
      'rate-limit': 'off',
      'secret-vars': `PAGER_URL: ${URL}\n`,
      stack: 'canary'
    })
    const planFile = run.outputs['plan-file'] ? readFileSync(run.outputs['plan-file'], 'utf8') : ''
    const places = {
      stdout: run.stdout
        .split('\n')
        .filter(l => !l.startsWith('::add-mask::'))
        .join('\n'),
      stderr: run.stderr,
      summary: run.summary,
      comment: gh
        .comments(5)
        .map(c => c.body)
        .join('\n'),
      annotations: JSON.stringify(run.annotations),
      planFile
    }
    expect(places.comment).not.toBe('')
    for (const [place, text] of Object.entries(places))
      for (const form of [URL, URL.toUpperCase(), URL.toLowerCase(), URL.slice(12), '7B3E55A0C1D9'])
        expect({ place, form, leaked: text.toUpperCase().includes(form.toUpperCase()) }).toEqual({
          place,
          form,
          leaked: false
        })
    // What a rule reads is the placeholder: whether a prefix matches the secret cannot change its answer.
    expect(findings(run, 'prefix-match')).toEqual(findings(run, 'prefix-miss'))
    expect(findings(run, 'prefix-match')).toEqual([])
  })
})

describe("on a pull request the base commit's rules are in force (validate)", () => {
  it('a rule the pull request deletes is named in the heading and still enforced', async () => {
    const gh = await github()
    gh.setCommit('acme/shop', BASE_SHA, {
      'observability/policy.yaml': BASE_POLICY,
      'observability/checkout.yaml': CHECKOUT
    })
    const ws = space({ 'checkout.yaml': CHECKOUT })
    const run = await onPullRequest(ws, gh, {})
    expect(run.exitCode).toBe(1)
    expect(findings(run, 'tile-budget')).toEqual(['error observability/checkout.yaml:1:1'])
    expect(heading(run)).toMatch(
      /^### ❌ Validation for stack shop .*: this pull request removes policy rule "tile-budget"/
    )
    const comment = gh.comments(5).at(-1)!.body
    expect(comment).toContain('removes policy rule')
    expect(comment).toMatch(
      /Rules in force: 1, from the pull request&#39;s base commit 9049f12|Rules in force: 1, from the pull request's base commit 9049f12/
    )
  })

  it('a rule the pull request weakens is named with how, and its base version still holds', async () => {
    const gh = await github()
    gh.setCommit('acme/shop', BASE_SHA, {
      'observability/policy.yaml': BASE_POLICY,
      'observability/checkout.yaml': CHECKOUT
    })
    const ws = space({
      'policy.yaml': BASE_POLICY.replace('severity: error', 'severity: warning').replace(
        '<= 1',
        '<= 1 || true'
      ),
      'checkout.yaml': CHECKOUT
    })
    const run = await onPullRequest(ws, gh, {})
    expect(run.exitCode).toBe(1)
    expect(findings(run, 'tile-budget')).toEqual(['error observability/checkout.yaml:1:1'])
    expect(heading(run)).toContain(
      'this pull request weakens policy rule "tile-budget" (severity error to warning, check changed)'
    )
  })

  it('a suppression the pull request adds is named in the heading, which is then never ✅', async () => {
    const gh = await github()
    gh.setCommit('acme/shop', BASE_SHA, {
      'observability/policy.yaml': BASE_POLICY,
      'observability/checkout.yaml': CHECKOUT
    })
    const ws = space({
      'policy.yaml': BASE_POLICY,
      'checkout.yaml': `# obsdeploy: allow tile-budget -- two tiles agreed with payments\n${CHECKOUT}`
    })
    const run = await onPullRequest(ws, gh, {})
    expect(run.exitCode).toBe(0)
    expect(findings(run, 'tile-budget')).toEqual([])
    expect(heading(run)).toMatch(
      /^### ⚠️ Validation .*: this pull request adds a new suppression of "tile-budget" \(for Dashboard "Checkout"\)$/
    )
    expect(gh.comments(5).at(-1)!.body).toMatch(/### ⚠️ .*a new suppression/)
    expect(run.annotations).toContainEqual(
      expect.objectContaining({ level: 'warning', file: 'observability/checkout.yaml', line: 1 })
    )
  })

  it('a rule that is not suppressible refuses a suppression at its line', async () => {
    const gh = await github()
    const policy = BASE_POLICY.replace('severity: error', 'severity: error\n    suppressible: false')
    gh.setCommit('acme/shop', BASE_SHA, {
      'observability/policy.yaml': policy,
      'observability/checkout.yaml': CHECKOUT
    })
    const ws = space({
      'policy.yaml': policy,
      'checkout.yaml': `# obsdeploy: allow tile-budget -- please\n${CHECKOUT}`
    })
    const run = await onPullRequest(ws, gh, {})
    expect(run.exitCode).toBe(1)
    expect(run.annotations).toContainEqual(
      expect.objectContaining({
        level: 'error',
        file: 'observability/checkout.yaml',
        line: 1,
        col: 1,
        message: expect.stringContaining(
          'policy rule "tile-budget" cannot be suppressed (suppressible: false'
        )
      })
    )
    expect(findings(run, 'tile-budget')).toEqual(['error observability/checkout.yaml:2:1'])
  })

  it('when the base cannot be read, the heading says the pull request obeys its own files', async () => {
    const gh = await github()
    const ws = space({ 'policy.yaml': 'kind: Policy\nname: org\n', 'checkout.yaml': CHECKOUT })
    const run = await onPullRequest(ws, gh, {})
    expect(run.exitCode).toBe(0)
    expect(heading(run)).toContain(
      "this pull request obeys its own policy files: its base commit's could not be read"
    )
    expect(run.annotations.map(a => a.message)).toContainEqual(
      expect.stringContaining(
        "the rules of the pull request's base commit could not be read (GitHub answered 404"
      )
    )
  })
})

describe('a policy source the pull request cannot change', () => {
  it('the action reads owner/repo@ref:path through the API, and its rules hold', async () => {
    const gh = await github()
    gh.setCommit('acme/policies', 'c'.repeat(40), { 'org/rules.yaml': BASE_POLICY, 'README.md': 'x' }, [
      'main'
    ])
    gh.setCommit('acme/shop', BASE_SHA, { 'observability/checkout.yaml': CHECKOUT })
    const ws = space({ 'checkout.yaml': CHECKOUT })
    const run = await onPullRequest(ws, gh, { 'policy-source': 'acme/policies@main:org' })
    expect(run.exitCode).toBe(1)
    expect(findings(run, 'tile-budget')).toEqual(['error observability/checkout.yaml:1:1'])
    expect(readable(run.summary)).toContain(
      '| tile-budget | error | each manifest | yes | acme/policies@main:org/rules.yaml:4 |'
    )
    // Unreadable, it is an error: nothing is planned without its rules.
    const missing = await onPullRequest(ws, gh, { 'policy-source': 'acme/policies@gone:org' }, 6)
    expect(missing.exitCode).toBe(1)
    expect(missing.annotations.map(a => a.message)).toContainEqual(
      expect.stringContaining('policy-source acme/policies@gone:org: could not be read (GitHub answered 404')
    )
  })

  it('the CLI reads <git ref>:<path> of the local repository, not the edited working copy', async () => {
    const ws = space({ 'checkout.yaml': CHECKOUT })
    writeFileSync(path.join(ws.dir, 'rules.yaml'), BASE_POLICY)
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: ws.dir })
    git('init', '-q', '-b', 'main')
    git('add', 'rules.yaml')
    git('commit', '-q', '-m', 'rules')
    writeFileSync(path.join(ws.dir, 'rules.yaml'), BASE_POLICY.replace('<= 1', '<= 9'))
    const cli = await runCli(['validate', 'observability', '--policy-source', 'main:rules.yaml'], {
      cwd: ws.dir
    })
    expect(cli.exitCode).toBe(1)
    expect(cli.stdout).toContain('at most 1 tile [policy org: tile-budget]')
    const local = await runCli(['validate', 'observability', '--policy-source', 'rules.yaml'], {
      cwd: ws.dir
    })
    expect(local.exitCode).toBe(0)
  })
})
