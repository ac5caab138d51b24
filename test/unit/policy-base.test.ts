/**
 * Rules a pull request cannot switch off: with its base commit's files, the rules in force are the base's.
 * A rule the pull request removes or weakens is still enforced (and named), one it adds is a preview, a
 * suppression it adds is named, `suppressible: false` holds, and a policy source adds rules of its own. When
 * the base cannot be read, the pull request's own files are obeyed, and the review says so.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { formatDiagnostic } from '../../src/diagnostics.js'
import { parseYamlFile } from '../../src/manifest/yaml.js'
import { compareRules } from '../../src/policy/compare.js'
import { centralPolicies, type BaseRead, type EnforcedPolicies } from '../../src/policy/sources.js'
import type { PolicyRule } from '../../src/policy/schema.js'
import { loadWithPolicies } from '../../src/run/load.js'
import { scratchDir } from '../support/scratch.js'

const BASE_POLICY = `kind: Policy
name: org
rules:
  - id: tile-budget
    kinds: [Dashboard]
    severity: error
    message: at most 1 tile
    check: size(resource.tiles) <= 1
  - id: owner-tag
    kinds: [Dashboard]
    severity: error
    suppressible: false
    message: needs an owner tag
    check: has(resource.tags) && resource.tags.exists(t, t.startsWith('owner:'))
`
const tile = (name: string, x: number) => `  - name: ${name}
    x: ${x}
    y: 0
    w: 6
    h: 3
    series: [{ type: time, source: Logs, aggFn: count }]
`
const DASHBOARD = `kind: Dashboard
name: Checkout
tags: [owner:payments]
tiles:
${tile('A', 0)}${tile('B', 6)}`

/** A workspace as the pull request's checkout has it, and the base commit's files that differ from it. */
function pullRequest(files: Record<string, string>, base: Record<string, string>, unchanged: string[]) {
  const cwd = scratchDir('policy-base')
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(cwd, file)), { recursive: true })
    writeFileSync(path.join(cwd, file), text)
  }
  const read: BaseRead = {
    commit: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
    unchanged: new Set(unchanged),
    differing: Object.entries(base).map(([p, text]) => ({ path: p, text }))
  }
  return { cwd, read }
}

async function check(cwd: string, enforced?: EnforcedPolicies) {
  const { manifests, review } = await loadWithPolicies({
    stack: 'default',
    patterns: ['**/*.yaml'],
    cwd,
    mode: 'self-hosted',
    ...(enforced ? { enforced: Promise.resolve(enforced) } : {})
  })
  return { lines: manifests.diagnostics.map(formatDiagnostic), review }
}

