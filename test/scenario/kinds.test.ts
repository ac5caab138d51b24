/**
 * Connections, sources, webhooks and saved searches against the emulator, as a user runs them: create, update of
 * each field, delete with prune, adoption, and the references between them (by name, to resources created in the
 * same run). Secrets and write-only values plan as changed or unchanged; the registry owns the kinds without tags.
 */
import { randomBytes, scryptSync } from 'node:crypto'
import { describe, expect, it } from '@jest/globals'
import type { StoredConnection } from '../../emulator/types.js'
import { isRegistryDashboard, REGISTRY_TAG } from '../../src/kinds/registry.js'
import { actions, errors, obsdeploy, useScenario } from '../support/harness.js'

const { emu, ws } = useScenario()

const SECRETS = {
  WAREHOUSE_PASSWORD: 'warehouse-password-1',
  HOOK_URL: 'https://hooks.example.com/oncall/abc123',
  HOOK_TOKEN: 'Bearer token-1'
}
const secretVars = (over: Record<string, string> = {}) =>
  Object.entries({ ...SECRETS, ...over })
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join('\n')

const run = (command: 'plan' | 'apply' | 'validate', over: Record<string, string> = {}, settings = {}) =>
  obsdeploy(emu, ws, command, { 'secret-vars': secretVars(over), prune: 'true', ...settings })

const fields = (result: Awaited<ReturnType<typeof run>>, address: string) =>
  result.plan!.changes.find(c => c.address === address)?.fields ?? []

const connections = () => (emu.selfHosted as unknown as { connections: StoredConnection[] }).connections
const connection = (name: string) => connections().find(c => c.name === name)
const source = (name: string) => emu.selfHosted.sources.find(s => s.name === name)
const webhook = (name: string) => emu.selfHosted.webhooks.find(w => w.name === name)
const savedSearch = (name: string) => [...emu.selfHosted.savedSearches.values()].find(s => s.name === name)
const registry = () => [...emu.selfHosted.dashboards.values()].filter(isRegistryDashboard)

const CONNECTION = (extra = '') => `kind: Connection
name: Warehouse
host: https://warehouse.example.com:8443
username: reader
password: \${secret.WAREHOUSE_PASSWORD}
${extra}`

const SOURCES = (extra = '') => `---
kind: Source
name: App logs
sourceKind: log
connection: Warehouse
from: { databaseName: app, tableName: logs }
timestampValueExpression: Timestamp
defaultTableSelectExpression: Timestamp, Body
traceSource: App traces
${extra}---
kind: Source
name: App traces
sourceKind: trace
connection: Warehouse
from: { databaseName: app, tableName: traces }
timestampValueExpression: Timestamp
defaultTableSelectExpression: Timestamp, SpanName
durationExpression: Duration
traceIdExpression: TraceId
spanIdExpression: SpanId
parentSpanIdExpression: ParentSpanId
spanNameExpression: SpanName
spanKindExpression: SpanKind
logSource: App logs
`

const WEBHOOK = (extra = '') => `---
kind: Webhook
name: oncall
service: generic
url: \${secret.HOOK_URL}
headers:
  Authorization: \${secret.HOOK_TOKEN}
${extra}`

const SEARCH = (extra = '') => `---
kind: SavedSearch
name: App errors
source: App logs
where: 'level:error'
${extra}`

const SEARCH_ALERT = (extra = '') => `---
kind: Alert
name: Error burst
source: saved_search
savedSearch: App errors
threshold: 5
thresholdType: above
interval: 5m
channels:
  - { type: webhook, webhook: oncall }
${extra}`

const everything = () => CONNECTION() + SOURCES() + WEBHOOK() + SEARCH() + SEARCH_ALERT()

