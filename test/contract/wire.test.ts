/**
 * What the client puts on the wire and how it reads what comes back, seen by a capture server: exact method,
 * request target, headers (Authorization form, content type) and JSON body of every route in both modes;
 * envelope unwrapping; read-back after a write answered with only an id; pagination by meta or
 * X-Total-Count, and its bound; response shape errors that name the route and the field.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import type { ApiSettings, ObservabilityApi } from '../../src/api/client.js'
import { ApiError, ResponseShapeError } from '../../src/api/errors.js'
import { startCaptureServer, json, type CaptureServer, type CannedReply } from './capture-server.js'
import {
  ApiPool,
  basicHeader,
  managedSettings,
  MODE_NAMES,
  ORG,
  resourceBase,
  selfHostedSettings,
  SVC,
  type ModeName
} from './helpers.js'

const KEY = 'wire-personal-key-0001'
const KEY_ID = 'wire-key-id-0001'
const KEY_SECRET = 'wire-key-secret-0001'
const REQUEST_ID = '3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0c'

const DASH_ID = '65a1f0c2b3d4e5f6a7b8d001'
const TILE_ID = '65a1f0c2b3d4e5f6a7b8d002'
const ALERT_ID = '65a1f0c2b3d4e5f6a7b8d003'

const tile = { id: TILE_ID, name: 'Errors', x: 0, y: 0, w: 6, h: 3, config: { displayType: 'line' } }
const dashboard = { id: DASH_ID, name: 'Wire', tiles: [tile], tags: ['wire'] }
const alert = {
  id: ALERT_ID,
  name: 'Errors',
  threshold: 10,
  interval: '5m',
  thresholdType: 'above',
  source: 'tile',
  channel: { type: 'webhook', webhookId: 'w1' },
  dashboardId: DASH_ID,
  tileId: TILE_ID
}
const source = { id: 's1', name: 'Logs', kind: 'log' }
const webhook = { id: 'w1', name: 'ops', service: 'generic' }
const service = { id: SVC, name: 'Prod', tier: 'production', releaseChannel: 'default', ipAccessList: [] }
const dashboardRequest = { name: 'Wire', tiles: [{ name: 'Errors', x: 0, y: 0, w: 6, h: 3 }], tags: ['wire'] }
const alertRequest = { dashboardId: DASH_ID, tileId: TILE_ID, threshold: 10, interval: '5m' }
const seriesRequest = {
  startTime: 1,
  endTime: 2,
  granularity: '1h',
  series: [{ sourceId: 's1', aggFn: 'count' }]
}

let server: CaptureServer
const pool = new ApiPool()

beforeEach(async () => {
  server = await startCaptureServer()
})

afterEach(async () => {
  await pool.closeAll()
  await server.close()
})

function settingsFor(mode: ModeName, extra: Partial<ApiSettings> = {}): ApiSettings {
  if (mode === 'self-hosted') return selfHostedSettings(server.url, KEY, extra)
  return managedSettings(server.url, KEY_ID, KEY_SECRET, {
    managedPrefix: mode === 'managed/clickstack' ? 'clickstack' : 'observability',
    ...extra
  })
}

/** The success envelope of a mode (CONTRACT.md / FACTS.md). */
function envelope(mode: ModeName, value: unknown): unknown {
  return mode === 'self-hosted' ? { data: value } : { status: 200, requestId: REQUEST_ID, result: value }
}

interface RouteCase {
  route: string
  call: (api: ObservabilityApi) => Promise<unknown>
  method: string
  /** Below the resource base; absolute when it starts with /v1. */
  path: string
  body?: unknown
  /** The value inside the envelope; `raw` replies go out as they are. */
  reply: unknown
  raw?: boolean
  expected: unknown
  modes?: ModeName[]
  /**
   * A paginated list answered without a total: the client asks for the next page until one adds nothing new,
   * and the server answers it with an empty list.
   */
  pagesOn?: boolean
}

