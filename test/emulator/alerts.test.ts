import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import type { Emulator } from '../../emulator/index.js'
import { call, lineTile, OPS_PAGER, start, TEAM_SLACK, tileAlert } from './helpers.js'

let emulator: Emulator
let dashboardId: string
let tileId: string

beforeAll(async () => {
  emulator = await start({ pageSize: 3 })
  const dashboard = await call(emulator, 'POST', '/api/v2/dashboards', {
    body: { name: 'Alerts', tiles: [lineTile('a')] }
  })
  dashboardId = dashboard.json.data.id
  tileId = dashboard.json.data.tiles[0].id
})

afterAll(async () => {
  await emulator.close()
})

describe('alert records', () => {
  test('a created alert has the full record shape with nulls for unset fields', async () => {
    const answer = await call(emulator, 'POST', '/api/v2/alerts', {
      body: {
        dashboardId,
        tileId,
        threshold: 5,
        interval: '1h',
        source: 'tile',
        thresholdType: 'above',
        channel: { type: 'webhook', webhookId: OPS_PAGER }
      }
    })
    expect(answer.status).toBe(200)
    expect(answer.json.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: null,
      message: null,
      threshold: 5,
      thresholdMax: null,
      interval: '1h',
      thresholdType: 'above',
      source: 'tile',
      state: 'OK',
      channel: { type: 'webhook', webhookId: OPS_PAGER },
      channels: [{ type: 'webhook', webhookId: OPS_PAGER }],
      dashboardId,
      tileId,
      numConsecutiveWindows: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      teamId: '65a1f0c2b3d4e5f6a7b8c001'
    })
  })

  test('PUT replaces the configuration', async () => {
    const created = await call(emulator, 'POST', '/api/v2/alerts', {
      body: tileAlert(dashboardId, tileId, { numConsecutiveWindows: 3 })
    })
    const id = created.json.data.id
    const body = {
      dashboardId,
      tileId,
      threshold: 1,
      thresholdMax: 9,
      interval: '15m',
      thresholdType: 'between',
      channel: { type: 'webhook', webhookId: TEAM_SLACK }
    }
    // A PUT is a whole alert: without `source` the body fails the tile/saved-search union (zod.ts alertSchema).
    const sourceless = await call(emulator, 'PUT', `/api/v2/alerts/${id}`, { body })
    expect(sourceless.json).toEqual({ message: 'Body validation failed: Invalid input' })
    const replaced = await call(emulator, 'PUT', `/api/v2/alerts/${id}`, {
      body: { source: 'tile', ...body }
    })
    expect(replaced.status).toBe(200)
    expect(replaced.json.data).toMatchObject({
      id,
      name: null,
      message: null,
      numConsecutiveWindows: null,
      threshold: 1,
      thresholdMax: 9,
      thresholdType: 'between',
      channel: { webhookId: TEAM_SLACK },
      createdAt: created.json.data.createdAt
    })
  })

  test('range threshold types need thresholdMax >= threshold', async () => {
    const below = await call(emulator, 'POST', '/api/v2/alerts', {
      body: tileAlert(dashboardId, tileId, { thresholdType: 'not_between', threshold: 10, thresholdMax: 5 })
    })
    expect(below.status).toBe(400)
    expect(below.json.message).toMatch(/^Body validation failed: thresholdMax: /)
    const missing = await call(emulator, 'POST', '/api/v2/alerts', {
      body: tileAlert(dashboardId, tileId, { thresholdType: 'between' })
    })
    expect(missing.status).toBe(400)
  })

  test('enums, required fields and lengths are checked', async () => {
    const answer = await call(emulator, 'POST', '/api/v2/alerts', {
      body: { ...tileAlert(dashboardId, tileId, { interval: '2m', name: '' }), threshold: undefined }
    })
    expect(answer.status).toBe(400)
    expect(answer.json.message).toContain('threshold: Required')
    expect(answer.json.message).toContain('interval: Invalid enum value')
    const long = await call(emulator, 'POST', '/api/v2/alerts', {
      body: tileAlert(dashboardId, tileId, { message: 'm'.repeat(4097) })
    })
    expect(long.json.message).toContain('message: String must contain at most 4096 character(s)')
  })

  test('unknown dashboard, tile and webhook are semantic 400s', async () => {
    const noDashboard = await call(emulator, 'POST', '/api/v2/alerts', {
      body: tileAlert('0123456789abcdef01234567', tileId)
    })
    expect(noDashboard.status).toBe(400)
    expect(noDashboard.json).toEqual({ message: 'Dashboard not found' })
    const noTile = await call(emulator, 'POST', '/api/v2/alerts', {
      body: tileAlert(dashboardId, '0123456789abcdef01234567')
    })
    expect(noTile.json).toEqual({ message: 'Tile not found' })
    const noWebhook = await call(emulator, 'POST', '/api/v2/alerts', {
      body: tileAlert(dashboardId, tileId, {
        channel: { type: 'webhook', webhookId: '0123456789abcdef01234567' }
      })
    })
    expect(noWebhook.json).toEqual({ message: 'Webhook not found' })
  })
})

