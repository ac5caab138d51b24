/**
 * Tile formulas (`config.formulas[k].expression`): arithmetic over the tile's select items named by letter (`A` is
 * select[0]), with + - * /, unary minus, parentheses and numbers. The grammar, its limits and the messages the server
 * reports are those of packages/common-utils/src/core/formula.ts (validateFormula); this parser is ours.
 */

const MAX_LENGTH = 1024
const MAX_DEPTH = 64

type Token =
  | { kind: 'number'; text: string }
  | { kind: 'ref'; ref: string }
  | { kind: 'op'; op: string }
  | { kind: '(' }
  | { kind: ')' }

const describe = (t: Token): string => {
  switch (t.kind) {
    case 'number':
      return `number "${t.text}"`
    case 'ref':
      return `series reference "${t.ref}"`
    case 'op':
      return `operator "${t.op}"`
    case '(':
      return 'opening parenthesis'
    case ')':
      return 'closing parenthesis'
  }
}

/** The messages for one expression (empty when it is valid), in the order the server reports them. */
export function formulaProblems(expression: string, seriesCount: number): string[] {
  if (expression.trim() === '') return ['Expression is empty']
  if (expression.length > MAX_LENGTH)
    return [`Expression is too long (${expression.length} characters, max ${MAX_LENGTH})`]
  const tokens = tokenize(expression)
  if (typeof tokens === 'string') return [tokens]
  const refs: string[] = []
  try {
    parse(tokens, refs)
  } catch (problem) {
    if (problem instanceof FormulaSyntax) return [problem.message]
    throw problem
  }
  const problems: string[] = []
  const last = seriesCount > 0 ? String.fromCharCode(64 + seriesCount) : undefined
  for (const ref of new Set(refs)) {
    if (ref.charCodeAt(0) - 65 < seriesCount) continue
    problems.push(
      last
        ? `Unknown series "${ref}" — this chart only has series A through ${last}`
        : `Unknown series "${ref}" — this chart has no series`
    )
  }
  if (refs.length === 0) problems.push('Expression must reference at least one series (A, B, C, ...)')
  return problems
}

/** Tokens, or the message of the first character that is not part of the grammar. */
function tokenize(text: string): Token[] | string {
  const tokens: Token[] = []
  const word = /[A-Za-z]+/y
  const number = /(\d+(\.\d*)?|\.\d+)/y
  let i = 0
  while (i < text.length) {
    const ch = text[i]!
    if (/\s/.test(ch)) {
      i++
      continue
    }
    if ('+-*/'.includes(ch)) tokens.push({ kind: 'op', op: ch })
    else if (ch === '(' || ch === ')') tokens.push({ kind: ch })
    if ('+-*/()'.includes(ch)) {
      i++
      continue
    }
    number.lastIndex = i
    const n = number.exec(text)
    if (n) {
      if (!Number.isFinite(Number(n[0]))) return `Invalid number "${n[0]}"`
      tokens.push({ kind: 'number', text: n[0] })
      i += n[0].length
      continue
    }
    word.lastIndex = i
    const w = word.exec(text)
    if (!w) return `Unexpected character "${ch}"`
    if (ch >= 'a' && ch <= 'z')
      return `Unexpected "${w[0]}" — series references are uppercase letters (A, B, C, ...)`
    if (w[0].length > 1)
      return `Unexpected "${w[0]}" — series references are single letters (A, B, C, ...) and functions are not supported`
    tokens.push({ kind: 'ref', ref: ch })
    i++
  }
  return tokens
}

class FormulaSyntax extends Error {}

/** Recursive descent: sum := product (('+'|'-') product)*; product := unary (('*'|'/') unary)*. */
function parse(tokens: Token[], refs: string[]): void {
  let at = 0
  let depth = 0
  const deeper = () => {
    if (++depth > MAX_DEPTH)
      throw new FormulaSyntax(`Expression is nested too deeply (max ${MAX_DEPTH} levels)`)
  }
  const isOp = (t: Token | undefined, ops: string): boolean => t?.kind === 'op' && ops.includes(t.op)
  const sum = (): void => {
    product()
    while (isOp(tokens[at], '+-')) {
      at++
      product()
    }
  }
  const product = (): void => {
    unary()
    while (isOp(tokens[at], '*/')) {
      at++
      unary()
    }
  }
  const unary = (): void => {
    if (isOp(tokens[at], '-')) {
      at++
      deeper()
      unary()
      depth--
      return
    }
    primary()
  }
  const primary = (): void => {
    const t = tokens[at++]
    if (t === undefined) throw new FormulaSyntax('Unexpected end of expression')
    if (t.kind === 'number') return
    if (t.kind === 'ref') {
      refs.push(t.ref)
      return
    }
    if (t.kind !== '(') throw new FormulaSyntax(`Unexpected ${describe(t)}`)
    deeper()
    sum()
    depth--
    if (tokens[at++]?.kind !== ')') throw new FormulaSyntax('Missing closing parenthesis')
  }
  sum()
  const rest = tokens[at]
  if (rest !== undefined)
    throw new FormulaSyntax(
      rest.kind === ')' ? 'Unmatched closing parenthesis' : `Unexpected ${describe(rest)}`
    )
}
