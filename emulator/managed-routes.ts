import { ApiError, cannotRoutePage } from './errors.js'
import { undeclaredBodyKey } from './gateway.js'
import { isUuid, newRequestId } from './ids.js'
import { htmlReply, jsonReply, parseJsonBody, type IncomingCall, type Reply } from './reply.js'
import { handleResource } from './resources.js'
import { patchService } from './service-patch.js'
import type { EmulatorState } from './state.js'

/** `/v1/organizations/{org}/services/{svc}` and anything below it. */
const SERVICE_PATH = /^\/v1\/organizations\/([^/]+)\/services\/([^/]+)(\/.*)?$/

/** The prefixes a managed server may serve (FACTS.md "Managed mode": the cloud spec says clickstack, CONTRACT.md observability). */
export type ManagedPrefix = 'clickstack' | 'observability'

export interface ManagedPath {
  organizationId: string
  serviceId: string
  /** undefined for the service itself (control plane); else the segments below it. */
  rest: string[] | undefined
}

export function matchManagedPath(path: string): ManagedPath | undefined {
  const match = SERVICE_PATH.exec(path)
  if (match === null) return undefined
  const rest = match[3] === undefined ? undefined : match[3].split('/').filter(Boolean)
  return {
    organizationId: decodeURIComponent(match[1]),
    serviceId: decodeURIComponent(match[2]),
    rest: rest?.length === 0 ? undefined : rest
  }
}

/**
 * Managed mode: HTTP Basic with a key id and secret (CONTRACT.md "Authentication"), envelopes `{status, requestId,
 * result}` and errors `{status, error, requestId}` (FACTS.md "Managed mode"). The read-only key pair (a "Developer"
 * role) may read but not write.
 */
export function handleManaged(
  call: IncomingCall,
  state: EmulatorState,
  target: ManagedPath,
  prefixes: ReadonlySet<ManagedPrefix>
): Reply {
  const key = basicCredentials(call.authorization)
  const headers: Record<string, string> = {}
  const limiter = state.managedLimiter
  if (limiter !== null) {
    // FACTS.md: 10 requests per 10 seconds per key; clients retry after X-RateLimit-Reset (seconds).
    const decision = limiter.take(key?.id ?? 'anonymous', state.now())
    headers['X-RateLimit-Limit'] = String(decision.limit)
    headers['X-RateLimit-Remaining'] = String(decision.remaining)
    headers['X-RateLimit-Reset'] = String(decision.resetSeconds)
    if (!decision.allowed)
      return { ...jsonReply(429, { error: 'TOO_MANY_REQUESTS' }, headers), rateLimited: true }
  }
  const requestId = newRequestId()
  const fail = (status: number, error: string) => jsonReply(status, { status, error, requestId }, headers)
  // A path the gateway does not serve: its HTML page, not a resource's JSON "not found" (FACTS.md).
  const noRoute = () => htmlReply(404, cannotRoutePage(call.method, call.path, 'managed'), headers)
  const ok = (result: unknown) => jsonReply(200, { status: 200, requestId, result }, headers)

  const { credentials } = state
  const fullAccess = key?.id === credentials.keyId && key.secret === credentials.keySecret
  const readOnly = key?.id === credentials.readOnlyKeyId && key.secret === credentials.readOnlyKeySecret
  if (!fullAccess && !readOnly) return fail(401, 'Unauthorized: invalid API key id or secret')
  if (!isUuid(target.organizationId)) return fail(400, 'Invalid organizationId: expected a UUID')
  if (!isUuid(target.serviceId)) return fail(400, 'Invalid serviceId: expected a UUID')
  if (target.organizationId !== credentials.organizationId) return fail(404, 'Organization not found')
  const service = state.services.get(target.serviceId)
  if (service === undefined) return fail(404, 'Service not found')
  if (readOnly && call.method !== 'GET')
    return fail(403, 'Forbidden: this API key is not allowed to make changes')

  const body = parseJsonBody(call.body)
  if (!body.ok) return fail(400, 'Invalid JSON body')
  try {
    if (target.rest === undefined) {
      if (call.method === 'GET') return ok(service)
      if (call.method === 'PATCH') {
        const updated = patchService(service, body.value)
        state.updateService(updated)
        return ok(updated)
      }
      return noRoute()
    }
    const [prefix, ...segments] = target.rest
    if (!prefixes.has(prefix as ManagedPrefix)) return noRoute()
    const unknownKey = undeclaredBodyKey(call.method, segments, body.value, state.selfHosted.server)
    if (unknownKey !== undefined) return fail(400, `request body property can't be validated: ${unknownKey}`)
    const outcome = handleResource(
      { method: call.method, segments, query: call.query, body: body.value },
      state.managedStore(target.serviceId),
      {
        paginate: 'uncounted',
        pageSize: state.pageSize,
        charts: false,
        webhooks: prefix === 'clickstack',
        connections: false,
        savedSearches: prefix === 'clickstack',
        sourceWrites: prefix === 'clickstack',
        roles: prefix === 'clickstack',
        alertChannels: false,
        staleSelectFields: true
      }
    )
    // Every clickstack DELETE's documented answer is `{status, requestId}`: no `result` (real-server.md, envelopes).
    if (call.method === 'DELETE') return jsonReply(200, { status: 200, requestId }, headers)
    return ok(outcome.data)
  } catch (error) {
    if (error instanceof ApiError && error.shape === 'route') return noRoute()
    if (error instanceof ApiError) return fail(error.status, error.message)
    return fail(500, error instanceof Error ? error.message : 'Internal server error')
  }
}

function basicCredentials(authorization: string | undefined): { id: string; secret: string } | undefined {
  if (authorization === undefined) return undefined
  const match = /^Basic\s+(.+)$/i.exec(authorization.trim())
  if (match === null) return undefined
  const decoded = Buffer.from(match[1], 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return undefined
  return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) }
}
