import { describe, expect, it } from '@jest/globals'
import {
  backoffMs,
  DEFAULT_BACKOFF,
  isRetryableStatus,
  RETRYABLE_STATUSES,
  serverBudget,
  serverDelayMs
} from '../../src/api/retry.js'

const NOW = 1_700_000_000_000 // a whole second
const unix = (deltaSeconds: number) => String(NOW / 1000 + deltaSeconds)

describe('serverDelayMs: how long the server asks us to wait', () => {
  it.each([
    ['Retry-After in seconds', { 'retry-after': '120' }, 120_000],
    ['Retry-After 0', { 'retry-after': '0' }, 0],
    ['Retry-After with a fraction', { 'retry-after': '1.5' }, 1500],
    ['a negative Retry-After', { 'retry-after': '-5' }, 0],
    [
      'Retry-After as an HTTP-date 30 s ahead',
      { 'retry-after': new Date(NOW + 30_000).toUTCString() },
      30_000
    ],
    ['Retry-After as an HTTP-date in the past', { 'retry-after': new Date(NOW - 30_000).toUTCString() }, 0],
    ['a repeated Retry-After (first wins)', { 'retry-after': ['3', '9'] }, 3000],
    ['RateLimit-Reset as delta seconds', { 'ratelimit-reset': '7' }, 7000],
    // The managed cloud's X-RateLimit-Reset gets a second more (the ClickHouse provider's margin).
    ['X-RateLimit-Reset as delta seconds, plus 1 s', { 'x-ratelimit-reset': '12' }, 13_000],
    ['X-RateLimit-Reset as a Unix time, plus 1 s', { 'x-ratelimit-reset': unix(30) }, 31_000],
    ['RateLimit-Reset as a Unix time', { 'ratelimit-reset': unix(4) }, 4000],
    ['a Unix time already past: the margin alone', { 'x-ratelimit-reset': unix(-10) }, 1000],
    ['the structured RateLimit header', { ratelimit: 'limit=100, remaining=0, reset=12' }, 12_000],
    ['the structured header with ; and a fraction', { ratelimit: 'limit=10;remaining=0;reset=2.5' }, 2500],
    ['the structured header with reset first', { ratelimit: 'reset=3, limit=10' }, 3000],
    ['the structured header with two decimals', { ratelimit: 'limit=10, reset=2.25' }, 2250],
    ['the newer structured form, t= for the reset', { ratelimit: '"default";r=0;t=50' }, 50_000],
    // The rule is "over a billion is a Unix time": a billion itself is still delta seconds.
    ['a reset of exactly a billion seconds', { 'ratelimit-reset': '1000000000' }, 1e12]
  ])('%s', (_what, headers, expected) => {
    expect(serverDelayMs(headers, NOW)).toBe(expected)
  })

  it('Retry-After wins over the reset headers', () => {
    expect(
      serverDelayMs({ 'retry-after': '2', 'ratelimit-reset': '50', 'x-ratelimit-reset': '60' }, NOW)
    ).toBe(2000)
  })

  it('RateLimit-Reset wins over X-RateLimit-Reset, which wins over the structured header', () => {
    expect(
      serverDelayMs({ 'ratelimit-reset': '5', 'x-ratelimit-reset': '6', ratelimit: 'reset=7' }, NOW)
    ).toBe(5000)
    expect(serverDelayMs({ 'x-ratelimit-reset': '6', ratelimit: 'reset=7' }, NOW)).toBe(7000)
  })

  it('an unreadable Retry-After falls through to the reset headers', () => {
    expect(serverDelayMs({ 'retry-after': 'soon', 'ratelimit-reset': '4' }, NOW)).toBe(4000)
  })

  it.each([
    ['no headers', {}],
    ['an unreadable Retry-After alone', { 'retry-after': 'soon' }],
    ['an unreadable reset', { 'ratelimit-reset': 'abc' }],
    ['a structured header without reset', { ratelimit: 'limit=10, remaining=0' }],
    ['a "preset=" key is not "reset="', { ratelimit: 'limit=10, preset=5' }]
  ])('says nothing for %s', (_what, headers) => {
    expect(serverDelayMs(headers, NOW)).toBeUndefined()
  })
})

