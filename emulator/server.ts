import http from 'node:http'
import type { Socket } from 'node:net'
import { Faults, type PickedFault } from './faults.js'
import { newRequestId } from './ids.js'
import { handleManaged, matchManagedPath, type ManagedPath, type ManagedPrefix } from './managed-routes.js'
import { handleMcp, MCP_PATH } from './mcp.js'
import { Persister, readPersisted, writePersisted } from './persistence.js'
import { createPrng } from './prng.js'
import { cannotRoutePage } from './errors.js'
import { htmlReply, jsonReply, textReply, type IncomingCall, type Reply } from './reply.js'
import { loadDefaultSeed, stateFromSeed } from './seed.js'
import { handleSelfHosted, SELF_HOSTED_PREFIX } from './self-hosted-routes.js'
import { DEFAULT_PAGE_SIZE, DEFAULT_RATE_LIMITS, EmulatorState } from './state.js'
import type { Emulator, EmulatorOptions, RequestLogEntry, RequestMode } from './types.js'
import { handleUi, isUiPath, SESSION_COOKIE } from './ui-routes.js'

/** Bodies above this are refused with 413 (the real limit is not published; see CONTRACT.md "Limits"). */
const MAX_BODY_BYTES = 10 * 1024 * 1024
const DEFAULT_DELAY_MS = 60_000
const STATUS_FAULTS = new Set(['429', '500', '502', '503'])

/** Starts the loopback emulator of both API modes on 127.0.0.1. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const { state, persister } = openState(options)
  state.setServer(options.server ?? '2.36')
  const host: Host = {
    state,
    faults: new Faults(createPrng(options.randomSeed ?? 1)),
    requestLog: [],
    latencyMs: options.latencyMs ?? 0,
    managedPrefixes: new Set<ManagedPrefix>(options.managedPrefixes ?? ['clickstack', 'observability']),
    mcp: options.mcp !== false,
    pauses: new Pauses()
  }
  const sockets = new Set<Socket>()
  const server = http.createServer((req, res) => {
    // A failure while answering must not become an unhandled rejection that ends the host process (tests, bench).
    handle(host, req, res).catch(() => res.destroy())
  })
  server.on('connection', socket => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as { port: number }).port

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    credentials: state.credentials,
    selfHosted: state.selfHosted,
    managed: (serviceId = state.credentials.serviceId) => state.managedStore(serviceId),
    services: state.services,
    faults: host.faults,
    requestLog: host.requestLog,
    clearLog: () => {
      host.requestLog.length = 0
    },
    setRateLimits: limits => state.setRateLimits(limits),
    user: state.user,
    uiCookie: () => `${SESSION_COOKIE}=${state.uiSessions.open(true)}`,
    team: state.teamMembers,
    save: () => persister?.flush(),
    close: async () => {
      if (host.pauses.closing) return
      host.pauses.close()
      const closed = new Promise<void>(resolve => server.close(() => resolve()))
      for (const socket of sockets) socket.destroy()
      await closed
      persister?.dispose()
    }
  }
}

/** The state to serve: the persisted one when there is one, else the seed's; written back as it changes. */
function openState(options: EmulatorOptions): { state: EmulatorState; persister: Persister | undefined } {
  const persistPath = options.persistPath
  const initial =
    (persistPath === undefined ? undefined : readPersisted(persistPath)) ??
    stateFromSeed(options.seed ?? loadDefaultSeed(), Date.now())
  let persister: Persister | undefined
  const state = new EmulatorState(initial, options.pageSize ?? DEFAULT_PAGE_SIZE, () =>
    persister?.markDirty()
  )
  if (persistPath !== undefined) {
    persister = new Persister(persistPath, () => state.snapshot())
    writePersisted(persistPath, state.snapshot())
  }
  if (options.clock) state.now = options.clock
  state.setRateLimits(undefined)
  if (options.rateLimits !== undefined) state.setRateLimits(options.rateLimits)
  return { state, persister }
}

/** What answering a request needs: the state, the fault plan, the log, and the options that shape each answer. */
interface Host {
  state: EmulatorState
  faults: Faults
  requestLog: RequestLogEntry[]
  latencyMs: number
  managedPrefixes: Set<ManagedPrefix>
  mcp: boolean
  pauses: Pauses
}

/** The pauses of injected delays, latency and late commits; closing the emulator cuts them all short. */
class Pauses {
  closing = false
  private readonly cancels = new Set<() => void>()

