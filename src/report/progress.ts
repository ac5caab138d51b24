/**
 * An apply's progress, as people watch it. On a terminal: one status line on stderr, redrawn in place
 * (done/total, the change in flight, elapsed time), with failures kept above it. In CI and in the action:
 * one line per settled change, or, for large runs, one every few seconds (and every failure), plus a
 * "still waiting" line when nothing settled for a while, so a stuck run shows where it is. An apply the rate limit
 * paces says first how long it takes, and then the time left: the requests the plan's estimate has still to send, at
 * the pace, or at the rate they went so far when the server is slower than the pace (timeLeft).
 */
import type { ApplyProgress, OutcomeStatus } from '../apply/types.js'
import type { RateLimit } from '../config/types.js'
import { printable } from '../log.js'
import { aboutDuration, applyWords } from './pace.js'

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
  /** The run's client-side pace (`rate-limit`): an apply of more requests than one window lets go shows time left. */
  pace?: RateLimit | null
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
  /**
   * An apply the rate limit paces (time left is shown): its pace, whose apply it is (the stack), and when it started
   * with how many requests to send.
   */
  let timed: PacedApply | undefined
  let timedFor: string | undefined

  /** The time so far, and for a paced apply the time left: "2m10s, about 28 min left". */
  const elapsed = () => {
    const so = duration(now() - (started ?? now()))
    const left = last?.left
    if (!timed || left?.ms === undefined || left.requests <= 0 || last!.done === last!.total) return so
    return `${so}, ${aboutDuration(timeLeft(timed, left.requests, left.ms, now()))} left`
  }
  const current = () => [...inFlight.values()].at(-1)
  const statusLine = () => {
    const count = `${last?.done ?? 0}/${last?.total ?? 0}`
    if (now() < pacedUntil)
      return `applying ${count}: pacing for the rate limit, the next request in ${duration(pacedUntil - now())} (${elapsed()})`
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

  /** An apply's first event: one the rate limit will pace says how long it takes (each stack's, with many). */
  const announce = (progress: ApplyProgress) => {
    const whose = progress.stack ?? ''
    if (timedFor === whose) return
    timedFor = whose
    const pace = options.pace
    const left = progress.left
    // More requests than one window lets go: the rate limit will hold some back.
    timed =
      pace && left?.ms !== undefined && left.requests > pace.requests
        ? { pace, start: now(), requests: left.requests }
        : undefined
    if (timed)
      line(
        `${progress.stack ? `${printable(progress.stack, 100)}: ` : ''}applying ${applyWords(left!.requests, timed.pace, left!.ms!)}, paced below the server's rate limit (rate-limit)`
      )
  }

  return {
    update(progress) {
      if (started === undefined) {
        started = now()
        lastLine = started
        stop = every(options.live ? 1000 : quietMs, tick)
      }
      last = progress
      announce(progress)
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

/** An apply the rate limit paces: its pace, and when it started with how many requests to send. */
interface PacedApply {
  pace: RateLimit
  start: number
  requests: number
}

/**
 * How long the `left` requests take: `paced` (at the pace), or at the rate they went so far when that is slower (a
 * server slower than the pace). That rate counts once two windows' worth were sent: before, the first window's
 * burst would make it far too hopeful, and a first wait (a window the plan's requests still fill at the server) far
 * too gloomy.
 */
function timeLeft(apply: PacedApply, left: number, paced: number, now: number): number {
  const sent = apply.requests - left
  return sent >= 2 * apply.pace.requests ? Math.max(paced, ((now - apply.start) * left) / sent) : paced
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

/** `dashboard`, `team member`, `service settings`: the kind's words. */
const kindWord = (kind: string): string => kind.replace(/(?<=[a-z])(?=[A-Z])/g, ' ').toLowerCase()

/** `4.2 s`, `1m05s`. */
function duration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`
  const s = Math.floor(ms / 1000)
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
}
