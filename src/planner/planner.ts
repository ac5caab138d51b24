/**
 * Desired state + live state -> Plan. Generic over the resource kinds: each kind pairs its records
 * and reduces both sides to a normal form; the planner diffs them, handles what left the manifests
 * (delete with prune, otherwise shown as "would be deleted with prune"), and records fingerprints.
 * Pure: no network, no clock (the caller passes the time).
 */
import type { Diagnostic } from '../diagnostics.js'
import type { Json } from '../json.js'
import type { AnyKind } from '../kinds/index.js'
import { KINDS } from '../kinds/index.js'
import {
  listed,
  recordsOf,
  type DashboardFacts,
  type LiveState,
  type OperationContext,
  type PlanContext,
  type PlannedChange,
  type PlanSettings
} from '../kinds/kind.js'
import { References } from '../kinds/references.js'
import { isRegistryKind, Registry, REGISTRY_HOME } from '../kinds/registry.js'
import type { LiveDashboard } from '../api/schemas.js'
import { diagnostic } from '../diagnostics.js'
import { scryptSync } from 'node:crypto'
import type { ManifestSet } from '../manifest/load.js'
import { formatPath, type PathSegment } from '../manifest/path.js'
import { VERSION } from '../version.js'
import { diffValues, joinKey } from '../plan/diff.js'
import { byId, FingerprintStream } from './fingerprint.js'
import { holdDeletesInUse } from './in-use.js'
import {
  isActionable,
  PLAN_SCHEMA_VERSION,
  REFERENCES_VERSION,
  type Change,
  type FieldChange,
  type Plan,
  type References as ReferenceNames
} from '../plan/types.js'

export interface PlanInput {
  command: string
  settings: PlanSettings
  manifests: ManifestSet
  live: LiveState
  now: Date
  kinds?: readonly AnyKind[]
}

export interface PlanOutcome {
  plan: Plan
  /** The plan's changes with the typed records the apply engine needs. */
  planned: PlannedChange[]
  dashboards: DashboardFacts
  /** What the stack owns of the kinds without tags, for the apply to keep up to date. */
  registry: Registry
}

export function computePlan(input: PlanInput): PlanOutcome {
  const diagnostics: Diagnostic[] = []
  const report = (d: Diagnostic) => diagnostics.push(d)
  const kinds = input.kinds ?? KINDS
  const registry = readRegistry(input.live, input.settings, kinds)
  // An unreadable registry is a plan error (nothing of those kinds is pruned then).
  if (registry.problem) report(diagnostic('plan', 'error', registry.problem))
  const ctx: PlanContext = {
    settings: input.settings,
    manifests: input.manifests,
    live: input.live,
    report,
    dashboards: { desired: new Map(), live: new Map() },
    refs: new References(report),
    registry
  }
  for (const kind of kinds) {
    if (!kind.live) continue
    const records = recordsOf(input.live, kind.kind)
    ctx.refs.live(
      kind.kind,
      Array.isArray(records)
        ? records.flatMap(r => {
            const id = kind.liveId(r)
            return id === undefined ? [] : [{ id, name: kind.liveName(r) }]
          })
        : undefined,
      `${input.settings.mode === 'managed' ? `managed mode${input.settings.managedPrefix ? `, prefix ${input.settings.managedPrefix}` : ''}` : 'this server'} has no such route`
    )
  }
  const planned: PlannedChange[] = []
  /**
   * The live records the plan depends on, in their normal form: what the live fingerprint covers. Hashed
   * as they come, so the normal forms are garbage at once instead of held to the end.
   */
  const dependsOn = new FingerprintStream().list('records')
  for (const kind of kinds) planned.push(...planKind(kind, ctx, input.settings.prune, dependsOn))
  holdDeletesInUse(planned, kinds, input.live, input.settings, ctx.refs.isManaged)
  estimateRequests(planned, kinds, { settings: input.settings, dashboards: ctx.dashboards, registry })

  const plan: Plan = {
    schemaVersion: PLAN_SCHEMA_VERSION,
    tool: { name: 'obsdeploy', version: VERSION },
    createdAt: input.now.toISOString(),
    command: input.command,
    mode: input.settings.mode,
    ...(input.settings.managedPrefix ? { managedPrefix: input.settings.managedPrefix } : {}),
    stack: input.settings.stack,
    ownershipTag: input.settings.ownershipTag,
    prune: input.settings.prune,
    fingerprint: {
      live: liveFingerprint(dependsOn, input.live),
      desired: desiredFingerprint(input.manifests, input.settings)
    },
    changes: planned.map(p => p.change),
    diagnostics: [...input.manifests.diagnostics, ...diagnostics],
    references: referencesOf(input, ctx, kinds, planned)
  }
  return { plan, planned, dashboards: ctx.dashboards, registry }
}

