export const id = 333;
export const ids = [333];
export const modules = {

/***/ 333:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  runOnline: () => (/* binding */ runOnline)
});

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
var external_node_path_default = /*#__PURE__*/__webpack_require__.n(external_node_path_);
// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 17 modules
var schemas = __webpack_require__(8816);
// EXTERNAL MODULE: ./src/log.ts
var src_log = __webpack_require__(5625);
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

;// CONCATENATED MODULE: ./src/api/errors.ts
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

;// CONCATENATED MODULE: ./src/api/schemas.ts
/**
 * What we accept from the servers. Strict about the fields we rely on, tolerant of everything else
 * (extra fields pass through and are carried over on update), because CONTRACT.md, FACTS.md and the
 * real servers each show a little more or less.
 */

const isRecord = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isListOfRecords = (v) => Array.isArray(v) && v.every(isRecord);
/** Ids are compared as strings: a server that sends numbers still works. */
const id = schemas/* union */.KCZ([schemas/* string */.YjP().min(1), schemas/* number */.aig()]).transform(String);
const rawId = schemas/* union */.KCZ([schemas/* string */.YjP().min(1), schemas/* number */.aig()]);
const sameId = (a, b) => a !== undefined && a !== null && b !== undefined && b !== null && String(a) === String(b);
const nullish = (s) => s.nullable().optional();
const LiveTile = schemas/* looseObject */._H3({
    id: rawId.optional(),
    name: schemas/* string */.YjP().default(''),
    x: schemas/* number */.aig(),
    y: schemas/* number */.aig(),
    w: schemas/* number */.aig(),
    h: schemas/* number */.aig(),
    /**
     * FACTS.md: the server returns the newer `config` form; CONTRACT.md shows `series`, and an older server
     * may echo it. Both are kept as given (checked to be a mapping or a list of mappings, not copied): the
     * normal form reads them defensively, and an update carries unknown config keys back.
     */
    config: nullish(schemas/* custom */.IeY(isRecord, 'expected a mapping')),
    series: nullish(schemas/* custom */.IeY(isListOfRecords, 'expected a list of mappings')),
    asRatio: nullish(schemas/* boolean */.zMY())
});
/** What the apply needs from a dashboard write's answer: the id and the tile ids the server assigned. */
const WrittenDashboard = schemas/* looseObject */._H3({
    id,
    tiles: schemas/* array */.YOg(schemas/* looseObject */._H3({ id: rawId.optional(), name: schemas/* string */.YjP().default('') }))
});
const LiveDashboard = schemas/* looseObject */._H3({
    id,
    name: schemas/* string */.YjP().default(''),
    tags: nullish(schemas/* array */.YOg(schemas/* string */.YjP())).transform(t => t ?? []),
    tiles: nullish(schemas/* array */.YOg(LiveTile)).transform(t => t ?? [])
});
const Channel = schemas/* looseObject */._H3({ type: schemas/* string */.YjP().optional(), webhookId: nullish(id) });
const LiveAlert = schemas/* looseObject */._H3({
    id,
    name: nullish(schemas/* string */.YjP()),
    message: nullish(schemas/* string */.YjP()),
    // CONTRACT.md does not show the alert record: only the id is relied on; the rest compares as given.
    threshold: nullish(schemas/* number */.aig()),
    thresholdMax: nullish(schemas/* number */.aig()),
    thresholdType: nullish(schemas/* string */.YjP()),
    interval: nullish(schemas/* string */.YjP()),
    source: nullish(schemas/* string */.YjP()),
    channel: nullish(Channel),
    channels: nullish(schemas/* array */.YOg(Channel)),
    dashboardId: nullish(id),
    tileId: nullish(id),
    numConsecutiveWindows: nullish(schemas/* number */.aig()),
    note: nullish(schemas/* string */.YjP())
});
const LiveSource = schemas/* looseObject */._H3({ id, name: schemas/* string */.YjP().default(''), kind: nullish(schemas/* string */.YjP()) });
const LiveWebhook = schemas/* looseObject */._H3({ id, name: schemas/* string */.YjP().default(''), service: nullish(schemas/* string */.YjP()) });
const IpEntry = schemas/* looseObject */._H3({ source: schemas/* string */.YjP(), description: nullish(schemas/* string */.YjP()) });
const LiveService = schemas/* looseObject */._H3({
    id: id.optional(),
    name: schemas/* string */.YjP().optional(),
    tier: nullish(schemas/* string */.YjP()),
    releaseChannel: nullish(schemas/* string */.YjP()),
    ipAccessList: nullish(schemas/* array */.YOg(IpEntry)),
    privateEndpointIds: nullish(schemas/* array */.YOg(schemas/* string */.YjP())),
    endpoints: nullish(schemas/* array */.YOg(schemas/* looseObject */._H3({ protocol: schemas/* string */.YjP(), enabled: nullish(schemas/* boolean */.zMY()), host: nullish(schemas/* string */.YjP()) }))),
    hasTransparentDataEncryption: nullish(schemas/* boolean */.zMY()),
    transparentDataEncryptionKeyId: nullish(schemas/* string */.YjP())
});
const SeriesPoint = schemas/* looseObject */._H3({
    ts_bucket: schemas/* union */.KCZ([schemas/* number */.aig(), schemas/* string */.YjP()]),
    group: nullish(schemas/* array */.YOg(schemas/* unknown */.L5J()))
});
const ValidateDashboardResult = schemas/* looseObject */._H3({
    valid: schemas/* boolean */.zMY(),
    errors: nullish(schemas/* array */.YOg(schemas/* looseObject */._H3({ path: schemas/* string */.YjP().default(''), message: schemas/* string */.YjP() }))),
    normalized: schemas/* unknown */.L5J().optional()
});
const PaginationMeta = schemas/* looseObject */._H3({
    total: schemas/* number */.aig().optional(),
    limit: schemas/* number */.aig().optional(),
    offset: schemas/* number */.aig().optional()
});

// EXTERNAL MODULE: ./node_modules/undici/index.js
var undici = __webpack_require__(6752);
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
var external_node_timers_promises_ = __webpack_require__(8500);
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
    sleep: (ms, signal) => (0,external_node_timers_promises_.setTimeout)(ms, undefined, { signal })
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
        this.log = options.log ?? src_log/* silentLogger */.qq;
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
        this.scrub = (0,src_log/* redactor */.$p)(secrets);
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
                throw new RequestCancelledError(base, reasonOf(inFlight.aborted ? inFlight : waiting));
            }
            if (outcome.kind === 'ok')
                return outcome.response;
            firstSent ??= outcome.sentAt;
            const details = { ...outcome.details, attempts: attempt };
            if (!outcome.retryable) {
                if (outcome.unknownOutcome)
                    throw new UnknownOutcomeError(this.scrubbed(details), this.scrub(outcome.cause));
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
                throw new RequestCancelledError(base, reasonOf(inFlight.aborted ? inFlight : waiting));
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
        return new ApiError(details, `not sent: an earlier request could not reach the server (${this.unreachable.message})`);
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
            serverMessage: serverMessageOf(body, text),
            requestId: requestIdOf(body, resHeaders),
            bodyShape: bodyShapeOf(body, text)
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
        return new ApiError(this.scrubbed(details), `failed: ${this.scrub(cause)}`);
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
    return new HttpObservabilityApi(settings, transport, extra.log ?? src_log/* silentLogger */.qq);
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
        return this.list('/dashboards', LiveDashboard);
    }
    async getDashboard(id) {
        const res = await this.send('GET', await this.item('/dashboards', id, 'dashboard id'));
        return parse(LiveDashboard, unwrapEnvelope(res.body), res);
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
        return parse(ValidateDashboardResult, unwrapEnvelope(res.body), res);
    }
    async listAlerts() {
        return this.list('/alerts', LiveAlert, true);
    }
    async getAlert(id) {
        const res = await this.send('GET', await this.item('/alerts', id, 'alert id'));
        return parse(LiveAlert, unwrapEnvelope(res.body), res);
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
        return this.list('/sources', LiveSource);
    }
    async listWebhooks() {
        try {
            return await this.list('/webhooks', LiveWebhook, true);
        }
        catch (e) {
            // The contract's managed mode has no webhooks route; the public cloud's clickstack prefix has one.
            if (e instanceof ApiError && e.status === 404 && this.mode === 'managed')
                return undefined;
            throw e;
        }
    }
    async querySeries(body) {
        const res = await this.send('POST', `${await this.base()}/charts/series`, body, true);
        return parse(schemas/* array */.YOg(SeriesPoint), unwrapEnvelope(res.body), res);
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
            service: parse(LiveService, unwrapEnvelope(res.body), res),
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
                if (!(e instanceof ApiError && e.status === 404))
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
            if (e instanceof ApiError && isResourceAbsent(e, absent[this.mode]))
                return 'absent';
            throw this.routeError(e);
        }
    }
    /** A 404 that is not a resource's "not found" names the path and, in managed mode, the prefix. */
    routeError(e) {
        if (!(e instanceof ApiError) || e.status !== 404 || e instanceof RouteNotFoundError)
            return e;
        const hint = this.mode === 'managed'
            ? `Managed prefix "${this.state.resolved}": the public cloud serves only clickstack and CONTRACT.md says observability; set managed-prefix (auto tries clickstack, then observability)`
            : 'Check api-url: it is the API base (port 8000 by default), not the web UI';
        return new RouteNotFoundError({
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
        const written = WrittenDashboard.safeParse(value);
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
            throw new ResponseShapeError({ method: 'GET', path, status: first.status }, 'meta.total', `the server announced ${total} items but its pages returned ${items.length}; refusing to plan with a partial list`);
        }
        return items;
    }
}
function pageInfo(res) {
    const body = res.body;
    const meta = body && typeof body === 'object' ? PaginationMeta.safeParse(body.meta) : undefined;
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
    throw new ResponseShapeError({ method: res.method, path: res.path, status: res.status, hint: notTheApi(res.body) }, field, issue.message);
}
/** A page where JSON was expected: the address is something else than the API. */
function notTheApi(body) {
    if (typeof body !== 'string' || !/^\s*</.test(body))
        return undefined;
    return 'The server answered with an HTML page, not the API: api-url may point at the web UI or at a proxy page. The self-hosted API listens on its own port (8000 by default); the managed API is https://api.clickhouse.cloud';
}

;// CONCATENATED MODULE: ./src/kinds/create-once.ts
/**
 * Creates are not idempotent: when a create's response is lost (UnknownOutcomeError), the server may
 * have committed it. Before trying again, re-read the collection and adopt the resource if it is there.
 * One mechanism for every kind; each kind says how to create, how to re-read and what is "ours".
 */

const ATTEMPTS = 3;
async function createOnce(ctx, spec) {
    let lastError;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        try {
            return spec.created(await spec.create());
        }
        catch (e) {
            if (!(e instanceof UnknownOutcomeError))
                throw e;
            lastError = e;
            ctx.log.warn(`${e.message}: re-reading ${spec.what} before creating "${spec.name}" again`);
            const found = spec.find(await ctx.reread(spec.what, spec.list));
            if (found)
                return {
                    ...spec.adopted(found),
                    status: 'adopted',
                    message: 'the create was committed although its response was lost'
                };
        }
    }
    throw lastError;
}

// EXTERNAL MODULE: ./src/diagnostics.ts
var src_diagnostics = __webpack_require__(4851);
;// CONCATENATED MODULE: ./src/json.ts
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

;// CONCATENATED MODULE: ./src/kinds/managed-request.ts
/**
 * Managed mode sends only the fields its request schemas declare (the managed OpenAPI, `ClickStack*`):
 * the cloud gateway refuses an undeclared top-level key with 400 "request body property can't be
 * validated" (Terraform provider, `internal/service/clickstack/dashboard_tile_ids.go`). There is no
 * `dataSource` in a managed series and no `channels` on a managed alert. Tile configs go through as
 * they are: the API behind the gateway knows them (HyperDX `utils/zod.ts`). test/unit/managed-request.test.ts
 * checks these lists against the managed OpenAPI document.
 */
