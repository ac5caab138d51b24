export const id = 404;
export const ids = [404];
export const modules = {

/***/ 3249:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Gb: () => (/* binding */ requestIdOf),
/* harmony export */   RD: () => (/* binding */ ResponseShapeError),
/* harmony export */   YJ: () => (/* binding */ serverMessageOf),
/* harmony export */   hD: () => (/* binding */ ApiError),
/* harmony export */   rk: () => (/* binding */ UnknownOutcomeError)
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
/** The server answered 2xx with a body we do not understand: names the route and the field. */
class ResponseShapeError extends ApiError {
    field;
    constructor(details, field, problem) {
        super(details, `returned an unexpected response: ${field ? `field ${field}: ` : ''}${problem}`);
        this.field = field;
        this.name = 'ResponseShapeError';
    }
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

/***/ 3404:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  G: () => (/* binding */ KINDS)
});

// EXTERNAL MODULE: ./src/api/errors.ts
var errors = __webpack_require__(3249);
;// CONCATENATED MODULE: ./src/apply/create-once.ts
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
            if (!(e instanceof errors/* UnknownOutcomeError */.rk))
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

// EXTERNAL MODULE: ./src/api/schemas.ts
var schemas = __webpack_require__(8164);
// EXTERNAL MODULE: ./src/diagnostics.ts
var diagnostics = __webpack_require__(4851);
// EXTERNAL MODULE: ./src/manifest/issues.ts
var issues = __webpack_require__(9597);
;// CONCATENATED MODULE: ./src/plan/resolve.ts
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

// EXTERNAL MODULE: ./src/manifest/rules.ts + 1 modules
var rules = __webpack_require__(6364);
// EXTERNAL MODULE: ./src/manifest/vocabulary.ts
var vocabulary = __webpack_require__(7817);
// EXTERNAL MODULE: ./src/kinds/ownership.ts
var ownership = __webpack_require__(9586);
// EXTERNAL MODULE: ./src/kinds/tile-normal-form.ts
var tile_normal_form = __webpack_require__(6134);
;// CONCATENATED MODULE: ./src/kinds/dashboard.ts
/**
 * Dashboards. Identity: an `id:` pin, then this stack's own dashboard of the same name, then the one
 * named in `renamedFrom`, then (only with `adopt: true`) an unowned one of the same name. Tiles are
 * matched by name and keep their ids on update (FACTS.md: a tile sent without its id is a new tile,
 * and the server deletes the alerts of the tile that went away).
 */









