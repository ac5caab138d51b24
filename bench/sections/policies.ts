/**
 * 8. Policies: what a Policy adds to a cold `obsdeploy plan` of the fleet of section 1 (1,000 dashboards ×
 * 8 tiles + 2,000 alerts, all unchanged). Two folders differ by one file, `z-policy.yaml`, which sorts after
 * the fleet's files; the CLI bundle plans each in a child process, in interleaved pairs. The headlines are a
 * fleet that keeps the recommended pack's rules (owner tags, runbook links), and the same fleet under 20 rules
 * of the user's own that read every dashboard's name, tags and tiles and every alert (regular expressions
 * among them), none of which fires; beside them, the fleet of section 1 as it is, which breaks two of the
 * pack's rules on every dashboard and alert: the day a repository turns the pack on, with 3,000 findings to
 * place at their lines and print. Then, in this process, how long the cost budget takes to stop a rule of
 * three nested comprehensions over a dashboard of 500 tiles.
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
/** The issue's goal for 20 rules that read every dashboard: at most 15% over the plan without them. */
const RULES_GOAL = 1.15

/** 20 rules over the fleet that all hold (kinds, names, tags, tiles, series, alerts; `matches` in five). */
export const TWENTY_RULES: ReadonlyArray<readonly [kind: 'Dashboard' | 'Alert', check: string]> = [
  ['Dashboard', "has(resource.tags) && resource.tags.exists(t, t.startsWith('owner:'))"],
  ['Dashboard', 'size(resource.tiles) <= 50'],
  ['Dashboard', 'resource.tiles.all(t, t.w >= 3 && t.h >= 2)'],
  ['Dashboard', "resource.name.matches('^[A-Z][a-z]+ [0-9]+$')"],
  ['Dashboard', "resource.tiles.all(t, t.name.matches('^Tile [0-9]+$'))"],
  ['Dashboard', 'resource.tiles.all(t, t.x + t.w <= 24.0)'],
  [
    'Dashboard',
    "resource.tiles.all(t, t.series.all(s, s.type == 'time' && s.aggFn in ['count', 'sum', 'avg']))"
  ],
  ['Dashboard', 'resource.tiles.all(a, resource.tiles.exists_one(b, b.name == a.name))'],
  ['Dashboard', 'resource.tiles.all(t, t.series.all(s, !has(s.where) || size(s.where) < 1000))'],
  ['Dashboard', "!resource.name.contains('TODO')"],
  ['Dashboard', "resource.tags.all(t, t.matches('^[a-z]+:[a-z0-9-]+$'))"],
  ['Dashboard', "resource.tiles.exists(t, t.series.exists(s, s.type == 'time'))"],
  ['Dashboard', 'resource.tiles.all(t, t.series.all(s, !has(s.groupBy) || size(s.groupBy) <= 3))'],
  ['Dashboard', 'resource.tiles.filter(t, t.w == 24.0).size() <= 2'],
  ['Alert', 'resource.threshold > 0'],
  ['Alert', "resource.interval != '1m'"],
  ['Alert', 'has(resource.channel) || has(resource.channels)'],
  ['Alert', "has(resource.message) && resource.message.matches('https?://[^\\\\s]+')"],
  ['Alert', 'resource.name.startsWith(resource.dashboard)'],
  ['Alert', "resource.thresholdType in ['above', 'below']"]
]

const twentyRulesPolicy = (): string =>
  [
    'kind: Policy',
    'name: org',
    'rules:',
    ...TWENTY_RULES.map(
      ([kind, check], i) =>
        `  - id: rule-${i + 1}\n    kinds: [${kind}]\n    severity: error\n    message: rule ${i + 1}\n    check: ${JSON.stringify(check)}`
    )
  ].join('\n') + '\n'

