/**
 * 6. Many stacks: N stacks of one repository (the `stacks` layout), each with the same dashboards (the
 * same names: every stack keeps its own), all unchanged. A run reads the live state once for all of its
 * stacks, so its requests are the list calls of one stack whatever N and the number of resources; the
 * time is compared with one stack that holds as many resources.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { run } from '../../src/run/run.js'
import type { RunResult } from '../../src/run/types.js'
import { configFor } from '../lib/config.js'
import { scratch, type BenchContext } from '../lib/context.js'
import { dashboardYaml, type FleetShape } from '../lib/fixtures.js'
import {
  interleave,
  list,
  median,
  medMin,
  ms,
  paired,
  pairedRatio,
  rounds as roundsOf,
  type Section
} from '../lib/stats.js'

export async function manyStacks(ctx: BenchContext): Promise<Section> {
  const { emu } = ctx
  const perStack = ctx.quick ? 20 : 50
  const counts = ctx.quick ? [1, 5] : [1, 5, 20]
  const section: Section = {
    title: '6. Many stacks',
    method:
      `N stacks of ${perStack} dashboards (4 tiles, 1 alert each), every stack with the same dashboard names, seeded ` +
      'in the emulator with each stack’s ownership tag and identical to the manifests (temp dir). Ours = `run()` with ' +
      '`stacks: true` and command plan, in-process, rate limits off. Requests from the emulator log. Baseline for ' +
      'time: one stack (`stacks` off) with as many dashboards as the N stacks together, interleaved, medians.',
    rows: [],
    raw: [],
    notes: []
  }
  const requestsBy = new Map<number, string[]>()
  const timeRows: Section['rows'] = []
  for (const n of counts) {
    const dir = scratch(ctx, `stacks-${n}`)
    await emu.reset()
    for (let s = 0; s < n; s++) {
      const shape: FleetShape = {
        dashboards: perStack,
        tilesPerDashboard: 4,
        alertsPerDashboard: 1,
        stack: `team-${s}`
      }
      writeStack(dir, shape)
      await emu.seed(shape)
    }
    const config = configFor(emu, dir, 'plan', {
      stacks: 'true',
      stack: '',
      manifests: 'observability/**/*.yaml'
    })
    await emu.clearLog()
    const result = expectEmpty(await run(config), n)
    const requests = (await emu.log()).map(r => `${r.method} ${r.path.replace('/api/v2', '')}`)
    requestsBy.set(n, requests)
    section.raw.push(
      `${n} stack(s), ${n * perStack} dashboards: ${requests.length} requests: ${requests.join(', ')}`
    )
    if (result.stacks!.results.length !== n)
      section.notes.push(`${n} stacks: the run planned ${result.stacks!.results.length}`)

    if (n === counts[counts.length - 1]) {
      // The same resources in one stack: what planning N stacks costs beyond planning their dashboards.
      const one = scratch(ctx, 'stacks-one')
      const whole: FleetShape = {
        dashboards: n * perStack,
        tilesPerDashboard: 4,
        alertsPerDashboard: 1,
        stack: 'bench',
        prefix: 'All'
      }
      writeStack(one, whole, false)
      await emu.seed(whole)
      const single = configFor(emu, one, 'plan', { manifests: 'observability/**/*.yaml' })
      expectEmpty(await run(single), 1)
      const rounds = roundsOf(ctx.quick, 7)
      ctx.log(`  many stacks: ${rounds} interleaved rounds`)
      const samples = await interleave(rounds, {
        stacks: { run: async () => void expectEmpty(await run(config), n) },
        one: { run: async () => void expectEmpty(await run(single), 1) }
      })
      const r = pairedRatio(samples.stacks!, samples.one!)
      timeRows.push({
        figure: `plan time, ${n} stacks / 1 stack of the same ${n * perStack} dashboards`,
        measured: `${paired(r)}: ${medMin(samples.stacks!)} vs ${medMin(samples.one!)}`,
        goal: '≤ 1.5x',
        pass: r.median <= 1.5
      })
      section.raw.push(
        ...Object.entries(samples).map(([k, v]) => `${k}: median ${ms(median(v))}; samples ms [${list(v)}]`)
      )
    }
  }
  // The routes read: one list per kind (a long list takes more pages of the same route).
  const routes = (requests: string[]) =>
    JSON.stringify([...new Set(requests.map(r => r.replace(/\?.*$/, '')))].sort())
  const base = routes(requestsBy.get(counts[0]!)!)
  for (const n of counts) {
    const requests = requestsBy.get(n)!
    const same = routes(requests) === base
    section.rows.push({
      figure: `requests of a plan, ${n} stack(s) of ${perStack} dashboards (${n * perStack} dashboards and alerts)`,
      measured: `${requests.length}${same ? ': one list per kind, as for 1 stack' : `: ${requests.join(', ')}`}`,
      goal: 'one set of list calls, whatever N',
      pass: same && requests.every(r => r.startsWith('GET '))
    })
  }
  section.rows.push(...timeRows)
  return section
}

/** A stack folder: its stack.yaml and its dashboards, 25 a file. */
function writeStack(dir: string, shape: FleetShape, stack = true): void {
  const folder = path.join(dir, 'observability', shape.stack)
  mkdirSync(folder, { recursive: true })
  if (stack) writeFileSync(path.join(folder, 'stack.yaml'), `name: ${shape.stack}\n`)
  for (let start = 0; start < shape.dashboards; start += 25) {
    const docs: string[] = []
    for (let i = start; i < Math.min(shape.dashboards, start + 25); i++) docs.push(dashboardYaml(shape, i))
    writeFileSync(path.join(folder, `d${start / 25}.yaml`), docs.join('---\n'))
  }
}

function expectEmpty(result: RunResult, stacks: number): RunResult {
  const changes = result.stacks
    ? result.stacks.results.flatMap(r => r.plan?.changes ?? [])
    : (result.plan?.changes ?? [])
  if (result.exitCode !== 0 || changes.some(c => c.action !== 'noop'))
    throw new Error(
      `the plan of ${stacks} stack(s) was expected to be empty: exit ${result.exitCode}, ${changes.filter(c => c.action !== 'noop').length} change(s); ${result.diagnostics.map(d => d.message).join('; ')}`
    )
  return result
}
