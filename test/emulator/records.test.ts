/**
 * Connections, sources, saved searches and webhooks over HTTP, as HyperDX 2.36 serves them (real-server.md §3-§6,
 * §10): what each route answers, what it returns and never returns, PUT semantics, the cascades, pagination, the
 * 400 texts (emulator/rules/*.ts) and the 404 shapes; and which of them the managed cloud has.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import type { Emulator } from '../../emulator/index.js'
import { call, CONNECTION, LOGS, OPS_PAGER, servicePath, start, TRACES } from './helpers.js'

let emu: Emulator

beforeAll(async () => {
  emu = await start({ pageSize: 2 })
})
afterAll(async () => {
  await emu.close()
})

const OBJECT_ID = /^[0-9a-f]{24}$/
const v2 = (path: string) => `/api/v2${path}`

describe('webhooks', () => {
  const hook = (extra: Record<string, unknown> = {}) => ({
    name: 'pager',
    service: 'generic',
    url: 'https://hooks.example.com/pager',
    headers: { Authorization: 'Bearer a' },
    queryParams: { key: 'k' },
    ...extra
  })

  test('POST stores headers and query parameters, and no response ever returns them', async () => {
    const created = await call(emu, 'POST', v2('/webhooks'), { body: hook({ body: '{}', description: 'd' }) })
    expect(created.status).toBe(200)
    expect(created.json.data).toEqual({
      id: expect.stringMatching(OBJECT_ID),
      name: 'pager',
      service: 'generic',
      url: 'https://hooks.example.com/pager',
      description: 'd',
      body: '{}',
      createdAt: expect.any(String),
      updatedAt: expect.any(String)
    })
    const listed = await call(emu, 'GET', v2('/webhooks?limit=1000'))
    expect(JSON.stringify(listed.json.data)).not.toMatch(/Bearer a|queryParams|headers/)
    const stored = emu.selfHosted.webhooks.find(w => w.name === 'pager')!
    expect(stored).toMatchObject({ headers: { Authorization: 'Bearer a' }, queryParams: { key: 'k' } })
  })

  test('an incident.io body is accepted and never returned; slack refuses headers, query parameters and body', async () => {
    const incident = await call(emu, 'POST', v2('/webhooks'), {
      body: { name: 'inc', service: 'incidentio', url: 'https://api.incident.io/x', body: '{"a":1}' }
    })
    expect(incident.json.data).not.toHaveProperty('body')
    const slack = await call(emu, 'POST', v2('/webhooks'), {
      body: { name: 's', service: 'slack', url: 'https://hooks.slack.com/x', headers: {}, body: '' }
    })
    expect(slack).toMatchObject({
      status: 400,
      json: {
        message:
          'Body validation failed: headers: headers is not supported for the slack webhook service; body: body is not supported for the slack webhook service'
      }
    })
  })

  test('PUT keeps headers when the url stays, clears them when it moves, and clears description and body when omitted', async () => {
    const { json } = await call(emu, 'POST', v2('/webhooks'), {
      body: hook({ name: 'put-me', description: 'd', body: '{}' })
    })
    const id = json.data.id
    const stored = () => emu.selfHosted.webhooks.find(w => w.id === id)!
    await call(emu, 'PUT', v2(`/webhooks/${id}`), {
      body: { name: 'put-me', service: 'generic', url: 'https://hooks.example.com/pager' }
    })
    expect(stored()).toMatchObject({ headers: { Authorization: 'Bearer a' }, queryParams: { key: 'k' } })
    expect(stored()).not.toHaveProperty('description')
    expect(stored()).not.toHaveProperty('body')
    await call(emu, 'PUT', v2(`/webhooks/${id}`), {
      body: { name: 'put-me', service: 'generic', url: 'https://hooks.example.com/moved' }
    })
    expect(stored()).not.toHaveProperty('headers')
    expect(stored()).not.toHaveProperty('queryParams')
    await call(emu, 'PUT', v2(`/webhooks/${id}`), {
      body: {
        name: 'put-me',
        service: 'generic',
        url: 'https://hooks.example.com/moved',
        headers: { A: 'b' }
      }
    })
    expect(stored().headers).toEqual({ A: 'b' })
    await call(emu, 'PUT', v2(`/webhooks/${id}`), {
      body: { name: 'put-me', service: 'generic', url: 'https://hooks.example.com/moved', headers: {} }
    })
    expect(stored()).not.toHaveProperty('headers')
  })

  test('the server-side URL checks and the duplicate name answer 400 {message}; PUT of an unknown id is a 404 first', async () => {
    const refused = async (body: unknown) => (await call(emu, 'POST', v2('/webhooks'), { body })).json.message
    expect(await refused(hook({ name: 'x', url: 'ftp://example.com/a' }))).toBe(
      'Webhook URL must use HTTP or HTTPS'
    )
    expect(await refused(hook({ name: 'x', url: 'http://10.0.0.8/a' }))).toBe(
      'Webhook URL resolves to a private or reserved address.'
    )
    expect(await refused(hook({ name: 'x', url: 'http://localhost:3000/a' }))).toBe(
      'Webhook URL resolves to a private or reserved address.'
    )
    expect(await refused({ name: 'x', service: 'slack', url: 'https://example.com/x' })).toBe(
      "Slack Webhook URL https://example.com/x does not have hostname that ends in 'slack.com'"
    )
    expect(await refused({ name: 'x', service: 'generic', url: 'not a url' })).toBe(
      'Body validation failed: url: Invalid url'
    )
    expect(await refused({ ...hook(), name: 'ops-pager' })).toBe(
      'A webhook with this service and name already exists'
    )
    expect(await refused({ ...hook({ headers: { '1x': 'a' } }), name: 'y' })).toBe(
      'Body validation failed: headers.1x: Header name cannot start with a number'
    )
    const missing = await call(emu, 'PUT', v2('/webhooks/0123456789abcdef01234567'), {
      body: hook({ url: 'ftp://x' })
    })
    expect(missing).toMatchObject({ status: 404, json: { message: 'Webhook not found' } })
  })

  test('has no GET by id (the router 404 page), and refuses to delete the first channel of an alert with 409', async () => {
    const page = await call(emu, 'GET', v2(`/webhooks/${OPS_PAGER}`))
    expect(page.status).toBe(404)
    expect(page.text).toContain(`Cannot GET /api/v2/webhooks/${OPS_PAGER}`)
    const board = await call(emu, 'POST', v2('/dashboards'), {
      body: {
        name: 'd',
        tiles: [
          {
            name: 't',
            x: 0,
            y: 0,
            w: 6,
            h: 3,
            config: { displayType: 'number', sourceId: LOGS, select: [{ aggFn: 'count' }] }
          }
        ]
      }
    })
    const { json } = await call(emu, 'POST', v2('/webhooks'), { body: hook({ name: 'second' }) })
    await call(emu, 'POST', v2('/alerts'), {
      body: {
        source: 'tile',
        dashboardId: board.json.data.id,
        tileId: board.json.data.tiles[0].id,
        threshold: 1,
        thresholdType: 'above',
        interval: '5m',
        channels: [
          { type: 'webhook', webhookId: OPS_PAGER },
          { type: 'webhook', webhookId: json.data.id }
        ]
      }
    })
    expect(await call(emu, 'DELETE', v2(`/webhooks/${OPS_PAGER}`))).toMatchObject({
      status: 409,
      json: {
        message:
          'Cannot delete webhook: 1 alert(s) still reference it. Reassign or remove those alerts first.'
      }
    })
    // Only the first channel blocks: a later one is left dangling.
    expect((await call(emu, 'DELETE', v2(`/webhooks/${json.data.id}`))).status).toBe(200)
    expect(await call(emu, 'DELETE', v2(`/webhooks/${json.data.id}`))).toMatchObject({
      status: 404,
      json: { message: 'Webhook not found' }
    })
  })

  test('the list is paginated: meta, X-Total-Count and limit/offset', async () => {
    const first = await call(emu, 'GET', v2('/webhooks'))
    expect(first.json.data).toHaveLength(2)
    const total = Number(first.headers.get('x-total-count'))
    expect(first.json.meta).toEqual({ total, limit: 2, offset: 0 })
    const last = await call(emu, 'GET', v2(`/webhooks?offset=${total - 1}`))
    expect(last.json.data).toHaveLength(1)
  })
})

describe('connections (self-hosted only)', () => {
  test('POST, PUT and GET never return the password; an empty or missing password on PUT keeps it', async () => {
    const created = await call(emu, 'POST', v2('/connections'), {
      body: {
        name: 'c',
        host: 'http://ch:8123',
        username: 'u',
        password: 'secret-1',
        hyperdxSettingPrefix: 'hdx'
      }
    })
    expect(created.json.data).toEqual({
      id: expect.stringMatching(OBJECT_ID),
      name: 'c',
      host: 'http://ch:8123',
      username: 'u',
      hyperdxSettingPrefix: 'hdx',
      createdAt: expect.any(String),
      updatedAt: expect.any(String)
    })
    const id = created.json.data.id
    const stored = () =>
      (emu.selfHosted as unknown as { connections: Array<Record<string, unknown>> }).connections.find(
        c => c.id === id
      )!
    await call(emu, 'PUT', v2(`/connections/${id}`), {
      body: { name: 'c', host: 'h', username: 'u', password: '' }
    })
    expect(stored()).toMatchObject({ password: 'secret-1', hyperdxSettingPrefix: 'hdx' })
    await call(emu, 'PUT', v2(`/connections/${id}`), {
      body: { name: 'c', host: 'h', username: 'u', hyperdxSettingPrefix: null, isPrometheusEndpoint: true }
    })
    expect(stored()).not.toHaveProperty('hyperdxSettingPrefix')
    expect(stored()).toMatchObject({ isPrometheusEndpoint: true })
    const got = await call(emu, 'GET', v2(`/connections/${id}`))
    expect(got.text).not.toContain('secret-1')
    expect(await call(emu, 'POST', v2('/connections'), { body: { name: 'c', host: 'h' } })).toMatchObject({
      status: 400,
      json: { message: 'Body validation failed: username: Required' }
    })
    expect(
      await call(emu, 'POST', v2('/connections'), {
        body: { name: 'c', host: 'h', username: 'u', hyperdxSettingPrefix: 'a-b' }
      })
    ).toMatchObject({
      status: 400,
      json: { message: 'Body validation failed: hyperdxSettingPrefix: Invalid' }
    })
  })

  test('a missing connection is the plain text Not Found; deleting one leaves its sources dangling', async () => {
    const missing = await call(emu, 'GET', v2('/connections/0123456789abcdef01234567'))
    expect(missing).toMatchObject({ status: 404, text: 'Not Found' })
    const { json } = await call(emu, 'POST', v2('/connections'), {
      body: { name: 'd', host: 'h', username: 'u' }
    })
    const src = await call(emu, 'POST', v2('/sources'), {
      body: {
        name: 'dangling',
        kind: 'promql',
        connection: json.data.id,
        from: { databaseName: 'a', tableName: 'b' },
        timestampValueExpression: 'ts'
      }
    })
    expect((await call(emu, 'DELETE', v2(`/connections/${json.data.id}`))).status).toBe(200)
    expect(emu.selfHosted.sources.find(s => s.id === src.json.data.id)).toMatchObject({
      connection: json.data.id
    })
  })

  test('the managed cloud has no connections route: the gateway page', async () => {
    const answer = await call(emu, 'GET', servicePath(emu, '/clickstack/connections'))
    expect(answer.status).toBe(404)
    expect(answer.text).toContain('Cannot GET')
  })
})

describe('sources', () => {
  const log = (extra: Record<string, unknown> = {}) => ({
    name: 'L',
    kind: 'log',
    connection: CONNECTION,
    from: { databaseName: 'a', tableName: 'b' },
    timestampValueExpression: 'ts',
    defaultTableSelectExpression: 'ts',
    ...extra
  })

  test('POST returns the model defaults and short granularities; PUT is a full replace', async () => {
    const created = await call(emu, 'POST', v2('/sources'), {
      body: log({
        metadataMaterializedViews: { kvRollupTable: 'kv', granularity: '15 minute' },
        serviceNameExpression: 'svc'
      })
    })
    expect(created.json.data).toMatchObject({
      disabled: false,
      querySettings: [],
      highlightedTraceAttributeExpressions: [],
      highlightedRowAttributeExpressions: [],
      materializedViews: [],
      metadataMaterializedViews: { kvRollupTable: 'kv', granularity: '15m' },
      serviceNameExpression: 'svc'
    })
    const id = created.json.data.id
    const put = await call(emu, 'PUT', v2(`/sources/${id}`), { body: log() })
    expect(put.json.data).not.toHaveProperty('serviceNameExpression')
    const trace = await call(emu, 'POST', v2('/sources'), {
      body: {
        ...log({ kind: 'trace' }),
        durationExpression: 'd',
        traceIdExpression: 't',
        spanIdExpression: 's',
        parentSpanIdExpression: 'p',
        spanNameExpression: 'n',
        spanKindExpression: 'k'
      }
    })
    expect(trace.json.data.durationPrecision).toBe(3)
  })

  test('the 400s: body rules with the server messages, then the connection', async () => {
    const message = async (body: unknown) => (await call(emu, 'POST', v2('/sources'), { body })).json.message
    expect(await message(log({ kind: 'logs' }))).toBe(
      "Body validation failed: kind: Invalid discriminator value. Expected 'log' | 'trace' | 'session' | 'metric' | 'promql'"
    )
    expect(await message(log({ defaultTableSelectExpression: '' }))).toBe(
      'Body validation failed: defaultTableSelectExpression: Default Select Expression is required'
    )
    expect(
      await message({
        name: 'S',
        kind: 'session',
        connection: CONNECTION,
        from: { databaseName: 'a', tableName: 'b' },
        timestampValueExpression: 'ts'
      })
    ).toBe('Body validation failed: traceSourceId: Correlated Trace Source is required')
    expect(await message(log({ connection: 'nope' }))).toBe('connection must be a valid connection id')
    expect(await message(log({ connection: '0123456789abcdef01234567' }))).toBe(
      'connection must be an existing connection id'
    )
    expect(await call(emu, 'GET', v2('/sources/0123456789abcdef01234567'))).toMatchObject({
      status: 404,
      json: { message: 'Source not found' }
    })
  })
})

describe('saved searches', () => {
  const search = (extra: Record<string, unknown> = {}) => ({ name: ' S ', sourceId: LOGS, ...extra })

  test('POST trims the name and fills the defaults; PUT resets what it omits', async () => {
    const created = await call(emu, 'POST', v2('/saved-searches'), {
      body: search({ where: 'a', filters: [{ condition: "s IN ('a')" }] })
    })
    expect(created.json.data).toMatchObject({
      name: 'S',
      sourceId: LOGS,
      select: '',
      where: 'a',
      whereLanguage: 'lucene',
      orderBy: '',
      tags: [],
      filters: [{ type: 'sql', condition: "s IN ('a')" }]
    })
    const id = created.json.data.id
    const put = await call(emu, 'PUT', v2(`/saved-searches/${id}`), { body: search({ sourceId: TRACES }) })
    expect(put.json.data).toMatchObject({ where: '', filters: [], sourceId: TRACES })
  })

  test('filters must render in the sidebar (unless kept unchanged on PUT); the source is checked before the 404', async () => {
    const refused = await call(emu, 'POST', v2('/saved-searches'), {
      body: search({ filters: [{ condition: "a = 'b'" }] })
    })
    expect(refused.json.message).toMatch(/^filters\[0\] must be a sidebar-renderable SQL predicate/)
    const unknownSource = await call(emu, 'PUT', v2('/saved-searches/0123456789abcdef01234567'), {
      body: search({ sourceId: '0123456789abcdef01234567' })
    })
    expect(unknownSource).toMatchObject({
      status: 400,
      json: { message: 'sourceId must be an existing source id' }
    })
    expect(
      await call(emu, 'PUT', v2('/saved-searches/0123456789abcdef01234567'), { body: search() })
    ).toMatchObject({
      status: 404,
      json: { message: 'Saved search not found' }
    })
  })

  test('deleting a saved search deletes its alerts', async () => {
    const { json } = await call(emu, 'POST', v2('/saved-searches'), { body: search() })
    const alert = await call(emu, 'POST', v2('/alerts'), {
      body: {
        source: 'saved_search',
        savedSearchId: json.data.id,
        groupBy: 'svc',
        threshold: 1,
        thresholdType: 'above',
        interval: '5m',
        channel: { type: 'webhook', webhookId: OPS_PAGER }
      }
    })
    expect(alert.json.data).toMatchObject({ savedSearchId: json.data.id, groupBy: 'svc' })
    expect((await call(emu, 'DELETE', v2(`/saved-searches/${json.data.id}`))).status).toBe(200)
    expect(emu.selfHosted.alerts.has(alert.json.data.id)).toBe(false)
  })

  test('managed: served under clickstack only, as a plain list', async () => {
    const listed = await call(emu, 'GET', servicePath(emu, '/clickstack/saved-searches'))
    expect(listed.json).toMatchObject({ status: 200, result: [] })
    const contract = await call(emu, 'GET', servicePath(emu, '/observability/saved-searches'))
    expect(contract.status).toBe(404)
    expect(contract.text).toContain('Cannot GET')
  })
})

describe('managed alerts', () => {
  test('take email channels and the webhook extras, and return `channel` without `channels`', async () => {
    const { json } = await call(emu, 'POST', servicePath(emu, '/clickstack/saved-searches'), {
      body: { name: 'm', sourceId: LOGS }
    })
    const created = await call(emu, 'POST', servicePath(emu, '/clickstack/alerts'), {
      body: {
        source: 'saved_search',
        savedSearchId: json.result.id,
        threshold: 1,
        thresholdType: 'above',
        interval: '5m',
        channel: { type: 'email', emailRecipients: ['a@example.com'] }
      }
    })
    expect(created.json.result).toMatchObject({
      channel: { type: 'email', emailRecipients: ['a@example.com'] }
    })
    expect(created.json.result).not.toHaveProperty('channels')
    const refused = await call(emu, 'POST', servicePath(emu, '/clickstack/alerts'), {
      body: {
        source: 'saved_search',
        savedSearchId: json.result.id,
        threshold: 1,
        thresholdType: 'above',
        interval: '5m',
        channels: [{ type: 'webhook', webhookId: OPS_PAGER }]
      }
    })
    expect(refused).toMatchObject({
      status: 400,
      json: { error: "request body property can't be validated: channels" }
    })
  })
})
