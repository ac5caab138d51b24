/**
 * PromQL tiles with the narrower write (HyperDX 2.36's MCP patch, which the emulator serves by default): an update
 * that changes only the name, tags and existing tiles replaces just those tiles, so the PromQL tile the API never
 * shows stays, and the plan has no PromQL warning to give.
 */
import { describe, expect, it } from '@jest/globals'
import { actions, dashboard, obsdeploy, timeTile, useScenario } from '../support/harness.js'
import { madeInTheUi } from '../support/promql.js'

const { emu, ws } = useScenario()

describe('PromQL tiles and a patched update', () => {
  it('adopting a UI-made dashboard patches its tile and keeps the PromQL tile', async () => {
    const id = madeInTheUi(emu)
    ws.write({ 'infra.yaml': dashboard('Infra', timeTile('Errors', 0, 0), 'adopt: true\n') })
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(actions(plan)).toEqual(['update Dashboard/Infra'])
    expect(plan.diagnostics.filter(d => d.severity === 'warning')).toEqual([])
    const change = plan.plan!.changes.find(c => c.name === 'Infra')!
    expect(change.resets).toEqual({
      via: 'patch',
      tiles: [
        { tile: 'Errors', settings: ['tile filter (where)', 'granularity', 'null fill value', 'ratio mode'] }
      ]
    })

    const before = emu.requestLog.length
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    const writes = emu.requestLog
      .slice(before)
      .filter(r => r.method !== 'GET')
      .map(r => `${r.method} ${r.path}`)
    // The patch question, the dry run of the update (server-validation, it stores nothing), the patch.
    expect(writes).toEqual(['POST /mcp', 'POST /api/v2/dashboards/validate', 'POST /mcp'])
    expect(emu.selfHosted.dashboards.get(id)!.tiles.map(t => t.name)).toEqual(['Errors', 'CPU'])
    expect(actions(await obsdeploy(emu, ws, 'plan'))).toEqual([])
  })
})
