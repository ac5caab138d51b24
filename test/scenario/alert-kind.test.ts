/**
 * The alert kind (src/kinds/alert.ts) as the server sees it: which alerts a replace deletes and creates and
 * in what order, what the request bodies carry, and what the plan says, against the emulator.
 */
import { describe, expect, it } from '@jest/globals'
import { alert, dashboard, obsdeploy, timeTile, useScenario } from '../support/harness.js'

const { emu, ws } = useScenario()

const alerts = () => [...emu.selfHosted.alerts.values()]
const dashboardId = (name: string) => [...emu.selfHosted.dashboards.values()].find(d => d.name === name)!.id

describe('a replace of several alerts', () => {
  it('waits only for the delete of its own old alert: a failed delete holds back that alert alone', async () => {
    ws.write({
      'one.yaml':
        dashboard('A', timeTile('Errors', 0, 0)) +
        alert('First', 'A', 'Errors') +
        alert('Second', 'A', 'Errors', 20),
      'two.yaml': dashboard('B', timeTile('Errors', 0, 0))
    })
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    const first = alerts().find(a => a.name === 'First')!.id
    ws.write({
      'one.yaml': dashboard('A', timeTile('Errors', 0, 0)),
      'two.yaml':
        dashboard('B', timeTile('Errors', 0, 0)) +
        alert('First', 'B', 'Errors') +
        alert('Second', 'B', 'Errors', 20)
    })
    emu.faults.add({ method: 'DELETE', path: `/api/v2/alerts/${first}`, sequence: ['500'] })
    const failed = await obsdeploy(emu, ws, 'apply')
    expect(failed.exitCode).toBe(1)
    const outcome = (name: string) =>
      failed.apply!.outcomes.find(o => o.kind === 'Alert' && o.name === name)
    expect(outcome('First')).toMatchObject({ action: 'replace', status: 'failed' })
    expect(outcome('Second')).toMatchObject({ action: 'replace', status: 'applied' })
    const b = dashboardId('B')
    expect(alerts().map(a => [a.name, a.dashboardId === b ? 'B' : 'A']).sort()).toEqual([
      ['First', 'A'],
      ['Second', 'B']
    ])
  })
})
