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
  RequestCancelledError,
  requestIdOf,
  serverMessageOf,
  UnknownOutcomeError,
  type ApiErrorDetails
} from './errors.js'
import { classifyNetworkError, seconds } from './network-errors.js'
import { Pacer, PastDeadline, realClock, type Clock } from './pacer.js'
import { backoffMs, isRetryableStatus, serverBudget, serverDelayMs, type Headers } from './retry.js'

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
  /** The Accept header, when the route needs more than JSON (MCP answers in server-sent events). */
  accept?: string
}

export interface ApiResponse {
  status: number
  headers: Headers
  body: unknown
  path: string
  method: Method
  /** The body said (or looked like) JSON but did not parse: the parser's words. `body` is then the text. */
  notJson?: string
}

export interface TransportOptions {
  baseUrl: string
  auth: Auth
  mode: Mode
  rateLimit: RateLimit | null
  requestTimeoutMs: number
  /** Wall time one request may spend retrying (backoff and pacing waits included), from its first send. */
  retryBudgetMs: number
  /**
   * The same while nothing has answered at this address yet: a wrong address or a server that is down
   * fails in seconds, not minutes. Once any answer came, connection failures get retryBudgetMs.
   */
  connectBudgetMs?: number
  maxConnections?: number
  maxAttempts?: number
  clock?: Clock
  random?: () => number
  log?: Logger
  /** How often a request without an answer yet says it is still waiting (default 10 s). */
  slowNoticeMs?: number
}

export interface TransportStats {
  requests: number
  retries: number
  rateLimited: number
}

export const DEFAULT_CONNECT_BUDGET_MS = 10_000
const DEFAULT_SLOW_NOTICE_MS = 10_000

export class Transport {
  readonly stats: TransportStats = { requests: 0, retries: 0, rateLimited: 0 }
  private readonly agent: Agent
  private readonly pacer: Pacer
  private readonly clock: Clock
  private readonly random: () => number
  private readonly log: Logger
  private readonly scrub: (text: string) => string
  private readonly authorization?: string
  /** Aborted by close(): every wait and every request in flight ends at once. */
  private readonly closed = new AbortController()
  /** Aborted when the server is found unreachable: waits end, and no request starts any more. */
  private readonly halted = new AbortController()
  /** Closed or halted: what every wait of a request without a signal of its own listens to. */
  private readonly stopped = AbortSignal.any([this.closed.signal, this.halted.signal])
  private unreachable?: ApiError
  /** Some HTTP response came from this address: connection failures are transient from now on. */
  private answered = false

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

  /** How long (ms) requests still wait for the rate limit, while they do. */
  pacingFor(): number | undefined {
    return this.pacer.heldFor()
  }

  /** Ends everything at once: pending waits, retries and requests in flight. Nothing is left to keep the process alive. */
  async close(): Promise<void> {
    this.closed.abort('the client was closed')
    await this.agent.destroy()
  }

  /**
   * One request with its retries. `signal` cancels it, in flight too (a sibling's failure makes its
   * answer useless): it then rejects with RequestCancelledError.
   */
  async request(spec: RequestSpec, signal?: AbortSignal): Promise<ApiResponse> {
    const base: ApiErrorDetails = { method: spec.method, path: spec.path }
    // Combined once for the requests without a signal of their own (every write): AbortSignal.any costs
    // tens of microseconds a call, a share of a loopback POST that the apply's POST phase noticed.
    const inFlight = signal ? AbortSignal.any([this.closed.signal, signal]) : this.closed.signal
    const waiting = signal ? AbortSignal.any([inFlight, this.halted.signal]) : this.stopped
    const maxAttempts = this.options.maxAttempts ?? 10
    let firstSent: number | undefined
    let last: { outcome: Failed; budget: Budget } | undefined
    for (let attempt = 1; ; attempt++) {
      if (this.unreachable) throw this.notSent(base)
      const deadline = last && firstSent !== undefined ? firstSent + last.budget.ms : undefined
      let outcome: AttemptOutcome
      try {
        outcome = await this.attempt(spec, { inFlight, waiting, deadline, own: signal !== undefined })
      } catch (e) {
        if (this.unreachable && !inFlight.aborted) throw this.notSent(base)
        if (e instanceof PastDeadline && last) {
          throw this.giveUp(
            { ...last.outcome.details, attempts: attempt - 1 },
            last.outcome,
            this.clock.now() - firstSent!,
            last.budget,
            `: the next attempt could not start in time (the rate limit allows it ${seconds(e.startsAt - this.clock.now())} from now)`
          )
        }
        throw new RequestCancelledError(base, reasonOf(inFlight.aborted ? inFlight : waiting))
      }
      if (outcome.kind === 'ok') return outcome.response
      firstSent ??= outcome.sentAt
      const details = { ...outcome.details, attempts: attempt }
      if (!outcome.retryable) {
        if (outcome.unknownOutcome)
          throw new UnknownOutcomeError(this.scrubbed(details), this.scrub(outcome.cause))
        throw this.halt(outcome, this.error(details, outcome.cause))
      }
      const budget = this.budgetFor(outcome)
      const delay = outcome.serverDelay ?? backoffMs(attempt - 1, undefined, this.random)
      const elapsed = this.clock.now() - firstSent
      if (attempt >= maxAttempts || elapsed + delay > budget.ms) {
        const asked =
          outcome.serverDelay !== undefined && elapsed + delay > budget.ms
            ? `; the server asked to wait ${seconds(delay)}, beyond the ${budget.name} of ${seconds(budget.ms)}`
            : undefined
        throw this.halt(outcome, this.giveUp(details, outcome, elapsed, asked ? undefined : budget, asked))
      }
      last = { outcome, budget }
      this.stats.retries++
      this.log.debug(
        `${spec.method} ${spec.path}: ${outcome.cause}; retrying in ${seconds(delay)} (attempt ${attempt + 1})`
      )
      if (outcome.rateLimited) this.pacer.pause(this.clock.now() + delay)
      try {
        await this.clock.sleep(delay, waiting)
        waiting.throwIfAborted()
      } catch {
        if (this.unreachable && !inFlight.aborted) throw this.notSent(base)
        throw new RequestCancelledError(base, reasonOf(inFlight.aborted ? inFlight : waiting))
      }
    }
  }

