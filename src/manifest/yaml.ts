/**
 * YAML with positions. Any stage can turn a document's field path into `file:line:col`. Values come from
 * js-yaml, which is about ten times faster; positions come from the `yaml` library's syntax tree, built
 * only for a file that needs one (an error, or a change to show), so a plan of a thousand unchanged
 * dashboards never pays for it. A file js-yaml refuses (syntax, duplicate keys, aliases) goes through
 * the `yaml` library at once, which says exactly where and why. Hostile input (alias bombs, deep
 * nesting, binary junk, duplicate keys) becomes a diagnostic, never a crash or a hang.
 */
import { constructFromEvents, CORE_SCHEMA, parseEvents, SCALAR_STYLE, type Event } from 'js-yaml'
import type { Document, Node } from 'yaml'
import { diagnostic, type Diagnostic, type SourceLocation } from '../diagnostics.js'
import { errorMessage } from '../error-message.js'
import { yamlLibrary } from '../yaml-library.js'
import { fastValues, ownStrings } from './fast-yaml.js'
import type { PathSegment } from './path.js'
import {
  indexPositions,
  lineLocator,
  pathKey,
  scalarOffset,
  type DocumentPositions,
  type ScalarStyle
} from './positions.js'

/** Limits that keep a hostile file from exhausting the runner. */
export const YAML_LIMITS = {
  /** Expanded aliases per document (the yaml library's own defence against "billion laughs"). */
  maxAliasCount: 100,
  /** Nesting depth of a document's value; real manifests need under 10. */
  maxDepth: 64,
  /** Documents per file. */
  maxDocuments: 1000
}

export interface ParsedDocument {
  file: string
  /** 0-based index of the document within its file. */
  index: number
  /**
   * The document's value (variables substitute into it after parsing); `undefined` once the document is
   * validated and typed (loadManifests drops it).
   */
  value: unknown
  /** Paths (as `formatPath` writes them) whose value a `${secret.NAME}` placeholder filled, with NAME. */
  secretPaths?: ReadonlyMap<string, string>
  /** Of those, the ones whose secret has no value (validate): the value is not known, so not checked. */
  unsetSecretPaths?: ReadonlySet<string>
  /** Location of the document's first content. */
  readonly start: SourceLocation
  /** The node at `path`, or the nearest ancestor that exists (a missing field points at its parent). */
  locate(path: readonly PathSegment[]): SourceLocation
  /** The key of `key` inside the mapping at `path` (for unknown or misspelled keys). */
  locateKey(path: readonly PathSegment[], key: string): SourceLocation
  /**
   * A one-line scalar at `path`: where it is, its source text as written (`12345`, `"a\tb"`), and the
   * source column of a given offset into its value.
   */
  scalarAt(
    path: readonly PathSegment[]
  ): { location: SourceLocation; source: string; columnOf(valueOffset: number): number } | undefined
  /**
   * Where the `offset`-th character of `value`, the string the scalar at `path` holds, is written: in any
   * style (plain, quoted or block, over several lines). Undefined when the source does not spell `value`
   * (a `${VAR}` filled it) or `path` holds no scalar.
   */
  locateIn(path: readonly PathSegment[], value: string, offset: number): SourceLocation | undefined
}

export interface ParseResult {
  documents: ParsedDocument[]
  diagnostics: Diagnostic[]
  /**
   * With `reread`: lets go of the text once the documents are validated. Positions asked for later read
   * the file again; until then a plan of thousands of valid manifests holds none of their text.
   */
  release?(): void
}

/**
 * `reread` gives the file's text again, as it was read (or nothing, should it have changed): a file read
 * from disk need not be held for the positions of its documents (ParseResult.release).
 */
