export const id = 18;
export const ids = [18];
export const modules = {

/***/ 1721:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  x: () => (/* binding */ createApi)
});

// UNUSED EXPORTS: unwrapEnvelope

// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 17 modules
var schemas = __webpack_require__(8816);
// EXTERNAL MODULE: ./src/log.ts
var log = __webpack_require__(5625);
;// CONCATENATED MODULE: ./src/api/address.ts
/** Ids from manifests and servers become path segments; anything that could escape one is refused. */
const SAFE_SEGMENT = /^[A-Za-z0-9_-]{1,128}$/;
class UnsafePathSegmentError extends Error {
    what;
    constructor(what) {
        super(`refusing to use ${what} as a URL path segment: only letters, digits, "_" and "-" are allowed`);
        this.what = what;
        this.name = 'UnsafePathSegmentError';
    }
}
function pathSegment(value, what) {
    if (!SAFE_SEGMENT.test(value))
        throw new UnsafePathSegmentError(`${what} ${JSON.stringify(value.slice(0, 64))}`);
    return value;
}

// EXTERNAL MODULE: ./src/api/errors.ts
var errors = __webpack_require__(3249);
// EXTERNAL MODULE: ./src/api/schemas.ts
var api_schemas = __webpack_require__(8164);
// EXTERNAL MODULE: ./node_modules/undici/index.js
var undici = __webpack_require__(4371);
// EXTERNAL MODULE: ./src/version.ts
var version = __webpack_require__(311);
;// CONCATENATED MODULE: ./src/api/network-errors.ts
/**
 * What a failed connection means: whether the request may have reached the server, whether waiting can
 * help, and what to do about it. A certificate or TLS error never goes away by itself; retrying it only
 * hides the cause for a minute.
 */
/** The request never left this machine. */
const NOT_SENT = new Set([
    'ECONNREFUSED',
    'UND_ERR_CONNECT_TIMEOUT',
    'EHOSTUNREACH',
    'ENETUNREACH',
    'EAI_AGAIN'
]);
/** Waiting will not help. `UND_ERR_DESTROYED`/`UND_ERR_CLOSED`: the client itself is gone. */
const PERMANENT = new Set([
    'ENOTFOUND',
    'EAI_FAIL',
    'ERR_INVALID_URL',
    'UND_ERR_INVALID_ARG',
    'UND_ERR_DESTROYED',
    'UND_ERR_CLOSED'
]);
const TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const PLAIN_HTTP_ANSWER = /wrong version number|packet length too long|http request|unknown protocol/i;
function classifyNetworkError(e, requestTimeoutMs) {
    const err = e;
    const code = err.code ?? err.cause?.code ?? err.name ?? 'error';
    const message = err.message ?? err.cause?.message ?? '';
    if (err.name === 'TimeoutError' || TIMEOUTS.has(code)) {
        return { code, cause: `no response within ${seconds(requestTimeoutMs)}`, sent: 'maybe' };
    }
    // OpenSSL's own text ("...:SSL routines:ssl3_get_record:wrong version number:../deps/...") is noise.
    const cause = `connection failed (${code}${message && !isTls(code) ? `: ${message}` : ''})`;
    if (isTls(code))
        return { code, cause, sent: 'permanent', hint: tlsHint(code, message) };
    if (code === 'ENOTFOUND' || code === 'EAI_FAIL') {
        return {
            code,
            cause,
            sent: 'permanent',
            hint: 'The host name in api-url does not resolve: check its spelling'
        };
    }
    if (PERMANENT.has(code))
        return { code, cause, sent: 'permanent' };
    if (NOT_SENT.has(code))
        return { code, cause, sent: 'never' };
    return { code, cause, sent: 'maybe' };
}
/** OpenSSL's codes (`ERR_SSL_*`), Node's TLS codes (`ERR_TLS_*`) and the certificate checks' (`*CERT*`). */
function isTls(code) {
    return /^ERR_SSL_|^ERR_TLS_|CERT|^EPROTO$|^UNABLE_TO_VERIFY|^UNABLE_TO_GET_ISSUER/.test(code);
}
function tlsHint(code, message) {
    if (PLAIN_HTTP_ANSWER.test(`${code} ${message}`)) {
        return 'The server answered in plain HTTP, not TLS: if it serves http on this port, use an http:// api-url (loopback only, or set allow-insecure-http); otherwise a proxy in between is answering instead of the server';
    }
    if (/CERT|UNABLE_TO/.test(code)) {
        return `The server's TLS certificate is not trusted here (${code}). If a private CA signed it, point NODE_EXTRA_CA_CERTS at that CA's PEM file; a proxy that inspects TLS needs its CA there too. The host in api-url must be a name on the certificate`;
    }
    return 'The TLS handshake failed: check http vs https in api-url, any proxy in between, and the CA (NODE_EXTRA_CA_CERTS)';
}
const seconds = (ms) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

// EXTERNAL MODULE: external "node:timers/promises"
var promises_ = __webpack_require__(8500);
;// CONCATENATED MODULE: ./src/api/pacer.ts
/**
 * Client-side pacing below the server's rate limit, so a large plan or apply never sees a 429:
 * - at most `requests` starts in any window of `windowMs` (a sliding window, which also keeps every fixed
 *   window of the server's below the limit), with a margin for the time a request takes to arrive;
 * - what the server says it has left (`RateLimit-Remaining` / `X-RateLimit-Remaining` with its reset):
 *   a run that starts right after another one (plan, then apply) inherits that run's window at the
 *   server, which a fresh client cannot know. So the first request goes alone, and later ones start only
 *   while the server's last count says there is room;
 * - a server that says "no more until T" (a 429) pauses every request until T.
 */

const realClock = {
    now: () => Date.now(),
    sleep: (ms, signal) => (0,promises_.setTimeout)(ms, undefined, { signal })
};
/** The next slot would start after the caller's deadline (its retry budget). */
class PastDeadline extends Error {
    startsAt;
    constructor(startsAt) {
        super('the next slot starts after the deadline');
        this.startsAt = startsAt;
        this.name = 'PastDeadline';
    }
}
const FIRST_ANSWER_WAIT_MS = 30_000;
class Pacer {
    limit;
    clock;
    probeFirst;
    starts = [];
    pausedUntil = 0;
    queue = Promise.resolve();
    windowMs;
    /** Tickets handed out so far; a ticket numbers a request in start order. */
    sent = 0;
    /** The newest server count, with the ticket of the request it answered. */
    budget;
    /** Until the first response, only one request is in flight (see the header comment). */
    firstAnswer;
    answered;
    constructor(limit, clock = realClock, 
    /** Send the first request alone (the caller reports every answer with observe()). */
    probeFirst = false) {
        this.limit = limit;
        this.clock = clock;
        this.probeFirst = probeFirst;
        // 2% plus 100 ms: a request sent exactly one window after another can arrive a little later.
        this.windowMs = limit ? limit.windowMs * 1.02 + 100 : 0;
    }
    /**
     * Resolves with a ticket when a request may start; requests start in the order they asked. Rejects
     * with PastDeadline when the slot would come after `limits.deadline`, and with the signal's reason
     * when it aborts; either way the queue moves on.
     */
    acquire(limits = {}) {
        const turn = this.queue.then(() => this.waitForSlot(limits));
        this.queue = turn.then(() => undefined, () => undefined);
        return turn;
    }
    /** A response (or a failure: `budget` undefined) for the request holding `ticket`. */
    observe(ticket, budget) {
        if (budget && (!this.budget || ticket >= this.budget.ticket))
            this.budget = { ...budget, ticket };
        this.answered?.();
        this.answered = undefined;
    }
    /** The server said to hold off until `until` (ms epoch). */
    pause(until) {
        if (until > this.pausedUntil)
            this.pausedUntil = until;
    }
    async waitForSlot({ signal, deadline }) {
        /** Waits until `until`, unless that is past the deadline or the caller gives up first. */
        const waitUntil = async (until, now) => {
            if (deadline !== undefined && until > deadline)
                throw new PastDeadline(until);
            await this.clock.sleep(until - now, signal);
            signal?.throwIfAborted();
        };
        for (;;) {
            signal?.throwIfAborted();
            const now = this.clock.now();
            if (now < this.pausedUntil) {
                await waitUntil(this.pausedUntil, now);
                continue;
            }
            if (this.sent === 1 && this.firstAnswer) {
                // Bounded, in case an answer is never reported, and over when the caller gives up. The timer is
                // cleared: a pending one would keep the process alive after the run.
                let timer;
                let stop;
                await Promise.race([
                    this.firstAnswer,
                    new Promise(resolve => (timer = setTimeout(resolve, FIRST_ANSWER_WAIT_MS))),
                    new Promise(resolve => {
                        stop = () => resolve(undefined);
                        signal?.addEventListener('abort', stop, { once: true });
                    })
                ]);
                clearTimeout(timer);
                if (stop)
                    signal?.removeEventListener('abort', stop);
                signal?.throwIfAborted();
                this.firstAnswer = undefined;
                continue;
            }
            if (this.budget) {
                if (now >= this.budget.resetAt)
                    this.budget = undefined;
                else if (this.budget.remaining - (this.sent - 1 - this.budget.ticket) <= 0) {
                    await waitUntil(this.budget.resetAt, now);
                    continue;
                }
            }
            if (this.limit) {
                while (this.starts.length > 0 && this.starts[0] <= now - this.windowMs)
                    this.starts.shift();
                if (this.starts.length >= this.limit.requests) {
                    await waitUntil(this.starts[0] + this.windowMs, now);
                    continue;
                }
                this.starts.push(now);
            }
            if (this.sent === 0 && this.probeFirst)
                this.firstAnswer = new Promise(resolve => (this.answered = resolve));
            return this.sent++;
        }
    }
}

