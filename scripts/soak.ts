/**
 * `npm run soak`: randomized apply runs against the emulator with injected faults, checking after each run that
 * nothing was duplicated, lost, or touched that the stack does not own, and that a rerun without faults converges.
 *
 *   npm run soak                               200 runs, a random seed (printed)
 *   npm run soak -- --runs 50 --seed 1234      reproducible (with the same emulator seed, printed too)
 *
 * Each run, on an emptied emulator store:
 *   1. seed a few dashboards and alerts the stack does not own (and snapshot them);
 *   2. apply a random "before" manifest set without faults (the starting state);
 *   3. mutate it at random (renames with and without `renamedFrom`, removed dashboards with or without
 *      `prune`, tile edits, moves, renames, removals and additions, alert edits) and apply it with 10% of
 *      the requests failing (one fault kind for the run, or all kinds mixed), a small request-timeout and a
 *      small retry-budget;
 *   4. a failed apply must say why (an error diagnostic); the faults are cleared and the apply rerun: it must
 *      exit 0; then a plan must be empty;
 *   5. after every apply: no two owned dashboards (no two alerts) with the same name, the unowned ones
 *      unchanged; after the converged apply: every manifest dashboard and alert exists with its tiles, on the
 *      right tile, kept ids where the tool promises them (renamedFrom, tiles kept by name), and with prune
 *      nothing else is owned.
 * Exits 1 when any invariant was broken. Bounded by --runs and by --max-seconds (it stops starting runs).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { startEmulator, type Emulator, type FaultKind, type StoredDashboard } from '../emulator/index.js'
import type { RawSettings } from '../src/config/inputs.js'
import { parseConfig } from '../src/config/parse.js'
import { serviceGateFor } from '../src/github/events.js'
import { run } from '../src/run/run.js'
import type { RunResult } from '../src/run/types.js'

const FAULT_KINDS: FaultKind[] = ['429', '500', '502', '503', 'reset', 'delay', 'commit-drop']
const STACK = 'soak'
const OWNER_TAG = `obsdeploy:${STACK}`
const WHERES = ['', 'level:error', 'service:checkout AND level:warn', 'NOT level:info', 'duration:>100']
const TILE_KINDS = ['line', 'bar', 'number', 'table', 'markdown', 'search'] as const
type TileKind = (typeof TILE_KINDS)[number]
const ALERTABLE: ReadonlySet<TileKind> = new Set(['line', 'bar', 'number'])
const DASHBOARD_NAMES = [
  'Checkout',
  'Payments',
  'Search',
  'Inventory',
  'Shipping',
  'Accounts',
  'Gateway',
  'Billing'
]

// ---------------------------------------------------------------------------------------------------------
// Arguments

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '200' },
    seed: { type: 'string' },
    'emulator-seed': { type: 'string' },
    'fault-rate': { type: 'string', default: '0.1' },
    'request-timeout': { type: 'string', default: '0.5' },
    'retry-budget': { type: 'string', default: '3' },
    'delay-ms': { type: 'string', default: '1500' },
    'max-seconds': { type: 'string', default: '570' },
    verbose: { type: 'boolean', default: false }
  },
  strict: true
})
const positiveInt = (name: string, text: string | undefined, max: number): number => {
  const n = Number(text)
  if (!Number.isInteger(n) || n < 0 || n > max)
    throw new Error(`--${name} must be a whole number from 0 to ${max}`)
  return n
}
const RUNS = positiveInt('runs', args.runs, 100_000)
const SEED = args.seed !== undefined ? positiveInt('seed', args.seed, 2 ** 32 - 1) : Date.now() % 2 ** 31
const EMULATOR_SEED =
  args['emulator-seed'] !== undefined
    ? positiveInt('emulator-seed', args['emulator-seed'], 2 ** 32 - 1)
    : (SEED * 2654435761) % 2 ** 31
const FAULT_RATE = Number(args['fault-rate'])
const MAX_SECONDS = Number(args['max-seconds'])
const DELAY_MS = Number(args['delay-ms'])
if (!(FAULT_RATE >= 0 && FAULT_RATE < 1)) throw new Error('--fault-rate must be in [0, 1)')

// ---------------------------------------------------------------------------------------------------------
// A PRNG of our own (mulberry32), for the manifests and the choices of each run.

function prng(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    chance: (p: number) => next() < p,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!
  }
}
type Rng = ReturnType<typeof prng>

// ---------------------------------------------------------------------------------------------------------
// The manifest model

interface TileModel {
  name: string
  kind: TileKind
  where: string
  x: number
  y: number
  w: number
  h: number
}
interface DashboardModel {
  name: string
  tags: string[]
  tiles: TileModel[]
  renamedFrom?: string
  /** Set when the mutation renamed it without renamedFrom (a replace: new ids). */
  replacedFrom?: string
}
interface AlertModel {
  name: string
  dashboard: string
  tile: string
  threshold: number
}
interface ManifestModel {
  dashboards: DashboardModel[]
  alerts: AlertModel[]
  prune: boolean
}

