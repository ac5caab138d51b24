/**
 * YAML with positions. Any stage can turn a document's field path into `file:line:col`. Values come from
 * js-yaml, which is about ten times faster; positions come from the `yaml` library's syntax tree, built
 * only for a file that needs one (an error, or a change to show), so a plan of a thousand unchanged
 * dashboards never pays for it. A file js-yaml refuses (syntax, duplicate keys, aliases) goes through
 * the `yaml` library at once, which says exactly where and why. Hostile input (alias bombs, deep
 * nesting, binary junk, duplicate keys) becomes a diagnostic, never a crash or a hang.
 *
 * This module picks the parse and gives each document its positions; the parses are beside it: `fast-yaml.ts`
 * (js-yaml 4, values only), `positions.ts` (js-yaml 5's events), `yaml-tree.ts` (the `yaml` library), and
 * `nesting.ts` (the depth check before any of them).
 */
import { constructFromEvents, CORE_SCHEMA, parseEvents, SCALAR_STYLE, type Event } from 'js-yaml'
import { diagnostic, type SourceLocation } from '../diagnostics.js'
import { fastValues, ownStrings } from './fast-yaml.js'
import { nesting } from './nesting.js'
import { YAML_LIMITS, type Locator, type ParsedDocument, type ParseResult } from './parsed-document.js'
import type { PathSegment } from './path.js'
import {
  indexPositions,
  lineLocator,
  pathKey,
  scalarOffset,
  sourceOffset,
  type DocumentPositions,
  type ScalarStyle
} from './positions.js'
import { parseWithPositions } from './yaml-tree.js'

export { findDeepNesting } from './nesting.js'
export { YAML_LIMITS, type ParsedDocument, type ParseResult } from './parsed-document.js'

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
