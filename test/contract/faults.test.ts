/**
 * Retries and faults, scripted on the emulator (and a capture server for what the emulator cannot do):
 * bounded retries, honoured Retry-After, no blind POST retry, and a clear error after the budget. A fake
 * clock records every wait, so backoffs of seconds take no real time.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { ApiError, UnknownOutcomeError } from '../../src/api/errors.js'
import type { Emulator } from '../../emulator/index.js'
import { startCaptureServer, json, type CaptureServer } from './capture-server.js'
import {
  ApiPool,
  closedPort,
  dashboardBody,
  emulatorSettings,
  eventually,
  FakeClock,
  lineTile,
  selfHostedSettings,
  seen,
  startEmu,
  type ModeName
} from './helpers.js'

let emu: Emulator
const pool = new ApiPool()

beforeEach(async () => {
  emu = await startEmu()
})

afterEach(async () => {
  await pool.closeAll()
  await emu.close()
})

/** An API on the emulator with a fake clock and no jitter: backoff waits are exactly 125, 250, 500, ... ms. */
function faultyApi(
  mode: ModeName = 'self-hosted',
  options: { budgetMs?: number; timeoutMs?: number; maxAttempts?: number } = {}
) {
  const clock = new FakeClock()
  const api = pool.make(
    emulatorSettings(emu, mode, {
      retryBudgetMs: options.budgetMs ?? 60_000,
      requestTimeoutMs: options.timeoutMs ?? 5000
    }),
    { clock, random: () => 0, maxAttempts: options.maxAttempts ?? 10 }
  )
  return { api, clock }
}

const statuses = () => emu.requestLog.map(e => e.status)

describe('429 Too Many Requests', () => {
  it('is retried after exactly the Retry-After the server sent', async () => {
    emu.faults.add({ path: '/api/v2/sources', sequence: ['429'], retryAfterSeconds: 3 })
    const { api, clock } = faultyApi()
    expect(await api.listSources()).toHaveLength(3)
    expect(statuses()).toEqual([429, 200])
    expect(clock.sleeps).toEqual([3000])
    expect(api.stats).toMatchObject({ requests: 2, retries: 1, rateLimited: 1 })
  })

  it("managed: X-RateLimit-Reset is honoured with a second more (the Terraform provider's margin)", async () => {
    emu.faults.add({ path: '/observability/sources', sequence: ['429', '429'], retryAfterSeconds: 2 })
    const { api, clock } = faultyApi('managed/observability')
    expect(await api.listSources()).toHaveLength(3)
    expect(statuses()).toEqual([429, 429, 200])
    expect(clock.sleeps).toEqual([3000, 3000])
  })

  it('on a POST create is retried (a 429 was not processed) and creates exactly one dashboard', async () => {
    emu.faults.add({ method: 'POST', path: '/api/v2/dashboards', sequence: ['429'], retryAfterSeconds: 1 })
    const { api, clock } = faultyApi()
    const created = await api.createDashboard(dashboardBody('After 429'))
    expect(emu.selfHosted.dashboards.size).toBe(1)
    expect(emu.selfHosted.dashboards.get(created.id)!.name).toBe('After 429')
    expect(seen(emu)).toEqual(['POST /api/v2/dashboards 429', 'POST /api/v2/dashboards 200'])
    expect(clock.sleeps).toEqual([1000])
  })

  it('pauses the pacer: another request of the same client waits for the Retry-After too (real clock)', async () => {
    emu.faults.add({ path: '/api/v2/sources', sequence: ['429'], retryAfterSeconds: 0.4 })
    const api = pool.make(emulatorSettings(emu, 'self-hosted'))
    const sources = api.listSources()
    // Once the client has seen the 429 (its stats count it), the pause is in place.
    await eventually(() => api.stats.rateLimited === 1)
    const dashboards = await api.listDashboards()
    await sources
    expect(dashboards).toEqual([])
    const limited = emu.requestLog.find(e => e.status === 429)!
    const other = emu.requestLog.find(e => e.path === '/api/v2/dashboards')!
    expect(other.time - limited.time).toBeGreaterThanOrEqual(350)
    expect(seen(emu)).toEqual(expect.arrayContaining(['GET /api/v2/sources 429', 'GET /api/v2/sources 200']))
  })

  it('a Retry-After longer than the remaining budget fails at once and says so', async () => {
    emu.faults.add({ path: '/api/v2/sources', sequence: ['502', '502', '429'], retryAfterSeconds: 1 })
    // Two backoffs use 125 + 250 ms of a 1.2 s budget; the 1 s Retry-After no longer fits.
    const { api, clock } = faultyApi('self-hosted', { budgetMs: 1200 })
    const error = (await api.listSources().catch((e: unknown) => e)) as ApiError
    expect(error).toBeInstanceOf(ApiError)
    expect(error.status).toBe(429)
    expect(error.attempts).toBe(3)
    expect(error.message).toContain('gave up after 3 attempts in 0.4 s')
    expect(error.message).toContain('the server asked to wait 1.0 s, beyond the retry budget of 1.2 s')
    expect(clock.sleeps).toEqual([125, 250])
    expect(statuses()).toEqual([502, 502, 429])
  })

  it('a Retry-After longer than the whole budget fails on the first answer without waiting', async () => {
    emu.faults.add({ path: '/api/v2/sources', sequence: ['429'], retryAfterSeconds: 30 })
    const { api, clock } = faultyApi('self-hosted', { budgetMs: 2000 })
    await expect(api.listSources()).rejects.toThrow(
      'GET /api/v2/sources failed: HTTP 429; gave up after 1 attempt in 0.0 s; the server asked to wait 30 s, beyond the retry budget of 2.0 s'
    )
    expect(clock.sleeps).toEqual([])
    expect(emu.requestLog).toHaveLength(1)
  })
})