const MANAGED_DASHBOARD_FIELDS = [
    'name',
    'tiles',
    'tags',
    'filters',
    'savedQuery',
    'savedQueryLanguage',
    'savedFilterValues',
    'containers'
];
const MANAGED_TILE_FIELDS = [
    'name',
    'x',
    'y',
    'w',
    'h',
    'config',
    'containerId',
    'tabId',
    'id',
    'asRatio',
    'series'
];
const AGGREGATING = ['type', 'sourceId', 'aggFn', 'level', 'field', 'alias', 'where', 'whereLanguage'];
const METRIC = ['numberFormat', 'metricDataType', 'metricName'];
/** By series `type`. */
const MANAGED_SERIES_FIELDS = {
    time: [...AGGREGATING, 'groupBy', ...METRIC, 'displayType'],
    table: [...AGGREGATING, 'groupBy', 'sortOrder', ...METRIC],
    number: [...AGGREGATING, ...METRIC],
    search: ['type', 'sourceId', 'fields', 'where', 'whereLanguage'],
    markdown: ['type', 'content']
};
const MANAGED_ALERT_FIELDS = [
    'dashboardId',
    'tileId',
    'savedSearchId',
    'groupBy',
    'threshold',
    'thresholdMax',
    'interval',
    'scheduleOffsetMinutes',
    'scheduleStartAt',
    'source',
    'thresholdType',
    'channel',
    'name',
    'message',
    'note',
    'numConsecutiveWindows'
];
const only = (value, fields) => Object.fromEntries(Object.entries(value).filter(([key]) => fields.includes(key)));
function managedDashboardBody(body) {
    const out = only(body, MANAGED_DASHBOARD_FIELDS);
    if (Array.isArray(out.tiles))
        out.tiles = out.tiles.map(t => managedTile(t));
    return out;
}
function managedTile(tile) {
    const out = only(tile, MANAGED_TILE_FIELDS);
    if (Array.isArray(out.series)) {
        out.series = out.series.map(s => {
            const series = s;
            const fields = MANAGED_SERIES_FIELDS[String(series.type)];
            return fields ? only(series, fields) : series;
        });
    }
    return out;
}
function managedAlertBody(body) {
    return only(body, MANAGED_ALERT_FIELDS);
}

;// CONCATENATED MODULE: ./src/kinds/returned-fields.ts
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
    return (0,src_diagnostics/* diagnostic */.YK)('plan', 'notice', `${what} has settings the manifest language cannot express yet (set in the UI?), kept as they are: an update sends them back unchanged: ${paths.join(', ')}`, at);
}

// EXTERNAL MODULE: ./src/manifest/path.ts
var manifest_path = __webpack_require__(7578);
// EXTERNAL MODULE: ./src/manifest/issues.ts
var issues = __webpack_require__(9597);
;// CONCATENATED MODULE: ./src/kinds/resolve.ts
/**
 * Names to ids: data sources and webhooks are written by name in manifests and resolved against the
 * live lists at plan time. An unknown or ambiguous name is a plan error at the manifest line.
 */

function resolveByName(items, name, what) {
    const matches = items.filter(i => i.name === name);
    if (matches.length === 1)
        return { id: matches[0].id };
    if (matches.length > 1) {
        return {
            error: `${what} name "${name}" is ambiguous: ${matches.length} have it (ids ${matches.map(m => m.id).join(', ')}); use the id instead`
        };
    }
    const guess = (0,issues/* didYouMean */.au)(name, items.map(i => i.name));
    const known = items.length > 0 && !guess
        ? `; known: ${items
            .slice(0, 10)
            .map(i => i.name)
            .join(', ')}`
        : '';
    return { error: `no ${what} named "${name}"${guess ? ` (did you mean "${guess}"?)` : known}` };
}
function resolveById(items, id, what) {
    return items.some(i => i.id === id) ? { id } : { error: `no ${what} with id "${id}"` };
}

;// CONCATENATED MODULE: ./src/kinds/operations.ts
/** The dashboard exists with its tiles (created or updated): its alerts can be written. */
const readyToken = (desiredName) => `dashboard-ready:${desiredName}`;
/** The alerts this run deletes on a live dashboard are gone: the dashboard itself may go. */
const alertsClearedToken = (liveId) => `alerts-cleared:${liveId}`;
/** One request at a time per dashboard, alerts on it included: the server has no concurrency control. */
const dashboardLock = (key) => `dashboard:${key}`;
/** One delete request; a resource that is already gone counts as deleted, with `alreadyGone` as its message. */
function deleteOperation(op) {
    return {
        address: op.address,
        label: op.label,
        lock: op.lock,
        provides: op.provides ?? [],
        after: op.after ?? [],
        run: async (ctx) => {
            const outcome = await op.request(ctx.api, op.id);
            return {
                status: 'applied',
                id: op.id,
                message: outcome === 'absent' ? op.alreadyGone : undefined
            };
        }
    };
}

;// CONCATENATED MODULE: ./src/kinds/alert.ts
/**
 * Alerts. An alert on a dashboard this stack owns is owned too. Identity is the alert's name among
 * owned alerts. An alert whose tile goes away is deleted by the server (FACTS.md), so such an alert
 * is replaced (deleted first, created on its new tile after the dashboard is updated), and an orphan on
 * such a tile is shown as deleted by the server whether or not prune is on.
 */









const alertDeletedToken = (liveId) => `alert-deleted:${liveId}`;
const alertKind = {
    kind: 'Alert',
    desired(ctx) {
        return ctx.manifests.alerts.map(located => {
            const { spec, doc } = located;
            const { webhookId, label } = resolveWebhook(located, ctx);
            return {
                name: spec.name,
                address: `Alert/${spec.name}`,
                // A getter: positions are built only for what the plan shows.
                get source() {
                    return doc.locate(['name']);
                },
                value: { spec, located, webhookId, webhookLabel: label }
            };
        });
    },
    pair(desired, ctx) {
        const owned = ownedAlerts(ctx).sort((a, b) => a.id.localeCompare(b.id));
        const ownedByName = new Map();
        for (const a of owned)
            ownedByName.set(a.name ?? '', [...(ownedByName.get(a.name ?? '') ?? []), a]);
        const used = new Set();
        const pairs = desired.map(d => {
            const target = ctx.dashboards.desired.get(d.value.spec.dashboard);
            const candidates = (ownedByName.get(d.name) ?? []).filter(a => !used.has(a.id));
            // Among duplicates (made by hand), prefer the one already on the right tile.
            const live = candidates.find(a => a.dashboardId === target?.liveId && sameId(a.tileId, target?.tileIds.get(d.value.spec.tile))) ?? candidates[0];
            if (live)
                used.add(live.id);
            return { desired: d, live };
        });
        return { pairs, orphans: owned.filter(a => !used.has(a.id)) };
    },
    normalDesired(d, ctx, live) {
        const s = d.value.spec;
        const carried = live ? carriedAlertFields(live, d.value.webhookId, ctx.settings.mode) : {};
        return normal({
            name: s.name,
            dashboard: s.dashboard,
            tile: s.tile,
            source: s.source ?? 'tile',
            threshold: s.threshold,
            // HyperDX keeps the stored thresholdMax when a PUT omits it, and refuses null: it stays.
            thresholdMax: s.thresholdMax ?? live?.thresholdMax,
            thresholdType: s.thresholdType,
            interval: s.interval,
            webhook: d.value.webhookLabel,
            otherChannels: carried.channels?.slice(1).map(c => webhookLabel(ctx, c.webhookId ?? undefined)),
            message: s.message,
            numConsecutiveWindows: s.numConsecutiveWindows,
            note: s.note
        });
    },
    normalLive(l, ctx) {
        const dash = l.dashboardId ? ctx.dashboards.live.get(l.dashboardId) : undefined;
        const liveDash = l.dashboardId ? liveDashboardsById(ctx).get(l.dashboardId) : undefined;
        const tile = liveDash?.tiles.find(t => sameId(t.id, l.tileId));
        const webhookId = l.channel?.webhookId ?? l.channels?.[0]?.webhookId ?? undefined;
        return normal({
            name: l.name ?? '',
            // Compared by the name the dashboard will have, so a dashboard rename does not show on its alerts.
            dashboard: dash?.desiredName ?? liveDash?.name ?? l.dashboardId ?? undefined,
            tile: tile?.name ?? l.tileId ?? undefined,
            source: l.source ?? 'tile',
            threshold: l.threshold,
            thresholdMax: l.thresholdMax,
            thresholdType: l.thresholdType,
            interval: l.interval,
            webhook: webhookLabel(ctx, webhookId ?? undefined),
            otherChannels: l.channels?.slice(1).map(c => webhookLabel(ctx, c.webhookId ?? undefined)),
            message: l.message,
            numConsecutiveWindows: l.numConsecutiveWindows,
            note: l.note,
            // Saved-search alerts are not in the manifest language: a live value is a difference.
            savedSearchId: l.savedSearchId,
            groupBy: l.groupBy
        });
    },
    liveName: l => l.name ?? l.id,
    liveId: l => l.id,
    refine(pc, ctx) {
        const { change, desired, live } = pc;
        if (!live)
            return;
        if (desired)
            noteAlertSettings(pc.change, desired, live, ctx);
        const dash = live.dashboardId ? ctx.dashboards.live.get(live.dashboardId) : undefined;
        const tileGoes = dash !== undefined &&
            (dash.deleted ||
                (live.tileId !== undefined && live.tileId !== null && dash.droppedTileIds.has(live.tileId)));
        if (!desired) {
            if (tileGoes) {
                // Prune or not, the server deletes it with its tile or dashboard.
                change.deferred = undefined;
                change.droppedByServer = true;
                change.notes.push(dash.deleted
                    ? 'its dashboard is deleted, and the server deletes its alerts with it'
                    : 'its tile goes away, and the server deletes the alerts of a removed tile');
            }
            return;
        }
        const target = ctx.dashboards.desired.get(desired.value.spec.dashboard);
        const sameTile = target?.liveId !== undefined &&
            target.liveId === live.dashboardId &&
            sameId(target.tileIds.get(desired.value.spec.tile), live.tileId);
        if (tileGoes || !sameTile) {
            change.action = 'replace';
            change.droppedByServer = tileGoes;
            change.notes.push(tileGoes
                ? `the server deletes this alert when its current tile goes away; it is created again on tile "${desired.value.spec.tile}" (new alert id)`
                : `it moves to tile "${desired.value.spec.tile}" of "${desired.value.spec.dashboard}": deleted and created again there (new alert id)`);
        }
    },
    operations(pc, octx) {
        const { change, desired, live } = pc;
        if (change.action === 'noop' || change.deferred)
            return [];
        const ops = [];
        if (live && (change.action === 'delete' || change.action === 'replace')) {
            const liveDash = live.dashboardId ?? undefined;
            ops.push(deleteOperation({
                address: change.address,
                label: 'delete',
                id: live.id,
                lock: liveDash ? dashboardLock(liveDash) : undefined,
                provides: [alertDeletedToken(live.id), ...(liveDash ? [alertsClearedToken(liveDash)] : [])],
                request: (api, id) => api.deleteAlert(id),
                alreadyGone: 'already deleted by the server'
            }));
        }
        if (!desired || change.action === 'delete')
            return ops;
        const dashName = desired.value.spec.dashboard;
        const lock = dashboardLock(octx.dashboards.desired.get(dashName)?.liveId ?? dashName);
        if (live && change.action === 'update') {
            ops.push({
                address: change.address,
                label: 'update',
                lock,
                provides: [],
                after: [readyToken(dashName)],
                run: async (ctx) => {
                    const res = await ctx.api.updateAlert(live.id, alertBody(desired.value, ctx, octx, live));
                    return { status: 'applied', id: res.id };
                }
            });
        }
        else {
            ops.push({
                address: change.address,
                label: 'create',
                lock,
                provides: [],
                // A replace creates only once the old alert is gone: never two alerts of one name.
                after: [readyToken(dashName), ...(live ? [alertDeletedToken(live.id)] : [])],
                // A replace keeps what the old alert had that the manifest does not model.
                run: ctx => createAlert(ctx, desired.value, octx, live)
            });
        }
        return ops;
    }
};
const dashboardIndexes = new WeakMap();
/** Live dashboards by id, built once per plan. */
function liveDashboardsById(ctx) {
    let index = dashboardIndexes.get(ctx);
    if (!index)
        dashboardIndexes.set(ctx, (index = new Map(ctx.live.dashboards.map(d => [d.id, d]))));
    return index;
}
function ownedAlerts(ctx) {
    return ctx.live.alerts.filter(a => a.dashboardId && ctx.dashboards.live.has(a.dashboardId));
}
/** A webhook compares by id and shows by name. */
function webhookLabel(ctx, id) {
    if (id === undefined)
        return undefined;
    const hook = ctx.live.webhooks?.find(w => w.id === id);
    return hook?.name ? `${hook.name} (${id})` : id;
}
function resolveWebhook(located, ctx) {
    const { webhook, webhookId } = located.spec.channel;
    const hooks = ctx.live.webhooks?.map(w => ({ id: w.id, name: w.name }));
    const field = webhook !== undefined ? 'webhook' : 'webhookId';
    const report = (message) => ctx.report((0,src_diagnostics/* diagnostic */.YK)('plan', 'error', message, {
        ...located.doc.locate(['channel', field]),
        field: (0,manifest_path/* formatPath */.j)(['channel', field])
    }));
    if (hooks === undefined) {
        if (webhookId !== undefined)
            return { webhookId, label: webhookId };
        report('this API cannot list webhooks (managed mode with the `observability` prefix): use `channel.webhookId`, or `managed-prefix: clickstack`');
        return { label: `unresolved:${webhook}` };
    }
    const resolution = webhook !== undefined
        ? resolveByName(hooks, webhook, 'webhook')
        : resolveById(hooks, webhookId, 'webhook');
    if ('error' in resolution) {
        report(resolution.error);
        return { label: `unresolved:${webhook ?? webhookId}` };
    }
    return { webhookId: resolution.id, label: webhookLabel(ctx, resolution.id) ?? resolution.id };
}
/** Absent, null, '' and the server's defaults compare equal (numConsecutiveWindows defaults to 1). */
function normal(o) {
    if (o.numConsecutiveWindows === 1)
        o.numConsecutiveWindows = undefined;
    return (clean(o) ?? {});
}
/**
 * What an update (or a replace) sends back as read: the schedule, and channels after the first (added in
 * the UI) after ours, since `channel` must be the first of `channels` when both are sent. The managed
 * request schema has no `channels`: there only `channel` is sent, and the plan shows the others going.
 */
