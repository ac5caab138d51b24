export const id = 185;
export const ids = [185];
export const modules = {

/***/ 6930:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  x: () => (/* binding */ createApi)
});

// UNUSED EXPORTS: unwrapEnvelope

// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 11 modules
var schemas = __webpack_require__(2857);
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
;// CONCATENATED MODULE: ./src/api/not-found.ts

/** Whether `e` is the route's own "not found" answer: the resource is absent (already deleted). */
function isResourceAbsent(e, shapes) {
    if (e.status !== 404)
        return false;
    if (e.bodyShape === 'json')
        return shapes.includes('json');
    return e.bodyShape === 'text' && e.serverMessage === 'Not Found' && shapes.includes('status-text');
}
/** A 404 that is not a resource's "not found" names the path and, in managed mode, the prefix. */
function routeNotFound(e, mode, prefix) {
    if (!(e instanceof errors/* ApiError */.hD) || e.status !== 404 || e instanceof errors/* RouteNotFoundError */.JS)
        return e;
    if (mode === 'managed' && e.bodyShape === 'json' && prefix === 'clickstack')
        return unknownService(e);
    const hint = mode === 'managed'
        ? `Managed prefix "${prefix}": the public cloud serves only clickstack and CONTRACT.md says observability; set managed-prefix (auto tries clickstack, then observability)`
        : 'Check api-url: it is the API base (port 8000 by default), not the web UI';
    return new errors/* RouteNotFoundError */.JS(sameRequest(e, hint));
}
/**
 * A JSON 404 on a managed list: the API answered, so the route exists; what it did not find is the organization or
 * the service of the path ("Service not found").
 */
function unknownService(e) {
    return new errors/* ApiError */.hD(sameRequest(e, 'The cloud API does not know this organization or service: check organization-id and service-id (the ids in the cloud console URL of the service), and that the API key belongs to that organization'));
}
/** The details of the request `e` failed, with what to do about it said anew. */
function sameRequest(e, hint) {
    return {
        status: e.status,
        method: e.method,
        path: e.path,
        serverMessage: e.serverMessage,
        requestId: e.requestId,
        bodyShape: e.bodyShape,
        hint
    };
}

