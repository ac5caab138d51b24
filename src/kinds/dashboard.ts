/**
 * Dashboards. Identity: an `id:` pin, then this stack's own dashboard of the same name, then the one
 * named in `renamedFrom`, then (only with `adopt: true`) an unowned one of the same name. Tiles are
 * matched by name and keep their ids on update (FACTS.md: a tile sent without its id is a new tile,
 * and the server deletes the alerts of the tile that went away).
 */
import { createOnce } from './create-once.js'
import { sameId, type LiveDashboard, type LiveTile, type RawId } from '../api/schemas.js'
import { diagnostic, type SourceLocation } from '../diagnostics.js'
import { equal, type Json, type JsonObject } from '../json.js'
import { formatPath, type PathSegment } from '../manifest/path.js'
import type { Located } from '../manifest/rules.js'
import { tileDisplayType } from '../manifest/rules.js'
import type { DashboardSpec, SeriesSpec, TileConfigSpec, TileSpec } from '../manifest/schema.js'
import { ALERTABLE_DISPLAY_TYPES } from '../manifest/vocabulary.js'
import { resolveById, resolveByName } from './resolve.js'
import type { ApplyContext, Desired, Kind, Operation, OperationResult, Pairing, PlanContext } from './kind.js'
import { isOwnershipTag, userTags } from './ownership.js'
import { isModelledConfigKey, normalTile, type SeriesLike } from './tile-normal-form.js'

export interface DesiredDashboard {
  spec: DashboardSpec
  located: Located<DashboardSpec>
  /** Tiles as they will be sent (sources resolved to ids), in manifest order. */
  tiles: Array<{ spec: TileSpec; body: Record<string, unknown> }>
}

/** Dashboard fields we do not manage but must not lose: a PUT may replace the whole record. */
const CARRIED_DASHBOARD_FIELDS = [
  'filters',
  'savedQuery',
  'savedQueryLanguage',
  'savedFilterValues',
  'containers'
]
const CARRIED_TILE_FIELDS = ['containerId', 'tabId']

export const readyToken = (desiredName: string) => `dashboard-ready:${desiredName}`
export const alertsClearedToken = (liveId: string) => `alerts-cleared:${liveId}`
export const dashboardLock = (key: string) => `dashboard:${key}`

const isAlertable = (type: string | undefined) =>
  (ALERTABLE_DISPLAY_TYPES as readonly string[]).includes(type ?? '')

