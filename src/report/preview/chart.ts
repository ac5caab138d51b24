/**
 * A series as a reviewer reads it at a glance: a plain-text sparkline (one line, any font, any client: the
 * terminal, an e-mail notification, the mobile app), a mermaid `xychart-beta` for the comment where GitHub
 * draws it, and numbers in the tile's own number format. Pure: values in, text out. No text from a manifest
 * or a server goes into a chart: the names stay in the (escaped) lines around it.
 *
 * Every chart covers its whole time axis (plan/preview.ts `Axis`): bucket i at `start + i * step`, a bucket
 * without rows at its time, so a quiet hour keeps its width. A long axis is drawn in fewer points, each
 * standing for a run of buckets (`scaleFor`), and the caller says how the run was summed up.
 */
import type { Axis } from '../../plan/preview.js'

export type Values = ReadonlyArray<number | null>
export type Fill = 'zero' | 'gap'

const BARS = '▁▂▃▄▅▆▇█'
/** A bucket without rows where the tile leaves a gap: visible in any font, unlike a space. */
export const GAP = '·'

/** The values as the tile draws them: a null is 0 where the tile fills nulls, a gap otherwise. */
export function filled(values: Values, fill: Fill | undefined): Array<number | null> {
  return fill === 'gap' ? [...values] : values.map(v => v ?? 0)
}

/** One character per value, lowest ▁ to highest █; a null is a gap (·). */
export function sparkline(values: Values): string {
  const range = rangeOf(values)
  if (!range) return GAP.repeat(values.length)
  const { min, max } = range
  return values
    .map(v => {
      if (v === null) return GAP
      // A flat line sits at the bottom when it is zero, mid-height otherwise: a steady 40/s is not "nothing".
      if (max === min) return BARS[max === 0 ? 0 : 3]!
      return BARS[Math.round(((v - min) / (max - min)) * (BARS.length - 1))]!
    })
    .join('')
}

/** The smallest and largest value, or none. */
export function rangeOf(values: Values): { min: number; max: number } | undefined {
  let min = Infinity
  let max = -Infinity
  for (const v of values) {
    if (v === null) continue
    if (v < min) min = v
    if (v > max) max = v
  }
  return min <= max ? { min, max } : undefined
}

const MINUTE = 60_000
const HOUR = 3_600_000
const DAY = 86_400_000

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/**
 * A time in UTC: "09:30"; with `days`, "Mon 09:30"; with `dates` (a range of days, where a weekday comes
 * back), "Mon 23 Nov 09:30".
 */
export function timeLabel(ms: number, days = false, dates = false): string {
  const d = new Date(ms)
  const hm = d.toISOString().slice(11, 16)
  if (dates) return `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${hm}`
  return days ? `${WEEKDAYS[d.getUTCDay()]} ${hm}` : hm
}

/** A bucket size in the server's own words: "30s", "5m", "1h", "2d" (from the axis: not the server's text). */
export function stepWords(ms: number): string {
  if (ms % DAY === 0) return `${ms / DAY}d`
  if (ms % HOUR === 0) return `${ms / HOUR}h`
  if (ms % MINUTE === 0) return `${ms / MINUTE}m`
  return `${Number((ms / 1000).toFixed(3))}s`
}

/** "24 h", "7 days": how long a range is. */
export function spanWords(ms: number): string {
  const hours = Math.round(ms / HOUR)
  return hours % 24 === 0 && hours > 24 ? `${hours / 24} days` : `${hours} h`
}

/** Where the axis ends: the end of its last bucket. */
export const axisEnd = (axis: Axis): number => axis.start + axis.count * axis.step

/** Whether an axis spans more than a day: its times then carry their dates. */
export const longAxis = (axis: Axis): boolean => axis.count * axis.step > DAY

/**
 * The range and bucket size, said once per chart: "24 h, Sat 07:57 to Sun 07:57 UTC, 49 30m buckets (the first
 * and last partial)"; over more than a day, with dates. The server aligns buckets to the epoch, so the first
 * starts before the range and the last holds its end: a dip at either end may be only that.
 */
export function axisWords(
  axis: Axis,
  range: { startTime: number; endTime: number },
  bucket = 'buckets'
): string {
  const dates = range.endTime - range.startTime > DAY
  const first = axis.start < range.startTime
  const last = axisEnd(axis) > range.endTime
  const partial =
    first && last
      ? ' (the first and last partial)'
      : first
        ? ' (the first partial)'
        : last
          ? ' (the last partial)'
          : ''
  return `${spanWords(range.endTime - range.startTime)}, ${timeLabel(range.startTime, true, dates)} to ${timeLabel(range.endTime, true, dates)} UTC, ${axis.count.toLocaleString('en-US')} ${stepWords(axis.step)} ${bucket}${partial}`
}

