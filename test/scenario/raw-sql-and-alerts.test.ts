/**
 * Raw-SQL tiles (configType: sql, a connection by name) and the alert forms added with the new kinds: saved-search
 * alerts, several channels, and the managed mode's channels (email, the webhook extras), with the managed mode's
 * limits (no connections, no `channels`), against the emulator of both modes.
 */
import { describe, expect, it } from '@jest/globals'
import { actions, errors, obsdeploy, useScenario } from '../support/harness.js'
import { INTERVAL_SQL, SEED_CONNECTION } from '../support/real-surface.js'

const { emu, ws } = useScenario()

const rawTile = (
  name: string,
  displayType: string,
  extra = '',
  connection = 'connection: Local ClickHouse'
) => `  - name: ${name}
    x: 0
    y: 0
    w: 6
    h: 4
    config:
      configType: sql
      displayType: ${displayType}
      ${connection}
      sqlTemplate: ${JSON.stringify(INTERVAL_SQL)}
${extra}`

const board = (tiles: string) => `kind: Dashboard\nname: SQL\ntiles:\n${tiles}`
const tiles = () => [...emu.selfHosted.dashboards.values()].find(d => d.name === 'SQL')!.tiles

describe('raw-SQL tiles', () => {
  it('creates one of every display type the server allows, by connection name, then plans nothing', async () => {
    const types = ['line', 'stacked_bar', 'table', 'number', 'pie', 'bar']
    ws.write({ 'sql.yaml': board(types.map(t => rawTile(`T ${t}`, t)).join('')) })
    const apply = await obsdeploy(emu, ws, 'apply')
    expect(errors(apply)).toEqual([])
    expect(tiles().map(t => [t.config.displayType, t.config.configType, t.config.connectionId])).toEqual(
      types.map(t => [t, 'sql', SEED_CONNECTION])
    )
    expect(actions(await obsdeploy(emu, ws, 'plan'))).toEqual([])
  })

  it('updates the query, the options and the display type; a tile turned into a builder tile loses its SQL', async () => {
    ws.write({ 'sql.yaml': board(rawTile('T', 'line')) })
    await obsdeploy(emu, ws, 'apply')
    const id = tiles()[0]!.id
    ws.write({
      'sql.yaml': board(
        rawTile('T', 'line', '      fillNulls: false\n      seriesLimit: 3\n').replace(
          'GROUP BY ts',
          'GROUP BY ts LIMIT 10'
        )
      )
    })
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(plan.plan!.changes[0]!.fields.map(f => f.path)).toEqual([
      'tiles["T"].fillNulls',
      'tiles["T"].seriesLimit',
      'tiles["T"].sqlTemplate'
    ])
    await obsdeploy(emu, ws, 'apply')
    expect(tiles()[0]).toMatchObject({ id, config: { fillNulls: false, seriesLimit: 3 } })
    ws.write({
      'sql.yaml': board(`  - name: T
    x: 0
    y: 0
    w: 6
    h: 4
    config:
      displayType: line
      source: Logs
      select: [{ aggFn: count }]
`)
    })
    const builder = await obsdeploy(emu, ws, 'plan')
    expect(builder.plan!.changes[0]!.fields.map(f => f.path)).toEqual(
      expect.arrayContaining(['tiles["T"].configType', 'tiles["T"].connectionId', 'tiles["T"].sqlTemplate'])
    )
    await obsdeploy(emu, ws, 'apply')
    expect(tiles()[0]!.config).not.toHaveProperty('configType')
  })

  it('refuses offline what the server would: no connection, an unknown one by name (at plan), an alert without the interval', async () => {
    ws.write({
      'sql.yaml':
        board(rawTile('T', 'line', '', '') + rawTile('U', 'line', '', 'connection: Warehous')) +
        `---
kind: Alert
name: A
dashboard: SQL
tile: U
threshold: 1
thresholdType: above
interval: 5m
channel: { type: webhook, webhook: ops-pager }
`
    })
    const validate = await obsdeploy(emu, ws, 'validate')
    expect(errors(validate)).toEqual([
      'a raw-SQL tile needs its connection: `connection` (by name) or `connectionId`'
    ])
    ws.write({ 'sql.yaml': board(rawTile('U', 'line', '', 'connection: Local ClickHous')) })
    expect(errors(await obsdeploy(emu, ws, 'plan'))).toEqual([
      'no connection named "Local ClickHous" (did you mean "Local ClickHouse"?)'
    ])
    ws.write({
      'sql.yaml':
        board(rawTile('U', 'line').replace(INTERVAL_SQL.replace(/"/g, '\\"'), 'SELECT 1')) +
        `---\nkind: Alert\nname: A\ndashboard: SQL\ntile: U\nthreshold: 1\nthresholdType: above\ninterval: 5m\nchannel: { type: webhook, webhook: ops-pager }\n`
    })
    expect(errors(await obsdeploy(emu, ws, 'validate'))).toEqual([
      expect.stringMatching(/raw-SQL line tile: an alert needs its query to use the interval/)
    ])
  })
})

describe('alert forms', () => {
  const search = `kind: SavedSearch
name: Errors
source: Logs
where: 'level:error'
`
  const searchAlert = (extra: string) => `---
kind: Alert
name: Burst
source: saved_search
savedSearch: Errors
threshold: 5
thresholdType: above
interval: 5m
${extra}`

  it('a saved-search alert on up to 10 channels; more is refused offline', async () => {
    ws.write({
      'a.yaml':
        search +
        searchAlert(
          'channels:\n  - { type: webhook, webhook: ops-pager }\n  - { type: webhook, webhook: team-slack }\ngroupBy: service\n'
        )
    })
    expect(errors(await obsdeploy(emu, ws, 'apply'))).toEqual([])
    const alert = [...emu.selfHosted.alerts.values()][0]!
    expect(alert.channels).toHaveLength(2)
    expect(alert.channel).toEqual(alert.channels[0])
    expect(actions(await obsdeploy(emu, ws, 'plan'))).toEqual([])
    const eleven = Array.from(
      { length: 11 },
      (_, i) => `  - { type: webhook, webhookId: ${'0'.repeat(23)}${i % 10} }`
    )
    ws.write({ 'a.yaml': search + searchAlert(`channels:\n${eleven.join('\n')}\n`) })
    expect(errors(await obsdeploy(emu, ws, 'validate'))).toContainEqual('an alert has at most 10 channels')
  })

  it('moves a saved-search alert to another saved search with an update (same id)', async () => {
    ws.write({ 'a.yaml': search + searchAlert('channel: { type: webhook, webhook: ops-pager }\n') })
    await obsdeploy(emu, ws, 'apply')
    const id = [...emu.selfHosted.alerts.keys()][0]!
    ws.write({
      'a.yaml':
        search +
        '---\n' +
        search.replace('name: Errors', 'name: Warnings') +
        searchAlert('channel: { type: webhook, webhook: ops-pager }\n').replace(
          'savedSearch: Errors',
          'savedSearch: Warnings'
        )
    })
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(actions(plan)).toEqual(['create SavedSearch/Warnings', 'update Alert/Burst'])
    await obsdeploy(emu, ws, 'apply')
    expect([...emu.selfHosted.alerts.keys()]).toEqual([id])
  })

  it('refuses a saved-search alert on a saved search the manifests do not declare', async () => {
    ws.write({
      'a.yaml': searchAlert('channel: { type: webhook, webhook: ops-pager }\n').replace('---\n', '')
    })
    expect(errors(await obsdeploy(emu, ws, 'validate'))).toEqual([
      expect.stringMatching(
        /^no SavedSearch named "Errors" in the manifests: an alert is owned through its saved search/
      )
    ])
  })
})

describe('managed mode', () => {
  const managed = { mode: 'managed', 'managed-prefix': 'clickstack' }

  it('takes one channel per alert, email included, and the webhook extras', async () => {
    ws.write({
      'a.yaml': `kind: SavedSearch
name: Errors
source: Logs
---
kind: Alert
name: Mail
source: saved_search
savedSearch: Errors
threshold: 5
thresholdType: above
interval: 5m
channel: { type: email, emailRecipients: [oncall@example.com] }
---
kind: Alert
name: Page
source: saved_search
savedSearch: Errors
threshold: 9
thresholdType: above
interval: 5m
channel: { type: webhook, webhook: ops-pager, severity: critical }
`
    })
    const apply = await obsdeploy(emu, ws, 'apply', managed)
    expect(errors(apply)).toEqual([])
    const alerts = [...emu.managed().alerts.values()]
    expect(alerts.find(a => a.name === 'Mail')!.channel).toEqual({
      type: 'email',
      emailRecipients: ['oncall@example.com']
    })
    expect(alerts.find(a => a.name === 'Page')!.channel).toMatchObject({ severity: 'critical' })
    expect(actions(await obsdeploy(emu, ws, 'plan', managed))).toEqual([])
  })

  it('refuses what the managed API does not have: connections, `channels`, a connection by name', async () => {
    ws.write({
      'a.yaml': `kind: Connection
name: C
host: h
username: u
---
kind: Dashboard
name: SQL
tiles:
${rawTile('T', 'table')}---
kind: Alert
name: A
dashboard: SQL
tile: T
threshold: 1
thresholdType: above
interval: 5m
channels: [{ type: webhook, webhook: ops-pager }]
`
    })
    const validate = await obsdeploy(emu, ws, 'validate', managed)
    expect(errors(validate)).toEqual([
      'the managed API has no connections: Connection manifests need self-hosted mode',
      "the managed API cannot list connections: name a raw-SQL tile's connection by `connectionId`",
      'tile "T" is a table tile; alerts need a line, stacked_bar or number tile'
    ])
  })

  it('self-hosted refuses email channels and the managed webhook extras', async () => {
    ws.write({
      'a.yaml': `kind: SavedSearch
name: Errors
source: Logs
---
kind: Alert
name: A
source: saved_search
savedSearch: Errors
threshold: 1
thresholdType: above
interval: 5m
channels:
  - { type: email, emailRecipients: [a@example.com] }
  - { type: webhook, webhook: ops-pager, severity: critical }
`
    })
    expect(errors(await obsdeploy(emu, ws, 'validate'))).toEqual([
      'must be one of webhook, got "email"',
      'unknown field "emailRecipients"; known fields: type, webhook, webhookId, webhookService, slackChannelId, severity',
      'severity exists only in the managed API (the self-hosted server drops it)'
    ])
  })

  it('a raw-SQL tile by connectionId, and webhooks and saved searches under the clickstack prefix', async () => {
    ws.write({
      'a.yaml':
        board(rawTile('T', 'number', '', `connectionId: '${SEED_CONNECTION}'`)) +
        `---
kind: Webhook
name: hook
service: generic
url: \${secret.URL}
`
    })
    const settings = { ...managed, 'secret-vars': 'URL: https://hooks.example.com/m' }
    expect(errors(await obsdeploy(emu, ws, 'apply', settings))).toEqual([])
    expect(emu.managed().webhooks.find(w => w.name === 'hook')).toMatchObject({
      url: 'https://hooks.example.com/m'
    })
    expect(actions(await obsdeploy(emu, ws, 'plan', settings))).toEqual([])
    // The contract's prefix has no webhooks route: a plan error at the manifest, nothing half-applied.
    const contract = await obsdeploy(emu, ws, 'plan', { ...settings, 'managed-prefix': 'observability' })
    expect(errors(contract)).toContainEqual(
      'this API has no webhooks route (managed, prefix observability): Webhook manifests cannot be applied here'
    )
  })
})