const ROUTES: RouteCase[] = [
  {
    route: 'listDashboards',
    call: api => api.listDashboards(),
    method: 'GET',
    path: '/dashboards',
    reply: [dashboard],
    expected: [dashboard]
  },
  {
    route: 'getDashboard',
    call: api => api.getDashboard(DASH_ID),
    method: 'GET',
    path: `/dashboards/${DASH_ID}`,
    reply: dashboard,
    expected: dashboard
  },
  {
    route: 'createDashboard',
    call: api => api.createDashboard(dashboardRequest),
    method: 'POST',
    path: '/dashboards',
    body: dashboardRequest,
    reply: dashboard,
    expected: dashboard
  },
  {
    route: 'updateDashboard',
    call: api => api.updateDashboard(DASH_ID, { ...dashboardRequest, name: 'Wire 2' }),
    method: 'PUT',
    path: `/dashboards/${DASH_ID}`,
    body: { ...dashboardRequest, name: 'Wire 2' },
    reply: { ...dashboard, name: 'Wire 2' },
    expected: { ...dashboard, name: 'Wire 2' }
  },
  {
    route: 'deleteDashboard',
    call: api => api.deleteDashboard(DASH_ID),
    method: 'DELETE',
    path: `/dashboards/${DASH_ID}`,
    reply: {},
    expected: 'deleted'
  },
  {
    route: 'validateDashboard',
    call: api => api.validateDashboard(dashboardRequest),
    method: 'POST',
    path: '/dashboards/validate',
    body: dashboardRequest,
    // FACTS.md: a bare `{valid, errors, normalized}`.
    reply: { valid: false, errors: [{ path: 'tiles.0.w', message: 'too wide' }], normalized: null },
    raw: true,
    expected: { valid: false, errors: [{ path: 'tiles.0.w', message: 'too wide' }], normalized: null }
  },
  {
    route: 'listAlerts',
    call: api => api.listAlerts(),
    method: 'GET',
    path: '/alerts',
    reply: [alert],
    expected: [alert],
    pagesOn: true
  },
  {
    route: 'getAlert',
    call: api => api.getAlert(ALERT_ID),
    method: 'GET',
    path: `/alerts/${ALERT_ID}`,
    reply: alert,
    expected: alert
  },
  {
    route: 'createAlert',
    call: async api => (await api.createAlert(alertRequest)).id,
    method: 'POST',
    path: '/alerts',
    body: alertRequest,
    reply: alert,
    expected: ALERT_ID
  },
  {
    route: 'updateAlert',
    call: async api => (await api.updateAlert(ALERT_ID, { ...alertRequest, threshold: 20 })).id,
    method: 'PUT',
    path: `/alerts/${ALERT_ID}`,
    body: { ...alertRequest, threshold: 20 },
    reply: { ...alert, threshold: 20 },
    expected: ALERT_ID
  },
  {
    route: 'deleteAlert',
    call: api => api.deleteAlert(ALERT_ID),
    method: 'DELETE',
    path: `/alerts/${ALERT_ID}`,
    reply: {},
    expected: 'deleted'
  },
  {
    route: 'listSources',
    call: api => api.listSources(),
    method: 'GET',
    path: '/sources',
    reply: [source],
    expected: [source]
  },
  {
    route: 'listWebhooks',
    call: api => api.listWebhooks(),
    method: 'GET',
    path: '/webhooks',
    reply: [webhook],
    expected: [webhook],
    modes: ['self-hosted', 'managed/clickstack'],
    pagesOn: true
  },
  {
    route: 'querySeries',
    call: api => api.querySeries(seriesRequest),
    method: 'POST',
    path: '/charts/series',
    body: seriesRequest,
    reply: [{ ts_bucket: 1_700_000_000_000, group: ['api'], 'series_0.data': 3 }],
    expected: [{ ts_bucket: 1_700_000_000_000, group: ['api'], 'series_0.data': 3 }],
    modes: ['self-hosted']
  },
  {
    route: 'getService',
    call: api => api.getService(),
    method: 'GET',
    path: `/v1/organizations/${ORG}/services/${SVC}`,
    reply: service,
    expected: { service, requestId: REQUEST_ID },
    modes: ['managed/observability', 'managed/clickstack']
  },
  {
    route: 'patchService',
    call: api =>
      api.patchService({ name: 'Prod 2', ipAccessList: { add: [{ source: '10.0.0.1' }], remove: [] } }),
    method: 'PATCH',
    path: `/v1/organizations/${ORG}/services/${SVC}`,
    body: { name: 'Prod 2', ipAccessList: { add: [{ source: '10.0.0.1' }], remove: [] } },
    reply: { ...service, name: 'Prod 2' },
    expected: { service: { ...service, name: 'Prod 2' }, requestId: REQUEST_ID },
    modes: ['managed/observability', 'managed/clickstack']
  }
]

