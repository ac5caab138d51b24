/**
 * The web UI's own routes on one store, as HyperDX 2.36 serves them (packages/api/src/routers/api/dashboards.ts and
 * alerts.ts, controllers/dashboard.ts and alerts.ts): dashboards in the internal form, written as sent.
 * - GET /dashboards: every dashboard, each tile's config carrying its alert (the first of the tile's alerts) with the
 *   creator filled in; a v2-made dashboard has no createdBy/updatedBy.
 * - POST /dashboards and PATCH /dashboards/{id}: the body is checked (rules/ui-dashboard.ts) but stored as sent,
 *   unknown config keys included; a tile whose config carries an alert creates or updates the tile's alert, and a
 *   PATCH of the tiles deletes the alerts of tiles that are gone or came without one. A PATCH replaces what it sends
 *   (tags de-duplicated) and keeps the rest. The answer is the record itself (creator and updater as ids, each tile's
 *   config as sent).
 * - DELETE /dashboards/{id}: 204, also for an unknown id; the dashboard's alerts go too.
 * - PUT /alerts/{id}: the v2 rules (rules/alert.ts, controllers/alerts.ts validateAlertInput and makeAlert); the
 *   answer is `{data}` with the record.
 * Validation failures are zod-express-middleware's 400 list (params before body), an unknown dashboard or alert on a
 * PATCH or PUT the text `Not Found`.
 */
import { alertRecord, buildAlert, setSchedule } from './alert-body.js'
import { ApiError, isPlainObject, UiBodyError } from './errors.js'
import { newObjectId } from './ids.js'
import { internalTile, storedFromInternal } from './internal-form/stored-tile.js'
import { resolvePaletteToken } from './palette.js'
import { alertBodySchema } from './rules/alert.js'
import type { z } from './rules/common.js'
import { uiSchemas } from './rules/ui-dashboard.js'
import type { ResourceStore } from './store.js'
import type { AlertChannel, JsonObject, StoredAlert, StoredDashboard, StoredTile } from './types.js'

type Json = JsonObject

/** The 400 body: the failed parts in the middleware's order, each zod error as it serializes. */
function validationBody(
  failures: Array<[type: 'Params' | 'Body', error: z.ZodError | undefined]>
): unknown[] {
  const list = failures.filter(([, error]) => error !== undefined).map(([type, errors]) => ({ type, errors }))
  return JSON.parse(JSON.stringify(list)) as unknown[]
}

function check(failures: Array<[type: 'Params' | 'Body', error: z.ZodError | undefined]>): void {
  const body = validationBody(failures)
  if (body.length > 0) throw new UiBodyError(body)
}

const notFound = () => new ApiError(404, 'Not Found', 'text')

/** The dashboards routes' legacy-colour shim: a tile config's `chart-1`…`chart-10` colour becomes its hue. */
function healColors(body: unknown): unknown {
  if (!isPlainObject(body) || !Array.isArray(body.tiles)) return body
  return {
    ...body,
    tiles: body.tiles.map(tile => {
      if (!isPlainObject(tile) || !isPlainObject(tile.config) || typeof tile.config.color !== 'string')
        return tile
      const color = resolvePaletteToken(tile.config.color) ?? tile.config.color
      return color === tile.config.color ? tile : { ...tile, config: { ...tile.config, color } }
    })
  }
}

/** The seed user as `populate('createdBy', 'email name')` shows it. */
const userRef = (store: ResourceStore): Json => ({
  email: store.user.email,
  name: store.user.name,
  _id: store.user.id
})

/** An ObjectId's creation second, for records persisted before their timestamps were kept. */
function idTime(id: string): string {
  const seconds = parseInt(id.slice(0, 8), 16)
  return Number.isFinite(seconds) ? new Date(seconds * 1000).toISOString() : new Date(0).toISOString()
}

/** An alert record as the web UI routes return it (the mongoose document). */
export function internalAlert(store: ResourceStore, alert: StoredAlert, populate: boolean): Json {
  const out: Json = { threshold: alert.threshold, thresholdType: alert.thresholdType }
  if (alert.thresholdMax !== undefined) out.thresholdMax = alert.thresholdMax
  out.interval = alert.interval
  if (alert.scheduleOffsetMinutes != null) out.scheduleOffsetMinutes = alert.scheduleOffsetMinutes
  if (alert.scheduleStartAt !== undefined) out.scheduleStartAt = alert.scheduleStartAt
  Object.assign(out, {
    channel: structuredClone(alert.channel),
    channels: structuredClone(alert.channels),
    state: alert.state,
    source: alert.source,
    team: alert.teamId,
    createdBy: populate ? userRef(store) : store.user.id,
    name: alert.name,
    message: alert.message,
    note: alert.note ?? null,
    savedSearch: alert.savedSearchId ?? null,
    groupBy: alert.groupBy ?? null,
    dashboard: alert.dashboardId ?? null,
    tileId: alert.tileId ?? null,
    numConsecutiveWindows: alert.numConsecutiveWindows ?? null,
    _id: alert.id,
    createdAt: alert.createdAt,
    updatedAt: alert.updatedAt,
    __v: 0,
    id: alert.id
  })
  return out
}

