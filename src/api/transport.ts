/**
 * One HTTP request, done right over a real network: paced below the rate limit, timed out, retried with
 * backoff when that is safe, and turned into an ApiError that says what happened without leaking a
 * credential. Only this module (with client.ts) talks HTTP.
 */
import { Agent, request } from 'undici'
import type { Auth, Mode, RateLimit } from '../config/types.js'
import { redactor, silentLogger, type Logger } from '../log.js'
import { VERSION } from '../version.js'
import {
  ApiError,
  bodyShapeOf,
  requestIdOf,
  serverMessageOf,
  UnknownOutcomeError,
  type ApiErrorDetails
} from './errors.js'
import { Pacer, realClock, type Clock } from './pacer.js'
import { backoffMs, RETRYABLE_STATUSES, serverBudget, serverDelayMs, type Headers } from './retry.js'

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface RequestSpec {
  method: Method
  /** Path below the base URL, already built from safe segments. */
  path: string
  query?: Record<string, string | number>
  body?: unknown
  /**
   * Safe to send twice. GET, PUT and DELETE are; a POST that creates is not (a query POST is), and is
   * never retried once it may have reached the server.
   */
  idempotent: boolean
}

export interface ApiResponse {
  status: number
  headers: Headers
  body: unknown
  path: string
  method: Method
}

export interface TransportOptions {
  baseUrl: string
  auth: Auth
  mode: Mode
  rateLimit: RateLimit | null
  requestTimeoutMs: number
  retryBudgetMs: number
  maxConnections?: number
  maxAttempts?: number
  clock?: Clock
  random?: () => number
  log?: Logger
}

export interface TransportStats {
  requests: number
  retries: number
  rateLimited: number
}

/** Errors where the request never left this machine: safe to retry for any method. */
const NOT_SENT = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH'])
/** Errors that will not go away by waiting. */
const PERMANENT = new Set(['ENOTFOUND', 'EAI_FAIL', 'ERR_INVALID_URL', 'UND_ERR_INVALID_ARG'])

export class Transport {
  readonly stats: TransportStats = { requests: 0, retries: 0, rateLimited: 0 }
  private readonly agent: Agent
  private readonly pacer: Pacer
  private readonly clock: Clock
  private readonly random: () => number
  private readonly log: Logger
  private readonly scrub: (text: string) => string
  private readonly authorization?: string

  constructor(private readonly options: TransportOptions) {
    this.agent = new Agent({ connections: options.maxConnections ?? 32, keepAliveTimeout: 10_000 })
    this.clock = options.clock ?? realClock
    // With a known limit the first request goes alone, to learn what the server has left.
    this.pacer = new Pacer(options.rateLimit, this.clock, options.rateLimit !== null)
    this.random = options.random ?? Math.random
    this.log = options.log ?? silentLogger
    const { auth } = options
    if (auth.kind === 'bearer') this.authorization = `Bearer ${auth.apiKey}`
    if (auth.kind === 'basic') {
      this.authorization = `Basic ${Buffer.from(`${auth.keyId}:${auth.keySecret}`).toString('base64')}`
    }
    // The Basic header carries base64(id:secret): the redactor masks each value and its base64 form.
    const secrets =
      auth.kind === 'bearer'
        ? [auth.apiKey]
        : auth.kind === 'basic'
          ? [`${auth.keyId}:${auth.keySecret}`, auth.keyId, auth.keySecret]
          : []
    this.scrub = redactor(secrets)
  }

  async close(): Promise<void> {
    await this.agent.close()
  }

