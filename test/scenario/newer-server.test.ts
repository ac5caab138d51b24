/**
 * A server newer than 2.36 (the emulator's `next` profile, emulator/next-server.ts): an alert's `displayName`,
 * `tags` and a field obsdeploy does not model survive an update that changes something else; the manifest can
 * set them; and on 2.36 a manifest that sets them is warned about, not broken.
 */
import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import type { Emulator } from '../../emulator/index.js'
import { runCli } from '../support/cli.js'
import { actions, alert, dashboard, errors, obsdeploy, timeTile, useScenario } from '../support/harness.js'

const manifest = (threshold: number, extra = '') =>
  dashboard('Checkout', timeTile('Errors', 0, 0), 'tags: [payments]\n') +
  alert('Errors high', 'Checkout', 'Errors', threshold) +
  extra

/** An edit as the UI makes it: the alert read, changed, and written back whole through the API. */
async function uiEdit(emu: Emulator, id: string, change: Record<string, unknown>): Promise<void> {
  const at = `${emu.url}/api/v2/alerts/${id}`
  const headers = { Authorization: `Bearer ${emu.credentials.apiKey}`, 'Content-Type': 'application/json' }
  const read = (await (await fetch(at, { headers })).json()) as { data: Record<string, unknown> }
  const { id: _id, teamId: _t, state: _s, createdAt: _c, updatedAt: _u, ...body } = read.data
  const res = await fetch(at, { method: 'PUT', headers, body: JSON.stringify({ ...body, ...change }) })
  expect(res.status).toBe(200)
}

describe('on a server newer than 2.36', () => {
  const { emu, ws } = useScenario({ emulator: { server: 'next' } })
  const only = () => [...emu.selfHosted.alerts.values()][0]!

  it('an update keeps the displayName, tags and unknown field set in the UI, and says so in the plan', async () => {
    ws.write({ 'a.yaml': manifest(10) })
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    // The server derived them: "<dashboard> - <tile>" and the dashboard's tags.
    expect(only()).toMatchObject({ displayName: 'Checkout - Errors', tags: ['payments', 'obsdeploy:shop'] })
    await uiEdit(emu, only().id, {
      displayName: 'Pager: checkout errors',
      tags: ['oncall'],
      runbookUrl: 'https://runbooks.example.com/checkout'
    })
    // Nothing in the manifest speaks of them: no change.
    expect(actions(await obsdeploy(emu, ws, 'plan'))).toEqual([])

    ws.write({ 'a.yaml': manifest(20) })
    const plan = await obsdeploy(emu, ws, 'plan')
    const change = plan.plan!.changes.find(c => c.kind === 'Alert')!
    expect(change.action).toBe('update')
    expect(change.fields.map(f => f.path)).toEqual(['threshold'])
    expect(change.notes.join('\n')).toContain(
      'keeps displayName "Pager: checkout errors" and tags ["oncall"], set outside the manifests'
    )
    expect(change.notes.join('\n')).toContain('carries `runbookUrl`')
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    expect(only()).toMatchObject({
      threshold: 20,
      displayName: 'Pager: checkout errors',
      tags: ['oncall'],
      runbookUrl: 'https://runbooks.example.com/checkout'
    })
    expect(actions(await obsdeploy(emu, ws, 'plan'))).toEqual([])
  })

  it('an update leaves derived values out, so the server derives them again (they follow a rename)', async () => {
    ws.write({ 'a.yaml': manifest(10) })
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    ws.write({
      'a.yaml': manifest(10)
        .replace('name: "Checkout"', 'name: "Checkout v2"')
        .replace('dashboard: "Checkout"', 'dashboard: "Checkout v2"')
        .replace(/threshold: 10/, 'threshold: 11')
    })
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(errors(plan)).toEqual([])
    expect(plan.plan!.changes.find(c => c.kind === 'Alert')!.notes.join('\n')).not.toContain(
      'keeps displayName'
    )
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    expect(only().displayName).toBe('Checkout v2 - Errors')
  })

  it('export writes a displayName and tags set in the UI, not derived ones, and the export plans to no change', async () => {
    ws.write({ 'a.yaml': manifest(10) + alert('Errors low', 'Checkout', 'Errors', 1) })
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    const edited = [...emu.selfHosted.alerts.values()].find(a => a.name === 'Errors high')!
    await uiEdit(emu, edited.id, { displayName: 'Pager: checkout errors', tags: ['oncall'] })
    const dir = path.join(ws.dir, 'observability')
    rmSync(path.join(dir, 'a.yaml'))
    const exported = await runCli(emu, ws, [
      'export',
      '--out',
      'observability',
      '--api-url',
      emu.url,
      '--stack',
      'shop'
    ])
    expect(exported.code).toBe(0)
    const text = readdirSync(dir)
      .map(f => readFileSync(path.join(dir, f), 'utf8'))
      .join('\n')
    expect(text).toContain('displayName: "Pager: checkout errors"')
    expect(text).toMatch(/tags:\n\s+- oncall/)
    // The other alert's are the derived ones: left out.
    expect(text.match(/displayName/g)).toHaveLength(1)
    expect(actions(await obsdeploy(emu, ws, 'plan'))).toEqual([])
  })

  it('the manifest sets them: planned, written, then no change', async () => {
    ws.write({ 'a.yaml': manifest(10) })
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    ws.write({ 'a.yaml': manifest(10, 'displayName: Checkout pager\ntags: [oncall, checkout]\n') })
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(plan.plan!.changes.find(c => c.kind === 'Alert')!.fields.map(f => [f.path, f.after])).toEqual([
      ['displayName', 'Checkout pager'],
      ['tags[0]', 'oncall'],
      ['tags[1]', 'checkout']
    ])
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    expect(only()).toMatchObject({ displayName: 'Checkout pager', tags: ['oncall', 'checkout'] })
    expect(actions(await obsdeploy(emu, ws, 'plan'))).toEqual([])
    // An empty list clears the tags: it is sent, not left out.
    ws.write({ 'a.yaml': manifest(10, 'displayName: Checkout pager\ntags: []\n') })
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    expect(only().tags).toEqual([])
  })
})