let tileCounter = 0
let alertCounter = 0

function randomTile(r: Rng, index: number): TileModel {
  return {
    name: `Tile ${++tileCounter}`,
    kind: r.pick(TILE_KINDS),
    where: r.pick(WHERES),
    x: (index % 4) * 6,
    y: Math.floor(index / 4) * 3,
    w: r.pick([3, 6]),
    h: r.int(2, 4)
  }
}

function randomDashboard(r: Rng, name: string): DashboardModel {
  const tiles = Array.from({ length: r.int(1, 5) }, (_, i) => randomTile(r, i))
  return { name, tags: ['payments', 'sre', 'team-a'].filter(() => r.chance(0.3)), tiles }
}

function randomAlerts(r: Rng, d: DashboardModel, max: number): AlertModel[] {
  const alertable = d.tiles.filter(t => ALERTABLE.has(t.kind))
  if (alertable.length === 0) return []
  return Array.from({ length: r.int(0, max) }, () => ({
    name: `Alert ${++alertCounter}`,
    dashboard: d.name,
    tile: r.pick(alertable).name,
    threshold: r.int(1, 500)
  }))
}

function randomManifests(r: Rng): ManifestModel {
  const names = DASHBOARD_NAMES.filter(() => r.chance(0.5)).slice(0, 5)
  if (names.length === 0) names.push(r.pick(DASHBOARD_NAMES))
  const dashboards = names.map(n => randomDashboard(r, n))
  return { dashboards, alerts: dashboards.flatMap(d => randomAlerts(r, d, 2)), prune: false }
}

