/**
 * Every setting, parsed once into one typed Config. The action reads them from `INPUT_*`, the CLI from
 * flags and environment variables; both hand this module the same raw map, keyed by input name.
 * INPUTS is the one list of settings: action.yml, the README table and the CLI help are checked
 * against it.
 */
import path from 'node:path'
import { parse as parseYaml } from 'yaml'
import { checkApiUrl, isUuid } from './api/address.js'
import { diagnostic, type Diagnostic } from './diagnostics.js'
import { errorMessage } from './error-message.js'
import { splitPatterns } from './manifest/files.js'

export const COMMANDS = ['validate', 'plan', 'apply', 'drift', 'export'] as const
export type Command = (typeof COMMANDS)[number]
export const MODES = ['self-hosted', 'managed'] as const
export type Mode = (typeof MODES)[number]
export const SERVICE_UPDATE = ['on-release', 'always', 'never'] as const
export type ServiceUpdatePolicy = (typeof SERVICE_UPDATE)[number]
export const MANAGED_PREFIXES = ['observability', 'clickstack'] as const

export const DEFAULT_MANAGED_API_URL = 'https://api.clickhouse.cloud'
export const DEFAULT_MANIFESTS = 'observability/**/*.yaml\nobservability/**/*.yml'

export interface InputDefinition {
  name: string
  description: string
  /** The default as action.yml states it; `undefined` means none. */
  default?: string
  /** Registered with the runner as a secret and never printed. */
  secret?: boolean
  /** Environment variable the CLI reads it from (secrets only come from the environment). */
  env?: string
  /** Not a CLI flag (GitHub-only). */
  actionOnly?: boolean
}

export const INPUTS: readonly InputDefinition[] = [
  { name: 'command', default: 'plan', description: 'What to do: validate, plan, apply or drift.' },
  {
    name: 'manifests',
    default: DEFAULT_MANIFESTS,
    description: 'Manifest files: globs separated by newlines or commas; `!glob` excludes.'
  },
  { name: 'mode', default: 'self-hosted', description: 'API deployment mode: self-hosted or managed.' },
  {
    name: 'api-url',
    description: `Self-hosted API base URL (e.g. https://hyperdx.example.com:8000), or the managed cloud base URL (default for managed: ${DEFAULT_MANAGED_API_URL}). Must be https except on loopback.`
  },
  {
    name: 'api-key',
    secret: true,
    env: 'OBSDEPLOY_API_KEY',
    description: 'Self-hosted personal API access key (Bearer). Not the ingestion key.'
  },
  {
    name: 'key-id',
    secret: true,
    env: 'OBSDEPLOY_KEY_ID',
    description: 'Managed mode: API key id (Basic auth).'
  },
  {
    name: 'key-secret',
    secret: true,
    env: 'OBSDEPLOY_KEY_SECRET',
    description: 'Managed mode: API key secret (Basic auth).'
  },
  { name: 'organization-id', description: 'Managed mode: organization UUID.' },
  { name: 'service-id', description: 'Managed mode: service UUID.' },
  {
    name: 'managed-prefix',
    default: 'observability',
    description:
      'Managed mode: path segment of the observability resources, observability (the contract) or clickstack (the public cloud).'
  },
  {
    name: 'stack',
    description:
      'Ownership scope: resources are tagged with it, and only its own are updated or pruned. Default: the repository name.'
  },
  {
    name: 'prune',
    default: 'false',
    description: 'Delete owned dashboards and alerts that are no longer in the manifests.'
  },
  {
    name: 'service-update',
    default: 'on-release',
    description:
      'When ServiceSettings are applied: on-release (a published release or a tag push), always, or never.'
  },
  {
    name: 'comment-on-pr',
    default: 'true',
    actionOnly: true,
    description: 'Post the plan as one sticky pull request comment.'
  },
  {
    name: 'github-token',
    default: '${{ github.token }}',
    secret: true,
    actionOnly: true,
    description: 'Token for the pull request comment (needs `pull-requests: write`).'
  },
  {
    name: 'concurrency',
    default: '4',
    description: 'Parallel requests during apply (one at a time per dashboard).'
  },
  { name: 'ui-url', description: 'Base URL of the web UI, for links in reports.' },
  {
    name: 'allow-insecure-http',
    default: 'false',
    description: 'Allow a plain http api-url that is not loopback (credentials travel unencrypted).'
  },
  {
    name: 'rate-limit',
    description:
      'Client-side pacing as requests/window, e.g. 100/60s or 10/10s, or off. Default: 100/60s self-hosted, 10/10s managed.'
  },
  { name: 'request-timeout', default: '30', description: 'Timeout of one HTTP request, in seconds.' },
  { name: 'retry-budget', default: '120', description: 'Total time spent retrying one request, in seconds.' },
  {
    name: 'saved-plan',
    description:
      'apply: path of a plan JSON from an earlier plan run; refused if the live state or the manifests changed since.'
  },
  {
    name: 'plan-path',
    description:
      'Where to write the plan JSON (the plan-file output). Default: a file in RUNNER_TEMP, or .obsdeploy/plan.json.'
  },
  { name: 'vars', description: 'YAML mapping of values for ${NAME} placeholders in manifests.' },
  {
    name: 'check-queries',
    default: 'false',
    description:
      'plan: run each changed tile query over the last hour, and count how often each changed alert would have fired in 24 hours (self-hosted).'
  }
]

