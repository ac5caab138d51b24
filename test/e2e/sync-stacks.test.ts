/**
 * `command: sync` in a repository of many stacks, as the runner runs the built action: each stack's edits come back
 * on a branch and pull request of its own, in one run, and a stack whose manifests say what the server holds gets
 * neither.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals'
import { startEmulator, type Emulator } from '../../emulator/index.js'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-api.js'
import { workspace, type Workspace } from '../support/harness.js'
import { cloneOf, type GitClone } from './git-clone.js'
import { pushEvent, runAction, scheduleEvent, type ActionRun } from './runner.js'

let emu: Emulator
let gh: FakeGitHub
let ws: Workspace
let repo: GitClone
const runs: ActionRun[] = []

const overview = (team: string) => `# ${team}'s overview
kind: Dashboard
name: Overview
tiles:
  - name: Errors
    x: 0
    y: 0
    w: 6
    h: 3
    series:
      - { type: time, source: Logs, aggFn: count, where: 'service:${team}' }
`

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: { selfHosted: false, managed: false } })
  gh = await startFakeGitHub()
  ws = workspace({
    'payments/stack.yaml': 'name: payments\n',
    'payments/overview.yaml': overview('payments'),
    'search/stack.yaml': 'name: search\n',
    'search/overview.yaml': overview('search'),
    'cart/stack.yaml': 'name: cart\n',
    'cart/overview.yaml': overview('cart')
  })
  repo = cloneOf(ws.dir)
})
afterAll(async () => {
  await Promise.all(runs.map(r => r.cleanup()))
  await emu.close()
  await gh.close()
  ws.cleanup()
  repo.remove()
})

const git = (cwd: string, ...args: string[]) => repo.git(cwd, ...args)

async function action(command: string, eventName: string, event: object): Promise<ActionRun> {
  const run = await runAction({
    cwd: ws.dir,
    eventName,
    event,
    inputs: {
      command,
      stacks: 'true',
      'api-url': emu.url,
      'api-key': emu.credentials.apiKey,
      'github-token': 'ghs_fake_token_for_tests'
    },
    env: { GITHUB_API_URL: gh.url, ...repo.env }
  })
  runs.push(run)
  return run
}

/** Moves a stack's Errors tile, as a save in the UI does. */
async function move(stack: string, x: number): Promise<void> {
  const headers = { Authorization: `Bearer ${emu.credentials.apiKey}`, 'Content-Type': 'application/json' }
  const all = (
    (await (await fetch(`${emu.url}/api/v2/dashboards`, { headers })).json()) as {
      data: Array<Record<string, unknown> & { tags: string[]; tiles: Array<{ x: number }> }>
    }
  ).data
  const d = all.find(r => r.tags.includes(`obsdeploy:${stack}`))!
  d.tiles[0]!.x = x
  const { id, ...body } = d
  const res = await fetch(`${emu.url}/api/v2/dashboards/${String(id)}`, {
    method: 'PUT',
    headers,
    body: JSON.stringify(body)
  })
  expect(res.status).toBe(200)
}

it('opens one pull request per stack that differs, each from its own branch with its own files', async () => {
  expect((await action('apply', 'push', pushEvent('refs/heads/main'))).exitCode).toBe(0)
  await move('payments', 3)
  await move('search', 6)
  const run = await action('sync', 'schedule', scheduleEvent())
  expect(run.exitCode).toBe(0)
  const pulls = gh
    .pulls()
    .map(p => ({ head: p.head, state: p.state }))
    .sort((a, b) => a.head.localeCompare(b.head))
  expect(pulls).toEqual([
    { head: 'obsdeploy/sync/payments', state: 'open' },
    { head: 'obsdeploy/sync/search', state: 'open' }
  ])
  for (const stack of ['payments', 'search'])
    expect(git(repo.origin, 'diff', '--name-only', 'main', `refs/heads/obsdeploy/sync/${stack}`).trim()).toBe(
      `observability/${stack}/overview.yaml`
    )
  expect(
    git(repo.origin, 'show', 'refs/heads/obsdeploy/sync/search:observability/search/overview.yaml')
  ).toContain("# search's overview")
  expect(git(repo.origin, 'branch', '--list', 'obsdeploy/sync/cart').trim()).toBe('')
  expect(git(ws.dir, 'status', '--porcelain').trim()).toBe('')
  expect(run.summary).toContain('stack `payments`')
  expect(run.summary).toContain('stack `search`')
})
