import { ApiError, cannotRoutePage } from './errors.js'
import { htmlReply, jsonReply, parseJsonBody, textReply, type IncomingCall, type Reply } from './reply.js'
import { handleResource } from './resources.js'
import type { EmulatorState } from './state.js'

export const SELF_HOSTED_PREFIX = '/api/v2'

const TOO_MANY_REQUESTS = { message: 'Too many requests, please try again later.' }

/**
 * Self-hosted mode: `/api/v2/...`, `Authorization: Bearer <personal API key>` (CONTRACT.md "Authentication").
 * Order as in the real server: rate limit (per key, every request counts), then authentication, then the route.
 */
export function handleSelfHosted(call: IncomingCall, state: EmulatorState): Reply {
  const token = bearerToken(call.authorization)
  const headers: Record<string, string> = {}
  const limiter = state.selfHostedLimiter
  if (limiter !== null) {
    // FACTS.md "Errors": 100 requests a minute per key, `RateLimit-*` headers on every response.
    const decision = limiter.take(token ?? 'anonymous', state.now())
    headers['RateLimit-Limit'] = String(decision.limit)
    headers['RateLimit-Remaining'] = String(decision.remaining)
    headers['RateLimit-Reset'] = String(decision.resetSeconds)
    if (!decision.allowed) {
      const reply = jsonReply(429, TOO_MANY_REQUESTS, {
        ...headers,
        'Retry-After': String(decision.resetSeconds)
      })
      return { ...reply, rateLimited: true }
    }
  }
  // CONTRACT.md: the ingestion key is a different credential and is refused; FACTS.md: 401 is plain text.
  if (token === undefined || token !== state.credentials.apiKey)
    return textReply(401, 'Unauthorized', headers)

  const segments = call.path.slice(SELF_HOSTED_PREFIX.length).split('/').filter(Boolean)
  if (segments.length === 0) {
    if (call.method !== 'GET')
      return htmlReply(404, cannotRoutePage(call.method, call.path, 'self-hosted'), headers)
    return jsonReply(
      200,
      { version: 'v2', user: { ...state.user, teamId: state.team.id, teamName: state.team.name } },
      headers
    )
  }
  const body = parseJsonBody(call.body)
  if (!body.ok) return jsonReply(400, { message: 'Invalid JSON body' }, headers)
  // v2/team.ts: the key's team, its members and its invitations (team-members.ts).
  if (segments.length === 1 && segments[0] === 'team') {
    if (call.method !== 'GET')
      return htmlReply(404, cannotRoutePage(call.method, call.path, 'self-hosted'), headers)
    return jsonReply(200, { data: { id: state.team.id, name: state.team.name } }, headers)
  }
  if (segments[0] === 'team') {
    const reply = state.teamMembers.route(call.method, segments.slice(1), body.value)
    if (reply === undefined)
      return htmlReply(404, cannotRoutePage(call.method, call.path, 'self-hosted'), headers)
    return { ...reply, headers: { ...reply.headers, ...headers } }
  }
  try {
    const outcome = handleResource(
      { method: call.method, segments, query: call.query, body: body.value },
      state.selfHosted,
      {
        paginate: 'counted',
        pageSize: state.pageSize,
        charts: true,
        webhooks: true,
        connections: true,
        savedSearches: true,
        sourceWrites: true,
        alertChannels: true
      }
    )
    if (outcome.bare) return jsonReply(200, outcome.data, headers)
    if (outcome.page !== undefined) {
      headers['X-Total-Count'] = String(outcome.page.total)
      return jsonReply(200, { data: outcome.data, meta: outcome.page }, headers)
    }
    return jsonReply(200, { data: outcome.data }, headers)
  } catch (error) {
    return errorReply(error, call, headers)
  }
}

/** FACTS.md "Errors": the body shape depends on the route; an unexpected failure is a 500 `{message}`. */
function errorReply(error: unknown, call: IncomingCall, headers: Record<string, string>): Reply {
  if (error instanceof ApiError) {
    if (error.shape === 'route')
      return htmlReply(404, cannotRoutePage(call.method, call.path, 'self-hosted'), headers)
    if (error.shape === 'text') return textReply(error.status, error.message, headers)
    if (error.shape === 'error') return jsonReply(error.status, { error: error.message }, headers)
    return jsonReply(error.status, { message: error.message }, headers)
  }
  return jsonReply(
    500,
    { message: error instanceof Error ? error.message : 'Internal Server Error' },
    headers
  )
}

function bearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined
  const match = /^Bearer\s+(.+)$/i.exec(authorization.trim())
  return match ? match[1].trim() : undefined
}
