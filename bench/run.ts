/**
 * `npm run bench`: the benchmarks of bench/sections, written to bench/RESULTS.md.
 *
 *   npm run bench                      every section
 *   npm run bench -- --sections 1,4    some of them
 *   npm run bench -- --quick           smaller sizes and fewer rounds, written to bench/.work/ (a harness check)
 *   npm run bench -- --sections 4 --compare-dist OTHER/dist
 *                                      another build beside this one in the same rounds (before/after a change):
 *                                      the cold start (4) and the user-shaped cold plan (7)
 *   npm run bench -- --node /path/to/node20,/path/to/node24
 *                                      the node binaries the measured children run under (default: the one
 *                                      running the bench); sections 4, 5 and 7 measure each, the others the first
 *
 * Every timing is a ratio to a baseline measured in the same run, both sides run several times interleaved,
 * medians compared: the machine is shared and noisy.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { nodeBinary, setDefaultNode } from './lib/child.js'
import { ROOT, type BenchContext } from './lib/context.js'
import { startRemoteEmulator } from './lib/remote.js'
import { goalsTable, machine, table, type Section } from './lib/stats.js'
import { applyAtScale } from './sections/apply-scale.js'
import { coldStart } from './sections/cold-start.js'
import { growth } from './sections/growth.js'
import { managedRateLimit } from './sections/managed.js'
import { planAtScale } from './sections/plan-scale.js'
import { policiesOnPlan } from './sections/policies.js'
import { manyStacks } from './sections/stacks.js'
import { userRepo } from './sections/user-repo.js'

const SECTIONS: Record<string, (ctx: BenchContext) => Promise<Section>> = {
  '1': planAtScale,
  '2': applyAtScale,
  '3': managedRateLimit,
  '4': coldStart,
  '5': growth,
  '6': manyStacks,
  '7': userRepo,
  '8': policiesOnPlan
}

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean' },
    sections: { type: 'string' },
    out: { type: 'string' },
    'compare-dist': { type: 'string' },
    node: { type: 'string' }
  },
  strict: true
})
const chosen = (values.sections ?? Object.keys(SECTIONS).join(','))
  .split(',')
  .map(s => s.trim())
  .filter(Boolean)
for (const s of chosen)
  if (!SECTIONS[s]) throw new Error(`no section "${s}" (have ${Object.keys(SECTIONS).join(', ')})`)
const quick = Boolean(values.quick)
const out = path.resolve(
  values.out ??
    (quick ? path.join(ROOT, 'bench', '.work', 'RESULTS.quick.md') : path.join(ROOT, 'bench', 'RESULTS.md'))
)

const nodes = (values.node ?? process.execPath)
  .split(',')
  .map(s => s.trim())
  .filter(Boolean)
  .map(file => nodeBinary(path.resolve(file)))
setDefaultNode(nodes[0]!.path)

const started = Date.now()
const machineLines = [
  ...machine(),
  `the measured children run under: ${nodes.map(n => `${n.label} (${n.path})`).join(', ')}`
]
const tmp = mkdtempSync(path.join(os.tmpdir(), 'obsdeploy-bench-'))
const emu = await startRemoteEmulator()
const log = (line: string) => console.log(line)
const ctx: BenchContext = { emu, tmp, quick, log, compareDist: values['compare-dist'], nodes }
const results: Section[] = []
const failures: string[] = []
try {
  for (const id of chosen) {
    const t = Date.now()
    const loadBefore = os.loadavg()[0]!
    log(`section ${id}...`)
    try {
      const section = await SECTIONS[id]!(ctx)
      // How busy the machine was: the one-minute load average as the section began and ended.
      section.notes.push(
        `Load average (1 min) on this machine of ${os.cpus().length} CPUs: ${loadBefore.toFixed(1)} as the section began, ${os.loadavg()[0]!.toFixed(1)} as it ended; the section took ${((Date.now() - t) / 1000).toFixed(0)} s.`
      )
      results.push(section)
    } catch (e) {
      const message = e instanceof Error ? (e.stack ?? e.message) : String(e)
      failures.push(`section ${id}: ${message}`)
      results.push({
        title: `Section ${id}`,
        method: '',
        rows: [],
        raw: [],
        notes: [`The section failed: ${message}`]
      })
    }
    log(`section ${id} done in ${((Date.now() - t) / 1000).toFixed(0)} s`)
  }
} finally {
  await emu.close()
  rmSync(tmp, { recursive: true, force: true })
}

const seconds = ((Date.now() - started) / 1000).toFixed(0)
const argv = process.argv.slice(2)
const goals = results.flatMap(s =>
  s.rows.filter(r => r.headline).map(r => ({ ...r, section: s.title.replace(/:.*$/, '') }))
)
const md = [
  '# Benchmarks',
  '',
  `Written by \`npm run bench${argv.length > 0 ? ` -- ${argv.join(' ')}` : ''}\`${quick ? ' (--quick: smaller sizes, fewer rounds: not for conclusions)' : ''} on ${new Date().toISOString()}; the whole run took ${seconds} s. It measured ${commit()}.`,
  'Every timing is a ratio to a baseline measured in the same run: both sides ran in interleaved rounds (at least 7),',
  'and each ratio is taken per pair of rounds, its median and min reported. The machine is shared with other work,',
  'so absolute times are noisy; ratios less so. Reproduce with `npm ci && npm run build && npm run bench`.',
  '',
  ...(goals.length > 0 ? ['## Goals', '', ...goalTables(goals), ''] : []),
  '## Machine',
  '',
  ...machineLines.map(l => `- ${l}`),
  `- load average at end (1/5/15 min): ${os
    .loadavg()
    .map(l => l.toFixed(2))
    .join(' / ')}`,
  '',
  ...results.flatMap(s => [
    `## ${s.title}`,
    '',
    s.method,
    '',
    table(s.rows),
    '',
    ...(s.notes.length > 0 ? [...s.notes.map(n => `- ${n}`), ''] : []),
    '<details><summary>raw medians and samples</summary>',
    '',
    '```',
    ...s.raw,
    '```',
    '',
    '</details>',
    ''
  ])
].join('\n')
/** Issue 38's restated goals first, then the goals of earlier issues that are still measured. */
function goalTables(rows: typeof goals): string[] {
  const restated = rows.filter(r => r.headline?.restated)
  const earlier = rows.filter(r => !r.headline?.restated)
  return [
    ...(restated.length > 0
      ? ['### The restated performance goals (issue 38)', '', goalsTable(restated), '']
      : []),
    ...(earlier.length > 0 ? ['### Goals of earlier issues, still measured', '', goalsTable(earlier)] : [])
  ]
}

/** The commit measured, and whether the work tree differed from it. */
function commit(): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim()
    const dirty = git('status', '--porcelain', '--', 'src', 'bench', 'dist', 'package-lock.json') !== ''
    return `commit ${git('rev-parse', '--short', 'HEAD')}${dirty ? ' with uncommitted changes' : ''}`
  } catch {
    return 'a tree outside git'
  }
}

// A before/after comparison measured once by hand (a dependency change, say) sits below this line and is kept.
const BY_HAND = '<!-- Measured by hand, not by npm run bench, which keeps what follows this line. -->'
const previous = existsSync(out) ? readFileSync(out, 'utf8') : ''
const kept = previous.includes(BY_HAND) ? previous.slice(previous.indexOf(BY_HAND)) : ''
mkdirSync(path.dirname(out), { recursive: true })
writeFileSync(out, kept ? `${md}\n${kept}` : md)
log(`wrote ${path.relative(process.cwd(), out)} in ${seconds} s`)
if (failures.length > 0) {
  console.error(failures.join('\n'))
  process.exitCode = 1
}
