/**
 * The plan: what will change, field by field, and why. It is written as JSON (`plan-file`) with this
 * schema (exported to schema/plan.schema.json), read back by `apply --plan`, and rendered by the
 * reporters, so it is the one contract between planning, applying and reporting.
 */
import { z } from 'zod'
import { once } from '../manifest/once.js'
import { MANIFEST_KINDS, type ManifestKind } from '../manifest/vocabulary.js'
import { livePreviewSchemas } from './live-preview.js'
import { previewSchemas } from './preview.js'

export const PLAN_SCHEMA_VERSION = 1

export const ACTIONS = ['create', 'update', 'replace', 'delete', 'noop'] as const
export type Action = (typeof ACTIONS)[number]
/** The kinds a manifest declares are the kinds a plan changes (the manifest's vocabulary defines them). */
export const RESOURCE_KINDS = MANIFEST_KINDS
export type ResourceKind = ManifestKind

/** Versions of the plan file's optional sections (their schemas below say what each holds). */
export const REFERENCES_VERSION = 2
export const APPLY_SECTION_VERSION = 1
export const ESTIMATE_VERSION = 1

/**
 * The plan file's schemas, built on first use: only reading a plan file back (`apply --plan`) and the
 * exported JSON Schema parse with them, so a start-up that reads none (validate, plan) does not build them.
 * One long expression on purpose: it is a declarative table of the plan file's parts, each built from the ones
 * before it (a Change from its fields and notes, a Plan from its changes, a PlanFile from its plans), all inside
 * the function that keeps them lazy.
 */
