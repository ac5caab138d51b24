/**
 * Where a plan's memory goes: run by bench/sections/growth.ts as
 * `node --expose-gc --import tsx bench/plan-child.ts <workspace> <api-url> <api-key>`, it runs the plan's
 * phases one by one and prints, as one JSON line, the heap still in use after each (after a full GC), and
 * the process's peak RSS at the end, with the time each phase took (the collections between them not counted).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { createApi } from '../src/api/client.js'
import { ownershipTag } from '../src/kinds/ownership.js'
import { loadManifests } from '../src/manifest/load.js'
import { readLiveState } from '../src/live/read.js'
import { computePlan } from '../src/planner/planner.js'
import { configFor } from './lib/config.js'

const [dir, url, apiKey] = process.argv.slice(2)
if (!dir || !url || !apiKey) throw new Error('usage: plan-child.ts <workspace> <api-url> <api-key>')
const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('run with --expose-gc')

const heap = () => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}
const config = configFor(
  { url, credentials: { apiKey, keyId: '', keySecret: '', organizationId: '', serviceId: '' } },
  dir,
  'plan',
  { manifests: 'observability/**/*.yaml' }
)
const start = heap()
let t = performance.now()
const manifests = await loadManifests({ patterns: config.manifests, cwd: dir, mode: 'self-hosted' })
const loadMs = performance.now() - t
const afterLoad = heap()
const api = createApi(config)
t = performance.now()
const live = await readLiveState(api, { service: false })
const readMs = performance.now() - t
await api.close()
const afterRead = heap()
t = performance.now()
const outcome = computePlan({
  command: 'plan',
  settings: {
    stack: config.stack,
    ownershipTag: ownershipTag(config.stack),
    prune: config.prune,
    mode: config.mode,
    serviceGate: config.serviceGate
  },
  manifests,
  live,
  now: new Date()
})
const computeMs = performance.now() - t
const afterPlan = heap()
const text = `${JSON.stringify(outcome.plan, null, 2)}\n`
mkdirSync(path.join(dir, '.obsdeploy'), { recursive: true })
writeFileSync(path.join(dir, '.obsdeploy', 'child-plan.json'), text)
console.log(
  JSON.stringify({
    manifests: afterLoad - start,
    live: afterRead - afterLoad,
    plan: afterPlan - afterRead,
    planJsonBytes: Buffer.byteLength(text),
    total: afterPlan - start,
    maxRss: process.resourceUsage().maxRSS * 1024,
    ms: { load: loadMs, read: readMs, compute: computeMs },
    counts: { dashboards: manifests.specs.Dashboard.length, alerts: manifests.specs.Alert.length }
  })
)
