/** Medians, interleaved measurement, and formatting for RESULTS.md. */
import os from 'node:os'

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN
  const s = [...values].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now()
  const value = await fn()
  return { ms: performance.now() - start, value }
}

/**
 * Runs every side once per round, rotating which side goes first, for `rounds` rounds; `before` runs
 * (untimed) ahead of each measurement. Returns every sample per side.
 */
export async function interleave(
  rounds: number,
  sides: Record<string, { run: () => Promise<unknown>; before?: () => Promise<void> }>
): Promise<Record<string, number[]>> {
  const names = Object.keys(sides)
  const samples: Record<string, number[]> = Object.fromEntries(names.map(n => [n, []]))
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(r + k) % names.length]!
      const side = sides[name]!
      if (side.before) await side.before()
      const { ms } = await timed(side.run)
      samples[name]!.push(ms)
    }
  }
  return samples
}

/** Interleaved rounds of every timed comparison (the issue asks for at least 7); fewer with --quick. */
export const rounds = (quick: boolean, full = 9): number => (quick ? 2 : Math.max(7, full))

export function min(values: readonly number[]): number {
  return values.length === 0 ? NaN : Math.min(...values)
}

/**
 * A over B for samples taken in interleaved pairs (round r of A beside round r of B): the ratio of each
 * pair, so a machine that slows down for a while slows both sides of the pairs it touches.
 */
export interface PairedRatio {
  median: number
  min: number
  max: number
  pairs: number
}

export function pairedRatio(a: readonly number[], b: readonly number[]): PairedRatio {
  const ratios = a.slice(0, b.length).map((v, i) => v / b[i]!)
  return { median: median(ratios), min: min(ratios), max: Math.max(...ratios), pairs: ratios.length }
}

/** "1.23x (min 1.10x, 9 pairs)". */
export const paired = (r: PairedRatio): string => `${ratio(r.median)} (min ${ratio(r.min)}, ${r.pairs} pairs)`

/** "412 ms (min 398 ms)". */
export const medMin = (values: readonly number[], format: (v: number) => string = ms): string =>
  `${format(median(values))} (min ${format(min(values))})`

export const ms = (v: number): string =>
  Number.isNaN(v) ? 'n/a' : v >= 10_000 ? `${(v / 1000).toFixed(1)} s` : `${v.toFixed(v < 10 ? 2 : 0)} ms`
export const ratio = (v: number): string => (Number.isFinite(v) ? `${v.toFixed(2)}x` : 'n/a')
export const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`
export const list = (values: readonly number[]): string => values.map(v => v.toFixed(0)).join(', ')

export interface Row {
  figure: string
  measured: string
  goal: string
  /** true = pass, false = miss, undefined = reported only. */
  pass?: boolean
  /**
   * One of the goals of the summary at the top of RESULTS.md; `left` says, on a miss, by how much and what is
   * left; `restated`: one of issue 38's restated performance goals (listed first).
   */
  headline?: { left?: string; restated?: boolean }
}

export interface Section {
  title: string
  /** Short paragraph: method and what was compared. */
  method: string
  rows: Row[]
  /** Raw medians and samples, as lines. */
  raw: string[]
  notes: string[]
}

/**
 * A goal row of `a` against `b` sampled in interleaved pairs: the per-pair ratio a/b, each side's median
 * and min, and pass when the median ratio is at most (or at least) the goal. `left` says, on a miss, by how
 * much and what is left.
 */
export function ratioRow(spec: {
  figure: string
  a: readonly number[]
  b: readonly number[]
  goal: { atMost: number } | { atLeast: number }
  left: (r: PairedRatio) => string
  restated?: boolean
}): Row {
  const r = pairedRatio(spec.a, spec.b)
  const [bound, pass] =
    'atMost' in spec.goal
      ? [`≤ ${spec.goal.atMost}x`, r.median <= spec.goal.atMost]
      : [`≥ ${spec.goal.atLeast}x`, r.median >= spec.goal.atLeast]
  return {
    figure: spec.figure,
    measured: `${paired(r)}: ${medMin(spec.a)} vs ${medMin(spec.b)}`,
    goal: bound,
    pass,
    headline: { left: spec.left(r), restated: spec.restated }
  }
}

const verdict = (p: boolean | undefined) => (p === undefined ? 'info' : p ? 'pass' : '**miss**')
const esc = (s: string) => s.replace(/\|/g, '\\|')

export function table(rows: readonly Row[]): string {
  return [
    '| figure | measured | goal | pass/miss |',
    '| --- | --- | --- | --- |',
    ...rows.map(r => `| ${esc(r.figure)} | ${esc(r.measured)} | ${esc(r.goal)} | ${verdict(r.pass)} |`)
  ].join('\n')
}

/** The goals, gathered from the sections: goal, measured, verdict, and on a miss what is left. */
export function goalsTable(rows: readonly (Row & { section: string })[]): string {
  return [
    '| figure | goal | measured | pass/miss | on a miss: by how much, and what the profile says is left |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map(
      r =>
        `| ${esc(r.figure)} (${esc(r.section)}) | ${esc(r.goal)} | ${esc(r.measured)} | ${verdict(r.pass)} | ${esc(r.pass === false ? (r.headline?.left ?? '') : '')} |`
    )
  ].join('\n')
}

export function machine(): string[] {
  const cpus = os.cpus()
  return [
    `the bench itself and the emulator: node ${process.version} (${process.platform} ${process.arch})`,
    `CPUs: ${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown'}`,
    `memory: ${(os.totalmem() / 1024 ** 3).toFixed(1)} GB`,
    `load average at start (1/5/15 min): ${os
      .loadavg()
      .map(l => l.toFixed(2))
      .join(' / ')}`
  ]
}
