import { describe, expect, it } from '@jest/globals'
import { actions, alert, dashboard, obsdeploy, timeTile, useScenario } from '../support/harness.js'

const { emu, ws } = useScenario({ per: 'file' })

/** n dashboards of 8 tiles with 2 alerts each, as manifests, and the same state seeded as live. */
function seed(n: number): void {
  const files: Record<string, string> = {}
  const logs = emu.selfHosted.sources.find(s => s.name === 'Logs')!.id
  const hook = emu.selfHosted.webhooks.find(w => w.name === 'ops-pager')!.id
  for (let i = 0; i < n; i++) {
    const name = `Service ${i}`
    let tiles = ''
    const tileBodies = []
    for (let t = 0; t < 8; t++) {
      tiles += timeTile(`Tile ${t}`, (t % 4) * 6, Math.floor(t / 4) * 3, `service:s${i} AND level:l${t}`)
      tileBodies.push({
        name: `Tile ${t}`,
        x: (t % 4) * 6,
        y: Math.floor(t / 4) * 3,
        w: 6,
        h: 3,
        series: [
          {
            type: 'time',
            sourceId: logs,
            aggFn: 'count',
            where: `service:s${i} AND level:l${t}`,
            groupBy: ['service']
          }
        ]
      })
    }
    files[`s${Math.floor(i / 100)}.yaml`] =
      (files[`s${Math.floor(i / 100)}.yaml`] ? `${files[`s${Math.floor(i / 100)}.yaml`]}---\n` : '') +
      dashboard(name, tiles) +
      alert(`${name} a`, name, 'Tile 0') +
      alert(`${name} b`, name, 'Tile 1')
    const d = emu.selfHosted.createDashboard({ name, tags: ['obsdeploy:shop'], tiles: tileBodies })
    for (const [suffix, tile] of [
      ['a', 0],
      ['b', 1]
    ] as const) {
      emu.selfHosted.createAlert({
        name: `${name} ${suffix}`,
        dashboardId: d.id,
        tileId: d.tiles[tile]!.id,
        source: 'tile',
        threshold: 10,
        thresholdType: 'above',
        interval: '5m',
        channel: { type: 'webhook', webhookId: hook }
      })
    }
  }
  ws.write(files)
}

describe('planning at scale', () => {
  it('plans 1,000 unchanged dashboards and 2,000 alerts with list calls only, in the same handful of requests as 10', async () => {
    seed(10)
    emu.clearLog()
    const small = await obsdeploy(emu, ws, 'plan')
    expect(actions(small)).toEqual([])
    const smallRequests = emu.requestLog.filter(r => r.path !== '/mcp').length

    // 990 more: 1,000 dashboards of 8 tiles and 2,000 alerts in all.
    emu.selfHosted.dashboards.clear()
    emu.selfHosted.alerts.clear()
    seed(1000)
    emu.clearLog()
    const large = await obsdeploy(emu, ws, 'plan')
    expect(large.exitCode).toBe(0)
    expect(actions(large)).toEqual([])
    expect(large.plan!.changes).toHaveLength(3000)
    const asked = emu.requestLog.map(r => `${r.method} ${r.path}`)
    // One question whether dashboards can be patched (src/api/mcp.ts), whatever their number.
    expect(asked.filter(r => r === 'POST /mcp')).toHaveLength(1)
    const requests = asked.filter(r => r !== 'POST /mcp')
    // No GET per resource: only the list routes, and a second page of alerts (1,000 per page).
    expect(
      requests.every(r =>
        /^GET \/api\/v2\/(dashboards|alerts|sources|webhooks|connections|saved-searches)$/.test(r)
      )
    ).toBe(true)
    expect(requests.length).toBeLessThanOrEqual(10)
    expect(requests.length).toBe(smallRequests + 1)
  }, 120_000)

  it('reads connections, sources, saved searches and webhooks with one list call each, whatever their number', async () => {
    emu.selfHosted.dashboards.clear()
    emu.selfHosted.alerts.clear()
    ws.write({ 'd.yaml': dashboard('Checkout', timeTile('Errors', 0, 0, 'level:error')) })
    const logs = emu.selfHosted.sources.find(s => s.name === 'Logs')!.id
    const addRecords = (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const connection = emu.selfHosted.createConnection({
          name: `Warehouse ${i}`,
          host: 'http://ch:8123',
          username: 'u'
        })
        emu.selfHosted.createSource({
          name: `Table ${i}`,
          kind: 'log',
          connection: connection.id,
          from: { databaseName: 'd', tableName: `t${i}` },
          timestampValueExpression: 'ts',
          defaultTableSelectExpression: 'ts, body'
        })
        emu.selfHosted.createSavedSearch({ name: `Search ${i}`, sourceId: logs, where: `n:${i}` })
        emu.selfHosted.createWebhook({
          name: `Hook ${i}`,
          service: 'generic',
          url: `https://hooks.example.com/${i}`
        })
      }
    }
    const plan = async () => {
      emu.clearLog()
      const run = await obsdeploy(emu, ws, 'plan')
      expect(run.exitCode).toBe(0)
      // Less the one question whether dashboards can be patched (src/api/mcp.ts), when there are dashboards,
      // and the dry run of each dashboard the plan writes (server-validation): one each, whatever else there is.
      const asked = emu.requestLog.map(r => `${r.method} ${r.path}`).filter(r => r !== 'POST /mcp')
      const written = run.plan!.changes.filter(c => c.kind === 'Dashboard' && c.action !== 'noop')
      expect(asked.filter(r => r === 'POST /api/v2/dashboards/validate')).toHaveLength(written.length)
      return asked.filter(r => r !== 'POST /api/v2/dashboards/validate')
    }
    addRecords(0, 10)
    const small = await plan()
    addRecords(10, 1500)
    const large = await plan()
    // One list call per kind (and per page of 1,000 of the paginated ones), none per resource.
    expect(large.every(r => /^GET \/api\/v2\/[a-z-]+$/.test(r))).toBe(true)
    expect(small).toHaveLength(6)
    // 1,500 of each: a second page of webhooks and of saved searches (1,000 per page), nothing else.
    expect(large).toHaveLength(small.length + 2)
  }, 120_000)
})
