/**
 * The CLI: argv -> the same raw settings the action reads -> Config -> run(). Flags are the input
 * names (`--api-url`); secrets come only from the environment (OBSDEPLOY_API_KEY, OBSDEPLOY_KEY_ID,
 * OBSDEPLOY_KEY_SECRET), never from flags that would land in shell history.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml'
import { INPUTS, type RawSettings } from './config/inputs.js'
import { parseConfigFor, type ConfigContext } from './config/parse.js'
import { COMMANDS, type Command, type Config } from './config/types.js'
import { formatDiagnostic } from './diagnostics.js'
import { errorMessage } from './error-message.js'
import { serviceGateFor } from './github/events.js'
import { redactingLogger, SECRET_VAR_MIN_LENGTH, type Logger } from './log.js'
import { renderMarkdown, SUMMARY_LIMIT } from './report/markdown.js'
import { reportOf } from './report/input.js'
import { renderText } from './report/text.js'
import { run } from './run/run.js'
import { VERSION } from './version.js'

export interface CliIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
  env: NodeJS.ProcessEnv
  cwd: string
  isTty: boolean
}

/**
 * The inputs that are flags, typed as their inputs are. Secrets come only from the environment, the
 * command is the first argument, and vars have --var and --vars-file.
 */
const FLAGS = INPUTS.filter(
  i => !i.actionOnly && i.type.kind !== 'secret' && i.name !== 'command' && i.name !== 'vars'
)

const USAGE = `obsdeploy ${VERSION}: observability dashboards, alerts and service settings as code

Usage: obsdeploy <command> [manifest globs or folders...] [options]

Commands:
  validate   check manifests offline (no credentials, no network)
  plan       show what would change against the live API
  apply      apply the plan
  drift      exit 1 when the live state differs from the manifests
  export     write manifests for existing dashboards (--out folder)

Options (the action's inputs):
${FLAGS.map(i => `  --${i.name.padEnd(22)}${i.description}${i.default ? ` [default: ${i.default.replace(/\n/g, ', ')}]` : ''}`).join('\n')}
  --var NAME=value        a value for \${NAME} placeholders (repeatable; YAML-typed)
  --vars-file FILE        a YAML mapping of values for placeholders
  --plan FILE             apply: a plan JSON saved by an earlier plan (same as --saved-plan)
  --out PATH              plan/apply: where to write the plan JSON; export: the folder to write
  --release               open the service-update gate as a release would (service-update: on-release)
  --json                  print the result as JSON
  --summary FILE          also write the markdown report (as the job summary) to FILE
  --verbose               log requests and retries to stderr
  --no-color              no ANSI colours even on a terminal
  --tag, --name, --owned  export: select by tag (dashboards, saved searches), name glob, or this stack's ownership
  --kind KIND             export: only these kinds (Connection, Source, Webhook, SavedSearch, Dashboard; repeatable)
  -h, --help, --version

Environment: OBSDEPLOY_API_KEY (self-hosted), OBSDEPLOY_KEY_ID and OBSDEPLOY_KEY_SECRET (managed);
OBSDEPLOY_SECRET_<NAME> for each \${secret.NAME} placeholder (or OBSDEPLOY_SECRET_VARS, a YAML mapping);
any option also as OBSDEPLOY_<NAME> (e.g. OBSDEPLOY_API_URL).
Exit codes: 0 success, 1 problems found (or drift), 2 usage error.`