describe('creating every kind in one run', () => {
  it('plans references to resources of the same run by name, applies them in order, then plans nothing', async () => {
    ws.write({ 'all.yaml': everything() })
    const plan = await run('plan')
    expect(errors(plan)).toEqual([])
    expect(actions(plan)).toEqual([
      'create Alert/Error burst',
      'create Connection/Warehouse',
      'create SavedSearch/App errors',
      'create Source/App logs',
      'create Source/App traces',
      'create Webhook/oncall'
    ])
    expect(fields(plan, 'Source/App logs')).toContainEqual({ path: 'connection', after: 'Warehouse (new)' })
    expect(fields(plan, 'Source/App logs')).toContainEqual({ path: 'traceSource', after: 'App traces (new)' })
    expect(fields(plan, 'Alert/Error burst')).toContainEqual({
      path: 'savedSearch',
      after: 'App errors (new)'
    })

    const apply = await run('apply')
    expect(errors(apply)).toEqual([])
    const warehouse = connection('Warehouse')!
    expect(warehouse.password).toBe(SECRETS.WAREHOUSE_PASSWORD)
    // The two sources refer to each other: created, then linked.
    expect(source('App logs')).toMatchObject({
      connection: warehouse.id,
      traceSourceId: source('App traces')!.id
    })
    expect(source('App traces')).toMatchObject({ logSourceId: source('App logs')!.id })
    expect(savedSearch('App errors')).toMatchObject({ sourceId: source('App logs')!.id })
    expect(webhook('oncall')).toMatchObject({
      url: SECRETS.HOOK_URL,
      headers: { Authorization: SECRETS.HOOK_TOKEN }
    })
    const alert = [...emu.selfHosted.alerts.values()].find(a => a.name === 'Error burst')!
    expect(alert).toMatchObject({ savedSearchId: savedSearch('App errors')!.id, source: 'saved_search' })
    expect(alert.channels.map(c => c.webhookId)).toEqual([webhook('oncall')!.id])

    // One registry dashboard records the kinds without tags, with fingerprints, never values.
    expect(registry()).toHaveLength(1)
    const text = JSON.stringify(registry()[0])
    expect(registry()[0]!.tags).toEqual(['obsdeploy:shop', REGISTRY_TAG])
    for (const id of [warehouse.id, source('App logs')!.id, webhook('oncall')!.id]) expect(text).toContain(id)
    for (const value of Object.values(SECRETS)) expect(text).not.toContain(value)
    // Keyed with the API credential (fingerprint-key.ts): a reader of dashboards cannot test a guess.
    expect(text).toContain('hmac-sha256$')
    expect(text).not.toContain('scrypt$')

    const again = await run('plan')
    expect(errors(again)).toEqual([])
    expect(actions(again)).toEqual([])
  })

  it('after an upgrade, renews the unkeyed fingerprints of earlier versions once, then plans nothing', async () => {
    ws.write({ 'all.yaml': CONNECTION() + WEBHOOK() })
    expect(errors(await run('apply'))).toEqual([])
    // The registry as versions before the key wrote it: scrypt fingerprints of the same values.
    const unkeyed = (canonical: string) => {
      const salt = randomBytes(16)
      const hash = scryptSync(canonical, salt, 32, { N: 4096, r: 8, p: 1 })
      return `scrypt$4096$8$1$${salt.toString('base64url')}$${hash.toString('base64url')}`
    }
    const tile = registry()[0]!.tiles[0]! as unknown as { config: { markdown: string } }
    tile.config.markdown = tile.config.markdown
      .replace(
        /"password":"hmac-sha256\$[^"]+"/,
        `"password":"${unkeyed(`s:${SECRETS.WAREHOUSE_PASSWORD}`)}"`
      )
      .replace(
        /"headers":"hmac-sha256\$[^"]+"/,
        `"headers":"${unkeyed(`j:${JSON.stringify({ Authorization: SECRETS.HOOK_TOKEN })}`)}"`
      )
    expect(JSON.stringify(registry()[0])).not.toContain('hmac-sha256$')

    const plan = await run('plan')
    expect(errors(plan)).toEqual([])
    expect(actions(plan)).toEqual(['update Connection/Warehouse', 'update Webhook/oncall'])
    const renew = '(write-only: set, sent once more to replace an unkeyed fingerprint)'
    expect(fields(plan, 'Connection/Warehouse')).toEqual([
      { path: 'password', before: '(write-only: set)', after: renew }
    ])
    expect(fields(plan, 'Webhook/oncall')).toEqual([
      { path: 'headers', before: '(write-only: set)', after: renew }
    ])
    expect(errors(await run('apply'))).toEqual([])
    expect(JSON.stringify(registry()[0])).not.toContain('scrypt$')
    expect(actions(await run('plan'))).toEqual([])
  })

  it('links a table to a source and a dashboard the same run creates, by name, then plans nothing', async () => {
    // A search link-out opens a log or trace source (the server checks the id against the team's sources), a
    // dashboard link-out a dashboard: both resolve through the references of the run, like the saved search's source.
    const table = (name: string, link: string) => `---
kind: Dashboard
name: ${name}
tiles:
  - name: T
    x: 0
    y: 0
    w: 6
    h: 3
    config:
      displayType: table
      source: App logs
      select: [{ aggFn: count }]
      groupBy: service
      onClick: ${link}
`
    ws.write({
      'all.yaml':
        CONNECTION() +
        SOURCES() +
        SEARCH() +
        table(
          'Errors',
          "{ type: search, target: { mode: id, source: App traces }, whereTemplate: 'service:{{service}}' }"
        ) +
        table('Overview', '{ type: dashboard, target: { mode: id, dashboard: Errors } }')
    })
    const plan = await run('plan')
    expect(errors(plan)).toEqual([])
    expect(actions(plan)).toEqual([
      'create Connection/Warehouse',
      'create Dashboard/Errors',
      'create Dashboard/Overview',
      'create SavedSearch/App errors',
      'create Source/App logs',
      'create Source/App traces'
    ])
    const apply = await run('apply')
    expect(errors(apply)).toEqual([])
    const stored = (name: string) =>
      (
        [...emu.selfHosted.dashboards.values()].find(d => d.name === name)!.tiles[0] as unknown as {
          config: { onClick: unknown }
        }
      ).config.onClick
    expect(stored('Errors')).toEqual({
      type: 'search',
      target: { mode: 'id', id: source('App traces')!.id },
      whereTemplate: 'service:{{service}}'
    })
    const errorsId = [...emu.selfHosted.dashboards.values()].find(d => d.name === 'Errors')!.id
    expect(stored('Overview')).toEqual({ type: 'dashboard', target: { mode: 'id', id: errorsId } })
    expect(savedSearch('App errors')).toMatchObject({ sourceId: source('App logs')!.id })
    const again = await run('plan')
    expect(errors(again)).toEqual([])
    expect(actions(again)).toEqual([])
  })
})