export const OUTPUTS: ReadonlyArray<{ name: string; description: string }> = [
  {
    name: 'has-changes',
    description:
      'true when the live state differs from the manifests: something to apply, or service settings that wait for a release.'
  },
  { name: 'creates', description: 'Number of resources the plan creates.' },
  { name: 'updates', description: 'Number of resources the plan updates or replaces.' },
  { name: 'deletes', description: 'Number of resources the plan deletes.' },
  { name: 'plan-file', description: 'Path of the plan as JSON (schema/plan.schema.json).' },
  {
    name: 'comment-url',
    description: 'URL of the sticky pull request comment, when one was posted or updated.'
  }
]

export type RawSettings = Partial<Record<string, string>>

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

export interface Config {
  command: Command
  cwd: string
  manifests: string[]
  mode: Mode
  apiUrl: string
  auth: Auth
  organizationId?: string
  serviceId?: string
  managedPrefix: (typeof MANAGED_PREFIXES)[number]
  stack: string
  prune: boolean
  serviceUpdate: ServiceUpdatePolicy
  serviceGate: ServiceGate
  concurrency: number
  uiUrl?: string
  allowInsecureHttp: boolean
  rateLimit: RateLimit | null
  requestTimeoutMs: number
  retryBudgetMs: number
  savedPlan?: string
  planPath: string
  vars: Record<string, unknown>
  checkQueries: boolean
  commentOnPr: boolean
}

export interface ConfigContext {
  cwd: string
  /** Default stack, e.g. the repository name. */
  defaultStack: string
  /** Default plan JSON path. */
  defaultPlanPath: string
  /** The gate for ServiceSettings, decided by the entry point from the event (see github/events.ts). */
  serviceGate: (policy: ServiceUpdatePolicy) => ServiceGate
  /** How a setting is called where the user wrote it: "input `mode`" or "--mode". */
  label: (name: string) => string
}

const DEFAULT_RATE_LIMITS: Record<Mode, RateLimit> = {
  // FACTS.md: 100 requests a minute per key (self-hosted), 10 per 10 seconds per key (managed).
  'self-hosted': { requests: 100, windowMs: 60_000 },
  managed: { requests: 10, windowMs: 10_000 }
}

const STACK_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$/

