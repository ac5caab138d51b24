/**
 * Plan, apply and plan back to back in managed mode against the emulator's limiter, with no 429. The
 * client and the emulator share a lockstep fake clock (test/contract/helpers.ts): requests arrive when they
 * were sent, so the result does not depend on how loaded this machine is.
 */
import { describe, expect, it } from '@jest/globals'
import { createApi } from '../../src/api/client.js'
import type { RunDependencies } from '../../src/run/types.js'
import { LockstepClock } from '../contract/helpers.js'
import { actions, alert, dashboard, obsdeploy, timeTile, useScenario } from '../support/harness.js'

const clock = new LockstepClock()
// The managed limit (10 requests per 10 s) scaled down 20 times.
const { emu, ws } = useScenario({
  per: 'file',
  emulator: {
    rateLimits: { selfHosted: false, managed: { requests: 10, windowMs: 500 } },
    clock: () => clock.now()
  }
})

/** Each run's client on the lockstep clock: what it sent, minus what the emulator has answered since it began. */
const lockstep: RunDependencies = {
  api: config => {
    const api = createApi(config, { clock })
    const before = emu.requestLog.length
    clock.inFlight = () => api.stats.requests - (emu.requestLog.length - before)
    return api
  }
}

describe('pacing in managed mode', () => {
  it('runs plan, apply and plan back to back without a single 429', async () => {
    const files: Record<string, string> = {}
    for (let i = 0; i < 20; i++)
      files[`d${i}.yaml`] =
        dashboard(`D${i}`, timeTile('Errors', 0, 0)) +
        alert(`D${i} errors`, `D${i}`, 'Errors').replace(
          'webhook: ops-pager',
          'webhookId: 65a1f0c2b3d4e5f6a7b8ca01'
        )
    ws.write(files)
    const settings = { mode: 'managed', 'rate-limit': '10/500ms', 'retry-budget': '30' }
    expect((await obsdeploy(emu, ws, 'plan', settings, false, lockstep)).exitCode).toBe(0)
    // The apply starts right away, inside the window the plan's requests still count in at the server.
    const apply = await obsdeploy(emu, ws, 'apply', settings, false, lockstep)
    expect(apply.exitCode).toBe(0)
    expect(actions(await obsdeploy(emu, ws, 'plan', settings, false, lockstep))).toEqual([])
    const limited = emu.requestLog.filter(r => r.status === 429 || r.rateLimited)
    expect(limited).toEqual([])
    expect(emu.requestLog.length).toBeGreaterThanOrEqual(20)
  }, 60_000)
})
