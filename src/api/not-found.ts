/**
 * What a 404 means. A route's own "not found" (its body shape, per route and mode) says the resource is absent;
 * any other 404 is a route the server, or a gateway in front of it, does not have, and the error says which
 * setting to check.
 */
import type { ApiPrefix, Mode } from '../config/types.js'
import { ApiError, RouteNotFoundError, type ApiErrorDetails } from './errors.js'

/**
 * How a route answers when the resource itself does not exist: with JSON, or `status-text`, Express's
 * `sendStatus(404)`: the plain text `Not Found`.
 */
export type NotFoundShape = 'json' | 'status-text'

/** Whether `e` is the route's own "not found" answer: the resource is absent (already deleted). */
export function isResourceAbsent(e: ApiError, shapes: readonly NotFoundShape[]): boolean {
  if (e.status !== 404) return false
  if (e.bodyShape === 'json') return shapes.includes('json')
  return e.bodyShape === 'text' && e.serverMessage === 'Not Found' && shapes.includes('status-text')
}

/** A 404 that is not a resource's "not found" names the path and, in managed mode, the prefix. */
export function routeNotFound(e: unknown, mode: Mode, prefix: ApiPrefix | undefined): unknown {
  if (!(e instanceof ApiError) || e.status !== 404 || e instanceof RouteNotFoundError) return e
  if (mode === 'managed' && e.bodyShape === 'json' && prefix === 'clickstack') return unknownService(e)
  const hint =
    mode === 'managed'
      ? `Managed prefix "${prefix}": the public cloud serves only clickstack and CONTRACT.md says observability; set managed-prefix (auto tries clickstack, then observability)`
      : 'Check api-url: it is the API base (port 8000 by default), not the web UI'
  return new RouteNotFoundError(sameRequest(e, hint))
}

/**
 * A JSON 404 on a managed list: the API answered, so the route exists; what it did not find is the organization or
 * the service of the path ("Service not found").
 */
export function unknownService(e: ApiError): ApiError {
  return new ApiError(
    sameRequest(
      e,
      'The cloud API does not know this organization or service: check organization-id and service-id (the ids in the cloud console URL of the service), and that the API key belongs to that organization'
    )
  )
}

/** The details of the request `e` failed, with what to do about it said anew. */
function sameRequest(e: ApiError, hint: string): ApiErrorDetails {
  return {
    status: e.status,
    method: e.method,
    path: e.path,
    serverMessage: e.serverMessage,
    requestId: e.requestId,
    bodyShape: e.bodyShape,
    hint
  }
}
