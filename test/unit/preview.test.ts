/** The preview's pure parts: the grid picture, the marks, the sparkline, number formats, and the size budget's order. */
import { describe, expect, it } from '@jest/globals'
import { fitSegments } from '../../src/report/budget.js'
import { formatNumber, mermaidChart, scaleFor, sparkline } from '../../src/report/preview/chart.js'
import { layoutPicture, tileChanges } from '../../src/report/preview/grid.js'
import { previewRuns } from '../../src/report/preview/markdown.js'
import { tileView } from '../../src/report/preview/views.js'
import { tile } from './preview-fixtures.js'
import { PREVIEW_VERSION, type LayoutPreview } from '../../src/plan/preview.js'
import type { Plan } from '../../src/plan/types.js'

const layout = (over: Partial<LayoutPreview> = {}): LayoutPreview => ({
  address: 'Dashboard/D',
  name: 'D',
  action: 'update',
  before: {
    tiles: [
      { name: 'A', x: 0, y: 0, w: 12, h: 2 },
      { name: 'Gone', x: 12, y: 0, w: 12, h: 2 }
    ],
    containers: []
  },
  after: {
    tiles: [
      { name: 'A', x: 12, y: 0, w: 12, h: 2 },
      { name: 'New', x: 0, y: 2, w: 24, h: 1 }
    ],
    containers: []
  },
  edited: [],
  ...over
})

describe('the layout picture', () => {
  it('draws each tile at 3 characters a column and a line a row, its mark and name in its top border', () => {
    const lines = layoutPicture(layout()).map(l => `${l.sign}${l.text}`)
    const after = lines.slice(lines.indexOf(' after (this plan):') + 1)
    expect(after[0]).toBe(`+${' '.repeat(36)}╔>A${'═'.repeat(32)}╗`)
    expect(after[2]).toBe(`+[+New${'═'.repeat(66)}]`)
    expect(lines[1]).toBe(`-╔>A${'═'.repeat(32)}╗╔-Gone${'═'.repeat(29)}╗`)
    expect(tileChanges(layout())).toEqual(
      new Map([
        ['A', 'moved'],
        ['New', 'new'],
        ['Gone', 'removed']
      ])
    )
  })

  it('keeps names inert and narrow: hidden characters shown, wide ones counted twice, long ones cut', () => {
    const lines = layoutPicture(
      layout({
        before: undefined,
        action: 'create',
        after: { tiles: [{ name: 'a\u202Eb漢字漢字漢字漢字漢字', x: 0, y: 0, w: 4, h: 2 }], containers: [] }
      })
    )
    expect(lines[1]!.text).toContain('\\u{202E}')
    expect(lines[1]!.text).toMatch(/…┐$/)
  })

  it('shows containers and tabs as sections of their own', () => {
    const text = layoutPicture(
      layout({
        before: undefined,
        action: 'create',
        after: {
          tiles: [{ name: 'T', x: 0, y: 0, w: 6, h: 2, container: 'Group', tab: 'Two' }],
          containers: [{ title: 'Group', tabs: ['One', 'Two'], collapsed: true }]
        }
      })
    )
      .map(l => l.text)
      .join('\n')
    expect(text).toContain('▸ container: Group (collapsed)')
    expect(text).toContain('  tabs: [One] [Two]')
    expect(text).toMatch(/▾ tab: One\n\(no tiles\)\n {2}▾ tab: Two\n┌T/)
  })
})

describe('charts and numbers', () => {
  it('draws a sparkline from lowest to highest, a gap for a missing value', () => {
    expect(sparkline([0, 7, null, 14])).toBe('▁▅·█')
  })
  it('formats values with the tile number format', () => {
    expect(formatNumber(0.1234, { output: 'percent', mantissa: 1 })).toBe('12.3%')
    expect(formatNumber(1536, { output: 'byte' })).toBe('1.5 KiB')
    expect(formatNumber(1234567, { output: 'number', thousandSeparated: true })).toBe('1,234,567')
    expect(formatNumber(2500, { output: 'number', average: true, unit: 'req/s' })).toBe('2.5k req/s')
    expect(formatNumber(1500, { output: 'duration' })).toBe('1.5 s')
  })
  it('says NO DATA only for an empty series', () => {
    const said = (over: Parameters<typeof tile>[0]) => JSON.stringify(tileView(tile(over), () => false).head)
    expect(said({ status: 'empty', lines: undefined })).toBe(
      JSON.stringify([{ loud: 'NO DATA in 24 h: the query matches nothing' }])
    )
    expect(said({})).not.toContain('NO DATA')
    expect(said({ lines: [{ values: Array(48).fill(null), total: null }] })).not.toContain('NO DATA')
  })
  it('puts only numbers, times and fixed words in a mermaid chart', () => {
    const axis = { start: 0, step: 1_800_000, count: 2 }
    expect(
      mermaidChart({
        start: 0,
        scale: scaleFor(axis),
        lines: [[1, 2]],
        colours: ['#0969da'],
        thresholds: [1.5]
      })
    ).toBe(
      '%%{init: {"themeVariables": {"xyChart": {"plotColorPalette": "#0969da, #cf222e"}}}}%%\nxychart-beta\n  x-axis "minutes from Thu 00:00 UTC" 0 --> 30\n  y-axis "value" 0 --> 2\n  line [1, 2]\n  line [1.5, 1.5]'
    )
  })
})

describe('a week of buckets in a mermaid chart', () => {
  it('has an axis of days from its first bucket, not a label per bucket', () => {
    const start = Date.UTC(2026, 10, 20, 12)
    const scale = scaleFor({ start, step: 3_600_000, count: 168 })
    const chart = mermaidChart({ start, scale, lines: [Array(scale.points).fill(1)], colours: ['#0969da'] })
    expect(chart.split('\n')[2]).toBe('  x-axis "days from Fri 20 Nov 12:00 UTC" 0 --> 6.875')
  })
})

describe('the size budget', () => {
  it('shortens and cuts the previews before any resource', () => {
    const plan = {
      preview: {
        version: PREVIEW_VERSION,
        layouts: Array.from({ length: 50 }, (_, i) => layout({ name: `D${i}` }))
      }
    } as unknown as Plan
    const resource = { full: 'R'.repeat(100), short: 'r' }
    const segments = [
      ...previewRuns(plan),
      {
        head: '',
        items: [resource],
        tail: '',
        omitted: () => '',
        cutOrder: 10,
        shortenOrder: 0,
        keepHeadWhenEmpty: true
      }
    ]
    const text = fitSegments(segments, 2000, 'chars')
    expect(text).toContain('R'.repeat(100))
    expect(text).toMatch(/more previews are not shown/)
    expect(text).not.toContain('<details>')
  })
})
