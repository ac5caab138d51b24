/**
 * The live preview's whole life, from the built action (dist/index.js) and CLI as the runner runs them, against the
 * emulator and the fake GitHub: a pull request's plan writes a preview copy of each dashboard it creates or changes,
 * linked from the comment; the next push updates the same copies and deletes the one no longer changed; the stack's
 * own dashboards are never touched, pruned or planned; the close deletes the copies; another run sweeps copies of
 * closed pull requests and old ones; a fork's pull request and a plan with an error write nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { startEmulator, type Emulator } from '../../emulator/index.js'
import type { StoredDashboard } from '../../emulator/types.js'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-api.js'
import { workspace, type Workspace } from '../support/harness.js'
import { pullRequestEvent, pushEvent, runAction, runCli, type ActionRun } from './runner.js'

let emu: Emulator
let gh: FakeGitHub
const runs: ActionRun[] = []
const spaces: Workspace[] = []
const UI = 'https://ui.example.com'

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: { selfHosted: false, managed: false } })
  gh = await startFakeGitHub()
})
afterAll(async () => {
  await Promise.all(runs.map(r => r.cleanup()))
  await emu.close()
  await gh.close()
  for (const ws of spaces) ws.cleanup()
})

type Event = { name: string; payload: object }
const push: Event = { name: 'push', payload: pushEvent('refs/heads/main') }
const pr = (n: number, action = 'opened', fork = false): Event => ({
  name: 'pull_request',
  payload: { ...pullRequestEvent(n, { headRepoFork: fork }), action }
})

async function action(ws: Workspace, event: Event, inputs: Record<string, string> = {}): Promise<ActionRun> {
  const run = await runAction({
    cwd: ws.dir,
    eventName: event.name,
    event: event.payload,
    inputs: {
      'rate-limit': 'off',
      'api-url': emu.url,
      'api-key': emu.credentials.apiKey,
      'github-token': 'ghs_fake_token_for_tests',
      stack: 'shop',
      'ui-url': UI,
      'live-preview': 'true',
      ...inputs
    },
    env: { GITHUB_API_URL: gh.url, GITHUB_RUN_ATTEMPT: '1' },
    timeoutMs: 120_000
  })
  runs.push(run)
  return run
}

const tile = (name: string, where: string, y = 0) => `  - name: ${JSON.stringify(name)}
    x: 0
    y: ${y}
    w: 12
    h: 4
    series:
      - type: time
        source: Logs
        aggFn: count
        where: ${JSON.stringify(where)}
`
const dashboard = (name: string, tiles: string, extra = '') =>
  `kind: Dashboard\nname: ${JSON.stringify(name)}\n${extra}tiles:\n${tiles}`
const sqlTile = `  - name: Slow queries
    x: 12
    y: 0
    w: 12
    h: 4
    config:
      configType: sql
      displayType: table
      connection: Local ClickHouse
      sqlTemplate: SELECT count() FROM otel_logs WHERE $__timeFilter(Timestamp)
`
const alert = `kind: Alert
name: Checkout errors
dashboard: Checkout
tile: Errors
threshold: 5
thresholdType: above
interval: 5m
channel:
  type: webhook
  webhook: ops-pager
`

const all = () => [...emu.selfHosted.dashboards.values()]
const byName = (name: string) => all().filter(d => d.name === name)
const one = (name: string): StoredDashboard => {
  const found = byName(name)
  expect(found).toHaveLength(1)
  return found[0]!
}
const planOf = (run: ActionRun) => JSON.parse(readFileSync(run.outputs['plan-file']!, 'utf8'))
const snapshot = (name: string) => JSON.stringify(one(name))
/** Markdown as a reader sees it: escapes and the zero-width spaces that defuse `#7` gone. */
const plain = (markdown: string) => markdown.replace(/\u200b/g, '').replace(/\\([\\`*_{}[\]()#+!|~-])/g, '$1')
const mainManifests = {
  'checkout.yaml': dashboard('Checkout', tile('Errors', 'level:error')),
  'orders.yaml': dashboard('Orders', tile('Orders', 'service:orders')),
  'alert.yaml': alert
}

describe('live preview', () => {
  let ws: Workspace
  let orders: string
  let checkout: string

  beforeAll(async () => {
    ws = workspace(mainManifests)
    spaces.push(ws)
    const applied = await action(ws, push, { command: 'apply' })
    expect(applied.exitCode).toBe(0)
    orders = snapshot('Orders')
    checkout = snapshot('Checkout')
  })

  it('writes a copy of each dashboard a pull request creates or changes, tagged to it and linked', async () => {
    ws.write({
      'checkout.yaml': dashboard('Checkout', tile('Errors', 'level:error AND service:checkout')),
      'payments.yaml': dashboard(
        'Payments',
        tile('Payments', 'service:payments') + sqlTile,
        'tags: [team-payments]\n'
      )
    })
    const run = await action(ws, pr(7))
    expect(run.exitCode).toBe(0)
    const copy = one('[PR #7] Checkout')
    const payments = one('[PR #7] Payments')
    for (const c of [copy, payments]) {
      // Its own tags, never the stack's ownership tag (nor the user's), each within the server's 32 characters.
      expect(c.tags).toEqual([
        'obsdeploy-preview:shop',
        'obsdeploy-pr:7',
        expect.stringMatching(/^obsdeploy-at:\d{4}-\d\d-\d\dT\d\d:\d\dZ$/)
      ])
      expect(c.tags.every(t => t.length <= 32)).toBe(true)
      // No alerts: the stack's alert stays on the stack's dashboard.
      expect([...emu.selfHosted.alerts.values()].filter(a => a.dashboardId === c.id)).toEqual([])
    }
    // The emulator holds tags to the real server's 32 characters (common-utils tagsSchema), so these fit there too.
    expect(() => emu.selfHosted.createDashboard({ name: 'x', tags: ['x'.repeat(33)], tiles: [] })).toThrow()
    expect(JSON.stringify(copy.tiles)).toContain('service:checkout')
    // The raw SQL tile is a markdown placeholder that says why, in its place.
    const sql = payments.tiles.find(t => t.name === 'Slow queries')!
    expect(JSON.stringify(sql.config)).not.toContain('otel_logs')
    expect(JSON.stringify(sql.config)).toContain('live-preview-sql')
    expect(sql).toMatchObject({ x: 12, y: 0, w: 12, h: 4 })
    // The stack's own dashboards are as they were: the pull request changed nothing of theirs.
    expect(snapshot('Checkout')).toBe(checkout)
    expect(snapshot('Orders')).toBe(orders)
    expect(byName('Payments')).toEqual([])
    // The comment links each copy, and says what was left out.
    const comment = plain(gh.comments(7).at(-1)!.body)
    expect(comment).toContain(`(${UI}/dashboards/${copy.id})`)
    expect(comment).toContain(`(${UI}/dashboards/${payments.id})`)
    expect(comment).toContain('Slow queries')
    expect(comment).toMatch(/Live preview of pull request #7 \(2 requests to the live server\)/)
    // Counted in the plan file.
    const section = planOf(run).livePreview
    expect(section).toMatchObject({ pullRequest: 7, requests: 2, swept: [] })
    expect(section.copies.map((c: { name: string; action: string }) => [c.name, c.action]).sort()).toEqual([
      ['[PR #7] Checkout', 'created'],
      ['[PR #7] Payments', 'created']
    ])
  })

  it('updates the same copies on the next push, and deletes the one no longer changed', async () => {
    const before = one('[PR #7] Checkout').id
    ws.remove('payments.yaml')
    ws.write({ 'checkout.yaml': dashboard('Checkout', tile('Errors', 'level:error AND service:cart')) })
    const run = await action(ws, pr(7, 'synchronize'))
    expect(run.exitCode).toBe(0)
    const copy = one('[PR #7] Checkout')
    expect(copy.id).toBe(before)
    expect(JSON.stringify(copy.tiles)).toContain('service:cart')
    expect(byName('[PR #7] Payments')).toEqual([])
    expect(snapshot('Checkout')).toBe(checkout)
    const actions = planOf(run).livePreview.copies.map((c: { name: string; action: string }) => [
      c.name,
      c.action
    ])
    expect(actions).toEqual([
      ['[PR #7] Checkout', 'updated'],
      ['[PR #7] Payments', 'deleted']
    ])
    expect(plain(gh.comments(7).at(-1)!.body)).toContain(
      'deleted `[PR #7] Payments` (its dashboard is no longer changed'
    )
  })

  it("never plans, prunes, adopts or exports a copy as the stack's own", async () => {
    // The manifests of main: a plan with prune on a push sees no change, though copies are on the server.
    const main = workspace({
      ...mainManifests,
      // A manifest named like a copy, with adopt: it is created, never paired with the copy.
      'named.yaml': dashboard('[PR #7] Checkout', tile('Errors', 'level:error'), 'adopt: true\n')
    })
    spaces.push(main)
    const run = await action(main, push, { command: 'plan', prune: 'true', 'live-preview': 'false' })
    expect(run.exitCode).toBe(0)
    const changes = planOf(run).changes.filter((c: { action: string }) => c.action !== 'noop')
    expect(changes.map((c: { action: string; name: string }) => [c.action, c.name])).toEqual([
      ['create', '[PR #7] Checkout']
    ])
    const out = `${main.dir}/exported`
    const exported = await runCli(['export', '--out', out, '--api-url', emu.url, '--stack', 'shop'], {
      cwd: main.dir,
      env: { OBSDEPLOY_API_KEY: emu.credentials.apiKey }
    })
    expect(exported.exitCode).toBe(0)
    expect(exported.stdout + exported.stderr).not.toContain('[PR #7]')
  })

  it('deletes the copies when the pull request closes, and plans nothing', async () => {
    const run = await action(ws, pr(7, 'closed'))
    expect(run.exitCode).toBe(0)
    expect(all().filter(d => d.name.startsWith('[PR #7]'))).toEqual([])
    expect(plain(run.summary)).toContain('swept `[PR #7] Checkout` (a copy of pull request #7)')
    expect(snapshot('Checkout')).toBe(checkout)
    expect(snapshot('Orders')).toBe(orders)
  })

  it('sweeps, on any run of the stack, copies of closed pull requests and those older than the TTL', async () => {
    const now = new Date().toISOString().slice(0, 16)
    const seed = (name: string, tags: string[]) =>
      emu.selfHosted.createDashboard({ name, tags, tiles: [] }).id
    const old = seed('[PR #3] Old', [
      'obsdeploy-preview:shop',
      'obsdeploy-pr:3',
      'obsdeploy-at:2020-01-01T00:00Z'
    ])
    const closed = seed('[PR #4] Closed', [
      'obsdeploy-preview:shop',
      'obsdeploy-pr:4',
      `obsdeploy-at:${now}Z`
    ])
    const open = seed('[PR #5] Open', ['obsdeploy-preview:shop', 'obsdeploy-pr:5', `obsdeploy-at:${now}Z`])
    const others = seed('[PR #3] Theirs', [
      'obsdeploy-preview:other',
      'obsdeploy-pr:3',
      'obsdeploy-at:2020-01-01T00:00Z'
    ])
    gh.setPullState(4, 'closed')
    gh.setPullState(5, 'open')
    // A plan on a push of main's manifests: it changes nothing of the stack's, and sweeps.
    const main = workspace(mainManifests)
    spaces.push(main)
    const run = await action(main, push, { command: 'plan' })
    expect(run.exitCode).toBe(0)
    expect(run.outputs['has-changes']).toBe('false')
    const left = new Set(all().map(d => d.id))
    expect([left.has(old), left.has(closed), left.has(open), left.has(others)]).toEqual([
      false,
      false,
      true,
      true
    ])
    expect(plain(run.summary)).toMatch(
      /swept `\[PR #3\] Old` \(last written \d+ days ago \(live-preview-ttl: 7 days\)\)/
    )
    expect(plain(run.summary)).toContain('swept `[PR #4] Closed` (pull request #4 is closed)')
    // The CLI deletes by pull request, and by age.
    const env = { OBSDEPLOY_API_KEY: emu.credentials.apiKey }
    const byPr = await runCli(['sweep-previews', '--api-url', emu.url, '--stack', 'shop', '--pr', '5'], {
      cwd: ws.dir,
      env
    })
    expect(byPr.exitCode).toBe(0)
    expect(byPr.stdout).toContain('swept [PR #5] Open (a copy of pull request #5)')
    expect(new Set(all().map(d => d.id)).has(open)).toBe(false)
    const byAge = await runCli(
      ['sweep-previews', '--api-url', emu.url, '--stack', 'other', '--live-preview-ttl', '1'],
      {
        cwd: ws.dir,
        env
      }
    )
    expect(byAge.exitCode).toBe(0)
    expect(new Set(all().map(d => d.id)).has(others)).toBe(false)
  })

  it("is refused on a fork's pull request, with one line that says why", async () => {
    const run = await action(ws, pr(8, 'opened', true))
    expect(run.exitCode).toBe(0)
    expect(all().filter(d => d.name.startsWith('[PR #8]'))).toEqual([])
    expect(plain(gh.comments(8).at(-1)!.body)).toContain(
      'live-preview is refused on a pull request from a fork (contributor/shop): its author must not write to the live server'
    )
  })

  it('writes nothing while the plan has an error, and says so', async () => {
    ws.write({ 'checkout.yaml': dashboard('Checkout', tile('Errors', 'level:error AND service:x')) })
    // A plan error: a tile names a source the server does not have.
    ws.write({
      'broken.yaml': dashboard(
        'Broken',
        tile('Errors', 'level:error').replace('source: Logs', 'source: Nope')
      )
    })
    const run = await action(ws, pr(9))
    expect(run.exitCode).toBe(1)
    expect(all().filter(d => d.name.startsWith('[PR #9]'))).toEqual([])
    expect(planOf(run).livePreview).toMatchObject({ pullRequest: 9, copies: [], requests: 0 })
    expect(plain(gh.comments(9).at(-1)!.body)).toContain(
      'the plan has errors: no copy is written until they are fixed'
    )
    ws.remove('broken.yaml')
    // A validation error stops before any plan: the report says no copy was written.
    ws.write({ 'broken.yaml': 'kind: Dashboard\nname: Broken\ntiles: 3\n' })
    const invalid = await action(ws, pr(9, 'synchronize'))
    expect(invalid.exitCode).toBe(1)
    expect(all().filter(d => d.name.startsWith('[PR #9]'))).toEqual([])
    expect(plain(invalid.summary)).toContain(
      'no preview copy of pull request #9 was written, because the manifests have errors'
    )
    ws.remove('broken.yaml')
  })
})
