/**
 * The one interface every resource kind implements, like a Terraform provider's resources: read the
 * desired and the live records, pair them, reduce both to a normal form, and turn a change into
 * operations. The planner and the apply engine know nothing about dashboards or alerts as such; a new
 * kind is a new file (or folder) here, added to index.ts.
 */
import type { Document } from 'yaml'
import type { ObservabilityApi } from '../api/client.js'
import type {
  LiveAlert,
  LiveConnection,
  LiveDashboard,
  LiveRole,
  LiveSavedSearch,
  LiveService,
  LiveSource,
  LiveTeamMember,
  LiveWebhook,
  RawId
} from '../api/schemas.js'
import type { ApiPrefix, Mode, ServiceGate } from '../config/types.js'
import type { Diagnostic, SourceLocation } from '../diagnostics.js'
import type { Json } from '../json.js'
import type { Logger } from '../log.js'
import type { ManifestSet } from '../manifest/load.js'
import type { Change, ResourceKind } from '../plan/types.js'
import type { Namer, SecretNames } from './exporting.js'
import type { FingerprintKey } from './fingerprint-key.js'
import type { Nouns } from './nouns.js'
import type { References } from './references.js'
import type { Registry, RegistryWriter } from './registry.js'

/** Each kind's live record, as its list returns it. */
export interface LiveOf {
  Connection: LiveConnection
  Source: LiveSource
  SavedSearch: LiveSavedSearch
  Webhook: LiveWebhook
  Dashboard: LiveDashboard
  Alert: LiveAlert
  /** Managed mode with a ServiceSettings manifest only: the one service, as a list of one. */
  ServiceSettings: LiveService
  /** Self-hosted: the key's team members and invitations. */
  TeamMember: LiveTeamMember
  /** Managed: the team's ClickStack roles, predefined ones included. */
  Role: LiveRole
}

/** The kinds every deployment lists in both modes: their lists are never absent. */
type AlwaysListed = 'Dashboard' | 'Alert' | 'Source'

/**
 * The live records of each kind, keyed by kind. A list is absent where this deployment cannot list that kind
 * (the contract's managed mode has no webhook, connection, saved-search or team routes) or the run did not ask.
 */
export type LiveState = { [K in AlwaysListed]: LiveOf[K][] } & {
  [K in Exclude<ResourceKind, AlwaysListed>]?: LiveOf[K][]
} & {
  /**
   * Whether dashboards can be updated without rewriting the tiles an update leaves alone (the MCP patch tool,
   * api/mcp.ts). Absent or false: every update is a PUT.
   */
  dashboardPatch?: boolean
  /**
   * The live preview's copies of every stack (kinds/dashboard/preview-copy.ts), set aside from the dashboards as
   * they are read: no stage lists one as a dashboard, so none is adopted, pruned, exported or planned. Only the live
   * preview's own stage reads them.
   */
  previewCopies?: LiveOf['Dashboard'][]
}

/** A kind's live records; undefined where its list is absent (the kind need not be known here). */
export const recordsOf = (live: LiveState, kind: ResourceKind): unknown[] | undefined =>
  live[kind] as unknown[] | undefined

/** A kind's live records: none where its list is absent. */
export const listed = <K extends ResourceKind>(live: LiveState, kind: K): LiveOf[K][] =>
  (live[kind] as LiveOf[K][] | undefined) ?? []

export interface LiveReadOptions {
  /**
   * Read the managed service (a ServiceSettings manifest exists). A promise when the read starts before
   * the manifests are loaded: the lists go out at once, the service read once it is known.
   */
  service: boolean | Promise<boolean>
  /** Ask whether the server can patch dashboards (self-hosted, with dashboard manifests); known as `service` is. */
  dashboardPatch?: boolean | Promise<boolean>
  /**
   * Read the team's members (TeamMember manifests exist); known as `service` is. Absent: read (export). Read
   * anyway when a registry lists team members (the stack may prune them).
   */
  team?: boolean | Promise<boolean>
  /**
   * Read the managed roles (Role manifests exist); known as `service` is. Absent: read (export). Read anyway
   * when a registry lists roles (the stack may prune them).
   */
  roles?: boolean | Promise<boolean>
  /** Ends every read (the run stopped before planning: its manifests are invalid). */
  signal?: AbortSignal
}

