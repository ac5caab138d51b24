import { describe, expect, it } from '@jest/globals'
import type { FaultKind } from '../../emulator/index.js'
import { actions, alert, dashboard, obsdeploy, timeTile, useScenario } from '../support/harness.js'

/** The create route only: the plan's dry run (`/dashboards/validate`) is another POST. */
const CREATE_DASHBOARD = /^\/api\/v2\/dashboards$/

const { emu, ws } = useScenario({ emulator: { randomSeed: 7 } })

/** Ten dashboards with two alerts each. */
function manifests(): Record<string, string> {
  const files: Record<string, string> = {}
  for (let i = 0; i < 10; i++) {
    const name = `Service ${i}`
    files[`s${i}.yaml`] =
      dashboard(name, timeTile('Errors', 0, 0) + timeTile('Warnings', 6, 0, 'level:warn')) +
      alert(`${name} errors`, name, 'Errors') +
      alert(`${name} warnings`, name, 'Warnings', 50)
  }
  return files
}

function assertConverged(): void {
  const dashboards = [...emu.selfHosted.dashboards.values()]
  const alerts = [...emu.selfHosted.alerts.values()]
  const names = dashboards.map(d => d.name).sort()
  expect(names).toEqual([...new Set(names)]) // zero duplicates
  expect(names).toHaveLength(10) // nothing lost
  const alertNames = alerts.map(a => a.name).sort()
  expect(alertNames).toEqual([...new Set(alertNames)])
  expect(alertNames).toHaveLength(20)
  for (const a of alerts) {
    const d = dashboards.find(x => x.id === a.dashboardId)!
    expect(d.tiles.some(t => t.id === a.tileId)).toBe(true)
  }
}

const KINDS: FaultKind[] = ['429', '500', '502', '503', 'reset', 'delay', 'commit-drop']

describe('apply on a faulty server', () => {
  it.each(KINDS)('converges with zero duplicates and nothing lost under %s faults', async kind => {
    ws.write(manifests())
    emu.faults.add({ kind, probability: 0.1, retryAfterSeconds: 0, delayMs: 1500 })
    let runs = 0
    let exitCode = 1
    while (exitCode !== 0 && runs < 15) {
      runs++
      const result = await obsdeploy(emu, ws, 'apply', { 'request-timeout': '0.5', 'retry-budget': '5' })
      exitCode = result.exitCode
      if (exitCode !== 0) {
        // A failed run says what failed, in the server's words, and is not silent about it.
        expect(
          result.diagnostics.some(d => d.severity === 'error' && /HTTP 500|failed/.test(d.message))
        ).toBe(true)
      }
    }
    emu.faults.clear()
    expect(exitCode).toBe(0)
    assertConverged()
    expect(actions(await obsdeploy(emu, ws, 'plan'))).toEqual([])
  })

  it('adopts a dashboard whose create was committed but whose response was lost, instead of creating it twice', async () => {
    ws.write({
      'one.yaml':
        dashboard('Checkout', timeTile('Errors', 0, 0)) + alert('Checkout errors', 'Checkout', 'Errors')
    })
    emu.faults.add({ method: 'POST', path: CREATE_DASHBOARD, sequence: ['commit-drop'] })
    emu.faults.add({ method: 'POST', path: '/api/v2/alerts', sequence: ['commit-drop'] })
    const result = await obsdeploy(emu, ws, 'apply')
    expect(result.exitCode).toBe(0)
    expect(result.apply!.outcomes.map(o => `${o.kind}:${o.status}`).sort()).toEqual([
      'Alert:adopted',
      'Dashboard:adopted'
    ])
    // Never a second create (the other POSTs: the live read's question to /mcp, the plan's dry run).
    expect(
      emu.requestLog.filter(r => r.method === 'POST' && r.path !== '/mcp' && !r.path.endsWith('/validate'))
        .length
    ).toBe(2)
    expect([...emu.selfHosted.dashboards.values()]).toHaveLength(1)
    expect([...emu.selfHosted.alerts.values()]).toHaveLength(1)
  })

  it('goes on with independent changes when one fails, exits non-zero, and converges on the rerun', async () => {
    ws.write(manifests())
    // The third dashboard create fails for good (a 500 is not retried).
    emu.faults.add({ method: 'POST', path: CREATE_DASHBOARD, sequence: ['ok', 'ok', '500'] })
    const first = await obsdeploy(emu, ws, 'apply', { concurrency: '1' })
    expect(first.exitCode).toBe(1)
    const failed = first.apply!.outcomes.filter(o => o.status === 'failed')
    const skipped = first.apply!.outcomes.filter(o => o.status === 'skipped')
    expect(failed).toHaveLength(1)
    expect(failed[0]!.message).toMatch(/HTTP 500/)
    // Its two alerts could not be created without it; everything else was.
    expect(skipped.map(o => o.kind)).toEqual(['Alert', 'Alert'])
    expect(emu.selfHosted.dashboards.size).toBe(9)
    const second = await obsdeploy(emu, ws, 'apply')
    expect(second.exitCode).toBe(0)
    assertConverged()
  })

  it('never creates the new alert of a replace when deleting the old one failed (no two alerts of one name)', async () => {
    ws.write({
      'one.yaml': dashboard('A', timeTile('Errors', 0, 0)) + alert('Moving', 'A', 'Errors'),
      'two.yaml': dashboard('B', timeTile('Errors', 0, 0))
    })
    await obsdeploy(emu, ws, 'apply')
    // The alert moves to dashboard B: a replace (delete, then create), with no dashboard update around it.
    ws.write({
      'one.yaml': dashboard('A', timeTile('Errors', 0, 0)),
      'two.yaml': dashboard('B', timeTile('Errors', 0, 0)) + alert('Moving', 'B', 'Errors')
    })
    emu.faults.add({ method: 'DELETE', path: '/api/v2/alerts/', sequence: ['500'] })
    const failed = await obsdeploy(emu, ws, 'apply')
    expect(failed.exitCode).toBe(1)
    expect(failed.apply!.outcomes.find(o => o.kind === 'Alert')).toMatchObject({
      action: 'replace',
      status: 'failed'
    })
    expect([...emu.selfHosted.alerts.values()].map(a => a.name)).toEqual(['Moving'])
    const rerun = await obsdeploy(emu, ws, 'apply')
    expect(rerun.exitCode).toBe(0)
    const b = [...emu.selfHosted.dashboards.values()].find(d => d.name === 'B')!
    expect([...emu.selfHosted.alerts.values()]).toMatchObject([{ name: 'Moving', dashboardId: b.id }])
  })
})
