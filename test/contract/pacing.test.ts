/**
 * Client-side pacing against the emulator's real (sliding window, per key) limiter, scaled down so the test
 * takes seconds: a paced burst sees no 429 at all, and the same burst without pacing does, so the test would
 * notice if pacing broke.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { ApiError } from '../../src/api/errors.js'
import type { Emulator } from '../../emulator/index.js'
import { ApiPool, emulatorSettings, startEmu } from './helpers.js'

const LIMIT = { requests: 10, windowMs: 300 }
const BURST = 60

let emu: Emulator
const pool = new ApiPool()

beforeEach(async () => {
  emu = await startEmu({ rateLimits: { managed: LIMIT, selfHosted: LIMIT } })
})

afterEach(async () => {
  await pool.closeAll()
  await emu.close()
})

const limited = () => emu.requestLog.filter(e => e.status === 429 || e.rateLimited).length

describe('pacing against the real limits', () => {
  it(`managed: ${BURST} concurrent requests paced at ${LIMIT.requests}/${LIMIT.windowMs} ms all succeed with zero 429s`, async () => {
    const api = pool.make(
      emulatorSettings(emu, 'managed/observability', { rateLimit: LIMIT, retryBudgetMs: 0 })
    )
    const results = await Promise.all(Array.from({ length: BURST }, () => api.listSources()))
    expect(results.every(r => r.length === 3)).toBe(true)
    expect(emu.requestLog).toHaveLength(BURST)
    expect(limited()).toBe(0)
    expect(api.stats.rateLimited).toBe(0)
    // Never more than the limit in any server window.
    const times = emu.requestLog.map(e => e.time).sort((a, b) => a - b)
    for (let i = LIMIT.requests; i < times.length; i++) {
      expect(times[i]! - times[i - LIMIT.requests]!).toBeGreaterThan(LIMIT.windowMs)
    }
  })

  it('managed: the same burst without client pacing does get 429s from the server', async () => {
    const api = pool.make(
      emulatorSettings(emu, 'managed/observability', { rateLimit: null, retryBudgetMs: 0 })
    )
    const results = await Promise.allSettled(Array.from({ length: BURST }, () => api.listSources()))
    const refused = results.filter(r => r.status === 'rejected')
    expect(limited()).toBeGreaterThan(0)
    expect(refused.length).toBe(limited())
    for (const r of refused) expect(((r as PromiseRejectedResult).reason as ApiError).status).toBe(429)
  })

  it('self-hosted: a paced sequential run of 15 requests sees no 429 either', async () => {
    const api = pool.make(emulatorSettings(emu, 'self-hosted', { rateLimit: LIMIT, retryBudgetMs: 0 }))
    for (let i = 0; i < 15; i++) await api.listDashboards()
    expect(emu.requestLog).toHaveLength(15)
    expect(limited()).toBe(0)
  })
})
