/**
 * What each tile and alert of the preview says, before any format: phrases of our own words with the data's
 * text kept apart (`Part`), and blocks (lines, a table, bars, a chart). markdown.ts and text.ts render the
 * same view, each escaping the data's parts its own way, so the comment and the terminal cannot disagree.
 *
 * Reads only the preview's version-2 fields (plan/preview.ts): a whole time axis, named lines, a number and
 * its previous value, a table, bars, aligned alert windows. `preview-values: hide` means the data holds no
 * names (the collector left them out): groups are numbered, a table is said by its shape.
 */
import { printable } from '../../log.js'
import type { AlertSeries, Axis, Line, PreviewTable, TileSeries } from '../../plan/preview.js'
import {
  axisWords,
  filled,
  formatNumber,
  highest,
  LINE_COLOURS,
  mermaidChart,
  rangeOf,
  runs,
  scaleFor,
  spanWords,
  sparkline,
  stepWords,
  timeLabel,
  GAP,
  longAxis,
  type Fill,
  type Scale,
  type Values
} from './chart.js'
import { alarming, firedWords, thresholdWords } from './model.js'

/**
 * A piece of a phrase: our own text as it is, or the data's (`data`: a server's or a manifest's text, a
 * number in the tile's format; `name`: a group's value, set apart as code), a sparkline, a loud fact.
 */
export type Part = string | { data: string } | { name: string } | { spark: string } | { loud: string }
export type Phrase = Part[]

/** How one format writes each kind of part (our own text goes as it is): each escapes the data its own way. */
export interface PhraseStyle {
  data(text: string): string
  name(text: string): string
  spark(text: string): string
  loud(text: string): string
}

/** A phrase in a format: the one place that tells the kinds of part apart. */
export function renderPhrase(phrase: Phrase, style: PhraseStyle): string {
  return phrase
    .map(p =>
      typeof p === 'string'
        ? p
        : 'data' in p
          ? style.data(p.data)
          : 'name' in p
            ? style.name(p.name)
            : 'spark' in p
              ? style.spark(p.spark)
              : style.loud(p.loud)
    )
    .join('')
}

export type Block =
  | { kind: 'rows'; rows: Phrase[] }
  | { kind: 'table'; columns: string[]; rows: string[][] }
  | { kind: 'bars'; rows: Array<{ label: Part; bar: string; value: string }> }
  /** Lines of our own characters only (sparklines and marks), aligned: a code block. */
  | { kind: 'code'; lines: string[] }
  | { kind: 'mermaid'; source: string; legend: Phrase }

export type Tone = 'ok' | 'info' | 'warn' | 'error'

export interface ItemView {
  tone: Tone
  head: Phrase
  blocks: Block[]
}

/** Groups drawn as lines; the rest are counted (plan/preview.ts keeps up to 5). */
export const MAX_LINES = 5
/** Table rows and bars shown; the rest are counted. */
export const MAX_ROWS = 10
const BAR_WIDTH = 24
/** A table cell's text is cut here. */
export const CELL_LENGTH = 60

const count = (n: number, word: string): string =>
  `${n.toLocaleString('en-US')} ${n === 1 ? word : `${word}s`}`

/**
 * A tile's view; `chart()` takes one of the section's mermaid charts (false: none left, or a terminal). With
 * `hide` (preview-values: hide) no name or cell is printed even if the plan file holds one.
 */
export function tileView(t: TileSeries, chart: () => boolean, hide = false): ItemView {
  const over = spanWords(t.endTime - t.startTime)
  const reason: Phrase = t.reason ? [': ', { data: t.reason }] : []
  switch (t.status) {
    case 'empty':
      return { tone: 'warn', head: [{ loud: `NO DATA in ${over}: the query matches nothing` }], blocks: [] }
    case 'error':
      return { tone: 'error', head: [{ loud: 'the query fails on the server' }, ...reason], blocks: [] }
    case 'managed':
      return {
        tone: 'info',
        head: ['no data preview: the managed API has no charts route'],
        blocks: []
      }
    case 'unsupported':
      // The collector's reason is a sentence of its own (a search tile lists events): said once, not twice.
      return {
        tone: 'info',
        head: t.reason ? [{ data: t.reason }] : [unsupportedWords(t.displayType)],
        blocks: []
      }
    case 'ok':
      break
  }
  const format = (n: number) => formatNumber(n, t.numberFormat)
  if (t.value !== undefined && (t.displayType === 'number' || t.lines === undefined))
    return numberView(t, format, over)
  if (t.table) return tableView(t.table, format, over, hide)
  if (t.bars) return barsView(hide ? { ...t, bars: t.bars.map(b => ({ value: b.value })) } : t, format, over)
  if (t.lines && t.axis) {
    const nameless = (l: Line): Line => ({ values: l.values, total: l.total })
    return linesView(hide ? { ...t, lines: t.lines.map(nameless) } : t, t.axis, format, chart)
  }
  return { tone: 'info', head: ['no values to show: the plan file holds none for this tile'], blocks: [] }
}

