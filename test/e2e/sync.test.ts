/**
 * The UI and the repository in one loop, as GitHub's runner runs the built action (dist/index.js): a merge
 * applies; a person edits in the UI (moves a tile, raises a threshold, names an alert); the nightly `command: sync`
 * commits the manifests as the server now holds them to `obsdeploy/sync/<stack>` (comments kept) and opens one
 * pull request whose plan is empty; a second edit updates that pull request; once it is merged, a run opens and
 * closes nothing. Git is real: the workspace is a clone with a bare repository on disk as its `origin`.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { startEmulator, type Emulator } from '../../emulator/index.js'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-api.js'
import { workspace, type Workspace } from '../support/harness.js'
import { cloneOf, type GitClone } from './git-clone.js'
import { pushEvent, runAction, scheduleEvent, type ActionRun } from './runner.js'

let emu: Emulator
let gh: FakeGitHub
let ws: Workspace
let origin: string
let repo: GitClone
const runs: ActionRun[] = []
const BRANCH = 'obsdeploy/sync/shop'
const FILE = 'observability/checkout.yaml'

// What a person wrote: comments, quoting and key order the sync must keep.
const MANIFEST = `# Checkout: owned by the payments team.
kind: Dashboard
name: Checkout
tags: [payments]
tiles:
  # the tile on-call looks at first
  - name: Errors
    x: 0
    y: 0
    w: 6
    h: 3
    series:
      - type: time
        source: Logs # by name
        aggFn: count
        where: 'level:error'
---
kind: Alert
name: Checkout errors
dashboard: Checkout
tile: Errors
threshold: 10 # agreed with payments
thresholdType: above
interval: 5m
channel: { type: webhook, webhook: ops-pager }
`

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: { selfHosted: false, managed: false }, server: 'next' })
  gh = await startFakeGitHub()
  ws = workspace({ 'checkout.yaml': MANIFEST })
  repo = cloneOf(ws.dir)
  origin = repo.origin
})
afterAll(async () => {
  await Promise.all(runs.map(r => r.cleanup()))
  await emu.close()
  await gh.close()
  ws.cleanup()
  repo.remove()
})

async function action(command: string, eventName: string, event: object): Promise<ActionRun> {
  const run = await runAction({
    cwd: ws.dir,
    eventName,
    event,
    inputs: {
      command,
      'api-url': emu.url,
      'api-key': emu.credentials.apiKey,
      'github-token': 'ghs_fake_token_for_tests'
    },
    env: { GITHUB_API_URL: gh.url, ...repo.env }
  })
  runs.push(run)
  return run
}

const sync = () => action('sync', 'schedule', scheduleEvent())
const git = (cwd: string, ...args: string[]) => repo.git(cwd, ...args)
const onBranch = (file: string) => git(origin, 'show', `refs/heads/${BRANCH}:${file}`)
const dashboardId = () => [...emu.selfHosted.dashboards.values()].find(d => d.name === 'Checkout')!.id
const alertId = () => [...emu.selfHosted.alerts.values()][0]!.id

/** The UI's chart editor moves a tile: PATCH /dashboards/{id} with the tiles, under a session. */
async function moveTile(x: number): Promise<void> {
  const headers = { 'Content-Type': 'application/json', Cookie: emu.uiCookie() }
  const list = (await (await fetch(`${emu.url}/dashboards`, { headers })).json()) as Array<{
    _id: string
    tiles: Array<Record<string, unknown>>
  }>
  const tiles = list.find(d => d._id === dashboardId())!.tiles.map(t => ({ ...t, x }))
  const res = await fetch(`${emu.url}/dashboards/${dashboardId()}`, {
    method: 'PATCH',
    headers,
    body: JSON.stringify({ tiles })
  })
  expect(res.status).toBe(200)
}

/** The alert form: the alert read and written back whole (a newer server's displayName with it). */
async function editAlert(change: Record<string, unknown>): Promise<void> {
  const at = `${emu.url}/api/v2/alerts/${alertId()}`
  const headers = { Authorization: `Bearer ${emu.credentials.apiKey}`, 'Content-Type': 'application/json' }
  const read = (await (await fetch(at, { headers })).json()) as { data: Record<string, unknown> }
  const { id: _id, teamId: _t, state: _s, createdAt: _c, updatedAt: _u, ...body } = read.data
  const res = await fetch(at, { method: 'PUT', headers, body: JSON.stringify({ ...body, ...change }) })
  expect(res.status).toBe(200)
}

