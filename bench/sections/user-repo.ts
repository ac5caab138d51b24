/**
 * 7. A repository shaped like a user's (issue 31): 1,000 files, one dashboard of 8 mixed tiles and 2
 * alerts each, `where` clauses with quotes, parentheses, ranges and comparisons (bench/lib/user-repo.ts),
 * converged by applying it once. The cold `obsdeploy plan` process is measured against the plain reader
 * (bench/plain-reader.mjs: the same lists over keep-alive, the files read in parallel, js-yaml 4.3) on each
 * Node of `--node` (issue 38's goal holds on Node 20 and 24), and so is the old fixture of section 1 (10
 * files of 100 alike dashboards), side by side in one run; `--compare-dist` adds the other build's plan.
 */
import path from 'node:path'
import { describeShares, profileBundleRun } from '../lib/bundle-profile.js'
import { runNode, usageSource, type ChildResult, type NodeBinary } from '../lib/child.js'
import { configFor } from '../lib/config.js'
import { ROOT, scratch, type BenchContext } from '../lib/context.js'
import { writeFleetManifests, type FleetShape } from '../lib/fixtures.js'
import { writeUserRepo } from '../lib/user-repo.js'
import { run } from '../../src/run/run.js'
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

const GOAL = 3
const STRETCH = 2
const LISTS = ['dashboards', 'connections', 'sources', 'saved-searches', 'webhooks', 'alerts'].map(
  l => `/api/v2/${l}`
)

