/**
 * The kinds without tags under the `stacks` layout: each stack keeps its own registry, so a plan with
 * prune in one stack deletes only the webhooks and saved searches that stack created, never a sibling's.
 */
import { describe, expect, it } from '@jest/globals'
import type { RawSettings } from '../../src/config/inputs.js'
import type { RunResult } from '../../src/run/types.js'
import { obsdeploy, useScenario } from '../support/harness.js'

const { emu, ws } = useScenario()

const stacks = (command: 'plan' | 'apply', settings: RawSettings = {}): Promise<RunResult> =>
  obsdeploy(emu, ws, command, {
    stacks: 'true',
    stack: '',
    'secret-vars': 'HOOK: https://hooks.example.com/x\n',
    ...settings
  })

const hook = (name: string) => `kind: Webhook\nname: ${name}\nservice: generic\nurl: \${secret.HOOK}\n---\n`
const search = (name: string) => `kind: SavedSearch\nname: ${name}\nsource: Logs\nwhere: 'level:error'\n---\n`

function actions(result: RunResult): string[] {
  return (result.stacks?.results ?? [])
    .flatMap(r =>
      (r.plan?.changes ?? [])
        .filter(c => c.action !== 'noop' && !c.deferred)
        .map(c => `${r.stack}: ${c.action} ${c.kind}/${c.name}`)
    )
    .sort()
}

describe('webhooks and saved searches of two stacks', () => {
  it('each stack owns its own; prune in one never deletes the other’s', async () => {
    ws.write({
      'payments/stack.yaml': 'name: payments\n',
      'payments/alerting.yaml': hook('payments-pager') + search('Payment errors'),
      'search/stack.yaml': 'name: search\n',
      'search/alerting.yaml': hook('search-pager') + search('Search errors')
    })
    const apply = await stacks('apply')
    expect(apply.exitCode).toBe(0)
    expect(actions(await stacks('plan'))).toEqual([])

    ws.remove('payments/alerting.yaml')
    ws.write({ 'payments/empty.yaml': '' })
    const plan = await stacks('plan', { prune: 'true' })
    expect(actions(plan)).toEqual([
      'payments: delete SavedSearch/Payment errors',
      'payments: delete Webhook/payments-pager'
    ])
    expect((await stacks('apply', { prune: 'true' })).exitCode).toBe(0)
    expect(emu.selfHosted.webhooks.map(w => w.name)).toContain('search-pager')
    expect(emu.selfHosted.webhooks.map(w => w.name)).not.toContain('payments-pager')
    expect([...emu.selfHosted.savedSearches.values()].map(s => s.name)).toEqual(['Search errors'])
  })
})

/** The plan diagnostics of one stack of a stacks run. */
const problemsOf = (result: RunResult, stack: string) =>
  result.stacks!.results.find(r => r.stack === stack)!.diagnostics.filter(d => d.severity === 'error')
const notesOf = (result: RunResult, stack: string, address: string) =>
  result.stacks!.results.find(r => r.stack === stack)!.plan!.changes.find(c => c.address === address)!.notes

