/**
 * 1. Plan at scale: 1,000 dashboards of 8 tiles and 2,000 alerts, all unchanged. The headline is a cold
 * `obsdeploy plan` process (the CLI bundle, as a user runs it) against the fair baseline process
 * (bench/fair-baseline.mjs: the same list calls, JSON.parse, and js-yaml of the same files). In-process
 * figures say where the rest goes.
 */
import { copyFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { createApi } from '../../src/api/client.js'
import { loadManifests } from '../../src/manifest/load.js'
import { readLiveState } from '../../src/live/read.js'
import { run } from '../../src/run/run.js'
import { readListsPlain, readManifestsPlain, readPerResource } from '../lib/baselines.js'
import { describeShares, profileBundleRun } from '../lib/bundle-profile.js'
import { runNode, usageSource, type ChildResult } from '../lib/child.js'
import { configFor } from '../lib/config.js'
import { startRemoteEmulator, type RemoteEmulator } from '../lib/remote.js'
import { ROOT, scratch, type BenchContext } from '../lib/context.js'
import { writeFleetManifests, type FleetShape } from '../lib/fixtures.js'
import {
  interleave,
  list,
  median,
  medMin,
  ms,
  paired,
  pairedRatio,
  ratio,
  ratioRow,
  rounds as roundsOf,
  type Section
} from '../lib/stats.js'

const PER_RESOURCE_CONCURRENCY = 16
const COLD_PLAN_GOAL = 1.3
/** The secret variables examples/alerting names. */
const NEW_KINDS_SECRETS = 'ONCALL_WEBHOOK_URL: https://hooks.example.com/oncall\nONCALL_TOKEN: bench-token'

/** The routes a plan read (each list once; a long list reads more pages of the same route). */
const routesOf = (log: { method: string; path: string }[]): string[] => [
  ...new Set(log.map(r => `${r.method} ${r.path.replace(/\?.*$/, '')}`))
]

export async function planAtScale(ctx: BenchContext): Promise<Section> {
  const { emu } = ctx
  const shape: FleetShape = {
    dashboards: ctx.quick ? 200 : 1000,
    tilesPerDashboard: 8,
    alertsPerDashboard: 2,
    stack: 'bench'
  }
  const section: Section = {
    title: `1. Plan at scale: ${shape.dashboards} dashboards × ${shape.tilesPerDashboard} tiles + ${shape.dashboards * shape.alertsPerDashboard} alerts`,
    method:
      'Seeded in the emulator (its own process, rate limits off) and identical to the manifests (10 files of 100 ' +
      'dashboards), so the plan is empty. **Cold plan** = `node dist/cli/index.js plan observability --api-url … ' +
      '--rate-limit off` in a child process, as a user runs it; **fair baseline** = `node bench/fair-baseline.mjs`, a ' +
      'plain node process that downloads the same lists (the routes of the plan’s own request log, the same ' +
      'pagination, `fetch`), `JSON.parse`s them, and reads and js-yaml-parses the same files; `node -e 0` beside ' +
      `them. Wall time of each process; CPU time (user + system) from ${usageSource}. Ratios ` +
      'are per interleaved pair (round r of one beside round r of the other): median and min. **Warm** = the same ' +
      'comparison in-process (`run()` against the same reads with undici and js-yaml), after warm-up. Requests ' +
      'come from the emulator’s log.',
    rows: [],
    raw: [],
    notes: []
  }

  // Requests of a plan at two sizes: one list per kind, whatever N.
  const counts: { n: number; requests: number; routes: string[]; withKinds: number }[] = []
  let dir = ''
  let glob = ''
  for (const n of ctx.quick ? [20, shape.dashboards] : [100, shape.dashboards]) {
    const sized = { ...shape, dashboards: n }
    dir = scratch(ctx, `plan-scale-${n}`)
    glob = writeFleetManifests(dir, sized)
    await emu.reset()
    await emu.seed(sized)
    await emu.clearLog()
    expectEmpty(await run(configFor(emu, dir, 'plan', { manifests: glob })))
    const log = await emu.log()
    // The same plan with manifests of the newer kinds beside the fleet (webhooks, saved searches, raw-SQL
    // tiles on a connection, alerts on a saved search): examples/alerting, whose creates it plans.
    const extra = path.join(dir, 'observability', 'new-kinds.yaml')
    copyFileSync(path.join(ROOT, 'examples', 'alerting', 'alerting.yaml'), extra)
    await emu.clearLog()
    const withKinds = await run(
      configFor(emu, dir, 'plan', { manifests: glob, 'secret-vars': NEW_KINDS_SECRETS })
    )
    rmSync(extra)
    if (withKinds.exitCode !== 0)
      throw new Error(
        `the plan with the newer kinds failed: ${withKinds.diagnostics.map(d => d.message).join('; ')}`
      )
    const kindsLog = await emu.log()
    counts.push({ n, requests: log.length, routes: routesOf(log), withKinds: kindsLog.length })
    section.raw.push(
      `requests of a plan of ${n} dashboards: ${log.map(r => `${r.method} ${r.path} ${r.status}`).join(', ')}`,
      `requests of a plan of ${n} dashboards and examples/alerting: ${kindsLog.map(r => `${r.method} ${r.path} ${r.status}`).join(', ')}`
    )
  }
  const [small, large] = [counts[0]!, counts[1]!]
  // Constant in N: the same routes, one list per kind, at both sizes (a read per record would add routes).
  // A list longer than the server's page (FACTS.md: 1,000) takes one more request per page, as any client's.
  const constant = JSON.stringify(small.routes) === JSON.stringify(large.routes)
  const pages = (c: { requests: number; routes: string[] }) => c.requests - c.routes.length
  // Besides the lists, one question: whether the server's MCP endpoint can patch dashboards (api/mcp.ts).
  const onlyLists = large.routes.every(r => r.startsWith('GET ') || r === 'POST /mcp')
  section.rows.push({
    figure: `plan requests, ${large.n} dashboards + ${large.n * 2} alerts (and at ${small.n}; and with the newer kinds)`,
    measured:
      `${large.requests} at ${large.n} (${large.routes.length} lists + ${pages(large)} more page(s) of lists longer than 1,000), ${small.requests} at ${small.n}: ${large.routes.map(r => r.replace('/api/v2', '')).join(', ')}; ` +
      `with examples/alerting beside them (webhooks, saved searches, a raw-SQL tile on a connection): ${large.withKinds} at ${large.n}, ${small.withKinds} at ${small.n}`,
    goal: '≤ 10, constant in N (one list per kind; pages of 1,000)',
    pass: Math.max(large.requests, large.withKinds) <= 10 && constant && onlyLists,
    headline: { left: constant ? 'more than 10 requests' : 'the routes read grow with N' }
  })

  // The cold plan process against the fair baseline process.
  const config = configFor(emu, dir, 'plan', { manifests: glob })
  const cli = path.join(ROOT, 'dist', 'cli', 'index.js')
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, OBSDEPLOY_API_KEY: emu.credentials.apiKey }
  const planArgs = [
    cli,
    'plan',
    'observability',
    '--api-url',
    emu.url,
    '--stack',
    'bench',
    '--rate-limit',
    'off',
    '--out',
    path.join(dir, 'cli-plan.json')
  ]
  const baselineArgs = [
    path.join(ROOT, 'bench', 'fair-baseline.mjs'),
    path.join(dir, 'observability'),
    emu.url,
    emu.credentials.apiKey,
    ...large.routes.map(r => r.replace(/^GET /, ''))
  ]
  const child = (args: string[]) => async () => {
    const r = await runNode(args, { cwd: dir, env, usage: true })
    if (r.code !== 0) throw new Error(`${args[0]} exited ${r.code}: ${r.stderr.slice(-1500)}`)
    return r
  }
  const cpu: Record<string, number[]> = { plan: [], baseline: [], empty: [] }
  const sides = {
    plan: child(planArgs),
    baseline: child(baselineArgs),
    empty: child(['-e', '0'])
  }
  const first = await sides.baseline()
  section.raw.push(`fair baseline read: ${first.stdout.trim()}`)
  await sides.plan()
  const coldRounds = roundsOf(ctx.quick, 9)
  ctx.log(`  cold plan process: ${coldRounds} interleaved rounds`)
  const cold = await interleave(
    coldRounds,
    Object.fromEntries(
      Object.entries(sides).map(([name, fn]) => [
        name,
        {
          run: async () => {
            const r: ChildResult = await fn()
            cpu[name]!.push(r.cpuMs ?? NaN)
          }
        }
      ])
    )
  )
  const coldCpu = pairedRatio(cpu.plan!, cpu.baseline!)
  const profile = await profileBundleRun(planArgs, { cwd: dir, env })
  section.rows.push(
    ratioRow({
      figure: 'cold plan process / fair baseline process, wall',
      a: cold.plan!,
      b: cold.baseline!,
      goal: { atMost: COLD_PLAN_GOAL },
      left: r =>
        `${ratio(r.median / COLD_PLAN_GOAL)} over the goal (${ms(median(cold.plan!) - COLD_PLAN_GOAL * median(cold.baseline!))} too slow); the plan process's CPU profile: ${describeShares(profile)}`
    })
  )
  section.rows.push({
    figure: 'cold plan process / fair baseline process, CPU (user + system)',
    measured: `${paired(coldCpu)}: ${medMin(cpu.plan!)} vs ${medMin(cpu.baseline!)}`,
    goal: 'info (the wall figure is the goal)'
  })
  section.rows.push({
    figure: 'node start-up in each: `node -e 0`',
    measured: `wall ${medMin(cold.empty!)}, CPU ${medMin(cpu.empty!)}`,
    goal: 'info'
  })
  section.rows.push({
    figure: 'where the cold plan process spends its CPU (one profiled run, self time)',
    measured: describeShares(profile, 12),
    goal: 'diagnostic'
  })
  section.raw.push(
    ...Object.entries(cold).map(
      ([k, v]) =>
        `cold ${k}: wall median ${ms(median(v))}; samples ms [${list(v)}]; CPU ms [${list(cpu[k]!)}]`
    ),
    `profile of the cold plan: ${profile.map(p => `${p.what} ${ms(p.ms)}`).join(', ')}`
  )

  // Warm, in-process: the tool's plan against the same reads done plainly, and per-resource reading.
  await readListsPlain(emu)
  await readManifestsPlain(path.join(dir, 'observability'))
  await emu.clearLog()
  await readPerResource(emu, PER_RESOURCE_CONCURRENCY)
  const perResourceRequests = (await emu.log()).length
  const warmRounds = roundsOf(ctx.quick, 9)
  ctx.log(`  warm plan in-process: ${warmRounds} interleaved rounds`)
  const warm = await interleave(warmRounds, {
    ours: { run: async () => expectEmpty(await run(config)) },
    fair: {
      run: () => Promise.all([readListsPlain(emu), readManifestsPlain(path.join(dir, 'observability'))])
    },
    perResource: { run: () => readPerResource(emu, PER_RESOURCE_CONCURRENCY) },
    oursRead: {
      run: async () => {
        const api = createApi(config)
        try {
          await readLiveState(api, { service: false })
        } finally {
          await api.close()
        }
      }
    },
    oursLoad: { run: () => loadManifests({ patterns: [glob], cwd: dir, mode: 'self-hosted' }) }
  })
  const warmRatio = pairedRatio(warm.ours!, warm.fair!)
  section.rows.push({
    figure: 'warm plan in-process / the same reads in-process (lists + JSON.parse + js-yaml)',
    measured: `${paired(warmRatio)}: ${medMin(warm.ours!)} vs ${medMin(warm.fair!)}`,
    goal: 'diagnostic'
  })
  section.rows.push({
    figure: 'our live read alone (list calls + response schemas) / plain list calls',
    measured: `${paired(pairedRatio(warm.oursRead!, warm.fair!))} of the whole fair read: ${medMin(warm.oursRead!)}`,
    goal: 'diagnostic'
  })
  section.rows.push({
    figure: 'manifest loading (YAML + validation) alone, share of the warm plan',
    measured: `${((median(warm.oursLoad!) / median(warm.ours!)) * 100).toFixed(0)}%: ${medMin(warm.oursLoad!)} of ${ms(median(warm.ours!))}`,
    goal: 'diagnostic'
  })
  const perResource = pairedRatio(warm.perResource!, warm.ours!)
  section.rows.push({
    figure: 'per-resource reader (lists, then one GET per dashboard and alert) / our whole plan, loopback',
    measured: `${paired(perResource)}; ${perResourceRequests} requests vs ${large.requests}`,
    goal: 'ours faster (> 1x)',
    pass: perResource.median > 1
  })
  section.raw.push(
    ...Object.entries(warm).map(([k, v]) => `warm ${k}: median ${ms(median(v))}; samples ms [${list(v)}]`)
  )

  // The same against a server 20 ms away (the emulator's latencyMs), as a real API would be.
  const latencyMs = 20
  const far: RemoteEmulator = await startRemoteEmulator({ latencyMs })
  try {
    await far.seed({ ...shape, dashboards: large.n })
    const farConfig = configFor(far, dir, 'plan', { manifests: glob })
    expectEmpty(await run(farConfig))
    const farRounds = roundsOf(ctx.quick, 7)
    ctx.log(`  plan against a server ${latencyMs} ms away: ${farRounds} interleaved rounds`)
    const farSamples = await interleave(farRounds, {
      ours: { run: async () => expectEmpty(await run(farConfig)) },
      perResource: { run: () => readPerResource(far, PER_RESOURCE_CONCURRENCY) }
    })
    const r = pairedRatio(farSamples.perResource!, farSamples.ours!)
    section.rows.push({
      figure: `per-resource reader / our whole plan, server ${latencyMs} ms away`,
      measured: `${paired(r)}: ${medMin(farSamples.perResource!)} vs ${medMin(farSamples.ours!)}`,
      goal: 'ours far faster (> 1x)',
      pass: r.median > 1
    })
    section.raw.push(
      ...Object.entries(farSamples).map(
        ([k, v]) => `latency ${latencyMs} ms, ${k}: median ${ms(median(v))}; samples ms [${list(v)}]`
      )
    )
  } finally {
    await far.close()
  }
  // Computed, not measured: the default self-hosted pacing of 100 requests a minute.
  const paced = (n: number) => Math.max(0, Math.ceil(n / 100) - 1) * 60_000
  section.rows.push({
    figure: 'waiting for the rate limit at 100 requests/min (computed from the request counts)',
    measured: `ours ${ms(paced(large.requests))} (${large.requests} requests), per-resource ${ms(paced(perResourceRequests))} (${perResourceRequests} requests)`,
    goal: 'info'
  })
  return section
}

function expectEmpty(result: {
  exitCode: number
  diagnostics: { message: string }[]
  plan?: { changes: { action: string }[] }
}): void {
  const changes = result.plan?.changes.filter(c => c.action !== 'noop').length ?? 0
  if (result.exitCode !== 0 || changes !== 0)
    throw new Error(
      `the plan was expected to be empty: exit ${result.exitCode}, ${changes} change(s): ${result.diagnostics.map(d => d.message).join('; ')}`
    )
}
