/**
 * What the ClickHouse Terraform provider records of the real cloud (docs/real-server.md, "The managed cloud as the
 * Terraform provider knows it"), checked on the BUILT CLI (dist/cli/index.js) against the emulator's managed mode,
 * which reproduces each behaviour: a sticky alert groupBy, ObjectId-shaped filter ids on an update, stale select
 * fields on read, the validate route, lists without totals, the gateway's refusal of undeclared source fields, a JSON
 * 404 for an unknown service, sql-only saved-search filters, the development tier's release channel, the TDE
 * rotation on its own, and the waits after a 429 and a 500.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { startEmulator, type Emulator, type EmulatorOptions } from '../../emulator/index.js'
import { dashboard, timeTile, workspace, type Workspace } from '../support/harness.js'
import { runCli } from './runner.js'

const LOGS = '65a1f0c2b3d4e5f6a7b8c901'
const UNKNOWN_SERVICE = '11111111-2222-4333-8444-555555555555'

let emu: Emulator
let ws: Workspace

async function start(options: EmulatorOptions = {}): Promise<void> {
  emu = await startEmulator({ port: 0, rateLimits: { selfHosted: false, managed: false }, ...options })
}

beforeEach(() => {
  ws = workspace()
})
afterEach(async () => {
  await emu?.close()
  ws.cleanup()
})

interface Outcome {
  exitCode: number | null
  stdout: string
  stderr: string
  json: {
    exitCode: number
    outputs: { hasChanges: boolean }
    diagnostics: Array<{ severity: string; message: string; file?: string; line?: number; field?: string }>
    plan?: { changes: Array<{ kind: string; name: string; action: string; notes: string[] }> }
  }
}

/** `obsdeploy <command> observability --mode managed ... --json` with the emulator's managed credentials. */
async function obsdeploy(command: string, extra: string[] = [], serviceId?: string): Promise<Outcome> {
  const args = [
    command,
    ...(command === 'export' ? [] : ['observability']),
    '--mode',
    'managed',
    '--api-url',
    emu.url,
    '--organization-id',
    emu.credentials.organizationId,
    '--service-id',
    serviceId ?? emu.credentials.serviceId,
    '--stack',
    'shop',
    '--rate-limit',
    'off',
    ...(command === 'export' ? [] : ['--json']),
    ...extra
  ]
  const env = { OBSDEPLOY_KEY_ID: emu.credentials.keyId, OBSDEPLOY_KEY_SECRET: emu.credentials.keySecret }
  const r = await runCli(args, { cwd: ws.dir, env })
  const json = command === 'export' ? undefined : (JSON.parse(r.stdout) as Outcome['json'])
  return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, json: json! }
}

const errorsOf = (o: Outcome) => o.json.diagnostics.filter(d => d.severity === 'error')
const changed = (o: Outcome) => (o.json.plan?.changes ?? []).filter(c => c.action !== 'noop')
const managed = () => emu.managed()

const savedSearch = `kind: SavedSearch
name: Errors
source: Logs
where: 'level:error'
`
const searchAlert = (groupBy: string) => `---
kind: Alert
name: Errors by service
source: saved_search
savedSearch: Errors
${groupBy}threshold: 5
thresholdType: above
interval: 5m
channel: { type: webhook, webhook: ops-pager }
`

