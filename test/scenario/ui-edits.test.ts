/**
 * "The plan shows every change": apply the examples, edit in the UI (directly in the emulator's store) every
 * field the manifest language does not model and some it does, then plan. Every edit is visible: a field
 * the update changes back is a field change, one it sends back as read is named in a notice. The apply
 * then keeps what it said it keeps and reverts what it said it reverts, and the plan after is empty.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import type { StoredAlert, StoredDashboard, StoredTile } from '../../emulator/index.js'
import type { RunResult } from '../../src/run/types.js'
import { actions, obsdeploy, useScenario } from '../support/harness.js'

const { emu, ws } = useScenario()

const example = (file: string) =>
  readFileSync(new URL(`../../examples/observability/${file}`, import.meta.url), 'utf8')
const LOGS = '65a1f0c2b3d4e5f6a7b8c901'
const TEAM_SLACK = '65a1f0c2b3d4e5f6a7b8ca02'

const dashboardNamed = (name: string): StoredDashboard =>
  [...emu.selfHosted.dashboards.values()].find(d => d.name === name)!
const tile = (dashboard: string, name: string): StoredTile =>
  dashboardNamed(dashboard).tiles.find(t => t.name === name)!
const alertNamed = (name: string): StoredAlert =>
  [...emu.selfHosted.alerts.values()].find(a => a.name === name)!

const fieldPaths = (result: RunResult, name: string): string[] =>
  result.plan!.changes.find(c => c.name === name)!.fields.map(f => f.path)
const notices = (result: RunResult): string =>
  result.diagnostics
    .filter(d => d.severity === 'notice')
    .map(d => d.message)
    .join('\n')

/** One UI edit of each kind of field: the dashboard's own, a tile's, each tile config variant's, an alert's. */
function editInTheUi(): void {
  const checkout = dashboardNamed('Checkout')
  checkout.filters = [
    { id: 'f1', type: 'QUERY_EXPRESSION', name: 'Service', expression: 'ServiceName', sourceId: LOGS }
  ]
  checkout.savedQuery = 'service:cart'
  checkout.savedQueryLanguage = 'lucene'
  checkout.savedFilterValues = [{ type: 'sql', condition: "ServiceName IN ('cart')" }]
  checkout.containers = [{ id: 'main', title: 'Main', collapsed: false }]
  // A series tile of the manifest: the UI stores its settings in the config form.
  Object.assign(tile('Checkout', 'Errors'), { containerId: 'main' })
  Object.assign(tile('Checkout', 'Errors').config, {
    formulas: [{ expression: 'A * 2', alias: 'double' }],
    showOperandSeries: false
  })
  Object.assign(tile('Checkout', 'Requests').config, {
    color: 'chart-red',
    colorRules: [{ operator: 'gt', value: 100, color: 'chart-orange' }],
    backgroundChart: { type: 'line' }
  })
  Object.assign(tile('Checkout', 'Errors by service').config, {
    onClick: { type: 'external', urlTemplate: 'https://runbooks.example.com/{{service}}' },
    groupByColumnsOnLeft: true
  })
  // A field the manifest language has: the update sets it back.
  Object.assign(tile('Checkout', 'Slow requests').config, { fillNulls: false })
  // Switched to raw SQL in the UI.
  tile('Platform overview', 'Warnings by service').config = {
    configType: 'sql',
    displayType: 'line',
    connectionId: '65a1f0c2b3d4e5f6a7b8cb01',
    sqlTemplate: 'SELECT count() FROM logs WHERE $__timeFilter(Timestamp)',
    fillNulls: true
  }
  Object.assign(alertNamed('Checkout errors'), {
    scheduleStartAt: '2026-01-01T10:00:00.000Z',
    scheduleOffsetMinutes: 0,
    channels: [alertNamed('Checkout errors').channel, { type: 'webhook', webhookId: TEAM_SLACK }]
  })
}

