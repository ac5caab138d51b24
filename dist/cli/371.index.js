export const id = 371;
export const ids = [371];
export const modules = {

/***/ 752:
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
// EXTERNAL MODULE: ./src/api/client.ts + 5 modules
var client = __webpack_require__(1721);
// EXTERNAL MODULE: ./src/api/errors.ts
var errors = __webpack_require__(3249);
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
var src_diagnostics = __webpack_require__(4851);
// EXTERNAL MODULE: ./src/json.ts
var json = __webpack_require__(8301);
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

// EXTERNAL MODULE: ./src/kinds/returned-fields.ts
var returned_fields = __webpack_require__(8448);
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
            const live = candidates.find(a => a.dashboardId === target?.liveId && (0,schemas/* sameId */.s)(a.tileId, target?.tileIds.get(d.value.spec.tile))) ?? candidates[0];
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
    return ((0,json/* clean */.u)(o) ?? {});
}
/**
 * What an update (or a replace) sends back as read: the schedule, and channels after the first (added in
 * the UI) after ours, since `channel` must be the first of `channels` when both are sent. The managed
 * request schema has no `channels`: there only `channel` is sent, and the plan shows the others going.
 */
function carriedAlertFields(live, webhookId, mode) {
    const { channels, ...rest } = (0,returned_fields/* carriedFields */.i)(live, {}, returned_fields/* ALERT_FIELDS */.HA, () => false);
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
    const kept = Object.keys(carried).filter(k => (0,json/* clean */.u)(carried[k]) !== undefined);
    if (ctx.settings.mode === 'managed' && (live.channels?.length ?? 0) > 1) {
        change.notes.push("it has more than one channel (set in the UI); the managed API takes only `channel`, so an update keeps only the manifest's");
    }
    // Only then the manifest position: positions cost a parse.
    if (kept.length > 0)
        ctx.report((0,returned_fields/* keptSettingsNotice */.e6)(`alert "${desired.name}"`, kept, desired.source));
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
            (0,schemas/* sameId */.s)(a.tileId, body.tileId)),
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
// EXTERNAL MODULE: ./src/kinds/tile-normal-form.ts
var tile_normal_form = __webpack_require__(6134);
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
    return (0,tile_normal_form/* normalTile */.ow)(asNormalInput(t)).config.displayType;
}
/** A tile's layout and config in one flat record: how tiles compare. */
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
    return (0,json/* equal */.L)(a, b);
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

