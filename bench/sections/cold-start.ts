/**
 * 4. Cold start: the action bundle as the runner starts it (`node dist/index.js`, inputs in INPUT_*), command
 * validate on examples/, against `node -e 0`. Also: bundle sizes, whether the lazy chunks load for validate,
 * and where the start-up time goes (a CPU profile of one start).
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { runNode } from '../lib/child.js'
import { ROOT, scratch, type BenchContext } from '../lib/context.js'
import { interleave, list, median, ms, ratio, type Section } from '../lib/stats.js'

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

const sizeOf = (files: string[]) => files.reduce((n, f) => n + statSync(f).size, 0)
const kb = (n: number) => `${(n / 1024).toFixed(0)} kB`

export async function coldStart(ctx: BenchContext): Promise<Section> {
  const dir = scratch(ctx, 'cold-start')
  const dist = path.join(ROOT, 'dist')
  const action = path.join(dist, 'index.js')
  const cli = path.join(dist, 'cli', 'index.js')
  const section: Section = {
    title: '4. Cold start',
    method:
      '`node dist/index.js` with INPUT_COMMAND=validate, INPUT_MANIFESTS=`examples/observability/**/*.yaml`, ' +
      'GITHUB_WORKSPACE = the repository, GITHUB_STEP_SUMMARY and GITHUB_OUTPUT temp files (as the runner starts ' +
      'it), against `node -e 0`, and the CLI bundle `node dist/cli/index.js validate examples/observability`; wall ' +
      'time of the child process, interleaved, medians.',
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

  const rounds = ctx.quick ? 3 : 10
  ctx.log(`  cold start: ${rounds} interleaved rounds`)
  const samples = await interleave(rounds, {
    action: { run: () => runNode([action], { cwd: ROOT, env: actionEnv(dir) }) },
    cli: { run: () => runNode([cli, 'validate', 'examples/observability'], { cwd: ROOT }) },
    empty: { run: () => runNode(['-e', '0'], { cwd: ROOT }) }
  })
  const a = median(samples.action!)
  const c = median(samples.cli!)
  const e = median(samples.empty!)
  section.rows.push({
    figure: 'action validate / node -e 0',
    measured: `${ratio(a / e)} (${ms(a)} vs ${ms(e)}; ${ms(a - e)} of our own)`,
    goal: 'report (lower is better)'
  })
  section.rows.push({
    figure: 'CLI validate / node -e 0',
    measured: `${ratio(c / e)} (${ms(c)} vs ${ms(e)})`,
    goal: 'info'
  })

  const actionFiles = readdirSync(dist)
    .filter(f => f.endsWith('.js'))
    .map(f => path.join(dist, f))
  const cliFiles = readdirSync(path.join(dist, 'cli'))
    .filter(f => f.endsWith('.js'))
    .map(f => path.join(dist, 'cli', f))
  section.rows.push({
    figure: 'bundle size: dist/index.js + chunks',
    measured: `${kb(sizeOf(actionFiles))}: ${actionFiles.map(f => `${path.basename(f)} ${kb(statSync(f).size)}`).join(', ')}`,
    goal: 'info'
  })
  section.rows.push({
    figure: 'bundle size: dist/cli/index.js + chunks',
    measured: `${kb(sizeOf(cliFiles))}: ${cliFiles.map(f => `${path.basename(f)} ${kb(statSync(f).size)}`).join(', ')}`,
    goal: 'info'
  })

  // Are the lazy chunks loaded for validate? Run a copy of dist/ without them.
  const bare = path.join(dir, 'dist-without-chunks')
  mkdirSync(bare, { recursive: true })
  const chunks = actionFiles.filter(f => path.basename(f) !== 'index.js')
  for (const f of ['index.js', 'package.json']) copyFileSync(path.join(dist, f), path.join(bare, f))
  const withoutChunks = await runNode([path.join(bare, 'index.js')], { cwd: ROOT, env: actionEnv(dir) })
  const chunkInfo = chunks
    .map(f => `${path.basename(f)} (${describeChunk(readFileSync(f, 'utf8'))})`)
    .join(', ')
  section.rows.push({
    figure: 'lazy chunks loaded for validate?',
    measured:
      withoutChunks.code === 0
        ? `no: validate succeeds without ${chunkInfo}`
        : `yes: validate fails without ${chunkInfo} (exit ${withoutChunks.code})`,
    goal: 'Octokit not loaded',
    pass: withoutChunks.code === 0
  })

  // Where does the start-up go? One CPU profile of the action's validate, attributed to bundle modules.
  const profDir = path.join(dir, 'prof')
  await runNode(['--cpu-prof', '--cpu-prof-interval', '200', '--cpu-prof-dir', profDir, action], {
    cwd: ROOT,
    env: actionEnv(dir)
  })
  const profile = readdirSync(profDir).find(f => f.endsWith('.cpuprofile'))
  if (profile) {
    const breakdown = attribute(path.join(profDir, profile), action)
    section.rows.push({
      figure: 'start-up profile of the action (one run)',
      measured:
        `${ms(breakdown.total)} sampled: compiling the bundle ${ms(breakdown.compile)}, evaluating it ${ms(breakdown.evaluate)} ` +
        `(of which ${breakdown.undiciModules} copies of undici ${ms(breakdown.undici)}), ` +
        `validate itself (loadManifests) ${ms(breakdown.load)}`,
      goal: 'info'
    })
    section.raw.push(`profile: ${JSON.stringify(breakdown)}`)
  }
  rmSync(bare, { recursive: true, force: true })
  section.raw.push(
    ...Object.entries(samples).map(([k, v]) => `${k}: median ${ms(median(v))}; samples ms [${list(v)}]`)
  )
  return section
}

function describeChunk(text: string): string {
  if (/octokit/i.test(text)) return 'Octokit / @actions/github'
  if (/upsertStickyComment/.test(text)) return 'the PR comment'
  if (/exportCommand/.test(text)) return 'export'
  return 'other'
}

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}

/**
 * Attributes the samples of a CPU profile: time compiling the bundle, time inside the module factory of
 * undici's entry (each copy), and of loadManifests. Module factories are recognised by
 * their webpack id and the line they start at in the bundle.
 */
function attribute(file: string, bundle: string) {
  const p = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: ProfileNode[]
    samples: number[]
    timeDeltas: number[]
  }
  const lines = readFileSync(bundle, 'utf8').split('\n')
  // Module headers "/***/ 1234:" and what follows them, to name a few.
  const named = new Map<string, 'undici'>()
  for (let i = 0; i < lines.length; i++) {
    const m = /^\/\*\*\*\/ (\d+):$/.exec(lines[i]!)
    if (!m) continue
    const head = lines.slice(i, i + 14).join('\n')
    if (
      /const Dispatcher = __nccwpck_require__/.test(head) &&
      /const Client = __nccwpck_require__/.test(head)
    )
      named.set(m[1]!, 'undici')
  }
  const byId = new Map(p.nodes.map(n => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const self = new Map<number, number>()
  p.samples.forEach((s, i) => self.set(s, (self.get(s) ?? 0) + (p.timeDeltas[i] ?? 0)))
  const out = { total: 0, compile: 0, evaluate: 0, undici: 0, undiciModules: 0, load: 0 }
  const undiciSeen = new Set<string>()
  for (const [id, us] of self) {
    const t = us / 1000
    out.total += t
    const tags = new Set<string>()
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const cf = byId.get(cur)!.callFrame
      const fn = cf.functionName
      if (fn === 'compileSourceTextModule') tags.add('compile')
      if (fn === 'evaluate' || (fn === 'run' && cf.url.includes('module_job'))) tags.add('evaluate')
      if (fn === 'loadManifests') tags.add('load')
      if (named.get(fn) === 'undici') {
        tags.add('undici')
        undiciSeen.add(fn)
      }
    }
    if (tags.has('compile')) out.compile += t
    if (tags.has('evaluate')) out.evaluate += t
    if (tags.has('undici')) out.undici += t
    if (tags.has('load')) out.load += t
  }
  out.undiciModules = undiciSeen.size
  return out
}