/** Why a tile has no chart, in a sentence: never a chart that is not its own. */
function unsupportedWords(displayType: string): string {
  switch (displayType) {
    case 'search':
      return 'a search tile lists events: no chart of it here'
    case 'markdown':
      return 'a markdown tile: text, no data'
    case 'heatmap':
      return 'a heatmap: not drawn in the preview'
    default:
      return 'no data preview'
  }
}

function numberView(t: TileSeries, format: (n: number) => string, over: string): ItemView {
  const value = t.value ?? null
  const head: Phrase =
    value === null ? [`no value over the last ${over}`] : [{ data: format(value) }, ` over the last ${over}`]
  const previous = t.previous ?? null
  head.push(' · ')
  if (value === null || previous === null) head.push('no previous value')
  else if (value === previous) head.push(`unchanged from the ${over} before`)
  else {
    const up = value > previous
    const by =
      previous === 0 ? '' : ` ${Number((Math.abs((value - previous) / previous) * 100).toPrecision(3))}%`
    head.push(`${up ? '▲ up' : '▼ down'}${by} from `, { data: format(previous) }, ` the ${over} before`)
  }
  if (t.approximate) head.push(' (', { data: t.approximate }, ')')
  return { tone: 'ok', head, blocks: [] }
}

function tableView(
  table: PreviewTable,
  format: (n: number) => string,
  over: string,
  hide: boolean
): ItemView {
  const total = table.rows.length + table.more
  const head: Phrase = [`${count(total, 'row')} over the last ${over}`]
  if (hide) {
    head.push(`, ${count(table.columns.length, 'column')} (`)
    table.columns.forEach((c, i) => head.push(...(i > 0 ? [', '] : []), { data: c }))
    head.push('); values not shown (preview-values: hide)')
  }
  if (hide || table.rows.length === 0 || table.columns.length === 0) return { tone: 'ok', head, blocks: [] }
  const shown = table.rows.slice(0, MAX_ROWS)
  const more = total - shown.length
  if (more > 0) head.push(`, the top ${shown.length}`)
  const cell = (c: string | number | null): string =>
    c === null ? '' : typeof c === 'number' ? format(c) : c
  const blocks: Block[] = [{ kind: 'table', columns: table.columns, rows: shown.map(r => r.map(cell)) }]
  if (more > 0) blocks.push({ kind: 'rows', rows: [[`and ${count(more, 'more row')}`]] })
  return { tone: 'ok', head, blocks }
}

const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉']

/** A bar of block characters, `value / max` of BAR_WIDTH, in eighths. */
export function blocks(value: number, max: number): string {
  if (max <= 0 || value <= 0) return ''
  const eighths = Math.max(1, Math.round((value / max) * BAR_WIDTH * 8))
  return '█'.repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8]!
}

function barsView(t: TileSeries, format: (n: number) => string, over: string): ItemView {
  const bars = t.bars ?? []
  const shown = bars.slice(0, MAX_ROWS)
  const max = Math.max(0, ...shown.map(b => Math.abs(b.value ?? 0)))
  const more = (t.moreGroups ?? 0) + bars.length - shown.length
  const head: Phrase = [`${count(bars.length + (t.moreGroups ?? 0), 'part')} over the last ${over}`]
  if (more > 0) head.push(`, the largest ${shown.length}`)
  const out: Block[] = [
    {
      kind: 'bars',
      rows: shown.map((b, i) => ({
        label: b.name !== undefined ? { name: b.name } : `part ${i + 1}`,
        bar: blocks(Math.abs(b.value ?? 0), max),
        value: b.value === null ? 'no value' : format(b.value)
      }))
    }
  ]
  if (more > 0) out.push({ kind: 'rows', rows: [[`and ${count(more, 'more part')}`]] })
  return { tone: 'ok', head, blocks: out }
}

/** How a line is labelled: its group's value, "group 2" when the data holds no name, nothing ungrouped. */
function lineLabel(line: Line, i: number, grouped: boolean): Part | undefined {
  if (line.name !== undefined) return { name: line.name }
  return grouped ? `group ${i + 1}` : undefined
}

/**
 * "0 to 35, rows in 12 of 48 buckets, total 1,234": a line's range as drawn (a null is 0 where the tile fills
 * nulls), in the tile's format.
 */
