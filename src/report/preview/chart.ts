/**
 * A series as a reviewer reads it at a glance: a plain-text sparkline (one line, any font, any client: the
 * terminal, an e-mail notification, the mobile app), a mermaid `xychart-beta` for the comment where GitHub
 * draws it, the value range, and numbers in the tile's own number format. Pure: points in, text out. No
 * text from a manifest or a server goes into a chart: the names stay in the (escaped) lines around it.
 */
import type { SeriesStatus } from '../../plan/preview.js'

export type Point = readonly [number, number | null]

const BARS = '▁▂▃▄▅▆▇█'

/** One character per point, lowest ▁ to highest █; a point without a value is a space. */
export function sparkline(points: readonly Point[]): string {
  const values = points.map(p => p[1]).filter((v): v is number => v !== null)
  if (values.length === 0) return ''
  const min = Math.min(...values)
  const max = Math.max(...values)
  return points
    .map(([, v]) => {
      if (v === null) return ' '
      if (max === min) return BARS[values.length === 1 || max === 0 ? 0 : 3]!
      return BARS[Math.round(((v - min) / (max - min)) * (BARS.length - 1))]!
    })
    .join('')
}

/** The smallest and largest value, or none. */
export function rangeOf(points: readonly Point[]): { min: number; max: number } | undefined {
  const values = points.map(p => p[1]).filter((v): v is number => v !== null)
  if (values.length === 0) return undefined
  return { min: Math.min(...values), max: Math.max(...values) }
}

/** "09:30" in UTC; with `days`, "Mon 09:30". */
export function timeLabel(ms: number, days = false): string {
  const d = new Date(ms)
  const hm = d.toISOString().slice(11, 16)
  return days ? `${['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()]} ${hm}` : hm
}

/** A number as mermaid reads it: plain decimal, no exponent, no grouping. */
function plain(n: number): string {
  if (!Number.isFinite(n)) return '0'
  const rounded = Number(n.toPrecision(12))
  return Math.abs(rounded) >= 1e21 || (Math.abs(rounded) < 1e-6 && rounded !== 0)
    ? rounded.toFixed(6)
    : String(rounded)
}

/**
 * A mermaid `xychart-beta`: the points as a line over their bucket times, and (for an alert) its threshold
 * as a second, flat line. Only our own text: times, numbers and fixed words.
 */
export function mermaidChart(
  points: readonly Point[],
  options: { threshold?: number; thresholdMax?: number; days?: boolean; axis?: string } = {}
): string {
  const shown = points.filter((p): p is readonly [number, number] => p[1] !== null)
  const labels = shown.map(p => `"${timeLabel(p[0], options.days)}"`)
  const values = shown.map(p => p[1])
  const lines = [`line [${values.map(plain).join(', ')}]`]
  const all = [...values]
  for (const t of [options.threshold, options.thresholdMax]) {
    if (t === undefined) continue
    lines.push(`line [${values.map(() => plain(t)).join(', ')}]`)
    all.push(t)
  }
  const min = Math.min(0, ...all)
  const max = Math.max(...all)
  const top = max === min ? min + 1 : max
  // A week of buckets has too many labels to read under each other: its axis is days before the last bucket.
  const span = shown.length > 1 ? (shown.at(-1)![0] - shown[0]![0]) / DAY_MS : 0
  const xAxis = options.days
    ? `  x-axis "days before ${timeLabel(shown.at(-1)?.[0] ?? 0, true)} UTC" ${plain(-Number(span.toFixed(2)))} --> 0`
    : `  x-axis [${labels.join(', ')}]`
  return [
    // The series in GitHub's blue, a threshold in its red: mermaid's default palette draws the line near white.
    `%%{init: {"themeVariables": {"xyChart": {"plotColorPalette": "#0969da, #cf222e, #cf222e"}}}}%%`,
    'xychart-beta',
    xAxis,
    `  y-axis "${options.axis ?? 'value'}" ${plain(min)} --> ${plain(top)}`,
    ...lines.map(l => `  ${l}`)
  ].join('\n')
}

const DAY_MS = 86_400_000

/** Whether mermaid can draw the series: at least two points with values. */
export const charts = (points: readonly Point[]): boolean => points.filter(p => p[1] !== null).length >= 2

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

/** The one line that says what a series shows, or why there is none: never blank. */
export function seriesVerdict(
  status: SeriesStatus,
  points: readonly Point[],
  format: Record<string, unknown> | undefined,
  hours: string
): { loud: boolean; text: string } {
  switch (status) {
    case 'empty':
      return { loud: true, text: `NO DATA in ${hours}: the query matches nothing` }
    case 'error':
      return { loud: true, text: 'the query fails on the server' }
    case 'managed':
      return { loud: false, text: 'no data preview: the managed API has no charts route' }
    case 'unsupported':
      return { loud: false, text: 'no data preview' }
    case 'ok': {
      const range = rangeOf(points)
      if (!range) return { loud: true, text: `${points.length} buckets, none with a value` }
      const n = points.length
      return {
        loud: false,
        text: `${n} ${n === 1 ? 'bucket' : 'buckets'} with data, ${range.min === range.max ? `all ${formatNumber(range.min, format)}` : `${formatNumber(range.min, format)} to ${formatNumber(range.max, format)}`}`
      }
    }
  }
}