/** One kind's changes: its desired records paired with the live ones, diffed, refined; orphans as deletes. */
function planKind(
  kind: AnyKind,
  ctx: PlanContext,
  prune: boolean,
  dependsOn: FingerprintStream
): PlannedChange[] {
  const ofKind: PlannedChange[] = []
  const desired = kind.desired(ctx)
  ctx.refs.declare(
    kind.kind,
    desired.map(d => d.name)
  )
  const pairing = kind.pair(desired, ctx)
  const idOf = (l: unknown) => kind.liveId(l)
  ctx.refs.paired(
    kind.kind,
    pairing.pairs.flatMap(p => {
      const id = p.live === undefined ? undefined : idOf(p.live)
      return id === undefined ? [] : [[p.desired.name, id] as [string, string]]
    }),
    pairing.orphans.map(idOf).filter((id): id is string => id !== undefined)
  )
  for (const pair of pairing.pairs) {
    const after = kind.normalDesired(pair.desired, ctx, pair.live)
    const before = pair.live === undefined ? undefined : kind.normalLive(pair.live, ctx)
    const fields =
      before === undefined
        ? listFields(after, 'after', kind.keyedPaths)
        : diffValues(before, after, kind.keyedPaths)
    const change = newChange(kind, pair.desired.name, pair.desired.address, fields, {
      action: pair.live ? (fields.length > 0 ? 'update' : 'noop') : 'create',
      id: pair.live === undefined ? undefined : kind.liveId(pair.live),
      notes: pair.notes ?? []
    })
    dependsOn.item(fingerprinted(kind, change.address, change.id, before))
    ofKind.push({ change, desired: pair.desired, live: pair.live })
  }
  // A live record left over beside the one a manifest of its name pairs with: a copy, not a removed manifest.
  const pairedIds = new Map(
    pairing.pairs.flatMap(p => (p.live === undefined ? [] : [[p.desired.name, idOf(p.live)] as const]))
  )
  for (const orphan of pairing.orphans) {
    const name = kind.liveName(orphan)
    const id = kind.liveId(orphan)
    const twin = pairedIds.get(name)
    const why =
      pairing.why?.get(orphan) ??
      (twin !== undefined
        ? `a copy: the manifest "${name}" pairs with another live one of that name (id ${twin})`
        : 'no longer in the manifests')
    const before = kind.normalLive(orphan, ctx)
    dependsOn.item(fingerprinted(kind, `${kind.kind}/${name}@${id}`, id, before))
    const change = newChange(
      kind,
      name,
      `${kind.kind}/${name}@${id}`,
      listFields(before, 'before', kind.keyedPaths),
      {
        action: 'delete',
        id,
        notes: prune ? [`${why} (prune is on)`] : [`${why}: would be deleted with prune`],
        deferred: prune ? undefined : 'prune'
      }
    )
    ofKind.push({ change, live: orphan })
  }
  for (const pc of ofKind) {
    kind.refine(pc, ctx)
    // Only changes carry their manifest line: a no-op needs none, and positions cost a parse.
    if (pc.desired && pc.change.action !== 'noop') pc.change.source = pc.desired.source
    const { action, deferred, id } = pc.change
    if ((action === 'delete' || action === 'replace') && !deferred && id !== undefined)
      ctx.refs.markDeleted(kind.kind, id)
  }
  kind.conclude?.(ofKind, ctx)
  return ofKind
}

/** A record as the live fingerprint holds it: its kind's view, or its address, id and normal form. */
const fingerprinted = (kind: AnyKind, address: string, id: string | undefined, before: Json | undefined) =>
  kind.fingerprinted?.({ address, id, before }) ?? [address, id, before]

/** Each change the apply carries out, with what its kind says it sends (Change.estimate). */
function estimateRequests(
  planned: readonly PlannedChange[],
  kinds: readonly AnyKind[],
  octx: OperationContext
): void {
  const byKind = new Map(kinds.map(k => [k.kind, k]))
  for (const pc of planned) {
    if (!isActionable(pc.change)) continue
    const { requests, registry } = byKind.get(pc.change.kind)!.requests(pc, octx)
    if (requests > 0 || registry) pc.change.estimate = registry ? { requests, registry } : { requests }
  }
}

/**
 * The stack's registry of the kinds without tags, without the ids that no longer exist: a function of the
 * live state and the settings alone, so an apply of a saved plan reads the same one again.
 */
export function readRegistry(
  live: LiveState,
  settings: PlanSettings,
  kinds: readonly AnyKind[] = KINDS
): Registry {
  const registry = Registry.read(
    listed(live, REGISTRY_HOME) as LiveDashboard[],
    settings.stack,
    settings.ownershipTag
  )
  for (const kind of kinds) {
    if (!kind.live || !isRegistryKind(kind.kind)) continue
    const records = recordsOf(live, kind.kind)
    if (Array.isArray(records))
      registry.keepOnly(
        kind.kind,
        new Set(records.map(r => kind.registryKey?.(r) ?? kind.liveId(r)).filter(id => id !== undefined))
      )
  }
  return registry
}