// EXTERNAL MODULE: ./src/kinds/ownership.ts
var ownership = __webpack_require__(9586);
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
    if ((0,json/* equal */.L)(before, after))
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
    return (0,returned_fields/* carriedFields */.i)(live, {}, returned_fields/* DASHBOARD_FIELDS */.Rq, () => false);
}
/** The tile as an update of `live` sends it. */
function tileAsSent(body, live) {
    if (!live)
        return body;
    // The id exactly as the server sent it: the server matches tiles by id.
    const tile = {
        ...(live.id !== undefined ? { id: live.id } : {}),
        ...body,
        ...(0,returned_fields/* carriedFields */.i)(live, body, returned_fields/* TILE_FIELDS */.FL, () => false)
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
    const want = (0,tile_normal_form/* normalizeConfig */.I6)(sent);
    const have = (0,tile_normal_form/* normalizeConfig */.I6)(live);
    return (0,returned_fields/* carriedFields */.i)(live, sent, returned_fields/* TILE_CONFIG_FIELDS */.MN, f => !(0,json/* equal */.L)(want[f], have[f]), returned_fields/* UNKNOWN_CONFIG_FIELD */.$w);
}
/**
 * A series tile in the config form the server stores it in (FACTS.md), when that says exactly the same:
 * a table's `sortOrder` has no config equivalent the API returns, so such a tile stays in series form.
 */
function seriesAsConfig(body) {
    const series = body.series;
    if (!Array.isArray(series) || series.some(s => s.sortOrder !== undefined))
        return undefined;
    const config = (0,tile_normal_form/* seriesToConfig */.xF)(series, body.asRatio);
    const groupBy = (0,tile_normal_form/* normalizeGroupBy */.G9)(config.groupBy);
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
    const paths = Object.keys(carriedDashboardFields(live)).filter(k => (0,json/* clean */.u)(live[k]) !== undefined);
    for (const t of tiles) {
        if (!t.live)
            continue;
        const at = joinKey('tiles', t.name, true);
        for (const key of Object.keys((0,returned_fields/* carriedFields */.i)(t.live, {}, returned_fields/* TILE_FIELDS */.FL, () => false)))
            paths.push(joinKey(at, key));
        const config = (t.sent.config ?? {});
        for (const key of Object.keys(config)) {
            const declared = returned_fields/* TILE_CONFIG_FIELDS */.MN[key]?.treatment === 'carried';
            if (declared && (0,json/* clean */.u)(config[key]) !== undefined && t.live.config?.[key] !== undefined)
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
    const want = (0,tile_normal_form/* normalizeConfig */.I6)(sentConfig);
    const have = (0,tile_normal_form/* normalizeConfig */.I6)(liveConfig);
    const notes = new Set();
    for (const [key, value] of Object.entries(liveConfig)) {
        if ((0,json/* clean */.u)(value) === undefined || key in sentConfig)
            continue;
        const rule = returned_fields/* TILE_CONFIG_FIELDS */.MN[key] ?? returned_fields/* UNKNOWN_CONFIG_FIELD */.$w;
        if (rule.unexpressible) {
            notes.add(`tile "${name}" is ${rule.unexpressible}`);
        }
        else if (rule.treatment === 'carried') {
            const changed = (rule.keptWhileSame ?? []).filter(f => !(0,json/* equal */.L)(want[f], have[f]));
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
        tags: (0,ownership/* userTags */.Rz)(d.value.spec.tags ?? []),
        tiles
    });
}
function normalLive(l, ctx) {
    const tiles = {};
    for (const [key, t] of keyedLiveTiles(l))
        tiles[key] = flatTile(t);
    const owner = l.tags.includes(ctx.settings.ownershipTag)
        ? ctx.settings.ownershipTag
        : l.tags.find(ownership/* isOwnershipTag */.GN);
    return withoutUndefined({ name: l.name, owner, tags: (0,ownership/* userTags */.Rz)(l.tags), tiles });
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
        ctx.report((0,returned_fields/* keptSettingsNotice */.e6)(`dashboard "${desired.name}"`, kept, desired.source));
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
}

;// CONCATENATED MODULE: ./src/kinds/dashboard/bodies.ts




function createBody(d, tag, mode) {
    return forMode(mode, {
        name: d.spec.name,
        tags: [...(0,ownership/* userTags */.Rz)(d.spec.tags ?? []), tag],
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
        tags: [...new Set([...(0,ownership/* userTags */.Rz)(d.spec.tags ?? []), tag])],
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
            const ownerTag = other.tags.find(ownership/* isOwnershipTag */.GN);
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
    const other = live.tags.find(t => (0,ownership/* isOwnershipTag */.GN)(t) && t !== tag);
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
    return ((0,json/* clean */.u)({
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
    return ((0,json/* clean */.u)({
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
        (0,tile_normal_form/* seriesToConfig */.xF)(body.series ?? [], undefined);
    if (!QUERYABLE.has(String(config.displayType)) ||
        !Array.isArray(config.select) ||
        typeof config.sourceId !== 'string')
        return undefined;
    const groupBy = (0,tile_normal_form/* normalizeGroupBy */.G9)(config.groupBy)?.split(',') ?? [];
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

// EXTERNAL MODULE: ./src/live/read.ts
var read = __webpack_require__(3660);
// EXTERNAL MODULE: ./src/log.ts
var src_log = __webpack_require__(5625);
// EXTERNAL MODULE: ./src/plan/types.ts
var types = __webpack_require__(9898);
// EXTERNAL MODULE: ./src/version.ts
var version = __webpack_require__(311);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
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
    const api = deps.api ? deps.api(config) : (0,client/* createApi */.x)(config, { log });
    try {
        const settings = {
            stack: config.stack,
            ownershipTag: (0,ownership/* ownershipTag */.IC)(config.stack),
            prune: config.prune,
            mode: config.mode,
            serviceGate: config.serviceGate,
            servicePath: config.mode === 'managed'
                ? `/v1/organizations/${config.organizationId}/services/${config.serviceId}`
                : undefined
        };
        let live;
        try {
            live = await (0,read/* readLiveState */.e)(api, { service: config.mode === 'managed' && manifests.services.length > 0 });
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
