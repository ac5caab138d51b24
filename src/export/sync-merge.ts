/**
 * One manifest document brought in line with what export writes of the live record, edited in place so that what a
 * person wrote stays as written: a changed scalar keeps its quoting and its comment (the `yaml` library's nodes
 * carry both), an unchanged one is not touched, list items are matched by what names them (a tile's `id:` pin or
 * its name) rather than by position, and a `${VAR}` or `${secret.NAME}` placeholder is never replaced by the value
 * it stands for. Keys the manifest has and export leaves out (defaults a person spelled out, like `asRatio: false`)
 * are kept here and only named: whether each must go is for the caller to find out (sync.ts asks the planner).
 */
import type { Document, Node, Pair, YAMLMap, YAMLSeq } from 'yaml'
import { isMapping } from '../json.js'
import { yamlLibrary } from '../yaml-library.js'

export type NodePath = ReadonlyArray<string | number>

export interface Addition {
  /** The key's path; its parent is a mapping of the document. */
  path: NodePath
  value: unknown
  /** The keys export writes before it in that mapping, nearest first: it goes after the first the manifest has. */
  after: string[]
}

export interface MergeOutcome {
  /** Whether the document was edited. */
  changed: boolean
  /** Keys the manifest has that export does not write, kept: each may be a default spelled out, or stale. */
  extras: NodePath[]
  /**
   * Keys export writes that the manifest does not have, not added: each may be a server default the manifest
   * leaves out, a setting made in the UI, or another way of saying what the manifest says (a tile's `series`
   * for its `config`). `addAt` adds one.
   */
  additions: Addition[]
  /** Placeholders kept where export has something else (a secret is never read back; a variable is the user's). */
  placeholders: NodePath[]
}

const PLACEHOLDER = /\$\{[^}]*\}/

/**
 * Edits `doc` so that its value is `target` (a plain value: the exported document's), but for extras, additions and
 * placeholders. `alternate` is the same record written in its other forms (ExportContext.alternateForms): where a
 * mapping of the manifest shares more keys with the alternate's, that one is followed (a tile kept in `config`).
 */
export function mergeInto(doc: Document, target: unknown, alternate?: unknown): MergeOutcome {
  const outcome: MergeOutcome = { changed: false, extras: [], additions: [], placeholders: [] }
  const merged = mergeNode(doc, doc.contents as Node | null, target, alternate, [], outcome)
  if (merged !== doc.contents) {
    doc.contents = merged as Document['contents']
    outcome.changed = true
  }
  return outcome
}

/** Adds a key export writes where export puts it: after the nearest key before it that the manifest has. */
export function addAt(doc: Document, addition: Addition): void {
  const { isMap, isScalar } = yamlLibrary()
  const map = addition.path.length === 1 ? doc.contents : doc.getIn(addition.path.slice(0, -1), true)
  if (!isMap(map)) return
  const keyOf = (pair: Pair): unknown => (isScalar(pair.key) ? pair.key.value : pair.key)
  const at = addition.after.map(k => map.items.findIndex(p => keyOf(p) === k)).find(i => i >= 0)
  const key = addition.path[addition.path.length - 1]!
  map.items.splice(
    at === undefined ? map.items.length : at + 1,
    0,
    doc.createPair(key, addition.value) as Pair
  )
}

/** Removes the key at `path` (an extra), as a person would delete its line. */
export function removeAt(doc: Document, path: NodePath): void {
  doc.deleteIn(path)
}

/** The node to hold `target` where `node` is: `node` itself, edited, or a new node when the shapes differ. */
function mergeNode(
  doc: Document,
  node: Node | null | undefined,
  target: unknown,
  alternate: unknown,
  path: NodePath,
  outcome: MergeOutcome
): Node | null | undefined {
  const { isMap, isSeq, isScalar } = yamlLibrary()
  if (isMapping(target) && isMap(node)) {
    if (isMapping(alternate) && sharedKeys(node, alternate) > sharedKeys(node, target))
      mergeMap(doc, node, alternate, undefined, path, outcome)
    else mergeMap(doc, node, target, alternate, path, outcome)
    return node
  }
  if (Array.isArray(target) && isSeq(node)) {
    mergeSeq(doc, node, target, Array.isArray(alternate) ? alternate : undefined, path, outcome)
    return node
  }
  if (isScalar(node) && !isMapping(target) && !Array.isArray(target)) {
    if (node.value === target || (isNullish(node.value) && isNullish(target))) return node
    if (typeof node.value === 'string' && PLACEHOLDER.test(node.value)) {
      outcome.placeholders.push(path)
      return node
    }
    if (typeof target === 'string' && PLACEHOLDER.test(target)) {
      // Export writes a placeholder for what it cannot read (a secret): the manifest's own value stays.
      outcome.placeholders.push(path)
      return node
    }
    // A quoted or block string keeps its style when it can hold the new value; a number stays plain.
    node.value = target
    if (typeof target !== 'string') node.type = 'PLAIN'
    outcome.changed = true
    return node
  }
  outcome.changed = true
  return doc.createNode(target) as Node
}