export const planSchemas = once('plan schemas', () => {
  const Location = z.object({ file: z.string(), line: z.number(), column: z.number() })

  const FieldChange = z.object({
    /** e.g. `tags`, `tiles["Errors"].select[0].where`. */
    path: z.string(),
    before: z.unknown().optional(),
    after: z.unknown().optional()
  })

  const DiagnosticSchema = z.object({
    severity: z.enum(['error', 'warning', 'notice']),
    message: z.string(),
    file: z.string().optional(),
    line: z.number().optional(),
    column: z.number().optional(),
    field: z.string().optional(),
    stage: z.enum(['validate', 'plan', 'apply', 'config'])
  })

  const Change = z.object({
    kind: z.enum(RESOURCE_KINDS),
    name: z.string(),
    /** Stable key of the resource in this plan, e.g. `Dashboard/Checkout`. */
    address: z.string(),
    action: z.enum(ACTIONS),
    /** The live id, when the resource exists. */
    id: z.string().optional(),
    /** The manifest that declares it (absent for deletes of resources that left the manifests). */
    source: Location.optional(),
    fields: z.array(FieldChange),
    /** Plain-language consequences a reviewer must see: tile renames, alerts the server will drop. */
    notes: z.array(z.string()),
    /**
     * Shown but not applied by this run: `prune` (owned, left the manifests, prune is off), `release`
     * (ServiceSettings wait for a release), `in-use` (a kept record still uses it) or `own-user` (a
     * TeamMember that is the API key's own user: the server refuses to remove it).
     */
    deferred: z.enum(['prune', 'release', 'in-use', 'own-user']).optional(),
    /**
     * A dashboard update's tiles that it rewrites through the API's form, and what that resets on each: settings only
     * the web UI can set, which no API client can read (kinds/dashboard/ui-only.ts). `via`: one PUT (every tile), or
     * patches of the changed tiles alone; `why`: why not patches. Reported as a destructive note.
     */
    resets: z
      .object({
        via: z.enum(['put', 'patch']),
        why: z.string().optional(),
        tiles: z.array(z.object({ tile: z.string(), settings: z.array(z.string()) }))
      })
      .optional(),
    /**
     * Fields of the live record this version of obsdeploy does not know, which the update cannot send back (the
     * managed API refuses a key it does not declare), so it may reset them. Counted in the heading like a reset.
     */
    lost: z.array(z.string()).optional(),
    /**
     * What the change grants that was not granted before, in plain words (`grants \`manage all\``, `no longer denies
     * \`read source\``): a change that widens access (a role's new grant, an inverted rule removed, a broader subject).
     * Counted in the heading like a delete.
     */
    widens: z.array(z.string()).optional(),
    /** Deleted by the server as a side effect (its tile or dashboard goes away), not by a request. */
    droppedByServer: z.boolean().optional(),
    /** Addresses that must be applied before this one. */
    dependsOn: z.array(z.string()),
    /** The request body this change will send, where a reviewer benefits from seeing it (the service PATCH). */
    request: z.object({ method: z.string(), path: z.string(), body: z.unknown() }).optional(),
    /** Live-query evidence added by check-queries. */
    evidence: z.array(z.string()).optional(),
    /**
     * What applying it sends (its kind's `requests`): its own requests, and the entries it records in or forgets
     * from the stack's registry dashboard, whose writes the apply batches. Absent when it sends nothing.
     */
    estimate: z.object({ requests: z.number(), registry: z.number().optional() }).optional()
  })

  /**
   * Names of what the plan's values hold ids of, read from the live lists when the plan was made, so a
   * report shows `source: Logs` where the normal form holds `sourceId: <id>`. Optional and versioned on its
   * own: a plan file written before it existed still parses, and a reader that meets a later version
   * ignores it rather than misreading it.
   */
  const References = z.object({
    version: z.number(),
    /**
     * By the key a normal form holds ids under (`sourceId`): the key a manifest names them by (`source`) and the
     * names by id. A kind the API cannot list has none.
     */
    keys: z.record(z.string(), z.object({ as: z.string(), names: z.record(z.string(), z.string()) })),
    /** The dashboard each change is seen on in the web UI, by change address (`own`: the change is that dashboard). */
    seenOn: z.record(z.string(), z.object({ dashboard: z.string(), own: z.boolean().optional() })),
    /** Each kind of the plan in words, singular and plural. */
    nouns: z.record(z.string(), z.tuple([z.string(), z.string()]))
  })

  /**
   * How many requests an apply of this plan sends, and how long they take at the pace the run is configured with
   * (apply/requests.ts): what a reviewer reads as "about 31 min at 100 requests a minute". An estimate: retries,
   * lost responses and the time each request takes are not in it. Versioned on its own, like `references`.
   */
  const Estimate = z.object({
    version: z.number(),
    /** Every request the apply sends after reading the live state: the sum of `parts`. */
    requests: z.number(),
    parts: z.object({
      /** The changes' own requests (each change's `estimate`). */
      changes: z.number(),
      /** Writes of the stack's registry dashboard, batched at `concurrency`. */
      registry: z.number(),
      /** The server's dry run of each dashboard written (server-validation), before the first write. */
      dryRuns: z.number(),
      /** The re-reads at the apply's end that look for copies of what it created. */
      rereads: z.number()
    }),
    /** The run's `concurrency`: how many registry entries one write carries depends on it. */
    concurrency: z.number(),
    /** The run's client-side pace (`rate-limit`); absent when it is off. */
    pace: z.object({ requests: z.number(), windowMs: z.number() }).optional(),
    /** `requests` at that pace, in milliseconds; absent without a pace. */
    durationMs: z.number().optional()
  })

  /**
   * What `apply --plan` needs to run a plan's changes without planning again (run/saved-plan.ts explains
   * why that is as strict as planning again). Optional and versioned on its own: a plan without it, or
   * of another version, is applied as before, by planning again and comparing fingerprints.
   */
  const ApplySection = z.object({
    version: z.number(),
    /** sha256 of what shapes the plan besides the live state: the settings, patterns and variables, each manifest file's bytes. */
    inputs: z.string(),
    /** sha256 of the whole live state the plan was computed from, as read. */
    live: z.string(),
    /** By change address: what its operations read of the desired record (the kind's saved form). */
    records: z.record(z.string(), z.unknown()),
    /** The dashboard facts the alerts' operations read (DashboardFacts, as lists). */
    dashboards: z.object({
      desired: z.array(
        z.object({
          name: z.string(),
          address: z.string(),
          liveId: z.string().optional(),
          tileIds: z.array(z.tuple([z.string(), z.union([z.string(), z.number()])])),
          /** Tile pins to tile names (absent in plans saved before tiles had pins). */
          pinnedNames: z.array(z.tuple([z.string(), z.string()])).optional()
        })
      ),
      live: z.array(
        z.object({
          id: z.string(),
          address: z.string(),
          desiredName: z.string().optional(),
          deleted: z.boolean(),
          droppedTileIds: z.array(z.string())
        })
      )
    }),
    /** HMAC-SHA256 of the whole plan file (this field empty), keyed with the API credentials of the run that wrote it. */
    seal: z.string()
  })

  const Plan = z.object({
    schemaVersion: z.literal(PLAN_SCHEMA_VERSION),
    tool: z.object({ name: z.literal('obsdeploy'), version: z.string() }),
    createdAt: z.string(),
    command: z.string(),
    mode: z.enum(['self-hosted', 'managed']),
    /** Managed mode: the path segment the run used (`managed-prefix: auto` settles it on the first list). */
    managedPrefix: z.enum(['clickstack', 'observability']).optional(),
    stack: z.string(),
    ownershipTag: z.string(),
    prune: z.boolean(),
    /** sha256 of the normalized live state the plan was computed from, and of the desired state. */
    fingerprint: z.object({ live: z.string(), desired: z.string() }),
    changes: z.array(Change),
    diagnostics: z.array(DiagnosticSchema),
    references: References.optional(),
    apply: ApplySection.optional(),
    estimate: Estimate.optional(),
    /** What the report pictures: dashboards' layouts and, with check-queries, their data (plan/preview.ts). */
    preview: previewSchemas().Preview.optional(),
    /** The pull request's preview copies on the server (`live-preview`), and old copies swept (plan/live-preview.ts). */
    livePreview: livePreviewSchemas().LivePreview.optional()
  })

  /**
   * The plan file of a run over many stacks (the `stacks` layout): each planned stack's own plan, in the
   * order they were planned. `apply --plan` matches them by stack name.
   */
  const PlanSet = z.object({
    schemaVersion: z.literal(PLAN_SCHEMA_VERSION),
    stacks: z.array(Plan)
  })

  /** What a plan file holds: one stack's plan, or the plans of many (schema/plan.schema.json). */
  const PlanFile = z.union([Plan, PlanSet])
  return {
    Location,
    FieldChange,
    DiagnosticSchema,
    Change,
    References,
    ApplySection,
    Estimate,
    Plan,
    PlanSet,
    PlanFile
  }
})
type PlanSchemas = ReturnType<typeof planSchemas>
export type FieldChange = z.infer<PlanSchemas['FieldChange']>
export type Change = z.infer<PlanSchemas['Change']>
export type References = z.infer<PlanSchemas['References']>
export type ApplySection = z.infer<PlanSchemas['ApplySection']>
export type Estimate = z.infer<PlanSchemas['Estimate']>
export type Plan = z.infer<PlanSchemas['Plan']>
export type PlanSet = z.infer<PlanSchemas['PlanSet']>
export type PlanFile = z.infer<PlanSchemas['PlanFile']>

/** A change this run will carry out (not a no-op, not deferred). */
export const isActionable = (c: Change): boolean => c.action !== 'noop' && c.deferred === undefined

export interface PlanCounts {
  create: number
  update: number
  replace: number
  delete: number
  noop: number
  deferred: number
}

export function countChanges(changes: readonly Change[]): PlanCounts {
  const counts: PlanCounts = { create: 0, update: 0, replace: 0, delete: 0, noop: 0, deferred: 0 }
  for (const c of changes) {
    if (c.deferred) counts.deferred++
    else counts[c.action]++
  }
  return counts
}
