/**
 * Many stacks in one repository, against the emulator: each folder with a stack.yaml is a stack with its
 * own ownership tag. Two stacks keep their own dashboards of the same name, prune in one never deletes
 * the other's, adopting across stacks is explicit (an `id:` pin, never `adopt: true`), two stacks never
 * manage one resource in a run, and every stack is planned from one read of the live state.
 */
import { describe, expect, it } from '@jest/globals'
import { createApi, type ObservabilityApi } from '../../src/api/client.js'
import type { RawSettings } from '../../src/config/inputs.js'
import type { Config } from '../../src/config/types.js'
import type { RunDependencies, RunResult } from '../../src/run/types.js'
import { alert, dashboard, obsdeploy, timeTile, useScenario } from '../support/harness.js'

const { emu, ws } = useScenario()

/** obsdeploy <command> --stacks (the harness's default `stack` would name a stack to run: none here). */
const stacks = (
  command: 'validate' | 'plan' | 'apply' | 'drift',
  settings: RawSettings = {},
  deps: RunDependencies = {}
): Promise<RunResult> => obsdeploy(emu, ws, command, { stacks: 'true', stack: '', ...settings }, false, deps)

const overview = (where: string) => dashboard('Overview', timeTile('Errors', 0, 0, where))

/** Two teams, each with a dashboard named "Overview" and an alert on it. */
function twoTeams(): void {
  ws.write({
    'payments/stack.yaml': 'name: payments\n',
    'payments/overview.yaml': overview('service:payments') + alert('Payment errors', 'Overview', 'Errors'),
    'payments/checkout.yaml': dashboard('Checkout', timeTile('Latency', 0, 0, 'service:checkout')),
    'search/stack.yaml': 'name: search\n',
    'search/overview.yaml': overview('service:search') + alert('Search errors', 'Overview', 'Errors')
  })
}

/** What each stack would do: "stack: action kind/name". */
function actions(result: RunResult): string[] {
  return (result.stacks?.results ?? [])
    .flatMap(r =>
      (r.plan?.changes ?? [])
        .filter(c => c.action !== 'noop' && !c.deferred)
        .map(c => `${r.stack}: ${c.action} ${c.kind}/${c.name}`)
    )
    .sort()
}

const errorsOf = (result: RunResult) =>
  result.diagnostics.filter(d => d.severity === 'error').map(d => d.message)

/** The live dashboards as "name [ownership tags]", sorted. */
const live = () =>
  [...emu.selfHosted.dashboards.values()]
    .map(d => `${d.name} [${(d.tags ?? []).filter(t => t.startsWith('obsdeploy:')).join(' ')}]`)
    .sort()

const alertsLive = () =>
  [...emu.selfHosted.alerts.values()]
    .map(
      a =>
        `${a.name} on ${emu.selfHosted.dashboards.get(a.dashboardId!)?.tags?.find(t => t.startsWith('obsdeploy:'))}`
    )
    .sort()