;// CONCATENATED MODULE: ./src/api/responses.ts
/**
 * What a response's body says: the value inside the route's envelope, parsed with the schema the caller expects,
 * or an error that names the route and the field (and says so when the body is cut short or is not the API's).
 */


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
/** A written record as far as every write answers: its id. */
const WithId = schemas/* looseObject */._H3({ id: schemas/* union */.KCZ([schemas/* string */.YjP().min(1), schemas/* number */.aig()]).transform(String) });
/** The value as `schema` types it, or an error that names the route and the field (or what else the body is). */
function parseResponse(schema, value, res) {
    const result = schema.safeParse(value);
    if (result.success)
        return result.data;
    // A body cut short (by a proxy, a dropped connection) is said as such, not as a wrong type of field.
    if (res.notJson !== undefined)
        throw new errors/* ResponseShapeError */.RD({ method: res.method, path: res.path, status: res.status }, '', `the body is not valid JSON (${res.notJson}; ${String(res.body).length} bytes): the response may have been cut short. Run again; if it persists, check a proxy between here and the server`);
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

// EXTERNAL MODULE: ./src/api/schemas.ts
var api_schemas = __webpack_require__(8164);
;// CONCATENATED MODULE: ./src/api/pages.ts
/**
 * A whole list from its first page. Lists that paginate and say so (`meta.total` or `X-Total-Count`) get the
 * remaining pages, requested with the page size the server used; a paginated list that gives no total is read on
 * until a page adds nothing new. A list that says it has more than its pages return is refused, not used in part.
 */




/** Bounds the pages of a list without a total, against a server that never stops answering new ones. */
const MAX_UNCOUNTED_PAGES = 1000;
/**
 * The items of `first` and of the pages after it, which `page` asks for (at `path`). `paginated`: the route pages
 * whether or not it says so (a list without a total is then read on).
 */
async function readPages(path, first, item, paginated, page) {
    const items = parseResponse(schemas/* array */.YOg(item), unwrapEnvelope(first.body), first);
    const info = pageInfo(first);
    const { limit } = info;
    let { total } = info;
    // A paginated list without a total (the managed cloud's declare none) may have been cut at a page size the
    // server chose, short or not: ask on until a page adds nothing new (TF client/webhook.go eachWebhook).
    if (paginated && total === undefined && items.length > 0)
        total = Infinity;
    if (total === undefined || items.length >= total || items.length === 0)
        return items;
    const pageSize = limit && limit > 0 ? limit : items.length;
    const seen = new Set(items.map(i => i.id));
    let offset = items.length;
    // Bounded: a server that keeps returning pages past `total` cannot keep us here.
    const maxPages = Number.isFinite(total) ? Math.ceil(total / pageSize) + 2 : MAX_UNCOUNTED_PAGES;
    for (let pages = 0; offset < total && pages < maxPages; pages++) {
        const res = await page({ limit: pageSize, offset });
        const next = parseResponse(schemas/* array */.YOg(item), unwrapEnvelope(res.body), res);
        const fresh = next.filter(p => !seen.has(p.id));
        // An empty page, or one the server repeated (it ignores offset): the list is complete.
        if (next.length === 0 || fresh.length === 0)
            break;
        for (const p of next) {
            const key = p.id;
            if (key === undefined || !seen.has(key))
                items.push(p);
            seen.add(key);
        }
        offset += next.length;
    }
    if (Number.isFinite(total) && items.length < total) {
        // Planning with part of a list would look like "create what is missing": refuse instead.
        throw new errors/* ResponseShapeError */.RD({ method: 'GET', path, status: first.status }, 'meta.total', `the server announced ${total} items but its pages returned ${items.length}; refusing to plan with a partial list`);
    }
    return items;
}
/** The total a list says it has, and the page size it used. */
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

;// CONCATENATED MODULE: ./src/api/stale-select.ts
function dropStaleSelectFields(dashboard) {
    for (const tile of dashboard.tiles) {
        const select = tile.config?.select;
        if (Array.isArray(select))
            select.forEach(fixItem);
        tile.series?.forEach(fixItem);
    }
    return dashboard;
}
function fixItem(item) {
    if (item === null || typeof item !== 'object')
        return;
    const it = item;
    if (typeof it.aggFn !== 'string')
        return;
    if ('level' in it && it.aggFn !== 'quantile')
        delete it.level;
    // An empty one is what the servers return for every count: not a leftover.
    if (it.aggFn === 'count' && typeof it.valueExpression === 'string' && it.valueExpression !== '')
        delete it.valueExpression;
}

;// CONCATENATED MODULE: ./src/api/mcp.ts
/**
 * HyperDX's MCP endpoint (`POST /mcp`, the same Bearer key as /api/v2): a stateless JSON-RPC 2.0 server over
 * Streamable HTTP (packages/api/src/mcp/app.ts). We use one tool of it, `clickstack_patch_dashboard`
 * (mcp/tools/dashboards/patchDashboard.ts): it sets a dashboard's name and tags and/or replaces one tile by id,
 * leaving every other stored tile as it is, where a v2 PUT rewrites every tile through the API's form and so
 * resets the settings only the web UI can set (docs/real-server.md).
 */

const MCP_PATH = '/mcp';
/** The SDK's transport answers 406 unless the client accepts both. */
const MCP_ACCEPT = 'application/json, text/event-stream';
const PATCH_DASHBOARD_TOOL = 'clickstack_patch_dashboard';
const mcpRequest = (id, method, params = {}) => ({
    jsonrpc: '2.0',
    id,
    method,
    params
});
const JsonRpcReply = schemas/* looseObject */._H3({
    id: schemas/* union */.KCZ([schemas/* number */.aig(), schemas/* string */.YjP(), schemas/* null */.chJ()]).optional(),
    result: schemas/* unknown */.L5J().optional(),
    error: schemas/* looseObject */._H3({ code: schemas/* number */.aig().optional(), message: schemas/* string */.YjP().optional() }).optional()
});
const ToolList = schemas/* looseObject */._H3({ tools: schemas/* array */.YOg(schemas/* looseObject */._H3({ name: schemas/* string */.YjP() })) });
const ToolResult = schemas/* looseObject */._H3({
    isError: schemas/* boolean */.zMY().optional(),
    content: schemas/* array */.YOg(schemas/* looseObject */._H3({ type: schemas/* string */.YjP(), text: schemas/* string */.YjP().optional() })).optional()
});
/**
 * The JSON-RPC reply in a response body: JSON, or server-sent events whose `data:` lines carry it (the
 * SDK's default). Undefined when the body holds none.
 */
function replyIn(body) {
    if (typeof body !== 'string') {
        const parsed = JsonRpcReply.safeParse(body);
        return parsed.success ? parsed.data : undefined;
    }
    // Events are separated by a blank line; an event's data is its `data:` lines joined by newlines.
    for (const event of body.split(/\r?\n\r?\n/)) {
        const data = event
            .split(/\r?\n/)
            .filter(line => line.startsWith('data:'))
            .map(line => line.slice(5).replace(/^ /, ''))
            .join('\n');
        if (data === '')
            continue;
        try {
            const parsed = JsonRpcReply.safeParse(JSON.parse(data));
            if (parsed.success && (parsed.data.result !== undefined || parsed.data.error !== undefined))
                return parsed.data;
        }
        catch {
            // Not JSON: not the reply.
        }
    }
    return undefined;
}
/** The tool names a `tools/list` reply offers. */
function toolNames(reply) {
    const list = ToolList.safeParse(reply?.result);
    return list.success ? list.data.tools.map(t => t.name) : [];
}
/** A `tools/call` reply: its text, and whether the tool refused. A JSON-RPC error is a refusal too. */
function toolOutcome(reply) {
    if (reply === undefined)
        return { ok: false, text: 'the response held no JSON-RPC reply' };
    if (reply.error)
        return { ok: false, text: reply.error.message ?? `JSON-RPC error ${reply.error.code ?? ''}` };
    const result = ToolResult.safeParse(reply.result);
    if (!result.success)
        return { ok: false, text: 'the reply is not a tool result' };
    const text = (result.data.content ?? []).map(c => c.text ?? '').join('\n');
    return { ok: result.data.isError !== true, text };
}

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
/**
 * `timeoutMs`: how long this attempt waited; `requestTimeoutMs`: the setting, when the retry budget cut the wait
 * shorter (the message then names both, so "27 s" is never a mystery beside a 30 s setting).
 */
function classifyNetworkError(e, timeoutMs, requestTimeoutMs = timeoutMs) {
    const err = e;
    const code = err.code ?? err.cause?.code ?? err.name ?? 'error';
    const message = err.message ?? err.cause?.message ?? '';
    if (err.name === 'TimeoutError' || TIMEOUTS.has(code)) {
        const setting = timeoutMs < requestTimeoutMs
            ? ` (request-timeout ${seconds(requestTimeoutMs)}, cut to what the retry budget had left)`
            : ` (request-timeout)`;
        return { code, cause: `no response within ${seconds(timeoutMs)}${setting}`, sent: 'maybe' };
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

// EXTERNAL MODULE: ./src/api/pacer.ts
var pacer = __webpack_require__(7483);
;// CONCATENATED MODULE: ./src/api/retry.ts
/**
 * When to retry and how long to wait: exponential backoff with jitter, unless the server says how long
 * (Retry-After, RateLimit-Reset, X-RateLimit-Reset plus a second, or the structured RateLimit header).
 */
const first = (h) => (Array.isArray(h) ? h[0] : h);
/** Retried for every method: the server did not process the request (429) or a gateway failed it. */
const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);
/**
 * A 500 is retried on a read only: a GET changes nothing, while a write that failed halfway may have been
 * applied (the ClickHouse Terraform provider retries 5xx too, `internal/api/common.go`).
 */
const isRetryableStatus = (status, method) => RETRYABLE_STATUSES.has(status) || (status === 500 && method === 'GET');
/**
 * Added to an X-RateLimit-Reset (the managed cloud's header): it counts whole seconds, so at 0 the window
 * may not have turned yet. The ClickHouse Terraform provider waits the same second more (`internal/api/common.go`).
 */
const X_RATELIMIT_RESET_MARGIN_MS = 1000;
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
        // An absent header is Number(undefined), NaN: refused by the same test as an unreadable one.
        if (!Number.isFinite(v))
            continue;
        const margin = name === 'x-ratelimit-reset' ? X_RATELIMIT_RESET_MARGIN_MS : 0;
        return resetToDelay(v, now) + margin;
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
        if (Number.isFinite(remaining) && Number.isFinite(reset)) {
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
const DEFAULT_SLOW_NOTICE_MS = 10_000;
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
    /** Closed or halted: what every wait of a request without a signal of its own listens to. */
    stopped = AbortSignal.any([this.closed.signal, this.halted.signal]);
    unreachable;
    /** Some HTTP response came from this address: connection failures are transient from now on. */
    answered = false;
    constructor(options) {
        this.options = options;
        this.agent = new undici/* Agent */.g6({ connections: options.maxConnections ?? 32, keepAliveTimeout: 10_000 });
        this.clock = options.clock ?? pacer/* realClock */.dQ;
        // With a known limit the first request goes alone, to learn what the server has left.
        this.pacer = new pacer/* Pacer */._E(options.rateLimit, this.clock, options.rateLimit !== null);
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
    /** How long (ms) requests still wait for the rate limit, while they do. */
    pacingFor() {
        return this.pacer.heldFor();
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
        // Combined once for the requests without a signal of their own (every write): AbortSignal.any costs
        // tens of microseconds a call, a share of a loopback POST that the apply's POST phase noticed.
        const inFlight = signal ? AbortSignal.any([this.closed.signal, signal]) : this.closed.signal;
        const waiting = signal ? AbortSignal.any([inFlight, this.halted.signal]) : this.stopped;
        const maxAttempts = this.options.maxAttempts ?? 10;
        let firstSent;
        let last;
        for (let attempt = 1;; attempt++) {
            if (this.unreachable)
                throw this.notSent(base);
            const deadline = last && firstSent !== undefined ? firstSent + last.budget.ms : undefined;
            let outcome;
            try {
                outcome = await this.attempt(spec, { inFlight, waiting, deadline, own: signal !== undefined });
            }
            catch (e) {
                if (this.unreachable && !inFlight.aborted)
                    throw this.notSent(base);
                if (e instanceof pacer/* PastDeadline */.rz && last) {
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
            return { ...(await this.send(spec, ticket, limits.inFlight, timeoutMs, limits.own)), sentAt };
        }
        finally {
            // Every attempt is reported to the pacer, also when no response came (it may wait for the first).
            this.pacer.observe(ticket, undefined);
        }
    }
    async send(spec, ticket, signal, timeoutMs, own) {
        this.stats.requests++;
        const url = this.url(spec);
        const base = { method: spec.method, path: spec.path };
        const headers = {
            accept: spec.accept ?? 'application/json',
            'user-agent': `observability-deploy/${version/* VERSION */.x}`
        };
        if (this.authorization)
            headers.authorization = this.authorization;
        if (spec.body !== undefined)
            headers['content-type'] = 'application/json';
        let res;
        let text;
        const slow = this.slowNotice(spec, timeoutMs);
        try {
            res = await (0,undici/* request */.Em)(url, {
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
            });
            text = await res.body.text();
        }
        catch (e) {
            signal.throwIfAborted();
            return this.networkFailure(spec, base, e, timeoutMs);
        }
        finally {
            clearInterval(slow);
        }
        return this.outcomeOf(spec, ticket, base, res.statusCode, res.headers, text);
    }
    /** A slow server is not a silent run: say what is awaited, for how long, and the limits in force. */
    slowNotice(spec, timeoutMs) {
        const started = Date.now();
        const slow = setInterval(() => {
            const limit = timeoutMs < this.options.requestTimeoutMs
                ? `gives up at ${seconds(timeoutMs)}: what the retry budget (${seconds(this.options.retryBudgetMs)}) has left of request-timeout ${seconds(this.options.requestTimeoutMs)}`
                : `request-timeout ${seconds(timeoutMs)}, retry budget ${seconds(this.options.retryBudgetMs)}`;
            this.log.info(`still waiting for ${spec.method} ${spec.path}: ${seconds(Date.now() - started)} so far (${limit})`);
        }, this.options.slowNoticeMs ?? DEFAULT_SLOW_NOTICE_MS);
        slow.unref();
        return slow;
    }
    /** What an HTTP answer means: a response, or a failure that says whether sending again is safe. */
    outcomeOf(spec, ticket, base, status, resHeaders, text) {
        this.answered = true;
        const { body, notJson } = parseBody(text, resHeaders);
        const now = this.clock.now();
        // --verbose: every request and its answer, never a body (bodies can hold what a manifest keeps secret).
        this.log.debug(`${spec.method} ${spec.path} -> HTTP ${status}, ${text.length} bytes`);
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
                response: {
                    status,
                    headers: resHeaders,
                    body,
                    path: spec.path,
                    method: spec.method,
                    ...(notJson !== undefined ? { notJson } : {})
                }
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
        if (!isRetryableStatus(status, spec.method))
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
        const failure = classifyNetworkError(e, timeoutMs, this.options.requestTimeoutMs);
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
/**
 * JSON by its content type or by its look; anything else as the text it is, and so is JSON that does not parse
 * (with the parser's words: a body cut short is said to be one).
 */
function parseBody(text, headers) {
    if (text === '')
        return { body: undefined };
    const type = String(headers['content-type'] ?? '');
    if (!/json/i.test(type) && !/^\s*[[{]/.test(text))
        return { body: text };
    try {
        return { body: JSON.parse(text) };
    }
    catch (e) {
        return { body: text, notJson: e instanceof Error ? e.message : String(e) };
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
 * paths and what the routes answer (their envelopes and shapes: responses.ts; their pages: pages.ts; what a
 * 404 means: not-found.ts); the transport knows the network.
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
/**
 * What each route answers when the resource itself does not exist (real-server.md §0.5, §1.1, §2.1,
 * §11.3). Any other 404 is a route the server (or the gateway in front of it) does not have.
 * `status-text` is Express's `sendStatus(404)`: the plain text `Not Found`.
 */
const ABSENT_SHAPES = {
    // HyperDX answers a missing dashboard with sendStatus(404); its OpenAPI comments advertise {message}.
    dashboards: { 'self-hosted': ['status-text', 'json'], managed: ['json'] },
    // HyperDX: 404 {message: "Alert not found"}; the cloud gateway: 404 {status, error, requestId}.
    alerts: { 'self-hosted': ['json'], managed: ['json'] },
    // v2/connections.ts: sendStatus(404), the plain text `Not Found`.
    connections: { 'self-hosted': ['status-text'], managed: ['json'] },
    // v2/sources.ts, webhooks.ts, savedSearches.ts: 404 {message: "... not found"}.
    sources: { 'self-hosted': ['json'], managed: ['json'] },
    webhooks: { 'self-hosted': ['json'], managed: ['json'] },
    'saved-searches': { 'self-hosted': ['json'], managed: ['json'] },
    // v2/team.ts: sendStatus(404) for a missing invitation or member; the cloud has no team routes.
    team: { 'self-hosted': ['status-text'], managed: [] },
    // The cloud's envelope `{status, error, requestId}`; the open-source API has no roles.
    roles: { 'self-hosted': [], managed: ['json'] }
};
/** Words for a path segment's id, in errors. */
const RECORD_WORDS = {
    connections: 'connection id',
    sources: 'source id',
    webhooks: 'webhook id',
    'saved-searches': 'saved search id',
    roles: 'role id'
};
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
    pacingFor() {
        return this.transport.pacingFor();
    }
    close() {
        return this.transport.close();
    }
    async listDashboards() {
        return (await this.list('/dashboards', api_schemas/* LiveDashboard */.VQ)).map(dropStaleSelectFields);
    }
    async getDashboard(id) {
        const res = await this.send('GET', await this.item('/dashboards', id, 'dashboard id'));
        return dropStaleSelectFields(parseResponse(api_schemas/* LiveDashboard */.VQ, unwrapEnvelope(res.body), res));
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
        return parseResponse(api_schemas/* ValidateDashboardResult */.mG, unwrapEnvelope(res.body), res);
    }
    async canPatchDashboards() {
        if (this.mode !== 'self-hosted')
            return false;
        try {
            const res = await this.mcp(mcpRequest(1, 'tools/list'));
            return toolNames(replyIn(res.body)).includes(PATCH_DASHBOARD_TOOL);
        }
        catch (e) {
            // An older server (a 404 page), a proxy that refuses the route, a key the route refuses: PUT as before.
            this.log.debug(`no dashboard patch through MCP: ${e instanceof Error ? e.message : String(e)}`);
            return false;
        }
    }
    async patchDashboard(patch) {
        const res = await this.mcp(mcpRequest(1, 'tools/call', { name: PATCH_DASHBOARD_TOOL, arguments: patch }));
        const outcome = toolOutcome(replyIn(res.body));
        if (!outcome.ok)
            throw new errors/* ApiError */.hD({ method: 'POST', path: MCP_PATH, status: res.status, serverMessage: outcome.text }, `refused (tool ${PATCH_DASHBOARD_TOOL})`);
    }
    /** One JSON-RPC request to the MCP endpoint. Setting a name, tags or a tile twice leaves the same record. */
    mcp(body) {
        return this.transport.request({ method: 'POST', path: MCP_PATH, body, idempotent: true, accept: MCP_ACCEPT }, this.signal);
    }
    async listAlerts() {
        return this.list('/alerts', api_schemas/* LiveAlert */.zO, true);
    }
    async getAlert(id) {
        const res = await this.send('GET', await this.item('/alerts', id, 'alert id'));
        return parseResponse(api_schemas/* LiveAlert */.zO, unwrapEnvelope(res.body), res);
    }
    async createAlert(body) {
        const res = await this.send('POST', `${await this.base()}/alerts`, body, false);
        return parseResponse(WithId, unwrapEnvelope(res.body), res);
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
        // The contract's managed mode has no webhooks route; the public cloud's clickstack prefix has one.
        return this.managedOptional(() => this.list('/webhooks', api_schemas/* LiveWebhook */.yW, true));
    }
    async listConnections() {
        if (this.mode === 'managed')
            return undefined;
        // CONTRACT.md has no connections: a server that follows it only answers 404.
        return this.optional(() => this.list('/connections', api_schemas/* LiveConnection */.Xw));
    }
    async listSavedSearches() {
        // Not in CONTRACT.md either, nor under the managed `observability` prefix.
        return this.optional(() => this.list('/saved-searches', api_schemas/* LiveSavedSearch */._7, true));
    }
    async createRecord(collection, body) {
        const res = await this.send('POST', `${await this.base()}/${collection}`, body, false);
        return parseResponse(api_schemas/* WrittenRecord */.xK, unwrapEnvelope(res.body), res);
    }
    async updateRecord(collection, id, body) {
        const res = await this.send('PUT', await this.item(`/${collection}`, id, RECORD_WORDS[collection]), body);
        const parsed = api_schemas/* WrittenRecord */.xK.safeParse(unwrapEnvelope(res.body));
        return parsed.success ? parsed.data : { id };
    }
    async deleteRecord(collection, id) {
        return this.remove(await this.item(`/${collection}`, id, RECORD_WORDS[collection]), ABSENT_SHAPES[collection]);
    }
    async listTeam() {
        if (this.mode === 'managed')
            return undefined;
        // HyperDX before 2.36 has no team routes: a 404 on a list can only mean that.
        return this.optional(async () => {
            const [members, invitations] = await Promise.all([
                this.list('/team/members', api_schemas/* LiveTeamUser */.Xl),
                this.list('/team/invitations', api_schemas/* LiveTeamInvitation */.T$)
            ]);
            return (0,api_schemas/* teamMembersOf */.C7)(members, invitations);
        });
    }
    async inviteTeamMember(body) {
        // Idempotent on the server (v2/team.ts returns the existing invitation of that email): safe to retry.
        const res = await this.send('POST', `${await this.base()}/team/invitation`, body, true);
        return parseResponse(api_schemas/* WrittenTeamInvitation */.IU, unwrapEnvelope(res.body), res);
    }
    async deleteTeamInvitation(id) {
        return this.remove(await this.item('/team/invitation', id, 'invitation id'), ABSENT_SHAPES.team);
    }
    async deleteTeamMember(id) {
        return this.remove(await this.item('/team/member', id, 'team member id'), ABSENT_SHAPES.team);
    }
    async listRoles() {
        if (this.mode !== 'managed')
            return undefined;
        return this.optional(() => this.list('/roles', api_schemas/* LiveRole */.Bb));
    }
    /** A list the managed API may not have (the contract's `observability` prefix): a 404 is "no route". */
    async managedOptional(read) {
        return this.mode === 'managed' ? this.optional(read) : read();
    }
    /** A list route the server may not have: a 404 on a list can only mean that (a list of nothing is `[]`). */
    async optional(read) {
        try {
            return await read();
        }
        catch (e) {
            if (e instanceof errors/* ApiError */.hD && e.status === 404)
                return undefined;
            throw e;
        }
    }
    async querySeries(body) {
        const res = await this.send('POST', `${await this.base()}/charts/series`, body, true);
        return parseResponse(schemas/* array */.YOg(api_schemas/* SeriesPoint */.Ew), unwrapEnvelope(res.body), res);
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
            service: parseResponse(api_schemas/* LiveService */.Cp, unwrapEnvelope(res.body), res),
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
                // Only the gateway's page means "no such route"; a JSON 404 is the API's own answer about the path's
                // organization or service (TF client/client.go), and no other prefix would find them.
                if (e.bodyShape === 'json')
                    throw unknownService(e);
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
        const { id } = parseResponse(WithId, value, res);
        return this.getDashboard(id);
    }
    /** Reads a whole collection, following its pages (pages.ts); lists that do not paginate take one request. */
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
        return readPages(path, first, item, paginated, query => this.transport.request({ method: 'GET', path, query, idempotent: true }, this.signal));
    }
    /** A 404 that is not a resource's "not found" names the path and, in managed mode, the prefix. */
    routeError(e) {
        return routeNotFound(e, this.mode, this.state.resolved);
    }
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

/***/ 7483:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Sz: () => (/* binding */ pacedDurationMs),
/* harmony export */   _E: () => (/* binding */ Pacer),
/* harmony export */   dQ: () => (/* binding */ realClock),
/* harmony export */   rz: () => (/* binding */ PastDeadline)
/* harmony export */ });
/* unused harmony export pacedWindowMs */
/* harmony import */ var node_timers_promises__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8500);
/* harmony import */ var node_timers_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_timers_promises__WEBPACK_IMPORTED_MODULE_0__);
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
    sleep: (ms, signal) => (0,node_timers_promises__WEBPACK_IMPORTED_MODULE_0__.setTimeout)(ms, undefined, { signal })
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
/**
 * The window the pacer keeps between a request and the `requests`-th after it: the configured one plus 2% and
 * 100 ms, since a request sent exactly one window after another can arrive a little later.
 */
function pacedWindowMs(limit) {
    return limit.windowMs * 1.02 + 100;
}
/**
 * How long `requests` take once the pacer holds them back: one paced window per `limit.requests`. An estimate for
 * people (a plan's "about 31 min"): the time each request takes is not in it, nor a 429's pause.
 */
function pacedDurationMs(requests, limit) {
    return (requests / limit.requests) * pacedWindowMs(limit);
}
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
    /** While requests wait for a slot: until when (ms epoch), for whoever shows progress. */
    holding;
    constructor(limit, clock = realClock, 
    /** Send the first request alone (the caller reports every answer with observe()). */
    probeFirst = false) {
        this.limit = limit;
        this.clock = clock;
        this.probeFirst = probeFirst;
        this.windowMs = limit ? pacedWindowMs(limit) : 0;
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
    /** How long (ms) requests are still held for the rate limit; undefined when none is. */
    heldFor() {
        const left = this.holding === undefined ? 0 : this.holding - this.clock.now();
        return left > 0 ? left : undefined;
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
            this.holding = Math.max(this.holding ?? 0, until);
            try {
                await this.clock.sleep(until - now, signal);
            }
            finally {
                if (this.holding !== undefined && this.holding <= this.clock.now())
                    this.holding = undefined;
            }
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


/***/ }),

/***/ 8164:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Bb: () => (/* binding */ LiveRole),
/* harmony export */   C7: () => (/* binding */ teamMembersOf),
/* harmony export */   Cp: () => (/* binding */ LiveService),
/* harmony export */   Ew: () => (/* binding */ SeriesPoint),
/* harmony export */   IU: () => (/* binding */ WrittenTeamInvitation),
/* harmony export */   T$: () => (/* binding */ LiveTeamInvitation),
/* harmony export */   VQ: () => (/* binding */ LiveDashboard),
/* harmony export */   Wn: () => (/* binding */ LiveSource),
/* harmony export */   Xl: () => (/* binding */ LiveTeamUser),
/* harmony export */   Xw: () => (/* binding */ LiveConnection),
/* harmony export */   _7: () => (/* binding */ LiveSavedSearch),
/* harmony export */   mG: () => (/* binding */ ValidateDashboardResult),
/* harmony export */   s: () => (/* binding */ sameId),
/* harmony export */   sF: () => (/* binding */ PaginationMeta),
/* harmony export */   wH: () => (/* binding */ WrittenDashboard),
/* harmony export */   xK: () => (/* binding */ WrittenRecord),
/* harmony export */   yW: () => (/* binding */ LiveWebhook),
/* harmony export */   zO: () => (/* binding */ LiveAlert)
/* harmony export */ });
/* unused harmony exports LiveTile, LiveRolePermission */
/* harmony import */ var zod__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(2857);
/* harmony import */ var _json_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8301);
/**
 * What we accept from the servers. Strict about the fields we rely on, tolerant of everything else
 * (extra fields pass through and are carried over on update), because CONTRACT.md, FACTS.md and the
 * real servers each show a little more or less.
 */


const isListOfRecords = (v) => Array.isArray(v) && v.every(_json_js__WEBPACK_IMPORTED_MODULE_0__/* .isMapping */ .pi);
/** Ids are compared as strings: a server that sends numbers still works. */
const id = zod__WEBPACK_IMPORTED_MODULE_1__/* .union */ .KCZ([zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().min(1), zod__WEBPACK_IMPORTED_MODULE_1__/* .number */ .aig()]).transform(String);
const rawId = zod__WEBPACK_IMPORTED_MODULE_1__/* .union */ .KCZ([zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().min(1), zod__WEBPACK_IMPORTED_MODULE_1__/* .number */ .aig()]);
const sameId = (a, b) => a !== undefined && a !== null && b !== undefined && b !== null && String(a) === String(b);
const nullish = (s) => s.nullable().optional();
const LiveTile = zod__WEBPACK_IMPORTED_MODULE_1__/* .looseObject */ ._H3({
    id: rawId.optional(),
    name: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().default(''),
    x: zod__WEBPACK_IMPORTED_MODULE_1__/* .number */ .aig(),
    y: zod__WEBPACK_IMPORTED_MODULE_1__/* .number */ .aig(),
    w: zod__WEBPACK_IMPORTED_MODULE_1__/* .number */ .aig(),
    h: zod__WEBPACK_IMPORTED_MODULE_1__/* .number */ .aig(),
    /**
     * FACTS.md: the server returns the newer `config` form; CONTRACT.md shows `series`, and an older server
     * may echo it. Both are kept as given (checked to be a mapping or a list of mappings, not copied): the
     * normal form reads them defensively, and an update carries unknown config keys back.
     */
    config: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .custom */ .IeY(_json_js__WEBPACK_IMPORTED_MODULE_0__/* .isMapping */ .pi, 'expected a mapping')),
    series: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .custom */ .IeY(isListOfRecords, 'expected a list of mappings')),
    asRatio: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .boolean */ .zMY()),
    containerId: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    tabId: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP())
});
const records = nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .custom */ .IeY(isListOfRecords, 'expected a list of mappings'));
/** What the apply needs from a dashboard write's answer: the id and the tile ids the server assigned. */
const WrittenDashboard = zod__WEBPACK_IMPORTED_MODULE_1__/* .looseObject */ ._H3({
    id,
    tiles: zod__WEBPACK_IMPORTED_MODULE_1__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_1__/* .looseObject */ ._H3({ id: rawId.optional(), name: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().default('') }))
});
const LiveDashboard = zod__WEBPACK_IMPORTED_MODULE_1__/* .looseObject */ ._H3({
    id,
    name: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().default(''),
    tags: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP())).transform(t => t ?? []),
    tiles: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .array */ .YOg(LiveTile)).transform(t => t ?? []),
    filters: records,
    savedQuery: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    savedQueryLanguage: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    savedFilterValues: records,
    containers: records
});
const Channel = zod__WEBPACK_IMPORTED_MODULE_1__/* .looseObject */ ._H3({ type: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().optional(), webhookId: nullish(id) });
const LiveAlert = zod__WEBPACK_IMPORTED_MODULE_1__/* .looseObject */ ._H3({
    id,
    name: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    message: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    // CONTRACT.md does not show the alert record: only the id is relied on; the rest compares as given.
    threshold: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .number */ .aig()),
    thresholdMax: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .number */ .aig()),
    thresholdType: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    interval: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    source: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    channel: nullish(Channel),
    channels: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .array */ .YOg(Channel)),
    dashboardId: nullish(id),
    tileId: nullish(id),
    savedSearchId: nullish(id),
    groupBy: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    numConsecutiveWindows: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .number */ .aig()),
    note: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    scheduleOffsetMinutes: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .number */ .aig()),
    scheduleStartAt: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    // HyperDX after 2.36 (pull requests 3063/3065): the stored value, or the one derived when none is stored.
    displayName: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    tags: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()))
});
/** Every kind's fields pass through: the Source kind compares them all (real-server.md §4.3). */
const LiveSource = zod__WEBPACK_IMPORTED_MODULE_1__/* .looseObject */ ._H3({
    id,
    name: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().default(''),
    kind: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    connection: nullish(id)
});
/** HyperDX `externalWebhookSchema`: the url in plain text, `body` for generic only; headers never. */
const LiveWebhook = zod__WEBPACK_IMPORTED_MODULE_1__/* .looseObject */ ._H3({
    id,
    name: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().default(''),
    service: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    url: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    description: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    body: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP())
});
/** HyperDX `externalConnectionSchema`: everything but the password. */
const LiveConnection = zod__WEBPACK_IMPORTED_MODULE_1__/* .looseObject */ ._H3({
    id,
    name: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().default(''),
    host: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    username: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    hyperdxSettingPrefix: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    isPrometheusEndpoint: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .boolean */ .zMY())
});
/** HyperDX `toExternalJSON` of a saved search. */
const LiveSavedSearch = zod__WEBPACK_IMPORTED_MODULE_1__/* .looseObject */ ._H3({
    id,
    name: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().default(''),
    sourceId: nullish(id),
    select: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    where: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    whereLanguage: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    orderBy: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    tags: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP())).transform(t => t ?? []),
    filters: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_1__/* .record */ .g1P(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP(), zod__WEBPACK_IMPORTED_MODULE_1__/* .unknown */ .L5J())))
});
/**
 * v2/team.ts GET /team/members: the users of the key's team. `isCurrentUser` marks the key's own user, whom
 * the server refuses to remove ("You cannot remove yourself from the team").
 */