export function parseYamlFile(file: string, text: string, reread?: () => string | undefined): ParseResult {
  const { deep, bound, multilineQuote } = nesting(text)
  if (deep !== undefined) {
    // Refused before any parser sees it: parsers recurse, and a second stack overflow in one process can
    // abort Node itself. Nothing a manifest needs comes close to these depths.
    const before = text.slice(0, deep)
    const at = { file, line: before.split('\n').length, column: deep - before.lastIndexOf('\n') }
    return {
      documents: [],
      diagnostics: [
        diagnostic('validate', 'error', `YAML is nested deeper than ${YAML_LIMITS.maxDepth} levels`, at)
      ]
    }
  }
  // Most files: values only, from the fastest parser; positions on first use (fast-yaml.ts).
  // (js-yaml 4 takes quoted scalars and flow collections over lines that js-yaml 5 refuses as under-indented.)
  const fast = multilineQuote ? undefined : fastValues(file, text, bound, YAML_LIMITS.maxDepth)
  if (fast && fast.length <= YAML_LIMITS.maxDocuments) return documentsOf(file, text, fast, undefined, reread)
  let values: unknown[]
  let starts: TopPositions[]
  try {
    // One parse: the events give the values and where each document's `name` and `kind` are (what a plan
    // shows of a valid manifest). Aliases are refused here (maxAliases 0): the `yaml` library counts their
    // expansion.
    const events = parseEvents(text, { filename: file, maxDepth: YAML_LIMITS.maxDepth })
    values = constructFromEvents(events, { source: text, filename: file, schema: CORE_SCHEMA, maxAliases: 0 })
    if (values.length > YAML_LIMITS.maxDocuments) return parseWithPositions(file, text)
    // js-yaml 5 slices its strings out of the text too: made strings of their own, so that release() can
    // let the text go (else a 20 kB file kept by one `name` stays whole to the end of the run).
    for (let i = 0; i < values.length; i++) values[i] = ownStrings(values[i])
    starts = topPositions(text, events)
    if (starts.length !== values.length) throw new Error('documents do not line up')
  } catch {
    return parseWithPositions(file, text)
  }
  return documentsOf(file, text, values, starts, reread)
}

interface TopPositions {
  start: number
  name: number
  kind: number
}

/** Where each document starts and its `name` and `kind` are: three offsets a document. */
function topPositions(text: string, events?: Event[]): TopPositions[] {
  const docs = indexPositions(text, { maxDepth: YAML_LIMITS.maxDepth, events, depth: 1 })
  const at = (d: DocumentPositions, key: string) => d.nodes.get(pathKey([key]))?.start ?? d.start
  return docs.map(d => ({ start: d.start, name: at(d, 'name'), kind: at(d, 'kind') }))
}

function documentsOf(
  file: string,
  text: string,
  values: unknown[],
  starts?: TopPositions[],
  reread?: () => string | undefined
): ParseResult {
  const source = new YamlSource(file, text, values.length, starts, reread)
  const documents: ParsedDocument[] = []
  values.forEach((value, index) => {
    if (value === null || value === undefined) return // an empty document, e.g. after a trailing `---`
    documents.push(new YamlDocument(source, index, value))
  })
  return { documents, diagnostics: [], ...(reread ? { release: () => source.release() } : {}) }
}

/** A file js-yaml parsed: its lines, its documents' top positions and their deeper ones, each built on first use. */
class YamlSource {
  private lines?: (offset: number) => SourceLocation
  readonly deeper: (index: number) => Locator | undefined

  constructor(
    readonly file: string,
    private text: string | undefined,
    private readonly count: number,
    private starts?: TopPositions[],
    private readonly reread?: () => string | undefined
  ) {
    this.deeper = lazyPositions(file, () => this.textNow(), count)
  }

  /** Lets go of the text when it can be read again. */
  release(): void {
    if (this.reread) this.text = undefined
  }

  /** The text, read again if it was let go (a file changed since has no positions: its first line). */
  private textNow(): string {
    return (this.text ??= this.reread?.() ?? '')
  }

  position(offset: number): SourceLocation {
    this.lines ??= lineLocator(this.file, this.textNow())
    return this.lines(offset)
  }

  /** A document's start, `name` and `kind`: from the first parse, or one parse of the file's top level. */
  top(index: number): TopPositions | undefined {
    if (!this.starts) {
      yamlStats.positionParses++
      try {
        this.starts = topPositions(this.textNow())
        if (this.starts.length !== this.count) throw new Error('documents do not line up')
      } catch {
        this.starts = []
      }
    }
    return this.starts[index]
  }
}

