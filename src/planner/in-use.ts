/**
 * No delete the server refuses or that leaves something dangling. HyperDX 2.36 refuses to delete a webhook that
 * is some alert's first channel (409), but deletes one that is a later channel and leaves the alert pointing at
 * nothing; it deletes a source or connection whatever still names it (docs/real-server.md). So the plan holds back
 * each delete of a kind with `heldWhileUsed` (kinds/kind.ts) that a live record this run keeps still uses (another
 * stack's, an unowned one, or this stack's), and names each user. The kinds say which fields hold their ids, and
 * the references no field name says; this file names no kind.
 */
import type { AnyKind } from '../kinds/index.js'
import { recordsOf, type LiveState, type PlannedChange, type PlanSettings, type Use } from '../kinds/kind.js'
import type { ResourceKind } from '../plan/types.js'

/** The fields that hold ids of a kind whose deletes wait for their users (`Kind.heldWhileUsed`), to that kind. */
export function referenceFields(kinds: readonly AnyKind[]): ReadonlyMap<string, ResourceKind> {
  return new Map(kinds.flatMap(k => (k.heldWhileUsed?.fields ?? []).map(field => [field, k.kind] as const)))
}

/**
 * Every reference a live record of `kind` holds: by field name wherever it is, and those its kind finds that no
 * field name says (`Kind.unnamedUses`).
 */
export function usesOf(
  kinds: readonly AnyKind[],
  kind: ResourceKind,
  record: unknown,
  fields = referenceFields(kinds)
): Use[] {
  const unnamed = kinds.find(k => k.kind === kind)?.unnamedUses
  const uses: Use[] = []
  const visit = (value: unknown, at: string): void => {
    if (Array.isArray(value)) {
      value.forEach((v, i) => visit(v, `${at}[${i}]`))
      return
    }
    if (typeof value !== 'object' || value === null) return
    const o = value as Record<string, unknown>
    for (const [key, v] of Object.entries(o)) {
      const target = fields.get(key)
      // A tile's config and series are where its references live: the tile's name says enough.
      const here = at === '' ? key : key === 'config' || key === 'series' ? at : `${at}.${key}`
      if (target !== undefined) {
        for (const id of Array.isArray(v) ? v : [v])
          if (typeof id === 'string' && id !== '') uses.push({ kind: target, id, at: here })
      } else if (key === 'tiles' && Array.isArray(v)) {
        // A tile is named by its title: that is what a user finds in the UI.
        v.forEach((t, i) => visit(t, `tiles[${JSON.stringify((t as { name?: unknown } | null)?.name ?? i)}]`))
      } else visit(v, here)
    }
    if (unnamed) uses.push(...unnamed(o, at))
  }
  visit(record, '')
  return uses
}

/**
 * Holds back (deferred: in-use) each delete of a kind held while used that a kept live record still uses, with a note
 * naming every user. A user this run deletes does not count, nor one this stack rewrites from its manifest (an
 * update: the manifest says what it uses after the run). Returns the held changes.
 */
export function holdDeletesInUse(
  planned: PlannedChange[],
  kinds: readonly AnyKind[],
  live: LiveState,
  settings: Pick<PlanSettings, 'stack'>,
  managed: (kind: ResourceKind, id: string) => boolean
): PlannedChange[] {
  const deletes = new Map<string, PlannedChange>()
  const waits = new Set(kinds.filter(k => k.heldWhileUsed).map(k => k.kind))
  // What this run deletes or rewrites, by kind and id: those records' present uses do not last.
  const rewritten = new Set<string>()
  for (const pc of planned) {
    const { action, deferred, id, kind } = pc.change
    if (id === undefined) continue
    const key = `${kind}/${id}`
    if (action === 'delete' && !deferred && waits.has(kind)) deletes.set(key, pc)
    if ((action === 'delete' || action === 'replace') && !deferred) rewritten.add(key)
    if (action === 'update' && pc.desired) rewritten.add(key)
  }
  const held: PlannedChange[] = []
  // A held delete keeps its record, whose own uses then count: repeat until nothing more is held. Without a
  // pending delete there is nothing to look for (a converged plan walked every live record for nothing).
  while (deletes.size > 0) {
    const users = usersOf(deletes, rewritten, kinds, live, settings, managed)
    if (users.size === 0) return held
    for (const [key, names] of users) {
      const pc = deletes.get(key)!
      pc.change.deferred = 'in-use'
      pc.change.notes = [
        `not deleted: still used by ${names.join('; ')}. Point ${names.length === 1 ? 'it' : 'them'} elsewhere (or delete ${names.length === 1 ? 'it' : 'them'}), then plan again`
      ]
      held.push(pc)
      deletes.delete(key)
      rewritten.delete(key)
    }
  }
  return held
}

/** The kept live records that use each pending delete, in words, by the delete's key. */
function usersOf(
  deletes: ReadonlyMap<string, PlannedChange>,
  rewritten: ReadonlySet<string>,
  kinds: readonly AnyKind[],
  live: LiveState,
  settings: Pick<PlanSettings, 'stack'>,
  managed: (kind: ResourceKind, id: string) => boolean
): Map<string, string[]> {
  const users = new Map<string, Map<string, string[]>>()
  const fields = referenceFields(kinds)
  for (const kind of kinds) {
    const records = kind.live ? recordsOf(live, kind.kind) : undefined
    if (!Array.isArray(records)) continue
    for (const record of records) {
      const id = kind.liveId(record)
      if (id === undefined || rewritten.has(`${kind.kind}/${id}`)) continue
      for (const use of usesOf(kinds, kind.kind, record, fields)) {
        const key = `${use.kind}/${use.id}`
        if (!deletes.has(key)) continue
        const whose = managed(kind.kind, id) ? `stack "${settings.stack}"` : 'not managed by this stack'
        const user = `${kind.kind} "${kind.liveName(record)}" (${whose})`
        const byUser = users.get(key) ?? new Map<string, string[]>()
        byUser.set(user, [...(byUser.get(user) ?? []), use.at])
        users.set(key, byUser)
      }
    }
  }
  // One entry per user, with every place it names the resource (an alert's `channel` mirrors `channels[0]`).
  return new Map(
    [...users].map(([key, byUser]) => [key, [...byUser].map(([user, at]) => `${user} at ${at.join(', ')}`)])
  )
}