/** How a kind reads its live records: one list call (following its pages), into its kind's list of the state. */
export interface LiveReader<L = unknown> {
  /** Its records; undefined where this deployment cannot list them. */
  read(api: ObservabilityApi, options: LiveReadOptions): Promise<L[] | undefined>
  /** Read before the others are started: its list settles the managed path prefix, and its error says the most. */
  first?: boolean
  /** Whether to read them with the others (absent: always). */
  asked?(options: LiveReadOptions): boolean | Promise<boolean>
  /** Not asked, but the state the others read shows they are needed: read once those are in. */
  neededBy?(state: LiveState): boolean
}

export interface PlanSettings {
  stack: string
  ownershipTag: string
  /**
   * The ownership tags of the other stacks of this repository (the `stacks` layout). A dashboard of theirs
   * named like one of this stack's manifests is theirs, not a clash: each stack keeps its own. It is never
   * adopted by `adopt: true` either; moving one between stacks takes an `id:` pin.
   */
  siblingTags?: readonly string[]
  prune: boolean
  mode: 'self-hosted' | 'managed'
  /** Managed mode: the path segment in use (settled by the first list call). */
  managedPrefix?: ApiPrefix
  serviceGate: ServiceGate
  /** Managed mode: the service's path, shown with the PATCH a plan will send. */
  servicePath?: string
  /** Keys the fingerprints of write-only values (fingerprint-key.ts); never serialized. */
  fingerprintKey?: FingerprintKey
  /**
   * Emails are personal data: the plan names team members by the run's mask, `j***e@example.com #3f2a`
   * (`mask-emails`, on unless false; mask-email.ts), so the plan file, the comment, the summary and the logs
   * never hold one.
   */
  maskEmails?: boolean
}

/** What the dashboard kind decided, for the kinds that refer to dashboards (alerts). */
export interface DashboardFacts {
  /**
   * By desired dashboard name: the live id it maps to (if any), its tiles' live ids by how an alert names them
   * (kinds/dashboard/tiles.ts tileIdsOf: a name, or `#` and an `id:` pin), and the names of its pinned tiles by pin.
   */
  desired: Map<
    string,
    { address: string; liveId?: string; tileIds: Map<string, RawId>; pinnedNames: Map<string, string> }
  >
  /** By live dashboard id, for every dashboard this stack owns or adopts. */
  live: Map<string, { address: string; desiredName?: string; deleted: boolean; droppedTileIds: Set<string> }>
}

export interface PlanContext {
  settings: PlanSettings
  manifests: ManifestSet
  live: LiveState
  /** A plan error or warning at a manifest line. */
  report(d: Diagnostic): void
  dashboards: DashboardFacts
  /** Names of other resources to ids (references.ts). */
  refs: References
  /** Which connections, sources and webhooks this stack owns, and their write-only fingerprints. */
  registry: Registry
}

/** A desired record with where it came from. */
export interface Desired<T> {
  name: string
  address: string
  /** Where the manifest declares it; computed on access (positions cost a parse of the file). */
  readonly source: SourceLocation
  value: T
}

export interface Pairing<D, L> {
  pairs: Array<{ desired: Desired<D>; live?: L; notes?: string[] }>
  /** Owned live records that no manifest declares any more. */
  orphans: L[]
  /** Why an orphan goes, where that is not that it left the manifests (an extra registry dashboard). */
  why?: ReadonlyMap<L, string>
}

/** A change as the plan shows it, plus the typed records the apply needs (not serialized). */
export interface PlannedChange<D = unknown, L = unknown> {
  change: Change
  desired?: Desired<D>
  live?: L
}

