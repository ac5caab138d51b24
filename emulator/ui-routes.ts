/**
 * The web UI's routes over HTTP (outside /api/v2), as HyperDX 2.36 serves them (packages/api/src/api-app.ts,
 * routers/api/root.ts, dashboards.ts, alerts.ts; middleware/auth.ts):
 * - `POST /login/password` with `{email, password}` (JSON or a form): 303 to `<origin>/` and a session cookie
 *   (`connect.sid`, HttpOnly, SameSite=Lax); wrong credentials 303 to `<origin>/login?err=authFail`, missing ones
 *   to `…?err=unknown` (passport-local, failWithError). The credentials are the seed user's email and
 *   `credentials.userPassword`.
 * - `/dashboards…` and `/alerts…` need that session (passport): without it, 401 `Unauthorized` (plain text). The
 *   API key is not accepted there. Served: GET, POST /dashboards, PATCH and DELETE /dashboards/{id},
 *   PUT /alerts/{id} (emulator/ui-store.ts); any other path under them is the router's 404 page.
 * A JSON body that does not parse is the API's 400 `{message: 'Invalid JSON payload'}`, before authentication.
 */
import { ApiError, cannotRoutePage, UiBodyError, UNEXPECTED_ERROR_MESSAGE } from './errors.js'
import { htmlReply, jsonReply, textReply, type IncomingCall, type Reply } from './reply.js'
import type { EmulatorState } from './state.js'
import type { TeamStore } from './team-store.js'
import { SESSION_COOKIE } from './ui-sessions.js'

export { SESSION_COOKIE }

export const LOGIN_PATH = '/login/password'
const SESSION_DAYS = 30

/** The paths this module serves: the sign-in and the two routers it implements. */
export function isUiPath(path: string): boolean {
  return path === LOGIN_PATH || /^\/(dashboards|alerts)(\/|$)/.test(path)
}

const mediaType = (header: string | undefined) => (header ?? '').split(';')[0]!.trim().toLowerCase()

function sessionCookie(value: string): string {
  const expires = new Date(Date.now() + SESSION_DAYS * 24 * 60 * 60 * 1000).toUTCString()
  return `${SESSION_COOKIE}=${value}; Path=/; Expires=${expires}; HttpOnly; SameSite=Lax`
}

/** Express's `res.redirect(303, url)` as a client that accepts anything sees it. */
function seeOther(location: string, cookie: string): Reply {
  return {
    status: 303,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', Location: location, 'Set-Cookie': cookie },
    body: `See Other. Redirecting to ${location}`
  }
}

function login(call: IncomingCall, state: EmulatorState, origin: string): Reply {
  const type = mediaType(call.headers?.['content-type'])
  let form: Record<string, unknown> = {}
  if (type === 'application/x-www-form-urlencoded') form = Object.fromEntries(new URLSearchParams(call.body))
  else if (call.body.trim() !== '') {
    try {
      const parsed = JSON.parse(call.body) as unknown
      if (typeof parsed === 'object' && parsed !== null) form = parsed as Record<string, unknown>
    } catch {
      return jsonReply(400, { message: 'Invalid JSON payload' })
    }
  }
  const { email, password } = form
  if (typeof email !== 'string' || typeof password !== 'string' || email === '' || password === '')
    return seeOther(`${origin}/login?err=unknown`, sessionCookie(state.uiSessions.open(false)))
  const ok =
    email.trim().toLowerCase() === state.user.email.toLowerCase() &&
    password === state.credentials.userPassword
  if (!ok) return seeOther(`${origin}/login?err=authFail`, sessionCookie(state.uiSessions.open(false)))
  return { ...seeOther(`${origin}/`, sessionCookie(state.uiSessions.open(true))), label: 'login' }
}

export function handleUi(call: IncomingCall, state: EmulatorState): Reply {
  const origin = `http://${call.headers?.host ?? '127.0.0.1'}`
  if (call.path === LOGIN_PATH) {
    if (call.method !== 'POST') return htmlReply(404, cannotRoutePage(call.method, call.path, 'self-hosted'))
    return login(call, state, origin)
  }
  let body: unknown = {}
  if (call.body.trim() !== '' && mediaType(call.headers?.['content-type']).endsWith('json')) {
    try {
      body = JSON.parse(call.body) as unknown
    } catch {
      return jsonReply(400, { message: 'Invalid JSON payload' })
    }
  }
  if (!state.uiSessions.isSignedIn(call.headers?.cookie)) return textReply(401, 'Unauthorized')
  try {
    return route(call, state.selfHosted, body)
  } catch (error) {
    if (error instanceof UiBodyError) return jsonReply(error.status, error.body)
    if (error instanceof ApiError) {
      if (error.shape === 'text') return textReply(error.status, error.message)
      return jsonReply(error.status, { message: error.message })
    }
    return jsonReply(500, { message: UNEXPECTED_ERROR_MESSAGE })
  }
}

function route(call: IncomingCall, store: TeamStore, body: unknown): Reply {
  const [resource, id, extra] = call.path.split('/').filter(Boolean)
  const noRoute = () => htmlReply(404, cannotRoutePage(call.method, call.path, 'self-hosted'))
  if (extra !== undefined) return noRoute()
  if (resource === 'dashboards') {
    if (id === undefined) {
      if (call.method === 'GET') return jsonReply(200, store.uiDashboards())
      if (call.method === 'POST') return jsonReply(200, store.uiCreateDashboard(body))
    } else if (call.method === 'PATCH') return jsonReply(200, store.uiPatchDashboard(id, body))
    else if (call.method === 'DELETE') {
      store.uiDeleteDashboard(id)
      return { status: 204, headers: {}, body: '' }
    }
  } else if (resource === 'alerts' && id !== undefined && call.method === 'PUT') {
    return jsonReply(200, { data: store.uiUpdateAlert(id, body) })
  }
  return noRoute()
}
