import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import type { Emulator } from '../../emulator/index.js'
import { call, lineTile, LOGS, servicePath, start } from './helpers.js'

// Request bodies are checked with the real server's rules (emulator/rules), and refused with its 400 text.

let emulator: Emulator
const MISSING = '65a1f0c2b3d4e5f6a7b8c9ff'

beforeAll(async () => {
  emulator = await start()
})

afterAll(async () => {
  await emulator.close()
})

const create = (body: unknown) => call(emulator, 'POST', '/api/v2/dashboards', { body })

describe('request validation', () => {
  test('a wrong type is rejected', async () => {
    const answer = await create({ name: 'x', tiles: [lineTile('a', { h: '3' })] })
    expect(answer.status).toBe(400)
    expect(answer.json).toEqual({
      message: 'Body validation failed: tiles.0.h: Expected number, received string'
    })
  })

  test('an enum value outside the set is rejected', async () => {
    const answer = await create({
      name: 'x',
      tiles: [
        lineTile('a', { config: { displayType: 'line', sourceId: LOGS, select: [{ aggFn: 'median' }] } })
      ]
    })
    expect(answer.status).toBe(400)
    expect(answer.json.message).toMatch(
      /^Body validation failed: tiles\.0\.config\.select\.0\.aggFn: Invalid enum value/
    )
  })

  test('an unknown displayType names the field that is wrong', async () => {
    const answer = await create({ name: 'x', tiles: [lineTile('a', { config: { displayType: 'gauge' } })] })
    expect(answer.json.message).toMatch(/^Body validation failed: tiles\.0\.config\.displayType: /)
  })

  const errorsTile = (series: Record<string, unknown>) => ({
    name: 'Errors',
    x: 0,
    y: 0,
    w: 6,
    h: 3,
    series: [
      { type: 'time', dataSource: 'events', aggFn: 'count', where: 'level:error', groupBy: [], ...series }
    ]
  })

  test('a series needs a sourceId (zod.ts chartSeriesSchema), even where CONTRACT.md shows only dataSource', async () => {
    const answer = await create({ name: 'Contract form', tiles: [errorsTile({})] })
    expect(answer.json).toEqual({ message: 'Body validation failed: tiles.0.series.0.sourceId: Required' })
  })

  test('the contract series form with a sourceId is accepted, with dataSource and without groupBy on number', async () => {
    const total = { type: 'number', dataSource: 'events', sourceId: LOGS, aggFn: 'count', where: '' }
    const answer = await create({
      name: 'Contract form',
      tiles: [
        { ...errorsTile({ sourceId: LOGS }), asRatio: false },
        { ...errorsTile(total), name: 'Total', x: 6 }
      ],
      tags: []
    })
    expect(answer.status).toBe(200)
  })

  test('a tile with both series and config, or neither, is rejected', async () => {
    const both = await create({
      name: 'x',
      tiles: [lineTile('a', { series: [{ type: 'time', aggFn: 'count', where: '', groupBy: [] }] })]
    })
    expect(both.status).toBe(400)
    const neither = await create({ name: 'x', tiles: [{ name: 'a', x: 0, y: 0, w: 1, h: 1 }] })
    expect(neither.status).toBe(400)
  })

  test('limits: name length, tile count, tag count', async () => {
    expect((await create({ name: 'n'.repeat(1024), tiles: [] })).status).toBe(200)
    expect((await create({ name: 'n'.repeat(1025), tiles: [] })).status).toBe(400)
    const tiles = Array.from({ length: 501 }, (_, index) => lineTile(`t${index}`))
    const tooMany = await create({ name: 'x', tiles })
    expect(tooMany.json.message).toContain('tiles: Array must contain at most 500 element(s)')
    const tags = Array.from({ length: 51 }, (_, index) => `t${index}`)
    expect((await create({ name: 'x', tiles: [], tags })).status).toBe(400)
    expect((await create({ name: 'x', tiles: [], tags: tags.slice(0, 50) })).status).toBe(200)
  })

  test('an unknown field in a managed service PATCH is rejected', async () => {
    const answer = await call(emulator, 'PATCH', servicePath(emulator), { body: { nmae: 'typo' } })
    expect(answer.status).toBe(400)
    expect(answer.json.error).toContain("Unrecognized key(s) in object: 'nmae'")
  })

  test('a charts body with a wrong type is rejected with {message}, like every validated route', async () => {
    const answer = await call(emulator, 'POST', '/api/v2/charts/series', {
      body: { series: [], startTime: 'yesterday', endTime: Date.now() }
    })
    expect(answer.status).toBe(400)
    expect(answer.json).toEqual({
      message:
        'Body validation failed: series: Series array cannot be empty; startTime: Expected number, received string'
    })
  })
})

