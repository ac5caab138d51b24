/**
 * Ownership without tags. Connections, data sources, webhooks, team members and roles carry no tags, so a stack
 * records what it created in one registry record of its own that the plan reads with the list calls it already makes: a
 * dashboard tagged with the stack's ownership tag and the marker tag `obsdeploy-registry`, whose markdown
 * tiles say in words what it is ("managed by obsdeploy, do not edit") and hold, as JSON, the ids the stack
 * owns by kind, with the fingerprints of the write-only values it last sent (fingerprint-key.ts: keyed
 * with the API credential, a random salt per value, never the value).
 *
 * `prune` deletes only what the registry lists. An id is added right after the create (or adoption) that
 * made it ours, and removed only after its delete succeeded, so at every moment the registry lists a
 * superset of what the stack owns: a failure leaves an id the next write drops (ids are never reused),
 * never a resource the stack forgot. An unreadable registry (edited by hand) is a plan error, and then
 * nothing of these kinds is pruned.
 *
 * One registry per stack, but the server has no lock: two applies of a stack that each found none create one each,
 * and each records its own creates in its own. A plan reads them as one (the union of their entries) and keeps the
 * one with the lowest id (MongoDB ObjectIds begin with their creation time: the oldest); each other one is an extra
 * that the plan names as a delete (with prune). The apply writes every entry into the kept one before it deletes an
 * extra (dashboard/operations.ts extraRegistryDelete), so no ownership is lost on the way.
 */
import type { ObservabilityApi } from '../api/client.js'
import type { LiveDashboard } from '../api/schemas.js'
import type { Mode } from '../config/types.js'
import type { Json } from '../json.js'
import type { ResourceKind } from '../plan/types.js'
import type { Fingerprint } from './fingerprint-key.js'
import { managedDashboardBody } from './managed-request.js'
import { isOwnershipTag } from './ownership.js'

/** Marks a registry dashboard; not an ownership tag (those start with `obsdeploy:`). */
export const REGISTRY_TAG = 'obsdeploy-registry'
/** Entries by live id; TeamMember's by lowercased email (kinds/team-member.ts says why). */
export const REGISTRY_KINDS = ['Connection', 'Source', 'Webhook', 'TeamMember', 'Role'] as const
export type RegistryKind = (typeof REGISTRY_KINDS)[number]
export const isRegistryKind = (kind: ResourceKind): kind is RegistryKind =>
  (REGISTRY_KINDS as readonly string[]).includes(kind)

export type { Fingerprint } from './fingerprint-key.js'

export interface RegistryEntry {
  /** The name it had when last written (for a human reading the registry). */
  name: string
  /** Fingerprints of the write-only values the stack last sent, by field. */
  writeOnly?: Record<string, Fingerprint>
}

export type Owned = Partial<Record<RegistryKind, Record<string, RegistryEntry>>>

export const registryName = (stack: string): string => `obsdeploy registry (stack ${stack})`

/**
 * A resource just made that the stack does not own: recording it in the registry failed. `made` says what
 * was made ("webhook \"pager\" was created (id 1)"); the next apply adopts it once its manifest says so.
 */
export function unrecordedError(made: string, stack: string, cause: unknown): Error {
  const why = cause instanceof Error ? cause.message : String(cause)
  return new Error(
    `${made} but could not be recorded in the registry dashboard "${registryName(stack)}", so this stack does not own it yet: ${why}. Add \`adopt: true\` to its manifest and apply again`,
    { cause }
  )
}

/** The kind whose records hold the registry: a dashboard of the stack's (REGISTRY_TAG). */
export const REGISTRY_HOME: ResourceKind = 'Dashboard'

export const isRegistryDashboard = (d: { tags: readonly string[] }): boolean => d.tags.includes(REGISTRY_TAG)

/** Whether a registry dashboard (of any stack) lists records of a kind. */
export function registryLists(d: LiveDashboard, kind: RegistryKind): boolean {
  if (!isRegistryDashboard(d)) return false
  const parsed = parseRegistry(d)
  return 'owned' in parsed && parsed.owned[kind] !== undefined
}

const FENCE = '```'
/** A markdown tile holds at most 50,000 characters (zod.ts); entries are split across tiles below it. */
const TILE_BUDGET = 40_000

/** What a stack's registry holds, as read at plan time. */
export class Registry {
  /** Ids in other stacks' registries, by `kind/id`: the ownership tag of that stack. */
  private readonly others = new Map<string, string>()

