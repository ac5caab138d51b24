/**
 * The server's other two surfaces beside /api/v2: the web UI's own routes (a session cookie from POST /login/password;
 * dashboards in the internal form, written as sent) and the MCP endpoint (POST /mcp, the API key, the
 * `clickstack_patch_dashboard` tool). What ties them to the v2 API: the internal record holds settings only the UI
 * can set; a v2 PUT writes every tile afresh and loses them (and writes a select item's missing `whereLanguage` as
 * `aggConditionLanguage: null`, which the UI's own save then refuses); an MCP patch rewrites one tile only.
 * Shapes as HyperDX 2.36 answered them (docs: the emulator/ui-store.ts, mcp.ts and ui-routes.ts headers).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import type { Emulator } from '../../emulator/index.js'
import { UiBodyError } from '../../emulator/errors.js'
import { call, CONNECTION, lineTile, LOGS, OPS_PAGER, start, TEAM_SLACK, tileAlert } from './helpers.js'

let emulator: Emulator
let cookie: string

beforeAll(async () => {
  emulator = await start({ mcp: true })
  cookie = await login()
})

afterAll(async () => {
  await emulator.close()
})

const MCP_ACCEPT = 'application/json, text/event-stream'
const USER_EMAIL = 'emulator-user@example.com'

async function login(password = emulator.credentials.userPassword!): Promise<string> {
  const response = await fetch(`${emulator.url}/login/password`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: USER_EMAIL, password })
  })
  expect(response.status).toBe(303)
  expect(response.headers.get('location')).toBe(`${emulator.url}/`)
  return response.headers.get('set-cookie')!.split(';')[0]!
}

/** A web UI request: the session cookie, no API key. */
async function ui(method: string, path: string, body?: unknown, session: string | null = cookie) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' }
  if (session !== null) headers.Cookie = session
  const response = await fetch(emulator.url + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  const text = await response.text()
  let json: any // eslint-disable-line @typescript-eslint/no-explicit-any
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.status, headers: response.headers, text, json }
}

