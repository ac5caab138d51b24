/**
 * Where each field of a YAML file is, from js-yaml's event stream (a flat list of nodes with source
 * offsets): far cheaper than a full syntax tree, and built only for a file that needs a location.
 */
import { EVENT_ID, getScalarValue, parseEvents, SCALAR_STYLE, type Event, type ScalarEvent } from 'js-yaml'
import type { SourceLocation } from '../diagnostics.js'
import type { PathSegment } from './path.js'

interface NodeAt {
  /** Offset of the node (for a quoted scalar: its opening quote). */
  start: number
  /** Offset of the key that holds it, in a mapping. */
  keyStart?: number
  /** A scalar's own source text (quotes included), when it is on one line. */
  raw?: string
  style?: number
  /** A scalar's content: inside its quotes; a block scalar's lines, indentation included. */
  valueStart?: number
  valueEnd?: number
}

/** Field positions of one document, by path. */
export interface DocumentPositions {
  start: number
  nodes: Map<string, NodeAt>
}

/** A path as one string: each segment tagged as index or name, so `[1]` and `["1"]` stay apart. */
const segmentKey = (seg: PathSegment): string => (typeof seg === 'number' ? `\u0002${seg}` : `\u0003${seg}`)
export const pathKey = (path: readonly PathSegment[]): string => path.map(segmentKey).join('')

type Frame =
  | { kind: 'doc'; path: string }
  | { kind: 'seq'; path: string; index: number }
  | { kind: 'map'; path: string; key?: PathSegment; keyStart?: number; keyEnd?: number }

/**
 * Positions of every document of `text`, in document order (the same indexes as loadAll), from its
 * events (parsed here unless given). `depth` 1 records only each document's top-level fields: what a plan
 * shows of a manifest that validated (its `name`), taken from the parse that read its values.
 */
export function indexPositions(
  text: string,
  options: { maxDepth: number; events?: Event[]; depth?: number }
): DocumentPositions[] {
  const events: Event[] = options.events ?? parseEvents(text, { maxDepth: options.maxDepth })
  const deepest = (options.depth ?? Infinity) + 1
  const documents: DocumentPositions[] = []
  const stack: Frame[] = []
  let current: DocumentPositions | undefined

  for (const e of events) {
    if (e.type === EVENT_ID.DOCUMENT) {
      current = { start: 0, nodes: new Map() }
      documents.push(current)
      stack.push({ kind: 'doc', path: '' })
      continue
    }
    if (e.type === EVENT_ID.POP) {
      stack.pop()
      continue
    }
    const frame = stack[stack.length - 1]
    if (!frame || !current) continue
    let path: string
    let keyStart: number | undefined
    let after = 0
    const recorded = stack.length <= deepest
    if (!recorded) {
      // Below the depth asked for: only the nesting is followed (a mapping alternates keys and values).
      if (frame.kind === 'map') frame.key = frame.key === undefined ? '' : undefined
      if (e.type === EVENT_ID.MAPPING) stack.push({ kind: 'map', path: '' })
      if (e.type === EVENT_ID.SEQUENCE) stack.push({ kind: 'seq', path: '', index: 0 })
      continue
    }
    if (frame.kind === 'map' && frame.key === undefined) {
      // A key: remember it for the value that follows. (A complex key gets a placeholder name.)
      frame.key = e.type === EVENT_ID.SCALAR ? getScalarValue(text, e as ScalarEvent) : '\u0000complex-key'
      frame.keyStart = nodeStart(text, e, 0)
      frame.keyEnd = nodeEnd(e)
      if (e.type === EVENT_ID.MAPPING || e.type === EVENT_ID.SEQUENCE)
        stack.push({ kind: 'map', path: `${frame.path}\u0000` })
      continue
    }
    if (frame.kind === 'map') {
      path = frame.path + segmentKey(frame.key!)
      keyStart = frame.keyStart
      // After the key and its colon.
      after = frame.keyEnd !== undefined && frame.keyEnd >= 0 ? frame.keyEnd + 1 : (frame.keyStart ?? 0)
      frame.key = undefined
      frame.keyStart = undefined
    } else if (frame.kind === 'seq') path = frame.path + segmentKey(frame.index++)
    else {
      path = ''
      current.start = nodeStart(text, e, 0)
    }
    current.nodes.set(path, nodeAt(text, e, after, keyStart))
    if (e.type === EVENT_ID.MAPPING) stack.push({ kind: 'map', path })
    if (e.type === EVENT_ID.SEQUENCE) stack.push({ kind: 'seq', path, index: 0 })
  }
  return documents
}

/** Where a node is: its start, its key's, and a scalar's style, content and one-line source (without anchor or tag). */
function nodeAt(text: string, e: Event, after: number, keyStart: number | undefined): NodeAt {
  const at: NodeAt = { start: nodeStart(text, e, after), keyStart }
  if (e.type === EVENT_ID.SCALAR && e.valueStart >= 0 && e.anchorStart < 0 && e.tagStart < 0) {
    at.style = e.style
    at.valueStart = e.valueStart
    at.valueEnd = e.valueEnd
    const raw = text.slice(at.start, nodeEnd(e))
    if (!raw.includes('\n')) at.raw = raw
  }
  return at
}

