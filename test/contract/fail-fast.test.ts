/**
 * Failing fast: a wrong server, a closed port or a TLS mismatch ends the run in seconds, with a message that
 * says what to do. The first failure of the live read cancels its siblings in flight; a closed client never
 * retries; certificate and protocol errors are not retried at all; a refused connection before any answer
 * gets the short connect budget; and the retry budget counts the rate limiter's waits. Waits run on a fake
 * clock: what is asserted is attempts, waits asked for, and messages, never durations.
 */
import { readFileSync } from 'node:fs'
import https from 'node:https'
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { ApiError, RequestCancelledError, ResponseShapeError } from '../../src/api/errors.js'
import type { Clock } from '../../src/api/pacer.js'
import { readLiveState } from '../../src/live/read.js'
import type { Emulator } from '../../emulator/index.js'
import { json, startCaptureServer, type CaptureServer } from './capture-server.js'
import {
  ApiPool,
  closedPort,
  emulatorSettings,
  eventually,
  FakeClock,
  selfHostedSettings,
  startEmu
} from './helpers.js'

const pool = new ApiPool()
let capture: CaptureServer

beforeEach(async () => {
  capture = await startCaptureServer()
})
afterEach(async () => {
  await pool.closeAll()
  await capture.close()
})

/** Time that stands still: a wait ends only when its signal aborts. */
class FrozenClock implements Clock {
  waiting = 0
  now = () => 1_700_000_000_000
  sleep(_ms: number, signal?: AbortSignal): Promise<void> {
    this.waiting++
    return new Promise((_resolve, reject) =>
      signal?.addEventListener('abort', () => {
        this.waiting--
        reject(new Error(String(signal.reason)))
      })
    )
  }
}

const HTML = '<!doctype html><html><head><title>HyperDX</title></head><body>the web app</body></html>'

describe('the first failure of the live read cancels the others', () => {
  it('a server answering HTML fails on the first answer; the read still in flight is abandoned, nothing is retried', async () => {
    capture.respond(req =>
      req.path === '/api/v2/alerts'
        ? { ...json({ data: [] }), delayMs: 60_000 } // would hold the run for a minute
        : { status: 200, headers: { 'Content-Type': 'text/html' }, body: HTML }
    )
    const api = pool.make(selfHostedSettings(capture.url, 'capture-key-0001'), { clock: new FakeClock() })
    const error = await readLiveState(api, { service: false }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ResponseShapeError)
    expect((error as ApiError).hint).toMatch(
      /^The server answered with an HTML page, not the API: api-url may point at the web UI/
    )
    expect(api.stats.retries).toBe(0)
    // Each list was sent at most once (a cancel may come before a request leaves), and the held one, if
    // it reached the server, was given up by the client rather than waited for.
    const paths = capture.requests.map(r => r.path)
    expect(new Set(paths).size).toBe(paths.length)
    if (paths.includes('/api/v2/alerts'))
      await eventually(() => capture.requests.find(r => r.path === '/api/v2/alerts')!.abandoned)
  })

  it('siblings waiting to retry stop at once (no UND_ERR_DESTROYED retries after the run)', async () => {
    capture.respond(req =>
      req.path === '/api/v2/dashboards'
        ? json({ message: 'no such route' }, 404)
        : { status: 503, headers: { 'Content-Type': 'text/html' }, body: '<title>503</title>' }
    )
    // A clock whose waits never end by themselves: only a cancel ends a sibling's backoff.
    const clock = new FrozenClock()
    const api = pool.make(selfHostedSettings(capture.url, 'capture-key-0001', { retryBudgetMs: 600_000 }), {
      clock
    })
    const error = (await readLiveState(api, { service: false }).catch((e: unknown) => e)) as ApiError
    expect(error.status).toBe(404)
    await new Promise(resolve => setImmediate(resolve))
    expect(clock.waiting).toBe(0)
    const paths = capture.requests.map(r => r.path)
    expect(new Set(paths).size).toBe(paths.length)
  })

  it('a closed client refuses to retry: a request waiting to go again ends with "cancelled"', async () => {
    capture.respond(() => ({ status: 503, body: 'down' }))
    const api = pool.make(selfHostedSettings(capture.url, 'capture-key-0001', { retryBudgetMs: 600_000 }))
    const pending = api.listSources().catch((e: unknown) => e)
    await eventually(() => capture.requests.length === 1)
    await api.close()
    const error = (await pending) as ApiError
    expect(error).toBeInstanceOf(RequestCancelledError)
    expect(error.message).toBe('GET /api/v2/sources cancelled: the client was closed')
    expect(capture.requests).toHaveLength(1)
  })
})