  /** Which budget a failure draws on: the short one while nothing has answered at this address yet. */
  private budgetFor(outcome: Failed): Budget {
    if (outcome.network && !this.answered) {
      return {
        name: 'connect budget',
        ms: this.options.connectBudgetMs ?? DEFAULT_CONNECT_BUDGET_MS,
        hint: 'Nothing has answered at this address yet: check api-url (http or https, host, port) and that the server is up. A server that takes longer to start: raise connect-budget'
      }
    }
    return { name: 'retry budget', ms: this.options.retryBudgetMs }
  }

  /** "HTTP 503; gave up after 3 attempts in 4.2 s (retry budget 5.0 s)", and why, when there is more to say. */
  private giveUp(
    details: ApiErrorDetails,
    outcome: Failed,
    elapsedMs: number,
    budget: Budget | undefined,
    why = ''
  ): ApiError {
    const attempts = details.attempts ?? 1
    const spent = `gave up after ${attempts} attempt${attempts === 1 ? '' : 's'} in ${seconds(elapsedMs)}`
    const within = budget ? ` (${budget.name} ${seconds(budget.ms)})` : ''
    return this.error(
      { ...details, hint: details.hint ?? budget?.hint },
      `${outcome.cause}; ${spent}${within}${why}`
    )
  }

  /**
   * A failure of the connection itself, which no retry cured (or none can: TLS, DNS): the server is out
   * of reach for every request. Requests waiting to retry stop, and later ones fail at once.
   */
  private halt(outcome: Failed, error: ApiError): ApiError {
    if (outcome.unreachable && !this.unreachable) {
      this.unreachable = error
      this.halted.abort('the server could not be reached')
    }
    return error
  }

  private notSent(details: ApiErrorDetails): ApiError {
    return new ApiError(
      details,
      `not sent: an earlier request could not reach the server (${this.unreachable!.message})`
    )
  }

  private async attempt(
    spec: RequestSpec,
    limits: { inFlight: AbortSignal; waiting: AbortSignal; deadline?: number; own: boolean }
  ): Promise<AttemptOutcome> {
    const ticket = await this.pacer.acquire({ signal: limits.waiting, deadline: limits.deadline })
    const sentAt = this.clock.now()
    try {
      // A retry of a request that is safe to repeat gets no more than the budget has left.
      const left = limits.deadline === undefined || !spec.idempotent ? Infinity : limits.deadline - sentAt
      const timeoutMs = Math.max(1, Math.min(this.options.requestTimeoutMs, left))
      return { ...(await this.send(spec, ticket, limits.inFlight, timeoutMs, limits.own)), sentAt }
    } finally {
      // Every attempt is reported to the pacer, also when no response came (it may wait for the first).
      this.pacer.observe(ticket, undefined)
    }
  }

