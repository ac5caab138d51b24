/**
 * Creates that leave two records of one name: a slow server that commits a create after the client gave up (the
 * emulator's commit-late fault), and two applies of one stack at the same time. The apply looks for copies at its
 * end: its own late commits it deletes and says so; any other copy is an error naming both ids, and the next plan
 * deletes it with prune, as a copy.
 */
import { describe, expect, it } from '@jest/globals'
import { alert, dashboard, errors, obsdeploy, timeTile, useScenario } from '../support/harness.js'

/** The create route only: the plan's dry run (`/dashboards/validate`) is another POST. */
const CREATE_DASHBOARD = /^\/api\/v2\/dashboards$/

const { emu, ws } = useScenario()

const dashboardsNamed = (name: string) => [...emu.selfHosted.dashboards.values()].filter(d => d.name === name)

describe('copies an apply leaves', () => {
  it('a create the server commits after the client gave up: the copy is found at the end and deleted', async () => {
    ws.write({
      'a.yaml':
        dashboard('Checkout', timeTile('Errors', 0, 0)) + alert('Checkout errors', 'Checkout', 'Errors')
    })
    emu.faults.add({ method: 'POST', path: CREATE_DASHBOARD, sequence: ['commit-late'], delayMs: 2500 })
    const result = await obsdeploy(emu, ws, 'apply', { 'request-timeout': '1' })
    expect(errors(result)).toEqual([])
    expect(result.exitCode).toBe(0)
    expect(emu.requestLog.some(r => r.status === 'committed late')).toBe(true)
    expect(dashboardsNamed('Checkout')).toHaveLength(1)
    const created = result.apply!.outcomes.find(o => o.kind === 'Dashboard')!
    expect(created.id).toBe(dashboardsNamed('Checkout')[0]!.id)
    expect(created.message).toMatch(
      /a copy \(id [0-9a-f]{24}\) that the server committed late, .* was deleted/
    )
    // The alert is on the dashboard that stays.
    expect([...emu.selfHosted.alerts.values()].map(a => a.dashboardId)).toEqual([created.id])
  }, 20_000)

  it('two applies of one stack at the same time: the copies are an error naming both ids, and prune ends them', async () => {
    ws.write({ 'a.yaml': dashboard('Checkout', timeTile('Errors', 0, 0)) })
    // Both creates held a moment, so that both runs have read the live state before either creates.
    emu.faults.add({ method: 'POST', path: CREATE_DASHBOARD, sequence: ['delay', 'delay'], delayMs: 300 })
    const runs = await Promise.all([obsdeploy(emu, ws, 'apply'), obsdeploy(emu, ws, 'apply')])
    expect(dashboardsNamed('Checkout')).toHaveLength(2)
    const [a, b] = dashboardsNamed('Checkout').map(d => d.id)
    // Whichever run looks last sees the other's copy; a run that looked before the other created sees none.
    const failed = runs.filter(r => r.exitCode === 1)
    expect(failed.length).toBeGreaterThanOrEqual(1)
    for (const run of failed) {
      expect(errors(run)).toEqual([
        expect.stringMatching(
          new RegExp(
            `^Dashboard "Checkout" exists 2 times \\(ids (${a}, ${b}|${b}, ${a})\\): another apply of this stack ran at the same time\\..*concurrency:`
          )
        )
      ])
    }
    const pruned = await obsdeploy(emu, ws, 'apply', { prune: 'true' })
    expect(errors(pruned)).toEqual([])
    expect(pruned.plan!.changes.find(c => c.action === 'delete')!.notes[0]).toMatch(/^a copy: /)
    expect(dashboardsNamed('Checkout')).toHaveLength(1)
  })
})