/** A random change of `before`: what a pull request would do to the manifests. */
function mutate(r: Rng, before: ManifestModel): ManifestModel {
  const after: ManifestModel = structuredClone(before)
  const used = new Set(before.dashboards.map(d => d.name))
  const freshName = () => {
    for (let k = 1; ; k++) {
      const name = `${r.pick(DASHBOARD_NAMES)} v${k}`
      if (!used.has(name)) {
        used.add(name)
        return name
      }
    }
  }
  let removed = false
  const renames = new Map<string, string>()
  after.dashboards = after.dashboards.filter(() => {
    if (after.dashboards.length > 1 && r.chance(0.15)) {
      removed = true
      return false
    }
    return true
  })
  for (const d of after.dashboards) {
    const roll = r.next()
    if (roll < 0.2) {
      const to = freshName()
      renames.set(d.name, to)
      d.renamedFrom = d.name
      d.name = to
    } else if (roll < 0.25) {
      const to = freshName()
      renames.set(d.name, to)
      d.replacedFrom = d.name
      d.name = to
    }
    if (r.chance(0.1)) d.tags = ['payments', 'sre', 'team-a', 'beta'].filter(() => r.chance(0.4))
    if (r.chance(0.6)) {
      for (let k = r.int(1, 2); k > 0; k--) editTiles(r, d)
    }
  }
  for (let k = r.int(0, 2); k > 0; k--) after.dashboards.push(randomDashboard(r, freshName()))

  // Alerts follow their dashboard and tile, or go; then a few random alert edits.
  const byName = new Map(after.dashboards.map(d => [d.name, d]))
  const alerts: AlertModel[] = []
  for (const a of after.alerts) {
    const d = byName.get(renames.get(a.dashboard) ?? a.dashboard)
    if (!d) continue
    a.dashboard = d.name
    const tile = d.tiles.find(t => t.name === a.tile)
    if (!tile || !ALERTABLE.has(tile.kind)) {
      const other = d.tiles.filter(t => ALERTABLE.has(t.kind))
      if (other.length === 0 || r.chance(0.3)) continue
      a.tile = r.pick(other).name
    }
    if (r.chance(0.1)) continue
    if (r.chance(0.2)) a.threshold = r.int(1, 500)
    if (r.chance(0.1)) {
      const other = d.tiles.filter(t => ALERTABLE.has(t.kind))
      a.tile = r.pick(other).name
    }
    alerts.push(a)
  }
  for (const d of after.dashboards) if (r.chance(0.3)) alerts.push(...randomAlerts(r, d, 1))
  after.alerts = alerts
  after.prune = removed || after.dashboards.some(d => d.replacedFrom) ? r.chance(0.8) : r.chance(0.5)
  return after
}

function editTiles(r: Rng, d: DashboardModel): void {
  const t = r.pick(d.tiles)
  switch (r.int(0, 5)) {
    case 0:
      t.where = r.pick(WHERES.filter(w => w !== t.where))
      break
    case 1:
      t.kind = r.pick(TILE_KINDS.filter(k => k !== t.kind))
      break
    case 2:
      t.x = r.pick([0, 6, 12, 18])
      t.y = r.int(0, 12)
      t.w = r.pick([3, 6])
      break
    case 3:
      t.name = `Tile ${++tileCounter}`
      break
    case 4:
      if (d.tiles.length > 1) d.tiles = d.tiles.filter(x => x !== t)
      break
    default:
      if (d.tiles.length < 8) d.tiles.push(randomTile(r, d.tiles.length))
  }
}

function tileBody(t: TileModel): Record<string, unknown> {
  const at = { name: t.name, x: t.x, y: t.y, w: t.w, h: t.h }
  switch (t.kind) {
    case 'line':
      return { ...at, series: [{ type: 'time', source: 'Logs', aggFn: 'count', where: t.where }] }
    case 'bar':
      return {
        ...at,
        series: [{ type: 'time', source: 'Logs', aggFn: 'count', where: t.where, displayType: 'stacked_bar' }]
      }
    case 'number':
      return {
        ...at,
        series: [{ type: 'number', source: 'Logs', aggFn: 'avg', field: 'duration', where: t.where }]
      }
    case 'table':
      return {
        ...at,
        config: {
          displayType: 'table',
          source: 'Logs',
          select: [{ aggFn: 'count', where: t.where }],
          groupBy: 'service'
        }
      }
    case 'markdown':
      return { ...at, series: [{ type: 'markdown', content: markdownOf(t) }] }
    case 'search':
      return {
        ...at,
        series: [{ type: 'search', source: 'Logs', fields: ['level', 'service'], where: t.where }]
      }
  }
}
const markdownOf = (t: TileModel) => `# ${t.name}\n\nFilter: ${t.where || '(none)'}`