function rangePhrase(
  values: Values,
  fill: Fill | undefined,
  total: number | null,
  format: (n: number) => string,
  bucket = 'bucket'
): Phrase {
  const range = rangeOf(filled(values, fill))
  const out: Phrase = []
  if (!range) out.push('no rows')
  else if (range.min === range.max) out.push('all ', { data: format(range.min) })
  else out.push({ data: format(range.min) }, ' to ', { data: format(range.max) })
  const rows = values.filter(v => v !== null).length
  if (range && rows < values.length)
    out.push(`, rows in ${rows.toLocaleString('en-US')} of ${count(values.length, bucket)}`)
  if (total !== null) out.push(', total ', { data: format(total) })
  return out
}

/** "each point the highest of 3 5m buckets (15m)": how a long axis was drawn in fewer points. */
function runWords(scale: Scale, how: string, what: string): string {
  return scale.factor === 1
    ? ''
    : `; each character ${how} of ${scale.factor} ${what} (${stepWords(scale.pointMs)})`
}

function linesView(t: TileSeries, axis: Axis, format: (n: number) => string, chart: () => boolean): ItemView {
  const lines = (t.lines ?? []).slice(0, MAX_LINES)
  const more = (t.moreGroups ?? 0) + (t.lines ?? []).length - lines.length
  const grouped = lines.length > 1 || more > 0 || lines.some(l => l.name !== undefined)
  const scale = scaleFor(axis)
  const drawn = [...lines, ...(t.other ? [t.other] : [])].map(l =>
    runs(axis.count, scale.factor, highest(filled(l.values, t.fill)))
  )
  const gaps = drawn.some(d => d.includes(null))
  const head: Phrase = [
    `${axisWords(axis, t)}${runWords(scale, 'the highest', 'buckets')}${gaps ? ` (${GAP}: no rows)` : ''}`
  ]
  const rows: Phrase[] = []
  if (!grouped && lines.length === 1) {
    // One line, ungrouped: the sparkline leads the tile's line.
    head.unshift(
      { spark: sparkline(drawn[0]!) },
      ' ',
      ...rangePhrase(lines[0]!.values, t.fill, null, format),
      ' · '
    )
  } else {
    head.push(
      ` · ${lines.length + more === lines.length ? count(lines.length, 'group') : `${lines.length} of ${count(lines.length + more, 'group')}`}, largest first`
    )
    lines.forEach((l, i) => {
      const label = lineLabel(l, i, true)!
      rows.push([
        label,
        ': ',
        { spark: sparkline(drawn[i]!) },
        ' ',
        ...rangePhrase(l.values, t.fill, l.total, format)
      ])
    })
    if (more > 0) {
      const summed = t.other !== undefined
      // The aggregate function is the manifest's: data, not our words.
      const why: Phrase =
        summed || !t.aggFn ? [] : [' (not summed: ', { data: t.aggFn }, ' values of groups do not add up)']
      rows.push([`and ${count(more, 'more group')}`, ...why])
      if (t.other)
        rows.push([
          'other (their sum): ',
          { spark: sparkline(drawn[lines.length]!) },
          ' ',
          ...rangePhrase(t.other.values, t.fill, t.other.total, format)
        ])
    }
  }
  const chartable = scale.points >= 2 && drawn.length > 0
  if (chartable && gaps)
    rows.push(['no chart: mermaid cannot leave a gap where a bucket has no rows (the sparkline does)'])
  const blocks: Block[] = rows.length > 0 ? [{ kind: 'rows', rows }] : []
  if (chartable && !gaps && chart()) {
    const colours = drawn.map((_, i) =>
      i === lines.length
        ? LINE_COLOURS[LINE_COLOURS.length - 1]!
        : LINE_COLOURS[i % (LINE_COLOURS.length - 1)]!
    )
    const legend: Phrase = []
    if (grouped) {
      legend.push('Lines: ')
      drawn.forEach((_, i) => {
        if (i > 0) legend.push(', ')
        legend.push(`${colours[i]![1]} `, i === lines.length ? 'other' : lineLabel(lines[i]!, i, true)!)
      })
    }
    blocks.push({
      kind: 'mermaid',
      source: mermaidChart({
        start: axis.start,
        scale,
        lines: drawn.map(d => d.map(v => v ?? 0)),
        colours: colours.map(c => c[0])
      }),
      legend
    })
  }
  return { tone: 'ok', head, blocks }
}

// ---------------------------------------------------------------------------------------------------
// Alerts

/** The summary of an alert's replay: how often it would have fired, of how many windows, at what. */
export function alertSummary(a: AlertSeries): ItemView {
  const format = (n: number) => formatNumber(n, a.numberFormat)
  const reason: Phrase = a.reason ? [': ', { data: a.reason }] : []
  switch (a.status) {
    case 'error':
      return { tone: 'error', head: [{ loud: 'the query fails on the server' }, ...reason], blocks: [] }
    case 'managed':
      return { tone: 'info', head: ['no replay: the managed API has no charts route'], blocks: [] }
    case 'unsupported':
      return { tone: 'info', head: ['no replay', ...reason], blocks: [] }
    default:
      break
  }
  const head: Phrase = [{ data: firedWords(a, format) }]
  if (a.status === 'empty')
    head.push(' · ', { loud: `NO DATA in ${spanWords(a.endTime - a.startTime)}: the query matches nothing` })
  return { tone: a.status === 'empty' ? 'warn' : 'ok', head, blocks: [] }
}