export function parseConfig(
  raw: RawSettings,
  ctx: ConfigContext
): { config?: Config; diagnostics: Diagnostic[] } {
  const problems: Diagnostic[] = []
  const fail = (name: string, message: string) =>
    problems.push(diagnostic('config', 'error', `${ctx.label(name)}: ${message}`))
  const get = (name: string): string | undefined => {
    const v = raw[name]?.trim()
    return v === undefined || v === '' ? undefined : v
  }
  const oneOf = <T extends string>(name: string, values: readonly T[], fallback: T): T => {
    const v = get(name) ?? fallback
    if ((values as readonly string[]).includes(v)) return v as T
    fail(name, `must be one of ${values.join(', ')}, got "${v}"`)
    return fallback
  }
  const bool = (name: string, fallback: boolean): boolean => {
    const v = get(name)
    if (v === undefined) return fallback
    if (/^(true|yes|1|on)$/i.test(v)) return true
    if (/^(false|no|0|off)$/i.test(v)) return false
    fail(name, `must be true or false, got "${v}"`)
    return fallback
  }
  const number = (name: string, fallback: number, min: number, max: number): number => {
    const v = get(name)
    if (v === undefined) return fallback
    const n = Number(v)
    if (!Number.isFinite(n) || n < min || n > max) {
      fail(name, `must be a number between ${min} and ${max}, got "${v}"`)
      return fallback
    }
    return n
  }

  const command = oneOf('command', COMMANDS, 'plan')
  const mode = oneOf('mode', MODES, 'self-hosted')
  const manifests = splitPatterns(get('manifests') ?? DEFAULT_MANIFESTS)
  const needsApi = command !== 'validate'
  const allowInsecureHttp = bool('allow-insecure-http', false)

  let apiUrl = get('api-url') ?? (mode === 'managed' ? DEFAULT_MANAGED_API_URL : '')
  if (needsApi) {
    if (!apiUrl)
      fail(
        'api-url',
        'is required in self-hosted mode (the API base URL, e.g. https://hyperdx.example.com:8000)'
      )
    else {
      const checked = checkApiUrl(apiUrl, allowInsecureHttp)
      if (checked.error) fail('api-url', checked.error)
      else apiUrl = checked.url!
    }
  }

  let auth: Auth = { kind: 'none' }
  const organizationId = get('organization-id')
  const serviceId = get('service-id')
  if (needsApi && mode === 'self-hosted') {
    const apiKey = get('api-key')
    if (!apiKey)
      fail('api-key', 'is required in self-hosted mode: a personal API access key (team settings, API keys)')
    else auth = { kind: 'bearer', apiKey }
  }
  if (mode === 'managed') {
    // UUIDs are checked before any request (CONTRACT.md: organizationId and serviceId are UUIDs).
    for (const [name, value] of [
      ['organization-id', organizationId],
      ['service-id', serviceId]
    ] as const) {
      if (value === undefined) {
        if (needsApi) fail(name, 'is required in managed mode (a UUID)')
      } else if (!isUuid(value)) fail(name, `must be a UUID, got "${value}"`)
    }
    if (needsApi) {
      const keyId = get('key-id')
      const keySecret = get('key-secret')
      if (!keyId || !keySecret) {
        fail(
          !keyId ? 'key-id' : 'key-secret',
          'managed mode needs key-id and key-secret (an API key from the cloud console)'
        )
      } else auth = { kind: 'basic', keyId, keySecret }
    }
  }

  const stack = get('stack') ?? ctx.defaultStack
  if (!STACK_PATTERN.test(stack)) {
    fail(
      'stack',
      `must be 1-100 letters, digits, '.', '_', '-' or '/', starting with a letter or digit, got "${stack}"`
    )
  }

  const serviceUpdate = oneOf('service-update', SERVICE_UPDATE, 'on-release')
  const rateLimit = parseRateLimit(get('rate-limit'), mode, m => fail('rate-limit', m))
  const uiUrl = get('ui-url')
  if (uiUrl !== undefined && !/^https?:\/\//.test(uiUrl))
    fail('ui-url', `must be an http(s) URL, got "${uiUrl}"`)

  let vars: Record<string, unknown> = {}
  const varsText = get('vars')
  if (varsText !== undefined) {
    try {
      const parsed: unknown = parseYaml(varsText, { maxAliasCount: 10 })
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
        fail('vars', 'must be a YAML mapping of NAME: value')
      else vars = parsed as Record<string, unknown>
    } catch (e) {
      fail('vars', `is not valid YAML: ${errorMessage(e).split('\n')[0]}`)
    }
  }

  const config: Config = {
    command,
    cwd: ctx.cwd,
    manifests,
    mode,
    apiUrl,
    auth,
    organizationId,
    serviceId,
    managedPrefix: oneOf('managed-prefix', MANAGED_PREFIXES, 'observability'),
    stack,
    prune: bool('prune', false),
    serviceUpdate,
    serviceGate: ctx.serviceGate(serviceUpdate),
    concurrency: Math.floor(number('concurrency', 4, 1, 64)),
    uiUrl: uiUrl?.replace(/\/+$/, ''),
    allowInsecureHttp,
    rateLimit,
    requestTimeoutMs: number('request-timeout', 30, 0.1, 600) * 1000,
    retryBudgetMs: number('retry-budget', 120, 0, 3600) * 1000,
    savedPlan: get('saved-plan'),
    planPath: path.resolve(ctx.cwd, get('plan-path') ?? ctx.defaultPlanPath),
    vars,
    checkQueries: bool('check-queries', false),
    commentOnPr: bool('comment-on-pr', true)
  }
  return problems.length > 0 ? { diagnostics: problems } : { config, diagnostics: [] }
}

/** "100/60s", "10/10s", "600/1m" or "off". */
export function parseRateLimit(
  text: string | undefined,
  mode: Mode,
  fail: (message: string) => void
): RateLimit | null {
  if (text === undefined) return DEFAULT_RATE_LIMITS[mode]
  if (/^(off|none|0)$/i.test(text)) return null
  const m = /^(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?$/.exec(text)
  if (!m || Number(m[1]) < 1 || Number(m[2]) <= 0) {
    fail(`must look like 100/60s (requests per window) or off, got "${text}"`)
    return DEFAULT_RATE_LIMITS[mode]
  }
  const unit = m[3] ?? 's'
  const windowMs = Number(m[2]) * (unit === 'ms' ? 1 : unit === 'm' ? 60_000 : 1000)
  return { requests: Number(m[1]), windowMs }
}
