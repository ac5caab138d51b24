/**
 * The transport when the connection itself fails or stalls: a reset before any answer means nothing is
 * reachable, TLS to a plain HTTP port is never retried, a refused create is safe to send again, a retry
 * waits for its answer no longer than the budget has left (a create's retry keeps its whole timeout),
 * and the connections it opens to one server are capped.
 */
import type { Socket } from 'node:net'
import { afterEach, describe, expect, it } from '@jest/globals'
import { ApiError, UnknownOutcomeError } from '../../src/api/errors.js'
import {
  closeAll,
  failure,
  hang,
  json,
  serve,
  servers,
  transport,
  type Answer
} from '../support/transport.js'

afterEach(closeAll)

const get = { method: 'GET', path: '/x', idempotent: true } as const
/** Closes the connection instead of answering. */
const reset: Answer = res => res.socket?.destroy()

describe('a connection that fails', () => {
  it('reset before anything has answered: the server counts as unreachable, and later requests are not sent', async () => {
    const { seen, baseUrl } = await serve(reset)
    const { t } = transport(baseUrl, { connectBudgetMs: 1000 })
    const e = await failure(t.request(get))
    expect(e.message).toMatch(
      /^GET \/x failed: connection failed \([^)]*\); gave up after 4 attempts in 0\.9 s \(connect budget 1\.0 s\)\. Nothing has answered/
    )
    const sent = seen.length
    const next = await failure(t.request({ ...get, path: '/y' }))
    expect(next.message).toBe(`GET /y not sent: an earlier request could not reach the server (${e.message})`)
    expect(seen).toHaveLength(sent)
  })

  it('reset after the server has answered: only that request fails, the next one is sent', async () => {
    const { seen, baseUrl } = await serve(json(200, {}), reset, json(200, { ok: true }))
    const { t } = transport(baseUrl, { maxAttempts: 1 })
    await t.request(get)
    const e = await failure(t.request(get))
    expect(e.message).toMatch(
      /^GET \/x failed: connection failed \([^)]*\); gave up after 1 attempt in 0\.0 s \(retry budget 5\.0 s\)$/
    )
    expect((await t.request({ ...get, path: '/y' })).body).toStrictEqual({ ok: true })
    expect(seen.map(s => s.url)).toStrictEqual(['/api/v2/x', '/api/v2/x', '/api/v2/y'])
  })

  it('https to a port that speaks plain HTTP: one attempt, no retry, and a hint that says so', async () => {
    const { port, server } = await serve(json(200, {}))
    let connections = 0
    server.on('connection', () => connections++)
    const { t, sleeps } = transport(`https://127.0.0.1:${port}/api/v2`)
    const e = await failure(t.request(get))
    expect(e.message).toMatch(
      /^GET \/x failed: connection failed \((ERR_SSL_|EPROTO)[A-Z_]*\)\. The server answered in plain HTTP, not TLS/
    )
    expect(e.hint).toMatch(/^The server answered in plain HTTP, not TLS/)
    expect(e.attempts).toBe(1)
    expect(sleeps).toStrictEqual([])
    expect(connections).toBe(1)
  })

  it('a refused create never left this machine: it is sent again, and the error is no unknown outcome', async () => {
    const { baseUrl } = await serve(json(200, {}))
    await new Promise(resolve => servers.pop()!.close(resolve))
    const { t, sleeps } = transport(baseUrl, { connectBudgetMs: 1000 })
    const e = await failure(t.request({ method: 'POST', path: '/x', body: {}, idempotent: false }))
    expect(e).not.toBeInstanceOf(UnknownOutcomeError)
    expect(e).toBeInstanceOf(ApiError)
    expect(sleeps).toStrictEqual([125, 250, 500])
    expect(e.attempts).toBe(4)
  })
})

describe('how long a retry waits for its answer', () => {
  it('a retry that is safe to repeat waits no longer than the retry budget has left', async () => {
    // 503, a 125 ms backoff, then no answer: the retry's timeout is the 200 ms left of 325, not 30 s.
    const { seen, baseUrl } = await serve(json(503, {}), hang)
    const { t } = transport(baseUrl, { retryBudgetMs: 325 })
    const e = await failure(t.request(get))
    expect(seen).toHaveLength(2)
    expect(e.message).toBe(
      'GET /x failed: no response within 0.2 s (request-timeout 30 s, cut to what the retry budget had left); gave up after 2 attempts in 0.1 s (retry budget 0.3 s)'
    )
  })

  it('a create sent again after a 429 keeps its whole timeout, whatever the budget has left', async () => {
    // The 429 asks for 900 ms of a 1000 ms budget: 100 ms would be left, the timeout is 200.
    const { seen, baseUrl } = await serve(json(429, {}, { 'retry-after': '0.9' }), hang)
    const { t } = transport(baseUrl, { retryBudgetMs: 1000, requestTimeoutMs: 200 })
    const e = await failure(t.request({ method: 'POST', path: '/x', body: {}, idempotent: false }))
    expect(e).toBeInstanceOf(UnknownOutcomeError)
    expect(e.message).toMatch(/^POST \/x outcome unknown \(no response within 0\.2 s \(request-timeout\)\)/)
    expect(seen).toHaveLength(2)
  })
})

describe('connections', () => {
  it('at most 32 connections to one server by default, and as many as maxConnections says', async () => {
    const socketsFor = async (maxConnections?: number) => {
      const { server, baseUrl } = await serve(json(200, {}))
      const sockets = new Set<Socket>()
      server.on('connection', (s: Socket) => sockets.add(s))
      const { t } = transport(baseUrl, { maxConnections })
      await Promise.all(Array.from({ length: 40 }, () => t.request(get)))
      return sockets.size
    }
    expect(await socketsFor()).toBe(32)
    expect(await socketsFor(2)).toBe(2)
  })
})
