/**
 * Dashboards of the shape of HyperDX's runtime templates (metric select items with a metric's name and type and no
 * value expression), as a user runs the CLI bundle against the emulator:
 * - written by hand: validate passes, plan creates, apply creates, and the next plan is empty;
 * - made in the web UI (the emulator's UI route, as the UI's import page does): export, validate, adopt (name and
 *   tags only), an empty plan; then a manifest edit of one tile changes that tile only, the other tiles stay as the
 *   UI stored them, and the UI can still save the dashboard.
 * Our own dashboards: HyperDX's templates are not in this repository.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { startEmulator, type Emulator } from '../../emulator/index.js'
import { workspace, type Workspace } from '../support/harness.js'
import { runCli } from './runner.js'

const METRICS = '65a1f0c2b3d4e5f6a7b8c903'

let emu: Emulator
const spaces: Workspace[] = []

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: { selfHosted: false, managed: false } })
})
afterAll(async () => {
  await emu.close()
  spaces.forEach(ws => ws.cleanup())
})

function space(files: Record<string, string> = {}): Workspace {
  const ws = workspace(files)
  spaces.push(ws)
  return ws
}

async function obsdeploy(ws: Workspace, command: string, ...args: string[]) {
  const folder = command === 'export' ? [] : ['observability']
  return runCli([command, ...folder, '--api-url', emu.url, '--stack', 'metrics', ...args], {
    cwd: ws.dir,
    env: { OBSDEPLOY_API_KEY: emu.credentials.apiKey }
  })
}

/** The web UI's routes (session cookie): what the UI stores and reads. */
async function ui(method: string, route: string, body?: unknown) {
  const response = await fetch(emu.url + route, {
    method,
    headers: { 'Content-Type': 'application/json', Cookie: emu.uiCookie() },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  return { status: response.status, json: JSON.parse(await response.text()) as any } // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function stored(id: string) {
  return (await ui('GET', '/dashboards')).json.find((d: { id: string }) => d.id === id)
}

const HAND_WRITTEN = `kind: Dashboard
name: Node runtime
tiles:
  - name: Event loop p99
    x: 0
    y: 0
    w: 6
    h: 4
    config:
      displayType: number
      source: Metrics
      select:
        - { aggFn: avg, metricName: nodejs.eventloop.delay.p99, metricType: gauge }
      numberFormat: { output: number, mantissa: 1 }
  - name: Heap and CPU
    x: 6
    y: 0
    w: 12
    h: 4
    config:
      displayType: line
      source: Metrics
      select:
        - { aggFn: max, metricName: v8js.memory.heap.used, metricType: gauge, alias: heap }
        - { aggFn: sum, metricName: jvm.cpu.time, metricType: sum, alias: cpu }
  - name: Latency p95
    x: 0
    y: 4
    w: 12
    h: 4
    config:
      displayType: line
      source: Metrics
      select:
        - { aggFn: quantile, level: 0.95, metricName: http.server.duration, metricType: histogram }
  - name: Go memory
    x: 12
    y: 4
    w: 6
    h: 4
    series:
      - { type: time, source: Metrics, aggFn: avg, metricName: go.memory.used, metricDataType: sum }
`

describe('a metric dashboard written by hand', () => {
  it('validates, plans, applies (create), and the plan after is empty', async () => {
    const ws = space({ 'runtime.yaml': HAND_WRITTEN })
    const validated = await runCli(['validate', 'observability'], { cwd: ws.dir })
    expect(validated.stdout + validated.stderr).not.toContain('value expression')
    expect(validated.exitCode).toBe(0)

    const plan = await obsdeploy(ws, 'plan')
    expect(plan.exitCode).toBe(0)
    expect(plan.stdout).toContain('+ create Dashboard "Node runtime"')
    // The tile queries run on the charts route, which takes a metric series without a field.
    const now = Date.now()
    for (const metric of [
      'nodejs.eventloop.delay.p99',
      'v8js.memory.heap.used',
      'http.server.duration',
      'go.memory.used'
    ])
      for (let hour = 1; hour <= 3; hour++)
        emu.selfHosted.events.push({
          timestamp: now - hour * 3_600_000,
          sourceId: METRICS,
          fields: { MetricName: metric, Value: hour }
        })
    const checked = await obsdeploy(ws, 'plan', '--check-queries')
    expect(checked.exitCode).toBe(0)
    // A number tile says its value (the average of the values 1, 2 and 3), a line tile its buckets with data.
    expect(checked.stdout).toContain('evidence: tile "Event loop p99": avg 2 over the last 24 hours')
    for (const tile of ['Heap and CPU', 'Latency p95', 'Go memory'])
      expect(checked.stdout).toContain(
        `evidence: tile "${tile}": data in 3 of 48 30m buckets over the last 24 hours`
      )
    expect(checked.stdout).not.toContain('warning')

    const apply = await obsdeploy(ws, 'apply')
    expect(apply.exitCode).toBe(0)
    // The config items were sent with the value expression the renderer ignores; the series without one.
    const record = (await ui('GET', '/dashboards')).json.find(
      (d: { name: string }) => d.name === 'Node runtime'
    )
    const items = record.tiles.flatMap((t: { config: { select: Array<Record<string, unknown>> } }) =>
      t.config.select.map(s => [s.metricName, s.valueExpression])
    )
    expect(items).toEqual([
      ['nodejs.eventloop.delay.p99', 'Value'],
      ['v8js.memory.heap.used', 'Value'],
      ['jvm.cpu.time', 'Value'],
      ['http.server.duration', 'Value'],
      ['go.memory.used', '']
    ])

    const after = await obsdeploy(ws, 'plan')
    expect(after.stdout).toContain('No changes')
    expect(after.exitCode).toBe(0)
  })
})

/** A dashboard as the UI's import page stores a runtime template: metric items with valueExpression ''. */
function templateShaped(): Record<string, unknown> {
  const tile = (id: string, x: number, y: number, name: string, displayType: string, select: unknown[]) => ({
    id,
    x,
    y,
    w: 12,
    h: 4,
    config: {
      name,
      source: METRICS,
      displayType,
      granularity: 'auto',
      alignDateRangeToGranularity: true,
      select,
      where: '',
      whereLanguage: 'sql',
      numberFormat: { output: 'number', mantissa: 1, thousandSeparated: true }
    }
  })
  const item = (aggFn: string, metricName: string, metricType: string, alias?: string) => ({
    aggFn,
    valueExpression: '',
    metricName,
    metricType,
    ...(alias === undefined ? {} : { alias })
  })
  return {
    name: 'JVM runtime (UI)',
    tags: ['OTel Runtime Metrics'],
    tiles: [
      tile('t-heap', 0, 0, 'Heap used', 'number', [item('avg', 'jvm.memory.used', 'sum')]),
      tile('t-threads', 12, 0, 'Threads', 'line', [item('avg', 'jvm.thread.count', 'sum', 'threads')]),
      tile('t-cpu', 0, 4, 'CPU', 'line', [
        item('avg', 'jvm.cpu.recent_utilization', 'gauge', 'cpu'),
        item('sum', 'jvm.cpu.time', 'sum', 'cpu time')
      ]),
      tile('t-classes', 12, 4, 'Classes loaded', 'line', [item('sum', 'jvm.class.loaded', 'sum')])
    ]
  }
}

describe('a metric dashboard made in the web UI', () => {
  it('exports, validates and adopts unchanged; a manifest edit of one tile changes only that tile', async () => {
    const made = await ui('POST', '/dashboards', templateShaped())
    expect(made.status).toBe(200)
    const id = made.json.id as string
    const before = await stored(id)

    const ws = space()
    const exported = await obsdeploy(ws, 'export', '--out', 'observability', '--kind', 'Dashboard')
    expect(exported.exitCode).toBe(0)
    const file = readdirSync(path.join(ws.dir, 'observability'))
      .map(f => path.join(ws.dir, 'observability', f))
      .find(f => readFileSync(f, 'utf8').includes('JVM runtime (UI)'))!
    const manifest = readFileSync(file, 'utf8')
    expect(manifest).toContain('metricName: jvm.memory.used')
    expect(manifest).not.toContain('valueExpression')

    const validated = await runCli(['validate', 'observability'], { cwd: ws.dir })
    expect(validated.stdout + validated.stderr).not.toContain('value expression')
    expect(validated.exitCode).toBe(0)

    // Adoption: name and tags only, through the patch path; every tile stays as the UI stored it.
    emu.clearLog()
    const adopt = await obsdeploy(ws, 'apply')
    expect(adopt.exitCode).toBe(0)
    expect(emu.requestLog.filter(r => r.mode === 'mcp' && r.method === 'POST')).not.toEqual([])
    expect(emu.requestLog.some(r => r.method === 'PUT')).toBe(false)
    const adopted = await stored(id)
    expect(adopted.tiles).toEqual(before.tiles)
    expect(adopted.tags).toContain('OTel Runtime Metrics')
    const quiet = await obsdeploy(ws, 'plan')
    expect(quiet.stdout).toContain('No changes')
    expect(quiet.exitCode).toBe(0)

    // One tile's alias changes in the manifest: that tile alone is written.
    writeFileSync(file, manifest.replace('alias: threads', 'alias: live threads'))
    const plan = await obsdeploy(ws, 'plan')
    expect(plan.exitCode).toBe(0)
    expect(plan.stdout).toContain('tiles["Threads"].select[0].alias: threads -> live threads')
    expect(plan.stdout).toContain(
      'the update replaces this tile one at a time and leaves the other tiles as they are'
    )
    expect(plan.stdout).toContain('Plan: 1 to update.')
    emu.clearLog()
    const apply = await obsdeploy(ws, 'apply')
    expect(apply.exitCode).toBe(0)
    expect(emu.requestLog.some(r => r.method === 'PUT')).toBe(false)
    const after = await stored(id)
    const [heap, threads, cpu, classes] = after.tiles
    expect([heap, cpu, classes]).toEqual([before.tiles[0], before.tiles[2], before.tiles[3]])
    expect(threads.config.select).toEqual([
      expect.objectContaining({
        alias: 'live threads',
        metricName: 'jvm.thread.count',
        valueExpression: 'Value'
      })
    ])
    const next = await obsdeploy(ws, 'plan')
    expect(next.stdout).toContain('No changes')
    expect(next.exitCode).toBe(0)

    // The UI can still save the dashboard as it reads it.
    const { id: _id, ...record } = after
    const saved = await ui('PATCH', `/dashboards/${id}`, {
      name: record.name,
      tags: record.tags,
      tiles: record.tiles
    })
    expect(saved.status).toBe(200)
  })
})