describe('gateway errors (502, 503, 504)', () => {
  it('GET is retried with exponential backoff until it passes', async () => {
    emu.faults.add({ method: 'GET', path: '/api/v2/dashboards', sequence: ['502', '503', '502'] })
    const { api, clock } = faultyApi()
    expect(await api.listDashboards()).toEqual([])
    expect(statuses()).toEqual([502, 503, 502, 200])
    expect(clock.sleeps).toEqual([125, 250, 500])
  })

  it('PUT is retried and the update lands once', async () => {
    const existing = emu.selfHosted.createDashboard(dashboardBody('Before'))
    emu.faults.add({ method: 'PUT', sequence: ['503', '502'] })
    const { api } = faultyApi()
    const updated = await api.updateDashboard(existing.id, {
      name: 'After',
      tiles: [lineTile('Errors', { id: existing.tiles[0]!.id })]
    })
    expect(updated.name).toBe('After')
    expect(updated.tiles[0]!.id).toBe(existing.tiles[0]!.id)
    expect(statuses()).toEqual([503, 502, 200])
  })

  it('DELETE is retried', async () => {
    const existing = emu.managed().createDashboard(dashboardBody('Doomed'))
    emu.faults.add({ method: 'DELETE', sequence: ['502'] })
    const { api } = faultyApi('managed/clickstack')
    expect(await api.deleteDashboard(existing.id)).toBe('deleted')
    expect(emu.managed().dashboards.has(existing.id)).toBe(false)
    expect(statuses()).toEqual([502, 200])
  })

  it('PATCH of the service is not retried blindly: its outcome is unknown (the apply re-reads the service)', async () => {
    emu.faults.add({ method: 'PATCH', sequence: ['503'] })
    const { api } = faultyApi('managed/observability')
    const error = await api.patchService({ name: 'Patched' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UnknownOutcomeError)
    expect(statuses()).toEqual([503])
  })

  it('a POST create that gets a 502 is not retried: its outcome is unknown', async () => {
    emu.faults.add({ method: 'POST', path: '/api/v2/alerts', sequence: ['502'] })
    const dashboard = emu.selfHosted.createDashboard(dashboardBody('Alerted'))
    const { api } = faultyApi()
    const error = await api
      .createAlert({
        dashboardId: dashboard.id,
        tileId: dashboard.tiles[0]!.id,
        threshold: 1,
        interval: '5m'
      })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UnknownOutcomeError)
    expect((error as UnknownOutcomeError).status).toBe(502)
    expect(seen(emu)).toEqual(['POST /api/v2/alerts 502'])
  })

  it('a POST query (validate, charts) is idempotent and is retried', async () => {
    emu.faults.add({ method: 'POST', path: '/validate', sequence: ['503'] })
    emu.faults.add({ method: 'POST', path: '/charts/series', sequence: ['502'] })
    const { api } = faultyApi()
    expect((await api.validateDashboard(dashboardBody('Dry'))).valid).toBe(true)
    const now = Date.now()
    expect(
      await api.querySeries({
        startTime: now - 3_600_000,
        endTime: now,
        granularity: '1h',
        series: [{ sourceId: '65a1f0c2b3d4e5f6a7b8c901', aggFn: 'count', where: '', groupBy: [] }]
      })
    ).toEqual(expect.any(Array))
    expect(statuses()).toEqual([503, 200, 502, 200])
  })

  it('504 (capture server) is retried for GET and is an unknown outcome for a POST create', async () => {
    const capture: CaptureServer = await startCaptureServer([
      json({ message: 'gateway timeout' }, 504),
      json({ data: [] }),
      json({ message: 'gateway timeout' }, 504)
    ])
    try {
      const api = pool.make(selfHostedSettings(capture.url, 'capture-key-0001'), {
        clock: new FakeClock(),
        random: () => 0
      })
      expect(await api.listSources()).toEqual([])
      await expect(api.createDashboard(dashboardBody('x'))).rejects.toBeInstanceOf(UnknownOutcomeError)
      expect(capture.requests.map(r => r.method)).toEqual(['GET', 'GET', 'POST'])
    } finally {
      await pool.closeAll()
      await capture.close()
    }
  })

  it('a 503 Retry-After (capture server) replaces the backoff', async () => {
    const capture = await startCaptureServer([
      json({ message: 'down' }, 503, { 'Retry-After': '7' }),
      json({ data: [] })
    ])
    try {
      const clock = new FakeClock()
      const api = pool.make(selfHostedSettings(capture.url, 'capture-key-0001', { retryBudgetMs: 60_000 }), {
        clock
      })
      expect(await api.listSources()).toEqual([])
      expect(clock.sleeps).toEqual([7000])
    } finally {
      await pool.closeAll()
      await capture.close()
    }
  })
})

