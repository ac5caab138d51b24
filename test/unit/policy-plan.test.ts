/**
 * Policy rules over the plan (src/policy/check.ts checkPlanPolicies): what `change`, `plan` and `labels`
 * hold for a rule, the label rule that blocks a delete until the pull request is labelled, the recommended
 * plan-time rules (dashboard names other stacks manage, alert queries without data) and what the plan says
 * when it could not check a rule.
 */
import { describe, expect, it } from '@jest/globals'
import { formatDiagnostic } from '../../src/diagnostics.js'
import { validateText } from '../../src/manifest/load.js'
import type { Change } from '../../src/plan/types.js'
import {
  checkPlanPolicies,
  checkPolicies,
  readsLabels,
  type PlanPolicyInput
} from '../../src/policy/check.js'
import { makePlan } from './report-fixtures.js'

const tile = `tiles:
  - name: A
    x: 0
    y: 0
    w: 6
    h: 3
    series: [{ type: time, source: Logs, aggFn: count }]
`
const LABEL_RULE = `kind: Policy
name: org
rules:
  - id: critical-delete
    kinds: [Dashboard]
    on: plan
    severity: error
    message: deleting a dashboard tagged critical needs the approved-delete label
    check: change.action != 'delete' || !('critical' in change.tags) || 'approved-delete' in labels
`
const change = (c: Partial<Change> & Pick<Change, 'kind' | 'name' | 'action'>): Change => ({
  address: `${c.kind}/${c.name}`,
  fields: [],
  notes: [],
  dependsOn: [],
  ...c
})

async function planFindings(
  manifests: string,
  changes: Array<{ change: Change; live?: unknown }>,
  input: PlanPolicyInput = {}
): Promise<string[]> {
  const set = validateText('m.yaml', manifests, 'self-hosted')
  const { planRules } = await checkPolicies(set, { stack: 'shop' })
  const plan = makePlan(changes.map(c => c.change))
  return checkPlanPolicies(planRules, plan, changes, input).map(formatDiagnostic)
}

describe('the plan-time rules checkPolicies returns', () => {
  it('are there only when a rule of the stack is on the plan, and say whether one reads labels', async () => {
    const onManifests = `kind: Policy
name: org
rules:
  - id: owner
    kinds: [Dashboard]
    severity: error
    message: x
    check: has(resource.tags)
---
kind: Dashboard
name: Checkout
${tile}`
    const none = await checkPolicies(validateText('m.yaml', onManifests, 'self-hosted'), { stack: 'shop' })
    expect(none.planRules).toBeUndefined()
    const set = validateText(
      'm.yaml',
      `${LABEL_RULE}---\nkind: Dashboard\nname: Checkout\n${tile}`,
      'self-hosted'
    )
    const { planRules } = await checkPolicies(set, { stack: 'shop' })
    expect(planRules?.rules.map(r => r.id)).toEqual(['critical-delete'])
    expect(planRules?.preview).toEqual([])
    expect(readsLabels(planRules!)).toBe(true)
  })
})

describe('a label rule', () => {
  const keep = `${LABEL_RULE}---\nkind: Dashboard\nname: Checkout\n${tile}`
  const deleteCritical = {
    change: change({ kind: 'Dashboard', name: 'Old', action: 'delete', id: 'd1' }),
    live: { id: 'd1', name: 'Old', tags: ['critical', 'obsdeploy:shop'] }
  }

  it('blocks the delete of a dashboard tagged critical without the label, and says why none were read', async () => {
    expect(
      await planFindings(keep, [deleteCritical], {
        labels: { names: [], unknown: 'no merged pull request has commit 6dcb09b5b578' }
      })
    ).toEqual([
      'Dashboard "Old" (delete): deleting a dashboard tagged critical needs the approved-delete label [policy org: critical-delete] (no labels to read: no merged pull request has commit 6dcb09b5b578)'
    ])
  })

  it('passes with the label, and for a dashboard not tagged critical', async () => {
    expect(await planFindings(keep, [deleteCritical], { labels: { names: ['approved-delete'] } })).toEqual([])
    const plain = { ...deleteCritical, live: { id: 'd1', name: 'Old', tags: ['obsdeploy:shop'] } }
    expect(await planFindings(keep, [plain], { labels: { names: [] } })).toEqual([])
  })
})

