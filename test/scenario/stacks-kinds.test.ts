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