;// CONCATENATED MODULE: ./src/api/retry.ts
/**
 * When to retry and how long to wait: exponential backoff with jitter, unless the server says how long
 * (Retry-After, RateLimit-Reset, X-RateLimit-Reset, or the structured RateLimit header).
 */
const first = (h) => (Array.isArray(h) ? h[0] : h);
/** Retried for every method: the server did not process the request (429) or a gateway failed it. */
const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);
/**
 * Milliseconds the server asks us to wait, if it says. Reset values are seconds from now, except
 * that a value that can only be a Unix time (X-RateLimit-Reset is one on some servers) is read as one.
 */
function serverDelayMs(headers, now) {
    const retryAfter = first(headers['retry-after']);
    if (retryAfter !== undefined) {
        const secs = Number(retryAfter);
        if (Number.isFinite(secs))
            return Math.max(0, secs * 1000);
        const date = Date.parse(retryAfter);
        if (!Number.isNaN(date))
            return Math.max(0, date - now);
    }
    for (const name of ['ratelimit-reset', 'x-ratelimit-reset']) {
        const v = Number(first(headers[name]));
        if (first(headers[name]) !== undefined && Number.isFinite(v))
            return resetToDelay(v, now);
    }
    // The IETF draft's structured header: `limit=100, remaining=0, reset=50`, or the newer `"default";r=0;t=50`.
    const structured = first(headers['ratelimit']);
    const reset = structured ? /(?:^|[;,\s])(?:reset|t)=(\d+(?:\.\d+)?)/.exec(structured)?.[1] : undefined;
    if (reset !== undefined)
        return resetToDelay(Number(reset), now);
    return undefined;
}
function resetToDelay(value, now) {
    // Delta seconds are small; a Unix time in seconds is over a billion.
    if (value > 1e9)
        return Math.max(0, value * 1000 - now);
    return Math.max(0, value * 1000);
}
/** What the server says is left in its window (`RateLimit-*` or `X-RateLimit-*`), if it says. */
function serverBudget(headers, now) {
    for (const [remainingName, resetName] of [
        ['ratelimit-remaining', 'ratelimit-reset'],
        ['x-ratelimit-remaining', 'x-ratelimit-reset']
    ]) {
        const remaining = Number(first(headers[remainingName]));
        const reset = Number(first(headers[resetName]));
        if (first(headers[remainingName]) !== undefined && Number.isFinite(remaining) && Number.isFinite(reset)) {
            return { remaining, resetAt: now + resetToDelay(reset, now) };
        }
    }
    return undefined;
}
const DEFAULT_BACKOFF = { baseMs: 250, maxMs: 20_000 };
/** Exponential backoff with "equal jitter": half fixed, half random, so retries spread out. */
function backoffMs(attempt, policy = DEFAULT_BACKOFF, random = Math.random) {
    const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** attempt);
    return ceiling / 2 + random() * (ceiling / 2);
}

;// CONCATENATED MODULE: ./src/api/transport.ts
/**
 * One HTTP request, done right over a real network: paced below the rate limit, timed out, retried with
 * backoff when that is safe, and turned into an ApiError that says what happened without leaking a
 * credential. Only this module (with client.ts) talks HTTP.
 */







