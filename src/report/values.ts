/**
 * Values as a reviewer reads them: YAML in the manifest's own words (names, not ids), and changes as
 * +/- lines of that YAML. Format-independent: markdown puts the lines in a ```diff block, the terminal
 * colours them. The plan's values are normal forms that hold resolved ids; the plan's references name them.
 */
import { isMapping } from '../json.js'
import type { Change, FieldChange, Plan } from '../plan/types.js'
import { yamlLibrary } from '../yaml-library.js'

/** What the report knows the names of: by the key a normal form holds ids under, the key a manifest uses and the names. */
export interface Names {
  keys: ReadonlyMap<string, { as: string; names: ReadonlyMap<string, string> }>
  /** The same names by the key a manifest uses (`webhook`), for values shown as `name (id)`. */
  as: ReadonlyMap<string, ReadonlyMap<string, string>>
}

const NO_NAMES: Names = { keys: new Map(), as: new Map() }

/** The plan's id→name tables; a plan without them (an older plan file), or of another version, names nothing. */
export function namesOf(plan: Plan | undefined): Names {
  const refs = plan?.references
  if (!refs || refs.version !== 2) return NO_NAMES
  const keys = new Map(
    Object.entries(refs.keys).map(([key, { as, names }]) => [
      key,
      { as, names: new Map(Object.entries(names)) }
    ])
  )
  return { keys, as: new Map([...keys.values()].map(k => [k.as, k.names])) }
}

/**
 * A key and its value in the manifest's words: `sourceId: <id>` reads `source: Logs`, a list of ids a list of
 * names when every one has a name, a webhook shown as `name (id)` reads `name`. An id the plan cannot name stays.
 */
function renamed(key: string, value: unknown, names: Names): [string, unknown] {
  const ids = names.keys.get(key)
  if (ids) {
    if (Array.isArray(value) && value.every(v => ids.names.has(String(v))))
      return [ids.as, value.map(v => ids.names.get(String(v)))]
    if (typeof value === 'string' && ids.names.has(value)) return [ids.as, ids.names.get(value)]
  }
  const labelled = names.as.get(key)
  if (labelled && typeof value === 'string') {
    const m = /^(.*) \(([^()]+)\)$/.exec(value)
    if (m && labelled.get(m[2]!) === m[1]) return [key, m[1]]
  }
  return [key, value]
}

/** Keys in the order a manifest writes them (normal forms sort theirs); the rest keep their order. */
const KEY_ORDER = [
  'name',
  'dashboard',
  'tile',
  'x',
  'y',
  'w',
  'h',
  'displayType',
  'source',
  'select',
  'where'
]
const rank = (key: string): number => {
  const i = KEY_ORDER.indexOf(key)
  return i === -1 ? KEY_ORDER.length : i
}

/** A whole value in the manifest's words, recursively. */
export function readable(value: unknown, names: Names): unknown {
  if (Array.isArray(value)) return value.map(v => readable(v, names))
  if (value === null || typeof value !== 'object') return value
  const entries = Object.entries(value).map(([k, v]) => {
    const [key, named] = renamed(k, v, names)
    return [key, readable(named, names)] as const
  })
  // A stable sort: keys of equal rank keep the order they came in.
  return Object.fromEntries(entries.sort(([a], [b]) => rank(a) - rank(b)))
}

/**
 * YAML as a person writes it: block style, no folding of long lines, single quotes where quoting is
 * needed (they escape nothing, so a Lucene `\:` stays one backslash).
 */
export function yamlText(value: unknown): string {
  return fastYaml(value, '') ?? libraryYaml(value)
}

const libraryYaml = (value: unknown): string =>
  yamlLibrary().stringify(value, { lineWidth: 0, minContentWidth: 0, singleQuote: true }).replace(/\n$/, '')

/**
 * The common case without the YAML library (it costs a document per call, and a large plan has
 * thousands of small values): plain scalars, and mappings and lists of them. Anything that might need
 * quoting or a block scalar returns undefined and goes to the library.
 */
function fastYaml(value: unknown, indent: string): string | undefined {
  const scalar = plainScalar(value)
  if (scalar !== undefined) return scalar
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined
    const items: string[] = []
    for (const v of value) {
      const text = fastYaml(v, `${indent}  `)
      if (text === undefined) return undefined
      items.push(`${indent}- ${text.trimStart()}`)
    }
    return items.join('\n')
  }
  if (value === null || typeof value !== 'object') return undefined
  const entries = Object.entries(value)
  if (entries.length === 0) return undefined
  const lines: string[] = []
  for (const [k, v] of entries) {
    if (v === undefined) continue
    const key = plainScalar(k)
    if (key === undefined || key !== k) return undefined
    const inner = plainScalar(v)
    if (inner !== undefined) {
      lines.push(`${indent}${key}: ${inner}`)
      continue
    }
    const nested = fastYaml(v, Array.isArray(v) ? `${indent}  ` : `${indent}  `)
    if (nested === undefined) return undefined
    lines.push(`${indent}${key}:`, nested)
  }
  return lines.join('\n')
}

