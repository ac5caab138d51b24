import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import type { Emulator } from '../../emulator/index.js'
import { basic, call, lineTile, servicePath, start } from './helpers.js'

// FACTS.md "Errors": the error shape differs by route and mode; these pin each one.

let emulator: Emulator
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const UNKNOWN_ID = '0123456789abcdef01234567'

beforeAll(async () => {
  emulator = await start()
})

afterAll(async () => {
  await emulator.close()
})

describe('self-hosted authentication', () => {
  test('a missing key is a plain-text 401 Unauthorized', async () => {
    const answer = await call(emulator, 'GET', '/api/v2/dashboards', { auth: null })
    expect(answer.status).toBe(401)
    expect(answer.text).toBe('Unauthorized')
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain/)
  })

  test('an unknown key is a plain-text 401', async () => {
    const answer = await call(emulator, 'GET', '/api/v2/dashboards', { auth: 'Bearer not-a-key' })
    expect(answer.status).toBe(401)
    expect(answer.text).toBe('Unauthorized')
  })

  test('the ingestion key is refused by the management API', async () => {
    const answer = await call(emulator, 'GET', '/api/v2/dashboards', {
      auth: `Bearer ${emulator.credentials.ingestionKey}`
    })
    expect(answer.status).toBe(401)
    expect(answer.text).toBe('Unauthorized')
  })

  test('whoami answers the version and the user', async () => {
    const answer = await call(emulator, 'GET', '/api/v2')
    expect(answer.status).toBe(200)
    expect(answer.json.version).toBe('v2')
    expect(answer.json.user.email).toBe('emulator-user@example.com')
  })
})

describe('self-hosted error shapes', () => {
  test('an unknown dashboard is a plain-text 404: `res.sendStatus(404)`, the text Not Found', async () => {
    const answer = await call(emulator, 'GET', `/api/v2/dashboards/${UNKNOWN_ID}`)
    expect(answer.status).toBe(404)
    expect(answer.text).toBe('Not Found')
    const put = await call(emulator, 'PUT', `/api/v2/dashboards/${UNKNOWN_ID}`, {
      body: { name: 'x', tiles: [] }
    })
    expect(put.status).toBe(404)
    expect(put.text).toBe('Not Found')
  })

  test('deleting an unknown dashboard is a 200', async () => {
    const answer = await call(emulator, 'DELETE', `/api/v2/dashboards/${UNKNOWN_ID}`)
    expect(answer.status).toBe(200)
    expect(answer.json).toEqual({})
  })

  test('an unknown alert is a JSON 404, also on delete', async () => {
    for (const method of ['GET', 'DELETE']) {
      const answer = await call(emulator, method, `/api/v2/alerts/${UNKNOWN_ID}`)
      expect(answer.status).toBe(404)
      expect(answer.json).toEqual({ message: 'Alert not found' })
    }
  })

  test('a malformed ObjectId in a path is a 400 Params validation failed', async () => {
    for (const path of [
      '/api/v2/dashboards/nope',
      '/api/v2/alerts/123',
      '/api/v2/sources/zzzzzzzzzzzzzzzzzzzzzzzz'
    ]) {
      const answer = await call(emulator, 'GET', path)
      expect(answer.status).toBe(400)
      expect(answer.json).toEqual({ message: 'Params validation failed: id: Invalid ObjectId' })
    }
  })

  test('a body validation failure lists path and message', async () => {
    const answer = await call(emulator, 'POST', '/api/v2/dashboards', {
      body: { tiles: [lineTile('a', { x: 24, w: 0 })], tags: ['x'.repeat(33)] }
    })
    expect(answer.status).toBe(400)
    expect(answer.json.message).toMatch(/^Body validation failed: /)
    expect(answer.json.message).toContain('name: Required')
    expect(answer.json.message).toContain('tiles.0.x: Number must be less than or equal to 23')
    expect(answer.json.message).toContain('tiles.0.w: Number must be greater than or equal to 1')
    expect(answer.json.message).toContain('tags.0: String must contain at most 32 character(s)')
  })

  test('an unknown source id is a 400 naming the missing ids', async () => {
    const tile = lineTile('a', {
      config: { displayType: 'line', sourceId: UNKNOWN_ID, select: [{ aggFn: 'count' }] }
    })
    const answer = await call(emulator, 'POST', '/api/v2/dashboards', { body: { name: 'x', tiles: [tile] } })
    expect(answer.status).toBe(400)
    expect(answer.json).toEqual({ message: `Could not find the following source IDs: ${UNKNOWN_ID}` })
  })

  test('charts errors are {error}, but its body validation is {message} like every route', async () => {
    const series = [{ sourceId: UNKNOWN_ID, aggFn: 'count', where: '', groupBy: [] }]
    const unknown = await call(emulator, 'POST', '/api/v2/charts/series', {
      body: { series, startTime: Date.now() - 60_000, endTime: Date.now() }
    })
    expect(unknown.status).toBe(404)
    expect(unknown.json).toEqual({ error: 'Source not found for series 0' })
    const seconds = await call(emulator, 'POST', '/api/v2/charts/series', {
      body: { series, startTime: 1, endTime: 2 }
    })
    expect(seconds.status).toBe(400)
    expect(seconds.json).toEqual({
      message:
        'Body validation failed: endTime: Timestamp must be in milliseconds; startTime: Timestamp must be in milliseconds'
    })
  })

  test('an unknown route is a 404 and invalid JSON a 400', async () => {
    expect((await call(emulator, 'GET', '/api/v2/nothing-here')).status).toBe(404)
    expect((await call(emulator, 'GET', '/elsewhere')).status).toBe(404)
    const broken = await call(emulator, 'POST', '/api/v2/dashboards', { rawBody: '{"name":' })
    expect(broken.status).toBe(400)
    expect(broken.json.message).toMatch(/JSON/)
  })
})

