/**
 * The transport's waits, with requests side by side: what it tells its pacer (the first request alone
 * under a known rate limit, the pause a 429 asks for, the server's own count of what is left, never
 * beyond the retry budget), and a wait that close() or an unreachable server ends at once.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { ApiError, RequestCancelledError } from '../../src/api/errors.js'
import type { TransportOptions } from '../../src/api/transport.js'
import {
  closeAll,
  failure,
  gatedClock,
  hang,
  json,
  serve,
  servers,
  transport,
  until
} from '../support/transport.js'

afterEach(closeAll)

const get = { method: 'GET', path: '/x', idempotent: true } as const

describe('what the transport tells its pacer', () => {
  /** How many requests the transport had sent when the first of two started at once reached the server. */
  async function sentWhenTheFirstArrives(rateLimit: TransportOptions['rateLimit']) {
    let sent = 0
    const { seen, baseUrl } = await serve(
      res => {
        // The second request's turn comes in microtasks, long before the first reaches this server.
        sent = t.stats.requests
        json(200, {})(res)
      },
      json(200, {})
    )
    const { t } = transport(baseUrl, { rateLimit })
    await Promise.all([t.request(get), t.request({ ...get, path: '/y' })])
    expect(seen.map(s => s.url)).toStrictEqual(['/api/v2/x', '/api/v2/y'])
    return sent
  }

  it('with a known rate limit the first request goes alone: the second is sent only after its answer', async () => {
    expect(await sentWhenTheFirstArrives({ requests: 100, windowMs: 60_000 })).toBe(1)
  })

  it('without a known rate limit requests go at once: the second is sent before the first has its answer', async () => {
    expect(await sentWhenTheFirstArrives(null)).toBe(2)
  })

  it.each([
    [429, 'every request'],
    [503, 'only its own request']
  ])('a %i wait holds back %s', async status => {
    const { seen, baseUrl } = await serve(json(status, {}, { 'retry-after': '2' }), json(200, {}))
    const { clock, waits } = gatedClock()
    const { t } = transport(baseUrl, { clock })
    const first = t.request(get)
    await until(() => waits.length === 1)
    const other = t.request({ ...get, path: '/y' })
    await until(() => waits.length === 2 || seen.length === 2)
    // After a 429 the other request waits for the same moment; after a 503 it is sent at once.
    expect(waits.map(w => w.ms)).toStrictEqual(status === 429 ? [2000, 2000] : [2000])
    expect(seen).toHaveLength(status === 429 ? 1 : 2)
    for (const w of waits) w.release()
    await Promise.all([first, other])
    expect(seen.map(s => s.url)).toStrictEqual(['/api/v2/x', '/api/v2/y', '/api/v2/x'])
  })

  it('a server that says nothing is left in its window: the next request waits for its reset', async () => {
    const { seen, baseUrl } = await serve(
      json(200, {}, { 'ratelimit-remaining': '0', 'ratelimit-reset': '3' }),
      json(200, {})
    )
    const { t, sleeps } = transport(baseUrl)
    await t.request(get)
    expect(sleeps).toStrictEqual([])
    await t.request(get)
    expect(sleeps).toStrictEqual([3000])
    expect(seen).toHaveLength(2)
  })

  it('a window that resets in an hour holds the next request no longer than the retry budget', async () => {
    const { baseUrl } = await serve(
      json(200, {}, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '3600' }),
      json(200, {})
    )
    const { t, sleeps } = transport(baseUrl, { retryBudgetMs: 5000 })
    await t.request(get)
    await t.request(get)
    expect(sleeps).toStrictEqual([5000])
  })
  it('a retry the rate limit cannot start within the retry budget is given up at once, saying when it could', async () => {
    const { seen, baseUrl } = await serve(json(503, {}))
    // One request per 10 s window: the retry after 125 ms would start about 10 s later, past the 5 s budget.
    const { t, sleeps } = transport(baseUrl, { rateLimit: { requests: 1, windowMs: 10_000 } })
    const e = await failure(t.request(get))
    expect(seen).toHaveLength(1)
    expect(sleeps).toStrictEqual([125])
    expect(e.message).toBe(
      'GET /x failed: HTTP 503; gave up after 1 attempt in 0.1 s (retry budget 5.0 s): the next attempt could not start in time (the rate limit allows it 10 s from now)'
    )
    expect(e).toMatchObject({ status: 503, attempts: 1 })
  })
})

