/**
 * The typed settings a run is configured with: the words the rest of the code uses. The input registry
 * (inputs.ts) names the values; parse.ts turns raw inputs into a Config.
 */

/** What run() does, and what the action's `command` input accepts. */
export const RUN_COMMANDS = ['validate', 'plan', 'apply', 'drift'] as const
export type RunCommand = (typeof RUN_COMMANDS)[number]
/** What the action's `command` input accepts: run()'s, and `sync`, which the entry points run on their own. */
export const ACTION_COMMANDS = [...RUN_COMMANDS, 'sync'] as const
export type ActionCommand = (typeof ACTION_COMMANDS)[number]
/** The CLI's commands: the action's, and `export` and `sweep-previews`, which the CLI handles on its own. */
export const COMMANDS = [...ACTION_COMMANDS, 'export', 'sweep-previews'] as const
export type Command = (typeof COMMANDS)[number]

export const MODES = ['self-hosted', 'managed'] as const
export type Mode = (typeof MODES)[number]
export const SERVICE_UPDATE = ['on-release', 'always', 'never'] as const
export type ServiceUpdatePolicy = (typeof SERVICE_UPDATE)[number]
/** What a data preview does with values from the data (`preview-values`): show them, mask the personal-looking ones, or leave them out. */
export const PREVIEW_VALUES = ['show', 'mask', 'hide'] as const
export type PreviewValues = (typeof PREVIEW_VALUES)[number]
/** The path segment of the managed observability resources: the public cloud's, and CONTRACT.md's. */
export const API_PREFIXES = ['clickstack', 'observability'] as const
export type ApiPrefix = (typeof API_PREFIXES)[number]
/** `auto`: the public cloud's `clickstack`, or the contract's `observability` when the cloud has no such route. */
export const MANAGED_PREFIXES = ['auto', ...API_PREFIXES] as const
export type ManagedPrefix = (typeof MANAGED_PREFIXES)[number]

export interface RateLimit {
  requests: number
  windowMs: number
}

export type Auth =
  { kind: 'none' } | { kind: 'bearer'; apiKey: string } | { kind: 'basic'; keyId: string; keySecret: string }

export interface ServiceGate {
  open: boolean
  /** Why, in words for the plan: "release v1.2.0 published", "waits for a release". */
  reason: string
}

export interface Config<C extends Command = RunCommand> {
  command: C
  cwd: string
  manifests: string[]
  mode: Mode
  apiUrl: string
  auth: Auth
  organizationId?: string
  serviceId?: string
  managedPrefix: ManagedPrefix
  stack: string
  /**
   * Many stacks in one repository (the `stacks` input): each folder with a stack.yaml is a stack. `only`:
   * the stacks the `stack` input names (empty: the changed ones on a pull request, all otherwise).
   */
  stacks?: { only: string[] }
  prune: boolean
  /** Team members are named by masked emails in every output (the `mask-emails` input). */
  maskEmails: boolean
  serviceUpdate: ServiceUpdatePolicy
  serviceGate: ServiceGate
  concurrency: number
  uiUrl?: string
  allowInsecureHttp: boolean
  rateLimit: RateLimit | null
  requestTimeoutMs: number
  retryBudgetMs: number
  /** The retry budget while nothing has answered at the API's address yet (refused connections). */
  connectBudgetMs: number
  savedPlan?: string
  planPath: string
  vars: Record<string, unknown>
  /** Values of `${secret.NAME}` placeholders (`secret-vars`; OBSDEPLOY_SECRET_<NAME> in the CLI). */
  secretVars: Record<string, string>
  checkQueries: boolean
  /** What check-queries keeps of values from the data (group names, table cells): mask-value.ts. */
  previewValues: PreviewValues
  /** Dry-run each dashboard the plan writes on the server's validate route (live/server-validation.ts). */
  serverValidation: boolean
  /**
   * Preview copies of the dashboards a pull request changes (`live-preview`; live-preview/): whether to write them,
   * with raw SQL tiles or not, and how old (ms since their last write) a copy may get before a run deletes it.
   */
  livePreview: { write: boolean; sql: boolean; ttlMs: number }
  commentOnPr: boolean
  /** Label the pull request by what the plan does (the action only). */
  labels: boolean
  /**
   * Policies from a place the pull request cannot change (`policy-source`): `owner/repo@ref:path` in the
   * action (src/github/policy-source.ts), a local path or `<git ref>:<path>` in the CLI.
   */
  policySource?: string
}
