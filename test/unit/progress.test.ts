/**
 * How apply progress looks (report/progress.ts), on a fake clock and a hand-cranked timer: lines in CI
 * (one per change, or one every few seconds for a large run, and a "waiting on" line when a change takes
 * long), and one status line redrawn in place on a terminal.
 */
import { describe, expect, it } from '@jest/globals'
import type { ApplyProgress } from '../../src/apply/types.js'
import { progressReporter, type ProgressOptions } from '../../src/report/progress.js'

const CLEAR = '\r\u001b[2K'

function setup(options: Partial<ProgressOptions> = {}) {
  let time = 1_000_000
  const out: string[] = []
  let tick: (() => void) | undefined
  let stopped = false
  const reporter = progressReporter({
    live: false,
    write: t => out.push(t),
    now: () => time,
    every: (_ms, fn) => {
      tick = fn
      return () => (stopped = true)
    },
    ...options
  })
  return {
    reporter,
    out,
    advance: (ms: number) => (time += ms),
    tick: () => tick?.(),
    stopped: () => stopped
  }
}

const change = (
  name: string,
  event: 'start' | 'end',
  done: number,
  total: number,
  status?: ApplyProgress['status']
): ApplyProgress => ({
  event,
  address: `Dashboard/${name}`,
  kind: 'Dashboard',
  name,
  action: 'update',
  status,
  done,
  total
})

describe('progress in CI (lines)', () => {
  it('one line per settled change, with the count and the elapsed time', () => {
    const { reporter, out, advance } = setup()
    reporter.update(change('Checkout', 'start', 0, 2))
    advance(1200)
    reporter.update(change('Checkout', 'end', 1, 2, 'applied'))
    reporter.update(change('Cart', 'start', 1, 2))
    advance(800)
    reporter.update(change('Cart', 'end', 2, 2, 'failed'))
    reporter.done()
    expect(out).toEqual([
      '[1/2] update dashboard "Checkout": done (1.2 s)\n',
      '[2/2] update dashboard "Cart": failed (2.0 s)\n'
    ])
  })

  it('a large run prints one line every few seconds, every failure, and the last one', () => {
    const { reporter, out, advance } = setup({ quietAbove: 10, quietMs: 5000 })
    for (let i = 1; i <= 100; i++) {
      reporter.update(change(`D${i}`, 'start', i - 1, 100))
      advance(200)
      reporter.update(change(`D${i}`, 'end', i, 100, i === 42 ? 'failed' : 'applied'))
    }
    // 100 changes in 20 s: a line when 5 s passed since the last one, the failure at once, and the last.
    expect(out.map(l => l.slice(0, l.indexOf(']') + 1))).toEqual([
      '[25/100]',
      '[42/100]',
      '[67/100]',
      '[92/100]',
      '[100/100]'
    ])
    expect(out[1]).toContain('"D42": failed')
  })

  it('a change that takes long gets a "waiting on" line, so a stuck run shows where it is', () => {
    const { reporter, out, advance, tick, stopped } = setup({ quietMs: 5000 })
    reporter.update(change('Slow', 'start', 0, 3))
    advance(3000)
    tick()
    expect(out).toEqual([])
    advance(3000)
    tick()
    expect(out).toEqual(['[0/3] waiting on update dashboard "Slow" (6.0 s)\n'])
    reporter.update(change('Slow', 'end', 1, 3, 'applied'))
    reporter.done()
    expect(stopped()).toBe(true)
  })

  it('requests held for the rate limit say so once, and no change seems stuck meanwhile', () => {
    const { reporter, out, advance, tick } = setup({ quietMs: 5000 })
    reporter.update(change('Queued', 'start', 0, 3))
    advance(1000)
    reporter.pacing(60_000)
    expect(out).toEqual([
      '[0/3] pacing: the client-side rate limit (rate-limit) lets the next request go in 1m00s (1.0 s)\n'
    ])
    for (let i = 0; i < 11; i++) {
      advance(5000)
      tick()
    }
    // Held for the whole minute: no "waiting on" line; after it, the change is named again.
    expect(out).toHaveLength(1)
    advance(5000)
    tick()
    expect(out.at(-1)).toBe('[0/3] waiting on update dashboard "Queued" (1m01s)\n')
  })

  it('on a terminal, the status line says it is pacing, and when the next request goes', () => {
    const { reporter, out, advance } = setup({ live: true })
    reporter.update(change('Queued', 'start', 0, 2))
    reporter.pacing(30_000)
    advance(10_000)
    reporter.pacing(20_000)
    expect(out.at(-1)).toBe(
      `${CLEAR}applying 0/2: pacing for the rate limit, the next request in 20.0 s (10.0 s)`
    )
  })
})

