/**
 * A tile formula, checked offline as the server checks it (common-utils core/formula.ts validateFormula): arithmetic
 * (+ - * /, unary minus, parentheses, numbers like 2, 2., 0.5 or .5) over the tile's select items, each named by one
 * capital letter in order (A is select[0]). At least one series must be named, and each must exist. Nesting is
 * limited to 64 levels. Returns the first problem in words, or undefined when the server takes the expression.
 */
const MAX_DEPTH = 64

type Token = { at: number; kind: 'num' | 'ref' | 'op' | '(' | ')'; text: string }

export function formulaProblem(expression: string, selectCount: number): string | undefined {
  if (expression.trim() === '') return 'is empty'
  const tokens: Token[] = []
  const lexeme = /\s+|(\d+(?:\.\d*)?|\.\d+)|([A-Za-z]+)|([-+*/])|([()])|(.)/gy
  for (let m = lexeme.exec(expression); m !== null && m[0] !== ''; m = lexeme.exec(expression)) {
    const at = m.index
    if (m[1] !== undefined) tokens.push({ at, kind: 'num', text: m[1] })
    else if (m[2] !== undefined) {
      if (!/^[A-Z]$/.test(m[2]))
        return `"${m[2]}" at column ${at + 1} is not a series: series are single capital letters (A, B, ...), and functions are not supported`
      tokens.push({ at, kind: 'ref', text: m[2] })
    } else if (m[3] !== undefined) tokens.push({ at, kind: 'op', text: m[3] })
    else if (m[4] !== undefined) tokens.push({ at, kind: m[4] as '(' | ')', text: m[4] })
    else if (m[5] !== undefined) return `"${m[5]}" at column ${at + 1} is not part of a formula`
  }

  let pos = 0
  const refs = new Set<string>()
  const fail = (message: string): never => {
    throw new FormulaError(message)
  }
  const where = (t: Token | undefined) => (t ? `"${t.text}" at column ${t.at + 1}` : 'the end')
  const sum = (depth: number): void => {
    product(depth)
    while (tokens[pos]?.kind === 'op' && '+-'.includes(tokens[pos]!.text)) {
      pos++
      product(depth)
    }
  }
  const product = (depth: number): void => {
    factor(depth)
    while (tokens[pos]?.kind === 'op' && '*/'.includes(tokens[pos]!.text)) {
      pos++
      factor(depth)
    }
  }
  const factor = (depth: number): void => {
    if (depth > MAX_DEPTH) fail(`is nested more than ${MAX_DEPTH} levels deep`)
    const t = tokens[pos++]
    if (t?.kind === 'op' && t.text === '-') return factor(depth + 1)
    if (t?.kind === 'num') return
    if (t?.kind === 'ref') {
      refs.add(t.text)
      return
    }
    if (t?.kind === '(') {
      sum(depth + 1)
      if (tokens[pos]?.kind !== ')') fail(`misses a closing parenthesis at ${where(tokens[pos])}`)
      pos++
      return
    }
    fail(`expects a number, a series or "(" at ${where(t)}`)
  }
  try {
    sum(0)
    if (pos < tokens.length) fail(`has an unexpected ${where(tokens[pos])}`)
  } catch (e) {
    if (e instanceof FormulaError) return e.message
    throw e
  }
  if (refs.size === 0) return 'names no series: use the select items as A, B, ...'
  const last = selectCount > 0 ? String.fromCharCode(64 + selectCount) : undefined
  const unknown = [...refs].filter(r => r.charCodeAt(0) - 65 >= selectCount).sort()
  if (unknown.length > 0)
    return `names ${unknown.join(', ')}, but the tile's select items are ${last ? `A to ${last}` : 'none'}`
  return undefined
}

class FormulaError extends Error {}