const errors = (lines: string[]) => lines.filter(l => !/ (warning|notice): /.test(l) && /\[policy/.test(l))

describe('a pull request against its base commit', () => {
  it('is still held to a rule it deletes, and the review names the deletion', async () => {
    const { cwd, read } = pullRequest(
      { 'policy.yaml': 'kind: Policy\nname: org\n', 'checkout.yaml': DASHBOARD },
      { 'policy.yaml': BASE_POLICY },
      ['checkout.yaml']
    )
    // Without the base, the pull request's own (empty) policy holds: nothing fires.
    expect(errors((await check(cwd)).lines)).toEqual([])
    const { lines, review } = await check(cwd, { base: read })
    expect(errors(lines)).toEqual([
      expect.stringMatching(/^checkout\.yaml:1:1 .*at most 1 tile \[policy org: tile-budget\]/)
    ])
    expect(review?.from).toEqual({ kind: 'base', commit: read.commit })
    expect(review?.changes.map(c => `${c.verb} ${c.rule}`)).toEqual([
      'removes tile-budget',
      'removes owner-tag'
    ])
    expect(lines.join('\n')).toContain('this pull request removes policy rule "tile-budget"')
  })

  it('is still held to a rule it deletes with the whole policy file', async () => {
    const { cwd, read } = pullRequest({ 'checkout.yaml': DASHBOARD }, { 'policy.yaml': BASE_POLICY }, [
      'checkout.yaml'
    ])
    const { lines, review } = await check(cwd, { base: read })
    expect(errors(lines)).toHaveLength(1)
    expect(review?.changes.filter(c => c.verb === 'removes')).toHaveLength(2)
  })

  it('is held to the base version of a rule it weakens, and the review says how', async () => {
    const weakened = BASE_POLICY.replace(
      'severity: error\n    message: at most 1 tile',
      'severity: warning\n    message: at most 1 tile'
    )
      .replace('size(resource.tiles) <= 1', 'size(resource.tiles) <= 1 || true')
      .replace(
        'kinds: [Dashboard]\n    severity: error\n    suppressible: false',
        'kinds: [SavedSearch]\n    severity: error\n    suppressible: false'
      )
    const { cwd, read } = pullRequest(
      { 'policy.yaml': weakened, 'checkout.yaml': DASHBOARD },
      { 'policy.yaml': BASE_POLICY },
      ['checkout.yaml']
    )
    const { lines, review } = await check(cwd, { base: read })
    expect(errors(lines)).toEqual([expect.stringContaining('[policy org: tile-budget]')])
    expect(review?.changes).toEqual([
      { verb: 'weakens', rule: 'tile-budget', how: ['severity error to warning', 'check changed'] },
      { verb: 'weakens', rule: 'owner-tag', how: ['kinds narrowed'] }
    ])
    // The weakened version is a preview: shown, not enforced.
    expect(lines.some(l => /notice: preview .*tile-budget/.test(l))).toBe(false)
  })

  it('previews a rule it adds, without blocking', async () => {
    const added = `${BASE_POLICY}  - id: no-b
    kinds: [Dashboard]
    severity: error
    message: no tile named B
    check: "!resource.tiles.exists(t, t.name == 'B')"
`
    const { cwd, read } = pullRequest(
      { 'policy.yaml': added, 'checkout.yaml': DASHBOARD.replace(tile('B', 6), '') },
      { 'policy.yaml': BASE_POLICY, 'checkout.yaml': DASHBOARD.replace(tile('B', 6), '') },
      []
    )
    const ok = await check(cwd, { base: read })
    expect(errors(ok.lines)).toEqual([])
    expect(ok.review?.changes).toEqual([{ verb: 'adds', rule: 'no-b', how: [] }])
    const { cwd: cwd2, read: read2 } = pullRequest(
      {
        'policy.yaml': added,
        'checkout.yaml': DASHBOARD.replace("tile('B', 6)", '')
          .replace('name: A', 'name: B')
          .replace(tile('B', 6), '')
      },
      { 'policy.yaml': BASE_POLICY },
      []
    )
    const { lines } = await check(cwd2, { base: read2 })
    expect(errors(lines)).toEqual([])
    expect(lines).toContainEqual(
      expect.stringMatching(
        /notice: preview of a rule this pull request adds or changes \(not enforced until merged\): .*no tile named B/
      )
    )
  })

  it('names a suppression it adds, and refuses one of a rule that is not suppressible', async () => {
    const suppressed = `# obsdeploy: allow tile-budget -- two tiles, reviewed with the payments team
${DASHBOARD.replace('tags: [owner:payments]\n', '').replace('kind: Dashboard', 'kind: Dashboard # obsdeploy: allow owner-tag -- no owner yet')}`
    const { cwd, read } = pullRequest(
      { 'policy.yaml': BASE_POLICY, 'checkout.yaml': suppressed },
      { 'checkout.yaml': DASHBOARD },
      ['policy.yaml']
    )
    const { lines, review } = await check(cwd, { base: read })
    expect(review?.suppressions).toEqual([
      { rule: 'tile-budget', kind: 'Dashboard', name: '"Checkout"', file: 'checkout.yaml', line: 1 }
    ])
    expect(lines).toContainEqual(
      'checkout.yaml:1:1 warning: this pull request adds a suppression: policy rule "tile-budget" is suppressed for Dashboard "Checkout": two tiles, reviewed with the payments team'
    )
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^checkout\.yaml:2:17 policy rule "owner-tag" cannot be suppressed \(suppressible: false in policy\.yaml:/
      )
    )
    // The refused suppression suppresses nothing: the rule still fires.
    expect(errors(lines)).toContainEqual(expect.stringContaining('[policy org: owner-tag]'))
  })

  it('does not name a suppression the base commit already had', async () => {
    const suppressed = `# obsdeploy: allow tile-budget -- two tiles, reviewed\n${DASHBOARD}`
    const { cwd, read } = pullRequest(
      {
        'policy.yaml': BASE_POLICY,
        'checkout.yaml': suppressed.replace('name: Checkout', 'name: Checkout\ndescription: x')
      },
      { 'checkout.yaml': suppressed },
      ['policy.yaml']
    )
    const { review } = await check(cwd, { base: read })
    expect(review?.suppressions).toEqual([])
  })

  it('says when a base file cannot be read as YAML, whose rules are then not in force', async () => {
    const { cwd, read } = pullRequest(
      { 'policy.yaml': BASE_POLICY, 'checkout.yaml': DASHBOARD },
      { 'broken.yaml': 'kind: Policy\nname: [unclosed\n' },
      ['policy.yaml', 'checkout.yaml']
    )
    const { lines } = await check(cwd, { base: read })
    expect(lines).toContainEqual(
      expect.stringMatching(
        /warning: the base commit's policies have problems, so some of its rules are not in force: broken\.yaml:\d+: /
      )
    )
  })

  it('obeys its own files when the base cannot be read, and says so', async () => {
    const { cwd } = pullRequest(
      { 'policy.yaml': 'kind: Policy\nname: org\n', 'checkout.yaml': DASHBOARD },
      {},
      []
    )
    const { lines, review } = await check(cwd, { base: { unavailable: 'GitHub answered 404: Not Found' } })
    expect(errors(lines)).toEqual([])
    expect(review?.from).toEqual({ kind: 'workspace', fallback: 'GitHub answered 404: Not Found' })
    expect(lines).toContainEqual(
      expect.stringContaining(
        "the rules of the pull request's base commit could not be read (GitHub answered 404: Not Found)"
      )
    )
  })
})

