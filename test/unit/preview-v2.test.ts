/**
 * The preview's version-2 renderers (report/preview/), on entries built by hand as the collector writes them:
 * whole time axes, every display type as itself, alert windows with the fired ones marked, preview-values
 * hide, hostile names, and the comment's size limit.
 */
import { describe, expect, it } from '@jest/globals'
import { fitSegments } from '../../src/report/budget.js'
import { GAP, scaleFor } from '../../src/report/preview/chart.js'
import { previewRuns } from '../../src/report/preview/markdown.js'
import { previewLines } from '../../src/report/preview/text.js'
import type { AlertSeries, LayoutPreview, TileSeries } from '../../src/plan/preview.js'
import { alert, DAY, HOUR, MIN, planOf, sparse, T0, tile } from './preview-fixtures.js'

/** The comment's preview, with room for everything. */
const markdown = (tiles: TileSeries[], alerts: AlertSeries[] = [], values?: 'hide'): string =>
  fitSegments(previewRuns(planOf({ tiles, alerts, values })), 1_000_000, 'chars')
const text = (tiles: TileSeries[], alerts: AlertSeries[] = [], values?: 'hide'): string =>
  previewLines(planOf({ tiles, alerts, values }), (_style, t) => t).join('\n')

const mermaidBlocks = (md: string): string[] =>
  [...md.matchAll(/```mermaid\n([\s\S]*?)\n\s*```/g)].map(m => m[1]!.replace(/^ {2}/gm, ''))

/**
 * A mermaid xychart as GitHub's mermaid reads it: only statements of its grammar (xychart.jison), and each
 * line's values spread over a numeric x axis by stepping from min to max in floats, as xychartDb.ts
 * `transformDataWithoutCategory` does: a value without a step of its own is not drawn.
 */
function readChart(source: string): { xMin: number; xMax: number; lines: number[][]; drawn: number[] } {
  const rows = source.split('\n').map(l => l.trim())
  expect(rows[0]).toMatch(
    /^%%\{init: \{"themeVariables": \{"xyChart": \{"plotColorPalette": "[#0-9a-f, ]+"\}\}\}\}%%$/
  )
  expect(rows[1]).toBe('xychart-beta')
  const x =
    /^x-axis "(?:\d+m steps|[a-z]+) from (?:[A-Z][a-z]{2} )?(?:\d{1,2} [A-Z][a-z]{2} )?\d\d:\d\d UTC" (-?[\d.]+) --> (-?[\d.]+)$/.exec(
      rows[2]!
    )
  expect(x).not.toBeNull()
  expect(rows[3]).toMatch(/^y-axis "value" -?[\d.]+ --> -?[\d.]+$/)
  const lines = rows.slice(4).map(r => {
    const m = /^line \[(-?[\d.]+(?:, -?[\d.]+)*)\]$/.exec(r)
    expect(m).not.toBeNull()
    return m![1]!.split(', ').map(Number)
  })
  const [xMin, xMax] = [Number(x![1]), Number(x![2])]
  const drawn = lines.map(l => {
    const step = (xMax - xMin) / (l.length - 1)
    let n = 0
    for (let i = xMin; i <= xMax; i += step) n++
    return n
  })
  return { xMin, xMax, lines, drawn }
}

const spark = (line: string): string => /`([▁▂▃▄▅▆▇█·]+)`/.exec(line)![1]!

