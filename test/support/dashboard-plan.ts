/**
 * The dashboard kind planned and applied without a server: manifests planned against live dashboards, and the
 * operations of a plan run against a recording API that stores what it is sent (the create's body echoed with
 * ids, as the server stores it). Shared by the unit files of src/kinds/dashboard/.
 */
import { expect } from '@jest/globals'
import type { LiveDashboard } from '../../src/api/schemas.js'
import { dashboardKind } from '../../src/kinds/dashboard/index.js'
import { KINDS } from '../../src/kinds/index.js'
import type { ApplyContext, LiveState, OperationResult } from '../../src/kinds/kind.js'
import { RegistryWriter } from '../../src/kinds/registry.js'
import { validateText } from '../../src/manifest/load.js'
import type { Change } from '../../src/plan/types.js'
import { computePlan, type PlanOutcome } from '../../src/planner/planner.js'
import { SHOP_TAG as TAG, shopSettings as settings } from './shop-stack.js'

export { TAG, settings }
export const SOURCES = [
  { id: 'src-logs', name: 'Logs', kind: 'log' },
  { id: 'src-metrics', name: 'Metrics', kind: 'metric' },
  { id: 'src-traces', name: 'Traces', kind: 'trace' }
]

/** A config tile of the manifest language (indented as an item of `tiles:`); `more` goes before its config. */
export const tile = (
  name: string,
  config = 'displayType: line\n      source: Logs\n      select: [{ aggFn: count }]',
  more = ''
) =>
  `  - name: ${JSON.stringify(name)}\n    x: 0\n    y: 0\n    w: 6\n    h: 3\n${more}    config:\n      ${config}\n`

export const dashboard = (name: string, tiles: string, extra = '') =>
  `---\nkind: Dashboard\nname: ${JSON.stringify(name)}\n${extra}tiles:\n${tiles}`

export function plan(
  yaml: string,
  dashboards: LiveDashboard[] = [],
  over: Partial<LiveState> = {},
  s = settings()
): PlanOutcome {
  const manifests = validateText('d.yaml', yaml, 'self-hosted')
  expect(manifests.diagnostics.filter(d => d.severity === 'error')).toEqual([])
  return computePlan({
    command: 'plan',
    settings: s,
    manifests,
    live: {
      Dashboard: dashboards,
      Alert: [],
      Source: SOURCES,
      Webhook: [],
      Connection: [],
      SavedSearch: [],
      ...over
    },
    now: new Date(0),
    kinds: KINDS
  })
}

export const dashboardChanges = (o: PlanOutcome): Change[] =>
  o.plan.changes.filter(c => c.kind === 'Dashboard')
export const change = (o: PlanOutcome, name: string): Change =>
  dashboardChanges(o).find(c => c.name === name)!
export const errors = (o: PlanOutcome) =>
  o.plan.diagnostics.filter(d => d.severity === 'error').map(d => d.message)
export const warnings = (o: PlanOutcome) =>
  o.plan.diagnostics.filter(d => d.severity === 'warning').map(d => d.message)
export const notices = (o: PlanOutcome) =>
  o.plan.diagnostics.filter(d => d.severity === 'notice').map(d => d.message)

export interface Sent {
  method: 'create' | 'update' | 'get'
  id?: string
  body?: Record<string, unknown>
}

/** Runs the dashboard operations of a plan against a recording API that stores what it is sent. */
export async function apply(
  o: PlanOutcome,
  s = settings()
): Promise<{ sent: Sent[]; stored: Map<string, LiveDashboard> }> {
  const sent: Sent[] = []
  const stored = new Map<string, LiveDashboard>()
  let next = 0
  const echo = (id: string, body: Record<string, unknown>): LiveDashboard => {
    const tiles = (body.tiles as Array<Record<string, unknown>>).map((t, i) => ({
      id: t.id ?? `${id}-t${i}`,
      ...t
    }))
    const d = { ...body, id, tiles } as LiveDashboard
    stored.set(id, d)
    return d
  }
  const api = {
    createDashboard: async (body: Record<string, unknown>) => {
      sent.push({ method: 'create', body })
      return echo(`new-${++next}`, body)
    },
    updateDashboard: async (id: string, body: Record<string, unknown>) => {
      sent.push({ method: 'update', id, body })
      return echo(id, body)
    },
    getDashboard: async (id: string) => {
      sent.push({ method: 'get', id })
      return stored.get(id)!
    }
  }
  const facts = new Map<string, OperationResult>()
  const ctx = {
    api,
    settings: s,
    dashboards: o.dashboards,
    registry: new RegistryWriter(o.registry, undefined, s.mode),
    facts,
    log: { info() {}, debug() {}, warn() {} },
    reread: async () => []
  } as unknown as ApplyContext
  const ops = o.planned
    .filter(pc => pc.change.kind === 'Dashboard' && pc.change.action !== 'noop' && !pc.change.deferred)
    .flatMap(pc =>
      dashboardKind.operations(pc as never, { settings: s, dashboards: o.dashboards, registry: o.registry })
    )
  // In order of their tokens, as the engine would run them.
  const pending = [...ops]
  while (pending.length > 0) {
    const i = pending.findIndex(op =>
      op.after.every(t => facts.has(t) || !ops.some(o2 => o2.provides.includes(t)))
    )
    expect(i).toBeGreaterThanOrEqual(0)
    const [op] = pending.splice(i, 1)
    const result = await op!.run(ctx)
    for (const t of op!.provides) facts.set(t, result)
  }
  return { sent, stored }
}

/** The live dashboards a plan's creates leave, as the server stores them. */
export async function created(yaml: string): Promise<LiveDashboard[]> {
  return [...(await apply(plan(yaml))).stored.values()]
}
