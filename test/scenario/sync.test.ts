/**
 * `obsdeploy sync`, as a user runs it against the emulator: edits made on the server come back into the manifests
 * in place (without --write, the diff it would make; with it, the files), after which `plan` is empty.
 */
import { describe, expect, it } from '@jest/globals'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { Emulator } from '../../emulator/index.js'
import { runCli } from '../support/cli.js'
import { actions, obsdeploy, useScenario, type Workspace } from '../support/harness.js'

const CHECKOUT = `# Checkout, by the payments team
kind: Dashboard
name: Checkout
tags: [payments]
tiles:
  - name: Errors # first on the page
    x: 0
    y: 0
    w: 6
    h: 3
    asRatio: false
    series:
      - type: time
        dataSource: events
        source: Logs
        aggFn: count
        where: 'level:error'
  - name: Slow requests
    x: 6
    y: 0
    w: 6
    h: 3
    series:
      - type: time
        source: Logs
        aggFn: avg
        field: duration
        where: "duration:>500"
---
kind: Alert
name: Checkout errors
dashboard: Checkout
tile: Errors
threshold: 10 # agreed with payments
thresholdType: above
interval: 5m
channel: { type: webhook, webhook: ops-pager }
`

const api = (emu: Emulator) => ({
  headers: { Authorization: `Bearer ${emu.credentials.apiKey}`, 'Content-Type': 'application/json' },
  async read(kind: 'dashboards' | 'alerts', name: string): Promise<Record<string, unknown>> {
    const res = await fetch(`${emu.url}/api/v2/${kind}`, { headers: this.headers })
    const all = ((await res.json()) as { data: Array<Record<string, unknown>> }).data
    return all.find(r => r.name === name)!
  },
  /** An edit as the UI saves it: the record read, changed by `edit`, written back whole. */
  async edit(kind: 'dashboards' | 'alerts', name: string, edit: (r: Record<string, unknown>) => void) {
    const record = await this.read(kind, name)
    edit(record)
    const { id, teamId: _t, state: _s, createdAt: _c, updatedAt: _u, ...body } = record
    const res = await fetch(`${emu.url}/api/v2/${kind}/${String(id)}`, {
      method: 'PUT',
      headers: this.headers,
      body: JSON.stringify(body)
    })
    expect(res.status).toBe(200)
  },
  async remove(kind: 'dashboards' | 'alerts', name: string) {
    const { id } = await this.read(kind, name)
    const res = await fetch(`${emu.url}/api/v2/${kind}/${String(id)}`, {
      method: 'DELETE',
      headers: this.headers
    })
    expect(res.status).toBeLessThan(300)
  }
})

type Tile = { name: string; x: number; config: Record<string, unknown> }
const tiles = (d: Record<string, unknown>) => d.tiles as Tile[]
const file = (ws: Workspace, name: string) => readFileSync(path.join(ws.dir, 'observability', name), 'utf8')
const sync = (emu: Emulator, ws: Workspace, ...args: string[]) =>
  runCli(emu, ws, ['sync', 'observability/', '--api-url', emu.url, '--stack', 'shop', ...args])

