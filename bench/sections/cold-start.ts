/**
 * 4. Cold start: the action bundle as the runner starts it (`node dist/index.js`, inputs in INPUT_*), command
 * validate on examples/, against the floor program (bench/floor.mjs, bundled as the action is: the least any
 * program doing this job could do) in instructions (callgrind) on each Node of `--node`, and against
 * `node -e 0` and the floor in wall and CPU time. Also: bundle sizes, which chunks validate loads, and where
 * the start-up time goes (a CPU profile of one start). `--compare-dist DIR` adds another build of the action
 * (say, the one before a change) as a side of the same interleaved run.
 */
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { bundleFiles } from '../../scripts/bundle-files.js'
import { describeShares, profileBundleRun } from '../lib/bundle-profile.js'
import { runNode, usageSource } from '../lib/child.js'
import { ROOT, scratch, type BenchContext } from '../lib/context.js'
import { hasCallgrind, medianInstructions, millions } from '../lib/instructions.js'
import {
  interleave,
  list,
  median,
  ratio,
  ratioRow,
  ms,
  paired,
  pairedRatio,
  rounds as roundsOf,
  type Section
} from '../lib/stats.js'

const GOAL = 3
/** Issue 38: the action's validate in at most 1.5x the floor program's instructions. */
const FLOOR_GOAL = 1.5
const EXAMPLES = 'examples/observability'

function actionEnv(dir: string): NodeJS.ProcessEnv {
  const summary = path.join(dir, 'summary.md')
  const output = path.join(dir, 'output.txt')
  writeFileSync(summary, '')
  writeFileSync(output, '')
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    INPUT_COMMAND: 'validate',
    INPUT_MANIFESTS: 'examples/observability/**/*.yaml',
    GITHUB_WORKSPACE: ROOT,
    GITHUB_STEP_SUMMARY: summary,
    GITHUB_OUTPUT: output,
    RUNNER_TEMP: dir
  }
}

const kb = (n: number) => `${(n / 1024).toFixed(0)} kB`

/** The code a build made for one entry (index.js, the chunks and the side files it loads), with sizes. */
function bundleSize(folder: string): { total: number; files: string } {
  const files = bundleFiles(folder).made.filter(f => /\.c?js$/.test(f))
  const sizes = files.map(f => ({ f, size: statSync(path.join(folder, f)).size }))
  return {
    total: sizes.reduce((n, s) => n + s.size, 0),
    files: sizes.map(s => `${s.f} ${kb(s.size)}`).join(', ')
  }
}

/**
 * A copy of a build of the action (index.js, its chunks, package.json) outside the repository, as the runner
 * has it (`_actions/<owner>/<repo>/<ref>/dist`): nothing resolves from a node_modules above it. Run from the
 * repository's own dist/, fdir (tinyglobby's) finds the repository's picomatch and evaluates it at start-up.
 */
function asOnRunner(folder: string, dir: string, name: string): string {
  const copy = path.join(dir, name, 'dist')
  mkdirSync(copy, { recursive: true })
  for (const f of bundleFiles(folder).made.filter(f => f !== 'licenses.txt'))
    copyFileSync(path.join(folder, f), path.join(copy, f))
  return path.join(copy, 'index.js')
}

/**
 * The build to profile: the shipped one while it names its modules (ncc's `// CONCATENATED MODULE:` comments,
 * which bundle-profile.ts reads to say which package a sample belongs to). The action's bundle is minified and
 * names none, so the profile is of an unminified build of the same sources, made here (its compiling rows are
 * larger than the shipped bundle's).
 */
function profiledBuild(action: string, dir: string): { file: string; note: string } {
  if (readFileSync(action, 'utf8').includes('// CONCATENATED MODULE:')) return { file: action, note: '' }
  const out = path.join(dir, 'unminified', 'dist')
  execFileSync(path.join(ROOT, 'node_modules', '.bin', 'ncc'), ['build', 'src/index.ts', '-o', out, '-q'], {
    cwd: ROOT,
    stdio: 'ignore'
  })
  return { file: path.join(out, 'index.js'), note: ', of an unminified build of the same sources' }
}

