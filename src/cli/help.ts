/**
 * What `obsdeploy --help` and `obsdeploy <command> --help` print: each command with its own flags, an
 * example and its exit codes. The flags come from the input registry (their descriptions, ranges and
 * defaults), so the help, action.yml and the README say the same thing. The README's CLI section is
 * generated from `usage()` (`npm run docs`).
 */
import { describeInput, INPUTS, type InputDefinition } from '../config/inputs.js'
import { COMMANDS, type Command } from '../config/types.js'
import { VERSION } from '../version.js'

/** A flag that is not an input (or is one under another name), as the CLI takes it. */
export interface CliFlag {
  name: string
  /** What its value looks like, e.g. `FILE`; none for a switch. */
  value?: string
  description: string
  short?: string
  /** Taken more than once. */
  multiple?: boolean
}

/** The inputs that are flags: secrets come only from the environment, the command is the first argument, vars have their own flags. */
export const INPUT_FLAGS: readonly InputDefinition[] = INPUTS.filter(
  i => !i.actionOnly && i.type.kind !== 'secret' && i.name !== 'command' && i.name !== 'vars'
)

/** The environment variable of each secret input: never a flag. */
export const SECRET_ENV: Readonly<Record<string, string>> = Object.fromEntries(
  INPUTS.filter(i => i.type.kind === 'secret' && i.env).map(i => [i.name, i.env!])
)

export const CLI_FLAGS: readonly CliFlag[] = [
  {
    name: 'var',
    value: 'NAME=value',
    description: 'a value for ${NAME} placeholders (repeatable; YAML-typed)',
    multiple: true
  },
  { name: 'vars-file', value: 'FILE', description: 'a YAML mapping of values for placeholders' },
  {
    name: 'plan',
    value: 'FILE',
    description:
      'a plan JSON saved by an earlier plan: refused if anything changed since (same as --saved-plan)'
  },
  {
    name: 'out',
    value: 'PATH',
    description: 'plan, apply, drift: where to write the plan JSON; export: the folder to write'
  },
  {
    name: 'release',
    description: 'open the service-update gate as a release would (service-update: on-release)'
  },
  {
    name: 'label',
    value: 'NAME',
    description: 'a pull request label, for policy rules that read `labels` (repeatable; none when absent)',
    multiple: true
  },
  { name: 'json', description: 'print the result as JSON' },
  {
    name: 'preview',
    description:
      "plan: also print each created or layout-changed dashboard's grid before and after, and with --check-queries each changed tile's and alert's data"
  },
  {
    name: 'summary',
    value: 'FILE',
    description: 'also write the markdown report (as the job summary) to FILE'
  },
  {
    name: 'tag',
    value: 'TAG',
    description: 'export dashboards and saved searches with this tag (repeatable)',
    multiple: true
  },
  {
    name: 'name',
    value: 'GLOB',
    description: 'export resources whose name matches (repeatable)',
    multiple: true
  },
  { name: 'owned', description: "export only this stack's resources" },
  {
    name: 'kind',
    value: 'KIND',
    description:
      'export only these kinds: Connection, Source, SavedSearch, Webhook, Dashboard, TeamMember, Role (repeatable)',
    multiple: true
  },
  {
    name: 'force',
    description:
      'export: replace files in --out that export did not write or that were edited since (never a symbolic link)'
  },
  {
    name: 'write',
    description:
      'sync: write the files (without it, sync prints the changes it would make and writes nothing)'
  },
  {
    name: 'pr',
    value: 'N',
    description:
      'sweep-previews: delete the preview copies of pull request N (repeatable), whatever their age',
    multiple: true
  },
  { name: 'verbose', description: 'log requests and retries to stderr' },
  { name: 'no-color', description: 'no ANSI colours even on a terminal (also NO_COLOR or TERM=dumb)' },
  { name: 'help', short: 'h', description: 'this help; obsdeploy <command> --help for a command' },
  { name: 'version', description: 'print the version' }
]

const API = [
  'mode',
  'api-url',
  'organization-id',
  'service-id',
  'managed-prefix',
  'allow-insecure-http',
  'rate-limit',
  'request-timeout',
  'retry-budget',
  'connect-budget'
]
const MANIFESTS = ['manifests', 'stacks', 'var', 'vars-file', 'policy-source']
const PLANNING = ['stack', 'prune', 'mask-emails', 'service-update', 'ui-url', 'release', 'label']
const OUTPUT = ['out', 'json', 'summary', 'verbose', 'no-color']

interface CommandHelp {
  summary: string
  usage: string
  flags: string[]
  example: string[]
  exitCodes: [number, string][]
}

const USAGE_ERROR: [number, string] = [2, 'usage error: an unknown option, a missing or invalid setting']

