/**
 * A plan's estimate of the requests its apply sends (apply/requests.ts, each kind's `requests`) against the requests
 * the emulator receives when the apply runs: 2,000 team member invitations, and 300 dashboards with an alert each.
 * The apply is paced at self-hosted's 100 requests a minute on a lockstep clock (test/contract/helpers.ts): the
 * pacer's waits pass at once, once nothing is on the wire, so the apply runs paced (its registry writes batched as
 * a paced apply batches them) in seconds, whatever this machine's load. What is compared are counts.
 */
import { describe, expect, it } from '@jest/globals'
import { createApi } from '../../src/api/client.js'
import type { RunDependencies } from '../../src/run/types.js'
import { LockstepClock } from '../contract/helpers.js'
import { alert, dashboard, obsdeploy, timeTile, useScenario } from '../support/harness.js'
import { connection, logSource, SECRETS, webhook } from '../support/record-manifests.js'

/** The estimate leaves out the live read (7 or 8 lists) and what no plan can foresee: retries, lost responses. */
const MARGIN = 0.05

const { emu, ws } = useScenario()

/** Runs `command` paced at 100 requests a minute on a lockstep clock; the requests the emulator received for it. */
async function paced(command: 'plan' | 'apply', settings: Record<string, string> = {}) {
  const clock = new LockstepClock()
  const before = emu.requestLog.length
  const deps: RunDependencies = {
    api: config => {
      const api = createApi(config, { clock })
      clock.inFlight = () => api.stats.requests - (emu.requestLog.length - before)
      return api
    }
  }
  const start = clock.now()
  const result = await obsdeploy(emu, ws, command, { 'rate-limit': '100/60s', ...settings }, false, deps)
  expect(result.diagnostics.filter(d => d.severity === 'error')).toEqual([])
  const received = emu.requestLog.slice(before)
  const route = (method: string, path: RegExp) =>
    received.filter(r => r.method === method && path.test(r.path)).length
  return { result, received: received.length, route, waitedMs: clock.now() - start }
}

/** Manifests in files of at most 500 documents (a file holds at most 1,000). */
function write(docs: string[]): void {
  const files: Record<string, string> = {}
  for (let i = 0; i < docs.length; i += 500) files[`part-${i}.yaml`] = docs.slice(i, i + 500).join('---\n')
  ws.write(files)
}

describe("a plan's estimate of its apply, against the requests the emulator receives", () => {
  it('2,000 invitations: 2,000 invitations and 1,000 registry writes, about 31 min at 100 requests a minute', async () => {
    write(Array.from({ length: 2000 }, (_, i) => `kind: TeamMember\nemail: person${i}@example.com\n`))
    const { result, received, route, waitedMs } = await paced('apply')
    const estimate = result.plan!.estimate!
    expect(estimate.parts).toEqual({ changes: 2000, registry: 1000, dryRuns: 0, rereads: 0 })
    expect(route('POST', /\/team\/invitation$/)).toBe(2000)
    // Measured: 3,008 requests (2,000 invitations, 1,000 registry writes, 8 lists); the estimate says 3,000.
    expect(Math.abs(received - estimate.requests)).toBeLessThanOrEqual(MARGIN * received)
    // The pacer's waits on the lockstep clock: 30 windows of 61.3 s, as the estimate's duration counts them.
    expect(Math.abs(waitedMs - estimate.durationMs!)).toBeLessThanOrEqual(MARGIN * estimate.durationMs!)
  }, 120_000)

  it('300 dashboards with an alert each: their dry runs, creates and alerts, and the re-reads at the end', async () => {
    // Their alerts page the emulator's own webhook, ops-pager.
    write(
      Array.from(
        { length: 300 },
        (_, i) => dashboard(`D${i}`, timeTile('Errors', 0, 0)) + alert(`D${i} errors`, `D${i}`, 'Errors')
      )
    )
    const { result, received, route, waitedMs } = await paced('apply')
    const estimate = result.plan!.estimate!
    expect(estimate.parts).toEqual({ changes: 600, registry: 0, dryRuns: 300, rereads: 2 })
    expect(route('POST', /\/dashboards\/validate$/)).toBe(estimate.parts.dryRuns)
    expect(route('POST', /\/alerts$/)).toBe(300)
    // Measured: 909 requests (the estimate's 902, and 7 lists of the live read), in 9 min 12 s of pacing.
    expect(Math.abs(received - estimate.requests)).toBeLessThanOrEqual(MARGIN * received)
    expect(Math.abs(waitedMs - estimate.durationMs!)).toBeLessThanOrEqual(MARGIN * estimate.durationMs!)
  }, 120_000)
})