/** YAML is a superset of JSON: each document as JSON. */
function manifestText(m: ManifestModel): string {
  const docs: unknown[] = []
  for (const d of m.dashboards) {
    docs.push({
      kind: 'Dashboard',
      name: d.name,
      ...(d.renamedFrom ? { renamedFrom: d.renamedFrom } : {}),
      ...(d.tags.length > 0 ? { tags: d.tags } : {}),
      tiles: d.tiles.map(tileBody)
    })
  }
  for (const a of m.alerts) {
    docs.push({
      kind: 'Alert',
      name: a.name,
      dashboard: a.dashboard,
      tile: a.tile,
      threshold: a.threshold,
      thresholdType: 'above',
      interval: '5m',
      channel: { type: 'webhook', webhook: 'ops-pager' }
    })
  }
  return docs.map(d => JSON.stringify(d, null, 2)).join('\n---\n') + '\n'
}

// ---------------------------------------------------------------------------------------------------------
// The emulator, the workspace, run()

const dir = mkdtempSync(path.join(tmpdir(), 'obsdeploy-soak-'))
mkdirSync(path.join(dir, 'observability'))
const emu: Emulator = await startEmulator({
  port: 0,
  rateLimits: { selfHosted: false, managed: false },
  randomSeed: EMULATOR_SEED
})
const store = emu.selfHosted

async function obsdeploy(
  command: 'apply' | 'plan',
  settings: RawSettings
): Promise<RunResult | { threw: string }> {
  const { config, diagnostics } = parseConfig(
    {
      command,
      manifests: 'observability/**/*.yaml',
      'api-url': emu.url,
      'api-key': emu.credentials.apiKey,
      stack: STACK,
      'rate-limit': 'off',
      ...settings
    },
    {
      cwd: dir,
      defaultStack: STACK,
      defaultPlanPath: path.join(dir, '.obsdeploy', 'plan.json'),
      serviceGate: policy => serviceGateFor(undefined, policy),
      label: name => `--${name}`
    }
  )
  if (!config) throw new Error(`bad settings: ${diagnostics.map(d => d.message).join('; ')}`)
  try {
    return await run(config)
  } catch (e) {
    return { threw: e instanceof Error ? (e.stack ?? e.message) : String(e) }
  }
}

// ---------------------------------------------------------------------------------------------------------
// Invariants

interface Counts {
  runs: number
  firstAttempt: number
  failedThenConverged: number
  notConverged: number
  silentFailures: number
  runThrew: number
  setupFailures: number
  planNotEmpty: number
  duplicates: number
  lostChanges: number
  unownedTouched: number
  idsLost: number
  requests: number
  faultedRequests: number
  faults: Record<string, number>
  failureMessages: Map<string, number>
}
const counts: Counts = {
  runs: 0,
  firstAttempt: 0,
  failedThenConverged: 0,
  notConverged: 0,
  silentFailures: 0,
  runThrew: 0,
  setupFailures: 0,
  planNotEmpty: 0,
  duplicates: 0,
  lostChanges: 0,
  unownedTouched: 0,
  idsLost: 0,
  requests: 0,
  faultedRequests: 0,
  faults: Object.fromEntries(FAULT_KINDS.map(k => [k, 0])),
  failureMessages: new Map()
}
const problems: string[] = []
const problem = (run: number, what: string) => {
  problems.push(`run ${run} (seed ${SEED}): ${what}`)
  console.error(`  ✗ run ${run}: ${what}`)
}

const owned = () => [...store.dashboards.values()].filter(d => d.tags.includes(OWNER_TAG))

function unownedSnapshot(): string {
  const theirs = [...store.dashboards.values()].filter(d => !d.tags.includes(OWNER_TAG))
  const ids = new Set(theirs.map(d => d.id))
  const alerts = [...store.alerts.values()].filter(a => a.dashboardId !== null && ids.has(a.dashboardId))
  const byId = <T extends { id: string }>(xs: T[]) => [...xs].sort((a, b) => a.id.localeCompare(b.id))
  return JSON.stringify({ dashboards: byId(theirs), alerts: byId(alerts) })
}

