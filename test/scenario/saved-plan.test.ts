/**
 * `apply --plan`: a saved plan whose inputs, live state and seal still hold is applied as recorded, without
 * loading the manifests or planning; anything else plans again and refuses exactly as before.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from '@jest/globals'
import { createApi } from '../../src/api/client.js'
import type { Config } from '../../src/config/types.js'
import type { Logger } from '../../src/log.js'
import type { RunDependencies } from '../../src/run/types.js'
import { alert, dashboard, errors, obsdeploy, timeTile, useScenario } from '../support/harness.js'

const { emu, ws } = useScenario()

const table = (name: string, link: string) => `---
kind: Dashboard
name: ${name}
tags: [team]
tiles:
  - name: T
    x: 0
    y: 0
    w: 6
    h: 3
    config:
      displayType: table
      source: Logs
      select: [{ aggFn: count }]
      groupBy: service
      onClick: ${link}
`
/** Overview links to Errors, which the same apply creates after it: a create, then a second request for the link. */
const linked = () =>
  table('Overview', '{ type: dashboard, target: { mode: id, dashboard: Errors } }') +
  table(
    'Errors',
    "{ type: search, target: { mode: id, source: Logs }, whereTemplate: 'service:{{service}}' }"
  )

interface Recorded {
  lines: string[]
  writes: Array<[string, string, unknown]>
  deps: RunDependencies
}

/** A run's log lines and the write requests its client sends. */
function recorded(): Recorded {
  const lines: string[] = []
  const writes: Recorded['writes'] = []
  const log: Logger = { info: m => lines.push(m), warn: m => lines.push(m), debug: () => {} }
  const api = (config: Config) => {
    const client = createApi(config)
    const create = client.createDashboard.bind(client)
    const update = client.updateDashboard.bind(client)
    client.createDashboard = async (body: unknown) => {
      writes.push(['create', '', body])
      return create(body)
    }
    client.updateDashboard = async (id: string, body: unknown) => {
      writes.push(['update', id, body])
      return update(id, body)
    }
    const patch = client.patchDashboard.bind(client)
    client.patchDashboard = async patchArgs => {
      writes.push(['patch', patchArgs.dashboardId, patchArgs])
      return patch(patchArgs)
    }
    return client
  }
  return { lines, writes, deps: { log, api } }
}

const asRecorded = (r: Recorded) => r.lines.some(l => /applied as recorded/.test(l))
const plannedAgain = (r: Recorded) => r.lines.find(l => /checked by planning again/.test(l))
const savedFile = () => path.join(ws.dir, 'saved.json')
const readSaved = () => JSON.parse(readFileSync(savedFile(), 'utf8')) as Record<string, unknown>
const writeSaved = (json: unknown) => writeFileSync(savedFile(), `${JSON.stringify(json, null, 2)}\n`)
const apply = (r: Recorded, settings: Record<string, string> = {}) =>
  obsdeploy(
    emu,
    ws,
    'apply',
    { 'saved-plan': 'saved.json', 'plan-path': 'now.json', ...settings },
    false,
    r.deps
  )
const plan = (settings: Record<string, string> = {}) =>
  obsdeploy(emu, ws, 'plan', { 'plan-path': 'saved.json', ...settings })

/** Our dashboards, without the ids the server gives. */
const storedOf = (names: readonly string[]) =>
  [...emu.selfHosted.dashboards.values()]
    .filter(d => names.includes(d.name))
    .map(d => JSON.stringify(d).replace(/"[0-9a-f]{24}"/g, '"<id>"'))
    .sort()

