import { describe, expect, it } from '@jest/globals'
import { Pacer, type Clock } from '../../src/api/pacer.js'

/** Time moves only when the pacer sleeps; every sleep is recorded. */
class JumpClock implements Clock {
  readonly sleeps: number[] = []
  constructor(public time = 1_000_000) {}
  now(): number {
    return this.time
  }
  async sleep(ms: number): Promise<void> {
    this.sleeps.push(ms)
    this.time += Math.max(0, ms)
    await new Promise(resolve => setImmediate(resolve))
  }
}

async function starts(pacer: Pacer, clock: JumpClock, count: number): Promise<number[]> {
  const times: number[] = []
  for (let i = 0; i < count; i++) {
    await pacer.acquire()
    times.push(clock.now())
  }
  return times
}

/** The most starts found in any window of `windowMs` (a window [t, t + windowMs) starting at each start). */
function busiestWindow(times: number[], windowMs: number): number {
  let most = 0
  for (const t of times) most = Math.max(most, times.filter(u => u >= t && u < t + windowMs).length)
  return most
}

describe('Pacer', () => {
  it.each([
    [10, 10_000],
    [100, 60_000],
    [3, 300]
  ])('never starts more than %i requests in any window of %i ms', async (requests, windowMs) => {
    const clock = new JumpClock()
    const pacer = new Pacer({ requests, windowMs }, clock)
    const times = await starts(pacer, clock, requests * 3 + 2)
    expect(busiestWindow(times, windowMs)).toBe(requests)
    // Not only within the window: with the margin for the trip to the server (2% plus 100 ms).
    for (let i = requests; i < times.length; i++) {
      expect(times[i]! - times[i - requests]!).toBeGreaterThanOrEqual(windowMs * 1.02 + 100)
    }
  })

  it('lets the first N start at once and does not wait much longer than the window for the next', async () => {
    const clock = new JumpClock()
    const pacer = new Pacer({ requests: 5, windowMs: 1000 }, clock)
    const times = await starts(pacer, clock, 6)
    expect(times.slice(0, 5).every(t => t === times[0])).toBe(true)
    expect(times[5]! - times[0]!).toBeGreaterThan(1000)
    expect(times[5]! - times[0]!).toBeLessThanOrEqual(1200)
  })

  it('requests that ask at once start in the order they asked, within the limit', async () => {
    const clock = new JumpClock()
    const pacer = new Pacer({ requests: 2, windowMs: 100 }, clock)
    const order: number[] = []
    const times: number[] = []
    await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        pacer.acquire().then(() => {
          order.push(i)
          times.push(clock.now())
        })
      )
    )
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6])
    expect(busiestWindow(times, 100)).toBe(2)
  })

  it('a slot frees up as soon as the oldest start leaves the window', async () => {
    const clock = new JumpClock()
    const pacer = new Pacer({ requests: 2, windowMs: 1000 }, clock)
    await pacer.acquire()
    clock.time += 500
    await pacer.acquire()
    clock.time += 200
    await pacer.acquire()
    // The first start is 700 ms old: it leaves the (1000 * 1.02 + 100) ms window in 420 ms.
    expect(clock.sleeps).toEqual([420])
  })

  it('without a limit never waits', async () => {
    const clock = new JumpClock()
    const pacer = new Pacer(null, clock)
    await starts(pacer, clock, 500)
    expect(clock.sleeps).toEqual([])
  })

  it('pause(until) holds every request until then, even without a limit', async () => {
    const clock = new JumpClock()
    const pacer = new Pacer(null, clock)
    const until = clock.now() + 1500
    pacer.pause(until)
    const times = await starts(pacer, clock, 3)
    expect(times).toEqual([until, until, until])
    expect(clock.sleeps).toEqual([1500])
  })

  it('an earlier pause does not shorten a later one', async () => {
    const clock = new JumpClock()
    const pacer = new Pacer({ requests: 10, windowMs: 1000 }, clock)
    const t0 = clock.now()
    pacer.pause(t0 + 800)
    pacer.pause(t0 + 100)
    await pacer.acquire()
    expect(clock.now()).toBe(t0 + 800)
  })

  it('a pause that has passed costs nothing', async () => {
    const clock = new JumpClock()
    const pacer = new Pacer({ requests: 10, windowMs: 1000 }, clock)
    pacer.pause(clock.now() - 1)
    await pacer.acquire()
    expect(clock.sleeps).toEqual([])
  })

  it('a pause and the window both hold: the request starts when both allow', async () => {
    const clock = new JumpClock()
    const pacer = new Pacer({ requests: 1, windowMs: 1000 }, clock)
    const t0 = clock.now()
    await pacer.acquire()
    pacer.pause(t0 + 300)
    await pacer.acquire()
    expect(clock.now()).toBe(t0 + 1120)
  })

  it('with the real clock, a short pause really waits', async () => {
    const pacer = new Pacer({ requests: 100, windowMs: 60_000 })
    const started = Date.now()
    pacer.pause(started + 120)
    await pacer.acquire()
    expect(Date.now() - started).toBeGreaterThanOrEqual(110)
  })
})