/** Duplicates: two owned dashboards, or two alerts, with one name. */
function duplicates(): string[] {
  const found: string[] = []
  const seen = (names: (string | null)[], what: string) => {
    const tally = new Map<string, number>()
    for (const n of names) tally.set(n ?? '(null)', (tally.get(n ?? '(null)') ?? 0) + 1)
    for (const [n, c] of tally) if (c > 1) found.push(`${c} ${what} named "${n}"`)
  }
  seen(
    owned().map(d => d.name),
    'owned dashboards'
  )
  seen(
    [...store.alerts.values()].map(a => a.name),
    'alerts'
  )
  return found
}

/** The live tile matches the manifest tile. */
function tileMatches(t: TileModel, live: StoredDashboard['tiles'][number]): string | undefined {
  const c = live.config as Record<string, unknown>
  const select = (c.select as { where?: string }[] | undefined)?.[0]
  const expect: Record<TileKind, [string, boolean]> = {
    line: ['line', select?.where === t.where],
    bar: ['stacked_bar', select?.where === t.where],
    number: ['number', select?.where === t.where],
    table: ['table', select?.where === t.where],
    markdown: ['markdown', c.markdown === markdownOf(t)],
    search: ['search', c.where === t.where]
  }
  const [displayType, content] = expect[t.kind]
  if (c.displayType !== displayType)
    return `tile "${t.name}" is ${String(c.displayType)}, expected ${displayType}`
  if (!content) return `tile "${t.name}" has the wrong query/content`
  if (live.x !== t.x || live.y !== t.y || live.w !== t.w || live.h !== t.h)
    return `tile "${t.name}" is at ${live.x},${live.y} ${live.w}x${live.h}, expected ${t.x},${t.y} ${t.w}x${t.h}`
  return undefined
}

/** Every change of the manifests is in the live state. */
function lostChanges(m: ManifestModel): string[] {
  const lost: string[] = []
  const mine = owned()
  for (const d of m.dashboards) {
    const live = mine.filter(l => l.name === d.name)
    if (live.length !== 1) {
      if (live.length === 0) lost.push(`dashboard "${d.name}" is missing`)
      continue
    }
    const l = live[0]!
    const names = l.tiles.map(t => t.name).sort()
    const want = d.tiles.map(t => t.name).sort()
    if (JSON.stringify(names) !== JSON.stringify(want))
      lost.push(`dashboard "${d.name}" has tiles [${names.join(', ')}], expected [${want.join(', ')}]`)
    for (const t of d.tiles) {
      const lt = l.tiles.find(x => x.name === t.name)
      const wrong = lt ? tileMatches(t, lt) : undefined
      if (wrong) lost.push(`dashboard "${d.name}": ${wrong}`)
    }
    const tags = l.tags.filter(t => t !== OWNER_TAG).sort()
    if (JSON.stringify(tags) !== JSON.stringify([...d.tags].sort()))
      lost.push(`dashboard "${d.name}" has tags [${tags.join(', ')}], expected [${d.tags.join(', ')}]`)
  }
  const alerts = [...store.alerts.values()]
  for (const a of m.alerts) {
    const live = alerts.filter(x => x.name === a.name)
    if (live.length === 0) {
      lost.push(`alert "${a.name}" is missing`)
      continue
    }
    const l = live[0]!
    const d = mine.find(x => x.name === a.dashboard)
    const tile = d?.tiles.find(t => t.name === a.tile)
    if (!d || l.dashboardId !== d.id || !tile || l.tileId !== tile.id)
      lost.push(`alert "${a.name}" is not on tile "${a.tile}" of "${a.dashboard}"`)
    if (l.threshold !== a.threshold)
      lost.push(`alert "${a.name}" has threshold ${l.threshold}, expected ${a.threshold}`)
  }
  if (m.prune) {
    const names = new Set(m.dashboards.map(d => d.name))
    for (const l of mine) if (!names.has(l.name)) lost.push(`owned dashboard "${l.name}" was not pruned`)
    const ownedIds = new Set(mine.map(d => d.id))
    const alertNames = new Set(m.alerts.map(a => a.name))
    for (const a of alerts)
      if (a.dashboardId !== null && ownedIds.has(a.dashboardId) && !alertNames.has(a.name ?? ''))
        lost.push(`owned alert "${a.name}" was not pruned`)
  }
  return lost
}