function carriedAlertFields(live, webhookId, mode) {
    const { channels, ...rest } = carriedFields(live, {}, ALERT_FIELDS, () => false);
    const others = (channels ?? [])
        .slice(1)
        .filter(c => c.webhookId !== webhookId);
    if (mode === 'managed' || others.length === 0)
        return rest;
    return { ...rest, channels: [{ type: 'webhook', webhookId }, ...others] };
}
function alertBody(d, ctx, octx, live) {
    const s = d.spec;
    const dashName = s.dashboard;
    const fromRun = ctx.facts.get(readyToken(dashName));
    const planned = octx.dashboards.desired.get(dashName);
    const dashboardId = fromRun?.id ?? planned?.liveId;
    const tileId = fromRun?.tileIds?.get(s.tile) ?? planned?.tileIds.get(s.tile);
    if (!dashboardId || !tileId)
        throw new Error(`dashboard "${dashName}" or its tile "${s.tile}" has no id yet`);
    const mode = octx.settings.mode;
    const body = {
        ...(live ? carriedAlertFields(live, d.webhookId, mode) : {}),
        dashboardId,
        tileId,
        source: s.source ?? 'tile',
        name: s.name,
        threshold: s.threshold,
        thresholdType: s.thresholdType,
        interval: s.interval,
        channel: { type: 'webhook', webhookId: d.webhookId }
    };
    if (s.thresholdMax !== undefined)
        body.thresholdMax = s.thresholdMax;
    if (s.message !== undefined)
        body.message = s.message;
    if (s.numConsecutiveWindows !== undefined)
        body.numConsecutiveWindows = s.numConsecutiveWindows;
    if (s.note !== undefined)
        body.note = s.note;
    return mode === 'managed' ? managedAlertBody(body) : body;
}
/** Settings the manifest cannot express: dropped ones get a note, kept ones a notice on every plan. */
function noteAlertSettings(change, desired, live, ctx) {
    const carried = carriedAlertFields(live, desired.value.webhookId, ctx.settings.mode);
    const kept = Object.keys(carried).filter(k => clean(carried[k]) !== undefined);
    if (ctx.settings.mode === 'managed' && (live.channels?.length ?? 0) > 1) {
        change.notes.push("it has more than one channel (set in the UI); the managed API takes only `channel`, so an update keeps only the manifest's");
    }
    // Only then the manifest position: positions cost a parse.
    if (kept.length > 0)
        ctx.report(keptSettingsNotice(`alert "${desired.name}"`, kept, desired.source));
}
/** Duplicate-safe: after a lost response, re-read the alerts and adopt ours if it was committed. */
function createAlert(ctx, d, octx, replaced) {
    const body = alertBody(d, ctx, octx, replaced);
    return createOnce(ctx, {
        what: 'alerts',
        name: d.spec.name,
        create: () => ctx.api.createAlert(body),
        created: c => ({ status: 'applied', id: c.id }),
        list: () => ctx.api.listAlerts(),
        find: all => all.find(a => a.name === d.spec.name &&
            a.dashboardId === body.dashboardId &&
            sameId(a.tileId, body.tileId)),
        adopted: found => ({ status: 'adopted', id: found.id })
    });
}

;// CONCATENATED MODULE: ./src/kinds/dashboard/desired.ts
/**
 * What the manifests ask for: each dashboard with its tiles as the server will receive them, data
 * sources resolved from names to ids (an unknown name is a plan error at its line).
 */



function desiredDashboards(ctx) {
    return ctx.manifests.dashboards.map(located => {
        const { spec, doc } = located;
        const tiles = (spec.tiles ?? []).map((tile, i) => ({
            spec: tile,
            body: tileBody(tile, ['tiles', i], located, ctx)
        }));
        return {
            name: spec.name,
            address: `Dashboard/${spec.name}`,
            // A getter: positions are built only for what the plan shows.
            get source() {
                return doc.locate(['name']);
            },
            value: { spec, located, tiles }
        };
    });
}
/** The tile as the server will receive it: the manifest's form, with data sources resolved to ids. */
function tileBody(tile, path, located, ctx) {
    const body = { name: tile.name, x: tile.x, y: tile.y, w: tile.w, h: tile.h };
    if (tile.series) {
        if (tile.asRatio !== undefined)
            body.asRatio = tile.asRatio;
        body.series = tile.series.map((s, i) => seriesBody(s, resolveSource(s, [...path, 'series', i], located, ctx)));
    }
    else if (tile.config) {
        body.config = configBody(tile.config, resolveSource(tile.config, [...path, 'config'], located, ctx));
    }
    return body;
}
function resolveSource(ref, path, located, ctx) {
    const { source, sourceId } = ref;
    if (source === undefined && sourceId === undefined)
        return undefined;
    const sources = ctx.live.sources.map(s => ({ id: s.id, name: s.name }));
    const field = source !== undefined ? 'source' : 'sourceId';
    const resolution = source !== undefined
        ? resolveByName(sources, source, 'data source')
        : resolveById(sources, sourceId, 'data source');
    if ('id' in resolution)
        return resolution.id;
    const at = located.doc.locate([...path, field]);
    ctx.report((0,src_diagnostics/* diagnostic */.YK)('plan', 'error', resolution.error, { ...at, field: (0,manifest_path/* formatPath */.j)([...path, field]) }));
    return `unresolved:${source ?? sourceId}`;
}
function seriesBody(s, sourceId) {
    if (s.type === 'markdown')
        return { type: 'markdown', content: s.content };
    const { source: _source, sourceId: _id, ...rest } = s;
    const body = { ...rest };
    if (sourceId !== undefined)
        body.sourceId = sourceId;
    // The published spec requires where, whereLanguage and (time, table) groupBy; send their defaults.
    body.where = s.where ?? '';
    body.whereLanguage = s.whereLanguage ?? 'lucene';
    if ((s.type === 'time' || s.type === 'table') && s.groupBy === undefined)
        body.groupBy = [];
    return body;
}
function configBody(c, sourceId) {
    const { source: _source, sourceId: _id, ...rest } = c;
    const body = { ...rest };
    if (sourceId !== undefined)
        body.sourceId = sourceId;
    if (Array.isArray(body.groupBy))
        body.groupBy = body.groupBy.join(',');
    if (c.displayType === 'search') {
        if (Array.isArray(body.select))
            body.select = body.select.join(', ');
        // The managed API requires it on a search config (ClickStackSearchChartConfig); lucene is the default.
        body.whereLanguage = c.whereLanguage ?? 'lucene';
    }
    return body;
}