describe('a whole time axis', () => {
  it('charts a tile with rows in a quarter of its buckets over all 48, each bucket at its time', () => {
    const md = markdown([tile()])
    const line = md.split('\n').find(l => l.startsWith('- **Errors**'))!
    const chars = [...spark(line)]
    expect(chars).toHaveLength(48)
    // Zero-filled: a bucket without rows is drawn at the bottom, the burst (bucket 28, 02:00) at the top.
    expect(chars.indexOf('█')).toBe(28)
    expect(chars.filter((_, i) => i % 4 !== 0).every(c => c === '▁')).toBe(true)
    expect(line).toContain('0 to 40, rows in 12 of 48 buckets')
    expect(line).toContain('24 h, Sat 12:00 to Sun 12:00 UTC, 48 30m buckets')
    const [chart] = mermaidBlocks(md)
    const read = readChart(chart!)
    expect(read.lines[0]).toEqual(sparse().map(v => v ?? 0))
    // Bucket i at i/2 hours from the start: the axis is in hours, its labels where the times are.
    expect(chart).toContain('x-axis "hours from Sat 12:00 UTC" 0 --> 23.5')
    expect(read.drawn).toEqual([48])
  })

  it('shows a null as a gap where the tile does not fill nulls, and draws no false mermaid zero', () => {
    const md = markdown([tile({ fill: 'gap' })])
    const chars = [...spark(md.split('\n').find(l => l.startsWith('- **Errors**'))!)]
    expect(chars.map((c, i) => (c === GAP) === (sparse()[i] === null))).not.toContain(false)
    expect(mermaidBlocks(md)).toEqual([])
    expect(md).toContain('no chart: mermaid cannot leave a gap')
    expect(md).toContain(`(${GAP}: no rows)`)
  })

  it('says when the first and last buckets are partial, as the server aligns them to the epoch', () => {
    // A range from 07:57:15 at 30m: 49 buckets, the first from 07:30, the last holding the end (docs/real-server.md).
    const startTime = T0 - 4 * HOUR + 27 * MIN + 15_000
    const axis = { start: T0 - 4 * HOUR, step: 30 * MIN, count: 49 }
    const md = markdown([
      tile({ startTime, endTime: startTime + DAY, axis, lines: [{ values: Array(49).fill(1), total: 49 }] })
    ])
    expect(md).toContain('24 h, Sat 08:27 to Sun 08:27 UTC, 49 30m buckets (the first and last partial)')
    expect(md).toContain('x-axis "hours from Sat 08:00 UTC" 0 --> 24')
  })

  it.each([
    ['30s', 30_000, DAY],
    ['1m', MIN, DAY],
    ['5m', 5 * MIN, DAY],
    ['10m', 10 * MIN, DAY],
    ['15m', 15 * MIN, DAY],
    ['30m', 30 * MIN, DAY],
    ['1h', HOUR, DAY],
    ['6h', 6 * HOUR, DAY],
    ['5m over 7 days', 5 * MIN, 7 * DAY],
    ['1m over 7 days', MIN, 7 * DAY],
    ['1h over 7 days', HOUR, 7 * DAY],
    ['1d over 7 days', DAY, 7 * DAY],
    ['7m (no nice run)', 7 * MIN, DAY]
  ])('draws every point of a %s axis in mermaid (no float step drops the last)', (_name, step, span) => {
    const count = Math.floor(span / step)
    const values = Array.from({ length: count }, (_, i) => i % 11)
    const md = markdown([tile({ axis: { start: T0, step, count }, lines: [{ values, total: null }] })])
    const read = readChart(mermaidBlocks(md)[0]!)
    const scale = scaleFor({ start: T0, step, count })
    expect(read.lines[0]).toHaveLength(scale.points)
    expect(read.drawn).toEqual([scale.points])
    expect(scale.points).toBeLessThanOrEqual(96)
    expect(scale.points * scale.factor).toBeGreaterThanOrEqual(count)
    // Each point stands for whole buckets, and the last point sits where its run starts.
    expect(read.xMin).toBe(0)
    expect(read.xMax).toBeCloseTo((scale.points - 1) * (scale.pointMs / scale.unit.ms), 6)
  })

  it('draws a long axis in fewer points, each the highest of its run, and says so', () => {
    const values = Array.from({ length: 288 }, (_, i) => (i === 100 ? 50 : 1))
    const md = markdown([
      tile({ axis: { start: T0, step: 5 * MIN, count: 288 }, lines: [{ values, total: null }] })
    ])
    const line = md.split('\n').find(l => l.startsWith('- **Errors**'))!
    expect(line).toContain('288 5m buckets; each character the highest of 3 buckets (15m)')
    const chars = [...spark(line)]
    expect(chars).toHaveLength(96)
    expect(chars.indexOf('█')).toBe(Math.floor(100 / 3))
    expect(readChart(mermaidBlocks(md)[0]!).lines[0]![33]).toBe(50)
  })
})

const GROUPS = ['checkout', 'payments', 'search', 'cart', 'auth']
const grouped = (over: Partial<TileSeries> = {}): TileSeries =>
  tile({
    tile: 'By service',
    lines: GROUPS.map((name, g) => ({
      name,
      values: Array.from({ length: 48 }, (_, i) => (i === g ? 100 - g : g)),
      total: 1000 - g
    })),
    moreGroups: 12,
    other: { values: Array(48).fill(2), total: 96 },
    ...over
  })

