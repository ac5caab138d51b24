/**
 * An apply's progress, as people watch it. On a terminal: one status line on stderr, redrawn in place
 * (done/total, the change in flight, elapsed time), with failures kept above it. In CI and in the action:
 * one line per settled change, or, for large runs, one every few seconds (and every failure), plus a
 * "still waiting" line when nothing settled for a while, so a stuck run shows where it is.
 */
import type { ApplyProgress, OutcomeStatus } from '../apply/types.js'
import { printable } from '../log.js'

export interface ProgressOptions {
  /** A terminal: one line redrawn in place. Otherwise: lines. */
  live: boolean
  write: (text: string) => void
  now?: () => number
  /** Repeats `tick` every `ms` until the returned function is called; the default never keeps the process alive. */
  every?: (ms: number, tick: () => void) => () => void
  /** Lines: above this many changes, one line every `quietMs` instead of one per change. */
  quietAbove?: number
  quietMs?: number
}

export interface ProgressReporter {
  update(progress: ApplyProgress): void
  /** Requests wait this long (ms) for the client-side rate limit: said once, instead of "waiting on" a change. */
  pacing(waitMs: number): void
  /** Clears the status line and stops the timer. */
  done(): void
}

const CLEAR_LINE = '\r\u001b[2K'

const unrefInterval = (ms: number, tick: () => void): (() => void) => {
  const timer = setInterval(tick, ms)
  timer.unref()
  return () => clearInterval(timer)
}

export function progressReporter(options: ProgressOptions): ProgressReporter {
  const now = options.now ?? Date.now
  const every = options.every ?? unrefInterval
  const quietAbove = options.quietAbove ?? 50
  const quietMs = options.quietMs ?? 5000
  let started: number | undefined
  let lastLine = 0
  let last: ApplyProgress | undefined
  /** Changes in flight, by address, with when each started. */
  const inFlight = new Map<string, { progress: ApplyProgress; at: number }>()
  let stop: (() => void) | undefined
  let drawn = false
  /** Until when requests are held for the rate limit (ms, this reporter's clock). */
  let pacedUntil = 0

  const elapsed = () => duration(now() - (started ?? now()))
  const current = () => [...inFlight.values()].at(-1)
  const statusLine = () => {
    const count = `${last?.done ?? 0}/${last?.total ?? 0}`
    if (now() < pacedUntil)
      return `applying ${count}: pacing for the rate limit, ${duration(pacedUntil - now())} left (${elapsed()})`
    const doing = current()
    return `applying ${count}${doing ? `: ${describe(doing.progress)}` : ''} (${elapsed()})`
  }
  const redraw = () => {
    options.write(`${CLEAR_LINE}${statusLine()}`)
    drawn = true
  }
  const line = (text: string) => {
    if (options.live && drawn) options.write(CLEAR_LINE)
    options.write(`${text}\n`)
    lastLine = now()
    if (options.live) redraw()
  }
  const tick = () => {
    if (options.live) return redraw()
    // Nothing said for a while and something in flight: say what it waits on (pacing says so itself). One clock.
    const waiting = current()
    if (waiting && now() >= pacedUntil && now() - lastLine >= quietMs)
      line(`[${last?.done ?? 0}/${last?.total ?? 0}] waiting on ${describe(waiting.progress)} (${elapsed()})`)
  }

  return {
    update(progress) {
      if (started === undefined) {
        started = now()
        lastLine = started
        stop = every(options.live ? 1000 : quietMs, tick)
      }
      last = progress
      if (progress.event === 'start') {
        inFlight.set(progress.address, { progress, at: now() })
        if (options.live) redraw()
        return
      }
      inFlight.delete(progress.address)
      const failed = progress.status === 'failed'
      const quiet = progress.total > quietAbove
      const due = failed || progress.done === progress.total || now() - lastLine >= quietMs
      if (options.live) {
        if (failed) line(`${describe(progress)}: failed (the report below says why)`)
        else redraw()
      } else if (!quiet || due) {
        line(
          `[${progress.done}/${progress.total}] ${describe(progress)}: ${WORDS[progress.status!]} (${elapsed()})`
        )
      }
    },
    pacing(waitMs) {
      pacedUntil = now() + waitMs
      const count = `${last?.done ?? 0}/${last?.total ?? 0}`
      if (options.live) redraw()
      else
        line(
          `[${count}] pacing: the client-side rate limit (rate-limit) lets the next request go in ${duration(waitMs)} (${elapsed()})`
        )
    },
    done() {
      stop?.()
      stop = undefined
      if (options.live && drawn) options.write(CLEAR_LINE)
      drawn = false
    }
  }
}

const WORDS: Record<OutcomeStatus, string> = {
  applied: 'done',
  adopted: 'done (adopted after a lost response)',
  failed: 'failed',
  skipped: 'skipped (it depends on a change that failed)'
}

/**
 * `update dashboard "Checkout"`; with many stacks `payments: update dashboard "Checkout"`. Names are
 * untrusted (a pruned one is the server's): printable, so none can start a line or drive the terminal.
 */
const describe = (p: ApplyProgress): string =>
  `${p.stack ? `${printable(p.stack, 100)}: ` : ''}${p.action} ${kindWord(p.kind)} "${printable(p.name, 200)}"`

const kindWord = (kind: string): string =>
  kind === 'ServiceSettings' ? 'service settings' : kind.toLowerCase()

/** `4.2 s`, `1m05s`. */
function duration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`
  const s = Math.floor(ms / 1000)
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
}
