/**
 * A dashboard with two tiles of one name, as HyperDX's runtime templates have ("CPU Utilization" twice), made on
 * the server with an alert on the second: the built CLI exports it with an `id:` pin on each of the two and the
 * alert naming its tile by `tileId`, validates it, adopts it (name and tags only: every tile as stored) with an
 * empty plan after, and a rename of one of the two changes that tile alone, which keeps its id and its alert.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startEmulator, type Emulator } from '../../emulator/index.js'
import { workspace, type Workspace } from '../support/harness.js'
import { runCli } from './runner.js'

let emu: Emulator
let ws: Workspace
let dashboardId: string
let tileIds: string[]

const env = () => ({ OBSDEPLOY_API_KEY: emu.credentials.apiKey })
const args = () => ['--api-url', emu.url, '--stack', 'runtime', '--rate-limit', 'off']
const cli = (...a: string[]) => runCli([...a, ...args()], { cwd: ws.dir, env: env() })

async function post(route: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${emu.url}/api/v2/${route}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${emu.credentials.apiKey}` },
    body: JSON.stringify(body)
  })
  expect(response.status).toBe(200)
  return ((await response.json()) as { data: Record<string, unknown> }).data
}

const LOGS = '65a1f0c2b3d4e5f6a7b8c901'
const OPS_PAGER = '65a1f0c2b3d4e5f6a7b8ca01'
const cpuTile = (x: number, where: string) => ({
  name: 'CPU Utilization',
  x,
  y: 0,
  w: 6,
  h: 3,
  config: {
    displayType: 'line',
    sourceId: LOGS,
    select: [{ aggFn: 'count', where, whereLanguage: 'lucene' }]
  }
})

const stored = () => emu.selfHosted.dashboards.get(dashboardId)!
const exportedFile = () => {
  const dir = path.join(ws.dir, 'exported')
  const file = readdirSync(dir, { recursive: true, encoding: 'utf8' }).find(f => f.includes('runtime'))!
  return path.join(dir, file)
}
const planChanges = async () => {
  const plan = await cli('plan', 'exported', '--json')
  expect(plan.exitCode).toBe(0)
  return JSON.parse(plan.stdout).plan.changes as Array<{
    kind: string
    action: string
    fields: Array<{ path: string }>
  }>
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: { selfHosted: false, managed: false } })
  ws = workspace()
  const made = await post('dashboards', {
    name: 'Node.js runtime',
    tiles: [cpuTile(0, 'kind:user'), cpuTile(6, 'kind:system')]
  })
  dashboardId = String(made.id)
  tileIds = (made.tiles as Array<{ id: string }>).map(t => t.id)
  await post('alerts', {
    dashboardId,
    tileId: tileIds[1],
    name: 'System CPU',
    threshold: 10,
    interval: '5m',
    source: 'tile',
    thresholdType: 'above',
    channel: { type: 'webhook', webhookId: OPS_PAGER }
  })
})
afterAll(async () => {
  await emu.close()
  ws.cleanup()
})

describe('a dashboard with two tiles of one name', () => {
  it('exports with an `id:` pin on each, and the alert names its tile by that pin', async () => {
    const exported = await cli('export', '--out', 'exported', '--kind', 'Dashboard')
    expect(exported.exitCode).toBe(0)
    const text = readFileSync(exportedFile(), 'utf8')
    expect(text).toContain(`- name: CPU Utilization\n    id: ${tileIds[0]}\n`)
    expect(text).toContain(`- name: CPU Utilization\n    id: ${tileIds[1]}\n`)
    expect(text).toMatch(new RegExp(`tile: CPU Utilization\\ntileId: "?${tileIds[1]}"?\\n`))
  })

  it('validates, adopts with every tile as stored, and plans nothing after', async () => {
    const before = structuredClone(stored().tiles)
    const validate = await cli('validate', 'exported')
    expect(validate.stdout + validate.stderr).not.toMatch(/error/i)
    expect(validate.exitCode).toBe(0)
    const apply = await cli('apply', 'exported')
    expect(apply.stdout).toMatch(/Applied|adopt/i)
    expect(apply.exitCode).toBe(0)
    expect(stored().tiles).toEqual(before)
    expect((await planChanges()).filter(c => c.action !== 'noop')).toEqual([])
    const alert = [...emu.selfHosted.alerts.values()].find(a => a.name === 'System CPU')!
    expect(alert.tileId).toBe(tileIds[1])
  })

  it('an alert on the first of the two names it by its pin, and is created on that tile', async () => {
    const alertYaml = (tile: string) =>
      [
        'kind: Alert',
        'name: User CPU',
        'dashboard: Node.js runtime',
        tile,
        'threshold: 90',
        'thresholdType: above',
        'interval: 5m',
        `channel: { type: webhook, webhookId: "${OPS_PAGER}" }`,
        ''
      ].join('\n')
    // By the name alone it is ambiguous: validate names both tiles.
    writeFileSync(path.join(ws.dir, 'exported', 'user-cpu.yaml'), alertYaml('tile: CPU Utilization'))
    const ambiguous = await cli('validate', 'exported')
    expect(ambiguous.exitCode).toBe(1)
    expect(ambiguous.stdout + ambiguous.stderr).toContain('has 2 tiles named "CPU Utilization" (tiles[0] at')
    writeFileSync(
      path.join(ws.dir, 'exported', 'user-cpu.yaml'),
      alertYaml(`tile: CPU Utilization\ntileId: "${tileIds[0]}"`)
    )
    const apply = await cli('apply', 'exported')
    expect(apply.exitCode).toBe(0)
    const alert = [...emu.selfHosted.alerts.values()].find(a => a.name === 'User CPU')!
    expect([alert.dashboardId, alert.tileId]).toEqual([dashboardId, tileIds[0]])
    expect((await planChanges()).filter(c => c.action !== 'noop')).toEqual([])
  })

  it('renaming one of the two changes that tile alone, which keeps its id and its alert', async () => {
    const file = exportedFile()
    const text = readFileSync(file, 'utf8')
    const first = structuredClone(stored().tiles[0])
    const second = `- name: CPU Utilization\n    id: ${tileIds[1]}\n`
    // The alert names its tile by the pin, and by the name, which follows the rename.
    const renamed = text
      .replace(second, `- name: CPU Utilization (system)\n    id: ${tileIds[1]}\n`)
      .replace('tile: CPU Utilization\n', 'tile: CPU Utilization (system)\n')
    writeFileSync(file, renamed)
    const changes = (await planChanges()).filter(c => c.action !== 'noop')
    expect(changes.map(c => [c.kind, c.action, c.fields.map(f => f.path)])).toEqual([
      [
        'Dashboard',
        'update',
        [`tiles["CPU Utilization" #${tileIds[1]!.slice(-6)}]`, 'tiles["CPU Utilization (system)"]']
      ]
    ])
    // The plan a reviewer reads tells the two apart by a short id.
    const shown = await cli('plan', 'exported')
    const short = tileIds[1]!.slice(-6)
    expect(shown.stdout).toContain(`tile removed: "CPU Utilization" #${short}\n`)
    expect(shown.stdout).toContain(`-   - name: CPU Utilization #${short}\n`)
    expect(shown.stdout).toContain(
      `note: tile "CPU Utilization" #${short} renamed to "CPU Utilization (system)"`
    )
    // Sent as one patch of that tile: the other one, and what only the UI set on it, stays as stored.
    expect(shown.stdout).not.toContain(`#${tileIds[0]!.slice(-6)}`)
    const apply = await cli('apply', 'exported')
    expect(apply.exitCode).toBe(0)
    expect(stored().tiles.map(t => [t.name, t.id])).toEqual([
      ['CPU Utilization', tileIds[0]],
      ['CPU Utilization (system)', tileIds[1]]
    ])
    expect(stored().tiles[0]).toEqual(first)
    const alert = [...emu.selfHosted.alerts.values()].find(a => a.name === 'System CPU')!
    expect(alert.tileId).toBe(tileIds[1])
    expect((await planChanges()).filter(c => c.action !== 'noop')).toEqual([])
  })
})

describe('a new dashboard with two tiles of one name', () => {
  it('check-queries names each tile as the plan does, by name and pin', async () => {
    const tile = (id: string, x: number) =>
      [
        '  - name: CPU Utilization',
        `    id: ${id}`,
        `    x: ${x}`,
        '    y: 0',
        '    w: 6',
        '    h: 4',
        '    series:',
        `      - { type: time, sourceId: "${LOGS}", aggFn: count }`
      ].join('\n')
    mkdirSync(path.join(ws.dir, 'fresh'), { recursive: true })
    writeFileSync(
      path.join(ws.dir, 'fresh', 'new.yaml'),
      ['kind: Dashboard', 'name: New runtime', 'tiles:', tile('aaaaaa', 0), tile('bbbbbb', 6), ''].join('\n')
    )
    const checked = await cli('plan', 'fresh', '--check-queries')
    expect(checked.stdout).toMatch(/evidence: tile "CPU Utilization #aaaaaa": data in \d+ of 48 30m buckets/)
    expect(checked.stdout).toMatch(/evidence: tile "CPU Utilization #bbbbbb": data in \d+ of 48 30m buckets/)
  })
})
