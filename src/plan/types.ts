/**
 * The plan: what will change, field by field, and why. It is written as JSON (`plan-file`) with this
 * schema (exported to schema/plan.schema.json), read back by `apply --plan`, and rendered by the
 * reporters, so it is the one contract between planning, applying and reporting.
 */
import { z } from 'zod'

export const PLAN_SCHEMA_VERSION = 1

export const ACTIONS = ['create', 'update', 'replace', 'delete', 'noop'] as const
export type Action = (typeof ACTIONS)[number]
export const RESOURCE_KINDS = ['Dashboard', 'Alert', 'ServiceSettings'] as const
export type ResourceKind = (typeof RESOURCE_KINDS)[number]

export const Location = z.object({ file: z.string(), line: z.number(), column: z.number() })

export const FieldChange = z.object({
  /** e.g. `tags`, `tiles["Errors"].select[0].where`. */
  path: z.string(),
  before: z.unknown().optional(),
  after: z.unknown().optional()
})
export type FieldChange = z.infer<typeof FieldChange>

export const DiagnosticSchema = z.object({
  severity: z.enum(['error', 'warning', 'notice']),
  message: z.string(),
  file: z.string().optional(),
  line: z.number().optional(),
  column: z.number().optional(),
  field: z.string().optional(),
  stage: z.enum(['validate', 'plan', 'apply', 'config'])
})

export const Change = z.object({
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
   * Shown but not applied by this run: `prune` (owned, left the manifests, prune is off) or `release`
   * (ServiceSettings wait for a release).
   */
  deferred: z.enum(['prune', 'release']).optional(),
  /** Deleted by the server as a side effect (its tile or dashboard goes away), not by a request. */
  droppedByServer: z.boolean().optional(),
  /** Addresses that must be applied before this one. */
  dependsOn: z.array(z.string()),
  /** The request body this change will send, where a reviewer benefits from seeing it (the service PATCH). */
  request: z.object({ method: z.string(), path: z.string(), body: z.unknown() }).optional(),
  /** Live-query evidence added by check-queries. */
  evidence: z.array(z.string()).optional()
})
export type Change = z.infer<typeof Change>

/**
 * Names of what the plan's values hold ids of, read from the live lists when the plan was made, so a
 * report shows `source: Logs` where the normal form holds `sourceId: <id>`. Optional and versioned on its
 * own: a plan file written before it existed still parses, and a reader that meets a later version
 * ignores it rather than misreading it.
 */
export const REFERENCES_VERSION = 1
export const References = z.object({
  version: z.number(),
  /** Data sources, by id. */
  sources: z.record(z.string(), z.string()),
  /** Webhooks, by id (absent where the API cannot list them). */
  webhooks: z.record(z.string(), z.string()).optional(),
  /** The dashboard each manifest alert watches a tile of, by alert name. */
  alertDashboards: z.record(z.string(), z.string())
})
export type References = z.infer<typeof References>

export const Plan = z.object({
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
  references: References.optional()
})
export type Plan = z.infer<typeof Plan>

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
