/**
 * The CLI on a terminal: colour and a live progress line, unless NO_COLOR, --no-color or TERM=dumb says
 * otherwise (a dumb terminal can neither show colour nor redraw a line: it gets plain lines, as CI does).
 */
import { describe, expect, it } from '@jest/globals'
import { cli } from '../../src/cli.js'
import { alert, dashboard, timeTile, useScenario } from '../support/harness.js'

const { emu, ws } = useScenario()

const ANSI = '\u001b['

async function apply(env: Record<string, string>, stack: string, extra: string[] = []) {
  let stdout = ''
  let stderr = ''
  const code = await cli(['apply', '--api-url', emu.url, '--stack', stack, '--rate-limit', 'off', ...extra], {
    stdout: t => (stdout += t),
    stderr: t => (stderr += t),
    env: { OBSDEPLOY_API_KEY: emu.credentials.apiKey, ...env },
    cwd: ws.dir,
    isTty: true,
    isStderrTty: true
  })
  return { code, stdout, stderr }
}

describe('colour and live progress on a terminal', () => {
  it.each([
    ['a terminal', { TERM: 'xterm-256color' }, [], true],
    ['TERM=dumb', { TERM: 'dumb' }, [], false],
    ['NO_COLOR', { TERM: 'xterm-256color', NO_COLOR: '1' }, [], false],
    ['--no-color', { TERM: 'xterm-256color' }, ['--no-color'], false]
  ])('%s', async (_what, env: Record<string, string>, flags: string[], colour) => {
    const stack = `term-${Object.values(env).join('-')}-${flags.length}`.replace(/[^A-Za-z0-9-]/g, '')
    ws.write({
      'observability/a.yaml':
        dashboard(`Dash ${stack}`, timeTile('Errors', 0, 0)) +
        alert(`Alert ${stack}`, `Dash ${stack}`, 'Errors')
    })
    const r = await apply(env, stack, flags)
    expect(r.code).toBe(0)
    expect(r.stdout.includes(ANSI)).toBe(colour)
    // The live line is redrawn with a carriage return; without a capable terminal, progress is plain lines.
    if (env.TERM === 'dumb') {
      expect(r.stderr).not.toContain(ANSI)
      expect(r.stderr).toMatch(/^\[2\/2\] create alert "Alert [^"]+": done \(\d+\.\d s\)$/m)
    } else expect(r.stderr).toContain('\r\u001b[2Kapplying 0/2: create dashboard')
  })
})
