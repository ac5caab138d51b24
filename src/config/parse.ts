/**
 * Raw settings -> one typed Config. The action reads them from `INPUT_*`, the CLI from flags and
 * environment variables; both hand this module the same raw map, keyed by input name. Each value is
 * read by its input's type (inputs.ts); what depends on several inputs (the API address, credentials,
 * the stack) is checked here.
 */
import path from 'node:path'
import { diagnostic, type Diagnostic } from '../diagnostics.js'
import { describeValue, errorMessage } from '../error-message.js'
import { splitPatterns } from '../manifest/files.js'
import { apiPathOf, checkApiUrl, isUuid } from './api-url.js'
import {
  DEFAULT_MANAGED_API_URL,
  INPUTS,
  rangeOf,
  type DefinedInput,
  type InputName,
  type InputType,
  type RawSettings
} from './inputs.js'
import { parseRateLimit } from './rate-limit.js'
import { STACK_PATTERN, STACK_PATTERN_TEXT } from './stack-file.js'
import type {
  ActionCommand,
  Auth,
  Command,
  Config,
  RunCommand,
  ServiceGate,
  ServiceUpdatePolicy
} from './types.js'
import { yamlLibrary } from '../yaml-library.js'

export interface ConfigContext {
  cwd: string
  /** Default stack, e.g. the repository name. */
  defaultStack: string
  /** Default plan JSON path. */
  defaultPlanPath: string
  /** The gate for ServiceSettings, decided by the entry point from the event (see github/events.ts). */
  serviceGate: (policy: ServiceUpdatePolicy) => ServiceGate
  /** How a setting is called where the user wrote it: "input `mode`" or "--mode" (OBSDEPLOY_API_KEY for a secret). */
  label: (name: string) => string
  /** How to set it to a value: "`mode: managed`" or "--mode managed". */
  suggest?: (name: string, value: string) => string
}

export interface ParsedConfig<C extends Command> {
  config?: Config<C>
  diagnostics: Diagnostic[]
}

/** The action's settings: the `command` input says what run() does. */
export function parseActionConfig(raw: RawSettings, ctx: ConfigContext): ParsedConfig<ActionCommand> {
  return parseSettings(raw, ctx, get => get('command'))
}

/** The settings of a run() (the action's, but for `sync`, which its entry point runs on its own). */
export function parseConfig(raw: RawSettings, ctx: ConfigContext): ParsedConfig<RunCommand> {
  const parsed = parseActionConfig(raw, ctx)
  if (parsed.config?.command !== 'sync') return parsed as ParsedConfig<RunCommand>
  const refused = diagnostic('config', 'error', 'command sync is run by the entry points, not by run()')
  return { diagnostics: [...parsed.diagnostics, refused] }
}

/** The CLI's: the command is its first argument, and may be `export`, which the CLI runs itself. */
export function parseConfigFor<C extends Command>(
  command: C,
  raw: RawSettings,
  ctx: ConfigContext
): ParsedConfig<C> {
  return parseSettings(raw, ctx, () => command)
}

/** A value of an input as its type makes it. */
type ValueOf<T extends InputType> = T extends { kind: 'boolean' }
  ? boolean
  : T extends { kind: 'number' }
    ? number
    : T extends { kind: 'enum'; values: readonly (infer V)[] }
      ? V
      : T extends { kind: 'list' }
        ? string[]
        : string
type InputOf<N extends InputName> = Extract<DefinedInput, { name: N }>
/** Inputs with a default always have a value. */
type InputValue<N extends InputName> =
  InputOf<N> extends { default: string }
    ? ValueOf<InputOf<N>['type']>
    : ValueOf<InputOf<N>['type']> | undefined
type Read = <N extends InputName>(name: N) => InputValue<N>

const BY_NAME = new Map(INPUTS.map(input => [input.name, input]))

/** How the parse reads a setting and speaks of it: each problem names the setting as the user wrote it. */
interface Reading {
  get: Read
  given: (name: InputName) => boolean
  fail: (name: InputName, message: string) => void
  note: (name: InputName, message: string) => void
  /** How a setting is called where the user wrote it (ConfigContext.label). */
  label: (name: string) => string
  /** How to set it to a value (ConfigContext.suggest). */
  suggest: (name: string, value: string) => string
}