/** A dashboard filter in the internal form: `source` for the v2 form's `sourceId`. */
function internalFilter(filter: Json): Json {
  const { sourceId, ...rest } = filter
  return { ...structuredClone(rest), source: sourceId }
}

function externalFilter(filter: unknown): Json {
  const { source, ...rest } = (isPlainObject(filter) ? filter : {}) as Json
  return { ...structuredClone(rest), sourceId: source }
}

interface DashboardView {
  /** GET: each tile's alert in its config, users filled in. */
  withAlerts?: Map<string, StoredAlert>
}

/** A dashboard as the record holds it (the answers of POST and PATCH), or as GET /dashboards shows it. */
export function internalDashboard(store: ResourceStore, d: StoredDashboard, view: DashboardView = {}): Json {
  const populate = view.withAlerts !== undefined
  const tiles = d.tiles.map(tile => {
    const out = internalTile(tile)
    const config = out.config as Json
    if (view.withAlerts) {
      delete config.alert
      const alert = view.withAlerts.get(`${d.id}:${tile.id}`)
      if (alert) config.alert = internalAlert(store, alert, true)
      // controllers/dashboard.ts heals legacy colour tokens on the way out.
      const color = typeof config.color === 'string' ? resolvePaletteToken(config.color) : undefined
      if (color !== undefined) config.color = color
    }
    return out
  })
  const out: Json = {
    name: d.name,
    tiles,
    team: store.teamId,
    tags: [...(d.tags ?? [])],
    filters: (d.filters ?? []).map(internalFilter)
  }
  if (d.savedQuery !== undefined) out.savedQuery = d.savedQuery
  if (d.savedQueryLanguage !== undefined) out.savedQueryLanguage = d.savedQueryLanguage
  out.savedFilterValues = structuredClone(d.savedFilterValues ?? [])
  out.containers = structuredClone(d.containers ?? [])
  const meta = store.dashboardMeta.get(d.id) ?? {}
  if (meta.createdBy !== undefined) out.createdBy = populate ? userRef(store) : meta.createdBy
  if (meta.updatedBy !== undefined) out.updatedBy = populate ? userRef(store) : meta.updatedBy
  const createdAt = meta.createdAt ?? idTime(d.id)
  Object.assign(out, {
    provisioned: false,
    _id: d.id,
    createdAt,
    updatedAt: meta.updatedAt ?? createdAt,
    __v: 0,
    id: d.id
  })
  return out
}

/** The first alert of each tile, by `dashboardId:tileId` (controllers/alerts.ts groups them so). */
function alertsByTile(store: ResourceStore): Map<string, StoredAlert> {
  const map = new Map<string, StoredAlert>()
  for (const alert of store.alerts.values()) {
    if (alert.source !== 'tile' || alert.dashboardId === null || alert.tileId === null) continue
    const key = `${alert.dashboardId}:${alert.tileId}`
    if (!map.has(key)) map.set(key, alert)
  }
  return map
}

export function uiDashboards(store: ResourceStore): Json[] {
  const alerts = alertsByTile(store)
  return [...store.dashboards.values()].map(d => internalDashboard(store, d, { withAlerts: alerts }))
}

/** models/alert.ts getAlertChannels: `channels` when it has any, else the singular `channel`. */
function channelsOf(alert: Json): AlertChannel[] {
  if (Array.isArray(alert.channels) && alert.channels.length > 0)
    return structuredClone(alert.channels) as AlertChannel[]
  const channel = alert.channel
  if (isPlainObject(channel) && channel.type != null) return [structuredClone(channel) as AlertChannel]
  return []
}

/**
 * controllers/alerts.ts createOrUpdateDashboardAlerts: a tile config's alert, upserted by dashboard and tile
 * (makeAlert's rules: what it sends replaces, an omitted name/message/note clears, thresholdMax and the schedule stay
 * unless sent). Nothing checks the webhooks here.
 */
function upsertTileAlert(store: ResourceStore, dashboardId: string, tileId: string, sent: Json): void {
  const existing = [...store.alerts.values()].find(
    a => a.source === 'tile' && a.dashboardId === dashboardId && a.tileId === tileId
  )
  const channels = channelsOf(sent)
  const record = alertRecord(sent, existing, {
    source: 'tile',
    channel: channels[0] ?? ({ type: null } as unknown as AlertChannel),
    channels,
    dashboardId,
    tileId,
    teamId: store.teamId
  })
  setSchedule(record, sent, existing)
  store.alerts.set(record.id, record)
}

