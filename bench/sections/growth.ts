/**
 * 5. Memory and growth: plans of 1,000, 5,000 and 10,000 unchanged dashboards (8 tiles, 2 alerts each).
 * Each size has its own emulator child, so the sizes are measured interleaved, round after round. Time
 * is the in-process plan; memory is the peak RSS of the CLI bundle's plan process and the heap the plan
 * retains (bench/plan-child.ts, after a full GC).
 */
import path from 'node:path'
import { run } from '../../src/run/run.js'
import { runNode, usageSource } from '../lib/child.js'
import { configFor } from '../lib/config.js'
import { ROOT, scratch, type BenchContext } from '../lib/context.js'
import { writeFleetManifests, type FleetShape } from '../lib/fixtures.js'
import { startRemoteEmulator, type RemoteEmulator } from '../lib/remote.js'
import {
  list,
  mb,
  median,
  medMin,
  min,
  ms,
  ratio,
  rounds as roundsOf,
  timed,
  type Section
} from '../lib/stats.js'

const RSS_GOAL_MB = 200
/** The size of the memory goal (5,000 dashboards + 10,000 alerts). */
const MEMORY_SIZE = 5000

interface Size {
  n: number
  emu: RemoteEmulator
  dir: string
  glob: string
  samples: number[]
  rss: number[]
  heap?: Record<string, number>
  phases?: { load: number; read: number; compute: number }
}

