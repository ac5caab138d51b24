import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import type { Emulator } from '../../emulator/index.js'
import { STOREFRONT_SOURCE, storefrontEvents, storefrontSeed } from '../../scripts/screenshots-data.js'
import { call, LOGS, start } from './helpers.js'

// The storefront week behind `npm run screenshots`' chart scenario, read through the emulator's charts route
// as the action reads it: each shape the picture is there to show is in the data.

const HOUR = 3_600_000
/**
 * A fixed moment, so the week's shapes do not depend on when the test runs (the data hangs off the clock: between
 * 10:00 and 15:00 UTC one of web's spikes lands in its quiet night). The storefront's events are stored at their
 * times for this moment; the seed's own sit around the real clock, where no query of this file looks.
 */
const now = Date.UTC(2031, 4, 14, 20, 7, 30)
let emulator: Emulator

beforeAll(async () => {
  const seed = storefrontSeed(now)
  const storefront = seed.events.filter(e => e.sourceId === STOREFRONT_SOURCE)
  seed.events = seed.events.filter(e => e.sourceId !== STOREFRONT_SOURCE)
  emulator = await start({ seed })
  const events = emulator.selfHosted.events
  events.push(
    ...storefront.map(e => ({
      timestamp: Math.round(now - e.minutesAgo * 60_000),
      sourceId: e.sourceId,
      fields: { ...e.fields }
    }))
  )
  events.sort((a, b) => a.timestamp - b.timestamp)
})

afterAll(async () => {
  await emulator.close()
})

interface Row {
  ts_bucket: number
  group?: string[]
  'series_0.data': number | string
}

async function series(
  where: string,
  groupBy: string[],
  hours: number,
  granularity: string,
  sourceId = STOREFRONT_SOURCE,
  end = now
): Promise<Row[]> {
  const answer = await call(emulator, 'POST', '/api/v2/charts/series', {
    body: {
      startTime: end - hours * HOUR,
      endTime: end,
      granularity,
      series: [{ sourceId, aggFn: 'count', where, groupBy }]
    }
  })
  expect(answer.status).toBe(200)
  return (answer.json as { data: Row[] }).data
}

const byGroup = (rows: Row[]) => {
  const groups = new Map<string, Row[]>()
  for (const row of rows) {
    const key = (row.group ?? []).join(', ')
    groups.set(key, [...(groups.get(key) ?? []), row])
  }
  return groups
}

const total = (rows: Row[]) => rows.reduce((sum, row) => sum + Number(row['series_0.data']), 0)

describe('the screenshots’ storefront week', () => {
  test('is the same week for the same moment', () => {
    expect(storefrontEvents(now)).toEqual(storefrontEvents(now))
  })

  test('is in a source of its own: the demo’s tiles on Logs see only the seed’s three services', async () => {
    // The seed's events sit around the real clock: asked there.
    const groups = byGroup(await series('level:error', ['service'], 7 * 24, '1h', LOGS, Date.now()))
    expect([...groups.keys()].sort()).toEqual(['cart', 'checkout', 'search'])
  })

  test('a line by service has 7 groups; web sleeps 5 hours a night and payments runs in 3 half hours', async () => {
    const groups = byGroup(await series('app:storefront', ['service'], 24, '30m'))
    expect([...groups.keys()].sort()).toEqual([
      'api',
      'cart',
      'checkout',
      'emails',
      'payments',
      'search',
      'web'
    ])
    // 48 half hours, of which 01:00 to 06:00 (10) are empty for web; the range's two ends may cut a bucket.
    expect(groups.get('web')!.length).toBeGreaterThanOrEqual(36)
    expect(groups.get('web')!.length).toBeLessThanOrEqual(39)
    // Three batches a day; a batch the range's start cuts and today's under way may both show.
    expect(groups.get('payments')!.length).toBeGreaterThanOrEqual(3)
    expect(groups.get('payments')!.length).toBeLessThanOrEqual(4)
  })

  test('orders are up by about 30% on the previous 24 hours', async () => {
    const today = total(await series('app:storefront AND event:order', [], 24, '1h'))
    const both = total(await series('app:storefront AND event:order', [], 48, '1h'))
    expect(today / (both - today)).toBeGreaterThan(1.15)
  })

  test('orders are grouped by 7 customers’ emails', async () => {
    const groups = byGroup(await series('app:storefront AND event:order', ['user_email'], 24, '1h'))
    expect(groups.size).toBe(7)
    for (const name of groups.keys()) expect(name).toMatch(/^[a-z.]+@customer\.example$/)
  })

  test('in a week of 1h windows exactly two have a service above the alert’s threshold of 60', async () => {
    const rows = await series('app:storefront', ['service'], 7 * 24, '1h')
    const windows = new Set(rows.filter(row => Number(row['series_0.data']) >= 60).map(row => row.ts_bucket))
    expect(windows.size).toBe(2)
    // And nothing else comes near it: the two spikes stand out.
    const rest = rows.filter(row => !windows.has(row.ts_bucket)).map(row => Number(row['series_0.data']))
    expect(Math.max(...rest)).toBeLessThan(40)
  })
})