describe('a tile setting obsdeploy does not model, on a newer server', () => {
  const { emu, ws } = useScenario({ emulator: { server: 'next' } })
  const table = (w: number) =>
    dashboard(
      'Checkout',
      `  - name: By service
    x: 0
    y: 0
    w: ${w}
    h: 4
    config:
      displayType: table
      source: Logs
      select:
        - aggFn: count
      groupBy: service
`
    )
  const liveConfig = () => [...emu.selfHosted.dashboards.values()][0]!.tiles[0]!.config

  it('is kept by an update that changes the tile, and named in the plan as kept', async () => {
    ws.write({ 'a.yaml': table(12) })
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    // Set outside the manifests, through the API as the UI would.
    const d = [...emu.selfHosted.dashboards.values()][0]!
    const at = `${emu.url}/api/v2/dashboards/${d.id}`
    const headers = { Authorization: `Bearer ${emu.credentials.apiKey}`, 'Content-Type': 'application/json' }
    const read = ((await (await fetch(at, { headers })).json()) as { data: Record<string, unknown> }).data
    const tiles = (read.tiles as Array<{ config: Record<string, unknown> }>).map(t => ({
      ...t,
      config: { ...t.config, alternateRowBackground: true }
    }))
    const { id: _id, ...body } = read
    expect(
      (await fetch(at, { method: 'PUT', headers, body: JSON.stringify({ ...body, tiles }) })).status
    ).toBe(200)
    expect(liveConfig().alternateRowBackground).toBe(true)
    expect(actions(await obsdeploy(emu, ws, 'plan'))).toEqual([])

    ws.write({ 'a.yaml': table(10) })
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(actions(plan)).toEqual(['update Dashboard/Checkout'])
    expect(plan.diagnostics.map(d => d.message).join('\n')).toMatch(
      /settings the manifest language cannot express yet \(set in the UI\?\), kept as they are: .*alternateRowBackground/
    )
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    expect(liveConfig().alternateRowBackground).toBe(true)
    expect(actions(await obsdeploy(emu, ws, 'plan'))).toEqual([])

    // A pie has no rows: changing the display type drops the setting, and the plan says so on the record and in
    // the heading, as a reset.
    ws.write({ 'a.yaml': table(10).replace('displayType: table', 'displayType: pie') })
    const drop = await obsdeploy(emu, ws, 'plan')
    const change = drop.plan!.changes.find(c => c.kind === 'Dashboard')!
    expect(change.lost).toEqual(['tile "By service": alternateRowBackground'])
    expect(change.notes.join('\n')).toContain(
      'tile "By service": alternateRowBackground (set in the UI; the manifest language cannot express it yet) is removed by this update'
    )
    const text = await runCli(emu, ws, ['plan', 'observability/', '--api-url', emu.url, '--stack', 'shop'])
    expect(text.stdout).toMatch(/may reset a setting no manifest can express/)
    expect(text.stdout).toContain('Checkout: tile "By service": alternateRowBackground')
  })
})