describe('updates, field by field', () => {
  it('connections: host, username, prefix, flag; the password only by fingerprint; a password cannot be cleared', async () => {
    ws.write({ 'all.yaml': CONNECTION() })
    await run('apply')
    const id = connection('Warehouse')!.id
    ws.write({
      'all.yaml': CONNECTION('hyperdxSettingPrefix: hdx\nisPrometheusEndpoint: true\n')
        .replace('reader', 'writer')
        .replace(':8443', ':9443')
    })
    const plan = await run('plan')
    expect(fields(plan, 'Connection/Warehouse').map(f => f.path)).toEqual([
      'host',
      'hyperdxSettingPrefix',
      'isPrometheusEndpoint',
      'username'
    ])
    await run('apply')
    expect(connection('Warehouse')).toMatchObject({
      id,
      host: 'https://warehouse.example.com:9443',
      username: 'writer',
      hyperdxSettingPrefix: 'hdx',
      isPrometheusEndpoint: true,
      password: SECRETS.WAREHOUSE_PASSWORD
    })

    // A new password: "changed", never the value.
    const rotated = await run('plan', { WAREHOUSE_PASSWORD: 'warehouse-password-2' })
    expect(fields(rotated, 'Connection/Warehouse')).toEqual([
      { path: 'password', before: '(write-only: set)', after: '(write-only: changed)' }
    ])
    await run('apply', { WAREHOUSE_PASSWORD: 'warehouse-password-2' })
    expect(connection('Warehouse')!.password).toBe('warehouse-password-2')
    expect(actions(await run('plan', { WAREHOUSE_PASSWORD: 'warehouse-password-2' }))).toEqual([])

    // Dropping the prefix and the flag clears them; dropping the password cannot: a warning says so.
    ws.write({ 'all.yaml': CONNECTION().replace(/password:.*\n/, '') })
    const dropped = await run('plan')
    expect(fields(dropped, 'Connection/Warehouse').map(f => f.path)).toEqual([
      'host',
      'hyperdxSettingPrefix',
      'isPrometheusEndpoint',
      'username'
    ])
    expect(dropped.diagnostics.map(d => d.message)).toContainEqual(
      expect.stringMatching(/no longer sets a password, but the API cannot clear one/)
    )
    await run('apply')
    expect(connection('Warehouse')).not.toHaveProperty('hyperdxSettingPrefix')
    expect(connection('Warehouse')).toMatchObject({
      isPrometheusEndpoint: false,
      password: 'warehouse-password-2'
    })
  })

  it('webhooks: the url is compared but never shown; headers resent when changed or when the url moves', async () => {
    ws.write({ 'all.yaml': WEBHOOK('description: Pages on-call\nbody: "{}"\n') })
    await run('apply')
    const id = webhook('oncall')!.id

    const moved = await run('plan', { HOOK_URL: 'https://hooks.example.com/oncall/xyz789' })
    expect(fields(moved, 'Webhook/oncall')).toEqual([
      { path: 'url', before: '(secret)', after: '(secret: changed)' }
    ])
    await run('apply', { HOOK_URL: 'https://hooks.example.com/oncall/xyz789' })
    // The server clears headers when the url changes: the update sent them again.
    expect(webhook('oncall')).toMatchObject({
      id,
      url: 'https://hooks.example.com/oncall/xyz789',
      headers: { Authorization: SECRETS.HOOK_TOKEN }
    })

    const over = { HOOK_URL: 'https://hooks.example.com/oncall/xyz789', HOOK_TOKEN: 'Bearer token-2' }
    expect(fields(await run('plan', over), 'Webhook/oncall')).toEqual([
      { path: 'headers', before: '(write-only: set)', after: '(write-only: changed)' }
    ])
    await run('apply', over)
    expect(webhook('oncall')!.headers).toEqual({ Authorization: 'Bearer token-2' })

    // Description and body removed, query parameters added, headers removed: each as the server needs it.
    ws.write({
      'all.yaml': WEBHOOK().replace(/headers:\n.*\n/, 'queryParams:\n  key: ${secret.HOOK_TOKEN}\n')
    })
    const plan = await run('plan', over)
    expect(fields(plan, 'Webhook/oncall')).toEqual([
      { path: 'body', before: '{}' },
      { path: 'description', before: 'Pages on-call' },
      { path: 'headers', before: '(write-only: set)' },
      { path: 'queryParams', after: '(write-only: unknown, will be sent)' }
    ])
    await run('apply', over)
    const stored = webhook('oncall')!
    expect(stored).not.toHaveProperty('headers')
    expect(stored).not.toHaveProperty('description')
    expect(stored).not.toHaveProperty('body')
    expect(stored.queryParams).toEqual({ key: 'Bearer token-2' })
    expect(actions(await run('plan', over))).toEqual([])
  })

  it('an incident.io body is write-only: compared by fingerprint, and always sent with an update', async () => {
    ws.write({
      'all.yaml': `kind: Webhook
name: incidents
service: incidentio
url: \${secret.HOOK_URL}
body: '{"a": 1}'
`
    })
    await run('apply')
    expect(actions(await run('plan'))).toEqual([])
    ws.write({
      'all.yaml': `kind: Webhook\nname: incidents\nservice: incidentio\nurl: \${secret.HOOK_URL}\nbody: '{"a": 2}'\n`
    })
    expect(fields(await run('plan'), 'Webhook/incidents')).toEqual([
      { path: 'body', before: '(write-only: set)', after: '(write-only: changed)' }
    ])
    await run('apply')
    expect(webhook('incidents')!.body).toBe('{"a": 2}')
  })

  it('sources: each field, and a reference moved to another source', async () => {
    ws.write({ 'all.yaml': CONNECTION() + SOURCES() })
    await run('apply')
    const logs = source('App logs')!.id
    ws.write({
      'all.yaml':
        CONNECTION() +
        SOURCES('section: Apps\ndisabled: true\nquerySettings: [{ setting: max_threads, value: "4" }]\n')
          .replace('traceSource: App traces', 'traceSource: Traces')
          .replace('tableName: logs', 'tableName: logs_v2')
    })
    const plan = await run('plan')
    expect(fields(plan, 'Source/App logs')).toEqual([
      { path: 'disabled', after: true },
      { path: 'from.tableName', before: 'logs', after: 'logs_v2' },
      { path: 'querySettings', after: [{ setting: 'max_threads', value: '4' }] },
      { path: 'section', after: 'Apps' },
      { path: 'traceSource', before: 'App traces', after: 'Traces' }
    ])
    await run('apply')
    expect(source('App logs')).toMatchObject({
      id: logs,
      section: 'Apps',
      disabled: true,
      from: { tableName: 'logs_v2' },
      traceSourceId: source('Traces')!.id
    })
    expect(actions(await run('plan'))).toEqual([])
  })

  it('saved searches: each field; the saved-search alert follows by name, its channels and groupBy too', async () => {
    ws.write({ 'all.yaml': everything() })
    await run('apply')
    const search = savedSearch('App errors')!.id
    const alertId = [...emu.selfHosted.alerts.values()].find(a => a.name === 'Error burst')!.id
    ws.write({
      'all.yaml':
        CONNECTION() +
        SOURCES() +
        WEBHOOK() +
        SEARCH(
          'select: Timestamp, Body\nwhereLanguage: sql\norderBy: Timestamp DESC\ntags: [shop]\nfilters:\n  - condition: "Service IN (\'a\')"\n'
        ).replace("where: 'level:error'", 'where: "SeverityText = \'error\'"') +
        SEARCH_ALERT('groupBy: ServiceName\n').replace(
          '  - { type: webhook, webhook: oncall }',
          '  - { type: webhook, webhook: oncall }\n  - { type: webhook, webhook: team-slack }'
        )
    })
    const plan = await run('plan')
    expect(fields(plan, 'SavedSearch/App errors').map(f => f.path)).toEqual([
      'filters',
      'orderBy',
      'select',
      'tags',
      'where',
      'whereLanguage'
    ])
    expect(fields(plan, 'Alert/Error burst')).toEqual([
      { path: 'channels', before: ['oncall'], after: ['oncall', 'team-slack'] },
      { path: 'groupBy', after: 'ServiceName' }
    ])
    await run('apply')
    expect(savedSearch('App errors')).toMatchObject({
      id: search,
      whereLanguage: 'sql',
      tags: ['shop', 'obsdeploy:shop'],
      filters: [{ type: 'sql', condition: "Service IN ('a')" }]
    })
    const alert = emu.selfHosted.alerts.get(alertId)!
    expect(alert.groupBy).toBe('ServiceName')
    expect(alert.channels).toHaveLength(2)
    expect(actions(await run('plan'))).toEqual([])
  })
})

