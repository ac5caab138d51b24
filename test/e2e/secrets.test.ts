/**
 * The secrets canary, run as the runner runs the built action (dist/index.js) and as a user runs the CLI bundle:
 * connection passwords, webhook urls, headers and query parameters come from secret variables; whatever the run
 * does (plan on a pull request with its comment, apply, plan again after a rotation, a server error that quotes
 * the secret), no value appears in stdout, stderr, the summary, the comment, the plan JSON or the outputs. The
 * runner's own `::add-mask::` commands are the one place a value is written, so the runner masks it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { startEmulator, type Emulator } from '../../emulator/index.js'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-api.js'
import { workspace, type Workspace } from '../support/harness.js'
import { pullRequestEvent, pushEvent, runAction, runCli, type ActionRun } from './runner.js'

const CANARY = {
  password: 'canary-clickhouse-password-9f2c1d',
  url: 'https://hooks.example.com/canary/7b3e55a0c1',
  token: 'Bearer canary-token-41d7e9',
  key: 'canary-routing-key-83ab02'
}
const ROTATED = {
  url: 'https://hooks.example.com/canary/rotated-2291fe',
  token: 'Bearer canary-token-rotated-5c0a77'
}
const ALL = [...Object.values(CANARY), ...Object.values(ROTATED)]

const MANIFESTS = `kind: Connection
name: Warehouse
host: https://warehouse.example.com:8443
username: reader
password: \${secret.WAREHOUSE_PASSWORD}
---
kind: Webhook
name: oncall
service: generic
url: \${secret.ONCALL_URL}
headers:
  Authorization: \${secret.ONCALL_TOKEN}
queryParams:
  routing_key: \${secret.ONCALL_KEY}
---
kind: SavedSearch
name: Errors
source: Logs
where: 'level:error'
---
kind: Alert
name: Error burst
source: saved_search
savedSearch: Errors
threshold: 5
thresholdType: above
interval: 5m
channels:
  - { type: webhook, webhook: oncall }
  - { type: webhook, webhook: ops-pager }
`

let emu: Emulator
let gh: FakeGitHub
let ws: Workspace
const runs: ActionRun[] = []

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: { selfHosted: false, managed: false } })
  gh = await startFakeGitHub()
  ws = workspace({ 'alerting.yaml': MANIFESTS })
})
afterAll(async () => {
  await Promise.all(runs.map(r => r.cleanup()))
  await emu.close()
  await gh.close()
  ws.cleanup()
})

const secretVars = (values: { password: string; url: string; token: string; key: string }) =>
  `WAREHOUSE_PASSWORD: ${values.password}\nONCALL_URL: ${values.url}\nONCALL_TOKEN: ${values.token}\nONCALL_KEY: ${values.key}\n`

async function action(eventName: string, event: object, inputs: Record<string, string>): Promise<ActionRun> {
  const run = await runAction({
    cwd: ws.dir,
    eventName,
    event,
    inputs: {
      'api-url': emu.url,
      'api-key': emu.credentials.apiKey,
      'github-token': 'ghs_fake_token_for_tests',
      stack: 'canary',
      ...inputs
    },
    env: { GITHUB_API_URL: gh.url }
  })
  runs.push(run)
  return run
}

/** Every place a run leaves text: none may hold a secret value (the runner's mask commands aside). */
function expectNoSecret(run: ActionRun): void {
  const stdout = run.stdout
    .split('\n')
    .filter(line => !line.startsWith('::add-mask::'))
    .join('\n')
  const planFile = run.outputs['plan-file'] ? readFileSync(run.outputs['plan-file'], 'utf8') : ''
  const places = {
    stdout,
    stderr: run.stderr,
    summary: run.summary,
    planFile,
    outputs: JSON.stringify(run.outputs),
    comments: gh
      .comments(7)
      .map(c => c.body)
      .join('\n')
  }
  for (const [place, text] of Object.entries(places))
    for (const secret of ALL)
      expect({ place, leaked: text.includes(secret) }).toEqual({ place, leaked: false })
}

describe('secrets never leave a run', () => {
  it('plans on a pull request: the comment shows secrets as set, never their values', async () => {
    const run = await action('pull_request', pullRequestEvent(7), {
      command: 'plan',
      'secret-vars': secretVars(CANARY)
    })
    expect(run.exitCode).toBe(0)
    expectNoSecret(run)
    // The runner masks each value (and the forms it may take).
    for (const secret of Object.values(CANARY)) expect(run.stdout).toContain(`::add-mask::${secret}`)
    const comment = gh.comments(7).at(-1)!.body
    expect(comment).toContain("headers: '(write-only: unknown, will be sent)'")
    expect(comment).toContain('url: (secret)')
  })

  it('applies: the server holds the values, and nothing else does', async () => {
    const run = await action('push', pushEvent('refs/heads/main'), {
      command: 'apply',
      'secret-vars': secretVars(CANARY)
    })
    expect(run.exitCode).toBe(0)
    expectNoSecret(run)
    const hook = emu.selfHosted.webhooks.find(w => w.name === 'oncall')!
    expect(hook).toMatchObject({
      url: CANARY.url,
      headers: { Authorization: CANARY.token },
      queryParams: { routing_key: CANARY.key }
    })
    expect(
      (
        emu.selfHosted as unknown as { connections: Array<{ name: string; password: string }> }
      ).connections.find(c => c.name === 'Warehouse')!.password
    ).toBe(CANARY.password)
  })

  it('plans a rotation as "changed", showing neither the old nor the new value', async () => {
    const run = await action('pull_request', pullRequestEvent(7), {
      command: 'plan',
      'secret-vars': secretVars({ ...CANARY, ...ROTATED })
    })
    expect(run.exitCode).toBe(0)
    expectNoSecret(run)
    // Markdown escapes the parentheses in a table cell: match the words.
    const comment = gh.comments(7).at(-1)!.body
    expect(comment).toMatch(/url.*secret: changed/)
    expect(comment).toMatch(/headers.*write-only: changed/)
    expect(comment).not.toMatch(/queryParams.*write-only: changed/)
  })

  it('the CLI bundle: plan with OBSDEPLOY_SECRET_<NAME>, as JSON: nothing to do, no value anywhere', async () => {
    const env = {
      OBSDEPLOY_API_KEY: emu.credentials.apiKey,
      OBSDEPLOY_SECRET_WAREHOUSE_PASSWORD: CANARY.password,
      OBSDEPLOY_SECRET_ONCALL_URL: CANARY.url,
      OBSDEPLOY_SECRET_ONCALL_TOKEN: CANARY.token,
      OBSDEPLOY_SECRET_ONCALL_KEY: CANARY.key
    }
    const args = ['observability', '--api-url', emu.url, '--stack', 'canary', '--rate-limit', 'off']
    const plan = await runCli(['plan', ...args, '--json'], { cwd: ws.dir, env })
    expect(plan.exitCode).toBe(0)
    for (const secret of ALL) {
      expect(plan.stdout).not.toContain(secret)
      expect(plan.stderr).not.toContain(secret)
    }
    expect(
      JSON.parse(plan.stdout).plan.changes.filter((c: { action: string }) => c.action !== 'noop')
    ).toEqual([])
  })
})