/** How many of a mapping's keys a plain object has too. */
function sharedKeys(map: YAMLMap, value: Record<string, unknown>): number {
  const { isScalar } = yamlLibrary()
  return map.items.filter(p => {
    const key = isScalar(p.key) ? p.key.value : p.key
    return typeof key === 'string' && key in value
  }).length
}

function mergeMap(
  doc: Document,
  map: YAMLMap,
  target: Record<string, unknown>,
  alternate: unknown,
  path: NodePath,
  outcome: MergeOutcome
): void {
  const { isScalar } = yamlLibrary()
  const keyOf = (pair: Pair): unknown => (isScalar(pair.key) ? pair.key.value : pair.key)
  for (const pair of map.items) {
    const key = keyOf(pair)
    if (typeof key === 'string' && !(key in target)) outcome.extras.push([...path, key])
  }
  const order = Object.keys(target)
  order.forEach((key, i) => {
    const value = target[key]
    if (value === undefined) return
    const pair = map.items.find(p => keyOf(p) === key)
    if (pair) {
      const other = isMapping(alternate) ? alternate[key] : undefined
      const merged = mergeNode(doc, pair.value as Node | null, value, other, [...path, key], outcome)
      if (merged !== pair.value) pair.value = merged
      return
    }
    outcome.additions.push({ path: [...path, key], value, after: order.slice(0, i).reverse() })
  })
}

/**
 * A list: items matched by their `id` (a tile's pin), else their `name`, else their place; the manifest's items
 * keep their order and comments, new ones go at the end, and those the live record no longer has go.
 */
function mergeSeq(
  doc: Document,
  seq: YAMLSeq,
  target: readonly unknown[],
  alternate: readonly unknown[] | undefined,
  path: NodePath,
  outcome: MergeOutcome
): void {
  const identity = identityOf(seq, target)
  const matched = new Map<number, number>()
  const taken = new Set<number>()
  target.forEach((t, i) => {
    const at = identity
      ? seq.items.findIndex((n, j) => !taken.has(j) && identity.node(n) === identity.target(t))
      : i
    if (at >= 0 && at < seq.items.length && !taken.has(at)) {
      matched.set(at, i)
      taken.add(at)
    }
  })
  // Left over on both sides, in order: an item renamed (a tile renamed in the UI) keeps its place and comments.
  if (identity) {
    const leftItems = seq.items.map((_, j) => j).filter(j => !taken.has(j))
    const leftTargets = target.map((_, i) => i).filter(i => ![...matched.values()].includes(i))
    leftItems.forEach((j, n) => {
      if (n < leftTargets.length) matched.set(j, leftTargets[n]!)
    })
  }
  const kept: unknown[] = []
  seq.items.forEach((item, j) => {
    const i = matched.get(j)
    if (i === undefined) {
      outcome.changed = true
      return
    }
    // The alternate writes the same items in the same order: only their forms differ.
    const other = alternate?.length === target.length ? alternate[i] : undefined
    const merged = mergeNode(doc, item as Node, target[i], other, [...path, kept.length], outcome)
    kept.push(merged)
  })
  const added = target.filter((_, i) => ![...matched.values()].includes(i))
  for (const t of added) kept.push(doc.createNode(t))
  if (added.length > 0) outcome.changed = true
  seq.items = kept as typeof seq.items
}

interface Identity {
  node(node: unknown): string | undefined
  target(value: unknown): string | undefined
}

/** How a list's items are told apart, where every item of both sides has an `id` or a `name`. */
function identityOf(seq: YAMLSeq, target: readonly unknown[]): Identity | undefined {
  const { isMap, isScalar } = yamlLibrary()
  if (!target.every(t => idOf(t) !== undefined)) return undefined
  const nodeId = (node: unknown): string | undefined => {
    if (!isMap(node)) return undefined
    const field = (key: string) => {
      const v = node.get(key, true)
      return isScalar(v) && (typeof v.value === 'string' || typeof v.value === 'number')
        ? String(v.value)
        : undefined
    }
    const id = field('id')
    return id !== undefined ? `id:${id}` : field('name') !== undefined ? `name:${field('name')}` : undefined
  }
  if (!seq.items.every(n => nodeId(n) !== undefined)) return undefined
  // A pin on one side only (export pins repeated names alone): matched by name then.
  const pinned = target.some(t => isMapping(t) && t.id !== undefined)
  const allPinned = pinned && seq.items.every(n => nodeId(n)!.startsWith('id:'))
  if (!pinned || allPinned) return { node: nodeId, target: idOf }
  return {
    node: node => {
      const v = isMap(node) ? node.get('name', true) : undefined
      return isScalar(v) && typeof v.value === 'string' ? `name:${v.value}` : undefined
    },
    target: t => (isMapping(t) && typeof t.name === 'string' ? `name:${t.name}` : undefined)
  }
}

function idOf(value: unknown): string | undefined {
  if (!isMapping(value)) return undefined
  const id = value.id
  if (typeof id === 'string' || typeof id === 'number') return `id:${String(id)}`
  return typeof value.name === 'string' ? `name:${value.name}` : undefined
}

const isNullish = (v: unknown): boolean => v === null || v === undefined