describe('a dashboard field obsdeploy does not model, on a newer server', () => {
  const { emu, ws } = useScenario({ emulator: { server: 'next' } })
  const checkout = (x: number) => dashboard('Checkout', timeTile('Errors', x, 0))

  it('self-hosted: an update sends it back as read, and every plan names it as kept', async () => {
    ws.write({ 'a.yaml': checkout(0) })
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    const d = [...emu.selfHosted.dashboards.values()][0]!
    const at = `${emu.url}/api/v2/dashboards/${d.id}`
    const headers = { Authorization: `Bearer ${emu.credentials.apiKey}`, 'Content-Type': 'application/json' }
    const { id: _id, ...read } = (
      (await (await fetch(at, { headers })).json()) as { data: Record<string, unknown> }
    ).data
    const res = await fetch(at, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ ...read, refreshInterval: '30s' })
    })
    expect(res.status).toBe(200)

    // A new tile: the update rewrites the dashboard with a PUT (a patch of one tile would leave the field alone).
    ws.write({ 'a.yaml': dashboard('Checkout', timeTile('Errors', 0, 0) + timeTile('Latency', 6, 0)) })
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(actions(plan)).toEqual(['update Dashboard/Checkout'])
    expect(plan.plan!.changes[0]!.resets?.via).toBe('put')
    expect(plan.diagnostics.map(x => x.message).join('\n')).toMatch(/kept as they are: .*`refreshInterval`/)
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    // The next server clears it when a write leaves it out: it is there because the update sent it.
    expect([...emu.selfHosted.dashboards.values()][0]).toMatchObject({ refreshInterval: '30s' })
    expect(actions(await obsdeploy(emu, ws, 'plan'))).toEqual([])
  })

  it('managed: the update cannot send it, and the plan names it with what it may reset, in the heading too', async () => {
    ws.write({ 'a.yaml': checkout(0) })
    expect((await obsdeploy(emu, ws, 'apply', { mode: 'managed' })).exitCode).toBe(0)
    const stored = [...emu.managed().dashboards.values()][0]!
    stored.refreshInterval = '30s'
    ws.write({ 'a.yaml': checkout(6) })
    const plan = await obsdeploy(emu, ws, 'plan', { mode: 'managed' })
    const change = plan.plan!.changes.find(c => c.kind === 'Dashboard')!
    expect(change.lost).toEqual(['refreshInterval'])
    expect(change.notes.join('\n')).toContain('`refreshInterval` is unknown to obsdeploy')
    expect(change.notes.join('\n')).toContain('this update may reset it')
    const cli = await runCli(emu, ws, ['plan', '--mode', 'managed', ...managedFlags(emu)], {
      env: { OBSDEPLOY_KEY_ID: emu.credentials.keyId, OBSDEPLOY_KEY_SECRET: emu.credentials.keySecret }
    })
    expect(cli.stdout).toMatch(
      /may reset a setting no manifest can express \(unknown to this version of obsdeploy/
    )
    expect(cli.stdout).toContain('Checkout: refreshInterval')
  })
})

