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

  it('on a terminal, the status line says it is pacing, with the time left', () => {
    const { reporter, out, advance } = setup({ live: true })
    reporter.update(change('Queued', 'start', 0, 2))
    reporter.pacing(30_000)
    advance(10_000)
    reporter.pacing(20_000)
    expect(out.at(-1)).toBe(`${CLEAR}applying 0/2: pacing for the rate limit, 20.0 s left (10.0 s)`)
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