const DEFAULT_CONNECT_BUDGET_MS = 10_000;
class Transport {
    options;
    stats = { requests: 0, retries: 0, rateLimited: 0 };
    agent;
    pacer;
    clock;
    random;
    log;
    scrub;
    authorization;
    /** Aborted by close(): every wait and every request in flight ends at once. */
    closed = new AbortController();
    /** Aborted when the server is found unreachable: waits end, and no request starts any more. */
    halted = new AbortController();
    unreachable;
    /** Some HTTP response came from this address: connection failures are transient from now on. */
    answered = false;
    constructor(options) {
        this.options = options;
        this.agent = new undici/* Agent */.g6({ connections: options.maxConnections ?? 32, keepAliveTimeout: 10_000 });
        this.clock = options.clock ?? realClock;
        // With a known limit the first request goes alone, to learn what the server has left.
        this.pacer = new Pacer(options.rateLimit, this.clock, options.rateLimit !== null);
        this.random = options.random ?? Math.random;
        this.log = options.log ?? log/* silentLogger */.qq;
        const { auth } = options;
        if (auth.kind === 'bearer')
            this.authorization = `Bearer ${auth.apiKey}`;
        if (auth.kind === 'basic') {
            this.authorization = `Basic ${Buffer.from(`${auth.keyId}:${auth.keySecret}`).toString('base64')}`;
        }
        // The Basic header carries base64(id:secret): the redactor masks each value and its base64 form.
        const secrets = auth.kind === 'bearer'
            ? [auth.apiKey]
            : auth.kind === 'basic'
                ? [`${auth.keyId}:${auth.keySecret}`, auth.keyId, auth.keySecret]
                : [];
        this.scrub = (0,log/* redactor */.$p)(secrets);
    }
    /** Ends everything at once: pending waits, retries and requests in flight. Nothing is left to keep the process alive. */
    async close() {
        this.closed.abort('the client was closed');
        await this.agent.destroy();
    }
    /**
     * One request with its retries. `signal` cancels it, in flight too (a sibling's failure makes its
     * answer useless): it then rejects with RequestCancelledError.
     */
    async request(spec, signal) {
        const base = { method: spec.method, path: spec.path };
        const inFlight = AbortSignal.any([this.closed.signal, ...(signal ? [signal] : [])]);
        const waiting = AbortSignal.any([inFlight, this.halted.signal]);
        const maxAttempts = this.options.maxAttempts ?? 10;
        let firstSent;
        let last;
        for (let attempt = 1;; attempt++) {
            if (this.unreachable)
                throw this.notSent(base);
            const deadline = last && firstSent !== undefined ? firstSent + last.budget.ms : undefined;
            let outcome;
            try {
                outcome = await this.attempt(spec, { inFlight, waiting, deadline });
            }
            catch (e) {
                if (this.unreachable && !inFlight.aborted)
                    throw this.notSent(base);
                if (e instanceof PastDeadline && last) {
                    throw this.giveUp({ ...last.outcome.details, attempts: attempt - 1 }, last.outcome, this.clock.now() - firstSent, last.budget, `: the next attempt could not start in time (the rate limit allows it ${seconds(e.startsAt - this.clock.now())} from now)`);
                }
                throw new errors/* RequestCancelledError */.v1(base, reasonOf(inFlight.aborted ? inFlight : waiting));
            }
            if (outcome.kind === 'ok')
                return outcome.response;
            firstSent ??= outcome.sentAt;
            const details = { ...outcome.details, attempts: attempt };
            if (!outcome.retryable) {
                if (outcome.unknownOutcome)
                    throw new errors/* UnknownOutcomeError */.rk(this.scrubbed(details), this.scrub(outcome.cause));
                throw this.halt(outcome, this.error(details, outcome.cause));
            }
            const budget = this.budgetFor(outcome);
            const delay = outcome.serverDelay ?? backoffMs(attempt - 1, undefined, this.random);
            const elapsed = this.clock.now() - firstSent;
            if (attempt >= maxAttempts || elapsed + delay > budget.ms) {
                const asked = outcome.serverDelay !== undefined && elapsed + delay > budget.ms
                    ? `; the server asked to wait ${seconds(delay)}, beyond the ${budget.name} of ${seconds(budget.ms)}`
                    : undefined;
                throw this.halt(outcome, this.giveUp(details, outcome, elapsed, asked ? undefined : budget, asked));
            }
            last = { outcome, budget };
            this.stats.retries++;
            this.log.debug(`${spec.method} ${spec.path}: ${outcome.cause}; retrying in ${seconds(delay)} (attempt ${attempt + 1})`);
            if (outcome.rateLimited)
                this.pacer.pause(this.clock.now() + delay);
            try {
                await this.clock.sleep(delay, waiting);
                waiting.throwIfAborted();
            }
            catch {
                if (this.unreachable && !inFlight.aborted)
                    throw this.notSent(base);
                throw new errors/* RequestCancelledError */.v1(base, reasonOf(inFlight.aborted ? inFlight : waiting));
            }
        }
    }
    /** Which budget a failure draws on: the short one while nothing has answered at this address yet. */
    budgetFor(outcome) {
        if (outcome.network && !this.answered) {
            return {
                name: 'connect budget',
                ms: this.options.connectBudgetMs ?? DEFAULT_CONNECT_BUDGET_MS,
                hint: 'Nothing has answered at this address yet: check api-url (http or https, host, port) and that the server is up. A server that takes longer to start: raise connect-budget'
            };
        }
        return { name: 'retry budget', ms: this.options.retryBudgetMs };
    }
    /** "HTTP 503; gave up after 3 attempts in 4.2 s (retry budget 5.0 s)", and why, when there is more to say. */
    giveUp(details, outcome, elapsedMs, budget, why = '') {
        const attempts = details.attempts ?? 1;
        const spent = `gave up after ${attempts} attempt${attempts === 1 ? '' : 's'} in ${seconds(elapsedMs)}`;
        const within = budget ? ` (${budget.name} ${seconds(budget.ms)})` : '';
        return this.error({ ...details, hint: details.hint ?? budget?.hint }, `${outcome.cause}; ${spent}${within}${why}`);
    }
    /**
     * A failure of the connection itself, which no retry cured (or none can: TLS, DNS): the server is out
     * of reach for every request. Requests waiting to retry stop, and later ones fail at once.
     */
    halt(outcome, error) {
        if (outcome.unreachable && !this.unreachable) {
            this.unreachable = error;
            this.halted.abort('the server could not be reached');
        }
        return error;
    }
    notSent(details) {
        return new errors/* ApiError */.hD(details, `not sent: an earlier request could not reach the server (${this.unreachable.message})`);
    }
    async attempt(spec, limits) {
        const ticket = await this.pacer.acquire({ signal: limits.waiting, deadline: limits.deadline });
        const sentAt = this.clock.now();
        try {
            // A retry of a request that is safe to repeat gets no more than the budget has left.
            const left = limits.deadline === undefined || !spec.idempotent ? Infinity : limits.deadline - sentAt;
            const timeoutMs = Math.max(1, Math.min(this.options.requestTimeoutMs, left));
            return { ...(await this.send(spec, ticket, limits.inFlight, timeoutMs)), sentAt };
        }
        finally {
            // Every attempt is reported to the pacer, also when no response came (it may wait for the first).
            this.pacer.observe(ticket, undefined);
        }
    }
    async send(spec, ticket, signal, timeoutMs) {
        this.stats.requests++;
        const url = this.url(spec);
        const base = { method: spec.method, path: spec.path };
        const headers = {
            accept: 'application/json',
            'user-agent': `observability-deploy/${version/* VERSION */.x}`
        };
        if (this.authorization)
            headers.authorization = this.authorization;
        if (spec.body !== undefined)
            headers['content-type'] = 'application/json';
        let res;
        let text;
        try {
            res = await (0,undici/* request */.Em)(url, {
                method: spec.method,
                headers,
                body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
                dispatcher: this.agent,
                signal,
                // undici's own timers (no timer object per request): the wait for the response's headers, and
                // for each chunk of its body.
                headersTimeout: timeoutMs,
                bodyTimeout: timeoutMs
            });
            text = await res.body.text();
        }
        catch (e) {
            signal.throwIfAborted();
            return this.networkFailure(spec, base, e, timeoutMs);
        }
        this.answered = true;
        const resHeaders = res.headers;
        const body = parseBody(text, resHeaders);
        const status = res.statusCode;
        const now = this.clock.now();
        const budget = serverBudget(resHeaders, now);
        // Never longer than the retry budget: a server asking for an hour must not stall the run silently.
        if (budget)
            this.pacer.observe(ticket, {
                ...budget,
                resetAt: Math.min(budget.resetAt, now + this.options.retryBudgetMs)
            });
        if (status >= 200 && status < 300) {
            return {
                kind: 'ok',
                response: { status, headers: resHeaders, body, path: spec.path, method: spec.method }
            };
        }
        const details = {
            ...base,
            status,
            serverMessage: (0,errors/* serverMessageOf */.YJ)(body, text),
            requestId: (0,errors/* requestIdOf */.Gb)(body, resHeaders),
            bodyShape: (0,errors/* bodyShapeOf */.Pc)(body, text)
        };
        const cause = `HTTP ${status}`;
        if (!RETRYABLE_STATUSES.has(status))
            return { kind: 'failed', details, cause, retryable: false };
        if (status === 429) {
            this.stats.rateLimited++;
            // A 429 was refused before processing: safe to send again, even a create.
            return {
                kind: 'failed',
                details,
                cause,
                retryable: true,
                rateLimited: true,
                serverDelay: serverDelayMs(resHeaders, this.clock.now())
            };
        }
        if (!spec.idempotent)
            return { kind: 'failed', details, cause, retryable: false, unknownOutcome: true };
        return {
            kind: 'failed',
            details,
            cause,
            retryable: true,
            serverDelay: serverDelayMs(resHeaders, this.clock.now())
        };
    }
    networkFailure(spec, details, e, timeoutMs) {
        const failure = classifyNetworkError(e, timeoutMs);
        const failed = {
            kind: 'failed',
            unreachable: failure.sent !== 'maybe' || !this.answered,
            details: { ...details, hint: failure.hint },
            cause: failure.cause,
            network: true
        };
        if (failure.sent === 'permanent')
            return { ...failed, retryable: false };
        if (failure.sent === 'never')
            return { ...failed, retryable: true };
        // The request may have reached the server: only idempotent ones go again.
        if (!spec.idempotent)
            return { ...failed, retryable: false, unknownOutcome: true };
        return { ...failed, retryable: true };
    }
    url(spec) {
        const query = spec.query
            ? `?${new URLSearchParams(Object.entries(spec.query).map(([k, v]) => [k, String(v)])).toString()}`
            : '';
        return `${this.options.baseUrl}${spec.path}${query}`;
    }
    error(details, cause) {
        return new errors/* ApiError */.hD(this.scrubbed(details), `failed: ${this.scrub(cause)}`);
    }
    /** Details safe to show: a server that echoes the credential back does not get it into a message. */
    scrubbed(details) {
        return {
            ...details,
            serverMessage: details.serverMessage ? this.scrub(details.serverMessage) : undefined,
            hint: details.hint ?? hintFor(details.status, this.options.mode, details.method)
        };
    }
}
const reasonOf = (signal) => typeof signal.reason === 'string' ? signal.reason : 'cancelled';
function parseBody(text, headers) {
    const type = String(headers['content-type'] ?? '');
    const looksJson = /json/i.test(type) || /^\s*[[{]/.test(text);
    if (!looksJson || text.trim() === '')
        return text === '' ? undefined : text;
    try {
        return JSON.parse(text);
    }
    catch {
        return text;
    }
}
/** What a 401 or 403 means in this mode, in words (CONTRACT.md "Authentication"). */
function hintFor(status, mode, method) {
    if (status === 401) {
        return mode === 'self-hosted'
            ? 'The self-hosted API expects a personal API access key as a Bearer token (api-key, or OBSDEPLOY_API_KEY; web UI: Team Settings, API Keys). The ingestion API key on the same page is a different credential, for the telemetry collector, and is refused here'
            : 'The managed API expects an API key id and secret from the cloud console, sent with HTTP Basic authentication (key-id and key-secret, or OBSDEPLOY_KEY_ID and OBSDEPLOY_KEY_SECRET)';
    }
    if (status === 403) {
        const writing = method !== 'GET';
        return mode === 'managed'
            ? `The API key is valid but its role may not ${writing ? 'change' : 'read'} this. ${writing ? 'Changing dashboards, alerts or service settings needs a key with the Admin role' : 'Reading needs a key with at least the Developer role'} in the cloud console`
            : 'The API key is valid but its user may not do this in the team; use a key of a team member who can manage dashboards and alerts';
    }
    return undefined;
}

;// CONCATENATED MODULE: ./src/api/client.ts
/**
 * The one interface the planner and the apply engine use, for both deployment modes. It knows the
 * paths, the envelopes and the pagination; the transport knows the network.
 */






function createApi(settings, extra = {}) {
    const transport = new Transport({
        baseUrl: settings.apiUrl,
        auth: settings.auth,
        mode: settings.mode,
        rateLimit: settings.rateLimit,
        requestTimeoutMs: settings.requestTimeoutMs,
        retryBudgetMs: settings.retryBudgetMs,
        connectBudgetMs: settings.connectBudgetMs,
        ...extra
    });
    return new HttpObservabilityApi(settings, transport, extra.log ?? log/* silentLogger */.qq);
}
/** `{data}` (self-hosted), `{status, requestId, result}` (managed), or the bare value. */
function unwrapEnvelope(body) {
    if (body && typeof body === 'object' && !Array.isArray(body)) {
        const b = body;
        if ('result' in b && ('requestId' in b || 'status' in b))
            return b.result;
        if ('data' in b)
            return b.data;
    }
    return body;
}
/** A page this long without a total may be a cut list (FACTS.md: lists return at most 1000). */
const FULL_PAGE = 1000;
const MAX_UNCOUNTED_PAGES = 1000;
const WithId = schemas/* looseObject */._H3({ id: schemas/* union */.KCZ([schemas/* string */.YjP().min(1), schemas/* number */.aig()]).transform(String) });
const ABSENT_SHAPES = {
    // HyperDX answers a missing dashboard with sendStatus(404); its OpenAPI comments advertise {message}.
    dashboards: { 'self-hosted': ['status-text', 'json'], managed: ['json'] },
    // HyperDX: 404 {message: "Alert not found"}; the cloud gateway: 404 {status, error, requestId}.
    alerts: { 'self-hosted': ['json'], managed: ['json'] }
};
function isResourceAbsent(e, shapes) {
    if (e.status !== 404)
        return false;
    if (e.bodyShape === 'json')
        return shapes.includes('json');
    return e.bodyShape === 'text' && e.serverMessage === 'Not Found' && shapes.includes('status-text');
}
class HttpObservabilityApi {
    settings;
    transport;
    log;
    state;
    signal;
    mode;
    serviceBase;
    constructor(settings, transport, log, state = {}, 
    /** Ends this copy's requests (see withSignal). */
    signal) {
        this.settings = settings;
        this.transport = transport;
        this.log = log;
        this.state = state;
        this.signal = signal;
        this.mode = settings.mode;
        if (settings.mode === 'managed') {
            // Checked as UUIDs by config; pathSegment still refuses anything that could leave its segment.
            const org = pathSegment(settings.organizationId ?? '', 'organization-id');
            const svc = pathSegment(settings.serviceId ?? '', 'service-id');
            this.serviceBase = `/v1/organizations/${org}/services/${svc}`;
            if (settings.managedPrefix !== 'auto')
                this.state.resolved ??= settings.managedPrefix;
        }
    }
    get prefix() {
        return this.state.resolved;
    }
    withSignal(signal) {
        return new HttpObservabilityApi(this.settings, this.transport, this.log, this.state, signal);
    }
    get stats() {
        return this.transport.stats;
    }
    close() {
        return this.transport.close();
    }
    async listDashboards() {
        return this.list('/dashboards', api_schemas/* LiveDashboard */.VQ);
    }
    async getDashboard(id) {
        const res = await this.send('GET', await this.item('/dashboards', id, 'dashboard id'));
        return parse(api_schemas/* LiveDashboard */.VQ, unwrapEnvelope(res.body), res);
    }
    async createDashboard(body) {
        return this.writeDashboard('POST', `${await this.base()}/dashboards`, body);
    }
    async updateDashboard(id, body) {
        return this.writeDashboard('PUT', await this.item('/dashboards', id, 'dashboard id'), body);
    }
    async deleteDashboard(id) {
        return this.remove(await this.item('/dashboards', id, 'dashboard id'), ABSENT_SHAPES.dashboards);
    }
    async validateDashboard(body) {
        const res = await this.send('POST', `${await this.base()}/dashboards/validate`, body, true);
        return parse(api_schemas/* ValidateDashboardResult */.mG, unwrapEnvelope(res.body), res);
    }
    async listAlerts() {
        return this.list('/alerts', api_schemas/* LiveAlert */.zO, true);
    }
    async getAlert(id) {
        const res = await this.send('GET', await this.item('/alerts', id, 'alert id'));
        return parse(api_schemas/* LiveAlert */.zO, unwrapEnvelope(res.body), res);
    }
    async createAlert(body) {
        const res = await this.send('POST', `${await this.base()}/alerts`, body, false);
        return parse(WithId, unwrapEnvelope(res.body), res);
    }
    async updateAlert(id, body) {
        const res = await this.send('PUT', await this.item('/alerts', id, 'alert id'), body);
        const parsed = WithId.safeParse(unwrapEnvelope(res.body));
        return parsed.success ? parsed.data : { id };
    }
    async deleteAlert(id) {
        return this.remove(await this.item('/alerts', id, 'alert id'), ABSENT_SHAPES.alerts);
    }
    async listSources() {
        return this.list('/sources', api_schemas/* LiveSource */.Wn);
    }
    async listWebhooks() {
        try {
            return await this.list('/webhooks', api_schemas/* LiveWebhook */.yW, true);
        }
        catch (e) {
            // The contract's managed mode has no webhooks route; the public cloud's clickstack prefix has one.
            if (e instanceof errors/* ApiError */.hD && e.status === 404 && this.mode === 'managed')
                return undefined;
            throw e;
        }
    }
    async querySeries(body) {
        const res = await this.send('POST', `${await this.base()}/charts/series`, body, true);
        return parse(schemas/* array */.YOg(api_schemas/* SeriesPoint */.Ew), unwrapEnvelope(res.body), res);
    }
    async getService() {
        const res = await this.send('GET', this.requireServiceBase());
        return this.serviceResponse(res);
    }
    async patchService(body) {
        // Not retried blindly: a replayed `add` of an entry that now exists may be refused. After a lost
        // response the caller re-reads the service and sends only what still differs.
        const res = await this.send('PATCH', this.requireServiceBase(), body, false);
        return this.serviceResponse(res);
    }
    serviceResponse(res) {
        const requestId = res.body?.requestId;
        return {
            service: parse(api_schemas/* LiveService */.Cp, unwrapEnvelope(res.body), res),
            requestId: typeof requestId === 'string' ? requestId : undefined
        };
    }
    requireServiceBase() {
        if (!this.serviceBase)
            throw new Error('service settings exist only in managed mode');
        return this.serviceBase;
    }
    /** The path below which the observability resources are: `/api/v2`, or the service's prefix. */
    async base() {
        if (!this.serviceBase)
            return '/api/v2';
        return `${this.serviceBase}/${this.state.resolved ?? (await this.settlePrefix())}`;
    }
    /**
     * `managed-prefix: auto`: the public cloud serves only `clickstack` (its gateway answers any other path
     * with a 404 page); CONTRACT.md says `observability`. The first request lists the dashboards under
     * `clickstack`; a 404 there (a list of nothing is `[]`, so a 404 can only mean the route is absent,
     * FACTS.md) switches to `observability` for the rest of the run. Concurrent callers share the probe.
     */
    settlePrefix() {
        const state = this.state;
        state.probe ??= (async () => {
            try {
                state.probed = await this.send('GET', `${this.serviceBase}/clickstack/dashboards`);
                state.resolved = 'clickstack';
            }
            catch (e) {
                if (!(e instanceof errors/* ApiError */.hD && e.status === 404))
                    throw e;
                state.resolved = 'observability';
                this.log.info("managed-prefix auto: the server has no clickstack route (HTTP 404), so this run uses the contract's observability prefix");
            }
            return state.resolved;
        })().catch((e) => {
            // A failure that says nothing about the route (401, network, a cancel): the next request settles it.
            state.probe = undefined;
            throw e;
        });
        return state.probe;
    }
    async item(collection, id, what) {
        return `${await this.base()}${collection}/${pathSegment(id, what)}`;
    }
    send(method, path, body, idempotent = method !== 'POST') {
        return this.transport.request({ method, path, body, idempotent }, this.signal);
    }
    /** 'absent' only on the route's own "not found" answer; a router's 404 is an error that says so. */
    async remove(path, absent) {
        try {
            await this.send('DELETE', path);
            return 'deleted';
        }
        catch (e) {
            if (e instanceof errors/* ApiError */.hD && isResourceAbsent(e, absent[this.mode]))
                return 'absent';
            throw this.routeError(e);
        }
    }
    /** A 404 that is not a resource's "not found" names the path and, in managed mode, the prefix. */
    routeError(e) {
        if (!(e instanceof errors/* ApiError */.hD) || e.status !== 404 || e instanceof errors/* RouteNotFoundError */.JS)
            return e;
        const hint = this.mode === 'managed'
            ? `Managed prefix "${this.state.resolved}": the public cloud serves only clickstack and CONTRACT.md says observability; set managed-prefix (auto tries clickstack, then observability)`
            : 'Check api-url: it is the API base (port 8000 by default), not the web UI';
        return new errors/* RouteNotFoundError */.JS({
            status: e.status,
            method: e.method,
            path: e.path,
            serverMessage: e.serverMessage,
            requestId: e.requestId,
            bodyShape: e.bodyShape,
            hint
        });
    }
    /**
     * Some servers answer a write with the full record, some with less: when the tiles are missing we
     * read the dashboard back, because the apply needs the tile ids the server assigned.
     */
    async writeDashboard(method, path, body) {
        const res = await this.send(method, path, body);
        const value = unwrapEnvelope(res.body);
        const written = api_schemas/* WrittenDashboard */.wH.safeParse(value);
        if (written.success)
            return written.data;
        const { id } = parse(WithId, value, res);
        return this.getDashboard(id);
    }
    /**
     * Reads a whole collection. Lists that paginate say so (`meta.total` or `X-Total-Count`); then the
     * remaining pages are requested with the page size the server used. Lists that do not paginate are
     * read with one request and no query parameters.
     */
    async list(collection, item, paginated = false) {
        const base = await this.base();
        const path = `${base}${collection}`;
        let first;
        if (collection === '/dashboards' && this.state.probed?.path === path) {
            first = this.state.probed;
            this.state.probed = undefined;
        }
        // FACTS.md: a list of nothing is `[]`, so a 404 on a list means the route is absent, whatever its body.
        first ??= await this.send('GET', path).catch((e) => {
            throw this.routeError(e);
        });
        const items = parse(schemas/* array */.YOg(item), unwrapEnvelope(first.body), first);
        const info = pageInfo(first);
        const { limit } = info;
        let { total } = info;
        // A paginated list (FACTS.md: alerts, webhooks) of a full page and no total may have been cut: ask on.
        if (paginated && total === undefined && items.length >= FULL_PAGE)
            total = Infinity;
        if (total === undefined || items.length >= total || items.length === 0)
            return items;
        const pageSize = limit && limit > 0 ? limit : items.length;
        const seen = new Set(items.map(i => i.id));
        let offset = items.length;
        // Bounded: a server that keeps returning pages past `total` cannot keep us here.
        const maxPages = Number.isFinite(total) ? Math.ceil(total / pageSize) + 2 : MAX_UNCOUNTED_PAGES;
        for (let pages = 0; offset < total && pages < maxPages; pages++) {
            const res = await this.transport.request({ method: 'GET', path, query: { limit: pageSize, offset }, idempotent: true }, this.signal);
            const page = parse(schemas/* array */.YOg(item), unwrapEnvelope(res.body), res);
            const fresh = page.filter(p => !seen.has(p.id));
            // An empty page, or one the server repeated (it ignores offset): the list is complete.
            if (page.length === 0 || fresh.length === 0)
                break;
            for (const p of page) {
                const key = p.id;
                if (key === undefined || !seen.has(key))
                    items.push(p);
                seen.add(key);
            }
            offset += page.length;
        }
        if (Number.isFinite(total) && items.length < total) {
            // Planning with part of a list would look like "create what is missing": refuse instead.
            throw new errors/* ResponseShapeError */.RD({ method: 'GET', path, status: first.status }, 'meta.total', `the server announced ${total} items but its pages returned ${items.length}; refusing to plan with a partial list`);
        }
        return items;
    }
}
function pageInfo(res) {
    const body = res.body;
    const meta = body && typeof body === 'object' ? api_schemas/* PaginationMeta */.sF.safeParse(body.meta) : undefined;
    const header = Number(res.headers['x-total-count']);
    return {
        total: meta?.success && meta.data.total !== undefined
            ? meta.data.total
            : Number.isFinite(header)
                ? header
                : undefined,
        limit: meta?.success ? meta.data.limit : undefined
    };
}
function parse(schema, value, res) {
    const result = schema.safeParse(value);
    if (result.success)
        return result.data;
    const issue = result.error.issues[0];
    const field = issue.path
        .map(p => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
        .join('')
        .replace(/^\./, '');
    throw new errors/* ResponseShapeError */.RD({ method: res.method, path: res.path, status: res.status, hint: notTheApi(res.body) }, field, issue.message);
}
/** A page where JSON was expected: the address is something else than the API. */
function notTheApi(body) {
    if (typeof body !== 'string' || !/^\s*</.test(body))
        return undefined;
    return 'The server answered with an HTML page, not the API: api-url may point at the web UI or at a proxy page. The self-hosted API listens on its own port (8000 by default); the managed API is https://api.clickhouse.cloud';
}


/***/ }),

/***/ 3249:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Gb: () => (/* binding */ requestIdOf),
/* harmony export */   JS: () => (/* binding */ RouteNotFoundError),
/* harmony export */   Pc: () => (/* binding */ bodyShapeOf),
/* harmony export */   RD: () => (/* binding */ ResponseShapeError),
/* harmony export */   YJ: () => (/* binding */ serverMessageOf),
/* harmony export */   hD: () => (/* binding */ ApiError),
/* harmony export */   rk: () => (/* binding */ UnknownOutcomeError),
/* harmony export */   v1: () => (/* binding */ RequestCancelledError)
/* harmony export */ });
/**
 * Errors of the API edge. Messages carry the method, the path, the status, the server's own words and
 * its request id, and never a credential or an Authorization header.
 */
