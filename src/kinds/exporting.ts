/**
 * What the kinds' export writers share (each kind's own is `<kind>-export.ts`, a dashboard's `dashboard/export.ts`):
 * references by name, secret variables named once per export, a document with its comments, and the `id:` pin of
 * a record whose name another shares. Pure: src/export/ does the I/O.
 */
import type { Document } from 'yaml'
import { isMapping } from '../json.js'
import type { ResourceKind } from '../plan/types.js'
import { yamlLibrary } from '../yaml-library.js'
import { wordFor } from './nouns.js'

/** A live record as references name it. */
export interface Named {
  id: string
  name: string
}

/** How ids of other resources are written: a name when it names exactly one, else the id with a comment. */
export class Namer {
  private readonly lists = new Map<ResourceKind, ReadonlyArray<Named> | undefined>()

  /** `records(kind)`: every live record of the kind (undefined where this API cannot list them); read once. */
  constructor(private readonly records: (kind: ResourceKind) => ReadonlyArray<Named> | undefined) {}

  private list(kind: ResourceKind): ReadonlyArray<Named> | undefined {
    if (!this.lists.has(kind)) this.lists.set(kind, this.records(kind))
    return this.lists.get(kind)
  }

  /** `{[field]: name}` or `{[idField]: id}`, adding a comment to `comments` for the second. */
  ref(
    kind: ResourceKind,
    field: string,
    id: unknown,
    comments: string[],
    what: string,
    idField = `${field}Id`
  ): Record<string, string> {
    if (typeof id !== 'string' || id === '') return {}
    const list = this.list(kind)
    const named = list?.filter(r => r.id === id) ?? []
    const sameName = named[0] ? (list ?? []).filter(r => r.name === named[0]!.name) : []
    if (named.length === 1 && sameName.length === 1 && named[0]!.name) return { [field]: named[0]!.name }
    comments.push(
      list === undefined
        ? `${what} ${id}: this API cannot list them, so it is written by id`
        : named.length === 0
          ? `${what} id ${id} could not be mapped to a name (no such ${what}): kept as ${idField}`
          : `${what} id ${id} has a name shared by another ${what}: kept as ${idField}`
    )
    return { [idField]: id }
  }

  /** The ids of the records of `kind` named `name` (none when this API cannot list them). */
  idsNamed(kind: ResourceKind, name: string): string[] {
    return (this.list(kind) ?? []).filter(r => r.name === name).map(r => r.id)
  }
}

/** Names of secret variables, unique in one export, as the manifests' placeholders name them. */
export class SecretNames {
  private readonly used = new Set<string>()
  readonly all: string[] = []

  /** A new name; `needed` ones are listed in the file's header (a suggestion in a comment is not). */
  name(parts: string[], needed = true): string {
    const base = parts
      .join('_')
      .normalize('NFKD')
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
    let name = /^[A-Z]/.test(base) ? base : `S_${base}`
    for (let n = 2; this.used.has(name); n++) name = `${base}_${n}`
    this.used.add(name)
    if (needed) this.all.push(name)
    return name
  }
}

/** A manifest document with its comments above it. */
export function withComments(value: Record<string, unknown>, comments: readonly string[]): Document {
  const doc = new (yamlLibrary().Document)(value)
  if (comments.length > 0) doc.commentBefore = comments.map(c => ` ${c}`).join('\n')
  return doc
}

/**
 * An `id:` pin for a record whose name another record of its kind shares, and a comment saying so. Manifests
 * refer to these kinds by name (validate refuses two of one name, `load.ts` uniqueNames, as references could not
 * tell them apart), so each stays pinned to its own record until one of them is renamed.
 */
export function twinPin(
  namer: Namer,
  kind: ResourceKind,
  record: Named,
  comments: string[]
): Record<string, string> {
  const ids = namer.idsNamed(kind, record.name)
  if (ids.length < 2) return {}
  const [one, many] = [wordFor(kind), wordFor(kind, true)]
  comments.push(
    `${ids.length} ${many} are named "${record.name}" (ids ${ids.join(', ')}): each is pinned to its own with \`id:\`, but manifests name ${many} by name, so validate refuses two of one name: rename one of them here (its pin keeps it the same ${one}, and the plan renames it on the server)`
  )
  return { id: record.id }
}

/**
 * What a document is about, as export and a person both write it: its kind and name, and for an alert what it
 * watches (the same name may alert on two tiles).
 */
export function documentIdentity(value: unknown): string | undefined {
  if (!isMapping(value) || typeof value.kind !== 'string') return undefined
  const name =
    typeof value.name === 'string'
      ? value.name
      : typeof value.email === 'string'
        ? value.email.toLowerCase()
        : undefined
  if (name === undefined) return value.kind === 'ServiceSettings' ? value.kind : undefined
  const parts = [value.kind, name]
  if (value.kind === 'Alert')
    parts.push(
      String(value.dashboard ?? ''),
      String(value.tile ?? value.tileId ?? ''),
      String(value.savedSearch ?? '')
    )
  if (value.kind === 'Dashboard' && value.id !== undefined) parts.push(String(value.id))
  return parts.join('\u0000')
}
