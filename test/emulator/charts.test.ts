import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import type { Emulator, StoredEvent } from '../../emulator/index.js'
import { call, LOGS, start, TRACES } from './helpers.js'

// POST /api/v2/charts/series (FACTS.md "Charts"), computed from the seeded events.

let emulator: Emulator
let now: number
const HOUR = 3_600_000

beforeAll(async () => {
  emulator = await start()
  now = Date.now()
})

afterAll(async () => {
  await emulator.close()
})

const query = (body: unknown) => call(emulator, 'POST', '/api/v2/charts/series', { body })

function expectedCounts(
  events: StoredEvent[],
  keep: (event: StoredEvent) => boolean,
  start: number,
  end: number
) {
  const counts = new Map<string, number>()
  for (const event of events) {
    if (event.sourceId !== LOGS || event.timestamp < start || event.timestamp > end || !keep(event)) continue
    const key = `${Math.floor(event.timestamp / HOUR) * HOUR}|${String(event.fields.service)}`
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return counts
}

describe('charts/series', () => {
  test('the seed holds a few hundred log events over the last 24 hours', () => {
    const logs = emulator.selfHosted.events.filter(event => event.sourceId === LOGS)
    expect(logs.length).toBeGreaterThanOrEqual(300)
    expect(logs.every(event => event.timestamp > now - 24 * HOUR && event.timestamp <= now)).toBe(true)
    expect(emulator.selfHosted.events.some(event => event.sourceId === TRACES)).toBe(true)
  })

  test('counts errors per hour and service deterministically', async () => {
    const startTime = now - 24 * HOUR
    const endTime = now
    const body = {
      startTime,
      endTime,
      granularity: '1h',
      series: [{ sourceId: LOGS, aggFn: 'count', where: 'level:error', groupBy: ['service'] }]
    }
    const answer = await query(body)
    expect(answer.status).toBe(200)
    const expected = expectedCounts(
      emulator.selfHosted.events,
      e => e.fields.level === 'error',
      startTime,
      endTime
    )
    const actual = new Map<string, number>(
      answer.json.data.map((row: { ts_bucket: number; group: string[]; 'series_0.data': string }) => [
        `${row.ts_bucket}|${row.group[0]}`,
        Number(row['series_0.data'])
      ])
    )
    expect(actual).toEqual(expected)
    expect(actual.size).toBeGreaterThan(0)
    const again = await query(body)
    expect(again.json).toEqual(answer.json)
  })

  test('boolean operators, wildcards, phrases and numeric ranges filter like Lucene', async () => {
    const startTime = now - 24 * HOUR
    const total = async (where: string) => {
      const answer = await query({
        startTime,
        endTime: now + 1,
        granularity: '30d',
        series: [{ sourceId: LOGS, aggFn: 'count', where, groupBy: [] }]
      })
      expect(answer.status).toBe(200)
      return answer.json.data.reduce(
        (sum: number, row: { 'series_0.data': string }) => sum + Number(row['series_0.data']),
        0
      )
    }
    const logs = emulator.selfHosted.events.filter(
      event => event.sourceId === LOGS && event.timestamp >= startTime
    )
    const count = (keep: (fields: Record<string, string | number>) => boolean) =>
      logs.filter(event => keep(event.fields)).length
    expect(await total('')).toBe(logs.length)
    expect(await total('level:error OR level:warn')).toBe(count(f => f.level !== 'info'))
    expect(await total('NOT level:info AND service:c*')).toBe(
      count(f => f.level !== 'info' && String(f.service).startsWith('c'))
    )
    expect(await total('-service:cart')).toBe(count(f => f.service !== 'cart'))
    expect(await total('duration:[100 TO 500] AND (service:search OR service:cart)')).toBe(
      count(f => Number(f.duration) >= 100 && Number(f.duration) <= 500 && f.service !== 'checkout')
    )
    expect(await total('message:"cart request failed"')).toBe(count(f => f.message === 'cart request failed'))
  })

  test('aggregates a numeric field and answers several series side by side', async () => {
    const answer = await query({
      startTime: now - 24 * HOUR,
      endTime: now + 1,
      granularity: '30d',
      series: [
        { sourceId: LOGS, aggFn: 'count', where: 'service:cart', groupBy: [] },
        { sourceId: LOGS, aggFn: 'max', field: 'duration', where: 'service:cart', groupBy: [] }
      ]
    })
    const cart = emulator.selfHosted.events.filter(
      event => event.sourceId === LOGS && event.fields.service === 'cart'
    )
    const rows = answer.json.data
    expect(
      rows.reduce((sum: number, row: Record<string, string>) => sum + Number(row['series_0.data']), 0)
    ).toBe(cart.length)
    expect(Math.max(...rows.map((row: Record<string, number>) => row['series_1.data']))).toBe(
      Math.max(...cart.map(event => Number(event.fields.duration)))
    )
    expect(rows[0].group).toEqual([])
  })

  test('a filter that matches nothing is an empty result', async () => {
    const answer = await query({
      startTime: now - HOUR,
      endTime: now,
      granularity: '1m',
      series: [{ sourceId: LOGS, aggFn: 'count', where: 'level:nothing-like-this', groupBy: [] }]
    })
    expect(answer.status).toBe(200)
    expect(answer.json).toEqual({ data: [] })
  })

  test('broken Lucene is a 400 {error} with the parser message', async () => {
    const answer = await query({
      startTime: now - HOUR,
      endTime: now,
      granularity: '5m',
      series: [{ sourceId: LOGS, aggFn: 'count', where: 'level:(error', groupBy: [] }]
    })
    expect(answer.status).toBe(400)
    expect(answer.json.error).toMatch(/^Expected /)
  })

  test('an unknown source is 404, differing groupBy and a bad granularity are 400', async () => {
    const base = { startTime: now - HOUR, endTime: now, granularity: '5m' }
    const unknown = await query({
      ...base,
      series: [{ sourceId: '0123456789abcdef01234567', aggFn: 'count', where: '', groupBy: [] }]
    })
    expect(unknown.status).toBe(404)
    expect(unknown.json).toEqual({ error: 'Source not found for series 0' })
    const mixed = await query({
      ...base,
      series: [
        { sourceId: LOGS, aggFn: 'count', where: '', groupBy: ['service'] },
        { sourceId: LOGS, aggFn: 'count', where: '', groupBy: [] }
      ]
    })
    expect(mixed.json).toEqual({
      message: 'Body validation failed: series: All series must have the same groupBy fields'
    })
    const granularity = await query({
      ...base,
      granularity: '3m',
      series: [{ sourceId: LOGS, aggFn: 'count', where: '', groupBy: [] }]
    })
    expect(granularity.status).toBe(400)
    expect(granularity.json.message).toMatch(/^Body validation failed: granularity: Invalid enum value/)
  })

  test('as the real route answers: counts as strings, group [] ungrouped, ascending buckets, the end inclusive', async () => {
    const logs = emulator.selfHosted.events.filter(event => event.sourceId === LOGS)
    const at = logs[0]!.timestamp
    // A range that ends exactly at an event: the route's end is inclusive (renderChartConfig dateRangeEndInclusive).
    const answer = await query({
      startTime: at - HOUR,
      endTime: at,
      granularity: '1m',
      series: [{ sourceId: LOGS, aggFn: 'count', where: '', groupBy: [] }]
    })
    const rows = answer.json.data as Array<{ ts_bucket: number; group: unknown; 'series_0.data': unknown }>
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) {
      expect(typeof row['series_0.data']).toBe('string')
      expect(row.group).toEqual([])
      expect(row.ts_bucket % 60_000).toBe(0)
    }
    expect(rows.map(r => r.ts_bucket)).toEqual([...rows.map(r => r.ts_bucket)].sort((a, b) => a - b))
    expect(rows.at(-1)!.ts_bucket).toBe(Math.floor(at / 60_000) * 60_000)
    const inRange = logs.filter(e => e.timestamp >= at - HOUR && e.timestamp <= at).length
    expect(rows.reduce((sum, r) => sum + Number(r['series_0.data']), 0)).toBe(inRange)
  })

  test('series are merged by bucket and group: a series without rows in a bucket leaves its value out', async () => {
    const answer = await query({
      startTime: now - 24 * HOUR,
      endTime: now,
      granularity: '1h',
      series: [
        { sourceId: LOGS, aggFn: 'count', where: 'level:nothing-like-this', groupBy: [] },
        { sourceId: LOGS, aggFn: 'count', where: '', groupBy: [] }
      ]
    })
    const rows = answer.json.data as Array<Record<string, unknown>>
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) {
      expect(row).not.toHaveProperty('series_0.data')
      expect(typeof row['series_1.data']).toBe('string')
    }
  })

  test('seriesReturnType column: one raw row per series, bucket and group, the bucket as ISO text', async () => {
    const answer = await query({
      startTime: now - 24 * HOUR,
      endTime: now,
      granularity: '1h',
      seriesReturnType: 'column',
      series: [
        { sourceId: LOGS, aggFn: 'count', where: 'level:error', groupBy: ['service'] },
        { sourceId: LOGS, aggFn: 'max', field: 'duration', where: 'level:error', groupBy: ['service'] }
      ]
    })
    const rows = answer.json.data as Array<Record<string, unknown>>
    expect(rows.length).toBeGreaterThan(0)
    const first = rows.filter(r => 'series_0' in r)
    const second = rows.filter(r => 'series_1' in r)
    expect(first.length + second.length).toBe(rows.length)
    expect(first.length).toBe(second.length)
    for (const row of rows) {
      expect(Object.keys(row)).toEqual([Object.keys(row)[0], 'service', '__hdx_time_bucket'])
      expect(row.__hdx_time_bucket).toMatch(/^\d{4}-\d\d-\d\dT\d\d:00:00Z$/)
    }
    expect(first.every(r => typeof r.series_0 === 'string')).toBe(true)
  })
})