describe('groups as lines', () => {
  it('draws up to 5 groups as named lines, counts the rest and sums them as other for a count', () => {
    const md = markdown([grouped()])
    const rows = md.split('\n')
    for (const [g, name] of GROUPS.entries()) {
      const row = rows.find(r => r.startsWith(`  - \`${name}\`: `))!
      expect([...spark(row)].indexOf('█')).toBe(g)
      expect(row).toContain(`total ${1000 - g}`)
    }
    expect(md).toContain('5 of 17 groups, largest first')
    expect(md).toContain('  - and 12 more groups\n')
    expect(md).toMatch(/ {2}- other \(their sum\): `▄{48}` all 2, total 96/)
    const chart = readChart(mermaidBlocks(md)[0]!)
    expect(chart.lines).toHaveLength(6)
    expect(chart.lines[5]).toEqual(Array(48).fill(2))
    expect(md).toContain(
      'Lines: blue `checkout`, orange `payments`, green `search`, purple `cart`, pink `auth`, grey other'
    )
    const terminal = text([grouped()])
    expect(terminal).toContain('    "checkout": ')
    expect(terminal).toContain('    and 12 more groups')
  })

  it('never sums the rest of an average: counted, and said why', () => {
    const md = markdown([grouped({ aggFn: 'avg', other: undefined })])
    expect(md).toContain('and 12 more groups (not summed: avg values of groups do not add up)')
    expect(md).not.toContain('other')
    expect(readChart(mermaidBlocks(md)[0]!).lines).toHaveLength(5)
  })
})

describe('every display type as itself', () => {
  it('says a number, its change against the range before, and when it is approximate', () => {
    const n = (over: Partial<TileSeries>) =>
      markdown([tile({ tile: 'N', displayType: 'number', lines: undefined, ...over })])
    expect(n({ value: 0.012, previous: 0.01, numberFormat: { output: 'percent', mantissa: 1 } })).toContain(
      '- **N**: 1.2% over the last 24 h · ▲ up 20% from 1.0% the 24 h before'
    )
    expect(n({ value: 75, previous: 100 })).toContain('▼ down 25% from 100 the 24 h before')
    expect(n({ value: 75, previous: null })).toContain('75 over the last 24 h · no previous value')
    expect(n({ value: 3, previous: 3, approximate: 'a quantile of buckets' })).toContain(
      'unchanged from the 24 h before (a quantile of buckets)'
    )
    expect(mermaidBlocks(n({ value: 1, previous: 2 }))).toEqual([])
  })

  it('draws a table as a small markdown table, its cells inert and cut, and counts the rest', () => {
    const md = markdown([
      tile({
        tile: 'Top',
        displayType: 'table',
        lines: undefined,
        table: {
          columns: ['service', 'count'],
          rows: [
            ['a|b', 1200],
            ['`x` <img src=x onerror=alert(1)>\nline two', 3],
            ['y'.repeat(100), null]
          ],
          more: 9
        }
      })
    ])
    const table = md.split('\n').filter(l => l.startsWith('  |'))
    expect(table).toHaveLength(5)
    // Every row has exactly the table's 3 unescaped pipes: no cell can add a column.
    for (const row of table) expect(row.match(/(?<!\\)\|/g)).toHaveLength(3)
    expect(table[2]).toBe('  | a\\|b | 1200 |')
    expect(table[3]).toBe('  | \\`x\\` &lt;img src=x onerror=alert\\(1\\)&gt; line two | 3 |')
    expect(table[4]).toBe(`  | ${'y'.repeat(60)}… |  |`)
    expect(md).toContain('- **Top**: 12 rows over the last 24 h, the top 3')
    expect(md).toContain('  - and 9 more rows')
  })

  it('draws pie and bar tiles as bars of block characters, in proportion', () => {
    const md = markdown([
      tile({
        tile: 'Share',
        displayType: 'pie',
        lines: undefined,
        bars: [
          { name: 'checkout', value: 120 },
          { name: 'payments', value: 60 },
          { name: 'auth', value: 15 }
        ],
        moreGroups: 4
      })
    ])
    const block = /```\n([\s\S]*?)\n\s*```/
      .exec(md)![1]!
      .split('\n')
      .map(l => l.trim())
    expect(block).toEqual([
      `checkout ${'█'.repeat(24)} 120`,
      `payments ${'█'.repeat(12)}${' '.repeat(12)} 60`,
      `auth     ███${' '.repeat(21)} 15`
    ])
    expect(md).toContain('7 parts over the last 24 h')
    expect(md).toContain('and 4 more parts')
  })

  it.each([
    ['search', 'a search tile lists events'],
    ['markdown', 'a markdown tile: text, no data'],
    ['heatmap', 'a heatmap: not drawn in the preview']
  ])('says in a sentence why a %s tile has no chart, and draws none', (displayType, said) => {
    const md = markdown([
      tile({ displayType, status: 'unsupported', lines: [{ values: sparse(), total: 1 }] })
    ])
    expect(md).toContain(`- ℹ️ **Errors**: ${said}`)
    expect(md).not.toMatch(/[▁▂▃▄▅▆▇█]/)
    expect(mermaidBlocks(md)).toEqual([])
  })
})