let rpcId = 1
/** One JSON-RPC request to /mcp; `reply` is the JSON-RPC reply read from the event stream. */
async function mcp(method: string, params: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${emulator.url}/mcp`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: MCP_ACCEPT,
      Authorization: `Bearer ${emulator.credentials.apiKey}`,
      ...headers
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: rpcId++, method, params })
  })
  const text = await response.text()
  const data = text.split('\n').find(line => line.startsWith('data: '))
  return {
    status: response.status,
    headers: response.headers,
    text,
    reply: data === undefined ? undefined : JSON.parse(data.slice('data: '.length))
  }
}

async function patchTool(args: Record<string, unknown>) {
  const answer = await mcp('tools/call', { name: 'clickstack_patch_dashboard', arguments: args })
  expect(answer.status).toBe(200)
  return answer.reply.result as { content: Array<{ type: string; text: string }>; isError?: boolean }
}

const twoTiles = () => [
  lineTile('Errors', {
    config: { displayType: 'line', sourceId: LOGS, select: [{ aggFn: 'count', whereLanguage: 'lucene' }] }
  }),
  {
    name: 'By service',
    x: 6,
    y: 0,
    w: 6,
    h: 3,
    config: {
      displayType: 'table',
      sourceId: LOGS,
      groupBy: 'ServiceName',
      select: [{ aggFn: 'count', whereLanguage: 'lucene' }]
    }
  }
]

async function v2Create(body: Record<string, unknown>) {
  const answer = await call(emulator, 'POST', '/api/v2/dashboards', { body })
  expect(answer.status).toBe(200)
  return answer.json.data
}

async function uiDashboard(id: string) {
  const list = await ui('GET', '/dashboards')
  expect(list.status).toBe(200)
  return list.json.find((d: { _id: string }) => d._id === id)
}

/** Sets a tile filter and a granularity on every tile, as the chart editor does, through PATCH /dashboards/{id}. */
async function editInTheUi(id: string) {
  const current = await uiDashboard(id)
  const tiles = current.tiles.map((t: { config: Record<string, unknown> }) => ({
    ...t,
    config: { ...t.config, where: 'level:error', whereLanguage: 'lucene', granularity: '5 minute' }
  }))
  const patched = await ui('PATCH', `/dashboards/${id}`, { tiles })
  expect(patched.status).toBe(200)
}

/** Every message in a zod error tree (issues and the issues of their union branches), as `path: message`. */
interface ZodIssueJson {
  path: Array<string | number>
  message: string
  unionErrors?: ZodErrorJson[]
}
interface ZodErrorJson {
  issues: ZodIssueJson[]
}
function messages(errors: ZodErrorJson): string[] {
  return errors.issues.flatMap(issue => [
    `${issue.path.join('.')}: ${issue.message}`,
    ...(issue.unionErrors ?? []).flatMap(messages)
  ])
}

describe('web UI sign-in', () => {
  test('without a session the UI routes answer 401, the API key does not open them', async () => {
    for (const [method, path] of [
      ['GET', '/dashboards'],
      ['POST', '/dashboards'],
      ['PATCH', '/dashboards/65a1f0c2b3d4e5f6a7b8ffff'],
      ['PUT', '/alerts/65a1f0c2b3d4e5f6a7b8ffff']
    ] as const) {
      const body = method === 'GET' ? undefined : {}
      const anonymous = await ui(method, path, body, null)
      expect([anonymous.status, anonymous.text]).toEqual([401, 'Unauthorized'])
      const withKey = await call(emulator, method, path, { body })
      expect(withKey.status).toBe(401)
    }
    expect((await ui('GET', '/dashboards', undefined, 'connect.sid=s%3Aforged.sig')).status).toBe(401)
  })

  test('emulator.uiCookie() is a signed-in session without the round trip', async () => {
    expect((await ui('GET', '/dashboards', undefined, emulator.uiCookie())).status).toBe(200)
    expect(emulator.user.email).toBe(USER_EMAIL)
  })

  test('a wrong password redirects to the login page with authFail, and its cookie opens nothing', async () => {
    const response = await fetch(`${emulator.url}/login/password`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: USER_EMAIL, password: 'wrong' })
    })
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe(`${emulator.url}/login?err=authFail`)
    const session = response.headers.get('set-cookie')!.split(';')[0]!
    expect((await ui('GET', '/dashboards', undefined, session)).status).toBe(401)
  })

  test('the session cookie is express-session’s, HttpOnly and SameSite=Lax; a form body signs in too', async () => {
    const response = await fetch(`${emulator.url}/login/password`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: USER_EMAIL, password: emulator.credentials.userPassword! })
    })
    expect(response.status).toBe(303)
    expect(await response.text()).toBe(`See Other. Redirecting to ${emulator.url}/`)
    expect(response.headers.get('set-cookie')).toMatch(
      /^connect\.sid=s%3A[^;]+; Path=\/; Expires=.+; HttpOnly; SameSite=Lax$/
    )
  })
})

describe('GET /dashboards: the internal form', () => {
  test('config tiles as convertToInternalTileConfig writes them, series tiles in their own form', async () => {
    const created = await v2Create({
      name: 'Internal form',
      tiles: [
        lineTile('L', {
          config: {
            displayType: 'line',
            sourceId: LOGS,
            groupBy: 'ServiceName',
            select: [{ aggFn: 'count', where: 'level:error' }]
          }
        }),
        {
          name: 'P',
          x: 0,
          y: 3,
          w: 6,
          h: 3,
          config: {
            displayType: 'pie',
            sourceId: LOGS,
            select: [{ aggFn: 'count' }],
            groupBy: 'ServiceName',
            limit: 5
          }
        },
        {
          name: 'S',
          x: 0,
          y: 6,
          w: 6,
          h: 3,
          series: [{ type: 'time', sourceId: LOGS, aggFn: 'count', where: '', groupBy: [] }]
        },
        {
          name: 'Q',
          x: 6,
          y: 6,
          w: 6,
          h: 3,
          config: {
            configType: 'sql',
            displayType: 'line',
            connectionId: CONNECTION,
            sqlTemplate: 'SELECT 1'
          }
        }
      ]
    })
    const record = await uiDashboard(created.id)
    expect(record).toMatchObject({
      _id: created.id,
      id: created.id,
      name: 'Internal form',
      team: '65a1f0c2b3d4e5f6a7b8c001',
      tags: [],
      filters: [],
      savedFilterValues: [],
      containers: [],
      provisioned: false,
      __v: 0
    })
    expect(record).not.toHaveProperty('createdBy')
    const [line, pie, series, sql] = record.tiles
    expect(line).toEqual({
      id: created.tiles[0].id,
      x: 0,
      y: 0,
      w: 6,
      h: 3,
      config: {
        groupBy: 'ServiceName',
        displayType: 'line',
        // A POST saves the document: the missing language is left out (a PUT writes null, below).
        select: [{ aggFn: 'count', aggCondition: 'level:error', isDelta: false, valueExpression: '' }],
        source: LOGS,
        where: '',
        name: 'L'
      }
    })
    expect(pie.config).toEqual({
      groupBy: 'ServiceName',
      displayType: 'pie',
      select: [{ aggFn: 'count', aggCondition: '', isDelta: false, valueExpression: '' }],
      source: LOGS,
      where: '',
      seriesLimit: 5,
      name: 'P'
    })
    expect(series.config).toEqual({
      seriesReturnType: 'column',
      name: 'S',
      source: LOGS,
      displayType: 'line',
      select: [{ aggFn: 'count', valueExpression: '', aggCondition: '', aggConditionLanguage: 'lucene' }],
      where: '',
      whereLanguage: 'lucene'
    })
    expect(sql.config).toEqual({
      configType: 'sql',
      displayType: 'line',
      name: 'Q',
      connection: CONNECTION,
      sqlTemplate: 'SELECT 1'
    })
  })

  test("a tile's alert is in its config, its creator filled in", async () => {
    const created = await v2Create({ name: 'With alert', tiles: twoTiles() })
    const alert = await call(emulator, 'POST', '/api/v2/alerts', {
      body: tileAlert(created.id, created.tiles[0].id)
    })
    expect(alert.status).toBe(200)
    const record = await uiDashboard(created.id)
    expect(record.tiles[0].config.alert).toMatchObject({
      _id: alert.json.data.id,
      id: alert.json.data.id,
      threshold: 10,
      interval: '5m',
      thresholdType: 'above',
      channels: [{ type: 'webhook', webhookId: OPS_PAGER }],
      source: 'tile',
      dashboard: created.id,
      tileId: created.tiles[0].id,
      savedSearch: null,
      createdBy: { email: USER_EMAIL, name: 'Emulator User', _id: '65a1f0c2b3d4e5f6a7b8c002' }
    })
    expect(record.tiles[1].config).not.toHaveProperty('alert')
  })
})

describe('settings only the web UI can set', () => {
  test('a v2 read neither shows them nor loses them; a v2 PUT resets them on every tile', async () => {
    const created = await v2Create({ name: 'UI settings', tiles: twoTiles() })
    await editInTheUi(created.id)
    const edited = await uiDashboard(created.id)
    for (const tile of edited.tiles)
      expect(tile.config).toMatchObject({
        where: 'level:error',
        whereLanguage: 'lucene',
        granularity: '5 minute'
      })

    const v2 = await call(emulator, 'GET', `/api/v2/dashboards/${created.id}`)
    expect(v2.json.data).toEqual(created)

    // The PUT changes one tile's name only: both tiles are rewritten all the same.
    const tiles = v2.json.data.tiles.map((t: Record<string, unknown>, i: number) =>
      i === 0 ? { ...t, name: 'Renamed' } : t
    )
    expect(
      (
        await call(emulator, 'PUT', `/api/v2/dashboards/${created.id}`, {
          body: { name: 'UI settings', tiles }
        })
      ).status
    ).toBe(200)
    const after = await uiDashboard(created.id)
    for (const tile of after.tiles) {
      expect(tile.config.where).toBe('')
      expect(tile.config).not.toHaveProperty('granularity')
      expect(tile.config).not.toHaveProperty('whereLanguage')
    }
  })

  test('the store keeps them as the tile’s `ui` overlay; the in-process methods do what the routes do', () => {
    const s = emulator.selfHosted
    const created = s.createDashboard({ name: 'In process', tiles: twoTiles() })
    expect(created.tiles.every(t => t.ui === undefined)).toBe(true)
    const current = s.uiDashboards().find(d => d._id === created.id) as { tiles: Array<{ config: object }> }
    s.uiPatchDashboard(created.id, {
      tiles: current.tiles.map(t => ({
        ...t,
        config: { ...t.config, granularity: '1 hour', alternateRowBackground: true }
      }))
    })
    expect(s.dashboards.get(created.id)!.tiles[1].ui).toEqual({
      config: { set: { granularity: '1 hour', alternateRowBackground: true } }
    })
    s.updateDashboard(created.id, { name: 'In process', tiles: twoTiles() })
    expect(s.dashboards.get(created.id)!.tiles.every(t => t.ui === undefined)).toBe(true)
  })

  test('a UI-made dashboard: the v2 read shows its v2 form, the UI reads back what it wrote', async () => {
    const sent = {
      name: 'Made in the UI',
      tags: ['ui', 'ui'],
      tiles: [
        {
          id: 'tile-1',
          x: 0,
          y: 0,
          w: 4,
          h: 2,
          config: {
            name: 'Rate',
            source: LOGS,
            displayType: 'line',
            select: [
              {
                aggFn: 'count',
                aggCondition: 'level:error',
                aggConditionLanguage: 'lucene',
                valueExpression: '',
                color: 'chart-red'
              }
            ],
            where: 'service:api',
            whereLanguage: 'lucene',
            granularity: 'auto',
            seriesReturnType: 'column',
            ratioMode: 'per_group'
          }
        }
      ],
      provisioned: true
    }
    const created = await ui('POST', '/dashboards', sent)
    expect(created.status).toBe(200)
    expect(created.json).toMatchObject({
      name: 'Made in the UI',
      tags: ['ui', 'ui'],
      provisioned: false,
      createdBy: '65a1f0c2b3d4e5f6a7b8c002'
    })
    expect(created.json.tiles).toEqual(sent.tiles)

    const v2 = await call(emulator, 'GET', `/api/v2/dashboards/${created.json.id}`)
    expect(v2.json.data.tiles).toEqual([
      {
        id: 'tile-1',
        x: 0,
        y: 0,
        w: 4,
        h: 2,
        name: 'Rate',
        config: {
          displayType: 'line',
          sourceId: LOGS,
          asRatio: false,
          fillNulls: true,
          select: [{ valueExpression: '', aggFn: 'count', where: 'level:error', whereLanguage: 'lucene' }]
        }
      }
    ])
    const record = await uiDashboard(created.json.id)
    expect(record.tiles).toEqual(sent.tiles)
    expect(record.createdBy).toEqual({
      email: USER_EMAIL,
      name: 'Emulator User',
      _id: '65a1f0c2b3d4e5f6a7b8c002'
    })
  })
})

describe('aggConditionLanguage: null after a v2 PUT without whereLanguage', () => {
  const tile = (whereLanguage?: string) =>
    lineTile('Errors', {
      config: {
        displayType: 'line',
        sourceId: LOGS,
        select: [{ aggFn: 'count', where: 'level:error', ...(whereLanguage ? { whereLanguage } : {}) }]
      }
    })

  test('the UI reads null, and its save of the tiles exactly as read is refused with the zod-express-middleware 400', async () => {
    const created = await v2Create({ name: 'Null language', tiles: [tile(), tile()] })
    // After the POST the key is absent, and the UI's save goes through.
    const posted = await uiDashboard(created.id)
    expect(posted.tiles[0].config.select[0]).not.toHaveProperty('aggConditionLanguage')
    expect((await ui('PATCH', `/dashboards/${created.id}`, { tiles: posted.tiles })).status).toBe(200)

    const put = await call(emulator, 'PUT', `/api/v2/dashboards/${created.id}`, {
      body: {
        name: 'Null language',
        tiles: created.tiles.map((t: Record<string, unknown>) => ({ ...t, config: tile().config }))
      }
    })
    expect(put.status).toBe(200)
    // The v2 read shows lucene …
    expect(put.json.data.tiles[0].config.select[0].whereLanguage).toBe('lucene')
    // … the record holds null.
    const record = await uiDashboard(created.id)
    expect(record.tiles.map((t: { config: { select: object[] } }) => t.config.select[0])).toEqual([
      expect.objectContaining({ aggConditionLanguage: null }),
      expect.objectContaining({ aggConditionLanguage: null })
    ])

    const refused = await ui('PATCH', `/dashboards/${created.id}`, { tiles: record.tiles })
    expect(refused.status).toBe(400)
    expect(refused.json.map((e: { type: string }) => e.type)).toEqual(['Body'])
    expect(refused.json[0].errors.name).toBe('ZodError')
    // One union issue per tile, at its config.
    expect(
      refused.json[0].errors.issues.map((i: { code: string; path: unknown[] }) => [i.code, i.path.join('.')])
    ).toEqual([
      ['invalid_union', 'tiles.0.config'],
      ['invalid_union', 'tiles.1.config']
    ])
    expect(messages(refused.json[0].errors)).toContain(
      "tiles.0.config.select.0.aggConditionLanguage: Expected 'sql' | 'lucene' | 'promql', received null"
    )
    expect(messages(refused.json[0].errors)).toContain(
      "tiles.1.config.select.0.aggConditionLanguage: Expected 'sql' | 'lucene' | 'promql', received null"
    )

    // In process: the same body, as UiBodyError.
    let error: unknown
    try {
      emulator.selfHosted.uiPatchDashboard(created.id, { tiles: record.tiles })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(UiBodyError)
    expect((error as UiBodyError).body).toEqual(refused.json)
  })

  test('with whereLanguage sent, the PUT writes the language and the UI save goes through', async () => {
    const created = await v2Create({ name: 'Language sent', tiles: [tile('lucene')] })
    await call(emulator, 'PUT', `/api/v2/dashboards/${created.id}`, {
      body: { name: 'Language sent', tiles: [{ ...tile('lucene'), id: created.tiles[0].id }] }
    })
    const record = await uiDashboard(created.id)
    expect(record.tiles[0].config.select[0].aggConditionLanguage).toBe('lucene')
    const saved = await ui('PATCH', `/dashboards/${created.id}`, {
      tiles: record.tiles,
      tags: ['b', 'a', 'b']
    })
    expect(saved.status).toBe(200)
    expect(saved.json).toMatchObject({
      _id: created.id,
      tags: ['b', 'a'],
      updatedBy: '65a1f0c2b3d4e5f6a7b8c002'
    })
  })

  test('PATCH: params and body are checked together; an unknown dashboard is the text Not Found', async () => {
    const bad = await ui('PATCH', '/dashboards/nope', { name: '' })
    expect(bad.status).toBe(400)
    expect(bad.json).toEqual([
      {
        type: 'Params',
        errors: { issues: [{ code: 'custom', message: 'Invalid ObjectId', path: ['id'] }], name: 'ZodError' }
      },
      {
        type: 'Body',
        errors: {
          issues: [
            {
              code: 'too_small',
              minimum: 1,
              type: 'string',
              inclusive: true,
              exact: false,
              message: 'String must contain at least 1 character(s)',
              path: ['name']
            }
          ],
          name: 'ZodError'
        }
      }
    ])
    const missing = await ui('PATCH', '/dashboards/65a1f0c2b3d4e5f6a7b8ffff', { name: 'x' })
    expect([missing.status, missing.text]).toEqual([404, 'Not Found'])
  })
})

describe('tile alerts through the UI', () => {
  test('PUT /alerts/{id} adds a second channel; the v2 read shows both', async () => {
    const created = await v2Create({ name: 'Two channels', tiles: twoTiles() })
    const alert = (
      await call(emulator, 'POST', '/api/v2/alerts', { body: tileAlert(created.id, created.tiles[0].id) })
    ).json.data
    const body = {
      ...tileAlert(created.id, created.tiles[0].id),
      channel: undefined,
      channels: [
        { type: 'webhook', webhookId: OPS_PAGER },
        { type: 'webhook', webhookId: TEAM_SLACK }
      ]
    }
    const put = await ui('PUT', `/alerts/${alert.id}`, body)
    expect(put.status).toBe(200)
    expect(put.json.data).toMatchObject({
      _id: alert.id,
      id: alert.id,
      channel: { type: 'webhook', webhookId: OPS_PAGER },
      channels: body.channels,
      createdBy: '65a1f0c2b3d4e5f6a7b8c002',
      dashboard: created.id,
      tileId: created.tiles[0].id
    })
    const v2 = await call(emulator, 'GET', `/api/v2/alerts/${alert.id}`)
    expect(v2.json.data.channels).toEqual(body.channels)

    const invalid = await ui('PUT', `/alerts/${alert.id}`, { threshold: 'x' })
    expect(invalid.status).toBe(400)
    expect(invalid.json[0].type).toBe('Body')
    expect(messages(invalid.json[0].errors)).toContain('threshold: Expected number, received string')
    const unknownWebhook = await ui('PUT', `/alerts/${alert.id}`, {
      ...body,
      channels: [{ type: 'webhook', webhookId: '65a1f0c2b3d4e5f6a7b8ffff' }]
    })
    expect([unknownWebhook.status, unknownWebhook.json]).toEqual([400, { message: 'Webhook not found' }])
    const missing = await ui('PUT', '/alerts/65a1f0c2b3d4e5f6a7b8ffff', body)
    expect([missing.status, missing.text]).toEqual([404, 'Not Found'])
  })

  test("a PATCH of the tiles without a tile's alert deletes it; DELETE takes the dashboard's alerts along", async () => {
    const created = await v2Create({ name: 'Alert sync', tiles: twoTiles() })
    const alert = (
      await call(emulator, 'POST', '/api/v2/alerts', { body: tileAlert(created.id, created.tiles[0].id) })
    ).json.data
    const record = await uiDashboard(created.id)
    // Sent back as read: the alert is upserted, not lost.
    expect((await ui('PATCH', `/dashboards/${created.id}`, { tiles: record.tiles })).status).toBe(200)
    expect(emulator.selfHosted.alerts.has(alert.id)).toBe(true)
    const withoutAlert = record.tiles.map((t: { config: Record<string, unknown> }) => {
      const { alert: _alert, ...config } = t.config
      return { ...t, config }
    })
    expect((await ui('PATCH', `/dashboards/${created.id}`, { tiles: withoutAlert })).status).toBe(200)
    expect(emulator.selfHosted.alerts.has(alert.id)).toBe(false)

    const again = (
      await call(emulator, 'POST', '/api/v2/alerts', { body: tileAlert(created.id, created.tiles[0].id) })
    ).json.data
    const deleted = await ui('DELETE', `/dashboards/${created.id}`)
    expect([deleted.status, deleted.text]).toEqual([204, ''])
    expect(emulator.selfHosted.alerts.has(again.id)).toBe(false)
    expect((await ui('DELETE', `/dashboards/${created.id}`)).status).toBe(204)
  })
})

describe('MCP: clickstack_patch_dashboard', () => {
  test('a tile patch keeps the other tiles’ UI settings and resets the patched tile’s', async () => {
    const created = await v2Create({ name: 'MCP patch', tags: ['a'], tiles: twoTiles() })
    await editInTheUi(created.id)
    const result = await patchTool({
      dashboardId: created.id,
      tileId: created.tiles[0].id,
      tags: ['b', 'b', 'c'],
      tile: {
        config: {
          displayType: 'line',
          sourceId: LOGS,
          // periodAggFn is not the tool's word (isDelta is): it is dropped, as is an unknown config key.
          select: [{ aggFn: 'avg', valueExpression: 'Duration', periodAggFn: 'delta' }],
          granularity: '1 hour'
        }
      }
    })
    expect(result.isError).toBeUndefined()
    const output = JSON.parse(result.content[0]!.text)
    expect(output).toMatchObject({
      id: created.id,
      name: 'MCP patch',
      tags: ['b', 'c'],
      url: `${emulator.url}/dashboards/${created.id}`,
      hint: 'Use clickstack_query_tile to test the patched tile query.',
      patchedTile: {
        id: created.tiles[0].id,
        name: 'Errors',
        x: 0,
        y: 0,
        w: 6,
        h: 3,
        config: {
          displayType: 'line',
          sourceId: LOGS,
          select: [{ aggFn: 'avg', valueExpression: 'Duration', where: '', whereLanguage: 'lucene' }],
          fillNulls: true
        }
      }
    })
    const record = await uiDashboard(created.id)
    expect(record.tiles[0].config).toEqual({
      displayType: 'line',
      select: [
        {
          aggFn: 'avg',
          aggCondition: '',
          aggConditionLanguage: 'lucene',
          isDelta: false,
          valueExpression: 'Duration'
        }
      ],
      source: LOGS,
      where: '',
      name: 'Errors'
    })
    expect(record.tiles[1].config).toMatchObject({
      where: 'level:error',
      whereLanguage: 'lucene',
      granularity: '5 minute'
    })
    expect(record.tags).toEqual(['b', 'c'])
  })

  test('a tile that can no longer carry an alert loses it; name and tags alone leave the tiles as they are', async () => {
    const created = await v2Create({ name: 'MCP alerts', tiles: twoTiles() })
    const alert = (
      await call(emulator, 'POST', '/api/v2/alerts', { body: tileAlert(created.id, created.tiles[0].id) })
    ).json.data
    await editInTheUi(created.id)
    expect(
      JSON.parse((await patchTool({ dashboardId: created.id, name: 'Renamed' })).content[0]!.text)
    ).toEqual({
      id: created.id,
      name: 'Renamed',
      tags: [],
      url: `${emulator.url}/dashboards/${created.id}`
    })
    expect((await uiDashboard(created.id)).tiles[0].config.granularity).toBe('5 minute')
    await patchTool({
      dashboardId: created.id,
      tileId: created.tiles[0].id,
      tile: { config: { displayType: 'table', sourceId: LOGS, select: [{ aggFn: 'count' }] } }
    })
    expect(emulator.selfHosted.alerts.has(alert.id)).toBe(false)
  })

  test('refusals are tool results with isError and the server’s text', async () => {
    const created = await v2Create({ name: 'MCP errors', tiles: twoTiles() })
    const [first, second] = created.tiles
    const text = async (args: Record<string, unknown>) => {
      const result = await patchTool(args)
      expect(result.isError).toBe(true)
      return result.content[0]!.text
    }
    expect(await text({ dashboardId: created.id })).toBe(
      'Provide at least one of: name, tags, or tileId+tile to patch.'
    )
    expect(await text({ dashboardId: created.id, name: 'x', tileId: first.id })).toBe(
      'tileId and tile must both be provided or both omitted.'
    )
    expect(await text({ dashboardId: '65a1f0c2b3d4e5f6a7b8ffff', name: 'x' })).toBe('Dashboard not found')
    expect(
      await text({ dashboardId: created.id, tileId: 'nope', tile: { config: { displayType: 'markdown' } } })
    ).toBe(`Tile not found: nope. Available tile IDs: ${first.id} (Errors), ${second.id} (By service)`)
    expect(
      await text({
        dashboardId: created.id,
        tileId: second.id,
        tile: { config: { displayType: 'line', sourceId: 'abc', select: [{ aggFn: 'count' }] } }
      })
    ).toBe('Validation error: [{"code":"custom","message":"Invalid ObjectId","path":["config","sourceId"]}]')
    expect(
      await text({
        dashboardId: created.id,
        tileId: second.id,
        tile: {
          config: { displayType: 'line', sourceId: '65a1f0c2b3d4e5f6a7b8ffff', select: [{ aggFn: 'count' }] }
        }
      })
    ).toBe('Could not find the following source IDs: 65a1f0c2b3d4e5f6a7b8ffff')
    expect(await text({ dashboardId: 'zzz', name: '' })).toBe(
      'MCP error -32602: Input validation error: Invalid arguments for tool clickstack_patch_dashboard: ' +
        'String must contain at least 1 character(s) at name\nInvalid ObjectId at dashboardId'
    )
    // A tile-level filter on an aggregation tile: no tile shape matches.
    expect(
      await text({
        dashboardId: created.id,
        tileId: second.id,
        tile: { config: { displayType: 'line', sourceId: LOGS, select: [{ aggFn: 'count' }], where: 'x' } }
      })
    ).toBe(
      'MCP error -32602: Input validation error: Invalid arguments for tool clickstack_patch_dashboard: Invalid input at tile'
    )
    const unknown = await mcp('tools/call', { name: 'clickstack_nope', arguments: {} })
    expect(unknown.reply.result).toEqual({
      content: [{ type: 'text', text: 'MCP error -32602: Tool clickstack_nope not found' }],
      isError: true
    })
    // Nothing was written.
    expect(emulator.selfHosted.dashboards.get(created.id)!.tiles.map(t => t.name)).toEqual([
      'Errors',
      'By service'
    ])
  })

  test('the in-process method answers the same result', async () => {
    const created = emulator.selfHosted.createDashboard({ name: 'In process MCP', tiles: twoTiles() })
    const result = await emulator.selfHosted.mcpPatchDashboard({ dashboardId: created.id, tags: ['x'] })
    expect(JSON.parse(result.content[0]!.text)).toEqual({
      id: created.id,
      name: 'In process MCP',
      tags: ['x']
    })
  })
})

describe('MCP: the transport', () => {
  test('initialize, tools/list and ping answer as server-sent events', async () => {
    const init = await mcp('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 't', version: '1' }
    })
    expect(init.status).toBe(200)
    expect(init.headers.get('content-type')).toBe('text/event-stream')
    expect(init.headers.get('cache-control')).toBe('no-cache, no-transform')
    expect(init.text).toMatch(/^event: message\ndata: \{.*\}\n\n$/)
    expect(init.reply).toMatchObject({
      jsonrpc: '2.0',
      id: expect.any(Number),
      result: {
        protocolVersion: '2025-06-18',
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: 'clickstack', version: '2.36.0-beta' }
      }
    })
    const list = await mcp('tools/list', {})
    const tool = list.reply.result.tools.find(
      (t: { name: string }) => t.name === 'clickstack_patch_dashboard'
    )
    expect(tool.inputSchema).toMatchObject({
      type: 'object',
      required: ['dashboardId'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#'
    })
    expect(Object.keys(tool.inputSchema.properties)).toEqual([
      'dashboardId',
      'name',
      'tags',
      'tileId',
      'tile'
    ])
    expect(tool.inputSchema.properties.tile.anyOf).toHaveLength(11)
    expect((await mcp('ping', {})).reply).toMatchObject({ result: {} })
    expect((await mcp('nope/nope', {})).reply).toMatchObject({
      error: { code: -32601, message: 'Method not found' }
    })
  })

  test('GET and DELETE are 405 with Allow: POST; the key, Accept and Content-Type are checked in turn', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${emulator.url}/mcp`, { method })
      expect([response.status, response.headers.get('allow'), await response.text()]).toEqual([
        405,
        'POST',
        'Method Not Allowed'
      ])
    }
    const noKey = await mcp('tools/list', {}, { Authorization: '' })
    expect([noKey.status, noKey.text]).toEqual([401, 'Unauthorized'])
    const notAccepting = await mcp('tools/list', {}, { Accept: 'application/json' })
    expect(notAccepting.status).toBe(406)
    expect(JSON.parse(notAccepting.text)).toEqual({
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: 'Not Acceptable: Client must accept both application/json and text/event-stream'
      },
      id: null
    })
    const notJson = await mcp('tools/list', {}, { 'Content-Type': 'text/plain' })
    expect(notJson.status).toBe(415)
    const notification = await fetch(`${emulator.url}/mcp`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: MCP_ACCEPT,
        Authorization: `Bearer ${emulator.credentials.apiKey}`
      },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })
    })
    expect([notification.status, await notification.text()]).toEqual([202, ''])
  })
})

