import { describe, expect, it } from '@jest/globals'
import { Pacer } from '../../src/api/pacer.js'

const timers = () => process.getActiveResourcesInfo().filter(r => r === 'Timeout').length

describe('the pacer sends the first request alone', () => {
  it('holds the second request until the first is answered, then lets it go', async () => {
    const pacer = new Pacer({ requests: 100, windowMs: 60_000 }, undefined, true)
    const first = await pacer.acquire()
    let second: number | undefined
    const waiting = pacer.acquire().then(t => (second = t))
    await new Promise(resolve => setImmediate(resolve))
    expect(second).toBeUndefined()
    pacer.observe(first, { remaining: 50, resetAt: Date.now() + 60_000 })
    await waiting
    expect(second).toBe(1)
  })

  it('leaves no timer behind once the first answer came (a pending one keeps the process alive)', async () => {
    const before = timers()
    const pacer = new Pacer({ requests: 100, windowMs: 60_000 }, undefined, true)
    const first = await pacer.acquire()
    const next = pacer.acquire()
    pacer.observe(first, undefined)
    await next
    expect(timers()).toBe(before)
  })

  it('does not start more than the server said it has left before its reset', async () => {
    const pacer = new Pacer(null, undefined, true)
    const t0 = await pacer.acquire()
    pacer.observe(t0, { remaining: 1, resetAt: Date.now() + 150 })
    const started = Date.now()
    await pacer.acquire() // the one request the server has left
    await pacer.acquire() // over: waits for the reset
    expect(Date.now() - started).toBeGreaterThanOrEqual(100)
  })
})