/** Points per chart and sparkline: about one per 8 pixels of the comment's width, one per column of a terminal. */
export const MAX_POINTS = 96

/** The unit of a chart's x axis: the axis reads "hours from Sat 12:00 UTC". */
interface Unit {
  ms: number
  word: string
}
const UNITS: Unit[] = [
  { ms: MINUTE, word: 'minutes' },
  { ms: HOUR, word: 'hours' },
  { ms: DAY, word: 'days' }
]

/** Durations a point may stand for, when an axis has more buckets than MAX_POINTS. */
const RUNS = [1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440, 2880, 10080].map(m => m * MINUTE)

/**
 * How an axis is drawn: `factor` buckets per point (1: each bucket its own), `points` points of `pointMs`
 * each, and the x axis unit.
 *
 * Why the step must be a binary fraction of the unit: mermaid places a line over a numeric x axis by
 * stepping from min to max in float steps (xychartDb.ts `transformDataWithoutCategory`), and a step such
 * as 1/12 h drifts past max and drops the last point. A step of 1/4 h or 1/8 day adds up exactly.
 */
export interface Scale {
  factor: number
  points: number
  pointMs: number
  unit: Unit
}

export function scaleFor(axis: Axis, maxPoints = MAX_POINTS): Scale {
  const span = axis.count * axis.step
  const unit = span <= 3 * HOUR ? UNITS[0]! : span <= 3 * DAY ? UNITS[1]! : UNITS[2]!
  const exact = (ms: number) => Number.isInteger((ms / unit.ms) * 1024)
  const candidates = [axis.step, ...RUNS.filter(ms => ms > axis.step && ms % axis.step === 0)]
  for (const pointMs of candidates) {
    const factor = pointMs / axis.step
    const points = Math.ceil(axis.count / factor)
    // Too coarse a run (a week for 7m buckets) says nothing: then the fallback below.
    const enough = points >= Math.min(axis.count, maxPoints / 4)
    if (points <= maxPoints && enough && exact(pointMs)) return { factor, points, pointMs, unit }
  }
  // No run of a whole number of buckets is a binary fraction of the unit (an odd step): the unit is the run.
  const factor = Math.max(1, Math.ceil(axis.count / maxPoints))
  const pointMs = axis.step * factor
  return {
    factor,
    points: Math.ceil(axis.count / factor),
    pointMs,
    unit: { ms: pointMs, word: `${stepWords(pointMs)} steps` }
  }
}

/**
 * The buckets in runs of `factor`: `pick(from, to)` sums up buckets [from, to). Every bucket is in exactly one
 * run, the last run maybe shorter.
 */
export function runs<T>(count: number, factor: number, pick: (from: number, to: number) => T): T[] {
  const out: T[] = []
  for (let from = 0; from < count; from += factor) out.push(pick(from, Math.min(count, from + factor)))
  return out
}

/** A run's highest value (a peak stays visible when a day is drawn in fewer points); null if it has none. */
export function highest(values: Values): (from: number, to: number) => number | null {
  return (from, to) => {
    let best: number | null = null
    for (let i = from; i < to; i++) {
      const v = values[i] ?? null
      if (v !== null && (best === null || v > best)) best = v
    }
    return best
  }
}

/** A number as mermaid reads it: plain decimal, no exponent, no grouping. */
export function plain(n: number): string {
  if (!Number.isFinite(n)) return '0'
  const rounded = Number(n.toPrecision(12))
  return Math.abs(rounded) >= 1e21 || (Math.abs(rounded) < 1e-6 && rounded !== 0)
    ? rounded.toFixed(6)
    : String(rounded)
}

/** GitHub's colours, one per line: mermaid's default palette draws the first line near white. */
export const LINE_COLOURS: ReadonlyArray<readonly [string, string]> = [
  ['#0969da', 'blue'],
  ['#bc4c00', 'orange'],
  ['#1a7f37', 'green'],
  ['#8250df', 'purple'],
  ['#bf3989', 'pink'],
  ['#6e7781', 'grey']
]
export const THRESHOLD_COLOUR = '#cf222e'

/**
 * A mermaid `xychart-beta`: each line over a numeric x axis from the first point's time, in the scale's unit
 * (so a label sits at its time), and flat lines at `thresholds`. Only our own text: times, numbers and fixed
 * words; the names go in the legend the caller writes beside it. Every line needs a number per point:
 * xychart has no gap.
 */
