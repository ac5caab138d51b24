/**
 * No behaviour change, checked: two builds of the CLI run the same commands on the bench fleets and the
 * examples, against the same emulator state, and what they print and the plan JSON they write must be
 * byte-identical (the plan's `createdAt` aside). For performance work: build the change to another folder
 * and compare it with the committed one.
 *
 *   npx tsx bench/same-output.ts BEFORE/cli/index.js AFTER/cli/index.js [dashboards]
 *
 * Exits 1 and names each case that differs.
 */
import { spawn } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { startEmulator } from '../emulator/index.js'
import { seedFleet, writeFleetManifests, type FleetShape } from './lib/fixtures.js'
import { writeUserRepo } from './lib/user-repo.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const [before, after, size] = process.argv.slice(2)
if (!before || !after) throw new Error('usage: same-output.ts BEFORE_CLI AFTER_CLI [dashboards]')
const n = Number(size ?? 300)
const emu = await startEmulator({ port: 0, rateLimits: { selfHosted: false, managed: false } })
const tmp = mkdtempSync(path.join(os.tmpdir(), 'same-output-'))
const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  OBSDEPLOY_API_KEY: emu.credentials.apiKey,
  OBSDEPLOY_SECRET_VARS: 'ONCALL_WEBHOOK_URL: https://hooks.example.com/oncall\nONCALL_TOKEN: bench-token'
}
const failures: string[] = []
let cases = 0

/** A child process, awaited (the emulator answers it from this process's event loop). */
function node(
  args: string[],
  cwd: string
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.once('error', reject)
    child.once('close', status => resolve({ status, stdout, stderr }))
  })
}

async function cli(bundle: string, cwd: string, args: string[]): Promise<{ out: string; plan: string }> {
  const out = path.join(tmp, 'plan.json')
  rmSync(out, { force: true })
  const api = ['--api-url', emu.url, '--stack', 'bench', '--rate-limit', 'off', '--out', out]
  const offline = args[0] === 'validate'
  const r = await node([path.resolve(bundle), ...args, ...(offline ? [] : api)], cwd)
  let plan = ''
  try {
    plan = readFileSync(out, 'utf8').replace(/"createdAt": "[^"]*"/, '"createdAt": ""')
  } catch {
    // validate writes none
  }
  return { out: `exit ${r.status}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`, plan }
}

/** Both builds, one after the other, on the same state (a plan writes nothing to the server). */
async function compare(name: string, cwd: string, args: string[]): Promise<void> {
  cases++
  const a = await cli(before!, cwd, args)
  const b = await cli(after!, cwd, args)
  const same = a.out === b.out && a.plan === b.plan
  if (!same) {
    failures.push(name)
    writeFileSync(path.join(tmp, `${cases}-before.txt`), `${a.out}\n${a.plan}`)
    writeFileSync(path.join(tmp, `${cases}-after.txt`), `${b.out}\n${b.plan}`)
  }
  console.log(`${same ? 'same' : 'DIFFERENT'}: ${name} (${a.out.length + a.plan.length} bytes)`)
}

const clear = () => {
  emu.selfHosted.dashboards.clear()
  emu.selfHosted.alerts.clear()
}

try {
  // The examples: against an empty store (creates), and validate, broken ones included.
  const examples = path.join(tmp, 'examples')
  cpSync(path.join(ROOT, 'examples'), examples, { recursive: true })
  for (const folder of ['observability', 'alerting', 'broken', 'managed'])
    await compare(`validate examples/${folder}`, examples, ['validate', folder])
  await compare('plan examples/observability, empty store', examples, ['plan', 'observability'])
  await compare('plan examples/alerting, empty store', examples, ['plan', 'alerting'])

  // The old bench fleet, converged, then with one tile changed and one dashboard gone.
  const shape: FleetShape = { dashboards: n, tilesPerDashboard: 8, alertsPerDashboard: 2, stack: 'bench' }
  const fleet = path.join(tmp, 'fleet')
  mkdirSync(fleet)
  writeFleetManifests(fleet, shape)
  seedFleet(emu.selfHosted, shape)
  await compare('plan bench fleet, converged', fleet, ['plan', 'observability'])
  const first = path.join(fleet, 'observability', 's0.yaml')
  writeFileSync(
    first,
    readFileSync(first, 'utf8').replace('service:s1 AND level:l3', 'service:s1 AND level:l4')
  )
  await compare('plan bench fleet, one tile changed', fleet, ['plan', 'observability', '--prune'])
  clear()

  // The user-shaped repository: against an empty store, then converged, then with changes.
  const user = path.join(tmp, 'user')
  mkdirSync(user)
  writeUserRepo(user, n)
  await compare('plan user repository, empty store', user, ['plan', 'observability'])
  await compare('validate user repository', user, ['validate', 'observability'])
  const applied = await node(
    [
      path.resolve(before),
      'apply',
      'observability',
      '--api-url',
      emu.url,
      '--stack',
      'bench',
      '--rate-limit',
      'off'
    ],
    user
  )
  if (applied.status !== 0) throw new Error(`apply failed: ${applied.stdout.slice(-2000)}${applied.stderr}`)
  await compare('plan user repository, converged', user, ['plan', 'observability'])
  const one = path.join(user, 'observability', 'payments', 'svc-0.yaml')
  writeFileSync(
    one,
    readFileSync(one, 'utf8')
      .replace('duration:[100 TO 1000]', 'duration:[100 TO 2000]')
      .replace('threshold: 5', 'threshold: 6')
  )
  rmSync(path.join(user, 'observability', 'search', 'svc-1.yaml'))
  writeFileSync(
    path.join(user, 'observability', 'search', 'bad.yaml'),
    "kind: Dashboard\nname: x\ntiles:\n  - name: a\n    series: [{ type: time, source: Logs, aggFn: count, where: 'a:(b' }]\n"
  )
  await compare('plan user repository, changed, a file gone, a broken one', user, [
    'plan',
    'observability',
    '--prune'
  ])
  rmSync(path.join(user, 'observability', 'search', 'bad.yaml'))
  await compare('plan user repository, changed, prune', user, ['plan', 'observability', '--prune'])
} finally {
  await emu.close()
}
console.log(`${cases - failures.length} of ${cases} cases byte-identical`)
if (failures.length > 0) {
  console.log(`different: ${failures.join('; ')} (outputs kept in ${tmp})`)
  process.exitCode = 1
} else rmSync(tmp, { recursive: true, force: true })