export const dashboardKind: Kind<DesiredDashboard, LiveDashboard> = {
  kind: 'Dashboard',
  keyedPaths: new Set(['tiles']),

  desired(ctx) {
    return ctx.manifests.dashboards.map(located => {
      const { spec, doc } = located
      const tiles = (spec.tiles ?? []).map((tile, i) => ({
        spec: tile,
        body: tileBody(tile, ['tiles', i], located, ctx)
      }))
      return {
        name: spec.name,
        address: `Dashboard/${spec.name}`,
        // A getter: positions are built only for what the plan shows.
        get source() {
          return doc.locate(['name'])
        },
        value: { spec, located, tiles }
      }
    })
  },

  pair(desired, ctx) {
    const tag = ctx.settings.ownershipTag
    const all = [...ctx.live.dashboards].sort((a, b) => a.id.localeCompare(b.id))
    const owned = all.filter(d => d.tags.includes(tag))
    const byId = new Map(all.map(d => [d.id, d]))
    const used = new Set<string>()
    const result: Pairing<DesiredDashboard, LiveDashboard> = { pairs: [], orphans: [] }
    const take = (d: LiveDashboard) => {
      used.add(d.id)
      return d
    }
    // Indexed by name: pairing stays linear in the number of dashboards.
    const byName = (list: LiveDashboard[]) => {
      const index = new Map<string, LiveDashboard[]>()
      for (const d of list) index.set(d.name, [...(index.get(d.name) ?? []), d])
      return index
    }
    const ownedByName = byName(owned)
    const allByName = byName(all)
    const firstUnused = (index: Map<string, LiveDashboard[]>, name: string) =>
      index.get(name)?.find(d => !used.has(d.id))
    const pending: Desired<DesiredDashboard>[] = []
    const planError = (d: Desired<DesiredDashboard>, path: PathSegment[], message: string) =>
      ctx.report(
        diagnostic('plan', 'error', message, { ...d.value.located.doc.locate(path), field: formatPath(path) })
      )

    // 1. Pinned ids, all of them first: a pin wins over a name match, whatever the file order.
    for (const d of desired) {
      const pin = d.value.spec.id
      if (pin === undefined) continue
      const live = byId.get(pin)
      if (!live) planError(d, ['id'], `no dashboard with id "${pin}" exists`)
      else if (used.has(pin))
        planError(d, ['id'], `dashboard id "${pin}" is already matched by another manifest`)
      else {
        const notes = live.tags.includes(tag) ? [] : [adoptionNote(live, tag)]
        result.pairs.push({ desired: d, live: take(live), notes })
      }
    }
    // 2. This stack's dashboard of the same name.
    for (const d of desired) {
      if (d.value.spec.id !== undefined) continue
      const mine = firstUnused(ownedByName, d.name)
      if (mine) result.pairs.push({ desired: d, live: take(mine) })
      else pending.push(d)
    }
    // 3. renamedFrom; 4. adopt; otherwise create, unless the name is taken by a dashboard we do not own.
    for (const d of pending) {
      const from = d.value.spec.renamedFrom
      const previous = from !== undefined ? firstUnused(ownedByName, from) : undefined
      if (previous) {
        result.pairs.push({
          desired: d,
          live: take(previous),
          notes: [`renamed from "${from}": keeps its id, its tile ids and its alerts`]
        })
        continue
      }
      const others = (allByName.get(d.name) ?? []).filter(l => !used.has(l.id) && !l.tags.includes(tag))
      if (others.length === 0) {
        result.pairs.push({ desired: d })
      } else if (d.value.spec.adopt && others.length === 1) {
        result.pairs.push({ desired: d, live: take(others[0]!), notes: [adoptionNote(others[0]!, tag)] })
      } else if (d.value.spec.adopt) {
        planError(
          d,
          ['adopt'],
          `${others.length} dashboards are named "${d.name}" (ids ${others.map(o => o.id).join(', ')}); pin the one to adopt with \`id:\``
        )
      } else {
        const other = others[0]!
        const ownerTag = other.tags.find(isOwnershipTag)
        planError(
          d,
          ['name'],
          `a dashboard named "${d.name}" already exists (id ${other.id}) and is not owned by stack "${ctx.settings.stack}"` +
            `${ownerTag ? ` (it carries ${ownerTag})` : ''}. It is not overwritten: to manage it from this manifest, add \`adopt: true\`` +
            ` (or \`id: ${other.id}\`); to keep both, give this manifest another name.`
        )
      }
    }
    result.orphans = owned.filter(d => !used.has(d.id))

    // A rename without renamedFrom looks like a create plus an orphan with the same tiles. With prune
    // it is a replace (new ids, alerts recreated); without prune nothing is deleted, and the plan says so.
    const orphanKeys = new Map(result.orphans.map(o => [o, tileNameKey(o.tiles.map(t => t.name))]))
    for (const pair of result.pairs) {
      if (pair.live || orphanKeys.size === 0) continue
      const names = tileNameKey(pair.desired.value.spec.tiles?.map(t => t.name) ?? [])
      const twin = names ? result.orphans.find(o => orphanKeys.get(o) === names) : undefined
      if (!twin) continue
      const hint = `add \`renamedFrom: ${JSON.stringify(twin.name)}\` to rename it in place and keep its id, tile ids and alerts`
      if (ctx.settings.prune) {
        pair.replaces = twin
        result.orphans = result.orphans.filter(o => o !== twin)
        pair.notes = [
          `looks like a rename of "${twin.name}" (same tiles). Without \`renamedFrom\` this is a replace: a new dashboard is created with new tile ids, its alerts are recreated, and "${twin.name}" is deleted; ${hint}`
        ]
      } else {
        pair.notes = [
          `looks like a rename of "${twin.name}" (same tiles). Without \`renamedFrom\` this creates a new dashboard and "${twin.name}" stays until prune; ${hint}`
        ]
      }
    }
    return result
  },

  normalDesired(d, ctx) {
    const tiles: JsonObject = {}
    for (const t of d.value.tiles) tiles[t.spec.name] = flatTile(t.body as Parameters<typeof normalTile>[0])
    return withoutUndefined({
      name: d.name,
      owner: ctx.settings.ownershipTag,
      tags: userTags(d.value.spec.tags ?? []),
      tiles
    })
  },

  normalLive(l, ctx) {
    const tiles: JsonObject = {}
    for (const [key, t] of keyedLiveTiles(l)) tiles[key] = flatTile(t)
    const owner = l.tags.includes(ctx.settings.ownershipTag)
      ? ctx.settings.ownershipTag
      : l.tags.find(isOwnershipTag)
    return withoutUndefined({ name: l.name, owner, tags: userTags(l.tags), tiles })
  },

  liveName: l => l.name,
  liveId: l => l.id,

  refine(pc, ctx) {
    const { change, desired, live } = pc
    if (!desired || !live || pc.replaces) return
    const desiredByName = new Map(desired.value.tiles.map(t => [t.spec.name, t]))
    const liveTiles = keyedLiveTiles(live)
    const dropped = [...liveTiles].filter(([key]) => !desiredByName.has(key))
    const added = desired.value.tiles.filter(t => !liveTiles.has(t.spec.name))
    const alertsOn = (tileId: RawId | undefined) =>
      tileId !== undefined
        ? ctx.live.alerts
            .filter(a => a.dashboardId === live.id && sameId(a.tileId, tileId))
            .map(a => `"${a.name ?? a.id}"`)
        : []
    for (const [key, tile] of dropped) {
      const twin = added.find(a =>
        sameContent(flatTile(a.body as Parameters<typeof normalTile>[0]), flatTile(tile))
      )
      const alerts = alertsOn(tile.id)
      const alertText =
        alerts.length > 0
          ? `; the server deletes its alert${alerts.length > 1 ? 's' : ''} ${alerts.join(', ')}`
          : ''
      if (twin) {
        change.notes.push(
          `tile "${key}" renamed to "${twin.spec.name}": tiles are matched by name, so "${twin.spec.name}" is a new tile with a new id${alertText}`
        )
      } else if (alerts.length > 0) {
        change.notes.push(`tile "${key}" is removed${alertText}`)
      }
    }
    for (const t of desired.value.tiles) {
      const before = liveTiles.get(t.spec.name)
      if (!before || isAlertable(tileDisplayType(t.spec)) || !isAlertable(liveDisplayType(before))) continue
      const alerts = alertsOn(before.id)
      if (alerts.length > 0) {
        change.notes.push(
          `tile "${t.spec.name}" becomes a ${tileDisplayType(t.spec)} tile, which cannot carry alerts: the server deletes ${alerts.join(', ')}`
        )
      }
    }
  },

  conclude(changes, ctx) {
    for (const { change, desired, live, replaces } of changes) {
      const current = replaces ? undefined : live
      // Desired tiles that can carry alerts: a live tile not among them goes away, or loses its alerts.
      const alertable = new Set(
        desired?.value.tiles.filter(t => isAlertable(tileDisplayType(t.spec))).map(t => t.spec.name) ?? []
      )
      if (desired) {
        ctx.dashboards.desired.set(desired.name, {
          address: change.address,
          liveId: current?.id,
          tileIds: current ? tileIdsOf(current) : new Map<string, RawId>()
        })
      }
      for (const l of [live, replaces]) {
        if (!l) continue
        const droppedTileIds = new Set<string>()
        if (desired && l === current) {
          for (const [key, t] of keyedLiveTiles(l))
            if (t.id !== undefined && !alertable.has(key)) droppedTileIds.add(String(t.id))
        }
        ctx.dashboards.live.set(l.id, {
          address: change.address,
          desiredName: l === current ? desired?.name : undefined,
          deleted: l === replaces || (change.action === 'delete' && !change.deferred),
          droppedTileIds
        })
      }
    }
  },

  operations(pc, octx) {
    const { change, desired, live, replaces } = pc
    if (change.action === 'noop' || change.deferred) return []
    if (change.action === 'delete' && live) {
      return [
        {
          address: change.address,
          label: 'delete',
          lock: dashboardLock(live.id),
          provides: [],
          after: [alertsClearedToken(live.id)],
          run: async ctx => {
            const outcome = await ctx.api.deleteDashboard(live.id)
            return {
              status: 'applied',
              id: live.id,
              message: outcome === 'absent' ? 'already gone' : undefined
            }
          }
        }
      ]
    }
    if (!desired) return []
    const name = desired.name
    const ops: Operation[] = []
    if (live && !replaces) {
      ops.push({
        address: change.address,
        label: 'update',
        lock: dashboardLock(live.id),
        provides: [readyToken(name)],
        after: [alertsClearedToken(live.id)],
        run: async ctx => {
          const updated = await ctx.api.updateDashboard(
            live.id,
            updateBody(desired.value, live, octx.settings.ownershipTag)
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
    if (replaces) {
      ops.push({
        address: change.address,
        label: `delete "${replaces.name}" (replaced)`,
        lock: dashboardLock(replaces.id),
        provides: [],
        after: [readyToken(name), alertsClearedToken(replaces.id)],
        run: async ctx => {
          await ctx.api.deleteDashboard(replaces.id)
          return { status: 'applied', id: replaces.id }
        }
      })
    }
    return ops
  }
}

/**
 * Creates without ever creating twice: when the response is lost (UnknownOutcomeError), re-read the
 * dashboards and adopt ours if the server did commit it, before trying again.
 */
function createDashboard(ctx: ApplyContext, d: DesiredDashboard, name: string): Promise<OperationResult> {
  const body = createBody(d, ctx.settings.ownershipTag)
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

function createBody(d: DesiredDashboard, tag: string): Record<string, unknown> {
  return {
    name: d.spec.name,
    tags: [...userTags(d.spec.tags ?? []), tag],
    tiles: d.tiles.map(t => ({ ...t.body }))
  }
}

function updateBody(d: DesiredDashboard, live: LiveDashboard, tag: string): Record<string, unknown> {
  const liveTiles = keyedLiveTiles(live)
  const body: Record<string, unknown> = {}
  for (const field of CARRIED_DASHBOARD_FIELDS)
    if (live[field] !== undefined && live[field] !== null) body[field] = live[field]
  body.name = d.spec.name
  // The user's tags and this stack's: a dashboard has one owner, so adopting one from another stack
  // removes that stack's tag (the plan says so).
  body.tags = [...new Set([...userTags(d.spec.tags ?? []), tag])]
  body.tiles = d.tiles.map(t => {
    const before = liveTiles.get(t.spec.name)
    if (!before) return { ...t.body }
    // The id exactly as the server sent it: the server matches tiles by id.
    const tile: Record<string, unknown> = { id: before.id, ...t.body }
    for (const field of CARRIED_TILE_FIELDS)
      if (before[field] !== undefined && before[field] !== null) tile[field] = before[field]
    // Config keys we do not model (set in the UI) survive an update of the same display type.
    const sent = tile.config as Record<string, unknown> | undefined
    if (sent && before.config && before.config.displayType === sent.displayType) {
      const extra = Object.fromEntries(
        Object.entries(before.config).filter(([k]) => !isModelledConfigKey(k) && !(k in sent))
      )
      tile.config = { ...extra, ...sent }
    }
    if (tile.id === undefined) delete tile.id
    return tile
  })
  return body
}

/** Live tiles by name; a second tile of the same name (made in the UI) gets a distinct key. */
function keyedLiveTiles<T extends { name: string }>(l: { tiles: readonly T[] }): Map<string, T> {
  const out = new Map<string, T>()
  for (const t of l.tiles) {
    let key = t.name
    for (let n = 2; out.has(key); n++) key = `${t.name} (${n})`
    out.set(key, t)
  }
  return out
}

/** Tile ids by tile name, as the server sent them. */
function tileIdsOf(d: { tiles: ReadonlyArray<{ name: string; id?: RawId }> }): Map<string, RawId> {
  const ids = new Map<string, RawId>()
  for (const [key, t] of keyedLiveTiles(d)) if (t.id !== undefined) ids.set(key, t.id)
  return ids
}

function liveDisplayType(t: LiveTile): string | undefined {
  return normalTile(asNormalInput(t)).config.displayType as string | undefined
}

function flatTile(t: Parameters<typeof normalTile>[0]): JsonObject {
  const n = normalTile(asNormalInput(t))
  return { x: n.x, y: n.y, w: n.w, h: n.h, ...n.config }
}

function asNormalInput(t: Record<string, unknown>): Parameters<typeof normalTile>[0] {
  return {
    name: String(t.name ?? ''),
    x: Number(t.x),
    y: Number(t.y),
    w: Number(t.w),
    h: Number(t.h),
    config: (t.config as Record<string, unknown> | null | undefined) ?? undefined,
    series: (t.series as SeriesLike[] | null | undefined) ?? undefined,
    asRatio: (t.asRatio as boolean | null | undefined) ?? undefined
  }
}

/** Same tile apart from its name (for spotting tile renames). */
function sameContent(a: JsonObject, b: JsonObject): boolean {
  return equal(a as Json, b as Json)
}

const tileNameKey = (names: string[]): string => (names.length === 0 ? '' : JSON.stringify([...names].sort()))

function withoutUndefined(o: Record<string, unknown>): JsonObject {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as JsonObject
}

function adoptionNote(live: LiveDashboard, tag: string): string {
  const other = live.tags.find(t => isOwnershipTag(t) && t !== tag)
  return other
    ? `adopts dashboard ${live.id} from ${other}: this stack takes ownership and removes that tag, so the other stack no longer manages it (nor its alerts)`
    : `adopts existing dashboard ${live.id}: it gets this stack's ownership tag ${tag}`
}

/** The tile as the server will receive it: the manifest's form, with data sources resolved to ids. */
function tileBody(
  tile: TileSpec,
  path: PathSegment[],
  located: Located<DashboardSpec>,
  ctx: PlanContext
): Record<string, unknown> {
  const body: Record<string, unknown> = { name: tile.name, x: tile.x, y: tile.y, w: tile.w, h: tile.h }
  if (tile.series) {
    if (tile.asRatio !== undefined) body.asRatio = tile.asRatio
    body.series = tile.series.map((s, i) =>
      seriesBody(s, resolveSource(s, [...path, 'series', i], located, ctx))
    )
  } else if (tile.config) {
    body.config = configBody(tile.config, resolveSource(tile.config, [...path, 'config'], located, ctx))
  }
  return body
}

function resolveSource(
  ref: { source?: string; sourceId?: string } | SeriesSpec | TileConfigSpec,
  path: PathSegment[],
  located: Located<DashboardSpec>,
  ctx: PlanContext
): string | undefined {
  const { source, sourceId } = ref as { source?: string; sourceId?: string }
  if (source === undefined && sourceId === undefined) return undefined
  const sources = ctx.live.sources.map(s => ({ id: s.id, name: s.name }))
  const field = source !== undefined ? 'source' : 'sourceId'
  const resolution =
    source !== undefined
      ? resolveByName(sources, source, 'data source')
      : resolveById(sources, sourceId!, 'data source')
  if ('id' in resolution) return resolution.id
  const at: SourceLocation = located.doc.locate([...path, field])
  ctx.report(diagnostic('plan', 'error', resolution.error, { ...at, field: formatPath([...path, field]) }))
  return `unresolved:${source ?? sourceId}`
}

function seriesBody(s: SeriesSpec, sourceId: string | undefined): Record<string, unknown> {
  if (s.type === 'markdown') return { type: 'markdown', content: s.content }
  const { source: _source, sourceId: _id, ...rest } = s as SeriesSpec & { source?: string; sourceId?: string }
  const body: Record<string, unknown> = { ...rest }
  if (sourceId !== undefined) body.sourceId = sourceId
  // The published spec requires where, whereLanguage and (time, table) groupBy; send their defaults.
  body.where = s.where ?? ''
  body.whereLanguage = s.whereLanguage ?? 'lucene'
  if ((s.type === 'time' || s.type === 'table') && s.groupBy === undefined) body.groupBy = []
  return body
}

function configBody(c: TileConfigSpec, sourceId: string | undefined): Record<string, unknown> {
  const {
    source: _source,
    sourceId: _id,
    ...rest
  } = c as TileConfigSpec & { source?: string; sourceId?: string }
  const body: Record<string, unknown> = { ...rest }
  if (sourceId !== undefined) body.sourceId = sourceId
  if (Array.isArray(body.groupBy)) body.groupBy = body.groupBy.join(',')
  if (Array.isArray(body.select) && c.displayType === 'search') body.select = body.select.join(', ')
  return body
}