/** Names for the ids the plan's values hold, where its changes are seen, and its kinds in words, for reports. */
function referencesOf(
  input: PlanInput,
  ctx: PlanContext,
  kinds: readonly AnyKind[],
  planned: readonly PlannedChange[]
): ReferenceNames {
  const keys: ReferenceNames['keys'] = {}
  for (const kind of kinds) {
    if (!kind.referredBy || recordsOf(input.live, kind.kind) === undefined) continue
    const names = ctx.refs.names(kind.kind)
    for (const { key, as } of kind.referredBy) keys[key] = { as, names }
  }
  const byKind = new Map(kinds.map(k => [k.kind, k]))
  const seenOn: ReferenceNames['seenOn'] = {}
  for (const pc of planned) {
    const seen = pc.desired && byKind.get(pc.change.kind)?.seenOn?.(pc.desired)
    if (seen) seenOn[pc.change.address] = seen
  }
  const nouns = Object.fromEntries(kinds.map(k => [k.kind, [...k.nouns] as [string, string]]))
  return { version: REFERENCES_VERSION, keys, seenOn, nouns }
}

function newChange(
  kind: AnyKind,
  name: string,
  address: string,
  fields: FieldChange[],
  rest: Pick<Change, 'action' | 'notes'> & Partial<Change>
): Change {
  const change: Change = { kind: kind.kind, name, address, fields, dependsOn: [], ...rest }
  for (const key of Object.keys(change) as (keyof Change)[]) if (change[key] === undefined) delete change[key]
  return change
}

/** A whole record as field entries (for creates and deletes): one per top-level field, one per tile. */
function listFields(
  value: Json,
  side: 'before' | 'after',
  keyed: ReadonlySet<string> = new Set()
): FieldChange[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return [{ path: '(root)', [side]: value }]
  return Object.entries(value).flatMap(([key, v]) => {
    if (keyed.has(key) && v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.entries(v).map(([k, item]) => ({ path: joinKey(key, k, true), [side]: item }))
    }
    return [{ path: key, [side]: v }]
  })
}

/**
 * What the plan was computed from: the normal form of every live record it paired or would delete, and
 * the names it resolved. Records it did not look at (another team's dashboards, a service's scaling) do
 * not invalidate a saved plan.
 */
function liveFingerprint(dependsOn: FingerprintStream, live: LiveState): string {
  const named = (records: ReadonlyArray<{ id: string; name: string }>) =>
    byId(records).map(r => ({ id: r.id, name: r.name }))
  // Every kind others name, in the order the first plan files hashed them, whichever kinds this plan drives.
  const referred = KINDS.flatMap(k => (k.fingerprint.names ? [{ kind: k.kind, ...k.fingerprint.names }] : []))
  for (const { kind, key } of referred.sort((a, b) => a.at - b.at)) {
    const records = recordsOf(live, kind) as Array<{ id: string; name: string }> | undefined
    dependsOn.field(key, records ? named(records) : null)
  }
  return dependsOn.digest()
}

function desiredFingerprint(manifests: ManifestSet, settings: PlanSettings): string {
  const stream = new FingerprintStream().field('settings', {
    stack: settings.stack,
    prune: settings.prune,
    mode: settings.mode,
    gate: settings.serviceGate.open
  })
  // Spec by spec into the hash, secrets masked (their values collected for the digest below).
  const secrets: string[] = []
  // Every manifest, whichever kinds this plan drives.
  for (const { kind, fingerprint } of KINDS) {
    const located: ReadonlyArray<{ spec: unknown; doc: { secretPaths?: ReadonlyMap<string, string> } }> =
      manifests.specs[kind]
    if (located.length === 0 && !fingerprint.whenEmpty) continue
    stream.list(fingerprint.specs)
    for (const l of located) stream.item(maskSecrets(l.spec, l.doc.secretPaths, secrets))
  }
  // A changed secret changes the fingerprint, but the plan file never holds a plain hash of one.
  return stream.field('secrets', secrets.length === 0 ? null : secretDigest(secrets)).digest()
}

/** The spec with the values secret placeholders filled replaced, those values collected. */
function maskSecrets(spec: unknown, paths: ReadonlyMap<string, string> | undefined, out: string[]): unknown {
  if (!paths || paths.size === 0) return spec
  const walk = (v: unknown, path: PathSegment[]): unknown => {
    if (typeof v === 'string' && paths.has(formatPath(path))) {
      out.push(v)
      return '(secret)'
    }
    if (Array.isArray(v)) return v.map((x, i) => walk(x, [...path, i]))
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, [...path, k])]))
    return v
  }
  return walk(spec, [])
}

/** scrypt with a fixed salt: deterministic, so a saved plan's fingerprint can be checked, and slow to guess. */
function secretDigest(values: readonly string[]): string {
  return scryptSync(JSON.stringify(values), 'obsdeploy desired fingerprint', 32, {
    N: 16384,
    r: 8,
    p: 1
  }).toString('base64url')
}
