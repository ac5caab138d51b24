import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import type { Emulator } from '../../emulator/index.js'
import { call, CONNECTION, lineTile, start, tableTile, tileAlert } from './helpers.js'

let emulator: Emulator

beforeAll(async () => {
  emulator = await start()
})

afterAll(async () => {
  await emulator.close()
})

async function createDashboard(tiles: Record<string, unknown>[]) {
  const answer = await call(emulator, 'POST', '/api/v2/dashboards', {
    body: { name: 'Tiles', tiles, tags: [] }
  })
  expect(answer.status).toBe(200)
  return answer.json.data
}

describe('tile ids', () => {
  test('assigns every tile id on create and ignores ids sent', async () => {
    const sent = 'aaaaaaaaaaaaaaaaaaaaaaaa'
    const dashboard = await createDashboard([lineTile('a', { id: sent }), lineTile('b')])
    const ids = dashboard.tiles.map((tile: { id: string }) => tile.id)
    expect(ids).toHaveLength(2)
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{24}$/)
    expect(ids).not.toContain(sent)
    expect(new Set(ids).size).toBe(2)
    expect(dashboard.id).toMatch(/^[0-9a-f]{24}$/)
  })

  test('PUT keeps matching tile ids and assigns new ones to the rest', async () => {
    const dashboard = await createDashboard([lineTile('a'), lineTile('b')])
    const [a, b] = dashboard.tiles
    const answer = await call(emulator, 'PUT', `/api/v2/dashboards/${dashboard.id}`, {
      body: {
        name: 'Tiles',
        tiles: [
          lineTile('b renamed', { id: b.id }),
          lineTile('new'),
          lineTile('foreign', { id: 'bbbbbbbbbbbbbbbbbbbbbbbb' })
        ],
        tags: []
      }
    })
    expect(answer.status).toBe(200)
    const tiles = answer.json.data.tiles
    expect(tiles[0]).toMatchObject({ id: b.id, name: 'b renamed' })
    expect(tiles[1].id).not.toBe(a.id)
    expect(tiles[1].id).toMatch(/^[0-9a-f]{24}$/)
    expect(tiles[2].id).not.toBe('bbbbbbbbbbbbbbbbbbbbbbbb')
    expect(tiles.map((tile: { id: string }) => tile.id)).not.toContain(a.id)
  })

  test('a tile id sent twice in one body is refused (types.ts addDuplicateTileIdIssues)', async () => {
    const dashboard = await createDashboard([lineTile('a')])
    const id = dashboard.tiles[0].id
    const answer = await call(emulator, 'PUT', `/api/v2/dashboards/${dashboard.id}`, {
      body: { name: 'Tiles', tiles: [lineTile('one', { id }), lineTile('two', { id })] }
    })
    expect(answer.json).toEqual({
      message: `Body validation failed: tiles.1.id: Duplicate tile ID: ${id}. Omit the ID to generate a unique one.`
    })
  })

  test('PUT needs name and tiles: it is not a partial update (udash dashboardBodyBaseShape)', async () => {
    const dashboard = await createDashboard([lineTile('a')])
    const answer = await call(emulator, 'PUT', `/api/v2/dashboards/${dashboard.id}`, {
      body: { name: 'Renamed' }
    })
    expect(answer.status).toBe(400)
    expect(answer.json).toEqual({ message: 'Body validation failed: tiles: Required' })
    expect(emulator.selfHosted.dashboards.get(dashboard.id)?.name).toBe(dashboard.name)
  })
})

