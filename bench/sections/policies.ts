/**
 * 8. Policies: what a Policy with the recommended pack on adds to a cold `obsdeploy plan` of the fleet of
 * section 1 (1,000 dashboards × 8 tiles + 2,000 alerts, all unchanged). Two folders differ by one file,
 * `z-policy.yaml` (`recommended: true`), which sorts after the fleet's files; the CLI bundle plans each in a child process, in interleaved pairs.
 * The headline is a fleet that keeps the pack's rules (owner tags, runbook links); beside it, the fleet of
 * section 1 as it is, which breaks two rules on every dashboard and alert: the day a repository turns the
 * pack on, with 3,000 findings to place at their lines and print.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { runNode, usageSource, type ChildResult } from '../lib/child.js'
import { ROOT, scratch, type BenchContext } from '../lib/context.js'
import { writeFleetManifests, type FleetShape } from '../lib/fixtures.js'
import {
  interleave,
  list,
  medMin,
  paired,
  pairedRatio,
  ratioRow,
  rounds as roundsOf,
  type Row,
  type Section
} from '../lib/stats.js'

const GOAL = 1.1

export async function policiesOnPlan(ctx: BenchContext): Promise<Section> {
  const { emu } = ctx
  const base: FleetShape = {
    dashboards: ctx.quick ? 200 : 1000,
    tilesPerDashboard: 8,
    alertsPerDashboard: 2,
    stack: 'bench'
  }
  const kept: FleetShape = { ...base, owner: 'bench', runbook: 'Runbook https://runbooks.example/bench' }
  const section: Section = {
    title: `8. Policies: the recommended pack on a cold plan of ${base.dashboards} dashboards`,
    method:
      `The fleet of section 1 (${base.dashboards} dashboards × ${base.tilesPerDashboard} tiles + ${base.dashboards * base.alertsPerDashboard} alerts), seeded in the emulator ` +
      'and identical to the manifests, so the plan is empty. **Off** = `node dist/cli/index.js plan observability --api-url … ' +
      "--rate-limit off`; **on** = the same in a copy of the folder with one more file, `z-policy.yaml`, which sorts after the fleet's files (`kind: Policy`, " +
      '`recommended: true`). **Kept**: each dashboard has an `owner:` tag and each alert a runbook link (in the manifests ' +
      'and the live records), so the pack finds nothing; **day one**: the fleet of section 1 as it is, without either, so ' +
      `the pack finds and prints a warning for each dashboard and alert. Wall and CPU time (${usageSource}) of each ` +
      'process; ratios per interleaved pair (on beside off): median and min.',
    rows: [],
    raw: [],
    notes: []
  }
  const cli = path.join(ROOT, 'dist', 'cli', 'index.js')
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, OBSDEPLOY_API_KEY: emu.credentials.apiKey }

  const compare = async (
    name: string,
    shape: FleetShape,
    headline: boolean
  ): Promise<{ rows: Row[]; raw: string[]; findings: number; changes: number }> => {
    const off = scratch(ctx, `policies-${name}-off`)
    writeFleetManifests(off, shape)
    const on = scratch(ctx, `policies-${name}-on`)
    cpSync(path.join(off, 'observability'), path.join(on, 'observability'), { recursive: true })
    writeFileSync(
      // After the fleet's s*.yaml, as a `policies/` folder after `dashboards/` is: the loader has read every
      // other document before it learns there are policies (the costlier order).
      path.join(on, 'observability', 'z-policy.yaml'),
      'kind: Policy\nname: org\nrecommended: true\n'
    )
    await emu.reset()
    await emu.seed(shape)
    const args = (dir: string) => [
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
      path.join(dir, 'plan.json')
    ]
    const cpu: Record<string, number[]> = { on: [], off: [] }
    const child = (dir: string, side: 'on' | 'off') => async (): Promise<ChildResult> => {
      const r = await runNode(args(dir), { cwd: dir, env, usage: true })
      // The pack's warnings do not fail the plan: a non-zero exit is a broken run.
      if (r.code !== 0) throw new Error(`plan (${name}, ${side}) exited ${r.code}: ${r.stderr.slice(-1500)}`)
      cpu[side]!.push(r.cpuMs ?? NaN)
      return r
    }
    const sides = { off: child(off, 'off'), on: child(on, 'on') }
    // One of each first (caches), not counted; it says how many findings and changes there are.
    await sides.off()
    await sides.on()
    const plan = JSON.parse(readFileSync(path.join(on, 'plan.json'), 'utf8')) as {
      changes: Array<{ action: string }>
      diagnostics: Array<{ message: string }>
    }
    const findings = plan.diagnostics.filter(d => d.message.includes('[policy org: ')).length
    const changes = plan.changes.filter(c => c.action !== 'noop').length
    cpu.on = []
    cpu.off = []
    const rounds = roundsOf(ctx.quick, 11)
    ctx.log(`  policies ${name}: ${rounds} interleaved rounds`)
    const wall = await interleave(rounds, { off: { run: sides.off }, on: { run: sides.on } })
    const label = `${name}: cold plan with the recommended pack on / off`
    const rows: Row[] = [
      headline
        ? ratioRow({
            figure: `${label}, wall`,
            a: wall.on!,
            b: wall.off!,
            goal: { atMost: GOAL },
            left: r => `${((r.median - 1) * 100).toFixed(0)}% added, over the 10% goal`
          })
        : {
            figure: `${label}, wall`,
            measured: `${paired(pairedRatio(wall.on!, wall.off!))}: ${medMin(wall.on!)} vs ${medMin(wall.off!)}`,
            goal: ''
          },
      {
        figure: `${label}, CPU (user + system)`,
        measured: `${paired(pairedRatio(cpu.on!, cpu.off!))}: ${medMin(cpu.on!)} vs ${medMin(cpu.off!)}`,
        goal: ''
      }
    ]
    const raw = Object.entries(wall).map(
      ([k, v]) => `${name} ${k}: wall samples ms [${list(v)}]; CPU ms [${list(cpu[k]!)}]`
    )
    return { rows, raw, findings, changes }
  }

  for (const [name, shape, headline] of [
    ['kept', kept, true],
    ['day one', base, false]
  ] as const) {
    const r = await compare(name, shape, headline)
    section.rows.push(...r.rows)
    section.raw.push(...r.raw)
    section.notes.push(
      `${name}: the plan with the pack on had ${r.changes} change(s) and ${r.findings} policy finding(s).`
    )
  }
  return section
}
