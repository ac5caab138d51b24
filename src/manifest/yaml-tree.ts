/**
 * The `yaml` library's full parse of a file: positions for every node, and precise errors. The careful path for
 * a file js-yaml refuses (syntax, duplicate keys, aliases), and the positions of a file whose event stream does
 * not line up with its values (yaml.ts).
 */
import type { Document, LineCounter, Node } from 'yaml'
import { diagnostic, type Diagnostic, type SourceLocation } from '../diagnostics.js'
import { errorMessage } from '../error-message.js'
import { yamlLibrary } from '../yaml-library.js'
import { YAML_LIMITS, type ParsedDocument, type ParseResult } from './parsed-document.js'
import type { PathSegment } from './path.js'
import { scalarOffset, sourceOffset, type ScalarStyle } from './positions.js'

/** The `yaml` library's full parse: positions for every node, and precise errors. */
export function parseWithPositions(file: string, text: string): ParseResult {
  const { LineCounter } = yamlLibrary()
  const lineCounter = new LineCounter()
  const position = (offset: number): SourceLocation => {
    const { line, col } = lineCounter.linePos(offset)
    return { file, line, column: col }
  }
  const parsed = parseAll(file, text, lineCounter)
  if ('refused' in parsed) return { documents: [], diagnostics: [parsed.refused] }
  const diagnostics: Diagnostic[] = []
  const documents: ParsedDocument[] = []
  parsed.docs.forEach((doc, index) => {
    const start = position(doc.contents?.range?.[0] ?? doc.range?.[0] ?? 0)
    const value = documentValue(doc, start, position, diagnostics)
    if (value !== NOTHING) documents.push(treeDocument(file, text, doc, index, value, start, position))
  })
  return { documents, diagnostics }
}

/** The file's documents, or the one problem that refuses the whole file. */
function parseAll(
  file: string,
  text: string,
  lineCounter: LineCounter
): { docs: Document.Parsed[] } | { refused: Diagnostic } {
  // Taken before the `try` below: a library that cannot load is not the file's fault.
  const { parseAllDocuments } = yamlLibrary()
  let docs: Document.Parsed[]
  try {
    docs = parseAllDocuments(text, {
      lineCounter,
      prettyErrors: false,
      uniqueKeys: true,
      strict: true
    }) as Document.Parsed[]
    if (!Array.isArray(docs)) docs = [docs]
  } catch (e) {
    // The library reports most failures as document errors; anything thrown is still the file's fault.
    return {
      refused: diagnostic('validate', 'error', `YAML could not be parsed: ${errorMessage(e)}`, {
        file,
        line: 1,
        column: 1
      })
    }
  }
  if (docs.length > YAML_LIMITS.maxDocuments) {
    return {
      refused: diagnostic(
        'validate',
        'error',
        `too many YAML documents (${docs.length}); at most ${YAML_LIMITS.maxDocuments} per file`,
        {
          file,
          line: 1,
          column: 1
        }
      )
    }
  }
  return { docs }
}

/** A document that holds nothing to validate: it had errors (reported), or is empty. */
const NOTHING = Symbol('nothing')

/**
 * The document's value, with its warnings reported; NOTHING when it is empty or has a problem (reported): an
 * error, an alias that fails, or nesting deeper than the limit.
 */
function documentValue(
  doc: Document.Parsed,
  docStart: SourceLocation,
  position: (offset: number) => SourceLocation,
  diagnostics: Diagnostic[]
): unknown {
  if (doc.errors.length > 0) {
    for (const err of doc.errors) {
      const at = position(err.pos[0])
      diagnostics.push(
        diagnostic('validate', 'error', `YAML ${describeYamlError(err.code, err.message)}`, at)
      )
    }
    return NOTHING
  }
  for (const warn of doc.warnings) {
    diagnostics.push(
      diagnostic('validate', 'warning', `YAML ${warn.message.split('\n')[0]}`, position(warn.pos[0]))
    )
  }
  if (isEmptyDocument(doc)) return NOTHING // e.g. after a trailing `---`

  let value: unknown
  const aliases = watchAliases(doc)
  try {
    value = doc.toJS({ maxAliasCount: YAML_LIMITS.maxAliasCount })
  } catch (e) {
    const msg = errorMessage(e)
    const why = /excessive alias count/i.test(msg)
      ? `too many alias expansions (more than ${YAML_LIMITS.maxAliasCount}): refused as a resource exhaustion attack`
      : msg.split('\n')[0]!
    // At the alias that failed (the one that went over the limit, or names no anchor), not the document.
    const failed = aliases.failed()
    diagnostics.push(
      diagnostic('validate', 'error', `YAML ${why}`, failed?.range ? position(failed.range[0]) : docStart)
    )
    return NOTHING
  }
  const depth = maxDepth(value, YAML_LIMITS.maxDepth + 1)
  if (depth > YAML_LIMITS.maxDepth) {
    diagnostics.push(
      diagnostic('validate', 'error', `YAML is nested deeper than ${YAML_LIMITS.maxDepth} levels`, docStart)
    )
    return NOTHING
  }
  return value
}

