/**
 * The CLI: argv -> the same raw settings the action reads -> Config -> run(). Flags are the input
 * names (`--api-url`); secrets come only from the environment (OBSDEPLOY_API_KEY, OBSDEPLOY_KEY_ID,
 * OBSDEPLOY_KEY_SECRET), never from flags that would land in shell history.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { statSync } from 'node:fs'
import path from 'node:path'
import { isCommand, parseCliArgs, type OptionValues, type ParsedArgs } from './cli/args.js'
import { readLocalPolicySource } from './cli/policy-source.js'
import { commandHelp, INPUT_FLAGS, SECRET_ENV, shortUsage, usage } from './cli/help.js'
import { INPUTS, type RawSettings } from './config/inputs.js'
import { defaultStackOf } from './config/default-stack.js'
import { parseConfigFor, type ConfigContext } from './config/parse.js'
import { COMMANDS, type Command, type Config, type RunCommand } from './config/types.js'
import { formatDiagnostic } from './diagnostics.js'
import { errorMessage } from './error-message.js'
import { serviceGateFor } from './github/events.js'
import { printable, redactingLogger, SECRET_VAR_MIN_LENGTH, type Logger } from './log.js'
import { didYouMean } from './manifest/issues.js'
import { renderMarkdown, renderStacksMarkdown, SUMMARY_LIMIT } from './report/markdown.js'
import { reportOf, stacksReportOf } from './report/input.js'
import { progressReporter } from './report/progress.js'
import { renderStacksText, renderText } from './report/text.js'
import { livePreviewText } from './report/live-preview.js'
import { run } from './run/run.js'
import type { RunResult } from './run/types.js'
import { VERSION } from './version.js'
import { yamlLibrary } from './yaml-library.js'

export interface CliIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
  env: NodeJS.ProcessEnv
  cwd: string
  /** stdout is a terminal: colour. */
  isTty: boolean
  /** stderr is a terminal: live progress there (default: isTty). */
  isStderrTty?: boolean
}

export async function cli(argv: readonly string[], io: CliIo): Promise<number> {
  const asked = commandOf(parseCliArgs(argv), io)
  if ('exit' in asked) return asked.exit
  const { command, values, positionals } = asked

  let raw: RawSettings
  try {
    raw = await rawSettingsOf(command, values, positionals, io)
  } catch (e) {
    io.stderr(`obsdeploy ${command}: ${printable(errorMessage(e))}\n`)
    return 2
  }

  const secrets = [raw['api-key'], raw['key-id'], raw['key-secret']]
  const log = redactingLogger(
    redactingLogger(stderrLogger(io, Boolean(values.verbose)), secrets),
    Object.values(secretValues(raw['secret-vars'])),
    SECRET_VAR_MIN_LENGTH
  )
  const settings = configReader(raw, values, io)

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
      force: Boolean(values.force),
      io,
      log
    })
  }

  if (command === 'sweep-previews') return sweepPreviewsCommand(settings(command), values, io, log)
  if (command === 'sync') return syncCommand(settings(command), values, io, log)

  const config = settings(command)
  if (!config) return 2
  const result = await runWithProgress(config, values, io, log)
  await printReport(config, result, values, io)
  return result.exitCode
}

/**
 * `obsdeploy sync`: each stack's manifests rewritten to say what the server holds. Without `--write`, the diff it
 * would make; with it, the files written. Either way, what the plan holds afterwards.
 */
async function syncCommand(
  config: Config<'sync'> | undefined,
  values: OptionValues,
  io: CliIo,
  log: Logger
): Promise<number> {
  if (!config) return 2
  const write = Boolean(values.write)
  const { runSync } = await import('./run/sync.js')
  const result = await runSync(config, { write, deps: { log } })
  const problems = [...result.diagnostics, ...result.stacks.flatMap(s => s.diagnostics)]
  for (const d of problems) io.stderr(`obsdeploy sync: ${printable(formatDiagnostic(d))}\n`)
  if (values.json) {
    const stacks = result.stacks.map(s => ({
      stack: s.stack,
      written: s.written,
      files: s.outcome.files,
      records: s.outcome.records,
      left: s.outcome.left,
      after: s.after.map(c => ({
        address: c.address,
        action: c.action,
        ...(c.deferred ? { deferred: c.deferred } : {})
      }))
    }))
    io.stdout(`${JSON.stringify({ exitCode: result.exitCode, diagnostics: problems, stacks }, null, 2)}\n`)
  } else {
    const { syncText } = await import('./report/sync.js')
    const { unifiedDiff } = await import('./unified-diff.js')
    for (const s of result.stacks) io.stdout(syncText(s, unifiedDiff, s.written))
  }
  return result.exitCode
}