describe('progress on a terminal (one line, redrawn)', () => {
  it('shows done/total, the change in flight and the elapsed time, keeps failures, and clears itself', () => {
    const { reporter, out, advance, tick, stopped } = setup({ live: true })
    reporter.update(change('Checkout', 'start', 0, 2))
    expect(out.at(-1)).toBe(`${CLEAR}applying 0/2: update dashboard "Checkout" (0.0 s)`)
    advance(2500)
    tick()
    expect(out.at(-1)).toBe(`${CLEAR}applying 0/2: update dashboard "Checkout" (2.5 s)`)
    reporter.update(change('Checkout', 'end', 1, 2, 'failed'))
    expect(out.slice(-3)).toEqual([
      CLEAR,
      'update dashboard "Checkout": failed (the report below says why)\n',
      `${CLEAR}applying 1/2 (2.5 s)`
    ])
    reporter.done()
    expect(out.at(-1)).toBe(CLEAR)
    expect(stopped()).toBe(true)
  })
})

describe('progress of untrusted names', () => {
  const hostile = 'X\n::error::pwned\r::warning::pwned \u001b[2J\u0007\u202Eevil'
  const shown = 'X ::error::pwned ::warning::pwned \\u{1B}[2J\\u{7}\\u{202E}evil'

  it('prints a name on its line, with nothing a runner or a terminal would obey', () => {
    const { reporter, out } = setup()
    reporter.update({ ...change(hostile, 'start', 0, 1), stack: 'pay\nments' })
    reporter.update({ ...change(hostile, 'end', 1, 1, 'applied'), stack: 'pay\nments' })
    expect(out).toEqual([`[1/1] pay ments: update dashboard "${shown}": done (0.0 s)\n`])
  })

  it('on a terminal too: only the redraw is an escape sequence', () => {
    const { reporter, out } = setup({ live: true })
    reporter.update(change(hostile, 'start', 0, 1))
    reporter.update(change(hostile, 'end', 1, 1, 'failed'))
    reporter.done()
    const text = out.join('').split(CLEAR).join('')
    expect(text).toContain(`update dashboard "${shown}": failed`)
    // eslint-disable-next-line no-control-regex -- the point
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/)
  })
})

