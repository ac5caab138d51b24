/**
 * Client-side pacing against the emulator's real (sliding window, per key) limiter: a paced burst sees no
 * 429 at all, and the same burst without pacing does, so the test would notice if pacing broke. The client's
 * pacer and the emulator's limiter run on one fake clock that moves only when the pacer waits, and only once
 * every request sent so far has been answered: each request arrives at the time it was sent, however slow
 * this machine is. (Under load, real time let requests bunch up on the way, and the test failed.)
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { ApiError } from '../../src/api/errors.js'
import type { Emulator } from '../../emulator/index.js'
import { ApiPool, emulatorSettings, LockstepClock, startEmu } from './helpers.js'

const LIMIT = { requests: 10, windowMs: 300 }
const BURST = 60

let emu: Emulator
let clock: LockstepClock
const pool = new ApiPool()

/**
 * A client on the lockstep clock, and `call`, which makes one request through it: the requests it has
 * sent, minus the calls that came back, are in flight.
 */
const paced = (settings: Parameters<ApiPool['make']>[0]) => {
  const api = pool.make(settings, { clock })
  let answered = 0
  clock.inFlight = () => api.stats.requests - answered
  const call = <T>(request: (a: typeof api) => Promise<T>): Promise<T> =>
    request(api).finally(() => answered++)
  return { api, call }
}

beforeEach(async () => {
  clock = new LockstepClock()
  emu = await startEmu({ rateLimits: { managed: LIMIT, selfHosted: LIMIT }, clock: () => clock.now() })
})

afterEach(async () => {
  await pool.closeAll()
  await emu.close()
})

const limited = () => emu.requestLog.filter(e => e.status === 429 || e.rateLimited).length

describe('pacing against the real limits', () => {
  it(`managed: ${BURST} concurrent requests paced at ${LIMIT.requests}/${LIMIT.windowMs} ms all succeed with zero 429s`, async () => {
    const { api, call } = paced(
      emulatorSettings(emu, 'managed/observability', { rateLimit: LIMIT, retryBudgetMs: 0 })
    )
    const results = await Promise.all(Array.from({ length: BURST }, () => call(a => a.listSources())))
    expect(results.every(r => r.length === 3)).toBe(true)
    expect(emu.requestLog).toHaveLength(BURST)
    expect(limited()).toBe(0)
    expect(api.stats.rateLimited).toBe(0)
    // Never more than the limit in any server window.
    const times = emu.requestLog.map(e => e.time).sort((a, b) => a - b)
    for (let i = LIMIT.requests; i < times.length; i++) {
      expect(times[i]! - times[i - LIMIT.requests]!).toBeGreaterThan(LIMIT.windowMs)
    }
    // And it waited (the pacer, not luck): the burst spans at least five windows.
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(5 * LIMIT.windowMs)
  })

  it('managed: the same burst without client pacing does get 429s from the server', async () => {
    const { call } = paced(
      emulatorSettings(emu, 'managed/observability', { rateLimit: null, retryBudgetMs: 0 })
    )
    const results = await Promise.allSettled(Array.from({ length: BURST }, () => call(a => a.listSources())))
    const refused = results.filter(r => r.status === 'rejected')
    // All at one instant: the first ten fit the window, the other fifty are refused.
    expect(limited()).toBe(BURST - LIMIT.requests)
    expect(refused.length).toBe(limited())
    for (const r of refused) expect(((r as PromiseRejectedResult).reason as ApiError).status).toBe(429)
  })

  it('self-hosted: a paced sequential run of 15 requests sees no 429 either', async () => {
    const { call } = paced(emulatorSettings(emu, 'self-hosted', { rateLimit: LIMIT, retryBudgetMs: 0 }))
    for (let i = 0; i < 15; i++) await call(a => a.listDashboards())
    expect(emu.requestLog).toHaveLength(15)
    expect(limited()).toBe(0)
  })
})