describe('a wait ended at once', () => {
  it.each([
    ['close()', 'the client was closed'],
    ["the caller's signal", 'a sibling failed']
  ])(
    '%s ends a retry that waits for its backoff: cancelled with its reason, never sent again',
    async (by, reason) => {
      const { seen, baseUrl } = await serve(json(503, {}))
      const { clock, waits } = gatedClock()
      const { t } = transport(baseUrl, { clock })
      const stop = new AbortController()
      const pending = failure(t.request(get, by === 'close()' ? undefined : stop.signal))
      await until(() => waits.length === 1)
      if (by === 'close()') await t.close()
      else stop.abort(reason)
      expect(waits[0]!.signal?.aborted).toBe(true)
      const e = await pending
      expect(e).toBeInstanceOf(RequestCancelledError)
      expect(e.message).toBe(`GET /x cancelled: ${reason}`)
      expect(seen).toHaveLength(1)
      // Not even tried again (an attempt counts before it is sent).
      expect(t.stats.requests).toBe(1)
    }
  )

  it.each([
    ['a sibling failed', 'a sibling failed'],
    // A signal aborted without a reason of its own.
    [undefined, 'cancelled']
  ])(
    "a caller's signal (reason %p) cancels a retry in flight: the request is cancelled, not given up",
    async (reason, said) => {
      const { seen, baseUrl } = await serve(json(503, {}), hang)
      const { t } = transport(baseUrl)
      const stop = new AbortController()
      const pending = failure(t.request(get, stop.signal))
      await until(() => seen.length === 2)
      stop.abort(reason)
      const e = await pending
      expect(e).toBeInstanceOf(RequestCancelledError)
      expect(e.message).toBe(`GET /x cancelled: ${said}`)
    }
  )

  it('a request waiting for its turn under the rate limit is not sent once another finds the server unreachable', async () => {
    const { baseUrl } = await serve(json(200, {}))
    const { clock, waits } = gatedClock()
    // Two requests a window: the first goes alone, the second now, the third waits for the window.
    const { t } = transport(baseUrl, { clock, maxAttempts: 1, rateLimit: { requests: 2, windowMs: 10_000 } })
    await t.request(get)
    await new Promise(resolve => servers.pop()!.close(resolve).closeAllConnections())
    const refused = failure(t.request({ ...get, path: '/a' }))
    const waiting = failure(t.request({ ...get, path: '/b' }))
    const e = await refused
    expect(e.message).toMatch(
      /^GET \/a failed: connection failed \(ECONNREFUSED[^)]*\); gave up after 1 attempt/
    )
    expect(waits).toHaveLength(1)
    expect(await waiting).toMatchObject({
      message: `GET /b not sent: an earlier request could not reach the server (${e.message})`
    })
  })

  it('a retry waiting for its backoff stops when another request finds the server unreachable', async () => {
    const { seen, baseUrl } = await serve(json(503, {}))
    const { clock, waits } = gatedClock()
    const { t } = transport(baseUrl, { clock, retryBudgetMs: 1000 })
    const waiting = failure(t.request(get))
    await until(() => waits.length === 1)
    // The server goes away while the first request waits: the next one is refused until it gives up
    // (its own waits pass at once).
    await new Promise(resolve => servers.pop()!.close(resolve).closeAllConnections())
    let settled = false
    const next = failure(t.request({ ...get, path: '/y' })).finally(() => (settled = true))
    for (let released = 1; !settled;) {
      await until(() => settled || waits.length > released)
      while (released < waits.length) waits[released++]!.release()
    }
    const refused = await next
    expect(refused.message).toMatch(
      /^GET \/y failed: connection failed \(ECONNREFUSED[^)]*\); gave up after 4 attempts in 0\.9 s \(retry budget 1\.0 s\)$/
    )
    expect(waits[0]!.signal?.aborted).toBe(true)
    const e = await waiting
    expect(e).toBeInstanceOf(ApiError)
    expect(e.message).toBe(
      `GET /x not sent: an earlier request could not reach the server (${refused.message})`
    )
    expect(seen).toHaveLength(1)
  })
})