describe('alerts follow their tiles', () => {
  test('PUT that drops a tile deletes the alerts on it', async () => {
    const dashboard = await createDashboard([lineTile('keep'), lineTile('drop')])
    const [keep, drop] = dashboard.tiles
    const kept = await call(emulator, 'POST', '/api/v2/alerts', { body: tileAlert(dashboard.id, keep.id) })
    const dropped = await call(emulator, 'POST', '/api/v2/alerts', { body: tileAlert(dashboard.id, drop.id) })
    expect(kept.status).toBe(200)
    expect(dropped.status).toBe(200)

    await call(emulator, 'PUT', `/api/v2/dashboards/${dashboard.id}`, {
      body: { name: 'Tiles', tiles: [lineTile('keep', { id: keep.id })] }
    })
    expect((await call(emulator, 'GET', `/api/v2/alerts/${kept.json.data.id}`)).status).toBe(200)
    const gone = await call(emulator, 'GET', `/api/v2/alerts/${dropped.json.data.id}`)
    expect(gone.status).toBe(404)
    expect(gone.json).toEqual({ message: 'Alert not found' })
  })

  test('PUT that changes a tile to a non-alertable type deletes its alerts', async () => {
    const dashboard = await createDashboard([lineTile('a')])
    const tile = dashboard.tiles[0]
    const alert = await call(emulator, 'POST', '/api/v2/alerts', { body: tileAlert(dashboard.id, tile.id) })
    await call(emulator, 'PUT', `/api/v2/dashboards/${dashboard.id}`, {
      body: { name: 'Tiles', tiles: [{ ...tableTile('now a table'), id: tile.id }] }
    })
    expect(emulator.selfHosted.alerts.has(alert.json.data.id)).toBe(false)
  })

  test('deleting a dashboard deletes its alerts', async () => {
    const dashboard = await createDashboard([lineTile('a')])
    const alert = await call(emulator, 'POST', '/api/v2/alerts', {
      body: tileAlert(dashboard.id, dashboard.tiles[0].id)
    })
    const deleted = await call(emulator, 'DELETE', `/api/v2/dashboards/${dashboard.id}`)
    expect(deleted.status).toBe(200)
    expect(deleted.json).toEqual({})
    expect(emulator.selfHosted.dashboards.has(dashboard.id)).toBe(false)
    expect(emulator.selfHosted.alerts.has(alert.json.data.id)).toBe(false)
  })

  test('an alert on a builder tile of any type is accepted, and the next dashboard PUT deletes it', async () => {
    const dashboard = await createDashboard([tableTile('t')])
    const answer = await call(emulator, 'POST', '/api/v2/alerts', {
      body: tileAlert(dashboard.id, dashboard.tiles[0].id)
    })
    expect(answer.status).toBe(200)
    await call(emulator, 'PUT', `/api/v2/dashboards/${dashboard.id}`, {
      body: { name: 'Tiles', tiles: [{ ...tableTile('t'), id: dashboard.tiles[0].id }] }
    })
    expect(emulator.selfHosted.alerts.has(answer.json.data.id)).toBe(false)
  })

  test('an alert on a raw SQL tile of another type, or without an interval, is refused with a semantic 400', async () => {
    const raw = (displayType: string, sqlTemplate: string) => ({
      name: displayType,
      x: 0,
      y: 0,
      w: 6,
      h: 3,
      config: { configType: 'sql', displayType, connectionId: CONNECTION, sqlTemplate }
    })
    const dashboard = await createDashboard([
      raw('table', 'SELECT 1'),
      raw('line', 'SELECT count() FROM logs'),
      raw('number', 'SELECT count() FROM logs')
    ])
    const [table, line, number] = dashboard.tiles
    const post = (tileId: string) =>
      call(emulator, 'POST', '/api/v2/alerts', { body: tileAlert(dashboard.id, tileId) })
    expect((await post(table.id)).json).toEqual({
      message: 'Alerts on Raw SQL tiles are only supported for Line, Stacked Bar, or Number display types'
    })
    expect((await post(line.id)).json).toEqual({
      message:
        'Raw SQL alert query is invalid: SQL used for alerts must include an interval parameter or macro.'
    })
    expect((await post(number.id)).status).toBe(200)
  })
})

describe('store helpers', () => {
  test('createDashboard and updateDashboard go through the same normalization as the routes', async () => {
    const created = emulator.selfHosted.createDashboard({
      name: 'By hand',
      tiles: [lineTile('a', { id: 'x' })]
    })
    expect(created.tiles[0].id).not.toBe('x')
    expect(created.tiles[0].config).toMatchObject({ asRatio: false, fillNulls: true })
    const fetched = await call(emulator, 'GET', `/api/v2/dashboards/${created.id}`)
    expect(fetched.json.data).toEqual(created)
    const updated = emulator.selfHosted.updateDashboard(created.id, {
      name: 'Changed in the UI',
      tiles: created.tiles
    })
    expect(updated.name).toBe('Changed in the UI')
    const alert = emulator.selfHosted.createAlert(tileAlert(created.id, created.tiles[0].id))
    expect(alert.state).toBe('OK')
    expect(() => emulator.selfHosted.createDashboard({ tiles: [] })).toThrow(
      /Body validation failed: name: Required/
    )
  })
})
