/**
 * PromQL tiles: the API leaves them out of every dashboard it returns, and a PUT replaces the whole
 * tile list, so no client can keep them through it. On a server without the narrower patch (here: the emulator
 * without /mcp) the plan warns on every update of a dashboard this stack did not create (adopted now, or
 * pinned/adopted in its manifest); the emulator reproduces the loss. An update sent as patches leaves them.
 */
import { describe, expect, it } from '@jest/globals'
import type { RunResult } from '../../src/run/types.js'
import { actions, dashboard, obsdeploy, timeTile, useScenario } from '../support/harness.js'
import { madeInTheUi } from '../support/promql.js'

const { emu, ws } = useScenario({ emulator: { mcp: false } })

const WARNING = 'tiles this API cannot show (PromQL) are removed by an update'
const warnings = (result: RunResult) =>
  result.diagnostics.filter(d => d.severity === 'warning').map(d => d.message)

describe('PromQL tiles', () => {
  it('warns on every update of an adopted dashboard, and the update does remove them', async () => {
    const id = madeInTheUi(emu)
    ws.write({ 'infra.yaml': dashboard('Infra', timeTile('Errors', 0, 0), 'adopt: true\n') })

    const plan = await obsdeploy(emu, ws, 'plan')
    expect(actions(plan)).toEqual(['update Dashboard/Infra'])
    expect(warnings(plan)).toEqual([expect.stringContaining(WARNING)])
    expect(warnings(plan)[0]).toMatch(/no client of this API can protect them/)

    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    // What the plan warned of: the emulator, like the real server, lost the tile it never showed.
    expect(emu.selfHosted.dashboards.get(id)!.tiles.map(t => t.name)).toEqual(['Errors'])

    // Still adopted in its manifest: every later update warns again; a plan with nothing to do does not.
    expect(warnings(await obsdeploy(emu, ws, 'plan'))).toEqual([])
    ws.write({ 'infra.yaml': dashboard('Infra', timeTile('Errors', 0, 0, 'level:fatal'), 'adopt: true\n') })
    expect(warnings(await obsdeploy(emu, ws, 'plan'))).toEqual([expect.stringContaining(WARNING)])
  })

  it('does not warn on an update of a dashboard this stack created', async () => {
    ws.write({ 'mine.yaml': dashboard('Mine', timeTile('Errors', 0, 0)) })
    await obsdeploy(emu, ws, 'apply')
    ws.write({ 'mine.yaml': dashboard('Mine', timeTile('Errors', 0, 0, 'level:fatal')) })
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(actions(plan)).toEqual(['update Dashboard/Mine'])
    expect(warnings(plan)).toEqual([])
  })
})