  private constructor(
    readonly stack: string,
    readonly tag: string,
    /** The live registry dashboard, when the stack has one. */
    readonly dashboard: LiveDashboard | undefined,
    private owned: Owned,
    /** Why it could not be read (then nothing of its kinds is pruned). */
    readonly problem?: string
  ) {}

  static empty(stack: string, tag: string): Registry {
    return new Registry(stack, tag, undefined, {})
  }

  /** The stack's registry and the ids other stacks' registries claim, from the live dashboards. */
  static read(dashboards: readonly LiveDashboard[], stack: string, tag: string): Registry {
    // By id, in code-unit order (not the locale's): every run, whatever its machine, keeps the same one.
    const mine = dashboards
      .filter(d => isRegistryDashboard(d) && d.tags.includes(tag))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    let owned: Owned = {}
    const problems: string[] = []
    for (const d of mine) {
      const parsed = parseRegistry(d)
      if ('problem' in parsed)
        problems.push(`the registry dashboard "${d.name}" (${d.id}) cannot be read (${parsed.problem})`)
      else owned = merge(owned, parsed.owned)
    }
    const registry = new Registry(
      stack,
      tag,
      mine[0],
      owned,
      problems.length > 0
        ? `${problems.join('; ')}: restore its tiles as obsdeploy wrote them. Until then no connection, source, webhook, team member or role is deleted`
        : undefined
    )
    // Extras only when all can be read (an unreadable one is a plan error: nothing is merged or deleted), and never
    // one that carries another stack's ownership tag too: that one is not this stack's alone to delete.
    if (problems.length === 0)
      registry.extras = mine.slice(1).filter(d => !d.tags.some(t => isOwnershipTag(t) && t !== tag))
    for (const d of dashboards) {
      if (!isRegistryDashboard(d) || d.tags.includes(tag)) continue
      const other = d.tags.find(isOwnershipTag)
      const parsed = parseRegistry(d)
      if (!other || 'problem' in parsed) continue
      for (const [kind, entries] of Object.entries(parsed.owned))
        for (const id of Object.keys(entries ?? {})) registry.others.set(`${kind}/${id}`, other)
    }
    return registry
  }

  /**
   * The stack's registry dashboards beside the kept one (`dashboard`, the lowest id), left by applies that ran at
   * the same time: the plan deletes them (with prune) once the kept one holds their entries.
   */
  extras: readonly LiveDashboard[] = []

  owns = (kind: RegistryKind, id: string): boolean => this.owned[kind]?.[id] !== undefined
  entry = (kind: RegistryKind, id: string): RegistryEntry | undefined => this.owned[kind]?.[id]
  /** The ownership tag of another stack whose registry lists it. */
  ownerOf = (kind: RegistryKind, id: string): string | undefined => this.others.get(`${kind}/${id}`)

  /** Drops ids that no longer exist (deleted outside this tool), for kinds whose records were listed. */
  keepOnly(kind: RegistryKind, liveIds: ReadonlySet<string>): void {
    const entries = this.owned[kind]
    if (!entries) return
    for (const id of Object.keys(entries)) if (!liveIds.has(id)) delete entries[id]
  }

  /** A copy of what it holds, for the writer. */
  snapshot(): Owned {
    return structuredClone(this.owned)
  }
}

export type Parsed = { owned: Owned } | { problem: string }

/** What a registry dashboard's tiles hold, or why they cannot be read. */
export function parseRegistry(d: Pick<LiveDashboard, 'tiles'>): Parsed {
  const owned: Owned = {}
  let found = false
  for (const tile of d.tiles) {
    const markdown = tile.config?.markdown
    if (typeof markdown !== 'string') continue
    const start = markdown.indexOf(`${FENCE}json\n`)
    const end = markdown.lastIndexOf(`\n${FENCE}`)
    if (start < 0 || end <= start) continue
    try {
      const value = JSON.parse(markdown.slice(start + FENCE.length + 5, end)) as {
        obsdeployRegistry?: number
        owned?: Owned
      }
      if (value.obsdeployRegistry !== 1 || typeof value.owned !== 'object' || value.owned === null)
        return { problem: `tile "${tile.name}" is not a registry part of version 1` }
      for (const kind of REGISTRY_KINDS) {
        const entries = value.owned[kind]
        if (entries === undefined) continue
        if (typeof entries !== 'object' || entries === null)
          return { problem: `tile "${tile.name}": ${kind} is not a mapping` }
        for (const [id, entry] of Object.entries(entries)) {
          if (typeof entry?.name !== 'string')
            return { problem: `tile "${tile.name}": ${kind} ${id} has no name` }
          ;(owned[kind] ??= {})[id] = entry
        }
      }
      found = true
    } catch (e) {
      return {
        problem: `tile "${tile.name}" holds no valid JSON: ${e instanceof Error ? e.message : String(e)}`
      }
    }
  }
  return found ? { owned } : { problem: 'it has no registry tile' }
}