describe('the time left of an apply the rate limit paces', () => {
  const PACE = { requests: 100, windowMs: 60_000 }
  /** What apply/ says is left: the requests, and their time at the pace (a window of 61.3 s per 100). */
  const left = (p: ApplyProgress, requests: number, paced = true): ApplyProgress => ({
    ...p,
    left: paced ? { requests, ms: requests * 613 } : { requests }
  })

  it('says first how long it takes, then the time left from the requests left at the pace', () => {
    const { reporter, out, advance } = setup({ pace: PACE })
    reporter.update(left(change('Checkout', 'start', 0, 2), 3000))
    // One request sent in 30 s (the server's window still full of the plan's?): too few to go by; the pace says.
    advance(30_000)
    reporter.update(left(change('Checkout', 'end', 1, 2, 'applied'), 2999))
    reporter.update(left(change('Cart', 'start', 1, 2), 2999))
    advance(1000)
    reporter.update(left(change('Cart', 'end', 2, 2, 'applied'), 0))
    expect(out).toEqual([
      "applying about 31 min at 100 requests a minute (about 3,000 requests), paced below the server's rate limit (rate-limit)\n",
      '[1/2] update dashboard "Checkout": done (30.0 s, about 31 min left)\n',
      '[2/2] update dashboard "Cart": done (31.0 s)\n'
    ])
  })

  it('a server slower than the pace: the time left follows the rate the requests went at', () => {
    const { reporter, out, advance } = setup({ pace: PACE })
    reporter.update(left(change('Checkout', 'start', 0, 2), 1000))
    // 500 requests in 20 min where the pace lets them go in 5 min: the other 500 take 20 min more.
    advance(20 * 60_000)
    reporter.update(left(change('Checkout', 'end', 1, 2, 'applied'), 500))
    expect(out.at(-1)).toBe('[1/2] update dashboard "Checkout": done (20m00s, about 20 min left)\n')
  })

  it('on a terminal, the status line and the pacing line say the time left too', () => {
    const { reporter, out, advance, tick } = setup({ pace: PACE, live: true })
    reporter.update(left(change('Checkout', 'start', 0, 2), 3000))
    advance(1000)
    tick()
    expect(out.at(-1)).toBe(`${CLEAR}applying 0/2: update dashboard "Checkout" (1.0 s, about 31 min left)`)
    reporter.pacing(59_000)
    expect(out.at(-1)).toBe(
      `${CLEAR}applying 0/2: pacing for the rate limit, the next request in 59.0 s (1.0 s, about 31 min left)`
    )
  })

  it('an apply that one window lets go at once, or without a pace or an estimate, shows no time left', () => {
    const start = change('Checkout', 'start', 0, 2)
    const end = change('Checkout', 'end', 1, 2, 'applied')
    for (const [pace, events] of [
      [PACE, [left(start, 100), left(end, 99)]],
      [null, [left(start, 3000, false), left(end, 2999, false)]],
      [PACE, [start, end]]
    ] as const) {
      const { reporter, out } = setup({ pace })
      for (const e of events) reporter.update(e)
      expect(out).toEqual(['[1/2] update dashboard "Checkout": done (0.0 s)\n'])
    }
  })

  it("with many stacks, each stack's apply is announced with its stack", () => {
    const { reporter, out } = setup({ pace: PACE })
    reporter.update({ ...left(change('A', 'start', 0, 1), 200), stack: 'payments' })
    reporter.update({ ...left(change('A', 'end', 1, 1, 'applied'), 0), stack: 'payments' })
    reporter.update({ ...left(change('B', 'start', 0, 1), 50), stack: 'search' })
    reporter.update({ ...left(change('B', 'end', 1, 1, 'applied'), 0), stack: 'search' })
    expect(out).toEqual([
      "payments: applying about 2 min at 100 requests a minute (about 200 requests), paced below the server's rate limit (rate-limit)\n",
      '[1/1] payments: update dashboard "A": done (0.0 s)\n',
      '[1/1] search: update dashboard "B": done (0.0 s)\n'
    ])
  })
})

describe('progress names each kind in words', () => {
  it('team member, saved search, service settings', () => {
    const { reporter, out } = setup()
    const kinds = ['TeamMember', 'SavedSearch', 'ServiceSettings'] as const
    kinds.forEach((kind, i) => {
      reporter.update({ ...change('X', 'start', i, 3), kind })
      reporter.update({ ...change('X', 'end', i + 1, 3, 'applied'), kind })
    })
    expect(out.map(l => l.replace(/: done.*\n/, ''))).toEqual([
      '[1/3] update team member "X"',
      '[2/3] update saved search "X"',
      '[3/3] update service settings "X"'
    ])
  })
})
