/** Numbers in words, the same in every report format: "1 error", "2 errors, 1 warning". */
import type { Severity } from '../diagnostics.js'

export function plural(n: number, word: string): string {
  return `${n} ${n === 1 ? word : `${word}s`}`
}

/** "2 errors, 1 warning": the non-zero counts, each with its word (a second word is the plural). */
export function listOfCounts(parts: ReadonlyArray<[number, string, string?]>): string {
  return parts
    .filter(([n]) => n > 0)
    .map(([n, one, many]) => `${n} ${n === 1 || many === undefined ? one : many}`)
    .join(', ')
}

/** "2 errors, 1 warning": the non-zero severities. */
export function describeSeverities(count: Record<Severity, number>, prefix = ''): string {
  return listOfCounts([
    [count.error, `${prefix}error`, `${prefix}errors`],
    [count.warning, `${prefix}warning`, `${prefix}warnings`],
    [count.notice, `${prefix}notice`, `${prefix}notices`]
  ])
}