/** Ids the tool promises to keep: a dashboard's across an update or a renamedFrom, a tile's when it keeps its name. */
function lostIds(
  before: ManifestModel,
  after: ManifestModel,
  idsBefore: Map<string, StoredDashboard>
): string[] {
  const lost: string[] = []
  const mine = owned()
  for (const d of after.dashboards) {
    if (d.replacedFrom) continue
    const previous = idsBefore.get(d.renamedFrom ?? d.name)
    if (!previous || !before.dashboards.some(b => b.name === (d.renamedFrom ?? d.name))) continue
    const now = mine.find(l => l.name === d.name)
    if (!now) continue
    if (now.id !== previous.id) {
      lost.push(`dashboard "${d.name}" has a new id (${previous.id} -> ${now.id})`)
      continue
    }
    for (const t of now.tiles) {
      const old = previous.tiles.find(x => x.name === t.name)
      if (old && old.id !== t.id) lost.push(`tile "${t.name}" of "${d.name}" has a new id`)
    }
  }
  return lost
}

// ---------------------------------------------------------------------------------------------------------
// One run

function seedUnowned(r: Rng, runIndex: number): void {
  const logs = store.sources.find(s => s.name === 'Logs')!.id
  const hook = store.webhooks.find(w => w.name === 'ops-pager')!.id
  for (let k = r.int(1, 3); k > 0; k--) {
    const d = store.createDashboard({
      name: `Unowned ${runIndex}-${k}`,
      tags: r.pick([[], ['obsdeploy:other'], ['team-x']]),
      tiles: [
        {
          name: 'Theirs',
          x: 0,
          y: 0,
          w: 6,
          h: 3,
          config: { displayType: 'line', sourceId: logs, select: [{ aggFn: 'count', where: 'level:error' }] }
        }
      ]
    })
    for (let j = r.int(0, 2); j > 0; j--) {
      store.createAlert({
        name: `Unowned alert ${runIndex}-${k}-${j}`,
        dashboardId: d.id,
        tileId: d.tiles[0]!.id,
        source: 'tile',
        threshold: 5,
        thresholdType: 'above',
        interval: '1h',
        channel: { type: 'webhook', webhookId: hook }
      })
    }
  }
}

function injectFaults(r: Rng): string {
  if (r.chance(0.5)) {
    const kind = r.pick(FAULT_KINDS)
    emu.faults.add({ kind, probability: FAULT_RATE, retryAfterSeconds: r.int(0, 1), delayMs: DELAY_MS })
    return kind
  }
  // All kinds mixed: rules are tried in order, so each fires with p where 1 - (1 - p)^7 = rate.
  const p = 1 - Math.pow(1 - FAULT_RATE, 1 / FAULT_KINDS.length)
  for (const kind of [...FAULT_KINDS].sort(() => r.next() - 0.5))
    emu.faults.add({ kind, probability: p, retryAfterSeconds: r.int(0, 1), delayMs: DELAY_MS })
  return 'mixed'
}

const errorsOf = (r: RunResult) => r.diagnostics.filter(d => d.severity === 'error')
const shape = (message: string) =>
  message
    .replace(/"[^"]*"/g, '"…"')
    .replace(/[0-9a-f]{24}/g, '<id>')
    .replace(/\d+(\.\d+)?/g, 'N')
    .slice(0, 160)

