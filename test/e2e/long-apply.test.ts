/**
 * Long applies announced, as the runner runs the built action (dist/index.js) and as a user runs the CLI bundle,
 * against the emulator: a pull request that invites 2,000 people says in its comment and job summary, and `obsdeploy
 * plan` on stdout, that the apply takes about 31 minutes at self-hosted's 100 requests a minute; an apply the rate
 * limit paces says first how long it takes and then, in the action's log and on the CLI's stderr, the time left.
 * The applies are paced at 10 requests a second, so that they are paced (more requests than one window lets go) and
 * still over in seconds; what is checked is what the lines say, not how long anything took.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startEmulator, type Emulator } from '../../emulator/index.js'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-api.js'
import { workspace, type Workspace } from '../support/harness.js'
import { pullRequestEvent, pushEvent, runAction, runCli, type ActionRun } from './runner.js'

const ANNOUNCED = 'about 31 min at 100 requests a minute (about 3,000 requests)'

let emu: Emulator
let gh: FakeGitHub
const workspaces: Workspace[] = []
const runs: ActionRun[] = []

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: { selfHosted: false, managed: false } })
  gh = await startFakeGitHub()
})
afterAll(async () => {
  await Promise.all(runs.map(r => r.cleanup()))
  workspaces.forEach(ws => ws.cleanup())
  await emu.close()
  await gh.close()
})

/** A workspace of `n` TeamMember manifests `<prefix><i>@example.com`, in files of 500 (a file holds 1,000 at most). */
function people(prefix: string, n: number): Workspace {
  const files: Record<string, string> = {}
  for (let i = 0; i < n; i += 500)
    files[`team-${i}.yaml`] = Array.from(
      { length: Math.min(500, n - i) },
      (_, j) => `kind: TeamMember\nemail: ${prefix}${i + j}@example.com\n`
    ).join('---\n')
  const ws = workspace(files)
  workspaces.push(ws)
  return ws
}

async function action(
  ws: Workspace,
  eventName: string,
  event: object,
  inputs: Record<string, string>
): Promise<ActionRun> {
  const run = await runAction({
    cwd: ws.dir,
    eventName,
    event,
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

/** The progress lines of a paced apply of 40 invitations at 10 requests a second: announced, then the time left. */
function expectTimeLeft(log: string): void {
  expect(log).toContain(
    "applying about 7 s at 600 requests a minute (about 60 requests), paced below the server's rate limit (rate-limit)"
  )
  const settled = log.split('\n').filter(l => / create team member ".*": done \(/.test(l))
  expect(settled).toHaveLength(40)
  // Every line but the last says how long is left; the last says only how long it took.
  for (const line of settled.slice(0, -1)) expect(line).toMatch(/ s, about \d+ s left\)$/)
  expect(settled.at(-1)).toMatch(/^\[40\/40\] .*: done \(\d+\.\d s\)$/)
}

describe('a plan of 2,000 invitations', () => {
  it('says in the comment and the job summary that the apply takes about 31 min at 100 requests a minute', async () => {
    const ws = people('person', 2000)
    const run = await action(ws, 'pull_request', pullRequestEvent(37), { command: 'plan', stack: 'many' })
    expect(run.exitCode).toBe(0)
    expect(run.outputs.creates).toBe('2000')
    for (const text of [gh.comments(37).at(-1)!.body, run.summary])
      expect(text).toContain(
        `⏱️ **Long apply:** ${ANNOUNCED}, paced below the server's rate limit (\`rate-limit\`).`
      )
  }, 120_000)

  it('says it on the CLI: `obsdeploy plan` prints it under the verdict', async () => {
    const ws = people('person', 2000)
    const plan = await runCli(['plan', 'observability', '--api-url', emu.url, '--stack', 'many'], {
      cwd: ws.dir,
      env: { OBSDEPLOY_API_KEY: emu.credentials.apiKey },
      timeoutMs: 120_000
    })
    expect(plan.exitCode).toBe(0)
    expect(plan.stdout).toContain(`Plan: 2000 to create.\nLong apply: ${ANNOUNCED}`)
  }, 120_000)
})

describe('an apply the rate limit paces', () => {
  it("shows the time left in the action's log", async () => {
    const ws = people('early', 40)
    const run = await action(ws, 'push', pushEvent('refs/heads/main'), {
      command: 'apply',
      stack: 'early',
      'rate-limit': '10/1s'
    })
    expect(run.exitCode).toBe(0)
    expectTimeLeft(run.stdout)
  }, 120_000)

  it("shows the time left on the CLI's stderr", async () => {
    const ws = people('late', 40)
    const apply = await runCli(
      ['apply', 'observability', '--api-url', emu.url, '--stack', 'late', '--rate-limit', '10/1s'],
      { cwd: ws.dir, env: { OBSDEPLOY_API_KEY: emu.credentials.apiKey }, timeoutMs: 120_000 }
    )
    expect(apply.exitCode).toBe(0)
    expectTimeLeft(apply.stderr)
  }, 120_000)
})