const LiveTeamUser = zod__WEBPACK_IMPORTED_MODULE_1__/* .looseObject */ ._H3({
    id,
    email: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP(),
    name: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    isCurrentUser: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .boolean */ .zMY())
});
/**
 * v2/team.ts GET /team/invitations and POST /team/invitation. Their `url` carries the invitation's token
 * (`/join-team?token=...`), which lets anyone who holds it join the team: a strict object of the fields we
 * use, so the url is dropped here, at the boundary, and never reaches the plan, a log or a report.
 */
const LiveTeamInvitation = zod__WEBPACK_IMPORTED_MODULE_1__/* .object */ .Ikc({
    id,
    email: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP(),
    name: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    createdAt: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP())
})
    .strip();
/** POST /team/invitation answers `{email, invitationId, status, url}`: the url (a secret) is dropped. */
const WrittenTeamInvitation = zod__WEBPACK_IMPORTED_MODULE_1__/* .object */ .Ikc({ invitationId: id, email: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP(), status: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()) })
    .strip()
    .transform(i => ({ id: i.invitationId, email: i.email, status: i.status }));
/** The members and the invitations, one record per email. */
function teamMembersOf(members, invitations) {
    const byEmail = new Map();
    for (const m of members) {
        const email = m.email.toLowerCase();
        byEmail.set(email, {
            email,
            ...(m.name ? { name: m.name } : {}),
            userId: m.id,
            ...(m.isCurrentUser ? { currentUser: true } : {})
        });
    }
    for (const i of invitations) {
        const email = i.email.toLowerCase();
        const member = byEmail.get(email);
        if (member)
            member.invitationId = i.id;
        else
            byEmail.set(email, { email, ...(i.name ? { name: i.name } : {}), invitationId: i.id });
    }
    return [...byEmail.values()].sort((a, b) => a.email.localeCompare(b.email));
}
/**
 * A CASL rule of a role (cloud OpenAPI `ClickStackCASLPermission`): `action` and `subject` required, the rest
 * optional; `conditions` an opaque mapping. `fields` is not in the cloud's schema but in HyperDX's own role model
 * (the Terraform provider's client/role.go): read so a rule that carries it is never mistaken for one without.
 */