/**
 * `obsdeploy sweep-previews`: the stack's live preview copies deleted, those of `--pr N`, or else those last written
 * more than `--live-preview-ttl` days ago (the CLI cannot ask GitHub which pull requests are closed; the action does).
 */
async function sweepPreviewsCommand(
  config: Config<'sweep-previews'> | undefined,
  values: OptionValues,
  io: CliIo,
  log: Logger
): Promise<number> {
  if (!config) return 2
  const given = (values.pr as string[] | undefined) ?? []
  const numbers = given.map(Number)
  const bad = given.find((_, i) => !Number.isSafeInteger(numbers[i]) || numbers[i]! < 1)
  if (bad !== undefined) {
    io.stderr(
      `obsdeploy sweep-previews: --pr must be a pull request number, got "${printable(bad)}"\n${shortUsage('sweep-previews')}\n`
    )
    return 2
  }
  const { sweepPreviews } = await import('./run/preview-sweep.js')
  const swept = await sweepPreviews(config, { log }, numbers.length > 0 ? numbers : undefined)
  for (const d of swept.diagnostics)
    io.stderr(`obsdeploy sweep-previews: ${printable(formatDiagnostic(d))}\n`)
  if (values.json)
    io.stdout(
      `${JSON.stringify({ exitCode: swept.exitCode, diagnostics: swept.diagnostics, stacks: swept.stacks }, null, 2)}\n`
    )
  else
    for (const { stack, livePreview } of swept.stacks) {
      const lines = livePreviewText(livePreview, config.uiUrl)
      io.stdout(
        `stack ${printable(stack)}: ${
          lines.length > 1
            ? lines
                .slice(1)
                .map(l => l.trim())
                .join('\n  ')
            : 'no preview copy to delete'
        }\n`
      )
    }
  return swept.exitCode
}

/** The command asked for, or the exit code once `--version`, `--help` or what is wrong with argv is printed. */
function commandOf(
  parsed: ParsedArgs,
  io: CliIo
): { exit: number } | { command: Command; values: OptionValues; positionals: string[] } {
  if (!parsed.ok) {
    // One line that says what is wrong, and how to call that command: not the whole manual.
    io.stderr(
      `obsdeploy${parsed.command ? ` ${parsed.command}` : ''}: ${parsed.message}\n${shortUsage(parsed.command)}\n`
    )
    return { exit: 2 }
  }
  const { values, positionals } = parsed
  if (values.version) {
    io.stdout(`${VERSION}\n`)
    return { exit: 0 }
  }
  const command = parsed.command
  if (values.help && isCommand(command)) {
    io.stdout(`${commandHelp(command)}\n`)
    return { exit: 0 }
  }
  if (values.help || !command) {
    ;(values.help ? io.stdout : io.stderr)(`${usage()}\n`)
    return { exit: values.help ? 0 : 2 }
  }
  if (!isCommand(command)) {
    const guess = didYouMean(command, COMMANDS)
    io.stderr(
      `obsdeploy: unknown command "${command}"${guess ? ` (did you mean ${guess}?)` : ''}; one of ${COMMANDS.join(', ')}\n${shortUsage(undefined)}\n`
    )
    return { exit: 2 }
  }
  return { command, values, positionals }
}

/**
 * The raw settings the action would read, from the environment and the flags: secrets only from the environment,
 * folder arguments as globs of their manifests, variables from --vars-file and --var. Throws what is wrong with those.
 */