describe('deletes with prune, in the reverse order of the kinds', () => {
  it('deletes the alert before its webhook (which the server refuses while in use), then sources, then the connection', async () => {
    ws.write({ 'all.yaml': everything() })
    await run('apply')
    const ids = {
      connection: connection('Warehouse')!.id,
      webhook: webhook('oncall')!.id
    }
    ws.write({ 'all.yaml': '' })
    const plan = await run('plan')
    expect(actions(plan)).toEqual([
      'delete Alert/Error burst',
      'delete Connection/Warehouse',
      'delete SavedSearch/App errors',
      'delete Source/App logs',
      'delete Source/App traces',
      'delete Webhook/oncall'
    ])
    const apply = await run('apply')
    expect(errors(apply)).toEqual([])
    expect(connection('Warehouse')).toBeUndefined()
    expect(webhook('oncall')).toBeUndefined()
    expect(source('App logs')).toBeUndefined()
    expect(savedSearch('App errors')).toBeUndefined()
    // Forgotten by the registry once gone.
    const text = JSON.stringify(registry())
    expect(text).not.toContain(ids.connection)
    expect(text).not.toContain(ids.webhook)
    expect(actions(await run('plan'))).toEqual([])
  })

  it('shows the alerts of a deleted saved search as deleted by the server, deleting them first', async () => {
    ws.write({ 'all.yaml': everything() })
    await run('apply')
    ws.write({ 'all.yaml': CONNECTION() + SOURCES() + WEBHOOK() })
    const plan = await run('plan')
    const alert = plan.plan!.changes.find(c => c.kind === 'Alert')!
    expect(alert).toMatchObject({ action: 'delete', droppedByServer: true })
    expect(alert.notes.join(' ')).toMatch(/its saved search is deleted/)
    emu.clearLog()
    expect(errors(await run('apply'))).toEqual([])
    // The alert goes before its saved search, as deletes run in the reverse order of the kinds.
    const deletes = emu.requestLog.filter(r => r.method === 'DELETE').map(r => r.path.split('/')[3])
    expect(deletes.indexOf('alerts')).toBeLessThan(deletes.indexOf('saved-searches'))
    expect(emu.selfHosted.alerts.size).toBe(0)
  })

  it('without prune, lists what would be deleted and deletes nothing', async () => {
    ws.write({ 'all.yaml': CONNECTION() + WEBHOOK() })
    await run('apply')
    ws.write({ 'all.yaml': '' })
    const plan = await run('apply', {}, { prune: 'false' })
    expect(
      plan
        .plan!.changes.filter(c => c.deferred === 'prune')
        .map(c => `${c.kind}/${c.name}`)
        .sort()
    ).toEqual(['Connection/Warehouse', 'Webhook/oncall'])
    expect(connection('Warehouse')).toBeDefined()
    expect(webhook('oncall')).toBeDefined()
  })
})