describe('500 Internal Server Error', () => {
  it('is retried on a GET (a read changes nothing), with backoff', async () => {
    emu.faults.add({ method: 'GET', sequence: ['500'] })
    const { api, clock } = faultyApi()
    expect(await api.listSources()).toHaveLength(3)
    expect(statuses()).toEqual([500, 200])
    expect(clock.sleeps).toEqual([125])
  })

  it('is not retried on a write (it may have been applied), and carries the server message', async () => {
    emu.faults.add({ method: 'POST', sequence: ['500'] })
    emu.faults.add({ method: 'PUT', sequence: ['500'] })
    const { api, clock } = faultyApi()
    const post = (await api.createDashboard(dashboardBody('x')).catch((e: unknown) => e)) as ApiError
    expect(post).toBeInstanceOf(ApiError)
    expect(post.status).toBe(500)
    expect(post.attempts).toBe(1)
    expect(post.serverMessage).toBe('Internal Server Error')
    const put = (await api
      .updateDashboard('65a1f0c2b3d4e5f6a7b8c9aa', dashboardBody('x'))
      .catch((e: unknown) => e)) as ApiError
    expect(put.status).toBe(500)
    expect(put.attempts).toBe(1)
    expect(statuses()).toEqual([500, 500])
    expect(clock.sleeps).toEqual([])
  })
})