  /** Waits `ms` whatever the client does; false only when the emulator closed first. */
  wait(ms: number): Promise<boolean> {
    return new Promise(resolve => {
      if (this.closing) return resolve(false)
      const cancel = () => {
        clearTimeout(timer)
        this.cancels.delete(cancel)
        resolve(false)
      }
      const timer = setTimeout(() => {
        this.cancels.delete(cancel)
        resolve(true)
      }, ms)
      this.cancels.add(cancel)
    })
  }

  /** Waits `ms`; false when the client went away (or the emulator closed) first. Never keeps the process alive. */
  hold(res: http.ServerResponse, ms: number): Promise<boolean> {
    return new Promise(resolve => {
      if (this.closing) return resolve(false)
      const finish = (done: boolean) => {
        clearTimeout(timer)
        res.off('close', cancel)
        this.cancels.delete(cancel)
        resolve(done)
      }
      const cancel = () => finish(false)
      const timer = setTimeout(() => finish(true), ms)
      this.cancels.add(cancel)
      res.once('close', cancel)
    })
  }

  close(): void {
    this.closing = true
    for (const cancel of [...this.cancels]) cancel()
  }
}

/**
 * One request: logged, its fault (if any) applied at its moment (before the body is read, instead of an answer,
 * before or after processing), routed to its mode, answered.
 */
async function handle(host: Host, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const { state, faults, pauses } = host
  const { entry, managedPath } = startEntry(host, req)
  const { method, path, mode } = entry
  const record = (status: RequestLogEntry['status']) => {
    entry.status = status
    entry.durationMs = state.now() - entry.time
    host.requestLog.push(entry)
  }
  const send = (reply: Reply) => {
    if (reply.rateLimited) entry.rateLimited = true
    if (reply.label !== undefined) entry.label = reply.label
    record(reply.status)
    res.writeHead(reply.status, {
      ...reply.headers,
      'Content-Length': String(Buffer.byteLength(reply.body))
    })
    res.end(reply.body)
  }

  const fault = faults.pick(method, path)
  if (fault !== undefined) entry.fault = fault.kind
  if (fault?.kind === 'reset') {
    // Before anything is processed: nothing is stored.
    record('reset')
    req.socket.destroy()
    return
  }
  const body = await readBody(req)
  if (body === undefined) return record('timeout')
  if (body === null) return send(textReply(413, 'Payload Too Large'))
  if (fault !== undefined && STATUS_FAULTS.has(fault.kind)) return send(faultReply(fault, mode, state))
  if (fault?.kind === 'delay' && !(await pauses.hold(res, fault.rule.delayMs ?? DEFAULT_DELAY_MS)))
    return record('timeout')
  if (fault?.kind === 'gather') {
    await faults.gather(fault.rule, fault.rule.delayMs ?? DEFAULT_DELAY_MS)
    if (res.destroyed) return record('timeout')
  }
  // A slow server: it commits when its time comes, whether or not the client is still there.
  if (fault?.kind === 'commit-late' && !(await pauses.wait(fault.rule.delayMs ?? DEFAULT_DELAY_MS)))
    return record('timeout')
  if (host.latencyMs > 0 && !(await pauses.hold(res, host.latencyMs))) return record('timeout')

  const call = incomingCall(req, entry, body)
  let reply: Reply
  try {
    reply = await route(host, call, mode, managedPath)
  } catch (error) {
    reply = jsonReply(500, { message: error instanceof Error ? error.message : 'Internal Server Error' })
  }
  if (fault?.kind === 'commit-drop') {
    // Fully processed (state changes are stored), then the connection dies without a response.
    if (reply.rateLimited) entry.rateLimited = true
    if (reply.label !== undefined) entry.label = reply.label
    record('dropped')
    req.socket.destroy()
    return
  }
  if (fault?.kind === 'commit-late' && (res.destroyed || res.writableEnded)) {
    // Stored, and nobody to tell.
    if (reply.label !== undefined) entry.label = reply.label
    return record('committed late')
  }
  send(reply)
}

/** The request's log entry, before it is answered, and the managed route its path names (if any). */
function startEntry(
  host: Host,
  req: http.IncomingMessage
): { entry: RequestLogEntry; managedPath: ManagedPath | undefined } {
  const time = host.state.now()
  const method = (req.method ?? 'GET').toUpperCase()
  const url = new URL(req.url ?? '/', 'http://127.0.0.1')
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname
  const managedPath = matchManagedPath(path)
  const mode = classify(path, managedPath, host.mcp)
  const entry: RequestLogEntry = {
    time,
    method,
    path,
    query: Object.fromEntries(url.searchParams),
    mode,
    status: 0,
    durationMs: 0
  }
  return { entry, managedPath }
}