/** The rule the budget stops: every triple of tiles, 125 million iterations over 500 tiles. */
const NESTED =
  "resource.tiles.all(a, resource.tiles.all(b, resource.tiles.all(c, a.name != '' || b.name != c.name)))"

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
    title: `8. Policies: the recommended pack and ${TWENTY_RULES.length} rules on a cold plan of ${base.dashboards} dashboards`,
    method:
      `The fleet of section 1 (${base.dashboards} dashboards × ${base.tilesPerDashboard} tiles + ${base.dashboards * base.alertsPerDashboard} alerts), seeded in the emulator ` +
      'and identical to the manifests, so the plan is empty. **Off** = `node dist/cli/index.js plan observability --api-url … ' +
      "--rate-limit off`; **on** = the same in a copy of the folder with one more file, `z-policy.yaml`, which sorts after the fleet's files (`kind: Policy`, " +
      '`recommended: true`). **Kept**: each dashboard has an `owner:` tag and each alert a runbook link (in the manifests ' +
      'and the live records), so the pack finds nothing; **day one**: the fleet of section 1 as it is, without either, so ' +
      `the pack finds and prints a warning for each dashboard and alert. **${TWENTY_RULES.length} rules**: the kept fleet, and ` +
      `\`z-policy.yaml\` holds ${TWENTY_RULES.length} rules of its own instead of the pack (listed below: each dashboard's name, ` +
      'tags, tiles and series and each alert, five with `matches`; every tile against every other in one), all of ' +
      `which hold. Wall and CPU time (${usageSource}) of each ` +
      'process; ratios per interleaved pair (on beside off): median and min. Last, in the bench process, the time ' +
      'one evaluation of three nested comprehensions over a dashboard of 500 tiles takes to be stopped by the cost ' +
      'budget (the rule alone, compiled once; median and min of the rounds).',
    rows: [],
    raw: [],
    notes: []
  }
  const cli = path.join(ROOT, 'dist', 'cli', 'index.js')
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, OBSDEPLOY_API_KEY: emu.credentials.apiKey }

  const compare = async (
    name: string,
    shape: FleetShape,
    policy: string,
    goal: number | undefined
  ): Promise<{ rows: Row[]; raw: string[]; findings: number; changes: number }> => {
    const off = scratch(ctx, `policies-${name}-off`)
    writeFleetManifests(off, shape)
    const on = scratch(ctx, `policies-${name}-on`)
    cpSync(path.join(off, 'observability'), path.join(on, 'observability'), { recursive: true })
    writeFileSync(
      // After the fleet's s*.yaml, as a `policies/` folder after `dashboards/` is: the loader has read every
      // other document before it learns there are policies (the costlier order).
      path.join(on, 'observability', 'z-policy.yaml'),
      policy
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
      // The pack's warnings do not fail the plan (and the 20 rules hold): a non-zero exit is a broken run.
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
    const label = `${name}: cold plan with ${policy.includes('recommended: true') ? 'the recommended pack' : `${TWENTY_RULES.length} rules`} on / off`
    const rows: Row[] = [
      goal !== undefined
        ? ratioRow({
            figure: `${label}, wall`,
            a: wall.on!,
            b: wall.off!,
            goal: { atMost: goal },
            left: r =>
              `${((r.median - 1) * 100).toFixed(0)}% added, over the ${((goal - 1) * 100).toFixed(0)}% goal`
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

  const pack = 'kind: Policy\nname: org\nrecommended: true\n'
  for (const [name, shape, policy, goal] of [
    ['kept', kept, pack, GOAL],
    ['20 rules', kept, twentyRulesPolicy(), RULES_GOAL],
    ['day one', base, pack, undefined]
  ] as const) {
    const r = await compare(name, shape, policy, goal)
    section.rows.push(...r.rows)
    section.raw.push(...r.raw)
    section.notes.push(
      `${name}: the plan with the policy on had ${r.changes} change(s) and ${r.findings} policy finding(s).`
    )
  }
  const stop = await budgetStop(ctx)
  section.rows.push(stop.row)
  section.raw.push(stop.raw)
  section.notes.push(
    `The ${TWENTY_RULES.length} rules: ${TWENTY_RULES.map(([kind, check]) => `${kind} \`${check}\``).join('; ')}.`
  )
  return section
}

/**
 * How long a rule that would run for minutes takes to be stopped by the cost budget: three nested
 * comprehensions over a dashboard of 500 tiles, compiled once and evaluated in this process (the engine
 * the bundle holds), one evaluation a round.
 */
async function budgetStop(ctx: BenchContext): Promise<{ row: Row; raw: string }> {
  const { compileCheck, COST_BUDGET, loadCel } = await import('../../src/policy/cel.js')
  const { declarationsFor } = await import('../../src/policy/shapes.js')
  await loadCel()
  const program = compileCheck(NESTED, declarationsFor(['Dashboard'], false))
  if (typeof program !== 'function') throw new Error(`the nested rule does not compile: ${program.error}`)
  const tiles = Array.from({ length: 500 }, (_, i) => ({
    name: `Tile ${i}`,
    x: (i % 4) * 6,
    y: i * 3,
    w: 6,
    h: 3
  }))
  const resource = { kind: 'Dashboard', name: 'Big', tiles }
  const samples: number[] = []
  let steps = 0
  for (let r = 0; r < roundsOf(ctx.quick, 7); r++) {
    const start = performance.now()
    const result = program({ resource })
    samples.push(performance.now() - start)
    if (!('limit' in result) || result.limit !== 'cost')
      throw new Error('the budget did not stop the nested rule')
    steps = result.cost
  }
  ctx.log(`  policies: the budget stops the nested rule in ${medMin(samples)}`)
  return {
    row: {
      figure: `three nested comprehensions over 500 tiles (125 million iterations), stopped by the cost budget of ${COST_BUDGET.toLocaleString('en-US')} steps`,
      measured: `${medMin(samples)} per evaluation (${steps.toLocaleString('en-US')} steps counted)`,
      goal: ''
    },
    raw: `budget stop: ms [${list(samples)}]`
  }
}