describe('a policy source', () => {
  const source = (text: string) =>
    centralPolicies(
      { origin: 'acme/policies@main:org', files: [{ path: 'acme/policies@main:org/rules.yaml', text }] },
      {}
    )

  it('adds rules the manifests cannot change', async () => {
    const { cwd } = pullRequest({ 'checkout.yaml': DASHBOARD }, {}, [])
    const central = source(BASE_POLICY)
    expect(central.diagnostics).toEqual([])
    const { lines, review } = await check(cwd, { central })
    expect(errors(lines)).toEqual([expect.stringContaining('[policy org: tile-budget]')])
    expect(review?.central).toBe('acme/policies@main:org')
    expect(review?.rules.map(r => r.from)).toEqual([
      'acme/policies@main:org/rules.yaml:4',
      'acme/policies@main:org/rules.yaml:9'
    ])
  })

  it('refuses a rule id the manifests define again', async () => {
    const { cwd } = pullRequest({ 'policy.yaml': BASE_POLICY, 'checkout.yaml': DASHBOARD }, {}, [])
    const { lines } = await check(cwd, { central: source(BASE_POLICY) })
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^policy\.yaml:4:9 rules\[0\]\.id: duplicate policy rule id "tile-budget" \(also at acme\/policies@main:org\/rules\.yaml:4\)/
      )
    )
  })

  it('is an error when unreadable, empty or holding other documents', () => {
    expect(centralPolicies({ origin: 'x', unreadable: '404' }, {}).diagnostics.map(formatDiagnostic)).toEqual(
      ['policy-source x: could not be read (404); nothing is planned without the rules it holds']
    )
    expect(centralPolicies({ origin: 'x', files: [] }, {}).diagnostics.map(formatDiagnostic)).toEqual([
      'policy-source x: holds no Policy document (check its path and ref)'
    ])
    expect(source(DASHBOARD).diagnostics.map(formatDiagnostic)).toEqual([
      'acme/policies@main:org/rules.yaml:1:1 a policy source holds Policy documents only: this document is not one'
    ])
  })
})

describe('comparing rules', () => {
  const rule = (over: Partial<PolicyRule> = {}): PolicyRule => ({
    id: 'r',
    severity: 'error',
    message: 'm',
    check: 'true',
    ...over
  })
  const one = (r: PolicyRule, applies = true) => new Map([[r.id, { rule: r, applies }]])

  it('tells weakening from other changes', () => {
    expect(compareRules(one(rule()), one(rule()))).toEqual([])
    expect(compareRules(one(rule({ severity: 'warning' })), one(rule()))).toEqual([
      { verb: 'changes', rule: 'r', how: ['severity warning to error'] }
    ])
    expect(
      compareRules(one(rule({ kinds: ['Dashboard', 'Alert'] })), one(rule({ kinds: ['Alert'] })))
    ).toEqual([{ verb: 'weakens', rule: 'r', how: ['kinds narrowed'] }])
    expect(compareRules(one(rule()), one(rule({ kinds: ['Alert'] })))).toEqual([
      { verb: 'weakens', rule: 'r', how: ['kinds narrowed'] }
    ])
    expect(compareRules(one(rule({ kinds: ['Alert'] })), one(rule()))).toEqual([
      { verb: 'changes', rule: 'r', how: ['kinds widened'] }
    ])
    expect(compareRules(one(rule()), one(rule(), false))).toEqual([
      { verb: 'weakens', rule: 'r', how: ['no longer holds in this stack'] }
    ])
    expect(compareRules(one(rule({ suppressible: false })), one(rule()))).toEqual([
      { verb: 'weakens', rule: 'r', how: ['can now be suppressed'] }
    ])
    expect(compareRules(one(rule()), one(rule({ on: 'plan' })))).toEqual([
      { verb: 'weakens', rule: 'r', how: ['runs over the plan instead'] }
    ])
    expect(compareRules(one(rule(), false), one(rule()))).toEqual([{ verb: 'adds', rule: 'r', how: [] }])
    expect(compareRules(one(rule(), false), new Map())).toEqual([])
  })

  it('parses the documents a base file holds', () => {
    expect(parseYamlFile('x.yaml', BASE_POLICY).documents).toHaveLength(1)
  })
})
