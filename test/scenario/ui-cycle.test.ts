/**
 * What a user does with the web UI beside this tool, on a server that behaves as HyperDX 2.36 does (the emulator's
 * UI routes and stored form): apply, edit in the UI, plan, apply, save in the UI. Settings only the UI can set
 * survive an update that does not rewrite their tile, the plan names every tile a write does rewrite, and the UI
 * can save the dashboard after any update of ours.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from '@jest/globals'
import type { JsonObject } from '../../emulator/types.js'
import { actions, errors, obsdeploy, useScenario } from '../support/harness.js'

const { emu, ws } = useScenario()

const example = (file: string) =>
  readFileSync(new URL(`../../examples/observability/${file}`, import.meta.url), 'utf8')

type UiTile = { id: string; x: number; config: Record<string, unknown> }
type UiDashboard = JsonObject & { _id?: string; id?: string; name: string; tiles: UiTile[] }

const uiDashboard = (name: string): UiDashboard =>
  (emu.selfHosted.uiDashboards() as UiDashboard[]).find(d => d.name === name)!
const idOf = (d: UiDashboard) => String(d._id ?? d.id)
const uiTile = (d: UiDashboard, name: string) => d.tiles.find(t => t.config.name === name)!

/** The UI's own save: the tiles exactly as its GET returned them. */
const saveInTheUi = (name: string) => {
  const d = uiDashboard(name)
  return () => emu.selfHosted.uiPatchDashboard(idOf(d), { tiles: d.tiles })
}

/** In the UI: a tile filter and a granularity on one tile, and another tile moved. */
function editInTheUi(): void {
  const d = uiDashboard('Platform overview')
  Object.assign(uiTile(d, 'Warnings by service').config, {
    where: 'env:prod',
    whereLanguage: 'lucene',
    granularity: '5 minute'
  })
  uiTile(d, 'Recent errors').x = 14
  emu.selfHosted.uiPatchDashboard(idOf(d), { tiles: d.tiles })
}

describe('the web UI and this tool on one dashboard', () => {
  it('keeps what only the UI can set on tiles an update leaves alone, and the UI can save after it', async () => {
    ws.write({ 'platform.yaml': example('platform.yaml') })
    expect(errors(await obsdeploy(emu, ws, 'apply'))).toEqual([])
    editInTheUi()

    const plan = await obsdeploy(emu, ws, 'plan')
    const change = plan.plan!.changes.find(c => c.name === 'Platform overview')!
    expect(change.fields.map(f => f.path)).toEqual(['tiles["Recent errors"].x'])
    // A search tile has nothing only the UI can set: nothing is reset, and the heading names nothing.
    expect(change.resets).toBeUndefined()

    expect(errors(await obsdeploy(emu, ws, 'apply'))).toEqual([])
    const after = uiDashboard('Platform overview')
    expect(uiTile(after, 'Recent errors').x).toBe(12)
    expect(uiTile(after, 'Warnings by service').config).toMatchObject({
      where: 'env:prod',
      granularity: '5 minute'
    })
    expect(saveInTheUi('Platform overview')).not.toThrow()
    expect(actions(await obsdeploy(emu, ws, 'plan'))).toEqual([])
  })

  it('names each tile a rewrite of every tile resets, and the reset is what the plan said', async () => {
    ws.write({ 'platform.yaml': example('platform.yaml') })
    expect(errors(await obsdeploy(emu, ws, 'apply'))).toEqual([])
    editInTheUi()
    // A tile added: the update must be one PUT, which rewrites every tile.
    ws.write({
      'platform.yaml': example('platform.yaml').replace(
        'tiles:\n',
        'tiles:\n  - name: Notes\n    x: 0\n    y: 20\n    w: 6\n    h: 2\n    config: { displayType: markdown, markdown: hi }\n'
      )
    })
    const plan = await obsdeploy(emu, ws, 'plan')
    const change = plan.plan!.changes.find(c => c.name === 'Platform overview')!
    expect(change.resets).toEqual({
      via: 'put',
      why: 'it changes more than existing tiles, so it cannot replace them one at a time',
      tiles: [
        {
          tile: 'Warnings by service',
          settings: ['tile filter (where)', 'granularity', 'null fill value', 'ratio mode']
        }
      ]
    })

    expect(errors(await obsdeploy(emu, ws, 'apply'))).toEqual([])
    const warnings = uiTile(uiDashboard('Platform overview'), 'Warnings by service').config
    expect(warnings.where).toBe('')
    expect(warnings.granularity).toBeUndefined()
    // Every select item was sent with its language: the UI's save of changed and unchanged tiles succeeds.
    expect(saveInTheUi('Platform overview')).not.toThrow()
  })

  it('a channel added in the UI is a change the apply removes: the manifest owns every channel', async () => {
    ws.write({ 'platform.yaml': example('platform.yaml') })
    expect(errors(await obsdeploy(emu, ws, 'apply'))).toEqual([])
    const alert = [...emu.selfHosted.alerts.values()].find(a => a.name === 'Platform warnings')!
    const oncall = emu.selfHosted.webhooks.find(w => w.name === 'ops-pager')!
    const { id: _id, channel, ...rest } = alert as unknown as Record<string, unknown>
    emu.selfHosted.uiUpdateAlert(alert.id, {
      ...rest,
      channels: [channel, { type: 'webhook', webhookId: oncall.id }]
    })
    expect(emu.selfHosted.alerts.get(alert.id)!.channels).toHaveLength(2)
    const plan = await obsdeploy(emu, ws, 'plan')
    const change = plan.plan!.changes.find(c => c.name === 'Platform warnings')!
    expect(change.fields.map(f => f.path)).toEqual(['channels'])
    expect(errors(await obsdeploy(emu, ws, 'apply'))).toEqual([])
    expect(emu.selfHosted.alerts.get(alert.id)!.channels).toHaveLength(1)
  })
})