class ApiError extends Error {
    status;
    method;
    path;
    serverMessage;
    requestId;
    hint;
    attempts;
    bodyShape;
    constructor(details, summary) {
        const what = summary ?? (details.status ? `failed with HTTP ${details.status}` : 'failed');
        const server = details.serverMessage ? `: ${details.serverMessage}` : '';
        const id = details.requestId ? ` (requestId ${details.requestId})` : '';
        const hint = details.hint ? `. ${details.hint}` : '';
        super(`${details.method} ${details.path} ${what}${server}${id}${hint}`);
        this.name = 'ApiError';
        this.status = details.status;
        this.method = details.method;
        this.path = details.path;
        this.serverMessage = details.serverMessage;
        this.requestId = details.requestId;
        this.hint = details.hint;
        this.attempts = details.attempts;
        this.bodyShape = details.bodyShape;
    }
}
/**
 * A 404 that is not the route's own "not found": the server (or a gateway in front of it) has no such
 * route, e.g. an HTML `Cannot DELETE ...` page. It never means "already deleted".
 */
class RouteNotFoundError extends ApiError {
    constructor(details) {
        super(details, 'failed: HTTP 404 that is not this route\'s "not found" answer (the server has no such route; nothing is taken as absent or deleted)');
        this.name = 'RouteNotFoundError';
    }
}
/**
 * A non-idempotent request (a create) whose outcome is unknown: the connection broke or the server
 * failed after the request was sent, so it may have been committed. The caller must re-read before it
 * creates again; the transport never retries it blindly.
 */
