/**
 * Manifests and live state for the benchmarks: n dashboards of `tiles` time tiles and `alerts` alerts each,
 * as YAML files (what the user keeps in the repository) and as the same records seeded into an emulator store
 * (what the server already has), so that a plan against them is empty. The shape follows
 * test/scenario/scale.test.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Store } from '../../emulator/index.js'

export interface FleetShape {
  dashboards: number
  tilesPerDashboard: number
  alertsPerDashboard: number
  /** Ownership stack the live records carry (`obsdeploy:<stack>`). */
  stack: string
  /** Name prefix, so several fleets can live side by side. */
  prefix?: string
  /** Each dashboard carries the tag `owner:<owner>` and each alert this message (the recommended pack's rules). */
  owner?: string
  runbook?: string
}

export const dashboardName = (shape: FleetShape, i: number): string => `${shape.prefix ?? 'Service'} ${i}`
const tileName = (t: number): string => `Tile ${t}`
const tileWhere = (i: number, t: number): string => `service:s${i} AND level:l${t}`
const tileX = (t: number): number => (t % 4) * 6
const tileY = (t: number): number => Math.floor(t / 4) * 3
const alertSuffix = (k: number): string => String.fromCharCode(97 + (k % 26)) + (k >= 26 ? String(k) : '')

/** The YAML of one dashboard with its alerts (one file may hold many, separated by `---`). */
export function dashboardYaml(shape: FleetShape, i: number, webhook = 'ops-pager'): string {
  const name = dashboardName(shape, i)
  let text = `kind: Dashboard\nname: ${JSON.stringify(name)}\n${shape.owner ? `tags: [${JSON.stringify(`owner:${shape.owner}`)}]\n` : ''}tiles:\n`
  for (let t = 0; t < shape.tilesPerDashboard; t++) {
    text += `  - name: ${JSON.stringify(tileName(t))}
    x: ${tileX(t)}
    y: ${tileY(t)}
    w: 6
    h: 3
    series:
      - type: time
        source: Logs
        aggFn: count
        where: ${JSON.stringify(tileWhere(i, t))}
        groupBy: [service]
`
  }
  for (let k = 0; k < shape.alertsPerDashboard; k++) {
    text += `---
kind: Alert
name: ${JSON.stringify(`${name} ${alertSuffix(k)}`)}
dashboard: ${JSON.stringify(name)}
tile: ${JSON.stringify(tileName(k % shape.tilesPerDashboard))}
threshold: 10
thresholdType: above
interval: 5m
channel: { type: webhook, webhook: ${JSON.stringify(webhook)} }
${shape.runbook ? `message: ${JSON.stringify(shape.runbook)}\n` : ''}`
  }
  return text
}

/** Writes the fleet as manifests under `<dir>/observability/`, 100 dashboards a file. Returns the glob. */
export function writeFleetManifests(dir: string, shape: FleetShape): string {
  const folder = path.join(dir, 'observability')
  mkdirSync(folder, { recursive: true })
  const perFile = 100
  for (let start = 0; start < shape.dashboards; start += perFile) {
    const docs: string[] = []
    for (let i = start; i < Math.min(shape.dashboards, start + perFile); i++)
      docs.push(dashboardYaml(shape, i))
    writeFileSync(path.join(folder, `s${start / perFile}.yaml`), docs.join('---\n'))
  }
  return 'observability/**/*.yaml'
}

/** The request body of one dashboard as the tool sends it (series form, source resolved to its id). */
export function dashboardBody(shape: FleetShape, i: number, sourceId: string): Record<string, unknown> {
  const tiles = []
  for (let t = 0; t < shape.tilesPerDashboard; t++) {
    tiles.push({
      name: tileName(t),
      x: tileX(t),
      y: tileY(t),
      w: 6,
      h: 3,
      series: [
        {
          type: 'time',
          sourceId,
          aggFn: 'count',
          where: tileWhere(i, t),
          whereLanguage: 'lucene',
          groupBy: ['service']
        }
      ]
    })
  }
  const tags = [`obsdeploy:${shape.stack}`, ...(shape.owner ? [`owner:${shape.owner}`] : [])]
  return { name: dashboardName(shape, i), tags, tiles }
}

/** Seeds the fleet into a store through its own create path (the same validation as the HTTP routes). */
export function seedFleet(store: Store, shape: FleetShape): void {
  const logs = store.sources.find(s => s.name === 'Logs')
  const hook = store.webhooks.find(w => w.name === 'ops-pager')
  if (!logs || !hook) throw new Error('the emulator seed has no "Logs" source or "ops-pager" webhook')
  for (let i = 0; i < shape.dashboards; i++) {
    const d = store.createDashboard(dashboardBody(shape, i, logs.id))
    for (let k = 0; k < shape.alertsPerDashboard; k++) {
      store.createAlert({
        name: `${dashboardName(shape, i)} ${alertSuffix(k)}`,
        dashboardId: d.id,
        tileId: d.tiles[k % shape.tilesPerDashboard]!.id,
        source: 'tile',
        threshold: 10,
        thresholdType: 'above',
        interval: '5m',
        channel: { type: 'webhook', webhookId: hook.id },
        ...(shape.runbook ? { message: shape.runbook } : {})
      })
    }
  }
}