const CASES = MODE_NAMES.flatMap(mode =>
  ROUTES.filter(r => !r.modes || r.modes.includes(mode)).map(r => [mode, r.route, r] as const)
)

describe('every route on the wire', () => {
  it.each(CASES)(
    '%s %s: exact method, target, headers and body; the envelope is unwrapped',
    async (mode, _route, r) => {
      server.respond([
        json(r.raw ? r.reply : envelope(mode, r.reply)),
        ...(r.pagesOn ? [json(envelope(mode, []))] : [])
      ])
      const api = pool.make(settingsFor(mode))
      expect(await r.call(api)).toEqual(r.expected)

      const [req, next] = server.requests
      const path = r.path.startsWith('/v1') ? r.path : `${resourceBase(mode)}${r.path}`
      expect(server.requests).toHaveLength(r.pagesOn ? 2 : 1)
      if (r.pagesOn) expect(next!.target).toBe(`${path}?limit=1&offset=1`)
      expect(req!.method).toBe(r.method)
      expect(req!.target).toBe(path) // no query string at all
      expect(req!.headers.authorization).toBe(
        mode === 'self-hosted' ? `Bearer ${KEY}` : basicHeader(KEY_ID, KEY_SECRET)
      )
      expect(req!.headers.accept).toBe('application/json')
      if (r.body === undefined) {
        expect(req!.body).toBe('')
        expect(req!.headers['content-type']).toBeUndefined()
      } else {
        expect(req!.headers['content-type']).toBe('application/json')
        expect(req!.json).toEqual(r.body)
      }
    }
  )

  it('the managed Basic credential is base64 of "keyId:keySecret", exactly', async () => {
    server.respond([json(envelope('managed/observability', []))])
    await pool.make(settingsFor('managed/observability')).listSources()
    const header = server.requests[0]!.headers.authorization!
    expect(header.startsWith('Basic ')).toBe(true)
    expect(Buffer.from(header.slice('Basic '.length), 'base64').toString('utf8')).toBe(
      `${KEY_ID}:${KEY_SECRET}`
    )
  })

  it('managed observability prefix: a 404 on webhooks means "no such route" and gives undefined', async () => {
    server.respond([json({ status: 404, error: 'Not Found', requestId: REQUEST_ID }, 404)])
    expect(await pool.make(settingsFor('managed/observability')).listWebhooks()).toBeUndefined()
    expect(server.requests[0]!.target).toBe(`${resourceBase('managed/observability')}/webhooks`)
  })

  it('self-hosted: a 404 on webhooks is an error, not "no webhooks"', async () => {
    server.respond([json({ message: 'Not Found' }, 404)])
    await expect(pool.make(settingsFor('self-hosted')).listWebhooks()).rejects.toBeInstanceOf(ApiError)
  })
})

describe('envelopes', () => {
  it.each([
    ['{data}', { data: [source] }],
    ['{status, requestId, result}', { status: 200, requestId: REQUEST_ID, result: [source] }],
    ['a bare array', [source]]
  ])('a list answered as %s is unwrapped to the same records', async (_shape, body) => {
    server.respond([json(body)])
    expect(await pool.make(settingsFor('self-hosted')).listSources()).toEqual([source])
  })

  it('a record answered bare (no envelope) is read as it is', async () => {
    server.respond([json(dashboard)])
    expect(await pool.make(settingsFor('self-hosted')).getDashboard(DASH_ID)).toEqual(dashboard)
  })

  it('numeric ids from a server become strings', async () => {
    server.respond([json({ data: [{ ...source, id: 42 }] })])
    expect((await pool.make(settingsFor('self-hosted')).listSources())[0]!.id).toBe('42')
  })
})

