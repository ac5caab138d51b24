/**
 * `server-validation` (src/live/server-validation.ts): each dashboard the plan creates or updates goes to the
 * server's dry run once, as a create would check it (no filter ids); what it refuses is a plan error at the
 * manifest's line; a server without the route, or one that fails, is one warning and no more requests.
 */
import { describe, expect, it } from '@jest/globals'
import type { ObservabilityApi } from '../../src/api/client.js'
import { ApiError } from '../../src/api/errors.js'
import type { ValidateDashboardResult } from '../../src/api/schemas.js'
import { validateOnServer } from '../../src/live/server-validation.js'
import { silentLogger } from '../../src/log.js'
import { created, dashboard, plan, settings, tile } from '../support/dashboard-plan.js'

/** An API whose dry run answers `verdict` (or throws it), recording each body. */
function dryRun(verdict: ValidateDashboardResult | Error) {
  const bodies: Array<Record<string, unknown>> = []
  const api = {
    validateDashboard: async (body: unknown) => {
      bodies.push(body as Record<string, unknown>)
      if (verdict instanceof Error) throw verdict
      return verdict
    }
  } as unknown as ObservabilityApi
  return { api, bodies }
}

const run = (api: ObservabilityApi, o: ReturnType<typeof plan>) =>
  validateOnServer(api, o.planned, { settings: settings(), dashboards: o.dashboards, log: silentLogger })

const withFilter = (name: string, extra = '') =>
  dashboard(
    name,
    tile('Errors') + extra,
    'filters:\n  - name: Service\n    expression: ServiceName\n    source: Logs\n'
  )

describe('the dry run of the dashboards a plan writes', () => {
  it('sends each create and update once, as a create is checked: filter ids left out; a no-op costs nothing', async () => {
    const [live, unchanged] = await created(withFilter('Kept') + dashboard('Same', tile('Errors')))
    const o = plan(
      withFilter('Kept', tile('More')) + dashboard('Same', tile('Errors')) + dashboard('New', tile('A')),
      [live!, unchanged!]
    )
    const { api, bodies } = dryRun({ valid: true, errors: [] })
    expect(await run(api, o)).toEqual([])
    expect(bodies.map(b => b.name)).toEqual(['Kept', 'New'])
    // The update's tiles keep their ids (the dry run takes them); its filters go without theirs.
    const kept = bodies[0]!
    expect((kept.tiles as Array<{ id?: unknown }>)[0]!.id).toBe(live!.tiles[0]!.id)
    expect(kept.filters).toEqual([
      { type: 'QUERY_EXPRESSION', name: 'Service', expression: 'ServiceName', sourceId: 'src-logs' }
    ])
  })

  it("puts each finding at the manifest's line: a tile path at its tile, no path at the dashboard's name", async () => {
    const yaml = dashboard('Refused', tile('Errors') + tile('Second'))
    const { api } = dryRun({
      valid: false,
      errors: [
        { path: 'tiles.1.config.select.0', message: 'Level can only be used with quantile' },
        { path: '', message: 'Could not find the following source IDs: x' }
      ]
    })
    const found = await run(api, plan(yaml))
    expect(found.map(d => `${d.severity} ${d.line} ${d.field ?? '-'}: ${d.message}`)).toEqual([
      "error 22 tiles[1].config.select[0]: the server's validation refuses it: Level can only be used with quantile",
      "error 3 -: the server's validation refuses it: Could not find the following source IDs: x"
    ])
    expect(found[0]!.file).toBe('d.yaml')
  })

  it('a verdict without findings is still an error', async () => {
    const { api } = dryRun({ valid: false, errors: [] })
    const found = await run(api, plan(dashboard('Refused', tile('Errors'))))
    expect(found.map(d => d.message)).toEqual([
      "the server's validation refuses it: the server reports this dashboard invalid without saying why"
    ])
  })

  it('a server without the route is one warning, and the other dashboards are not sent', async () => {
    const absent = new ApiError({ method: 'POST', path: '/api/v2/dashboards/validate', status: 404 })
    const { api, bodies } = dryRun(absent)
    const found = await run(api, plan(dashboard('A', tile('E')) + dashboard('B', tile('E'))))
    expect(bodies).toHaveLength(1)
    expect(found.map(d => `${d.severity}: ${d.message}`)).toEqual([
      'warning: dashboards were not validated on the server: it has no dashboards/validate route, so they are checked when the apply writes them (server-validation: false skips the attempt)'
    ])
  })

  it('a failing route is a warning that names the failure', async () => {
    const failing = new ApiError({ method: 'POST', path: '/api/v2/dashboards/validate', status: 503 })
    const { api } = dryRun(failing)
    const found = await run(api, plan(dashboard('A', tile('E'))))
    expect(found.map(d => d.severity)).toEqual(['warning'])
    expect(found[0]!.message).toMatch(
      /^dashboards were not validated on the server \(the apply still checks them\): .*503/
    )
  })

  it('a dashboard naming a source this run creates is left to the apply: it has no id to send yet', async () => {
    const yaml =
      `kind: Source\nname: Fresh\nsourceKind: log\nconnection: Warehouse\nfrom: { databaseName: d, tableName: t }\n` +
      `timestampValueExpression: ts\ndefaultTableSelectExpression: ts\n` +
      dashboard(
        'Uses fresh',
        tile('E', 'displayType: line\n      source: Fresh\n      select: [{ aggFn: count }]')
      )
    const o = plan(yaml, [], { Connection: [{ id: 'c1', name: 'Warehouse' }] })
    expect(o.plan.diagnostics.filter(d => d.severity === 'error')).toEqual([])
    expect(o.plan.changes.map(c => `${c.action} ${c.address}`)).toContain('create Dashboard/Uses fresh')
    const { api, bodies } = dryRun({ valid: true, errors: [] })
    expect(await run(api, o)).toEqual([])
    expect(bodies).toEqual([])
  })
})
