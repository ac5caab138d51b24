/**
 * check-queries' data preview against the emulator, each number checked against what the emulator's series
 * route returns for the same query and range (and, independently, against the events themselves): a whole
 * time axis, each display type as itself, the alert replay counted as the server's check counts it, and
 * values from the data masked (preview-values). The run's clock is fixed, so buckets and windows are known.
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import type { StoredEvent } from '../../emulator/index.js'
import type { AlertSeries, TileSeries } from '../../src/plan/preview.js'
import { call } from '../emulator/helpers.js'
import { alert, dashboard, obsdeploy, useScenario } from '../support/harness.js'

const { emu, ws } = useScenario({ per: 'file' })

const MIN = 60_000
const HOUR = 60 * MIN
const DAY = 24 * HOUR
const STEP = 30 * MIN
/** The run's clock: 12:07 UTC, so the last whole 30m bucket ends at 12:00 and the last 5m window at 12:05. */
const NOW = Date.UTC(2031, 4, 14, 12, 7, 30)
const END = Math.floor(NOW / STEP) * STEP
const START = END - DAY

const logsId = () => emu.selfHosted.sources.find(s => s.name === 'Logs')!.id

const pending: Array<{ at: number; fields: Record<string, string | number> }> = []
/** Events of this file (app:pv), apart from the seed's, which sit around the real clock: stored before the tests. */
function add(events: Array<{ at: number; fields: Record<string, string | number> }>): void {
  pending.push(...events)
}
beforeAll(() => {
  const source = logsId()
  const events = pending
  emu.selfHosted.events.push(
    ...events.map((e): StoredEvent => ({
      timestamp: e.at,
      sourceId: source,
      fields: { app: 'pv', ...e.fields }
    }))
  )
})

async function route(body: Record<string, unknown>): Promise<Array<Record<string, unknown>>> {
  const answer = await call(emu, 'POST', '/api/v2/charts/series', { body })
  expect(answer.status).toBe(200)
  return answer.json.data
}

async function plan(files: Record<string, string>, settings: Record<string, string> = {}) {
  ws.write(files)
  const result = await obsdeploy(emu, ws, 'plan', { 'check-queries': 'true', ...settings }, false, {
    now: () => new Date(NOW)
  })
  return result
}
const tileOf = (r: Awaited<ReturnType<typeof plan>>, name: string): TileSeries =>
  r.plan!.preview!.tiles!.find(t => t.tile === name)!
const alertOf = (r: Awaited<ReturnType<typeof plan>>, name: string): AlertSeries =>
  r.plan!.preview!.alerts!.find(a => a.alert === name)!

const tile = (name: string, x: number, body: string) => `  - name: ${JSON.stringify(name)}
    x: ${x}
    y: 0
    w: 4
    h: 3
${body}`

// Seven users (emails) with data in 12 of the 48 buckets (a quarter): user i has i + 1 events in each bucket
// k = 4j + (i % 4) ... spread so groups rank apart. Durations for the averages.
const users = Array.from({ length: 7 }, (_, i) => `user${i}.name@customer.example`)
const busy = Array.from({ length: 12 }, (_, j) => START + (4 * j + 1) * STEP)
add(
  users.flatMap((user, i) =>
    busy.flatMap((bucket, j) =>
      Array.from({ length: i + 1 + (j % 3) }, (_, n) => ({
        at: bucket + (n + 1) * MIN,
        fields: {
          user,
          service: i < 3 ? 'checkout' : 'search',
          ip: `10.1.${i}.${j}`,
          duration: 100 * (i + 1) + n
        }
      }))
    )
  )
)
// The 24 hours before: fewer, so a number has a previous value to differ from.
add(
  busy.map((bucket, j) => ({
    at: bucket - DAY + MIN,
    fields: { user: users[0]!, service: 'checkout', duration: 50 + j }
  }))
)