function parseSettings<C extends Command>(
  raw: RawSettings,
  ctx: ConfigContext,
  commandOf: (get: Read) => C
): ParsedConfig<C> {
  const problems: Diagnostic[] = []
  const notes: Diagnostic[] = []
  const r = reading(raw, ctx, problems, notes)
  const { get, fail } = r

  // Read in this order: it is the order of the problems reported.
  const command = commandOf(get)
  const mode = get('mode')
  const manifests = get('manifests')
  const needsApi = command !== 'validate'
  const allowInsecureHttp = get('allow-insecure-http')
  const { apiUrl, organizationId, serviceId } = readApiAddress(r, mode, needsApi, allowInsecureHttp)
  const auth = readAuth(r, mode, needsApi, { organizationId, serviceId })
  const { stack, stacks } = readStack(r, ctx.defaultStack)
  const serviceUpdate = get('service-update')
  const rateLimit = parseRateLimit(get('rate-limit'), mode, m => fail('rate-limit', m))
  const uiUrl = get('ui-url')
  if (uiUrl !== undefined && !/^https?:\/\//.test(uiUrl))
    fail('ui-url', `must be an http(s) URL, got "${uiUrl}"`)
  const vars = readVars(r)
  const secretVars = readSecretVars(r)

  const config: Config<C> = {
    command,
    cwd: ctx.cwd,
    manifests,
    mode,
    apiUrl,
    auth,
    organizationId,
    serviceId,
    managedPrefix: get('managed-prefix'),
    stack,
    stacks,
    prune: get('prune'),
    maskEmails: get('mask-emails'),
    serviceUpdate,
    serviceGate: ctx.serviceGate(serviceUpdate),
    concurrency: get('concurrency'),
    uiUrl: uiUrl?.replace(/\/+$/, ''),
    allowInsecureHttp,
    rateLimit,
    requestTimeoutMs: get('request-timeout') * 1000,
    retryBudgetMs: get('retry-budget') * 1000,
    connectBudgetMs: get('connect-budget') * 1000,
    savedPlan: get('saved-plan'),
    planPath: path.resolve(ctx.cwd, get('plan-path') ?? ctx.defaultPlanPath),
    vars,
    secretVars,
    checkQueries: get('check-queries'),
    previewValues: get('preview-values'),
    serverValidation: get('server-validation'),
    livePreview: {
      write: get('live-preview'),
      sql: get('live-preview-sql'),
      ttlMs: get('live-preview-ttl') * 24 * 3600 * 1000
    },
    commentOnPr: get('comment-on-pr'),
    labels: get('labels'),
    policySource: get('policy-source') || undefined
  }
  return problems.length > 0 ? { diagnostics: problems } : { config, diagnostics: notes }
}

/** Reads the raw settings by their inputs' types: problems (and notes) name each setting as the user wrote it. */
function reading(raw: RawSettings, ctx: ConfigContext, problems: Diagnostic[], notes: Diagnostic[]): Reading {
  const fail = (name: InputName, message: string) =>
    problems.push(diagnostic('config', 'error', `${ctx.label(name)}: ${message}`))
  /** The value as its type reads it; the default when it is absent or invalid (an invalid one is reported). */
  const get: Read = name => {
    const input = BY_NAME.get(name)!
    const text = raw[name]?.trim()
    if (text !== undefined && text !== '') {
      const read = readValue(input.type, text)
      if ('value' in read) return read.value as InputValue<typeof name>
      fail(name, read.error)
    }
    const fallback = input.default === undefined ? undefined : readValue(input.type, input.default)
    return (fallback && 'value' in fallback ? fallback.value : undefined) as InputValue<typeof name>
  }
  return {
    get,
    given: name => Boolean(raw[name]?.trim()),
    fail,
    note: (name, message) => notes.push(diagnostic('config', 'warning', `${ctx.label(name)}: ${message}`)),
    label: ctx.label,
    suggest: ctx.suggest ?? ((name: string, value: string) => `\`${name}: ${value}\``)
  }
}

/**
 * The API's address, checked when a command needs it. A path of the API's own (`/api/v2`, a managed service's) is
 * dropped with a note, and the organization and service ids it names are taken as theirs.
 */
function readApiAddress(
  r: Reading,
  mode: Config['mode'],
  needsApi: boolean,
  allowInsecureHttp: boolean
): Pick<Config, 'apiUrl' | 'organizationId' | 'serviceId'> {
  const { get, fail, note, suggest } = r
  let apiUrl = get('api-url') ?? (mode === 'managed' ? DEFAULT_MANAGED_API_URL : '')
  let organizationId = get('organization-id')
  let serviceId = get('service-id')
  if (!needsApi) return { apiUrl, organizationId, serviceId }
  if (!apiUrl) {
    fail(
      'api-url',
      'is required in self-hosted mode (the API base URL, e.g. https://hyperdx.example.com:8000)'
    )
    return { apiUrl, organizationId, serviceId }
  }
  const checked = checkApiUrl(apiUrl, allowInsecureHttp)
  if (checked.error) {
    fail('api-url', checked.error)
    return { apiUrl, organizationId, serviceId }
  }
  apiUrl = checked.url!
  const found = apiPathOf(apiUrl)
  if (found && found.mode !== mode) {
    fail(
      'api-url',
      `ends in ${found.dropped}, a path of the ${found.mode} API, but the mode is ${mode}: did you mean ${suggest('mode', found.mode)}? The base URL is the server's address (${found.base}); obsdeploy adds the API's path itself`
    )
  } else if (found) {
    // Stripped rather than refused: the intent is plain, and it is the address the server's docs show.
    apiUrl = found.base
    const ids = [
      ['organization-id', found.organizationId, organizationId],
      ['service-id', found.serviceId, serviceId]
    ] as const
    for (const [name, fromUrl, input] of ids) {
      if (fromUrl !== undefined && input !== undefined && fromUrl !== input)
        fail(name, `is ${input}, but api-url names ${fromUrl}: drop the path from api-url`)
    }
    organizationId ??= found.organizationId
    serviceId ??= found.serviceId
    note(
      'api-url',
      `ends in ${found.dropped}: dropped it, because the base URL is the server's address and obsdeploy adds the API's path itself. Pass ${suggest('api-url', found.base)} to silence this note`
    )
  }
  return { apiUrl, organizationId, serviceId }
}

/** The credential the mode expects (and the managed ids it goes with), or why it is missing. */
function readAuth(
  r: Reading,
  mode: Config['mode'],
  needsApi: boolean,
  ids: Pick<Config, 'organizationId' | 'serviceId'>
): Auth {
  const { get, given, fail, label, suggest } = r
  let auth: Auth = { kind: 'none' }
  if (needsApi && mode === 'self-hosted') {
    const apiKey = get('api-key')
    if (!apiKey) {
      const managedKeys = given('key-id') || given('key-secret')
      fail(
        'api-key',
        `is required in self-hosted mode: a personal API access key (team settings, API keys)${managedKeys ? `. ${label('key-id')} and ${label('key-secret')} are managed-mode credentials: did you mean ${suggest('mode', 'managed')}?` : ''}`
      )
    } else auth = { kind: 'bearer', apiKey }
  }
  if (mode === 'managed') {
    // UUIDs are checked before any request (CONTRACT.md: organizationId and serviceId are UUIDs).
    for (const [name, value] of [
      ['organization-id', ids.organizationId],
      ['service-id', ids.serviceId]
    ] as const) {
      if (value === undefined) {
        if (needsApi) fail(name, 'is required in managed mode (a UUID)')
      } else if (!isUuid(value)) fail(name, `must be a UUID, got "${value}"`)
    }
    if (needsApi) {
      const keyId = get('key-id')
      const keySecret = get('key-secret')
      if (!keyId || !keySecret) {
        const selfHostedKey = given('api-key')
        const [missing, other] = !keyId
          ? (['key-id', 'key-secret'] as const)
          : (['key-secret', 'key-id'] as const)
        fail(
          missing,
          `is required in managed mode, with ${label(other)} (an API key id and secret from the cloud console)${selfHostedKey ? `. ${label('api-key')} is a self-hosted credential: did you mean ${suggest('mode', 'self-hosted')}?` : ''}`
        )
      } else auth = { kind: 'basic', keyId, keySecret }
    }
  }
  if (!needsApi) {
    // Validate never calls the API, but a credential it is given keys the masks of emails (mask-email.ts),
    // so a person reads as in the plan; without one they are keyed at random.
    const apiKey = get('api-key')
    const keyId = get('key-id')
    const keySecret = get('key-secret')
    if (mode === 'self-hosted' && apiKey) auth = { kind: 'bearer', apiKey }
    if (mode === 'managed' && keyId && keySecret) auth = { kind: 'basic', keyId, keySecret }
  }
  return auth
}

/** With stacks, `stack` names the stacks to run; each stack's own name is in its stack.yaml. */
function readStack(r: Reading, defaultStack: string): Pick<Config, 'stack' | 'stacks'> {
  const { get, fail } = r
  const stacks = get('stacks') ? { only: splitPatterns(get('stack') ?? '') } : undefined
  const stack = stacks ? defaultStack : (get('stack') ?? defaultStack)
  for (const name of stacks?.only ?? [stack]) {
    if (!STACK_PATTERN.test(name)) fail('stack', `must be ${STACK_PATTERN_TEXT}, got "${name}"`)
  }
  return { stack, stacks }
}

/** `vars`: a YAML mapping of NAME: value. */
function readVars(r: Reading): Record<string, unknown> {
  const varsText = r.get('vars')
  if (varsText === undefined) return {}
  const { parse } = yamlLibrary()
  try {
    const parsed: unknown = parse(varsText, { maxAliasCount: 10 })
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>
    r.fail('vars', 'must be a YAML mapping of NAME: value')
  } catch (e) {
    r.fail('vars', `is not valid YAML: ${errorMessage(e).split('\n')[0]}`)
  }
  return {}
}

/** `secret-vars`: a YAML mapping of NAME: text. Messages name the variable, never its value. */
function readSecretVars(r: Reading): Record<string, string> {
  const secretVars: Record<string, string> = {}
  const secretText = r.get('secret-vars')
  if (secretText === undefined || secretText.trim() === '') return secretVars
  const { parse } = yamlLibrary()
  try {
    const parsed: unknown = parse(secretText, { maxAliasCount: 10 })
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      r.fail('secret-vars', 'must be a YAML mapping of NAME: value')
    else
      for (const [name, value] of Object.entries(parsed)) {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
          r.fail('secret-vars', `"${name}" is not a valid name (letters, digits and _)`)
        else if (value === null || typeof value === 'object')
          r.fail(
            'secret-vars',
            `${name} must be a text value, not a ${value === null ? 'null' : 'mapping or list'}`
          )
        else secretVars[name] = String(value)
      }
  } catch {
    r.fail('secret-vars', 'is not valid YAML (its text is not shown: it holds secrets)')
  }
  return secretVars
}

/** One value by its input's type, or why it is not one. */
function readValue(type: InputType, text: string): { value: unknown } | { error: string } {
  switch (type.kind) {
    case 'boolean':
      if (/^(true|yes|1|on)$/i.test(text)) return { value: true }
      if (/^(false|no|0|off)$/i.test(text)) return { value: false }
      return { error: `must be true or false, got "${text}"` }
    case 'number': {
      // Decimal notation only: Number() would also take "", "0x10", "1e3" and " 4 ".
      const n = /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(text) ? Number(text) : NaN
      if (Number.isNaN(n) || n < type.min || n > type.max || (type.integer && !Number.isInteger(n)))
        return { error: `must be ${rangeOf(type)}, got ${describeValue(text)}` }
      return { value: n }
    }
    case 'enum':
      if (type.values.includes(text)) return { value: text }
      if (type.refused && Object.hasOwn(type.refused, text)) return { error: type.refused[text]! }
      return { error: `must be one of ${type.values.join(', ')}, got "${text}"` }
    case 'list':
      return { value: splitPatterns(text) }
    case 'string':
    case 'secret':
      return { value: text }
  }
}
