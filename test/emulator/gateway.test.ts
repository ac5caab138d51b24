/**
 * What the emulator reproduces of the real servers' routing (docs/real-server.md): a path no route serves
 * is an HTML "Cannot GET" page, never a resource's JSON "not found"; the cloud gateway serves only the
 * prefixes it is configured with and refuses undeclared top-level body keys; PromQL tiles are left out of
 * every dashboard the API returns.
 */
import { afterEach, describe, expect, test } from '@jest/globals'
import type { Emulator } from '../../emulator/index.js'
import { call, lineTile, servicePath, start, tileAlert } from './helpers.js'

let emulator: Emulator | undefined
afterEach(async () => {
  await emulator?.close()
  emulator = undefined
})

describe('routes no one serves', () => {
  test('managed: a prefix the cloud does not serve is the gateway HTML page, a missing resource JSON', async () => {
    emulator = await start({ managedPrefixes: ['clickstack'] })
    const path = servicePath(emulator, '/observability/dashboards')
    const page = await call(emulator, 'GET', path)
    expect(page.status).toBe(404)
    expect(page.headers.get('content-type')).toMatch(/text\/html/)
    expect(page.text).toBe(`<!DOCTYPE html><html><body><pre>Cannot GET ${path}</pre></body></html>`)
    const deleteRoute = await call(emulator, 'DELETE', servicePath(emulator, '/clickstack/nothing/x'))
    expect(deleteRoute.text).toContain(`Cannot DELETE ${servicePath(emulator, '/clickstack/nothing/x')}`)

    const missing = await call(
      emulator,
      'DELETE',
      servicePath(emulator, `/clickstack/alerts/${'a'.repeat(24)}`)
    )
    expect(missing.status).toBe(404)
    expect(missing.json).toMatchObject({ status: 404, error: 'Alert not found' })
    expect((await call(emulator, 'GET', servicePath(emulator, '/clickstack/dashboards'))).status).toBe(200)
  })

  test('managed: a contract server serves only observability', async () => {
    emulator = await start({ managedPrefixes: ['observability'] })
    expect((await call(emulator, 'GET', servicePath(emulator, '/clickstack/dashboards'))).status).toBe(404)
    expect((await call(emulator, 'GET', servicePath(emulator, '/observability/dashboards'))).status).toBe(200)
  })

  test('self-hosted: an unknown route is the router HTML page', async () => {
    emulator = await start()
    const page = await call(emulator, 'DELETE', '/api/v2/nothing-here/1')
    expect(page.status).toBe(404)
    expect(page.headers.get('content-type')).toMatch(/text\/html/)
    expect(page.text).toContain('<pre>Cannot DELETE /api/v2/nothing-here/1</pre>')
  })
})

describe('the managed gateway refuses undeclared top-level body keys', () => {
  test('a dashboard with `id`, an alert with `channels`: 400 with the gateway words', async () => {
    emulator = await start()
    const dashboard = await call(emulator, 'POST', servicePath(emulator, '/clickstack/dashboards'), {
      body: { id: 'x', name: 'D', tiles: [lineTile('Errors')] }
    })
    expect(dashboard.status).toBe(400)
    expect(dashboard.json).toMatchObject({
      status: 400,
      error: "request body property can't be validated: id"
    })

    const created = await call(emulator, 'POST', servicePath(emulator, '/clickstack/dashboards'), {
      body: { name: 'D', tiles: [lineTile('Errors')] }
    })
    expect(created.status).toBe(200)
    const { id, tiles } = created.json.result as { id: string; tiles: Array<{ id: string }> }
    const alert = tileAlert(id, tiles[0]!.id)
    const withChannels = await call(emulator, 'POST', servicePath(emulator, '/clickstack/alerts'), {
      body: { ...alert, channels: [alert.channel] }
    })
    expect(withChannels.json).toMatchObject({
      status: 400,
      error: "request body property can't be validated: channels"
    })
    expect(
      (await call(emulator, 'POST', servicePath(emulator, '/clickstack/alerts'), { body: alert })).status
    ).toBe(200)
  })

  test('self-hosted has no gateway: `channels` is a field of its alerts', async () => {
    emulator = await start()
    const created = await call(emulator, 'POST', '/api/v2/dashboards', {
      body: { name: 'D', tiles: [lineTile('Errors')] }
    })
    const { id, tiles } = created.json.data as { id: string; tiles: Array<{ id: string }> }
    const alert = tileAlert(id, tiles[0]!.id)
    const answer = await call(emulator, 'POST', '/api/v2/alerts', {
      body: { ...alert, channels: [alert.channel] }
    })
    expect(answer.status).toBe(200)
  })
})

describe('PromQL tiles', () => {
  test('are stored, left out of every dashboard the API returns, and gone after a PUT', async () => {
    emulator = await start()
    const created = await call(emulator, 'POST', '/api/v2/dashboards', {
      body: { name: 'Mixed', tiles: [lineTile('Errors')] }
    })
    const id = created.json.data.id as string
    // Added in the UI: the external API has no shape for it.
    emulator.selfHosted.dashboards.get(id)!.tiles.push({
      id: 'promql-tile-1',
      name: 'Up',
      x: 6,
      y: 0,
      w: 6,
      h: 3,
      config: { configType: 'promql', displayType: 'line', promqlExpression: 'up' }
    })
    const one = await call(emulator, 'GET', `/api/v2/dashboards/${id}`)
    expect(one.json.data.tiles.map((t: { name: string }) => t.name)).toEqual(['Errors'])
    const list = await call(emulator, 'GET', '/api/v2/dashboards')
    expect(list.json.data[0].tiles).toHaveLength(1)

    const put = await call(emulator, 'PUT', `/api/v2/dashboards/${id}`, { body: one.json.data })
    expect(put.status).toBe(200)
    expect(emulator.selfHosted.dashboards.get(id)!.tiles.map(t => t.name)).toEqual(['Errors'])
  })
})