describe('connection failures and timeouts', () => {
  it('a connection reset is retried for GET', async () => {
    emu.faults.add({ method: 'GET', path: '/api/v2/sources', sequence: ['reset', 'reset'] })
    const { api } = faultyApi()
    expect(await api.listSources()).toHaveLength(3)
    expect(statuses()).toEqual(['reset', 'reset', 200])
  })

  it('a connection reset on a POST create is not retried: UnknownOutcomeError, one POST', async () => {
    emu.faults.add({ method: 'POST', sequence: ['reset'] })
    const { api } = faultyApi()
    await expect(api.createDashboard(dashboardBody('x'))).rejects.toBeInstanceOf(UnknownOutcomeError)
    expect(statuses()).toEqual(['reset'])
  })

  it('commit-drop on POST /dashboards: UnknownOutcomeError, the dashboard IS stored, exactly one POST', async () => {
    emu.faults.add({ method: 'POST', path: '/api/v2/dashboards', sequence: ['commit-drop'] })
    const { api, clock } = faultyApi()
    const error = (await api
      .createDashboard(dashboardBody('Dropped'))
      .catch((e: unknown) => e)) as UnknownOutcomeError
    expect(error).toBeInstanceOf(UnknownOutcomeError)
    expect(error.name).toBe('UnknownOutcomeError')
    expect(error.message).toMatch(
      /^POST \/api\/v2\/dashboards outcome unknown \(connection failed .*\); it may or may not have been applied/
    )
    expect([...emu.selfHosted.dashboards.values()].map(d => d.name)).toEqual(['Dropped'])
    expect(emu.requestLog.filter(e => e.method === 'POST')).toHaveLength(1)
    expect(seen(emu)).toEqual(['POST /api/v2/dashboards dropped'])
    expect(clock.sleeps).toEqual([])
  })

  it('commit-drop on managed POST alerts is also an unknown outcome with one POST', async () => {
    const dashboard = emu.managed().createDashboard(dashboardBody('M'))
    emu.faults.add({ method: 'POST', path: '/observability/alerts', sequence: ['commit-drop'] })
    const { api } = faultyApi('managed/observability')
    await expect(
      api.createAlert({
        dashboardId: dashboard.id,
        tileId: dashboard.tiles[0]!.id,
        threshold: 1,
        interval: '5m',
        source: 'tile',
        thresholdType: 'above',
        channel: { type: 'webhook', webhookId: '65a1f0c2b3d4e5f6a7b8ca01' }
      })
    ).rejects.toBeInstanceOf(UnknownOutcomeError)
    expect(emu.managed().alerts.size).toBe(1)
    expect(emu.requestLog.filter(e => e.method === 'POST')).toHaveLength(1)
  })

  it('a delay beyond the request timeout on a POST create is an UnknownOutcomeError after one attempt', async () => {
    emu.faults.add({ method: 'POST', sequence: ['delay'], delayMs: 60_000 })
    const { api } = faultyApi('self-hosted', { timeoutMs: 200 })
    const error = (await api
      .createDashboard(dashboardBody('Slow'))
      .catch((e: unknown) => e)) as UnknownOutcomeError
    expect(error).toBeInstanceOf(UnknownOutcomeError)
    // The timeout ended it (the fault holds the answer for a minute), after one attempt.
    expect(error.message).toContain('no response within 0.2 s')
    expect(error.attempts).toBe(1)
    await eventually(() => emu.requestLog.length === 1)
    expect(seen(emu)).toEqual(['POST /api/v2/dashboards timeout'])
  })

  it('a delay beyond the request timeout on a GET is retried, and the retry succeeds', async () => {
    emu.faults.add({ method: 'GET', sequence: ['delay'], delayMs: 60_000 })
    const { api } = faultyApi('self-hosted', { timeoutMs: 200 })
    expect(await api.listSources()).toHaveLength(3)
    await eventually(() => emu.requestLog.length === 2)
    expect(statuses().sort()).toEqual([200, 'timeout'])
  })

  it('a refused connection is retried (nothing was sent) and then fails with the cause', async () => {
    const port = await closedPort()
    const clock = new FakeClock()
    const api = pool.make(selfHostedSettings(`http://127.0.0.1:${port}`, 'refused-key-0001'), {
      clock,
      random: () => 0,
      maxAttempts: 3
    })
    const error = (await api.createDashboard(dashboardBody('x')).catch((e: unknown) => e)) as ApiError
    expect(error).toBeInstanceOf(ApiError)
    expect(error).not.toBeInstanceOf(UnknownOutcomeError)
    expect(error.attempts).toBe(3)
    expect(error.message).toContain('connection failed (ECONNREFUSED')
    expect(error.message).toContain('gave up after 3 attempts')
    expect(clock.sleeps).toEqual([125, 250])
  })
})