describe('serverBudget: what the server says is left in its window', () => {
  it.each([
    [
      'RateLimit-Remaining 0 with a delta reset',
      { 'ratelimit-remaining': '0', 'ratelimit-reset': '5' },
      5000
    ],
    [
      'X-RateLimit-Remaining 0 with a delta reset',
      { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1' },
      1000
    ],
    [
      'X-RateLimit-Remaining 0 with a Unix reset',
      { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': unix(10) },
      10_000
    ],
    ['a negative remaining count', { 'ratelimit-remaining': '-1', 'ratelimit-reset': '2' }, 2000]
  ])('%s', (_what, headers, expected) => {
    const budget = serverBudget(headers, NOW)
    expect(budget!.remaining).toBeLessThanOrEqual(0)
    expect(budget!.resetAt - NOW).toBe(expected)
  })

  it('counts the requests left until the reset', () => {
    expect(serverBudget({ 'ratelimit-remaining': '3', 'ratelimit-reset': '5' }, NOW)).toEqual({
      remaining: 3,
      resetAt: NOW + 5000
    })
  })

  it.each([
    ['no remaining header', { 'ratelimit-reset': '5' }],
    ['remaining 0 without a reset', { 'x-ratelimit-remaining': '0' }],
    ['an unreadable remaining count', { 'ratelimit-remaining': 'many', 'ratelimit-reset': '5' }],
    ['no headers', {}]
  ])('says nothing when %s', (_what, headers) => {
    expect(serverBudget(headers, NOW)).toBeUndefined()
  })
})

describe('backoffMs', () => {
  it('doubles from 250 ms, with equal jitter between half and all of the ceiling', () => {
    expect([0, 1, 2, 3].map(a => backoffMs(a, DEFAULT_BACKOFF, () => 0))).toEqual([125, 250, 500, 1000])
    expect([0, 1, 2, 3].map(a => backoffMs(a, DEFAULT_BACKOFF, () => 1))).toEqual([250, 500, 1000, 2000])
    expect(backoffMs(2, DEFAULT_BACKOFF, () => 0.5)).toBe(750)
  })

  it('never exceeds the cap of 20 s', () => {
    expect(backoffMs(30, DEFAULT_BACKOFF, () => 1)).toBe(20_000)
    expect(backoffMs(30, DEFAULT_BACKOFF, () => 0)).toBe(10_000)
  })

  it('stays within [ceiling/2, ceiling] with the real random source', () => {
    for (let attempt = 0; attempt < 8; attempt++) {
      const ceiling = Math.min(20_000, 250 * 2 ** attempt)
      for (let i = 0; i < 20; i++) {
        const delay = backoffMs(attempt)
        expect(delay).toBeGreaterThanOrEqual(ceiling / 2)
        expect(delay).toBeLessThanOrEqual(ceiling)
      }
    }
  })

  it('follows a custom policy', () => {
    expect(backoffMs(3, { baseMs: 10, maxMs: 50 }, () => 1)).toBe(50)
    expect(backoffMs(1, { baseMs: 10, maxMs: 50 }, () => 1)).toBe(20)
  })
})

describe('RETRYABLE_STATUSES', () => {
  it('are 429 and the gateway errors 502, 503, 504; never 500 or a 4xx', () => {
    expect([...RETRYABLE_STATUSES].sort()).toEqual([429, 502, 503, 504])
    for (const status of [400, 401, 403, 404, 409, 500, 501])
      expect(RETRYABLE_STATUSES.has(status)).toBe(false)
  })

  it('a 500 is retried on a GET only: a write that failed halfway may have been applied', () => {
    expect(isRetryableStatus(500, 'GET')).toBe(true)
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'])
      expect(isRetryableStatus(500, method)).toBe(false)
    expect(isRetryableStatus(503, 'PUT')).toBe(true)
    expect(isRetryableStatus(501, 'GET')).toBe(false)
  })
})