/**
 * A document js-yaml parsed. Its start, `name` and `kind` are located from the file's top level (from
 * the first parse when that was js-yaml 5's; else parsed for them when first asked); any other position
 * (a problem inside a tile) from the file's second parse, made only when one is asked for.
 */
class YamlDocument implements ParsedDocument {
  constructor(
    private readonly source: YamlSource,
    readonly index: number,
    public value: unknown
  ) {}

  get file(): string {
    return this.source.file
  }

  get start(): SourceLocation {
    const top = this.source.top(this.index)
    return top ? this.source.position(top.start) : (this.deep()?.start ?? this.fallback)
  }

  locate(path: readonly PathSegment[]): SourceLocation {
    if (path.length === 1 && (path[0] === 'name' || path[0] === 'kind')) {
      const top = this.source.top(this.index)
      if (top) return this.source.position(top[path[0]])
    }
    return this.deep()?.locate(path) ?? this.fallback
  }

  locateKey(path: readonly PathSegment[], key: string): SourceLocation {
    return this.deep()?.locateKey(path, key) ?? this.fallback
  }

  scalarAt(path: readonly PathSegment[]): ReturnType<ParsedDocument['scalarAt']> {
    return this.deep()?.scalarAt(path)
  }

  locateIn(path: readonly PathSegment[], value: string, offset: number): SourceLocation | undefined {
    return this.deep()?.locateIn(path, value, offset)
  }

  private deep(): Locator | undefined {
    return this.source.deeper(this.index)
  }

  private get fallback(): SourceLocation {
    return { file: this.file, line: 1, column: 1 }
  }
}

type Locator = Pick<ParsedDocument, 'start' | 'locate' | 'locateKey' | 'scalarAt' | 'locateIn'>

/**
 * Files parsed again for positions: `positionParses` for the top level (a document's start, `name` and
 * `kind`, of a file whose values came from js-yaml 4), `secondParses` for deeper ones. A plan that shows
 * nothing of valid files makes neither.
 */
export const yamlStats = { positionParses: 0, secondParses: 0 }

/**
 * Positions for a file js-yaml parsed, built on first use from its event stream. Should the documents
 * not line up with the values (they always do), the `yaml` library's syntax tree answers instead.
 */
function lazyPositions(
  file: string,
  textOf: () => string,
  count: number
): (index: number) => Locator | undefined {
  let locators: Array<Locator | undefined> | undefined
  return index => {
    if (!locators) {
      yamlStats.secondParses++
      const text = textOf()
      try {
        const docs = indexPositions(text, { maxDepth: YAML_LIMITS.maxDepth })
        if (docs.length !== count) throw new Error('documents do not line up')
        const position = lineLocator(file, text)
        locators = docs.map(d => eventLocator(d, position, textOf))
      } catch {
        const full = parseWithPositions(file, text).documents
        locators = Array.from({ length: count }, (_, i) => full.find(d => d.index === i))
      }
    }
    return locators[index]
  }
}

const STYLES: Record<number, ScalarStyle> = {
  [SCALAR_STYLE.PLAIN]: 'plain',
  [SCALAR_STYLE.SINGLE_QUOTED]: 'single',
  [SCALAR_STYLE.DOUBLE_QUOTED]: 'double',
  [SCALAR_STYLE.LITERAL_BLOCK]: 'literal',
  [SCALAR_STYLE.FOLDED_BLOCK]: 'folded'
}

