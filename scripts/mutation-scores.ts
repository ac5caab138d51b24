/**
 * Per-file mutation scores for docs/testing.md, from a Stryker report or from the event-recorder's files.
 *
 *   npm run mutate:scores -- reports/mutation/mutation.json     (the json reporter: written at the end of a run)
 *   npm run mutate:scores -- reports/mutation/events            (event-recorder: one file per tested mutant, so a
 *                                                                 run that is still going, or was stopped, counts too)
 *
 * Prints one markdown row per mutated file (the columns of docs/testing.md) and then every mutant that survived or
 * had no covering test, by place, so each can be killed with a test or explained. Score is Stryker's: (killed +
 * timeout) / (killed + timeout + survived + no coverage); mutants that do not compile, ignored (static) mutants and
 * runtime errors are not counted.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'

export interface Mutant {
  fileName?: string
  mutatorName: string
  replacement?: string
  status: string
  location: { start: { line: number; column: number }; end: { line: number; column: number } }
}

const COLUMNS = [
  'Killed',
  'Timeout',
  'Survived',
  'NoCoverage',
  'CompileError',
  'Ignored',
  'RuntimeError'
] as const

/** Every mutant of the report or the events folder, each with its file name relative to the working directory. */
export function readMutants(path: string): Mutant[] {
  if (statSync(path).isDirectory()) {
    return readdirSync(path)
      .filter(f => f.endsWith('-onMutantTested.json'))
      .map(f => JSON.parse(readFileSync(join(path, f), 'utf8')) as Mutant)
      .map(m => ({ ...m, fileName: relative(process.cwd(), m.fileName ?? '') }))
  }
  const report = JSON.parse(readFileSync(path, 'utf8')) as { files: Record<string, { mutants: Mutant[] }> }
  return Object.entries(report.files).flatMap(([fileName, f]) => f.mutants.map(m => ({ ...m, fileName })))
}

function score(counts: Map<string, number>): string {
  const n = (s: string): number => counts.get(s) ?? 0
  const detected = n('Killed') + n('Timeout')
  const valid = detected + n('Survived') + n('NoCoverage')
  return valid === 0 ? 'n/a' : `${((100 * detected) / valid).toFixed(1)}%`
}

/** The markdown table (one row per file, and a total) and the list of mutants no test noticed. */
export function summarize(mutants: Mutant[]): string {
  const lines: string[] = []
  const byFile = new Map<string, Map<string, number>>()
  for (const m of mutants) {
    const counts = byFile.get(m.fileName!) ?? new Map<string, number>()
    counts.set(m.status, (counts.get(m.status) ?? 0) + 1)
    byFile.set(m.fileName!, counts)
  }
  const all = new Map<string, number>()
  lines.push(
    `| Module | ${COLUMNS.join(' | ')} | Score |`,
    `| --- | ${COLUMNS.map(() => '---').join(' | ')} | --- |`
  )
  for (const [file, counts] of [...byFile].sort(([a], [b]) => a.localeCompare(b))) {
    for (const [s, c] of counts) all.set(s, (all.get(s) ?? 0) + c)
    lines.push(`| \`${file}\` | ${COLUMNS.map(s => counts.get(s) ?? 0).join(' | ')} | ${score(counts)} |`)
  }
  if (byFile.size > 1)
    lines.push(`| all | ${COLUMNS.map(s => all.get(s) ?? 0).join(' | ')} | ${score(all)} |`)

  const open = mutants
    .filter(m => m.status === 'Survived' || m.status === 'NoCoverage')
    .sort((a, b) => a.fileName!.localeCompare(b.fileName!) || a.location.start.line - b.location.start.line)
  if (open.length > 0) lines.push('', 'Survived or without coverage:', '')
  for (const m of open) {
    const { start, end } = m.location
    const place = `${m.fileName}:${start.line}:${start.column}-${end.line}:${end.column}`
    const replacement = (m.replacement ?? '').replace(/\s+/g, ' ').slice(0, 80)
    lines.push(`- ${place} ${m.status} ${m.mutatorName}: ${replacement}`)
  }
  return lines.join('\n')
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const path = process.argv[2]
  if (!path) {
    console.error('usage: mutation-scores <reports/mutation/mutation.json | reports/mutation/events>')
    process.exit(2)
  }
  console.log(summarize(readMutants(path)))
}