it('says the reason the collector gives for a tile without a chart once, instead of its own words', () => {
  const reason = 'a search tile: it lists events, it charts nothing'
  const md = markdown([tile({ displayType: 'search', status: 'unsupported', reason })])
  expect(md).toContain(`- ℹ️ **Errors**: ${reason}`)
  expect(md).not.toContain('no chart of it here')
})

describe('an alert replayed over its windows', () => {
  it('says the windows marked as fired, of all the axis windows, and marks each in the sparkline', () => {
    const md = markdown([], [alert()])
    expect(md).toContain('would have fired in 5 of 2,016 5m windows in 7 days at above 5')
    expect(md).toContain(
      'fired in the windows from Sun 22 Nov 20:20 (3 in a row), Wed 25 Nov 15:00, Sun 29 Nov 11:55'
    )
    const [values, fired] = /```\n(values .*)\n(fired .*)\n```/.exec(md)!.slice(1)
    const marks = [...fired!.slice(7)].flatMap((c, i) => (c === '^' ? [i] : []))
    expect(marks).toEqual([100, 900, 2015].map(i => Math.floor(i / 36)))
    for (const m of marks) expect([...values!.slice(7)][m]).toBe('█')
    const chart = readChart(mermaidBlocks(md)[0]!)
    expect(chart.lines[1]).toEqual(Array(56).fill(5))
    for (const m of marks) expect(chart.lines[0]![m]).toBe(9)
    expect(chart.drawn).toEqual([56, 56])
    expect(md).toContain('each point the most alarming of 36 windows, so no fired window is lost')
  })

  it('keeps a fired window over a more extreme one that did not fire, and the lowest for a below alert', () => {
    const values: Array<number | null> = Array(2016).fill(10)
    values[40] = 0 // fired (3 in a row ends here)
    values[41] = -5 // lower, but not fired
    const below = alert({
      thresholdType: 'below',
      threshold: 1,
      values,
      firing: [40],
      numConsecutiveWindows: 3
    })
    const md = markdown([], [below])
    expect(readChart(mermaidBlocks(md)[0]!).lines[0]![1]).toBe(0)
    expect(md).toContain('would have fired in 1 of 2,016 5m windows in 7 days')
    expect(md).toContain(', after 3 windows in a row')
    expect(md).toContain('; fires after 3 windows in a row')
    // Without a fired window in the run, the lowest is the most alarming.
    const md2 = markdown([], [alert({ ...below, firing: [] })])
    expect(readChart(mermaidBlocks(md2)[0]!).lines[0]![1]).toBe(-5)
  })
})

describe('preview-values: hide', () => {
  it('prints no name and no cell, even where the plan file holds one', () => {
    const tiles = [
      grouped(),
      tile({
        tile: 'Top',
        displayType: 'table',
        lines: undefined,
        table: { columns: ['user_email', 'count'], rows: [['jane@example.com', 5]], more: 2 }
      }),
      tile({ tile: 'Share', displayType: 'bar', lines: undefined, bars: [{ name: '10.0.0.7', value: 3 }] })
    ]
    for (const out of [markdown(tiles, [], 'hide'), text(tiles, [], 'hide')]) {
      for (const secret of [...GROUPS, 'jane', '10.0.0.7']) expect(out).not.toContain(secret)
      expect(out).toMatch(/group 1`?: /)
      expect(out).toMatch(/group 5`?: /)
      expect(out).toMatch(/3 rows over the last 24 h, 2 columns \(user\\?_email, count\); values not shown/)
      expect(out).toContain('part 1')
    }
  })
})

const HOSTILE = [
  'x"]; click A call evil()',
  '</details><script>x</script>',
  'a|b',
  '``` `x`',
  '\u001b[31mred\u001b[0m',
  '@team #12'
]

