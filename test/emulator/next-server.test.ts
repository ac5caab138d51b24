/**
 * The emulator's `next` profile (emulator/next-server.ts): alerts with `displayName`, `tags` and `runbookUrl` as a
 * HyperDX newer than 2.36 keeps them, and 2.36's default, which strips all three.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import type { Emulator } from '../../emulator/index.js'
import { call, lineTile, OPS_PAGER, start } from './helpers.js'

const servers: Emulator[] = []
afterAll(async () => {
  for (const s of servers) await s.close()
})

async function withAlert(server: '2.36' | 'next') {
  const emulator = await start({ server })
  servers.push(emulator)
  const dashboard = await call(emulator, 'POST', '/api/v2/dashboards', {
    body: { name: 'Checkout', tags: ['payments'], tiles: [lineTile('Errors')] }
  })
  const base = {
    dashboardId: dashboard.json.data.id,
    tileId: dashboard.json.data.tiles[0].id,
    threshold: 5,
    interval: '5m',
    source: 'tile',
    thresholdType: 'above',
    channel: { type: 'webhook', webhookId: OPS_PAGER }
  }
  return { emulator, base }
}

describe('the next server', () => {
  let emulator: Emulator
  let base: Record<string, unknown>
  beforeAll(async () => ({ emulator, base } = await withAlert('next')))

  test('derives displayName and tags from the tile and its dashboard when a write omits them', async () => {
    const created = await call(emulator, 'POST', '/api/v2/alerts', { body: base })
    expect(created.status).toBe(200)
    expect(created.json.data).toMatchObject({ displayName: 'Checkout - Errors', tags: ['payments'] })
    expect(created.json.data).not.toHaveProperty('runbookUrl')
  })

  test('stores what a write sends, and a later write that omits them resets them', async () => {
    const sent = { ...base, displayName: '  Pager  ', tags: ['oncall'], runbookUrl: 'https://r.example/x' }
    const created = await call(emulator, 'POST', '/api/v2/alerts', { body: sent })
    expect(created.json.data).toMatchObject({
      displayName: 'Pager',
      tags: ['oncall'],
      runbookUrl: 'https://r.example/x'
    })
    const id = created.json.data.id
    const updated = await call(emulator, 'PUT', `/api/v2/alerts/${id}`, { body: { ...base, threshold: 9 } })
    expect(updated.json.data).toMatchObject({
      threshold: 9,
      displayName: 'Checkout - Errors',
      tags: ['payments']
    })
    expect(updated.json.data).not.toHaveProperty('runbookUrl')
  })

  test('refuses a blank displayName, a tag over 32 characters and more than 50 tags', async () => {
    for (const [extra, message] of [
      [{ displayName: '   ' }, 'displayName: String must contain at least 1 character(s)'],
      [{ tags: ['x'.repeat(33)] }, 'tags: String must contain at most 32 character(s)'],
      [
        { tags: Array.from({ length: 51 }, (_, i) => `t${i}`) },
        'tags: Array must contain at most 50 element(s)'
      ]
    ] as const) {
      const answer = await call(emulator, 'POST', '/api/v2/alerts', { body: { ...base, ...extra } })
      expect(answer.status).toBe(400)
      expect(answer.json.message).toBe(`Body validation failed: ${message}`)
    }
  })
})

test('HyperDX 2.36 strips all three: accepted, not stored, not returned', async () => {
  const { emulator, base } = await withAlert('2.36')
  const created = await call(emulator, 'POST', '/api/v2/alerts', {
    body: { ...base, displayName: 'Pager', tags: ['oncall'], runbookUrl: 'https://r.example/x' }
  })
  expect(created.status).toBe(200)
  for (const key of ['displayName', 'tags', 'runbookUrl']) expect(created.json.data).not.toHaveProperty(key)
})