/**
 * How a plan's fingerprints (planner.ts) name a kind: as the first plan files wrote them, so a plan saved by an
 * earlier version stays valid as long as what it hashes is the same.
 */
export interface KindFingerprint {
  /** The list its manifests' specs are hashed under in the desired fingerprint. */
  specs: string
  /** Hashed even when no manifest declares one (false for kinds added later: older plans hash as they did). */
  whenEmpty: boolean
  /** A kind others refer to by name: its live names are hashed under `key`, at place `at` among such kinds. */
  names?: { key: string; at: number }
}

/** A key a normal form holds ids of this kind under (`sourceId`), and the key a manifest names them by (`source`). */
export interface ReferenceKey {
  key: string
  as: string
}

/** How the apply recognises a copy a lost or concurrent create left of one of its records (apply/copies.ts). */
export interface CopyCheck<L> {
  /** The `what` its creates record a lost response under (create-once.ts). */
  what: string
  /** `r` is another record of what this run created as `created`: this stack's, with the same name and place. */
  isCopy(r: L, created: L, ownershipTag: string): boolean
  remove(api: ObservabilityApi, id: string): Promise<unknown>
  /** Which of its records something else uses (alerts on a dashboard): a copy in use is kept. Asked only when needed. */
  inUse?(api: ObservabilityApi): Promise<(id: string) => boolean>
}

/** A reference a live record holds to another resource, and where it names it: `channels[1].webhookId`. */
export interface Use {
  kind: ResourceKind
  id: string
  /** Where the user names it: `channels[1]`, `tiles["Errors"]`. */
  at: string
}

/**
 * A kind whose delete waits while a kept live record still uses it (planner/in-use.ts): the server deletes it and
 * leaves the user pointing at nothing, or refuses the delete.
 */
export interface HeldWhileUsed {
  /** The live-record fields that hold ids of this kind, wherever they sit in any kind's record. */
  fields: readonly string[]
}

/**
 * How `obsdeploy export` (src/export/) writes a kind's live records as manifests: in the manifest's words, other
 * resources by name, server defaults left out, secrets as `${secret.NAME}` placeholders.
 */
export interface KindExport<L> {
  /** Its records' list in the pure export's input (export/manifests.ts ExportInput): `sources`. */
  readonly list: string
  /** How its records are selected and written; undefined: only with the records that carry them (an alert). */
  readonly writes: ExportWrites<L> | undefined
}

export interface ExportWrites<L> {
  /**
   * Where its records go: all in one file for the kind, `{ file: 'sources' }` (sources.yaml, said as the kind's
   * plural noun), or one file each (a dashboard, with its alerts), named and said as `each` returns.
   */
  readonly to: { file: string } | { each(l: L): ExportFile }
  /**
   * Its tags: `--tag` selects by them, and `--owned` by the stack's tag. Undefined: a kind without tags, which a
   * selection by tag leaves out, and whose records the stack owns as its registry says.
   */
  readonly tags: ((l: L) => readonly string[]) | undefined
  /** Whether a live record is never written (the stack's registry dashboard); undefined: every one can be. */
  readonly skips: ((l: L) => boolean) | undefined
  /**
   * Its writer for one export: a record as manifest documents. Made once per export, so what it needs of the
   * others (the alerts by dashboard) is found once; a sync that rewrites one record's document can call it too.
   */
  writer(ctx: ExportContext): (l: L) => ExportedRecord
}

/** A file of one record: its name before the slug (`Checkout`), what it holds in words, and its header's words. */
export interface ExportFile {
  name: string
  /** `dashboard "Checkout"`. */
  what: string
  /** `# Exported <title> by obsdeploy export.`: `from dashboard <id>`. */
  title: string
}