test('with mcp off, /mcp is an unknown path (a server without the endpoint)', async () => {
  const plain = await start({ mcp: false })
  try {
    const answer = await call(plain, 'POST', '/mcp', {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' }
    })
    expect(answer.status).toBe(404)
    expect(plain.requestLog.at(-1)?.mode).toBe('other')
  } finally {
    await plain.close()
  }
})

describe('v2 additions', () => {
  test('GET /api/v2/team answers the key’s team', async () => {
    const answer = await call(emulator, 'GET', '/api/v2/team')
    expect(answer.json).toEqual({ data: { id: '65a1f0c2b3d4e5f6a7b8c001', name: 'Emulator Team' } })
  })

  test('an unknown dashboard on GET and PUT is the plain text Not Found', async () => {
    const id = '65a1f0c2b3d4e5f6a7b8ffff'
    const get = await call(emulator, 'GET', `/api/v2/dashboards/${id}`)
    expect([get.status, get.text, get.headers.get('content-type')]).toEqual([
      404,
      'Not Found',
      'text/plain; charset=utf-8'
    ])
    const put = await call(emulator, 'PUT', `/api/v2/dashboards/${id}`, { body: { name: 'x', tiles: [] } })
    expect([put.status, put.text]).toEqual([404, 'Not Found'])
  })
})

test('the request log tells the web UI and MCP requests apart', async () => {
  emulator.clearLog()
  await ui('GET', '/dashboards')
  await mcp('tools/list', {})
  await call(emulator, 'GET', '/api/v2/team')
  expect(emulator.requestLog.map(e => [e.method, e.path, e.mode, e.status, e.label])).toEqual([
    ['GET', '/dashboards', 'ui', 200, undefined],
    ['POST', '/mcp', 'mcp', 200, 'tools/list'],
    ['GET', '/api/v2/team', 'self-hosted', 200, undefined]
  ])
  await login()
  expect(emulator.requestLog.at(-1)).toMatchObject({
    path: '/login/password',
    mode: 'ui',
    status: 303,
    label: 'login'
  })
})
