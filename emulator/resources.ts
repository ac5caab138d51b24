import { querySeries } from './charts.js'
import { externalDashboard } from './dashboard-output.js'
import { ApiError } from './errors.js'
import { isObjectId } from './ids.js'
import type { ResourceStore } from './store.js'

/** One observability request, relative to its mode's prefix (`/api/v2`, `.../observability`, `.../clickstack`). */
export interface ResourceRequest {
  method: string
  segments: string[]
  query: Record<string, string>
  body: unknown
}

export interface ResourceOptions {
  /** Self-hosted alert and webhook lists are paginated (FACTS.md); managed lists are plain arrays. */
  paginate: boolean
  pageSize: number
  /** Charts exist in self-hosted mode only (CONTRACT.md capability table). */
  charts: boolean
  /** Self-hosted, and managed under `clickstack` only (FACTS.md; CONTRACT.md says managed has none). */
  webhooks: boolean
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
  const { method, segments } = request
  const [resource, id, extra] = segments
  if (extra !== undefined) throw notFound()
  switch (resource) {
    case 'dashboards':
      if (id === undefined) {
        if (method === 'GET') return { data: [...store.dashboards.values()].map(externalDashboard) }
        if (method === 'POST') return { data: externalDashboard(store.createDashboard(request.body)) }
      } else if (id === 'validate' && method === 'POST') {
        return { data: store.validateDashboard(request.body), bare: true }
      } else if (method === 'GET' || method === 'PUT' || method === 'DELETE') {
        checkId(id)
        if (method === 'GET') return { data: externalDashboard(store.getDashboard(id)) }
        if (method === 'PUT') return { data: externalDashboard(store.updateDashboard(id, request.body)) }
        store.deleteDashboard(id)
        return { data: {}, bare: true }
      }
      break
    case 'alerts':
      if (id === undefined) {
        if (method === 'GET') return list([...store.alerts.values()], request, options)
        if (method === 'POST') return { data: store.createAlert(request.body) }
      } else if (method === 'GET' || method === 'PUT' || method === 'DELETE') {
        checkId(id)
        if (method === 'GET') return { data: store.getAlert(id) }
        if (method === 'PUT') return { data: store.updateAlert(id, request.body) }
        store.deleteAlert(id)
        return { data: {}, bare: true }
      }
      break
    case 'sources':
      if (method !== 'GET') break
      if (id === undefined) return { data: store.sources }
      checkId(id)
      return { data: store.getSource(id) }
    case 'webhooks':
      if (options.webhooks && id === undefined && method === 'GET')
        return list(store.webhooks, request, options)
      break
    case 'charts':
      if (options.charts && id === 'series' && method === 'POST') {
        return { data: querySeries(request.body, store.sources, store.events).data }
      }
      break
  }
  throw notFound()
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
  if (!options.paginate) return { data: items }
  const limit = queryInteger(request.query, 'limit', options.pageSize, 1, MAX_LIMIT)
  const offset = queryInteger(request.query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER)
  return { data: items.slice(offset, offset + limit), page: { total: items.length, limit, offset } }
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