/** What an export's writers see. */
export interface ExportContext {
  ownershipTag: string
  /** What the stack owns of the kinds without tags (the others are written with `adopt: true`). */
  registry: Registry
  mode: Mode
  /** Ids of other resources as their names. */
  namer: Namer
  /** The secret variables the manifests name, unique in one export. */
  secrets: SecretNames
  /**
   * Write the other form where a record can be written in two (a tile's `config` where `series` could say it):
   * sync keeps the form a manifest uses. Absent: the shorter form, as export writes.
   */
  alternateForms?: boolean
  /** Every live record of a kind (the selection may write fewer); undefined where this API cannot list them. */
  all<K extends ResourceKind>(kind: K): LiveOf[K][] | undefined
  /** The records of a kind this export writes. */
  selected<K extends ResourceKind>(kind: K): LiveOf[K][]
}

/** One record as manifests. */
export interface ExportedRecord {
  /** Its document, then those of the records it carries (a dashboard's alerts); none when it cannot be written. */
  documents: Document[]
  /** The live id of each document's record, where the writer knows it (sync finds a renamed record's document by it). */
  ids?: Array<string | undefined>
  /** How many records it carries, written. */
  carried: number
  /** Records it carries that are left out (its note says why). */
  leftOut?: number
  /** For the file's header: why it was not written. */
  notes?: string[]
}

/**
 * A kind. The members that may be absent are still required keys (`undefined` says "none"), so a new kind that
 * forgets one does not compile.
 */
export interface Kind<D = unknown, L = unknown> {
  readonly kind: ResourceKind
  /** The kind in words, singular and plural (nouns.ts). */
  readonly nouns: Nouns
  readonly fingerprint: KindFingerprint
  /** Where normal forms hold ids of its records, for reports to name them (undefined: nothing refers to it). */
  readonly referredBy: readonly ReferenceKey[] | undefined
  /** How the apply finds copies its creates left (undefined: a lost create of it is never made twice). */
  readonly copies: CopyCheck<L> | undefined
  /**
   * The dashboard a change of this kind is seen on in the web UI, for the report's link: a dashboard is its own
   * (`own`), an alert's is the one it watches (undefined: none).
   */
  seenOn: ((d: Desired<D>) => { dashboard: string; own?: boolean } | undefined) | undefined
  /** Its deletes wait while a kept record uses it (undefined: a delete goes whatever still names it). */
  readonly heldWhileUsed: HeldWhileUsed | undefined
  /**
   * The references its live records hold that no field name says (a source's `connection`), found at each object
   * of the record, `o` at `at` ('' for the record itself). Undefined: its field names say them all.
   */
  readonly unnamedUses: ((o: Readonly<Record<string, unknown>>, at: string) => Use[]) | undefined
  /** How export writes its records (undefined: export neither reads nor writes them). */
  readonly exports: KindExport<L> | undefined
  /** How its live records are read (kinds that share another kind's records have none). */
  readonly live?: LiveReader<L>
  desired(ctx: PlanContext): Desired<D>[]
  pair(desired: Desired<D>[], ctx: PlanContext): Pairing<D, L>
  /**
   * The desired record as the planned request leaves it on the server: the manifest, plus what an update
   * of `live` sends back as read. A live field the request cannot keep so differs from the live side.
   */
  normalDesired(d: Desired<D>, ctx: PlanContext, live?: L): Json
  normalLive(l: L, ctx: PlanContext): Json
  /** Paths of the normal form whose children are keyed by a user's name (diff writes them as ["name"]). */
  readonly keyedPaths?: ReadonlySet<string>
  liveName(l: L): string
  liveId(l: L): string | undefined
  /** A registry kind whose entries are not keyed by the live id (team members: by email). */
  registryKey?(l: L): string
  /**
   * What the plan's live fingerprint holds of one of its records (planner.ts), for a kind whose names are
   * not the live state's alone: team members are named by masks keyed with the run's API credential, and a
   * plan saved under one credential must still match when applied with another (a rotated key). Absent:
   * `[address, id, before]`, the change's address, the live id and the live normal form.
   */
  fingerprinted?(record: { address: string; id?: string; before?: Json }): unknown
  /** Kind-specific consequences: replaces, notes, server-side deletes, deferrals; may change the action. */
  refine(pc: PlannedChange<D, L>, ctx: PlanContext): void
  /** After all of this kind's changes are planned: record facts for later kinds. */
  conclude?(changes: PlannedChange<D, L>[], ctx: PlanContext): void
  operations(pc: PlannedChange<D, L>, ctx: OperationContext): Operation[]
  /**
   * What `operations` will send for the change, counted from the same decisions, so a plan can say how long its
   * apply takes at the configured pace (nothing for a no-op or a deferred change).
   */
  requests(pc: PlannedChange<D, L>, ctx: OperationContext): RequestEstimate
  /** How a saved plan carries this kind's changes; a kind without it is applied by planning again. */
  readonly saved?: SavedForm<D, L>
}