  async request(spec: RequestSpec): Promise<ApiResponse> {
    const started = this.clock.now()
    const maxAttempts = this.options.maxAttempts ?? 10
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.attempt(spec)
      if (outcome.kind === 'ok') return outcome.response
      const details = { ...outcome.details, attempts: attempt }
      if (!outcome.retryable) {
        if (outcome.unknownOutcome)
          throw new UnknownOutcomeError(this.scrubbed(details), this.scrub(outcome.cause))
        throw this.error(details, outcome.cause)
      }
      const delay = outcome.serverDelay ?? backoffMs(attempt - 1, undefined, this.random)
      const elapsed = this.clock.now() - started
      if (attempt >= maxAttempts || elapsed + delay > this.options.retryBudgetMs) {
        const budget = `gave up after ${attempt} attempt${attempt === 1 ? '' : 's'} in ${seconds(elapsed)}`
        const why =
          outcome.serverDelay !== undefined && elapsed + delay > this.options.retryBudgetMs
            ? `; the server asked to wait ${seconds(delay)}, beyond the retry budget of ${seconds(this.options.retryBudgetMs)}`
            : ` (retry budget ${seconds(this.options.retryBudgetMs)})`
        throw this.error(details, `${outcome.cause}; ${budget}${why}`)
      }
      this.stats.retries++
      this.log.debug(
        `${spec.method} ${spec.path}: ${outcome.cause}; retrying in ${seconds(delay)} (attempt ${attempt + 1})`
      )
      if (outcome.rateLimited) this.pacer.pause(this.clock.now() + delay)
      await this.clock.sleep(delay)
    }
  }

  private async attempt(spec: RequestSpec): Promise<AttemptOutcome> {
    const ticket = await this.pacer.acquire()
    try {
      return await this.send(spec, ticket)
    } finally {
      // Every attempt is reported to the pacer, also when no response came (it may wait for the first).
      this.pacer.observe(ticket, undefined)
    }
  }

  private async send(spec: RequestSpec, ticket: number): Promise<AttemptOutcome> {
    this.stats.requests++
    const url = this.url(spec)
    const base: ApiErrorDetails = { method: spec.method, path: spec.path }
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': `observability-deploy/${VERSION}`
    }
    if (this.authorization) headers.authorization = this.authorization
    if (spec.body !== undefined) headers['content-type'] = 'application/json'
    let res: Awaited<ReturnType<typeof request>>
    let text: string
    try {
      res = await request(url, {
        method: spec.method,
        headers,
        body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
        dispatcher: this.agent,
        // undici's own timers (no timer object per request): the wait for the response's headers, and
        // for each chunk of its body.
        headersTimeout: this.options.requestTimeoutMs,
        bodyTimeout: this.options.requestTimeoutMs
      })
      text = await res.body.text()
    } catch (e) {
      return this.networkFailure(spec, base, e)
    }
    const resHeaders = res.headers as Headers
    const body = parseBody(text, resHeaders)
    const status = res.statusCode
    const now = this.clock.now()
    const budget = serverBudget(resHeaders, now)
    // Never longer than the retry budget: a server asking for an hour must not stall the run silently.
    if (budget)
      this.pacer.observe(ticket, {
        ...budget,
        resetAt: Math.min(budget.resetAt, now + this.options.retryBudgetMs)
      })
    if (status >= 200 && status < 300) {
      return {
        kind: 'ok',
        response: { status, headers: resHeaders, body, path: spec.path, method: spec.method }
      }
    }
    const details: ApiErrorDetails = {
      ...base,
      status,
      serverMessage: serverMessageOf(body, text),
      requestId: requestIdOf(body, resHeaders),
      bodyShape: bodyShapeOf(body, text)
    }
    const cause = `HTTP ${status}`
    if (!RETRYABLE_STATUSES.has(status)) return { kind: 'failed', details, cause, retryable: false }
    if (status === 429) {
      this.stats.rateLimited++
      // A 429 was refused before processing: safe to send again, even a create.
      return {
        kind: 'failed',
        details,
        cause,
        retryable: true,
        rateLimited: true,
        serverDelay: serverDelayMs(resHeaders, this.clock.now())
      }
    }
    if (!spec.idempotent) return { kind: 'failed', details, cause, retryable: false, unknownOutcome: true }
    return {
      kind: 'failed',
      details,
      cause,
      retryable: true,
      serverDelay: serverDelayMs(resHeaders, this.clock.now())
    }
  }

  private networkFailure(spec: RequestSpec, details: ApiErrorDetails, e: unknown): AttemptOutcome {
    const err = e as { code?: string; name?: string; message?: string; cause?: { code?: string } }
    const code = err.code ?? err.cause?.code ?? err.name ?? 'error'
    const timedOut =
      err.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT'
    const cause = timedOut
      ? `no response within ${seconds(this.options.requestTimeoutMs)}`
      : `connection failed (${code}${err.message ? `: ${err.message}` : ''})`
    if (PERMANENT.has(code)) return { kind: 'failed', details, cause, retryable: false }
    if (NOT_SENT.has(code)) return { kind: 'failed', details, cause, retryable: true }
    // The request may have reached the server: only idempotent ones go again.
    if (!spec.idempotent) return { kind: 'failed', details, cause, retryable: false, unknownOutcome: true }
    return { kind: 'failed', details, cause, retryable: true }
  }

  private url(spec: RequestSpec): string {
    const query = spec.query
      ? `?${new URLSearchParams(Object.entries(spec.query).map(([k, v]): [string, string] => [k, String(v)])).toString()}`
      : ''
    return `${this.options.baseUrl}${spec.path}${query}`
  }

  private error(details: ApiErrorDetails, cause: string): ApiError {
    return new ApiError(this.scrubbed(details), `failed: ${this.scrub(cause)}`)
  }

  /** Details safe to show: a server that echoes the credential back does not get it into a message. */
  private scrubbed(details: ApiErrorDetails): ApiErrorDetails {
    return {
      ...details,
      serverMessage: details.serverMessage ? this.scrub(details.serverMessage) : undefined,
      hint: details.hint ?? hintFor(details.status, this.options.mode, details.method)
    }
  }
}

type AttemptOutcome =
  | { kind: 'ok'; response: ApiResponse }
  | {
      kind: 'failed'
      details: ApiErrorDetails
      cause: string
      retryable: boolean
      unknownOutcome?: boolean
      rateLimited?: boolean
      serverDelay?: number
    }

function parseBody(text: string, headers: Headers): unknown {
  const type = String(headers['content-type'] ?? '')
  const looksJson = /json/i.test(type) || /^\s*[[{]/.test(text)
  if (!looksJson || text.trim() === '') return text === '' ? undefined : text
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`

/** What a 401 or 403 means in this mode, in words (CONTRACT.md "Authentication"). */
export function hintFor(status: number | undefined, mode: Mode, method: string): string | undefined {
  if (status === 401) {
    return mode === 'self-hosted'
      ? 'The self-hosted API expects a personal API access key as a Bearer token (api-key, or OBSDEPLOY_API_KEY; web UI: Team Settings, API Keys). The ingestion API key on the same page is a different credential, for the telemetry collector, and is refused here'
      : 'The managed API expects an API key id and secret from the cloud console, sent with HTTP Basic authentication (key-id and key-secret, or OBSDEPLOY_KEY_ID and OBSDEPLOY_KEY_SECRET)'
  }
  if (status === 403) {
    const writing = method !== 'GET'
    return mode === 'managed'
      ? `The API key is valid but its role may not ${writing ? 'change' : 'read'} this. ${writing ? 'Changing dashboards, alerts or service settings needs a key with the Admin role' : 'Reading needs a key with at least the Developer role'} in the cloud console`
      : 'The API key is valid but its user may not do this in the team; use a key of a team member who can manage dashboards and alerts'
  }
  return undefined
}