describe('names from the data are inert', () => {
  const tiles = [
    grouped({ lines: HOSTILE.slice(0, 5).map((name, g) => ({ name, values: Array(48).fill(g), total: g })) }),
    tile({
      tile: 'Top',
      displayType: 'table',
      lines: undefined,
      table: { columns: ['</details>', 'n|m'], rows: HOSTILE.map(h => [h, 1]), more: 0 }
    }),
    tile({
      tile: 'Share',
      displayType: 'pie',
      lines: undefined,
      bars: HOSTILE.map(name => ({ name, value: 1 }))
    }),
    tile({ tile: 'Bad', status: 'error', lines: undefined, reason: HOSTILE.join(' ') })
  ]
  it('in the comment: no markup, no mermaid syntax, no terminal escape', () => {
    const md = markdown(tiles, [alert({ alert: HOSTILE[1]!, reason: HOSTILE[0] })])
    expect(md).not.toContain('\u001b')
    // Outside code (where nothing renders), no tag but ours: the two <details> close where they should.
    const prose = md.replace(/(`{3,})[\s\S]*?\1/g, '').replace(/(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, '')
    expect(prose).not.toContain('<script>')
    expect(prose.match(/<\/details>/g)).toHaveLength(2)
    expect(prose).not.toContain('@team')
    expect(prose).not.toContain('#12')
    for (const chart of mermaidBlocks(md)) {
      expect(chart).not.toContain('click')
      readChart(chart)
    }
    // A fence in a name cannot close a code block: the bars' block opens with a longer fence.
    expect(md).toMatch(/\n {2}````\n(?: {2}.*\n)*? {2}``` `x` +█+ 1\n/)
  })
  it('in the terminal: printable, on its own line', () => {
    const out = text(tiles)
    expect(out).not.toContain('\u001b')
    expect(out).toContain('"\\u{1B}[31mred\\u{1B}[0m"')
  })
})

describe('the size limit', () => {
  it('fits a plan of many dashboards with 5-group tiles, tables and week-long alerts in a comment', () => {
    const tiles: TileSeries[] = []
    const layouts: LayoutPreview[] = []
    for (let d = 0; d < 40; d++) {
      const dashboard = `Dashboard ${d}`
      layouts.push({
        address: `Dashboard/${dashboard}`,
        name: dashboard,
        action: 'create',
        after: {
          tiles: Array.from({ length: 8 }, (_, t) => ({
            name: `T${t}`,
            x: (t % 4) * 6,
            y: Math.floor(t / 4) * 3,
            w: 6,
            h: 3
          })),
          containers: []
        },
        edited: []
      })
      for (let t = 0; t < 6; t++) tiles.push(grouped({ dashboard, tile: `T${t}` }))
      tiles.push(
        tile({
          dashboard,
          tile: 'T6',
          displayType: 'table',
          lines: undefined,
          table: { columns: ['a', 'b'], rows: Array(10).fill(['x'.repeat(80), 1]), more: 90 }
        })
      )
      tiles.push(
        tile({
          dashboard,
          tile: 'T7',
          status: d % 10 === 0 ? 'empty' : 'ok',
          lines: d % 10 === 0 ? undefined : [{ values: sparse(), total: 1 }]
        })
      )
    }
    const alerts = Array.from({ length: 30 }, (_, i) => alert({ alert: `Alert ${i}` }))
    const resources = { full: 'R'.repeat(20_000), short: 'r' }
    const segments = [
      ...previewRuns(planOf({ layouts, tiles, alerts })),
      {
        head: '',
        items: [resources],
        tail: '',
        omitted: () => '',
        cutOrder: 10,
        shortenOrder: 0,
        keepHeadWhenEmpty: true
      }
    ]
    const body = fitSegments(segments, 65_536, 'chars')
    expect(body.length).toBeLessThanOrEqual(65_536)
    // The resources stay whole; the previews gave way, each kept dashboard with its loud facts.
    expect(body).toContain('R'.repeat(20_000))
    expect(body).toContain('(preview left out to fit)')
    // Every dashboard and alert kept its line (whole or short), the loud facts in it.
    const lines = body.split('\n')
    for (let d = 0; d < 40; d++) {
      const line = lines.find(l => l.includes(`<b>Dashboard ${d}</b>`) || l.includes(`**Dashboard ${d}**`))
      expect(line).toBeDefined()
      if (d % 10 === 0) expect(line).toContain('NO DATA in 24 h')
    }
    for (let i = 0; i < 30; i++)
      expect(lines.find(l => l.includes(`Alert ${i}<`) || l.includes(`Alert ${i}*`))).toContain(
        'would have fired in 5 of 2,016 5m windows'
      )
    // Tighter still: the previews go before anything else does.
    const tight = fitSegments(segments, 25_000, 'chars')
    expect(tight.length).toBeLessThanOrEqual(25_000)
    expect(tight).toContain('R'.repeat(20_000))
    expect(tight).toMatch(/more previews are not shown here/)
    // Every mermaid block left is whole.
    for (const chart of mermaidBlocks(body)) readChart(chart)
  })
})