describe('read-back after a write answered with only an id', () => {
  it.each(MODE_NAMES)('%s: createDashboard answered {id} reads the dashboard back with a GET', async mode => {
    server.respond([json(envelope(mode, { id: DASH_ID })), json(envelope(mode, dashboard))])
    const created = await pool.make(settingsFor(mode)).createDashboard(dashboardRequest)
    expect(created).toEqual(dashboard)
    expect(created.tiles[0]!.id).toBe(TILE_ID)
    expect(server.requests.map(r => `${r.method} ${r.target}`)).toEqual([
      `POST ${resourceBase(mode)}/dashboards`,
      `GET ${resourceBase(mode)}/dashboards/${DASH_ID}`
    ])
  })

  it('updateDashboard answered with a record without tiles reads the dashboard back', async () => {
    server.respond([json({ data: { id: DASH_ID, name: 'Wire' } }), json({ data: dashboard })])
    expect(await pool.make(settingsFor('self-hosted')).updateDashboard(DASH_ID, dashboardRequest)).toEqual(
      dashboard
    )
    expect(server.requests.map(r => r.method)).toEqual(['PUT', 'GET'])
  })

  it('a write answered with the full record is not read back', async () => {
    server.respond([json({ data: dashboard })])
    await pool.make(settingsFor('self-hosted')).createDashboard(dashboardRequest)
    expect(server.requests).toHaveLength(1)
  })

  it('a write answered with neither the record nor an id is a ResponseShapeError naming the id field', async () => {
    server.respond([json({ data: { ok: true } })])
    const error = await pool
      .make(settingsFor('self-hosted'))
      .createDashboard(dashboardRequest)
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ResponseShapeError)
    expect((error as ResponseShapeError).field).toBe('id')
    expect(server.requests).toHaveLength(1)
  })
})

describe('pagination on the wire', () => {
  const alerts = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => ({ ...alert, id: `alert${String(from + i).padStart(3, '0')}` }))

  /** A server that honours limit and offset over `total` alerts, announcing the total by meta or header. */
  const pagingServer =
    (
      total: number,
      firstPage: number,
      by: 'meta' | 'header'
    ): ((req: { query: Record<string, string> }) => CannedReply) =>
    req => {
      const limit = Number(req.query.limit ?? firstPage)
      const offset = Number(req.query.offset ?? 0)
      const page = alerts(offset, Math.max(0, Math.min(limit, total - offset)))
      return by === 'meta'
        ? json({ data: page, meta: { total, limit, offset } })
        : json({ data: page }, 200, { 'X-Total-Count': String(total) })
    }

  it('follows meta.total with meta.limit as the page size until every item is read', async () => {
    server.respond(pagingServer(30, 7, 'meta'))
    const listed = await pool.make(settingsFor('self-hosted')).listAlerts()
    expect(listed.map(a => a.id)).toEqual(alerts(0, 30).map(a => a.id))
    expect(server.requests.map(r => r.target)).toEqual([
      '/api/v2/alerts',
      '/api/v2/alerts?limit=7&offset=7',
      '/api/v2/alerts?limit=7&offset=14',
      '/api/v2/alerts?limit=7&offset=21',
      '/api/v2/alerts?limit=7&offset=28'
    ])
  })

  it('follows X-Total-Count alone, using the first page length as the page size', async () => {
    server.respond(pagingServer(30, 10, 'header'))
    const listed = await pool.make(settingsFor('self-hosted')).listAlerts()
    expect(listed).toHaveLength(30)
    expect(server.requests.map(r => r.search)).toEqual(['', 'limit=10&offset=10', 'limit=10&offset=20'])
  })

  it('without a total, pages on (the page size the first page had) until a page adds nothing new', async () => {
    // A server that caps its pages at 7 and says nothing of a total (the managed cloud's lists).
    server.respond(req => {
      const offset = Number(req.query.offset ?? 0)
      return json({ data: alerts(offset, Math.max(0, Math.min(7, 17 - offset))) })
    })
    const listed = await pool.make(settingsFor('self-hosted')).listAlerts()
    expect(listed.map(a => a.id)).toEqual(alerts(0, 17).map(a => a.id))
    expect(server.requests.map(r => r.search)).toEqual([
      '',
      'limit=7&offset=7',
      'limit=7&offset=14',
      'limit=7&offset=17'
    ])
  })

  it('without a total, a server that ignores offset costs one more request, not a loop', async () => {
    server.respond(() => json({ data: alerts(0, 3) }))
    expect(await pool.make(settingsFor('self-hosted')).listAlerts()).toHaveLength(3)
    expect(server.requests).toHaveLength(2)
  })

  it('a list whose first page holds everything is read with one request', async () => {
    server.respond(pagingServer(5, 1000, 'meta'))
    expect(await pool.make(settingsFor('self-hosted')).listAlerts()).toHaveLength(5)
    expect(server.requests).toHaveLength(1)
  })

  it('a server that ignores offset and keeps returning the same page cannot keep the client looping', async () => {
    let calls = 0
    server.respond(() => {
      calls++
      return json({ data: alerts(0, 7), meta: { total: 30, limit: 7, offset: 0 } })
    })
    const error = await pool
      .make(settingsFor('self-hosted'))
      .listAlerts()
      .then(
        () => undefined,
        (e: unknown) => e as Error
      )
    // Bounded by the page count the total implies (plus slack), whatever the server does...
    expect(calls).toBeLessThanOrEqual(Math.ceil(30 / 7) + 3)
    // ...and a partial list is refused rather than planned with (it would read as "create the rest").
    expect(error).toBeInstanceOf(ResponseShapeError)
    expect(error!.message).toMatch(
      /announced 30 items but its pages returned 7; refusing to plan with a partial list/
    )
  })

  it('a server that keeps returning fresh pages past the total stops at the total', async () => {
    let calls = 0
    server.respond(req => {
      calls++
      const offset = Number(req.query.offset ?? 0)
      return json({ data: alerts(offset, 7), meta: { total: 14, limit: 7, offset } })
    })
    const listed = await pool.make(settingsFor('self-hosted')).listAlerts()
    expect(listed).toHaveLength(14)
    expect(calls).toBe(2)
  })

  it('an empty page ends the walk, and a list shorter than announced is refused', async () => {
    server.respond(req =>
      req.query.offset
        ? json({ data: [], meta: { total: 30, limit: 7 } })
        : json({ data: alerts(0, 7), meta: { total: 30, limit: 7 } })
    )
    await expect(pool.make(settingsFor('self-hosted')).listAlerts()).rejects.toThrow(
      /refusing to plan with a partial list/
    )
    expect(server.requests).toHaveLength(2)
  })
})