const LiveRolePermission = zod__WEBPACK_IMPORTED_MODULE_1__/* .looseObject */ ._H3({
    action: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP(),
    subject: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP(),
    inverted: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .boolean */ .zMY()),
    integration: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    conditions: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .record */ .g1P(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP(), zod__WEBPACK_IMPORTED_MODULE_1__/* .unknown */ .L5J())),
    fields: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()))
});
/**
 * The managed cloud's `ClickStackRole` (GET `.../clickstack/roles`): `id`, `name`, `permissions` and
 * `isPredefined` are required there and relied on here (a predefined role is never planned or exported).
 */
const LiveRole = zod__WEBPACK_IMPORTED_MODULE_1__/* .looseObject */ ._H3({
    id,
    name: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP(),
    description: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    permissions: zod__WEBPACK_IMPORTED_MODULE_1__/* .array */ .YOg(LiveRolePermission),
    isPredefined: zod__WEBPACK_IMPORTED_MODULE_1__/* .boolean */ .zMY()
});
/** What a create of a connection, source, webhook or saved search answers: the record, with its id. */
const WrittenRecord = zod__WEBPACK_IMPORTED_MODULE_1__/* .looseObject */ ._H3({ id });
const IpEntry = zod__WEBPACK_IMPORTED_MODULE_1__/* .looseObject */ ._H3({ source: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP(), description: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()) });
const LiveService = zod__WEBPACK_IMPORTED_MODULE_1__/* .looseObject */ ._H3({
    id: id.optional(),
    name: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().optional(),
    tier: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    releaseChannel: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()),
    ipAccessList: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .array */ .YOg(IpEntry)),
    privateEndpointIds: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP())),
    endpoints: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_1__/* .looseObject */ ._H3({ protocol: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP(), enabled: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .boolean */ .zMY()), host: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()) }))),
    hasTransparentDataEncryption: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .boolean */ .zMY()),
    transparentDataEncryptionKeyId: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP())
});
/**
 * A row of POST /charts/series: by default `{ts_bucket, group, 'series_0.data'}`; with `seriesReturnType: column`
 * the raw row, `{series_0, <group columns>, __hdx_time_bucket}` (live/series-rows.ts reads both).
 */