export async function userRepo(ctx: BenchContext): Promise<Section> {
  const { emu } = ctx
  const n = ctx.quick ? 200 : 1000
  const section: Section = {
    title: `7. A user-shaped repository: ${n} files, a dashboard of 8 mixed tiles and 2 alerts each`,
    method:
      `${n} files in 8 team folders, each one dashboard of 8 tiles (time, stacked bars, number, table, search, ` +
      'markdown, a formula, a heatmap; series and config forms) and 2 alerts, with `where` clauses as users ' +
      'write them (quoted values, parentheses, ranges, comparisons, `-`, wildcards), applied once so the plan ' +
      'is empty. **Cold plan** = `node dist/cli/index.js plan observability …` in a child process; **plain ' +
      'reader** = `node bench/plain-reader.mjs`: the same list routes over one keep-alive undici pool, all at ' +
      'once, `JSON.parse`d, and every file read at once and parsed with js-yaml 4.3 (the fastest YAML parser ' +
      'on npm for these files: 4.3 about 1.3x faster than 5.5 cold, the `yaml` library about 6x slower). The ' +
      "old fixture (section 1's 10 files of 100 alike dashboards, converged) is timed against the same reader " +
      `in the same rounds. Every Node of \`--node\` runs its own plan and reader in the same rounds (and, with ` +
      "`--compare-dist`, the other build's plan), the order rotating round by round. Wall time of each process; " +
      `CPU from ${usageSource}. Ratios per interleaved pair (the plan and the reader of the same round): median ` +
      'and min; the note below says how busy the machine was.',
    rows: [],
    raw: [],
    notes: []
  }
  await emu.reset()
  const dir = scratch(ctx, 'user-repo')
  const glob = writeUserRepo(dir, n)
  const applied = await run(configFor(emu, dir, 'apply', { manifests: glob }))
  if (applied.exitCode !== 0)
    throw new Error(
      `applying the user repository failed: ${applied.diagnostics.map(d => d.message).join('; ')}`
    )
  const oldShape: FleetShape = { dashboards: n, tilesPerDashboard: 8, alertsPerDashboard: 2, stack: 'old' }
  const oldDir = scratch(ctx, 'user-repo-old')
  writeFleetManifests(oldDir, { ...oldShape, prefix: 'Old' })
  await emu.seed({ ...oldShape, prefix: 'Old' })

  const cli = path.join(ROOT, 'dist', 'cli', 'index.js')
  const otherCli = ctx.compareDist ? path.join(path.resolve(ctx.compareDist), 'cli', 'index.js') : undefined
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, OBSDEPLOY_API_KEY: emu.credentials.apiKey }
  const plan = (cwd: string, stack: string, bundle = cli) => [
    bundle,
    'plan',
    'observability',
    '--api-url',
    emu.url,
    '--stack',
    stack,
    '--rate-limit',
    'off',
    '--out',
    path.join(cwd, 'cli-plan.json')
  ]
  const reader = (cwd: string) => [
    path.join(ROOT, 'bench', 'plain-reader.mjs'),
    path.join(cwd, 'observability'),
    emu.url,
    emu.credentials.apiKey,
    ...LISTS
  ]
  const cpu: Record<string, number[]> = {}
  const rss: Record<string, number[]> = {}
  const child = (
    name: string,
    cwd: string,
    args: string[],
    node: NodeBinary,
    check?: (r: ChildResult) => void
  ) => ({
    run: async () => {
      const r = await runNode(args, { cwd, env, usage: true, node: node.path })
      if (r.code !== 0) throw new Error(`${name} exited ${r.code}: ${r.stderr.slice(-1500)}`)
      check?.(r)
      ;(cpu[name] ??= []).push(r.cpuMs ?? NaN)
      ;(rss[name] ??= []).push(r.maxRss ?? NaN)
    }
  })
  const empty = (r: ChildResult) => {
    if (!/No changes/.test(r.stdout + r.stderr))
      throw new Error(`the plan was not empty: ${r.stdout.slice(-1500)}`)
  }
  // Every Node's plan and reader, the other build's plan on each Node, the old fixture and `node -e 0` on the
  // first: all in the same rounds, the order rotating round by round.
  const [first] = ctx.nodes as [NodeBinary, ...NodeBinary[]]
  const sides: Record<string, { run: () => Promise<void> }> = {}
  ctx.nodes.forEach((node, i) => {
    sides[`plan@${i}`] = child(`plan@${i}`, dir, plan(dir, 'bench'), node, empty)
    sides[`reader@${i}`] = child(`reader@${i}`, dir, reader(dir), node)
    if (otherCli) sides[`before@${i}`] = child(`before@${i}`, dir, plan(dir, 'bench', otherCli), node, empty)
  })
  sides.oldPlan = child('oldPlan', oldDir, plan(oldDir, 'old'), first, empty)
  sides.oldReader = child('oldReader', oldDir, reader(oldDir), first)
  sides.empty = child('empty', dir, ['-e', '0'], first)
  for (const side of Object.values(sides)) await side.run() // warm-up (the disk cache), not counted
  for (const k of Object.keys(cpu)) {
    cpu[k] = []
    rss[k] = []
  }
  const rounds = roundsOf(ctx.quick, 11)
  ctx.log(
    `  user repository, cold plan against the plain reader on ${ctx.nodes.map(n => n.label).join(' and ')}: ${rounds} interleaved rounds`
  )
  const wall = await interleave(rounds, sides)
  const profile = await profileBundleRun(plan(dir, 'bench'), { cwd: dir, env })
  ctx.nodes.forEach((node, i) => {
    const [p, r] = [`plan@${i}`, `reader@${i}`]
    section.rows.push(
      ratioRow({
        figure: `cold plan / plain reader, user-shaped repository (${n} files), wall, ${node.label}`,
        a: wall[p]!,
        b: wall[r]!,
        goal: { atMost: GOAL },
        restated: true,
        left: x =>
          `${ratio(x.median / GOAL)} over the goal; the plan process's CPU profile (${first.label}): ${describeShares(profile)}`
      }),
      {
        figure: `the same, against the stretch goal (${STRETCH}x), ${node.label}`,
        measured: paired(pairedRatio(wall[p]!, wall[r]!)),
        goal: `≤ ${STRETCH}x`,
        pass: pairedRatio(wall[p]!, wall[r]!).median <= STRETCH
      },
      {
        figure: `cold plan / plain reader, user-shaped repository, CPU (user + system), ${node.label}`,
        measured: `${paired(pairedRatio(cpu[p]!, cpu[r]!))}: ${medMin(cpu[p]!)} vs ${medMin(cpu[r]!)}`,
        goal: 'info'
      }
    )
    if (otherCli)
      section.rows.push({
        figure: `${ctx.compareDist}'s cold plan / plain reader, the same rounds, wall; CPU, ${node.label}`,
        measured: `${paired(pairedRatio(wall[`before@${i}`]!, wall[r]!))}; ${paired(pairedRatio(cpu[`before@${i}`]!, cpu[r]!))}`,
        goal: 'info (the other build against the same goal)'
      })
    if (otherCli)
      section.rows.push({
        figure: `this build / ${ctx.compareDist}, the same cold plan, wall; CPU; peak RSS, ${node.label}`,
        measured: `${paired(pairedRatio(wall[p]!, wall[`before@${i}`]!))}; ${paired(pairedRatio(cpu[p]!, cpu[`before@${i}`]!))}; ${paired(pairedRatio(rss[p]!, rss[`before@${i}`]!))}`,
        goal: 'info (lower is better)'
      })
  })
  section.rows.push(
    {
      figure: `cold plan / plain reader, old fixture (${n / 100} files of 100 alike dashboards), wall; CPU, ${first.label}`,
      measured: `${paired(pairedRatio(wall.oldPlan!, wall.oldReader!))}: ${medMin(wall.oldPlan!)} vs ${medMin(wall.oldReader!)}; CPU ${paired(pairedRatio(cpu.oldPlan!, cpu.oldReader!))}`,
      goal: 'info (section 1 has its own goal against its own baseline)'
    },
    {
      figure: `peak RSS, cold plan / plain reader (user-shaped, ${ctx.nodes.map(x => x.label).join(', ')}; old fixture)`,
      measured: `${ctx.nodes.map((_, i) => ratio(median(rss[`plan@${i}`]!) / median(rss[`reader@${i}`]!))).join(', ')}; ${ratio(median(rss.oldPlan!) / median(rss.oldReader!))}`,
      goal: 'info'
    },
    {
      figure: `node start-up: \`node -e 0\`, ${first.label}`,
      measured: `wall ${medMin(wall.empty!)}, CPU ${medMin(cpu.empty!)}`,
      goal: 'info'
    },
    {
      figure: `where the cold plan of the user-shaped repository spends its CPU (one profiled run, self time, ${first.label})`,
      measured: describeShares(profile, 12),
      goal: 'diagnostic'
    }
  )
  const labels = Object.fromEntries([
    ...ctx.nodes.flatMap((node, i) => [
      [`plan@${i}`, `plan, ${node.label}`],
      [`reader@${i}`, `reader, ${node.label}`],
      [`before@${i}`, `${ctx.compareDist ?? ''} plan, ${node.label}`]
    ]),
    ['oldPlan', `old fixture plan, ${first.label}`],
    ['oldReader', `old fixture reader, ${first.label}`],
    ['empty', `node -e 0, ${first.label}`]
  ])
  section.raw.push(
    ...Object.entries(wall).map(
      ([k, v]) =>
        `${labels[k] ?? k}: wall median ${ms(median(v))}; samples ms [${list(v)}]; CPU ms [${list(cpu[k]!)}]; peak RSS MB [${list(rss[k]!.map(b => b / 1048576))}]`
    ),
    `profile of the cold plan: ${profile.map(p => `${p.what} ${ms(p.ms)}`).join(', ')}`
  )
  await emu.reset()
  return section
}
