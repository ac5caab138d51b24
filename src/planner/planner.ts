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
import type { DashboardFacts, LiveState, PlanContext, PlannedChange, PlanSettings } from '../kinds/kind.js'
import type { ManifestSet } from '../manifest/load.js'
import { VERSION } from '../version.js'
import { diffValues, joinKey } from '../plan/diff.js'
import { byId, fingerprint } from './fingerprint.js'
import {
  PLAN_SCHEMA_VERSION,
  REFERENCES_VERSION,
  type Change,
  type FieldChange,
  type Plan,
  type References
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
}

export function computePlan(input: PlanInput): PlanOutcome {
  const diagnostics: Diagnostic[] = []
  const ctx: PlanContext = {
    settings: input.settings,
    manifests: input.manifests,
    live: input.live,
    report: d => diagnostics.push(d),
    dashboards: { desired: new Map(), live: new Map() }
  }
  const planned: PlannedChange[] = []
  /** The live records the plan depends on, in their normal form: what the live fingerprint covers. */
  const dependsOn: Array<[string, string | undefined, Json | undefined]> = []
  for (const kind of input.kinds ?? KINDS) {
    const ofKind: PlannedChange[] = []
    const pairing = kind.pair(kind.desired(ctx), ctx)
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
      dependsOn.push([change.address, change.id, before])
      ofKind.push({ change, desired: pair.desired, live: pair.live })
    }
    for (const orphan of pairing.orphans) {
      const name = kind.liveName(orphan)
      const id = kind.liveId(orphan)
      const before = kind.normalLive(orphan, ctx)
      dependsOn.push([`${kind.kind}/${name}@${id}`, id, before])
      const change = newChange(
        kind,
        name,
        `${kind.kind}/${name}@${id}`,
        listFields(before, 'before', kind.keyedPaths),
        {
          action: 'delete',
          id,
          notes: input.settings.prune
            ? ['no longer in the manifests (prune is on)']
            : ['no longer in the manifests: would be deleted with prune'],
          deferred: input.settings.prune ? undefined : 'prune'
        }
      )
      ofKind.push({ change, live: orphan })
    }
    for (const pc of ofKind) {
      kind.refine(pc, ctx)
      // Only changes carry their manifest line: a no-op needs none, and positions cost a parse.
      if (pc.desired && pc.change.action !== 'noop') pc.change.source = pc.desired.source
    }
    kind.conclude?.(ofKind, ctx)
    planned.push(...ofKind)
  }

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
    references: referencesOf(input)
  }
  return { plan, planned, dashboards: ctx.dashboards }
}

/** Names for the ids the plan's values hold, for reports (see References). */
function referencesOf(input: PlanInput): References {
  const named = (items: ReadonlyArray<{ id: string; name: string }>) =>
    Object.fromEntries(items.filter(i => i.name !== '').map(i => [i.id, i.name]))
  const references: References = {
    version: REFERENCES_VERSION,
    sources: named(input.live.sources),
    alertDashboards: Object.fromEntries(input.manifests.alerts.map(a => [a.spec.name, a.spec.dashboard]))
  }
  if (input.live.webhooks) references.webhooks = named(input.live.webhooks)
  return references
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
function liveFingerprint(
  dependsOn: ReadonlyArray<[string, string | undefined, Json | undefined]>,
  live: LiveState
): string {
  return fingerprint({
    records: dependsOn,
    sources: byId(live.sources).map(s => ({ id: s.id, name: s.name })),
    webhooks: live.webhooks ? byId(live.webhooks).map(w => ({ id: w.id, name: w.name })) : null
  })
}

function desiredFingerprint(manifests: ManifestSet, settings: PlanSettings): string {
  return fingerprint({
    settings: {
      stack: settings.stack,
      prune: settings.prune,
      mode: settings.mode,
      gate: settings.serviceGate.open
    },
    dashboards: manifests.dashboards.map(d => d.spec),
    alerts: manifests.alerts.map(a => a.spec),
    services: manifests.services.map(s => s.spec)
  })
}
