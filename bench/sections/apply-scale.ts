/**
 * 2. Apply a saved plan at scale: 1,000 new dashboards of 8 tiles (no alerts), `apply` with `saved-plan`
 * (the CLI's `apply --plan saved.json`) at concurrency 1, 4 and 16, against the same list calls and a
 * plain undici POST loop of the same bodies at the same concurrency. The store is emptied before every run.
 */
import path from 'node:path'
import { createApi, type ObservabilityApi } from '../../src/api/client.js'
import type { Config } from '../../src/config/types.js'
import { run } from '../../src/run/run.js'
import { postAll, readListsPlain } from '../lib/baselines.js'
import { configFor } from '../lib/config.js'
import { scratch, type BenchContext } from '../lib/context.js'
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
  rounds as roundsOf,
  timed,
  type Section
} from '../lib/stats.js'

const WHOLE_GOAL = 0.85
const POST_PHASE_GOAL = 0.9

interface Recording {
  bodies: unknown[]
  firstWrite?: number
  lastWrite?: number
}

/** A client that records the bodies it creates and when its first write started and its last one ended. */
function recording(config: Config, into: Recording): ObservabilityApi {
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
  const saved = path.join(dir, 'saved.json')
  const section: Section = {
    title: `2. Apply a saved plan: ${shape.dashboards} new dashboards × ${shape.tilesPerDashboard} tiles`,
    method:
      'Rate limits off. A plan run against the empty store writes saved.json; then, with the store emptied ' +
      'before every run, **ours** = `run()` with command apply and `saved-plan: saved.json` (the CLI’s `apply ' +
      '--plan saved.json`) in-process: whatever it does to check the saved plan, the list calls, the creates. ' +
      '**Plain** = the same list calls, then the same POST bodies (captured from our own run) sent with undici ' +
      '`request` by a pool of the same concurrency. Ratio = plain time / our time (1.00 = as fast as the plain ' +
      'loop), per interleaved pair: median and min. The **POST phase** is ours from the first POST to the last ' +
      'response, against the plain POST loop alone.',
    rows: [],
    raw: [],
    notes: []
  }
  const concurrencies = [1, 4, 16]
  const rounds = roundsOf(ctx.quick, 7)

  // The saved plan, and the bodies of a warm-up apply of it.
  await emu.reset()
  const planned = await run(configFor(emu, dir, 'plan', { manifests: glob, 'plan-path': saved }))
  if (planned.exitCode !== 0) throw new Error(`plan: ${planned.diagnostics.map(d => d.message).join('; ')}`)
  const applyConfig = (c: number) =>
    configFor(emu, dir, 'apply', {
      manifests: glob,
      concurrency: String(c),
      'saved-plan': saved,
      'plan-path': path.join(dir, 'applied.json')
    })
  const warm: Recording = { bodies: [] }
  await emu.clearLog()
  const warmResult = await run(applyConfig(16), { api: c => recording(c, warm) })
  const created = await emu.count()
  if (warmResult.exitCode !== 0 || created.dashboards !== shape.dashboards)
    throw new Error(
      `warm-up apply: exit ${warmResult.exitCode}, ${created.dashboards} dashboards: ${warmResult.diagnostics.map(d => d.message).join('; ')}`
    )
  const reads = (await emu.log()).filter(r => r.method === 'GET').map(r => `GET ${r.path}`)
  section.raw.push(`reads of an apply of the saved plan: ${reads.join(', ')}`)
  const bodies = warm.bodies
  await emu.reset()
  await postAll(emu, bodies, 16)

  for (const c of concurrencies) {
    ctx.log(`  apply at concurrency ${c}: ${rounds} interleaved rounds`)
    const phase: number[] = []
    const plainPosts: number[] = []
    let requests = 0
    const samples = await interleave(rounds, {
      ours: {
        before: () => emu.reset(),
        run: async () => {
          const rec: Recording = { bodies: [] }
          const result = await run(applyConfig(c), { api: cfg => recording(cfg, rec) })
          if (result.exitCode !== 0)
            throw new Error(`apply failed: ${result.diagnostics.map(d => d.message).join('; ')}`)
          phase.push(rec.lastWrite! - rec.firstWrite!)
          requests = (await emu.log()).length
        }
      },
      plain: {
        before: () => emu.reset(),
        run: async () => {
          await readListsPlain(emu)
          plainPosts.push((await timed(() => postAll(emu, bodies, c))).ms)
        }
      }
    })
    const count = await emu.count()
    if (count.dashboards !== shape.dashboards)
      throw new Error(`expected ${shape.dashboards} dashboards, found ${count.dashboards}`)
    const whole = pairedRatio(samples.plain!, samples.ours!)
    const posts = pairedRatio(plainPosts, phase)
    section.rows.push({
      figure: `apply --plan saved.json, whole run / (list calls + plain POST loop), concurrency ${c}`,
      measured: `${paired(whole)}: ${medMin(samples.ours!)} vs ${medMin(samples.plain!)}`,
      goal: `≥ ${WHOLE_GOAL}x`,
      pass: whole.median >= WHOLE_GOAL,
      headline: {
        left: `${ratio(WHOLE_GOAL / whole.median)} short (${ms(median(samples.ours!) - median(samples.plain!) / WHOLE_GOAL)} too slow); the POST phase alone is ${ratio(posts.median)} of the plain loop, so ${ms(median(samples.ours!) - median(phase))} of the run is before the first POST or after the last`
      }
    })
    section.rows.push({
      figure: `POST phase / plain POST loop, concurrency ${c}`,
      measured: `${paired(posts)}: ${medMin(phase)} vs ${medMin(plainPosts)}`,
      goal: c === 1 ? `≥ ${POST_PHASE_GOAL}x` : 'info',
      pass: c === 1 ? posts.median >= POST_PHASE_GOAL : undefined,
      headline:
        c === 1
          ? {
              left: `${ratio(POST_PHASE_GOAL / posts.median)} short: ${ms((median(phase) - median(plainPosts)) / shape.dashboards)} more per create than the plain loop`
            }
          : undefined
    })
    section.raw.push(
      `concurrency ${c}: ours median ${ms(median(samples.ours!))} [${list(samples.ours!)}], POST phase [${list(phase)}], plain median ${ms(median(samples.plain!))} [${list(samples.plain!)}], plain POST loop [${list(plainPosts)}], our requests per run ${requests}`
    )
  }
  return section
}
