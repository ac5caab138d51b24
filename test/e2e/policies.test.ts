/**
 * Policies through the built bundles: the recommended pack's rules as annotations at the offending
 * file:line:col (and silent on good manifests), a user's CEL rule, a suppression honoured and listed (in
 * validate and in the plan's comment), a policy message that stays inert in the job summary; and over the
 * plan against the emulator: a plan-time rule that blocks apply, a label rule on pull requests and on the
 * push after a merge, the recommended plan-time rules, and a repository-wide policy with stacks.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startEmulator, type Emulator } from '../../emulator/index.js'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-api.js'
import { alert, dashboard, timeTile, workspace as scratch, type Workspace } from '../support/harness.js'
import { pullRequestEvent, pushEvent, runAction, runCli, type ActionRun } from './runner.js'

let workspace: string
const tile = `tiles:
  - name: A
    x: 0
    y: 0
    w: 6
    h: 3
    series: [{ type: time, source: Logs, aggFn: count }]
`
const POLICY = `kind: Policy
name: org
recommended: true
rules:
  - id: tile-budget
    kinds: [Dashboard]
    severity: error
    message: "at most 1 tile <img src=x onerror=alert(1)> @everyone"
    check: size(resource.tiles) <= 1
    field: tiles
`
const GOOD = `kind: Dashboard
name: Checkout
tags: [owner:payments]
${tile}---
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
const BAD = `kind: Dashboard
name: " Cart"
tags: [payments]
${tile}  - name: B
    x: 6
    y: 0
    w: 6
    h: 3
    series: [{ type: time, source: Logs, aggFn: count }]
---
# obsdeploy: allow recommended/alert-interval -- pages the on-call within a minute of a checkout outage
kind: Alert
name: Cart errors
dashboard: " Cart"
tile: A
threshold: 1
thresholdType: above
interval: 1m
channels: []
message: no link
---
kind: Alert
name: Cart latency
dashboard: " Cart"
tile: B
threshold: 1
thresholdType: above
interval: 1m
channel: { type: webhook, webhook: oncall }
message: Runbook https://runbooks.example/cart
`

beforeAll(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), 'obsdeploy-e2e-policies-'))
  await mkdir(path.join(workspace, 'good'))
  await mkdir(path.join(workspace, 'bad'))
  await writeFile(path.join(workspace, 'good/policy.yaml'), POLICY)
  await writeFile(path.join(workspace, 'good/checkout.yaml'), GOOD)
  await writeFile(path.join(workspace, 'bad/policy.yaml'), POLICY)
  await writeFile(path.join(workspace, 'bad/cart.yaml'), BAD)
})

afterAll(async () => {
  await rm(workspace, { recursive: true, force: true })
})

describe('policies in validate (bundles)', () => {
  it('are silent on good manifests', async () => {
    const cli = await runCli(['validate', 'good'], { cwd: workspace })
    expect(cli.stdout + cli.stderr).not.toContain('[policy')
    expect(cli.exitCode).toBe(0)
  })

  it('annotate each rule at its file:line:col, list the suppression, and keep messages inert', async () => {
    const run = await runAction({
      inputs: { command: 'validate', manifests: 'bad/**/*.yaml' },
      cwd: workspace
    })
    expect(run.exitCode).toBe(1)
    const at = (id: string) =>
      run.annotations
        .filter(a => a.file !== undefined && a.message.includes(`: ${id}]`))
        .map(a => `${a.level} ${a.file}:${a.line}:${a.col}`)
    expect(at('recommended/name-pattern')).toEqual(['warning bad/cart.yaml:2:7'])
    expect(at('recommended/owner-tag')).toEqual(['warning bad/cart.yaml:3:7'])
    expect(at('tile-budget')).toEqual(['error bad/cart.yaml:5:3'])
    expect(at('recommended/alert-channel')).toEqual(['error bad/cart.yaml:26:11'])
    expect(at('recommended/runbook-link')).toEqual(['warning bad/cart.yaml:27:10'])
    // Fires on the second alert; the first one's suppression holds.
    expect(at('recommended/alert-interval')).toEqual(['warning bad/cart.yaml:35:11'])
    expect(run.annotations).toContainEqual(
      expect.objectContaining({
        level: 'notice',
        file: 'bad/cart.yaml',
        line: 18,
        message: expect.stringContaining(
          'policy rule "recommended/alert-interval" is suppressed for Alert "Cart errors": pages the on-call'
        )
      })
    )
    expect(run.summary).toContain('tile-budget')
    expect(run.summary).not.toContain('<img')
    expect(run.summary).not.toMatch(/(^|[^`\w])@everyone/)
  })
})

// ---------------------------------------------------------------------------------------------------------
// Rules that could hang a run or never enforce anything: bounded by a cost budget, RE2 for regular
// expressions, and a check that cannot be evaluated refused when loaded.

describe('rules that cannot hang the run or fail quietly (bundles)', () => {
  const tiles = Array.from({ length: 500 }, (_, i) =>
    timeTile(`T${i}`, (i % 4) * 6, Math.floor(i / 4) * 3)
  ).join('')
  const rule = (id: string, message: string, check: string) => `  - id: ${id}
    kinds: [Dashboard]
    severity: warning
    message: ${message}
    check: ${check}
`
  const triples = rule(
    'tile-triples',
    'tiles are compared three by three',
    "resource.tiles.all(a, resource.tiles.all(b, resource.tiles.all(c, a.name != '' || b.name != c.name)))"
  )
  const allA = rule('a-names', 'names are all a', "resource.name.matches('^(a+)+$')")
  const policy = (...rules: string[]) => `kind: Policy\nname: guards\nrules:\n${rules.join('')}`
  // A name RE2 answers at once, and JavaScript's backtracking takes hours over (34 a's take minutes).
  const name = `${'a'.repeat(60)}!`

  const validate = async (folder: string, files: Record<string, string>) => {
    await mkdir(path.join(workspace, folder))
    for (const [file, text] of Object.entries(files))
      await writeFile(path.join(workspace, folder, file), text)
    // Unbounded, these run for minutes: killed at 45 s.
    const cli = await runCli(['validate', folder], { cwd: workspace, timeoutMs: 45_000 })
    expect(cli.signal).toBeNull()
    return { ...cli, out: cli.stdout + cli.stderr }
  }

  it('stop nested comprehensions over 500 tiles at the cost budget: an error naming the rule and the resource, at the rule', async () => {
    const cli = await validate('budget', {
      'policy.yaml': policy(triples),
      'big.yaml': dashboard('Big', tiles)
    })
    expect(cli.out).toContain(
      'budget/policy.yaml:8:12 rules[0].check: policy rule "tile-triples" cannot be evaluated on Dashboard "Big": it went over the cost budget of 20,000,000 steps'
    )
    expect(cli.out).not.toContain('tiles are compared three by three')
    expect(cli.exitCode).toBe(1)
  })

  it("answer `^(a+)+$` over a long name on RE2's linear engine", async () => {
    const cli = await validate('regex', {
      'policy.yaml': policy(allA),
      'names.yaml': `${dashboard(name, timeTile('A', 0, 0))}---\n${dashboard('a'.repeat(60), timeTile('A', 0, 0))}`
    })
    // The first name is not all a's: a finding (a warning); the second is.
    expect(cli.out).toContain(
      `regex/names.yaml:1:1 warning: Dashboard "${name}": names are all a [policy guards: a-names]`
    )
    expect(cli.out.match(/\[policy guards: a-names\]/g)).toHaveLength(1)
    expect(cli.exitCode).toBe(0)
  })

  it('refuse a check that calls an unknown function, at its line and column, as an error though the rule is a warning', async () => {
    const typo = policy(
      triples.replace(/check: .*/, 'check: size(resource.tiles) <= 500'),
      rule('s-names', 'names start with S', "resource.name.startswith('S')")
    )
    await writeFile(
      path.join(workspace, 'typo.yaml'),
      `${typo}---\n${dashboard('Search', timeTile('A', 0, 0))}`
    )
    const run = await runAction({ inputs: { command: 'validate', manifests: 'typo.yaml' }, cwd: workspace })
    expect(run.exitCode).toBe(1)
    expect(run.annotations).toContainEqual(
      expect.objectContaining({
        level: 'error',
        file: 'typo.yaml',
        line: 13,
        col: 26,
        message:
          'rules[1].check: policy rule "s-names": the check does not compile: unknown function `startswith` (did you mean `startsWith`?)'
      })
    )
    // Not a finding on each resource carrying the rule's message.
    expect(run.annotations.map(a => a.message).join('\n')).not.toContain('names start with S')
  })
})

// ---------------------------------------------------------------------------------------------------------
// Over the plan, against the emulator: the action as the runner runs it, with a loopback GitHub.

describe('policies over the plan (bundle, emulator, loopback GitHub)', () => {
  let emu: Emulator
  let gh: FakeGitHub
  const spaces: Workspace[] = []
  const runs: ActionRun[] = []
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, rateLimits: { selfHosted: false, managed: false } })
    gh = await startFakeGitHub()
  })
  afterAll(async () => {
    await Promise.all(runs.map(r => r.cleanup()))
    spaces.forEach(ws => ws.cleanup())
    await emu.close()
    await gh.close()
  })

  const space = (files: Record<string, string>): Workspace => {
    const ws = scratch(files)
    spaces.push(ws)
    return ws
  }
  /** A pull request's plan (labelled `labels`), or with pr 0 a push to main that applies. */
  async function action(
    ws: Workspace,
    pr: number,
    inputs: Record<string, string>,
    labels: string[] = []
  ): Promise<ActionRun> {
    const event = pullRequestEvent(pr)
    const run = await runAction({
      cwd: ws.dir,
      eventName: pr === 0 ? 'push' : 'pull_request',
      event:
        pr === 0
          ? pushEvent('refs/heads/main')
          : { ...event, pull_request: { ...event.pull_request, labels: labels.map(name => ({ name })) } },
      inputs: {
        command: pr === 0 ? 'apply' : 'plan',
        'rate-limit': 'off',
        'api-url': emu.url,
        'api-key': emu.credentials.apiKey,
        'github-token': 'ghs_fake_token_for_tests',
        ...inputs
      },
      env: { GITHUB_API_URL: gh.url },
      timeoutMs: 120_000
    })
    runs.push(run)
    return run
  }
  const named = (stack: string) =>
    [...emu.selfHosted.dashboards.values()]
      .filter(d => d.tags.includes(`obsdeploy:${stack}`))
      .map(d => d.name)
      .sort()
  const findings = (run: ActionRun, id: string) =>
    run.annotations
      // Not the step's failure line (core.setFailed), which quotes the first errors again.
      .filter(a => a.message.includes(`: ${id}]`) && !/^\d+ error\(s\): /.test(a.message))
      .map(a => `${a.level} ${a.file ?? ''}:${a.line ?? ''}:${a.col ?? ''}`)

  it('a plan-time rule blocks apply: nothing is written, and the annotations say why', async () => {
    const ws = space({
      'policy.yaml': `kind: Policy
name: budgets
rules:
  - id: alert-budget
    kinds: [Alert]
    on: plan
    severity: error
    message: at most 1 alert in this stack
    check: plan.after.Alert <= 1
`,
      'shop.yaml':
        dashboard('Shop', timeTile('Errors', 0, 0)) +
        alert('Shop errors', 'Shop', 'Errors') +
        alert('Shop errors again', 'Shop', 'Errors', 20)
    })
    const before = { dashboards: emu.selfHosted.dashboards.size, alerts: emu.selfHosted.alerts.size }
    const run = await action(ws, 0, { stack: 'budget' })
    expect(run.exitCode).toBe(1)
    expect(findings(run, 'alert-budget')).toEqual([
      'error observability/shop.yaml:16:1',
      'error observability/shop.yaml:25:1'
    ])
    expect(run.annotations.map(a => a.message)).toContainEqual(
      expect.stringContaining('nothing was applied: the plan has errors')
    )
    expect({ dashboards: emu.selfHosted.dashboards.size, alerts: emu.selfHosted.alerts.size }).toEqual(before)
    expect(run.outputs).toMatchObject({ creates: '3' })
  })

  it('a suppression is honoured and listed in the plan comment, not only in validate', async () => {
    const ws = space({
      'policy.yaml': 'kind: Policy\nname: org\nrecommended: true\n',
      'checkout.yaml': `# obsdeploy: allow recommended/owner-tag -- the shared storefront board, owned by everyone\n${dashboard('Checkout', timeTile('Errors', 0, 0))}`
    })
    const run = await action(ws, 31, { stack: 'suppressed' })
    expect(run.exitCode).toBe(0)
    expect(findings(run, 'recommended/owner-tag')).toEqual([])
    expect(run.annotations).toContainEqual(
      expect.objectContaining({
        level: 'notice',
        file: 'observability/checkout.yaml',
        line: 1,
        message: expect.stringContaining(
          'policy rule "recommended/owner-tag" is suppressed for Dashboard "Checkout"'
        )
      })
    )
    const body = gh.comments(31).at(-1)!.body
    expect(body).toContain('recommended/owner-tag')
    expect(body).toContain('the shared storefront board, owned by everyone')
  })

  it('a push apply whose rules read no labels asks GitHub for none', async () => {
    const ws = space({
      'policy.yaml': 'kind: Policy\nname: org\nrecommended: true\n',
      'quiet.yaml': dashboard('Quiet', timeTile('Errors', 0, 0), 'tags: [owner:sre]\n')
    })
    const asked = () =>
      gh.requests.filter(r => /^\/repos\/[^/]+\/[^/]+\/commits\/[^/]+\/pulls$/.test(r.path)).length
    const before = asked()
    const run = await action(ws, 0, { stack: 'no-label-rules' })
    expect(run.exitCode).toBe(0)
    expect(named('no-label-rules')).toEqual(['Quiet'])
    expect(asked()).toBe(before)
  })

  describe('a label rule: no delete of a dashboard tagged critical without the approved-delete label', () => {
    const POLICY = `kind: Policy
name: deletes
rules:
  - id: critical-delete
    kinds: [Dashboard]
    on: plan
    severity: error
    message: deleting a dashboard tagged critical needs the approved-delete label on its pull request
    check: change.action != 'delete' || !('critical' in change.tags) || 'approved-delete' in labels
`
    let ws: Workspace
    beforeAll(async () => {
      ws = space({
        'policy.yaml': POLICY,
        'keep.yaml': dashboard('Keep', timeTile('Errors', 0, 0)),
        'legacy.yaml': dashboard('Legacy', timeTile('Errors', 0, 0), 'tags: [critical]\n')
      })
      const created = await action(ws, 0, { stack: 'labels' })
      expect(created.exitCode).toBe(0)
      expect(named('labels')).toEqual(['Keep', 'Legacy'])
      ws.remove('legacy.yaml')
    })

    it('a pull request without the label shows the error in its plan; with it the plan passes', async () => {
      const without = await action(ws, 41, { stack: 'labels', prune: 'true' })
      expect(without.exitCode).toBe(1)
      expect(findings(without, 'critical-delete')).toEqual(['error ::'])
      expect(gh.comments(41).at(-1)!.body).toContain('needs the approved-delete label')

      const labelled = await action(ws, 42, { stack: 'labels', prune: 'true' }, ['approved-delete', 'docs'])
      expect(labelled.exitCode).toBe(0)
      expect(findings(labelled, 'critical-delete')).toEqual([])
      expect(labelled.outputs).toMatchObject({ deletes: '1' })
    })

    it('the CLI takes the labels with --label', async () => {
      const args = [
        'plan',
        'observability/',
        '--api-url',
        emu.url,
        '--stack',
        'labels',
        '--prune',
        '--rate-limit',
        'off'
      ]
      const env = { OBSDEPLOY_API_KEY: emu.credentials.apiKey }
      const without = await runCli(args, { cwd: ws.dir, env })
      expect(without.exitCode).toBe(1)
      expect(without.stdout + without.stderr).toContain(
        'needs the approved-delete label on its pull request [policy deletes: critical-delete] (no labels to read: no --label was given)'
      )
      const labelled = await runCli([...args, '--label', 'approved-delete'], { cwd: ws.dir, env })
      expect(labelled.stdout + labelled.stderr).not.toContain('critical-delete')
      expect(labelled.exitCode).toBe(0)
    })

    it('a push applies when the merged pull request has the label, and is blocked when it has not', async () => {
      const sha = pushEvent('refs/heads/main').after
      gh.setCommitPulls(sha, [{ number: 43, labels: ['docs'] }])
      const asked = () => gh.requests.filter(r => r.path === `/repos/acme/shop/commits/${sha}/pulls`).length
      const before = asked()
      const blocked = await action(ws, 0, { stack: 'labels', prune: 'true' })
      expect(blocked.exitCode).toBe(1)
      expect(blocked.annotations.map(a => a.message)).toContainEqual(
        expect.stringContaining(
          'needs the approved-delete label on its pull request [policy deletes: critical-delete]'
        )
      )
      expect(named('labels')).toEqual(['Keep', 'Legacy'])
      expect(asked()).toBe(before + 1)

      // No merged pull request (a commit pushed straight to main): no labels, and the finding says why.
      gh.setCommitPulls(sha, [{ number: 44, labels: ['approved-delete'], merged: false }])
      const direct = await action(ws, 0, { stack: 'labels', prune: 'true' })
      expect(direct.exitCode).toBe(1)
      expect(direct.annotations.map(a => a.message)).toContainEqual(
        expect.stringContaining(`no labels to read: no merged pull request has commit ${sha.slice(0, 12)}`)
      )
      expect(named('labels')).toEqual(['Keep', 'Legacy'])

      gh.setCommitPulls(sha, [{ number: 45, labels: ['approved-delete'] }])
      const applied = await action(ws, 0, { stack: 'labels', prune: 'true' })
      expect(applied.exitCode).toBe(0)
      expect(named('labels')).toEqual(['Keep'])
    })
  })

  it("recommended/alert-query-data: with check-queries, fires at the alert's tile when its query has no data, silent when it has", async () => {
    const ws = space({
      'policy.yaml': 'kind: Policy\nname: org\nrecommended: true\n',
      'data.yaml':
        dashboard(
          'Data',
          timeTile('Errors', 0, 0, 'level:error') + timeTile('Nothing', 6, 0, 'service:no-such-service'),
          'tags: [owner:sre]\n'
        ) +
        alert('Errors firing', 'Data', 'Errors').replace(
          'channel:',
          'message: Runbook https://runbooks.example/e\nchannel:'
        ) +
        alert('Nothing firing', 'Data', 'Nothing').replace(
          'channel:',
          'message: Runbook https://runbooks.example/n\nchannel:'
        )
    })
    const run = await action(ws, 51, { stack: 'data-rules', 'check-queries': 'true' })
    expect(findings(run, 'recommended/alert-query-data')).toEqual(['warning observability/data.yaml:41:7'])
    for (const id of [
      'alert-channel',
      'owner-tag',
      'runbook-link',
      'alert-interval',
      'name-pattern',
      'dashboard-name-unique'
    ])
      expect(findings(run, `recommended/${id}`)).toEqual([])

    const unchecked = await action(ws, 52, { stack: 'data-rules' })
    expect(findings(unchecked, 'recommended/alert-query-data')).toEqual([])
    expect(unchecked.annotations).toContainEqual(
      expect.objectContaining({
        level: 'notice',
        message: expect.stringContaining(
          'policy rule "recommended/alert-query-data" reads the query data of 2 changed resource(s), which this run could not check (check-queries is off)'
        )
      })
    )
  })

  it('a repository-wide policy holds in every stack (scoped by `stacks`), and recommended/dashboard-name-unique finds a name two stacks use', async () => {
    const ws = space({
      'policy.yaml': `kind: Policy
name: repository
recommended: true
rules:
  - id: payments-tag
    kinds: [Dashboard]
    stacks: [payments]
    severity: warning
    message: payments dashboards carry the team:payments tag
    check: has(resource.tags) && 'team:payments' in resource.tags
    field: tags
`,
      'payments/stack.yaml': 'name: payments\n',
      'payments/overview.yaml': dashboard('Overview', timeTile('Errors', 0, 0), 'tags: [owner:payments]\n'),
      'search/stack.yaml': 'name: search\n',
      'search/overview.yaml': dashboard('Overview', timeTile('Errors', 0, 0), 'tags: [owner:search]\n')
    })
    const run = await action(ws, 61, { stacks: 'true' })
    expect(run.exitCode).toBe(0)
    expect(findings(run, 'payments-tag')).toEqual(['warning observability/payments/overview.yaml:3:7'])
    expect(findings(run, 'recommended/dashboard-name-unique')).toEqual([
      'warning observability/payments/overview.yaml:2:7',
      'warning observability/search/overview.yaml:2:7'
    ])
    expect(findings(run, 'recommended/owner-tag')).toEqual([])
  })
})
