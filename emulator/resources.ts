import { externalAlert } from './alert-body.js'
import { querySeries } from './charts.js'
import { dashboardOutput } from './dashboard-output.js'
import { ApiError } from './errors.js'
import { isObjectId } from './ids.js'
import * as records from './records.js'
import * as roles from './roles.js'
import { nextExternalFields } from './next-server.js'
import type { ResourceStore } from './store.js'
import type { JsonObject, StoredAlert, StoredDashboard } from './types.js'

/** One observability request, relative to its mode's prefix (`/api/v2`, `.../observability`, `.../clickstack`). */
export interface ResourceRequest {
  method: string
  segments: string[]
  query: Record<string, string>
  body: unknown
}

export interface ResourceOptions {
  /**
   * Alert, webhook and saved-search lists are paginated (`limit`, `offset`). `counted`: with `meta` and its total
   * (self-hosted, FACTS.md); the managed cloud's declare no total (TF client/webhook.go pages until nothing new).
   */
  paginate: 'counted' | 'uncounted'
  pageSize: number
  /** Charts exist in self-hosted mode only (CONTRACT.md capability table). */
  charts: boolean
  /** Self-hosted, and managed under `clickstack` only (FACTS.md; CONTRACT.md says managed has none). */
  webhooks: boolean
  /** Self-hosted only: the cloud has no connections route (real-server.md §11.2). */
  connections: boolean
  /** Saved searches, and source writes: self-hosted, and managed under `clickstack` (CONTRACT.md: a source list only). */
  savedSearches: boolean
  sourceWrites: boolean
  /**
   * ClickStack roles: managed under `clickstack` only (the cloud's OpenAPI); HyperDX 2.36's open-source v2 API has
   * no roles route, and CONTRACT.md's `observability` prefix declares none.
   */
  roles?: boolean
  /** The managed alert response has no `channels` (ClickStackAlertResponse). */
  alertChannels: boolean
  /** The managed cloud's dashboards keep select fields its write schema refuses (dashboard-output.ts). */
  staleSelectFields?: boolean
}

export interface PageMeta {
  total: number
  limit: number
  offset: number
}

/** What a route produced; each mode wraps it in its envelope. `bare` bodies go out without `{data}`. */
export interface Outcome {
  data: unknown
  page?: PageMeta
  bare?: boolean
}

const MAX_LIMIT = 1000

/** Routes shared by both modes (FACTS.md "Routes"). Throws ApiError for every error answer. */
export function handleResource(
  request: ResourceRequest,
  store: ResourceStore,
  options: ResourceOptions
): Outcome {
  const [resource, id, extra] = request.segments
  if (extra !== undefined) throw notFound()
  const outcome = routeOf(resource)?.(request, id, store, options)
  if (outcome === undefined) throw notFound()
  return outcome
}

/** One resource's routes: its outcome, or undefined when none serves this method and path. */
type Route = (
  request: ResourceRequest,
  id: string | undefined,
  store: ResourceStore,
  options: ResourceOptions
) => Outcome | undefined

function routeOf(resource: string | undefined): Route | undefined {
  switch (resource) {
    case 'dashboards':
      return dashboardRoutes
    case 'alerts':
      return alertRoutes
    case 'sources':
      return sourceRoutes
    case 'webhooks':
      return webhookRoutes
    case 'connections':
      return connectionRoutes
    case 'saved-searches':
      return savedSearchRoutes
    case 'charts':
      return chartRoutes
    case 'roles':
      return roleRoutes
  }
  return undefined
}

const deleted = (): Outcome => ({ data: {}, bare: true })

const dashboardRoutes: Route = ({ method, body }, id, store, options) => {
  const external = (d: StoredDashboard) =>
    dashboardOutput(d, { staleSelectFields: options.staleSelectFields, next: store.server === 'next' })
  if (id === undefined) {
    if (method === 'GET') return { data: [...store.dashboards.values()].map(external) }
    if (method === 'POST') return { data: external(store.createDashboard(body)) }
  } else if (id === 'validate' && method === 'POST') {
    return { data: store.validateDashboard(body), bare: true }
  } else if (method === 'GET' || method === 'PUT' || method === 'DELETE') {
    checkId(id)
    if (method === 'GET') return { data: external(store.getDashboard(id)) }
    if (method === 'PUT') return { data: external(store.updateDashboard(id, body)) }
    store.deleteDashboard(id)
    return deleted()
  }
  return undefined
}

const alertRoutes: Route = (request, id, store, options) => {
  const { method, body } = request
  const out = (a: StoredAlert) => alertForMode(a, options, store)
  if (id === undefined) {
    if (method === 'GET') return list([...store.alerts.values()].map(out), request, options)
    if (method === 'POST') return { data: out(store.createAlert(body)) }
  } else if (method === 'GET' || method === 'PUT' || method === 'DELETE') {
    checkId(id)
    if (method === 'GET') return { data: out(store.getAlert(id)) }
    if (method === 'PUT') return { data: out(store.updateAlert(id, body)) }
    store.deleteAlert(id)
    return deleted()
  }
  return undefined
}