export const COMMAND_HELP: Readonly<Record<Command, CommandHelp>> = {
  validate: {
    summary: 'check manifests offline (no credentials, no network)',
    usage: 'obsdeploy validate [manifest globs or folders...] [options]',
    flags: ['mode', ...MANIFESTS, 'stack', 'json', 'verbose', 'no-color'],
    example: ['obsdeploy validate observability/'],
    exitCodes: [
      [0, 'valid (warnings may be printed)'],
      [1, 'problems found, each as file:line:col field: message'],
      USAGE_ERROR
    ]
  },
  plan: {
    summary: 'show what would change against the live API',
    usage: 'obsdeploy plan [manifest globs or folders...] --api-url URL [options]',
    flags: [
      ...API,
      ...MANIFESTS,
      ...PLANNING,
      'check-queries',
      'preview-values',
      'preview',
      'server-validation',
      ...OUTPUT
    ],
    example: [
      'export OBSDEPLOY_API_KEY=...   # secrets only from the environment',
      'obsdeploy plan observability/ --api-url https://hyperdx.example.com:8000 --out plan.json'
    ],
    exitCodes: [
      [0, 'planned (with changes or without)'],
      [1, 'problems: invalid manifests, plan errors, or the API failed'],
      USAGE_ERROR
    ]
  },
  apply: {
    summary: 'apply the plan',
    usage: 'obsdeploy apply [manifest globs or folders...] --api-url URL [options]',
    flags: [...API, ...MANIFESTS, ...PLANNING, 'concurrency', 'server-validation', 'plan', ...OUTPUT],
    example: [
      'export OBSDEPLOY_API_KEY=...',
      'obsdeploy apply observability/ --api-url https://hyperdx.example.com:8000 --plan plan.json --prune'
    ],
    exitCodes: [
      [0, 'applied (or nothing to apply)'],
      [1, 'problems: nothing applied, or some changes failed (a rerun converges)'],
      USAGE_ERROR
    ]
  },
  drift: {
    summary: 'exit 1 when the live state differs from the manifests',
    usage: 'obsdeploy drift [manifest globs or folders...] --api-url URL [options]',
    flags: [...API, ...MANIFESTS, ...PLANNING, ...OUTPUT],
    example: [
      'export OBSDEPLOY_API_KEY=...',
      'obsdeploy drift observability/ --api-url https://hyperdx.example.com:8000'
    ],
    exitCodes: [[0, 'no drift'], [1, 'drift, or problems (the report says which)'], USAGE_ERROR]
  },
  export: {
    summary: 'write manifests for existing resources (--out folder)',
    usage: 'obsdeploy export --out FOLDER --api-url URL [options]',
    flags: [...API, 'stack', 'out', 'tag', 'name', 'owned', 'kind', 'force', 'verbose'],
    example: [
      'export OBSDEPLOY_API_KEY=...',
      "obsdeploy export --out observability/ --api-url https://hyperdx.example.com:8000 --tag payments --name 'Checkout*'"
    ],
    exitCodes: [
      [0, 'written'],
      [1, 'the API failed, or a file was kept: edited since export wrote it, or not written by export'],
      USAGE_ERROR
    ]
  },
  sync: {
    summary: 'rewrite the manifests to say what the server holds (edits made in the UI)',
    usage: 'obsdeploy sync [manifest globs or folders...] --api-url URL [--write] [options]',
    flags: [...API, ...MANIFESTS, 'stack', 'prune', 'write', 'json', 'verbose', 'no-color'],
    example: [
      'export OBSDEPLOY_API_KEY=...',
      'obsdeploy sync observability/ --api-url https://hyperdx.example.com:8000           # the diff it would make',
      'obsdeploy sync observability/ --api-url https://hyperdx.example.com:8000 --write   # write it'
    ],
    exitCodes: [
      [0, 'synced (or nothing to sync); without --write, nothing written'],
      [1, 'problems: invalid manifests, plan errors, the API failed, or a file could not be written'],
      USAGE_ERROR
    ]
  },
  'sweep-previews': {
    summary: "delete the stack's live preview copies older than --live-preview-ttl days, or of --pr N",
    usage: 'obsdeploy sweep-previews --api-url URL [--pr N | --live-preview-ttl DAYS] [options]',
    flags: [
      ...API,
      'stack',
      'stacks',
      'manifests',
      'pr',
      'live-preview-ttl',
      'ui-url',
      'json',
      'verbose',
      'no-color'
    ],
    example: [
      'export OBSDEPLOY_API_KEY=...',
      'obsdeploy sweep-previews --api-url https://hyperdx.example.com:8000 --stack shop --pr 7'
    ],
    exitCodes: [
      [0, 'swept (or nothing to sweep)'],
      [1, 'the API failed, or a copy could not be deleted'],
      USAGE_ERROR
    ]
  }
}

const ENVIRONMENT = [
  'Environment:',
  '  OBSDEPLOY_API_KEY                        self-hosted: a personal API access key (Bearer)',
  '  OBSDEPLOY_KEY_ID, OBSDEPLOY_KEY_SECRET   managed: an API key id and secret (Basic)',
  '  OBSDEPLOY_SECRET_<NAME>                  the value of each ${secret.NAME} placeholder',
  '  OBSDEPLOY_SECRET_VARS                    or all of them as one YAML mapping',
  '  Secrets come only from the environment, never from flags: a flag would stay in shell history and',
  '  show in the process list. Any option is also OBSDEPLOY_<NAME> (e.g. OBSDEPLOY_API_URL).'
]

