/**
 * The live read starts while the manifests load (src/run/early.ts). What must not change: invalid
 * manifests stop the run with their own errors and nothing written, a failed read is reported as before
 * (after validation, and only when the manifests are valid), and the service is read only when a
 * ServiceSettings manifest asks for it, which the read learns once the manifests are loaded.
 */
import { describe, expect, it } from '@jest/globals'
import { existsSync } from 'node:fs'
import path from 'node:path'
import type { Emulator } from '../../emulator/index.js'
import type { ManifestSet } from '../../src/manifest/load.js'
import { emptySpecs } from '../../src/manifest/specs.js'
import { startLiveRead } from '../../src/run/online.js'
import { configFor, dashboard, errors, obsdeploy, timeTile, useScenario } from '../support/harness.js'

const { emu, ws } = useScenario()

const valid = dashboard('Checkout', timeTile('Errors', 0, 0))
const invalid = dashboard('Checkout', timeTile('Errors', 0, 0).replace('w: 6', 'w: 60'))
const planFile = () => path.join(ws.dir, '.obsdeploy', 'plan.json')
const writes = (e: Emulator) => e.requestLog.filter(r => r.method !== 'GET')

describe('the live read that overlaps loading', () => {
  it('invalid manifests: only their errors, exit 1, no write and no plan file, even when the server fails too', async () => {
    ws.write({ 'checkout.yaml': invalid })
    emu.faults.add({ method: 'GET', kind: '500' })
    for (const command of ['plan', 'apply', 'drift'] as const) {
      const result = await obsdeploy(emu, ws, command)
      expect(result.exitCode).toBe(1)
      expect(errors(result)).toEqual([expect.stringMatching(/must be between 1 and 24/)])
      expect(result.plan).toBeUndefined()
    }
    expect(writes(emu)).toEqual([])
    expect(existsSync(planFile())).toBe(false)
  })

  it('valid manifests and a failed read: the read is reported as before, after the manifests’ warnings', async () => {
    ws.write({ 'checkout.yaml': valid, 'empty.yaml': '# nothing yet\n' })
    emu.faults.add({ method: 'GET', path: '/dashboards', kind: '500' })
    // A 500 on a read is retried: with no retry budget, the read fails at the first one.
    const result = await obsdeploy(emu, ws, 'plan', { 'retry-budget': '0' })
    expect(result.exitCode).toBe(1)
    expect(result.diagnostics.map(d => `${d.severity} ${d.stage}`)).toEqual([
      'warning validate',
      'error plan'
    ])
    expect(errors(result)).toEqual([expect.stringMatching(/^could not read the live state: /)])
    expect(existsSync(planFile())).toBe(false)
    expect(writes(emu)).toEqual([])
  })

  it('valid manifests: the plan reads each list once, asks once whether dashboards can be patched, and plans', async () => {
    ws.write({ 'checkout.yaml': valid })
    const result = await obsdeploy(emu, ws, 'plan')
    expect(result.exitCode).toBe(0)
    expect(result.plan?.changes.map(c => `${c.action} ${c.address}`)).toEqual(['create Dashboard/Checkout'])
    expect(emu.requestLog.map(r => `${r.method} ${r.path}`).sort()).toEqual([
      'GET /api/v2/alerts',
      'GET /api/v2/connections',
      'GET /api/v2/dashboards',
      'GET /api/v2/saved-searches',
      'GET /api/v2/sources',
      'GET /api/v2/webhooks',
      // The dry run of the dashboard the plan creates (server-validation).
      'POST /api/v2/dashboards/validate',
      'POST /mcp'
    ])
  })

  it('the lists go out before the manifests are known; the service read waits for them (managed)', async () => {
    const config = configFor(emu, ws, 'plan', { mode: 'managed' })
    let loaded!: (sets: ManifestSet[]) => void
    const manifests = new Promise<ManifestSet[]>(resolve => (loaded = resolve))
    const read = startLiveRead(config, {}, manifests)
    try {
      // The manifests are still "loading": the lists are read, the service is not.
      while (emu.requestLog.filter(r => r.status !== undefined).length < 3) await tick()
      expect(emu.requestLog.some(r => r.path.endsWith(emu.credentials.serviceId))).toBe(false)
      const withService = { specs: { ...emptySpecs(), ServiceSettings: [{}] } } as unknown as ManifestSet
      loaded([withService])
      const live = await read.live
      expect(live.ServiceSettings?.[0]).toBeDefined()
      expect(emu.requestLog.filter(r => r.path.endsWith(emu.credentials.serviceId))).toHaveLength(1)
    } finally {
      await read.abandon()
    }
  })

  it('abandoned while the lists are held: the read ends with a cancellation, and nothing is written', async () => {
    emu.faults.add({ method: 'GET', kind: 'delay', delayMs: 60_000 })
    const config = configFor(emu, ws, 'plan')
    const read = startLiveRead(config, {}, Promise.resolve([]))
    // The emulator holds every list; the read is under way (in flight or queued) when it is abandoned.
    await tick()
    await read.abandon()
    await expect(read.live).rejects.toThrow(/cancelled|stopped before planning/)
    expect(writes(emu)).toEqual([])
  })
})

const tick = () => new Promise(resolve => setTimeout(resolve, 5))