/**
 * A kind's changes as a saved plan carries them, so `apply --plan` runs them without planning again
 * (run/saved-plan.ts): what its operations read of the desired record, as JSON, and the operations again
 * from that JSON and the live record. `operations(restore(save(d)))` must equal `operations(d)`.
 */
export interface SavedForm<D, L> {
  /** What the change's operations read of its desired record (null: it has none, as a delete). */
  save(desired: D | undefined): Json
  /** The change's operations from save()'s JSON; undefined when the JSON is not of this form. */
  operations(saved: unknown, pc: { change: Change; live?: L }, ctx: OperationContext): Operation[] | undefined
}

/**
 * The requests one change's operations send, when every request is answered the first time: a lost response (a
 * re-read), a retry or a write the server answers without its record are not foreseen. The apply adds requests of
 * its own: the registry writes (registry.ts batches the entries of changes that end together) and the re-reads at
 * its end (apply/copies.ts).
 */
export interface RequestEstimate {
  /** Its own requests: its writes, and the reads they need (a patched dashboard read back for its tile ids). */
  requests: number
  /** Entries it records in or forgets from the stack's registry dashboard. */
  registry?: number
}

/** What operations see when they are built. */
export interface OperationContext {
  settings: PlanSettings
  dashboards: DashboardFacts
  registry: Registry
}

/** The result of one request (or a create that was adopted after a lost response). */
export interface OperationResult {
  status: 'applied' | 'adopted'
  id?: string
  /** Tile ids by tile name (as the server sent them), after a dashboard create or update. */
  tileIds?: Map<string, RawId>
  requestId?: string
  result?: unknown
  message?: string
  convergence?: { converged: boolean; remaining: string[] }
}

export interface ApplyContext {
  api: ObservabilityApi
  settings: PlanSettings
  dashboards: DashboardFacts
  /** Records what the stack created (and the write-only fingerprints) in its registry dashboard. */
  registry: RegistryWriter
  /** Results of operations that already ran, by token (see Operation.provides). */
  facts: Map<string, OperationResult>
  log: Logger
  /** Re-reads a collection after a create whose outcome is unknown; concurrent callers share one read. */
  reread<T>(what: string, read: () => Promise<T[]>): Promise<T[]>
  /**
   * Creates whose response was lost, as `<what>:<name>` (create-once.ts): the server may still commit them after
   * the apply re-read and created again; the apply looks for such copies at its end (apply/copies.ts).
   */
  lostResponses?: Set<string>
}

export interface Operation {
  /** The change it belongs to. */
  address: string
  /** e.g. "create", "delete old dashboard". */
  label: string
  /** One request at a time per lock (per dashboard: the server has no concurrency control). */
  lock?: string
  /** Tokens this operation establishes when it succeeds. */
  provides: string[]
  /** Tokens that must be established first; an operation whose provider failed is skipped. */
  after: string[]
  run(ctx: ApplyContext): Promise<OperationResult>
}