export async function growth(ctx: BenchContext): Promise<Section> {
  const ns = ctx.quick ? [100, 500, 1000] : [1000, MEMORY_SIZE, 10000]
  const memorySize = ctx.quick ? 500 : MEMORY_SIZE
  const section: Section = {
    title: `5. Memory and growth: ${ns.join(', ')} dashboards`,
    method:
      `Plans of ${ns.join(', ')} unchanged dashboards of 8 tiles with 2 alerts each, one emulator child per size. ` +
      '**Time**: `run()` with command plan, in-process, the sizes interleaved round after round; per dashboard, ' +
      `and as a ratio to the per-dashboard time at ${ns[0]} (1.00 = linear). **Peak RSS**: the CLI bundle's plan ` +
      `(\`node dist/cli/index.js plan\`) in a child process, from ${usageSource}. **Retained ` +
      'heap**: bench/plan-child.ts (tsx, `--expose-gc`) runs the phases one by one and measures the heap in use ' +
      'after `global.gc()` once the plan is made, with the manifests, the live state and the plan all still ' +
      'referenced; it also times each phase (loadManifests, readLiveState, computePlan) once.',
    rows: [],
    raw: [],
    notes: []
  }
  const sizes: Size[] = []
  const cli = path.join(ROOT, 'dist', 'cli', 'index.js')
  try {
    for (const n of ns) {
      const emu = await startRemoteEmulator()
      const shape: FleetShape = { dashboards: n, tilesPerDashboard: 8, alertsPerDashboard: 2, stack: 'bench' }
      const dir = scratch(ctx, `growth-${n}`)
      const glob = writeFleetManifests(dir, shape)
      await emu.seed(shape)
      sizes.push({ n, emu, dir, glob, samples: [], rss: [] })
    }
    const planOnce = async (s: Size) => {
      const result = await run(configFor(s.emu, s.dir, 'plan', { manifests: s.glob }))
      const changes = result.plan?.changes.filter(c => c.action !== 'noop').length
      if (result.exitCode !== 0 || changes !== 0)
        throw new Error(
          `plan of ${s.n}: exit ${result.exitCode}, ${changes} change(s): ${result.diagnostics.map(d => d.message).join('; ')}`
        )
    }
    const rssOnce = async (s: Size) => {
      const env = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        OBSDEPLOY_API_KEY: s.emu.credentials.apiKey
      }
      const args = [
        ...[cli, 'plan', 'observability', '--api-url', s.emu.url],
        ...['--stack', 'bench', '--rate-limit', 'off', '--out', path.join(s.dir, 'cli-plan.json')]
      ]
      const r = await runNode(args, { cwd: s.dir, env, usage: true })
      if (r.code !== 0 || r.maxRss === undefined)
        throw new Error(`CLI plan of ${s.n} exited ${r.code}: ${r.stderr.slice(-1500)}`)
      s.rss.push(r.maxRss)
    }
    await planOnce(sizes[0]!) // warm-up (JIT)

    const rounds = roundsOf(ctx.quick, 7)
    ctx.log(`  growth: ${rounds} interleaved rounds over ${ns.join(', ')} (in-process time, CLI peak RSS)`)
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < sizes.length; k++) {
        const s = sizes[(r + k) % sizes.length]!
        s.samples.push((await timed(() => planOnce(s))).ms)
        // Peak RSS: every round at the goal's size, once at the others (info only).
        if (s.n === memorySize || r === 0) await rssOnce(s)
      }
    }
    for (const s of sizes) {
      const heapChild = await runNode(
        [
          '--expose-gc',
          '--import',
          'tsx',
          path.join(ROOT, 'bench', 'plan-child.ts'),
          s.dir,
          s.emu.url,
          s.emu.credentials.apiKey
        ],
        { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME } }
      )
      const line = heapChild.stdout.trim().split('\n').pop() ?? ''
      if (heapChild.code !== 0 || !line.startsWith('{'))
        throw new Error(`the heap child of ${s.n} failed: ${heapChild.stderr.slice(-1000)}`)
      s.heap = JSON.parse(line) as Record<string, number>
      section.raw.push(`${s.n}: heap by phase ${line}`)

      const phases = JSON.parse(line) as { ms: { load: number; read: number; compute: number } }
      s.phases = phases.ms
    }
  } finally {
    for (const s of sizes) await s.emu.close()
  }

  const at = (n: number) => sizes.find(s => s.n === n)!
  const mem = at(memorySize)
  const peak = median(mem.rss)
  const heapPer1000 = (mem.heap!.total! / mem.n) * 1000
  section.rows.push({
    figure: `peak RSS, plan of ${memorySize} dashboards + ${memorySize * 2} alerts (CLI bundle)`,
    measured: `${medMin(mem.rss, mb)} over ${mem.rss.length} runs; retained heap after GC ${mb(mem.heap!.total!)} (${mb(heapPer1000)} per 1,000 dashboards: manifests ${mb(mem.heap!.manifests!)}, live state ${mb(mem.heap!.live!)}, plan ${mb(mem.heap!.plan!)})`,
    goal: `< ${RSS_GOAL_MB} MB`,
    pass: peak < RSS_GOAL_MB * 2 ** 20,
    headline: {
      left: `${mb(peak - RSS_GOAL_MB * 2 ** 20)} over; of the peak, ${mb(mem.heap!.total!)} is the heap the plan retains (manifests ${mb(mem.heap!.manifests!)}, live state ${mb(mem.heap!.live!)}, plan ${mb(mem.heap!.plan!)}); the rest is garbage not yet collected and node itself`
    }
  })

  const base = sizes[0]!
  const perDash = (s: Size) => median(s.samples) / s.n
  const heapPerDash = (s: Size) => s.heap!.total! / s.n
  for (const s of sizes) {
    section.rows.push({
      figure: `${s.n} dashboards (${s.n * 2} alerts)`,
      measured:
        `time ${medMin(s.samples)}, ${ms(perDash(s))} per dashboard (${ratio(perDash(s) / perDash(base))} of ${base.n}'s); ` +
        `peak RSS ${medMin(s.rss, mb)}; ` +
        `retained heap ${mb(s.heap!.total!)}, ${((heapPerDash(s) / 1024) | 0).toLocaleString('en')} kB per dashboard (${ratio(heapPerDash(s) / heapPerDash(base))}); ` +
        `phases per dashboard: load ${ms(s.phases!.load / s.n)}, read ${ms(s.phases!.read / s.n)}, compute ${ms(s.phases!.compute / s.n)}`,
      goal: 'info'
    })
    section.raw.push(
      `${s.n}: time median ${ms(median(s.samples))}; samples ms [${list(s.samples)}]; peak RSS MB [${s.rss.map(b => (b / 2 ** 20).toFixed(0)).join(', ')}]; phases ms: load ${ms(s.phases!.load)}, read ${ms(s.phases!.read)}, compute ${ms(s.phases!.compute)}`
    )
  }
  const big = sizes[sizes.length - 1]!
  const timeGrowth = perDash(big) / perDash(base)
  const heapGrowth = heapPerDash(big) / heapPerDash(base)
  const worstTime = sizes.reduce((w, s) => Math.max(w, perDash(s) / perDash(base)), 0)
  const bestTime = min(sizes.slice(1).map(s => perDash(s) / perDash(base)))
  section.rows.push({
    figure: `growth of per-dashboard time, ${base.n} → ${big.n}`,
    measured: sizes.map(s => `${s.n}: ${ratio(perDash(s) / perDash(base))}`).join(', '),
    goal: 'linear (≤ 1.15x per dashboard at every size)',
    pass: worstTime <= 1.15,
    headline: {
      left: `${ratio(timeGrowth)} per dashboard at ${big.n} (best ${ratio(bestTime)}); the phases at ${big.n} vs ${base.n} per dashboard: load ${ratio(big.phases!.load / big.n / (base.phases!.load / base.n))}, read ${ratio(big.phases!.read / big.n / (base.phases!.read / base.n))}, compute ${ratio(big.phases!.compute / big.n / (base.phases!.compute / base.n))}`
    }
  })
  section.rows.push({
    figure: `growth of per-dashboard memory (retained heap), ${base.n} → ${big.n}`,
    measured: sizes.map(s => `${s.n}: ${ratio(heapPerDash(s) / heapPerDash(base))}`).join(', '),
    goal: 'linear (retained heap ≤ 1.15x per dashboard at every size)',
    pass: sizes.every(s => heapPerDash(s) / heapPerDash(base) <= 1.15),
    headline: { left: `retained heap per dashboard ${ratio(heapGrowth)} at ${big.n}` }
  })
  return section
}