function merge(a: Owned, b: Owned): Owned {
  const out = structuredClone(a)
  for (const kind of REGISTRY_KINDS) if (b[kind]) out[kind] = { ...out[kind], ...b[kind] }
  return out
}

/**
 * An extra registry dashboard as the plan shows its delete: how many entries of each kind it holds, not the entries
 * (a team member's is an email, which a plan never shows: `mask-emails`).
 */
export function registryNormalForm(d: LiveDashboard, tag: string): { [key: string]: Json } {
  const parsed = parseRegistry(d)
  const entries: { [kind: string]: number } = {}
  if ('owned' in parsed)
    for (const kind of REGISTRY_KINDS) {
      const n = Object.keys(parsed.owned[kind] ?? {}).length
      if (n > 0) entries[kind] = n
    }
  return { name: d.name, owner: tag, entries }
}

/** Why the plan deletes an extra registry dashboard, and what the apply does first. */
export function extraRegistryWhy(kept: LiveDashboard): string {
  return `an extra registry dashboard of this stack, left by two applies that each created one at the same time: its entries are written into the one the stack keeps (id ${kept.id}, the lowest id) before it is deleted`
}

/** The registry's tiles: the explanation, then the entries as JSON, split to fit a markdown tile. */
export function registryTiles(stack: string, owned: Owned): Array<Record<string, unknown>> {
  const lines: Array<[RegistryKind, string, RegistryEntry]> = []
  for (const kind of REGISTRY_KINDS)
    for (const [id, entry] of Object.entries(owned[kind] ?? {}).sort(([a], [b]) => a.localeCompare(b)))
      lines.push([kind, id, entry])
  const parts: Owned[] = [{}]
  let size = 0
  for (const [kind, id, entry] of lines) {
    const cost = JSON.stringify(entry).length + id.length + 8
    if (size + cost > TILE_BUDGET && size > 0) {
      parts.push({})
      size = 0
    }
    ;(parts[parts.length - 1]![kind] ??= {})[id] = entry
    size += cost
  }
  return parts.map((part, i) => ({
    name: parts.length === 1 ? 'obsdeploy registry' : `obsdeploy registry (part ${i + 1} of ${parts.length})`,
    x: 0,
    y: i * 8,
    w: 24,
    h: 8,
    config: { displayType: 'markdown', markdown: registryMarkdown(stack, part, i === 0) }
  }))
}

function registryMarkdown(stack: string, owned: Owned, first: boolean): string {
  const intro = first
    ? [
        `## Managed by obsdeploy: do not edit or delete`,
        '',
        `This dashboard records which connections, data sources, webhooks, team members (by email) and ClickStack roles the obsdeploy stack \`${stack}\` created or adopted, and fingerprints (never the values) of the write-only settings it sent them. They carry no tags, so this is how the stack knows what it may update and prune.`,
        '',
        'Editing it by hand makes the next plan fail; deleting it makes the stack forget what it owns (it then deletes none of them, and a manifest of the same name asks for `adopt: true`).',
        ''
      ]
    : ['Continued registry of obsdeploy (do not edit).', '']
  // One entry per line: a human can read it, and a diff of two versions shows what changed.
  const body = REGISTRY_KINDS.filter(k => owned[k] !== undefined).map(kind => {
    const entries = Object.entries(owned[kind]!).map(
      ([id, e]) => `    ${JSON.stringify(id)}: ${JSON.stringify(e)}`
    )
    return `  ${JSON.stringify(kind)}: {\n${entries.join(',\n')}\n  }`
  })
  const json = `{\n "obsdeployRegistry": 1,\n "owned": {\n${body.join(',\n')}\n }\n}`
  return [...intro, `${FENCE}json`, json, FENCE].join('\n')
}

// ---------------------------------------------------------------------------------------------------
// Writing it during an apply.

/**
 * How many writes of the registry dashboard an apply that records or forgets `entries` sends at `concurrency`, once
 * the rate limit paces it. Entries that arrive while a write waits go out with the next one; the change that waits
 * for its entry holds its slot, so of `concurrency` changes one waits alone for the write under way and the others
 * share the next: two writes per `concurrency` entries (an apply of 400 invitations wrote the registry 200 times at
 * concurrency 4, 100 times at 8, 400 at 1 and 2, on the emulator). Unpaced, the writes are a little more frequent.
 */