describe('a read cancelled together shares what the client learned', () => {
  it('managed-prefix auto is settled once, by the live read, for the whole run', async () => {
    const emu = await startEmu({ managedPrefixes: ['observability'] })
    try {
      const api = pool.make(emulatorSettings(emu, 'managed/observability', { managedPrefix: 'auto' }))
      await readLiveState(api, { service: false })
      expect(api.prefix).toBe('observability')
      await api.listDashboards()
      const probes = emu.requestLog.filter(e => e.path.endsWith('/clickstack/dashboards'))
      expect(probes).toHaveLength(1)
    } finally {
      await pool.closeAll()
      await emu.close()
    }
  })
})

describe('TLS and certificate errors are not transient', () => {
  it('https against a plain http server fails on the first attempt, saying the server speaks plain HTTP', async () => {
    let emu: Emulator | undefined
    try {
      emu = await startEmu()
      const clock = new FakeClock()
      const api = pool.make(
        emulatorSettings(emu, 'self-hosted', { apiUrl: emu.url.replace('http:', 'https:') }),
        { clock }
      )
      const error = (await api.listSources().catch((e: unknown) => e)) as ApiError
      expect(error).toBeInstanceOf(ApiError)
      expect(error.attempts).toBe(1)
      expect(error.message).toMatch(
        /^GET \/api\/v2\/sources failed: connection failed \(ERR_SSL_WRONG_VERSION_NUMBER\)/
      )
      expect(error.hint).toMatch(/^The server answered in plain HTTP, not TLS: .*use an http:\/\/ api-url/)
      expect(clock.sleeps).toEqual([])
      expect(api.stats.retries).toBe(0)
    } finally {
      await pool.closeAll()
      await emu?.close()
    }
  })

  it('an untrusted certificate fails at once and names NODE_EXTRA_CA_CERTS', async () => {
    const fixture = (name: string) => readFileSync(new URL(`../fixtures/tls/${name}`, import.meta.url))
    const server = https.createServer({ key: fixture('key.pem'), cert: fixture('cert.pem') }, (_req, res) =>
      res.end('{"data":[]}')
    )
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    try {
      const port = (server.address() as { port: number }).port
      const clock = new FakeClock()
      const api = pool.make(selfHostedSettings(`https://127.0.0.1:${port}`, 'tls-key-0001'), { clock })
      const error = (await api.listSources().catch((e: unknown) => e)) as ApiError
      expect(error.attempts).toBe(1)
      expect(error.message).toContain('connection failed (DEPTH_ZERO_SELF_SIGNED_CERT)')
      expect(error.hint).toContain('NODE_EXTRA_CA_CERTS')
      expect(clock.sleeps).toEqual([])
    } finally {
      await pool.closeAll()
      server.closeAllConnections()
      await new Promise(resolve => server.close(resolve))
    }
  })
})