const SeriesPoint = zod__WEBPACK_IMPORTED_MODULE_1__/* .looseObject */ ._H3({
    ts_bucket: zod__WEBPACK_IMPORTED_MODULE_1__/* .union */ .KCZ([zod__WEBPACK_IMPORTED_MODULE_1__/* .number */ .aig(), zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()]).optional(),
    group: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_1__/* .unknown */ .L5J()))
});
const ValidateDashboardResult = zod__WEBPACK_IMPORTED_MODULE_1__/* .looseObject */ ._H3({
    valid: zod__WEBPACK_IMPORTED_MODULE_1__/* .boolean */ .zMY(),
    errors: nullish(zod__WEBPACK_IMPORTED_MODULE_1__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_1__/* .looseObject */ ._H3({ path: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().default(''), message: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP() }))),
    normalized: zod__WEBPACK_IMPORTED_MODULE_1__/* .unknown */ .L5J().optional()
});
const PaginationMeta = zod__WEBPACK_IMPORTED_MODULE_1__/* .looseObject */ ._H3({
    total: zod__WEBPACK_IMPORTED_MODULE_1__/* .number */ .aig().optional(),
    limit: zod__WEBPACK_IMPORTED_MODULE_1__/* .number */ .aig().optional(),
    offset: zod__WEBPACK_IMPORTED_MODULE_1__/* .number */ .aig().optional()
});