/**
 * The floor program (bench/floor.mjs) bundled as the action is (ncc, minified) and copied outside the
 * repository as the action is: the least a shipped program doing validate's job could load. Run from the
 * repository as a plain file, it would also resolve and compile zod's and js-yaml's files one by one.
 */
function floorBuild(dir: string): string {
  const out = path.join(dir, 'floor', 'dist')
  execFileSync(
    path.join(ROOT, 'node_modules', '.bin', 'ncc'),
    ['build', 'bench/floor.mjs', '-o', out, '-q', '-m'],
    {
      cwd: ROOT,
      stdio: 'ignore'
    }
  )
  return path.join(out, 'index.mjs')
}

export async function coldStart(ctx: BenchContext): Promise<Section> {
  const dir = scratch(ctx, 'cold-start')
  const dist = path.join(ROOT, 'dist')
  const action = asOnRunner(dist, dir, 'action')
  const cli = path.join(dist, 'cli', 'index.js')
  const section: Section = {
    title: '4. Cold start',
    method:
      '`node dist/index.js` (a copy outside the repository, as the runner has it) with INPUT_COMMAND=validate, INPUT_MANIFESTS=`examples/observability/**/*.yaml`, ' +
      'GITHUB_WORKSPACE = the repository, GITHUB_STEP_SUMMARY and GITHUB_OUTPUT temp files (as the runner starts ' +
      'it), against `node -e 0`, the **floor program** (bench/floor.mjs: read the same files, sha256 each, parse ' +
      "them with js-yaml 4 and check each document with one zod schema, the project's zod imported as an ES " +
      'module; bundled as the action is, with `ncc -m`, and run from a copy outside the repository), and the CLI ' +
      'bundle `node dist/cli/index.js validate examples/observability`. **Instructions**: `valgrind ' +
      '--tool=callgrind` (all threads, the whole process), the median of several runs of each, on each Node of ' +
      '`--node`; every child starts with PATH and HOME only (and the INPUT_* and GITHUB_* variables of the ' +
      `action), as a runner's step does. Wall time of each child process, and its CPU time (user + system) and ` +
      `peak RSS from ${usageSource}; ratios per interleaved pair, median and min.`,
    rows: [],
    raw: [],
    notes: []
  }

  // It must actually work, or the timing means nothing.
  const check = await runNode([action], { cwd: ROOT, env: actionEnv(dir) })
  const outputs = readFileSync(path.join(dir, 'output.txt'), 'utf8')
  if (check.code !== 0 || !/has-changes/.test(outputs))
    throw new Error(
      `the action's validate failed (exit ${check.code}): ${check.stdout.slice(-1000)}${check.stderr.slice(-1000)}`
    )

  const floor = floorBuild(dir)
  const plainEnv = { PATH: process.env.PATH, HOME: process.env.HOME }
  const floorArgs = [floor, path.join(ROOT, EXAMPLES)]
  const floorCheck = await runNode(floorArgs, { cwd: ROOT, env: plainEnv })
  if (floorCheck.code !== 0 || !/"invalid":0/.test(floorCheck.stdout))
    throw new Error(
      `the floor program failed (exit ${floorCheck.code}): ${floorCheck.stdout}${floorCheck.stderr.slice(-1000)}`
    )
  const compare = ctx.compareDist ? asOnRunner(path.resolve(ctx.compareDist), dir, 'before') : undefined
  await instructionRows(ctx, section, {
    action,
    other: compare,
    actionEnv: actionEnv(dir),
    floorArgs,
    plainEnv
  })

  const rounds = roundsOf(ctx.quick, 15)
  ctx.log(`  cold start: ${rounds} interleaved rounds`)
  const cpu: Record<string, number[]> = { action: [], cli: [], empty: [], floor: [], before: [] }
  const side = (name: string, args: string[], env?: NodeJS.ProcessEnv) => ({
    run: async () => {
      const r = await runNode(args, { cwd: ROOT, env: env ?? actionEnv(dir), usage: true })
      if (r.code !== 0) throw new Error(`${name} exited ${r.code}: ${r.stderr.slice(-1000)}`)
      cpu[name]!.push(r.cpuMs ?? NaN)
    }
  })
  const samples = await interleave(rounds, {
    action: side('action', [action]),
    cli: side('cli', [cli, 'validate', EXAMPLES]),
    empty: side('empty', ['-e', '0']),
    floor: side('floor', floorArgs, plainEnv),
    ...(compare ? { before: side('before', [compare]) } : {})
  })
  const profiled = profiledBuild(action, dir)
  const profile = await profileBundleRun([profiled.file], { cwd: ROOT, env: actionEnv(dir) })
  for (const [what, a, b] of [
    ['wall', samples.action!, samples.empty!],
    ['CPU (user + system)', cpu.action!, cpu.empty!]
  ] as const)
    section.rows.push(
      ratioRow({
        figure: `action \`validate\` cold start / \`node -e 0\`, ${what}`,
        a,
        b,
        goal: { atMost: GOAL },
        left: r =>
          `${ratio(r.median / GOAL)} of ${GOAL}x; the start's CPU profile: ${describeShares(profile)}`
      })
    )
  section.rows.push({
    figure: 'action `validate` / the floor program, wall; CPU (the floor / `node -e 0` in brackets)',
    measured: `${paired(pairedRatio(samples.action!, samples.floor!))}; ${paired(pairedRatio(cpu.action!, cpu.floor!))} (${paired(pairedRatio(samples.floor!, samples.empty!))}; ${paired(pairedRatio(cpu.floor!, cpu.empty!))})`,
    goal: 'info'
  })
  section.rows.push({
    figure: 'CLI `validate` / `node -e 0`, wall; CPU',
    measured: `${paired(pairedRatio(samples.cli!, samples.empty!))}; ${paired(pairedRatio(cpu.cli!, cpu.empty!))}`,
    goal: 'info'
  })
  if (compare)
    section.rows.push({
      figure: `this build / ${ctx.compareDist}, action validate, wall; CPU`,
      measured: `${paired(pairedRatio(samples.action!, samples.before!))}; ${paired(pairedRatio(cpu.action!, cpu.before!))}`,
      goal: 'info (lower is better)'
    })
  section.rows.push({
    figure: `where the action’s validate spends its CPU (one profiled start, self time${profiled.note})`,
    measured: describeShares(profile, 12),
    goal: 'diagnostic'
  })

  for (const [folder, what] of [
    [dist, 'the action: dist/index.js and the chunks and side files it loads'],
    [path.join(dist, 'cli'), 'the CLI: dist/cli/index.js and the chunks and side files it loads']
  ] as const) {
    const size = bundleSize(folder)
    section.rows.push({
      figure: `bundle size, ${what}`,
      measured: `${kb(size.total)}: ${size.files}`,
      goal: 'info'
    })
  }

  // Does validate load any chunk? Run a copy of dist/ that has none.
  const bare = path.join(dir, 'dist-without-chunks')
  mkdirSync(bare, { recursive: true })
  for (const f of ['index.js', 'package.json']) copyFileSync(path.join(dist, f), path.join(bare, f))
  const withoutChunks = await runNode([path.join(bare, 'index.js')], { cwd: ROOT, env: actionEnv(dir) })
  const entry = statSync(action).size
  section.rows.push({
    figure: 'what validate loads',
    measured:
      withoutChunks.code === 0
        ? `dist/index.js alone (${kb(entry)}): validate succeeds without any chunk or side file (undici, Octokit and the API client are chunks; the yaml library is yaml.cjs)`
        : `more than dist/index.js: validate fails without its chunks or side files (exit ${withoutChunks.code})`,
    goal: 'no chunk',
    pass: withoutChunks.code === 0
  })
  rmSync(bare, { recursive: true, force: true })
  section.raw.push(
    ...Object.entries(samples).map(
      ([k, v]) => `${k}: wall median ${ms(median(v))}; samples ms [${list(v)}]; CPU ms [${list(cpu[k]!)}]`
    ),
    `profile of the action's validate: ${profile.map(p => `${p.what} ${ms(p.ms)}`).join(', ')}`
  )
  return section
}

