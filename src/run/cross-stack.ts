/**
 * A resource belongs to one stack. Ownership tags keep stacks apart on their own; what can still bring
 * two stacks of one run onto the same resource is explicit: an `id:` pin, or a dashboard that carries two
 * ownership tags. Two plans of one run that manage the same live resource are both refused here, before
 * anything is applied, so one stack never updates or deletes what another one plans.
 */
import { diagnostic, type Diagnostic } from '../diagnostics.js'
import type { Change, Plan } from '../plan/types.js'

/**
 * Whether a change has a stack manage a live resource: anything paired with one. A create has no live
 * resource yet, and a delete that waits for prune is only shown: the stack that adopts a dashboard
 * another stack left (pinned with `id:`) may take it while that stack's prune is off.
 */
const manages = (c: Change): c is Change & { id: string } =>
  c.id !== undefined && c.action !== 'create' && c.deferred !== 'prune'

/** The problems of each plan (by index) that shares a managed resource with another plan. */
export function crossStackConflicts(plans: readonly Plan[]): Diagnostic[][] {
  const problems: Diagnostic[][] = plans.map(() => [])
  if (plans.length < 2) return problems
  const byResource = new Map<string, Array<{ plan: number; change: Change }>>()
  plans.forEach((plan, i) => {
    for (const change of plan.changes.filter(manages)) {
      const key = `${change.kind}\u0000${change.id}`
      byResource.set(key, [...(byResource.get(key) ?? []), { plan: i, change }])
    }
  })
  for (const holders of byResource.values()) {
    const stacks = new Set(holders.map(h => h.plan))
    if (stacks.size < 2) continue
    for (const { plan, change } of holders) {
      const others = [...stacks].filter(p => p !== plan).map(p => `"${plans[p]!.stack}"`)
      problems[plan]!.push(
        diagnostic(
          'plan',
          'error',
          `${change.kind} "${change.name}" (id ${change.id}) is also managed by stack ${others.join(', ')} in this run: a resource belongs to one stack, so neither plan may change it. To move it to another stack, take it out of the old stack's manifests and pin it with \`id:\` in the new one, in a run where the old stack's prune is off`,
          change.source
        )
      )
    }
  }
  twinCreates(plans, problems)
  return problems
}

/**
 * Creates the server refuses twice in one team: webhooks of one service and name (models/webhook.ts has a
 * unique index on them), roles of one name (the cloud's ClickStackCreateRoleRequest: "Must be unique within the
 * team"). Two stacks of one run that would both create one are both refused before any write.
 */
function twinCreates(plans: readonly Plan[], problems: Diagnostic[][]): void {
  const byKey = new Map<string, Array<{ plan: number; change: Change; what: string; rule: string }>>()
  plans.forEach((plan, i) => {
    for (const change of plan.changes) {
      if (change.action !== 'create') continue
      const twin = twinOf(change)
      if (!twin) continue
      const key = JSON.stringify([change.kind, twin.key])
      byKey.set(key, [...(byKey.get(key) ?? []), { plan: i, change, ...twin }])
    }
  })
  for (const creates of byKey.values()) {
    const stacks = new Set(creates.map(c => c.plan))
    if (stacks.size < 2) continue
    for (const { plan, change, what, rule } of creates) {
      const others = [...stacks].filter(p => p !== plan).map(p => `"${plans[p]!.stack}"`)
      problems[plan]!.push(
        diagnostic(
          'plan',
          'error',
          `stack "${plans[plan]!.stack}" and stack ${others.join(', ')} both create ${what} in this run, and ${rule}`,
          change.source
        )
      )
    }
  }
}

/** What makes a created record a twin the server refuses, and the words for it. */
function twinOf(change: Change): { key: unknown; what: string; rule: string } | undefined {
  if (change.kind === 'Webhook') {
    const service = String(change.fields.find(f => f.path === 'service')?.after ?? '')
    return {
      key: [change.name, service],
      what: `webhook "${change.name}" (${service})`,
      rule: 'the server allows one webhook of a service and name in a team: give one of them another name or another service'
    }
  }
  if (change.kind === 'Role')
    return {
      key: change.name,
      what: `role "${change.name}"`,
      rule: 'the server allows one role of a name in a team: give one of them another name'
    }
  return undefined
}