// EXTERNAL MODULE: ./src/manifest/rules.ts + 1 modules
var rules = __webpack_require__(6364);
// EXTERNAL MODULE: ./src/manifest/vocabulary.ts
var vocabulary = __webpack_require__(7817);
;// CONCATENATED MODULE: ./src/kinds/tile-normal-form.ts
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
const KNOWN_SELECT_KEYS = new Set(Object.keys(SELECT_ITEM_FIELDS));
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
        const v = clean(value);
        if (v === undefined)
            continue;
        if (key in CONFIG_DEFAULTS && equal(v, CONFIG_DEFAULTS[key]))
            continue;
        out[key] = v;
    }
    // A number tile shows one value: a grouping has no effect there, and servers differ on keeping it.
    if (displayType === 'number')
        delete out.groupBy;
    // A series' number format may come back on the tile or on its select item: compare it on the tile.
    if (out.numberFormat === undefined && Array.isArray(out.select)) {
        const formats = out.select.map(s => s.numberFormat).filter(f => f !== undefined);
        if (formats.length > 0 && formats.every(f => equal(f, formats[0]))) {
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
        return clean(value);
    return value.map(item => {
        const out = {};
        const record = (item ?? {});
        for (const key of Object.keys(record).sort()) {
            const v = clean(record[key]);
            if (v === undefined || !KNOWN_SELECT_KEYS.has(key))
                continue;
            if (key in SELECT_DEFAULTS && equal(v, SELECT_DEFAULTS[key]))
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

;// CONCATENATED MODULE: ./src/kinds/dashboard/tiles.ts



const isAlertable = (type) => vocabulary/* ALERTABLE_DISPLAY_TYPES */.Ei.includes(type ?? '');
/** Live tiles by name; a second tile of the same name (made in the UI) gets a distinct key. */
function keyedLiveTiles(l) {
    const out = new Map();
    for (const t of l.tiles) {
        let key = t.name;
        for (let n = 2; out.has(key); n++)
            key = `${t.name} (${n})`;
        out.set(key, t);
    }
    return out;
}
/** Tile ids by tile name, as the server sent them. */
function tileIdsOf(d) {
    const ids = new Map();
    for (const [key, t] of keyedLiveTiles(d))
        if (t.id !== undefined)
            ids.set(key, t.id);
    return ids;
}
function liveDisplayType(t) {
    return normalTile(asNormalInput(t)).config.displayType;
}
/** A tile's layout and config in one flat record: how tiles compare. */
function flatTile(t) {
    const n = normalTile(asNormalInput(t));
    return { x: n.x, y: n.y, w: n.w, h: n.h, ...n.config };
}
function asNormalInput(t) {
    return {
        name: String(t.name ?? ''),
        x: Number(t.x),
        y: Number(t.y),
        w: Number(t.w),
        h: Number(t.h),
        config: t.config ?? undefined,
        series: t.series ?? undefined,
        asRatio: t.asRatio ?? undefined
    };
}
/** Same tile apart from its name (for spotting tile renames). */
function sameContent(a, b) {
    return equal(a, b);
}

;// CONCATENATED MODULE: ./src/kinds/dashboard/facts.ts


function recordDashboardFacts(changes, ctx) {
    for (const { change, desired, live } of changes) {
        // Desired tiles that can carry alerts: a live tile not among them goes away, or loses its alerts.
        const alertable = new Set(desired?.value.tiles.filter(t => isAlertable((0,rules/* tileDisplayType */.PR)(t.spec))).map(t => t.spec.name) ?? []);
        if (desired) {
            ctx.dashboards.desired.set(desired.name, {
                address: change.address,
                liveId: live?.id,
                tileIds: live ? tileIdsOf(live) : new Map()
            });
        }
        if (!live)
            continue;
        const droppedTileIds = new Set();
        if (desired) {
            for (const [key, t] of keyedLiveTiles(live))
                if (t.id !== undefined && !alertable.has(key))
                    droppedTileIds.add(String(t.id));
        }
        ctx.dashboards.live.set(live.id, {
            address: change.address,
            desiredName: desired?.name,
            deleted: change.action === 'delete' && !change.deferred,
            droppedTileIds
        });
    }
}

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
;// CONCATENATED MODULE: ./src/kinds/ownership.ts
/**
 * The ownership tag: how a stack recognizes its own dashboards. It must fit the server's 32-character
 * tag limit (FACTS.md), so a long stack name is shortened with a hash that keeps stacks apart.
 */



function ownershipTag(stack) {
    const plain = `${rules/* OWNERSHIP_TAG_PREFIX */.yJ}${stack}`;
    if (plain.length <= vocabulary/* LIMITS */.b1.tagLength)
        return plain;
    const hash = (0,external_node_crypto_.createHash)('sha256').update(stack).digest('hex').slice(0, 8);
    const room = vocabulary/* LIMITS */.b1.tagLength - rules/* OWNERSHIP_TAG_PREFIX */.yJ.length - hash.length - 1;
    return `${rules/* OWNERSHIP_TAG_PREFIX */.yJ}${stack.slice(0, room)}~${hash}`;
}
const isOwnershipTag = (tag) => tag.startsWith(rules/* OWNERSHIP_TAG_PREFIX */.yJ);
/** The user's tags as a sorted set, without any stack's ownership tag. */
function userTags(tags) {
    return [...new Set(tags.filter(t => !isOwnershipTag(t)))].sort();
}

;// CONCATENATED MODULE: ./src/plan/diff.ts
/**
 * Field-level differences between two normal forms: one entry per leaf that differs, with the path a
 * reviewer can find in the manifest (`tiles["Errors"].select[0].where`).
 */

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/**
 * `byName` lists the paths whose children are keyed by a user-chosen name (tiles by tile name): those
 * keys are always written as `["name"]`.
 */
function diffValues(before, after, byName = new Set(), path = '') {
    if (equal(before, after))
        return [];
    if (isObject(before) && isObject(after)) {
        const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
        return keys.flatMap(k => diffValues(before[k], after[k], byName, joinKey(path, k, byName.has(path))));
    }
    if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
        return before.flatMap((b, i) => diffValues(b, after[i], byName, `${path}[${i}]`));
    }
    const change = { path: path || '(root)' };
    if (before !== undefined)
        change.before = before;
    if (after !== undefined)
        change.after = after;
    return [change];
}
function joinKey(path, key, forceBrackets = false) {
    if (!forceBrackets && IDENTIFIER.test(key))
        return path ? `${path}.${key}` : key;
    return `${path}[${JSON.stringify(key)}]`;
}
const isObject = (v) => v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);

;// CONCATENATED MODULE: ./src/kinds/dashboard/carry.ts




/** Dashboard fields the update sends back as read (filters, saved query, containers, ...). */
function carriedDashboardFields(live) {
    return carriedFields(live, {}, DASHBOARD_FIELDS, () => false);
}
/** The tile as an update of `live` sends it. */
function tileAsSent(body, live) {
    if (!live)
        return body;
    // The id exactly as the server sent it: the server matches tiles by id.
    const tile = {
        ...(live.id !== undefined ? { id: live.id } : {}),
        ...body,
        ...carriedFields(live, body, TILE_FIELDS, () => false)
    };
    if (!live.config)
        return tile;
    const config = body.config ?? seriesAsConfig(body);
    if (!config)
        return tile;
    const extra = carriedConfig(live.config, config);
    if (Object.keys(extra).length === 0)
        return tile;
    // A series tile has no room for config settings: it is sent in the config form the server stores.
    const { series: _series, asRatio: _asRatio, ...rest } = tile;
    return { ...rest, config: { ...extra, ...config } };
}
/** Config keys of the live tile that an update with `sent` keeps, and why each other one goes. */
function carriedConfig(live, sent) {
    const want = normalizeConfig(sent);
    const have = normalizeConfig(live);
    return carriedFields(live, sent, TILE_CONFIG_FIELDS, f => !equal(want[f], have[f]), UNKNOWN_CONFIG_FIELD);
}
/**
 * A series tile in the config form the server stores it in (FACTS.md), when that says exactly the same:
 * a table's `sortOrder` has no config equivalent the API returns, so such a tile stays in series form.
 */
function seriesAsConfig(body) {
    const series = body.series;
    if (!Array.isArray(series) || series.some(s => s.sortOrder !== undefined))
        return undefined;
    const config = seriesToConfig(series, body.asRatio);
    const groupBy = normalizeGroupBy(config.groupBy);
    if (groupBy === undefined || config.displayType === 'number')
        delete config.groupBy;
    else
        config.groupBy = groupBy;
    return config;
}
/**
 * Settings the server holds that the manifest language cannot express and that the update keeps (or a
 * plan would keep): their paths, for the plan's "kept as set in the UI" notice. Only the fields the real
 * servers are known to return are listed, not whatever else a server sends.
 */
function keptSettings(live, tiles) {
    const paths = Object.keys(carriedDashboardFields(live)).filter(k => clean(live[k]) !== undefined);
    for (const t of tiles) {
        if (!t.live)
            continue;
        const at = joinKey('tiles', t.name, true);
        for (const key of Object.keys(carriedFields(t.live, {}, TILE_FIELDS, () => false)))
            paths.push(joinKey(at, key));
        const config = (t.sent.config ?? {});
        for (const key of Object.keys(config)) {
            const declared = TILE_CONFIG_FIELDS[key]?.treatment === 'carried';
            if (declared && clean(config[key]) !== undefined && t.live.config?.[key] !== undefined)
                paths.push(joinKey(at, key));
        }
    }
    return paths;
}
/**
 * For a tile setting the update removes although the manifest never mentions it, the reason in words:
 * raw SQL the manifest cannot express, or a UI setting that depends on something the update changes.
 */
function droppedSettingNotes(name, sent, live) {
    const liveConfig = live?.config;
    if (!liveConfig)
        return [];
    const sentConfig = sent.config ?? seriesAsConfig(sent) ?? {};
    const want = normalizeConfig(sentConfig);
    const have = normalizeConfig(liveConfig);
    const notes = new Set();
    for (const [key, value] of Object.entries(liveConfig)) {
        if (clean(value) === undefined || key in sentConfig)
            continue;
        const rule = TILE_CONFIG_FIELDS[key] ?? UNKNOWN_CONFIG_FIELD;
        if (rule.unexpressible) {
            notes.add(`tile "${name}" is ${rule.unexpressible}`);
        }
        else if (rule.treatment === 'carried') {
            const changed = (rule.keptWhileSame ?? []).filter(f => !equal(want[f], have[f]));
            if (changed.length > 0)
                notes.add(`tile "${name}": ${key} (set in the UI; the manifest language cannot express it yet) is removed by this update, because the update changes the tile's ${changed.join(' and ')}`);
        }
    }
    return [...notes];
}

;// CONCATENATED MODULE: ./src/kinds/dashboard/normal.ts



/** The dashboard as the planned request leaves it: an update sends back what the manifest does not model. */
function normalDesired(d, ctx, live) {
    const liveTiles = live ? keyedLiveTiles(live) : undefined;
    const tiles = {};
    for (const t of d.value.tiles)
        tiles[t.spec.name] = flatTile(tileAsSent(t.body, liveTiles?.get(t.spec.name)));
    return withoutUndefined({
        name: d.name,
        owner: ctx.settings.ownershipTag,
        tags: userTags(d.value.spec.tags ?? []),
        tiles
    });
}
function normalLive(l, ctx) {
    const tiles = {};
    for (const [key, t] of keyedLiveTiles(l))
        tiles[key] = flatTile(t);
    const owner = l.tags.includes(ctx.settings.ownershipTag)
        ? ctx.settings.ownershipTag
        : l.tags.find(isOwnershipTag);
    return withoutUndefined({ name: l.name, owner, tags: userTags(l.tags), tiles });
}
function withoutUndefined(o) {
    return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

;// CONCATENATED MODULE: ./src/kinds/dashboard/notes.ts
/**
 * What a dashboard update does besides what its fields say, for the reviewer: the alerts the server
 * deletes with their tiles (FACTS.md: the alerts of a tile that goes away or can no longer carry alerts),
 * UI settings the update removes or keeps, and the PromQL tiles no client of this API can protect.
 */






function refineDashboard(pc, ctx) {
    noteTileConsequences(pc, ctx);
    noteUnmanagedSettings(pc, ctx);
    warnOfPromql(pc, ctx);
}
/**
 * Settings the manifest language cannot express: the ones an update removes get a note each; the ones it
 * sends back as read are listed in a notice on every plan, so a UI edit of them is visible too.
 */
function noteUnmanagedSettings(pc, ctx) {
    const { change, desired, live } = pc;
    if (!desired || !live)
        return;
    const liveTiles = keyedLiveTiles(live);
    const tiles = desired.value.tiles.map(t => {
        const before = liveTiles.get(t.spec.name);
        return { name: t.spec.name, sent: tileAsSent(t.body, before), live: before };
    });
    for (const t of tiles)
        change.notes.push(...droppedSettingNotes(t.name, t.sent, t.live));
    const kept = keptSettings(live, tiles);
    // Only then the manifest position: positions cost a parse.
    if (kept.length > 0)
        ctx.report(keptSettingsNotice(`dashboard "${desired.name}"`, kept, desired.source));
}
/**
 * FACTS.md: the API leaves PromQL tiles out of what it returns, and a PUT replaces the whole tile list,
 * so an update deletes them. A dashboard this stack created has none unless someone added them in the
 * UI; one it adopts may well have some.
 */
function warnOfPromql(pc, ctx) {
    const { change, desired, live } = pc;
    if (!desired || !live || change.action !== 'update')
        return;
    const { spec } = desired.value;
    const adopted = spec.adopt === true || spec.id !== undefined || !live.tags.includes(ctx.settings.ownershipTag);
    if (!adopted)
        return;
    ctx.report((0,src_diagnostics/* diagnostic */.YK)('plan', 'warning', `dashboard "${desired.name}" was not created by this stack: tiles this API cannot show (PromQL) are removed by an update. The API leaves PromQL tiles out of what it returns and an update replaces the whole tile list, so no client of this API can protect them; this plan cannot see whether it has any`, desired.source));
}
function noteTileConsequences(pc, ctx) {
    const { change, desired, live } = pc;
    if (!desired || !live)
        return;
    const desiredByName = new Map(desired.value.tiles.map(t => [t.spec.name, t]));
    const liveTiles = keyedLiveTiles(live);
    const dropped = [...liveTiles].filter(([key]) => !desiredByName.has(key));
    const added = desired.value.tiles.filter(t => !liveTiles.has(t.spec.name));
    const alertsOn = (tileId) => tileId !== undefined
        ? ctx.live.alerts
            .filter(a => a.dashboardId === live.id && sameId(a.tileId, tileId))
            .map(a => `"${a.name ?? a.id}"`)
        : [];
    for (const [key, tile] of dropped) {
        const twin = added.find(a => sameContent(flatTile(a.body), flatTile(tile)));
        const alerts = alertsOn(tile.id);
        const alertText = alerts.length > 0
            ? `; the server deletes its alert${alerts.length > 1 ? 's' : ''} ${alerts.join(', ')}`
            : '';
        if (twin) {
            change.notes.push(`tile "${key}" renamed to "${twin.spec.name}": tiles are matched by name, so "${twin.spec.name}" is a new tile with a new id${alertText}`);
        }
        else if (alerts.length > 0) {
            change.notes.push(`tile "${key}" is removed${alertText}`);
        }
    }
    for (const t of desired.value.tiles) {
        const before = liveTiles.get(t.spec.name);
        if (!before || isAlertable((0,rules/* tileDisplayType */.PR)(t.spec)) || !isAlertable(liveDisplayType(before)))
            continue;
        const alerts = alertsOn(before.id);
        if (alerts.length > 0) {
            change.notes.push(`tile "${t.spec.name}" becomes a ${(0,rules/* tileDisplayType */.PR)(t.spec)} tile, which cannot carry alerts: the server deletes ${alerts.join(', ')}`);
        }
    }
}

;// CONCATENATED MODULE: ./src/kinds/dashboard/bodies.ts




function createBody(d, tag, mode) {
    return forMode(mode, {
        name: d.spec.name,
        tags: [...userTags(d.spec.tags ?? []), tag],
        tiles: d.tiles.map(t => ({ ...t.body }))
    });
}
function updateBody(d, live, tag, mode) {
    const liveTiles = keyedLiveTiles(live);
    return forMode(mode, {
        // A PUT replaces what it is sent: fields the manifest does not manage go back as they are.
        ...carriedDashboardFields(live),
        name: d.spec.name,
        // The user's tags and this stack's: a dashboard has one owner, so adopting one from another stack
        // removes that stack's tag (the plan says so).
        tags: [...new Set([...userTags(d.spec.tags ?? []), tag])],
        tiles: d.tiles.map(t => tileAsSent({ ...t.body }, liveTiles.get(t.spec.name)))
    });
}
const forMode = (mode, body) => mode === 'managed' ? managedDashboardBody(body) : body;

;// CONCATENATED MODULE: ./src/kinds/dashboard/operations.ts




function dashboardOperations(pc, octx) {
    const { change, desired, live } = pc;
    if (change.action === 'noop' || change.deferred)
        return [];
    if (change.action === 'delete' && live) {
        return [
            deleteOperation({
                address: change.address,
                label: 'delete',
                id: live.id,
                lock: dashboardLock(live.id),
                after: [alertsClearedToken(live.id)],
                request: (api, id) => api.deleteDashboard(id),
                alreadyGone: 'already gone'
            })
        ];
    }
    if (!desired)
        return [];
    const name = desired.name;
    const ops = [];
    if (live) {
        ops.push({
            address: change.address,
            label: 'update',
            lock: dashboardLock(live.id),
            provides: [readyToken(name)],
            after: [alertsClearedToken(live.id)],
            run: async (ctx) => {
                const updated = await ctx.api.updateDashboard(live.id, updateBody(desired.value, live, octx.settings.ownershipTag, octx.settings.mode));
                return { status: 'applied', id: updated.id, tileIds: tileIdsOf(updated) };
            }
        });
    }
    else {
        ops.push({
            address: change.address,
            label: 'create',
            lock: dashboardLock(name),
            provides: [readyToken(name)],
            after: [],
            run: ctx => createDashboard(ctx, desired.value, name)
        });
    }
    return ops;
}
/**
 * Creates without ever creating twice: when the response is lost (UnknownOutcomeError), re-read the
 * dashboards and adopt ours if the server did commit it, before trying again.
 */
function createDashboard(ctx, d, name) {
    const body = createBody(d, ctx.settings.ownershipTag, ctx.settings.mode);
    return createOnce(ctx, {
        what: 'dashboards',
        name,
        create: () => ctx.api.createDashboard(body),
        created: c => ({ status: 'applied', id: c.id, tileIds: tileIdsOf(c) }),
        list: () => ctx.api.listDashboards(),
        find: all => all.find(l => l.name === name && l.tags.includes(ctx.settings.ownershipTag)),
        adopted: found => ({ status: 'adopted', id: found.id, tileIds: tileIdsOf(found) })
    });
}

;// CONCATENATED MODULE: ./src/kinds/dashboard/pair.ts



function pairDashboards(desired, ctx) {
    const tag = ctx.settings.ownershipTag;
    const all = [...ctx.live.dashboards].sort((a, b) => a.id.localeCompare(b.id));
    const owned = all.filter(d => d.tags.includes(tag));
    const byId = new Map(all.map(d => [d.id, d]));
    const used = new Set();
    const result = { pairs: [], orphans: [] };
    const take = (d) => {
        used.add(d.id);
        return d;
    };
    // Indexed by name: pairing stays linear in the number of dashboards.
    const byName = (list) => {
        const index = new Map();
        for (const d of list)
            index.set(d.name, [...(index.get(d.name) ?? []), d]);
        return index;
    };
    const ownedByName = byName(owned);
    const allByName = byName(all);
    const firstUnused = (index, name) => index.get(name)?.find(d => !used.has(d.id));
    const pending = [];
    const planError = (d, path, message) => ctx.report((0,src_diagnostics/* diagnostic */.YK)('plan', 'error', message, { ...d.value.located.doc.locate(path), field: (0,manifest_path/* formatPath */.j)(path) }));
    // 1. Pinned ids, all of them first: a pin wins over a name match, whatever the file order.
    for (const d of desired) {
        const pin = d.value.spec.id;
        if (pin === undefined)
            continue;
        const live = byId.get(pin);
        if (!live)
            planError(d, ['id'], `no dashboard with id "${pin}" exists`);
        else if (used.has(pin))
            planError(d, ['id'], `dashboard id "${pin}" is already matched by another manifest`);
        else {
            const notes = live.tags.includes(tag) ? [] : [adoptionNote(live, tag)];
            result.pairs.push({ desired: d, live: take(live), notes });
        }
    }
    // 2. This stack's dashboard of the same name.
    for (const d of desired) {
        if (d.value.spec.id !== undefined)
            continue;
        const mine = firstUnused(ownedByName, d.name);
        if (mine)
            result.pairs.push({ desired: d, live: take(mine) });
        else
            pending.push(d);
    }
    // 3. renamedFrom; 4. adopt; otherwise create, unless the name is taken by a dashboard we do not own.
    for (const d of pending) {
        const from = d.value.spec.renamedFrom;
        const previous = from !== undefined ? firstUnused(ownedByName, from) : undefined;
        if (previous) {
            result.pairs.push({
                desired: d,
                live: take(previous),
                notes: [`renamed from "${from}": keeps its id, its tile ids and its alerts`]
            });
            continue;
        }
        const others = (allByName.get(d.name) ?? []).filter(l => !used.has(l.id) && !l.tags.includes(tag));
        if (others.length === 0) {
            result.pairs.push({ desired: d });
        }
        else if (d.value.spec.adopt && others.length === 1) {
            result.pairs.push({ desired: d, live: take(others[0]), notes: [adoptionNote(others[0], tag)] });
        }
        else if (d.value.spec.adopt) {
            planError(d, ['adopt'], `${others.length} dashboards are named "${d.name}" (ids ${others.map(o => o.id).join(', ')}); pin the one to adopt with \`id:\``);
        }
        else {
            const other = others[0];
            const ownerTag = other.tags.find(isOwnershipTag);
            planError(d, ['name'], `a dashboard named "${d.name}" already exists (id ${other.id}) and is not owned by stack "${ctx.settings.stack}"` +
                `${ownerTag ? ` (it carries ${ownerTag})` : ''}. It is not overwritten: to manage it from this manifest, add \`adopt: true\`` +
                ` (or \`id: ${other.id}\`); to keep both, give this manifest another name.`);
        }
    }
    result.orphans = owned.filter(d => !used.has(d.id));
    // A rename without renamedFrom looks like a create plus an orphan with the same tiles. Renames are
    // explicit: it stays a create and a delete (with prune) under their own names, and the create says
    // how to make it a rename.
    const orphanKeys = new Map(result.orphans.map(o => [o, tileNameKey(o.tiles.map(t => t.name))]));
    const hinted = new Set();
    for (const pair of result.pairs) {
        if (pair.live || orphanKeys.size === 0)
            continue;
        const names = tileNameKey(pair.desired.value.spec.tiles?.map(t => t.name) ?? []);
        const twin = names ? result.orphans.find(o => !hinted.has(o) && orphanKeys.get(o) === names) : undefined;
        if (!twin)
            continue;
        hinted.add(twin);
        pair.notes = [
            `looks like a rename of "${twin.name}": add \`renamedFrom: ${JSON.stringify(twin.name)}\` to keep its id and alerts`
        ];
    }
    return result;
}
const tileNameKey = (names) => (names.length === 0 ? '' : JSON.stringify([...names].sort()));
function adoptionNote(live, tag) {
    const other = live.tags.find(t => isOwnershipTag(t) && t !== tag);
    return other
        ? `adopts dashboard ${live.id} from ${other}: this stack takes ownership and removes that tag, so the other stack no longer manages it (nor its alerts)`
        : `adopts existing dashboard ${live.id}: it gets this stack's ownership tag ${tag}`;
}

;// CONCATENATED MODULE: ./src/kinds/dashboard/index.ts






const dashboardKind = {
    kind: 'Dashboard',
    keyedPaths: new Set(['tiles']),
    desired: desiredDashboards,
    pair: pairDashboards,
    normalDesired: normalDesired,
    normalLive: normalLive,
    liveName: l => l.name,
    liveId: l => l.id,
    refine: refineDashboard,
    conclude: recordDashboardFacts,
    operations: dashboardOperations
};

;// CONCATENATED MODULE: ./src/kinds/service-settings.ts
/**
 * The managed service's basic details (CONTRACT.md, "Managed control plane"). Declarative: the service
 * is read, and the smallest PATCH that reaches the manifest is computed. Only the fields the manifest
 * declares are managed. Applied only when the release gate is open, then read back to confirm.
 */



/** Reads of the service after a PATCH, waiting a little longer each time, before a difference counts. */
const CONVERGENCE_READS = 3;
const CONVERGENCE_WAIT_MS = 1000;
const serviceSettingsKind = {
    kind: 'ServiceSettings',
    keyedPaths: new Set(['ipAccessList', 'endpoints']),
    desired(ctx) {
        if (ctx.settings.mode !== 'managed')
            return [];
        return ctx.manifests.services.slice(0, 1).map(({ spec, doc }) => ({
            name: spec.name ?? 'service',
            address: 'ServiceSettings/service',
            // A getter: positions are built only for what the plan shows.
            get source() {
                return doc.locate(['kind']);
            },
            value: spec
        }));
    },
    pair(desired, ctx) {
        return { pairs: desired.map(d => ({ desired: d, live: ctx.live.service })), orphans: [] };
    },
    normalDesired(d) {
        return desiredNormal(d.value);
    },
    normalLive(l, ctx) {
        const declared = ctx.manifests.services[0]?.spec;
        return declared ? liveNormal(l, declared) : {};
    },
    liveName: l => l.name ?? 'service',
    liveId: l => l.id,
    refine(pc, ctx) {
        const { change, desired, live } = pc;
        if (!desired || !live)
            return;
        if (change.action === 'noop')
            return;
        const body = patchBody(desired.value, live);
        change.request = { method: 'PATCH', path: ctx.settings.servicePath ?? '', body };
        if (body.releaseChannel !== undefined && live.tier && live.tier !== 'production') {
            change.notes.push(`releaseChannel is only available for production services (CONTRACT.md), and this service's tier is "${live.tier}": expect the server to refuse it`);
        }
        if (body.transparentDataEncryptionKeyId !== undefined && live.hasTransparentDataEncryption === false) {
            change.notes.push('this service was not created with transparent data encryption: the server refuses a TDE key rotation');
        }
        if (!ctx.settings.serviceGate.open) {
            change.deferred = 'release';
            change.notes.push(`not applied by this run: ${ctx.settings.serviceGate.reason}`);
        }
        else {
            change.notes.push(`applied by this run: ${ctx.settings.serviceGate.reason}`);
        }
    },
    operations(pc) {
        const { change, desired } = pc;
        if (!desired || change.action === 'noop' || change.deferred || !change.request)
            return [];
        const body = change.request.body;
        return [
            {
                address: change.address,
                label: 'PATCH',
                provides: [],
                after: [],
                run: async (ctx) => {
                    const send = async (patch) => {
                        try {
                            return await ctx.api.patchService(patch);
                        }
                        catch (e) {
                            const release = patch.releaseChannel !== undefined;
                            if (e instanceof ApiError &&
                                e.status === 400 &&
                                release &&
                                /release/i.test(e.serverMessage ?? '')) {
                                throw new Error(`${e.message}. CONTRACT.md: releaseChannel is only available for production services`, { cause: e });
                            }
                            throw e;
                        }
                    };
                    let patched;
                    try {
                        patched = await send(body);
                    }
                    catch (e) {
                        if (!(e instanceof UnknownOutcomeError))
                            throw e;
                        // The PATCH may have been applied: read the service and send only what still differs.
                        ctx.log.warn(`${e.message}: re-reading the service before sending what still differs`);
                        const now = (await ctx.api.getService()).service;
                        const rest = patchBody(desired.value, now);
                        patched =
                            Object.keys(rest).length === 0 ? { service: now, requestId: undefined } : await send(rest);
                    }
                    // Confirm by reading the service again, not by trusting the PATCH response; a cloud may take a
                    // moment to show a change, so a difference is re-read a few times before it counts.
                    let remaining = [];
                    for (let attempt = 0; attempt < CONVERGENCE_READS; attempt++) {
                        if (attempt > 0)
                            await new Promise(resolve => setTimeout(resolve, CONVERGENCE_WAIT_MS * attempt));
                        const reread = await ctx.api.getService();
                        remaining = diffValues(liveNormal(reread.service, desired.value), desiredNormal(desired.value)).map(f => `${f.path}: server has ${JSON.stringify(f.before ?? null)}, manifest wants ${JSON.stringify(f.after ?? null)}`);
                        if (remaining.length === 0)
                            break;
                    }
                    return {
                        status: 'applied',
                        id: patched.service.id,
                        requestId: patched.requestId,
                        result: patched.service,
                        convergence: { converged: remaining.length === 0, remaining }
                    };
                }
            }
        ];
    }
};
function desiredNormal(s) {
    return (clean({
        name: s.name,
        releaseChannel: s.releaseChannel,
        ipAccessList: s.ipAccessList ? ipMap(s.ipAccessList) : undefined,
        privateEndpointIds: s.privateEndpointIds ? [...s.privateEndpointIds].sort() : undefined,
        endpoints: s.endpoints ? Object.fromEntries(s.endpoints.map(e => [e.protocol, e.enabled])) : undefined,
        transparentDataEncryptionKeyId: s.transparentDataEncryptionKeyId
    }) ?? {});
}
/** The live service, restricted to the fields the manifest declares (the rest is not managed). */
function liveNormal(l, declared) {
    return (clean({
        name: declared.name !== undefined ? l.name : undefined,
        releaseChannel: declared.releaseChannel !== undefined ? l.releaseChannel : undefined,
        ipAccessList: declared.ipAccessList ? ipMap(liveIps(l)) : undefined,
        privateEndpointIds: declared.privateEndpointIds ? [...(l.privateEndpointIds ?? [])].sort() : undefined,
        endpoints: declared.endpoints
            ? Object.fromEntries(declared.endpoints.map(e => [e.protocol, endpointEnabled(l, e.protocol)]))
            : undefined,
        transparentDataEncryptionKeyId: declared.transparentDataEncryptionKeyId !== undefined ? l.transparentDataEncryptionKeyId : undefined
    }) ?? {});
}
/** `{source: description}`: entries are matched on source (FACTS.md). */
function ipMap(entries) {
    return Object.fromEntries(entries.map(e => [ipKey(e.source), e.description ?? '']));
}
/**
 * One address is the same entry as its one-address CIDR: `a.b.c.d` and `a.b.c.d/32` (IPv6: `/128`).
 * A cloud may store one and return the other (unverified on the real cloud); either way it is no change.
 */
function ipKey(source) {
    const address = source.trim().toLowerCase();
    if (address.includes('/'))
        return address;
    return address.includes(':') ? `${address}/128` : `${address}/32`;
}
const liveIps = (l) => (l.ipAccessList ?? []).map(e => ({ source: e.source, description: e.description ?? undefined }));
/** An endpoint is on when the service lists it (and does not say `enabled: false`). */
function endpointEnabled(l, protocol) {
    const e = (l.endpoints ?? []).find(x => x.protocol === protocol);
    return e !== undefined && e.enabled !== false;
}
/**
 * The smallest PATCH: lists become remove-then-add (matched on `source`; a changed description is a
 * remove plus an add), endpoints only where their state differs, scalars only when they differ.
 */
function patchBody(s, l) {
    const body = {};
    if (s.name !== undefined && s.name !== l.name)
        body.name = s.name;
    if (s.ipAccessList) {
        const live = liveIps(l);
        const key = (e) => `${ipKey(e.source)}\u0000${e.description ?? ''}`;
        const wanted = new Set(s.ipAccessList.map(key));
        const present = new Set(live.map(key));
        const remove = live
            .filter(e => !wanted.has(key(e)))
            .map(e => ({ source: e.source, description: e.description ?? '' }));
        const add = s.ipAccessList
            .filter(e => !present.has(key(e)))
            .map(e => ({ source: e.source, description: e.description ?? '' }));
        if (remove.length > 0 || add.length > 0)
            body.ipAccessList = { ...(remove.length ? { remove } : {}), ...(add.length ? { add } : {}) };
    }
    if (s.privateEndpointIds) {
        const live = l.privateEndpointIds ?? [];
        const remove = live.filter(id => !s.privateEndpointIds.includes(id));
        const add = s.privateEndpointIds.filter(id => !live.includes(id));
        if (remove.length > 0 || add.length > 0)
            body.privateEndpointIds = { ...(remove.length ? { remove } : {}), ...(add.length ? { add } : {}) };
    }
    if (s.releaseChannel !== undefined && s.releaseChannel !== l.releaseChannel)
        body.releaseChannel = s.releaseChannel;
    if (s.endpoints) {
        const changed = s.endpoints.filter(e => endpointEnabled(l, e.protocol) !== e.enabled);
        if (changed.length > 0)
            body.endpoints = changed.map(e => ({ protocol: e.protocol, enabled: e.enabled }));
    }
    if (s.transparentDataEncryptionKeyId !== undefined &&
        s.transparentDataEncryptionKeyId !== l.transparentDataEncryptionKeyId) {
        body.transparentDataEncryptionKeyId = s.transparentDataEncryptionKeyId;
    }
    return body;
}

;// CONCATENATED MODULE: ./src/kinds/index.ts
/** The resource kinds, in the order they are planned (later kinds refer to earlier ones). */



const KINDS = [dashboardKind, alertKind, serviceSettingsKind];

// EXTERNAL MODULE: ./src/error-message.ts
var error_message = __webpack_require__(6587);
;// CONCATENATED MODULE: ./src/apply/engine.ts
/**
 * Runs operations as a dependency graph: at most `concurrency` at once, one at a time per lock (per
 * dashboard), each after the operations that provide what it needs. When an operation fails, the ones
 * that depend on it are skipped and everything independent goes on.
 */

async function runOperations(operations, ctx, concurrency, hooks = {}) {
    const outcomes = new Map();
    const settle = (op, outcome) => {
        outcomes.set(op, outcome);
        hooks.settled?.(op, outcome);
    };
    const providers = new Map();
    for (const op of operations)
        for (const token of op.provides)
            providers.set(token, [...(providers.get(token) ?? []), op]);
    // Each operation waits for the providers of its tokens (never for itself).
    const waitsFor = new Map();
    const dependents = new Map();
    for (const op of operations) {
        const deps = new Set(op.after.flatMap(t => providers.get(t) ?? []).filter(p => p !== op));
        waitsFor.set(op, deps);
        for (const d of deps)
            dependents.set(d, [...(dependents.get(d) ?? []), op]);
    }
    const ready = operations.filter(op => waitsFor.get(op).size === 0);
    const heldLocks = new Set();
    const running = new Set();
    const skip = (op, reason) => {
        if (outcomes.has(op))
            return;
        settle(op, { state: 'skipped', reason });
        for (const d of dependents.get(op) ?? [])
            skip(d, reason);
    };
    const finish = (op, outcome) => {
        settle(op, outcome);
        if (op.lock)
            heldLocks.delete(op.lock);
        if (outcome.state === 'done') {
            for (const token of op.provides)
                ctx.facts.set(token, outcome.result);
            for (const d of dependents.get(op) ?? []) {
                const deps = waitsFor.get(d);
                deps.delete(op);
                if (deps.size === 0 && !outcomes.has(d))
                    ready.push(d);
            }
        }
        else {
            const why = outcome.state === 'failed' ? `${op.address} (${op.label}) failed` : outcome.reason;
            for (const d of dependents.get(op) ?? [])
                skip(d, why);
        }
    };
    while (ready.length > 0 || running.size > 0) {
        // Start what may start: free slot, free lock. Others stay queued in order.
        for (let i = 0; i < ready.length && running.size < concurrency;) {
            const op = ready[i];
            if (outcomes.has(op)) {
                ready.splice(i, 1);
                continue;
            }
            if (op.lock && heldLocks.has(op.lock)) {
                i++;
                continue;
            }
            ready.splice(i, 1);
            if (op.lock)
                heldLocks.add(op.lock);
            hooks.started?.(op);
            const p = op
                .run(ctx)
                .then(result => finish(op, { state: 'done', result }), (e) => finish(op, { state: 'failed', error: (0,error_message/* errorMessage */.gJ)(e) }))
                .finally(() => running.delete(p));
            running.add(p);
        }
        if (running.size === 0)
            break;
        await Promise.race(running);
    }
    for (const op of operations)
        if (!outcomes.has(op))
            settle(op, { state: 'skipped', reason: 'not reached' });
    return outcomes;
}

;// CONCATENATED MODULE: ./src/apply/apply.ts


async function applyPlan(input) {
    const kinds = new Map((input.kinds ?? KINDS).map(k => [k.kind, k]));
    const octx = { settings: input.settings, dashboards: input.dashboards };
    const opsByChange = new Map();
    for (const pc of input.planned)
        opsByChange.set(pc, kinds.get(pc.change.kind).operations(pc, octx));
    const all = [...opsByChange.values()].flat();
    const ctx = {
        api: input.api,
        settings: input.settings,
        dashboards: input.dashboards,
        facts: new Map(),
        log: input.log,
        reread: sharedReader()
    };
    const outcomes = await runOperations(all, ctx, input.concurrency, progressHooks(opsByChange, input.onProgress));
    const result = { outcomes: [], complete: true };
    for (const [pc, ops] of opsByChange) {
        if (ops.length === 0)
            continue;
        const c = pc.change;
        const outcome = {
            address: c.address,
            kind: c.kind,
            name: c.name,
            action: c.action,
            status: 'applied',
            id: c.id
        };
        const messages = [];
        for (const op of ops) {
            const o = outcomes.get(op);
            if (o.state === 'failed') {
                outcome.status = 'failed';
                messages.push(ops.length > 1 ? `${op.label}: ${o.error}` : o.error);
            }
            else if (o.state === 'skipped') {
                if (outcome.status !== 'failed')
                    outcome.status = 'skipped';
                messages.push(`not attempted: ${o.reason}`);
            }
            else {
                const r = o.result;
                if (r.status === 'adopted' && outcome.status === 'applied')
                    outcome.status = 'adopted';
                if (r.id && c.action !== 'delete')
                    outcome.id = r.id;
                if (r.message)
                    messages.push(r.message);
                if (r.requestId)
                    outcome.requestId = r.requestId;
                if (r.result !== undefined)
                    outcome.result = r.result;
                if (r.convergence)
                    result.convergence = r.convergence;
            }
        }
        if (messages.length > 0)
            outcome.message = messages.join('; ');
        if (outcome.status === 'failed' || outcome.status === 'skipped')
            result.complete = false;
        result.outcomes.push(outcome);
    }
    if (result.convergence && !result.convergence.converged)
        result.complete = false;
    return result;
}
/** Operations' starts and ends, as changes' starts and ends: a change ends when its last operation settles. */
function progressHooks(opsByChange, report) {
    if (!report)
        return {};
    const changeOf = new Map();
    const left = new Map();
    for (const [pc, ops] of opsByChange) {
        for (const op of ops)
            changeOf.set(op, pc);
        if (ops.length > 0)
            left.set(pc, ops.length);
    }
    const total = left.size;
    const started = new Set();
    const statuses = new Map();
    let done = 0;
    const event = (pc, kind, status) => {
        const { address, kind: resource, name, action } = pc.change;
        return { event: kind, address, kind: resource, name, action, status, done, total };
    };
    return {
        started(op) {
            const pc = changeOf.get(op);
            if (started.has(pc))
                return;
            started.add(pc);
            report(event(pc, 'start'));
        },
        settled(op, outcome) {
            const pc = changeOf.get(op);
            statuses.set(pc, worse(statuses.get(pc), statusOf(outcome)));
            const remaining = left.get(pc) - 1;
            left.set(pc, remaining);
            if (remaining > 0)
                return;
            done++;
            report(event(pc, 'end', statuses.get(pc)));
        }
    };
}
const statusOf = (o) => o.state === 'done' ? o.result.status : o.state === 'failed' ? 'failed' : 'skipped';
const RANK = { applied: 0, adopted: 1, skipped: 2, failed: 3 };
const worse = (a, b) => a === undefined || RANK[b] > RANK[a] ? b : a;
/** A commit whose response was lost may land a moment later: wait before looking for it. */
const REREAD_DELAY_MS = 500;
/**
 * Re-reads after lost responses, shared by the creates that fail at about the same time. A read only
 * serves callers whose failure came before it started, so it sees whatever they may have committed.
 */
function sharedReader() {
    const pending = new Map();
    return (what, read) => {
        const waiting = pending.get(what);
        if (waiting)
            return waiting;
        const next = new Promise((resolve, reject) => {
            setTimeout(() => {
                pending.delete(what);
                read().then(resolve, reject);
            }, REREAD_DELAY_MS);
        });
        pending.set(what, next);
        return next;
    };
}

;// CONCATENATED MODULE: ./src/live/check-queries.ts




const HOUR = 3_600_000;
const QUERYABLE = new Set(['line', 'stacked_bar', 'table', 'number', 'pie', 'bar']);
/** The charts route takes the tile functions except these (OpenAPI ChartSeries). */
const CHART_AGG_FNS = new Set(vocabulary/* AGG_FNS */.gT.filter(f => !['any', 'none', 'increase'].includes(f)));
const INTERVAL_MS = {
    '1m': 60_000,
    '5m': 300_000,
    '15m': 900_000,
    '30m': 1_800_000,
    '1h': HOUR,
    '6h': 6 * HOUR,
    '12h': 12 * HOUR,
    '1d': 24 * HOUR
};
async function checkQueries(api, planned, options) {
    if (options.mode !== 'self-hosted') {
        return [
            (0,src_diagnostics/* diagnostic */.YK)('plan', 'notice', 'check-queries runs in self-hosted mode only: the managed API has no charts route')
        ];
    }
    const out = [];
    const end = options.now.getTime();
    const dashboards = new Map();
    for (const pc of planned) {
        if (pc.change.kind === 'Dashboard' && pc.desired)
            dashboards.set(pc.desired.name, pc.desired.value);
    }
    for (const pc of planned) {
        const { change } = pc;
        if (change.kind !== 'Dashboard' ||
            !pc.desired ||
            !['create', 'update', 'replace'].includes(change.action))
            continue;
        const d = pc.desired.value;
        const changedTiles = new Set(change.fields
            .map(f => /^tiles\["((?:[^"\\]|\\.)*)"\]/.exec(f.path)?.[1])
            .filter(Boolean)
            .map(n => JSON.parse(`"${n}"`)));
        for (const [i, tile] of d.tiles.entries()) {
            if (change.action === 'update' && !changedTiles.has(tile.spec.name))
                continue;
            const query = tileQuery(tile.body);
            if (!query)
                continue;
            const at = { ...d.located.doc.locate(['tiles', i, 'name']), field: `tiles[${i}]` };
            try {
                const points = await api.querySeries({
                    ...query,
                    startTime: end - HOUR,
                    endTime: end,
                    granularity: '1m'
                });
                if (points.length === 0) {
                    out.push((0,src_diagnostics/* diagnostic */.YK)('plan', 'warning', `tile "${tile.spec.name}": the query returns no data over the last hour`, at));
                }
                else {
                    change.evidence = [
                        ...(change.evidence ?? []),
                        `tile "${tile.spec.name}": ${points.length} data point(s) over the last hour`
                    ];
                }
            }
            catch (e) {
                out.push((0,src_diagnostics/* diagnostic */.YK)('plan', 'error', `tile "${tile.spec.name}": the query fails on the server: ${(0,error_message/* errorMessage */.gJ)(e)}`, at));
            }
        }
    }
    for (const pc of planned) {
        const { change } = pc;
        if (change.kind !== 'Alert' || !pc.desired || !['create', 'update', 'replace'].includes(change.action))
            continue;
        const a = pc.desired.value.spec;
        const tile = dashboards.get(a.dashboard)?.tiles.find(t => t.spec.name === a.tile);
        const query = tile ? tileQuery(tile.body) : undefined;
        const interval = INTERVAL_MS[a.interval];
        if (!query || !interval)
            continue;
        try {
            const points = await api.querySeries({
                series: query.series.slice(0, 1),
                startTime: end - 24 * HOUR,
                endTime: end,
                granularity: a.interval
            });
            const windows = Math.round((24 * HOUR) / interval);
            const firing = countFiring(points, a, query.series[0]?.aggFn === 'count', windows);
            change.evidence = [
                ...(change.evidence ?? []),
                `over the last 24 h it would have fired in ${firing.fired} of ${windows} ${a.interval} windows at threshold ${a.thresholdType} ${a.threshold}${a.thresholdMax !== undefined ? `..${a.thresholdMax}` : ''}${firing.max !== undefined ? ` (highest value ${firing.max})` : ''}`
            ];
        }
        catch (e) {
            out.push((0,src_diagnostics/* diagnostic */.YK)('plan', 'warning', `alert "${a.name}": could not replay its query: ${(0,error_message/* errorMessage */.gJ)(e)}`, a ? pc.desired.source : undefined));
        }
    }
    return out;
}
/** The tile's query in the charts route's shape, or nothing for tiles that are not aggregations. */
function tileQuery(body) {
    const config = body.config ??
        seriesToConfig(body.series ?? [], undefined);
    if (!QUERYABLE.has(String(config.displayType)) ||
        !Array.isArray(config.select) ||
        typeof config.sourceId !== 'string')
        return undefined;
    const groupBy = normalizeGroupBy(config.groupBy)?.split(',') ?? [];
    const series = config.select
        .filter(s => CHART_AGG_FNS.has(String(s.aggFn)))
        .slice(0, 5)
        .map(s => {
        const q = {
            sourceId: config.sourceId,
            aggFn: s.aggFn,
            where: s.where ?? '',
            whereLanguage: s.whereLanguage ?? 'lucene',
            groupBy
        };
        if (s.valueExpression !== undefined)
            q.field = s.valueExpression;
        // A quantile is at its level: without it the server computes a default one.
        if (s.level !== undefined)
            q.level = s.level;
        // A metric tile queries its metric, not events.
        if (s.metricName !== undefined)
            q.metricName = s.metricName;
        if (s.metricType !== undefined)
            q.metricDataType = s.metricType;
        return q;
    });
    return series.length > 0 ? { series } : undefined;
}
/** FACTS.md threshold types: above is >=, above_exclusive is >, below is <, below_or_equal is <=. */
function crosses(value, type, threshold, max) {
    switch (type) {
        case 'above':
            return value >= threshold;
        case 'above_exclusive':
            return value > threshold;
        case 'below':
            return value < threshold;
        case 'below_or_equal':
            return value <= threshold;
        case 'equal':
            return value === threshold;
        case 'not_equal':
            return value !== threshold;
        case 'between':
            return value >= threshold && value <= (max ?? threshold);
        case 'not_between':
            return value < threshold || value > (max ?? threshold);
        default:
            return false;
    }
}
/** Windows where any group crossed; a count has 0 in windows without data (the server omits them). */
function countFiring(points, alert, zeroFill, windows) {
    const byBucket = new Map();
    for (const p of points) {
        const v = Number(p['series_0.data']);
        if (!Number.isFinite(v))
            continue;
        const key = String(p.ts_bucket);
        byBucket.set(key, [...(byBucket.get(key) ?? []), v]);
    }
    let fired = 0;
    let max;
    for (const values of byBucket.values()) {
        if (values.some(v => crosses(v, alert.thresholdType, alert.threshold, alert.thresholdMax)))
            fired++;
        for (const v of values)
            max = max === undefined ? v : Math.max(max, v);
    }
    if (zeroFill && crosses(0, alert.thresholdType, alert.threshold, alert.thresholdMax))
        fired += Math.max(0, windows - byBucket.size);
    return { fired, max };
}

;// CONCATENATED MODULE: ./src/live/read.ts
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

// EXTERNAL MODULE: ./src/plan/types.ts
var types = __webpack_require__(9898);
;// CONCATENATED MODULE: ./src/planner/fingerprint.ts
/**
 * Fingerprints of what a plan was computed from. `apply` with a saved plan recomputes them and refuses
 * when either differs, so the applied plan is the one that was reviewed.
 */

/** Fields that change on their own (alert state, timestamps) and say nothing about the configuration. */
const VOLATILE = new Set([
    'state',
    'createdAt',
    'updatedAt',
    'executionErrors',
    'silenced',
    'lastFiredAt',
    'requestId'
]);
/**
 * JSON without volatile fields. Keys keep their order: a server writes the same record the same way
 * every time, and sorting every object of a thousand dashboards would cost more than the whole diff.
 */
function stableJson(value) {
    return JSON.stringify(value, (key, v) => (VOLATILE.has(key) ? undefined : v));
}
function fingerprint(value) {
    return `sha256:${(0,external_node_crypto_.createHash)('sha256').update(stableJson(value)).digest('hex')}`;
}
/** Order-independent: lists of records are fingerprinted sorted by id. */
function byId(records) {
    return [...records].sort((a, b) => (a.id ?? '').localeCompare(b.id ?? ''));
}

;// CONCATENATED MODULE: ./src/planner/planner.ts





function computePlan(input) {
    const diagnostics = [];
    const ctx = {
        settings: input.settings,
        manifests: input.manifests,
        live: input.live,
        report: d => diagnostics.push(d),
        dashboards: { desired: new Map(), live: new Map() }
    };
    const planned = [];
    /** The live records the plan depends on, in their normal form: what the live fingerprint covers. */
    const dependsOn = [];
    for (const kind of input.kinds ?? KINDS) {
        const ofKind = [];
        const pairing = kind.pair(kind.desired(ctx), ctx);
        for (const pair of pairing.pairs) {
            const after = kind.normalDesired(pair.desired, ctx, pair.live);
            const before = pair.live === undefined ? undefined : kind.normalLive(pair.live, ctx);
            const fields = before === undefined
                ? listFields(after, 'after', kind.keyedPaths)
                : diffValues(before, after, kind.keyedPaths);
            const change = newChange(kind, pair.desired.name, pair.desired.address, fields, {
                action: pair.live ? (fields.length > 0 ? 'update' : 'noop') : 'create',
                id: pair.live === undefined ? undefined : kind.liveId(pair.live),
                notes: pair.notes ?? []
            });
            dependsOn.push([change.address, change.id, before]);
            ofKind.push({ change, desired: pair.desired, live: pair.live });
        }
        for (const orphan of pairing.orphans) {
            const name = kind.liveName(orphan);
            const id = kind.liveId(orphan);
            const before = kind.normalLive(orphan, ctx);
            dependsOn.push([`${kind.kind}/${name}@${id}`, id, before]);
            const change = newChange(kind, name, `${kind.kind}/${name}@${id}`, listFields(before, 'before', kind.keyedPaths), {
                action: 'delete',
                id,
                notes: input.settings.prune
                    ? ['no longer in the manifests (prune is on)']
                    : ['no longer in the manifests: would be deleted with prune'],
                deferred: input.settings.prune ? undefined : 'prune'
            });
            ofKind.push({ change, live: orphan });
        }
        for (const pc of ofKind) {
            kind.refine(pc, ctx);
            // Only changes carry their manifest line: a no-op needs none, and positions cost a parse.
            if (pc.desired && pc.change.action !== 'noop')
                pc.change.source = pc.desired.source;
        }
        kind.conclude?.(ofKind, ctx);
        planned.push(...ofKind);
    }
    const plan = {
        schemaVersion: types/* PLAN_SCHEMA_VERSION */.jk,
        tool: { name: 'obsdeploy', version: version/* VERSION */.x },
        createdAt: input.now.toISOString(),
        command: input.command,
        mode: input.settings.mode,
        ...(input.settings.managedPrefix ? { managedPrefix: input.settings.managedPrefix } : {}),
        stack: input.settings.stack,
        ownershipTag: input.settings.ownershipTag,
        prune: input.settings.prune,
        fingerprint: {
            live: liveFingerprint(dependsOn, input.live),
            desired: desiredFingerprint(input.manifests, input.settings)
        },
        changes: planned.map(p => p.change),
        diagnostics: [...input.manifests.diagnostics, ...diagnostics],
        references: referencesOf(input)
    };
    return { plan, planned, dashboards: ctx.dashboards };
}
/** Names for the ids the plan's values hold, for reports (see References). */
function referencesOf(input) {
    const named = (items) => Object.fromEntries(items.filter(i => i.name !== '').map(i => [i.id, i.name]));
    const references = {
        version: types/* REFERENCES_VERSION */.c9,
        sources: named(input.live.sources),
        alertDashboards: Object.fromEntries(input.manifests.alerts.map(a => [a.spec.name, a.spec.dashboard]))
    };
    if (input.live.webhooks)
        references.webhooks = named(input.live.webhooks);
    return references;
}
function newChange(kind, name, address, fields, rest) {
    const change = { kind: kind.kind, name, address, fields, dependsOn: [], ...rest };
    for (const key of Object.keys(change))
        if (change[key] === undefined)
            delete change[key];
    return change;
}
/** A whole record as field entries (for creates and deletes): one per top-level field, one per tile. */
function listFields(value, side, keyed = new Set()) {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
        return [{ path: '(root)', [side]: value }];
    return Object.entries(value).flatMap(([key, v]) => {
        if (keyed.has(key) && v && typeof v === 'object' && !Array.isArray(v)) {
            return Object.entries(v).map(([k, item]) => ({ path: joinKey(key, k, true), [side]: item }));
        }
        return [{ path: key, [side]: v }];
    });
}
/**
 * What the plan was computed from: the normal form of every live record it paired or would delete, and
 * the names it resolved. Records it did not look at (another team's dashboards, a service's scaling) do
 * not invalidate a saved plan.
 */
function liveFingerprint(dependsOn, live) {
    return fingerprint({
        records: dependsOn,
        sources: byId(live.sources).map(s => ({ id: s.id, name: s.name })),
        webhooks: live.webhooks ? byId(live.webhooks).map(w => ({ id: w.id, name: w.name })) : null
    });
}
function desiredFingerprint(manifests, settings) {
    return fingerprint({
        settings: {
            stack: settings.stack,
            prune: settings.prune,
            mode: settings.mode,
            gate: settings.serviceGate.open
        },
        dashboards: manifests.dashboards.map(d => d.spec),
        alerts: manifests.alerts.map(a => a.spec),
        services: manifests.services.map(s => s.spec)
    });
}

// EXTERNAL MODULE: ./src/run/types.ts
var run_types = __webpack_require__(1316);
;// CONCATENATED MODULE: ./src/run/online.ts
/**
 * The stages that need the API: read the live state, plan, check queries, apply. run() loads this
 * module with one import once the manifests are valid, so `validate` never loads the HTTP client.
 */













async function runOnline(config, manifests, deps) {
    const log = deps.log ?? src_log/* silentLogger */.qq;
    const now = deps.now ?? (() => new Date());
    const diagnostics = [...manifests.diagnostics];
    const finish = (exitCode, extra = {}) => ({
        exitCode,
        diagnostics,
        outputs: { ...run_types/* EMPTY_OUTPUTS */.J },
        ...extra
    });
    // The saved plan is read before anything is written: plan-path may be the same file.
    const saved = config.command === 'apply' && config.savedPlan
        ? await readSavedPlan(config.savedPlan, config.cwd)
        : undefined;
    const api = deps.api ? deps.api(config) : createApi(config, { log });
    try {
        const settings = {
            stack: config.stack,
            ownershipTag: ownershipTag(config.stack),
            prune: config.prune,
            mode: config.mode,
            serviceGate: config.serviceGate,
            servicePath: config.mode === 'managed'
                ? `/v1/organizations/${config.organizationId}/services/${config.serviceId}`
                : undefined
        };
        let live;
        try {
            live = await readLiveState(api, { service: config.mode === 'managed' && manifests.services.length > 0 });
        }
        catch (e) {
            diagnostics.push((0,src_diagnostics/* diagnostic */.YK)('plan', 'error', `could not read the live state: ${(0,error_message/* errorMessage */.gJ)(e)}`));
            return finish(1);
        }
        settings.managedPrefix = api.prefix;
        log.info(`Read live state in ${api.stats.requests} request(s): ${live.dashboards.length} dashboard(s), ${live.alerts.length} alert(s)`);
        const outcome = computePlan({ command: config.command, settings, manifests, live, now: now() });
        const plan = outcome.plan;
        if (config.checkQueries && config.command === 'plan') {
            // Query findings are plan diagnostics: in the plan JSON, and a query the server refuses fails the plan.
            plan.diagnostics.push(...(await checkQueries(api, outcome.planned, { mode: config.mode, now: now(), log })));
        }
        diagnostics.push(...plan.diagnostics.filter(d => d.stage !== 'validate'));
        const planFile = await writePlan(config.planPath, plan);
        const outputs = outputsOf(plan, planFile);
        if ((0,src_diagnostics/* hasErrors */.Cs)(plan.diagnostics)) {
            if (config.command === 'apply')
                diagnostics.push((0,src_diagnostics/* diagnostic */.YK)('apply', 'error', 'nothing was applied: the plan has errors'));
            return finish(1, { plan, outputs, planFile });
        }
        if (config.command === 'plan')
            return finish(0, { plan, outputs, planFile });
        if (config.command === 'drift')
            return finish(outputs.hasChanges ? 1 : 0, { plan, outputs, planFile });
        if (saved) {
            const refusal = compareWithSavedPlan(saved, config.savedPlan, plan);
            if (refusal) {
                diagnostics.push((0,src_diagnostics/* diagnostic */.YK)('apply', 'error', `nothing was applied: ${refusal}`));
                return finish(1, { plan, outputs, planFile });
            }
        }
        if (!outputs.hasChanges)
            return finish(0, { plan, outputs, planFile });
        const apply = await applyPlan({
            api,
            planned: outcome.planned,
            dashboards: outcome.dashboards,
            settings,
            concurrency: config.concurrency,
            log,
            onProgress: deps.progress
        });
        for (const o of apply.outcomes) {
            if (o.status === 'failed') {
                const at = plan.changes.find(c => c.address === o.address)?.source;
                diagnostics.push((0,src_diagnostics/* diagnostic */.YK)('apply', 'error', `${o.kind} "${o.name}" (${o.action}) failed: ${o.message ?? 'unknown error'}`, at));
            }
        }
        if (apply.convergence && !apply.convergence.converged) {
            diagnostics.push((0,src_diagnostics/* diagnostic */.YK)('apply', 'error', `the service did not reach the desired state: ${apply.convergence.remaining.join('; ')}`));
        }
        return finish(apply.complete ? 0 : 1, { plan, apply, outputs, planFile });
    }
    finally {
        await api.close();
    }
}
function outputsOf(plan, planFile) {
    const actionable = plan.changes.filter(types/* isActionable */.nM);
    const counts = (0,types/* countChanges */.xS)(actionable);
    // Service settings that wait for a release still differ from the manifests: drift, and a change to come.
    const waiting = plan.changes.some(c => c.deferred === 'release');
    return {
        hasChanges: actionable.length > 0 || waiting,
        creates: counts.create,
        updates: counts.update + counts.replace,
        deletes: counts.delete,
        planFile
    };
}
async function writePlan(planPath, plan) {
    await (0,promises_.mkdir)(external_node_path_default().dirname(planPath), { recursive: true });
    await (0,promises_.writeFile)(planPath, `${JSON.stringify(plan, null, 2)}\n`);
    return planPath;
}
/** A plan JSON from an earlier plan run, or why it cannot be used. */
async function readSavedPlan(file, cwd) {
    try {
        const saved = types/* Plan */.cw.safeParse(JSON.parse(await (0,promises_.readFile)(external_node_path_default().resolve(cwd, file), 'utf8')));
        return saved.success ? saved.data : `${file} is not a plan file of this tool (schemaVersion 1)`;
    }
    catch (e) {
        return `the saved plan ${file} cannot be read: ${(0,error_message/* errorMessage */.gJ)(e)}`;
    }
}
/** The applied plan must be the reviewed one: same live state, same manifests. */
function compareWithSavedPlan(saved, file, current) {
    if (typeof saved === 'string')
        return saved;
    if (saved.stack !== current.stack || saved.mode !== current.mode) {
        return `the saved plan ${file} is for stack "${saved.stack}" (${saved.mode}), not "${current.stack}" (${current.mode})`;
    }
    if (saved.fingerprint.desired !== current.fingerprint.desired) {
        return 'the manifests changed since the saved plan was made; plan again and review it';
    }
    if (saved.fingerprint.live !== current.fingerprint.live) {
        return 'the live state changed since the saved plan was made (someone edited a dashboard or alert?); plan again and review it';
    }
    return undefined;
}


/***/ })

};
