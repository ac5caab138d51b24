/** A dashboard change as requests: delete, update in place, or create. */
import type { LiveDashboard } from '../../api/schemas.js'
import { createOnce } from '../create-once.js'
import type { ApplyContext, Operation, OperationContext, OperationResult, PlannedChange } from '../kind.js'
import { alertsClearedToken, dashboardLock, deleteOperation, readyToken } from '../operations.js'
import { createBody, updateBody } from './bodies.js'
import type { DesiredDashboard } from './desired.js'
import { tileIdsOf } from './tiles.js'

export function dashboardOperations(
  pc: PlannedChange<DesiredDashboard, LiveDashboard>,
  octx: OperationContext
): Operation[] {
  const { change, desired, live } = pc
  if (change.action === 'noop' || change.deferred) return []
  if (change.action === 'delete' && live) {
    return [
      deleteOperation({
        address: change.address,
        label: 'delete',
        id: live.id,
        lock: dashboardLock(live.id),
        after: [alertsClearedToken(live.id)],
        request: (api, id) => api.deleteDashboard(id),
        alreadyGone: 'already gone'
      })
    ]
  }
  if (!desired) return []
  const name = desired.name
  const ops: Operation[] = []
  if (live) {
    ops.push({
      address: change.address,
      label: 'update',
      lock: dashboardLock(live.id),
      provides: [readyToken(name)],
      after: [alertsClearedToken(live.id)],
      run: async ctx => {
        const updated = await ctx.api.updateDashboard(
          live.id,
          updateBody(desired.value, live, octx.settings.ownershipTag, octx.settings.mode)
        )
        return { status: 'applied', id: updated.id, tileIds: tileIdsOf(updated) }
      }
    })
  } else {
    ops.push({
      address: change.address,
      label: 'create',
      lock: dashboardLock(name),
      provides: [readyToken(name)],
      after: [],
      run: ctx => createDashboard(ctx, desired.value, name)
    })
  }
  return ops
}

/**
 * Creates without ever creating twice: when the response is lost (UnknownOutcomeError), re-read the
 * dashboards and adopt ours if the server did commit it, before trying again.
 */
function createDashboard(ctx: ApplyContext, d: DesiredDashboard, name: string): Promise<OperationResult> {
  const body = createBody(d, ctx.settings.ownershipTag, ctx.settings.mode)
  return createOnce(ctx, {
    what: 'dashboards',
    name,
    create: () => ctx.api.createDashboard(body),
    created: c => ({ status: 'applied', id: c.id, tileIds: tileIdsOf(c) }),
    list: () => ctx.api.listDashboards(),
    find: all => all.find(l => l.name === name && l.tags.includes(ctx.settings.ownershipTag)),
    adopted: found => ({ status: 'adopted', id: found.id, tileIds: tileIdsOf(found) })
  })
}
