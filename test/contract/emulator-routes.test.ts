/**
 * The client against the emulator, every route in both modes (self-hosted `/api/v2` with Bearer, managed
 * `.../observability` and `.../clickstack` with Basic): what the server received (method, path, query, from
 * the emulator's request log) and what the client returned (parsed from the real envelopes).
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { ApiError } from '../../src/api/errors.js'
import { externalAlert } from '../../emulator/alert-body.js'
import { externalDashboard } from '../../emulator/dashboard-output.js'
import type { Emulator } from '../../emulator/index.js'
import {
  alertBody,
  ApiPool,
  dashboardBody,
  emulatorSettings,
  lineTile,
  LOGS,
  MODE_NAMES,
  OPS_PAGER,
  resourceBase,
  seen,
  startEmu,
  TEAM_SLACK,
  UNKNOWN_ID
} from './helpers.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const OBJECT_ID = /^[0-9a-f]{24}$/

let emu: Emulator
const pool = new ApiPool()

beforeEach(async () => {
  emu = await startEmu()
})

afterEach(async () => {
  await pool.closeAll()
  await emu.close()
})

describe.each(MODE_NAMES)('%s mode against the emulator', mode => {
  const store = () => (mode === 'self-hosted' ? emu.selfHosted : emu.managed())
  const base = () => resourceBase(mode, emu.credentials.organizationId, emu.credentials.serviceId)
  /** The stored record as the server returns it. */
  const stored = (id: string) => externalDashboard(store().dashboards.get(id)!)

  it('dashboards: list, create, get, update and delete use the collection and item paths and return the stored record', async () => {
    const api = pool.make(emulatorSettings(emu, mode))
    expect(await api.listDashboards()).toEqual([])

    const created = await api.createDashboard(dashboardBody('Contract'))
    expect(created.id).toMatch(OBJECT_ID)
    expect(created.tiles).toHaveLength(1)
    expect(created.tiles[0]!.id).toMatch(OBJECT_ID)
    expect(created).toEqual(stored(created.id))

    expect(await api.getDashboard(created.id)).toEqual(created)

    const keptTile = created.tiles[0]!.id
    const updated = await api.updateDashboard(created.id, {
      name: 'Contract v2',
      tiles: [lineTile('Errors', { id: keptTile }), lineTile('New', { x: 6 })],
      tags: ['contract', 'v2']
    })
    expect(updated.name).toBe('Contract v2')
    expect(updated.tags).toEqual(['contract', 'v2'])
    expect(updated.tiles.map(t => t.id)).toEqual([keptTile, expect.stringMatching(OBJECT_ID)])
    expect(updated.tiles[1]!.id).not.toBe(keptTile)
    expect(updated).toEqual(stored(created.id))

    expect(await api.listDashboards()).toEqual([updated])
    expect(await api.deleteDashboard(created.id)).toBe('deleted')
    expect(store().dashboards.size).toBe(0)

    const b = base()
    expect(seen(emu)).toEqual([
      `GET ${b}/dashboards 200`,
      `POST ${b}/dashboards 200`,
      `GET ${b}/dashboards/${created.id} 200`,
      `PUT ${b}/dashboards/${created.id} 200`,
      `GET ${b}/dashboards 200`,
      `DELETE ${b}/dashboards/${created.id} 200`
    ])
  })

  it('validateDashboard posts to dashboards/validate, returns the verdict and stores nothing', async () => {
    const api = pool.make(emulatorSettings(emu, mode))
    const good = await api.validateDashboard(dashboardBody('Dry run'))
    expect(good.valid).toBe(true)
    expect(good.errors).toEqual([])
    expect(good.normalized).toMatchObject({ name: 'Dry run', tags: ['contract'] })

    const bad = await api.validateDashboard(dashboardBody('Bad', [lineTile('Too wide', { w: 99 })]))
    expect(bad.valid).toBe(false)
    expect(bad.errors).toEqual([expect.objectContaining({ path: expect.stringContaining('tiles') })])
    expect(bad.errors![0]!.message).toEqual(expect.any(String))

    expect(store().dashboards.size).toBe(0)
    expect(seen(emu)).toEqual([
      `POST ${base()}/dashboards/validate 200`,
      `POST ${base()}/dashboards/validate 200`
    ])
  })

  it('alerts: create, get, update, list and delete use the alert paths; a second delete is "absent"', async () => {
    const dashboard = store().createDashboard(dashboardBody('Alerted'))
    const tileId = dashboard.tiles[0]!.id
    const api = pool.make(emulatorSettings(emu, mode))

    const { id } = await api.createAlert(alertBody(dashboard.id, tileId))
    expect(id).toMatch(OBJECT_ID)
    expect(store().alerts.get(id)).toMatchObject({ dashboardId: dashboard.id, tileId, threshold: 10 })

    // The managed alert response has no `channels` (ClickStackAlertResponse).
    const returned = (a: object | undefined) => {
      if (mode === 'self-hosted' || !a) return a
      const { channels: _channels, ...rest } = a as Record<string, unknown>
      return rest
    }
    const alert = await api.getAlert(id)
    expect(alert).toEqual(returned(externalAlert(store().alerts.get(id)!)))
    expect(alert).toMatchObject({ id, threshold: 10, interval: '5m', thresholdType: 'above', tileId })
    expect(alert.channel).toEqual({ type: 'webhook', webhookId: OPS_PAGER })

    expect((await api.updateAlert(id, alertBody(dashboard.id, tileId, { threshold: 25 }))).id).toBe(id)
    expect(store().alerts.get(id)!.threshold).toBe(25)

    const listed = await api.listAlerts()
    expect(listed).toEqual([returned(externalAlert(store().alerts.get(id)!))])

    expect(await api.deleteAlert(id)).toBe('deleted')
    expect(store().alerts.has(id)).toBe(false)
    expect(await api.deleteAlert(id)).toBe('absent')

    const b = base()
    expect(seen(emu)).toEqual([
      `POST ${b}/alerts 200`,
      `GET ${b}/alerts/${id} 200`,
      `PUT ${b}/alerts/${id} 200`,
      `GET ${b}/alerts 200`,
      // A managed list says no total: the next page is asked for, and adds nothing.
      ...(mode === 'self-hosted' ? [] : [`GET ${b}/alerts?limit=1&offset=1 200`]),
      `DELETE ${b}/alerts/${id} 200`,
      `DELETE ${b}/alerts/${id} 404`
    ])
  })

  it('sources: one GET of the collection returns every source with its id', async () => {
    const api = pool.make(emulatorSettings(emu, mode))
    const sources = await api.listSources()
    expect(sources.map(s => s.id)).toEqual(store().sources.map(s => s.id))
    expect(sources.find(s => s.id === LOGS)).toMatchObject({ name: 'Logs', kind: 'log' })
    expect(seen(emu)).toEqual([`GET ${base()}/sources 200`])
  })

  if (mode === 'managed/observability') {
    it('webhooks: the contract prefix has no webhooks route, so the list is undefined, not an error', async () => {
      const api = pool.make(emulatorSettings(emu, mode))
      expect(await api.listWebhooks()).toBeUndefined()
      expect(seen(emu)).toEqual([`GET ${base()}/webhooks 404`])
    })
  } else {
    it('webhooks: a GET of the collection returns the seeded webhooks', async () => {
      const api = pool.make(emulatorSettings(emu, mode))
      const webhooks = await api.listWebhooks()
      expect(webhooks?.map(w => w.id)).toEqual([OPS_PAGER, TEAM_SLACK])
      expect(webhooks?.[0]).toMatchObject({ name: 'ops-pager', service: 'generic' })
      // A managed list says no total: the next page is asked for, and adds nothing.
      expect(seen(emu)).toEqual([
        `GET ${base()}/webhooks 200`,
        ...(mode === 'self-hosted' ? [] : [`GET ${base()}/webhooks?limit=2&offset=2 200`])
      ])
    })
  }

  if (mode === 'self-hosted') {
    it('querySeries posts the query to charts/series and returns the points', async () => {
      const api = pool.make(emulatorSettings(emu, mode))
      const now = Date.now()
      const points = await api.querySeries({
        startTime: now - 24 * 3_600_000,
        endTime: now,
        granularity: '1h',
        series: [{ sourceId: LOGS, aggFn: 'count', where: 'level:error', groupBy: ['service'] }]
      })
      expect(points.length).toBeGreaterThan(0)
      for (const point of points) {
        expect(typeof point.ts_bucket).toBe('number')
        expect(Array.isArray(point.group)).toBe(true)
        expect(point['series_0.data']).toEqual(expect.stringMatching(/^\d+$/))
      }
      expect(seen(emu)).toEqual(['POST /api/v2/charts/series 200'])
    })

    it('getService and patchService refuse in self-hosted mode without sending a request', async () => {
      const api = pool.make(emulatorSettings(emu, mode))
      await expect(api.getService()).rejects.toThrow('service settings exist only in managed mode')
      await expect(api.patchService({ name: 'x' })).rejects.toThrow('only in managed mode')
      expect(emu.requestLog).toHaveLength(0)
    })
  } else {
    it('getService and patchService use the service path and unwrap {status, requestId, result}', async () => {
      const api = pool.make(emulatorSettings(emu, mode))
      const { organizationId, serviceId } = emu.credentials
      const got = await api.getService()
      expect(got.requestId).toMatch(UUID)
      expect(got.service).toMatchObject({
        id: serviceId,
        name: 'Production Observability',
        tier: 'production'
      })
      expect(got.service).toEqual(emu.services.get(serviceId))

      const patched = await api.patchService({ name: 'Renamed by contract' })
      expect(patched.service.name).toBe('Renamed by contract')
      expect(patched.requestId).toMatch(UUID)
      expect(patched.requestId).not.toBe(got.requestId)
      expect(emu.services.get(serviceId)!.name).toBe('Renamed by contract')

      const servicePath = `/v1/organizations/${organizationId}/services/${serviceId}`
      expect(seen(emu)).toEqual([`GET ${servicePath} 200`, `PATCH ${servicePath} 200`])
    })

    it('querySeries does not exist in managed mode: a 404 ApiError', async () => {
      const api = pool.make(emulatorSettings(emu, mode))
      const error = await api.querySeries({ series: [] }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ApiError)
      expect((error as ApiError).status).toBe(404)
      expect(seen(emu)).toEqual([`POST ${base()}/charts/series 404`])
    })
  }

  it('deleteDashboard and getDashboard of an unknown id: delete succeeds (the server says 200), get is a 404', async () => {
    const api = pool.make(emulatorSettings(emu, mode))
    expect(await api.deleteDashboard(UNKNOWN_ID)).toBe('deleted')
    const error = await api.getDashboard(UNKNOWN_ID).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).status).toBe(404)
    expect((error as ApiError).serverMessage).toBe(
      mode === 'self-hosted' ? 'Not Found' : 'Dashboard not found'
    )
  })
})

