/**
 * Errors of the API edge. Messages carry the method, the path, the status, the server's own words and
 * its request id, and never a credential or an Authorization header.
 */

export interface ApiErrorDetails {
  status?: number
  method: string
  path: string
  /** The server's message, parsed from whichever body shape the route uses. */
  serverMessage?: string
  requestId?: string
  /** What to do about it, in words (which credential the mode expects, which role is missing). */
  hint?: string
  /** How many attempts were made (retries included). */
  attempts?: number
  /** What the error body was: a route's "not found" is told apart from a router's by it. */
  bodyShape?: BodyShape
}

/** JSON, plain text, an HTML page, or nothing. */
export type BodyShape = 'json' | 'text' | 'html' | 'none'

export class ApiError extends Error {
  readonly status?: number
  readonly method: string
  readonly path: string
  readonly serverMessage?: string
  readonly requestId?: string
  readonly hint?: string
  readonly attempts?: number
  readonly bodyShape?: BodyShape

  constructor(details: ApiErrorDetails, summary?: string) {
    const what = summary ?? (details.status ? `failed with HTTP ${details.status}` : 'failed')
    const server = details.serverMessage ? `: ${details.serverMessage}` : ''
    const id = details.requestId ? ` (requestId ${details.requestId})` : ''
    const hint = details.hint ? `. ${details.hint}` : ''
    super(`${details.method} ${details.path} ${what}${server}${id}${hint}`)
    this.name = 'ApiError'
    this.status = details.status
    this.method = details.method
    this.path = details.path
    this.serverMessage = details.serverMessage
    this.requestId = details.requestId
    this.hint = details.hint
    this.attempts = details.attempts
    this.bodyShape = details.bodyShape
  }
}

/**
 * A 404 that is not the route's own "not found": the server (or a gateway in front of it) has no such
 * route, e.g. an HTML `Cannot DELETE ...` page. It never means "already deleted".
 */
export class RouteNotFoundError extends ApiError {
  constructor(details: ApiErrorDetails) {
    super(
      details,
      'failed: HTTP 404 that is not this route\'s "not found" answer (the server has no such route; nothing is taken as absent or deleted)'
    )
    this.name = 'RouteNotFoundError'
  }
}

/**
 * A non-idempotent request (a create) whose outcome is unknown: the connection broke or the server
 * failed after the request was sent, so it may have been committed. The caller must re-read before it
 * creates again; the transport never retries it blindly.
 */
export class UnknownOutcomeError extends ApiError {
  constructor(details: ApiErrorDetails, cause: string) {
    super(details, `outcome unknown (${cause}); it may or may not have been applied`)
    this.name = 'UnknownOutcomeError'
  }
}

/**
 * A request given up on purpose, before or while in flight: another request failed first and its answer
 * is no longer needed, or the client was closed. Never a finding of its own: the first failure is.
 */
export class RequestCancelledError extends ApiError {
  constructor(details: ApiErrorDetails, reason: string) {
    super(details, `cancelled: ${reason}`)
    this.name = 'RequestCancelledError'
  }
}

/** The server answered 2xx with a body we do not understand: names the route and the field. */
export class ResponseShapeError extends ApiError {
  constructor(
    details: ApiErrorDetails,
    readonly field: string,
    problem: string
  ) {
    super(details, `returned an unexpected response: ${field ? `field ${field}: ` : ''}${problem}`)
    this.name = 'ResponseShapeError'
  }
}

export function bodyShapeOf(body: unknown, text: string): BodyShape {
  if (body !== undefined && typeof body === 'object') return 'json'
  const plain = text.trim()
  if (plain === '') return 'none'
  return /^<(!doctype|html|head|body|pre)/i.test(plain) ? 'html' : 'text'
}

/** Parses the server's message out of any of the body shapes the routes use (FACTS.md "Errors"). */
export function serverMessageOf(body: unknown, text: string): string | undefined {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const b = body as Record<string, unknown>
    for (const key of ['message', 'error', 'detail', 'title']) {
      const v = b[key]
      if (typeof v === 'string' && v.trim()) return shorten(v)
      if (v && typeof v === 'object' && typeof (v as { message?: unknown }).message === 'string') {
        return shorten((v as { message: string }).message)
      }
    }
    if (Array.isArray(b.errors)) {
      const msgs = b.errors
        .map(e => (typeof e === 'string' ? e : (e as { message?: unknown })?.message))
        .filter((m): m is string => typeof m === 'string')
      if (msgs.length > 0) return shorten(msgs.join('; '))
    }
    return undefined
  }
  const plain = text.trim()
  if (!plain) return undefined
  // A gateway's HTML error page: its title says it all ("502 Bad Gateway"), the markup says nothing.
  if (/^<(!doctype|html)/i.test(plain)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(plain)?.[1]
    return shorten(title ?? plain.replace(/<[^>]*>/g, ' '))
  }
  return shorten(plain)
}

export function requestIdOf(
  body: unknown,
  headers: Record<string, string | string[] | undefined>
): string | undefined {
  const fromBody = body && typeof body === 'object' ? (body as { requestId?: unknown }).requestId : undefined
  if (typeof fromBody === 'string' && fromBody) return fromBody
  const header = headers['x-request-id'] ?? headers['request-id']
  return typeof header === 'string' ? header : undefined
}

const shorten = (s: string): string => {
  const one = s.replace(/\s+/g, ' ').trim()
  return one.length > 500 ? `${one.slice(0, 500)}…` : one
}