function eventLocator(
  doc: DocumentPositions,
  position: (offset: number) => SourceLocation,
  textOf: () => string
): Locator {
  const nodeAt = (path: readonly PathSegment[]) => {
    for (let n = path.length; n >= 0; n--) {
      const node = doc.nodes.get(pathKey(path.slice(0, n)))
      if (node) return node
    }
    return undefined
  }
  return {
    get start() {
      return position(doc.start)
    },
    locate: path => position(nodeAt(path)?.start ?? doc.start),
    locateKey: (path, key) => {
      const entry = doc.nodes.get(pathKey([...path, key]))
      return position(entry?.keyStart ?? nodeAt(path)?.start ?? doc.start)
    },
    scalarAt: path => {
      const node = doc.nodes.get(pathKey(path))
      if (!node?.raw) return undefined
      const location = position(node.start)
      const type =
        node.style === SCALAR_STYLE.SINGLE_QUOTED
          ? 'QUOTE_SINGLE'
          : node.style === SCALAR_STYLE.DOUBLE_QUOTED
            ? 'QUOTE_DOUBLE'
            : 'PLAIN'
      return {
        location,
        source: node.raw,
        columnOf: offset => location.column + sourceOffset(node.raw!, type, offset)
      }
    },
    locateIn: (path, value, offset) => {
      const node = doc.nodes.get(pathKey(path))
      const style = node?.style === undefined ? undefined : STYLES[node.style]
      if (!style || node?.valueStart === undefined || node.valueEnd === undefined) return undefined
      const at = scalarOffset(textOf().slice(node.valueStart, node.valueEnd), style, value, offset)
      return at === undefined ? undefined : position(node.valueStart + at)
    }
  }
}

/** The `yaml` library's full parse: positions for every node, and precise errors. */
function parseWithPositions(file: string, text: string): ParseResult {
  // Taken before the `try` below: a library that cannot load is not the file's fault.
  const { LineCounter, parseAllDocuments } = yamlLibrary()
  const lineCounter = new LineCounter()
  const diagnostics: Diagnostic[] = []
  const position = (offset: number): SourceLocation => {
    const { line, col } = lineCounter.linePos(offset)
    return { file, line, column: col }
  }
  const nodeLocation = (node: Node | undefined, fallback: SourceLocation): SourceLocation =>
    node?.range ? position(node.range[0]) : fallback

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
    diagnostics.push(
      diagnostic('validate', 'error', `YAML could not be parsed: ${errorMessage(e)}`, {
        file,
        line: 1,
        column: 1
      })
    )
    return { documents: [], diagnostics }
  }
  if (docs.length > YAML_LIMITS.maxDocuments) {
    diagnostics.push(
      diagnostic(
        'validate',
        'error',
        `too many YAML documents (${docs.length}); at most ${YAML_LIMITS.maxDocuments} per file`,
        {
          file,
          line: 1,
          column: 1
        }
      )
    )
    return { documents: [], diagnostics }
  }

  const documents: ParsedDocument[] = []
  docs.forEach((doc, index) => {
    const docStart = position(doc.contents?.range?.[0] ?? doc.range?.[0] ?? 0)
    if (doc.errors.length > 0) {
      for (const err of doc.errors) {
        const at = position(err.pos[0])
        diagnostics.push(
          diagnostic('validate', 'error', `YAML ${describeYamlError(err.code, err.message)}`, at)
        )
      }
      return
    }
    for (const warn of doc.warnings) {
      diagnostics.push(
        diagnostic('validate', 'warning', `YAML ${warn.message.split('\n')[0]}`, position(warn.pos[0]))
      )
    }
    if (isEmptyDocument(doc)) return // e.g. after a trailing `---`

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
      diagnostics.push(
        diagnostic('validate', 'error', `YAML ${why}`, nodeLocation(aliases.failed(), docStart))
      )
      return
    }
    const depth = maxDepth(value, YAML_LIMITS.maxDepth + 1)
    if (depth > YAML_LIMITS.maxDepth) {
      diagnostics.push(
        diagnostic('validate', 'error', `YAML is nested deeper than ${YAML_LIMITS.maxDepth} levels`, docStart)
      )
      return
    }

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
    documents.push({
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
    })
  })
  return { documents, diagnostics }
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

/** Where the value's `offset`-th character is in the scalar's source: quotes and escapes shift it. */
function sourceOffset(raw: string, type: string | undefined, offset: number): number {
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

/** An empty document (after a trailing `---`), or an explicit `~`: either declares nothing. */
function isEmptyDocument(doc: Document.Parsed): boolean {
  const c = doc.contents
  return c === null || (yamlLibrary().isScalar(c) && c.value === null)
}

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
function nesting(text: string): { deep?: number; bound: number; multilineQuote: boolean } {
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