async function soakRun(i: number): Promise<void> {
  const r = prng(SEED + i * 7919)
  store.dashboards.clear()
  store.alerts.clear()
  emu.faults.clear()
  emu.clearLog()
  seedUnowned(r, i)
  const unowned = unownedSnapshot()
  const file = path.join(dir, 'observability', 'all.yaml')
  const check = (label: string) => {
    const dups = duplicates()
    if (dups.length > 0) {
      counts.duplicates += dups.length
      problem(i, `${label}: duplicates: ${dups.join('; ')}`)
    }
    if (unownedSnapshot() !== unowned) {
      counts.unownedTouched++
      problem(i, `${label}: a dashboard or alert the stack does not own was changed`)
    }
  }

  // The starting state.
  const before = randomManifests(r)
  writeFileSync(file, manifestText(before))
  const setup = await obsdeploy('apply', { 'request-timeout': '5', 'retry-budget': '10' })
  if ('threw' in setup || setup.exitCode !== 0) {
    counts.setupFailures++
    problem(
      i,
      `setup apply without faults failed: ${
        'threw' in setup
          ? setup.threw
          : errorsOf(setup)
              .map(d => d.message)
              .join('; ')
      }`
    )
    return
  }
  check('setup')
  const idsBefore = new Map(owned().map(d => [d.name, structuredClone(d)]))
  counts.requests += emu.requestLog.length
  emu.clearLog()

  // The change, under faults.
  const after = mutate(r, before)
  writeFileSync(file, manifestText(after))
  const faultMode = injectFaults(r)
  const settings: RawSettings = {
    prune: String(after.prune),
    concurrency: String(r.int(1, 4)),
    'request-timeout': args['request-timeout'],
    'retry-budget': args['retry-budget']
  }
  const first = await obsdeploy('apply', settings)
  emu.faults.clear()
  for (const e of emu.requestLog) {
    if (e.fault) {
      counts.faults[e.fault] = (counts.faults[e.fault] ?? 0) + 1
      counts.faultedRequests++
    }
  }
  counts.requests += emu.requestLog.length
  emu.clearLog()
  if ('threw' in first) {
    counts.runThrew++
    problem(i, `run() threw instead of reporting: ${first.threw}`)
  }
  check('faulty apply')

  let converged = false
  const firstOk = !('threw' in first) && first.exitCode === 0
  if (firstOk) {
    converged = true
  } else {
    if (!('threw' in first)) {
      const errs = errorsOf(first)
      if (errs.length === 0 || errs.some(d => d.message.trim() === '')) {
        counts.silentFailures++
        problem(i, `the apply failed (exit ${first.exitCode}) without an error that says why`)
      }
      for (const d of errs)
        counts.failureMessages.set(shape(d.message), (counts.failureMessages.get(shape(d.message)) ?? 0) + 1)
    }
    const rerun = await obsdeploy('apply', settings)
    counts.requests += emu.requestLog.length
    emu.clearLog()
    check('rerun')
    if ('threw' in rerun || rerun.exitCode !== 0) {
      counts.notConverged++
      problem(
        i,
        `the rerun without faults did not converge: ${
          'threw' in rerun
            ? rerun.threw
            : errorsOf(rerun)
                .map(d => d.message)
                .join('; ')
        }`
      )
    } else converged = true
  }
  if (converged) {
    const lost = lostChanges(after)
    if (lost.length > 0) {
      counts.lostChanges += lost.length
      problem(
        i,
        `${firstOk ? 'apply exited 0' : 'the rerun exited 0'} but changes are missing: ${lost.join('; ')}`
      )
    }
    const ids = lostIds(before, after, idsBefore)
    if (ids.length > 0) {
      counts.idsLost += ids.length
      problem(i, `ids not kept: ${ids.join('; ')}`)
    }
    const plan = await obsdeploy('plan', { prune: String(after.prune) })
    counts.requests += emu.requestLog.length
    emu.clearLog()
    const left =
      'threw' in plan
        ? [`threw: ${plan.threw}`]
        : (plan.plan?.changes ?? [])
            .filter(c => c.action !== 'noop' && !c.deferred)
            .map(c => `${c.action} ${c.address}`)
    if ('threw' in plan || plan.exitCode !== 0 || left.length > 0) {
      counts.planNotEmpty++
      problem(i, `the plan after convergence is not empty: ${left.join('; ')}`)
    }
    if (firstOk) counts.firstAttempt++
    else counts.failedThenConverged++
  }
  if (args.verbose)
    console.log(
      `run ${i}: faults ${faultMode}, prune ${after.prune}, ${after.dashboards.length} dashboards, ${after.alerts.length} alerts: ` +
        `${firstOk ? 'converged first' : converged ? 'failed, converged on rerun' : 'NOT converged'}`
    )
}