describe('a UI edit of anything shows in the next plan', () => {
  it('applies the examples, edits every unmodelled field in the UI, and plans each edit', async () => {
    ws.write({ 'checkout.yaml': example('checkout.yaml'), 'platform.yaml': example('platform.yaml') })
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    expect(actions(await obsdeploy(emu, ws, 'plan'))).toEqual([])

    editInTheUi()
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(actions(plan)).toEqual(['update Dashboard/Checkout', 'update Dashboard/Platform overview'])

    // What the update sets back: field changes.
    expect(fieldPaths(plan, 'Checkout').sort()).toEqual([
      'tiles["Errors by service"].groupByColumnsOnLeft',
      'tiles["Slow requests"].fillNulls'
    ])
    expect(fieldPaths(plan, 'Platform overview')).toEqual(
      expect.arrayContaining([
        'tiles["Warnings by service"].configType',
        'tiles["Warnings by service"].connectionId',
        'tiles["Warnings by service"].sqlTemplate',
        'tiles["Warnings by service"].select'
      ])
    )
    expect(plan.plan!.changes.find(c => c.name === 'Platform overview')!.notes).toContain(
      'tile "Warnings by service" is a raw-SQL tile (set in the UI); this manifest cannot express raw-SQL tiles yet, so an update turns it back into the builder tile it describes'
    )

    // What the update sends back as read: named in a notice, on every plan.
    const kept = notices(plan)
    for (const path of [
      'filters',
      'savedQuery',
      'savedQueryLanguage',
      'savedFilterValues',
      'containers',
      'tiles["Errors"].containerId',
      'tiles["Errors"].formulas',
      'tiles["Errors"].showOperandSeries',
      'tiles["Requests"].color',
      'tiles["Requests"].colorRules',
      'tiles["Requests"].backgroundChart',
      'tiles["Errors by service"].onClick'
    ])
      expect(kept).toContain(path)
    const alertNotice = kept.split('\n').find(line => line.startsWith('alert "Checkout errors"'))!
    for (const field of ['scheduleOffsetMinutes', 'scheduleStartAt', 'channels'])
      expect(alertNotice).toContain(field)

    const apply = await obsdeploy(emu, ws, 'apply')
    expect(apply.diagnostics.filter(d => d.severity === 'error')).toEqual([])
    expect(apply.exitCode).toBe(0)
    const checkout = dashboardNamed('Checkout')
    expect(checkout).toMatchObject({
      savedQuery: 'service:cart',
      containers: [{ id: 'main' }],
      filters: [expect.objectContaining({ id: 'f1' })]
    })
    expect(tile('Checkout', 'Errors')).toMatchObject({
      containerId: 'main',
      config: { formulas: [{ expression: 'A * 2', alias: 'double' }], showOperandSeries: false }
    })
    expect(tile('Checkout', 'Requests').config).toMatchObject({
      color: 'chart-red',
      backgroundChart: { type: 'line' }
    })
    expect(tile('Checkout', 'Errors by service').config.onClick).toBeDefined()
    expect(tile('Checkout', 'Errors by service').config.groupByColumnsOnLeft).toBeUndefined()
    expect(tile('Checkout', 'Slow requests').config.fillNulls).toBe(true)
    expect(tile('Platform overview', 'Warnings by service').config).not.toHaveProperty('configType')
    expect(alertNamed('Checkout errors')).toMatchObject({
      scheduleStartAt: '2026-01-01T10:00:00.000Z',
      channels: [expect.anything(), { type: 'webhook', webhookId: TEAM_SLACK }]
    })

    const after = await obsdeploy(emu, ws, 'plan')
    expect(actions(after)).toEqual([])
    expect(notices(after)).toContain('tiles["Errors"].formulas')
  })

  it('removes a UI formula when the manifest changes the select items it refers to, and says so', async () => {
    ws.write({ 'checkout.yaml': example('checkout.yaml') })
    await obsdeploy(emu, ws, 'apply')
    Object.assign(tile('Checkout', 'Errors by service').config, {
      formulas: [{ expression: 'A / 2' }]
    })
    ws.write({
      'checkout.yaml': example('checkout.yaml').replace(
        "where: 'level:error'\n      groupBy",
        "where: 'level:fatal'\n      groupBy"
      )
    })
    const plan = await obsdeploy(emu, ws, 'plan')
    const change = plan.plan!.changes.find(c => c.name === 'Checkout')!
    expect(change.fields).toContainEqual({
      path: 'tiles["Errors by service"].formulas',
      before: [{ expression: 'A / 2' }]
    })
    expect(change.notes.join('\n')).toMatch(
      /tile "Errors by service": formulas \(set in the UI.*\) is removed by this update, because the update changes the tile's select/
    )
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    expect(tile('Checkout', 'Errors by service').config.formulas).toBeUndefined()
    expect(actions(await obsdeploy(emu, ws, 'plan'))).toEqual([])
  })

  it('compares asRatio on a table tile, which the server keeps', async () => {
    const table = (asRatio: boolean) => `kind: Dashboard
name: Ratios
tiles:
  - name: Errors per request
    x: 0
    y: 0
    w: 12
    h: 4
    config:
      displayType: table
      source: Logs
      asRatio: ${asRatio}
      select:
        - aggFn: count
          where: 'level:error'
        - aggFn: count
      groupBy: service
`
    ws.write({ 'ratios.yaml': table(true) })
    await obsdeploy(emu, ws, 'apply')
    expect(tile('Ratios', 'Errors per request').config.asRatio).toBe(true)
    expect(actions(await obsdeploy(emu, ws, 'plan'))).toEqual([])
    ws.write({ 'ratios.yaml': table(false) })
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(fieldPaths(plan, 'Ratios')).toEqual(['tiles["Errors per request"].asRatio'])
    await obsdeploy(emu, ws, 'apply')
    expect(tile('Ratios', 'Errors per request').config.asRatio).toBe(false)
  })
})
