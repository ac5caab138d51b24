/**
 * A long apply is not silent: the apply engine reports each change as it starts and as it ends, through the
 * callback in its input, and the entry points render those events (report/progress.ts). Checked here on a
 * real apply against the emulator, with one change failing on purpose.
 */
import { describe, expect, it } from '@jest/globals'
import type { ApplyProgress } from '../../src/apply/types.js'
import { progressReporter } from '../../src/report/progress.js'
import { alert, dashboard, obsdeploy, timeTile, useScenario } from '../support/harness.js'

const { emu, ws } = useScenario()

describe('apply progress', () => {
  it('every change starts and ends once, in order, counting up to the total; a failure says so', async () => {
    ws.write({
      'a.yaml': dashboard('Alpha', timeTile('Errors', 0, 0)) + alert('Alpha errors', 'Alpha', 'Errors'),
      'b.yaml': dashboard('Beta', timeTile('Errors', 0, 0)) + alert('Beta errors', 'Beta', 'Errors'),
      'c.yaml': dashboard('Gamma', timeTile('Errors', 0, 0))
    })
    // The first alert create fails (a 500 is not retried): one change fails, the others go on.
    emu.faults.add({ method: 'POST', path: '/api/v2/alerts', sequence: ['500'] })
    const events: ApplyProgress[] = []
    const lines: string[] = []
    const reporter = progressReporter({ live: false, write: t => lines.push(t), every: () => () => {} })
    const result = await obsdeploy(emu, ws, 'apply', {}, false, {
      progress: p => {
        events.push(p)
        reporter.update(p)
      }
    })
    reporter.done()
    expect(result.exitCode).toBe(1)

    const ends = events.filter(e => e.event === 'end')
    expect(ends).toHaveLength(5)
    expect(ends.map(e => e.done)).toEqual([1, 2, 3, 4, 5])
    expect(new Set(events.map(e => e.total))).toEqual(new Set([5]))
    for (const address of new Set(events.map(e => e.address))) {
      const mine = events.filter(e => e.address === address).map(e => e.event)
      expect(mine).toEqual(['start', 'end'])
    }
    // Dashboards before the alerts that need their tile ids.
    const order = ends.map(e => `${e.kind} ${e.name}`)
    expect(order.indexOf('Alert Alpha errors')).toBeGreaterThan(order.indexOf('Dashboard Alpha'))
    expect(ends.filter(e => e.status === 'failed').map(e => e.kind)).toEqual(['Alert'])
    expect(ends.filter(e => e.status === 'applied')).toHaveLength(4)

    // In CI: one line per change, with the count, the change and how it ended.
    expect(lines).toHaveLength(5)
    expect(lines[4]).toMatch(/^\[5\/5\] create (dashboard|alert) "[^"]+": (done|failed) \(\d+\.\d s\)\n$/)
    expect(lines.filter(l => /: failed \(/.test(l))).toHaveLength(1)
  })
})

describe('an apply held by the client-side rate limit', () => {
  it('says it is pacing, with how long', async () => {
    const files: Record<string, string> = {}
    for (let i = 0; i < 4; i++) files[`d${i}.yaml`] = dashboard(`D${i}`, timeTile('Errors', 0, 0))
    ws.write(files)
    const waits: number[] = []
    // Without the plan's dry runs, so the apply's own writes meet the limit.
    const result = await obsdeploy(
      emu,
      ws,
      'apply',
      { 'rate-limit': '5/2s', 'server-validation': 'false' },
      false,
      {
        pacing: ms => waits.push(ms)
      }
    )
    expect(result.exitCode).toBe(0)
    expect(waits.length).toBeGreaterThanOrEqual(1)
    expect(waits.every(ms => ms >= 1000 && ms <= 2200)).toBe(true)
  }, 30_000)
})