// ---------------------------------------------------------------------------------------------------------

let unhandled = 0
process.on('unhandledRejection', e => {
  unhandled++
  console.error('unhandled rejection:', e)
})

console.log(
  `soak: ${RUNS} runs, seed ${SEED}, emulator randomSeed ${EMULATOR_SEED}, faults ${FAULT_RATE * 100}% of requests ` +
    `(${FAULT_KINDS.join(', ')}; delay ${DELAY_MS} ms), request-timeout ${args['request-timeout']} s, retry-budget ${args['retry-budget']} s`
)
const started = Date.now()
let stoppedEarly = false
try {
  for (let i = 1; i <= RUNS; i++) {
    if ((Date.now() - started) / 1000 > MAX_SECONDS) {
      stoppedEarly = true
      break
    }
    counts.runs++
    await soakRun(i)
    if (!args.verbose && i % 20 === 0)
      console.log(
        `  ${i}/${RUNS} runs, ${((Date.now() - started) / 1000).toFixed(0)} s, ${problems.length} problem(s)`
      )
  }
} finally {
  await emu.close()
  rmSync(dir, { recursive: true, force: true })
}

const seconds = ((Date.now() - started) / 1000).toFixed(0)
console.log(`
soak finished in ${seconds} s (seed ${SEED}, emulator randomSeed ${EMULATOR_SEED})
  runs:                                  ${counts.runs}${stoppedEarly ? ` (stopped early: --max-seconds ${MAX_SECONDS})` : ''}
  converged in the first attempt:        ${counts.firstAttempt}
  failed first, converged on the rerun:  ${counts.failedThenConverged}
  did not converge on the rerun:         ${counts.notConverged}
  failed without saying why:             ${counts.silentFailures}
  run() threw:                           ${counts.runThrew}
  setup applies that failed (no faults): ${counts.setupFailures}
  plan not empty after convergence:      ${counts.planNotEmpty}
  duplicates:                            ${counts.duplicates}
  lost changes:                          ${counts.lostChanges}
  ids not kept (renamedFrom, tiles):     ${counts.idsLost}
  unowned resources touched:             ${counts.unownedTouched}
  unhandled rejections:                  ${unhandled}
  requests:                              ${counts.requests}
  faults injected:                       ${counts.faultedRequests} (${Object.entries(counts.faults)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ')})`)
if (counts.failureMessages.size > 0) {
  console.log('  why the failed first attempts failed (error shapes, most frequent first):')
  for (const [m, n] of [...counts.failureMessages].sort((a, b) => b[1] - a[1]).slice(0, 12))
    console.log(`    ${String(n).padStart(4)}  ${m}`)
}
const broken =
  counts.notConverged +
  counts.silentFailures +
  counts.runThrew +
  counts.setupFailures +
  counts.planNotEmpty +
  counts.duplicates +
  counts.lostChanges +
  counts.idsLost +
  counts.unownedTouched +
  unhandled
if (broken > 0) {
  console.log(`\nINVARIANTS BROKEN (${problems.length} problem(s)):`)
  for (const p of problems.slice(0, 40)) console.log(`  ${p}`)
  process.exitCode = 1
} else {
  console.log('\nall invariants held')
}