describe('the managed cloud as the Terraform provider knows it, on the built CLI', () => {
  it("1. a saved-search alert's groupBy stays when the manifest drops it: the plan says so and shows no change", async () => {
    await start()
    ws.write({ 'a.yaml': savedSearch + searchAlert('groupBy: ServiceName\n') })
    expect((await obsdeploy('apply')).exitCode).toBe(0)
    ws.write({ 'a.yaml': savedSearch + searchAlert('') })
    const drift = await obsdeploy('drift')
    expect(drift.exitCode).toBe(0)
    expect(changed(drift)).toEqual([])
    expect(drift.json.diagnostics).toContainEqual(
      expect.objectContaining({
        severity: 'warning',
        file: 'observability/a.yaml',
        message: expect.stringMatching(/^groupBy "ServiceName" stays: the managed API keeps/)
      })
    )
    expect((await obsdeploy('apply')).exitCode).toBe(0)
    expect([...managed().alerts.values()].map(a => a.groupBy)).toEqual(['ServiceName'])
  })

  it('2. a filter added to an existing dashboard is sent with an ObjectId-shaped id, which the cloud takes', async () => {
    await start()
    const filtered = (filters: string) =>
      dashboard('Filtered', timeTile('Errors', 0, 0), `filters:\n${filters}`)
    ws.write({ 'd.yaml': filtered('  - { name: Service, expression: ServiceName, source: Logs }\n') })
    expect((await obsdeploy('apply')).exitCode).toBe(0)
    ws.write({
      'd.yaml': filtered(
        '  - { name: Service, expression: ServiceName, source: Logs }\n  - { name: Level, expression: SeverityText, source: Logs }\n'
      )
    })
    const apply = await obsdeploy('apply')
    expect(errorsOf(apply)).toEqual([])
    expect(apply.exitCode).toBe(0)
    const [stored] = [...managed().dashboards.values()].filter(d => d.name === 'Filtered')
    expect(stored!.filters!.map(f => f.name)).toEqual(['Service', 'Level'])
    expect(stored!.filters!.every(f => /^[0-9a-f]{24}$/.test(String(f.id)))).toBe(true)
  })

  it('3. stale select fields the cloud returns (level on a count, its value expression) do not reach an export', async () => {
    await start()
    const created = managed().createDashboard({
      name: 'Legacy',
      tags: [],
      tiles: [
        {
          name: 'Requests',
          x: 0,
          y: 0,
          w: 6,
          h: 3,
          config: { displayType: 'line', sourceId: LOGS, select: [{ aggFn: 'count', where: '' }] }
        }
      ]
    })
    // What switching the aggregation in the web UI leaves behind.
    const item = (created.tiles[0]!.config.select as Array<Record<string, unknown>>)[0]!
    Object.assign(item, { level: 0.95, valueExpression: 'Duration' })
    const exported = await obsdeploy('export', ['--out', 'exported'])
    expect(exported.exitCode).toBe(0)
    const folder = path.join(ws.dir, 'exported')
    const text = readdirSync(folder)
      .map(f => readFileSync(path.join(folder, f), 'utf8'))
      .filter(t => t.includes('kind: Dashboard'))
      .join('\n')
    expect(text).toContain('Requests')
    expect(text).not.toMatch(/level:|Duration/)
    const validate = await runCli(['validate', 'exported', '--mode', 'managed'], { cwd: ws.dir })
    expect(validate.stdout).toBe('')
    expect(validate.exitCode).toBe(0)
  })

  it('4. the plan sends each dashboard it writes to the validate route: a cloud-only refusal stops it before any write', async () => {
    await start()
    ws.write({
      'a.yaml': dashboard('Fine', timeTile('Errors', 0, 0)),
      'b.yaml': `kind: Dashboard
name: Warehouse
tiles:
  - name: Rows
    x: 0
    y: 0
    w: 6
    h: 4
    config:
      configType: sql
      displayType: table
      connectionId: 65a1f0c2b3d4e5f6a7b8c9ff
      sqlTemplate: SELECT count() FROM otel_logs
`
    })
    emu.clearLog()
    const apply = await obsdeploy('apply')
    expect(apply.exitCode).toBe(1)
    expect(errorsOf(apply)).toContainEqual(
      expect.objectContaining({
        file: 'observability/b.yaml',
        line: 2,
        message: expect.stringMatching(
          /^the server's validation refuses it: .*connection IDs: 65a1f0c2b3d4e5f6a7b8c9ff/
        )
      })
    )
    // One dry run per dashboard written, and not one write.
    const posts = emu.requestLog
      .filter(r => r.method !== 'GET')
      .map(r => r.path.replace(/^.*\/clickstack/, ''))
    expect(posts).toEqual(['/dashboards/validate', '/dashboards/validate'])
    expect(managed().dashboards.size).toBe(0)
  })

  it('5. a list without a total is read on until a page adds nothing new: no false create', async () => {
    await start({ pageSize: 2 })
    const tiles = ['A', 'B', 'C'].map((t, i) => timeTile(t, i * 6, 0)).join('')
    const alerts = ['A', 'B', 'C']
      .map(
        t =>
          `---\nkind: Alert\nname: On ${t}\ndashboard: Paged\ntile: ${t}\nthreshold: 1\nthresholdType: above\ninterval: 5m\nchannel: { type: webhook, webhook: ops-pager }\n`
      )
      .join('')
    ws.write({ 'p.yaml': dashboard('Paged', tiles) + alerts })
    expect((await obsdeploy('apply')).exitCode).toBe(0)
    expect(managed().alerts.size).toBe(3)
    const plan = await obsdeploy('plan')
    expect(plan.exitCode).toBe(0)
    expect(changed(plan)).toEqual([])
  })

  it('6. a source update sends only what the managed source schema declares, not a field the cloud added', async () => {
    await start()
    const source = (select: string) => `kind: Source
name: App logs
sourceKind: log
connectionId: 65a1f0c2b3d4e5f6a7b8c9f1
from: { databaseName: app, tableName: logs }
timestampValueExpression: Timestamp
defaultTableSelectExpression: ${select}
`
    ws.write({ 's.yaml': source('Timestamp, Body') })
    expect((await obsdeploy('apply')).exitCode).toBe(0)
    const stored = managed().sources.find(s => s.name === 'App logs')! as unknown as Record<string, unknown>
    stored.newerSetting = 'what a newer cloud returns'
    ws.write({ 's.yaml': source('Timestamp, ServiceName, Body') })
    const apply = await obsdeploy('apply')
    expect(errorsOf(apply)).toEqual([])
    expect(apply.exitCode).toBe(0)
    const change = apply.json.plan!.changes.find(c => c.kind === 'Source')!
    expect(change.notes.join(' ')).toMatch(/not sent back: newerSetting/)
    expect(managed().sources.find(s => s.name === 'App logs')!.defaultTableSelectExpression).toBe(
      'Timestamp, ServiceName, Body'
    )
  })

  it('7. a JSON 404 on the first list is an unknown service, said so; the prefix is not switched', async () => {
    await start()
    ws.write({ 'a.yaml': dashboard('Fine', timeTile('Errors', 0, 0)) })
    const plan = await obsdeploy('plan', [], UNKNOWN_SERVICE)
    expect(plan.exitCode).toBe(1)
    const message = errorsOf(plan)
      .map(d => d.message)
      .join(' ')
    expect(message).toContain('Service not found')
    expect(message).toContain('check organization-id and service-id')
    expect(message).not.toContain('Managed prefix')
    expect(emu.requestLog.some(r => r.path.includes('/observability/'))).toBe(false)
  })

  it('8. saved-search filters of another type than sql: refused in the plan where the cloud refuses them', async () => {
    await start()
    ws.write({
      's.yaml': `${savedSearch}filters:\n  - { type: lucene, condition: 'service:checkout' }\n`
    })
    emu.clearLog()
    const plan = await obsdeploy('plan')
    expect(plan.exitCode).toBe(1)
    expect(errorsOf(plan)).toEqual([
      expect.objectContaining({
        file: 'observability/s.yaml',
        field: 'filters[0]',
        message:
          'the managed API takes sql filters only (ClickStackSavedSearchFilter): remove this lucene filter (an update then deletes it)'
      })
    ])
    expect(emu.requestLog.filter(r => r.method !== 'GET')).toEqual([])
  })

  it('9. a development service is held to the default release channel, before any PATCH; default is sent', async () => {
    await start()
    const dev = emu.credentials.devServiceId
    ws.write({ 'service.yaml': 'kind: ServiceSettings\nreleaseChannel: fast\n' })
    emu.clearLog()
    const refused = await obsdeploy('apply', ['--release'], dev)
    expect(refused.exitCode).toBe(1)
    expect(errorsOf(refused).map(d => d.message)).toEqual([
      'releaseChannel "fast": this service\'s tier is development, whose channel can only be "default"',
      'nothing was applied: the plan has errors'
    ])
    expect(emu.requestLog.filter(r => r.method === 'PATCH')).toEqual([])
    ws.write({ 'service.yaml': 'kind: ServiceSettings\nreleaseChannel: default\n' })
    expect((await obsdeploy('apply', ['--release'], dev)).exitCode).toBe(0)
    expect(emu.services.get(dev)!.releaseChannel).toBe('default')
  })

  it('10. a TDE key rotation goes alone, in its own PATCH, after a read of the service', async () => {
    await start()
    ws.write({
      'service.yaml':
        'kind: ServiceSettings\nname: analytics prod\ntransparentDataEncryptionKeyId: emu-tde-key-0002\n'
    })
    emu.clearLog()
    const apply = await obsdeploy('apply', ['--release'])
    expect(apply.exitCode).toBe(0)
    expect(emu.requestLog.filter(r => r.mode === 'control').map(r => r.method)).toEqual([
      'GET',
      'PATCH',
      'GET',
      'PATCH',
      'GET'
    ])
    expect(emu.services.get(emu.credentials.serviceId)).toMatchObject({
      name: 'analytics prod',
      transparentDataEncryptionKeyId: 'emu-tde-key-0002'
    })
  })

  it('11. after a 429 the client waits X-RateLimit-Reset plus a second; a 500 on a read is retried', async () => {
    await start()
    // The cloud's 429: X-RateLimit-Reset 1 (s), no Retry-After.
    emu.faults.add({ method: 'GET', path: '/clickstack/alerts', sequence: ['429'], retryAfterSeconds: 1 })
    emu.faults.add({ method: 'GET', path: '/clickstack/sources', sequence: ['500'] })
    ws.write({ 'a.yaml': dashboard('Fine', timeTile('Errors', 0, 0)) })
    const plan = await obsdeploy('plan')
    expect(errorsOf(plan)).toEqual([])
    expect(plan.exitCode).toBe(0)
    const log = emu.requestLog
    const limited = log.filter(r => r.status === 429)
    expect(limited).toHaveLength(1)
    for (const refused of limited) {
      const retry = log.find(
        r => r.time > refused.time && r.method === refused.method && r.path === refused.path
      )!
      // X-RateLimit-Reset is 1 (s): the retry waits 2 s.
      expect(retry.time - refused.time).toBeGreaterThanOrEqual(1900)
    }
    const sources = log.filter(r => r.path.endsWith('/clickstack/sources')).map(r => r.status)
    expect(sources[0]).toBe(500)
    expect(sources).toContain(200)
  }, 60_000)
})
