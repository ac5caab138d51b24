/**
 * The input registry: every setting defined once, with its type, default and description. parse.ts reads
 * each value by its type, the CLI derives its flags from it, and action.yml and the README's inputs
 * table are generated from it (`npm run docs`).
 */
import { ACTION_COMMANDS, MANAGED_PREFIXES, MODES, PREVIEW_VALUES, SERVICE_UPDATE } from './types.js'

export const DEFAULT_MANAGED_API_URL = 'https://api.clickhouse.cloud'

export type InputType =
  | { kind: 'boolean' }
  /** `integer`: a fraction is refused. The range is part of the input's documentation (describeInput). */
  | { kind: 'number'; min: number; max: number; integer?: boolean }
  /** `refused`: values that belong elsewhere, with what to say instead of "must be one of". */
  | { kind: 'enum'; values: readonly string[]; refused?: Readonly<Record<string, string>> }
  | { kind: 'string' }
  /** Globs separated by newlines or commas; the CLI takes the flag more than once. */
  | { kind: 'list' }
  /** Registered with the runner as a secret and never printed; the CLI reads it from `env` only. */
  | { kind: 'secret' }

export interface InputDefinition {
  name: string
  type: InputType
  /** The default as action.yml states it, read by the input's type; none where it depends on other inputs. */
  default?: string
  description: string
  /** Environment variable the CLI reads it from (secrets only come from the environment). */
  env?: string
  /** Not a CLI flag (GitHub-only). */
  actionOnly?: boolean
}

/** The raw values, keyed by input name, as the action's inputs or the CLI's flags give them. */
export type RawSettings = Partial<Record<string, string>>