describe('adoption and ownership', () => {
  it('refuses a name taken by a webhook the stack does not own, says how to adopt, and adopts with adopt: true', async () => {
    ws.write({ 'all.yaml': `kind: Webhook\nname: ops-pager\nservice: generic\nurl: \${secret.HOOK_URL}\n` })
    const refused = await run('plan')
    expect(errors(refused)).toEqual([
      expect.stringMatching(
        /a webhook named "ops-pager" already exists \(id [0-9a-f]{24}\) and is not owned by stack "shop".*add `adopt: true`/
      )
    ])
    ws.write({
      'all.yaml': `kind: Webhook\nname: ops-pager\nservice: generic\nurl: \${secret.HOOK_URL}\nadopt: true\ndescription: Pages the on-call engineer\nbody: '${webhook('ops-pager')!.body}'\n`
    })
    const adopt = await run('plan')
    expect(errors(adopt)).toEqual([])
    const change = adopt.plan!.changes.find(c => c.address === 'Webhook/ops-pager')!
    expect(change.notes.join(' ')).toMatch(/adopts existing webhook .*recorded in its registry dashboard/)
    expect(change.fields).toEqual([
      { path: 'owner', after: 'obsdeploy:shop' },
      { path: 'url', before: '(secret)', after: '(secret: changed)' }
    ])
    await run('apply')
    expect(webhook('ops-pager')!.url).toBe(SECRETS.HOOK_URL)
    expect(actions(await run('plan'))).toEqual([])
    // Owned now: prune deletes it once it leaves the manifests (no alert uses it any more).
    for (const a of [...emu.selfHosted.alerts.values()]) emu.selfHosted.alerts.delete(a.id)
    ws.write({ 'all.yaml': '' })
    expect(actions(await run('plan'))).toEqual(['delete Webhook/ops-pager'])
  })

  it('pins with id: and renames the pinned resource in place', async () => {
    ws.write({ 'all.yaml': CONNECTION() })
    await run('apply')
    const id = connection('Warehouse')!.id
    ws.write({ 'all.yaml': CONNECTION(`id: ${id}\n`).replace('name: Warehouse', 'name: Lakehouse') })
    const plan = await run('plan')
    expect(actions(plan)).toEqual(['update Connection/Lakehouse'])
    await run('apply')
    expect(connection('Lakehouse')!.id).toBe(id)
  })

  it('never touches another stack: a name it owns is an error here, its resources are never pruned', async () => {
    ws.write({ 'all.yaml': CONNECTION() + WEBHOOK() + SOURCES() + SEARCH() })
    await run('apply', {}, { stack: 'team-a' })
    const before = JSON.stringify([connections(), emu.selfHosted.webhooks, emu.selfHosted.sources])
    // Team B: the same names, adopt or not, and prune on: errors, never a change to team A's records.
    ws.write({ 'all.yaml': CONNECTION('adopt: true\n') + WEBHOOK() })
    const b = await run('apply', {}, { stack: 'team-b' })
    expect(errors(b).filter(e => !e.startsWith('nothing was applied'))).toEqual([
      expect.stringMatching(/connection "Warehouse" .* is owned by another stack \(obsdeploy:team-a\)/),
      expect.stringMatching(/webhook "oncall" .* is owned by another stack \(obsdeploy:team-a\)/)
    ])
    ws.write({ 'all.yaml': '' })
    const prune = await run('apply', {}, { stack: 'team-b' })
    expect(errors(prune)).toEqual([])
    expect(prune.plan!.changes.filter(c => c.action !== 'noop')).toEqual([])
    expect(JSON.stringify([connections(), emu.selfHosted.webhooks, emu.selfHosted.sources])).toBe(before)
    expect(savedSearch('App errors')).toBeDefined()
    // Two registries, one per stack.
    expect(
      registry()
        .map(d => d.tags[0])
        .sort()
    ).toEqual(['obsdeploy:team-a'])
  })

  it('an unreadable registry is a plan error, and nothing of its kinds is pruned', async () => {
    ws.write({ 'all.yaml': CONNECTION() })
    await run('apply')
    const reg = registry()[0]!
    reg.tiles[0]!.config = { displayType: 'markdown', markdown: 'edited by hand' }
    ws.write({ 'all.yaml': '' })
    const plan = await run('apply')
    expect(errors(plan)).toEqual([
      expect.stringMatching(/registry dashboard .* cannot be read/),
      'nothing was applied: the plan has errors'
    ])
    expect(connection('Warehouse')).toBeDefined()
  })
})

