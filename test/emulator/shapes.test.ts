/**
 * What the emulator stores and returns for every tile, dashboard-level and alert shape, as HyperDX 2.36 converts them
 * in and out (v2/utils/dashboards.ts convertToInternalTileConfig / convertToExternalTileChartConfig /
 * convertToExternalDashboard, utils/externalApi.ts, controllers/alerts.ts makeAlert), through the HTTP routes.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import type { Emulator } from '../../emulator/index.js'
import { call, lineTile, LOGS, METRICS, OPS_PAGER, start, tileAlert, TRACES } from './helpers.js'

let emulator: Emulator

beforeAll(async () => {
  emulator = await start()
})

afterAll(async () => {
  await emulator.close()
})

const place = { x: 0, y: 0, w: 6, h: 3 }

async function create(body: Record<string, unknown>) {
  const answer = await call(emulator, 'POST', '/api/v2/dashboards', { body: { name: 'Shapes', ...body } })
  expect(answer.json).toHaveProperty('data')
  return answer.json.data
}
const configOf = async (config: Record<string, unknown>) =>
  (await create({ tiles: [{ name: 'T', ...place, config }] })).tiles[0].config

describe('tile configs come back in their variant shape', () => {
  test('heatmap: one value item without aggFn, where and whereLanguage filled in', async () => {
    expect(
      await configOf({
        displayType: 'heatmap',
        sourceId: TRACES,
        select: [
          { valueExpression: 'Duration', countExpression: 'count()', heatmapScaleType: 'log', aggFn: 'x' }
        ]
      })
    ).toEqual({
      displayType: 'heatmap',
      sourceId: TRACES,
      select: [{ valueExpression: 'Duration', countExpression: 'count()', heatmapScaleType: 'log' }],
      where: '',
      whereLanguage: 'lucene'
    })
  })

  test('a heatmap stored without a value expression comes back as a placeholder, not a line tile', async () => {
    const d = emulator.selfHosted.createDashboard({
      name: 'Broken heatmap',
      tiles: [
        {
          name: 'H',
          ...place,
          config: { displayType: 'heatmap', sourceId: TRACES, select: [{ valueExpression: 'x' }] }
        }
      ]
    })
    d.tiles[0]!.config.select = []
    const read = await call(emulator, 'GET', `/api/v2/dashboards/${d.id}`)
    expect(read.json.data.tiles[0].config).toMatchObject({
      displayType: 'heatmap',
      select: [{ valueExpression: '' }]
    })
  })

  test('event_patterns: select, where and whereLanguage default', async () => {
    expect(await configOf({ displayType: 'event_patterns', sourceId: LOGS })).toEqual({
      displayType: 'event_patterns',
      sourceId: LOGS,
      select: '',
      where: '',
      whereLanguage: 'lucene'
    })
  })

  test('number with formulas keeps every operand and hides showOperandSeries; colours are returned', async () => {
    expect(
      await configOf({
        displayType: 'number',
        sourceId: METRICS,
        select: [{ aggFn: 'count', where: 'level:error' }, { aggFn: 'count' }],
        formulas: [{ expression: 'A / B * 100', alias: 'error rate' }],
        color: 'chart-red',
        colorRules: [{ operator: 'between', value: [1, 5], color: 'chart-orange', label: 'warm' }],
        backgroundChart: { type: 'area' }
      })
    ).toEqual({
      displayType: 'number',
      sourceId: METRICS,
      select: [
        { aggFn: 'count', where: 'level:error', whereLanguage: 'lucene', valueExpression: '' },
        { aggFn: 'count', where: '', whereLanguage: 'lucene', valueExpression: '' }
      ],
      formulas: [{ expression: 'A / B * 100', alias: 'error rate' }],
      color: 'chart-red',
      colorRules: [{ operator: 'between', value: [1, 5], color: 'chart-orange', label: 'warm' }],
      backgroundChart: { type: 'area' }
    })
  })

  test('line: formulas and showOperandSeries; showOperandSeries alone and empty formulas are not returned', async () => {
    const select = [{ aggFn: 'count' }, { aggFn: 'count', where: 'level:error' }]
    const withFormulas = await configOf({
      displayType: 'line',
      sourceId: LOGS,
      select,
      formulas: [{ expression: 'B / A' }],
      showOperandSeries: false
    })
    expect(withFormulas).toMatchObject({ formulas: [{ expression: 'B / A' }], showOperandSeries: false })
    const without = await configOf({
      displayType: 'line',
      sourceId: LOGS,
      select,
      formulas: [],
      showOperandSeries: true
    })
    expect(without).not.toHaveProperty('formulas')
    expect(without).not.toHaveProperty('showOperandSeries')
  })

  test('table onClick is returned as sent', async () => {
    const onClick = {
      type: 'search',
      target: { mode: 'id', id: LOGS },
      whereTemplate: "service = '{{service}}'",
      whereLanguage: 'sql',
      filters: [{ kind: 'expressionTemplate', expression: 'ServiceName', template: '{{service}}' }]
    }
    const config = await configOf({
      displayType: 'table',
      sourceId: LOGS,
      select: [{ aggFn: 'count' }],
      groupBy: 'service',
      onClick
    })
    expect(config.onClick).toEqual(onClick)
  })

  test('legacy colour tokens read as their hue; unknown ones and empty rule lists are left out', async () => {
    const d = emulator.selfHosted.createDashboard({
      name: 'Colours',
      tiles: [
        {
          name: 'N',
          ...place,
          config: { displayType: 'number', sourceId: LOGS, select: [{ aggFn: 'count' }] }
        }
      ]
    })
    Object.assign(d.tiles[0]!.config, {
      color: 'chart-3',
      colorRules: [
        { operator: 'gt', value: 1, color: 'chart-1' },
        { operator: 'gt', value: 2, color: '#ff0000' },
        { operator: 'regex', value: 'x', color: 'chart-red' }
      ]
    })
    const read = async () =>
      (await call(emulator, 'GET', `/api/v2/dashboards/${d.id}`)).json.data.tiles[0].config
    expect(await read()).toMatchObject({
      color: 'chart-orange',
      colorRules: [{ operator: 'gt', value: 1, color: 'chart-green' }]
    })
    Object.assign(d.tiles[0]!.config, { color: 'mauve', colorRules: [] })
    const none = await read()
    expect(none).not.toHaveProperty('color')
    expect(none).not.toHaveProperty('colorRules')
  })

  test('a count item always comes back with an empty value expression; a leftover one is dropped', async () => {
    const config = await configOf({ displayType: 'line', sourceId: LOGS, select: [{ aggFn: 'count' }] })
    expect(config.select).toEqual([
      { aggFn: 'count', where: '', whereLanguage: 'lucene', valueExpression: '' }
    ])
  })
})

describe('dashboard-level fields', () => {
  const filter = (name: string, extra: Record<string, unknown> = {}) => ({
    type: 'QUERY_EXPRESSION',
    name,
    expression: 'ServiceName',
    sourceId: LOGS,
    ...extra
  })

  test('defaults: no filters, no saved query, no saved filter values, no containers key', async () => {
    const d = await create({ tiles: [] })
    expect(d).toEqual({
      id: expect.any(String),
      name: 'Shapes',
      tiles: [],
      tags: [],
      filters: [],
      savedQuery: null,
      savedQueryLanguage: null,
      savedFilterValues: []
    })
    const empty = await create({ tiles: [], containers: [] })
    expect(empty).not.toHaveProperty('containers')
  })

  test('filters get new ids on create; a PUT keeps an id only if it is an existing filter', async () => {
    const d = await create({
      tiles: [],
      filters: [filter('Service'), filter('Level', { expression: 'SeverityText' })]
    })
    const [service, level] = d.filters
    expect(service.id).toMatch(/^[0-9a-f]{24}$/)
    expect(level.id).not.toBe(service.id)
    const refused = await call(emulator, 'POST', '/api/v2/dashboards', {
      body: { name: 'Ids', tiles: [], filters: [{ ...filter('S'), id: 'mine' }] }
    })
    expect(refused.json.message).toBe(
      "Body validation failed: filters.0: Unrecognized key(s) in object: 'id'"
    )
    const put = await call(emulator, 'PUT', `/api/v2/dashboards/${d.id}`, {
      body: {
        name: 'Shapes',
        tiles: [],
        filters: [
          { ...filter('Service'), id: service.id },
          { ...filter('New'), id: 'not-an-existing-one' }
        ]
      }
    })
    expect(put.json.data.filters[0].id).toBe(service.id)
    expect(put.json.data.filters[1].id).not.toBe('not-an-existing-one')
    expect(put.json.data.filters[1].id).toMatch(/^[0-9a-f]{24}$/)
    // A PUT without filters keeps them.
    const kept = await call(emulator, 'PUT', `/api/v2/dashboards/${d.id}`, {
      body: { name: 'Shapes', tiles: [] }
    })
    expect(kept.json.data.filters).toEqual(put.json.data.filters)
    const missingId = await call(emulator, 'PUT', `/api/v2/dashboards/${d.id}`, {
      body: { name: 'Shapes', tiles: [], filters: [filter('X')] }
    })
    expect(missingId.json.message).toBe('Body validation failed: filters.0.id: Required')
  })

  test('a filter returns variableName only as a variable and appliesToSourceIds only while broadcasting', async () => {
    const d = emulator.selfHosted.createDashboard({ name: 'Modes', tiles: [] })
    d.filters = [
      { id: 'a', ...filter('A'), variableName: 'a', isVariableEnabled: false, appliesToSourceIds: [LOGS] },
      {
        id: 'b',
        ...filter('B'),
        isVariableEnabled: true,
        variableName: 'b',
        isBroadcastEnabled: false,
        appliesToSourceIds: [LOGS]
      }
    ]
    const read = (await call(emulator, 'GET', `/api/v2/dashboards/${d.id}`)).json.data.filters
    expect(read[0]).not.toHaveProperty('variableName')
    expect(read[0].appliesToSourceIds).toEqual([LOGS])
    expect(read[1]).toMatchObject({ variableName: 'b' })
    expect(read[1]).not.toHaveProperty('appliesToSourceIds')
  })

  test('savedQueryLanguage: Lucene for a query sent without one, cleared with the query, kept when omitted', async () => {
    const d = await create({ tiles: [], savedQuery: 'level:error' })
    expect([d.savedQuery, d.savedQueryLanguage]).toEqual(['level:error', 'lucene'])
    const put = (body: Record<string, unknown>) =>
      call(emulator, 'PUT', `/api/v2/dashboards/${d.id}`, { body: { name: 'Shapes', tiles: [], ...body } })
    const sql = (await put({ savedQuery: "level = 'error'", savedQueryLanguage: 'sql' })).json.data
    expect([sql.savedQuery, sql.savedQueryLanguage]).toEqual(["level = 'error'", 'sql'])
    const kept = (await put({ savedFilterValues: [{ condition: 'x = 1' }] })).json.data
    expect([kept.savedQuery, kept.savedQueryLanguage]).toEqual(["level = 'error'", 'sql'])
    expect(kept.savedFilterValues).toEqual([{ type: 'sql', condition: 'x = 1' }])
    const cleared = (await put({ savedQuery: null })).json.data
    expect([cleared.savedQuery, cleared.savedQueryLanguage]).toEqual([null, null])
  })

  test('containers round-trip; a tile reference no container resolves is dropped on read', async () => {
    const containers = [
      { id: 'c1', title: 'Overview', collapsed: false, tabs: [{ id: 't1', title: 'Errors' }] },
      { id: 'c2', title: 'Details', collapsed: true, collapsible: true, bordered: false }
    ]
    const d = await create({
      containers,
      tiles: [lineTile('A', { containerId: 'c1', tabId: 't1' }), lineTile('B', { containerId: 'c2' })]
    })
    expect(d.containers).toEqual(containers)
    expect(d.tiles.map((t: Record<string, unknown>) => [t.containerId, t.tabId])).toEqual([
      ['c1', 't1'],
      ['c2', undefined]
    ])
    const stored = emulator.selfHosted.dashboards.get(d.id)!
    stored.containers = [{ id: 'c1', title: 'Overview', collapsed: false }]
    const read = (await call(emulator, 'GET', `/api/v2/dashboards/${d.id}`)).json.data
    expect(read.tiles[0]).toMatchObject({ containerId: 'c1' })
    expect(read.tiles[0]).not.toHaveProperty('tabId')
    expect(read.tiles[1]).not.toHaveProperty('containerId')
    const unknown = await call(emulator, 'POST', '/api/v2/dashboards', {
      body: { name: 'Refs', tiles: [lineTile('A', { containerId: 'nope' })] }
    })
    expect(unknown.json.message).toBe('tiles.0.containerId: Tile references unknown containerId "nope"')
  })
})

describe('alert schedule and threshold', () => {
  let dashboardId: string
  let tileId: string
  beforeAll(async () => {
    const d = await create({ tiles: [lineTile('a')] })
    dashboardId = d.id
    tileId = d.tiles[0].id
  })
  const post = (extra: Record<string, unknown>) =>
    call(emulator, 'POST', '/api/v2/alerts', { body: tileAlert(dashboardId, tileId, extra) })
  const put = (id: string, extra: Record<string, unknown>) =>
    call(emulator, 'PUT', `/api/v2/alerts/${id}`, { body: tileAlert(dashboardId, tileId, extra) })
  const soon = new Date(Date.now() + 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z')

  test('unset schedule and thresholdMax are absent; the start date reads back in toISOString form', async () => {
    const plain = (await post({})).json.data
    expect(plain).not.toHaveProperty('thresholdMax')
    expect(plain).not.toHaveProperty('scheduleOffsetMinutes')
    expect(plain).not.toHaveProperty('scheduleStartAt')
    const started = (await post({ scheduleStartAt: soon })).json.data
    expect(started.scheduleStartAt).toBe(new Date(soon).toISOString())
    expect(started.scheduleOffsetMinutes).toBe(0)
  })

  test('a PUT keeps thresholdMax and the schedule it omits; null clears the start date and resets the offset', async () => {
    const id = (
      await post({ thresholdType: 'between', threshold: 1, thresholdMax: 9, scheduleOffsetMinutes: 3 })
    ).json.data.id
    const kept = (await put(id, { thresholdType: 'above', threshold: 2 })).json.data
    expect(kept).toMatchObject({ thresholdMax: 9, scheduleOffsetMinutes: 3, thresholdType: 'above' })
    const started = (await put(id, { scheduleStartAt: soon })).json.data
    expect(started).toMatchObject({ scheduleStartAt: new Date(soon).toISOString(), scheduleOffsetMinutes: 0 })
    const cleared = (await put(id, { scheduleStartAt: null })).json.data
    expect(cleared).toMatchObject({ scheduleStartAt: null, scheduleOffsetMinutes: 0 })
    const offset = (await put(id, { scheduleOffsetMinutes: 4 })).json.data
    expect(offset).toMatchObject({ scheduleStartAt: null, scheduleOffsetMinutes: 4 })
  })

  test('the schedule rules answer with the server text', async () => {
    expect((await post({ scheduleOffsetMinutes: 5 })).json.message).toBe(
      'Body validation failed: scheduleOffsetMinutes: scheduleOffsetMinutes must be less than 5 minutes'
    )
    expect((await post({ scheduleOffsetMinutes: 1, scheduleStartAt: soon })).json.message).toBe(
      'Body validation failed: scheduleOffsetMinutes: scheduleOffsetMinutes must be 0 when scheduleStartAt is provided'
    )
    expect((await post({ scheduleStartAt: '2026-01-01T10:00:00+02:00' })).json.message).toBe(
      'Body validation failed: scheduleStartAt: Invalid datetime'
    )
    expect((await post({ channel: { type: 'webhook', webhookId: OPS_PAGER } })).status).toBe(200)
  })
})