/** Strings YAML reads as something else: booleans, null, numbers in any of the core schema's forms. */
const NOT_A_STRING =
  /^(true|false|null|~|[-+]?(\.\d+|\d+(\.\d*)?)([eE][-+]?\d+)?|0x[0-9a-fA-F]+|0o[0-7]+|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN))$/i

/** Text that YAML reads back as the same string without quotes (checked against the library in tests). */
function isPlain(text: string): boolean {
  return (
    text !== '' &&
    text === text.trim() &&
    !/^[-?:,[\]{}#&*!|>'"%@`]/.test(text) &&
    !/: |:$| #|[,[\]{}]/.test(text) &&
    // eslint-disable-next-line no-control-regex -- control characters need quotes and escapes
    !/[\u0000-\u001f\u007f-\u009f\ufeff\u2028\u2029\ud800-\udfff]/.test(text) &&
    !NOT_A_STRING.test(text)
  )
}

function plainScalar(value: unknown): string | undefined {
  if (value === null) return 'null'
  if (typeof value === 'number')
    return Number.isFinite(value) && !Object.is(value, -0) ? String(value) : undefined
  if (typeof value === 'boolean') return String(value)
  if (typeof value !== 'string') return undefined
  return isPlain(value) ? value : undefined
}

// ---------------------------------------------------------------------------------------------------
// Paths of field changes: `tiles["Errors"].select[0].where`, as plan/diff.ts writes them.

/** `id`: the short id that tells apart records of one name (`tiles["CPU" #a1b2c3]`, plan/diff.ts keyLabel). */
export type PathSegment = { key: string; named: boolean; id?: string } | { index: number }

export function parsePath(path: string): PathSegment[] | undefined {
  if (path === '(root)') return []
  const segments: PathSegment[] = []
  const token = /\.?([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")(?: #([^\]]+))?\]/y
  let at = 0
  while (at < path.length) {
    token.lastIndex = at
    const m = token.exec(path)
    if (!m) return undefined
    if (m[1] !== undefined) segments.push({ key: m[1], named: false })
    else if (m[2] !== undefined) segments.push({ index: Number(m[2]) })
    else {
      try {
        const key = JSON.parse(m[3]!) as string
        segments.push(m[4] === undefined ? { key, named: true } : { key, named: true, id: m[4] })
      } catch {
        return undefined
      }
    }
    at = token.lastIndex
  }
  return segments
}

/** A change whose every value is a short one-line scalar reads best as a table. */
export function readsAsTable(fields: readonly FieldChange[]): boolean {
  const scalar = (v: unknown) =>
    v === undefined ||
    typeof v === 'number' ||
    typeof v === 'boolean' ||
    (typeof v === 'string' && !v.includes('\n') && v.length <= 120)
  return fields.every(f => scalar(f.before) && scalar(f.after) && parsePath(f.path) !== undefined)
}

/** A field path in the manifest's words (`tiles["Errors"].source` for `...sourceId` of a known id). */
export function readablePath(f: FieldChange, names: Names): string {
  const key = /(?:^|\.)([A-Za-z_][A-Za-z0-9_]*)$/.exec(f.path)?.[1]
  if (!key) return f.path
  const named = [f.before, f.after].some(v => v !== undefined && renamed(key, v, names)[0] !== key)
  return named ? `${f.path.slice(0, -key.length)}${renamed(key, f.before ?? f.after, names)[0]}` : f.path
}

/** One value of a table row, in the manifest's words. */
export function readableLeaf(f: FieldChange, side: 'before' | 'after', names: Names): unknown {
  const key = /(?:^|\.)([A-Za-z_][A-Za-z0-9_]*)$/.exec(f.path)?.[1] ?? ''
  const value = f[side]
  return value === undefined ? undefined : readable(renamed(key, value, names)[1], names)
}

// ---------------------------------------------------------------------------------------------------
// Whole resources and their changes as YAML lines.

export interface DiffLine {
  sign: '+' | '-' | ' '
  text: string
}

/**
 * The record a create or delete lists field by field, put back together in the manifest's form: children
 * keyed by a user's name whose values are records (tiles) become a list of records with `name:` first;
 * scalar ones (an IP entry's description) stay a mapping.
 */
function wholeRecord(fields: readonly FieldChange[], side: 'before' | 'after'): Record<string, unknown> {
  const record: Record<string, unknown> = {}
  const lists = new Map<string, Array<Record<string, unknown>>>()
  for (const f of fields) {
    const segments = parsePath(f.path)
    const value = f[side]
    if (value === undefined || !segments || segments.length === 0) continue
    const [first, second] = segments
    if (!('key' in first!)) continue
    if (segments.length === 2 && second && 'key' in second && second.named) {
      if (isMapping(value)) {
        let list = lists.get(first.key)
        if (!list) {
          lists.set(first.key, (list = []))
          record[first.key] = list
        }
        list.push({ name: second.key, ...value })
      } else {
        const map = (record[first.key] ??= {}) as Record<string, unknown>
        map[second.key] = value
      }
    } else if (segments.length === 1) {
      record[first.key] = value
    }
  }
  return record
}

/** The YAML of what a create makes, in one piece. */
export function createdYaml(c: Change, names: Names): string {
  return yamlText(readable(wholeRecord(c.fields, 'after'), names))
}

/** The YAML of what a delete removes, as `-` lines. */
export function deletedLines(c: Change, names: Names): DiffLine[] {
  const record = wholeRecord(c.fields, 'before')
  if (Object.keys(record).length === 0) return []
  return signed('-', yamlText(readable(record, names)))
}

const signed = (sign: DiffLine['sign'], text: string, indent = ''): DiffLine[] =>
  text.split('\n').map(line => ({ sign, text: `${indent}${line}` }))

interface Node {
  /** The line that opens this node: `tiles:`, `- name: Errors`, `select[0]:`. */
  label: string
  /** A list item (`- name: X`): its children are indented under the dash. */
  item: boolean
  children: Map<string, Node>
  leaf?: { key: string; item?: string; id?: string; before: unknown; after: unknown }
}

/** "tile added" / "tile removed": whole records keyed by name that appear or go. */
export function addedAndRemoved(
  fields: readonly FieldChange[]
): Array<{ what: string; name: string; id?: string; added: boolean }> {
  const out: Array<{ what: string; name: string; id?: string; added: boolean }> = []
  for (const f of fields) {
    const segments = parsePath(f.path)
    if (!segments || segments.length !== 2) continue
    const [first, second] = segments
    if (!first || !('key' in first) || !second || !('key' in second) || !second.named) continue
    if ((f.before === undefined) === (f.after === undefined)) continue
    if (!isMapping(f.before ?? f.after)) continue
    const id = second.id === undefined ? {} : { id: second.id }
    out.push({ what: singular(first.key), name: second.key, ...id, added: f.before === undefined })
  }
  return out
}

const singular = (key: string): string => key.replace(/s$/, '')

/**
 * The field changes of an update as YAML with +/- lines: containers as context lines, each changed leaf
 * as its old and new value. A record that appears or goes whole (a tile) is a list item with its name.
 */
export function changedLines(fields: readonly FieldChange[], names: Names): DiffLine[] {
  const root: Node = { label: '', item: false, children: new Map() }
  for (const f of fields) {
    const segments = parsePath(f.path) ?? [{ key: f.path, named: false }]
    let node = root
    for (let i = 0; i < segments.length; i++) {
      const s = segments[i]!
      const last = i === segments.length - 1
      // An index joins the key before it: `select[0]`.
      if ('index' in s) continue
      let label = s.key
      let j = i + 1
      while (j < segments.length && 'index' in segments[j]!) {
        label += `[${(segments[j] as { index: number }).index}]`
        j++
      }
      const leafHere = j === segments.length
      const wholeItem = s.named && leafHere && (isMapping(f.before) || isMapping(f.after))
      // Records of one name apart by their short id, written after the name as a YAML comment.
      const id = 'named' in s && s.id !== undefined ? ` #${s.id}` : ''
      const key = `${wholeItem || (s.named && !leafHere) ? 'item' : 'key'}:${label}${id}`
      let child = node.children.get(key)
      if (!child) {
        child = {
          label: s.named && !leafHere ? `- name: ${keyText(s.key)}${id}` : `${keyText(label)}:`,
          item: s.named && !leafHere,
          children: new Map()
        }
        node.children.set(key, child)
      }
      if (leafHere) {
        child.leaf = wholeItem
          ? {
              key: label,
              item: s.key,
              ...(s.id === undefined ? {} : { id: s.id }),
              before: f.before,
              after: f.after
            }
          : { key: label, before: f.before, after: f.after }
        break
      }
      node = child
      if (last) break
    }
  }
  const lines: DiffLine[] = []
  const walk = (node: Node, indent: string) => {
    for (const child of node.children.values()) {
      if (child.leaf) lines.push(...leafLines(child.leaf, indent, names))
      else {
        lines.push({ sign: ' ', text: `${indent}${child.label}` })
        walk(child, `${indent}  `)
      }
    }
  }
  walk(root, '')
  return lines
}

function leafLines(leaf: NonNullable<Node['leaf']>, indent: string, names: Names): DiffLine[] {
  const lines: DiffLine[] = []
  for (const [sign, value] of [
    ['-', leaf.before],
    ['+', leaf.after]
  ] as const) {
    if (value === undefined) continue
    if (leaf.item !== undefined) {
      const record = { name: leaf.item, ...(readable(value, names) as Record<string, unknown>) }
      const item = signed(sign, yamlText([record]), indent)
      if (leaf.id !== undefined && item[0]) item[0] = { ...item[0], text: `${item[0].text} #${leaf.id}` }
      lines.push(...item)
    } else {
      const [key, named] = renamed(leaf.key, value, names)
      lines.push(...signed(sign, yamlText({ [key]: readable(named, names) }), indent))
    }
  }
  return lines
}

/** A mapping key as YAML writes it (quoted only when it must be). */
function keyText(key: string): string {
  return plainScalar(key) === key ? key : libraryYaml({ [key]: 0 }).replace(/: 0$/, '')
}
