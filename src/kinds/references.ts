/**
 * One mechanism for every reference a manifest makes to another resource by name: a connection, a data
 * source, a saved search, a webhook. At plan time a name resolves to the live id when the resource exists,
 * or, when the manifests declare a resource this run creates, to a placeholder `new:<Kind>/<name>` that
 * the apply binds from the result of the operation creating it (the way alerts get a new dashboard's tile
 * ids). Normal forms compare references by their label: the referenced resource's name when that name says
 * which resource it is, `<name> (new)` for one this run creates, `<name> (<id>)` otherwise, so a plan shows
 * names and a reference to a resource created in the same run plans and applies in one run.
 *
 * The planner registers, kind by kind, the live records, the names the manifests declare and how they were
 * paired; kinds only ask. An unknown or ambiguous name is a plan error at its manifest line, with a hint.
 */
import { diagnostic, type Diagnostic } from '../diagnostics.js'
import { didYouMean } from '../manifest/issues.js'
import { formatPath, type PathSegment } from '../manifest/path.js'
import type { ParsedDocument } from '../manifest/yaml.js'
import type { ResourceKind } from '../plan/types.js'
import { wordFor } from './nouns.js'

/** What the manifest wrote: a name (`source: Logs`) or a raw id (`sourceId: ...`), and where. */
export interface RefSpec {
  kind: ResourceKind
  name?: string
  id?: string
  /** The field that holds it, for the error's place. */
  at?: { doc: ParsedDocument; path: readonly PathSegment[] }
}

export interface Resolved {
  kind: ResourceKind
  /** What a request carries: the live id, or `new:<Kind>/<name>` for a resource this run creates. */
  value: string
  /** How normal forms and plans show it, and compare it. */
  label: string
  /** The name of a resource the manifests declare (its create or update must run first). */
  declared?: string
  /** Resolution failed (reported as a plan error). */
  error?: boolean
}

const PLACEHOLDER = /^new:([A-Za-z]+)\/([\s\S]*)$/

export const placeholder = (kind: ResourceKind, name: string): string => `new:${kind}/${name}`

/** The token a create or update provides once the resource exists; its result carries the id. */
export const resourceReady = (kind: ResourceKind | string, name: string): string => `ready:${kind}/${name}`

interface KindIndex {
  /** `undefined`: this API cannot list this kind (the route is absent in this mode). */
  live?: Array<{ id: string; name: string }>
  unavailable?: string
  declared: Set<string>
  /** Desired name -> live id, for the pairs that have a live record. */
  pairedId: Map<string, string>
  /** Live id -> desired name. */
  pairedName: Map<string, string>
  /** Live ids this stack manages: paired, or owned and left the manifests. */
  managed: Set<string>
  deleted: Set<string>
}

export class References {
  private readonly kinds = new Map<ResourceKind, KindIndex>()
  private readonly reported = new Set<string>()

  constructor(private readonly report: (d: Diagnostic) => void) {}

  private index(kind: ResourceKind): KindIndex {
    let index = this.kinds.get(kind)
    if (!index) {
      index = {
        declared: new Set(),
        pairedId: new Map(),
        pairedName: new Map(),
        managed: new Set(),
        deleted: new Set()
      }
      this.kinds.set(kind, index)
    }
    return index
  }

  /** The live records of a kind, or why this API has none to list. */
  live(kind: ResourceKind, records: Array<{ id: string; name: string }> | undefined, unavailable?: string) {
    const index = this.index(kind)
    index.live = records
    index.unavailable = records === undefined ? unavailable : undefined
  }

  /** The names the manifests declare for a kind. */
  declare(kind: ResourceKind, names: readonly string[]): void {
    for (const name of names) this.index(kind).declared.add(name)
  }

  /** How a kind's manifests were paired with live records, and which live records the stack manages. */
  paired(kind: ResourceKind, pairs: ReadonlyArray<[string, string]>, orphans: readonly string[]): void {
    const index = this.index(kind)
    for (const [name, id] of pairs) {
      index.pairedId.set(name, id)
      index.pairedName.set(id, name)
      index.managed.add(id)
    }
    for (const id of orphans) index.managed.add(id)
  }

  /** The live record is deleted by this run (with prune). */
  markDeleted(kind: ResourceKind, id: string): void {
    this.index(kind).deleted.add(id)
  }

  isManaged = (kind: ResourceKind, id: string): boolean => this.index(kind).managed.has(id)
  isDeleted = (kind: ResourceKind, id: string): boolean => this.index(kind).deleted.has(id)
  /** The live id a declared resource keeps (undefined when this run creates it). */
  liveIdOf = (kind: ResourceKind, name: string): string | undefined => this.index(kind).pairedId.get(name)