/** `obsdeploy --help`: the commands, and where to find each one's options. */
export function usage(): string {
  const width = Math.max(...COMMANDS.map(c => c.length)) + 3
  return [
    `obsdeploy ${VERSION}: observability dashboards, alerts and service settings as code`,
    '',
    'Usage: obsdeploy <command> [manifest globs or folders...] [options]',
    '',
    'Commands:',
    ...COMMANDS.map(c => `  ${c.padEnd(width)}${COMMAND_HELP[c].summary}`),
    '',
    'obsdeploy <command> --help lists the options of a command, with an example and its exit codes.',
    'Every input of the action is an option of the same name (--api-url, --prune, ...).',
    '',
    ...ENVIRONMENT,
    '',
    'Examples:',
    '  obsdeploy validate observability/',
    '  export OBSDEPLOY_API_KEY=...',
    '  obsdeploy plan observability/ --api-url https://hyperdx.example.com:8000',
    '  obsdeploy apply observability/ --api-url https://hyperdx.example.com:8000 --prune',
    '',
    'Exit codes: 0 success, 1 problems found (or drift), 2 usage error.'
  ].join('\n')
}

/** `obsdeploy <command> --help`: its flags, an example, its exit codes. */
export function commandHelp(command: Command): string {
  const help = COMMAND_HELP[command]
  const rows = [...help.flags.map(flagRow), ['-h, --help', 'this help'] as [string, string]]
  return [
    `obsdeploy ${command}: ${help.summary}`,
    '',
    `Usage: ${help.usage}`,
    '',
    'Options:',
    ...rows.flatMap(([left, right]) => table(left, right)),
    '',
    ...ENVIRONMENT,
    '',
    'Example:',
    ...help.example.map(line => `  ${line}`),
    '',
    'Exit codes:',
    ...help.exitCodes.map(([code, meaning]) => `  ${code}  ${meaning}`)
  ].join('\n')
}

/** The one line an unknown option or a bad value prints with: how to call the command, and where to read more. */
export function shortUsage(command: Command | undefined): string {
  if (!command) return 'Usage: obsdeploy <command> [options]   (obsdeploy --help lists the commands)'
  return `Usage: ${COMMAND_HELP[command].usage}   (obsdeploy ${command} --help lists its options)`
}

const LEFT = 30
const WIDTH = 110

/** One option: its flag, then its description wrapped to the width, under a column of its own. */
function table(left: string, right: string): string[] {
  const lines: string[] = []
  let current = ''
  // "[default: 30]" stays on one line.
  for (const word of right.replace(/\[default: /g, '[default:\u00a0').split(' ')) {
    if (current && LEFT + 2 + current.length + 1 + word.length > WIDTH) {
      lines.push(current)
      current = word
    } else current = current ? `${current} ${word}` : word
  }
  lines.push(current)
  for (let i = 0; i < lines.length; i++) lines[i] = lines[i]!.replace(/\u00a0/g, ' ')
  const head = `  ${left}`
  const indent = ' '.repeat(LEFT + 2)
  const first =
    head.length < LEFT + 2 ? [`${head.padEnd(LEFT + 2)}${lines[0]}`] : [head, `${indent}${lines[0]}`]
  return [...first, ...lines.slice(1).map(l => `${indent}${l}`)]
}

function flagRow(name: string): [string, string] {
  const input = INPUT_FLAGS.find(i => i.name === name)
  if (input) {
    const value = valueOf(input)
    const fallback = input.default ? ` [default: ${input.default.replace(/\n/g, ', ')}]` : ''
    return [`--${name}${value ? ` ${value}` : ''}`, `${describeInput(input)}${fallback}`]
  }
  const flag = CLI_FLAGS.find(f => f.name === name)
  if (!flag) throw new Error(`help: no flag --${name}`)
  return [`--${name}${flag.value ? ` ${flag.value}` : ''}`, flag.description]
}

const VALUE_NAMES: Readonly<Record<string, string>> = {
  'api-url': 'URL',
  'ui-url': 'URL',
  'organization-id': 'UUID',
  'service-id': 'UUID',
  stack: 'NAME',
  'rate-limit': 'N/WINDOW',
  'saved-plan': 'FILE',
  'plan-path': 'FILE',
  manifests: 'GLOB'
}

function valueOf(input: InputDefinition): string {
  switch (input.type.kind) {
    case 'boolean':
      return ''
    case 'enum':
      return input.type.values.join('|')
    case 'number':
      return /seconds/.test(input.description) ? 'SECONDS' : 'N'
    default:
      return VALUE_NAMES[input.name] ?? 'VALUE'
  }
}