describe('connection refused', () => {
  it('before any answer: the short connect budget (10 s), then a message that says what to check', async () => {
    const port = await closedPort()
    const clock = new FakeClock()
    const api = pool.make(
      selfHostedSettings(`http://127.0.0.1:${port}`, 'refused-key-0001', { retryBudgetMs: 120_000 }),
      {
        clock,
        random: () => 0
      }
    )
    const error = (await api.listSources().catch((e: unknown) => e)) as ApiError
    // 125 + 250 + ... + 4000 = 7.9 s; the next wait (8 s) would pass 10 s.
    expect(clock.sleeps).toEqual([125, 250, 500, 1000, 2000, 4000])
    expect(error.attempts).toBe(7)
    expect(error.message).toContain(
      'failed: connection failed (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:'
    )
    expect(error.message).toContain(
      '; gave up after 7 attempts in 7.9 s (connect budget 10 s). Nothing has answered at this address yet: check api-url'
    )
    expect(error.message).toContain('raise connect-budget')
  })

  it('the connect budget is configurable (0: no retry at all)', async () => {
    const port = await closedPort()
    const clock = new FakeClock()
    const api = pool.make(
      selfHostedSettings(`http://127.0.0.1:${port}`, 'refused-key-0001', { connectBudgetMs: 0 }),
      { clock }
    )
    await expect(api.listSources()).rejects.toThrow('gave up after 1 attempt in 0.0 s (connect budget 0.0 s)')
    expect(clock.sleeps).toEqual([])
  })

  it('after the server has answered once, a refusal gets the full retry budget (a restart is transient)', async () => {
    capture.respond(() => json({ data: [] }))
    const clock = new FakeClock()
    const api = pool.make(selfHostedSettings(capture.url, 'restart-key-0001', { retryBudgetMs: 60_000 }), {
      clock,
      random: () => 0
    })
    await api.listSources()
    await capture.close()
    const error = (await api.listDashboards().catch((e: unknown) => e)) as ApiError
    expect(error.attempts).toBe(10)
    expect(error.message).toContain('(retry budget 60 s)')
    capture = await startCaptureServer()
  })

  it('once the server is found unreachable, later requests fail at once without connecting', async () => {
    const port = await closedPort()
    const api = pool.make(selfHostedSettings(`http://127.0.0.1:${port}`, 'refused-key-0001'), {
      clock: new FakeClock(),
      random: () => 0
    })
    await expect(api.listSources()).rejects.toThrow('connect budget')
    const sent = api.stats.requests
    const later = (await api.listAlerts().catch((e: unknown) => e)) as ApiError
    expect(later.message).toMatch(
      /^GET \/api\/v2\/alerts not sent: an earlier request could not reach the server \(GET \/api\/v2\/sources failed: connection failed \(ECONNREFUSED/
    )
    expect(api.stats.requests).toBe(sent)
  })
})

describe('the retry budget is wall time', () => {
  it('a wait for the rate limiter counts: a retry that could not start within the budget is not sent', async () => {
    capture.respond([json({ message: 'busy' }, 503), json({ data: [] })])
    const clock = new FakeClock()
    const api = pool.make(
      selfHostedSettings(capture.url, 'paced-key-0001', {
        retryBudgetMs: 5000,
        rateLimit: { requests: 1, windowMs: 10_000 }
      }),
      { clock, random: () => 0 }
    )
    const error = (await api.listSources().catch((e: unknown) => e)) as ApiError
    expect(error.status).toBe(503)
    expect(error.message).toMatch(
      /^GET \/api\/v2\/sources failed: HTTP 503; gave up after 1 attempt in 0\.1 s \(retry budget 5\.0 s\): the next attempt could not start in time \(the rate limit allows it 10 s from now\)/
    )
    expect(capture.requests).toHaveLength(1)
    // The backoff was taken; the limiter's 10 s wait was not.
    expect(clock.sleeps).toEqual([125])
  })

  it('a retry of an idempotent request gets no longer than the budget has left', async () => {
    capture.respond([json({ message: 'busy' }, 503), { ...json({ data: [] }), delayMs: 60_000 }])
    const clock = new FakeClock()
    const api = pool.make(
      selfHostedSettings(capture.url, 'slow-key-0001', { retryBudgetMs: 300, requestTimeoutMs: 30_000 }),
      { clock, random: () => 0 }
    )
    const error = (await api.listSources().catch((e: unknown) => e)) as ApiError
    // The retry starts 125 ms in, so it may wait 175 ms for its answer, not the request timeout of 30 s.
    expect(error.message).toBe(
      'GET /api/v2/sources failed: no response within 0.2 s (request-timeout 30 s, cut to what the retry budget had left); gave up after 2 attempts in 0.1 s (retry budget 0.3 s)'
    )
  })
})