export function registryWrites(entries: number, concurrency: number): number {
  return Math.min(entries, Math.ceil((2 * entries) / Math.max(1, concurrency)))
}

/**
 * Records and forgets ids in the stack's registry dashboard (the kept one, when the plan found several). Changes
 * that arrive while a write is under way go out together in the next one; each caller learns whether its change
 * was written.
 */
export class RegistryWriter {
  private owned: Owned
  private dashboardId: string | undefined
  private queue: Array<{ change: (o: Owned) => void; resolve: () => void; reject: (e: unknown) => void }> = []
  private running = false
  /** `kind/id` of what this run forgot (deleted): an extra registry's copy of them is not taken back. */
  private readonly forgotten = new Set<string>()
  /**
   * How this run came to write a registry dashboard it did not read at plan time: `created` it, or created it
   * with a `lost` response (then used the one a re-read found). Another apply may have done the same meanwhile.
   */
  made: 'created' | 'lost' | undefined

  constructor(
    registry: Registry,
    private readonly api: ObservabilityApi | undefined,
    private readonly mode: Mode
  ) {
    this.owned = registry.snapshot()
    this.dashboardId = registry.dashboard?.id
    this.stack = registry.stack
    this.tag = registry.tag
  }

  private readonly stack: string
  private readonly tag: string

  record(kind: RegistryKind, id: string, entry: RegistryEntry): Promise<void> {
    return this.change(o => {
      ;(o[kind] ??= {})[id] = entry
    })
  }

  forget(kind: RegistryKind, id: string): Promise<void> {
    this.forgotten.add(`${kind}/${id}`)
    return this.change(o => {
      delete o[kind]?.[id]
    })
  }

  /**
   * Takes in entries found in another registry dashboard of the stack (an extra one, read again just before it is
   * deleted), and writes the registry with them, even when none is new: once this resolves, the registry dashboard
   * holds every entry this run knows. What this run already holds wins (it is as recent), and what it forgot stays
   * forgotten.
   */
  absorb(owned: Owned): Promise<void> {
    return this.change(o => this.takeIn(o, owned))
  }

  private takeIn(into: Owned, from: Owned): void {
    for (const kind of REGISTRY_KINDS)
      for (const [id, entry] of Object.entries(from[kind] ?? {}))
        if (into[kind]?.[id] === undefined && !this.forgotten.has(`${kind}/${id}`))
          (into[kind] ??= {})[id] = entry
  }

  private change(change: (o: Owned) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ change, resolve, reject })
      void this.pump()
    })
  }

  private async pump(): Promise<void> {
    if (this.running) return
    this.running = true
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0)
        const next = structuredClone(this.owned)
        for (const b of batch) b.change(next)
        try {
          await this.write(next)
          this.owned = next
          for (const b of batch) b.resolve()
        } catch (e) {
          for (const b of batch) b.reject(e)
        }
      }
    } finally {
      this.running = false
    }
  }

  private body(owned: Owned): unknown {
    const raw = {
      name: registryName(this.stack),
      tags: [this.tag, REGISTRY_TAG],
      tiles: registryTiles(this.stack, owned)
    }
    return this.mode === 'managed' ? managedDashboardBody(raw) : raw
  }

  private async write(owned: Owned): Promise<void> {
    if (!this.api) throw new Error('no API to write the registry with')
    if (this.dashboardId) {
      await this.api.updateDashboard(this.dashboardId, this.body(owned))
      return
    }
    // Not retried blindly: after a lost response, look for it before creating another.
    this.made = 'created'
    try {
      this.dashboardId = (await this.api.createDashboard(this.body(owned))).id
    } catch (e) {
      // The lowest id, as a plan keeps; it may be another apply's, so what it holds is kept too (an unreadable
      // one is never overwritten).
      const found = (await this.api.listDashboards())
        .filter(d => isRegistryDashboard(d) && d.tags.includes(this.tag))
        .sort((a, b) => (a.id < b.id ? -1 : 1))[0]
      const parsed = found && parseRegistry(found)
      if (!found || !parsed || 'problem' in parsed) throw e
      this.made = 'lost'
      this.takeIn(owned, parsed.owned)
      this.dashboardId = found.id
      await this.api.updateDashboard(found.id, this.body(owned))
    }
  }
}

/** The entries of `now` whose ids `before` did not list: what was recorded in a registry since it was read. */
export function addedSince(now: Owned, before: Owned): Owned {
  const out: Owned = {}
  for (const kind of REGISTRY_KINDS)
    for (const [id, entry] of Object.entries(now[kind] ?? {}))
      if (before[kind]?.[id] === undefined) (out[kind] ??= {})[id] = entry
  return out
}
