/**
 * 5. Memory and growth: plans of 1,000, 5,000 and 10,000 unchanged dashboards (8 tiles, 2 alerts each).
 * Each size has its own emulator child, so the sizes are measured interleaved, round after round. Time
 * is the in-process plan; memory is the peak RSS of the CLI bundle's plan process and the heap the plan
 * retains (bench/plan-child.ts, after a full GC), both on each Node of `--node`.
 */
import path from 'node:path'
import { run } from '../../src/run/run.js'
import { runNode, usageSource, type NodeBinary } from '../lib/child.js'
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
  paired,
  pairedRatio,
  ratio,
  rounds as roundsOf,
  timed,
  type Section
} from '../lib/stats.js'

/** Issue 38: peak RSS at 5,000 dashboards + 10,000 alerts, on Node 20. */
const RSS_GOAL_MB = 250
const RSS_GOAL_NODE = 20
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} kB`
/** The size of the memory goal (5,000 dashboards + 10,000 alerts). */
const MEMORY_SIZE = 5000
/** A plan of 10,000 dashboards takes minutes on a busy machine (20 minutes seen at a load average of 18). */
const CHILD_TIMEOUT_MS = 1_800_000
/** Retained heap per dashboard is flat when no size keeps more per dashboard than this times the smallest's. */
const FLAT = 1.15

type Heap = Record<string, number>

interface Size {
  n: number
  emu: RemoteEmulator
  dir: string
  glob: string
  samples: number[]
  /** Peak RSS of the CLI's plan, by node (index in ctx.nodes). */
  rss: number[][]
  /** bench/plan-child.ts's figures, by node. */
  heap: Heap[]
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
      `(\`node dist/cli/index.js plan\`) in a child process, from ${usageSource}, on each Node of \`--node\`. ` +
      '**Retained heap**: bench/plan-child.ts (tsx, `--expose-gc`), on each Node, runs the phases one by one and ' +
      'measures the heap in use after `global.gc()` once the plan is made, with the manifests, the live state ' +
      'and the plan all still referenced, less the heap in use before the first phase; per dashboard, it is flat ' +
      `when no size keeps more than ${FLAT}x the smallest size's per dashboard; the marginal figure is the ` +
      'heap one more dashboard adds between two sizes. It also times each phase (loadManifests, readLiveState, ' +
      'computePlan) once.',
    rows: [],
    raw: [],
    notes: []
  }
  const sizes: Size[] = []
  const cli = path.join(ROOT, 'dist', 'cli', 'index.js')
  const otherCli = ctx.compareDist ? path.join(path.resolve(ctx.compareDist), 'cli', 'index.js') : undefined
  /** `--compare-dist`: the other build's peak RSS at the goal's size, by node, in the same rounds. */
  const otherRss: number[][] = ctx.nodes.map(() => [])
  try {
    for (const n of ns) {
      const emu = await startRemoteEmulator()
      const shape: FleetShape = { dashboards: n, tilesPerDashboard: 8, alertsPerDashboard: 2, stack: 'bench' }
      const dir = scratch(ctx, `growth-${n}`)
      const glob = writeFleetManifests(dir, shape)
      await emu.seed(shape)
      sizes.push({ n, emu, dir, glob, samples: [], rss: ctx.nodes.map(() => []), heap: [] })
    }
    const planOnce = async (s: Size) => {
      const result = await run(configFor(s.emu, s.dir, 'plan', { manifests: s.glob }))
      const changes = result.plan?.changes.filter(c => c.action !== 'noop').length
      if (result.exitCode !== 0 || changes !== 0)
        throw new Error(
          `plan of ${s.n}: exit ${result.exitCode}, ${changes} change(s): ${result.diagnostics.map(d => d.message).join('; ')}`
        )
    }
    const rssOnce = async (s: Size, node: NodeBinary, i: number, bundle = cli, into = s.rss[i]!) => {
      const env = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        OBSDEPLOY_API_KEY: s.emu.credentials.apiKey
      }
      const args = [
        ...[bundle, 'plan', 'observability', '--api-url', s.emu.url],
        ...['--stack', 'bench', '--rate-limit', 'off', '--out', path.join(s.dir, 'cli-plan.json')]
      ]
      const r = await runNode(args, {
        cwd: s.dir,
        env,
        usage: true,
        node: node.path,
        timeoutMs: CHILD_TIMEOUT_MS
      })
      if (r.code !== 0 || r.maxRss === undefined)
        throw new Error(`CLI plan of ${s.n} on ${node.label} exited ${r.code}: ${r.stderr.slice(-1500)}`)
      into.push(r.maxRss)
    }
    await planOnce(sizes[0]!) // warm-up (JIT)

    const rounds = roundsOf(ctx.quick, 7)
    ctx.log(`  growth: ${rounds} interleaved rounds over ${ns.join(', ')} (in-process time, CLI peak RSS)`)
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < sizes.length; k++) {
        const s = sizes[(r + k) % sizes.length]!
        s.samples.push((await timed(() => planOnce(s))).ms)
        // Peak RSS: every round at the goal's size, once at the others (info only); on each Node.
        if (s.n === memorySize || r === 0)
          for (const [i, node] of ctx.nodes.entries()) {
            const other = otherCli && s.n === memorySize
            // With another build beside this one, which goes first alternates round by round.
            if (other && r % 2 === 1) await rssOnce(s, node, i, otherCli, otherRss[i])
            await rssOnce(s, node, i)
            if (other && r % 2 === 0) await rssOnce(s, node, i, otherCli, otherRss[i])
          }
      }
    }
    for (const [i, node] of ctx.nodes.entries())
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
          {
            cwd: ROOT,
            env: { PATH: process.env.PATH, HOME: process.env.HOME },
            node: node.path,
            timeoutMs: CHILD_TIMEOUT_MS
          }
        )
        const line = heapChild.stdout.trim().split('\n').pop() ?? ''
        if (heapChild.code !== 0 || !line.startsWith('{'))
          throw new Error(
            `the heap child of ${s.n} on ${node.label} failed: ${heapChild.stderr.slice(-1000)}`
          )
        s.heap[i] = JSON.parse(line) as Heap
        section.raw.push(`${s.n}, ${node.label}: heap by phase ${line}`)
        if (i === 0)
          s.phases = (JSON.parse(line) as { ms: { load: number; read: number; compute: number } }).ms
      }
  } finally {
    for (const s of sizes) await s.emu.close()
  }

  const at = (n: number) => sizes.find(s => s.n === n)!
  const mem = at(memorySize)
  for (const [i, node] of ctx.nodes.entries()) {
    const peak = median(mem.rss[i]!)
    const heap = mem.heap[i]!
    const heapPer1000 = (heap.total! / mem.n) * 1000
    const goal = node.major === RSS_GOAL_NODE
    section.rows.push({
      figure: `peak RSS, plan of ${memorySize} dashboards + ${memorySize * 2} alerts (CLI bundle), ${node.label}`,
      measured: `${medMin(mem.rss[i]!, mb)} (max ${mb(Math.max(...mem.rss[i]!))}) over ${mem.rss[i]!.length} runs; retained heap after GC ${mb(heap.total!)} (${mb(heapPer1000)} per 1,000 dashboards: manifests ${mb(heap.manifests!)}, live state ${mb(heap.live!)}, plan ${mb(heap.plan!)})`,
      goal: goal ? `≤ ${RSS_GOAL_MB} MB` : `info (the goal is on Node ${RSS_GOAL_NODE})`,
      pass: goal ? peak <= RSS_GOAL_MB * 2 ** 20 : undefined,
      headline: goal
        ? {
            restated: true,
            left: `${mb(peak - RSS_GOAL_MB * 2 ** 20)} over; of the peak, ${mb(heap.total!)} is the heap the plan retains (manifests ${mb(heap.manifests!)}, live state ${mb(heap.live!)}, plan ${mb(heap.plan!)}); the rest is garbage not yet collected and node itself`
          }
        : undefined
    })
  }
  if (otherCli)
    for (const [i, node] of ctx.nodes.entries())
      section.rows.push({
        figure: `this build / ${ctx.compareDist}, peak RSS at ${memorySize}, ${node.label}`,
        measured: `${paired(pairedRatio(mem.rss[i]!, otherRss[i]!))}: ${medMin(mem.rss[i]!, mb)} vs ${medMin(otherRss[i]!, mb)}`,
        goal: 'info (lower is better)'
      })
  for (const [i, node] of ctx.nodes.entries()) {
    const per = (s: Size) => s.heap[i]!.total! / s.n
    const first = sizes[0]!
    const growthOf = sizes.map(s => per(s) / per(first))
    const marginal = sizes
      .slice(1)
      .map((s, k) => {
        const prev = sizes[k]!
        return `${prev.n} → ${s.n}: ${kb((s.heap[i]!.total! - prev.heap[i]!.total!) / (s.n - prev.n))}`
      })
      .join(', ')
    section.rows.push({
      figure: `memory retained per dashboard (heap after a full GC), ${sizes.map(s => s.n).join(' / ')}, ${node.label}`,
      measured: `${sizes.map(s => kb(per(s))).join(' / ')}: ${sizes.map((s, k) => `${s.n} ${ratio(growthOf[k]!)}`).join(', ')} of ${first.n}'s (${sizes
        .slice(1)
        .map((s, k) => `${s.n} / ${sizes[k]!.n}: ${ratio(per(s) / per(sizes[k]!))}`)
        .join(', ')}); marginal per dashboard ${marginal}`,
      goal: `flat: ≤ ${FLAT}x of ${first.n}'s per dashboard at every size`,
      pass: growthOf.every(g => g <= FLAT),
      headline: {
        restated: true,
        left: `${ratio(Math.max(...growthOf))} of ${first.n}'s per dashboard at worst`
      }
    })
  }

  const base = sizes[0]!
  const perDash = (s: Size) => median(s.samples) / s.n
  for (const s of sizes) {
    section.rows.push({
      figure: `${s.n} dashboards (${s.n * 2} alerts)`,
      measured:
        `time ${medMin(s.samples)}, ${ms(perDash(s))} per dashboard (${ratio(perDash(s) / perDash(base))} of ${base.n}'s); ` +
        `peak RSS ${ctx.nodes.map((node, i) => `${medMin(s.rss[i]!, mb)} (${node.label})`).join(', ')}; ` +
        `retained heap ${mb(s.heap[0]!.total!)} (${ctx.nodes[0]!.label}); ` +
        `phases per dashboard: load ${ms(s.phases!.load / s.n)}, read ${ms(s.phases!.read / s.n)}, compute ${ms(s.phases!.compute / s.n)}`,
      goal: 'info'
    })
    section.raw.push(
      `${s.n}: time median ${ms(median(s.samples))}; samples ms [${list(s.samples)}]; ${ctx.nodes.map((node, i) => `peak RSS MB, ${node.label}: [${s.rss[i]!.map(b => (b / 2 ** 20).toFixed(0)).join(', ')}]`).join('; ')}; phases ms (${ctx.nodes[0]!.label}): load ${ms(s.phases!.load)}, read ${ms(s.phases!.read)}, compute ${ms(s.phases!.compute)}`
    )
  }
  const big = sizes[sizes.length - 1]!
  const timeGrowth = perDash(big) / perDash(base)
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
  return section
}
