/**
 * A server that follows CONTRACT.md but makes other choices than our emulator where the contract is
 * silent: numeric ids, bare JSON arrays for lists, tiles echoed back in the `series` form as sent,
 * 201 on create and 204 on delete, no pagination markers. Plans must still converge, and tile ids
 * (and so alerts) must survive an update.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { parseConfig } from '../../src/config/parse.js'
import { serviceGateFor } from '../../src/github/events.js'
import { run } from '../../src/run/run.js'
import { alert, dashboard, timeTile, workspace, type Workspace } from '../support/harness.js'

type Tile = Record<string, unknown> & { id: number; name: string }
type Dash = { id: number; name: string; tags: string[]; tiles: Tile[] }
type Alert = Record<string, unknown> & { id: number; dashboardId: number; tileId: number }

let nextId = 1000
const dashboards = new Map<number, Dash>()
const alerts = new Map<number, Alert>()
const requests: string[] = []
let server: http.Server
let url: string
let ws: Workspace

function json(res: http.ServerResponse, status: number, body?: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(body === undefined ? '' : JSON.stringify(body))
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let text = ''
    req.on('data', c => (text += c))
    req.on('end', () => {
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : {}
      const path = (req.url ?? '').split('?')[0]!
      requests.push(`${req.method} ${path}`)
      if (req.headers.authorization !== 'Bearer contract-key')
        return json(res, 401, { message: 'Unauthorized' })
      const [, , , collection, rawId] = path.split('/')
      const id = Number(rawId)
      if (collection === 'sources') return json(res, 200, [{ id: 7, name: 'Logs' }])
      if (collection === 'webhooks') return json(res, 200, { data: [{ id: 9, name: 'ops-pager' }] })
      if (collection === 'dashboards') {
        // CONTRACT.md has no dry run: its path is no route here.
        if (rawId === 'validate') return json(res, 404, { message: 'not found' })
        if (req.method === 'GET') return json(res, 200, [...dashboards.values()])
        if (req.method === 'DELETE') {
          dashboards.delete(id)
          for (const [aid, a] of alerts) if (a.dashboardId === id) alerts.delete(aid)
          return json(res, 204)
        }
        const before = dashboards.get(id)
        // Tiles are matched by id with strict equality, as a server keyed by numbers would.
        const tiles = ((body.tiles as Array<Record<string, unknown>>) ?? []).map(t => ({
          ...t,
          id: before && before.tiles.some(b => b.id === t.id) ? (t.id as number) : nextId++
        })) as Tile[]
        const dash: Dash = {
          id: before?.id ?? nextId++,
          name: String(body.name),
          tags: (body.tags as string[]) ?? [],
          tiles
        }
        dashboards.set(dash.id, dash)
        for (const [aid, a] of alerts)
          if (a.dashboardId === dash.id && !tiles.some(t => t.id === a.tileId)) alerts.delete(aid)
        return json(res, req.method === 'POST' ? 201 : 200, { data: dash })
      }
      if (collection === 'alerts') {
        if (req.method === 'GET') return json(res, 200, [...alerts.values()])
        if (req.method === 'DELETE')
          return alerts.delete(id) ? json(res, 204) : json(res, 404, { message: 'Alert not found' })
        const a = { ...body, id: req.method === 'POST' ? nextId++ : id } as Alert
        alerts.set(a.id, a)
        return json(res, req.method === 'POST' ? 201 : 200, { data: a })
      }
      json(res, 404, { message: 'not found' })
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  ws = workspace()
})

afterAll(async () => {
  await new Promise(resolve => server.close(resolve))
  ws.cleanup()
})

async function obsdeploy(command: 'plan' | 'apply') {
  const { config } = parseConfig(
    { command, 'api-url': url, 'api-key': 'contract-key', stack: 'shop', 'rate-limit': 'off' },
    {
      cwd: ws.dir,
      defaultStack: 'shop',
      defaultPlanPath: `${ws.dir}/plan.json`,
      serviceGate: p => serviceGateFor(undefined, p),
      label: n => n
    }
  )
  return run(config!)
}

const manifests = (width: number) =>
  dashboard('Checkout', timeTile('Errors', 0, 0).replace('w: 6', `w: ${width}`) + timeTile('Latency', 6, 0)) +
  alert('Checkout errors', 'Checkout', 'Errors')

describe('against a contract server that is not our emulator', () => {
  it('converges, and keeps numeric tile ids (and the alert) across an update', async () => {
    ws.write({ 'checkout.yaml': manifests(6) })
    expect((await obsdeploy('apply')).exitCode).toBe(0)
    const again = await obsdeploy('plan')
    expect(again.plan!.changes.filter(c => c.action !== 'noop')).toEqual([])

    const tileId = [...dashboards.values()][0]!.tiles.find(t => t.name === 'Errors')!.id
    ws.write({ 'checkout.yaml': manifests(4) })
    const update = await obsdeploy('apply')
    expect(update.exitCode).toBe(0)
    const after = [...dashboards.values()][0]!
    expect(after.tiles.find(t => t.name === 'Errors')!.id).toBe(tileId)
    expect([...alerts.values()]).toMatchObject([{ name: 'Checkout errors', tileId }])
    expect((await obsdeploy('plan')).plan!.changes.filter(c => c.action !== 'noop')).toEqual([])
  })
})
