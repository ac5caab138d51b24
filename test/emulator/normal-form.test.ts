import { afterAll, beforeAll, expect, test } from '@jest/globals'
import type { Emulator } from '../../emulator/index.js'
import { call, LOGS, start, TRACES } from './helpers.js'

// FACTS.md "How a series tile comes back": tiles sent in CONTRACT.md's series form come back in config form.

let emulator: Emulator

beforeAll(async () => {
  emulator = await start()
})

afterAll(async () => {
  await emulator.close()
})

const place = { x: 0, y: 0, w: 12, h: 4 }

async function roundTrip(tiles: Record<string, unknown>[], tags: string[] = []) {
  const created = await call(emulator, 'POST', '/api/v2/dashboards', {
    body: { name: 'Normal form', tiles, tags }
  })
  expect(created.status).toBe(200)
  const fetched = await call(emulator, 'GET', `/api/v2/dashboards/${created.json.data.id}`)
  expect(fetched.json.data).toEqual(created.json.data)
  return fetched.json.data
}

test('a time series tile comes back as a line config exactly per FACTS.md', async () => {
  const dashboard = await roundTrip([
    {
      name: 'Errors by service',
      ...place,
      asRatio: true,
      series: [
        {
          type: 'time',
          dataSource: 'events',
          sourceId: LOGS,
          aggFn: 'count',
          field: 'ignored for count',
          where: 'level:error',
          groupBy: ['service', 'level']
        },
        {
          type: 'time',
          dataSource: 'events',
          sourceId: TRACES,
          aggFn: 'avg',
          field: 'duration',
          where: '',
          groupBy: []
        }
      ]
    }
  ])
  const { id, ...tile } = dashboard.tiles[0]
  expect(id).toMatch(/^[0-9a-f]{24}$/)
  expect(tile).toEqual({
    name: 'Errors by service',
    ...place,
    config: {
      displayType: 'line',
      sourceId: LOGS,
      select: [
        { aggFn: 'count', where: 'level:error', whereLanguage: 'lucene' },
        { aggFn: 'avg', where: '', whereLanguage: 'lucene', valueExpression: 'duration' }
      ],
      groupBy: 'service,level',
      asRatio: true,
      fillNulls: true
    }
  })
})

test('the contract series form without whereLanguage is accepted and dataSource is dropped', async () => {
  const dashboard = await roundTrip([
    {
      name: 'Contract',
      ...place,
      series: [
        {
          type: 'time',
          dataSource: 'events',
          sourceId: LOGS,
          aggFn: 'count',
          where: 'level:error',
          groupBy: []
        }
      ]
    }
  ])
  expect(dashboard.tiles[0].config).toEqual({
    displayType: 'line',
    sourceId: LOGS,
    select: [{ aggFn: 'count', where: 'level:error', whereLanguage: 'lucene' }],
    groupBy: '',
    asRatio: false,
    fillNulls: true
  })
  expect(JSON.stringify(dashboard)).not.toContain('dataSource')
})

test('asRatio survives only on a line, stacked_bar or table tile with exactly two series', async () => {
  const series = (count: number, type = 'time', extra: Record<string, unknown> = {}) =>
    Array.from({ length: count }, () => ({
      type,
      sourceId: LOGS,
      aggFn: 'count',
      where: '',
      groupBy: [],
      ...extra
    }))
  const dashboard = await roundTrip([
    { name: 'one', ...place, asRatio: true, series: series(1) },
    { name: 'three', ...place, asRatio: true, series: series(3) },
    { name: 'bars', ...place, asRatio: true, series: series(2, 'time', { displayType: 'stacked_bar' }) },
    { name: 'table', ...place, asRatio: true, series: series(2, 'table') }
  ])
  const [one, three, bars, table] = dashboard.tiles.map(
    (tile: { config: Record<string, unknown> }) => tile.config
  )
  expect(one.asRatio).toBe(false)
  expect(three.asRatio).toBe(false)
  expect(bars).toMatchObject({ displayType: 'stacked_bar', asRatio: true, fillNulls: true })
  // HyperDX returns asRatio on builder table tiles too (utils/dashboards.ts), but no fillNulls.
  expect(table).toMatchObject({ displayType: 'table', asRatio: true })
  expect(table.fillNulls).toBeUndefined()
})

