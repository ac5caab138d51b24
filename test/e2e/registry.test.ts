/**
 * One registry dashboard per stack, as the runner runs the built action (dist/index.js): two pushes of one stack
 * applied at the same time (no `concurrency:` in the workflow), each adding a connection, each creating the stack's
 * registry dashboard (the emulator's `gather` fault holds both connection creates until both runs have read the live
 * state). An apply that finds the other registry fails naming both; the pull request's plan names the extra one as
 * "would be deleted with prune"; the push with prune leaves exactly one registry dashboard, which lists every
 * connection the stack owns.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { startEmulator, type Emulator, type StoredDashboard } from '../../emulator/index.js'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-api.js'
import { workspace, type Workspace } from '../support/harness.js'
import { pullRequestEvent, pushEvent, runAction, type ActionRun } from './runner.js'

const REGISTRY = 'obsdeploy registry (stack shop)'
const connection = (name: string) =>
  `kind: Connection\nname: ${name}\nhost: https://${name.toLowerCase()}.example.com:8443\nusername: reader\npassword: \${secret.DB_PASSWORD}\n`

let emu: Emulator
let gh: FakeGitHub
let main: Workspace
let second: Workspace
const runs: ActionRun[] = []

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: { selfHosted: false, managed: false } })
  gh = await startFakeGitHub()
  main = workspace({ 'orders.yaml': connection('Orders') })
  second = workspace({ 'billing.yaml': connection('Billing') })
})
afterAll(async () => {
  await Promise.all(runs.map(r => r.cleanup()))
  await emu.close()
  await gh.close()
  main.cleanup()
  second.cleanup()
})

async function action(
  ws: Workspace,
  eventName: string,
  event: object,
  inputs: Record<string, string> = {}
): Promise<ActionRun> {
  const run = await runAction({
    cwd: ws.dir,
    eventName,
    event,
    inputs: {
      command: 'apply',
      'api-url': emu.url,
      'api-key': emu.credentials.apiKey,
      'github-token': 'ghs_fake_token_for_tests',
      stack: 'shop',
      'secret-vars': 'DB_PASSWORD: db-password-1',
      ...inputs
    },
    env: { GITHUB_API_URL: gh.url }
  })
  runs.push(run)
  return run
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The stack's registry dashboards, lowest id first. */
const registries = () =>
  [...emu.selfHosted.dashboards.values()]
    .filter(d => d.tags.includes('obsdeploy-registry') && d.tags.includes('obsdeploy:shop'))
    .sort((a, b) => (a.id < b.id ? -1 : 1))
/** The connection ids a registry dashboard lists, read from its JSON as a person would. */
const listed = (d: StoredDashboard) =>
  d.tiles
    .flatMap(t => {
      const markdown = String((t.config as { markdown?: string }).markdown ?? '')
      const json = markdown.slice(markdown.indexOf('```json\n') + 8, markdown.lastIndexOf('\n```'))
      return Object.keys((JSON.parse(json) as { owned: { Connection?: object } }).owned.Connection ?? {})
    })
    .sort()
const ownConnections = () =>
  [...emu.selfHosted.connections.values()]
    .filter(c => c.name === 'Orders' || c.name === 'Billing')
    .map(c => c.id)
    .sort()

describe('two applies of one stack at the same time, as the runner runs them', () => {
  let kept: string
  let extra: string

  it('1. both create the registry dashboard; an apply that finds the other fails naming both', async () => {
    emu.faults.add({ method: 'POST', path: /^\/api\/v2\/connections$/, sequence: ['gather', 'gather'] })
    const [a, b] = await Promise.all([
      action(main, 'push', pushEvent('refs/heads/main')),
      action(second, 'push', pushEvent('refs/heads/main'))
    ])
    expect(registries()).toHaveLength(2)
    ;[kept, extra] = registries().map(d => d.id) as [string, string]
    expect(ownConnections()).toHaveLength(2)
    const told = [a!, b!].filter(r => r.exitCode === 1)
    expect(told.length).toBeGreaterThanOrEqual(1)
    for (const run of told) {
      // The one error, as its annotation and in the step's failure line.
      const errors = run.annotations.filter(x => x.level === 'error').map(x => x.message)
      const said = `the registry dashboard "${REGISTRY}" exists 2 times (ids ${kept}, ${extra}): another apply of this stack created one at the same time.`
      expect(errors).toContainEqual(expect.stringMatching(new RegExp(`^${escape(said)}`)))
      for (const error of errors) expect(error).toContain(said)
      expect(run.summary).toContain(`exists 2 times \\(ids ${kept}, ${extra}\\)`)
    }
  }, 60_000)

  it('2. the next plan names the extra registry dashboard: would be deleted with prune', async () => {
    main.write({ 'billing.yaml': connection('Billing') })
    const run = await action(main, 'pull_request', pullRequestEvent(7), { command: 'plan' })
    expect(run.exitCode).toBe(0)
    const plan = JSON.parse(readFileSync(run.outputs['plan-file']!, 'utf8')) as {
      changes: Array<{ kind: string; action: string; id?: string; deferred?: string; notes: string[] }>
    }
    expect(plan.changes.filter(c => c.action !== 'noop')).toEqual([
      expect.objectContaining({ kind: 'Dashboard', action: 'delete', id: extra, deferred: 'prune' })
    ])
    const comment = gh.comments(7).at(-1)!.body
    for (const text of [comment, run.summary]) {
      expect(text).toContain('Nothing is applied by this run: 1 would be deleted with prune.')
      expect(text).toContain(`<code>${extra}</code>`)
      // Markdown escapes the brackets.
      expect(text).toContain(
        `an extra registry dashboard of this stack, left by two applies that each created one at the same time: its entries are written into the one the stack keeps \\(id ${kept}, the lowest id\\) before it is deleted: would be deleted with prune`
      )
    }
  }, 60_000)

  it('3. apply with prune leaves one registry dashboard, the kept one, listing every connection the stack owns', async () => {
    const run = await action(main, 'push', pushEvent('refs/heads/main'), { prune: 'true' })
    expect(run.annotations.filter(x => x.level === 'error')).toEqual([])
    expect(run.exitCode).toBe(0)
    expect(run.outputs).toMatchObject({ deletes: '1', creates: '0', updates: '0' })
    expect(registries().map(d => d.id)).toEqual([kept])
    expect(listed(registries()[0]!)).toEqual(ownConnections())
    expect(ownConnections()).toHaveLength(2)
    // Nothing left to do, and the stack still owns both: with prune and without their manifests, both would go.
    const after = await action(main, 'pull_request', pullRequestEvent(7), { command: 'plan', prune: 'true' })
    expect(after.outputs).toMatchObject({ 'has-changes': 'false' })
  }, 60_000)
})