describe('obsdeploy sync', () => {
  const { emu, ws } = useScenario()

  async function applied(files: Record<string, string>) {
    ws.write(files)
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
  }

  it('prints the diff without --write and writes nothing; with --write the files say what the server holds', async () => {
    await applied({ 'checkout.yaml': CHECKOUT })
    await api(emu).edit('dashboards', 'Checkout', d => {
      tiles(d).find(t => t.name === 'Errors')!.x = 3
      tiles(d).find(t => t.name === 'Slow requests')!.name = 'Slow checkouts'
    })
    await api(emu).edit('alerts', 'Checkout errors', a => {
      a.threshold = 25
    })

    const dry = await sync(emu, ws)
    expect(dry.code).toBe(0)
    expect(file(ws, 'checkout.yaml')).toBe(CHECKOUT)
    expect(dry.stdout).toContain('stack shop: 2 changed record(s) to write (run with --write to write them)')
    expect(dry.stdout).toContain('tiles["Errors"].x: 0 -> 3')
    expect(dry.stdout).toContain('threshold: 10 -> 25')
    expect(dry.stdout).toContain('after this sync the plan is empty')
    expect(dry.stdout).toContain('--- a/observability/checkout.yaml\n+++ b/observability/checkout.yaml')
    expect(dry.stdout).toContain('-  - name: Slow requests\n+  - name: Slow checkouts')

    const written = await sync(emu, ws, '--write')
    expect(written.code).toBe(0)
    expect(written.stdout).toContain('2 changed record(s) written')
    const after = file(ws, 'checkout.yaml')
    // Only the edited lines differ: comments, quoting, defaults spelled out and key order stay.
    const before = CHECKOUT.split('\n')
    expect(after.split('\n').filter(l => !before.includes(l))).toEqual([
      '    x: 3',
      '  - name: Slow checkouts',
      'threshold: 25 # agreed with payments'
    ])
    expect(after.split('\n')).toHaveLength(before.length)
    expect(actions(await obsdeploy(emu, ws, 'plan'))).toEqual([])
    // Nothing left: a second sync says so and changes nothing.
    const again = await sync(emu, ws, '--write')
    expect(again.stdout).toContain('nothing to sync')
    expect(file(ws, 'checkout.yaml')).toBe(after)
  })

  it('drops a key the UI removed, though export never writes it, and keeps the ones that still hold', async () => {
    await applied({ 'checkout.yaml': CHECKOUT })
    await api(emu).edit('dashboards', 'Checkout', d => {
      const select = tiles(d).find(t => t.name === 'Slow requests')!.config.select as Array<
        Record<string, unknown>
      >
      delete select[0]!.where
    })
    expect((await sync(emu, ws, '--write')).code).toBe(0)
    const after = file(ws, 'checkout.yaml')
    expect(after).not.toContain('duration:>500')
    expect(after).toContain('asRatio: false')
    expect(after).toContain('dataSource: events')
    expect(actions(await obsdeploy(emu, ws, 'plan'))).toEqual([])
  })

  it('keeps a tile in the form the manifest writes it in (config), though export would write series', async () => {
    const inConfig = `kind: Dashboard
name: Shop
tiles:
  - name: Warnings
    x: 0
    y: 0
    w: 12
    h: 3
    config:
      displayType: stacked_bar
      source: Logs # by name
      select:
        - aggFn: count
          where: "level:warn"
`
    await applied({ 'shop.yaml': inConfig })
    await api(emu).edit('dashboards', 'Shop', d => {
      const select = tiles(d)[0]!.config.select as Array<Record<string, unknown>>
      select[0]!.where = 'level:fatal'
    })
    expect((await sync(emu, ws, '--write')).code).toBe(0)
    expect(file(ws, 'shop.yaml')).toBe(inConfig.replace('"level:warn"', '"level:fatal"'))
    expect(actions(await obsdeploy(emu, ws, 'plan'))).toEqual([])
  })

  it('removes the documents of what was deleted on the server, and a file left with none', async () => {
    await applied({
      'checkout.yaml': CHECKOUT,
      'cart.yaml': `kind: Dashboard\nname: Cart\ntiles:\n  - name: Adds\n    x: 0\n    y: 0\n    w: 6\n    h: 3\n    series:\n      - { type: time, source: Logs, aggFn: count }\n`
    })
    await api(emu).remove('dashboards', 'Cart')
    await api(emu).remove('alerts', 'Checkout errors')
    const run = await sync(emu, ws, '--write')
    expect(run.code).toBe(0)
    expect(run.stdout).toContain(
      'Dashboard Cart (observability/cart.yaml): deleted on the server: document removed'
    )
    expect(run.stdout).toContain('Alert Checkout errors (observability/checkout.yaml): deleted on the server')
    expect(existsSync(path.join(ws.dir, 'observability', 'cart.yaml'))).toBe(false)
    expect(file(ws, 'checkout.yaml')).toBe(CHECKOUT.slice(0, CHECKOUT.indexOf('---\n')))
    expect(actions(await obsdeploy(emu, ws, 'plan'))).toEqual([])
  })

  it("adds a dashboard made on the server with the stack's tag where the stack prunes, and only names it where not", async () => {
    await applied({ 'checkout.yaml': CHECKOUT })
    const res = await fetch(`${emu.url}/api/v2/dashboards`, {
      method: 'POST',
      headers: api(emu).headers,
      body: JSON.stringify({ name: 'Made in the UI', tags: ['obsdeploy:shop', 'ui'], tiles: [] })
    })
    expect(res.status).toBe(200)
    const json = await sync(emu, ws, '--json')
    const after = (JSON.parse(json.stdout) as { stacks: Array<{ after: unknown[] }> }).stacks[0]!.after
    expect(after).toEqual([
      { address: expect.stringMatching(/^Dashboard\/Made in the UI/), action: 'delete', deferred: 'prune' }
    ])
    const kept = await sync(emu, ws, '--write')
    expect(kept.stdout).toContain('left as it is: Dashboard/Made in the UI')
    expect(kept.stdout).toContain('after this sync the plan is empty')
    expect(kept.stdout).toContain('this stack does not prune')
    expect(existsSync(path.join(ws.dir, 'observability', 'made-in-the-ui.yaml'))).toBe(false)

    // A pull request's live preview copy is never synced (kinds/dashboard/preview-copy.ts sets copies aside).
    const copy = await fetch(`${emu.url}/api/v2/dashboards`, {
      method: 'POST',
      headers: api(emu).headers,
      body: JSON.stringify({
        name: '[PR #7] Checkout',
        tags: ['obsdeploy-preview:shop', 'obsdeploy-pr:7', 'obsdeploy-at:2026-12-06T10:00Z'],
        tiles: []
      })
    })
    expect(copy.status).toBe(200)
    const added = await sync(emu, ws, '--write', '--prune')
    expect(added.code).toBe(0)
    expect(added.stdout).not.toContain('PR #7')
    expect(added.stdout).toContain('made on the server: document added')
    expect(file(ws, 'made-in-the-ui.yaml')).toContain('name: Made in the UI')
    expect(actions(await obsdeploy(emu, ws, 'plan', { prune: 'true' }))).toEqual([])
  })

  it('never writes a value over a placeholder, and says so', async () => {
    const withVar = CHECKOUT.replace("where: 'level:error'", 'where: ${ERRORS}')
    ws.write({ 'checkout.yaml': withVar })
    expect((await obsdeploy(emu, ws, 'apply', { vars: 'ERRORS: "level:error"' })).exitCode).toBe(0)
    await api(emu).edit('dashboards', 'Checkout', d => {
      const select = tiles(d).find(t => t.name === 'Errors')!.config.select as Array<Record<string, unknown>>
      select[0]!.where = 'level:fatal'
    })
    const run = await sync(emu, ws, '--write', '--var', 'ERRORS=level:error')
    expect(run.code).toBe(0)
    expect(file(ws, 'checkout.yaml')).toBe(withVar)
    expect(run.stdout).toMatch(
      /left as it is: Dashboard\/Checkout: tiles\[0\]\.series\[0\]\.where is a placeholder/
    )
    expect(run.stdout).toContain('after this sync the plan still holds 1 change(s): Dashboard/Checkout')
  })

  it('syncs each stack of a repository on its own, from one read', async () => {
    const overview = (where: string) =>
      `kind: Dashboard\nname: Overview\ntiles:\n  - name: Errors\n    x: 0\n    y: 0\n    w: 6\n    h: 3\n    series:\n      - { type: time, source: Logs, aggFn: count, where: '${where}' }\n`
    ws.write({
      'payments/stack.yaml': 'name: payments\n',
      'payments/overview.yaml': overview('service:payments'),
      'search/stack.yaml': 'name: search\n',
      'search/overview.yaml': overview('service:search')
    })
    const cli = (...args: string[]) =>
      runCli(emu, ws, [...args, 'observability/', '--stacks', '--api-url', emu.url])
    expect((await cli('apply')).code).toBe(0)
    // The search team's Overview, and only it, is moved in the UI.
    const res = await fetch(`${emu.url}/api/v2/dashboards`, { headers: api(emu).headers })
    const search = ((await res.json()) as { data: Array<Record<string, unknown>> }).data.find(d =>
      (d.tags as string[]).includes('obsdeploy:search')
    )!
    tiles(search)[0]!.x = 6
    const { id, ...body } = search
    await fetch(`${emu.url}/api/v2/dashboards/${String(id)}`, {
      method: 'PUT',
      headers: api(emu).headers,
      body: JSON.stringify(body)
    })

    const run = await cli('sync', '--write')
    expect(run.code).toBe(0)
    expect(run.stderr).toContain('Read live state in')
    expect(run.stdout).toContain('stack payments: the manifests say what the server holds; nothing to sync')
    expect(run.stdout).toContain('stack search: 1 changed record(s) written')
    expect(file(ws, 'payments/overview.yaml')).toBe(overview('service:payments'))
    expect(file(ws, 'search/overview.yaml')).toContain('    x: 6\n')
    const plan = await cli('plan', '--json')
    expect(plan.code).toBe(0)
    expect(plan.stdout).toContain('"hasChanges": false')
  })

  it('refuses manifests that do not validate, and writes nothing', async () => {
    ws.write({ 'checkout.yaml': CHECKOUT.replace('thresholdType: above', 'thresholdType: sideways') })
    const run = await sync(emu, ws, '--write')
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('observability/checkout.yaml')
    expect(run.stderr).toContain('sync reads manifests that validate')
  })
})

describe('obsdeploy sync on a server newer than 2.36', () => {
  const { emu, ws } = useScenario({ emulator: { server: 'next' } })

  it("writes an alert's displayName and tags set in the UI, though the plan keeps them and finds nothing to change", async () => {
    ws.write({ 'checkout.yaml': CHECKOUT })
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    await api(emu).edit('alerts', 'Checkout errors', a => {
      a.displayName = 'Pager: checkout errors'
      a.tags = ['oncall']
    })
    // An update keeps them (alert-kept.ts): the plan is empty, and still the manifest does not say them.
    expect(actions(await obsdeploy(emu, ws, 'plan'))).toEqual([])
    const run = await sync(emu, ws, '--write')
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('Alert Checkout errors (observability/checkout.yaml): changed on the server')
    const after = file(ws, 'checkout.yaml')
    expect(after.split('\n').filter(l => !CHECKOUT.split('\n').includes(l))).toEqual([
      'displayName: "Pager: checkout errors"',
      'tags:',
      '  - oncall'
    ])
    expect(actions(await obsdeploy(emu, ws, 'plan'))).toEqual([])
    // The names the server derives itself are not written: a second sync finds nothing.
    expect((await sync(emu, ws, '--write')).stdout).toContain('nothing to sync')
  })
})