test('a number tile keeps only its first series and needs no groupBy', async () => {
  const dashboard = await roundTrip([
    {
      name: 'Total',
      ...place,
      series: [
        {
          type: 'number',
          dataSource: 'events',
          sourceId: LOGS,
          aggFn: 'sum',
          field: 'duration',
          where: 'service:cart'
        },
        { type: 'number', sourceId: TRACES, aggFn: 'count', where: '' }
      ]
    }
  ])
  expect(dashboard.tiles[0].config).toEqual({
    displayType: 'number',
    sourceId: LOGS,
    select: [{ aggFn: 'sum', where: 'service:cart', whereLanguage: 'lucene', valueExpression: 'duration' }]
  })
})

test('table, search and markdown series map to the display types of the same name', async () => {
  const dashboard = await roundTrip([
    {
      name: 'Table',
      ...place,
      series: [
        {
          type: 'table',
          sourceId: LOGS,
          aggFn: 'max',
          field: 'duration',
          alias: 'Slowest',
          where: '',
          whereLanguage: 'sql',
          groupBy: ['service']
        }
      ]
    },
    {
      name: 'Search',
      ...place,
      series: [{ type: 'search', sourceId: LOGS, fields: ['level', 'service'], where: 'level:error' }]
    },
    { name: 'Notes', ...place, series: [{ type: 'markdown', content: '# Runbook' }] }
  ])
  const [table, search, markdown] = dashboard.tiles.map((tile: { config: unknown }) => tile.config)
  expect(table).toEqual({
    displayType: 'table',
    sourceId: LOGS,
    select: [
      { aggFn: 'max', where: '', whereLanguage: 'sql', valueExpression: 'duration', alias: 'Slowest' }
    ],
    groupBy: 'service',
    asRatio: false
  })
  expect(search).toEqual({
    displayType: 'search',
    sourceId: LOGS,
    select: 'level, service',
    where: 'level:error',
    whereLanguage: 'lucene'
  })
  expect(markdown).toEqual({ displayType: 'markdown', markdown: '# Runbook' })
})

test('metric series carry metricName and metricType (from metricDataType)', async () => {
  const dashboard = await roundTrip([
    {
      name: 'Metric',
      ...place,
      series: [
        {
          type: 'time',
          sourceId: LOGS,
          aggFn: 'quantile',
          level: 0.95,
          field: 'Value',
          metricName: 'http.server.duration',
          metricDataType: 'histogram',
          where: '',
          groupBy: []
        }
      ]
    }
  ])
  expect(dashboard.tiles[0].config.select[0]).toEqual({
    aggFn: 'quantile',
    where: '',
    whereLanguage: 'lucene',
    valueExpression: 'Value',
    level: 0.95,
    metricName: 'http.server.duration',
    metricType: 'histogram'
  })
})

test('config form round trip: defaults are filled once and a PUT of what was read changes nothing', async () => {
  const dashboard = await roundTrip(
    [
      {
        name: 'Config',
        ...place,
        config: { displayType: 'line', sourceId: LOGS, select: [{ aggFn: 'count' }], groupBy: 'service' }
      },
      {
        name: 'Search',
        ...place,
        config: { displayType: 'search', sourceId: LOGS, select: 'level', whereLanguage: 'lucene' }
      }
    ],
    ['zeta', 'alpha', 'mid']
  )
  expect(dashboard.tags).toEqual(['zeta', 'alpha', 'mid'])
  expect(dashboard.tiles[0].config).toEqual({
    displayType: 'line',
    sourceId: LOGS,
    select: [{ aggFn: 'count', where: '', whereLanguage: 'lucene' }],
    groupBy: 'service',
    asRatio: false,
    fillNulls: true
  })
  expect(dashboard.tiles[1].config.where).toBe('')
  const { id, ...body } = dashboard
  const put = await call(emulator, 'PUT', `/api/v2/dashboards/${id}`, { body })
  expect(put.status).toBe(200)
  expect(put.json.data).toEqual(dashboard)
})