export function mermaidChart(spec: {
  start: number
  scale: Scale
  lines: ReadonlyArray<readonly number[]>
  colours: readonly string[]
  thresholds?: readonly number[]
}): string {
  const { scale } = spec
  const points = spec.lines[0]?.length ?? 0
  const flat = (spec.thresholds ?? []).map(t => Array<number>(points).fill(t))
  const all = [...spec.lines, ...flat]
  let min = 0
  let max = -Infinity
  for (const line of all)
    for (const v of line) {
      if (v < min) min = v
      if (v > max) max = v
    }
  const top = max <= min ? min + 1 : max
  const last = ((points - 1) * scale.pointMs) / scale.unit.ms
  const palette = [...spec.colours, ...flat.map(() => THRESHOLD_COLOUR)].join(', ')
  return [
    `%%{init: {"themeVariables": {"xyChart": {"plotColorPalette": "${palette}"}}}}%%`,
    'xychart-beta',
    `  x-axis "${scale.unit.word} from ${timeLabel(spec.start, true, scale.unit.ms >= DAY)} UTC" 0 --> ${plain(last)}`,
    `  y-axis "value" ${plain(min)} --> ${plain(top)}`,
    ...all.map(line => `  line [${line.map(plain).join(', ')}]`)
  ].join('\n')
}

// ---------------------------------------------------------------------------------------------------
// Numbers as the tile shows them: common-utils NumberFormatSchema (numbro options), in our own words.

export interface NumberFormat {
  output?: string
  mantissa?: number
  thousandSeparated?: boolean
  average?: boolean
  decimalBytes?: boolean
  factor?: number
  currencySymbol?: string
  unit?: string
}

const SI = ['', 'k', 'M', 'B', 'T']

function fixed(n: number, mantissa: number | undefined, thousands: boolean): string {
  const digits = mantissa ?? (Number.isInteger(n) ? 0 : Math.abs(n) >= 100 ? 1 : Math.abs(n) >= 1 ? 2 : 3)
  const text = n.toFixed(Math.max(0, Math.min(10, digits)))
  if (!thousands) return text
  const [int, frac] = text.split('.')
  const grouped = int!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return frac === undefined ? grouped : `${grouped}.${frac}`
}

function averaged(n: number, mantissa: number | undefined, thousands: boolean): string {
  let i = 0
  let v = n
  while (Math.abs(v) >= 1000 && i < SI.length - 1) {
    v /= 1000
    i++
  }
  return `${fixed(v, mantissa ?? (i === 0 ? undefined : 1), thousands)}${SI[i]}`
}

function bytes(n: number, decimal: boolean, mantissa: number | undefined): string {
  const base = decimal ? 1000 : 1024
  const units = decimal ? ['B', 'kB', 'MB', 'GB', 'TB', 'PB'] : ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB']
  let i = 0
  let v = n
  while (Math.abs(v) >= base && i < units.length - 1) {
    v /= base
    i++
  }
  return `${fixed(v, mantissa ?? (i === 0 ? 0 : 1), false)} ${units[i]}`
}

function duration(ms: number): string {
  const abs = Math.abs(ms)
  if (abs < 1) return `${Number(ms.toPrecision(3))} ms`
  if (abs < 1000) return `${Number(ms.toFixed(abs < 10 ? 2 : 0))} ms`
  if (abs < 60_000) return `${Number((ms / 1000).toFixed(2))} s`
  if (abs < 3_600_000) return `${Number((ms / 60_000).toFixed(1))} min`
  return `${Number((ms / 3_600_000).toFixed(1))} h`
}

/**
 * A value in the tile's number format: factor first, then the output (percent of a ratio, bytes, currency,
 * a duration in ms, a plain or averaged number), then the unit. Without a format: a plain number.
 */
export function formatNumber(value: number, format?: NumberFormat | Record<string, unknown>): string {
  const f = (format ?? {}) as NumberFormat
  const n = typeof f.factor === 'number' ? value * f.factor : value
  const mantissa = typeof f.mantissa === 'number' ? f.mantissa : undefined
  const thousands = f.thousandSeparated === true
  let text: string
  switch (f.output) {
    case 'percent':
      text = `${fixed(n * 100, mantissa, thousands)}%`
      break
    case 'byte':
      text = bytes(n, f.decimalBytes === true, mantissa)
      break
    case 'data_rate':
      text = `${bytes(n, f.decimalBytes === true, mantissa)}/s`
      break
    case 'currency':
      text = `${typeof f.currencySymbol === 'string' ? f.currencySymbol : '$'}${f.average ? averaged(n, mantissa, thousands) : fixed(n, mantissa ?? 2, thousands)}`
      break
    case 'time':
    case 'duration':
      text = duration(n)
      break
    case 'throughput':
      text = `${f.average ? averaged(n, mantissa, thousands) : fixed(n, mantissa, thousands)}/s`
      break
    default:
      text = f.average ? averaged(n, mantissa, thousands) : fixed(n, mantissa, thousands)
  }
  return typeof f.unit === 'string' && f.unit !== '' ? `${text} ${f.unit}` : text
}