class UnknownOutcomeError extends ApiError {
    constructor(details, cause) {
        super(details, `outcome unknown (${cause}); it may or may not have been applied`);
        this.name = 'UnknownOutcomeError';
    }
}
/**
 * A request given up on purpose, before or while in flight: another request failed first and its answer
 * is no longer needed, or the client was closed. Never a finding of its own: the first failure is.
 */
class RequestCancelledError extends ApiError {
    constructor(details, reason) {
        super(details, `cancelled: ${reason}`);
        this.name = 'RequestCancelledError';
    }
}
/** The server answered 2xx with a body we do not understand: names the route and the field. */
class ResponseShapeError extends ApiError {
    field;
    constructor(details, field, problem) {
        super(details, `returned an unexpected response: ${field ? `field ${field}: ` : ''}${problem}`);
        this.field = field;
        this.name = 'ResponseShapeError';
    }
}
function bodyShapeOf(body, text) {
    if (body !== undefined && typeof body === 'object')
        return 'json';
    const plain = text.trim();
    if (plain === '')
        return 'none';
    return /^<(!doctype|html|head|body|pre)/i.test(plain) ? 'html' : 'text';
}
/** Parses the server's message out of any of the body shapes the routes use (FACTS.md "Errors"). */
function serverMessageOf(body, text) {
    if (body && typeof body === 'object' && !Array.isArray(body)) {
        const b = body;
        for (const key of ['message', 'error', 'detail', 'title']) {
            const v = b[key];
            if (typeof v === 'string' && v.trim())
                return shorten(v);
            if (v && typeof v === 'object' && typeof v.message === 'string') {
                return shorten(v.message);
            }
        }
        if (Array.isArray(b.errors)) {
            const msgs = b.errors
                .map(e => (typeof e === 'string' ? e : e?.message))
                .filter((m) => typeof m === 'string');
            if (msgs.length > 0)
                return shorten(msgs.join('; '));
        }
        return undefined;
    }
    const plain = text.trim();
    if (!plain)
        return undefined;
    // A gateway's HTML error page: its title says it all ("502 Bad Gateway"), the markup says nothing.
    if (/^<(!doctype|html)/i.test(plain)) {
        const title = /<title[^>]*>([^<]*)<\/title>/i.exec(plain)?.[1];
        return shorten(title ?? plain.replace(/<[^>]*>/g, ' '));
    }
    return shorten(plain);
}
function requestIdOf(body, headers) {
    const fromBody = body && typeof body === 'object' ? body.requestId : undefined;
    if (typeof fromBody === 'string' && fromBody)
        return fromBody;
    const header = headers['x-request-id'] ?? headers['request-id'];
    return typeof header === 'string' ? header : undefined;
}
const shorten = (s) => {
    const one = s.replace(/\s+/g, ' ').trim();
    return one.length > 500 ? `${one.slice(0, 500)}…` : one;
};


