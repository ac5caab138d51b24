/**
 * How deeply a YAML text nests, read from its characters before any parser sees it: parsers recurse, so a text
 * nested deeper than the limit is refused first, and the bound tells the fast path (fast-yaml.ts) what it may read.
 */
import { YAML_LIMITS } from './parsed-document.js'

/**
 * The offset where nesting first gets deeper than allowed, or nothing. Flow collections are counted by
 * their brackets (outside quotes and comments); block nesting by indentation plus compact `- ` entries,
 * a generous upper bound of the real depth.
 */
export function findDeepNesting(text: string): number | undefined {
  return nesting(text).deep
}

/**
 * `deep` as findDeepNesting says; `bound`, an upper bound of the text's nesting depth: twice its deepest
 * block indentation (a sequence may sit at its key's indentation), plus its deepest flow nesting; and
 * whether a quoted scalar or a flow collection seems to go on over a line break.
 */
export function nesting(text: string): { deep?: number; bound: number; multilineQuote: boolean } {
  const maxFlow = YAML_LIMITS.maxDepth
  const maxBlock = YAML_LIMITS.maxDepth * 4
  let flow = 0
  let quote: '"' | "'" | undefined
  let lineStart = true
  let indent = 0
  let dashes = 0
  let block = 0
  let deepestFlow = 0
  let multilineQuote = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (ch === '\n') {
      if (quote || flow > 0) multilineQuote = true
      lineStart = true
      indent = 0
      dashes = 0
      continue
    }
    if (lineStart) {
      if (ch === ' ') {
        indent++
        continue
      }
      if (ch === '-' && text[i + 1] === ' ') {
        dashes++
        indent++
        if (indent + dashes > maxBlock) return { deep: i, bound: Infinity, multilineQuote }
        continue
      }
      lineStart = false
      if (indent + dashes > maxBlock) return { deep: i, bound: Infinity, multilineQuote }
      if (indent + dashes > block) block = indent + dashes
    }
    if (quote) {
      if (quote === '"' && ch === '\\') i++
      else if (ch === quote) quote = undefined
      continue
    }
    // A quote opens a quoted scalar only where a value starts (not in `it's`), so brackets are not hidden.
    if ((ch === '"' || ch === "'") && startsValue(text, i)) quote = ch
    else if (ch === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++
    } else if (ch === '[' || ch === '{') {
      if (++flow > maxFlow) return { deep: i, bound: Infinity, multilineQuote }
      if (flow > deepestFlow) deepestFlow = flow
    } else if ((ch === ']' || ch === '}') && flow > 0) flow--
  }
  return { bound: 2 * (block + 1) + deepestFlow, multilineQuote }
}

function startsValue(text: string, i: number): boolean {
  let j = i - 1
  while (j >= 0 && (text[j] === ' ' || text[j] === '\t')) j--
  return j < 0 || ':-[{,\n?'.includes(text[j]!)
}