describe('the same name in two stacks (the server allows same-named saved searches, not webhooks)', () => {
  it('saved searches: each stack keeps its own, adopt never takes a sibling’s, an id pin does', async () => {
    ws.write({
      'payments/stack.yaml': 'name: payments\n',
      'payments/alerting.yaml': search('Errors'),
      'search/stack.yaml': 'name: search\n',
      'search/alerting.yaml': ''
    })
    expect((await stacks('apply')).exitCode).toBe(0)
    const theirs = [...emu.selfHosted.savedSearches.values()].find(s => s.name === 'Errors')!

    ws.write({ 'search/alerting.yaml': search('Errors').replace('---\n', 'adopt: true\n---\n') })
    const plan = await stacks('plan')
    expect(problemsOf(plan, 'search')).toEqual([])
    expect(actions(plan)).toEqual(['search: create SavedSearch/Errors'])
    expect(notesOf(plan, 'search', 'SavedSearch/Errors').join(' ')).toMatch(
      new RegExp(
        `saved search ${theirs.id} of the same name belongs to another stack .*obsdeploy:payments.* never takes one`
      )
    )
    expect((await stacks('apply', { prune: 'true' })).exitCode).toBe(0)
    const both = [...emu.selfHosted.savedSearches.values()].filter(s => s.name === 'Errors')
    expect(both.map(s => s.tags.find(t => t.startsWith('obsdeploy:'))).sort()).toEqual([
      'obsdeploy:payments',
      'obsdeploy:search'
    ])
    expect(actions(await stacks('plan', { prune: 'true' }))).toEqual([])

    // A pin moves payments' record to search once payments no longer declares it (its prune off).
    const mine = both.find(s => s.id !== theirs.id)!
    ws.write({
      'payments/alerting.yaml': '',
      'search/alerting.yaml': search('Errors').replace('---\n', `id: ${theirs.id}\n---\n`) + search('Mine')
    })
    const pinned = await stacks('plan')
    expect(problemsOf(pinned, 'search')).toEqual([])
    expect(notesOf(pinned, 'search', 'SavedSearch/Errors').join(' ')).toMatch(/adopts existing saved search/)
    expect((await stacks('apply')).exitCode).toBe(0)
    expect(emu.selfHosted.savedSearches.get(theirs.id)!.tags).toContain('obsdeploy:search')
    expect(mine.id).not.toBe(theirs.id)
  })

  it('webhooks: one of a service and name per team, so a second stack’s is a plan error naming both stacks', async () => {
    ws.write({
      'payments/stack.yaml': 'name: payments\n',
      'payments/alerting.yaml': hook('pager'),
      'search/stack.yaml': 'name: search\n',
      'search/alerting.yaml': ''
    })
    expect((await stacks('apply')).exitCode).toBe(0)
    const before = JSON.stringify(emu.selfHosted.webhooks)
    ws.write({ 'search/alerting.yaml': '# the search team\n' + hook('pager') })
    const plan = await stacks('apply')
    expect(plan.exitCode).toBe(1)
    expect(problemsOf(plan, 'search')).toContainEqual(
      expect.objectContaining({
        file: expect.stringMatching(/search[\\/]alerting\.yaml$/),
        line: 3,
        field: 'name',
        message: expect.stringMatching(
          /^stack "search" cannot create webhook "pager": another stack of this repository \(obsdeploy:payments\) has one .*one webhook of a service and name/
        )
      })
    )
    expect(problemsOf(plan, 'payments')).toEqual([])
    expect(JSON.stringify(emu.selfHosted.webhooks)).toBe(before)

    // Another service, another record: the server allows it, and each stack keeps its own.
    ws.write({
      'search/alerting.yaml': hook('pager')
        .replace('service: generic', 'service: slack')
        .replace('HOOK', 'SLACK')
    })
    const slack = await stacks('apply', {
      'secret-vars': 'HOOK: https://hooks.example.com/x\nSLACK: https://hooks.slack.com/services/x\n'
    })
    expect(slack.exitCode).toBe(0)
    expect(
      emu.selfHosted.webhooks
        .filter(w => w.name === 'pager')
        .map(w => w.service)
        .sort()
    ).toEqual(['generic', 'slack'])
  })
})

it('two stacks that both create a webhook of one service and name in one run: both refused, nothing written', async () => {
  ws.write({
    'payments/stack.yaml': 'name: payments\n',
    'payments/alerting.yaml': hook('pager'),
    'search/stack.yaml': 'name: search\n',
    'search/alerting.yaml': hook('pager')
  })
  const apply = await stacks('apply')
  expect(apply.exitCode).toBe(1)
  for (const [stack, other] of [
    ['payments', 'search'],
    ['search', 'payments']
  ])
    expect(problemsOf(apply, stack!)).toContainEqual(
      expect.objectContaining({
        file: expect.stringMatching(new RegExp(`${stack}[\\\\/]alerting\\.yaml$`)),
        line: 2,
        message: `stack "${stack}" and stack "${other}" both create webhook "pager" (generic) in this run, and the server allows one webhook of a service and name in a team: give one of them another name or another service`
      })
    )
  expect(emu.selfHosted.webhooks.filter(w => w.name === 'pager')).toEqual([])
})