describe("each kind's estimate, against what its apply sends", () => {
  /**
   * An apply one change at a time (each registry entry then has a write of its own) and unpaced: the requests the
   * emulator receives are exactly the estimate and the live read the log reports.
   */
  async function exact(settings: Record<string, string> = {}) {
    const lines: string[] = []
    const log = { info: (m: string) => lines.push(m), warn: () => {}, debug: () => {} }
    const before = emu.requestLog.length
    const result = await obsdeploy(
      emu,
      ws,
      'apply',
      { concurrency: '1', prune: 'true', 'secret-vars': SECRETS, ...settings },
      false,
      { log }
    )
    expect(result.diagnostics.filter(d => d.severity === 'error')).toEqual([])
    const read = Number(
      /^Read live state in (\d+) request/.exec(lines.find(l => l.startsWith('Read live'))!)![1]
    )
    return { result, sent: emu.requestLog.length - before - read }
  }

  const table = (name: string, onClick: string) => `---
kind: Dashboard
name: ${name}
tiles:
  - name: T
    x: 0
    y: 0
    w: 6
    h: 3
    config:
      displayType: table
      source: App logs
      select: [{ aggFn: count }]
      groupBy: service
      onClick: ${onClick}
`
  const manifests = (where: string, people: string[], threshold = 10) =>
    connection('Warehouse') +
    logSource('App logs', 'Warehouse') +
    webhook('Pager') +
    '---\nkind: SavedSearch\nname: App errors\nsource: App logs\nwhere: "level:error"\n' +
    // Overview links to Errors, which the same apply creates after it: a create, then a read and a PUT.
    table('Overview', '{ type: dashboard, target: { mode: id, dashboard: Errors } }') +
    table('Errors', "{ type: search, target: { mode: id, source: App logs }, whereTemplate: 'x' }") +
    '---\n' +
    dashboard('Alerts', timeTile('Errors', 0, 0)) +
    '---\n' +
    dashboard('Services', timeTile('Errors', 0, 0, where) + timeTile('Requests', 6, 0)) +
    alert('Errors burst', 'Alerts', 'Errors', threshold).replace('webhook: ops-pager', 'webhook: Pager') +
    people.map(email => `---\nkind: TeamMember\nemail: ${email}\n`).join('')

  it('creates of every kind, then updates (a dashboard patched) and deletes with prune: exactly as estimated', async () => {
    ws.write({ 'all.yaml': manifests('level:error', ['a@example.com', 'b@example.com']) })
    const created = await exact()
    expect(created.result.plan!.estimate!.requests).toBe(created.sent)
    expect(created.result.plan!.changes.find(c => c.name === 'Overview')!.estimate).toEqual({ requests: 3 })

    ws.write({ 'all.yaml': manifests('level:warn', ['a@example.com'], 20) })
    const changed = await exact()
    const actions = changed.result.plan!.changes.filter(c => c.estimate).map(c => `${c.action} ${c.kind}`)
    expect(actions.sort()).toEqual(['delete TeamMember', 'update Alert', 'update Dashboard'])
    // The changed tile's patch and the read after it (api/mcp.ts), not a PUT of every tile.
    expect(changed.result.plan!.changes.find(c => c.name === 'Services')!.estimate).toEqual({ requests: 2 })
    expect(changed.result.plan!.estimate!.requests).toBe(changed.sent)
  }, 60_000)
})
