/**
 * One request through the transport (src/api/transport.ts) against a loopback server that answers as
 * each test scripts it, with a clock whose sleeps only move its time: the request sent (method, path,
 * query, headers, body), the answer parsed, which failures are retried and how long it waits, and the
 * errors the caller sees (given up with attempts and budget, unknown outcome, unreachable, cancelled),
 * never with the credential in them.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { ApiError, RequestCancelledError, UnknownOutcomeError } from '../../src/api/errors.js'
import { silentLogger } from '../../src/log.js'
import { VERSION } from '../../src/version.js'
import {
  closeAll,
  failure,
  hang,
  json,
  raw,
  serve,
  servers,
  transport,
  until,
  type Answer
} from '../support/transport.js'

afterEach(closeAll)

describe('the request sent', () => {
  it('method, path below the base URL, query, JSON body with its content type, the credential and the tool', async () => {
    const { seen, baseUrl } = await serve(json(201, { id: 'd1' }))
    const { t } = transport(baseUrl)
    const res = await t.request({
      method: 'POST',
      path: '/dashboards',
      query: { q: 'a b&c', limit: 2 },
      body: { name: 'Cart', tiles: [] },
      idempotent: false
    })
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/api/v2/dashboards?q=a+b%26c&limit=2' })
    expect(JSON.parse(seen[0]!.body)).toStrictEqual({ name: 'Cart', tiles: [] })
    expect(seen[0]!.headers).toMatchObject({
      accept: 'application/json',
      'user-agent': `observability-deploy/${VERSION}`,
      authorization: 'Bearer sekret-key-123',
      'content-type': 'application/json'
    })
    expect(res).toMatchObject({ status: 201, body: { id: 'd1' }, path: '/dashboards', method: 'POST' })
    expect(res.headers['content-type']).toBe('application/json')
    expect(t.stats).toStrictEqual({ requests: 1, retries: 0, rateLimited: 0 })
  })

  it('a request without a body has no content type and no query string; Basic auth sends id:secret in base64', async () => {
    const { seen, baseUrl } = await serve(json(200, []))
    const { t } = transport(baseUrl, {
      auth: { kind: 'basic', keyId: 'kid', keySecret: 'ksecret' },
      mode: 'managed'
    })
    await t.request({ method: 'GET', path: '/sources', idempotent: true })
    expect(seen[0]!.url).toBe('/api/v2/sources')
    expect(seen[0]!.body).toBe('')
    expect(seen[0]!.headers['content-type']).toBeUndefined()
    expect(seen[0]!.headers.authorization).toBe(`Basic ${Buffer.from('kid:ksecret').toString('base64')}`)
  })

  it('no credential, no authorization header', async () => {
    const { seen, baseUrl } = await serve(json(200, {}))
    const { t } = transport(baseUrl, { auth: { kind: 'none' } })
    await t.request({ method: 'GET', path: '/x', idempotent: true })
    expect(seen[0]!.headers.authorization).toBeUndefined()
  })
})

describe('the answer parsed', () => {
  const bodyOf = async (answer: Answer) => {
    const { baseUrl } = await serve(answer)
    const { t } = transport(baseUrl)
    return (await t.request({ method: 'GET', path: '/x', idempotent: true })).body
  }

  it('JSON by its content type, or by its look without one; anything else as text; nothing as undefined', async () => {
    expect(await bodyOf(json(200, { a: [1] }))).toStrictEqual({ a: [1] })
    expect(await bodyOf(raw(200, '[1,2]', { 'content-type': 'text/plain' }))).toStrictEqual([1, 2])
    expect(await bodyOf(raw(200, '  {"a":1}'))).toStrictEqual({ a: 1 })
    expect(await bodyOf(raw(200, 'ok', { 'content-type': 'text/plain' }))).toBe('ok')
    // JSON that neither its type nor its first character announces stays text.
    expect(await bodyOf(raw(200, '42', { 'content-type': 'text/plain' }))).toBe('42')
    expect(await bodyOf(raw(200, '"[x]"'))).toBe('"[x]"')
    expect(await bodyOf(raw(200, 'x{"a":1}'))).toBe('x{"a":1}')
    expect(await bodyOf(raw(200, '{not json', { 'content-type': 'application/json' }))).toBe('{not json')
    expect(await bodyOf(raw(200, '"quoted"', { 'content-type': 'application/json' }))).toBe('quoted')
    expect(await bodyOf(raw(200, '', { 'content-type': 'application/json' }))).toBeUndefined()
    expect(await bodyOf(raw(200, '  ', { 'content-type': 'application/json' }))).toBe('  ')
  })
})

describe('what counts as success', () => {
  it.each([300, 308])(
    'only a 2xx: a redirect (%i) is an error that names its status, and is not followed',
    async status => {
      const { seen, baseUrl } = await serve(raw(status, '', { location: 'https://example.test/api/v2/x' }))
      const { t } = transport(baseUrl)
      const e = await failure(t.request({ method: 'POST', path: '/x', body: {}, idempotent: false }))
      expect(e).toBeInstanceOf(ApiError)
      expect(e).not.toBeInstanceOf(UnknownOutcomeError)
      expect(e.message).toBe(`POST /x failed: HTTP ${status}`)
      expect(e).toMatchObject({ status, attempts: 1 })
      expect(seen).toHaveLength(1)
    }
  )
})

describe('retries', () => {
  it('a 503 of a GET is sent again after the backoff; the caller gets the answer that came', async () => {
    const { seen, baseUrl } = await serve(
      json(503, { message: 'busy' }),
      json(503, {}),
      json(200, { ok: true })
    )
    const debug: string[] = []
    const { t, sleeps } = transport(baseUrl, { log: { ...silentLogger, debug: m => debug.push(m) } })
    const res = await t.request({ method: 'GET', path: '/x', idempotent: true })
    expect(res.body).toStrictEqual({ ok: true })
    expect(seen).toHaveLength(3)
    expect(sleeps).toStrictEqual([125, 250])
    expect(t.stats).toStrictEqual({ requests: 3, retries: 2, rateLimited: 0 })
    // Each answer and each retry in the debug log: what failed, the wait, the attempt that follows.
    expect(debug).toStrictEqual([
      expect.stringMatching(/^GET \/x -> HTTP 503, \d+ bytes$/),
      'GET /x: HTTP 503; retrying in 0.1 s (attempt 2)',
      expect.stringMatching(/^GET \/x -> HTTP 503, \d+ bytes$/),
      'GET /x: HTTP 503; retrying in 0.3 s (attempt 3)',
      expect.stringMatching(/^GET \/x -> HTTP 200, \d+ bytes$/)
    ])
  })

  it('the wait the server asks for (Retry-After) replaces the backoff', async () => {
    const { baseUrl } = await serve(json(503, {}, { 'retry-after': '2' }), json(200, {}))
    const { t, sleeps } = transport(baseUrl)
    await t.request({ method: 'PUT', path: '/x', body: {}, idempotent: true })
    expect(sleeps).toStrictEqual([2000])
  })

  it('a 429 was refused before processing: even a create is sent again, and it counts as rate limited', async () => {
    const { seen, baseUrl } = await serve(json(429, {}, { 'retry-after': '1' }), json(201, { id: 'n1' }))
    const { t, sleeps } = transport(baseUrl)
    const res = await t.request({ method: 'POST', path: '/x', body: { a: 1 }, idempotent: false })
    expect(res.body).toStrictEqual({ id: 'n1' })
    expect(seen.map(s => s.body)).toStrictEqual(['{"a":1}', '{"a":1}'])
    expect(sleeps).toStrictEqual([1000])
    expect(t.stats).toStrictEqual({ requests: 2, retries: 1, rateLimited: 1 })
  })

  it('a 503 of a create is never sent again: its outcome is unknown to the caller', async () => {
    const { seen, baseUrl } = await serve(json(503, { message: 'oops' }), json(201, {}))
    const { t } = transport(baseUrl)
    const e = await failure(t.request({ method: 'POST', path: '/dashboards', body: {}, idempotent: false }))
    expect(e).toBeInstanceOf(UnknownOutcomeError)
    expect(e.message).toBe(
      'POST /dashboards outcome unknown (HTTP 503); it may or may not have been applied: oops'
    )
    expect(e).toMatchObject({ status: 503, attempts: 1 })
    expect(seen).toHaveLength(1)
  })

  it('an error that is no transient one (400) is not sent again: the server message, request id and attempts', async () => {
    const { seen, baseUrl } = await serve(
      json(400, { message: 'name is required' }, { 'x-request-id': 'req-7' }),
      json(200, {})
    )
    const { t } = transport(baseUrl)
    const e = await failure(t.request({ method: 'PUT', path: '/x/1', body: {}, idempotent: true }))
    expect(e).toBeInstanceOf(ApiError)
    expect(e).not.toBeInstanceOf(UnknownOutcomeError)
    expect(e).toMatchObject({
      status: 400,
      attempts: 1,
      serverMessage: 'name is required',
      bodyShape: 'json'
    })
    expect(e.requestId).toBe('req-7')
    expect(e.message).toBe('PUT /x/1 failed: HTTP 400: name is required (requestId req-7)')
    expect(seen).toHaveLength(1)
    expect(t.stats.retries).toBe(0)
  })

  it('gives up after the most attempts, saying how many, in how long, within which budget', async () => {
    const { seen, baseUrl } = await serve(json(503, { message: 'still busy' }))
    const { t } = transport(baseUrl, { maxAttempts: 3 })
    const e = await failure(t.request({ method: 'GET', path: '/x', idempotent: true }))
    expect(seen).toHaveLength(3)
    expect(e.message).toBe(
      'GET /x failed: HTTP 503; gave up after 3 attempts in 0.4 s (retry budget 5.0 s): still busy'
    )
    expect(e).toMatchObject({ status: 503, attempts: 3 })
  })

  it('gives up once the next wait would pass the retry budget', async () => {
    const { seen, baseUrl } = await serve(json(503, {}))
    const { t, sleeps } = transport(baseUrl, { retryBudgetMs: 1000 })
    const e = await failure(t.request({ method: 'GET', path: '/x', idempotent: true }))
    // 125 + 250 + 500 = 875 ms waited; the next 1000 would end past 1000.
    expect(sleeps).toStrictEqual([125, 250, 500])
    expect(seen).toHaveLength(4)
    expect(e.message).toBe('GET /x failed: HTTP 503; gave up after 4 attempts in 0.9 s (retry budget 1.0 s)')
  })

  it('a wait that ends exactly at the budget is still taken', async () => {
    const { seen, baseUrl } = await serve(json(503, {}))
    const { t, sleeps } = transport(baseUrl, { retryBudgetMs: 875 })
    await failure(t.request({ method: 'GET', path: '/x', idempotent: true }))
    expect(sleeps).toStrictEqual([125, 250, 500])
    expect(seen).toHaveLength(4)
  })

  it('a server asking for a wait that fits the budget: when the attempts run out, that is no reason given', async () => {
    const { baseUrl } = await serve(json(503, {}, { 'retry-after': '5' }))
    const { t } = transport(baseUrl, { maxAttempts: 1, retryBudgetMs: 5000 })
    const e = await failure(t.request({ method: 'GET', path: '/x', idempotent: true }))
    expect(e.message).toBe('GET /x failed: HTTP 503; gave up after 1 attempt in 0.0 s (retry budget 5.0 s)')
  })

  it('a server asking to wait past the budget is given up on at once, and the message says why', async () => {
    const { seen, baseUrl } = await serve(json(503, {}, { 'retry-after': '60' }))
    const { t, sleeps } = transport(baseUrl)
    const e = await failure(t.request({ method: 'GET', path: '/x', idempotent: true }))
    expect(seen).toHaveLength(1)
    expect(sleeps).toStrictEqual([])
    expect(e.message).toBe(
      'GET /x failed: HTTP 503; gave up after 1 attempt in 0.0 s; the server asked to wait 60 s, beyond the retry budget of 5.0 s'
    )
  })
})

describe('errors the caller sees', () => {
  it('a credential the server echoes is masked; a 401 says which credential this mode expects', async () => {
    const { baseUrl } = await serve(json(401, { message: 'bad key sekret-key-123' }))
    const { t } = transport(baseUrl)
    const e = await failure(t.request({ method: 'GET', path: '/x', idempotent: true }))
    expect(e.message).not.toContain('sekret-key-123')
    expect(e.serverMessage).not.toContain('sekret-key-123')
    expect(e.serverMessage).toMatch(/^bad key /)
    expect(e.hint).toMatch(/^The self-hosted API expects a personal API access key as a Bearer token/)
  })

  it('managed mode: a server that echoes the Basic header, the key id or the secret shows none of them', async () => {
    const header = `Basic ${Buffer.from('key-id-77:key-secret-99').toString('base64')}`
    const { baseUrl } = await serve(
      json(403, { message: `refused ${header} for key-id-77, secret key-secret-99` })
    )
    const { t } = transport(baseUrl, {
      auth: { kind: 'basic', keyId: 'key-id-77', keySecret: 'key-secret-99' },
      mode: 'managed'
    })
    const e = await failure(t.request({ method: 'PUT', path: '/x', body: {}, idempotent: true }))
    expect(e.serverMessage).toBe('refused Basic *** for ***, secret ***')
    expect(e.message).toContain('refused Basic *** for ***, secret ***')
    expect(e.hint).toMatch(/^The API key is valid but its role may not change this\. Changing dashboards/)
  })

  it('a server nobody reaches: retried within the connect budget, then every later request fails unsent', async () => {
    const { baseUrl } = await serve(json(200, {}))
    await new Promise(resolve => servers.pop()!.close(resolve))
    const { t, sleeps } = transport(baseUrl, { connectBudgetMs: 1000 })
    const e = await failure(t.request({ method: 'GET', path: '/x', idempotent: true }))
    expect(sleeps).toStrictEqual([125, 250, 500])
    expect(e.message).toMatch(
      /^GET \/x failed: connection failed \(ECONNREFUSED[^)]*\); gave up after 4 attempts in 0\.9 s \(connect budget 1\.0 s\)\. Nothing has answered at this address yet/
    )
    const requests = t.stats.requests
    const next = await failure(t.request({ method: 'POST', path: '/y', body: {}, idempotent: false }))
    expect(next.message).toBe(
      `POST /y not sent: an earlier request could not reach the server (${e.message})`
    )
    expect(t.stats.requests).toBe(requests)
  })

  it('once the server has answered, a connection failure draws on the retry budget, not the connect budget', async () => {
    const { baseUrl } = await serve(json(200, {}))
    const { t } = transport(baseUrl, { connectBudgetMs: 100_000, retryBudgetMs: 1000 })
    await t.request({ method: 'GET', path: '/x', idempotent: true })
    await new Promise(resolve => servers.pop()!.close(resolve).closeAllConnections())
    const e = await failure(t.request({ method: 'GET', path: '/x', idempotent: true }))
    expect(e.message).toMatch(
      /^GET \/x failed: connection failed \(ECONNREFUSED[^)]*\); gave up after \d+ attempts in 0\.9 s \(retry budget 1\.0 s\)$/
    )
  })

  it('a create with no answer in time has an unknown outcome, and is not sent again', async () => {
    const { seen, baseUrl } = await serve(hang)
    const { t } = transport(baseUrl, { requestTimeoutMs: 200 })
    const e = await failure(t.request({ method: 'POST', path: '/x', body: {}, idempotent: false }))
    expect(e).toBeInstanceOf(UnknownOutcomeError)
    expect(e.message).toMatch(/^POST \/x outcome unknown \(no response within 0\.2 s \(request-timeout\)\)/)
    expect(seen).toHaveLength(1)
  })

  it.each([
    ['GET', true],
    ['POST', false]
  ] as const)(
    "a caller's signal cancels a %s in flight, with its reason (a create too: cancelled, not of unknown outcome)",
    async (method, idempotent) => {
      const { seen, baseUrl } = await serve(hang)
      // No timeout of its own to end it: only the signal can.
      const { t } = transport(baseUrl, { requestTimeoutMs: 600_000 })
      const stop = new AbortController()
      const pending = failure(t.request({ method, path: '/x', body: {}, idempotent }, stop.signal))
      await until(() => seen.length > 0)
      stop.abort('another request failed')
      const e = await pending
      expect(e).toBeInstanceOf(RequestCancelledError)
      expect(e.message).toBe(`${method} /x cancelled: another request failed`)
      expect(seen).toHaveLength(1)
    }
  )

  it('a request after close() is cancelled, not sent', async () => {
    const { seen, baseUrl } = await serve(json(200, {}))
    const { t } = transport(baseUrl)
    await t.close()
    const e = await failure(t.request({ method: 'GET', path: '/x', idempotent: true }))
    expect(e).toBeInstanceOf(RequestCancelledError)
    expect(e.message).toBe('GET /x cancelled: the client was closed')
    expect(seen).toHaveLength(0)
  })
})
