import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from '@jest/globals'
import { call, lineTile, servicePath, start, tileAlert } from './helpers.js'

const directory = mkdtempSync(join(tmpdir(), 'emulator-persist-'))

afterAll(() => {
  rmSync(directory, { recursive: true, force: true })
})

describe('request log', () => {
  test('records every request with mode, status, query and duration, and clears', async () => {
    const emulator = await start({ rateLimits: { selfHosted: { requests: 2, windowMs: 60_000 } } })
    try {
      const before = Date.now()
      await call(emulator, 'GET', '/api/v2/alerts?limit=5&offset=0')
      await call(emulator, 'GET', servicePath(emulator, '/observability/dashboards'))
      await call(emulator, 'PATCH', servicePath(emulator), { body: { enableCoreDumps: true } })
      await call(emulator, 'GET', '/favicon.ico')
      await call(emulator, 'GET', '/api/v2/sources/')
      await call(emulator, 'GET', '/api/v2/sources')
      expect(emulator.requestLog).toHaveLength(6)
      const [alerts, managed, control, other, sources, limited] = emulator.requestLog
      expect(alerts).toMatchObject({
        method: 'GET',
        path: '/api/v2/alerts',
        query: { limit: '5', offset: '0' },
        mode: 'self-hosted',
        status: 200
      })
      expect(alerts.time).toBeGreaterThanOrEqual(before)
      expect(alerts.durationMs).toBeGreaterThanOrEqual(0)
      expect(managed).toMatchObject({ mode: 'managed', status: 200 })
      expect(control).toMatchObject({ method: 'PATCH', mode: 'control', status: 200 })
      expect(other).toMatchObject({ mode: 'other', status: 404 })
      expect(sources).toMatchObject({ path: '/api/v2/sources', status: 200 })
      expect(limited).toMatchObject({ status: 429, rateLimited: true })
      expect(alerts.rateLimited).toBeUndefined()
      emulator.clearLog()
      expect(emulator.requestLog).toHaveLength(0)
    } finally {
      await emulator.close()
    }
  })
})

describe('latency', () => {
  test('latencyMs delays every answer', async () => {
    const emulator = await start({ latencyMs: 80 })
    try {
      const started = Date.now()
      expect((await call(emulator, 'GET', '/api/v2/sources')).status).toBe(200)
      expect(Date.now() - started).toBeGreaterThanOrEqual(75)
      expect(emulator.requestLog[0].durationMs).toBeGreaterThanOrEqual(75)
    } finally {
      await emulator.close()
    }
  })
})

describe('persistence', () => {
  test('state survives a restart: both modes and the services', async () => {
    const persistPath = join(directory, 'state.json')
    const first = await start({ persistPath })
    const dashboard = await call(first, 'POST', '/api/v2/dashboards', {
      body: { name: 'Kept', tiles: [lineTile('a')] }
    })
    const alert = await call(first, 'POST', '/api/v2/alerts', {
      body: tileAlert(dashboard.json.data.id, dashboard.json.data.tiles[0].id)
    })
    await call(first, 'POST', servicePath(first, '/clickstack/dashboards'), {
      body: { name: 'Managed kept', tiles: [] }
    })
    await call(first, 'PATCH', servicePath(first), { body: { name: 'Renamed service' } })
    await new Promise(resolve => setImmediate(resolve))
    const written = JSON.parse(readFileSync(persistPath, 'utf8'))
    expect(written.selfHosted.dashboards).toHaveLength(1)
    await first.close()

    const second = await start({ persistPath })
    try {
      const fetched = await call(second, 'GET', `/api/v2/dashboards/${dashboard.json.data.id}`)
      expect(fetched.json.data).toEqual(dashboard.json.data)
      expect((await call(second, 'GET', `/api/v2/alerts/${alert.json.data.id}`)).json.data).toEqual(
        alert.json.data
      )
      expect([...second.managed().dashboards.values()].map(item => item.name)).toEqual(['Managed kept'])
      expect(second.services.get(second.credentials.serviceId)?.name).toBe('Renamed service')
      expect(second.selfHosted.events.length).toBe(first.selfHosted.events.length)
      second.selfHosted.createDashboard({ name: 'By hand', tiles: [] })
      second.save()
      expect(JSON.parse(readFileSync(persistPath, 'utf8')).selfHosted.dashboards).toHaveLength(2)
    } finally {
      await second.close()
    }
  })
})
