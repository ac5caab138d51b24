/**
 * The base commit's rules in force through run(), against the emulator: with stacks, a repository policy the
 * pull request deletes still holds in every stack and each stack's review names the deletion; a stack's own
 * policy reaches only that stack; and a plan-time rule the pull request weakens still blocks in its base form.
 */
import { describe, expect, it } from '@jest/globals'
import type { BaseFiles } from '../../src/policy/sources.js'
import type { RunResult } from '../../src/run/types.js'
import { dashboard, obsdeploy, timeTile, useScenario } from '../support/harness.js'

const { emu, ws } = useScenario()

const REPOSITORY_POLICY = `kind: Policy
name: org
rules:
  - id: owner-tag
    kinds: [Dashboard]
    severity: error
    message: needs an owner tag
    check: has(resource.tags) && resource.tags.exists(t, t.startsWith('owner:'))
`
const PAYMENTS_POLICY = `kind: Policy
name: payments
rules:
  - id: no-delete
    kinds: [Dashboard]
    on: plan
    severity: error
    message: dashboards are deleted by hand
    check: change.action != 'delete'
`
const base = (differing: Record<string, string>, unchanged: string[] = []): BaseFiles => ({
  commit: 'f'.repeat(40),
  unchanged: new Set(unchanged.map(f => `observability/${f}`)),
  differing: Object.entries(differing).map(([f, text]) => ({ path: `observability/${f}`, text }))
})

const errorsOf = (result: RunResult, stack: string) =>
  (result.stacks?.results.find(r => r.stack === stack)?.diagnostics ?? [])
    .filter(d => d.severity === 'error')
    .map(d => d.message)

describe("the base commit's rules, with stacks", () => {
  it('a repository policy the pull request deletes still holds in every stack, and each review names it', async () => {
    ws.write({
      'payments/stack.yaml': 'name: payments\n',
      'payments/checkout.yaml': dashboard('Checkout', timeTile('Errors', 0, 0)),
      'search/stack.yaml': 'name: search\n',
      'search/overview.yaml': dashboard('Overview', timeTile('Errors', 0, 0))
    })
    const read = base({ 'policy.yaml': REPOSITORY_POLICY }, [
      'payments/stack.yaml',
      'payments/checkout.yaml',
      'search/stack.yaml',
      'search/overview.yaml'
    ])
    const result = await obsdeploy(emu, ws, 'validate', { stacks: 'true', stack: '' }, false, {
      baseFiles: () => Promise.resolve(read)
    })
    for (const stack of ['payments', 'search']) {
      expect(errorsOf(result, stack)).toEqual([
        'Dashboard "' +
          (stack === 'payments' ? 'Checkout' : 'Overview') +
          '": needs an owner tag [policy org: owner-tag]'
      ])
      const review = result.stacks!.results.find(r => r.stack === stack)!.policies
      expect(review?.changes).toEqual([{ verb: 'removes', rule: 'owner-tag', how: [] }])
      expect(review?.from).toEqual({ kind: 'base', commit: read.commit })
    }
  })

  it("a stack's own base policy reaches that stack only", async () => {
    ws.write({
      'payments/stack.yaml': 'name: payments\n',
      'payments/checkout.yaml': dashboard('Checkout', timeTile('Errors', 0, 0), 'tags: [owner:payments]\n'),
      'search/stack.yaml': 'name: search\n',
      'search/overview.yaml': dashboard('Overview', timeTile('Errors', 0, 0), 'tags: [owner:search]\n')
    })
    const read = base({ 'payments/policy.yaml': PAYMENTS_POLICY })
    const result = await obsdeploy(emu, ws, 'validate', { stacks: 'true', stack: '' }, false, {
      baseFiles: () => Promise.resolve(read)
    })
    const review = (stack: string) => result.stacks!.results.find(r => r.stack === stack)!.policies
    expect(review('payments')?.changes).toEqual([{ verb: 'removes', rule: 'no-delete', how: [] }])
    expect(review('search')).toBeUndefined()
  })

  it('a plan-time rule the pull request weakens still blocks in its base form', async () => {
    ws.write({
      'policy.yaml': PAYMENTS_POLICY,
      'checkout.yaml': dashboard('Checkout', timeTile('Errors', 0, 0)),
      'legacy.yaml': dashboard('Legacy', timeTile('Errors', 0, 0))
    })
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    ws.remove('legacy.yaml')
    ws.write({ 'policy.yaml': PAYMENTS_POLICY.replace('severity: error', 'severity: warning') })
    const read = base(
      { 'policy.yaml': PAYMENTS_POLICY, 'legacy.yaml': dashboard('Legacy', timeTile('Errors', 0, 0)) },
      ['checkout.yaml']
    )
    const plan = await obsdeploy(emu, ws, 'plan', { prune: 'true' }, false, {
      baseFiles: () => Promise.resolve(read)
    })
    expect(plan.exitCode).toBe(1)
    expect(plan.diagnostics.filter(d => d.severity === 'error').map(d => d.message)).toEqual([
      'Dashboard "Legacy" (delete): dashboards are deleted by hand [policy payments: no-delete]'
    ])
    expect(plan.policies?.changes).toEqual([
      { verb: 'weakens', rule: 'no-delete', how: ['severity error to warning'] }
    ])
    // The weakened version's finding is a preview: a notice, not a second error.
    expect(
      plan.diagnostics.filter(d => d.severity === 'notice' && d.message.includes('preview'))
    ).toHaveLength(1)
  })
})
