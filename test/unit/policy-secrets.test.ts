/**
 * Rules never see a resolved secret: in validate and plan alike a rule reads each secret field as its
 * placeholder, so no outcome of a rule depends on a secret; and text a rule's evaluation produced is withheld
 * when it quotes a secret in any case or 8 characters of one (the second line of defence).
 */
import { describe, expect, it } from '@jest/globals'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { formatDiagnostic } from '../../src/diagnostics.js'
import { secretFree, WITHHELD } from '../../src/policy/secret-text.js'
import { loadWithPolicies } from '../../src/run/load.js'
import { scratchDir } from '../support/scratch.js'

const SECRET = 'https://hooks.slack.com/services/T0KEN-s3cr3t-canary'

function workspace(policyChecks: string[]): string {
  const dir = scratchDir('policy-secrets')
  const rules = policyChecks
    .map(
      (check, i) => `  - id: probe-${i}
    kinds: [Webhook]
    severity: error
    message: probe ${i}
    check: ${JSON.stringify(check)}
`
    )
    .join('')
  writeFileSync(path.join(dir, 'policy.yaml'), `kind: Policy\nname: org\nrules:\n${rules}`)
  writeFileSync(
    path.join(dir, 'hooks.yaml'),
    'kind: Webhook\nname: pager\nservice: slack\nurl: ${secret.PAGER_URL}\n'
  )
  return dir
}

async function findings(cwd: string, secretValues: 'optional' | 'required', secrets = { PAGER_URL: SECRET }) {
  const { manifests } = await loadWithPolicies({
    stack: 'default',
    patterns: ['*.yaml'],
    cwd,
    mode: 'self-hosted',
    secrets,
    secretValues
  })
  return manifests.diagnostics.map(formatDiagnostic)
}

describe('rules and secrets', () => {
  it('see a secret field as its placeholder, in validate and in plan alike', async () => {
    const cwd = workspace([
      "resource.url == '$${secret.PAGER_URL}'",
      "!resource.url.startsWith('https://hooks.slack.com/services/T')",
      "!resource.url.startsWith('https://hooks.slack.com/services/X')"
    ])
    const validate = await findings(cwd, 'optional')
    const plan = await findings(cwd, 'required')
    // The placeholder is what the rule reads: the first probe holds, and the prefix probes give the same
    // outcome whether the prefix matches the secret or not.
    expect(plan).toEqual(validate)
    expect(plan.filter(d => d.includes('probe-0'))).toEqual([])
    expect(plan.some(d => d.includes('probe-1'))).toBe(false)
    expect(plan.some(d => d.includes('probe-2'))).toBe(false)
    // Without the secret's value (a fork's pull request), the same.
    expect(await findings(cwd, 'optional', {} as { PAGER_URL: string })).toEqual(validate)
  })

  it('never print the secret a failing check computed from, in any case', async () => {
    const cwd = workspace([
      "{'a': 1}[resource.url.upperAscii()] == 1",
      "{'a': 1}[resource.url.lowerAscii()] == 1",
      "{'a': 1}[resource.url.substring(20)] == 1"
    ])
    const text = (await findings(cwd, 'required')).join('\n')
    for (const form of [SECRET, SECRET.toUpperCase(), SECRET.toLowerCase(), SECRET.slice(20), 'T0KEN-s3'])
      expect(text.toLowerCase()).not.toContain(form.toLowerCase())
  })
})

describe('text a rule produced', () => {
  const ok = secretFree([SECRET, 'short'])

  it('is withheld when it holds a secret in any case, or 8 characters in a row of one', () => {
    expect(ok(`No such key: ${SECRET.toUpperCase()}`)).toBe(false)
    expect(ok('No such key: S3CR3T-CANARY')).toBe(false)
    expect(ok('No such key: t0ken-s3')).toBe(false)
    expect(ok('a SHORT one, whole')).toBe(false)
  })

  it('is printed when it holds none', () => {
    expect(ok('No such key: tiles')).toBe(true)
    expect(ok('hooks.sl')).toBe(false)
    expect(ok('hooks.s')).toBe(true)
    expect(secretFree([])('anything')).toBe(true)
    expect(WITHHELD).toMatch(/withheld/)
  })
})