describe('two stacks in one repository', () => {
  it('each creates and keeps its own dashboard of the same name, and plans empty afterwards', async () => {
    twoTeams()
    const plan = await stacks('plan')
    expect(errorsOf(plan)).toEqual([])
    expect(actions(plan)).toEqual([
      'payments: create Alert/Payment errors',
      'payments: create Dashboard/Checkout',
      'payments: create Dashboard/Overview',
      'search: create Alert/Search errors',
      'search: create Dashboard/Overview'
    ])
    expect(plan.outputs).toMatchObject({ hasChanges: true, creates: 5, updates: 0, deletes: 0 })
    expect(JSON.parse(plan.outputs.matrix)).toEqual([
      { stack: 'payments', folder: 'observability/payments' },
      { stack: 'search', folder: 'observability/search' }
    ])

    const apply = await stacks('apply')
    expect(apply.exitCode).toBe(0)
    expect(live()).toEqual([
      'Checkout [obsdeploy:payments]',
      'Overview [obsdeploy:payments]',
      'Overview [obsdeploy:search]'
    ])
    expect(alertsLive()).toEqual([
      'Payment errors on obsdeploy:payments',
      'Search errors on obsdeploy:search'
    ])

    const again = await stacks('plan')
    expect(again.exitCode).toBe(0)
    expect(actions(again)).toEqual([])
    expect(again.outputs.hasChanges).toBe(false)
  })

  it('a stack created beside an existing one of the same name says so, and is no clash', async () => {
    twoTeams()
    await stacks('apply', { stack: 'payments' })
    const plan = await stacks('plan', { stack: 'search' })
    expect(errorsOf(plan)).toEqual([])
    const create = plan.stacks!.results[0]!.plan!.changes.find(c => c.name === 'Overview')!
    expect(create.action).toBe('create')
    expect(create.notes).toEqual([
      expect.stringMatching(
        /^a new dashboard: dashboard \S+ of the same name belongs to another stack of this repository \(obsdeploy:payments\) and stays theirs$/
      )
    ])
  })

  it('prune in one stack deletes only its own dashboards, never the other stack’s of the same name', async () => {
    twoTeams()
    await stacks('apply')
    ws.remove('payments/overview.yaml')
    const plan = await stacks('plan', { prune: 'true' })
    expect(errorsOf(plan)).toEqual([])
    expect(actions(plan)).toEqual([
      'payments: delete Alert/Payment errors',
      'payments: delete Dashboard/Overview'
    ])
    const apply = await stacks('apply', { prune: 'true' })
    expect(apply.exitCode).toBe(0)
    expect(live()).toEqual(['Checkout [obsdeploy:payments]', 'Overview [obsdeploy:search]'])
    expect(alertsLive()).toEqual(['Search errors on obsdeploy:search'])
  })

  it("a stack's own prune (stack.yaml) overrides the input, for that stack only", async () => {
    twoTeams()
    await stacks('apply')
    ws.write({
      'search/stack.yaml': 'name: search\nprune: true\n',
      'search/overview.yaml': dashboard('Search home', timeTile('Queries', 0, 0))
    })
    ws.remove('payments/checkout.yaml')
    const plan = await stacks('plan')
    const search = plan.stacks!.results.find(r => r.stack === 'search')!.plan!
    const payments = plan.stacks!.results.find(r => r.stack === 'payments')!.plan!
    expect(search.prune).toBe(true)
    expect(payments.prune).toBe(false)
    expect(actions(plan)).toEqual([
      'search: create Dashboard/Search home',
      'search: delete Alert/Search errors',
      'search: delete Dashboard/Overview'
    ])
    // payments' Checkout left its manifests too, but its prune is the input's: shown, not deleted.
    expect(payments.changes.filter(c => c.deferred === 'prune').map(c => c.name)).toEqual(['Checkout'])
  })

  it('adopting across stacks is explicit: adopt: true never takes a sibling’s dashboard, an id: pin does', async () => {
    twoTeams()
    await stacks('apply')
    const checkout = [...emu.selfHosted.dashboards.values()].find(d => d.name === 'Checkout')!

    // adopt: true finds only another stack's dashboard of that name: a new one, and a note on how to move it.
    ws.write({
      'search/checkout.yaml': dashboard(
        'Checkout',
        timeTile('Latency', 0, 0, 'service:checkout'),
        'adopt: true\n'
      )
    })
    const adopt = await stacks('plan')
    expect(errorsOf(adopt)).toEqual([])
    const created = adopt
      .stacks!.results.find(r => r.stack === 'search')!
      .plan!.changes.find(c => c.name === 'Checkout')!
    expect(created.action).toBe('create')
    expect(created.notes.join(' ')).toContain(
      `never takes one from another stack; to move it to this stack, pin it with \`id: ${checkout.id}\``
    )

    // An id: pin while payments still manages it: both plans are refused, nothing is applied.
    ws.write({
      'search/checkout.yaml': dashboard(
        'Checkout',
        timeTile('Latency', 0, 0, 'service:checkout'),
        `id: ${checkout.id}\n`
      )
    })
    const clash = await stacks('apply')
    expect(clash.exitCode).toBe(1)
    expect(errorsOf(clash)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^Dashboard "Checkout" \(id \S+\) is also managed by stack "search" in this run/
        ),
        expect.stringMatching(
          /^Dashboard "Checkout" \(id \S+\) is also managed by stack "payments" in this run/
        ),
        'nothing was applied: the plan has errors'
      ])
    )
    expect(live()).toEqual([
      'Checkout [obsdeploy:payments]',
      'Overview [obsdeploy:payments]',
      'Overview [obsdeploy:search]'
    ])

    // The move: payments lets go of it (prune off: only shown), search pins it and takes it over.
    ws.remove('payments/checkout.yaml')
    const move = await stacks('apply')
    expect(errorsOf(move)).toEqual([])
    expect(actions(move)).toEqual(['search: update Dashboard/Checkout'])
    expect(live()).toEqual([
      'Checkout [obsdeploy:search]',
      'Overview [obsdeploy:payments]',
      'Overview [obsdeploy:search]'
    ])
    expect(emu.selfHosted.dashboards.get(checkout.id)?.name).toBe('Checkout')
    const after = await stacks('plan', { prune: 'true' })
    expect(actions(after)).toEqual([])
  })

  it('a dashboard of a stack that is not in this repository is still a clash: a renamed stack never duplicates', async () => {
    twoTeams()
    await stacks('apply')
    // The team renamed its stack: its dashboards carry the old name's tag, which no stack.yaml has now.
    ws.write({ 'search/stack.yaml': 'name: search-v2\n' })
    const plan = await stacks('plan')
    expect(plan.exitCode).toBe(1)
    expect(errorsOf(plan)).toEqual([
      expect.stringMatching(
        /^a dashboard named "Overview" already exists \(id \S+\) and is not owned by stack "search-v2" \(it carries obsdeploy:search\)/
      )
    ])
  })
})

