import lucene from '@hyperdx/lucene'
import type { LuceneBinaryNode, LuceneNode, LuceneRangeNode, LuceneTermNode } from '@hyperdx/lucene'

export type EventFields = Record<string, string | number>
export type EventMatcher = (fields: EventFields) => boolean

/**
 * Compiles a Lucene `where` (FACTS.md: `whereLanguage: lucene`, the default) into a predicate over an event's fields.
 * Supported: field:value terms, quoted phrases, `*` wildcards, numeric comparisons (`field:>=10`), ranges
 * (`field:[a TO b]`), AND/OR/NOT (and `&&`, `||`, `-field:`, `!field:`), parentheses, bare terms (searched in every
 * field). An empty where matches everything. Throws the parser's SyntaxError on a broken query.
 */
export function compileLucene(where: string): EventMatcher {
  if (where.trim() === '') return () => true
  const ast = lucene.parse(where) as LuceneNode
  return fields => evaluate(ast, fields)
}

function evaluate(node: LuceneNode | undefined, fields: EventFields): boolean {
  if (node === undefined) return true
  if ('term_min' in node) return matchRange(node, fields)
  if ('term' in node) return matchTerm(node, fields)
  return evaluateBinary(node, fields)
}

function evaluateBinary(node: LuceneBinaryNode, fields: EventFields): boolean {
  let left = node.left === undefined ? true : evaluate(node.left, fields)
  if (node.start === 'NOT' || node.start === '!') left = !left
  if (node.operator === undefined || node.right === undefined) return left
  switch (node.operator) {
    case 'OR':
    case '||':
      return left || evaluate(node.right, fields)
    case 'AND NOT':
    case 'NOT':
      return left && !evaluate(node.right, fields)
    case 'OR NOT':
      return left || !evaluate(node.right, fields)
    default:
      // AND, &&, and the implicit operator: HyperDX joins adjacent terms with AND.
      return left && evaluate(node.right, fields)
  }
}

/** `-field:` and `!field:` negate; `+field:` is a plain required term. */
function splitFieldPrefix(field: string): { name: string; negate: boolean } {
  const first = field.charAt(0)
  if (first === '-' || first === '!') return { name: field.slice(1), negate: true }
  if (first === '+') return { name: field.slice(1), negate: false }
  return { name: field, negate: false }
}

function matchTerm(node: LuceneTermNode, fields: EventFields): boolean {
  const { name, negate } = splitFieldPrefix(node.field)
  const term = unescape(node.term)
  let result: boolean
  if (name === '<implicit>') {
    // A bare term searches every field, case-insensitively, as a substring (like HyperDX's implicit column search).
    const needle = term.replace(/\*/g, '').toLowerCase()
    result = Object.values(fields).some(value => String(value).toLowerCase().includes(needle))
  } else {
    const value = fields[name]
    result = value !== undefined && matchValue(value, term, node.quoted)
  }
  return negate ? !result : result
}

function matchValue(value: string | number, term: string, quoted: boolean): boolean {
  const text = String(value)
  if (quoted) return text === term
  if (term === '*') return true
  const comparison = /^(>=|<=|>|<)(.+)$/.exec(term)
  if (comparison) return compare(value, comparison[2], comparison[1])
  if (term.includes('*') || term.includes('?')) return wildcardToRegExp(term).test(text)
  if (typeof value === 'number' && isNumeric(term)) return value === Number(term)
  return text === term
}

function matchRange(node: LuceneRangeNode, fields: EventFields): boolean {
  const { name, negate } = splitFieldPrefix(node.field)
  const value = fields[name]
  let result = false
  if (value !== undefined) {
    const lowerInclusive = node.inclusive === 'both' || node.inclusive === 'left'
    const upperInclusive = node.inclusive === 'both' || node.inclusive === 'right'
    const aboveMin = node.term_min === '*' || compare(value, node.term_min, lowerInclusive ? '>=' : '>')
    const belowMax = node.term_max === '*' || compare(value, node.term_max, upperInclusive ? '<=' : '<')
    result = aboveMin && belowMax
  }
  return negate ? !result : result
}

function compare(value: string | number, bound: string, operator: string): boolean {
  const numeric = typeof value === 'number' || isNumeric(value)
  const left: number | string = numeric && isNumeric(bound) ? Number(value) : String(value)
  const right: number | string = typeof left === 'number' ? Number(bound) : bound
  switch (operator) {
    case '>=':
      return left >= right
    case '<=':
      return left <= right
    case '>':
      return left > right
    default:
      return left < right
  }
}

function isNumeric(text: string): boolean {
  return text.trim() !== '' && Number.isFinite(Number(text))
}

function unescape(term: string): string {
  return term.replace(/\\(.)/g, '$1')
}

function wildcardToRegExp(term: string): RegExp {
  const pattern = term
    .split('')
    .map(char => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('')
  return new RegExp(`^${pattern}$`)
}
