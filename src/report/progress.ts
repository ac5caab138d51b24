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
  return new ProgressLines(options)
}

/** The status line (a terminal) or the lines (CI) of one run's applies, and the timer that keeps them going. */
class ProgressLines implements ProgressReporter {
  private readonly now: () => number
  private readonly every: (ms: number, tick: () => void) => () => void
  private readonly quietAbove: number
  private readonly quietMs: number
  private started: number | undefined
  private lastLine = 0
  private last: ApplyProgress | undefined
  /** Changes in flight, by address, with when each started. */
  private readonly inFlight = new Map<string, { progress: ApplyProgress; at: number }>()
  private stop: (() => void) | undefined
  private drawn = false
  /** Until when requests are held for the rate limit (ms, this reporter's clock). */
  private pacedUntil = 0
  /**
   * An apply the rate limit paces (time left is shown): its pace, whose apply it is (the stack), and when it started
   * with how many requests to send.
   */
  private timed: PacedApply | undefined
  private timedFor: string | undefined

  constructor(private readonly options: ProgressOptions) {
    this.now = options.now ?? Date.now
    this.every = options.every ?? unrefInterval
    this.quietAbove = options.quietAbove ?? 50
    this.quietMs = options.quietMs ?? 5000
  }

  // Fields, not methods: the run is handed them on their own (`progress: reporter.update`).
  readonly update = (progress: ApplyProgress): void => {
    const { options, now } = this
    if (this.started === undefined) {
      this.started = now()
      this.lastLine = this.started
      this.stop = this.every(options.live ? 1000 : this.quietMs, () => this.tick())
    }
    this.last = progress
    this.announce(progress)
    if (progress.event === 'start') {
      this.inFlight.set(progress.address, { progress, at: now() })
      if (options.live) this.redraw()
      return
    }
    this.inFlight.delete(progress.address)
    const failed = progress.status === 'failed'
    const quiet = progress.total > this.quietAbove
    const due = failed || progress.done === progress.total || now() - this.lastLine >= this.quietMs
    if (options.live) {
      if (failed) this.line(`${describe(progress)}: failed (the report below says why)`)
      else this.redraw()
    } else if (!quiet || due) {
      this.line(
        `[${progress.done}/${progress.total}] ${describe(progress)}: ${WORDS[progress.status!]} (${this.elapsed()})`
      )
    }
  }

  readonly pacing = (waitMs: number): void => {
    this.pacedUntil = this.now() + waitMs
    const count = `${this.last?.done ?? 0}/${this.last?.total ?? 0}`
    if (this.options.live) this.redraw()
    else
      this.line(
        `[${count}] pacing: the client-side rate limit (rate-limit) lets the next request go in ${duration(waitMs)} (${this.elapsed()})`
      )
  }

  readonly done = (): void => {
    this.stop?.()
    this.stop = undefined
    if (this.options.live && this.drawn) this.options.write(CLEAR_LINE)
    this.drawn = false
  }

  /** The time so far, and for a paced apply the time left: "2m10s, about 28 min left". */
  private elapsed(): string {
    const { now, last, timed } = this
    const so = duration(now() - (this.started ?? now()))
    const left = last?.left
    if (!timed || left?.ms === undefined || left.requests <= 0 || last!.done === last!.total) return so
    return `${so}, ${aboutDuration(timeLeft(timed, left.requests, left.ms, now()))} left`
  }

  private current(): { progress: ApplyProgress; at: number } | undefined {
    return [...this.inFlight.values()].at(-1)
  }

  private statusLine(): string {
    const { now, last } = this
    const count = `${last?.done ?? 0}/${last?.total ?? 0}`
    if (now() < this.pacedUntil)
      return `applying ${count}: pacing for the rate limit, the next request in ${duration(this.pacedUntil - now())} (${this.elapsed()})`
    const doing = this.current()
    return `applying ${count}${doing ? `: ${describe(doing.progress)}` : ''} (${this.elapsed()})`
  }

  private redraw(): void {
    this.options.write(`${CLEAR_LINE}${this.statusLine()}`)
    this.drawn = true
  }

  private line(text: string): void {
    const { options } = this
    if (options.live && this.drawn) options.write(CLEAR_LINE)
    options.write(`${text}\n`)
    this.lastLine = this.now()
    if (options.live) this.redraw()
  }

  private tick(): void {
    if (this.options.live) return this.redraw()
    // Nothing said for a while and something in flight: say what it waits on (pacing says so itself). One clock.
    const { now, last } = this
    const waiting = this.current()
    if (waiting && now() >= this.pacedUntil && now() - this.lastLine >= this.quietMs)
      this.line(
        `[${last?.done ?? 0}/${last?.total ?? 0}] waiting on ${describe(waiting.progress)} (${this.elapsed()})`
      )
  }

  /** An apply's first event: one the rate limit will pace says how long it takes (each stack's, with many). */
  private announce(progress: ApplyProgress): void {
    const whose = progress.stack ?? ''
    if (this.timedFor === whose) return
    this.timedFor = whose
    const pace = this.options.pace
    const left = progress.left
    // More requests than one window lets go: the rate limit will hold some back.
    this.timed =
      pace && left?.ms !== undefined && left.requests > pace.requests
        ? { pace, start: this.now(), requests: left.requests }
        : undefined
    if (this.timed)
      this.line(
        `${progress.stack ? `${printable(progress.stack, 100)}: ` : ''}applying ${applyWords(left!.requests, this.timed.pace, left!.ms!)}, paced below the server's rate limit (rate-limit)`
      )
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