describe('managed authentication and error shapes', () => {
  test('a wrong key is a 401 {status, error, requestId}', async () => {
    const answer = await call(emulator, 'GET', servicePath(emulator, '/observability/dashboards'), {
      auth: basic('emu-key-id', 'wrong')
    })
    expect(answer.status).toBe(401)
    expect(answer.json).toEqual({
      status: 401,
      error: expect.any(String),
      requestId: expect.stringMatching(UUID)
    })
  })

  test('the personal API key is not a managed credential', async () => {
    const answer = await call(emulator, 'GET', servicePath(emulator, '/observability/dashboards'), {
      auth: `Bearer ${emulator.credentials.apiKey}`
    })
    expect(answer.status).toBe(401)
  })

  test('the read-only key may read but gets a 403 on any write', async () => {
    const c = emulator.credentials
    const auth = basic(c.readOnlyKeyId, c.readOnlyKeySecret)
    const read = await call(emulator, 'GET', servicePath(emulator, '/observability/dashboards'), { auth })
    expect(read.status).toBe(200)
    const write = await call(emulator, 'POST', servicePath(emulator, '/observability/dashboards'), {
      auth,
      body: { name: 'x', tiles: [] }
    })
    expect(write.status).toBe(403)
    expect(write.json).toEqual({
      status: 403,
      error: expect.any(String),
      requestId: expect.stringMatching(UUID)
    })
    const patch = await call(emulator, 'PATCH', servicePath(emulator), { auth, body: { name: 'x' } })
    expect(patch.status).toBe(403)
  })

  test('an unknown organization or service is a 404, a non-UUID a 400', async () => {
    const c = emulator.credentials
    const otherUuid = '11111111-2222-4333-8444-555555555555'
    const unknownOrg = await call(emulator, 'GET', `/v1/organizations/${otherUuid}/services/${c.serviceId}`)
    expect(unknownOrg.status).toBe(404)
    expect(unknownOrg.json).toMatchObject({ status: 404, requestId: expect.stringMatching(UUID) })
    const unknownService = await call(
      emulator,
      'GET',
      servicePath(emulator, '/observability/alerts', otherUuid)
    )
    expect(unknownService.status).toBe(404)
    const notUuid = await call(emulator, 'GET', servicePath(emulator, '', 'not-a-uuid'))
    expect(notUuid.status).toBe(400)
    expect(notUuid.json.status).toBe(400)
  })

  test('success is {status: 200, requestId, result} with self-hosted shapes inside, under both prefixes', async () => {
    const created = await call(emulator, 'POST', servicePath(emulator, '/observability/dashboards'), {
      body: { name: 'Managed', tiles: [lineTile('a')] }
    })
    expect(created.status).toBe(200)
    expect(created.json).toMatchObject({ status: 200, requestId: expect.stringMatching(UUID) })
    const id = created.json.result.id
    expect(created.json.result.tiles[0].config.fillNulls).toBe(true)
    const viaClickstack = await call(emulator, 'GET', servicePath(emulator, `/clickstack/dashboards/${id}`))
    expect(viaClickstack.json.result).toEqual(created.json.result)
    expect(emulator.managed().dashboards.has(id)).toBe(true)
    expect(emulator.selfHosted.dashboards.has(id)).toBe(false)
    const deleted = await call(emulator, 'DELETE', servicePath(emulator, `/observability/dashboards/${id}`))
    expect(deleted.json).toEqual({ status: 200, requestId: expect.stringMatching(UUID) })
  })

  test('managed errors use {status, error, requestId} for dashboards and alerts', async () => {
    const dashboard = await call(
      emulator,
      'GET',
      servicePath(emulator, `/observability/dashboards/${UNKNOWN_ID}`)
    )
    expect(dashboard.status).toBe(404)
    expect(dashboard.json).toEqual({
      status: 404,
      error: 'Dashboard not found',
      requestId: expect.stringMatching(UUID)
    })
    const invalid = await call(emulator, 'POST', servicePath(emulator, '/observability/alerts'), { body: {} })
    expect(invalid.status).toBe(400)
    expect(invalid.json.error).toMatch(/^Body validation failed: /)
  })

  test('webhooks are listed under clickstack only and managed mode has no charts', async () => {
    const clickstack = await call(emulator, 'GET', servicePath(emulator, '/clickstack/webhooks'))
    expect(clickstack.status).toBe(200)
    expect(clickstack.json.result.map((hook: { name: string }) => hook.name)).toEqual([
      'ops-pager',
      'team-slack'
    ])
    expect((await call(emulator, 'GET', servicePath(emulator, '/observability/webhooks'))).status).toBe(404)
    const charts = await call(emulator, 'POST', servicePath(emulator, '/clickstack/charts/series'), {
      body: {}
    })
    expect(charts.status).toBe(404)
  })
})
