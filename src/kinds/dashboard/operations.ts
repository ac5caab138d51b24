/** A dashboard change as requests: delete, update in place (a PUT or patches), or create. */
import type { DashboardPatch } from '../../api/client.js'
import type { LiveDashboard } from '../../api/schemas.js'
import { createOnce } from '../create-once.js'
import type {
  ApplyContext,
  Operation,
  OperationContext,
  OperationResult,
  PlannedChange,
  RequestEstimate
} from '../kind.js'
import { alertsClearedToken, dashboardLock, deleteOperation, readyToken } from '../operations.js'
import { bindPlaceholders, placeholderTokens } from '../references.js'
import { addedSince, isRegistryDashboard, parseRegistry } from '../registry.js'
import { createBody, updateBody, type BodyOptions } from './bodies.js'
import type { DashboardRequest } from './desired.js'
import { linkedNames } from './links.js'
import { patchTile } from './patch.js'
import { keyLabel } from '../../plan/diff.js'
import { pairTiles, tileIdsOf, tileSpecs } from './tiles.js'

export function dashboardOperations(
  pc: PlannedChange<DashboardRequest, LiveDashboard>,
  octx: OperationContext
): Operation[] {
  const { change, desired, live } = pc
  if (change.action === 'noop' || change.deferred) return []
  if (change.action === 'delete' && live) {
    // An extra registry dashboard of the stack: its entries go into the kept one first (registry.ts).
    if (isRegistryDashboard(live)) return [extraRegistryDelete(change.address, live)]
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
  const d = desired.value
  // Link-outs to dashboards this apply creates: written after them (links.ts).
  // And the sources and connections this run creates: their creates first, their ids bound into the body.
  const waits = [
    ...[...d.waitsFor].map(readyToken),
    ...placeholderTokens([d.tiles.map(t => t.body), d.filters])
  ]
  const ops: Operation[] = []
  if (live) {
    ops.push({
      address: change.address,
      label: 'update',
      lock: dashboardLock(live.id),
      provides: [readyToken(name)],
      after: [alertsClearedToken(live.id), ...waits],
      run: async ctx => {
        if (d.write?.via === 'patch') return patchDashboard(ctx, d, d.write.tiles, live, octx)
        const updated = await ctx.api.updateDashboard(
          live.id,
          bindPlaceholders(updateBody(d, live, bodyOptions(ctx, octx)), ctx.facts)
        )
        return { status: 'applied', id: updated.id, tileIds: tileIdsOf(tileSpecs(d), updated) }
      }
    })
  } else {
    ops.push({
      address: change.address,
      label: 'create',
      lock: dashboardLock(name),
      provides: [readyToken(name)],
      after: waits,
      run: ctx => createDashboard(ctx, d, name, octx)
    })
    if (d.linksLater) {
      // Its link-outs to dashboards created after it (or to itself), once they exist.
      const later = [...new Set(d.tiles.flatMap(t => linkedNames(t.body)))].map(readyToken)
      ops.push({
        address: change.address,
        label: 'set links',
        lock: dashboardLock(name),
        provides: [],
        after: [readyToken(name), ...later],
        run: async ctx => {
          const id = ctx.facts.get(readyToken(name))!.id!
          const created = await ctx.api.getDashboard(id)
          const updated = await ctx.api.updateDashboard(
            id,
            bindPlaceholders(updateBody(d, created, bodyOptions(ctx, octx)), ctx.facts)
          )
          return { status: 'applied', id: updated.id, tileIds: tileIdsOf(tileSpecs(d), updated) }
        }
      })
    }
  }
  return ops
}

/**
 * What dashboardOperations send: a delete (an extra registry's: a read, the kept one's write, the delete), a PUT, or the patches (one per changed tile, at least one) and the read
 * after them; a create, and for late link-outs a read and a PUT.
 */
export function dashboardRequests(pc: PlannedChange<DashboardRequest, LiveDashboard>): RequestEstimate {
  const { change, desired, live } = pc
  if (change.action === 'noop' || change.deferred) return { requests: 0 }
  // An extra registry dashboard is read again and merged into the kept one (a write) before its delete.
  if (change.action === 'delete') return { requests: live ? (isRegistryDashboard(live) ? 3 : 1) : 0 }
  if (!desired) return { requests: 0 }
  const write = desired.value.write
  if (live) return { requests: write?.via === 'patch' ? Math.max(1, write.tiles.length) + 1 : 1 }
  return { requests: desired.value.linksLater ? 3 : 1 }
}

/**
 * An update as patches (patch.ts): the name and tags with the first tile, then one tile a call, then a read of the
 * dashboard for its tile ids. A refusal after the first call leaves the earlier ones applied: the error says which.
 */
async function patchDashboard(
  ctx: ApplyContext,
  d: DashboardRequest,
  tiles: readonly string[],
  live: LiveDashboard,
  octx: OperationContext
): Promise<OperationResult> {
  const { tags } = updateBody(d, live, bodyOptions(ctx, octx)) as { tags: string[] }
  const pairing = pairTiles(tileSpecs(d), live)
  const byKey = new Map(
    d.tiles.map((t, i) => [pairing.desired[i]!.key, { t, live: pairing.desired[i]!.live }])
  )
  const calls: DashboardPatch[] = tiles.map(key => {
    // dashboardWrite patches only tiles paired with a live tile that has an id.
    const { t, live: paired } = byKey.get(key)!
    const liveTile = paired!
    const tile = patchTile(t.body, liveTile)!
    return { dashboardId: live.id, tileId: String(liveTile.id), tile: bindPlaceholders(tile, ctx.facts) }
  })
  if (calls.length === 0) calls.push({ dashboardId: live.id })
  Object.assign(calls[0]!, { name: d.spec.name, tags })
  const done: string[] = []
  for (const [i, call] of calls.entries()) {
    try {
      await ctx.api.patchDashboard(call)
    } catch (e) {
      if (done.length === 0) throw e
      const rest = tiles.slice(i)
      throw new Error(
        `${e instanceof Error ? e.message : String(e)}. Applied before it: the name and tags, and tile${done.length === 1 ? '' : 's'} ${done.map(keyLabel).join(', ')}; not applied: ${rest.map(keyLabel).join(', ')}. Plan again to see what is left`,
        { cause: e }
      )
    }
    if (call.tileId !== undefined) done.push(tiles[i]!)
  }
  const updated = await ctx.api.getDashboard(live.id)
  return { status: 'applied', id: updated.id, tileIds: tileIdsOf(tileSpecs(d), updated) }
}

/** The body options of this apply: a link-out to a created dashboard takes the id the create returned. */
function bodyOptions(ctx: ApplyContext, octx: OperationContext): BodyOptions {
  return {
    tag: octx.settings.ownershipTag,
    mode: octx.settings.mode,
    idOf: name => ctx.facts.get(readyToken(name))?.id ?? octx.dashboards.desired.get(name)?.liveId
  }
}

/**
 * Creates without ever creating twice: when the response is lost (UnknownOutcomeError), re-read the
 * dashboards and adopt ours if the server did commit it, before trying again.
 */
function createDashboard(
  ctx: ApplyContext,
  d: DashboardRequest,
  name: string,
  octx: OperationContext
): Promise<OperationResult> {
  const body = bindPlaceholders(createBody(d, bodyOptions(ctx, octx)), ctx.facts)
  return createOnce(ctx, {
    what: 'dashboards',
    name,
    create: () => ctx.api.createDashboard(body),
    created: c => ({ status: 'applied', id: c.id, tileIds: tileIdsOf(tileSpecs(d), c) }),
    list: () => ctx.api.listDashboards(),
    find: all =>
      all.find(l => l.name === name && l.tags.includes(ctx.settings.ownershipTag) && !isRegistryDashboard(l)),
    adopted: found => ({ status: 'adopted', id: found.id, tileIds: tileIdsOf(tileSpecs(d), found) })
  })
}

/**
 * The delete of an extra registry dashboard of the stack (registry.ts `extras`): read it again (another apply may have
 * recorded something in it since the plan), write the kept registry dashboard with every entry, the extra's new ones
 * included, and only then delete the extra. A failure at any step leaves the extra in place, so nothing the stack
 * owns is forgotten; the next plan names it again.
 */
function extraRegistryDelete(address: string, extra: LiveDashboard): Operation {
  return {
    address,
    label: 'merge into the kept registry, then delete',
    lock: dashboardLock(extra.id),
    provides: [],
    after: [alertsClearedToken(extra.id)],
    run: async ctx => {
      const now = parseRegistry(await ctx.api.getDashboard(extra.id))
      if ('problem' in now)
        throw new Error(
          `not deleted: it changed since the plan and cannot be read now (${now.problem}); restore its tiles as obsdeploy wrote them`
        )
      const planned = parseRegistry(extra)
      await ctx.registry.absorb(addedSince(now.owned, 'owned' in planned ? planned.owned : {}))
      await ctx.api.deleteDashboard(extra.id)
      return { status: 'applied', id: extra.id }
    }
  }
}
