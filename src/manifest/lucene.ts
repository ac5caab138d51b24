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

/**
 * The forms users write beyond plain terms, recognised without the PEG parser: quoted values
 * (`service:"checkout api"`), comparisons (`status:>=500`), wildcards (`user:internal-*`), ranges
 * (`duration:[100 TO 500]`, `{`/`}` too), field groups (`method:(GET OR POST)`), parentheses
 * (`(a:b OR c:d) AND e:f`, nested a few deep) and a `-` before a field term. Single spaces between
 * clauses, with optional AND / OR / NOT. A small scanner, linear in the length; anything it does not
 * know goes to the parser. test/unit/lucene.test.ts holds it to the parser on many thousands of strings.
 */
export function isCommonLucene(expression: string): boolean {
  if (expression.length > PLAIN_MAX_LENGTH) return false
  const end = scanExpr(expression, 0, 0)
  return end === expression.length
}

const MAX_PARENS = 4
const isWordChar = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 42
const isFieldStart = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95
const isFieldChar = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46

/** A clause separator at `i` (` `, ` AND `, ` OR `, each with an optional `NOT ` after): its end, or -1. */
function scanSeparator(s: string, i: number): number {
  if (s.charCodeAt(i) !== 32) return -1
  let j = i + 1
  if (s.startsWith('AND ', j)) j += 4
  else if (s.startsWith('OR ', j)) j += 3
  if (s.startsWith('NOT ', j)) j += 4
  return j
}

/** clause (separator clause)*, up to a `)` or the end; the offset after it, or -1. */
function scanExpr(s: string, i: number, depth: number): number {
  if (s.startsWith('NOT ', i)) i += 4
  i = scanClause(s, i, depth)
  while (i >= 0 && i < s.length && s.charCodeAt(i) !== 41) {
    const j = scanSeparator(s, i)
    if (j < 0) return -1
    i = scanClause(s, j, depth)
  }
  return i
}

function scanClause(s: string, i: number, depth: number): number {
  if (i < 0 || i >= s.length) return -1
  const c = s.charCodeAt(i)
  if (c === 40) {
    // ( expression )
    if (depth >= MAX_PARENS) return -1
    const j = scanExpr(s, i + 1, depth + 1)
    return j >= 0 && s.charCodeAt(j) === 41 ? j + 1 : -1
  }
  if (c === 45) i++ // -field:value
  // An optional field name and its colon.
  let j = i
  if (isFieldStart(s.charCodeAt(j))) {
    j++
    while (j < s.length && isFieldChar(s.charCodeAt(j))) j++
    if (s.charCodeAt(j) === 58) {
      const v = j + 1
      const open = s.charCodeAt(v)
      if (open === 40) return scanGroup(s, v + 1)
      if (open === 91 || open === 123) return scanRange(s, v + 1)
      return scanValue(s, v)
    }
  }
  return scanValue(s, i)
}

/** A word (with an optional `>`, `>=`, `<` or `<=` before it) or a quoted value. */
function scanValue(s: string, i: number): number {
  const c = s.charCodeAt(i)
  if (c === 34) {
    for (let j = i + 1; j < s.length; j++) {
      const d = s.charCodeAt(j)
      if (d === 34) return j + 1
      if (d === 92 || d === 10 || d === 13) return -1
    }
    return -1
  }
  if (c === 60 || c === 62) {
    i++
    if (s.charCodeAt(i) === 61) i++
  }
  if (!isWordChar(s.charCodeAt(i))) return -1
  let j = i + 1
  while (j < s.length) {
    const d = s.charCodeAt(j)
    if (isWordChar(d) || d === 45) j++
    else break
  }
  return j
}

/** field:( value (separator value)* ) after the `(`. */
function scanGroup(s: string, i: number): number {
  i = scanValue(s, i)
  while (i >= 0 && s.charCodeAt(i) !== 41) {
    if (s.charCodeAt(i) !== 32) return -1
    i++
    if (s.startsWith('AND ', i)) i += 4
    else if (s.startsWith('OR ', i)) i += 3
    i = scanValue(s, i)
  }
  return i < 0 ? -1 : i + 1
}

/** field:[a TO b] (or `{`, `}`) after the opening bracket. */
function scanRange(s: string, i: number): number {
  const bound = (k: number): number => {
    let j = k
    while (j < s.length) {
      const d = s.charCodeAt(j)
      if (isWordChar(d) || d === 45) j++
      else break
    }
    return j > k ? j : -1
  }
  const low = bound(i)
  if (low < 0 || !s.startsWith(' TO ', low)) return -1
  const high = bound(low + 4)
  if (high < 0) return -1
  const close = s.charCodeAt(high)
  return close === 93 || close === 125 ? high + 1 : -1
}

export function checkLucene(expression: string): LuceneProblem | undefined {
  if (expression.trim() === '' || isPlainLucene(expression) || isCommonLucene(expression)) return undefined
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
