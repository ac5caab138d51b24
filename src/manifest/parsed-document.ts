/**
 * What a parsed YAML file gives every stage: its documents, each of which can say where a field of it is
 * written, and the limits every parse of a manifest keeps to.
 */
import type { Diagnostic, SourceLocation } from '../diagnostics.js'
import type { PathSegment } from './path.js'

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

/** What a document says of where its fields are, whichever parse made it. */
export type Locator = Pick<ParsedDocument, 'start' | 'locate' | 'locateKey' | 'scalarAt' | 'locateIn'>
