import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals'
import type { Faults } from '../../emulator/faults.js'
import type { Emulator } from '../../emulator/index.js'
import { call, lineTile, servicePath, start } from './helpers.js'

let emulator: Emulator

beforeAll(async () => {
  emulator = await start({ randomSeed: 7 })
})

afterEach(() => {
  emulator.faults.clear()
})

afterAll(async () => {
  await emulator.close()
})

const newDashboard = { name: 'Faulty', tiles: [lineTile('a')] }
const lastLog = () => emulator.requestLog[emulator.requestLog.length - 1]

describe('faults by sequence', () => {
  test('429 carries Retry-After and then the request passes', async () => {
    emulator.faults.add({ path: '/api/v2/dashboards', sequence: ['429', 'ok'], retryAfterSeconds: 2 })
    const limited = await call(emulator, 'GET', '/api/v2/dashboards')
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('2')
    expect(limited.json).toEqual({ message: 'Too many requests, please try again later.' })
    expect(lastLog()).toMatchObject({ status: 429, fault: '429' })
    expect((await call(emulator, 'GET', '/api/v2/dashboards')).status).toBe(200)
    expect((await call(emulator, 'GET', '/api/v2/dashboards')).status).toBe(200)
  })

  test('500, 502 and 503 in order, then pass through; nothing is stored', async () => {
    emulator.faults.add({ method: 'POST', path: /^\/api\/v2\/dashboards$/, sequence: ['500', '502', '503'] })
    const before = emulator.selfHosted.dashboards.size
    const answers = []
    for (let index = 0; index < 4; index++)
      answers.push(await call(emulator, 'POST', '/api/v2/dashboards', { body: newDashboard }))
    expect(answers.map(answer => answer.status)).toEqual([500, 502, 503, 200])
    expect(answers[0].json).toEqual({ message: 'Internal Server Error' })
    expect(answers[1].headers.get('content-type')).toMatch(/text\/html/)
    expect(emulator.selfHosted.dashboards.size).toBe(before + 1)
  })

  test('managed faults use the managed shapes', async () => {
    emulator.faults.add({ path: '/observability/', sequence: ['429', '500'] })
    const limited = await call(emulator, 'GET', servicePath(emulator, '/observability/alerts'))
    expect(limited.json).toEqual({ error: 'TOO_MANY_REQUESTS' })
    expect(limited.headers.get('x-ratelimit-reset')).toBe('1')
    const failed = await call(emulator, 'GET', servicePath(emulator, '/observability/alerts'))
    expect(failed.json).toMatchObject({
      status: 500,
      error: expect.any(String),
      requestId: expect.any(String)
    })
  })

  test('reset destroys the connection before processing: the client errors and nothing is stored', async () => {
    emulator.faults.add({ method: 'POST', sequence: ['reset'] })
    const before = emulator.selfHosted.dashboards.size
    await expect(call(emulator, 'POST', '/api/v2/dashboards', { body: newDashboard })).rejects.toThrow()
    expect(emulator.selfHosted.dashboards.size).toBe(before)
    expect(lastLog()).toMatchObject({ method: 'POST', status: 'reset', fault: 'reset' })
  })

  test('commit-drop stores the dashboard while the client sees a socket error', async () => {
    emulator.faults.add({ method: 'POST', path: '/api/v2/dashboards', sequence: ['commit-drop'] })
    const before = emulator.selfHosted.dashboards.size
    await expect(
      call(emulator, 'POST', '/api/v2/dashboards', { body: { ...newDashboard, name: 'Dropped' } })
    ).rejects.toThrow()
    expect(emulator.selfHosted.dashboards.size).toBe(before + 1)
    expect([...emulator.selfHosted.dashboards.values()].some(dashboard => dashboard.name === 'Dropped')).toBe(
      true
    )
    expect(lastLog()).toMatchObject({ status: 'dropped', fault: 'commit-drop' })
  })

  test('delay outlasts the client timeout; a client that waits long enough gets a normal answer', async () => {
    // Held far longer than the client waits, so the client's timeout wins however loaded the machine is.
    emulator.faults.add({ method: 'POST', sequence: ['delay'], delayMs: 60_000 })
    const before = emulator.selfHosted.dashboards.size
    const logged = emulator.requestLog.length
    // The client gives up once the emulator holds its request, not after a fixed time: on a loaded machine a
    // fixed timeout can fire before the request arrives, and the emulator would then have nothing to log.
    const giveUp = new AbortController()
    const faults = emulator.faults as Faults
    const pick = faults.pick.bind(faults)
    faults.pick = (method, path) => {
      const fault = pick(method, path)
      if (fault?.kind === 'delay') setImmediate(() => giveUp.abort())
      return fault
    }
    try {
      await expect(
        call(emulator, 'POST', '/api/v2/dashboards', { body: newDashboard, signal: giveUp.signal })
      ).rejects.toThrow()
    } finally {
      faults.pick = pick
    }
    // The emulator logs the request once it notices the client left: wait for that, however long it takes.
    while (emulator.requestLog.length === logged) await new Promise(resolve => setTimeout(resolve, 10))
    expect(lastLog()).toMatchObject({ status: 'timeout', fault: 'delay' })
    expect(emulator.selfHosted.dashboards.size).toBe(before)

    emulator.faults.add({ method: 'GET', sequence: ['delay'], delayMs: 150 })
    const started = Date.now()
    const answer = await call(emulator, 'GET', '/api/v2/sources')
    expect(answer.status).toBe(200)
    expect(Date.now() - started).toBeGreaterThanOrEqual(140)
  })
})