/**
 * Issue 38's goal: the action's validate in at most 1.5x the floor program's instructions, on each Node of
 * `--node`; `node -e 0` and the floor run as a plain file beside them (info).
 */
async function instructionRows(
  ctx: BenchContext,
  section: Section,
  p: {
    action: string
    /** `--compare-dist`: the other build's action, counted the same way. */
    other?: string
    actionEnv: NodeJS.ProcessEnv
    floorArgs: string[]
    plainEnv: NodeJS.ProcessEnv
  }
): Promise<void> {
  if (!hasCallgrind()) {
    section.notes.push(
      'valgrind is not installed: no instruction counts (the goal in instructions is not measured).'
    )
    return
  }
  const runs = ctx.quick ? 1 : 3
  for (const node of ctx.nodes) {
    ctx.log(`  instructions under callgrind, ${node.label}: ${runs} run(s) of each`)
    const count = (args: string[], env: NodeJS.ProcessEnv, n = runs) =>
      medianInstructions(n, node.path, args, { cwd: ROOT, env })
    const action = await count([p.action], p.actionEnv)
    const floor = await count(p.floorArgs, p.plainEnv)
    const empty = await count(['-e', '0'], p.plainEnv)
    const plainFloor = await count(
      [path.join(ROOT, 'bench', 'floor.mjs'), path.join(ROOT, EXAMPLES)],
      p.plainEnv,
      1
    )
    const other = p.other ? await count([p.other], p.actionEnv) : undefined
    const r = action.median / floor.median
    section.rows.push(
      {
        figure: `action \`validate\` / the floor program, instructions, ${node.label}`,
        measured: `${ratio(r)}: ${millions(action.median)} vs ${millions(floor.median)} (medians of ${runs}); \`node -e 0\` ${millions(empty.median)} (the action ${ratio(action.median / empty.median)} of it, the floor ${ratio(floor.median / empty.median)})`,
        goal: `≤ ${FLOOR_GOAL}x`,
        pass: r <= FLOOR_GOAL,
        headline: {
          restated: true,
          left: `${millions(action.median - FLOOR_GOAL * floor.median)} over ${FLOOR_GOAL}x (the action spends ${millions(action.median - floor.median)} more than the floor); see section 14`
        }
      },
      {
        figure: `the floor program run as a plain file from the repository (zod's and js-yaml's files resolved and compiled one by one), instructions, ${node.label}`,
        measured: `${millions(plainFloor.median)}: the action is ${ratio(action.median / plainFloor.median)} of it`,
        goal: 'info (not the goal: a shipped action is bundled)'
      }
    )
    if (other)
      section.rows.push({
        figure: `${ctx.compareDist}'s action \`validate\` / the floor program, instructions, ${node.label}`,
        measured: `${ratio(other.median / floor.median)}: ${millions(other.median)} (this build / it: ${ratio(action.median / other.median)})`,
        goal: 'info (the other build against the same goal)'
      })
    section.raw.push(
      `instructions, ${node.label}: ${other ? `the other build's action [${other.counts.map(millions).join(', ')}], ` : ''}action [${action.counts.map(millions).join(', ')}], floor [${floor.counts.map(millions).join(', ')}], node -e 0 [${empty.counts.map(millions).join(', ')}], floor as a plain file [${plainFloor.counts.map(millions).join(', ')}]`
    )
  }
}
