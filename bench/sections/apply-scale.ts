/**
 * 2. Apply at scale: 1,000 new dashboards of 8 tiles (no alerts) at concurrency 1, 4 and 16, against a plain
 * undici loop of the same POST bodies at the same concurrency. The store is emptied before every run.
 */
import { createApi, type ObservabilityApi } from '../../src/api/client.js'
import type { Config } from '../../src/config/types.js'
import { run } from '../../src/run/run.js'
import { postAll } from '../lib/baselines.js'
import { configFor } from '../lib/config.js'
import { scratch, type BenchContext } from '../lib/context.js'
import { writeFleetManifests, type FleetShape } from '../lib/fixtures.js'
import { interleave, list, median, ms, ratio, type Section } from '../lib/stats.js'

/** A client that records the bodies it creates and when its first write started and its last one ended. */
function recording(
  config: Config,
  into: { bodies: unknown[]; firstWrite?: number; lastWrite?: number }
): ObservabilityApi {
  const api = createApi(config)
  const create = api.createDashboard.bind(api)
  api.createDashboard = async (body: unknown) => {
    into.firstWrite ??= performance.now()
    into.bodies.push(body)
    try {
      return await create(body)
    } finally {
      into.lastWrite = performance.now()
    }
  }
  return api
}

export async function applyAtScale(ctx: BenchContext): Promise<Section> {
  const { emu } = ctx
  const shape: FleetShape = {
    dashboards: ctx.quick ? 200 : 1000,
    tilesPerDashboard: 8,
    alertsPerDashboard: 0,
    stack: 'bench'
  }
  const dir = scratch(ctx, 'apply-scale')
  const glob = writeFleetManifests(dir, shape)
  const section: Section = {
    title: '2. Apply at scale',
    method:
      `${shape.dashboards} new dashboards of ${shape.tilesPerDashboard} tiles (no alerts), rate limits off. Ours = \`run()\` with command ` +
      'apply in-process (it loads the manifests, lists the live state, plans, then creates); plain = the same POST ' +
      'bodies (captured from our own run) sent with undici `request` by a pool of the same concurrency. Throughput ' +
      'ratio = plain time / our time (1.0 = as fast as the plain loop). The apply-phase ratio counts only the time ' +
      'from our first POST to our last response. The store is emptied before every run.',
    rows: [],
    raw: [],
    notes: []
  }
  const concurrencies = [1, 4, 16]
  const rounds = ctx.quick ? 2 : 3

  // Warm-up and body capture.
  const warm = {
    bodies: [] as unknown[],
    firstWrite: undefined as number | undefined,
    lastWrite: undefined as number | undefined
  }
  await emu.reset()
  const warmResult = await run(configFor(emu, dir, 'apply', { manifests: glob, concurrency: '16' }), {
    api: c => recording(c, warm)
  })
  const created = await emu.count()
  if (warmResult.exitCode !== 0 || created.dashboards !== shape.dashboards)
    throw new Error(
      `warm-up apply: exit ${warmResult.exitCode}, ${created.dashboards} dashboards: ${warmResult.diagnostics.map(d => d.message).join('; ')}`
    )
  const bodies = warm.bodies
  await emu.reset()
  await postAll(emu, bodies, 16)

  for (const c of concurrencies) {
    ctx.log(`  apply at concurrency ${c}: ${rounds} interleaved rounds`)
    const phase: number[] = []
    let requests = 0
    const samples = await interleave(rounds, {
      ours: {
        before: () => emu.reset(),
        run: async () => {
          const rec = {
            bodies: [] as unknown[],
            firstWrite: undefined as number | undefined,
            lastWrite: undefined as number | undefined
          }
          const result = await run(
            configFor(emu, dir, 'apply', { manifests: glob, concurrency: String(c) }),
            {
              api: cfg => recording(cfg, rec)
            }
          )
          if (result.exitCode !== 0)
            throw new Error(`apply failed: ${result.diagnostics.map(d => d.message).join('; ')}`)
          phase.push(rec.lastWrite! - rec.firstWrite!)
          requests = (await emu.log()).length
        }
      },
      plain: { before: () => emu.reset(), run: () => postAll(emu, bodies, c) }
    })
    const count = await emu.count()
    if (count.dashboards !== shape.dashboards)
      throw new Error(`expected ${shape.dashboards} dashboards, found ${count.dashboards}`)
    const ours = median(samples.ours!)
    const plain = median(samples.plain!)
    const applyPhase = median(phase)
    const r = plain / ours
    section.rows.push({
      figure: `throughput ours/plain, concurrency ${c} (whole run)`,
      measured: `${ratio(r)} (${((shape.dashboards / ours) * 1000).toFixed(0)}/s vs ${((shape.dashboards / plain) * 1000).toFixed(0)}/s)`,
      goal: '≥ 0.85x',
      pass: r >= 0.85
    })
    section.rows.push({
      figure: `throughput ours/plain, concurrency ${c} (apply phase only: first POST to last response)`,
      measured: `${ratio(plain / applyPhase)} (${ms(applyPhase)} vs ${ms(plain)})`,
      goal: '≥ 0.85x (lenient reading: planning excluded)',
      pass: plain / applyPhase >= 0.85
    })
    section.raw.push(
      `concurrency ${c}: ours median ${ms(ours)} [${list(samples.ours!)}], apply phase median ${ms(applyPhase)} [${list(phase)}], plain median ${ms(plain)} [${list(samples.plain!)}], our requests per run ${requests}`
    )
  }
  return section
}
