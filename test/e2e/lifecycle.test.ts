/**
 * The life of a repository, as GitHub's runner runs the built action (dist/index.js): a first PR plans
 * and comments, a merge applies, a second PR edits a tile and deletes a dashboard with prune, a release
 * applies service settings, and a nightly drift run finds a change made by hand. After every step the
 * emulator's state, the comment, the summary and the outputs are checked.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startEmulator, type Emulator } from '../../emulator/index.js'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-api.js'
import { alert, dashboard, timeTile, workspace, type Workspace } from '../support/harness.js'
import {
  pullRequestEvent,
  pullRequestTargetEvent,
  pushEvent,
  releaseEvent,
  runAction,
  scheduleEvent,
  type ActionRun
} from './runner.js'

let emu: Emulator
let gh: FakeGitHub
let ws: Workspace
const runs: ActionRun[] = []

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: { selfHosted: false, managed: false } })
  gh = await startFakeGitHub()
  ws = workspace()
})
afterAll(async () => {
  await Promise.all(runs.map(r => r.cleanup()))
  await emu.close()
  await gh.close()
  ws.cleanup()
})

const checkout = (where = 'level:error') =>
  dashboard('Checkout', timeTile('Errors', 0, 0, where) + timeTile('Latency', 6, 0, 'service:checkout')) +
  alert('Checkout errors', 'Checkout', 'Errors')
const cart = () => dashboard('Cart', timeTile('Adds', 0, 0, 'service:cart'))

async function action(
  eventName: string,
  event: object,
  inputs: Record<string, string> = {},
  env: Record<string, string> = {}
): Promise<ActionRun> {
  const run = await runAction({
    cwd: ws.dir,
    eventName,
    event,
    inputs: {
      command: 'plan',
      'api-url': emu.url,
      'api-key': emu.credentials.apiKey,
      'github-token': 'ghs_fake_token_for_tests',
      'ui-url': 'https://hyperdx.example.com',
      ...inputs
    },
    env: { GITHUB_API_URL: gh.url, ...env }
  })
  runs.push(run)
  return run
}

const comments = () => gh.comments(12)
const dashboards = () => [...emu.selfHosted.dashboards.values()].map(d => d.name).sort()

describe('the lifecycle of a repository, as the runner runs the action', () => {
  it('1. a first pull request plans, comments and changes nothing', async () => {
    ws.write({ 'checkout.yaml': checkout(), 'cart.yaml': cart() })
    const run = await action('pull_request', pullRequestEvent(12))
    expect(run.exitCode).toBe(0)
    expect(run.outputs).toMatchObject({ 'has-changes': 'true', creates: '3', updates: '0', deletes: '0' })
    expect(run.outputs['plan-file']).toMatch(/obsdeploy-plan-.*\.json$/)
    expect(comments()).toHaveLength(1)
    expect(run.outputs['comment-url']).toBe(comments()[0]!.html_url)
    const body = comments()[0]!.body
    // One comment per stack, workflow job and API (a hash of api-url: matrix legs keep their own).
    expect(body).toMatch(/^<!-- obsdeploy:sticky stack=shop job=Observability%2Fplan%40[0-9a-f]{8} -->/)
    expect(body).toMatch(/Checkout/)
    expect(run.summary).toMatch(/Checkout/)
    // A notice at the manifest line of each changed resource.
    expect(run.annotations.filter(a => a.level === 'notice').map(a => `${a.file}:${a.line}`)).toContain(
      'observability/checkout.yaml:2'
    )
    expect(dashboards()).toEqual([])
    // The key is masked for the runner, and printed nowhere else.
    expect(run.stdout).toContain(`::add-mask::${emu.credentials.apiKey}`)
    expect(run.stdout.split(emu.credentials.apiKey).length - 1).toBe(1)
    expect(run.summary).not.toContain(emu.credentials.apiKey)
  })

  it('2. a second push to the pull request updates the same comment', async () => {
    ws.write({ 'checkout.yaml': checkout('level:error OR level:fatal') })
    const run = await action('pull_request', pullRequestEvent(12))
    expect(run.exitCode).toBe(0)
    expect(comments()).toHaveLength(1)
    expect(comments()[0]!.body).toMatch(/level:error OR level:fatal/)
    // Only its own comment is edited: who the token is comes from GraphQL's viewer (a POST that writes nothing).
    expect(gh.requests.filter(r => r.method === 'POST' && r.path !== '/graphql')).toHaveLength(1)
    expect(gh.requests.filter(r => r.method === 'PATCH')).toHaveLength(1)
  })

  it('refuses apply on the pull request, with a clear error and every output set', async () => {
    const run = await action('pull_request', pullRequestEvent(12), { command: 'apply' })
    expect(run.exitCode).toBe(1)
    expect(run.stdout).toMatch(/::error::apply is refused on pull_request events/)
    expect(run.outputs).toMatchObject({
      'has-changes': 'false',
      creates: '0',
      'comment-url': '',
      'plan-file': ''
    })
    expect(dashboards()).toEqual([])
  })

  it('refuses command: export in the action (a CLI command), and applies nothing', async () => {
    const run = await action('pull_request', pullRequestEvent(12), { command: 'export' })
    expect(run.exitCode).toBe(1)
    expect(run.stdout).toMatch(/::error::input `command`: export is a CLI command/)
    expect(dashboards()).toEqual([])
  })

  it('warns on pull_request_target that checking out PR code exposes secrets, and refuses apply there', async () => {
    const plan = await action('pull_request_target', pullRequestTargetEvent(99), { 'comment-on-pr': 'false' })
    expect(plan.annotations).toContainEqual(
      expect.objectContaining({ level: 'warning', message: expect.stringMatching(/exposes them/) })
    )
    const apply = await action('pull_request_target', pullRequestTargetEvent(99), { command: 'apply' })
    expect(apply.exitCode).toBe(1)
  })

  it('3. the merge (a push to main) applies', async () => {
    const run = await action('push', pushEvent('refs/heads/main'), { command: 'apply' })
    expect(run.exitCode).toBe(0)
    expect(run.outputs).toMatchObject({ 'has-changes': 'true', creates: '3' })
    expect(dashboards()).toEqual(['Cart', 'Checkout'])
    expect(emu.selfHosted.alerts.size).toBe(1)
    expect(run.summary).toMatch(/Apply/i)
  })

  it('4. a push with nothing changed updates the comment to say "No changes"', async () => {
    const run = await action('pull_request', pullRequestEvent(12))
    expect(run.outputs['has-changes']).toBe('false')
    expect(comments()).toHaveLength(1)
    expect(comments()[0]!.body).toContain('No changes')
  })

  it('posts nothing on a new pull request with no changes', async () => {
    const run = await action('pull_request', pullRequestEvent(13))
    expect(run.exitCode).toBe(0)
    expect(gh.comments(13)).toEqual([])
    expect(run.outputs['comment-url']).toBe('')
  })

  it('5. a second PR edits a tile and deletes a dashboard with prune; the merge applies it', async () => {
    const checkoutBefore = [...emu.selfHosted.dashboards.values()].find(d => d.name === 'Checkout')!
    const tileId = checkoutBefore.tiles.find(t => t.name === 'Errors')!.id
    ws.write({ 'checkout.yaml': checkout('level:error AND NOT service:health') })
    ws.remove('cart.yaml')
    const plan = await action('pull_request', pullRequestEvent(14), { prune: 'true' })
    expect(plan.outputs).toMatchObject({ 'has-changes': 'true', updates: '1', deletes: '1' })
    const body = gh.comments(14)[0]!.body
    expect(body).toMatch(/Cart/)
    expect(body).toMatch(/NOT service:health/)
    expect(dashboards()).toEqual(['Cart', 'Checkout'])

    const apply = await action('push', pushEvent('refs/heads/main'), { command: 'apply', prune: 'true' })
    expect(apply.exitCode).toBe(0)
    expect(dashboards()).toEqual(['Checkout'])
    const after = [...emu.selfHosted.dashboards.values()][0]!
    expect(after.tiles.find(t => t.name === 'Errors')!.id).toBe(tileId)
    expect([...emu.selfHosted.alerts.values()][0]!.tileId).toBe(tileId)
  })

  it('6. a nightly drift run finds a change made by hand', async () => {
    const clean = await action('schedule', scheduleEvent(), { command: 'drift', prune: 'true' })
    expect(clean.exitCode).toBe(0)
    expect(clean.outputs['has-changes']).toBe('false')

    const d = [...emu.selfHosted.dashboards.values()][0]!
    emu.selfHosted.updateDashboard(d.id, {
      name: d.name,
      tags: d.tags,
      tiles: d.tiles.map(t => (t.name === 'Latency' ? { ...t, h: 8 } : t))
    })
    const drift = await action('schedule', scheduleEvent(), { command: 'drift', prune: 'true' })
    expect(drift.exitCode).toBe(1)
    expect(drift.outputs['has-changes']).toBe('true')
    expect(drift.summary).toMatch(/Drift/)
    expect(drift.summary).toMatch(/tiles\[&quot;Latency&quot;\]\.h|Latency/)
    expect(drift.stdout).toMatch(/::error::drift: the live state differs from the manifests/)
  })

  it('a fork without write permission gets the summary and a warning, and the step does not fail', async () => {
    gh.setPermissions('read')
    try {
      ws.write({ 'checkout.yaml': checkout('level:warn') })
      const run = await action('pull_request', pullRequestEvent(21, { headRepoFork: true }))
      expect(run.exitCode).toBe(0)
      expect(run.summary).toMatch(/level:warn/)
      expect(gh.comments(21)).toEqual([])
      expect(run.annotations).toContainEqual(
        expect.objectContaining({
          level: 'warning',
          message: expect.stringContaining('pull-requests: write')
        })
      )
      expect(run.outputs['comment-url']).toBe('')
    } finally {
      gh.setPermissions('write')
    }
  })
})

describe('service settings at a release, as the runner runs it', () => {
  let managedWs: Workspace
  beforeAll(() => {
    managedWs = workspace({
      'service.yaml': 'kind: ServiceSettings\nname: analytics prod\nreleaseChannel: slow\n'
    })
  })
  afterAll(() => managedWs.cleanup())

  const managed = (eventName: string, event: object, command = 'apply') =>
    runAction({
      cwd: managedWs.dir,
      eventName,
      event,
      inputs: {
        command,
        mode: 'managed',
        'api-url': emu.url,
        'key-id': emu.credentials.keyId,
        'key-secret': emu.credentials.keySecret,
        'organization-id': emu.credentials.organizationId,
        'service-id': emu.credentials.serviceId,
        'comment-on-pr': 'false'
      },
      env: { GITHUB_API_URL: gh.url }
    }).then(r => (runs.push(r), r))
  const service = () => emu.services.get(emu.credentials.serviceId)!

  it('plans on a pull request and marks the change as waiting for a release', async () => {
    const run = await managed('pull_request', pullRequestEvent(30), 'plan')
    expect(run.exitCode).toBe(0)
    expect(run.summary).toMatch(/[Ww]aits for a release/)
    // The service differs from the manifest: a change to come, though not applied by this event.
    expect(run.outputs).toMatchObject({ 'has-changes': 'true', creates: '0', updates: '0', deletes: '0' })
    expect(service().name).not.toBe('analytics prod')
  })

  it('does not touch the service on a push to main', async () => {
    const run = await managed('push', pushEvent('refs/heads/main'))
    expect(run.exitCode).toBe(0)
    expect(service().releaseChannel).toBe('default')
  })

  it('applies at a published release, shows the returned service and request id, and plans nothing after', async () => {
    const run = await managed('release', releaseEvent('v1.4.0'))
    expect(run.exitCode).toBe(0)
    expect(service()).toMatchObject({ name: 'analytics prod', releaseChannel: 'slow' })
    expect(run.summary).toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}/) // the requestId
    expect(run.summary).toMatch(/release v1.4.0 published/)
    const again = await managed('release', releaseEvent('v1.4.0'), 'plan')
    expect(again.outputs['has-changes']).toBe('false')
    // The Basic credentials were masked and never printed.
    expect(run.stdout).toContain(`::add-mask::${emu.credentials.keySecret}`)
    expect(run.summary).not.toContain(emu.credentials.keySecret)
  })

  it('applies on a tag push too', async () => {
    managedWs.write({ 'service.yaml': 'kind: ServiceSettings\nname: analytics prod\nreleaseChannel: fast\n' })
    const run = await managed('push', pushEvent('refs/tags/v1.5.0'))
    expect(run.exitCode).toBe(0)
    expect(service().releaseChannel).toBe('fast')
  })
})