  /**
   * A reference, resolved: the live id or a placeholder, and its label. Problems are reported once per
   * place; the result then carries `error` and a label that never equals a live one.
   */
  resolve(ref: RefSpec): Resolved {
    const index = this.index(ref.kind)
    const fail = (message: string): Resolved => {
      this.problem(ref, message)
      const text = ref.name ?? ref.id ?? ''
      return { kind: ref.kind, value: `unresolved:${text}`, label: `unresolved:${text}`, error: true }
    }
    if (ref.id !== undefined) {
      if (index.live && !index.live.some(r => r.id === ref.id))
        return fail(`no ${wordFor(ref.kind)} with id "${ref.id}"`)
      return { kind: ref.kind, value: ref.id, label: this.label(ref.kind, ref.id) }
    }
    const name = ref.name ?? ''
    if (index.declared.has(name)) {
      const id = index.pairedId.get(name)
      return id !== undefined
        ? { kind: ref.kind, value: id, label: name, declared: name }
        : { kind: ref.kind, value: placeholder(ref.kind, name), label: `${name} (new)`, declared: name }
    }
    if (!index.live) {
      return fail(
        `this API cannot list ${wordFor(ref.kind, true)}${index.unavailable ? ` (${index.unavailable})` : ''}: name it by id instead`
      )
    }
    const matches = index.live.filter(r => r.name === name)
    if (matches.length === 1) return { kind: ref.kind, value: matches[0]!.id, label: name }
    if (matches.length > 1)
      return fail(
        `${wordFor(ref.kind)} name "${name}" is ambiguous: ${matches.length} have it (ids ${matches.map(m => m.id).join(', ')}); use the id instead`
      )
    const candidates = [...new Set([...index.declared, ...index.live.map(r => r.name)])]
    const guess = didYouMean(name, candidates)
    const known =
      candidates.length > 0 && !guess
        ? `; known: ${candidates.slice(0, 10).join(', ')}${candidates.length > 10 ? ', ...' : ''}`
        : ''
    return fail(`no ${wordFor(ref.kind)} named "${name}"${guess ? ` (did you mean "${guess}"?)` : known}`)
  }

  /**
   * How a live id reads in a normal form: the name the manifests know it by, `<name> (<id>)` when that
   * name would resolve to another resource, the id itself when no such resource exists.
   */
  label(kind: ResourceKind, id: string): string {
    const index = this.index(kind)
    const desired = index.pairedName.get(id)
    if (desired !== undefined) return desired
    const record = index.live?.find(r => r.id === id)
    if (!record) return id
    const unique =
      !index.declared.has(record.name) && index.live!.filter(r => r.name === record.name).length === 1
    return unique ? record.name : `${record.name} (${id})`
  }

  /** The label of a value a request would carry: a live id, a placeholder, or an unresolved name. */
  labelOfValue(kind: ResourceKind, value: string): string {
    const m = PLACEHOLDER.exec(value)
    if (m) return `${m[2]} (new)`
    // An unresolved value (`unresolved:name`) is no record's id, so it reads as written.
    return this.label(kind, value)
  }

  /** Names for ids and placeholders, for reports (the plan's `references`). */
  names(kind: ResourceKind): Record<string, string> {
    const index = this.index(kind)
    const out: Record<string, string> = {}
    for (const r of index.live ?? []) if (r.name !== '') out[r.id] = index.pairedName.get(r.id) ?? r.name
    for (const name of index.declared)
      if (!index.pairedId.has(name)) out[placeholder(kind, name)] = `${name} (new)`
    return out
  }

  private problem(ref: RefSpec, message: string): void {
    const key = ref.at
      ? `${ref.at.doc.file}\u0000${ref.at.doc.index}\u0000${formatPath(ref.at.path)}`
      : message
    if (this.reported.has(key)) return
    this.reported.add(key)
    const at = ref.at ? { ...ref.at.doc.locate(ref.at.path), field: formatPath(ref.at.path) } : undefined
    this.report(diagnostic('plan', 'error', message, at))
  }
}

/** The tokens of the placeholders in a request body: the operations that create them come first. */
export function placeholderTokens(body: unknown): string[] {
  const tokens = new Set<string>()
  visitStrings(body, s => {
    const m = PLACEHOLDER.exec(s)
    if (m) tokens.add(resourceReady(m[1]!, m[2]!))
  })
  return [...tokens]
}

/**
 * The body with every placeholder replaced by the id its create produced (facts by token). A body without
 * placeholders (most: they name only what exists) is returned as it is, not copied.
 */
export function bindPlaceholders<T>(body: T, facts: ReadonlyMap<string, { id?: string }>): T {
  let found = false
  visitStrings(body, s => {
    if (!found && PLACEHOLDER.test(s)) found = true
  })
  if (!found) return body
  return walkStrings(body, s => {
    const m = PLACEHOLDER.exec(s)
    if (!m) return s
    const id = facts.get(resourceReady(m[1]!, m[2]!))?.id
    if (id === undefined) throw new Error(`${m[1]} "${m[2]}" has no id yet (its create did not run)`)
    return id
  }) as T
}

/** Calls `f` with every string in `value` (keys aside), copying nothing. */
function visitStrings(value: unknown, f: (s: string) => void): void {
  if (typeof value === 'string') f(value)
  else if (Array.isArray(value)) for (const v of value) visitStrings(v, f)
  else if (value !== null && typeof value === 'object')
    for (const v of Object.values(value)) visitStrings(v, f)
}

function walkStrings(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === 'string') return f(value)
  if (Array.isArray(value)) return value.map(v => walkStrings(v, f))
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[k] = walkStrings(v, f)
    return out
  }
  return value
}