describe('UI edits come back as one pull request', () => {
  it('1. a push to main applies the manifests', async () => {
    const run = await action('apply', 'push', pushEvent('refs/heads/main'))
    expect(run.exitCode).toBe(0)
    expect(emu.selfHosted.alerts.size).toBe(1)
    // Nothing differs yet: a sync opens nothing.
    const quiet = await sync()
    expect(quiet.exitCode).toBe(0)
    expect(gh.pulls()).toEqual([])
    expect(git(origin, 'branch', '--list', BRANCH).trim()).toBe('')
  })

  it('2. a tile moved, a threshold and an alert name changed in the UI open one pull request with an empty plan', async () => {
    await moveTile(4)
    await editAlert({ threshold: 25, displayName: 'Pager: checkout errors' })
    const run = await sync()
    expect(run.exitCode).toBe(0)
    expect(gh.pulls()).toHaveLength(1)
    const pull = gh.pulls()[0]!
    expect(pull).toMatchObject({ state: 'open', head: BRANCH, base: 'main' })
    expect(pull.body).toContain('After merging, the plan is empty')
    expect(pull.body).toMatch(/Dashboard Checkout/)
    expect(pull.body).toMatch(/threshold.*10.*in the manifest, .*25.*on the server/)

    // The branch holds the manifest as the server has it, written as the person wrote it.
    const synced = onBranch(FILE)
    expect(synced).toContain('# Checkout: owned by the payments team.')
    expect(synced).toContain('  # the tile on-call looks at first\n  - name: Errors\n    x: 4\n')
    expect(synced).toContain("where: 'level:error'")
    expect(synced).toContain('source: Logs # by name')
    expect(synced).toContain('threshold: 25 # agreed with payments')
    expect(synced).toContain('displayName: "Pager: checkout errors"')
    expect(synced).toContain('channel: { type: webhook, webhook: ops-pager }')
    // Only the lines the UI changed differ.
    const changed = synced.split('\n').filter(l => !MANIFEST.split('\n').includes(l))
    expect(changed.sort()).toEqual(
      ['    x: 4', 'displayName: "Pager: checkout errors"', 'threshold: 25 # agreed with payments'].sort()
    )
    // One commit on main, with that file alone; the checkout is left on main, unchanged.
    expect(git(origin, 'rev-list', '--count', `main..refs/heads/${BRANCH}`).trim()).toBe('1')
    expect(git(origin, 'diff', '--name-only', 'main', `refs/heads/${BRANCH}`).trim()).toBe(FILE)
    expect(readFileSync(path.join(ws.dir, FILE), 'utf8')).toBe(MANIFEST)
    expect(git(ws.dir, 'status', '--porcelain').trim()).toBe('')

    // Planned from the branch, nothing changes.
    git(ws.dir, 'fetch', '-q', 'origin', BRANCH)
    git(ws.dir, 'checkout', '-q', 'FETCH_HEAD')
    try {
      const plan = await action('plan', 'push', pushEvent(`refs/heads/${BRANCH}`))
      expect(plan.exitCode).toBe(0)
      expect(plan.outputs['has-changes']).toBe('false')
    } finally {
      git(ws.dir, 'checkout', '-q', 'main')
    }
  })

  it('3. a second edit updates the same pull request', async () => {
    const number = gh.pulls()[0]!.number
    await editAlert({ threshold: 30 })
    const run = await sync()
    expect(run.exitCode).toBe(0)
    expect(gh.pulls()).toHaveLength(1)
    expect(gh.pulls()[0]).toMatchObject({ number, state: 'open' })
    expect(gh.pulls()[0]!.body).toMatch(/threshold.*10.*in the manifest, .*30.*on the server/)
    expect(onBranch(FILE)).toContain('threshold: 30 # agreed with payments')
    expect(onBranch(FILE)).toContain('    x: 4\n')
    expect(git(origin, 'rev-list', '--count', `main..refs/heads/${BRANCH}`).trim()).toBe('1')
  })

  it('4. once it is merged, a run opens nothing and closes nothing', async () => {
    const number = gh.pulls()[0]!.number
    git(ws.dir, 'fetch', '-q', 'origin', BRANCH)
    git(ws.dir, 'merge', '-q', '--ff-only', 'FETCH_HEAD')
    git(ws.dir, 'push', '-q', 'origin', 'main')
    gh.mergePull(number)
    const writes = gh.requests.filter(r => r.method !== 'GET').length
    const run = await sync()
    expect(run.exitCode).toBe(0)
    expect(gh.pulls()).toHaveLength(1)
    expect(gh.pulls()[0]).toMatchObject({ number, state: 'closed' })
    expect(gh.requests.filter(r => r.method !== 'GET').length).toBe(writes)
    expect(gh.comments(number)).toEqual([])
    expect(run.stdout).toContain('no pull request')
  })
})

describe('when the UI and the repository agree again', () => {
  it('5. an open sync pull request is closed with a comment, and the branch is not pushed again', async () => {
    await editAlert({ threshold: 40 })
    const opened = await sync()
    expect(opened.exitCode).toBe(0)
    const pull = gh.pulls().find(p => p.state === 'open')!
    expect(pull.head).toBe(BRANCH)
    expect(gh.pulls().filter(p => p.state === 'open')).toHaveLength(1)
    const tip = git(origin, 'rev-parse', `refs/heads/${BRANCH}`)
    // Undone in the UI: the server says what main says.
    await editAlert({ threshold: 30 })
    const closed = await sync()
    expect(closed.exitCode).toBe(0)
    expect(gh.pulls().find(p => p.number === pull.number)).toMatchObject({ state: 'closed', merged: false })
    expect(gh.comments(pull.number).map(c => c.body)).toEqual([
      expect.stringContaining('The UI and the repository agree again')
    ])
    expect(git(origin, 'rev-parse', `refs/heads/${BRANCH}`)).toBe(tip)
    // The key is in no summary, body or comment.
    for (const text of [
      opened.summary,
      closed.summary,
      pull.body ?? '',
      ...gh.comments(pull.number).map(c => c.body)
    ])
      expect(text).not.toContain(emu.credentials.apiKey)
  })

  it('6. without pull-requests: write, one error names the permission', async () => {
    await editAlert({ threshold: 45 })
    gh.setPermissions('read')
    try {
      const run = await sync()
      expect(run.failed).toBe(true)
      const errors = run.annotations.filter(a => a.level === 'error')
      expect(errors).toHaveLength(1)
      expect(errors[0]!.message).toContain('pull-requests: write')
    } finally {
      gh.setPermissions('write')
      await editAlert({ threshold: 30 })
    }
  })
})