describe('pagination', () => {
  async function seedAlerts(target: Emulator, count: number, managed = false): Promise<void> {
    const s = managed ? target.managed() : target.selfHosted
    const dashboard = s.createDashboard(dashboardBody('Paged'))
    for (let i = 0; i < count; i++)
      s.createAlert(alertBody(dashboard.id, dashboard.tiles[0]!.id, { name: `A${i}` }))
  }

  it('with pageSize 7 and 30 alerts the client follows meta until all 30 are read, in 5 requests', async () => {
    const paged = await startEmu({ pageSize: 7 })
    try {
      await seedAlerts(paged, 30)
      paged.clearLog()
      const api = pool.make(emulatorSettings(paged, 'self-hosted'))
      const alerts = await api.listAlerts()
      expect(alerts).toHaveLength(30)
      expect(alerts.map(a => a.id)).toEqual([...paged.selfHosted.alerts.keys()])
      expect(new Set(alerts.map(a => a.id)).size).toBe(30)
      expect(seen(paged)).toEqual([
        'GET /api/v2/alerts 200',
        'GET /api/v2/alerts?limit=7&offset=7 200',
        'GET /api/v2/alerts?limit=7&offset=14 200',
        'GET /api/v2/alerts?limit=7&offset=21 200',
        'GET /api/v2/alerts?limit=7&offset=28 200'
      ])
    } finally {
      await pool.closeAll()
      await paged.close()
    }
  })

  it('the paginated webhooks list is followed too (page size 1: two requests for two webhooks)', async () => {
    const paged = await startEmu({ pageSize: 1 })
    try {
      const api = pool.make(emulatorSettings(paged, 'self-hosted'))
      expect((await api.listWebhooks())?.map(w => w.id)).toEqual([OPS_PAGER, TEAM_SLACK])
      expect(seen(paged)).toEqual(['GET /api/v2/webhooks 200', 'GET /api/v2/webhooks?limit=1&offset=1 200'])
    } finally {
      await pool.closeAll()
      await paged.close()
    }
  })

  it('unpaginated lists are read with one request and no query string; managed lists page without a total', async () => {
    const paged = await startEmu({ pageSize: 7 })
    try {
      for (let i = 0; i < 10; i++) paged.selfHosted.createDashboard(dashboardBody(`D${i}`))
      await seedAlerts(paged, 12, true)
      paged.clearLog()
      const selfHosted = pool.make(emulatorSettings(paged, 'self-hosted'))
      const managed = pool.make(emulatorSettings(paged, 'managed/observability'))
      expect(await selfHosted.listDashboards()).toHaveLength(10)
      expect(await managed.listAlerts()).toHaveLength(12)
      const b = resourceBase(
        'managed/observability',
        paged.credentials.organizationId,
        paged.credentials.serviceId
      )
      expect(seen(paged)).toEqual([
        'GET /api/v2/dashboards 200',
        `GET ${b}/alerts 200`,
        `GET ${b}/alerts?limit=7&offset=7 200`,
        `GET ${b}/alerts?limit=7&offset=12 200`
      ])
    } finally {
      await pool.closeAll()
      await paged.close()
    }
  })
})