export async function cli(argv: readonly string[], io: CliIo): Promise<number> {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean' },
    json: { type: 'boolean' },
    verbose: { type: 'boolean' },
    'no-color': { type: 'boolean' },
    release: { type: 'boolean' },
    var: { type: 'string', multiple: true },
    'vars-file': { type: 'string' },
    plan: { type: 'string' },
    out: { type: 'string' },
    summary: { type: 'string' },
    tag: { type: 'string', multiple: true },
    name: { type: 'string', multiple: true },
    owned: { type: 'boolean' },
    kind: { type: 'string', multiple: true }
  }
  for (const i of FLAGS) {
    if (!(i.name in options))
      options[i.name] =
        i.type.kind === 'list'
          ? { type: 'string', multiple: true }
          : { type: i.type.kind === 'boolean' ? 'boolean' : 'string' }
  }
  let parsed
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true })
  } catch (e) {
    io.stderr(`obsdeploy: ${errorMessage(e)}\n\n${USAGE}\n`)
    return 2
  }
  const { values, positionals } = parsed
  if (values.version) {
    io.stdout(`${VERSION}\n`)
    return 0
  }
  const command = positionals[0]
  if (values.help || !command) {
    ;(values.help ? io.stdout : io.stderr)(`${USAGE}\n`)
    return values.help ? 0 : 2
  }
  if (!isCommand(command)) {
    io.stderr(`obsdeploy: unknown command "${command}"; one of ${COMMANDS.join(', ')}\n`)
    return 2
  }

  const raw: RawSettings = {}
  for (const i of INPUTS) {
    const fromEnv = io.env[i.env ?? `OBSDEPLOY_${i.name.toUpperCase().replace(/-/g, '_')}`]
    if (fromEnv !== undefined && i.name !== 'command') raw[i.name] = fromEnv
  }
  for (const i of FLAGS) {
    const v = values[i.name]
    if (v === undefined) continue
    raw[i.name] = Array.isArray(v) ? v.join('\n') : String(v)
  }
  const secretVars = collectSecretVars(io.env)
  if (secretVars !== undefined) raw['secret-vars'] = secretVars
  const globs = positionals.slice(1).map(p => asGlob(p, io.cwd))
  if (globs.length > 0) raw.manifests = [raw.manifests, ...globs].filter(Boolean).join('\n')
  if (values.plan !== undefined) raw['saved-plan'] = String(values.plan)
  if (values.out !== undefined && command !== 'export') raw['plan-path'] = String(values.out)
  try {
    raw.vars = await collectVars(
      values['vars-file'] as string | undefined,
      (values.var as string[] | undefined) ?? [],
      io.cwd,
      io.env.OBSDEPLOY_VARS
    )
  } catch (e) {
    io.stderr(`obsdeploy: ${errorMessage(e)}\n`)
    return 2
  }

  const secrets = [raw['api-key'], raw['key-id'], raw['key-secret']]
  const log = redactingLogger(
    redactingLogger(stderrLogger(io, Boolean(values.verbose)), secrets),
    Object.values(secretValues(raw['secret-vars'])),
    SECRET_VAR_MIN_LENGTH
  )
  const context: ConfigContext = {
    cwd: io.cwd,
    defaultStack: defaultStack(io.cwd, io.env),
    defaultPlanPath: path.join(io.cwd, '.obsdeploy', 'plan.json'),
    serviceGate: policy =>
      values.release && policy === 'on-release'
        ? { open: true, reason: 'released (--release)' }
        : serviceGateFor(undefined, policy),
    label: name => `--${name}`
  }
  /** The settings, or undefined once their problems are printed. */
  const settings = <C extends Command>(c: C): Config<C> | undefined => {
    const { config, diagnostics } = parseConfigFor(c, raw, context)
    for (const d of diagnostics) io.stderr(`obsdeploy: ${d.message}\n`)
    return config
  }

  if (command === 'export') {
    const config = settings(command)
    if (!config) return 2
    const { exportCommand } = await import('./export/command.js')
    return exportCommand(config, {
      out: values.out as string | undefined,
      tags: (values.tag as string[] | undefined) ?? [],
      names: (values.name as string[] | undefined) ?? [],
      owned: Boolean(values.owned),
      kinds: (values.kind as string[] | undefined) ?? [],
      io,
      log
    })
  }

  const config = settings(command)
  if (!config) return 2
  const result = await run(config, { log })
  const report = reportOf(config, result, { time: new Date().toISOString() })
  const color = io.isTty && !values['no-color'] && io.env.NO_COLOR === undefined
  if (values.json) {
    io.stdout(
      `${JSON.stringify({ exitCode: result.exitCode, outputs: result.outputs, diagnostics: result.diagnostics, plan: result.plan, apply: result.apply }, null, 2)}\n`
    )
  } else if (config.command === 'validate') {
    for (const d of result.diagnostics) io.stdout(`${formatDiagnostic(d)}\n`)
    const errors = result.diagnostics.filter(d => d.severity === 'error').length
    io.stderr(errors === 0 ? `valid: ${config.manifests.join(', ')}\n` : `${errors} error(s)\n`)
  } else {
    io.stdout(renderText(report, { color }))
  }
  if (values.summary !== undefined) {
    await writeFile(
      path.resolve(io.cwd, String(values.summary)),
      renderMarkdown(report, { maxLength: SUMMARY_LIMIT, measure: 'bytes' })
    )
  }
  return result.exitCode
}

