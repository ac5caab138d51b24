/**
 * Metric select items without a value expression, as HyperDX's own runtime dashboard templates hold them (a metric's
 * name and type, `valueExpression: ''`), through every route that meets them, as HyperDX 2.36 answered on the real
 * server (docs/real-server.md, "Metric select items without a value expression"):
 * - the web UI's routes store them ('' is a string; an item without the key is refused);
 * - the v2 read returns them with `valueExpression: ''`, and the v2 validate route, POST and PUT refuse that body, and
 *   one without the key, with "Value expression is required for non-count aggregation functions"; `Value` passes;
 * - the v2 series form takes a metric series without `field` and stores '';
 * - the MCP patch tool fills in `Value` and leaves the other tiles as they are;
 * - POST /charts/series answers a metric series without `field`, the same as with one.
 * The dashboards here are our own, of the templates' shape; the templates themselves are not in this repository.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import type { Emulator } from '../../emulator/index.js'
import { call, METRICS, start } from './helpers.js'

let emulator: Emulator

beforeAll(async () => {
  emulator = await start({ mcp: true })
})

afterAll(async () => {
  await emulator.close()
})

const REQUIRED = 'Value expression is required for non-count aggregation functions'

/** A select item as the templates store it: a gauge, a sum or a histogram, its value expression '' or absent. */
function stored(
  metricType: string,
  metricName: string,
  aggFn: string,
  valueExpression?: string
): Record<string, unknown> {
  return {
    aggFn,
    ...(aggFn === 'quantile' ? { level: 0.95 } : {}),
    ...(valueExpression === undefined ? {} : { valueExpression }),
    metricName,
    metricType
  }
}

/**
 * A template-shaped dashboard in the internal form: a number tile, a line tile of two items, a histogram. Its items'
 * value expression: '' as the templates store it, or absent.
 */
function templateShaped(valueExpression: '' | undefined): Record<string, unknown> {
  const tile = (id: string, y: number, name: string, displayType: string, select: unknown[]) => ({
    id,
    x: 0,
    y,
    w: 12,
    h: 4,
    config: {
      name,
      source: METRICS,
      displayType,
      granularity: 'auto',
      alignDateRangeToGranularity: true,
      select,
      where: '',
      whereLanguage: 'sql',
      numberFormat: { output: 'number', mantissa: 1 }
    }
  })
  return {
    name: 'Runtime (template-shaped)',
    tags: ['OTel Runtime Metrics'],
    tiles: [
      tile('a1', 0, 'Event loop p99', 'number', [
        stored('gauge', 'nodejs.eventloop.delay.p99', 'avg', valueExpression)
      ]),
      tile('a2', 4, 'CPU', 'line', [
        { ...stored('sum', 'jvm.cpu.time', 'sum', valueExpression), alias: 'cpu' },
        { ...stored('gauge', 'v8js.memory.heap.used', 'max', valueExpression), alias: 'heap' }
      ]),
      tile('a3', 8, 'Latency p95', 'line', [
        stored('histogram', 'http.server.duration', 'quantile', valueExpression)
      ])
    ]
  }
}

