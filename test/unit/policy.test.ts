/**
 * Policies offline (src/policy): the Policy document's own validation, user CEL rules, the recommended
 * pack at the offending file:line:col, scopes, and suppressions with and without a reason.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { formatDiagnostic } from '../../src/diagnostics.js'
import { loadManifests, loadStats, validateText } from '../../src/manifest/load.js'
import { maskEmail } from '../../src/mask-email.js'
import { checkPolicies } from '../../src/policy/check.js'
import { parseField } from '../../src/policy/rules.js'
import { suppressionsAt } from '../../src/policy/suppress.js'
import { loadWithPolicies } from '../../src/run/load.js'
import { scratchDir } from '../support/scratch.js'

async function check(text: string, stack = 'default'): Promise<string[]> {
  const set = validateText('m.yaml', text, 'self-hosted')
  const { manifests } = await checkPolicies(set, { stack })
  return manifests.diagnostics.map(formatDiagnostic)
}

const tile = `tiles:
  - name: A
    x: 0
    y: 0
    w: 6
    h: 3
    series: [{ type: time, source: Logs, aggFn: count }]
`
const recommended = 'kind: Policy\nname: org\nrecommended: true\n---\n'
const goodDashboard = `kind: Dashboard\nname: Checkout\ntags: [owner:payments]\n${tile}`
const goodAlert = `---
kind: Alert
name: Checkout errors
dashboard: Checkout
tile: A
threshold: 1
thresholdType: above
interval: 5m
channel: { type: webhook, webhook: oncall }
message: Runbook https://runbooks.example/checkout
`

describe('the recommended pack', () => {
  it('is silent on good manifests', async () => {
    expect(await check(recommended + goodDashboard + goodAlert)).toEqual([])
  })

  it('is off unless a Policy turns it on', async () => {
    expect(
      await check('kind: Policy\nname: org\n---\n' + `kind: Dashboard\nname: Checkout\n${tile}`)
    ).toEqual([])
  })

  it('fires each rule at the offending line and column', async () => {
    const bad = `kind: Dashboard
name: " Checkout"
tags: [payments]
${tile}---
kind: Alert
name: Checkout errors
dashboard: " Checkout"
tile: A
threshold: 1
thresholdType: above
interval: 1m
message: no link here
`
    const found = await check(recommended + bad)
    expect(found).toEqual(
      expect.arrayContaining([
        'm.yaml:6:7 warning: name: Dashboard " Checkout": a name should be at most 100 characters, start with a letter or digit and end without spaces [policy org: recommended/name-pattern]',
        'm.yaml:7:7 warning: tags: Dashboard " Checkout": needs an owner: add a tag `owner:<team>` [policy org: recommended/owner-tag]',
        'm.yaml:16:1 channels: Alert "Checkout errors": an alert must notify someone: give it a `channel` or at least one of `channels` [policy org: recommended/alert-channel]',
        'm.yaml:22:11 warning: interval: Alert "Checkout errors": a 1-minute alert runs its query 1,440 times a day: use 5m or longer unless it must page that fast [policy org: recommended/alert-interval]',
        'm.yaml:23:10 warning: message: Alert "Checkout errors": the alert message should link a runbook (an http:// or https:// URL) [policy org: recommended/runbook-link]'
      ])
    )
  })
})

describe('the recommended pack on roles (managed)', () => {
  const checkManaged = async (text: string) => {
    const { manifests } = await checkPolicies(validateText('m.yaml', text, 'managed'), { stack: 'default' })
    return manifests.diagnostics.map(formatDiagnostic)
  }
  const role = (permissions: string) => `kind: Role\nname: Deploy bot\npermissions:\n${permissions}`

  it('flags a custom role that grants manage on all, at its permissions', async () => {
    expect(await checkManaged(recommended + role('  - { action: manage, subject: all }\n'))).toEqual([
      expect.stringMatching(
        /^m\.yaml:8:3 warning: permissions: Role "Deploy bot": grants `manage all`: .* \[policy org: recommended\/role-manage-all\]$/
      )
    ])
  })

  it('is silent on narrower grants and on a denial of manage all', async () => {
    const narrow = role('  - { action: manage, subject: Dashboard }\n  - { action: read, subject: all }\n')
    const denial = role(
      '  - { action: read, subject: Dashboard }\n  - { action: manage, subject: all, inverted: true }\n'
    )
    expect(await checkManaged(recommended + narrow)).toEqual([])
    expect(await checkManaged(recommended + denial)).toEqual([])
  })
})

describe('user rules in CEL', () => {
  const rule = (extra = '') => `kind: Policy
name: budgets
rules:
  - id: tile-budget
    kinds: [Dashboard]
    severity: error
    message: at most 1 tile
    check: size(resource.tiles) <= 1
    field: tiles[1]
${extra}---
`
  const two = `kind: Dashboard\nname: Checkout\n${tile}  - name: B\n    x: 6\n    y: 0\n    w: 6\n    h: 3\n    series: [{ type: time, source: Logs, aggFn: count }]\n`

  it('are checked without changing the set they are given: the checked set comes back', async () => {
    const set = validateText('m.yaml', rule() + two, 'self-hosted')
    const documents = set.documents
    const { manifests } = await checkPolicies(set, { stack: 'default' })
    expect(set.diagnostics).toEqual([])
    expect(set.documents).toBe(documents)
    expect(documents).toHaveLength(1)
    expect(manifests.diagnostics.map(formatDiagnostic)).toEqual([
      'm.yaml:20:5 tiles[1]: Dashboard "Checkout": at most 1 tile [policy budgets: tile-budget]'
    ])
    // The documents as written have served the rules: the checked set lets them go.
    expect(manifests.documents).toBeUndefined()
    expect(manifests.suppressionLines).toBeUndefined()
    // So the same set checked again finds the same.
    expect((await checkPolicies(set, { stack: 'default' })).manifests.diagnostics).toEqual(
      manifests.diagnostics
    )
  })

  it('fires at the field it names', async () => {
    expect(await check(rule() + two)).toEqual([
      'm.yaml:20:5 tiles[1]: Dashboard "Checkout": at most 1 tile [policy budgets: tile-budget]'
    ])
    expect(await check(rule() + `kind: Dashboard\nname: Checkout\n${tile}`)).toEqual([])
  })

  // loadManifests holds the documents as written until their files pass 4 MiB of text; past that, until a
  // Policy turns up, it lets each file's documents go once validated, and a later Policy reads them again.
  it.each([
    ['held while a Policy may yet turn up', 0],
    ['let go past 4 MiB of text, and read again', 5]
  ])(
    'reads the documents of files loaded before the Policy, variables filled, as written: %s',
    async (_, padding) => {
      const cwd = scratchDir('policy-late-')
      mkdirSync(path.join(cwd, 'm'))
      // Files of 0.9 MiB (a manifest file is at most 1 MiB), mostly a comment, before the others.
      for (let i = 0; i < padding; i++)
        writeFileSync(
          path.join(cwd, 'm', `0${i}.yaml`),
          `# ${'x'.repeat(900_000)}\nkind: Dashboard\nname: Big ${i}\n${tile}`
        )
      writeFileSync(path.join(cwd, 'm', 'a.yaml'), two.replace('name: Checkout', 'name: ${NAME}'))
      writeFileSync(path.join(cwd, 'm', 'b.yaml'), `kind: Dashboard\nname: Search\n${tile}`)
      writeFileSync(
        path.join(cwd, 'm', 'z.yaml'),
        rule().replace(/---\n$/, '') + '---\n' + two.replace('Checkout', 'Late')
      )
      const readAgain = loadStats.filesReadAgain
      const { manifests: set } = await loadWithPolicies({
        stack: 'default',
        patterns: ['m/*.yaml'],
        cwd,
        mode: 'self-hosted',
        vars: { NAME: 'Checkout' }
      })
      // Held: nothing is read twice. Let go: each file before the Policy's is.
      expect(loadStats.filesReadAgain - readAgain).toBe(padding === 0 ? 0 : padding + 2)
      expect(set.diagnostics.map(formatDiagnostic)).toEqual([
        'm/a.yaml:10:5 tiles[1]: Dashboard "Checkout": at most 1 tile [policy budgets: tile-budget]',
        'm/z.yaml:20:5 tiles[1]: Dashboard "Late": at most 1 tile [policy budgets: tile-budget]'
      ])
      // Without a Policy, nothing of the documents as written is kept.
      const plain = await loadManifests({
        patterns: ['m/a.yaml', 'm/b.yaml'],
        cwd,
        mode: 'self-hosted',
        vars: { NAME: 'x' }
      })
      expect(plain.documents).toBeUndefined()
      expect(plain.specs.Dashboard.map(d => d.doc.value)).toEqual([undefined, undefined])
    }
  )

  it('holds only in the stacks it names', async () => {
    const scoped = rule().replace('    field: tiles[1]\n', '    field: tiles[1]\n    stacks: [payments]\n')
    expect(await check(scoped + two, 'search')).toEqual([])
    expect(await check(scoped + two, 'payments')).toHaveLength(1)
  })

  it('reports a check that is not CEL at its place, and one that fails to evaluate as an error of the rule', async () => {
    const broken = rule().replace('size(resource.tiles) <= 1', 'size(resource.tiles <= 1')
    expect((await check(broken + two))[0]).toBe(
      'm.yaml:8:36 rules[0].check: policy rule "tile-budget": the check does not compile: Expected RPAREN, got EOF'
    )
    // The dashboard has no tags: the rule cannot say, whatever its severity and message.
    const missing = rule()
      .replace('size(resource.tiles) <= 1', "resource.tags[0] == 'x'")
      .replace('error', 'warning')
    expect(await check(missing + two)).toEqual([
      'm.yaml:20:5 tiles[1]: policy rule "tile-budget" cannot be evaluated on Dashboard "Checkout": No such key: tags [policy budgets]'
    ])
  })

  it('refuses at load, at its line and column, a check that calls an unknown function: even a warning rule', async () => {
    const policy = (check: string) => `kind: Policy
name: names
rules:
  - id: tile-budget
    kinds: [Dashboard]
    severity: warning
    message: at most 20 tiles
    check: size(resource.tiles) <= 20
  - id: s-names
    kinds: [Dashboard]
    severity: warning
    message: names start with S
    check: ${check}
---
`
    expect(await check(policy("resource.name.startswith('S')") + two)).toEqual([
      'm.yaml:13:26 rules[1].check: policy rule "s-names": the check does not compile: unknown function `startswith` (did you mean `startsWith`?)'
    ])
    // In a block scalar, on its second line; and a misspelt field, in a folded one.
    expect(
      await check(policy("|\n      size(resource.name) > 0 &&\n        resource.name.startswith('S')") + two)
    ).toEqual([
      'm.yaml:15:23 rules[1].check: policy rule "s-names": the check does not compile: unknown function `startswith` (did you mean `startsWith`?)'
    ])
    expect(
      await check(policy(">-\n      size(resource.name) > 0 &&\n      resource.nmae.startsWith('S')") + two)
    ).toEqual([
      'm.yaml:15:16 rules[1].check: policy rule "s-names": the check does not compile: `resource` (Dashboard) has no field `nmae` (did you mean `name`?)'
    ])
    expect(
      await check(policy(`"resource.name.startsWith(\\"S\\") && resource.tiles.all(t, t.nme != '')"`) + two)
    ).toEqual([
      'm.yaml:13:72 rules[1].check: policy rule "s-names": the check does not compile: `t` (Dashboard.tiles) has no field `nme` (did you mean `name`?)'
    ])
  })

  it('stops a rule at its cost budget: an error at its check naming the resource, even a suppressed one, and the rule is done', async () => {
    // Each iteration is charged the size of its body: here 300 parts, though `true ||` evaluates one.
    const body = `true || [${Array.from({ length: 300 }, () => 'a').join(', ')}].size() > 0`
    const tags = `tags: [${Array.from({ length: 49 }, (_, i) => `t${i}`).join(', ')}]`
    const text = `kind: Policy
name: budgets
rules:
  - id: triples
    kinds: [Dashboard]
    severity: warning
    message: tags three by three
    check: resource.tags.all(a, resource.tags.all(b, resource.tags.all(c, ${body})))
---
# obsdeploy: allow triples -- tried on this one
kind: Dashboard
name: One
${tags}
${tile}---
kind: Dashboard
name: Two
${tags}
${tile}`
    expect(await check(text)).toEqual([
      expect.stringMatching(
        /^m\.yaml:8:12 rules\[0\]\.check: policy rule "triples" cannot be evaluated on Dashboard "One": it went over the cost budget of 20,000,000 steps .*\[policy budgets\]; it is evaluated on no other resource in this run$/
      ),
      'm.yaml:10:1 notice: policy rule "triples" is suppressed for Dashboard "One": tried on this one'
    ])
  })

  it('validates the Policy document like any manifest, and refuses a rule id twice', async () => {
    const bad = `kind: Policy\nname: x\nrules:\n  - id: Bad Id\n    severity: fatal\n    message: m\n    check: 'true'\n`
    const found = await check(bad)
    expect(found.some(d => d.startsWith('m.yaml:4:9 rules[0].id:'))).toBe(true)
    expect(found.some(d => d.startsWith('m.yaml:5:15 rules[0].severity:'))).toBe(true)
    const twice = rule() + rule().replace('name: budgets', 'name: again')
    expect((await check(twice + `kind: Dashboard\nname: C\n${tile}`)).join('\n')).toContain(
      'duplicate policy rule id "tile-budget"'
    )
  })
})

describe('suppressions', () => {
  const policy = 'kind: Policy\nname: org\nrecommended: true\n---\n'
  const dash = `kind: Dashboard\nname: Checkout\n${tile}`

  it('are honoured with a reason and listed as notices', async () => {
    const text = `${policy}# obsdeploy: allow recommended/owner-tag -- shared by every team\n${dash}`
    expect(await check(text)).toEqual([
      'm.yaml:5:1 notice: policy rule "recommended/owner-tag" is suppressed for Dashboard "Checkout": shared by every team'
    ])
    const sameLine = `${policy}kind: Dashboard # obsdeploy: allow recommended/owner-tag -- shared\nname: Checkout\n${tile}`
    expect(await check(sameLine)).toHaveLength(1)
  })

  it('are read from the text that was validated, even if the file changes before the policies run', async () => {
    const cwd = scratchDir('policy-suppress-')
    const file = path.join(cwd, 'm.yaml')
    writeFileSync(file, `${policy}# obsdeploy: allow recommended/owner-tag -- shared by every team\n${dash}`)
    const set = await loadManifests({ patterns: ['m.yaml'], cwd, mode: 'self-hosted' })
    writeFileSync(file, `# edited meanwhile\n\n\n${dash}`)
    const { manifests } = await checkPolicies(set, { stack: 'default' })
    expect(manifests.diagnostics.map(formatDiagnostic)).toEqual([
      'm.yaml:5:1 notice: policy rule "recommended/owner-tag" is suppressed for Dashboard "Checkout": shared by every team'
    ])
  })

  it('without a reason are errors, and suppress nothing', async () => {
    const found = await check(`${policy}# obsdeploy: allow recommended/owner-tag\n${dash}`)
    expect(found).toEqual([
      'm.yaml:5:1 the suppression of policy rule "recommended/owner-tag" has no reason: write `# obsdeploy: allow recommended/owner-tag -- <why>`',
      'm.yaml:6:1 warning: tags: Dashboard "Checkout": needs an owner: add a tag `owner:<team>` [policy org: recommended/owner-tag]'
    ])
  })

  it('of an unknown rule are warned about', async () => {
    expect(await check(`${policy}# obsdeploy: allow no-such-rule -- why\n${dash}`)).toEqual(
      expect.arrayContaining(['m.yaml:5:1 warning: no policy rule "no-such-rule" to suppress here'])
    )
  })

  it('are read from the first line or a comment line just before it', () => {
    const lines = [
      'a: 1 # obsdeploy: allow x -- y',
      '# obsdeploy: allow r -- why',
      'kind: Dashboard # obsdeploy: allow s --  ok '
    ]
    expect(suppressionsAt(lines, 3)).toEqual([
      { rule: 'r', reason: 'why', line: 2, column: 1 },
      { rule: 's', reason: 'ok', line: 3, column: 17 }
    ])
    expect(suppressionsAt(lines, 2)).toEqual([{ rule: 'r', reason: 'why', line: 2, column: 1 }])
  })
})

it('parses a field path', () => {
  expect(parseField('tiles[1].name')).toEqual(['tiles', 1, 'name'])
  expect(parseField('channels')).toEqual(['channels'])
})

it("README's example policies are valid and their checks pass the type check", async () => {
  const { readFile } = await import('node:fs/promises')
  const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8')
  const examples = [...readme.matchAll(/```yaml\n((?:#.*\n)*kind: Policy\n[\s\S]*?)```/g)].map(m => m[1]!)
  expect(examples.length).toBeGreaterThanOrEqual(1)
  const dash = `kind: Dashboard\nname: Payments - Checkout\ntags: [owner:payments, team:payments]\n${tile}`
  for (const example of examples) {
    expect(example).toMatch(/check: /)
    expect(await check(`${example}---\n${dash}`, 'payments')).toEqual([])
  }
})

describe('rules over team members', () => {
  it('name a person by a masked email, in findings and in suppressions, never by the email', async () => {
    const text = `kind: Policy
name: org
rules:
  - id: company-domain
    kinds: [TeamMember]
    severity: error
    message: people are invited by their company address
    check: resource.email.endsWith('@example.com')
    field: email
---
kind: TeamMember
email: jane.doe@gmail.com
name: Jane Doe
---
# obsdeploy: allow company-domain -- a contractor for the quarter
kind: TeamMember
email: bob@contractor.io
---
kind: TeamMember
email: ann@example.com
`
    const found = await check(text)
    expect(found).toEqual([
      `m.yaml:12:8 email: TeamMember ${maskEmail('jane.doe@gmail.com')}: people are invited by their company address [policy org: company-domain]`,
      `m.yaml:15:1 notice: policy rule "company-domain" is suppressed for TeamMember ${maskEmail('bob@contractor.io')}: a contractor for the quarter`
    ])
    expect(found.join('\n')).not.toMatch(/jane\.doe|Jane Doe|bob@/)
  })
})