async function rawSettingsOf(
  command: Command,
  values: OptionValues,
  positionals: readonly string[],
  io: CliIo
): Promise<RawSettings> {
  const raw: RawSettings = {}
  for (const i of INPUTS) {
    const fromEnv = io.env[i.env ?? `OBSDEPLOY_${i.name.toUpperCase().replace(/-/g, '_')}`]
    if (fromEnv !== undefined && i.name !== 'command') raw[i.name] = fromEnv
  }
  for (const i of INPUT_FLAGS) {
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
  raw.vars = await collectVars(
    values['vars-file'] as string | undefined,
    (values.var as string[] | undefined) ?? [],
    io.cwd,
    io.env.OBSDEPLOY_VARS
  )
  return raw
}

/** The settings of a command, or undefined once their problems are printed (with how to call it). */
function configReader(
  raw: RawSettings,
  values: OptionValues,
  io: CliIo
): <C extends Command>(c: C) => Config<C> | undefined {
  const stackDefault = defaultStackOf(io.cwd, io.env)
  const context: ConfigContext = {
    cwd: io.cwd,
    defaultStack: stackDefault.name,
    defaultPlanPath: path.join(io.cwd, '.obsdeploy', 'plan.json'),
    serviceGate: policy =>
      values.release && policy === 'on-release'
        ? { open: true, reason: 'released (--release)' }
        : serviceGateFor(undefined, policy),
    // A secret is named by the variable it comes from: there is no flag to name.
    label: name => SECRET_ENV[name] ?? `--${name}`,
    suggest: (name, value) => (SECRET_ENV[name] ? `${SECRET_ENV[name]}=${value}` : `--${name} ${value}`)
  }
  return <C extends Command>(c: C): Config<C> | undefined => {
    const { config, diagnostics } = parseConfigFor(c, raw, context)
    for (const d of diagnostics)
      io.stderr(`obsdeploy ${c}: ${d.severity === 'error' ? '' : `${d.severity}: `}${printable(d.message)}\n`)
    if (config) {
      // A stack named after the folder is said: it owns all the run creates (validate owns nothing).
      if (stackDefault.why && raw.stack === undefined && !config.stacks && c !== 'validate')
        io.stderr(`obsdeploy ${c}: ${printable(stackDefault.why)}\n`)
      return config
    }
    const secretMissing = diagnostics.some(d =>
      Object.values(SECRET_ENV).some(env => d.message.startsWith(`${env}:`))
    )
    if (secretMissing) io.stderr(`${SECRETS_FROM_ENV}\n`)
    io.stderr(`${shortUsage(c)}\n`)
    return undefined
  }
}

/** run(), with the apply's progress on stderr: redrawn in place on a terminal, as lines otherwise. */
async function runWithProgress(
  config: Config<RunCommand>,
  values: OptionValues,
  io: CliIo,
  log: Logger
): Promise<RunResult> {
  const progress = progressReporter({
    // A dumb terminal cannot redraw a line: it gets lines, as CI does.
    live: (io.isStderrTty ?? io.isTty) && io.env.TERM !== 'dumb',
    write: text => io.stderr(text),
    pace: config.rateLimit
  })
  try {
    const labels = (values.label as string[] | undefined) ?? []
    return await run(config, {
      log,
      progress: progress.update,
      pacing: progress.pacing,
      // Policy rules may read a pull request's labels: on the command line, the ones --label names.
      labels: async () =>
        labels.length > 0 ? { names: labels } : { names: [], unknown: 'no --label was given' },
      // Policies kept elsewhere: a local path or a git ref of this repository (never GitHub).
      ...(config.policySource
        ? { policySource: () => readLocalPolicySource(config.policySource!, io.cwd) }
        : {})
    })
  } finally {
    progress.done()
  }
}

/** The run's report: JSON, the problems of a validation, or the plan as text; and the markdown summary asked for. */
async function printReport(
  config: Config<RunCommand>,
  result: RunResult,
  values: OptionValues,
  io: CliIo
): Promise<void> {
  const when = { time: new Date().toISOString() }
  const report = reportOf(config, result, when)
  const stacks = result.stacks && stacksReportOf(config, result.stacks, result.planFile, when)
  const color = io.isTty && !values['no-color'] && io.env.NO_COLOR === undefined && io.env.TERM !== 'dumb'
  if (values.json) {
    const { exitCode, outputs, diagnostics, plan, apply } = result
    const policies = result.policies ? { policies: result.policies } : {}
    const json = result.stacks
      ? { exitCode, outputs, diagnostics, stacks: result.stacks }
      : { exitCode, outputs, diagnostics, plan, apply, ...policies }
    io.stdout(`${terminalSafeJson(json)}\n`)
  } else if (config.command === 'validate') {
    for (const d of result.diagnostics) io.stdout(`${printable(formatDiagnostic(d))}\n`)
    const errors = result.diagnostics.filter(d => d.severity === 'error').length
    const what = result.stacks
      ? `${result.stacks.results.map(r => r.stack).join(', ') || 'no stack'} (${result.stacks.reason})`
      : config.manifests.join(', ')
    io.stderr(errors === 0 ? `valid: ${printable(what)}\n` : `${errors} error(s)\n`)
  } else {
    const preview = Boolean(values.preview)
    io.stdout(stacks ? renderStacksText(stacks, { color, preview }) : renderText(report, { color, preview }))
  }
  if (values.summary !== undefined) {
    const options = { maxLength: SUMMARY_LIMIT, measure: 'bytes' } as const
    await writeFile(
      path.resolve(io.cwd, String(values.summary)),
      stacks ? renderStacksMarkdown(stacks, options) : renderMarkdown(report, options)
    )
  }
}

const SECRETS_FROM_ENV =
  'Secrets come only from the environment, never from flags (a flag stays in shell history): export OBSDEPLOY_API_KEY=... (self-hosted), or OBSDEPLOY_KEY_ID=... and OBSDEPLOY_KEY_SECRET=... (managed)'

/** The repository's name, as the action would use it (config/default-stack.ts). */
export function defaultStack(cwd: string, env: NodeJS.ProcessEnv): string {
  return defaultStackOf(cwd, env).name
}

/** A folder argument means every manifest in it. */
function asGlob(arg: string, cwd: string): string {
  try {
    if (statSync(path.resolve(cwd, arg)).isDirectory()) return `${arg.replace(/\/+$/, '')}/**/*.{yaml,yml}`
  } catch {
    // not a path: a glob
  }
  return arg
}

const SECRET_VAR_ENV = /^OBSDEPLOY_SECRET_([A-Za-z_][A-Za-z0-9_]*)$/

/**
 * Secret variables: OBSDEPLOY_SECRET_VARS (a YAML mapping, like the action's `secret-vars`), and one
 * OBSDEPLOY_SECRET_<NAME> variable per secret, which wins. Undefined when there are none.
 */
function collectSecretVars(env: NodeJS.ProcessEnv): string | undefined {
  const fromMapping = env.OBSDEPLOY_SECRET_VARS
  const single = Object.entries(env).flatMap(([key, value]) => {
    const name = SECRET_VAR_ENV.exec(key)?.[1]
    return name && name !== 'VARS' && value !== undefined ? [[name, value] as const] : []
  })
  if (single.length === 0) return fromMapping
  const { parse, stringify } = yamlLibrary()
  let mapping: Record<string, unknown> = {}
  try {
    const parsed: unknown = fromMapping ? parse(fromMapping) : {}
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
      mapping = parsed as Record<string, unknown>
  } catch {
    return fromMapping // not YAML: the settings say so
  }
  return stringify({ ...mapping, ...Object.fromEntries(single) })
}

/** The values of a secret-vars mapping, for redaction (nothing when it does not parse). */
function secretValues(text: string | undefined): Record<string, string> {
  if (!text) return {}
  const { parse } = yamlLibrary()
  try {
    const parsed: unknown = parse(text)
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
  if (fromEnv) Object.assign(vars, yamlLibrary().parse(fromEnv) as Record<string, unknown>)
  if (file) {
    const where = path.resolve(cwd, file)
    let text: string
    try {
      text = await readFile(where, 'utf8')
    } catch (e) {
      const code = (e as { code?: string }).code
      const why =
        code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a folder, not a file' : errorMessage(e)
      throw new Error(`--vars-file ${file}: cannot be read: ${why} (${where})`, { cause: e })
    }
    let parsed: unknown
    const { parse } = yamlLibrary()
    try {
      parsed = parse(text, { maxAliasCount: 10 })
    } catch (e) {
      throw new Error(`--vars-file ${file}: is not valid YAML: ${errorMessage(e).split('\n')[0]}`, {
        cause: e
      })
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new Error(`--vars-file ${file}: must be a YAML mapping of NAME: value`)
    Object.assign(vars, parsed)
  }
  for (const pair of pairs) {
    const eq = pair.indexOf('=')
    if (eq <= 0) throw new Error(`--var ${pair}: expected NAME=value`)
    // YAML-typed, so `--var threshold=10` is a number, as it would be in a vars file.
    vars[pair.slice(0, eq)] = yamlLibrary().parse(pair.slice(eq + 1))
  }
  return Object.keys(vars).length > 0 ? yamlLibrary().stringify(vars) : undefined
}

/**
 * JSON.stringify escapes C0 controls but writes C1 controls (U+009B is CSI), DEL and bidirectional or
 * invisible characters as they are: those become `\\u` escapes too, which parse back to the same value.
 */
function terminalSafeJson(value: unknown): string {
  // Each UTF-16 unit as JSON writes one (a tag character is a surrogate pair).
  const escape = (c: string) =>
    c
      .split('')
      .map(unit => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`)
      .join('')
  return JSON.stringify(value, null, 2).replace(/[\u007f-\u009f\u2028\u2029\p{Cf}]/gu, escape)
}

/** Messages may hold names and servers' text (the kinds log them as they are): printable, one line each. */
function stderrLogger(io: CliIo, verbose: boolean): Logger {
  return {
    info: m => io.stderr(`${printable(m)}\n`),
    warn: m => io.stderr(`warning: ${printable(m)}\n`),
    debug: m => (verbose ? io.stderr(`${printable(m)}\n`) : undefined)
  }
}