/** A document of the syntax tree, which says where its fields are. */
function treeDocument(
  file: string,
  text: string,
  doc: Document.Parsed,
  index: number,
  value: unknown,
  docStart: SourceLocation,
  position: (offset: number) => SourceLocation
): ParsedDocument {
  const nodeLocation = (node: Node | undefined, fallback: SourceLocation): SourceLocation =>
    node?.range ? position(node.range[0]) : fallback
  /** Walks down as far as the path exists; `complete` says whether it reached the end. */
  const walk = (path: readonly PathSegment[]): { node: Node | undefined; complete: boolean } => {
    let node: Node | undefined = doc.contents ?? undefined
    for (const seg of path) {
      const next = childOf(node, seg)
      if (!next) return { node, complete: false }
      node = next
    }
    return { node, complete: true }
  }
  return {
    file,
    index,
    value,
    start: docStart,
    locate: path => nodeLocation(walk(path).node, docStart),
    locateKey: (path, key) => {
      const { node: parent } = walk(path)
      const { isMap, isScalar } = yamlLibrary()
      if (isMap(parent)) {
        const pair = parent.items.find(p => isScalar(p.key) && String(p.key.value) === key)
        if (pair && isScalar(pair.key)) return nodeLocation(pair.key, docStart)
      }
      return nodeLocation(parent, docStart)
    },
    scalarAt: path => {
      const { node, complete } = walk(path)
      if (!complete || !yamlLibrary().isScalar(node) || !node.range) return undefined
      const raw = text.slice(node.range[0], node.range[1])
      if (raw.includes('\n')) return undefined
      const location = position(node.range[0])
      return {
        location,
        source: raw,
        columnOf: offset => location.column + sourceOffset(raw, node.type, offset)
      }
    },
    locateIn: (path, value, offset) => {
      const { node, complete } = walk(path)
      if (!complete || !yamlLibrary().isScalar(node) || !node.range) return undefined
      const [start, end] = node.range
      const style = LIBRARY_STYLES[node.type ?? '']
      if (!style) return undefined
      // Inside the quotes; after a block scalar's header line.
      const from =
        style === 'single' || style === 'double'
          ? start + 1
          : style === 'plain'
            ? start
            : text.indexOf('\n', start) + 1
      const to = style === 'single' || style === 'double' ? end - 1 : end
      const at = scalarOffset(text.slice(from, to), style, value, offset)
      return at === undefined ? undefined : position(from + at)
    }
  }
}

const LIBRARY_STYLES: Record<string, ScalarStyle> = {
  PLAIN: 'plain',
  QUOTE_SINGLE: 'single',
  QUOTE_DOUBLE: 'double',
  BLOCK_LITERAL: 'literal',
  BLOCK_FOLDED: 'folded'
}

/**
 * Remembers which alias of the document failed to resolve: the library throws from the alias's toJSON, the
 * innermost one first, so the first alias whose call throws is the one to point at.
 */
function watchAliases(doc: Document.Parsed): { failed(): Node | undefined } {
  let failed: Node | undefined
  yamlLibrary().visit(doc, {
    Alias(_, alias) {
      const toJSON = alias.toJSON.bind(alias)
      alias.toJSON = (...args: Parameters<typeof toJSON>) => {
        try {
          return toJSON(...args)
        } catch (e) {
          failed ??= alias
          throw e
        }
      }
    }
  })
  return { failed: () => failed }
}

/** An empty document (after a trailing `---`), or an explicit `~`: either declares nothing. */
function isEmptyDocument(doc: Document.Parsed): boolean {
  const c = doc.contents
  return c === null || (yamlLibrary().isScalar(c) && c.value === null)
}

function childOf(node: unknown, seg: PathSegment): Node | undefined {
  const { isMap, isPair, isScalar, isSeq } = yamlLibrary()
  if (isMap(node)) {
    const pair = node.items.find(p => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg))
    return (pair?.value as Node | null | undefined) ?? undefined
  }
  if (isSeq(node) && typeof seg === 'number') return (node.items[seg] as Node | null | undefined) ?? undefined
  return undefined
}

/** Iterative, so a hostile value cannot overflow the stack while we measure it. */
function maxDepth(value: unknown, stopAt: number): number {
  let deepest = 0
  const stack: Array<[unknown, number]> = [[value, 1]]
  while (stack.length > 0) {
    const [v, d] = stack.pop()!
    if (v === null || typeof v !== 'object') continue
    if (d > deepest) deepest = d
    if (deepest >= stopAt) return deepest
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1])
  }
  return deepest
}

function describeYamlError(code: string, message: string): string {
  const first = message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')
  switch (code) {
    case 'DUPLICATE_KEY':
      return `duplicate key: ${first}`
    case 'RESOURCE_EXHAUSTION':
      return `is nested too deeply to parse (${first})`
    default:
      return `syntax error: ${first}`
  }
}