/** Runs of fired windows named in words; the rest counted. */
const FIRED_NAMED = 5

/** The fired windows as runs of consecutive windows: [first index, how many]. */
export function firedRuns(indexes: number[]): Array<[number, number]> {
  const out: Array<[number, number]> = []
  for (const i of [...new Set(indexes)].sort((x, y) => x - y)) {
    const last = out.at(-1)
    if (last && last[0] + last[1] === i) last[1]++
    else out.push([i, 1])
  }
  return out
}

/** An alert's replay: every window's value along the axis, the fired ones marked, and a chart. */
export function alertBody(a: AlertSeries, chart: () => boolean): Block[] {
  if (a.status !== 'ok' || !a.axis || !a.values) return []
  const axis = a.axis
  const format = (n: number) => formatNumber(n, a.numberFormat)
  const scale = scaleFor(axis)
  const values = filled(a.values, a.fill)
  const firing = new Set(a.firing ?? [])
  const pick = alarming(a, values, firing)
  const drawn = runs(axis.count, scale.factor, pick)
  const fired = runs(axis.count, scale.factor, (from, to) => {
    for (let i = from; i < to; i++) if (firing.has(i)) return true
    return false
  })
  const gaps = drawn.includes(null)
  const said: Phrase = [
    `${axisWords(axis, a, 'windows')}${runWords(scale, 'the most alarming', 'windows')}${gaps ? ` (${GAP}: no rows)` : ''}. Threshold `,
    { data: thresholdWords(a, format) }
  ]
  if ((a.numConsecutiveWindows ?? 1) > 1)
    said.push(`; fires after ${a.numConsecutiveWindows} windows in a row`)
  if (rangeOf(values)) said.push('; values ', ...rangePhrase(a.values, a.fill, null, format, 'window'))
  const spells = firedRuns([...firing])
  if (spells.length > 0) {
    const dates = longAxis(axis)
    const named = spells.slice(0, FIRED_NAMED).map(([from, n]) => {
      const at = timeLabel(axis.start + from * axis.step, true, dates)
      return n === 1 ? at : `${at} (${n} in a row)`
    })
    const left = spells.length - named.length
    said.push(
      `; fired in the windows from ${named.join(', ')}${left > 0 ? ` and ${count(left, 'more run')}` : ''}`
    )
  }
  said.push('.')
  const out: Block[] = [
    { kind: 'rows', rows: [said] },
    {
      kind: 'code',
      lines: [
        `values ${sparkline(drawn)}`,
        ...(firing.size > 0
          ? [
              `fired  ${fired
                .map(f => (f ? '^' : ' '))
                .join('')
                .trimEnd()}`
            ]
          : [])
      ]
    }
  ]
  if (scale.points < 2) return out
  if (gaps)
    out.push({
      kind: 'rows',
      rows: [['no chart: mermaid cannot leave a gap where a window has no rows (the sparkline does)']]
    })
  else if (chart()) {
    const thresholds = [a.threshold, ...(a.thresholdMax !== undefined ? [a.thresholdMax] : [])]
    out.push({
      kind: 'mermaid',
      source: mermaidChart({
        start: axis.start,
        scale,
        lines: [drawn.map(v => v ?? 0)],
        colours: [LINE_COLOURS[0]![0]],
        thresholds
      }),
      legend: [
        `Blue: the value${scale.factor > 1 ? ` (each point the most alarming of ${scale.factor} windows, so no fired window is lost)` : ''}; red: the threshold.`
      ]
    })
  }
  return out
}

/** Bars as aligned lines of a code block, where no name can be markup. */
export function barLines(rows: ReadonlyArray<{ label: string; bar: string; value: string }>): string[] {
  const width = Math.max(...rows.map(r => [...r.label].length))
  const barWidth = Math.max(...rows.map(r => [...r.bar].length))
  return rows.map(r => `${padEnd(r.label, width)} ${padEnd(r.bar, barWidth)} ${r.value}`.trimEnd())
}

const padEnd = (text: string, width: number): string =>
  text + ' '.repeat(Math.max(0, width - [...text].length))

/** A bar's label, for a code block: one line, nothing hidden. */
export const labelText = (p: Part): string =>
  typeof p === 'string' ? p : 'name' in p ? printable(p.name, 40) : 'data' in p ? printable(p.data, 40) : ''