async function ui(method: string, path: string, body?: unknown) {
  const response = await fetch(emulator.url + path, {
    method,
    headers: { 'Content-Type': 'application/json', Cookie: emulator.uiCookie() },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  const text = await response.text()
  return { status: response.status, json: JSON.parse(text) as any } // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** The v2 config form of one metric line tile. */
function v2Tile(item: Record<string, unknown>): Record<string, unknown> {
  return {
    name: 'Event loop',
    x: 0,
    y: 0,
    w: 12,
    h: 4,
    config: {
      displayType: 'line',
      sourceId: METRICS,
      select: [{ where: '', whereLanguage: 'lucene', ...item }]
    }
  }
}

describe('the web UI stores them', () => {
  test("'' is stored as sent; an item without the key is refused with the middleware's 400", async () => {
    const created = await ui('POST', '/dashboards', templateShaped(''))
    expect(created.status).toBe(200)
    expect(created.json.tiles[1].config.select[1]).toEqual({
      aggFn: 'max',
      valueExpression: '',
      metricName: 'v8js.memory.heap.used',
      metricType: 'gauge',
      alias: 'heap'
    })
    const absent = await ui('POST', '/dashboards', templateShaped(undefined))
    expect(absent.status).toBe(400)
    expect(absent.json[0]).toMatchObject({ type: 'Body', errors: { name: 'ZodError' } })
  })
})

describe('the v2 routes', () => {
  test("the read returns valueExpression ''; validate, POST and PUT refuse that body", async () => {
    const created = await ui('POST', '/dashboards', templateShaped(''))
    const id = created.json.id as string
    const read = await call(emulator, 'GET', `/api/v2/dashboards/${id}`)
    expect(read.status).toBe(200)
    const dashboard = read.json.data
    expect(dashboard.tiles[0].config.select).toEqual([
      {
        aggFn: 'avg',
        valueExpression: '',
        metricName: 'nodejs.eventloop.delay.p99',
        metricType: 'gauge',
        where: '',
        whereLanguage: 'lucene'
      }
    ])
    const body = { name: dashboard.name, tags: dashboard.tags, tiles: dashboard.tiles }
    const validated = await call(emulator, 'POST', '/api/v2/dashboards/validate', { body })
    expect(validated.status).toBe(200)
    // Every non-count item: the number tile's, both of the line tile's, the histogram's.
    expect(validated.json).toEqual({
      valid: false,
      errors: [
        { path: 'tiles.0.config.select.0', message: REQUIRED },
        { path: 'tiles.1.config.select.0', message: REQUIRED },
        { path: 'tiles.1.config.select.1', message: REQUIRED },
        { path: 'tiles.2.config.select.0', message: REQUIRED }
      ],
      normalized: null
    })
    const put = await call(emulator, 'PUT', `/api/v2/dashboards/${id}`, { body })
    expect(put.status).toBe(400)
    expect(put.json.message).toMatch(
      /^Body validation failed: tiles\.0\.config\.select\.0: Value expression is required/
    )
  })

  test.each([
    ['absent', undefined],
    ["''", '']
  ])(
    'a metric item with its value expression %s is refused; with Value it is stored',
    async (_label, value) => {
      const item = stored('gauge', 'nodejs.eventloop.delay.p99', 'avg', value)
      const refused = await call(emulator, 'POST', '/api/v2/dashboards', {
        body: { name: 'Metric', tiles: [v2Tile(item)] }
      })
      expect(refused.status).toBe(400)
      expect(refused.json).toEqual({
        message: `Body validation failed: tiles.0.config.select.0: ${REQUIRED}`
      })
      const validated = await call(emulator, 'POST', '/api/v2/dashboards/validate', {
        body: { name: 'Metric', tiles: [v2Tile(item)] }
      })
      expect(validated.json.errors).toEqual([{ path: 'tiles.0.config.select.0', message: REQUIRED }])

      const created = await call(emulator, 'POST', '/api/v2/dashboards', {
        body: { name: 'Metric', tiles: [v2Tile({ ...item, valueExpression: 'Value' })] }
      })
      expect(created.status).toBe(200)
      const id = created.json.data.id as string
      const put = await call(emulator, 'PUT', `/api/v2/dashboards/${id}`, {
        body: { name: 'Metric', tiles: [v2Tile(item)] }
      })
      expect(put.status).toBe(400)
      const record = (await ui('GET', '/dashboards')).json.find((d: { id: string }) => d.id === id)
      expect(record.tiles[0].config.select[0]).toMatchObject({
        valueExpression: 'Value',
        metricType: 'gauge'
      })
    }
  )

  test("the series form takes a metric series without field and stores ''", async () => {
    const series = {
      type: 'time',
      sourceId: METRICS,
      aggFn: 'avg',
      metricName: 'nodejs.eventloop.delay.p99',
      metricDataType: 'gauge',
      where: '',
      whereLanguage: 'lucene',
      groupBy: []
    }
    const tile = { name: 'Series', x: 0, y: 0, w: 12, h: 4, series: [series] }
    const validated = await call(emulator, 'POST', '/api/v2/dashboards/validate', {
      body: { name: 'Series', tiles: [tile] }
    })
    expect(validated.json).toMatchObject({ valid: true, errors: [] })
    const created = await call(emulator, 'POST', '/api/v2/dashboards', {
      body: { name: 'Series', tiles: [tile] }
    })
    expect(created.status).toBe(200)
    expect(created.json.data.tiles[0].config.select[0]).toMatchObject({
      aggFn: 'avg',
      valueExpression: '',
      metricType: 'gauge'
    })
    const put = await call(emulator, 'PUT', `/api/v2/dashboards/${created.json.data.id}`, {
      body: { name: 'Series', tiles: [tile] }
    })
    expect(put.status).toBe(200)
  })
})

describe('the MCP patch tool', () => {
  test('fills in Value for a metric item without one, and leaves the other tiles as stored', async () => {
    const created = await ui('POST', '/dashboards', templateShaped(''))
    const id = created.json.id as string
    const before = (await ui('GET', '/dashboards')).json.find((d: { id: string }) => d.id === id)
    const result = await emulator.selfHosted.mcpPatchDashboard({
      dashboardId: id,
      tileId: 'a1',
      tile: {
        name: 'Event loop p99 (ms)',
        config: {
          displayType: 'number',
          sourceId: METRICS,
          select: [{ aggFn: 'avg', metricName: 'nodejs.eventloop.delay.p99', metricType: 'gauge' }]
        }
      }
    })
    expect(result.isError).toBeUndefined()
    const after = (await ui('GET', '/dashboards')).json.find((d: { id: string }) => d.id === id)
    expect(after.tiles[0].config.select).toEqual([
      {
        aggFn: 'avg',
        aggCondition: '',
        aggConditionLanguage: 'lucene',
        isDelta: false,
        metricName: 'nodejs.eventloop.delay.p99',
        metricType: 'gauge',
        valueExpression: 'Value'
      }
    ])
    expect(after.tiles.slice(1)).toEqual(before.tiles.slice(1))
  })
})

describe('POST /charts/series on the metric source', () => {
  test('a metric series needs no field, and any field gives the same series: the metric’s own value', async () => {
    const now = Date.now()
    const events = emulator.selfHosted.events
    for (let i = 0; i < 6; i++)
      events.push(
        {
          timestamp: now - i * 60_000,
          sourceId: METRICS,
          fields: { MetricName: 'go.memory.used', Value: 100 + i }
        },
        { timestamp: now - i * 60_000, sourceId: METRICS, fields: { MetricName: 'jvm.cpu.time', Value: 7 } }
      )
    const query = (extra: Record<string, unknown>) =>
      call(emulator, 'POST', '/api/v2/charts/series', {
        body: {
          startTime: now - 3_600_000,
          endTime: now + 60_000,
          granularity: '1h',
          series: [
            {
              sourceId: METRICS,
              aggFn: 'avg',
              metricName: 'go.memory.used',
              metricDataType: 'sum',
              where: '',
              groupBy: [],
              ...extra
            }
          ]
        }
      })
    const without = await query({})
    expect(without.status).toBe(200)
    const values = (without.json.data as Array<Record<string, number>>).map(p => p['series_0.data'])
    expect(values.length).toBeGreaterThan(0)
    expect(values.every(v => v > 100 && v < 106)).toBe(true)
    for (const field of ['Value', 'Value * 1000', 'no_such_column'])
      expect((await query({ field })).json).toEqual(without.json)
  })
})
