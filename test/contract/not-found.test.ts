/**
 * A 404 is "already gone" only in the shape its route uses for a missing resource (docs/real-server.md):
 * HyperDX answers a missing dashboard with the plain text `Not Found` and a missing alert with
 * `{message}`; the cloud gateway wraps a missing resource in `{status, error, requestId}` but answers a
 * path it does not serve with an HTML `Cannot DELETE ...` page. A router's 404 is an error naming the
 * path (and the managed prefix), so a prune against the wrong path never reports success.
 * Also: `managed-prefix: auto` probes `clickstack` once and falls back to `observability` on a 404.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { RouteNotFoundError } from '../../src/api/errors.js'
import { startCaptureServer, json, type CannedReply, type CaptureServer } from './capture-server.js'
import { ApiPool, managedSettings, ORG, selfHostedSettings, SVC } from './helpers.js'

const ID = '65a1f0c2b3d4e5f6a7b8d001'
const SERVICE = `/v1/organizations/${ORG}/services/${SVC}`
const html = (text: string): CannedReply => ({
  status: 404,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!DOCTYPE html><html><body><pre>${text}</pre></body></html>`
})
const text = (body: string, status = 404): CannedReply => ({ status, body })

let server: CaptureServer
const pool = new ApiPool()
beforeEach(async () => {
  server = await startCaptureServer()
})
afterEach(async () => {
  await pool.closeAll()
  await server.close()
})

const selfHosted = () => pool.make(selfHostedSettings(server.url, 'key'))
const managed = (managedPrefix: 'auto' | 'clickstack' | 'observability' = 'clickstack') =>
  pool.make(managedSettings(server.url, 'id', 'secret', { managedPrefix }))

describe('deletes: absent only on the route\'s own "not found"', () => {
  it.each([
    ['self-hosted dashboard, sendStatus(404)', () => selfHosted().deleteDashboard(ID), text('Not Found')],
    [
      'self-hosted dashboard, {message}',
      () => selfHosted().deleteDashboard(ID),
      json({ message: 'Dashboard not found' }, 404)
    ],
    [
      'self-hosted alert, {message}',
      () => selfHosted().deleteAlert(ID),
      json({ message: 'Alert not found' }, 404)
    ],
    [
      'managed dashboard, the gateway envelope',
      () => managed().deleteDashboard(ID),
      json({ status: 404, error: 'NOT_FOUND: Unknown Error', requestId: 'r1' }, 404)
    ],
    [
      'managed alert, the gateway envelope',
      () => managed().deleteAlert(ID),
      json({ status: 404, error: 'Alert not found', requestId: 'r1' }, 404)
    ]
  ])('%s is "absent"', async (_what, remove, reply) => {
    server.respond([reply])
    await expect(remove()).resolves.toBe('absent')
  })

  it.each([
    [
      'self-hosted dashboard, an HTML router page',
      () => selfHosted().deleteDashboard(ID),
      html(`Cannot DELETE /api/v2/dashboards/${ID}`)
    ],
    ['self-hosted alert, plain text from a proxy', () => selfHosted().deleteAlert(ID), text('Not Found')],
    [
      'managed dashboard, the gateway HTML page',
      () => managed().deleteDashboard(ID),
      html('Cannot DELETE /x')
    ],
    [
      'managed alert, plain text',
      () => managed().deleteAlert(ID),
      text(`Cannot DELETE ${SERVICE}/clickstack/alerts/${ID}`)
    ]
  ])('%s is an error, never "already gone"', async (_what, remove, reply) => {
    server.respond([reply])
    const error = await remove().then(
      () => undefined,
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(RouteNotFoundError)
    expect((error as Error).message).toMatch(
      /^DELETE \/\S+ failed: HTTP 404 that is not this route's "not found" answer/
    )
  })

  it('names the managed prefix in the error', async () => {
    server.respond([html('Cannot DELETE /x')])
    await expect(managed('observability').deleteAlert(ID)).rejects.toThrow(
      `DELETE ${SERVICE}/observability/alerts/${ID} failed: HTTP 404 that is not this route's "not found" answer (the server has no such route; nothing is taken as absent or deleted): Cannot DELETE /x. Managed prefix "observability"`
    )
  })
})

describe('managed-prefix auto', () => {
  it('lists under clickstack when the server serves it, reusing the probe as the first page', async () => {
    server.respond(request =>
      request.path.endsWith('/dashboards')
        ? json({ status: 200, requestId: 'r', result: [{ id: ID, name: 'D', tiles: [], tags: [] }] })
        : json({ status: 200, requestId: 'r', result: [] })
    )
    const api = managed('auto')
    const [dashboards, alerts] = await Promise.all([api.listDashboards(), api.listAlerts()])
    expect(dashboards.map(d => d.name)).toEqual(['D'])
    expect(alerts).toEqual([])
    expect(api.prefix).toBe('clickstack')
    expect(server.requests.map(r => `${r.method} ${r.path}`).sort()).toEqual([
      `GET ${SERVICE}/clickstack/alerts`,
      `GET ${SERVICE}/clickstack/dashboards`
    ])
  })

  it('switches to observability for the whole run after a 404 on the first list', async () => {
    server.respond(request =>
      request.path.includes('/clickstack/')
        ? html(`Cannot GET ${request.path}`)
        : json({ status: 200, requestId: 'r', result: [] })
    )
    const api = managed('auto')
    await Promise.all([api.listAlerts(), api.listDashboards(), api.listSources()])
    expect(api.prefix).toBe('observability')
    expect(await api.deleteAlert(ID)).toBe('deleted')
    const [probe, ...rest] = server.requests.map(r => `${r.method} ${r.path}`)
    expect(probe).toBe(`GET ${SERVICE}/clickstack/dashboards`)
    // The lists after the probe run concurrently: their order on the wire is not fixed.
    expect(rest.sort()).toEqual([
      `DELETE ${SERVICE}/observability/alerts/${ID}`,
      `GET ${SERVICE}/observability/alerts`,
      `GET ${SERVICE}/observability/dashboards`,
      `GET ${SERVICE}/observability/sources`
    ])
  })

  it('a JSON 404 on the probe is the API saying the service is unknown: an error that says so, no switch', async () => {
    server.respond(() => json({ status: 404, error: 'Service not found', requestId: 'r1' }, 404))
    const api = managed('auto')
    const error = (await api.listDashboards().catch((e: unknown) => e)) as Error
    expect(error).not.toBeInstanceOf(RouteNotFoundError)
    expect(error.message).toBe(
      `GET ${SERVICE}/clickstack/dashboards failed with HTTP 404: Service not found (requestId r1). The cloud API does not know this organization or service: check organization-id and service-id (the ids in the cloud console URL of the service), and that the API key belongs to that organization`
    )
    expect(api.prefix).toBeUndefined()
    expect(server.requests.map(r => r.path)).toEqual([`${SERVICE}/clickstack/dashboards`])
  })

  it('with the clickstack prefix set, a JSON 404 on a list says the same', async () => {
    server.respond(() => json({ status: 404, error: 'Service not found', requestId: 'r1' }, 404))
    await expect(managed('clickstack').listDashboards()).rejects.toThrow(
      /check organization-id and service-id/
    )
  })

  it('settles nothing on a failure that says nothing about the route (401), and tries again', async () => {
    server.respond([
      json({ status: 401, error: 'Unauthorized', requestId: 'r' }, 401),
      json({ status: 200, requestId: 'r', result: [] })
    ])
    const api = managed('auto')
    await expect(api.listDashboards()).rejects.toThrow(/HTTP 401/)
    expect(api.prefix).toBeUndefined()
    await expect(api.listDashboards()).resolves.toEqual([])
    expect(api.prefix).toBe('clickstack')
  })
})
