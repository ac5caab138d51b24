/**
 * What operations of different kinds share: the tokens and locks that order them across kinds (an
 * alert waits for its dashboard, a dashboard delete for its alerts), and the shape of a delete.
 */
import type { ObservabilityApi } from '../api/client.js'
import type { Operation } from './kind.js'
import { resourceReady } from './references.js'

/** The dashboard exists with its tiles (created or updated): its alerts can be written. */
export const readyToken = (desiredName: string) => resourceReady('Dashboard', desiredName)
/** The alerts this run deletes on a live dashboard are gone: the dashboard itself may go. */
export const alertsClearedToken = (liveId: string) => `alerts-cleared:${liveId}`
/** One request at a time per dashboard, alerts on it included: the server has no concurrency control. */
export const dashboardLock = (key: string) => `dashboard:${key}`

/** One delete request; a resource that is already gone counts as deleted, with `alreadyGone` as its message. */
export function deleteOperation(op: {
  address: string
  label: string
  id: string
  lock?: string
  provides?: string[]
  after?: string[]
  request: (api: ObservabilityApi, id: string) => Promise<'deleted' | 'absent'>
  alreadyGone?: string
}): Operation {
  return {
    address: op.address,
    label: op.label,
    lock: op.lock,
    provides: op.provides ?? [],
    after: op.after ?? [],
    run: async ctx => {
      const outcome = await op.request(ctx.api, op.id)
      return {
        status: 'applied',
        id: op.id,
        message: outcome === 'absent' ? op.alreadyGone : undefined
      }
    }
  }
}
