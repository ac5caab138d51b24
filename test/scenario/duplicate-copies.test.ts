/**
 * A live copy beside the dashboard its manifest pairs with (two of this stack's dashboards of one name, say one
 * made twice by hand): the plan deletes the copy with prune and says it is a copy, not "no longer in the manifests".
 */
import { describe, expect, it } from '@jest/globals'
import { dashboard, errors, obsdeploy, timeTile, useScenario } from '../support/harness.js'

const { emu, ws } = useScenario()

describe('a copy of a dashboard the manifests keep', () => {
  it('is named a copy, with the id of the one the manifest pairs with', async () => {
    ws.write({ 'a.yaml': dashboard('Checkout', timeTile('Errors', 0, 0)) })
    expect(errors(await obsdeploy(emu, ws, 'apply'))).toEqual([])
    const kept = [...emu.selfHosted.dashboards.values()].find(d => d.name === 'Checkout')!
    const copy = emu.selfHosted.createDashboard({ name: 'Checkout', tags: kept.tags, tiles: [] })
    const result = await obsdeploy(emu, ws, 'plan', { prune: 'true' })
    const deleted = result.plan!.changes.find(c => c.action === 'delete')!
    expect(deleted.id).toBe(copy.id)
    expect(deleted.notes).toEqual([
      `a copy: the manifest "Checkout" pairs with another live one of that name (id ${kept.id}) (prune is on)`
    ])
  })
})