it("change.tags are the live resource's as the user writes them (no ownership tag), else the manifest's", async () => {
  const policy = `kind: Policy
name: org
rules:
  - id: tags-seen
    kinds: [Dashboard]
    on: plan
    severity: error
    message: tags
    check: change.tags == ['critical'] || change.tags == ['owner:payments']
`
  const manifests = `${policy}---\nkind: Dashboard\nname: Checkout\ntags: [owner:payments]\n${tile}`
  expect(
    await planFindings(manifests, [
      {
        change: change({ kind: 'Dashboard', name: 'Old', action: 'delete', id: 'd1' }),
        live: { id: 'd1', name: 'Old', tags: ['obsdeploy:shop', 'critical'] }
      },
      { change: change({ kind: 'Dashboard', name: 'Checkout', action: 'create' }) }
    ])
  ).toEqual([])
})

describe('the recommended plan-time rules', () => {
  const pack = 'kind: Policy\nname: org\nrecommended: true\n---\n'
  const dash = `kind: Dashboard\nname: Checkout\ntags: [owner:payments]\n${tile}`
  const alert = `---
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
  const creates = [
    { change: change({ kind: 'Dashboard', name: 'Checkout', action: 'create' }) },
    { change: change({ kind: 'Alert', name: 'Checkout errors', action: 'create' }) }
  ]

  it('warn at the name of a dashboard another stack manages under the same name', async () => {
    expect(
      await planFindings(pack + dash + alert, creates, {
        elsewhere: { Dashboard: { Checkout: ['search'] } },
        queries: new Map()
      })
    ).toEqual([
      'm.yaml:6:7 warning: name: Dashboard "Checkout": another stack manages a dashboard of this name: readers cannot tell them apart in the dashboard list [policy org: recommended/dashboard-name-unique]'
    ])
  })

  it("warn at an alert's tile when check-queries found no data for its query, and are silent when it did", async () => {
    const empty = new Map([['Checkout errors', { status: 'empty' }]])
    expect(await planFindings(pack + dash + alert, creates, { queries: empty })).toEqual([
      'm.yaml:19:7 warning: tile: Alert "Checkout errors": the alert\'s query returned no data over the last 7 days: check its tile\'s source and filter (with check-queries) [policy org: recommended/alert-query-data]'
    ])
    const ok = new Map([['Checkout errors', { status: 'ok' }]])
    expect(await planFindings(pack + dash + alert, creates, { queries: ok })).toEqual([])
  })

  it('say once in the plan that the query data could not be checked without check-queries', async () => {
    expect(
      await planFindings(pack + dash + alert, creates, { queriesUnchecked: 'check-queries is off' })
    ).toEqual([
      'notice: policy rule "recommended/alert-query-data" reads the query data of 1 changed resource(s), which this run could not check (check-queries is off) [policy org]'
    ])
  })
})

describe('repository policies', () => {
  it('hold in a stack beside its own, scoped by stacks, and are reported once (not in each stack)', async () => {
    const repoText = `kind: Policy
name: repo
rules:
  - id: payments-only
    stacks: [payments]
    kinds: [Dashboard]
    severity: error
    message: payments dashboards are tagged team:payments
    check: "'team:payments' in resource.tags"
    field: tags
  - id: broken
    severity: error
    message: x
    check: "resource.name ==="
`
    const repo = validateText('policy.yaml', repoText, 'self-hosted').policies!
    const stackText = `kind: Dashboard\nname: Checkout\ntags: [owner:payments]\n${tile}`
    const findings = async (stack: string) => {
      const set = validateText('payments/d.yaml', stackText, 'self-hosted')
      // Without its own Policy a stack keeps its documents only when asked (loadWithPolicies does).
      expect(set.documents).toBeUndefined()
      const kept = validateText(
        'payments/d.yaml',
        `${stackText}---\nkind: Policy\nname: own\n`,
        'self-hosted'
      )
      const { manifests } = await checkPolicies(kept, { stack, repository: repo })
      return manifests.diagnostics.map(formatDiagnostic)
    }
    expect(await findings('payments')).toEqual([
      'payments/d.yaml:3:7 tags: Dashboard "Checkout": payments dashboards are tagged team:payments [policy repo: payments-only]'
    ])
    expect(await findings('search')).toEqual([])
  })
})