const DEFINED = [
  {
    name: 'command',
    type: {
      kind: 'enum',
      values: ACTION_COMMANDS,
      refused: {
        export:
          'export is a CLI command (obsdeploy export --out observability/); the action does validate, plan, apply, drift or sync'
      }
    },
    default: 'plan',
    description:
      'What to do: validate, plan, apply, drift or sync (rewrite the manifests to match edits made in the UI, and open or update one pull request per stack from the branch `obsdeploy/sync/<stack>`; needs `contents: write` and `pull-requests: write`).'
  },
  {
    name: 'manifests',
    type: { kind: 'list' },
    default: 'observability/**/*.yaml\nobservability/**/*.yml',
    description: 'Manifest files: globs separated by newlines or commas; `!glob` excludes.'
  },
  {
    name: 'mode',
    type: { kind: 'enum', values: MODES },
    default: 'self-hosted',
    description: 'API deployment mode: self-hosted or managed.'
  },
  {
    name: 'api-url',
    type: { kind: 'string' },
    description: `Self-hosted API base URL (e.g. https://hyperdx.example.com:8000), or the managed cloud base URL (default for managed: ${DEFAULT_MANAGED_API_URL}). Must be https except on loopback.`
  },
  {
    name: 'api-key',
    type: { kind: 'secret' },
    env: 'OBSDEPLOY_API_KEY',
    description: 'Self-hosted personal API access key (Bearer). Not the ingestion key.'
  },
  {
    name: 'key-id',
    type: { kind: 'secret' },
    env: 'OBSDEPLOY_KEY_ID',
    description: 'Managed mode: API key id (Basic auth).'
  },
  {
    name: 'key-secret',
    type: { kind: 'secret' },
    env: 'OBSDEPLOY_KEY_SECRET',
    description: 'Managed mode: API key secret (Basic auth).'
  },
  { name: 'organization-id', type: { kind: 'string' }, description: 'Managed mode: organization UUID.' },
  { name: 'service-id', type: { kind: 'string' }, description: 'Managed mode: service UUID.' },
  {
    name: 'managed-prefix',
    type: { kind: 'enum', values: MANAGED_PREFIXES },
    default: 'auto',
    description:
      'Managed mode: path segment of the observability resources: clickstack (the public cloud), observability (the contract), or auto (clickstack, and observability when the server has no clickstack route).'
  },
  {
    name: 'stack',
    type: { kind: 'string' },
    description:
      "Ownership scope: resources are tagged with it, and only its own are updated or pruned. Default: the repository name. With `stacks`: the names of the stacks to run (separated by commas or newlines), e.g. a matrix leg's."
  },
  {
    name: 'stacks',
    type: { kind: 'boolean' },
    default: 'false',
    description:
      'Many stacks in one repository: each folder with a stack.yaml among the manifests is a stack, with its own name (ownership tag), variables and manifests. A run plans the stacks a pull request changes (all of them on other events), with one read of the live state, one request budget and one comment.'
  },
  {
    name: 'prune',
    type: { kind: 'boolean' },
    default: 'false',
    description: 'Delete owned dashboards and alerts that are no longer in the manifests.'
  },
  {
    name: 'mask-emails',
    type: { kind: 'boolean' },
    default: 'true',
    description:
      'Name TeamMember people by a masked email in the plan, its file, the comment, the job summary, the logs and policy findings: the first and last letters, the domain and a short tag keyed by the API credential (j***e@example.com #3f2a), so two people read apart, and one person alike in every run with that credential. Emails are personal data; false shows them whole.'
  },
  {
    name: 'service-update',
    type: { kind: 'enum', values: SERVICE_UPDATE },
    default: 'on-release',
    description:
      'When ServiceSettings are applied: on-release (a published release or a tag push), always, or never.'
  },
  {
    name: 'comment-on-pr',
    type: { kind: 'boolean' },
    default: 'true',
    actionOnly: true,
    description: 'Post the plan as one sticky pull request comment.'
  },
  {
    name: 'labels',
    type: { kind: 'boolean' },
    default: 'false',
    actionOnly: true,
    description:
      'Label the pull request obsdeploy:no-changes, obsdeploy:changes or obsdeploy:destroy, removing the stale one (needs `pull-requests: write`).'
  },
  {
    name: 'github-token',
    type: { kind: 'secret' },
    default: '${{ github.token }}',
    actionOnly: true,
    description: 'Token for the pull request comment (needs `pull-requests: write`).'
  },
  {
    name: 'policy-source',
    type: { kind: 'string' },
    description:
      "Policies kept where the pull request cannot change them, in force besides the repository's own: `owner/repo@ref:path` (a file or folder, read through the GitHub API with github-token). CLI: a local path or `<git ref>:<path>`."
  },
  {
    name: 'concurrency',
    type: { kind: 'number', min: 1, max: 64, integer: true },
    default: '4',
    description: 'Parallel requests during apply (one at a time per dashboard).'
  },
  { name: 'ui-url', type: { kind: 'string' }, description: 'Base URL of the web UI, for links in reports.' },
  {
    name: 'allow-insecure-http',
    type: { kind: 'boolean' },
    default: 'false',
    description: 'Allow a plain http api-url that is not loopback (credentials travel unencrypted).'
  },
  {
    name: 'rate-limit',
    type: { kind: 'string' },
    description:
      'Client-side pacing as requests/window, e.g. 100/60s or 10/10s, or off. Default: 100/60s self-hosted, 10/10s managed.'
  },
  {
    name: 'request-timeout',
    type: { kind: 'number', min: 0.1, max: 600 },
    default: '30',
    description: 'Timeout of one HTTP request, in seconds.'
  },
  {
    name: 'retry-budget',
    type: { kind: 'number', min: 0, max: 3600 },
    default: '120',
    description:
      'Wall time one request may spend retrying, in seconds, from its first attempt: backoff, rate-limit waits and the retries themselves.'
  },
  {
    name: 'connect-budget',
    type: { kind: 'number', min: 0, max: 3600 },
    default: '10',
    description:
      'The retry budget while nothing has answered at api-url yet (connection refused or reset), in seconds: a wrong address fails fast. Once the server has answered, retry-budget applies.'
  },
  {
    name: 'saved-plan',
    type: { kind: 'string' },
    description:
      'apply: path of a plan JSON from an earlier plan run; refused if the live state or the manifests changed since.'
  },
  {
    name: 'plan-path',
    type: { kind: 'string' },
    description:
      'Where to write the plan JSON (the plan-file output). Default: a file in RUNNER_TEMP, or .obsdeploy/plan.json.'
  },
  {
    name: 'vars',
    type: { kind: 'string' },
    description: 'YAML mapping of values for ${NAME} placeholders in manifests.'
  },
  {
    name: 'secret-vars',
    type: { kind: 'secret' },
    env: 'OBSDEPLOY_SECRET_VARS',
    description:
      'YAML mapping of secret values for ${secret.NAME} placeholders: connection passwords, webhook URLs, headers and query parameters. Masked in the log; plans show them only as changed or unchanged. CLI: one OBSDEPLOY_SECRET_<NAME> environment variable each.'
  },
  {
    name: 'check-queries',
    type: { kind: 'boolean' },
    default: 'false',
    description:
      'plan: run each changed tile query over the last 24 hours (no data is a warning; the report charts it), and count how often each changed alert would have fired in 7 days (self-hosted).'
  },
  {
    name: 'preview-values',
    type: { kind: 'enum', values: PREVIEW_VALUES },
    default: 'mask',
    description:
      "With check-queries, what the data preview keeps of values from the data (group names, table cells, bar names) in the plan file, the comment, the job summary and the logs: mask masks each value that looks like a person's data (an email, an IPv4 or IPv6 address, a number of 6 or more digits) as mask-emails masks an email, with a tag keyed by the API credential, and shows the others (service names) as they are; show shows all; hide leaves every value out (shapes and totals only)."
  },
  {
    name: 'server-validation',
    type: { kind: 'boolean' },
    default: 'true',
    description:
      "plan and apply: send each dashboard the plan creates or updates to the server's validate route (a dry run, one request each) and report what it refuses at the manifest's line. A server without the route is a warning."
  },
  {
    name: 'live-preview',
    type: { kind: 'boolean' },
    default: 'false',
    actionOnly: true,
    description:
      "plan on a pull_request of this repository (never a fork's): write each dashboard the plan creates or changes to the server as a preview copy, `[PR #7] <name>`, tagged to the pull request (never the stack's tag) and without alerts, linked from the comment; the next push updates the same copies, and they are deleted when the pull request closes (add `closed` to the workflow's `pull_request` types). The one thing a pull request writes to the live server. No copy is written while the plan has an error."
  },
  {
    name: 'live-preview-sql',
    type: { kind: 'boolean' },
    default: 'false',
    actionOnly: true,
    description:
      "live-preview: keep raw SQL tiles in the copies. Off, each is a markdown tile that says why: a copy runs the pull request's SQL on the live connection before it is reviewed."
  },
  {
    name: 'live-preview-ttl',
    type: { kind: 'number', min: 0, max: 365 },
    default: '7',
    description:
      "Days after its last write that a preview copy is deleted by any run of the stack (the action's, besides the copies of closed pull requests; the CLI's `sweep-previews`)."
  }
] as const satisfies readonly InputDefinition[]

/** Every input, in the order action.yml and the README list them. */
export const INPUTS: readonly InputDefinition[] = DEFINED

/** The range a number input accepts, in words: "a whole number from 1 to 64". */
export function rangeOf(type: Extract<InputType, { kind: 'number' }>): string {
  return `${type.integer ? 'a whole number' : 'a number'} from ${type.min} to ${type.max}`
}

/** The description as action.yml, the README and `--help` show it: with the range of a number. */
export function describeInput(input: InputDefinition): string {
  if (input.type.kind !== 'number') return input.description
  const range = rangeOf(input.type)
  return `${input.description} ${range[0]!.toUpperCase()}${range.slice(1)}.`
}

/** One input with its literal type, so a value read by name has the type its definition says. */
export type DefinedInput = (typeof DEFINED)[number]
export type InputName = DefinedInput['name']
