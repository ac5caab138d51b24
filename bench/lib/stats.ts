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

export function table(rows: readonly Row[]): string {
  const verdict = (p: boolean | undefined) => (p === undefined ? 'info' : p ? 'pass' : '**miss**')
  const esc = (s: string) => s.replace(/\|/g, '\\|')
  return [
    '| figure | measured | goal | pass/miss |',
    '| --- | --- | --- | --- |',
    ...rows.map(r => `| ${esc(r.figure)} | ${esc(r.measured)} | ${esc(r.goal)} | ${verdict(r.pass)} |`)
  ].join('\n')
}

export function machine(): string[] {
  const cpus = os.cpus()
  return [
    `node ${process.version} (${process.platform} ${process.arch})`,
    `CPUs: ${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown'}`,
    `memory: ${(os.totalmem() / 1024 ** 3).toFixed(1)} GB`,
    `load average at start (1/5/15 min): ${os
      .loadavg()
      .map(l => l.toFixed(2))
      .join(' / ')}`
  ]
}