/***/ }),

/***/ 8164:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Cp: () => (/* binding */ LiveService),
/* harmony export */   Ew: () => (/* binding */ SeriesPoint),
/* harmony export */   VQ: () => (/* binding */ LiveDashboard),
/* harmony export */   Wn: () => (/* binding */ LiveSource),
/* harmony export */   mG: () => (/* binding */ ValidateDashboardResult),
/* harmony export */   s: () => (/* binding */ sameId),
/* harmony export */   sF: () => (/* binding */ PaginationMeta),
/* harmony export */   wH: () => (/* binding */ WrittenDashboard),
/* harmony export */   yW: () => (/* binding */ LiveWebhook),
/* harmony export */   zO: () => (/* binding */ LiveAlert)
/* harmony export */ });
/* unused harmony export LiveTile */
/* harmony import */ var zod__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8816);
/**
 * What we accept from the servers. Strict about the fields we rely on, tolerant of everything else
 * (extra fields pass through and are carried over on update), because CONTRACT.md, FACTS.md and the
 * real servers each show a little more or less.
 */

const isRecord = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isListOfRecords = (v) => Array.isArray(v) && v.every(isRecord);
/** Ids are compared as strings: a server that sends numbers still works. */
const id = zod__WEBPACK_IMPORTED_MODULE_0__/* .union */ .KCZ([zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP().min(1), zod__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig()]).transform(String);
const rawId = zod__WEBPACK_IMPORTED_MODULE_0__/* .union */ .KCZ([zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP().min(1), zod__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig()]);
const sameId = (a, b) => a !== undefined && a !== null && b !== undefined && b !== null && String(a) === String(b);
const nullish = (s) => s.nullable().optional();
const LiveTile = zod__WEBPACK_IMPORTED_MODULE_0__/* .looseObject */ ._H3({
    id: rawId.optional(),
    name: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP().default(''),
    x: zod__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig(),
    y: zod__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig(),
    w: zod__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig(),
    h: zod__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig(),
    /**
     * FACTS.md: the server returns the newer `config` form; CONTRACT.md shows `series`, and an older server
     * may echo it. Both are kept as given (checked to be a mapping or a list of mappings, not copied): the
     * normal form reads them defensively, and an update carries unknown config keys back.
     */
    config: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .custom */ .IeY(isRecord, 'expected a mapping')),
    series: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .custom */ .IeY(isListOfRecords, 'expected a list of mappings')),
    asRatio: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .boolean */ .zMY())
});
/** What the apply needs from a dashboard write's answer: the id and the tile ids the server assigned. */
const WrittenDashboard = zod__WEBPACK_IMPORTED_MODULE_0__/* .looseObject */ ._H3({
    id,
    tiles: zod__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_0__/* .looseObject */ ._H3({ id: rawId.optional(), name: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP().default('') }))
});
const LiveDashboard = zod__WEBPACK_IMPORTED_MODULE_0__/* .looseObject */ ._H3({
    id,
    name: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP().default(''),
    tags: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP())).transform(t => t ?? []),
    tiles: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(LiveTile)).transform(t => t ?? [])
});
const Channel = zod__WEBPACK_IMPORTED_MODULE_0__/* .looseObject */ ._H3({ type: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP().optional(), webhookId: nullish(id) });
const LiveAlert = zod__WEBPACK_IMPORTED_MODULE_0__/* .looseObject */ ._H3({
    id,
    name: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()),
    message: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()),
    // CONTRACT.md does not show the alert record: only the id is relied on; the rest compares as given.
    threshold: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig()),
    thresholdMax: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig()),
    thresholdType: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()),
    interval: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()),
    source: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()),
    channel: nullish(Channel),
    channels: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(Channel)),
    dashboardId: nullish(id),
    tileId: nullish(id),
    numConsecutiveWindows: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig()),
    note: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP())
});
const LiveSource = zod__WEBPACK_IMPORTED_MODULE_0__/* .looseObject */ ._H3({ id, name: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP().default(''), kind: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()) });
const LiveWebhook = zod__WEBPACK_IMPORTED_MODULE_0__/* .looseObject */ ._H3({ id, name: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP().default(''), service: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()) });
const IpEntry = zod__WEBPACK_IMPORTED_MODULE_0__/* .looseObject */ ._H3({ source: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP(), description: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()) });
const LiveService = zod__WEBPACK_IMPORTED_MODULE_0__/* .looseObject */ ._H3({
    id: id.optional(),
    name: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP().optional(),
    tier: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()),
    releaseChannel: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()),
    ipAccessList: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(IpEntry)),
    privateEndpointIds: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP())),
    endpoints: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_0__/* .looseObject */ ._H3({ protocol: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP(), enabled: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .boolean */ .zMY()), host: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()) }))),
    hasTransparentDataEncryption: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .boolean */ .zMY()),
    transparentDataEncryptionKeyId: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP())
});
const SeriesPoint = zod__WEBPACK_IMPORTED_MODULE_0__/* .looseObject */ ._H3({
    ts_bucket: zod__WEBPACK_IMPORTED_MODULE_0__/* .union */ .KCZ([zod__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig(), zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()]),
    group: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_0__/* .unknown */ .L5J()))
});
const ValidateDashboardResult = zod__WEBPACK_IMPORTED_MODULE_0__/* .looseObject */ ._H3({
    valid: zod__WEBPACK_IMPORTED_MODULE_0__/* .boolean */ .zMY(),
    errors: nullish(zod__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_0__/* .looseObject */ ._H3({ path: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP().default(''), message: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP() }))),
    normalized: zod__WEBPACK_IMPORTED_MODULE_0__/* .unknown */ .L5J().optional()
});
const PaginationMeta = zod__WEBPACK_IMPORTED_MODULE_0__/* .looseObject */ ._H3({
    total: zod__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig().optional(),
    limit: zod__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig().optional(),
    offset: zod__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig().optional()
});


/***/ }),

/***/ 8301:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   L: () => (/* binding */ equal),
/* harmony export */   u: () => (/* binding */ clean)
/* harmony export */ });
/** JSON-only, with null, empty strings, empty lists and empty mappings removed, keys sorted. */
function clean(value) {
    if (value === null || value === undefined)
        return undefined;
    if (typeof value === 'string')
        return value === '' ? undefined : value;
    if (typeof value === 'number')
        return Number.isFinite(value) ? value : undefined;
    if (typeof value === 'boolean')
        return value;
    if (Array.isArray(value)) {
        const items = value.map(clean).filter((v) => v !== undefined);
        return items.length === 0 ? undefined : items;
    }
    if (typeof value === 'object') {
        const out = {};
        for (const key of Object.keys(value).sort()) {
            const v = clean(value[key]);
            if (v !== undefined)
                out[key] = v;
        }
        return Object.keys(out).length === 0 ? undefined : out;
    }
    return undefined;
}
function equal(a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
}


/***/ }),

/***/ 9586:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   GN: () => (/* binding */ isOwnershipTag),
/* harmony export */   IC: () => (/* binding */ ownershipTag),
/* harmony export */   Rz: () => (/* binding */ userTags)
/* harmony export */ });
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _manifest_rules_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6364);
/* harmony import */ var _manifest_vocabulary_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(7817);
/**
 * The ownership tag: how a stack recognizes its own dashboards. It must fit the server's 32-character
 * tag limit (FACTS.md), so a long stack name is shortened with a hash that keeps stacks apart.
 */



function ownershipTag(stack) {
    const plain = `${_manifest_rules_js__WEBPACK_IMPORTED_MODULE_1__/* .OWNERSHIP_TAG_PREFIX */ .yJ}${stack}`;
    if (plain.length <= _manifest_vocabulary_js__WEBPACK_IMPORTED_MODULE_2__/* .LIMITS */ .b1.tagLength)
        return plain;
    const hash = (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.createHash)('sha256').update(stack).digest('hex').slice(0, 8);
    const room = _manifest_vocabulary_js__WEBPACK_IMPORTED_MODULE_2__/* .LIMITS */ .b1.tagLength - _manifest_rules_js__WEBPACK_IMPORTED_MODULE_1__/* .OWNERSHIP_TAG_PREFIX */ .yJ.length - hash.length - 1;
    return `${_manifest_rules_js__WEBPACK_IMPORTED_MODULE_1__/* .OWNERSHIP_TAG_PREFIX */ .yJ}${stack.slice(0, room)}~${hash}`;
}
const isOwnershipTag = (tag) => tag.startsWith(_manifest_rules_js__WEBPACK_IMPORTED_MODULE_1__/* .OWNERSHIP_TAG_PREFIX */ .yJ);
/** The user's tags as a sorted set, without any stack's ownership tag. */
function userTags(tags) {
    return [...new Set(tags.filter(t => !isOwnershipTag(t)))].sort();
}


