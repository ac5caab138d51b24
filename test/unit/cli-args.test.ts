/** The CLI's argument checks (src/cli/args.ts) and its help (src/cli/help.ts): one line per mistake, every flag documented. */
import { describe, expect, it } from '@jest/globals'
import { OPTIONS, parseCliArgs } from '../../src/cli/args.js'
import { COMMAND_HELP, commandHelp } from '../../src/cli/help.js'
import { COMMANDS } from '../../src/config/types.js'

const message = (argv: string[]) => {
  const parsed = parseCliArgs(argv)
  return parsed.ok ? undefined : parsed.message
}

describe('parseCliArgs', () => {
  it('reads a negative or fractional number as a value, for the range check to judge', () => {
    const parsed = parseCliArgs(['apply', '--concurrency', '-1', '--request-timeout', '2.5'])
    expect(parsed).toMatchObject({
      ok: true,
      command: 'apply',
      values: { concurrency: '-1', 'request-timeout': '2.5' }
    })
  })

  it.each([
    [['plan', '--out'], '--out needs a value (e.g. --out plan.json)'],
    [['plan', '--out', '--json'], '--out needs a value (e.g. --out plan.json)'],
    [['plan', '--prune=maybe'], '--prune is a switch: use --prune alone, or --prune=true or --prune=false'],
    [['plan', '-x'], 'unknown option -x'],
    [['plan', '--stak', 'shop'], 'unknown option --stak (did you mean --stack?)'],
    [
      ['plan', '--comment-on-pr'],
      '--comment-on-pr is an input of the GitHub Action only; the CLI prints the report instead'
    ],
    [
      ['plan', '--github-token', 'ghp_x'],
      '--github-token is an input of the GitHub Action only; the CLI prints the report instead'
    ]
  ])('%j: %s', (argv, expected) => {
    expect(message(argv as string[])).toEqual(expected)
  })

  it('a switch may say true or false', () => {
    expect(parseCliArgs(['plan', '--prune=false'])).toMatchObject({ ok: true, values: { prune: false } })
    expect(parseCliArgs(['plan', '--prune'])).toMatchObject({ ok: true, values: { prune: true } })
  })

  it('names the command in a failure, so its usage can follow', () => {
    expect(parseCliArgs(['drift', '--nope'])).toMatchObject({ ok: false, command: 'drift' })
    expect(parseCliArgs(['--nope'])).toMatchObject({ ok: false, command: undefined })
  })
})

describe('help', () => {
  it('every flag the CLI takes is in the help of some command', () => {
    const documented = new Set(COMMANDS.flatMap(c => COMMAND_HELP[c].flags))
    const undocumented = Object.keys(OPTIONS).filter(
      name => !documented.has(name) && !['help', 'version', 'saved-plan', 'plan-path'].includes(name)
    )
    expect(undocumented).toEqual([])
  })

  it('each command has its own help, with an example and its exit codes', () => {
    for (const command of COMMANDS) {
      const help = commandHelp(command)
      expect(help.startsWith(`obsdeploy ${command}: `)).toBe(true)
      expect(help).toContain('\nExample:\n  ')
      expect(help).toMatch(/\nExit codes:\n {2}0 {2}.*\n {2}1 {2}.*\n {2}2 {2}usage error/)
    }
  })
})
