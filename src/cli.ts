/**
 * The CLI: argv -> the same raw settings the action reads -> Config -> run(). Flags are the input
 * names (`--api-url`); secrets come only from the environment (OBSDEPLOY_API_KEY, OBSDEPLOY_KEY_ID,
 * OBSDEPLOY_KEY_SECRET), never from flags that would land in shell history.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml'
import { isCommand, parseCliArgs } from './cli/args.js'
import { commandHelp, INPUT_FLAGS, SECRET_ENV, shortUsage, usage } from './cli/help.js'
import { INPUTS, type RawSettings } from './config/inputs.js'
import { parseConfigFor, type ConfigContext } from './config/parse.js'
import { COMMANDS, type Command, type Config } from './config/types.js'
import { formatDiagnostic } from './diagnostics.js'
import { errorMessage } from './error-message.js'
import { serviceGateFor } from './github/events.js'
import { redactingLogger, type Logger } from './log.js'
import { didYouMean } from './manifest/issues.js'
import { renderMarkdown, SUMMARY_LIMIT } from './report/markdown.js'
import { reportOf } from './report/input.js'
import { progressReporter } from './report/progress.js'
import { renderText } from './report/text.js'
import { run } from './run/run.js'
import { VERSION } from './version.js'

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
  const parsed = parseCliArgs(argv)
  if (!parsed.ok) {
    // One line that says what is wrong, and how to call that command: not the whole manual.
    io.stderr(
      `obsdeploy${parsed.command ? ` ${parsed.command}` : ''}: ${parsed.message}\n${shortUsage(parsed.command)}\n`
    )
    return 2
  }
  const { values, positionals } = parsed
  if (values.version) {
    io.stdout(`${VERSION}\n`)
    return 0
  }
  const command = parsed.command
  if (values.help && isCommand(command)) {
    io.stdout(`${commandHelp(command)}\n`)
    return 0
  }
  if (values.help || !command) {
    ;(values.help ? io.stdout : io.stderr)(`${usage()}\n`)
    return values.help ? 0 : 2
  }
  if (!isCommand(command)) {
    const guess = didYouMean(command, COMMANDS)
    io.stderr(
      `obsdeploy: unknown command "${command}"${guess ? ` (did you mean ${guess}?)` : ''}; one of ${COMMANDS.join(', ')}\n${shortUsage(undefined)}\n`
    )
    return 2
  }

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
    io.stderr(`obsdeploy ${command}: ${errorMessage(e)}\n`)
    return 2
  }

  const secrets = [raw['api-key'], raw['key-id'], raw['key-secret']]
  const log = redactingLogger(stderrLogger(io, Boolean(values.verbose)), secrets)
  const context: ConfigContext = {
    cwd: io.cwd,
    defaultStack: defaultStack(io.cwd, io.env),
    defaultPlanPath: path.join(io.cwd, '.obsdeploy', 'plan.json'),
    serviceGate: policy =>
      values.release && policy === 'on-release'
        ? { open: true, reason: 'released (--release)' }
        : serviceGateFor(undefined, policy),
    // A secret is named by the variable it comes from: there is no flag to name.
    label: name => SECRET_ENV[name] ?? `--${name}`,
    suggest: (name, value) => (SECRET_ENV[name] ? `${SECRET_ENV[name]}=${value}` : `--${name} ${value}`)
  }
  /** The settings, or undefined once their problems are printed. */
  const settings = <C extends Command>(c: C): Config<C> | undefined => {
    const { config, diagnostics } = parseConfigFor(c, raw, context)
    for (const d of diagnostics)
      io.stderr(`obsdeploy ${c}: ${d.severity === 'error' ? '' : `${d.severity}: `}${d.message}\n`)
    if (config) return config
    const secretMissing = diagnostics.some(d =>
      Object.values(SECRET_ENV).some(env => d.message.startsWith(`${env}:`))
    )
    if (secretMissing) io.stderr(`${SECRETS_FROM_ENV}\n`)
    io.stderr(`${shortUsage(c)}\n`)
    return undefined
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
      io,
      log
    })
  }

  const config = settings(command)
  if (!config) return 2
  const progress = progressReporter({
    // A dumb terminal cannot redraw a line: it gets lines, as CI does.
    live: (io.isStderrTty ?? io.isTty) && io.env.TERM !== 'dumb',
    write: text => io.stderr(text)
  })
  let result
  try {
    result = await run(config, { log, progress: progress.update })
  } finally {
    progress.done()
  }
  const report = reportOf(config, result, { time: new Date().toISOString() })
  const color = io.isTty && !values['no-color'] && io.env.NO_COLOR === undefined && io.env.TERM !== 'dumb'
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

const SECRETS_FROM_ENV =
  'Secrets come only from the environment, never from flags (a flag stays in shell history): export OBSDEPLOY_API_KEY=... (self-hosted), or OBSDEPLOY_KEY_ID=... and OBSDEPLOY_KEY_SECRET=... (managed)'

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

/** A folder argument means every manifest in it. */
function asGlob(arg: string, cwd: string): string {
  try {
    if (statSync(path.resolve(cwd, arg)).isDirectory()) return `${arg.replace(/\/+$/, '')}/**/*.{yaml,yml}`
  } catch {
    // not a path: a glob
  }
  return arg
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
    try {
      parsed = parseYaml(text, { maxAliasCount: 10 })
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
