/**
 * applyPlan (src/apply/apply.ts) with fake kinds that hand out scripted operations, so each outcome and
 * each order is set by the test, not by a server: what the apply unit tests share.
 */
import { applyPlan, type ApplyInput } from '../../src/apply/apply.js'
import type { ApplyProgress } from '../../src/apply/types.js'
import type { AnyKind } from '../../src/kinds/index.js'
import type { ApplyContext, Operation, OperationResult, PlannedChange } from '../../src/kinds/kind.js'
import { silentLogger } from '../../src/log.js'
import { RESOURCE_KINDS, type Action, type ResourceKind } from '../../src/plan/types.js'

export const change = (
  name: string,
  action: Action,
  id?: string,
  kind: ResourceKind = 'Dashboard'
): PlannedChange => ({
  change: {
    kind,
    name,
    address: `${kind}/${name}`,
    action,
    id,
    fields: [],
    notes: [],
    dependsOn: []
  }
})

export interface Step {
  label?: string
  provides?: string[]
  after?: string[]
  run: (ctx: ApplyContext) => Promise<OperationResult>
}
export const ok = (result: Partial<OperationResult> = {}): Step => ({
  run: async () => ({ status: 'applied', ...result })
})
export const fails = (error: string, label = 'create'): Step => ({
  label,
  run: async () => Promise.reject(new Error(error))
})

/**
 * Applies `planned` with kinds whose operations are `steps[address]`, one at a time unless told (a fixed
 * order); `progress: false` applies without a progress listener, `countdown` counts the changes' estimates down.
 */
export async function apply(
  planned: PlannedChange[],
  steps: Record<string, Step[]>,
  concurrency = 1,
  { progress: listen = true, countdown }: Pick<ApplyInput, 'countdown'> & { progress?: boolean } = {}
) {
  const kinds = RESOURCE_KINDS.map(
    kind =>
      ({
        kind,
        operations: (pc: PlannedChange): Operation[] =>
          (steps[pc.change.address] ?? []).map((s, i) => ({
            address: pc.change.address,
            label: s.label ?? `step ${i + 1}`,
            provides: s.provides ?? [],
            after: s.after ?? [],
            run: s.run
          }))
      }) as unknown as AnyKind
  )
  const progress: ApplyProgress[] = []
  const result = await applyPlan({
    api: {} as ApplyContext['api'],
    planned,
    dashboards: { desired: new Map(), live: new Map() },
    settings: {} as ApplyContext['settings'],
    concurrency,
    log: silentLogger,
    kinds,
    onProgress: listen ? p => progress.push(p) : undefined,
    countdown
  })
  return { result, progress }
}