describe('apply --plan, applied as recorded', () => {
  it('sends the requests planning again sends, without loading the manifests', async () => {
    ws.write({ 'a.yaml': linked(), 'b.yaml': dashboard('Checkout', timeTile('Errors', 0, 0)) })
    const planned = await plan()
    expect(errors(planned)).toEqual([])
    const section = readSaved().apply as { records: Record<string, unknown>; seal: string }
    expect(Object.keys(section.records).sort()).toEqual([
      'Dashboard/Checkout',
      'Dashboard/Errors',
      'Dashboard/Overview'
    ])
    expect(section.seal).toMatch(/^hmac-sha256:/)
    const untouched = readFileSync(savedFile(), 'utf8')

    const direct = recorded()
    const applied = await apply(direct)
    expect(errors(applied)).toEqual([])
    expect(applied.exitCode).toBe(0)
    expect(asRecorded(direct)).toBe(true)
    expect(direct.lines.some(l => /manifest file/.test(l) && /^Read/.test(l))).toBe(false)
    expect(applied.apply!.outcomes.map(o => `${o.address} ${o.status}`).sort()).toEqual([
      'Dashboard/Checkout applied',
      'Dashboard/Errors applied',
      'Dashboard/Overview applied'
    ])
    expect(applied.outputs.creates).toBe(3)
    // The applied plan is the saved one, written as the apply's.
    const now = JSON.parse(readFileSync(path.join(ws.dir, 'now.json'), 'utf8')) as {
      command: string
      apply?: unknown
    }
    expect(now.command).toBe('apply')
    expect(now.apply).toBeUndefined()
    const { apply: _section, ...reviewed } = JSON.parse(untouched) as Record<string, unknown>
    expect({ ...now, createdAt: 'then' }).toEqual({ ...reviewed, command: 'apply', createdAt: 'then' })
    const nowText = readFileSync(path.join(ws.dir, 'now.json'), 'utf8')
    expect(nowText).toBe(`${JSON.stringify(now, null, 2)}\n`)
    const names = ['Overview', 'Errors', 'Checkout']
    const asApplied = storedOf(names)
    expect(asApplied).toHaveLength(3)
    // The link-out of Overview names the id the create of Errors returned.
    const ids = new Map([...emu.selfHosted.dashboards.values()].map(d => [d.name, d.id]))
    expect(JSON.stringify(emu.selfHosted.dashboards.get(ids.get('Overview')!))).toContain(ids.get('Errors')!)

    // The same plan, applied by planning again (its seal broken), on the same live state: the same requests.
    for (const id of ids.values()) emu.selfHosted.dashboards.delete(id)
    const sealed = untouched.replace(/"seal":"hmac-sha256:./, '"seal":"hmac-sha256:!')
    writeFileSync(savedFile(), sealed)
    const again = recorded()
    const replanned = await apply(again)
    expect(errors(replanned)).toEqual([])
    expect(plannedAgain(again)).toMatch(/seal does not hold/)
    const shape = (r: Recorded) =>
      r.writes.map(([what, , body]) => `${what} ${JSON.stringify(body).replace(/"[0-9a-f]{24}"/g, '"<id>"')}`)
    expect(shape(direct)).toEqual(shape(again))
    expect(direct.writes.map(w => w[0])).toEqual(['create', 'create', 'create', 'update'])
    expect(storedOf(names)).toEqual(asApplied)
  })

  it('applies updates and deletes as recorded: the live records are those the plan read', async () => {
    ws.write({
      'a.yaml': dashboard('Checkout', timeTile('Errors', 0, 0)),
      'b.yaml': dashboard('Cart', timeTile('Adds', 0, 0))
    })
    await obsdeploy(emu, ws, 'apply')
    ws.write({ 'a.yaml': dashboard('Checkout', timeTile('Errors', 0, 0, 'level:fatal')) })
    ws.remove('b.yaml')
    await plan({ prune: 'true' })
    const r = recorded()
    const applied = await apply(r, { prune: 'true' })
    expect(errors(applied)).toEqual([])
    expect(asRecorded(r)).toBe(true)
    expect(applied.apply!.outcomes.map(o => `${o.action} ${o.address.split('@')[0]}`).sort()).toEqual([
      'delete Dashboard/Cart',
      'update Dashboard/Checkout'
    ])
    const names = [...emu.selfHosted.dashboards.values()].map(d => d.name)
    expect(names).toEqual(['Checkout'])
    expect(JSON.stringify([...emu.selfHosted.dashboards.values()][0])).toContain('level:fatal')
  })
})

describe('apply --plan plans again, and refuses as before, when anything differs', () => {
  const start = async () => {
    ws.write({
      'a.yaml': dashboard('Checkout', timeTile('Errors', 0, 0)),
      'b.yaml': dashboard('Cart', timeTile('Adds', 0, 0))
    })
    await obsdeploy(emu, ws, 'apply')
    ws.write({ 'a.yaml': dashboard('Checkout', timeTile('Errors', 0, 0, 'level:fatal')) })
  }
  const manifestsChanged = /the manifests changed since the saved plan/

  it.each([
    [
      'an edited manifest',
      () => ws.write({ 'a.yaml': dashboard('Checkout', timeTile('Errors', 0, 0, 'level:warn')) })
    ],
    ['an added manifest file', () => ws.write({ 'c.yaml': dashboard('New', timeTile('N', 0, 0)) })],
    ['a removed manifest file', () => ws.remove('b.yaml')]
  ])('%s', async (_, edit) => {
    await start()
    await plan()
    edit()
    const r = recorded()
    const result = await apply(r)
    expect(plannedAgain(r)).toMatch(/manifest files, the variables or the settings changed/)
    expect(result.exitCode).toBe(1)
    expect(errors(result).join(' ')).toMatch(manifestsChanged)
    expect(r.writes).toEqual([])
  })

  it('a changed prune', async () => {
    await start()
    await plan()
    const r = recorded()
    const result = await apply(r, { prune: 'true' })
    expect(plannedAgain(r)).toMatch(/settings changed/)
    expect(errors(result).join(' ')).toMatch(manifestsChanged)
    expect(r.writes).toEqual([])
  })

  it('another stack', async () => {
    await start()
    await plan()
    const r = recorded()
    const result = await apply(r, { stack: 'other' })
    expect(plannedAgain(r)).toMatch(/another stack/)
    // Planning again for "other" refuses, as it did: its plan has errors (shop's dashboards are not its own).
    expect(result.exitCode).toBe(1)
    expect(errors(result).join(' ')).toMatch(/nothing was applied/)
    expect(r.writes).toEqual([])
  })

  it('changed variables', async () => {
    ws.write({ 'a.yaml': dashboard('Checkout', timeTile('Errors', 0, 0, '${WHERE}')) })
    await plan({ vars: 'WHERE: "level:error"' })
    const r = recorded()
    const result = await apply(r, { vars: 'WHERE: "level:fatal"' })
    expect(plannedAgain(r)).toMatch(/variables or the settings changed/)
    expect(errors(result).join(' ')).toMatch(manifestsChanged)
    expect(r.writes).toEqual([])
  })

  it('secret-vars set at apply only: planned again, and applied as before (no manifest uses them)', async () => {
    await start()
    await plan()
    const r = recorded()
    const result = await apply(r, { 'secret-vars': 'TOKEN: a-long-secret-value' })
    expect(plannedAgain(r)).toMatch(/variables or the settings changed/)
    expect(errors(result)).toEqual([])
    expect(result.exitCode).toBe(0)
  })

  it('a plan made with secret-vars has no apply section', async () => {
    await start()
    await plan({ 'secret-vars': 'TOKEN: a-long-secret-value' })
    expect(readSaved().apply).toBeUndefined()
    const r = recorded()
    const result = await apply(r, { 'secret-vars': 'TOKEN: a-long-secret-value' })
    expect(plannedAgain(r)).toMatch(/no apply section/)
    expect(result.exitCode).toBe(0)
  })

  it('a live record changed: refused as before', async () => {
    await start()
    await plan()
    const d = [...emu.selfHosted.dashboards.values()].find(x => x.name === 'Checkout')!
    emu.selfHosted.updateDashboard(d.id, {
      name: d.name,
      tags: d.tags,
      tiles: d.tiles.map(t => ({ ...t, h: t.h + 1 }))
    })
    const r = recorded()
    const result = await apply(r)
    expect(plannedAgain(r)).toMatch(/live state changed since the plan/)
    expect(errors(result).join(' ')).toMatch(/live state changed since the saved plan/)
    expect(r.writes).toEqual([])
  })

  it('a live record removed: refused as before', async () => {
    await start()
    await plan()
    const d = [...emu.selfHosted.dashboards.values()].find(x => x.name === 'Checkout')!
    emu.selfHosted.dashboards.delete(d.id)
    const r = recorded()
    const result = await apply(r)
    expect(plannedAgain(r)).toMatch(/live state changed since the plan/)
    expect(result.exitCode).toBe(1)
    expect(r.writes).toEqual([])
  })

  it('a live record added that the plan does not depend on: planned again, and applied as before', async () => {
    await start()
    await plan()
    emu.selfHosted.createDashboard({ name: 'Hand made', tiles: [] })
    const r = recorded()
    const result = await apply(r)
    expect(plannedAgain(r)).toMatch(/live state changed since the plan/)
    expect(errors(result)).toEqual([])
    // A tile's where changes: the tile is patched alone (the emulator offers the patch, as HyperDX 2.36 does).
    expect(r.writes.map(w => w[0])).toEqual(['patch'])
  })

  it('a tampered record: the seal fails, and what the manifests say is applied, not the edit', async () => {
    await start()
    await plan()
    const json = readSaved() as {
      apply: {
        records: Record<
          string,
          { spec: { name: string }; tiles: Array<{ body: { series: Array<{ where: string }> } }> }
        >
      }
    }
    json.apply.records['Dashboard/Checkout']!.tiles[0]!.body.series[0]!.where = 'level:tampered'
    writeSaved(json)
    const r = recorded()
    const result = await apply(r)
    expect(plannedAgain(r)).toMatch(/seal does not hold/)
    expect(errors(result)).toEqual([])
    expect(JSON.stringify(r.writes)).not.toContain('tampered')
    expect(JSON.stringify(r.writes)).toContain('level:fatal')
  })

  it('a plan of an older format (no apply section) or of a later one: planned again, and applied as before', async () => {
    await start()
    await plan()
    const json = readSaved()
    const { apply: section, ...older } = json
    writeSaved(older)
    const r = recorded()
    expect((await apply(r)).exitCode).toBe(0)
    expect(plannedAgain(r)).toMatch(/no apply section/)

    await plan()
    writeSaved({ ...readSaved(), apply: { ...(section as object), version: 99, somethingNew: true } })
    const later = recorded()
    const result = await apply(later)
    expect(plannedAgain(later)).toMatch(/no apply section/)
    expect(errors(result)).toEqual([])
  })

  it('a change of a kind the saved plan does not carry yet: no apply section, planned again', async () => {
    ws.write({
      'a.yaml':
        dashboard('Checkout', timeTile('Errors', 0, 0)) + alert('Too many errors', 'Checkout', 'Errors')
    })
    await plan()
    expect(readSaved().apply).toBeUndefined()
    const r = recorded()
    const result = await apply(r)
    expect(plannedAgain(r)).toMatch(/no apply section/)
    expect(errors(result)).toEqual([])
    expect(result.apply!.outcomes.map(o => o.address).sort()).toEqual([
      'Alert/Too many errors',
      'Dashboard/Checkout'
    ])
  })
})

describe('apply --plan with dashboards of one name, each pinned by id', () => {
  it('writes each its own content: the saved plan keys them apart by id', async () => {
    const tile = (name: string) => ({
      name,
      x: 0,
      y: 0,
      w: 6,
      h: 3,
      config: { displayType: 'markdown', markdown: name }
    })
    const ids = ['A', 'B'].map(
      t => emu.selfHosted.createDashboard({ name: 'Overview', tags: ['team'], tiles: [tile(t)] }).id
    )
    const pinned = (id: string, text: string) => `---
kind: Dashboard
name: Overview
id: ${id}
adopt: true
tiles:
  - name: T
    x: 0
    y: 0
    w: 6
    h: 3
    config: { displayType: markdown, markdown: ${text} }
`
    ws.write({ 'a.yaml': pinned(ids[0]!, 'first') + pinned(ids[1]!, 'second') })
    const planned = await plan()
    expect(errors(planned)).toEqual([])
    const section = readSaved().apply as { records: Record<string, unknown> }
    expect(Object.keys(section.records).sort()).toEqual(ids.map(id => `Dashboard/Overview@${id}`).sort())
    const r = recorded()
    const applied = await apply(r)
    expect(errors(applied)).toEqual([])
    expect(asRecorded(r)).toBe(true)
    const markdownOf = (id: string) => emu.selfHosted.dashboards.get(id)!.tiles.map(t => t.config.markdown)
    expect(markdownOf(ids[0]!)).toEqual(['first'])
    expect(markdownOf(ids[1]!)).toEqual(['second'])
  })
})
