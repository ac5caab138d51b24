/**
 * Offline syntax check of Lucene filter expressions, with the parser the servers themselves use
 * (@hyperdx/lucene), so a typo in `where` fails the pull request instead of the dashboard.
 */
import lucene, { type LuceneSyntaxError } from '@hyperdx/lucene'

export interface LuceneProblem {
  /** 0-based offset into the expression. */
  offset: number
  message: string
}

/** Results by expression: the same filter appears on many tiles. Bounded, so a huge repository cannot grow it. */
const cache = new Map<string, LuceneProblem | undefined>()
const CACHE_LIMIT = 10_000

/**
 * Plain terms (`service:api AND level:error`, `NOT a OR b`): words of letters, digits, `_` and `.`, each
 * with an optional field name, joined by single spaces with optional AND / OR / NOT. The grammar accepts
 * every such string (test/unit/lucene.test.ts checks the parser on many thousands, keywords included), so
 * they skip the PEG parser, which costs ~70 µs per string; anything else goes through it. One space
 * before each term keeps the pattern unambiguous, so matching is linear.
 */
const PLAIN =
  /^(?:NOT )?(?:[A-Za-z_][\w.]*:)?\w[\w.]*(?: (?:(?:AND|OR) )?(?:NOT )?(?:[A-Za-z_][\w.]*:)?\w[\w.]*)*$/
const PLAIN_MAX_LENGTH = 2000

/** Whether `expression` is in the plain subset that the parser is known to accept (exported for the test). */
export const isPlainLucene = (expression: string): boolean =>
  expression.length <= PLAIN_MAX_LENGTH && PLAIN.test(expression)

export function checkLucene(expression: string): LuceneProblem | undefined {
  if (expression.trim() === '' || isPlainLucene(expression)) return undefined
  if (cache.has(expression)) return cache.get(expression)
  const result = parseProblem(expression)
  if (cache.size >= CACHE_LIMIT) cache.clear()
  cache.set(expression, result)
  return result
}

function parseProblem(expression: string): LuceneProblem | undefined {
  try {
    lucene.parse(expression)
    return undefined
  } catch (e) {
    if (e instanceof RangeError)
      return { offset: 0, message: 'Lucene expression is nested too deeply to parse' }
    const err = e as LuceneSyntaxError
    const offset = err.location?.start.offset ?? 0
    // The parser lists every token it could accept; the token it found is the useful part.
    const found = /but (.+) found\.?$/.exec(err.message)?.[1]
    const what = found ? `unexpected ${found}` : err.message
    return { offset, message: `Lucene syntax error at column ${offset + 1} of the expression: ${what}` }
  }
}
