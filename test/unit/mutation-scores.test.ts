/** The score table of `npm run mutate:scores`: Stryker's rule per file, read from a report or from event files. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from '@jest/globals'
import { type Mutant, readMutants, summarize } from '../../scripts/mutation-scores.js'

const at = (line: number, column = 1) => ({ start: { line, column }, end: { line, column: column + 4 } })
const mutant = (fileName: string, status: string, line = 1, replacement = 'true'): Mutant => ({
  fileName,
  status,
  mutatorName: 'ConditionalExpression',
  replacement,
  location: at(line)
})

let dir: string | undefined
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
  dir = undefined
})

describe('mutation scores', () => {
  it('counts detected over detected, survived and uncovered; compile errors and ignored mutants do not count', () => {
    const table = summarize([
      ...['Killed', 'Killed', 'Timeout', 'Survived', 'NoCoverage', 'CompileError', 'Ignored'].map(s =>
        mutant('src/a.ts', s)
      ),
      mutant('src/b.ts', 'CompileError')
    ]).split('\n')
    expect(table[2]).toBe('| `src/a.ts` | 2 | 1 | 1 | 1 | 1 | 1 | 0 | 60.0% |')
    expect(table[3]).toBe('| `src/b.ts` | 0 | 0 | 0 | 0 | 1 | 0 | 0 | n/a |')
    expect(table[4]).toBe('| all | 2 | 1 | 1 | 1 | 2 | 1 | 0 | 60.0% |')
  })

  it('lists each survivor and uncovered mutant by file, line and column, in file order', () => {
    const text = summarize([
      mutant('src/b.ts', 'Survived', 9, '"Stryker was here!"'),
      mutant('src/a.ts', 'NoCoverage', 30, '{\n  }'),
      mutant('src/a.ts', 'Survived', 4),
      mutant('src/a.ts', 'Killed', 2)
    ])
    expect(text.split('Survived or without coverage:')[1].trim().split('\n')).toEqual([
      '- src/a.ts:4:1-4:5 Survived ConditionalExpression: true',
      '- src/a.ts:30:1-30:5 NoCoverage ConditionalExpression: { }',
      '- src/b.ts:9:1-9:5 Survived ConditionalExpression: "Stryker was here!"'
    ])
  })

  it('reads the json report and the event files of a run that was stopped', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mutation-scores-'))
    const report = path.join(dir, 'mutation.json')
    writeFileSync(
      report,
      JSON.stringify({ files: { 'src/a.ts': { mutants: [mutant('', 'Killed'), mutant('', 'Survived')] } } })
    )
    expect(readMutants(report).map(m => [m.fileName, m.status])).toEqual([
      ['src/a.ts', 'Killed'],
      ['src/a.ts', 'Survived']
    ])

    const events = path.join(dir, 'events')
    mkdirSync(events)
    writeFileSync(path.join(events, '00000-onMutationTestingPlanReady.json'), '{}')
    writeFileSync(
      path.join(events, '00001-onMutantTested.json'),
      JSON.stringify(mutant(path.join(process.cwd(), 'src/c.ts'), 'Timeout'))
    )
    expect(readMutants(events).map(m => [m.fileName, m.status])).toEqual([['src/c.ts', 'Timeout']])
  })
})
