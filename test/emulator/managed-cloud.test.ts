/**
 * The emulator's managed mode as the ClickHouse Terraform provider records the cloud (docs/real-server.md): a sticky
 * saved-search alert groupBy, ObjectId-shaped unique filter ids on an update, stale select fields on read, lists
 * paged without a total, a JSON 404 for an unknown service, sql-only saved-search filters, and the development
 * tier's release channel. Self-hosted keeps its own rules.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import type { Emulator } from '../../emulator/index.js'
import { call, lineTile, LOGS, OPS_PAGER, servicePath, start } from './helpers.js'

let emulator: Emulator
beforeAll(async () => {
  emulator = await start({ pageSize: 2 })
})
afterAll(async () => {
  await emulator.close()
})

const clickstack = (suffix: string) => servicePath(emulator, `/clickstack${suffix}`)

async function savedSearch(name: string): Promise<string> {
  const created = await call(emulator, 'POST', clickstack('/saved-searches'), {
    body: { name, sourceId: LOGS, where: 'level:error' }
  })
  expect(created.status).toBe(200)
  return created.json.result.id as string
}

const searchAlert = (savedSearchId: string, extra: Record<string, unknown> = {}) => ({
  source: 'saved_search',
  savedSearchId,
  threshold: 1,
  thresholdType: 'above',
  interval: '5m',
  channel: { type: 'webhook', webhookId: OPS_PAGER },
  ...extra
})

describe('the managed cloud', () => {
  test("keeps a saved-search alert's groupBy when a PUT omits it, and refuses null", async () => {
    const id = await savedSearch('Sticky')
    const created = await call(emulator, 'POST', clickstack('/alerts'), {
      body: searchAlert(id, { groupBy: 'ServiceName' })
    })
    const alertId = created.json.result.id as string
    const updated = await call(emulator, 'PUT', clickstack(`/alerts/${alertId}`), {
      body: searchAlert(id, { threshold: 2 })
    })
    expect(updated.json.result).toMatchObject({ threshold: 2, groupBy: 'ServiceName' })
    const cleared = await call(emulator, 'PUT', clickstack(`/alerts/${alertId}`), {
      body: searchAlert(id, { groupBy: null })
    })
    expect(cleared.status).toBe(400)
    expect(emulator.managed().alerts.get(alertId)!.groupBy).toBe('ServiceName')
  })

  test('self-hosted still clears an omitted groupBy', async () => {
    const search = emulator.selfHosted.createSavedSearch({ name: 'Cleared', sourceId: LOGS })
    const alert = emulator.selfHosted.createAlert(searchAlert(search.id, { groupBy: 'ServiceName' }))
    const updated = await call(emulator, 'PUT', `/api/v2/alerts/${alert.id}`, {
      body: searchAlert(search.id)
    })
    expect(updated.status).toBe(200)
    expect(emulator.selfHosted.alerts.get(alert.id)!.groupBy).toBeNull()
  })

  test('an update needs each filter id shaped like an ObjectId, each once', async () => {
    const filter = { type: 'QUERY_EXPRESSION', name: 'Service', expression: 'ServiceName', sourceId: LOGS }
    const created = await call(emulator, 'POST', clickstack('/dashboards'), {
      body: { name: 'Filtered', tiles: [lineTile('A')], filters: [filter] }
    })
    const dashboard = created.json.result as { id: string; filters: Array<{ id: string }> }
    const put = (filters: unknown[]) =>
      call(emulator, 'PUT', clickstack(`/dashboards/${dashboard.id}`), {
        body: { name: 'Filtered', tiles: [lineTile('A')], filters }
      })
    const placeholder = await put([{ ...filter, id: 'new-filter-1' }])
    expect(placeholder.status).toBe(400)
    expect(placeholder.json.error).toContain('filters.0.id: Invalid ObjectId')
    const twice = await put([
      { ...filter, id: dashboard.filters[0]!.id },
      { ...filter, name: 'Again', id: dashboard.filters[0]!.id }
    ])
    expect(twice.status).toBe(400)
    expect(twice.json.error).toContain('Filter IDs must be unique')
    const minted = await put([
      { ...filter, id: dashboard.filters[0]!.id },
      { ...filter, name: 'Level', expression: 'SeverityText', id: 'a1b2c3d4e5f6a7b8c9d0e1f2' }
    ])
    expect(minted.status).toBe(200)
    // The server keeps the existing filter's id and gives the new one its own.
    const ids = (minted.json.result.filters as Array<{ id: string }>).map(f => f.id)
    expect(ids[0]).toBe(dashboard.filters[0]!.id)
    expect(ids[1]).not.toBe('a1b2c3d4e5f6a7b8c9d0e1f2')
  })

  test('returns the select fields a change of aggregation left behind; self-hosted drops them', async () => {
    const tile = {
      ...lineTile('Count'),
      config: { displayType: 'line', sourceId: LOGS, select: [{ aggFn: 'count' }] }
    }
    for (const store of [emulator.managed(), emulator.selfHosted]) {
      const created = store.createDashboard({ name: 'Stale', tiles: [tile] })
      Object.assign((created.tiles[0]!.config.select as Array<Record<string, unknown>>)[0]!, {
        level: 0.95,
        valueExpression: 'Duration'
      })
    }
    const managedRead = await call(emulator, 'GET', clickstack('/dashboards'))
    const managedItem = (
      managedRead.json.result as Array<{ name: string; tiles: Array<{ config: { select: unknown[] } }> }>
    ).find(d => d.name === 'Stale')!.tiles[0]!.config.select[0]
    expect(managedItem).toMatchObject({ aggFn: 'count', level: 0.95, valueExpression: 'Duration' })
    const selfRead = await call(emulator, 'GET', '/api/v2/dashboards')
    const selfItem = (
      selfRead.json.data as Array<{ name: string; tiles: Array<{ config: { select: unknown[] } }> }>
    ).find(d => d.name === 'Stale')!.tiles[0]!.config.select[0] as Record<string, unknown>
    expect(selfItem.level).toBeUndefined()
    expect(selfItem.valueExpression).toBeUndefined()
  })

  test('pages alert, webhook and saved-search lists by limit and offset, without a total', async () => {
    const first = await call(emulator, 'GET', clickstack('/webhooks'))
    expect(first.json.result).toHaveLength(2)
    expect(first.json.meta).toBeUndefined()
    expect(first.headers.get('x-total-count')).toBeNull()
    const next = await call(emulator, 'GET', clickstack('/webhooks?limit=2&offset=2'))
    expect(Array.isArray(next.json.result)).toBe(true)
    // Self-hosted says its total.
    const counted = await call(emulator, 'GET', '/api/v2/webhooks')
    expect(counted.json.meta).toMatchObject({ limit: 2, offset: 0 })
  })

  test('answers an unknown service with a JSON 404, not the page of an unknown route', async () => {
    const unknown = await call(
      emulator,
      'GET',
      servicePath(emulator, '/clickstack/dashboards', '11111111-2222-4333-8444-555555555555')
    )
    expect(unknown.status).toBe(404)
    expect(unknown.json).toMatchObject({ status: 404, error: 'Service not found' })
  })

  test('takes sql saved-search filters only; self-hosted keeps a stored lucene one', async () => {
    const refused = await call(emulator, 'POST', clickstack('/saved-searches'), {
      body: { name: 'Lucene', sourceId: LOGS, filters: [{ type: 'lucene', condition: 'service:a' }] }
    })
    expect(refused.status).toBe(400)
    const sql = await call(emulator, 'POST', clickstack('/saved-searches'), {
      body: { name: 'Sql', sourceId: LOGS, filters: [{ condition: "ServiceName IN ('a')" }] }
    })
    expect(sql.status).toBe(200)
    const stored = emulator.selfHosted.createSavedSearch({ name: 'UI', sourceId: LOGS })
    emulator.selfHosted.savedSearches.get(stored.id)!.filters.push({ type: 'lucene', condition: 'service:a' })
    const kept = emulator.selfHosted.updateSavedSearch(stored.id, {
      name: 'UI',
      sourceId: LOGS,
      filters: [{ type: 'lucene', condition: 'service:a' }]
    })
    expect(kept.filters).toEqual([{ type: 'lucene', condition: 'service:a' }])
  })

  test('holds a development service to the default release channel only', async () => {
    const dev = (body: unknown) =>
      call(emulator, 'PATCH', servicePath(emulator, '', emulator.credentials.devServiceId), { body })
    expect((await dev({ releaseChannel: 'slow' })).status).toBe(400)
    expect((await dev({ releaseChannel: 'default' })).status).toBe(200)
  })
})