describe('one run, one read, one budget', () => {
  it('plans three stacks with the list calls of one stack, through one client', async () => {
    twoTeams()
    ws.write({
      'billing/stack.yaml': 'name: billing\n',
      'billing/invoices.yaml': dashboard('Invoices', timeTile('Paid', 0, 0))
    })
    await stacks('apply')

    let clients = 0
    const counting: RunDependencies = {
      api: (config: Config): ObservabilityApi => {
        clients++
        return createApi(config)
      }
    }
    emu.clearLog()
    const all = await stacks('plan', {}, counting)
    expect(all.stacks!.results.map(r => r.stack)).toEqual(['billing', 'payments', 'search'])
    const threeStacks = emu.requestLog.map(r => `${r.method} ${r.path}`).sort()
    expect(clients).toBe(1)

    emu.clearLog()
    await stacks('plan', { stack: 'billing' })
    const oneStack = emu.requestLog.map(r => `${r.method} ${r.path}`).sort()
    expect(threeStacks).toEqual(oneStack)
    // The lists, and the one question whether dashboards can be patched (src/api/mcp.ts).
    expect(threeStacks.filter(r => !r.startsWith('GET /api/v2/'))).toEqual(['POST /mcp'])
    expect(new Set(threeStacks).size).toBe(threeStacks.length)
  })

  it('a layout error stops the run before any request: ownership would be in doubt', async () => {
    twoTeams()
    ws.write({ 'search/stack.yaml': 'name: payments\n' })
    emu.clearLog()
    const plan = await stacks('apply', { prune: 'true' })
    expect(plan.exitCode).toBe(1)
    expect(errorsOf(plan)).toEqual([
      expect.stringMatching(/^stack "payments" is already defined by observability\/payments\/stack.yaml/)
    ])
    expect(plan.stacks!.results).toEqual([])
    expect(JSON.parse(plan.outputs.matrix)).toEqual([])
    expect(emu.requestLog).toEqual([])
  })

  it("one stack's invalid manifest holds back only that stack", async () => {
    twoTeams()
    ws.write({ 'search/overview.yaml': dashboard('Overview', timeTile('Errors', 30, 0)) })
    const apply = await stacks('apply')
    expect(apply.exitCode).toBe(1)
    const [payments, search] = apply.stacks!.results
    expect(payments).toMatchObject({ stack: 'payments', exitCode: 0 })
    expect(payments!.apply?.complete).toBe(true)
    expect(search).toMatchObject({ stack: 'search', exitCode: 1 })
    expect(search!.plan).toBeUndefined()
    expect(search!.diagnostics.map(d => `${d.file}:${d.line} ${d.field}`)).toEqual([
      expect.stringMatching(/^observability\/search\/overview.yaml:\d+ tiles\[0\]\.x$/)
    ])
    expect(live()).toEqual(['Checkout [obsdeploy:payments]', 'Overview [obsdeploy:payments]'])
  })

  it("a stack's variables fill its manifests; the run's vars override them", async () => {
    ws.write({
      'payments/stack.yaml': 'name: payments\nvars:\n  TEAM: payments\n  LIMIT: 10\n',
      'payments/overview.yaml':
        overview('service:payments') +
        alert('${TEAM} errors', 'Overview', 'Errors').replace('threshold: 10', 'threshold: ${LIMIT}')
    })
    const plan = await stacks('plan')
    expect(actions(plan)).toContain('payments: create Alert/payments errors')
    const created = (r: RunResult) => r.stacks!.results[0]!.plan!.changes.find(c => c.kind === 'Alert')!
    expect(created(plan).fields.find(f => f.path === 'threshold')?.after).toBe(10)
    const overridden = await stacks('plan', { vars: 'LIMIT: 99' })
    expect(created(overridden).fields.find(f => f.path === 'threshold')?.after).toBe(99)
  })

  it('apply with a saved plan of many stacks: checked stack by stack', async () => {
    twoTeams()
    await stacks('apply')
    ws.write({ 'payments/checkout.yaml': dashboard('Checkout', timeTile('Latency', 0, 0, 'service:cart')) })
    // The pull request's plan: only payments changed.
    const plan = await stacks('plan', { stack: 'payments', 'plan-path': '.obsdeploy/pr-plan.json' })
    expect(actions(plan)).toEqual(['payments: update Dashboard/Checkout'])

    // After the merge every stack is planned. search has no plan in the file and nothing to apply: fine.
    const apply = await stacks('apply', { 'saved-plan': '.obsdeploy/pr-plan.json' })
    expect(errorsOf(apply)).toEqual([])
    expect(actions(apply)).toEqual(['payments: update Dashboard/Checkout'])
  })

  it('a stack the saved plan never showed is refused when it has something to apply, and only that stack', async () => {
    twoTeams()
    await stacks('apply')
    ws.write({ 'payments/checkout.yaml': dashboard('Checkout', timeTile('Latency', 0, 0, 'service:cart')) })
    await stacks('plan', { stack: 'payments', 'plan-path': '.obsdeploy/pr-plan.json' })
    ws.write({
      'search/overview.yaml': overview('service:search-v2') + alert('Search errors', 'Overview', 'Errors')
    })
    const apply = await stacks('apply', { 'saved-plan': '.obsdeploy/pr-plan.json' })
    expect(apply.exitCode).toBe(1)
    expect(errorsOf(apply)).toEqual([
      expect.stringMatching(
        /^nothing was applied: the saved plan .obsdeploy\/pr-plan.json has no plan for stack "search" \(it has "payments"\)/
      )
    ])
    expect(apply.stacks!.results.find(r => r.stack === 'payments')!.apply?.complete).toBe(true)
  })
})
