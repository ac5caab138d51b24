/**
 * A file's change as a unified diff, as `git diff` shows it (jsdiff's `createTwoFilesPatch`: a well-kept
 * implementation of the diff algorithm rather than one of our own). Every line is made printable: a manifest's
 * text may hold terminal escapes.
 */
import { createTwoFilesPatch } from 'diff'
import { printable } from './log.js'

export function unifiedDiff(file: { path: string; before: string | null; after: string | null }): string {
  const patch = createTwoFilesPatch(
    file.before === null ? '/dev/null' : `a/${file.path}`,
    file.after === null ? '/dev/null' : `b/${file.path}`,
    file.before ?? '',
    file.after ?? '',
    undefined,
    undefined,
    { context: 3 }
  )
  return patch
    .split('\n')
    .filter(line => !/^={5,}$/.test(line))
    .map(line => printable(line, 10_000))
    .join('\n')
}