describe('formulas on which the server throws (common-utils validateChartConfigFormulas)', () => {
  const tile = (config: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    name: 'T',
    x: 0,
    y: 0,
    w: 6,
    h: 3,
    config,
    ...extra
  })
  const pie = (formulas: unknown) => ({
    displayType: 'pie',
    sourceId: LOGS,
    select: [{ aggFn: 'count' }],
    formulas
  })
  const CRASH = { message: 'Something went wrong :(' }

  test('a null formula or a formulas that is not a list, on a display type without formulas, is a 500 as on the real server', async () => {
    const before = emulator.selfHosted.dashboards.size
    for (const config of [
      pie([null]),
      pie([{ expression: 'A' }, null]),
      pie('A'),
      pie({}),
      { displayType: 'markdown', markdown: 'x', formulas: [null] },
      { displayType: 'search', sourceId: LOGS, select: '', whereLanguage: 'lucene', formulas: [null] }
    ]) {
      const answer = await create({ name: 'x', tiles: [tile(config)] })
      expect({ config, status: answer.status, body: answer.json }).toEqual({
        config,
        status: 500,
        body: CRASH
      })
    }
    // Whatever else the body gets wrong: the exception ends the parse.
    const alsoWrong = await create({ name: 5, tiles: [tile(pie([null]), { x: 99 })] })
    expect([alsoWrong.status, alsoWrong.json]).toEqual([500, CRASH])
    expect(emulator.selfHosted.dashboards.size).toBe(before)
  })

  test('the dry run and an update answer the same 500, and the update changes nothing', async () => {
    const dryRun = await call(emulator, 'POST', '/api/v2/dashboards/validate', {
      body: { name: 'x', tiles: [tile(pie([null]))] }
    })
    expect([dryRun.status, dryRun.json]).toEqual([500, CRASH])
    const created = await create({ name: 'Kept', tiles: [tile(pie(undefined))] })
    expect(created.status).toBe(200)
    const id = created.json.data.id as string
    const update = await call(emulator, 'PUT', `/api/v2/dashboards/${id}`, {
      body: { name: 'Changed', tiles: [tile(pie([null]))] }
    })
    expect([update.status, update.json]).toEqual([500, CRASH])
    expect(emulator.selfHosted.dashboards.get(id)!.name).toBe('Kept')
  })

  test('what the check reads without throwing is its 400 or passes; a display type with formulas refuses a null first', async () => {
    const empty = await create({ name: 'x', tiles: [tile(pie([1]))] })
    expect([empty.status, empty.json]).toEqual([
      400,
      { message: 'Body validation failed: tiles.0.config.formulas.0.expression: Expression is empty' }
    ])
    for (const formulas of [null, 0, [], { length: 0 }]) {
      const answer = await create({ name: 'x', tiles: [tile(pie(formulas))] })
      expect({ formulas, status: answer.status }).toEqual({ formulas, status: 200 })
    }
    const line = await create({
      name: 'x',
      tiles: [tile({ displayType: 'line', sourceId: LOGS, select: [{ aggFn: 'count' }], formulas: [null] })]
    })
    expect([line.status, line.json]).toEqual([
      400,
      { message: 'Body validation failed: tiles.0.config.formulas.0: Expected object, received null' }
    ])
  })
})

describe('POST /dashboards/validate', () => {
  test('a valid body answers valid with the parsed body (defaults filled in) and saves nothing', async () => {
    const before = emulator.selfHosted.dashboards.size
    const tile = { name: 'a', x: 0, y: 0, w: 6, h: 3 }
    const answer = await call(emulator, 'POST', '/api/v2/dashboards/validate', {
      body: {
        name: 'Dry run',
        tiles: [
          {
            ...tile,
            series: [{ type: 'time', sourceId: LOGS, aggFn: 'count', where: '', groupBy: ['service'] }]
          },
          { ...tile, config: { displayType: 'table', sourceId: LOGS, select: [{ aggFn: 'count' }], junk: 1 } }
        ]
      }
    })
    expect(answer.status).toBe(200)
    expect(answer.json).toEqual({
      valid: true,
      errors: [],
      normalized: {
        name: 'Dry run',
        tiles: [
          {
            ...tile,
            series: [{ type: 'time', sourceId: LOGS, aggFn: 'count', where: '', groupBy: ['service'] }]
          },
          {
            ...tile,
            config: { displayType: 'table', sourceId: LOGS, select: [{ aggFn: 'count', where: '' }] }
          }
        ]
      }
    })
    expect(emulator.selfHosted.dashboards.size).toBe(before)
  })

  test('an invalid body is still a 200 listing the errors', async () => {
    const before = emulator.selfHosted.dashboards.size
    const answer = await call(emulator, 'POST', '/api/v2/dashboards/validate', { body: { tiles: [] } })
    expect(answer.status).toBe(200)
    expect(answer.json).toEqual({
      valid: false,
      errors: [{ path: 'name', message: 'Required' }],
      normalized: null
    })
    const managed = await call(emulator, 'POST', servicePath(emulator, '/clickstack/dashboards/validate'), {
      body: {
        name: 'x',
        tiles: [
          lineTile('a', {
            config: { displayType: 'line', sourceId: MISSING, select: [{ aggFn: 'count' }] }
          })
        ]
      }
    })
    expect(managed.json.result.valid).toBe(false)
    expect(managed.json.result.errors).toEqual([
      { path: '', message: `Could not find the following source IDs: ${MISSING}` }
    ])
    expect(emulator.selfHosted.dashboards.size).toBe(before)
    expect(emulator.managed().dashboards.size).toBe(0)
  })
})