/** controllers/dashboard.ts syncDashboardAlerts (a PATCH with tiles) and the create's alert pass. */
function syncTileAlerts(
  store: ResourceStore,
  dashboardId: string,
  before: StoredTile[],
  tiles: Json[]
): void {
  const alertOf = (tile: Json): Json | undefined => {
    const alert = isPlainObject(tile.config) ? tile.config.alert : undefined
    return isPlainObject(alert) ? alert : undefined
  }
  const sent = new Map<string, Json>()
  for (const tile of tiles) {
    const alert = alertOf(tile)
    if (alert) sent.set(String(tile.id), alert)
  }
  for (const [tileId, alert] of sent) upsertTileAlert(store, dashboardId, tileId, alert)

  const current = alertsByTile(store)
  const oldIds = new Set(before.map(t => t.id))
  const newIds = new Set(tiles.map(t => String(t.id)))
  const drop = new Set([
    ...[...oldIds].filter(id => !newIds.has(id)),
    ...[...oldIds].filter(id => newIds.has(id) && current.has(`${dashboardId}:${id}`) && !sent.has(id))
  ])
  if (drop.size === 0) return
  for (const alert of [...store.alerts.values()])
    if (alert.source === 'tile' && alert.dashboardId === dashboardId && drop.has(String(alert.tileId)))
      store.alerts.delete(alert.id)
}

export function uiCreateDashboard(store: ResourceStore, body: unknown): Json {
  const input = healColors(body ?? {})
  const parsed = uiSchemas().create.safeParse(input)
  check([['Body', parsed.success ? undefined : parsed.error]])
  // validateRequest checks without replacing the body: the record is what was sent (mongoose drops unknown
  // top-level keys; `provisioned` is the server's to set).
  const sent = input as Json
  const record: StoredDashboard = {
    id: newObjectId(),
    name: sent.name as string,
    tiles: (sent.tiles as Json[]).map(storedFromInternal),
    tags: [...(sent.tags as string[])],
    filters: ((sent.filters as unknown[] | undefined) ?? []).map(externalFilter)
  }
  assignDashboardFields(record, sent)
  store.dashboards.set(record.id, record)
  store.touchDashboard(record.id, { created: true, by: store.user.id })
  syncTileAlerts(store, record.id, [], sent.tiles as Json[])
  store.records.changed()
  return internalDashboard(store, record)
}

/** savedQuery, savedQueryLanguage, savedFilterValues and containers, when sent (null included). */
function assignDashboardFields(record: StoredDashboard, sent: Json): void {
  if (sent.savedQuery !== undefined) record.savedQuery = sent.savedQuery as string | null
  if (sent.savedQueryLanguage !== undefined)
    record.savedQueryLanguage = sent.savedQueryLanguage as string | null
  if (sent.savedFilterValues !== undefined)
    record.savedFilterValues = structuredClone(sent.savedFilterValues) as JsonObject[]
  if (sent.containers !== undefined) record.containers = structuredClone(sent.containers) as JsonObject[]
}

export function uiPatchDashboard(store: ResourceStore, id: string, body: unknown): Json {
  const input = healColors(body ?? {})
  const params = uiSchemas().params.safeParse({ id })
  const parsed = uiSchemas().patch.safeParse(input)
  check([
    ['Params', params.success ? undefined : params.error],
    ['Body', parsed.success ? undefined : parsed.error]
  ])
  const existing = store.dashboards.get(id)
  if (existing === undefined) throw notFound()
  const sent = Object.fromEntries(
    Object.entries(input as Json).filter(([key, value]) => value !== undefined && key !== 'provisioned')
  )
  const record: StoredDashboard = { ...existing }
  if (typeof sent.name === 'string') record.name = sent.name
  if (Array.isArray(sent.tiles)) record.tiles = (sent.tiles as Json[]).map(storedFromInternal)
  if (Array.isArray(sent.tags)) record.tags = [...new Set(sent.tags as string[])]
  if (Array.isArray(sent.filters)) record.filters = sent.filters.map(externalFilter)
  assignDashboardFields(record, sent)
  store.dashboards.set(id, record)
  store.touchDashboard(id, { by: store.user.id })
  if (Array.isArray(sent.tiles)) syncTileAlerts(store, id, existing.tiles, sent.tiles as Json[])
  store.records.changed()
  return internalDashboard(store, record)
}

export function uiDeleteDashboard(store: ResourceStore, id: string): void {
  const params = uiSchemas().params.safeParse({ id })
  check([['Params', params.success ? undefined : params.error]])
  store.deleteDashboard(id)
}

/** PUT /alerts/{id}: the body and the id checked together, then the v2 update's rules. */
export function uiUpdateAlert(store: ResourceStore, id: string, body: unknown): Json {
  const params = uiSchemas().params.safeParse({ id })
  const parsed = alertBodySchema('self-hosted').safeParse(body ?? {})
  check([
    ['Params', params.success ? undefined : params.error],
    ['Body', parsed.success ? undefined : parsed.error]
  ])
  const alert = buildAlert(body ?? {}, store.alertContext(), () => {
    const found = store.alerts.get(id)
    if (found === undefined) throw notFound()
    return found
  })
  store.alerts.set(id, alert)
  store.records.changed()
  return internalAlert(store, alert, false)
}