/** What the routes see of a request: method, path, query, credentials, body and headers (repeated ones joined). */
function incomingCall(req: http.IncomingMessage, entry: RequestLogEntry, body: string): IncomingCall {
  return {
    method: entry.method,
    path: entry.path,
    query: entry.query,
    authorization: req.headers.authorization,
    body,
    headers: Object.fromEntries(
      Object.entries(req.headers).map(([name, value]) => [
        name,
        Array.isArray(value) ? value.join(', ') : value
      ])
    )
  }
}

function route(
  host: Host,
  call: IncomingCall,
  mode: RequestMode,
  managedPath: ManagedPath | undefined
): Reply | Promise<Reply> {
  const { state } = host
  if (mode === 'self-hosted') return handleSelfHosted(call, state)
  if (mode === 'ui') return handleUi(call, state)
  if (mode === 'mcp') return handleMcp(call, state)
  if (managedPath !== undefined) return handleManaged(call, state, managedPath, host.managedPrefixes)
  return htmlReply(404, cannotRoutePage(call.method, call.path, 'managed'))
}

function classify(path: string, managedPath: ManagedPath | undefined, mcp: boolean): RequestMode {
  if (path === SELF_HOSTED_PREFIX || path.startsWith(`${SELF_HOSTED_PREFIX}/`)) return 'self-hosted'
  if (managedPath !== undefined) return managedPath.rest === undefined ? 'control' : 'managed'
  // The self-hosted server's other surfaces: its web UI's routes and its MCP endpoint.
  if (mcp && path === MCP_PATH) return 'mcp'
  if (isUiPath(path)) return 'ui'
  return 'other'
}

/** The body, '' when none; null when too large; undefined when the client went away before sending it all. */
function readBody(req: http.IncomingMessage): Promise<string | null | undefined> {
  return new Promise(resolve => {
    const chunks: Buffer[] = []
    let size = 0
    let ended = false
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_BODY_BYTES) chunks.push(chunk)
    })
    req.once('end', () => {
      ended = true
      resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString('utf8'))
    })
    req.once('error', () => resolve(undefined))
    req.once('close', () => {
      if (!ended) resolve(undefined)
    })
  })
}

/**
 * Injected failures. 429 and 500 look like the API's own answers in each mode (FACTS.md); 502 and 503 look like
 * what a reverse proxy or load balancer in front of the API sends: an HTML page, not JSON.
 */
function faultReply(fault: PickedFault, mode: RequestMode, state: EmulatorState): Reply {
  const managed = mode === 'managed' || mode === 'control'
  switch (fault.kind) {
    case '429': {
      const retryAfter = String(fault.rule.retryAfterSeconds ?? 1)
      if (managed) {
        return jsonReply(
          429,
          { error: 'TOO_MANY_REQUESTS' },
          {
            'X-RateLimit-Limit': String(
              state.managedLimiter?.config.requests ?? DEFAULT_RATE_LIMITS.managed.requests
            ),
            'X-RateLimit-Remaining': '0',
            // The cloud says when to retry by X-RateLimit-Reset alone (FACTS.md; TF internal/api/common.go).
            'X-RateLimit-Reset': retryAfter
          }
        )
      }
      return jsonReply(
        429,
        { message: 'Too many requests, please try again later.' },
        {
          'RateLimit-Limit': String(
            state.selfHostedLimiter?.config.requests ?? DEFAULT_RATE_LIMITS.selfHosted.requests
          ),
          'RateLimit-Remaining': '0',
          'RateLimit-Reset': retryAfter,
          'Retry-After': retryAfter
        }
      )
    }
    case '500':
      return managed
        ? jsonReply(500, { status: 500, error: 'Internal server error', requestId: newRequestId() })
        : jsonReply(500, { message: 'Internal Server Error' })
    default: {
      const title = fault.kind === '502' ? '502 Bad Gateway' : '503 Service Temporarily Unavailable'
      return {
        status: Number(fault.kind),
        headers: { 'Content-Type': 'text/html' },
        body: `<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center></body></html>\n`
      }
    }
  }
}