/***/ }),

/***/ 8620:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   AS: () => (/* binding */ copiedName),
/* harmony export */   G7: () => (/* binding */ isPreviewCopy),
/* harmony export */   GO: () => (/* binding */ copyBody),
/* harmony export */   JX: () => (/* binding */ copyFacts),
/* harmony export */   OZ: () => (/* binding */ previewCopyTags),
/* harmony export */   PM: () => (/* binding */ previewStackTag),
/* harmony export */   qK: () => (/* binding */ setPreviewCopiesAside),
/* harmony export */   vC: () => (/* binding */ copyName)
/* harmony export */ });
/* unused harmony exports pullRequestTag, writtenAtTag, isRawSqlTile */
/* harmony import */ var _manifest_rules_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(601);
/* harmony import */ var _manifest_vocabulary_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7817);
/* harmony import */ var _ownership_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(9586);
/**
 * A live preview copy: a dashboard a pull request's plan creates or changes, written to the server as it would be
 * after the merge, so a reviewer opens it in the real UI. It is named `[PR #7] <name>` and carries tags of its own,
 * never the stack's ownership tag, so no stage takes it for the stack's: `obsdeploy-preview:<stack>` (what marks a
 * copy, and whose it is), `obsdeploy-pr:<number>` and `obsdeploy-at:<minute of its last write>`. The server keeps
 * no dates a client can read (the v2 API returns none), so the last tag is how a copy's age is known.
 *
 * A copy has no alerts (they are separate records, never copied), and its raw SQL tiles are replaced by a markdown
 * tile that says why unless the run allows them: a copy runs its queries on the live connection as soon as anyone
 * opens it, before the pull request is reviewed.
 */