  private async send(
    spec: RequestSpec,
    ticket: number,
    signal: AbortSignal,
    timeoutMs: number,
    own: boolean
  ): Promise<SendOutcome> {
    this.stats.requests++
    const url = this.url(spec)
    const base: ApiErrorDetails = { method: spec.method, path: spec.path }
    const headers: Record<string, string> = {
      accept: spec.accept ?? 'application/json',
      'user-agent': `observability-deploy/${VERSION}`
    }
    if (this.authorization) headers.authorization = this.authorization
    if (spec.body !== undefined) headers['content-type'] = 'application/json'
    let res: Awaited<ReturnType<typeof request>>
    let text: string
    const slow = this.slowNotice(spec, timeoutMs)
    try {
      res = await request(url, {
        method: spec.method,
        headers,
        // JSON.stringify(undefined) is undefined: no body.
        body: JSON.stringify(spec.body),
        dispatcher: this.agent,
        // A request without a signal of its own ends only with the client, whose close() aborts first
        // and then destroys the agent, failing what is in flight: undici need not listen to that
        // signal (a listener per request in flight on one signal, and Node warns past ten).
        signal: own ? signal : undefined,
        // undici's own timers (no timer object per request): the wait for the response's headers, and
        // for each chunk of its body.
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs
      })
      text = await res.body.text()
    } catch (e) {
      signal.throwIfAborted()
      return this.networkFailure(spec, base, e, timeoutMs)
    } finally {
      clearInterval(slow)
    }
    return this.outcomeOf(spec, ticket, base, res.statusCode, res.headers as Headers, text)
  }

  /** A slow server is not a silent run: say what is awaited, for how long, and the limits in force. */
  private slowNotice(spec: RequestSpec, timeoutMs: number): ReturnType<typeof setInterval> {
    const started = Date.now()
    const slow = setInterval(() => {
      const limit =
        timeoutMs < this.options.requestTimeoutMs
          ? `gives up at ${seconds(timeoutMs)}: what the retry budget (${seconds(this.options.retryBudgetMs)}) has left of request-timeout ${seconds(this.options.requestTimeoutMs)}`
          : `request-timeout ${seconds(timeoutMs)}, retry budget ${seconds(this.options.retryBudgetMs)}`
      this.log.info(
        `still waiting for ${spec.method} ${spec.path}: ${seconds(Date.now() - started)} so far (${limit})`
      )
    }, this.options.slowNoticeMs ?? DEFAULT_SLOW_NOTICE_MS)
    slow.unref()
    return slow
  }

  /** What an HTTP answer means: a response, or a failure that says whether sending again is safe. */
  private outcomeOf(
    spec: RequestSpec,
    ticket: number,
    base: ApiErrorDetails,
    status: number,
    resHeaders: Headers,
    text: string
  ): SendOutcome {
    this.answered = true
    const { body, notJson } = parseBody(text, resHeaders)
    const now = this.clock.now()
    // --verbose: every request and its answer, never a body (bodies can hold what a manifest keeps secret).
    this.log.debug(`${spec.method} ${spec.path} -> HTTP ${status}, ${text.length} bytes`)
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
        response: {
          status,
          headers: resHeaders,
          body,
          path: spec.path,
          method: spec.method,
          ...(notJson !== undefined ? { notJson } : {})
        }
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
    if (!isRetryableStatus(status, spec.method)) return { kind: 'failed', details, cause, retryable: false }
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

  private networkFailure(spec: RequestSpec, details: ApiErrorDetails, e: unknown, timeoutMs: number): Failed {
    const failure = classifyNetworkError(e, timeoutMs, this.options.requestTimeoutMs)
    const failed = {
      kind: 'failed' as const,
      unreachable: failure.sent !== 'maybe' || !this.answered,
      details: { ...details, hint: failure.hint },
      cause: failure.cause,
      network: true
    }
    if (failure.sent === 'permanent') return { ...failed, retryable: false }
    if (failure.sent === 'never') return { ...failed, retryable: true }
    // The request may have reached the server: only idempotent ones go again.
    if (!spec.idempotent) return { ...failed, retryable: false, unknownOutcome: true }
    return { ...failed, retryable: true }
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

interface Budget {
  name: 'retry budget' | 'connect budget'
  ms: number
  /** What to do when it runs out. */
  hint?: string
}

interface Failed {
  kind: 'failed'
  details: ApiErrorDetails
  cause: string
  retryable: boolean
  /** The connection failed (no HTTP answer): counts against the connect budget until the server has answered. */
  network?: boolean
  /** No connection could be made (refused, TLS, DNS, or nothing answered yet): no other request will fare better. */
  unreachable?: boolean
  unknownOutcome?: boolean
  rateLimited?: boolean
  serverDelay?: number
}

type SendOutcome = { kind: 'ok'; response: ApiResponse } | Failed
/** With the clock time the attempt was sent. */
type AttemptOutcome = SendOutcome & { sentAt: number }

const reasonOf = (signal: AbortSignal): string =>
  typeof signal.reason === 'string' ? signal.reason : 'cancelled'

/**
 * JSON by its content type or by its look; anything else as the text it is, and so is JSON that does not parse
 * (with the parser's words: a body cut short is said to be one).
 */
function parseBody(text: string, headers: Headers): { body: unknown; notJson?: string } {
  if (text === '') return { body: undefined }
  const type = String(headers['content-type'] ?? '')
  if (!/json/i.test(type) && !/^\s*[[{]/.test(text)) return { body: text }
  try {
    return { body: JSON.parse(text) }
  } catch (e) {
    return { body: text, notJson: e instanceof Error ? e.message : String(e) }
  }
}

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
