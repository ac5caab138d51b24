/**
 * `npm run emulator -- --fault ...`: the grammar onto the fault kinds, and the emulator's command line as a
 * user runs it (the banner says what to pass as --api-url; a scripted fault fires as asked).
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from '@jest/globals'
import { apiPathOf } from '../../src/config/api-url.js'
import { describeFaultRule, parseFaultSpec } from '../../emulator/fault-spec.js'

const REPO = fileURLToPath(new URL('../..', import.meta.url))

describe('--fault grammar', () => {
  it.each([
    [
      'POST /api/v2/dashboards:drop:3',
      { method: 'POST', path: '/api/v2/dashboards', sequence: ['commit-drop', 'commit-drop', 'commit-drop'] }
    ],
    ['GET /alerts:503:always', { method: 'GET', path: '/alerts', kind: '503' }],
    [':429=5:10%', { kind: '429', retryAfterSeconds: 5, probability: 0.1 }],
    ['*:reset', { sequence: ['reset'] }],
    ['put:delay=2000:2', { method: 'PUT', delayMs: 2000, sequence: ['delay', 'delay'] }],
    ['/sources:500', { path: '/sources', sequence: ['500'] }],
    // gather: by default the next two, held until both are there.
    [
      'POST /api/v2/connections:gather',
      { method: 'POST', path: '/api/v2/connections', sequence: ['gather', 'gather'] }
    ],
    [
      'POST /x:gather=3',
      { method: 'POST', path: '/x', together: 3, sequence: ['gather', 'gather', 'gather'] }
    ],
    ['/x:gather=2:4', { path: '/x', together: 2, sequence: ['gather', 'gather', 'gather', 'gather'] }]
  ])('%s', (spec, rule) => {
    expect(parseFaultSpec(spec)).toEqual(rule)
  })

  it.each([
    ['POST /api/v2/dashboards', 'expected [METHOD] [PATH]:KIND[=ARG][:TIMES]'],
    [
      'POST /x:explode',
      'unknown kind "explode": one of 429, 500, 502, 503, reset, delay, gather, drop, commit-drop'
    ],
    ['POST x:500', 'the path must start with / (or be *), got "x"'],
    ['/x:500:often', '"often" is not a count, always, or a percentage'],
    ['/x:500:120%', '120% is more than 100%'],
    ['/x:reset=3', 'reset takes no =value (only 429, delay, late and gather do)'],
    ['/x:429=soon', '"soon" is not a number of seconds'],
    ['/x:gather=1', 'gather takes a number of requests of 2 or more, got "1"']
  ])('%s is refused: %s', (spec, why) => {
    expect(() => parseFaultSpec(spec)).toThrow(`--fault '${spec}': ${why}`)
  })

  it('says a rule back in words', () => {
    expect(describeFaultRule(parseFaultSpec('POST /api/v2/dashboards:drop:3'))).toBe(
      'POST /api/v2/dashboards: commit-drop, the next 3'
    )
    expect(describeFaultRule(parseFaultSpec(':429=5:10%'))).toBe(
      'any method any path: 429 (Retry-After 5 s), 10% of them'
    )
    expect(describeFaultRule(parseFaultSpec('POST /x:gather'))).toBe(
      'POST /x: gather (2 together), the next 2'
    )
  })
})

describe('npm run emulator, as a user runs it', () => {
  it('prints the --api-url to pass (not an /api/v2 route), and a --fault fires as scripted', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'emulator/cli.ts', '--no-rate-limit', '--fault', 'POST /api/v2/dashboards:drop:1'],
      {
        cwd: REPO,
        stdio: ['ignore', 'pipe', 'pipe']
      }
    )
    try {
      let out = ''
      child.stdout.setEncoding('utf8')
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: string) => {
          out += chunk
          if (out.includes('Press Ctrl+C to stop.')) resolve()
        })
        child.once('exit', code => reject(new Error(`the emulator exited (${code}): ${out}`)))
      })
      const url = /Self-hosted: pass --api-url (\S+)/.exec(out)![1]!
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(apiPathOf(url)).toBeUndefined()
      expect(out).toContain(`obsdeploy plan observability/ --api-url ${url}\n`)
      expect(out).toContain('Faults, in order:\n  POST /api/v2/dashboards: commit-drop, the next 1\n')
      const key = /export OBSDEPLOY_API_KEY=(\S+)/.exec(out)![1]!
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
      expect((await fetch(`${url}/api/v2/sources`, { headers })).status).toBe(200)
      const body = JSON.stringify({ name: 'Dropped', tiles: [] })
      // The first create is stored and its connection dropped; the next one is answered.
      await expect(fetch(`${url}/api/v2/dashboards`, { method: 'POST', headers, body })).rejects.toThrow()
      expect(
        (
          await fetch(`${url}/api/v2/dashboards`, {
            method: 'POST',
            headers,
            body: body.replace('Dropped', 'Kept')
          })
        ).status
      ).toBe(200)
      const names = (
        (await (await fetch(`${url}/api/v2/dashboards`, { headers })).json()) as { data: { name: string }[] }
      ).data.map(d => d.name)
      expect(names.sort()).toEqual(['Dropped', 'Kept'])
    } finally {
      // Waits for the emulator to stop: a child still running when the file ends keeps Jest's worker alive.
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, 'exit')
        child.kill('SIGTERM')
        await exited
      }
    }
  })
})
