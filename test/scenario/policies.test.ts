/**
 * Policies over the plan (rules with `on: plan`): a plan-time error fails the plan and blocks apply, a
 * budget counts what exists after the plan, and a suppression with its reason is listed in the plan.
 */
import { describe, expect, it } from '@jest/globals'
import { actions, alert, dashboard, errors, obsdeploy, timeTile, useScenario } from '../support/harness.js'

const { emu, ws } = useScenario()

const policy = (rules: string) => `kind: Policy
name: org
rules:
${rules}`

const noDelete = `  - id: no-dashboard-delete
    kinds: [Dashboard]
    on: plan
    severity: error
    message: dashboards are not deleted by a pull request
    check: change.action != 'delete' || change.deferred != ''
`
const budget = `  - id: dashboard-budget
    kinds: [Dashboard]
    on: plan
    severity: error
    message: at most 1 dashboard in this stack
    check: plan.after.Dashboard <= 1
`

describe('plan-time policies', () => {
  it('blocks the apply of a plan that deletes a dashboard, and applies nothing', async () => {
    ws.write({
      'policy.yaml': policy(noDelete),
      'a.yaml': dashboard('Checkout', timeTile('Errors', 0, 0)),
      'b.yaml': dashboard('Cart', timeTile('Adds', 0, 0))
    })
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    ws.remove('b.yaml')
    emu.clearLog()
    const apply = await obsdeploy(emu, ws, 'apply', { prune: 'true' })
    expect(apply.exitCode).toBe(1)
    expect(errors(apply)).toEqual(
      expect.arrayContaining([
        expect.stringContaining(
          'dashboards are not deleted by a pull request [policy org: no-dashboard-delete]'
        ),
        'nothing was applied: the plan has errors'
      ])
    )
    expect(emu.requestLog.filter(r => r.method === 'DELETE')).toEqual([])
    expect([...emu.selfHosted.dashboards.values()].map(d => d.name).sort()).toEqual(['Cart', 'Checkout'])
  })

  it('counts a budget over what the stack has after the plan, at the manifest line', async () => {
    ws.write({ 'policy.yaml': policy(budget), 'a.yaml': dashboard('Checkout', timeTile('Errors', 0, 0)) })
    expect((await obsdeploy(emu, ws, 'plan')).exitCode).toBe(0)
    ws.write({ 'b.yaml': dashboard('Cart', timeTile('Adds', 0, 0)) })
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(plan.exitCode).toBe(1)
    const found = plan.plan!.diagnostics.filter(d => d.message.includes('dashboard-budget'))
    expect(found).toHaveLength(2)
    expect(found.map(d => [d.file, d.line, d.stage])).toEqual(
      expect.arrayContaining([
        ['observability/a.yaml', 1, 'plan'],
        ['observability/b.yaml', 1, 'plan']
      ])
    )
  })

  it('lists a suppression and its reason in the plan, and the rule stays silent there', async () => {
    ws.write({
      'policy.yaml': `kind: Policy\nname: org\nrecommended: true\n`,
      'a.yaml':
        '# obsdeploy: allow recommended/owner-tag -- a shared dashboard, owned by all of us\n' +
        dashboard('Checkout', timeTile('Errors', 0, 0)) +
        alert('Checkout errors', 'Checkout', 'Errors')
    })
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(plan.exitCode).toBe(0)
    expect(actions(plan)).toEqual(['create Alert/Checkout errors', 'create Dashboard/Checkout'])
    const listed = plan.plan!.diagnostics.filter(d => d.severity === 'notice')
    expect(listed).toEqual([
      expect.objectContaining({
        file: 'observability/a.yaml',
        line: 1,
        message:
          'policy rule "recommended/owner-tag" is suppressed for Dashboard "Checkout": a shared dashboard, owned by all of us'
      }),
      // The pack's data rule needs check-queries: the plan says once that it could not be checked.
      expect.objectContaining({
        stage: 'plan',
        message: expect.stringContaining(
          '"recommended/alert-query-data" reads the query data of 1 changed resource(s)'
        )
      })
    ])
    expect(plan.plan!.diagnostics.some(d => d.message.includes('[policy org: recommended/owner-tag]'))).toBe(
      false
    )
    // The alert has no runbook link: a warning, which does not fail the plan.
    expect(plan.plan!.diagnostics.filter(d => d.message.includes('recommended/runbook-link'))).toHaveLength(1)
  })
})