describe('pagination', () => {
  test('alerts are paginated with meta and X-Total-Count over small pages', async () => {
    for (let index = 0; index < 5; index++) {
      await call(emulator, 'POST', '/api/v2/alerts', {
        body: tileAlert(dashboardId, tileId, { name: `page ${index}` })
      })
    }
    const total = emulator.selfHosted.alerts.size
    const first = await call(emulator, 'GET', '/api/v2/alerts')
    expect(first.json.data).toHaveLength(3)
    expect(first.json.meta).toEqual({ total, limit: 3, offset: 0 })
    expect(first.headers.get('x-total-count')).toBe(String(total))

    const seen: string[] = []
    for (let offset = 0; offset < total; offset += 2) {
      const page = await call(emulator, 'GET', `/api/v2/alerts?limit=2&offset=${offset}`)
      expect(page.json.meta).toEqual({ total, limit: 2, offset })
      seen.push(...page.json.data.map((alert: { id: string }) => alert.id))
    }
    expect(seen).toEqual([...emulator.selfHosted.alerts.keys()])
  })

  test('webhooks are paginated too and sources are not', async () => {
    const webhooks = await call(emulator, 'GET', '/api/v2/webhooks?limit=1&offset=1')
    expect(webhooks.json.data.map((hook: { name: string }) => hook.name)).toEqual(['team-slack'])
    expect(webhooks.json.meta).toEqual({ total: 2, limit: 1, offset: 1 })
    const sources = await call(emulator, 'GET', '/api/v2/sources?limit=1')
    expect(sources.json.meta).toBeUndefined()
    expect(sources.json.data.length).toBeGreaterThanOrEqual(3)
  })

  test('an invalid limit or offset is a 400 {message}', async () => {
    for (const query of ['limit=0', 'limit=1001', 'limit=abc', 'offset=-1']) {
      const answer = await call(emulator, 'GET', `/api/v2/alerts?${query}`)
      expect(answer.status).toBe(400)
      expect(answer.json.message).toMatch(/^Query validation failed: /)
    }
  })
})

describe('seeded resources', () => {
  test('sources and webhooks are seeded in both modes', async () => {
    const sources = await call(emulator, 'GET', '/api/v2/sources')
    expect(
      sources.json.data.map((source: { name: string; kind: string }) => [source.name, source.kind])
    ).toEqual([
      ['Logs', 'log'],
      ['Traces', 'trace'],
      ['Metrics', 'metric']
    ])
    const one = await call(emulator, 'GET', `/api/v2/sources/${sources.json.data[0].id}`)
    expect(one.json.data.name).toBe('Logs')
    const webhooks = await call(emulator, 'GET', '/api/v2/webhooks')
    expect(webhooks.json.data).toEqual([
      expect.objectContaining({ id: OPS_PAGER, name: 'ops-pager', service: 'generic' }),
      expect.objectContaining({ id: TEAM_SLACK, name: 'team-slack', service: 'slack' })
    ])
    expect(emulator.managed().sources.map(source => source.id)).toEqual(
      sources.json.data.map((source: { id: string }) => source.id)
    )
    expect(emulator.managed(emulator.credentials.devServiceId).webhooks).toHaveLength(2)
  })
})