/***/ }),

/***/ 8448:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   $w: () => (/* binding */ UNKNOWN_CONFIG_FIELD),
/* harmony export */   FL: () => (/* binding */ TILE_FIELDS),
/* harmony export */   HA: () => (/* binding */ ALERT_FIELDS),
/* harmony export */   MN: () => (/* binding */ TILE_CONFIG_FIELDS),
/* harmony export */   Rq: () => (/* binding */ DASHBOARD_FIELDS),
/* harmony export */   VJ: () => (/* binding */ SELECT_ITEM_FIELDS),
/* harmony export */   e6: () => (/* binding */ keptSettingsNotice),
/* harmony export */   i: () => (/* binding */ carriedFields)
/* harmony export */ });
/* unused harmony export SERVICE_FIELDS */
/* harmony import */ var _diagnostics_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(4851);
/**
 * Every field the servers return on the records this tool writes, and what a plan does with it. This is
 * how "nothing changes on the server that the plan does not show" holds field by field:
 * - `compared`: in the normal form; a difference is a planned change. A compared field the manifest
 *   language cannot set (`unexpressible`) always means "absent" on the manifest's side, so a live value
 *   shows as a change, with the words for the reviewer.
 * - `carried`: the manifest language has no word for it yet (issue "the whole real surface" adds them),
 *   so an update sends it back exactly as read. Where the update changes a field it depends on
 *   (`keptWhileSame`), it is not sent back, and the plan shows it going away.
 * - `identity`: the record's or the tile's id, sent back as read (in the path, or a tile's `id`).
 * - `untouched`: computed by the server, or left out of a partial PATCH: no request of ours changes it.
 * The real GET response schemas (test/fixtures/openapi), and the fields HyperDX's converters return, are
 * checked against these tables by test/unit/returned-fields.test.ts: a returned field cannot be forgotten.
 */

const compared = { treatment: 'compared' };
const carried = { treatment: 'carried' };
const identity = { treatment: 'identity' };
const untouched = { treatment: 'untouched' };
/** A tile setting that belongs to its display type (and, for formulas, to its select items). */
const carriedOnSameTile = (...more) => ({
    treatment: 'carried',
    keptWhileSame: ['displayType', ...more]
});
const RAW_SQL = 'a raw-SQL tile (set in the UI); this manifest cannot express raw-SQL tiles yet, so an update turns it back into the builder tile it describes';
/** HyperDX `convertToExternalDashboard`; the managed `ClickStackDashboardResponse`. */
const DASHBOARD_FIELDS = {
    id: identity,
    name: compared,
    tiles: compared,
    tags: compared,
    filters: carried,
    savedQuery: carried,
    savedQueryLanguage: carried,
    savedFilterValues: carried,
    containers: carried
};
/** HyperDX `convertTileToExternalChart`; `series` and tile-level `asRatio` are CONTRACT.md's form. */
const TILE_FIELDS = {
    id: identity,
    name: compared,
    x: compared,
    y: compared,
    w: compared,
    h: compared,
    config: compared,
    series: compared,
    asRatio: compared,
    containerId: carried,
    tabId: carried
};
/** Every variant of HyperDX `convertToExternalTileChartConfig` (builder and raw SQL). */
const TILE_CONFIG_FIELDS = {
    displayType: compared,
    sourceId: compared,
    select: compared,
    groupBy: compared,
    asRatio: compared,
    alignDateRangeToGranularity: compared,
    fillNulls: compared,
    fitYAxisToData: compared,
    compareToPreviousPeriod: compared,
    numberFormat: compared,
    seriesLimit: compared,
    having: compared,
    orderBy: compared,
    groupByColumnsOnLeft: compared,
    limit: compared,
    where: compared,
    whereLanguage: compared,
    markdown: compared,
    configType: { treatment: 'compared', unexpressible: RAW_SQL },
    connectionId: { treatment: 'compared', unexpressible: RAW_SQL },
    sqlTemplate: { treatment: 'compared', unexpressible: RAW_SQL },
    // Formulas name the select items (A, B, ...): with other select items they would be wrong or refused.
    formulas: carriedOnSameTile('select'),
    showOperandSeries: carriedOnSameTile('select'),
    onClick: carriedOnSameTile(),
    color: carriedOnSameTile(),
    colorRules: carriedOnSameTile(),
    backgroundChart: carriedOnSameTile()
};
/** A config key no table lists (a server newer than ours): kept like a UI setting of the same tile. */
const UNKNOWN_CONFIG_FIELD = carriedOnSameTile();
/** HyperDX `convertToExternalSelectItem` and `convertToExternalHeatmapSelectItem`. */
const SELECT_ITEM_FIELDS = {
    aggFn: compared,
    valueExpression: compared,
    alias: compared,
    level: compared,
    where: compared,
    whereLanguage: compared,
    metricName: compared,
    metricType: compared,
    periodAggFn: compared,
    numberFormat: compared,
    countExpression: compared,
    heatmapScaleType: compared
};
/** HyperDX `translateAlertDocumentToExternalAlert`; the managed `ClickStackAlertResponse`. */
const ALERT_FIELDS = {
    id: identity,
    name: compared,
    message: compared,
    note: compared,
    threshold: compared,
    thresholdMax: compared,
    thresholdType: compared,
    interval: compared,
    source: compared,
    numConsecutiveWindows: compared,
    channel: compared,
    dashboardId: compared,
    tileId: compared,
    savedSearchId: {
        treatment: 'compared',
        unexpressible: 'a saved-search alert; manifests declare tile alerts only'
    },
    groupBy: { treatment: 'compared', unexpressible: 'a saved-search alert grouping' },
    scheduleOffsetMinutes: carried,
    scheduleStartAt: carried,
    // Channels after the first (added in the UI). The managed request schema has no `channels`: there an
    // update keeps only `channel`, and the plan shows the others going away.
    channels: carried,
    state: untouched,
    silenced: untouched,
    executionErrors: untouched,
    teamId: untouched,
    createdAt: untouched,
    updatedAt: untouched
};
const SERVICE_MANAGED = ['name', 'releaseChannel', 'ipAccessList', 'privateEndpointIds', 'endpoints'];
/**
 * The managed `Service`. The fields a ServiceSettings manifest declares are compared; the PATCH sends
 * only those that differ, so every other field (writable ones like `tags` too) is untouched.
 */
const SERVICE_FIELDS = {
    ...Object.fromEntries(SERVICE_MANAGED.map(f => [f, compared])),
    transparentDataEncryptionKeyId: compared,
    id: identity,
    ...Object.fromEntries([
        'provider',
        'region',
        'state',
        'clickhouseVersion',
        'engineVersion',
        'tier',
        'minTotalMemoryGb',
        'maxTotalMemoryGb',
        'minReplicaMemoryGb',
        'maxReplicaMemoryGb',
        'numReplicas',
        'minReplicas',
        'maxReplicas',
        'autoscalingMode',
        'replicaMemoryGb',
        'idleScaling',
        'idleTimeoutMinutes',
        'createdAt',
        'encryptionKey',
        'encryptionAssumedRoleIdentifier',
        'iamRole',
        'availablePrivateEndpointIds',
        'dataWarehouseId',
        'isPrimary',
        'isReadonly',
        'byocId',
        'hasTransparentDataEncryption',
        'encryptionRoleId',
        'profile',
        'complianceType',
        'tags',
        'enableCoreDumps',
        'scalingSchedule',
        'currentScaling'
    ].map(f => [f, untouched]))
};
/**
 * The fields of `live` an update sends back as read: carried ones the update does not set itself, unless
 * it changes a field they depend on (`differs` says whether the update changes a sibling field).
 */
function carriedFields(live, sent, rules, differs, unknown = untouched) {
    const out = {};
    for (const [key, value] of Object.entries(live)) {
        const rule = rules[key] ?? unknown;
        if (rule.treatment !== 'carried' || key in sent || value === undefined || value === null)
            continue;
        if (rule.keptWhileSame?.some(differs))
            continue;
        out[key] = value;
    }
    return out;
}
/**
 * The notice every plan carries for a record with carried settings: nothing to apply, but a UI edit of
 * something the manifest cannot express is visible all the same.
 */