describe('secrets in manifests', () => {
  it('refuses a literal or a plain variable in a secret field, and a secret anywhere else, naming the field', async () => {
    ws.write({
      'all.yaml': `kind: Webhook
name: a
service: generic
url: https://hooks.example.com/literal
---
kind: Connection
name: c
host: \${secret.HOOK_URL}
username: u
password: \${PLAIN}
`
    })
    const result = await obsdeploy(emu, ws, 'validate', { 'secret-vars': secretVars(), vars: 'PLAIN: p' })
    expect(
      result.diagnostics.filter(d => d.severity === 'error').map(d => `${d.field}: ${d.message}`)
    ).toEqual([
      expect.stringMatching(/^url: is a secret: write it as `\$\{secret.NAME\}`/),
      expect.stringMatching(/^host: \$\{secret.HOOK_URL\} fills a field that is not secret/),
      expect.stringMatching(/^password: is a secret: write it as `\$\{secret.NAME\}`/)
    ])
    for (const d of result.diagnostics) expect(d.message).not.toContain('hooks.example.com/literal')
  })

  it('validate needs no secret values (a fork has none); plan does, and says which', async () => {
    ws.write({ 'all.yaml': CONNECTION() + WEBHOOK() })
    const validated = await obsdeploy(emu, ws, 'validate')
    expect(validated.diagnostics).toEqual([])
    expect(validated.exitCode).toBe(0)
    const planned = await obsdeploy(emu, ws, 'plan')
    expect(planned.exitCode).toBe(1)
    expect(errors(planned)).toEqual([
      expect.stringMatching(/^unknown secret variable \$\{secret.WAREHOUSE_PASSWORD\}/),
      expect.stringMatching(/^unknown secret variable \$\{secret.HOOK_URL\}/),
      expect.stringMatching(/^unknown secret variable \$\{secret.HOOK_TOKEN\}/)
    ])
  })

  it('redacts a secret a server error quotes, from every diagnostic and the plan file', async () => {
    ws.write({ 'all.yaml': WEBHOOK() })
    const api = (await import('../../src/api/client.js')).createApi
    const result = await obsdeploy(emu, ws, 'apply', { 'secret-vars': secretVars() }, false, {
      api: config => {
        const real = api(config)
        // A server that quotes what it was sent, as HyperDX's Slack URL check does.
        return Object.assign(Object.create(real) as typeof real, {
          createRecord: async (_c: string, body: { url?: string }) => {
            throw new Error(`Webhook URL ${body.url} does not have hostname that ends in 'slack.com'`)
          }
        })
      }
    })
    expect(result.exitCode).toBe(1)
    const text = JSON.stringify(result)
    expect(text).toContain('Webhook URL *** does not have hostname')
    for (const value of Object.values(SECRETS)) expect(text).not.toContain(value)
  })
})