const managedFlags = (emu: Emulator) => [
  '--api-url',
  emu.url,
  '--organization-id',
  emu.credentials.organizationId!,
  '--service-id',
  emu.credentials.serviceId!,
  '--stack',
  'shop',
  '--manifests',
  'observability/**/*.yaml'
]

describe('on HyperDX 2.36', () => {
  const { emu, ws } = useScenario()

  it('a manifest that sets displayName or tags gets a warning naming the server, and the apply still works', async () => {
    ws.write({ 'a.yaml': manifest(10) })
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    ws.write({ 'a.yaml': manifest(10, 'displayName: Checkout pager\n') })
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(errors(plan)).toEqual([])
    expect(plan.diagnostics.map(d => d.message).join('\n')).toMatch(
      /displayName: no alert this server returns has them \(HyperDX 2\.36 and earlier\)/
    )
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    expect(only(emu)).not.toHaveProperty('displayName')
  })
})

const only = (emu: Emulator) => [...emu.selfHosted.alerts.values()][0]!

const channels = (n: number) =>
  `channels:\n${[
    '  - { type: webhook, webhook: ops-pager }',
    '  - { type: webhook, webhook: team-slack }',
    '  - { type: email, emailRecipients: [oncall@example.com] }'
  ]
    .slice(0, n)
    .join('\n')}\n`
const managedAlert = (n: number) =>
  dashboard('Checkout', timeTile('Errors', 0, 0)) +
  `---
kind: Alert
name: Errors high
dashboard: Checkout
tile: Errors
threshold: 10
thresholdType: above
interval: 5m
${channels(n)}`
const managed = { mode: 'managed' }
const managedAlerts = (emu: Emulator) => [...emu.managed().alerts.values()]

describe('managed alerts with several channels', () => {
  describe('where the cloud returns `channels`', () => {
    const { emu, ws } = useScenario({ emulator: { server: 'next' } })
    it('an alert with three channels keeps three: planned, written, then no change', async () => {
      ws.write({ 'a.yaml': managedAlert(1) })
      const first = await obsdeploy(emu, ws, 'apply', managed)
      expect(first.diagnostics.map(d => d.message)).toEqual([])
      expect(first.exitCode).toBe(0)
      ws.write({ 'a.yaml': managedAlert(3) })
      const plan = await obsdeploy(emu, ws, 'plan', managed)
      expect(errors(plan)).toEqual([])
      expect(actions(plan)).toEqual(['update Alert/Errors high'])
      const second = await obsdeploy(emu, ws, 'apply', managed)
      expect(second.apply!.outcomes.filter(o => o.status !== 'applied')).toEqual([])
      expect(second.exitCode).toBe(0)
      const [a] = managedAlerts(emu)
      expect(a!.channels).toHaveLength(3)
      expect(a!.channels[2]).toEqual({ type: 'email', emailRecipients: ['oncall@example.com'] })
      expect(a!.channel).toEqual(a!.channels[0])
      expect(actions(await obsdeploy(emu, ws, 'plan', managed))).toEqual([])
    })
  })

  describe('where it does not (the published API)', () => {
    const { emu, ws } = useScenario()
    it('several channels are a plan error naming the limit; one in a list is sent as `channel`', async () => {
      ws.write({ 'a.yaml': managedAlert(1) })
      expect((await obsdeploy(emu, ws, 'apply', managed)).exitCode).toBe(0)
      expect(managedAlerts(emu)[0]!.channels).toHaveLength(1)
      ws.write({ 'a.yaml': managedAlert(2) })
      const plan = await obsdeploy(emu, ws, 'plan', managed)
      expect(errors(plan)).toEqual([
        expect.stringMatching(
          /^2 channels: this service's alerts return no `channels` list, so the managed API takes one `channel`/
        )
      ])
      expect(plan.diagnostics.find(d => d.severity === 'error')).toMatchObject({
        field: 'channels',
        line: 24
      })
    })
  })
})
