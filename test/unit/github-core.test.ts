/**
 * src/github/core.ts keeps the action's start-up free of @actions/core's OIDC client (and undici) by
 * writing the entry's one-line functions itself: each must print and write exactly what @actions/core does.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import * as real from '@actions/core'
import * as ours from '../../src/github/core.js'
import { scratchDir } from '../support/scratch.js'

type Core = typeof ours

/** What one call prints, writes to GITHUB_OUTPUT and leaves in process.exitCode (the delimiter is random). */
function effects(call: (core: Core) => void, core: Core, env: Record<string, string | undefined> = {}) {
  const dir = scratchDir('core-')
  const output = path.join(dir, 'output')
  writeFileSync(output, '')
  const saved = { ...process.env }
  Object.assign(process.env, { GITHUB_OUTPUT: output }, env)
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k]
  const write = process.stdout.write
  let printed = ''
  process.stdout.write = ((chunk: string) => {
    printed += chunk
    return true
  }) as typeof process.stdout.write
  const exitCode = process.exitCode
  let code: typeof process.exitCode
  try {
    call(core)
  } finally {
    process.stdout.write = write
    code = process.exitCode
    process.exitCode = exitCode
    process.env = saved
  }
  const file = readFileSync(output, 'utf8').replace(/ghadelimiter_[0-9a-f-]+/g, 'ghadelimiter_X')
  return { printed, file, exitCode: code }
}

const same = (call: (core: Core) => void, env?: Record<string, string | undefined>) =>
  expect(effects(call, ours, env)).toEqual(effects(call, real as unknown as Core, env))

describe('src/github/core.ts does what @actions/core does', () => {
  let exitCode: typeof process.exitCode
  beforeEach(() => {
    exitCode = process.exitCode
  })
  afterEach(() => {
    process.exitCode = exitCode
  })

  it('logs, debug lines and masks', () => {
    same(c => c.info('plain line: 100% done, a::b'))
    same(c => c.debug('debug %25 line\nsecond'))
    same(c => c.setSecret('s3cr3t-value'))
  })

  it('annotations with and without a place, and with characters that need escaping', () => {
    for (const level of ['error', 'warning', 'notice'] as const) {
      same(c => c[level]('plain'))
      same(c =>
        c[level]('line 1\nline 2: 100%, a,b', {
          title: 'obsdeploy validate: x',
          file: 'observability/a,b.yaml',
          startLine: 3,
          startColumn: 5,
          endLine: 4
        })
      )
    }
  })

  it('setFailed logs an error and sets the exit code', () => {
    const effect = effects(c => c.setFailed('2 error(s): a | b'), ours)
    expect(effect.exitCode).toBe(1)
    same(c => c.setFailed('2 error(s): a | b'))
  })

  it('except that a plain line is never a workflow command: one that would be gets a backslash', () => {
    const printed = (message: string) => effects(c => c.info(message), ours).printed
    expect(printed('::error::pwned')).toBe('\\::error::pwned\n')
    expect(printed('ok\n  ::stop-commands::x\r##[warning]y\r\n\t::add-mask::z')).toBe(
      'ok\n\\  ::stop-commands::x\r\\##[warning]y\r\n\\\t::add-mask::z\n'
    )
    expect(printed('\u00a0\u0085::error::x')).toBe('\\\u00a0\u0085::error::x\n')
  })

  it('outputs, to GITHUB_OUTPUT and without it', () => {
    same(c => c.setOutput('has-changes', 'true'))
    same(c => c.setOutput('matrix', '{"stack":["a","b"]}\nwith a second line'))
    same(c => c.setOutput('plan-file', ''), { GITHUB_OUTPUT: undefined })
  })

  it('inputs: the INPUT_ variable, trimmed, empty when unset', () => {
    const env = { 'INPUT_API-KEY': '  key  ', INPUT_MANIFESTS: 'a/**\nb/**', INPUT_STACK: undefined }
    for (const name of ['api-key', 'manifests', 'stack']) {
      const read = (core: Core) => {
        const saved = { ...process.env }
        Object.assign(process.env, env)
        delete process.env.INPUT_STACK
        try {
          return core.getInput(name)
        } finally {
          process.env = saved
        }
      }
      expect(read(ours)).toBe(read(real as unknown as Core))
    }
    expect(ours.summary).toBe(real.summary)
  })
})