describe('response shape errors', () => {
  it('a list item missing a required field names the route and the field ([0].threshold)', async () => {
    server.respond([json({ data: [{ ...alert, threshold: 'high' }] })])
    const error = (await pool
      .make(settingsFor('self-hosted'))
      .listAlerts()
      .catch((e: unknown) => e)) as ResponseShapeError
    expect(error).toBeInstanceOf(ResponseShapeError)
    expect(error).toBeInstanceOf(ApiError)
    expect(error.field).toBe('[0].threshold')
    expect(error.status).toBe(200)
    expect(error.method).toBe('GET')
    expect(error.path).toBe('/api/v2/alerts')
    expect(error.message).toMatch(
      /^GET \/api\/v2\/alerts returned an unexpected response: field \[0\]\.threshold: /
    )
  })

  it('a nested field is named by its path (tiles[0].x) in managed mode too', async () => {
    const bad = { ...dashboard, tiles: [{ ...tile, x: 'left' }] }
    server.respond([json(envelope('managed/clickstack', bad))])
    const error = (await pool
      .make(settingsFor('managed/clickstack'))
      .getDashboard(DASH_ID)
      .catch((e: unknown) => e)) as ResponseShapeError
    expect(error).toBeInstanceOf(ResponseShapeError)
    expect(error.field).toBe('tiles[0].x')
    expect(error.message).toContain(`GET ${resourceBase('managed/clickstack')}/dashboards/${DASH_ID}`)
    expect(error.message).toContain('field tiles[0].x')
  })

  it('a list answered with an object instead of an array is a ResponseShapeError', async () => {
    server.respond([json({ data: { items: [] } })])
    const error = await pool
      .make(settingsFor('self-hosted'))
      .listDashboards()
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ResponseShapeError)
    expect((error as Error).message).toContain('GET /api/v2/dashboards returned an unexpected response')
  })

  it('a service answer that is not an object is a ResponseShapeError on the service path', async () => {
    server.respond([json({ status: 200, requestId: REQUEST_ID, result: 'nope' })])
    const error = await pool
      .make(settingsFor('managed/observability'))
      .getService()
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ResponseShapeError)
    expect((error as Error).message).toContain(
      `GET /v1/organizations/${ORG}/services/${SVC} returned an unexpected`
    )
  })

  it('a non-JSON 200 is a ResponseShapeError, not a crash', async () => {
    server.respond([
      { status: 200, body: '<html>maintenance</html>', headers: { 'Content-Type': 'text/html' } }
    ])
    await expect(pool.make(settingsFor('self-hosted')).listSources()).rejects.toBeInstanceOf(
      ResponseShapeError
    )
  })
})