describe('bounds', () => {
  it('retries stop at maxAttempts with a clear message', async () => {
    emu.faults.add({ path: '/api/v2/sources', kind: '503' })
    const { api } = faultyApi('self-hosted', { maxAttempts: 4 })
    const error = (await api.listSources().catch((e: unknown) => e)) as ApiError
    expect(error.status).toBe(503)
    expect(error.attempts).toBe(4)
    expect(error.message).toMatch(
      /^GET \/api\/v2\/sources failed: HTTP 503; gave up after 4 attempts in 0\.9 s \(retry budget 60 s\)/
    )
    expect(emu.requestLog).toHaveLength(4)
  })

  it('retries stop when the next wait would pass retryBudgetMs, with a clear message', async () => {
    emu.faults.add({ path: '/api/v2/sources', kind: '502' })
    // Waits 125, 250, 500 fit in 1 s (875 ms); the next (1000 ms) would not.
    const { api, clock } = faultyApi('self-hosted', { budgetMs: 1000 })
    const error = (await api.listSources().catch((e: unknown) => e)) as ApiError
    expect(error.attempts).toBe(4)
    expect(error.message).toContain(
      'failed: HTTP 502; gave up after 4 attempts in 0.9 s (retry budget 1.0 s)'
    )
    expect(clock.sleeps).toEqual([125, 250, 500])
    expect(emu.requestLog).toHaveLength(4)
  })

  it('the default bound is 10 attempts even with a generous budget', async () => {
    emu.faults.add({ path: '/api/v2/sources', kind: '502' })
    const clock = new FakeClock()
    const api = pool.make(emulatorSettings(emu, 'self-hosted', { retryBudgetMs: 3_600_000 }), {
      clock,
      random: () => 0
    })
    const error = (await api.listSources().catch((e: unknown) => e)) as ApiError
    expect(error.attempts).toBe(10)
    expect(emu.requestLog).toHaveLength(10)
    // Exponential, capped at 20 s.
    expect(clock.sleeps).toEqual([125, 250, 500, 1000, 2000, 4000, 8000, 10_000, 10_000])
  })

  it('a budget of 0 means no retry at all', async () => {
    emu.faults.add({ path: '/api/v2/sources', sequence: ['502'] })
    const { api } = faultyApi('self-hosted', { budgetMs: 0 })
    await expect(api.listSources()).rejects.toThrow('gave up after 1 attempt in 0.0 s (retry budget 0.0 s)')
    expect(emu.requestLog).toHaveLength(1)
  })
})

describe('the pacer listens to the server (capture server)', () => {
  let capture: CaptureServer
  beforeEach(async () => {
    capture = await startCaptureServer()
  })
  afterEach(async () => {
    await pool.closeAll()
    await capture.close()
  })

  it('a 429 with only Retry-After holds every request of the client until then', async () => {
    const times: Record<string, number[]> = {}
    let limited = false
    capture.respond(req => {
      ;(times[req.path] ??= []).push(Date.now())
      if (req.path.endsWith('/sources') && !limited) {
        limited = true
        return json({ message: 'slow down' }, 429, { 'Retry-After': '0.4' })
      }
      return json({ data: [] })
    })
    const api = pool.make(selfHostedSettings(capture.url, 'capture-key-0001'))
    const sources = api.listSources()
    await eventually(() => api.stats.rateLimited === 1)
    await api.listDashboards()
    await sources
    const limitedAt = times['/api/v2/sources']![0]!
    expect(times['/api/v2/dashboards']![0]! - limitedAt).toBeGreaterThanOrEqual(350)
    expect(times['/api/v2/sources']![1]! - limitedAt).toBeGreaterThanOrEqual(350)
  })

  it('a success that says no requests remain pauses the next request until the reset', async () => {
    capture.respond([
      json({ data: [] }, 200, { 'RateLimit-Remaining': '0', 'RateLimit-Reset': '2' }),
      json({ data: [] }, 200, { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '3' }),
      json({ data: [] }, 200, { 'RateLimit-Remaining': '5', 'RateLimit-Reset': '9' }),
      json({ data: [] })
    ])
    const clock = new FakeClock()
    const api = pool.make(selfHostedSettings(capture.url, 'capture-key-0001'), { clock })
    for (let i = 0; i < 4; i++) await api.listSources()
    expect(clock.sleeps).toEqual([2000, 3000])
    expect(api.stats).toMatchObject({ requests: 4, retries: 0, rateLimited: 0 })
  })
})