function keptSettingsNotice(what, paths, at) {
    return (0,_diagnostics_js__WEBPACK_IMPORTED_MODULE_0__/* .diagnostic */ .YK)('plan', 'notice', `${what} has settings the manifest language cannot express yet (set in the UI?), kept as they are: an update sends them back unchanged: ${paths.join(', ')}`, at);
}


/***/ }),

/***/ 6134:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   G9: () => (/* binding */ normalizeGroupBy),
/* harmony export */   I6: () => (/* binding */ normalizeConfig),
/* harmony export */   ow: () => (/* binding */ normalTile),
/* harmony export */   xF: () => (/* binding */ seriesToConfig)
/* harmony export */ });
/* harmony import */ var _json_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(8301);
/* harmony import */ var _returned_fields_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8448);
/**
 * One normal form for a tile, whichever form it was written or read in. FACTS.md: the server stores a
 * `series` tile in the newer `config` form, joins groupBy, drops dataSource, keeps only the first
 * series of a number tile, keeps asRatio only where it means something, and fills in defaults. A plan
 * that compared the forms as written would show changes on every run, so both the manifest's tile and
 * the server's tile are reduced to this form before any comparison.
 */


/** HyperDX returns asRatio on builder line, stacked_bar and table tiles: true with exactly two select items. */
const RATIO_TYPES = ['line', 'stacked_bar', 'table'];
/** FACTS.md "How a series tile comes back": series -> config. */
function seriesToConfig(series, asRatio) {
    const first = series[0] ?? {};
    const type = first.type ?? 'time';
    const displayType = type === 'time' ? (first.displayType === 'stacked_bar' ? 'stacked_bar' : 'line') : type;
    if (displayType === 'markdown')
        return { displayType, markdown: first.content ?? '' };
    const config = { displayType, sourceId: first.sourceId };
    if (displayType === 'search') {
        config.select = (first.fields ?? []).join(', ');
        config.where = first.where ?? '';
        config.whereLanguage = first.whereLanguage ?? 'lucene';
        return config;
    }
    const kept = displayType === 'number' ? series.slice(0, 1) : series;
    config.select = kept.map(s => ({
        aggFn: s.aggFn,
        where: s.where ?? '',
        whereLanguage: s.whereLanguage ?? 'lucene',
        valueExpression: s.aggFn === 'count' ? undefined : s.field,
        alias: s.alias,
        level: s.level,
        metricName: s.metricName,
        metricType: s.metricDataType
    }));
    const numberFormat = kept.find(s => s.numberFormat !== undefined)?.numberFormat;
    if (numberFormat !== undefined)
        config.numberFormat = numberFormat;
    if (first.groupBy !== undefined)
        config.groupBy = first.groupBy;
    if (RATIO_TYPES.includes(displayType))
        config.asRatio = asRatio === true && kept.length === 2;
    return config;
}
/**
 * Defaults the server fills in (FACTS.md and the OpenAPI `default`s). A key whose value equals its
 * default is dropped, so "unset" and "set to the default" compare equal.
 */
const CONFIG_DEFAULTS = {
    asRatio: false,
    fillNulls: true,
    alignDateRangeToGranularity: true,
    fitYAxisToData: false,
    compareToPreviousPeriod: false,
    showOperandSeries: true,
    groupByColumnsOnLeft: false,
    where: '',
    whereLanguage: 'lucene'
};
const SELECT_DEFAULTS = { where: '', whereLanguage: 'lucene' };
const KNOWN_SELECT_KEYS = new Set(Object.keys(_returned_fields_js__WEBPACK_IMPORTED_MODULE_0__/* .SELECT_ITEM_FIELDS */ .VJ));
/**
 * Every config key is part of the normal form: the ones the manifest models, and the ones an update sends
 * back as read (returned-fields.ts), which then compare equal. A key the update cannot keep so shows as
 * a change. Defaults are dropped, so "unset" and "set to the default" compare equal.
 */
function normalizeConfig(config) {
    const displayType = String(config.displayType ?? 'line');
    const out = {};
    for (const key of Object.keys(config).sort()) {
        let value = config[key];
        if (key === 'groupBy')
            value = normalizeGroupBy(value);
        else if (key === 'sourceId' && typeof value === 'number')
            value = String(value); // ids compare as text
        else if (key === 'select')
            value = normalizeSelect(value, displayType);
        else if (key === 'markdown' && typeof value === 'string')
            value = value.replace(/\s+$/, '');
        const v = (0,_json_js__WEBPACK_IMPORTED_MODULE_1__/* .clean */ .u)(value);
        if (v === undefined)
            continue;
        if (key in CONFIG_DEFAULTS && (0,_json_js__WEBPACK_IMPORTED_MODULE_1__/* .equal */ .L)(v, CONFIG_DEFAULTS[key]))
            continue;
        out[key] = v;
    }
    // A number tile shows one value: a grouping has no effect there, and servers differ on keeping it.
    if (displayType === 'number')
        delete out.groupBy;
    // A series' number format may come back on the tile or on its select item: compare it on the tile.
    if (out.numberFormat === undefined && Array.isArray(out.select)) {
        const formats = out.select.map(s => s.numberFormat).filter(f => f !== undefined);
        if (formats.length > 0 && formats.every(f => (0,_json_js__WEBPACK_IMPORTED_MODULE_1__/* .equal */ .L)(f, formats[0]))) {
            out.numberFormat = formats[0];
            out.select = out.select.map(s => {
                const { numberFormat: _moved, ...rest } = s;
                return rest;
            });
        }
    }
    // asRatio survives only on a line, stacked_bar or table tile with exactly two series (FACTS.md).
    if (out.asRatio === true &&
        !(RATIO_TYPES.includes(displayType) && Array.isArray(out.select) && out.select.length === 2)) {
        delete out.asRatio;
    }
    return out;
}
function normalizeSelect(value, displayType) {
    if (displayType === 'search' || typeof value === 'string') {
        const fields = Array.isArray(value) ? value.map(String) : String(value ?? '').split(',');
        const joined = fields
            .map(f => f.trim())
            .filter(Boolean)
            .join(', ');
        return joined === '' ? undefined : joined;
    }
    if (!Array.isArray(value))
        return (0,_json_js__WEBPACK_IMPORTED_MODULE_1__/* .clean */ .u)(value);
    return value.map(item => {
        const out = {};
        const record = (item ?? {});
        for (const key of Object.keys(record).sort()) {
            const v = (0,_json_js__WEBPACK_IMPORTED_MODULE_1__/* .clean */ .u)(record[key]);
            if (v === undefined || !KNOWN_SELECT_KEYS.has(key))
                continue;
            if (key in SELECT_DEFAULTS && (0,_json_js__WEBPACK_IMPORTED_MODULE_1__/* .equal */ .L)(v, SELECT_DEFAULTS[key]))
                continue;
            // count takes no value expression (FACTS.md): a stray one is not part of the tile.
            if (key === 'valueExpression' && record.aggFn === 'count')
                continue;
            out[key] = v;
        }
        return out;
    });
}
/** FACTS.md: the tile's groupBy array comes back as one comma-joined string. */
function normalizeGroupBy(value) {
    const parts = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(',') : [];
    const joined = parts
        .map(p => p.trim())
        .filter(Boolean)
        .join(',');
    return joined === '' ? undefined : joined;
}
/** A live tile (config or series form) or a resolved desired tile -> its normal form. */
function normalTile(tile) {
    // CONTRACT.md puts asRatio on the tile itself: a server may return it there next to a config.
    const config = tile.config && tile.asRatio === true && tile.config.asRatio === undefined
        ? { ...tile.config, asRatio: true }
        : tile.config;
    const raw = config ?? (tile.series ? seriesToConfig(tile.series, tile.asRatio ?? undefined) : { displayType: 'line' });
    return { name: tile.name, x: tile.x, y: tile.y, w: tile.w, h: tile.h, config: normalizeConfig(raw) };
}


/***/ }),

/***/ 3660:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   e: () => (/* binding */ readLiveState)
/* harmony export */ });
async function readLiveState(client, options) {
    // The reads are only useful together: the first failure cancels the others, in flight too, so a
    // wrong server fails the run once, at once, instead of retrying its siblings for a minute.
    const siblings = new AbortController();
    const api = client.withSignal(siblings.signal);
    const read = (p) => p.catch((e) => {
        siblings.abort('another read of the live state failed');
        throw e;
    });
    const [dashboards, alerts, sources, webhooks, service] = await Promise.all([
        read(api.listDashboards()),
        read(api.listAlerts()),
        read(api.listSources()),
        read(api.listWebhooks()),
        options.service ? read(api.getService().then(r => r.service)) : Promise.resolve(undefined)
    ]);
    return { dashboards, alerts, sources, webhooks, service };
}


/***/ })

};