/** Whether a dashboard is a preview copy (of any stack): never a dashboard the stack owns, adopts or exports. */
const isPreviewCopy = (d) => d.tags.some(t => t.startsWith(_manifest_rules_js__WEBPACK_IMPORTED_MODULE_0__/* .PREVIEW_TAG_PREFIXES */ .Dl.stack));
/**
 * The live read's dashboards without the preview copies, which go to `previewCopies`: the live preview's stage reads
 * them there, and no other stage sees one. The registry's and the apply's own lists look for the ownership tag, which
 * a copy never has.
 */
function setPreviewCopiesAside(state) {
    // Absent when the read was of other kinds only.
    const dashboards = state.Dashboard;
    if (!dashboards?.some(isPreviewCopy))
        return;
    state.previewCopies = dashboards.filter(isPreviewCopy);
    state.Dashboard = dashboards.filter(d => !isPreviewCopy(d));
}
/** The tag that marks a stack's copies (shortened with a hash to fit the tag limit, as the ownership tag is). */
const previewStackTag = (stack) => (0,_ownership_js__WEBPACK_IMPORTED_MODULE_2__/* .stackTag */ .v$)(_manifest_rules_js__WEBPACK_IMPORTED_MODULE_0__/* .PREVIEW_TAG_PREFIXES */ .Dl.stack, stack);
const pullRequestTag = (pullRequest) => `${_manifest_rules_js__WEBPACK_IMPORTED_MODULE_0__/* .PREVIEW_TAG_PREFIXES */ .Dl.pullRequest}${pullRequest}`;
/** `obsdeploy-at:2026-12-06T07:56Z`: 30 characters, within the tag limit. */
const writtenAtTag = (at) => `${_manifest_rules_js__WEBPACK_IMPORTED_MODULE_0__/* .PREVIEW_TAG_PREFIXES */ .Dl.writtenAt}${at.toISOString().slice(0, 16)}Z`;
function previewCopyTags(stack, pullRequest, writtenAt) {
    return [previewStackTag(stack), pullRequestTag(pullRequest), writtenAtTag(writtenAt)];
}
const PREFIX = (pullRequest) => `[PR #${pullRequest}] `;
/** `[PR #7] Checkout`, within the server's name limit. */
function copyName(pullRequest, name) {
    const prefix = PREFIX(pullRequest);
    return `${prefix}${name.slice(0, _manifest_vocabulary_js__WEBPACK_IMPORTED_MODULE_1__/* .LIMITS */ .b1.dashboardName - prefix.length)}`;
}
/** The dashboard's own name, from its copy's. */
function copiedName(pullRequest, name) {
    const prefix = PREFIX(pullRequest);
    return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}
