/**
 * The CEL functions that read a pattern, on linear-time engines. CEL specifies RE2 for `matches`; cel-js
 * runs it on JavaScript's backtracking RegExp (`'aaaa…!'.matches('^(a+)+$')` takes minutes), and reads
 * `duration()` strings with a regular expression that backtracks too (seconds on a few thousand digits).
 * Here `matches` runs on re2js, a pure-JavaScript port of RE2 (linear in the input, bundled like the
 * rest; the native `re2` binding downloads binaries at install), and a duration string is read by a
 * linear scan before cel-js parses it. A pattern written as a literal is compiled at load, so a bad one is
 * an error at its place in the expression; a computed one is an evaluation error.
 */
import type { CelNode } from './cel-ast.js'
import { charge, sizeOf, type Meter } from './cost.js'

type Re2 = typeof import('re2js').RE2JS
type Pattern = InstanceType<Re2>

let re2: Re2 | undefined

export async function loadPatterns(): Promise<void> {
  re2 ??= (await import('re2js')).RE2JS
}

/** A pattern CEL cannot use: its message says why, in RE2's words. */
export class PatternError extends Error {}

/** A compiled pattern and what it answered: manifests repeat their values (tile names, tags, messages). */
interface Compiled {
  pattern: Pattern
  answers: Map<string, boolean>
}

/** Compiled patterns (and refused ones), by their text: a rule reuses its patterns on every resource. */
const cache = new Map<string, Compiled | PatternError>()
const CACHE_SIZE = 1000
/** Answers kept per pattern, of texts up to this long: a bound on what the memo holds. */
const ANSWERS = 10_000
const ANSWERED_LENGTH = 256
/** Steps a compilation costs (re2js takes about 100 µs for a short pattern, some 2,500 steps). */
export const COMPILE_COST = 2500

/** A pattern compiled with RE2's syntax, or a PatternError; `compiled` says whether it was compiled now. */
export function compilePattern(pattern: string): { pattern: Compiled; compiled: boolean } {
  let found = cache.get(pattern)
  const compiled = found === undefined
  if (!found) {
    if (!re2) throw new Error('compilePattern before loadPatterns')
    try {
      found = { pattern: re2.compile(pattern), answers: new Map() }
    } catch (e) {
      const why = e instanceof Error ? e.message.replace(/^error parsing regexp: /, '') : String(e)
      found = new PatternError(`invalid regular expression (RE2 syntax): ${why}`)
    }
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!)
    cache.set(pattern, found)
  }
  if (found instanceof PatternError) throw found
  return { pattern: found, compiled }
}

/**
 * Points the tree's `matches` calls at RE2 and its `duration` calls at the linear scan. Literal patterns
 * and durations are checked now: the first bad one is returned with its offset in the expression.
 */
export function linkPatternFunctions(
  nodes: readonly CelNode[],
  meter: Meter
): { error: string; offset: number } | undefined {
  for (const node of nodes) {
    if ((node.op !== 'call' && node.op !== 'rcall') || node.meta.alternate || node.meta.macro) continue
    const [name, ...rest] = node.args as [unknown, ...unknown[]]
    const args = (node.op === 'rcall' ? rest[1] : rest[0]) as CelNode[] | undefined
    if (node.op === 'rcall' && name === 'matches' && args?.length === 1) {
      const literal = literalString(args[0]!)
      if (literal !== undefined) {
        try {
          compilePattern(literal)
        } catch (e) {
          return { error: (e as Error).message, offset: args[0]!.start }
        }
      }
      node.handle = matchesOn(meter) as CelNode['handle']
    } else if (node.op === 'call' && name === 'duration' && args?.length === 1) {
      const literal = literalString(args[0]!)
      const bad = literal === undefined ? undefined : durationError(literal)
      if (bad) return { error: bad, offset: args[0]!.start }
      const handle = node.handle as (...x: unknown[]) => unknown
      node.handle = function (this: unknown, values: unknown[], a: unknown, b: unknown) {
        const why = typeof values[0] === 'string' ? durationError(values[0]) : undefined
        if (why) throw new Error(why)
        return handle.call(this, values, a, b)
      } as CelNode['handle']
    }
  }
  return undefined
}

const literalString = (node: CelNode): string | undefined =>
  node.op === 'value' && typeof node.args === 'string' ? node.args : undefined

/** `string.matches(string)` on RE2: found anywhere in the string, as CEL's (and RE2's PartialMatch). */
function matchesOn(meter: Meter) {
  return (args: unknown[]): boolean => {
    const [text, source] = args
    if (typeof text !== 'string' || typeof source !== 'string')
      throw new Error(`found no matching overload for '${celType(text)}.matches(${celType(source)})'`)
    const { pattern, compiled } = compilePattern(source)
    // The engine walks the text once per state it can be in: the longer the pattern, the more states.
    // Charged as though matched anew when the answer is remembered, so a rule costs the same on any run.
    charge(
      meter,
      (compiled ? COMPILE_COST : 0) + Math.ceil(sizeOf(text) / 10) * Math.ceil((source.length + 1) / 10)
    )
    return matchesIn(pattern, text)
  }
}

/** Whether `text` holds a match of the pattern: a text seen before is answered from memory. */
function matchesIn(compiled: Compiled, text: string): boolean {
  if (text.length > ANSWERED_LENGTH) return compiled.pattern.test(text)
  let answer = compiled.answers.get(text)
  if (answer === undefined) {
    answer = compiled.pattern.test(text)
    if (compiled.answers.size >= ANSWERS) compiled.answers.clear()
    compiled.answers.set(text, answer)
  }
  return answer
}

const celType = (v: unknown): string =>
  typeof v === 'string'
    ? 'string'
    : typeof v === 'number'
      ? 'double'
      : typeof v === 'bigint'
        ? 'int'
        : typeof v === 'boolean'
          ? 'bool'
          : v === null
            ? 'null'
            : Array.isArray(v)
              ? 'list'
              : 'map'

const UNITS = ['ns', 'us', 'µs', 'ms', 's', 'm', 'h']
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9'
/** Digits a duration's number may have: more overflow any duration (Go's are 64-bit nanoseconds). */
const MAX_DIGITS = 30

/**
 * Why `text` is no duration cel-js reads (`[-+]?(\d*\.?\d*(ns|us|µs|ms|s|m|h))+`, the same grammar), or
 * undefined: one pass over it, where cel-js's expression backtracks.
 */
export function durationError(text: string): string | undefined {
  const bad = `invalid duration string: '${text.length > 40 ? `${text.slice(0, 40)}…` : text}'`
  let i = text[0] === '-' || text[0] === '+' ? 1 : 0
  if (i >= text.length) return bad
  while (i < text.length) {
    const start = i
    while (isDigit(text[i])) i++
    if (text[i] === '.') i++
    while (isDigit(text[i])) i++
    if (i - start > MAX_DIGITS) return bad
    const unit = UNITS.find(u => text.startsWith(u, i))
    if (!unit) return bad
    i += unit.length
  }
  return undefined
}