/** Where a node starts: its anchor or tag if it has one, a quote or block indicator, or its text. */
function nodeStart(text: string, e: Event, after: number): number {
  let start = -1
  if (e.type === EVENT_ID.SCALAR) {
    if (e.valueStart < 0) start = -1
    else if (e.style === SCALAR_STYLE.SINGLE_QUOTED || e.style === SCALAR_STYLE.DOUBLE_QUOTED)
      start = e.valueStart - 1
    else if (e.style === SCALAR_STYLE.LITERAL_BLOCK || e.style === SCALAR_STYLE.FOLDED_BLOCK)
      start = blockIndicator(text, e.valueStart)
    else start = e.valueStart
  } else if (e.type === EVENT_ID.MAPPING || e.type === EVENT_ID.SEQUENCE) start = e.start
  if (e.type === EVENT_ID.ALIAS) start = earlier(start, e.anchorStart)
  else if (e.type !== EVENT_ID.POP && e.type !== EVENT_ID.DOCUMENT) {
    start = earlier(start, e.anchorStart)
    start = earlier(start, e.tagStart)
  }
  // An empty value has no text: it is right after its key.
  return start >= 0 ? start : after
}

/** The earlier of two offsets, where a negative one is none. */
const earlier = (start: number, n: number): number => (n >= 0 && (start < 0 || n < start) ? n : start)

/** Where a scalar's source ends (after its closing quote); -1 for anything else. */
const nodeEnd = (e: Event): number =>
  e.type === EVENT_ID.SCALAR && e.valueEnd >= 0
    ? e.valueEnd + (e.style === SCALAR_STYLE.SINGLE_QUOTED || e.style === SCALAR_STYLE.DOUBLE_QUOTED ? 1 : 0)
    : -1

/** The `|` or `>` of a block scalar whose content starts at `contentStart`. */
function blockIndicator(text: string, contentStart: number): number {
  const headerEnd = text.lastIndexOf('\n', contentStart - 1)
  if (headerEnd < 0) return contentStart
  const headerStart = text.lastIndexOf('\n', headerEnd - 1) + 1
  const m = /[|>][+-]?\d?[+-]?\s*(#.*)?$/.exec(text.slice(headerStart, headerEnd))
  return m ? headerStart + m.index : contentStart
}

/** Offsets to `line:column` (1-based), with a binary search over line starts. */
export function lineLocator(file: string, text: string): (offset: number) => SourceLocation {
  const starts = [0]
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1)
  return at => {
    const offset = Math.max(0, at)
    let lo = 0
    let hi = starts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (starts[mid]! <= offset) lo = mid
      else hi = mid - 1
    }
    return { file, line: lo + 1, column: offset - starts[lo]! + 1 }
  }
}

export type ScalarStyle = 'plain' | 'single' | 'double' | 'literal' | 'folded'

/** The escapes of a double-quoted scalar that stand for one character (YAML 1.2, 5.7). */
const ESCAPED: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\x85',
  _: '\xa0',
  L: '\u2028',
  P: '\u2029'
}
const HEX_DIGITS: Record<string, number> = { x: 2, u: 4, U: 8 }
const isSpace = (c: string) => /\s/.test(c)

/**
 * Where, in `content` (a scalar's source between its quotes, or a block scalar's lines), the `offset`-th
 * character of its `value` is written: line folding, indentation and escapes make the two differ in
 * their white space only, so the n-th other character of the value is the n-th one the source spells.
 * Undefined when the source does not spell the value (a `${VAR}` filled it).
 */
export function scalarOffset(
  content: string,
  style: ScalarStyle,
  value: string,
  offset: number
): number | undefined {
  // Each character the source spells, but white space: [where it is written, where its spelling ends].
  const spelled: Array<[number, number, string]> = []
  for (let i = 0; i < content.length;) {
    const start = i
    let c = content[i]!
    if (style === 'single' && c === "'" && content[i + 1] === "'") i += 2
    else if (style === 'double' && c === '\\') {
      const esc = content[i + 1] ?? ''
      const digits = HEX_DIGITS[esc]
      if (digits !== undefined) {
        c = String.fromCodePoint(parseInt(content.slice(i + 2, i + 2 + digits), 16) || 0)
        i += 2 + digits
      } else {
        // An escaped line break is folded away: white space either way.
        c = ESCAPED[esc] ?? ' '
        i += 2
      }
    } else {
      c = String.fromCodePoint(content.codePointAt(i)!)
      i += c.length
    }
    if (!isSpace(c)) spelled.push([start, i, c])
  }
  let n = 0
  const wanted: string[] = []
  for (const c of value) if (!isSpace(c)) wanted.push(c)
  if (wanted.length !== spelled.length || wanted.some((c, k) => c !== spelled[k]![2])) return undefined
  const chars = [...value]
  // UTF-16 offset to the character it is in; white space points after the character before it.
  let units = 0
  let k = 0
  while (k < chars.length && units + chars[k]!.length <= offset) {
    units += chars[k]!.length
    if (!isSpace(chars[k]!)) n++
    k++
  }
  if (k < chars.length && !isSpace(chars[k]!)) return spelled[n]![0]
  return n > 0 ? spelled[n - 1]![1] : 0
}

/** Where the value's `offset`-th character is in a one-line scalar's source: quotes and escapes shift it. */
export function sourceOffset(raw: string, type: string | undefined, offset: number): number {
  if (type !== 'QUOTE_SINGLE' && type !== 'QUOTE_DOUBLE') return offset
  let i = 1
  for (let n = 0; n < offset && i < raw.length; n++) {
    if (type === 'QUOTE_SINGLE') i += raw[i] === "'" && raw[i + 1] === "'" ? 2 : 1
    else if (raw[i] === '\\') {
      const esc = raw[i + 1]
      i += esc === 'x' ? 4 : esc === 'u' ? 6 : esc === 'U' ? 10 : 2
    } else i++
  }
  return i
}