describe('gather', () => {
  test('holds a request until the second of its group is there, then both are stored and answered', async () => {
    emulator.faults.add({ method: 'POST', path: /^\/api\/v2\/dashboards$/, sequence: ['gather', 'gather'] })
    const faults = emulator.faults as Faults
    const gather = faults.gather.bind(faults)
    let heldFirst!: () => void
    const firstHeld = new Promise<void>(resolve => (heldFirst = resolve))
    faults.gather = (rule, maxMs) => {
      const released = gather(rule, maxMs)
      heldFirst()
      return released
    }
    const before = emulator.selfHosted.dashboards.size
    try {
      let answered = false
      const first = call(emulator, 'POST', '/api/v2/dashboards', {
        body: { ...newDashboard, name: 'One' }
      }).then(r => {
        answered = true
        return r
      })
      await firstHeld
      await new Promise(resolve => setImmediate(resolve))
      // Held, and nothing stored, however long it has been: it waits for the second.
      expect(answered).toBe(false)
      expect(emulator.selfHosted.dashboards.size).toBe(before)
      const second = call(emulator, 'POST', '/api/v2/dashboards', { body: { ...newDashboard, name: 'Two' } })
      expect((await Promise.all([first, second])).map(r => r.status)).toEqual([200, 200])
      expect(emulator.selfHosted.dashboards.size).toBe(before + 2)
      // The rule is spent: the next create goes through at once.
      expect((await call(emulator, 'POST', '/api/v2/dashboards', { body: newDashboard })).status).toBe(200)
    } finally {
      faults.gather = gather
    }
  })
})

describe('faults by probability', () => {
  test('probability 1 always fires, probability 0 never', async () => {
    emulator.faults.add({ path: '/api/v2/webhooks', kind: '503', probability: 0 })
    emulator.faults.add({ path: '/api/v2/sources', kind: '500', probability: 1 })
    expect((await call(emulator, 'GET', '/api/v2/webhooks')).status).toBe(200)
    expect((await call(emulator, 'GET', '/api/v2/sources')).status).toBe(500)
  })

  test('each kind fires with its probability and the PRNG repeats for one seed', async () => {
    const run = async (target: Emulator) => {
      target.faults.add({ method: 'GET', path: '/api/v2/sources', kind: '502', probability: 0.3 })
      const statuses: number[] = []
      for (let index = 0; index < 40; index++)
        statuses.push((await call(target, 'GET', '/api/v2/sources')).status)
      return statuses
    }
    const twin = await start({ randomSeed: 99 })
    const other = await start({ randomSeed: 99 })
    try {
      const first = await run(twin)
      const second = await run(other)
      expect(second).toEqual(first)
      const failures = first.filter(status => status === 502).length
      expect(failures).toBeGreaterThan(3)
      expect(failures).toBeLessThan(25)
    } finally {
      await twin.close()
      await other.close()
    }
  })

  test('reset, commit-drop, delay and 429 work by probability too', async () => {
    emulator.faults.add({
      method: 'GET',
      path: '/api/v2/webhooks',
      kind: 'delay',
      probability: 1,
      delayMs: 60_000
    })
    await expect(
      call(emulator, 'GET', '/api/v2/webhooks', { signal: AbortSignal.timeout(100) })
    ).rejects.toThrow()
    emulator.faults.add({ method: 'PUT', kind: 'reset', probability: 1 })
    emulator.faults.add({ method: 'DELETE', kind: 'commit-drop', probability: 1 })
    emulator.faults.add({ method: 'GET', path: '/api/v2/alerts', kind: '429', probability: 1 })
    const created = emulator.selfHosted.createDashboard(newDashboard)
    await expect(
      call(emulator, 'PUT', `/api/v2/dashboards/${created.id}`, { body: { name: 'Never stored' } })
    ).rejects.toThrow()
    expect(emulator.selfHosted.dashboards.get(created.id)?.name).toBe('Faulty')
    await expect(call(emulator, 'DELETE', `/api/v2/dashboards/${created.id}`)).rejects.toThrow()
    expect(emulator.selfHosted.dashboards.has(created.id)).toBe(false)
    const limited = await call(emulator, 'GET', '/api/v2/alerts')
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('1')
  })
})

test('close does not wait for a pending delay', async () => {
  const held = await start()
  // Held for an hour: a close that waited for it would outlast the test's own timeout.
  held.faults.add({ kind: 'delay', delayMs: 3_600_000 })
  const pending = call(held, 'GET', '/api/v2/sources').catch(() => 'failed')
  await new Promise(resolve => setTimeout(resolve, 50))
  await held.close()
  expect(await pending).toBe('failed')
})