/** What a copy's tags say: its pull request and when it was last written (undefined where a tag is missing). */
function copyFacts(d) {
    const out = {};
    for (const tag of d.tags) {
        if (tag.startsWith(_manifest_rules_js__WEBPACK_IMPORTED_MODULE_0__/* .PREVIEW_TAG_PREFIXES */ .Dl.pullRequest)) {
            const n = Number(tag.slice(_manifest_rules_js__WEBPACK_IMPORTED_MODULE_0__/* .PREVIEW_TAG_PREFIXES */ .Dl.pullRequest.length));
            if (Number.isSafeInteger(n) && n > 0)
                out.pullRequest = n;
        }
        else if (tag.startsWith(_manifest_rules_js__WEBPACK_IMPORTED_MODULE_0__/* .PREVIEW_TAG_PREFIXES */ .Dl.writtenAt)) {
            const at = new Date(tag.slice(_manifest_rules_js__WEBPACK_IMPORTED_MODULE_0__/* .PREVIEW_TAG_PREFIXES */ .Dl.writtenAt.length));
            if (!Number.isNaN(at.getTime()))
                out.writtenAt = at;
        }
    }
    return out;
}
/** Whether a request's tile runs raw SQL (`configType: sql`) on its connection. */
const isRawSqlTile = (tile) => tile.config?.configType === 'sql';
const LAYOUT_FIELDS = ['name', 'x', 'y', 'w', 'h', 'containerId', 'tabId'];
const SQL_PLACEHOLDER = "This tile runs raw SQL. A preview copy leaves it out: the copy would run the pull request's SQL on the live connection before anyone reviewed it. Set `live-preview-sql: true` to include raw SQL tiles.";
/**
 * A copy's request from the dashboard's create request: its name and tags, tiles without ids (the server gives a
 * copy its own), each raw SQL tile a markdown placeholder in its place unless `sql`.
 */
function copyBody(request, options) {
    const sqlLeftOut = [];
    const tiles = (Array.isArray(request.tiles) ? request.tiles : []).map(tile => {
        const { id: _id, ...rest } = tile;
        if (options.sql || !isRawSqlTile(tile))
            return rest;
        sqlLeftOut.push(String(tile.name ?? ''));
        const placeholder = {};
        for (const field of LAYOUT_FIELDS)
            if (tile[field] !== undefined)
                placeholder[field] = tile[field];
        // The series form: both deployments' APIs take it (the managed one has no markdown config).
        placeholder.series = [{ type: 'markdown', content: SQL_PLACEHOLDER }];
        return placeholder;
    });
    return { body: { ...request, name: options.name, tags: options.tags, tiles }, sqlLeftOut };
}


/***/ })

};
