/**
 * 5. Growth: the in-process plan of 10, 100, 1,000 and 5,000 unchanged dashboards (8 tiles, 2 alerts each).
 * Each size has its own emulator child, so the sizes can be measured interleaved, round after round.
 */
import { createApi } from '../../src/api/client.js'
import { ownershipTag } from '../../src/kinds/ownership.js'
import { loadManifests } from '../../src/manifest/load.js'
import { readLiveState } from '../../src/live/read.js'
import { computePlan } from '../../src/planner/planner.js'
import { run } from '../../src/run/run.js'
import { configFor } from '../lib/config.js'
import { scratch, type BenchContext } from '../lib/context.js'
import { writeFleetManifests, type FleetShape } from '../lib/fixtures.js'
import { startRemoteEmulator, type RemoteEmulator } from '../lib/remote.js'
import { topSelfTime } from '../lib/profile.js'
import { list, median, ms, ratio, timed, type Section } from '../lib/stats.js'

interface Size {
  n: number
  emu: RemoteEmulator
  dir: string
  glob: string
  samples: number[]
  phases?: { load: number; read: number; compute: number; computeSamples: number[] }
}

export async function growth(ctx: BenchContext): Promise<Section> {
  const ns = ctx.quick ? [10, 100, 500] : [10, 100, 1000, 5000]
  const section: Section = {
    title: '5. Growth',
    method:
      `Plan time (in-process \`run()\`, command plan) of ${ns.join(', ')} unchanged dashboards of 8 tiles with 2 alerts each; ` +
      'one emulator child per size so that the sizes are measured interleaved. Time per dashboard at each size; the ' +
      'ratio of the per-dashboard time at the two largest sizes is 1 for linear growth (above ~1.5 flags a quadratic ' +
      'step). One extra pass per size times the phases separately (loadManifests, readLiveState, computePlan).',
    rows: [],
    raw: [],
    notes: []
  }
  const sizes: Size[] = []
  let hot: Awaited<ReturnType<typeof topSelfTime>> = []
  try {
    for (const n of ns) {
      const emu = await startRemoteEmulator()
      const shape: FleetShape = { dashboards: n, tilesPerDashboard: 8, alertsPerDashboard: 2, stack: 'bench' }
      const dir = scratch(ctx, `growth-${n}`)
      const glob = writeFleetManifests(dir, shape)
      await emu.seed(shape)
      sizes.push({ n, emu, dir, glob, samples: [] })
    }
    const planOnce = async (s: Size) => {
      const result = await run(configFor(s.emu, s.dir, 'plan', { manifests: s.glob }))
      const changes = result.plan?.changes.filter(c => c.action !== 'noop').length
      if (result.exitCode !== 0 || changes !== 0)
        throw new Error(
          `plan of ${s.n}: exit ${result.exitCode}, ${changes} change(s): ${result.diagnostics.map(d => d.message).join('; ')}`
        )
    }
    // Warm-up (JIT) on the small sizes only.
    for (const s of sizes.filter(x => x.n <= 100)) await planOnce(s)

    const rounds = 3
    ctx.log(`  growth: ${rounds} interleaved rounds over ${ns.join(', ')}`)
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < sizes.length; k++) {
        const s = sizes[(r + k) % sizes.length]!
        const reps = s.n <= 100 ? 5 : 1
        for (let i = 0; i < reps; i++) s.samples.push((await timed(() => planOnce(s))).ms)
      }
    }
    for (const s of sizes) {
      const config = configFor(s.emu, s.dir, 'plan', { manifests: s.glob })
      const load = await timed(() => loadManifests({ patterns: [s.glob], cwd: s.dir, mode: 'self-hosted' }))
      const api = createApi(config)
      const read = await timed(() => readLiveState(api, { service: false }))
      await api.close()
      const input = {
        command: 'plan',
        settings: {
          stack: config.stack,
          ownershipTag: ownershipTag(config.stack),
          prune: config.prune,
          mode: config.mode,
          serviceGate: config.serviceGate
        },
        manifests: load.value,
        live: read.value,
        now: new Date()
      }
      // computePlan is pure and cheaper than the rest: time it a few times.
      const computeSamples: number[] = []
      for (let i = 0; i < (s.n <= 100 ? 9 : 3); i++)
        computeSamples.push((await timed(async () => computePlan(input))).ms)
      s.phases = { load: load.ms, read: read.ms, compute: median(computeSamples), computeSamples }
      if (s === sizes[sizes.length - 1]) hot = await topSelfTime(() => computePlan(input), 4)
    }
  } finally {
    for (const s of sizes) await s.emu.close()
  }

  const per = (s: Size) => median(s.samples) / s.n
  for (const s of sizes) {
    section.rows.push({
      figure: `${s.n} dashboards (${s.n * 2} alerts)`,
      measured: `${ms(median(s.samples))} total, ${ms(per(s))} per dashboard (load ${ms(s.phases!.load / s.n)}, read ${ms(s.phases!.read / s.n)}, compute ${ms(s.phases!.compute / s.n)} per dashboard)`,
      goal: 'info'
    })
    section.raw.push(
      `${s.n}: median ${ms(median(s.samples))}; samples ms [${list(s.samples)}]; phases: load ${ms(s.phases!.load)}, read ${ms(s.phases!.read)}, compute median ${ms(s.phases!.compute)} [${list(s.phases!.computeSamples)}]`
    )
  }
  const big = sizes[sizes.length - 1]!
  const mid = sizes[sizes.length - 2]!
  const growthRatio = per(big) / per(mid)
  section.rows.push({
    figure: `per-dashboard time, ${big.n} vs ${mid.n}`,
    measured: ratio(growthRatio),
    goal: '≈ 1 (linear); > 1.5 flags a quadratic step',
    pass: growthRatio <= 1.5
  })
  for (const phase of ['load', 'read', 'compute'] as const) {
    const r = big.phases![phase] / big.n / (mid.phases![phase] / mid.n)
    section.rows.push({
      figure: `${phase} phase per dashboard, ${big.n} vs ${mid.n} (${phase === 'compute' ? 'median of 3' : 'one pass'})`,
      measured: ratio(r),
      goal: phase === 'compute' ? '≤ 1.5 (flags a superlinear phase)' : 'diagnostic',
      pass: phase === 'compute' ? r <= 1.5 : undefined
    })
  }
  if (hot.length > 0)
    section.rows.push({
      figure: `computePlan at ${big.n}: most self time (CPU profile)`,
      measured: hot.map(h => `${h.name} ${ms(h.ms)} (${(h.share * 100).toFixed(0)}%)`).join('; '),
      goal: 'info'
    })
  return section
}
