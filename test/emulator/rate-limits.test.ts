import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import type { Emulator } from '../../emulator/index.js'
import { call, servicePath, start } from './helpers.js'

// FACTS.md: self-hosted 100 requests a minute per key with RateLimit-* headers; managed 10 per 10 s with
// X-RateLimit-*. Small windows keep these tests fast.

let emulator: Emulator
const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

beforeAll(async () => {
  emulator = await start({
    rateLimits: { selfHosted: { requests: 3, windowMs: 500 }, managed: { requests: 2, windowMs: 500 } }
  })
})

afterAll(async () => {
  await emulator.close()
})

describe('self-hosted rate limit', () => {
  test('every response carries RateLimit headers and the request over the limit is a 429 with Retry-After', async () => {
    emulator.clearLog()
    const answers = []
    for (let index = 0; index < 4; index++) answers.push(await call(emulator, 'GET', '/api/v2/dashboards'))
    expect(answers.map(answer => answer.status)).toEqual([200, 200, 200, 429])
    expect(answers.map(answer => answer.headers.get('ratelimit-remaining'))).toEqual(['2', '1', '0', '0'])
    for (const answer of answers) {
      expect(answer.headers.get('ratelimit-limit')).toBe('3')
      expect(answer.headers.get('ratelimit-reset')).toBe('1')
    }
    expect(answers[3].headers.get('retry-after')).toBe('1')
    expect(answers[3].json).toEqual({ message: 'Too many requests, please try again later.' })
    expect(emulator.requestLog.map(entry => entry.rateLimited ?? false)).toEqual([false, false, false, true])
  })

  test('rejected requests count too, and the limit is per key', async () => {
    await sleep(500)
    const invalid = await call(emulator, 'GET', '/api/v2/dashboards/not-an-id')
    expect(invalid.status).toBe(400)
    expect(invalid.headers.get('ratelimit-remaining')).toBe('2')
    await call(emulator, 'GET', '/api/v2/nowhere')
    await call(emulator, 'GET', '/api/v2/dashboards')
    expect((await call(emulator, 'GET', '/api/v2/dashboards')).status).toBe(429)
    // Another key has its own window (and is then refused as unknown).
    expect((await call(emulator, 'GET', '/api/v2/dashboards', { auth: 'Bearer other' })).status).toBe(401)
  })

  test('a paced client that waits RateLimit-Reset when nothing remains gets no 429', async () => {
    await sleep(500)
    const statuses: number[] = []
    for (let index = 0; index < 5; index++) {
      const answer = await call(emulator, 'GET', '/api/v2/sources')
      statuses.push(answer.status)
      if (index < 4 && answer.headers.get('ratelimit-remaining') === '0') {
        await sleep(Number(answer.headers.get('ratelimit-reset')) * 1000)
      }
    }
    expect(statuses.every(status => status === 200)).toBe(true)
  })
})

describe('managed rate limit', () => {
  test('every response carries X-RateLimit headers and the 429 body is TOO_MANY_REQUESTS', async () => {
    const path = servicePath(emulator, '/observability/dashboards')
    const answers = []
    for (let index = 0; index < 3; index++) answers.push(await call(emulator, 'GET', path))
    expect(answers.map(answer => answer.status)).toEqual([200, 200, 429])
    expect(answers.map(answer => answer.headers.get('x-ratelimit-remaining'))).toEqual(['1', '0', '0'])
    expect(answers[0].headers.get('x-ratelimit-limit')).toBe('2')
    expect(answers[2].headers.get('x-ratelimit-reset')).toBe('1')
    expect(answers[2].json).toEqual({ error: 'TOO_MANY_REQUESTS' })
    // The control plane shares the key's window.
    expect((await call(emulator, 'GET', servicePath(emulator))).status).toBe(429)
  })

  test('a paced managed client gets no 429', async () => {
    await sleep(500)
    const statuses: number[] = []
    for (let index = 0; index < 4; index++) {
      const answer = await call(emulator, 'GET', servicePath(emulator, '/clickstack/alerts'))
      statuses.push(answer.status)
      if (index < 3 && answer.headers.get('x-ratelimit-remaining') === '0') {
        await sleep(Number(answer.headers.get('x-ratelimit-reset')) * 1000)
      }
    }
    expect(statuses.every(status => status === 200)).toBe(true)
  })

  test('setRateLimits changes or turns off a mode at runtime', async () => {
    emulator.setRateLimits({ managed: false })
    for (let index = 0; index < 5; index++) {
      const answer = await call(emulator, 'GET', servicePath(emulator))
      expect(answer.status).toBe(200)
      expect(answer.headers.get('x-ratelimit-limit')).toBeNull()
    }
    expect((await call(emulator, 'GET', '/api/v2/sources')).headers.get('ratelimit-limit')).toBe('3')
  })
})