/**
 * The repository's name, as the action would use it: from GITHUB_REPOSITORY, or the git remote
 * "origin" of the working directory, or else the folder's name. A different default in the CLI would
 * plan as another stack.
 */
export function defaultStack(cwd: string, env: NodeJS.ProcessEnv): string {
  const fromEnv = env.GITHUB_REPOSITORY?.split('/')[1]
  if (fromEnv) return fromEnv
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    try {
      const config = readFileSync(path.join(dir, '.git', 'config'), 'utf8')
      const origin = /\[remote "origin"\][^[]*?\burl\s*=\s*(\S+)/.exec(config)?.[1]
      const name = origin
        ?.replace(/\.git$/, '')
        .split(/[/:]/)
        .pop()
      if (name) return name
      break
    } catch {
      if (path.dirname(dir) === dir) break
    }
  }
  return path.basename(cwd) || 'default'
}

const isCommand = (arg: string): arg is Command => (COMMANDS as readonly string[]).includes(arg)

/** A folder argument means every manifest in it. */
function asGlob(arg: string, cwd: string): string {
  try {
    if (statSync(path.resolve(cwd, arg)).isDirectory()) return `${arg.replace(/\/+$/, '')}/**/*.{yaml,yml}`
  } catch {
    // not a path: a glob
  }
  return arg
}

const SECRET_ENV = /^OBSDEPLOY_SECRET_([A-Za-z_][A-Za-z0-9_]*)$/

/**
 * Secret variables: OBSDEPLOY_SECRET_VARS (a YAML mapping, like the action's `secret-vars`), and one
 * OBSDEPLOY_SECRET_<NAME> variable per secret, which wins. Undefined when there are none.
 */
function collectSecretVars(env: NodeJS.ProcessEnv): string | undefined {
  const fromMapping = env.OBSDEPLOY_SECRET_VARS
  const single = Object.entries(env).flatMap(([key, value]) => {
    const name = SECRET_ENV.exec(key)?.[1]
    return name && name !== 'VARS' && value !== undefined ? [[name, value] as const] : []
  })
  if (single.length === 0) return fromMapping
  let mapping: Record<string, unknown> = {}
  try {
    const parsed: unknown = fromMapping ? parseYaml(fromMapping) : {}
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
      mapping = parsed as Record<string, unknown>
  } catch {
    return fromMapping // not YAML: the settings say so
  }
  return stringifyYaml({ ...mapping, ...Object.fromEntries(single) })
}

/** The values of a secret-vars mapping, for redaction (nothing when it does not parse). */
function secretValues(text: string | undefined): Record<string, string> {
  try {
    const parsed: unknown = text ? parseYaml(text) : {}
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {}
    return Object.fromEntries(
      Object.entries(parsed).flatMap(([k, v]) =>
        v !== null && typeof v !== 'object' ? [[k, String(v)]] : []
      )
    )
  } catch {
    return {}
  }
}

async function collectVars(
  file: string | undefined,
  pairs: readonly string[],
  cwd: string,
  fromEnv: string | undefined
): Promise<string | undefined> {
  const vars: Record<string, unknown> = {}
  if (fromEnv) Object.assign(vars, parseYaml(fromEnv) as Record<string, unknown>)
  if (file) {
    const parsed: unknown = parseYaml(await readFile(path.resolve(cwd, file), 'utf8'))
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new Error(`--vars-file ${file}: must be a YAML mapping of NAME: value`)
    Object.assign(vars, parsed)
  }
  for (const pair of pairs) {
    const eq = pair.indexOf('=')
    if (eq <= 0) throw new Error(`--var ${pair}: expected NAME=value`)
    // YAML-typed, so `--var threshold=10` is a number, as it would be in a vars file.
    vars[pair.slice(0, eq)] = parseYaml(pair.slice(eq + 1))
  }
  return Object.keys(vars).length > 0 ? stringifyYaml(vars) : undefined
}

function stderrLogger(io: CliIo, verbose: boolean): Logger {
  return {
    info: m => io.stderr(`${m}\n`),
    warn: m => io.stderr(`warning: ${m}\n`),
    debug: m => (verbose ? io.stderr(`${m}\n`) : undefined)
  }
}