const sourceRoutes: Route = ({ method, body }, id, store, options) => {
  const r = store.records
  if (id === undefined) {
    // v2/sources.ts: not paginated.
    if (method === 'GET') return { data: store.sources.map(records.externalSource) }
    if (method === 'POST' && options.sourceWrites)
      return { data: records.externalSource(records.createSource(r, body)) }
  } else if (method === 'GET' || (options.sourceWrites && (method === 'PUT' || method === 'DELETE'))) {
    checkId(id)
    if (method === 'GET') return { data: records.externalSource(store.getSource(id)) }
    if (method === 'PUT') return { data: records.externalSource(records.updateSource(r, id, body)) }
    records.deleteSource(r, id)
    return deleted()
  }
  return undefined
}

const webhookRoutes: Route = (request, id, store, options) => {
  if (!options.webhooks) return undefined
  const { method, body } = request
  const r = store.records
  if (id === undefined) {
    if (method === 'GET') return list(store.webhooks.map(records.externalWebhook), request, options)
    if (method === 'POST') return { data: records.externalWebhook(records.createWebhook(r, body)) }
    // No GET /webhooks/{id}: that path is the router's 404 page.
  } else if (method === 'PUT' || method === 'DELETE') {
    checkId(id)
    if (method === 'PUT') return { data: records.externalWebhook(records.updateWebhook(r, id, body)) }
    records.deleteWebhook(r, id)
    return deleted()
  }
  return undefined
}

const connectionRoutes: Route = ({ method, body }, id, store, options) => {
  if (!options.connections) return undefined
  const r = store.records
  if (id === undefined) {
    // v2/connections.ts: not paginated.
    if (method === 'GET') return { data: store.connections.map(records.externalConnection) }
    if (method === 'POST') return { data: records.externalConnection(records.createConnection(r, body)) }
  } else if (method === 'GET' || method === 'PUT' || method === 'DELETE') {
    checkId(id)
    if (method === 'GET') return { data: records.externalConnection(records.getConnection(r, id)) }
    if (method === 'PUT') return { data: records.externalConnection(records.updateConnection(r, id, body)) }
    records.deleteConnection(r, id)
    return deleted()
  }
  return undefined
}

const savedSearchRoutes: Route = (request, id, store, options) => {
  if (!options.savedSearches) return undefined
  const { method, body } = request
  const r = store.records
  if (id === undefined) {
    if (method === 'GET') return list([...store.savedSearches.values()], request, options)
    if (method === 'POST') return { data: records.createSavedSearch(r, body) }
  } else if (method === 'GET' || method === 'PUT' || method === 'DELETE') {
    checkId(id)
    if (method === 'GET') return { data: records.getSavedSearch(r, id) }
    if (method === 'PUT') return { data: records.updateSavedSearch(r, id, body) }
    records.deleteSavedSearch(r, id)
    return deleted()
  }
  return undefined
}

/** Not paginated: the OpenAPI declares no `limit` or `offset` on the list, and a team has few roles. */
const roleRoutes: Route = ({ method, body }, id, store, options) => {
  if (!options.roles) return undefined
  const s = store.roleState
  if (id === undefined) {
    if (method === 'GET') return { data: [...store.roles.values()].map(roles.externalRole) }
    if (method === 'POST') return { data: roles.externalRole(roles.createRole(s, body)) }
  } else if (method === 'GET' || method === 'PUT' || method === 'DELETE') {
    checkId(id)
    if (method === 'GET') return { data: roles.externalRole(roles.getRole(s, id)) }
    if (method === 'PUT') return { data: roles.externalRole(roles.updateRole(s, id, body)) }
    roles.deleteRole(s, id)
    return deleted()
  }
  return undefined
}

const chartRoutes: Route = ({ method, body }, id, store, options) => {
  if (options.charts && id === 'series' && method === 'POST')
    return { data: querySeries(body, store.sources, store.events).data }
  return undefined
}

/** translateAlertDocumentToExternalAlert; the managed response has no `channels`. */
function alertForMode(a: StoredAlert, options: ResourceOptions, store: ResourceStore): JsonObject {
  const out =
    store.server === 'next' ? { ...externalAlert(a), ...nextExternalFields(a, store) } : externalAlert(a)
  // The next cloud returns `channels` too (next-server.ts).
  if (!options.alertChannels && store.server !== 'next') delete out.channels
  return out
}

/** No route serves this method and path: each mode answers with its router's page. */
function notFound(): ApiError {
  return new ApiError(404, 'Not Found', 'route')
}

/** FACTS.md: a malformed id in a path is a 400 `Params validation failed: id: Invalid ObjectId`. */
function checkId(id: string): void {
  if (!isObjectId(id)) throw new ApiError(400, 'Params validation failed: id: Invalid ObjectId')
}

function list(items: unknown[], request: ResourceRequest, options: ResourceOptions): Outcome {
  const limit = queryInteger(request.query, 'limit', options.pageSize, 1, MAX_LIMIT)
  const offset = queryInteger(request.query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER)
  const data = items.slice(offset, offset + limit)
  if (options.paginate === 'uncounted') return { data }
  return { data, page: { total: items.length, limit, offset } }
}

function queryInteger(
  query: Record<string, string>,
  key: string,
  fallback: number,
  min: number,
  max: number
): number {
  const raw = query[key]
  if (raw === undefined) return fallback
  const fail = (message: string) => new ApiError(400, `Query validation failed: ${key}: ${message}`)
  if (!/^-?\d+$/.test(raw.trim())) throw fail('Expected integer')
  const value = Number(raw)
  if (value < min) throw fail(`Number must be greater than or equal to ${min}`)
  if (value > max) throw fail(`Number must be less than or equal to ${max}`)
  return value
}
