/**
 * No delete the server refuses or that leaves something dangling. HyperDX 2.36 refuses to delete a webhook that
 * is some alert's first channel (409), but deletes one that is a later channel and leaves the alert pointing at
 * nothing; it deletes a source or connection whatever still names it (docs/real-server.md). So the plan holds back
 * each delete of a webhook, source or connection that a live record this run keeps still uses (another stack's, an
 * unowned one, or this stack's), and names each user. (A saved search's alerts are this stack's: the plan already
 * names them as deleted by the server with it.)
 */
import type { AnyKind } from '../kinds/index.js'
import { recordsOf, type LiveState, type PlannedChange, type PlanSettings } from '../kinds/kind.js'
import type { ResourceKind } from '../plan/types.js'

/** The fields that name a resource of a checked kind, wherever they are in a record. */
const REFERENCE_FIELDS: Readonly<Record<string, ResourceKind>> = {
  webhookId: 'Webhook',
  sourceId: 'Source',
  logSourceId: 'Source',
  traceSourceId: 'Source',
  metricSourceId: 'Source',
  sessionSourceId: 'Source',
  appliesToSourceIds: 'Source',
  connectionId: 'Connection'
}

const CHECKED: ReadonlySet<ResourceKind> = new Set(['Webhook', 'Source', 'Connection'])

export interface Use {
  kind: ResourceKind
  id: string
  /** Where the user names it: `channels[1]`, `tiles["Errors"]`. */
  at: string
}

/** Every reference a live record holds, found by field name wherever it is. */
export function usesOf(kind: ResourceKind, record: unknown): Use[] {
  const uses: Use[] = []
  const visit = (value: unknown, at: string): void => {
    if (Array.isArray(value)) {
      value.forEach((v, i) => visit(v, `${at}[${i}]`))
      return
    }
    if (typeof value !== 'object' || value === null) return
    const o = value as Record<string, unknown>
    for (const [key, v] of Object.entries(o)) {
      const target = REFERENCE_FIELDS[key]
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
    // A source names its connection by `connection`; a table's link-out a source by its target's id.
    if (kind === 'Source' && at === '' && typeof o.connection === 'string')
      uses.push({ kind: 'Connection', id: o.connection, at: 'connection' })
    const target = o.target as { mode?: unknown; id?: unknown } | undefined
    if (o.type === 'search' && target?.mode === 'id' && typeof target.id === 'string')
      uses.push({ kind: 'Source', id: target.id, at: at === '' ? 'onClick' : at })
  }
  visit(record, '')
  return uses
}

/**
 * Holds back (deferred: in-use) each delete of a checked kind that a kept live record still uses, with a note
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
  // What this run deletes or rewrites, by kind and id: those records' present uses do not last.
  const rewritten = new Set<string>()
  for (const pc of planned) {
    const { action, deferred, id, kind } = pc.change
    if (id === undefined) continue
    const key = `${kind}/${id}`
    if (action === 'delete' && !deferred && CHECKED.has(kind)) deletes.set(key, pc)
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
  for (const kind of kinds) {
    const records = kind.live ? recordsOf(live, kind.kind) : undefined
    if (!Array.isArray(records)) continue
    for (const record of records) {
      const id = kind.liveId(record)
      if (id === undefined || rewritten.has(`${kind.kind}/${id}`)) continue
      for (const use of usesOf(kind.kind, record)) {
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