/** Dashboard fields we do not manage but must not lose: a PUT may replace the whole record. */
const CARRIED_DASHBOARD_FIELDS = [
    'filters',
    'savedQuery',
    'savedQueryLanguage',
    'savedFilterValues',
    'containers'
];
const CARRIED_TILE_FIELDS = ['containerId', 'tabId'];
const readyToken = (desiredName) => `dashboard-ready:${desiredName}`;
const alertsClearedToken = (liveId) => `alerts-cleared:${liveId}`;
const dashboardLock = (key) => `dashboard:${key}`;
const isAlertable = (type) => vocabulary/* ALERTABLE_DISPLAY_TYPES */.Ei.includes(type ?? '');
const dashboardKind = {
    kind: 'Dashboard',
    keyedPaths: new Set(['tiles']),
    desired(ctx) {
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
    },
    pair(desired, ctx) {
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
        const planError = (d, path, message) => ctx.report((0,diagnostics/* diagnostic */.YK)('plan', 'error', message, { ...d.value.located.doc.locate(path), field: (0,issues/* formatPath */.jV)(path) }));
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
                const ownerTag = other.tags.find(ownership/* isOwnershipTag */.GN);
                planError(d, ['name'], `a dashboard named "${d.name}" already exists (id ${other.id}) and is not owned by stack "${ctx.settings.stack}"` +
                    `${ownerTag ? ` (it carries ${ownerTag})` : ''}. It is not overwritten: to manage it from this manifest, add \`adopt: true\`` +
                    ` (or \`id: ${other.id}\`); to keep both, give this manifest another name.`);
            }
        }
        result.orphans = owned.filter(d => !used.has(d.id));
        // A rename without renamedFrom looks like a create plus an orphan with the same tiles. With prune
        // it is a replace (new ids, alerts recreated); without prune nothing is deleted, and the plan says so.
        const orphanKeys = new Map(result.orphans.map(o => [o, tileNameKey(o.tiles.map(t => t.name))]));
        for (const pair of result.pairs) {
            if (pair.live || orphanKeys.size === 0)
                continue;
            const names = tileNameKey(pair.desired.value.spec.tiles?.map(t => t.name) ?? []);
            const twin = names ? result.orphans.find(o => orphanKeys.get(o) === names) : undefined;
            if (!twin)
                continue;
            const hint = `add \`renamedFrom: ${JSON.stringify(twin.name)}\` to rename it in place and keep its id, tile ids and alerts`;
            if (ctx.settings.prune) {
                pair.replaces = twin;
                result.orphans = result.orphans.filter(o => o !== twin);
                pair.notes = [
                    `looks like a rename of "${twin.name}" (same tiles). Without \`renamedFrom\` this is a replace: a new dashboard is created with new tile ids, its alerts are recreated, and "${twin.name}" is deleted; ${hint}`
                ];
            }
            else {
                pair.notes = [
                    `looks like a rename of "${twin.name}" (same tiles). Without \`renamedFrom\` this creates a new dashboard and "${twin.name}" stays until prune; ${hint}`
                ];
            }
        }
        return result;
    },
    normalDesired(d, ctx) {
        const tiles = {};
        for (const t of d.value.tiles)
            tiles[t.spec.name] = flatTile(t.body);
        return withoutUndefined({
            name: d.name,
            owner: ctx.settings.ownershipTag,
            tags: (0,ownership/* userTags */.Rz)(d.value.spec.tags ?? []),
            tiles
        });
    },
    normalLive(l, ctx) {
        const tiles = {};
        for (const [key, t] of keyedLiveTiles(l))
            tiles[key] = flatTile(t);
        const owner = l.tags.includes(ctx.settings.ownershipTag)
            ? ctx.settings.ownershipTag
            : l.tags.find(ownership/* isOwnershipTag */.GN);
        return withoutUndefined({ name: l.name, owner, tags: (0,ownership/* userTags */.Rz)(l.tags), tiles });
    },
    liveName: l => l.name,
    liveId: l => l.id,
    refine(pc, ctx) {
        const { change, desired, live } = pc;
        if (!desired || !live || pc.replaces)
            return;
        const desiredByName = new Map(desired.value.tiles.map(t => [t.spec.name, t]));
        const liveTiles = keyedLiveTiles(live);
        const dropped = [...liveTiles].filter(([key]) => !desiredByName.has(key));
        const added = desired.value.tiles.filter(t => !liveTiles.has(t.spec.name));
        const alertsOn = (tileId) => tileId !== undefined
            ? ctx.live.alerts
                .filter(a => a.dashboardId === live.id && (0,schemas/* sameId */.s)(a.tileId, tileId))
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
    },
    conclude(changes, ctx) {
        for (const { change, desired, live, replaces } of changes) {
            const current = replaces ? undefined : live;
            // Desired tiles that can carry alerts: a live tile not among them goes away, or loses its alerts.
            const alertable = new Set(desired?.value.tiles.filter(t => isAlertable((0,rules/* tileDisplayType */.PR)(t.spec))).map(t => t.spec.name) ?? []);
            if (desired) {
                ctx.dashboards.desired.set(desired.name, {
                    address: change.address,
                    liveId: current?.id,
                    tileIds: current ? tileIdsOf(current) : new Map()
                });
            }
            for (const l of [live, replaces]) {
                if (!l)
                    continue;
                const droppedTileIds = new Set();
                if (desired && l === current) {
                    for (const [key, t] of keyedLiveTiles(l))
                        if (t.id !== undefined && !alertable.has(key))
                            droppedTileIds.add(String(t.id));
                }
                ctx.dashboards.live.set(l.id, {
                    address: change.address,
                    desiredName: l === current ? desired?.name : undefined,
                    deleted: l === replaces || (change.action === 'delete' && !change.deferred),
                    droppedTileIds
                });
            }
        }
    },
    operations(pc, octx) {
        const { change, desired, live, replaces } = pc;
        if (change.action === 'noop' || change.deferred)
            return [];
        if (change.action === 'delete' && live) {
            return [
                {
                    address: change.address,
                    label: 'delete',
                    lock: dashboardLock(live.id),
                    provides: [],
                    after: [alertsClearedToken(live.id)],
                    run: async (ctx) => {
                        const outcome = await ctx.api.deleteDashboard(live.id);
                        return {
                            status: 'applied',
                            id: live.id,
                            message: outcome === 'absent' ? 'already gone' : undefined
                        };
                    }
                }
            ];
        }
        if (!desired)
            return [];
        const name = desired.name;
        const ops = [];
        if (live && !replaces) {
            ops.push({
                address: change.address,
                label: 'update',
                lock: dashboardLock(live.id),
                provides: [readyToken(name)],
                after: [alertsClearedToken(live.id)],
                run: async (ctx) => {
                    const updated = await ctx.api.updateDashboard(live.id, updateBody(desired.value, live, octx.settings.ownershipTag));
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
        if (replaces) {
            ops.push({
                address: change.address,
                label: `delete "${replaces.name}" (replaced)`,
                lock: dashboardLock(replaces.id),
                provides: [],
                after: [readyToken(name), alertsClearedToken(replaces.id)],
                run: async (ctx) => {
                    await ctx.api.deleteDashboard(replaces.id);
                    return { status: 'applied', id: replaces.id };
                }
            });
        }
        return ops;
    }
};
/**
 * Creates without ever creating twice: when the response is lost (UnknownOutcomeError), re-read the
 * dashboards and adopt ours if the server did commit it, before trying again.
 */
function createDashboard(ctx, d, name) {
    const body = createBody(d, ctx.settings.ownershipTag);
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
function createBody(d, tag) {
    return {
        name: d.spec.name,
        tags: [...(0,ownership/* userTags */.Rz)(d.spec.tags ?? []), tag],
        tiles: d.tiles.map(t => ({ ...t.body }))
    };
}
function updateBody(d, live, tag) {
    const liveTiles = keyedLiveTiles(live);
    const body = {};
    for (const field of CARRIED_DASHBOARD_FIELDS)
        if (live[field] !== undefined && live[field] !== null)
            body[field] = live[field];
    body.name = d.spec.name;
    // The user's tags and this stack's: a dashboard has one owner, so adopting one from another stack
    // removes that stack's tag (the plan says so).
    body.tags = [...new Set([...(0,ownership/* userTags */.Rz)(d.spec.tags ?? []), tag])];
    body.tiles = d.tiles.map(t => {
        const before = liveTiles.get(t.spec.name);
        if (!before)
            return { ...t.body };
        // The id exactly as the server sent it: the server matches tiles by id.
        const tile = { id: before.id, ...t.body };
        for (const field of CARRIED_TILE_FIELDS)
            if (before[field] !== undefined && before[field] !== null)
                tile[field] = before[field];
        // Config keys we do not model (set in the UI) survive an update of the same display type.
        const sent = tile.config;
        if (sent && before.config && before.config.displayType === sent.displayType) {
            const extra = Object.fromEntries(Object.entries(before.config).filter(([k]) => !(0,tile_normal_form/* isModelledConfigKey */.CY)(k) && !(k in sent)));
            tile.config = { ...extra, ...sent };
        }
        if (tile.id === undefined)
            delete tile.id;
        return tile;
    });
    return body;
}
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
    return (0,tile_normal_form/* normalTile */.ow)(asNormalInput(t)).config.displayType;
}
function flatTile(t) {
    const n = (0,tile_normal_form/* normalTile */.ow)(asNormalInput(t));
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
    return (0,tile_normal_form/* equal */.LC)(a, b);
}
const tileNameKey = (names) => (names.length === 0 ? '' : JSON.stringify([...names].sort()));
function withoutUndefined(o) {
    return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}
function adoptionNote(live, tag) {
    const other = live.tags.find(t => (0,ownership/* isOwnershipTag */.GN)(t) && t !== tag);
    return other
        ? `adopts dashboard ${live.id} from ${other}: this stack takes ownership and removes that tag, so the other stack no longer manages it (nor its alerts)`
        : `adopts existing dashboard ${live.id}: it gets this stack's ownership tag ${tag}`;
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
    ctx.report((0,diagnostics/* diagnostic */.YK)('plan', 'error', resolution.error, { ...at, field: (0,issues/* formatPath */.jV)([...path, field]) }));
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
    if (Array.isArray(body.select) && c.displayType === 'search')
        body.select = body.select.join(', ');
    return body;
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
            const live = candidates.find(a => a.dashboardId === target?.liveId && (0,schemas/* sameId */.s)(a.tileId, target?.tileIds.get(d.value.spec.tile))) ?? candidates[0];
            if (live)
                used.add(live.id);
            return { desired: d, live };
        });
        return { pairs, orphans: owned.filter(a => !used.has(a.id)) };
    },
    normalDesired(d) {
        const s = d.value.spec;
        return normal({
            name: s.name,
            dashboard: s.dashboard,
            tile: s.tile,
            source: s.source ?? 'tile',
            threshold: s.threshold,
            thresholdMax: s.thresholdMax,
            thresholdType: s.thresholdType,
            interval: s.interval,
            webhook: d.value.webhookLabel,
            message: s.message,
            numConsecutiveWindows: s.numConsecutiveWindows,
            note: s.note
        });
    },
    normalLive(l, ctx) {
        const dash = l.dashboardId ? ctx.dashboards.live.get(l.dashboardId) : undefined;
        const liveDash = l.dashboardId ? liveDashboardsById(ctx).get(l.dashboardId) : undefined;
        const tile = liveDash?.tiles.find(t => (0,schemas/* sameId */.s)(t.id, l.tileId));
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
            message: l.message,
            numConsecutiveWindows: l.numConsecutiveWindows,
            note: l.note
        });
    },
    liveName: l => l.name ?? l.id,
    liveId: l => l.id,
    refine(pc, ctx) {
        const { change, desired, live } = pc;
        if (!live)
            return;
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
            (0,schemas/* sameId */.s)(target.tileIds.get(desired.value.spec.tile), live.tileId);
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
            ops.push({
                address: change.address,
                label: 'delete',
                lock: liveDash ? dashboardLock(liveDash) : undefined,
                provides: [alertDeletedToken(live.id), ...(liveDash ? [alertsClearedToken(liveDash)] : [])],
                after: [],
                run: async (ctx) => {
                    const outcome = await ctx.api.deleteAlert(live.id);
                    return {
                        status: 'applied',
                        id: live.id,
                        message: outcome === 'absent' ? 'already deleted by the server' : undefined
                    };
                }
            });
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
                run: ctx => createAlert(ctx, desired.value, octx)
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
    const report = (message) => ctx.report((0,diagnostics/* diagnostic */.YK)('plan', 'error', message, {
        ...located.doc.locate(['channel', field]),
        field: (0,issues/* formatPath */.jV)(['channel', field])
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
    return ((0,tile_normal_form/* clean */.uH)(o) ?? {});
}
/** Alert settings the manifest does not manage, kept on update: a PUT replaces the whole alert (OpenAPI). */
const CARRIED_ALERT_FIELDS = ['scheduleOffsetMinutes', 'scheduleStartAt'];
function alertBody(d, ctx, octx, live) {
    const s = d.spec;
    const dashName = s.dashboard;
    const fromRun = ctx.facts.get(readyToken(dashName));
    const planned = octx.dashboards.desired.get(dashName);
    const dashboardId = fromRun?.id ?? planned?.liveId;
    const tileId = fromRun?.tileIds?.get(s.tile) ?? planned?.tileIds.get(s.tile);
    if (!dashboardId || !tileId)
        throw new Error(`dashboard "${dashName}" or its tile "${s.tile}" has no id yet`);
    const body = {
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
    if (live) {
        for (const field of CARRIED_ALERT_FIELDS)
            if (live[field] !== undefined && live[field] !== null)
                body[field] = live[field];
        // More channels than the one the manifest manages (added in the UI) stay, after ours: the API wants
        // `channel` to be the first of `channels` when both are sent.
        const others = (live.channels ?? []).slice(1).filter(c => c.webhookId !== d.webhookId);
        if (others.length > 0)
            body.channels = [body.channel, ...others];
    }
    return body;
}
/** Duplicate-safe: after a lost response, re-read the alerts and adopt ours if it was committed. */
function createAlert(ctx, d, octx) {
    const body = alertBody(d, ctx, octx);
    return createOnce(ctx, {
        what: 'alerts',
        name: d.spec.name,
        create: () => ctx.api.createAlert(body),
        created: c => ({ status: 'applied', id: c.id }),
        list: () => ctx.api.listAlerts(),
        find: all => all.find(a => a.name === d.spec.name &&
            a.dashboardId === body.dashboardId &&
            (0,schemas/* sameId */.s)(a.tileId, body.tileId)),
        adopted: found => ({ status: 'adopted', id: found.id })
    });
}

// EXTERNAL MODULE: ./src/plan/diff.ts
var diff = __webpack_require__(8256);
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
                            if (e instanceof errors/* ApiError */.hD &&
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
                        if (!(e instanceof errors/* UnknownOutcomeError */.rk))
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
                        remaining = (0,diff/* diffValues */.I)(liveNormal(reread.service, desired.value), desiredNormal(desired.value)).map(f => `${f.path}: server has ${JSON.stringify(f.before ?? null)}, manifest wants ${JSON.stringify(f.after ?? null)}`);
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
    return ((0,tile_normal_form/* clean */.uH)({
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
    return ((0,tile_normal_form/* clean */.uH)({
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
    return Object.fromEntries(entries.map(e => [e.source, e.description ?? '']));
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
        const key = (e) => `${e.source}\u0000${e.description ?? ''}`;
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


/***/ }),

/***/ 6134:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   CY: () => (/* binding */ isModelledConfigKey),
/* harmony export */   G9: () => (/* binding */ normalizeGroupBy),
/* harmony export */   I6: () => (/* binding */ normalizeConfig),
/* harmony export */   LC: () => (/* binding */ equal),
/* harmony export */   ow: () => (/* binding */ normalTile),
/* harmony export */   uH: () => (/* binding */ clean),
/* harmony export */   xF: () => (/* binding */ seriesToConfig)
/* harmony export */ });
/**
 * One normal form for a tile, whichever form it was written or read in. FACTS.md: the server stores a
 * `series` tile in the newer `config` form, joins groupBy, drops dataSource, keeps only the first
 * series of a number tile, keeps asRatio only where it means something, and fills in defaults. A plan
 * that compared the forms as written would show changes on every run, so both the manifest's tile and
 * the server's tile are reduced to this form before any comparison.
 */
const TIME_TYPES = ['line', 'stacked_bar'];
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
    if (TIME_TYPES.includes(displayType))
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
const KNOWN_SELECT_KEYS = new Set([
    'aggFn',
    'valueExpression',
    'alias',
    'level',
    'where',
    'whereLanguage',
    'metricName',
    'metricType',
    'periodAggFn',
    'numberFormat'
]);
/**
 * The config keys we model. Anything else a server returns is not compared (it may be a default we do
 * not know of, and comparing it would show a change on every plan); the dashboard kind carries such
 * keys over on update instead, so a setting made in the UI is not lost either.
 */
const KNOWN_CONFIG_KEYS = new Set([
    'displayType',
    'sourceId',
    'select',
    'groupBy',
    'asRatio',
    'fillNulls',
    'alignDateRangeToGranularity',
    'fitYAxisToData',
    'compareToPreviousPeriod',
    'showOperandSeries',
    'groupByColumnsOnLeft',
    'numberFormat',
    'seriesLimit',
    'having',
    'orderBy',
    'limit',
    'where',
    'whereLanguage',
    'markdown'
]);
const isModelledConfigKey = (key) => KNOWN_CONFIG_KEYS.has(key);
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
        if (!KNOWN_CONFIG_KEYS.has(key))
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
    // asRatio survives only on a time tile with exactly two series (FACTS.md).
    if (out.asRatio === true &&
        !(TIME_TYPES.includes(displayType) && Array.isArray(out.select) && out.select.length === 2)) {
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

/***/ 8256:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   I: () => (/* binding */ diffValues),
/* harmony export */   p: () => (/* binding */ joinKey)
/* harmony export */ });
/* harmony import */ var _kinds_tile_normal_form_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(6134);
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
    if ((0,_kinds_tile_normal_form_js__WEBPACK_IMPORTED_MODULE_0__/* .equal */ .LC)(before, after))
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


/***/ })

};