describe('a tile with data in a quarter of its buckets', () => {
  it('is charted over the whole 24 h axis at 30m, its top 5 groups ranked by total, the rest counted and summed as other', async () => {
    const r = await plan({
      'd.yaml': dashboard(
        'Data',
        tile(
          'By user',
          0,
          `    series:\n      - type: time\n        source: Logs\n        aggFn: count\n        where: 'app:pv'\n        groupBy: [user]\n`
        )
      )
    })
    const t = tileOf(r, 'By user')
    expect(t.status).toBe('ok')
    expect(t.axis).toEqual({ start: START, step: STEP, count: 48 })
    expect(t.fill).toBe('zero')
    expect(t.lines).toHaveLength(5)
    for (const line of t.lines!) expect(line.values).toHaveLength(48)
    // Exactly the route's rows for the same query and range, each at its bucket's index; null elsewhere.
    const rows = await route({
      series: [
        { sourceId: logsId(), aggFn: 'count', where: 'app:pv', whereLanguage: 'lucene', groupBy: ['user'] }
      ],
      startTime: START,
      endTime: END,
      granularity: '30m'
    })
    const byUser = new Map<string, Array<number | null>>()
    for (const row of rows) {
      const i = ((row.ts_bucket as number) - START) / STEP
      if (i >= 48) continue
      const user = (row.group as string[])[0]!
      const values = byUser.get(user) ?? new Array<number | null>(48).fill(null)
      values[i] = Number(row['series_0.data'])
      byUser.set(user, values)
    }
    const total = (v: Array<number | null>) => v.reduce<number>((a, b) => a + (b ?? 0), 0)
    const ranked = [...byUser.entries()].sort((a, b) => total(b[1]) - total(a[1]))
    expect(ranked.map(([, v]) => v.filter(x => x !== null).length)).toEqual(new Array(7).fill(12))
    expect(t.lines!.map(l => l.values)).toEqual(ranked.slice(0, 5).map(([, v]) => v))
    expect(t.lines!.map(l => l.total)).toEqual(ranked.slice(0, 5).map(([, v]) => total(v)))
    expect(t.moreGroups).toBe(2)
    const rest = ranked.slice(5).map(([, v]) => v)
    const other = rest[0]!.map((v, i) =>
      v === null && rest[1]![i] === null ? null : (v ?? 0) + (rest[1]![i] ?? 0)
    )
    expect(t.other).toEqual({ values: other, total: total(other) })
    // Each user named by a mask, told apart by its tag: never the email itself.
    for (const line of t.lines!) expect(line.name).toMatch(/^u\*\*\*e@customer\.example #[0-9a-f]{4}$/)
    expect(new Set(t.lines!.map(l => l.name)).size).toBe(5)
    expect(JSON.stringify(r.plan)).not.toMatch(/user\d\.name@/)
    // The evidence says what is charted.
    const evidence = r.plan!.changes.find(c => c.kind === 'Dashboard')!.evidence!
    expect(evidence).toEqual([
      'tile "By user": data in 12 of 48 30m buckets over the last 24 hours (7 groups: the 5 largest charted, 2 more groups summed as other)'
    ])
  })

  it('sums nothing into other for an average, and draws gaps where the tile does not fill nulls', async () => {
    const r = await plan({
      'd.yaml': dashboard(
        'Data',
        tile(
          'Avg',
          0,
          `    config:\n      displayType: line\n      source: Logs\n      select: [{ aggFn: avg, valueExpression: duration, where: 'app:pv' }]\n      groupBy: user\n      fillNulls: false\n`
        )
      )
    })
    const t = tileOf(r, 'Avg')
    expect(t.fill).toBe('gap')
    expect(t.aggFn).toBe('avg')
    expect(t.lines).toHaveLength(5)
    expect(t.moreGroups).toBe(2)
    expect(t.other).toBeUndefined()
    for (const line of t.lines!) expect(line.total).toBeNull()
    expect(t.lines!.every(l => l.values.filter(v => v !== null).length === 12)).toBe(true)
  })
})

describe('a number tile', () => {
  const numberTile = (aggFn: string, extra = '') =>
    dashboard(
      'Data',
      tile(
        'N',
        0,
        `    series:\n      - type: number\n        source: Logs\n        aggFn: ${aggFn}\n        where: 'app:pv'\n${extra}`
      )
    )
  const events = (from: number, to: number) =>
    emu.selfHosted.events.filter(e => e.fields.app === 'pv' && e.timestamp >= from && e.timestamp < to)

  it("is the count over the 24 h, and over the 24 h before: the route's buckets summed", async () => {
    const r = await plan({ 'd.yaml': numberTile('count') })
    const t = tileOf(r, 'N')
    const rows = await route({
      series: [{ sourceId: logsId(), aggFn: 'count', where: 'app:pv', groupBy: [] }],
      startTime: START - DAY,
      endTime: END,
      granularity: '30m'
    })
    const sum = (from: number, to: number) =>
      rows
        .filter(r => (r.ts_bucket as number) >= from && (r.ts_bucket as number) < to)
        .reduce((a, r) => a + Number(r['series_0.data']), 0)
    expect(t.value).toBe(sum(START, END))
    expect(t.previous).toBe(sum(START - DAY, START))
    expect(t.value).toBe(events(START, END).length)
    expect(t.previous).toBe(12)
    expect(t.approximate).toBeUndefined()
    expect(t.lines![0]!.values).toHaveLength(48)
  })

  it('is an exact average over the 24 h (its sum over its count), and a quantile says it cannot be one value', async () => {
    const avg = tileOf(await plan({ 'd.yaml': numberTile('avg', '        field: duration\n') }), 'N')
    const now = events(START, END).map(e => Number(e.fields.duration))
    expect(avg.value).toBeCloseTo(now.reduce((a, b) => a + b, 0) / now.length, 9)
    expect(avg.previous).toBeCloseTo((50 + 61) / 2, 9)
    expect(avg.approximate).toBeUndefined()
    const p = tileOf(
      await plan({ 'd.yaml': numberTile('quantile', '        field: duration\n        level: 0.9\n') }),
      'N'
    )
    expect(p.value).toBeNull()
    expect(p.approximate).toMatch(/does not combine/)
  })
})

describe('table, pie and tiles the route cannot chart', () => {
  it('a table has its top rows over the range, sorted by its first series, largest first, the rest counted', async () => {
    const r = await plan({
      'd.yaml': dashboard(
        'Data',
        tile(
          'Table',
          0,
          `    config:\n      displayType: table\n      source: Logs\n      select: [{ aggFn: count, where: 'app:pv', alias: n }, { aggFn: max, valueExpression: duration, where: 'app:pv' }]\n      groupBy: ip\n`
        )
      )
    })
    const t = tileOf(r, 'Table')
    const rows = await route({
      series: [
        { sourceId: logsId(), aggFn: 'count', where: 'app:pv', groupBy: ['ip'] },
        { sourceId: logsId(), aggFn: 'max', field: 'duration', where: 'app:pv', groupBy: ['ip'] }
      ],
      startTime: START,
      endTime: END - 1,
      granularity: '30d'
    })
    const expected = rows
      .map(r => [Number(r['series_0.data']), r['series_1.data'] as number])
      .sort((a, b) => b[0]! - a[0]!)
    expect(t.table!.columns).toEqual(['ip', 'n', 'max(duration)'])
    expect(t.table!.rows).toHaveLength(10)
    expect(t.table!.rows.map(row => row.slice(1))).toEqual(expected.slice(0, 10))
    expect(t.table!.more).toBe(expected.length - 10)
    for (const row of t.table!.rows) expect(row[0]).toMatch(/^IPv4 #[0-9a-f]{4}$/)
    expect(JSON.stringify(r.plan)).not.toMatch(/10\.1\.\d\.\d/)
  })

  it("a pie is its parts, largest first, each the route's value over the range; search and markdown say why not", async () => {
    const r = await plan({
      'd.yaml': dashboard(
        'Data',
        tile(
          'Pie',
          0,
          `    config:\n      displayType: pie\n      source: Logs\n      select: [{ aggFn: count, where: 'app:pv' }]\n      groupBy: service\n`
        ) +
          tile('Note', 4, `    series:\n      - type: markdown\n        content: hello\n`) +
          tile(
            'Search',
            8,
            `    series:\n      - type: search\n        source: Logs\n        where: 'app:pv'\n        fields: [user]\n`
          )
      )
    })
    const pie = tileOf(r, 'Pie')
    const count = (service: string) =>
      emu.selfHosted.events.filter(
        e =>
          e.fields.app === 'pv' && e.fields.service === service && e.timestamp >= START && e.timestamp < END
      ).length
    expect(pie.bars).toEqual([
      { name: 'search', value: count('search') },
      { name: 'checkout', value: count('checkout') }
    ])
    expect(pie.moreGroups).toBe(0)
    expect(tileOf(r, 'Note')).toMatchObject({ status: 'unsupported', reason: 'a markdown tile: no query' })
    expect(tileOf(r, 'Search')).toMatchObject({
      status: 'unsupported',
      reason: expect.stringMatching(/^a search tile/)
    })
  })
})

describe('the alert replay', () => {
  const ALERT_STEP = 5 * MIN
  const ALERT_END = Math.floor(NOW / ALERT_STEP) * ALERT_STEP
  const board = dashboard(
    'Alerting',
    tile(
      'Errors',
      0,
      `    series:\n      - type: time\n        source: Logs\n        aggFn: count\n        where: 'app:pa AND kind:burst'\n        groupBy: [service]\n`
    )
  )
  // Bursts of 3..7 events in 5m windows over the week, some windows in a row, and the current unfinished window
  // (12:05..12:07:30) full of events that must not count.
  const bursts: Array<[number, number, string]> = [
    [ALERT_END - 7 * DAY, 6, 'a'], // the first window of the range
    [ALERT_END - 3 * DAY, 7, 'a'],
    [ALERT_END - 3 * DAY + ALERT_STEP, 7, 'a'], // two in a row for a
    [ALERT_END - 2 * DAY, 5, 'a'],
    [ALERT_END - 2 * DAY + ALERT_STEP, 5, 'b'], // in a row, but another group
    [ALERT_END - HOUR, 3, 'a'],
    [ALERT_END - ALERT_STEP, 9, 'b'], // the last whole window
    [ALERT_END, 20, 'a'], // the current window: not evaluated yet
    [ALERT_END - 7 * DAY - ALERT_STEP, 9, 'a'] // before the range
  ]
  add(
    bursts.flatMap(([at, n, service]) =>
      Array.from({ length: n }, (_, i) => ({
        at: at + i * 1000,
        fields: { app: 'pa', kind: 'burst', service }
      }))
    )
  )
  const alertYaml = (threshold: number, extra = '') => alert('Burst', 'Alerting', 'Errors', threshold) + extra

  it('counts the whole 5m windows of exactly 7 days that the check evaluates, each above the threshold in the route', async () => {
    const r = await plan({ 'd.yaml': board + alertYaml(5) })
    const a = alertOf(r, 'Burst')
    expect(a.axis).toEqual({ start: ALERT_END - 7 * DAY, step: ALERT_STEP, count: 2016 })
    expect(a.windows).toBe(2016)
    expect(a.values).toHaveLength(2016)
    expect(a.fill).toBe('zero')
    const rows = await route({
      series: [{ sourceId: logsId(), aggFn: 'count', where: 'app:pa AND kind:burst', groupBy: ['service'] }],
      startTime: ALERT_END - 7 * DAY,
      endTime: ALERT_END,
      granularity: '5m'
    })
    const above = new Set(
      rows
        .filter(r => (r.ts_bucket as number) < ALERT_END && Number(r['series_0.data']) >= 5)
        .map(r => ((r.ts_bucket as number) - (ALERT_END - 7 * DAY)) / ALERT_STEP)
    )
    expect(above.size).toBe(6)
    expect(a.firing).toEqual([...above].sort((x, y) => x - y))
    expect(a.fired).toBe(6)
    expect(a.values![0]).toBe(6)
    expect(a.values![2015]).toBe(9)
    expect(a.values!.filter(v => v !== null)).toHaveLength(7)
    expect(r.plan!.changes.find(c => c.kind === 'Alert')!.evidence).toEqual([
      "over the last 7 days it would have fired in 6 of 2016 5m windows at threshold above 5 (highest value 9); the server's check notifies again at every window that still crosses"
    ])
  })

  it('fires only after numConsecutiveWindows windows in a row of one group, as the check reads its history', async () => {
    const a = alertOf(await plan({ 'd.yaml': board + alertYaml(5, 'numConsecutiveWindows: 2\n') }), 'Burst')
    // The first window follows one before the range (asked for its history): it fires. a at -3d and the window
    // after: the second fires. b after a at -2d is another group: no run.
    expect(a.firing).toEqual([0, (4 * DAY) / ALERT_STEP + 1])
    expect(a.numConsecutiveWindows).toBe(2)
  })

  it('evaluates a window without rows as 0, as the check does: `below 1` fires in every empty window', async () => {
    const r = await plan({
      'd.yaml': board + alertYaml(1).replace('thresholdType: above', 'thresholdType: below')
    })
    const a = alertOf(r, 'Burst')
    expect(a.fired).toBe(2016 - 7)
    expect(a.firing).not.toContain(0)
  })
})

describe('preview-values', () => {
  const board = dashboard(
    'Data',
    tile(
      'Users',
      0,
      `    config:\n      displayType: bar\n      source: Logs\n      select: [{ aggFn: count, where: 'app:pv' }]\n      groupBy: user\n`
    )
  )

  it('show keeps values whole; hide keeps none, only shapes and totals; the preview says which', async () => {
    const shown = await plan({ 'd.yaml': board }, { 'preview-values': 'show' })
    expect(shown.plan!.preview!.values).toBe('show')
    expect(tileOf(shown, 'Users').bars![0]!.name).toBe(users[6])
    const hidden = await plan({ 'd.yaml': board }, { 'preview-values': 'hide' })
    expect(hidden.plan!.preview!.values).toBe('hide')
    const bars = tileOf(hidden, 'Users').bars!
    expect(bars).toHaveLength(7)
    for (const bar of bars) expect(bar).toEqual({ value: expect.any(Number) })
    expect(JSON.stringify(hidden.plan)).not.toMatch(/customer\.example/)
    const masked = await plan({ 'd.yaml': board })
    expect(masked.plan!.preview!.values).toBe('mask')
  })
})
