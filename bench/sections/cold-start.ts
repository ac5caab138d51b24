/**
 * 4. Cold start: the action bundle as the runner starts it (`node dist/index.js`, inputs in INPUT_*), command
 * validate on examples/, against `node -e 0`. Also: bundle sizes, which chunks validate loads, and where the
 * start-up time goes (a CPU profile of one start). `--compare-dist DIR` adds another build of the action
 * (say, the one before a change) as a side of the same interleaved run.
 */
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { bundleFiles } from '../../scripts/bundle-files.js'
import { describeShares, profileBundleRun } from '../lib/bundle-profile.js'
import { runNode, usageSource } from '../lib/child.js'
import { ROOT, scratch, type BenchContext } from '../lib/context.js'
import {
  interleave,
  list,
  median,
  ratioRow,
  ms,
  paired,
  pairedRatio,
  rounds as roundsOf,
  type Section
} from '../lib/stats.js'

const GOAL = 3

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
      'it), against `node -e 0`, and the CLI bundle `node dist/cli/index.js validate examples/observability`. Wall ' +
      `time of each child process, and its CPU time (user + system) and peak RSS from ${usageSource}; ` +
      'ratios per interleaved pair, median and min.',
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

  const rounds = roundsOf(ctx.quick, 15)
  ctx.log(`  cold start: ${rounds} interleaved rounds`)
  const cpu: Record<string, number[]> = { action: [], cli: [], empty: [], before: [] }
  const side = (name: string, args: string[], env?: NodeJS.ProcessEnv) => ({
    run: async () => {
      const r = await runNode(args, { cwd: ROOT, env: env ?? actionEnv(dir), usage: true })
      if (r.code !== 0) throw new Error(`${name} exited ${r.code}: ${r.stderr.slice(-1000)}`)
      cpu[name]!.push(r.cpuMs ?? NaN)
    }
  })
  const compare = ctx.compareDist ? asOnRunner(path.resolve(ctx.compareDist), dir, 'before') : undefined
  const samples = await interleave(rounds, {
    action: side('action', [action]),
    cli: side('cli', [cli, 'validate', 'examples/observability']),
    empty: side('empty', ['-e', '0']),
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
        left: () =>
          `${ms(median(a) - GOAL * median(b))} over ${GOAL}x; the start's CPU profile: ${describeShares(profile)}`
      })
    )
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
