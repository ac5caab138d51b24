/**
 * argv -> the command, its positionals and its option values, or one line that says what is wrong:
 * `unknown option --bogus-flag (did you mean --bogus?)`, `--out needs a value`, `--api-key is not a flag`.
 * node's parseArgs reads the tokens (leniently, so `--concurrency -1` reaches the range check as a number
 * instead of failing as "ambiguous"); the checks and the words are ours.
 */
import { parseArgs } from 'node:util'
import { INPUTS } from '../config/inputs.js'
import { COMMANDS, type Command } from '../config/types.js'
import { didYouMean } from '../manifest/issues.js'
import { CLI_FLAGS, INPUT_FLAGS, SECRET_ENV } from './help.js'

type OptionSpec = { type: 'string' | 'boolean'; multiple?: boolean; short?: string }
export type OptionValues = Record<string, string | boolean | string[] | undefined>

export type ParsedArgs =
  | { ok: true; command?: string; positionals: string[]; values: OptionValues }
  /** `command` when the first argument named one: its usage goes with the message. */
  | { ok: false; command?: Command; message: string }

export const OPTIONS: Readonly<Record<string, OptionSpec>> = Object.fromEntries([
  ...CLI_FLAGS.map(f => [
    f.name,
    {
      type: f.value ? 'string' : 'boolean',
      ...(f.multiple ? { multiple: true } : {}),
      ...(f.short ? { short: f.short } : {})
    }
  ]),
  ...INPUT_FLAGS.map(i => [
    i.name,
    i.type.kind === 'list'
      ? { type: 'string', multiple: true }
      : { type: i.type.kind === 'boolean' ? 'boolean' : 'string' }
  ])
] as [string, OptionSpec][])

export const isCommand = (arg: string | undefined): arg is Command =>
  arg !== undefined && (COMMANDS as readonly string[]).includes(arg)

export function parseCliArgs(argv: readonly string[]): ParsedArgs {
  const { values, positionals, tokens } = parseArgs({
    args: [...argv],
    options: OPTIONS,
    allowPositionals: true,
    strict: false,
    tokens: true
  })
  const first = positionals[0]
  const command = isCommand(first) ? first : undefined
  const fail = (message: string): ParsedArgs => ({ ok: false, command, message })
  for (const token of tokens) {
    if (token.kind !== 'option') continue
    const spec = OPTIONS[token.name]
    const flag = token.rawName
    if (!spec) return fail(unknownOption(token.name, flag))
    if (spec.type === 'string') {
      // `--out --json`: the next token is another option, not this one's value.
      const next = token.inlineValue ? undefined : token.value?.replace(/=.*$/, '')
      if (token.value === undefined || (next?.startsWith('--') && next.slice(2) in OPTIONS))
        return fail(`${flag} needs a value${example(token.name)}`)
    } else if (token.inlineValue) {
      // A switch may say true or false (`--prune=false`); anything else is a mistake, not a value.
      if (!/^(true|false)$/i.test(token.value ?? ''))
        return fail(`${flag} is a switch: use ${flag} alone, or ${flag}=true or ${flag}=false`)
      values[token.name] = token.value!.toLowerCase() === 'true'
    }
  }
  return { ok: true, command: first, positionals, values: values as OptionValues }
}

/** What to say about an option the CLI does not take: a secret, an action-only input, or a typo. */
function unknownOption(name: string, flag: string): string {
  const env = SECRET_ENV[name]
  if (env) {
    return `${flag} is not a flag: secrets come only from the environment, so they stay out of shell history and the process list. Set ${env} instead (export ${env}=...)`
  }
  if (INPUTS.some(i => i.name === name && i.actionOnly)) {
    return `${flag} is an input of the GitHub Action only; the CLI prints the report instead`
  }
  const names = Object.keys(OPTIONS)
  const guess = didYouMean(name, names)
  return `unknown option ${flag}${guess ? ` (did you mean --${guess}?)` : ''}`
}

const EXAMPLES: Readonly<Record<string, string>> = {
  'api-url': 'https://hyperdx.example.com:8000',
  out: 'plan.json',
  plan: 'plan.json',
  'vars-file': 'staging.yaml',
  var: 'ENV=staging',
  summary: 'summary.md',
  concurrency: '4'
}

const example = (name: string): string => (EXAMPLES[name] ? ` (e.g. --${name} ${EXAMPLES[name]})` : '')
