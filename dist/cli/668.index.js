export const id = 668;
export const ids = [668];
export const modules = {

/***/ 5682:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Et: () => (/* binding */ updateBody),
/* harmony export */   Fm: () => (/* binding */ createBody),
/* harmony export */   zp: () => (/* binding */ savedQueryOf)
/* harmony export */ });
/* harmony import */ var _managed_request_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(4614);
/* harmony import */ var _ownership_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(9586);
/* harmony import */ var _carry_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(1991);
/* harmony import */ var _filters_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(4131);
/* harmony import */ var _layout_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(7344);
/* harmony import */ var _links_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(9981);
/* harmony import */ var _tiles_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(1133);







function createBody(d, options) {
    const layout = (0,_layout_js__WEBPACK_IMPORTED_MODULE_4__/* .layoutOf */ .aH)(d.spec.containers);
    const body = {
        name: d.spec.name,
        tags: [...(0,_ownership_js__WEBPACK_IMPORTED_MODULE_1__/* .orderedUserTags */ .as)(d.spec.tags ?? []), options.tag],
        tiles: (0,_links_js__WEBPACK_IMPORTED_MODULE_5__/* .withLinkIds */ .JW)(d.tiles.map(t => ({ ...t.body, ...layout.placement(t.spec) })), options.idOf ?? (() => undefined))
    };
    // A create keeps what it is sent: only what the manifest sets (a filter's id is the server's to give).
    if (d.filters.length > 0)
        body.filters = d.filters;
    const query = savedQueryOf(d);
    if (query.savedQuery !== null)
        body.savedQuery = query.savedQuery;
    if (query.savedQueryLanguage !== null)
        body.savedQueryLanguage = query.savedQueryLanguage;
    if (d.spec.savedFilterValues?.length)
        body.savedFilterValues = d.spec.savedFilterValues;
    if (layout.containers.length > 0)
        body.containers = layout.containers;
    return forMode(options.mode, body);
}
function updateBody(d, live, options) {
    const pairing = (0,_tiles_js__WEBPACK_IMPORTED_MODULE_6__/* .pairTiles */ .uN)((0,_tiles_js__WEBPACK_IMPORTED_MODULE_6__/* .tileSpecs */ .d1)(d), live);
    const layout = (0,_layout_js__WEBPACK_IMPORTED_MODULE_4__/* .layoutOf */ .aH)(d.spec.containers, live);
    const body = {
        name: d.spec.name,
        // The user's tags and this stack's: a dashboard has one owner, so adopting one from another stack
        // removes that stack's tag (the plan says so).
        tags: [...new Set([...(0,_ownership_js__WEBPACK_IMPORTED_MODULE_1__/* .orderedUserTags */ .as)(d.spec.tags ?? []), options.tag])],
        tiles: (0,_links_js__WEBPACK_IMPORTED_MODULE_5__/* .withLinkIds */ .JW)(d.tiles.map((t, i) => ({
            ...(0,_carry_js__WEBPACK_IMPORTED_MODULE_2__/* .tileAsSent */ .BD)(t.body, pairing.desired[i].live),
            ...layout.placement(t.spec)
        })), options.idOf ?? (() => undefined))
    };
    const has = (v) => (Array.isArray(v) ? v.length > 0 : v !== undefined && v !== null);
    const liveFilters = live.filters ?? [];
    if (d.filters.length > 0 || has(liveFilters))
        body.filters = (0,_filters_js__WEBPACK_IMPORTED_MODULE_3__/* .withFilterIds */ .R7)(d.filters, liveFilters);
    const query = savedQueryOf(d);
    if (query.savedQuery !== null || has(live.savedQuery))
        body.savedQuery = query.savedQuery;
    if (query.savedQueryLanguage !== null || has(live.savedQueryLanguage))
        body.savedQueryLanguage = query.savedQueryLanguage;
    if (d.spec.savedFilterValues?.length || has(live.savedFilterValues))
        body.savedFilterValues = d.spec.savedFilterValues ?? [];
    if (layout.containers.length > 0 || has(live.containers))
        body.containers = layout.containers;
    // What a newer server holds that this version does not know goes back as read (the managed gateway refuses a key
    // it does not declare: there the update leaves it out, and the plan says so).
    return options.mode === 'managed'
        ? forMode(options.mode, body)
        : { ...(0,_carry_js__WEBPACK_IMPORTED_MODULE_2__/* .unknownDashboardFields */ .UU)(live), ...body };
}
/**
 * The saved query as the server stores it (udash resolveSavedQueryLanguage): a query without a language is Lucene;
 * null where there is none.
 */
function savedQueryOf(d) {
    const savedQuery = d.spec.savedQuery ?? null;
    const savedQueryLanguage = d.spec.savedQueryLanguage ?? (savedQuery ? 'lucene' : null);
    return { savedQuery, savedQueryLanguage };
}
const forMode = (mode, body) => (mode === 'managed' ? (0,_managed_request_js__WEBPACK_IMPORTED_MODULE_0__/* .managedDashboardBody */ .sI)(body) : body);


/***/ }),

/***/ 1991:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   At: () => (/* binding */ keptSettings),
/* harmony export */   BD: () => (/* binding */ tileAsSent),
/* harmony export */   Qq: () => (/* binding */ seriesAsConfig),
/* harmony export */   UN: () => (/* binding */ droppedSettings),
/* harmony export */   UU: () => (/* binding */ unknownDashboardFields),
/* harmony export */   _G: () => (/* binding */ tileAsCompared),
/* harmony export */   a3: () => (/* binding */ holdsUnmanagedSettings),
/* harmony export */   oh: () => (/* binding */ droppedSettingNotes)
/* harmony export */ });
/* harmony import */ var _json_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(8301);
/* harmony import */ var _plan_diff_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(8256);
/* harmony import */ var _returned_fields_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8448);
/* harmony import */ var _tile_normal_form_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6134);




/** A tile config key's rule: a key no table lists (a newer server's) is carried like a UI setting. */
const configRule = (key) => _returned_fields_js__WEBPACK_IMPORTED_MODULE_0__/* .TILE_CONFIG_FIELDS */ .MN[key] ?? _returned_fields_js__WEBPACK_IMPORTED_MODULE_0__/* .UNKNOWN_CONFIG_FIELD */ .$w;
/** The tile as an update of `live` sends it. */
function tileAsSent(body, live) {
    if (!live)
        return body;
    // The id exactly as the server sent it: the server matches tiles by id.
    const tile = { ...(live.id !== undefined ? { id: live.id } : {}), ...body };
    // Most live tiles hold no setting an update carries: then nothing is added, and nothing need be normalised.
    if (!live.config || !holdsUnmanagedSettings(live))
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
/** The tile as an update of `live` sends it, but for its id: what comparisons read. */
function tileAsCompared(body, live) {
    return holdsUnmanagedSettings(live) ? tileAsSent(body, live) : body;
}
/**
 * Whether the live tile's config holds a value (not null) the manifest language has no word for: an update
 * sends it back as read, or drops it when it changes what the setting depends on. Only then can tileAsSent,
 * keptSettings or droppedSettingNotes do or say anything about the tile.
 */
function holdsUnmanagedSettings(live) {
    const config = live?.config ?? {};
    for (const key in config) {
        const value = config[key];
        if (value !== undefined && value !== null && configRule(key).treatment === 'carried')
            return true;
    }
    return false;
}
/** Config keys of the live tile that an update with `sent` keeps, and why each other one goes. */
function carriedConfig(live, sent) {
    const differs = differsBetween(sent, live);
    return (0,_returned_fields_js__WEBPACK_IMPORTED_MODULE_0__/* .carriedFields */ .i)(live, sent, _returned_fields_js__WEBPACK_IMPORTED_MODULE_0__/* .TILE_CONFIG_FIELDS */ .MN, differs, _returned_fields_js__WEBPACK_IMPORTED_MODULE_0__/* .UNKNOWN_CONFIG_FIELD */ .$w);
}
/** Whether a field's normal form differs between two configs: both normalised on first use, once. */
function differsBetween(sent, live) {
    let want;
    let have;
    return field => {
        want ??= (0,_tile_normal_form_js__WEBPACK_IMPORTED_MODULE_1__/* .normalizeConfig */ .I6)(sent);
        have ??= (0,_tile_normal_form_js__WEBPACK_IMPORTED_MODULE_1__/* .normalizeConfig */ .I6)(live);
        return !(0,_json_js__WEBPACK_IMPORTED_MODULE_2__/* .equal */ .LC)(want[field], have[field]);
    };
}
/**
 * A series tile in the config form the server stores it in (FACTS.md), when that says exactly the same:
 * a table's `sortOrder` has no config equivalent the API returns, so such a tile stays in series form.
 */
function seriesAsConfig(body) {
    const series = body.series;
    if (!Array.isArray(series) || series.some(s => s.sortOrder !== undefined))
        return undefined;
    const config = (0,_tile_normal_form_js__WEBPACK_IMPORTED_MODULE_1__/* .seriesToConfig */ .xF)(series, body.asRatio);
    const groupBy = (0,_tile_normal_form_js__WEBPACK_IMPORTED_MODULE_1__/* .normalizeGroupBy */ .G9)(config.groupBy);
    if (groupBy === undefined || config.displayType === 'number')
        delete config.groupBy;
    else
        config.groupBy = groupBy;
    return config;
}
/**
 * Settings the server holds that the manifest language cannot express and that the update keeps (or a
 * plan would keep): their paths, for the plan's "kept as set in the UI" notice.
 */
function keptSettings(tiles) {
    const paths = [];
    for (const t of tiles) {
        if (!t.live)
            continue;
        const at = (0,_plan_diff_js__WEBPACK_IMPORTED_MODULE_3__/* .joinKey */ .ID)('tiles', t.name, true);
        const config = (t.sent.config ?? {});
        for (const key of Object.keys(config)) {
            const carried = configRule(key).treatment === 'carried';
            if (carried && (0,_json_js__WEBPACK_IMPORTED_MODULE_2__/* .clean */ .uH)(config[key]) !== undefined && t.live.config?.[key] !== undefined)
                paths.push((0,_plan_diff_js__WEBPACK_IMPORTED_MODULE_3__/* .joinKey */ .ID)(at, key));
        }
    }
    return paths;
}
/**
 * The tile settings an update removes although the manifest never mentions them: UI settings that depend on
 * something the update changes (`changed`).
 */
function droppedSettings(sent, live) {
    const liveConfig = live?.config;
    // Only a setting an update carries can be dropped.
    if (!liveConfig || !holdsUnmanagedSettings(live))
        return [];
    const sentConfig = sent.config ?? seriesAsConfig(sent) ?? {};
    const differs = differsBetween(sentConfig, liveConfig);
    const out = [];
    for (const [key, value] of Object.entries(liveConfig)) {
        if ((0,_json_js__WEBPACK_IMPORTED_MODULE_2__/* .clean */ .uH)(value) === undefined || key in sentConfig)
            continue;
        const rule = configRule(key);
        if (rule.treatment !== 'carried')
            continue;
        const changed = (rule.keptWhileSame ?? []).filter(differs);
        if (changed.length > 0)
            out.push({ key, changed });
    }
    return out;
}
/** For each setting droppedSettings finds, the reason in words. */
function droppedSettingNotes(name, sent, live) {
    return droppedSettings(sent, live).map(({ key, changed }) => `tile "${name}": ${key} (set in the UI; the manifest language cannot express it yet) is removed by this update, because the update changes the tile's ${changed.join(' and ')}`);
}
/**
 * The dashboard-level fields the server returns that no table of returned-fields.ts knows (a server newer than
 * ours): a self-hosted update sends them back as read, so a server that takes them keeps them (2.36's PUT strips a
 * key its body schema does not name, and sets only the fields it names: routers/external-api/v2/dashboards.ts).
 */
function unknownDashboardFields(live) {
    return Object.fromEntries(Object.entries(live).filter(([key, value]) => !Object.hasOwn(_returned_fields_js__WEBPACK_IMPORTED_MODULE_0__/* .DASHBOARD_FIELDS */ .Rq, key) && value !== undefined));
}


/***/ }),

/***/ 4131:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   R7: () => (/* binding */ withFilterIds),
/* harmony export */   pe: () => (/* binding */ normalFilters),
/* harmony export */   xr: () => (/* binding */ filterBody)
/* harmony export */ });
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _json_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(8301);
/**
 * Dashboard filters. Manifests name a filter's data sources; the request carries their ids. The server assigns each
 * filter an id: a create must not send one (the create filter schema is strict), an update must send one for every
 * filter and keeps only ids of existing filters (udash convertExternalFiltersToInternal; FACTS.md). So an update sends
 * each filter with the id of the live filter of the same name (in order, for repeated names), and a new filter with a
 * placeholder the server replaces. Ids never show in a plan.
 */


/** A filter as the request sends it, without its id; `sourceIds` resolves names (reporting what it cannot). */
function filterBody(f, sourceId, appliesTo) {
    const { source: _source, sourceId: _id, appliesToSources: _names, appliesToSourceIds: _ids, type, ...rest } = f;
    const body = { type: type ?? 'QUERY_EXPRESSION', ...rest };
    if (sourceId !== undefined)
        body.sourceId = sourceId;
    if (appliesTo !== undefined)
        body.appliesToSourceIds = appliesTo;
    return body;
}
/**
 * The filters of an update, each with the id of the live filter of its name, or a placeholder the server replaces.
 * The managed cloud refuses a placeholder that is not shaped like an ObjectId (24 hex digits), and one sent twice
 * (TF `dashboard_tile_ids.go` mintMissingFilterIDs): placeholders are minted so, unique in the request. Derived from
 * a counter, not drawn at random, so a plan and its apply send the same request.
 */
function withFilterIds(bodies, live) {
    const unused = [...live];
    const taken = new Set(live.map(f => String(f.id)));
    let n = 0;
    const placeholder = () => {
        let id;
        do
            id = objectIdShaped(`obsdeploy new filter ${++n}`);
        while (taken.has(id));
        taken.add(id);
        return id;
    };
    return bodies.map(body => {
        const index = unused.findIndex(f => f.name === body.name);
        const match = index >= 0 ? unused.splice(index, 1)[0] : undefined;
        return { id: match ? String(match.id) : placeholder(), ...body };
    });
}
/** Filters in the normal form: their fields without the id, in order. */
function normalFilters(list) {
    const out = (list ?? []).map(f => {
        const { id: _id, ...rest } = f;
        return ((0,_json_js__WEBPACK_IMPORTED_MODULE_1__/* .clean */ .uH)(rest) ?? {});
    });
    return out.length > 0 ? out : undefined;
}
/** 24 hexadecimal digits, the shape of a server-assigned ObjectId. */
const objectIdShaped = (seed) => (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.createHash)('sha256').update(seed).digest('hex').slice(0, 24);


/***/ }),

/***/ 7344:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   SH: () => (/* binding */ normalContainers),
/* harmony export */   aH: () => (/* binding */ layoutOf),
/* harmony export */   kW: () => (/* binding */ livePlacement)
/* harmony export */ });
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _json_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(8301);
/**
 * Containers (groups of tiles, with tabs) by title. Manifests name a container and its tabs by title; the server
 * keys them by ids the client chooses (common-utils DashboardContainerSchema) and tiles refer to those ids. An update
 * keeps the ids of the live containers and tabs of the same title, so tiles and the UI's links keep pointing at them;
 * a new one gets an id made from its title. Both sides compare by title, so the ids never show in a plan.
 */


const text = (v) => (typeof v === 'string' ? v : undefined);
const records = (v) => (Array.isArray(v) ? v : []);
/** An id for a new container or tab: readable, stable for its title, unused among `taken`. */
function newId(title, taken) {
    const slug = title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 40) || 'group';
    const base = `${slug}-${(0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.createHash)('sha256').update(title).digest('hex').slice(0, 6)}`;
    let id = base;
    for (let n = 2; taken.has(id); n++)
        id = `${base}-${n}`;
    taken.add(id);
    return id;
}
/** The manifest's containers with ids: those of the live containers and tabs of the same title, or new ones. */
function layoutOf(specs, live) {
    const liveContainers = records(live?.containers);
    const taken = new Set(liveContainers.map(c => String(c.id)));
    const unused = [...liveContainers];
    const ids = new Map();
    const containers = (specs ?? []).map(spec => {
        const index = unused.findIndex(c => c.title === spec.title);
        const match = index >= 0 ? unused.splice(index, 1)[0] : undefined;
        const id = match ? String(match.id) : newId(spec.title, taken);
        const liveTabs = records(match?.tabs);
        const tabTaken = new Set(liveTabs.map(t => String(t.id)));
        const tabIds = new Map();
        const usedTabs = new Set();
        const tabs = spec.tabs?.map(tab => {
            const found = liveTabs.find(t => t.title === tab.title && !usedTabs.has(t));
            usedTabs.add(found);
            const tabId = found ? String(found.id) : newId(tab.title, tabTaken);
            tabIds.set(tab.title, tabId);
            return { id: tabId, title: tab.title };
        });
        ids.set(spec.title, { id, tabs: tabIds });
        const body = { id, title: spec.title, collapsed: spec.collapsed ?? false };
        if (spec.collapsible !== undefined)
            body.collapsible = spec.collapsible;
        if (spec.bordered !== undefined)
            body.bordered = spec.bordered;
        if (tabs !== undefined)
            body.tabs = tabs;
        return body;
    });
    return {
        containers,
        placement(tile) {
            const container = tile.container === undefined ? undefined : ids.get(tile.container);
            if (!container)
                return {};
            const tabId = tile.tab === undefined ? undefined : container.tabs.get(tile.tab);
            return tabId === undefined ? { containerId: container.id } : { containerId: container.id, tabId };
        }
    };
}
/** Containers in the normal form: by title, ids left out, `collapsed: false` as absent. */
function normalContainers(list) {
    const out = {};
    for (const c of records(list)) {
        let key = text(c.title) ?? String(c.id);
        for (let n = 2; key in out; n++)
            key = `${text(c.title) ?? String(c.id)} (${n})`;
        const { id: _id, title: _title, tabs, collapsed, ...rest } = c;
        out[key] = ((0,_json_js__WEBPACK_IMPORTED_MODULE_1__/* .clean */ .uH)({
            ...rest,
            collapsed: collapsed === true ? true : undefined,
            tabs: records(tabs).map(t => text(t.title) ?? String(t.id))
        }) ?? {});
    }
    return Object.keys(out).length > 0 ? out : undefined;
}
/** Where a live tile is, by the titles of its container and tab. */
function livePlacement(tile, live) {
    const container = records(live.containers).find(c => c.id === tile.containerId);
    if (!container)
        return {};
    const tab = records(container.tabs).find(t => t.id === tile.tabId);
    const title = text(container.title) ?? String(container.id);
    return tab ? { container: title, tab: text(tab.title) ?? String(tab.id) } : { container: title };
}


/***/ }),

/***/ 9981:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Gp: () => (/* binding */ namedLink),
/* harmony export */   JS: () => (/* binding */ linkBody),
/* harmony export */   JW: () => (/* binding */ withLinkIds),
/* harmony export */   bu: () => (/* binding */ linkOutUses),
/* harmony export */   wp: () => (/* binding */ linkedNames),
/* harmony export */   xd: () => (/* binding */ settleDashboardLinks)
/* harmony export */ });
/* harmony import */ var _diagnostics_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(4851);
/* harmony import */ var _json_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(8301);
/* harmony import */ var _manifest_path_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7578);



/** A link-out as the request sends it; a dashboard target stays a name (`{mode: 'id', dashboard}`) until paired. */
function linkBody(link, sourceId) {
    if (link.type === 'external')
        return { ...link };
    const { dashboard, source, id, ...target } = link.target;
    let sent = target;
    if (target.mode === 'id') {
        // A valid search link names its source or id (rules.ts checkLink); with neither, sourceId gives undefined.
        if (link.type === 'search')
            sent = { mode: 'id', id: sourceId({ source, id }) };
        else if (dashboard !== undefined)
            sent = { mode: 'id', dashboard };
        else
            sent = { mode: 'id', id };
    }
    return { ...link, target: sent };
}
const dashboardLinkOf = (tileBody) => {
    const link = tileBody.config?.onClick;
    return link?.type === 'dashboard' ? link.target : undefined;
};
const linkNames = new WeakMap();
/**
 * After pairing: each dashboard link names a target, now resolved to its live id where it has one (in the tile
 * bodies); the ones to dashboards this apply creates stay names, recorded as what to wait for or to set later.
 */
function settleDashboardLinks(result, ctx) {
    const index = new Map(result.pairs.map((p, i) => [p.desired.name, { pair: p, i }]));
    const orphans = new Set(result.orphans.map(o => o.id));
    // Each live dashboard by its name, a paired one by the name its manifest gives it.
    const names = new Map();
    for (const d of ctx.live.Dashboard)
        names.set(d.id, d.name);
    for (const p of result.pairs)
        if (p.live)
            names.set(p.live.id, p.desired.name);
    linkNames.set(ctx, names);
    result.pairs.forEach(({ desired, live }, i) => {
        const d = desired.value;
        d.tiles.forEach((t, ti) => {
            const target = dashboardLinkOf(t.body);
            const name = target?.dashboard;
            const at = (field) => ['tiles', ti, 'config', 'onClick', 'target', field];
            const reportAt = (path, message) => ctx.report((0,_diagnostics_js__WEBPACK_IMPORTED_MODULE_0__/* .diagnostic */ .YK)('plan', 'error', message, { ...d.located.doc.locate(path), field: (0,_manifest_path_js__WEBPACK_IMPORTED_MODULE_1__/* .formatPath */ .j)(path) }));
            // A raw id must name a dashboard (udash getMissingOnClickDashboards).
            if (typeof target?.id === 'string' && !ctx.live.Dashboard.some(x => x.id === target.id))
                reportAt(at('id'), `no dashboard with id "${target.id}"`);
            if (typeof name !== 'string')
                return;
            const report = (message) => reportAt(at('dashboard'), message);
            const mine = index.get(name);
            if (mine?.pair.live) {
                setId(target, mine.pair.live.id);
            }
            else if (mine) {
                // Created by this apply: wait for an earlier create; set a link to a later one (or itself) afterwards.
                if (!live && mine.i >= i)
                    d.linksLater = true;
                else
                    d.waitsFor.add(name);
            }
            else {
                // Any other dashboard: the run's references resolve it (and report an unknown or ambiguous name).
                const resolved = ctx.refs.resolve({
                    kind: 'Dashboard',
                    name,
                    at: { doc: d.located.doc, path: at('dashboard') }
                });
                if (resolved.error)
                    return;
                if (orphans.has(resolved.value) && ctx.settings.prune)
                    report(`links to dashboard "${name}", which this plan deletes (it is no longer in the manifests)`);
                else
                    setId(target, resolved.value);
            }
        });
    });
}
function setId(target, id) {
    delete target.dashboard;
    target.id = id;
}
/** The dashboard a tile body's link-out names and has no id for yet (created in this apply). */
function linkedNames(tileBody) {
    const name = dashboardLinkOf(tileBody)?.dashboard;
    return typeof name === 'string' ? [name] : [];
}
/** The tile bodies with their dashboard links' ids (`idOf` a created dashboard's); `unresolved` ones left out. */
function withLinkIds(tiles, idOf) {
    return tiles.map(tile => {
        const target = dashboardLinkOf(tile);
        if (typeof target?.dashboard !== 'string')
            return tile;
        const id = idOf(target.dashboard);
        const config = { ...tile.config };
        if (id === undefined)
            delete config.onClick;
        else
            config.onClick = { ...config.onClick, target: { mode: 'id', id } };
        return { ...tile, config };
    });
}
/**
 * A flat tile's link in the words both sides of a plan share: a dashboard by the name it will have, a data
 * source as `sourceId` (which a report shows by name).
 */
function namedLink(flat, ctx) {
    const link = flat.onClick;
    const target = link?.target;
    if (!target || target.mode !== 'id' || typeof target.id !== 'string')
        return flat;
    const named = link.type === 'dashboard'
        ? {
            mode: 'id',
            ...(linkNames.get(ctx)?.has(target.id)
                ? { dashboard: linkNames.get(ctx).get(target.id) }
                : { id: target.id })
        }
        : { mode: 'id', sourceId: target.id };
    return { ...flat, onClick: (0,_json_js__WEBPACK_IMPORTED_MODULE_2__/* .clean */ .uH)({ ...link, target: named }) };
}
/**
 * A search link-out's source, which its live target names by `id` (no field name says it is a source): a delete of
 * that source waits while the link stays (planner/in-use.ts).
 */
function linkOutUses(o, at) {
    const target = o.target;
    if (o.type !== 'search' || target?.mode !== 'id' || typeof target.id !== 'string')
        return [];
    return [{ kind: 'Source', id: target.id, at: at === '' ? 'onClick' : at }];
}


/***/ }),

/***/ 1133:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Ai: () => (/* binding */ flatTile),
/* harmony export */   Cm: () => (/* binding */ sameContent),
/* harmony export */   I1: () => (/* binding */ tileIdsOf),
/* harmony export */   Tn: () => (/* binding */ isAlertable),
/* harmony export */   d1: () => (/* binding */ tileSpecs),
/* harmony export */   od: () => (/* binding */ keyedLiveTiles),
/* harmony export */   th: () => (/* binding */ liveDisplayType),
/* harmony export */   uN: () => (/* binding */ pairTiles),
/* harmony export */   ud: () => (/* binding */ alertTileRef)
/* harmony export */ });
/* unused harmony export shortTileId */
/* harmony import */ var _api_schemas_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8164);
/* harmony import */ var _json_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(8301);
/* harmony import */ var _plan_diff_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(8256);
/* harmony import */ var _manifest_vocabulary_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7817);
/* harmony import */ var _tile_normal_form_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(6134);





const isAlertable = (type) => _manifest_vocabulary_js__WEBPACK_IMPORTED_MODULE_1__/* .ALERTABLE_DISPLAY_TYPES */ .Ei.includes(type);
function pairTiles(desired, live) {
    const liveTiles = keyedLiveTiles(live ?? { tiles: [] });
    const keyOf = new Map([...liveTiles].map(([k, t]) => [t, k]));
    const taken = new Set();
    const found = desired.map(d => {
        const pinned = d.id === undefined ? undefined : live?.tiles.find(t => (0,_api_schemas_js__WEBPACK_IMPORTED_MODULE_0__/* .sameId */ .s)(t.id, d.id));
        if (pinned)
            taken.add(pinned);
        return pinned;
    });
    desired.forEach((d, i) => {
        if (found[i])
            return;
        const byName = live?.tiles.find(t => t.name === d.name && !taken.has(t));
        if (byName)
            taken.add(byName);
        found[i] = byName;
    });
    const own = keyed(desired);
    return {
        desired: desired.map((d, i) => {
            const l = found[i];
            return { key: l && l.name === d.name ? keyOf.get(l) : own[i], live: l };
        }),
        live: liveTiles
    };
}
/** Live tiles by key. */
function keyedLiveTiles(l) {
    const keys = keyed(l.tiles);
    return new Map(l.tiles.map((t, i) => [keys[i], t]));
}
/** Each tile's key among its dashboard's tiles: its name, or where the name repeats its name and short id. */
function keyed(tiles) {
    const count = new Map();
    for (const t of tiles)
        count.set(t.name, (count.get(t.name) ?? 0) + 1);
    const used = new Set();
    return tiles.map(t => {
        let key = t.name;
        if ((count.get(t.name) ?? 0) > 1 && t.id !== undefined) {
            const same = tiles.filter(o => o.name === t.name && o.id !== undefined).map(o => String(o.id));
            const short = shortTileId(String(t.id));
            const unique = same.filter(o => shortTileId(o) === short).length === 1;
            key = (0,_plan_diff_js__WEBPACK_IMPORTED_MODULE_3__/* .qualifiedKey */ .Co)(t.name, unique ? short : String(t.id));
        }
        // A repeat without an id (never from the server, which gives every tile one): a counter.
        for (let n = 2; used.has(key); n++)
            key = `${t.name} (${n})`;
        used.add(key);
        return key;
    });
}
/** Ids the UI makes are 6 characters; the API's are ObjectIds, whose last 6 hex digits are a counter. */
const shortTileId = (id) => (id.length <= 8 ? id : id.slice(-6));
/**
 * What an alert may name a dashboard's tile by (see alertTileRef), to the live tile ids: `#id` for each pinned
 * tile, and the name for each tile whose name is unique in the manifest.
 */
function tileIdsOf(desired, live) {
    const ids = new Map();
    const repeats = new Set(desired.filter((d, i) => desired.findIndex(o => o.name === d.name) !== i).map(d => d.name));
    pairTiles(desired, live).desired.forEach(({ live: l }, i) => {
        const d = desired[i];
        if (l?.id === undefined)
            return;
        if (d.id !== undefined)
            ids.set(`#${d.id}`, l.id);
        if (!repeats.has(d.name))
            ids.set(d.name, l.id);
    });
    return ids;
}
/** A dashboard's tile manifests, as pairTiles and tileIdsOf read them. */
const tileSpecs = (d) => d.tiles.map(t => t.spec);
/** How an alert names its tile in DashboardFacts' tile ids: by the tile's pin, or by its name. */
const alertTileRef = (s) => s.tileId !== undefined ? `#${s.tileId}` : (s.tile ?? '');
function liveDisplayType(t) {
    return (0,_tile_normal_form_js__WEBPACK_IMPORTED_MODULE_2__/* .normalTile */ .ow)(asNormalInput(t)).config.displayType;
}
/** A tile's layout and config in one flat record: how tiles compare. */
function flatTile(t) {
    const n = (0,_tile_normal_form_js__WEBPACK_IMPORTED_MODULE_2__/* .normalTile */ .ow)(asNormalInput(t));
    return { x: n.x, y: n.y, w: n.w, h: n.h, ...n.config };
}
/** A live tile as the normal form's input. Its callers read the layout and config, never the name. */
function asNormalInput(t) {
    return {
        name: String(t.name),
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
    return (0,_json_js__WEBPACK_IMPORTED_MODULE_4__/* .equal */ .LC)(a, b);
}


/***/ }),

/***/ 7989:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Np: () => (/* binding */ SecretNames),
/* harmony export */   OH: () => (/* binding */ twinPin),
/* harmony export */   f6: () => (/* binding */ withComments),
/* harmony export */   mu: () => (/* binding */ Namer),
/* harmony export */   yt: () => (/* binding */ documentIdentity)
/* harmony export */ });
/* harmony import */ var _json_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(8301);
/* harmony import */ var _yaml_library_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(5159);
/* harmony import */ var _nouns_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(906);



/** How ids of other resources are written: a name when it names exactly one, else the id with a comment. */
class Namer {
    records;
    lists = new Map();
    /** `records(kind)`: every live record of the kind (undefined where this API cannot list them); read once. */
    constructor(records) {
        this.records = records;
    }
    list(kind) {
        if (!this.lists.has(kind))
            this.lists.set(kind, this.records(kind));
        return this.lists.get(kind);
    }
    /** `{[field]: name}` or `{[idField]: id}`, adding a comment to `comments` for the second. */
    ref(kind, field, id, comments, what, idField = `${field}Id`) {
        if (typeof id !== 'string' || id === '')
            return {};
        const list = this.list(kind);
        const named = list?.filter(r => r.id === id) ?? [];
        const sameName = named[0] ? (list ?? []).filter(r => r.name === named[0].name) : [];
        if (named.length === 1 && sameName.length === 1 && named[0].name)
            return { [field]: named[0].name };
        comments.push(list === undefined
            ? `${what} ${id}: this API cannot list them, so it is written by id`
            : named.length === 0
                ? `${what} id ${id} could not be mapped to a name (no such ${what}): kept as ${idField}`
                : `${what} id ${id} has a name shared by another ${what}: kept as ${idField}`);
        return { [idField]: id };
    }
    /** The ids of the records of `kind` named `name` (none when this API cannot list them). */
    idsNamed(kind, name) {
        return (this.list(kind) ?? []).filter(r => r.name === name).map(r => r.id);
    }
}
/** Names of secret variables, unique in one export, as the manifests' placeholders name them. */
class SecretNames {
    used = new Set();
    all = [];
    /** A new name; `needed` ones are listed in the file's header (a suggestion in a comment is not). */
    name(parts, needed = true) {
        const base = parts
            .join('_')
            .normalize('NFKD')
            .toUpperCase()
            .replace(/[^A-Z0-9]+/g, '_')
            .replace(/^_+|_+$/g, '');
        let name = /^[A-Z]/.test(base) ? base : `S_${base}`;
        for (let n = 2; this.used.has(name); n++)
            name = `${base}_${n}`;
        this.used.add(name);
        if (needed)
            this.all.push(name);
        return name;
    }
}
/** A manifest document with its comments above it. */
function withComments(value, comments) {
    const doc = new ((0,_yaml_library_js__WEBPACK_IMPORTED_MODULE_0__/* .yamlLibrary */ .T)().Document)(value);
    if (comments.length > 0)
        doc.commentBefore = comments.map(c => ` ${c}`).join('\n');
    return doc;
}
/**
 * An `id:` pin for a record whose name another record of its kind shares, and a comment saying so. Manifests
 * refer to these kinds by name (validate refuses two of one name, `load.ts` uniqueNames, as references could not
 * tell them apart), so each stays pinned to its own record until one of them is renamed.
 */
function twinPin(namer, kind, record, comments) {
    const ids = namer.idsNamed(kind, record.name);
    if (ids.length < 2)
        return {};
    const [one, many] = [(0,_nouns_js__WEBPACK_IMPORTED_MODULE_1__/* .wordFor */ .G)(kind), (0,_nouns_js__WEBPACK_IMPORTED_MODULE_1__/* .wordFor */ .G)(kind, true)];
    comments.push(`${ids.length} ${many} are named "${record.name}" (ids ${ids.join(', ')}): each is pinned to its own with \`id:\`, but manifests name ${many} by name, so validate refuses two of one name: rename one of them here (its pin keeps it the same ${one}, and the plan renames it on the server)`);
    return { id: record.id };
}
/**
 * What a document is about, as export and a person both write it: its kind and name, and for an alert what it
 * watches (the same name may alert on two tiles).
 */
function documentIdentity(value) {
    if (!(0,_json_js__WEBPACK_IMPORTED_MODULE_2__/* .isMapping */ .pi)(value) || typeof value.kind !== 'string')
        return undefined;
    const name = typeof value.name === 'string'
        ? value.name
        : typeof value.email === 'string'
            ? value.email.toLowerCase()
            : undefined;
    if (name === undefined)
        return value.kind === 'ServiceSettings' ? value.kind : undefined;
    const parts = [value.kind, name];
    if (value.kind === 'Alert')
        parts.push(String(value.dashboard ?? ''), String(value.tile ?? value.tileId ?? ''), String(value.savedSearch ?? ''));
    if (value.kind === 'Dashboard' && value.id !== undefined)
        parts.push(String(value.id));
    return parts.join('\u0000');
}


/***/ }),

/***/ 3617:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  G: () => (/* binding */ KINDS),
  _: () => (/* binding */ KINDS_BY_NAME)
});

// EXTERNAL MODULE: ./src/kinds/nouns.ts
var nouns = __webpack_require__(906);
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
            ctx.lostResponses?.add(`${spec.what}:${spec.name}`);
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

;// CONCATENATED MODULE: ./src/kinds/desired-at.ts
class DesiredAt {
    name;
    address;
    value;
    doc;
    field;
    constructor(name, address, value, doc, 
    /** The field `source` points at: the manifest's `name`. */
    field = 'name') {
        this.name = name;
        this.address = address;
        this.value = value;
        this.doc = doc;
        this.field = field;
    }
    get source() {
        return this.doc.locate([this.field]);
    }
}

// EXTERNAL MODULE: ./src/api/schemas.ts
var schemas = __webpack_require__(8164);
// EXTERNAL MODULE: ./src/diagnostics.ts
var diagnostics = __webpack_require__(4851);
// EXTERNAL MODULE: ./src/json.ts
var json = __webpack_require__(8301);
// EXTERNAL MODULE: ./src/kinds/managed-request.ts
var managed_request = __webpack_require__(4614);
// EXTERNAL MODULE: ./src/kinds/references.ts
var references = __webpack_require__(3961);
;// CONCATENATED MODULE: ./src/kinds/operations.ts

/** The dashboard exists with its tiles (created or updated): its alerts can be written. */
const readyToken = (desiredName) => (0,references/* resourceReady */.mi)('Dashboard', desiredName);
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

// EXTERNAL MODULE: ./src/kinds/dashboard/tiles.ts
var dashboard_tiles = __webpack_require__(1133);
// EXTERNAL MODULE: ./src/kinds/exporting.ts
var exporting = __webpack_require__(7989);
// EXTERNAL MODULE: ./src/manifest/vocabulary.ts
var vocabulary = __webpack_require__(7817);
// EXTERNAL MODULE: ./src/kinds/returned-fields.ts
var returned_fields = __webpack_require__(8448);
;// CONCATENATED MODULE: ./src/kinds/alert-kept.ts



/** What the server derives for an alert without its own name and tags, or undefined where it cannot be told. */
function derivedDisplay(live, { dashboard, search }) {
    if (live.source === 'saved_search') {
        if (!search)
            return undefined;
        return { displayName: clampName(search.name.trim()), tags: clampTags(search.tags) };
    }
    if (!dashboard)
        return undefined;
    const tile = dashboard.tiles.find(t => (0,schemas/* sameId */.s)(t.id, live.tileId));
    const name = dashboard.name.trim();
    return {
        displayName: name === '' ? null : clampName(`${name} - ${tile?.name?.trim() || 'Tile'}`),
        tags: clampTags(dashboard.tags)
    };
}
/** The live fields an update of this alert must carry (see the header). */
function keptFields(live, manifest, target, mode) {
    const kept = { unknown: {}, lost: [] };
    const derived = derivedDisplay(live, target);
    const displayName = live.displayName;
    if (manifest.displayName === undefined &&
        typeof displayName === 'string' &&
        displayName !== derived?.displayName)
        kept.displayName = displayName;
    const tags = live.tags;
    if (manifest.tags === undefined && Array.isArray(tags) && !(derived && sameList(tags, derived.tags)))
        kept.tags = tags;
    for (const [key, value] of Object.entries(live)) {
        // Known: compared, or the server's own (returned-fields.ts says which, for every field a server returns).
        if (Object.hasOwn(returned_fields/* ALERT_FIELDS */.HA, key) || value === undefined)
            continue;
        if (mode === 'managed')
            kept.lost.push(key);
        else
            kept.unknown[key] = value;
    }
    return kept;
}
/** The plan's note on what an update keeps, or undefined when it keeps nothing. */
function keptNote(kept) {
    const said = [];
    if (kept.displayName !== undefined)
        said.push(`displayName ${JSON.stringify(kept.displayName)}`);
    if (kept.tags !== undefined)
        said.push(`tags ${JSON.stringify(kept.tags)}`);
    const set = said.length > 0 ? `keeps ${said.join(' and ')}, set outside the manifests (in the UI or the API)` : '';
    const unknown = Object.keys(kept.unknown);
    const carried = unknown.length > 0
        ? `carries ${unknown.map(k => `\`${k}\``).join(', ')} as the server holds ${unknown.length === 1 ? 'it' : 'them'} (unknown to this version of obsdeploy)`
        : '';
    const lost = kept.lost.length > 0
        ? `resets ${kept.lost.map(k => `\`${k}\``).join(', ')} (unknown to this version of obsdeploy; the managed API refuses a field it does not declare, so the update cannot send ${kept.lost.length === 1 ? 'it' : 'them'})`
        : '';
    const text = [set, carried, lost].filter(Boolean).join('; it ');
    return text === '' ? undefined : text;
}
/** The kept fields as request keys. */
function keptBody(kept) {
    if (!kept)
        return {};
    return {
        ...kept.unknown,
        ...(kept.displayName !== undefined ? { displayName: kept.displayName } : {}),
        ...(kept.tags !== undefined ? { tags: kept.tags } : {})
    };
}
const clampName = (name) => Array.from(name).slice(0, vocabulary/* LIMITS */.b1.alertName).join('');
/** As the server clamps derived tags: strings only, no empty one, at most the limit, each cut to its length. */
function clampTags(tags) {
    if (!Array.isArray(tags))
        return [];
    return tags
        .filter((t) => typeof t === 'string' && t !== '')
        .slice(0, vocabulary/* LIMITS */.b1.tags)
        .map(t => t.slice(0, vocabulary/* LIMITS */.b1.tagLength));
}
const sameList = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);

;// CONCATENATED MODULE: ./src/kinds/alert-export.ts



/** Export reads the alerts (the `alerts` list) to write them with their dashboards and saved searches. */
const alertExport = { list: 'alerts', writes: undefined };
/** The alerts of each dashboard or saved search (by the id `of` gives), sorted by name as export writes them. */
function alertsBy(alerts, of) {
    const by = new Map();
    for (const a of alerts) {
        const id = of(a);
        if (typeof id === 'string')
            by.set(id, [...(by.get(id) ?? []), a]);
    }
    return id => [...(by.get(id) ?? [])].sort((a, b) => (a.name ?? a.id).localeCompare(b.name ?? b.id));
}
/** An alert on a tile of `on.dashboard`, or on `on.search`. */
function alertDocument(a, on, namer) {
    const comments = [];
    const value = { kind: 'Alert', name: a.name ?? `alert ${a.id}` };
    if ('search' in on) {
        value.source = 'saved_search';
        value.savedSearch = on.search.name;
        if (a.groupBy)
            value.groupBy = a.groupBy;
    }
    else {
        const d = on.dashboard;
        const tile = d.tiles.find(t => (0,schemas/* sameId */.s)(t.id, a.tileId));
        if (!tile)
            comments.push(`tile id ${a.tileId ?? '(none)'} could not be mapped to a tile of "${d.name}"`);
        value.dashboard = d.name;
        value.tile = tile?.name ?? String(a.tileId ?? '');
        // A tile whose name repeats is pinned with `id:` (export.ts): the alert names it by that pin.
        if (tile?.id !== undefined && d.tiles.filter(t => t.name === tile.name).length > 1)
            value.tileId = String(tile.id);
    }
    if (!a.name)
        comments.push(`alert ${a.id} has no name on the server: this one was made up, and applying it names the alert`);
    value.threshold = a.threshold;
    if (a.thresholdMax !== undefined && a.thresholdMax !== null)
        value.thresholdMax = a.thresholdMax;
    value.thresholdType = a.thresholdType;
    value.interval = a.interval;
    const channels = (a.channels ?? (a.channel ? [a.channel] : [])).map(c => exportChannel(c, namer, comments));
    if (channels.length === 1)
        value.channel = channels[0];
    else if (channels.length > 1)
        value.channels = channels;
    // As a plan compares them: written where they are not what the server would derive (alert-kept.ts).
    const derived = derivedDisplay(a, 'search' in on ? { search: on.search } : { dashboard: on.dashboard });
    if (typeof a.displayName === 'string' && a.displayName !== derived?.displayName)
        value.displayName = a.displayName;
    if (Array.isArray(a.tags) && (!derived || JSON.stringify(a.tags) !== JSON.stringify(derived.tags)))
        value.tags = a.tags;
    if (a.message)
        value.message = a.message;
    if (a.numConsecutiveWindows !== undefined &&
        a.numConsecutiveWindows !== null &&
        a.numConsecutiveWindows !== 1)
        value.numConsecutiveWindows = a.numConsecutiveWindows;
    if (a.note)
        value.note = a.note;
    if (a.scheduleOffsetMinutes)
        value.scheduleOffsetMinutes = a.scheduleOffsetMinutes;
    if (a.scheduleStartAt)
        value.scheduleStartAt = a.scheduleStartAt;
    return (0,exporting/* withComments */.f6)(value, comments);
}
/** A channel in the manifest's words: its webhook by name (or id), the managed extras and email as read. */
function exportChannel(c, namer, comments) {
    if (c.type === 'email') {
        // The manifest language requires the list: written empty, and said, where the server returned none.
        if (c.emailRecipients === undefined || c.emailRecipients === null)
            comments.push('email channel: the server returned no emailRecipients: written as an empty list');
        return { type: 'email', emailRecipients: c.emailRecipients ?? [] };
    }
    const { type: _type, webhookId, ...extras } = c;
    const out = {
        type: 'webhook',
        ...namer.ref('Webhook', 'webhook', webhookId, comments, 'webhook')
    };
    for (const [k, v] of Object.entries(extras))
        if (v !== null && v !== undefined)
            out[k] = v;
    return out;
}

;// CONCATENATED MODULE: ./src/kinds/alert.ts
/**
 * Alerts, on a dashboard tile (`source: tile`) or on a saved search (`source: saved_search`). An alert on a
 * dashboard or saved search this stack owns is owned too; identity is the alert's name among owned alerts.
 * The server deletes an alert with its tile, dashboard or saved search (real-server.md §10), so an alert
 * whose tile goes away is replaced (deleted first, created on its new tile after the dashboard is updated),
 * and an orphan whose tile, dashboard or saved search goes is shown as deleted by the server whether or not
 * prune is on. Channels (webhooks by name, up to 10 self-hosted; one, webhook or email, managed) and the
 * saved search are references (references.ts): ones this run creates are bound at apply time.
 */












const alertDeletedToken = (liveId) => `alert-deleted:${liveId}`;
const isSavedSearch = (s) => s.source === 'saved_search';
/**
 * A tile alert's dashboard and tile, by name. Validation (`src/manifest/rules.ts`) requires both on every
 * alert whose source is not saved_search; the schema alone cannot say so.
 */
const tileTarget = (s) => ({ dashboard: s.dashboard, tile: (0,dashboard_tiles/* alertTileRef */.ud)(s) });
const pinnedName = (ctx, dashboard, tileId) => dashboard === undefined || tileId == null
    ? undefined
    : ctx.dashboards.desired.get(dashboard)?.pinnedNames.get(String(tileId));
/** The alert's tile in a sentence: its name, and its pin where it has one. */
const tileText = (s) => [s.tile, s.tileId !== undefined ? `#${s.tileId}` : undefined].filter(Boolean).join(' ');
const alertKind = {
    kind: 'Alert',
    nouns: nouns/* NOUNS */.M.Alert,
    fingerprint: { specs: 'alerts', whenEmpty: true },
    referredBy: undefined,
    // An alert is this stack's by its place: the same name on the same tile or saved search.
    copies: {
        what: 'alerts',
        isCopy: (r, c) => r.name === c.name &&
            r.dashboardId === c.dashboardId &&
            r.tileId === c.tileId &&
            r.savedSearchId === c.savedSearchId,
        remove: (api, id) => api.deleteAlert(id)
    },
    seenOn: d => (d.value.spec.dashboard === undefined ? undefined : { dashboard: d.value.spec.dashboard }),
    heldWhileUsed: undefined,
    unnamedUses: undefined,
    exports: alertExport,
    live: { read: api => api.listAlerts() },
    desired(ctx) {
        const displayFields = ctx.live.Alert.some(a => a.displayName !== undefined || a.tags !== undefined);
        const channelsField = ctx.live.Alert.some(a => Array.isArray(a.channels));
        return ctx.manifests.specs.Alert.map(located => {
            const { spec, doc } = located;
            return new DesiredAt(spec.name, `Alert/${spec.name}`, {
                spec,
                located,
                channels: resolveChannels(located, ctx),
                savedSearch: isSavedSearch(spec) ? resolveSavedSearch(located, ctx) : undefined,
                displayFields,
                channelsField
            }, doc);
        });
    },
    pair(desired, ctx) {
        const owned = ownedAlerts(ctx).sort((a, b) => a.id.localeCompare(b.id));
        const ownedByName = new Map();
        for (const a of owned)
            ownedByName.set(a.name, [...(ownedByName.get(a.name) ?? []), a]);
        const used = new Set();
        // Alert names are unique among the manifests (rules.ts), so no two desired alerts compete for one.
        const pairs = desired.map(d => {
            const candidates = ownedByName.get(d.name) ?? [];
            // Among duplicates (made by hand), prefer the one already on the right tile or saved search.
            const live = candidates.find(a => onTarget(d.value, a, ctx)) ?? candidates[0];
            if (live)
                used.add(live.id);
            return { desired: d, live };
        });
        return { pairs, orphans: owned.filter(a => !used.has(a.id)) };
    },
    normalDesired(d, ctx, live) {
        const s = d.value.spec;
        const saved = isSavedSearch(s);
        return normal({
            name: s.name,
            source: s.source ?? 'tile',
            dashboard: saved ? undefined : s.dashboard,
            // By `tileId` alone: the name of the tile pinned with it, as the live side shows it.
            tile: saved
                ? undefined
                : (s.tile ?? ctx.dashboards.desired.get(s.dashboard)?.pinnedNames.get(s.tileId)),
            savedSearch: d.value.savedSearch?.label,
            groupBy: saved ? (s.groupBy ?? keptGroupBy(ctx, live)) : undefined,
            threshold: s.threshold,
            // HyperDX keeps the stored thresholdMax when a PUT omits it, and refuses null: it stays.
            thresholdMax: s.thresholdMax ?? live?.thresholdMax,
            thresholdType: s.thresholdType,
            interval: s.interval,
            channels: d.value.channels.map(c => channelNormal(c.body, c.webhook?.label)),
            message: s.message,
            numConsecutiveWindows: s.numConsecutiveWindows,
            note: s.note,
            scheduleOffsetMinutes: s.scheduleOffsetMinutes,
            scheduleStartAt: s.scheduleStartAt,
            // Left out, the live ones stay (alert-kept.ts): they compare as the same.
            displayName: s.displayName ?? live?.displayName,
            tags: s.tags ?? live?.tags
        });
    },
    normalLive(l, ctx) {
        const dash = l.dashboardId ? ctx.dashboards.live.get(l.dashboardId) : undefined;
        const liveDash = l.dashboardId ? liveDashboardsById(ctx).get(l.dashboardId) : undefined;
        const tile = liveDash?.tiles.find(t => (0,schemas/* sameId */.s)(t.id, l.tileId));
        const channels = l.channels ?? (l.channel ? [l.channel] : []);
        return normal({
            name: l.name,
            source: l.source ?? 'tile',
            // Compared by the name the dashboard will have, so a dashboard rename does not show on its alerts.
            dashboard: dash?.desiredName ?? liveDash?.name ?? l.dashboardId ?? undefined,
            // Likewise a pinned tile by the name it will have: a rename that keeps its id does not show either.
            tile: pinnedName(ctx, dash?.desiredName, l.tileId) ?? tile?.name ?? l.tileId ?? undefined,
            savedSearch: l.savedSearchId ? ctx.refs.labelOfValue('SavedSearch', l.savedSearchId) : undefined,
            groupBy: l.groupBy,
            threshold: l.threshold,
            thresholdMax: l.thresholdMax,
            thresholdType: l.thresholdType,
            interval: l.interval,
            channels: channels.map(c => {
                const { webhookId, ...rest } = c;
                return channelNormal(rest, typeof webhookId === 'string' ? ctx.refs.labelOfValue('Webhook', webhookId) : undefined);
            }),
            message: l.message,
            numConsecutiveWindows: l.numConsecutiveWindows,
            note: l.note,
            scheduleOffsetMinutes: l.scheduleOffsetMinutes,
            scheduleStartAt: l.scheduleStartAt,
            displayName: l.displayName,
            tags: l.tags
        });
    },
    liveName: l => l.name ?? l.id,
    liveId: l => l.id,
    refine(pc, ctx) {
        refineTarget(pc, ctx);
        refineKept(pc, ctx);
        refuseChannelList(pc, ctx);
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
        // A delete is an orphan's (planner.ts): it has no desired alert.
        if (!desired)
            return ops;
        const s = desired.value.spec;
        const dashName = isSavedSearch(s) ? undefined : tileTarget(s).dashboard;
        const lock = dashName === undefined
            ? undefined
            : dashboardLock(octx.dashboards.desired.get(dashName)?.liveId ?? dashName);
        const refs = (0,references/* placeholderTokens */.o9)([
            desired.value.channels.map(c => c.body),
            desired.value.savedSearch?.value
        ]);
        const after = [...(dashName === undefined ? [] : [readyToken(dashName)]), ...refs];
        if (live && change.action === 'update') {
            ops.push({
                address: change.address,
                label: 'update',
                lock,
                provides: [],
                after,
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
                after: [...after, ...(live ? [alertDeletedToken(live.id)] : [])],
                // A replace keeps what the old alert had that the manifest does not model.
                run: ctx => createAlert(ctx, desired.value, octx, live)
            });
        }
        return ops;
    },
    // As operations: a delete (a replace's first), then an update or a create.
    requests({ change, desired, live }) {
        if (change.action === 'noop' || change.deferred)
            return { requests: 0 };
        const deletes = live && (change.action === 'delete' || change.action === 'replace') ? 1 : 0;
        return { requests: deletes + (desired ? 1 : 0) };
    }
};
/** Whether the alert is replaced: its tile, dashboard or saved search goes, or it moves to another tile. */
function refineTarget(pc, ctx) {
    const { change, desired, live } = pc;
    if (!live)
        return;
    const goes = targetGoes(live, ctx);
    if (!desired) {
        if (goes) {
            // Prune or not, the server deletes it with its tile, dashboard or saved search.
            change.deferred = undefined;
            change.droppedByServer = true;
            change.notes.push(goes);
        }
        return;
    }
    if (isSavedSearch(desired.value.spec)) {
        // A PUT may point it at another saved search; only the cascade of a deleted one forces a new alert.
        if (goes) {
            change.action = 'replace';
            change.droppedByServer = true;
            change.notes.push(`${goes}; it is created again on saved search "${desired.value.spec.savedSearch ?? desired.value.spec.savedSearchId}" (new alert id)`);
        }
        reportStickyGroupBy(pc, ctx);
        return;
    }
    const s = tileTarget(desired.value.spec);
    const target = ctx.dashboards.desired.get(s.dashboard);
    const sameTile = target?.liveId !== undefined &&
        target.liveId === live.dashboardId &&
        (0,schemas/* sameId */.s)(target.tileIds.get(s.tile), live.tileId);
    if (goes || !sameTile) {
        change.action = 'replace';
        change.droppedByServer = goes !== undefined;
        change.notes.push(goes
            ? `the server deletes this alert when its current tile goes away; it is created again on tile "${tileText(desired.value.spec)}" (new alert id)`
            : `it moves to tile "${tileText(desired.value.spec)}" of "${s.dashboard}": deleted and created again there (new alert id)`);
    }
}
/**
 * What an update or a replace carries from the live alert (alert-kept.ts), said on the change; and the manifest's
 * displayName or tags where this server shows no sign of them.
 */
function refineKept(pc, ctx) {
    const { change, desired, live } = pc;
    if (!desired)
        return;
    const s = desired.value.spec;
    if ((s.displayName !== undefined || s.tags !== undefined) && !desired.value.displayFields) {
        const fields = [s.displayName !== undefined ? 'displayName' : '', s.tags !== undefined ? 'tags' : '']
            .filter(Boolean)
            .join(' and ');
        ctx.report((0,diagnostics/* diagnostic */.YK)('plan', 'warning', ctx.settings.mode === 'managed'
            ? `${fields}: not sent: no alert this server returns has them, and the managed API refuses a field it does not declare. They are sent once the cloud's alerts carry them`
            : `${fields}: no alert this server returns has them (HyperDX 2.36 and earlier): it accepts and ignores them, so the plan shows them again until the server supports them`, desired.source));
    }
    if (!live || (change.action !== 'update' && change.action !== 'replace'))
        return;
    // The target by the plan's index of live dashboards (one lookup, not a search per alert).
    const target = live.source === 'saved_search'
        ? { search: ctx.live.SavedSearch?.find(x => x.id === live.savedSearchId) }
        : { dashboard: live.dashboardId ? liveDashboardsById(ctx).get(live.dashboardId) : undefined };
    const kept = keptFields(live, s, target, ctx.settings.mode);
    desired.value.kept = kept;
    const note = keptNote(kept);
    if (note)
        change.notes.push(`it ${note}`);
    if (kept.lost.length > 0)
        change.lost = [...kept.lost];
    if (kept.lost.length > 0)
        ctx.report((0,diagnostics/* diagnostic */.YK)('plan', 'warning', `this update resets ${kept.lost.map(k => `\`${k}\``).join(', ')}: fields of the live alert this version of obsdeploy does not know, which the managed API does not take`, desired.source));
}
/**
 * Managed: the published API takes one `channel`; the cloud takes a list where its reads return one
 * (clickhousectl pull request 719). Several channels where no alert of the service returns `channels` would be cut
 * to one: a plan error, never a silent cut.
 */
function refuseChannelList(pc, ctx) {
    const { change, desired } = pc;
    if (ctx.settings.mode !== 'managed' || !desired || desired.value.channelsField)
        return;
    if (desired.value.channels.length < 2 || change.action === 'noop' || change.action === 'delete')
        return;
    const { doc } = desired.value.located;
    ctx.report((0,diagnostics/* diagnostic */.YK)('plan', 'error', `${desired.value.channels.length} channels: this service's alerts return no \`channels\` list, so the managed API takes one \`channel\` here and an update would keep only the first. Keep one channel, or apply it where the cloud returns \`channels\``, { ...doc.locate(['channels']), field: 'channels' }));
}
const dashboardIndexes = new WeakMap();
/** Live dashboards by id, built once per plan. */
function liveDashboardsById(ctx) {
    let index = dashboardIndexes.get(ctx);
    if (!index)
        dashboardIndexes.set(ctx, (index = new Map(ctx.live.Dashboard.map(d => [d.id, d]))));
    return index;
}
/** Alerts on a dashboard or a saved search this stack manages. */
function ownedAlerts(ctx) {
    return ctx.live.Alert.filter(a => a.source === 'saved_search'
        ? a.savedSearchId != null && ctx.refs.isManaged('SavedSearch', a.savedSearchId)
        : a.dashboardId != null && ctx.dashboards.live.has(a.dashboardId));
}
function onTarget(d, a, ctx) {
    if (isSavedSearch(d.spec))
        return a.savedSearchId != null && a.savedSearchId === d.savedSearch?.value;
    const { dashboard, tile } = tileTarget(d.spec);
    const target = ctx.dashboards.desired.get(dashboard);
    return a.dashboardId === target?.liveId && (0,schemas/* sameId */.s)(a.tileId, target?.tileIds.get(tile));
}
/** Why the server deletes this alert in this run (its tile, dashboard or saved search goes), if it does. */
function targetGoes(live, ctx) {
    if (live.source === 'saved_search') {
        return live.savedSearchId != null && ctx.refs.isDeleted('SavedSearch', live.savedSearchId)
            ? 'its saved search is deleted, and the server deletes its alerts with it'
            : undefined;
    }
    const dash = live.dashboardId ? ctx.dashboards.live.get(live.dashboardId) : undefined;
    if (!dash)
        return undefined;
    if (dash.deleted)
        return 'its dashboard is deleted, and the server deletes its alerts with it';
    if (live.tileId != null && dash.droppedTileIds.has(String(live.tileId)))
        return 'its tile goes away, and the server deletes the alerts of a removed tile';
    return undefined;
}
/**
 * The managed cloud keeps a saved-search alert's `groupBy` when an update leaves it out, and refuses `null`
 * (TF `client/alert.go`, `alert_resource.go`): the value an update leaves there, when the manifest has none.
 */
function keptGroupBy(ctx, live) {
    return ctx.settings.mode === 'managed' ? (live?.groupBy ?? undefined) : undefined;
}
/** Says that a `groupBy` the manifest dropped stays (managed): only a new alert starts without one. */
function reportStickyGroupBy(pc, ctx) {
    const { change, desired, live } = pc;
    const kept = keptGroupBy(ctx, live);
    if (!desired || kept === undefined || desired.value.spec.groupBy !== undefined)
        return;
    if (change.action === 'replace') {
        change.notes.push(`groupBy ${JSON.stringify(kept)} goes with the old alert: the new one has none`);
        return;
    }
    ctx.report((0,diagnostics/* diagnostic */.YK)('plan', 'warning', `groupBy ${JSON.stringify(kept)} stays: the managed API keeps a saved-search alert's groupBy when an update leaves it out and refuses to clear it. Only a new alert starts without one: with prune on, remove the manifest for one apply and add it back`, desired.source));
}
/** The alert's channels (`channel`, or the list in `channels`), their webhooks resolved. */
function resolveChannels(located, ctx) {
    const { spec, doc } = located;
    const list = spec.channels ?? (spec.channel ? [spec.channel] : []);
    const base = spec.channels ? ['channels'] : ['channel'];
    return list.map((c, i) => {
        const path = spec.channels ? [...base, i] : base;
        if (c.type === 'email')
            return { body: { type: 'email', emailRecipients: c.emailRecipients } };
        const { webhook, webhookId, ...extras } = c;
        const resolved = ctx.refs.resolve({
            kind: 'Webhook',
            name: webhook,
            id: webhookId,
            at: { doc, path: [...path, webhook !== undefined ? 'webhook' : 'webhookId'] }
        });
        // The rest is the body, the webhook's id added to it: not a spread copy of it with a key after
        // (dashboard/desired.ts seriesBody says why).
        const body = extras;
        body.webhookId = resolved.value;
        return { body: body, webhook: resolved };
    });
}
/**
 * The saved search a saved-search alert watches. It must be one this stack manages: alert ownership
 * follows it, as it follows a tile alert's dashboard.
 */
function resolveSavedSearch(located, ctx) {
    const { spec, doc } = located;
    const field = spec.savedSearch !== undefined ? 'savedSearch' : 'savedSearchId';
    const resolved = ctx.refs.resolve({
        kind: 'SavedSearch',
        name: spec.savedSearch,
        id: spec.savedSearchId,
        at: { doc, path: [field] }
    });
    if (!resolved.error && !resolved.declared && !ctx.refs.isManaged('SavedSearch', resolved.value))
        ctx.report((0,diagnostics/* diagnostic */.YK)('plan', 'error', `saved search ${JSON.stringify(spec.savedSearch ?? spec.savedSearchId)} is not managed by stack "${ctx.settings.stack}": an alert is owned through its saved search, so declare the saved search in the manifests (\`adopt: true\` for an existing one)`, { ...doc.locate([field]), field }));
    return resolved;
}
/** A channel in the normal form: a webhook's label, or the channel's fields when it has more. */
function channelNormal(body, webhookLabel) {
    const { type, webhookId: _id, ...rest } = body;
    const extras = (0,json/* clean */.uH)(rest);
    if (type === 'email')
        return ((0,json/* clean */.uH)({ email: rest.emailRecipients }) ?? {});
    if (!extras)
        return webhookLabel ?? null;
    return { webhook: webhookLabel ?? null, ...extras };
}
/**
 * Absent, null, '' and the server's defaults compare equal (numConsecutiveWindows defaults to 1, the schedule offset
 * to 0); a start date compares as the instant it names (the server returns it in `toISOString` form).
 */
function normal(o) {
    if (o.numConsecutiveWindows === 1)
        o.numConsecutiveWindows = undefined;
    if (o.scheduleOffsetMinutes === 0)
        o.scheduleOffsetMinutes = undefined;
    if (typeof o.scheduleStartAt === 'string' && !Number.isNaN(Date.parse(o.scheduleStartAt)))
        o.scheduleStartAt = new Date(o.scheduleStartAt).toISOString();
    return ((0,json/* clean */.uH)(o) ?? {});
}
function alertBody(d, ctx, octx, live) {
    const s = d.spec;
    const mode = octx.settings.mode;
    const target = {};
    if (isSavedSearch(s)) {
        target.savedSearchId = d.savedSearch?.value;
        target.groupBy = s.groupBy;
    }
    else {
        const { dashboard, tile } = tileTarget(s);
        const fromRun = ctx.facts.get(readyToken(dashboard));
        const planned = octx.dashboards.desired.get(dashboard);
        const dashboardId = fromRun?.id ?? planned?.liveId;
        const tileId = fromRun?.tileIds?.get(tile) ?? planned?.tileIds.get(tile);
        // The create waits for the dashboard's ready token, which carries these: never send an alert without its tile.
        if (!dashboardId || !tileId)
            throw new Error(`dashboard "${dashboard}" or its tile "${tileText(s)}" has no id yet`);
        target.dashboardId = dashboardId;
        target.tileId = tileId;
    }
    const channels = d.channels.map(c => c.body);
    // Fields the manifest leaves out are undefined here, and JSON leaves them out of the request.
    const body = {
        ...target,
        source: s.source ?? 'tile',
        name: s.name,
        threshold: s.threshold,
        thresholdType: s.thresholdType,
        interval: s.interval,
        // One channel as `channel` (both modes); several as `channels` (self-hosted; the server mirrors the first).
        ...(channels.length === 1 ? { channel: channels[0] } : { channels }),
        thresholdMax: s.thresholdMax,
        message: s.message,
        numConsecutiveWindows: s.numConsecutiveWindows,
        note: s.note
    };
    // Managed: only where the cloud's reads show it knows them (the gateway refuses an undeclared key). An empty
    // list of tags is sent: it clears them.
    const display = {};
    if (mode !== 'managed' || d.displayFields) {
        if (s.displayName !== undefined)
            display.displayName = s.displayName;
        if (s.tags !== undefined)
            display.tags = s.tags;
    }
    // A PUT keeps the schedule it omits (controllers/alerts.ts makeAlert): clear what the manifest does not set.
    if (s.scheduleStartAt !== undefined || (live?.scheduleStartAt ?? null) !== null)
        body.scheduleStartAt = s.scheduleStartAt ?? null;
    if (s.scheduleOffsetMinutes !== undefined || (live?.scheduleOffsetMinutes ?? 0) !== 0)
        body.scheduleOffsetMinutes = s.scheduleOffsetMinutes ?? 0;
    const bound = (0,references/* bindPlaceholders */.aC)(body, ctx.facts);
    // What the live alert holds that the manifest does not set goes back as read (alert-kept.ts).
    // Managed: a list only where the cloud's reads show it takes one (refuseChannelList); `channel` mirrors its first.
    const managedChannels = mode === 'managed' && d.channelsField ? { channels: bound.channels ?? [bound.channel] } : {};
    return {
        ...(mode === 'managed'
            ? {
                ...(0,managed_request/* managedAlertBody */.Sg)(bound),
                channel: bound.channels?.[0] ?? bound.channel
            }
            : bound),
        ...managedChannels,
        ...keptBody(d.kept),
        ...display
    };
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
            (isSavedSearch(d.spec)
                ? a.savedSearchId === body.savedSearchId
                : a.dashboardId === body.dashboardId && (0,schemas/* sameId */.s)(a.tileId, body.tileId))),
        adopted: found => ({ status: 'adopted', id: found.id })
    });
}

// EXTERNAL MODULE: ./src/manifest/path.ts
var manifest_path = __webpack_require__(7578);
// EXTERNAL MODULE: ./src/kinds/registry.ts
var registry = __webpack_require__(6340);
;// CONCATENATED MODULE: ./src/kinds/records.ts







/** The manifests of a kind as desired records; a kind this API cannot list is a plan error at each. */
function desiredRecords(kind, located, live, ctx) {
    return located.map(l => {
        if (live === undefined)
            ctx.report((0,diagnostics/* diagnostic */.YK)('plan', 'error', `this API has no ${(0,nouns/* wordFor */.G)(kind, true)} route (${ctx.settings.mode}${ctx.settings.managedPrefix ? `, prefix ${ctx.settings.managedPrefix}` : ''}): ${kind} manifests cannot be applied here`, { ...l.doc.locate(['kind']), field: 'kind' }));
        return new DesiredAt(l.spec.name, `${kind}/${l.spec.name}`, { spec: l.spec, located: l }, l.doc);
    });
}
/**
 * A Kind's `pair` for a kind owned through the registry (no tags): by id, owned when the stack's registry
 * lists it, another stack's when that stack's does; never adopted from another stack.
 */
function registryPair(kind, liveOf, refusesTwin) {
    return (desired, ctx) => pairRecords(desired, liveOf(ctx), ctx, {
        kind,
        liveId: l => l.id,
        liveName: l => l.name,
        owns: l => ctx.registry.owns(kind, l.id),
        otherOwner: l => ctx.registry.ownerOf(kind, l.id),
        adoptFromOthers: false,
        refusesTwin
    });
}
/** The manifests of a record kind paired with live records, as the header's identity rules say. */
function pairRecords(desired, live, ctx, o) {
    const all = [...(live ?? [])].sort((a, b) => o.liveId(a).localeCompare(o.liveId(b)));
    const owned = all.filter(l => o.owns(l));
    const pairing = new RecordPairing(ctx, o);
    // 1. Pinned ids first: a pin wins over a name match, whatever the file order.
    const unpinned = pairing.pairPinned(desired, all);
    // 2. This stack's record of the same name; 3. adopt; otherwise create, unless the name is taken.
    const unmatched = pairing.pairOwned(unpinned, owned);
    const allByName = byName(all, o.liveName);
    for (const d of unmatched)
        pairing.pairUnowned(d, allByName.get(d.name) ?? []);
    return { pairs: pairing.pairs, orphans: owned.filter(l => !pairing.isTaken(l)) };
}
function byName(list, liveName) {
    const index = new Map();
    for (const l of list)
        index.set(liveName(l), [...(index.get(liveName(l)) ?? []), l]);
    return index;
}
/** One run of pairRecords: the live records taken so far, the pairs made, and the plan errors' wording. */
class RecordPairing {
    ctx;
    o;
    pairs = [];
    used = new Set();
    what;
    siblings;
    constructor(ctx, o) {
        this.ctx = ctx;
        this.o = o;
        this.what = (0,nouns/* wordFor */.G)(o.kind);
        this.siblings = new Set(ctx.settings.siblingTags);
    }
    isTaken(l) {
        return this.used.has(this.o.liveId(l));
    }
    /** Pairs each manifest that pins an id; returns the others, in order. */
    pairPinned(desired, all) {
        const { o, what } = this;
        const byId = new Map(all.map(l => [o.liveId(l), l]));
        const pending = [];
        for (const d of desired) {
            const pin = d.value.spec.id;
            if (pin === undefined) {
                pending.push(d);
                continue;
            }
            const l = byId.get(pin);
            const other = l && !o.owns(l) ? o.otherOwner(l) : undefined;
            if (!l)
                this.planError(d, ['id'], `no ${what} with id "${pin}" exists`);
            else if (this.used.has(pin))
                this.planError(d, ['id'], `${what} id "${pin}" is already matched by another manifest`);
            else if (other && !o.adoptFromOthers)
                this.foreign(d, ['id'], l, other);
            else
                this.pairs.push({ desired: d, live: this.take(l), notes: o.owns(l) ? [] : [this.adoptionNote(l)] });
        }
        return pending;
    }
    /** Pairs each manifest with this stack's record of its name; returns the others, in order. */
    pairOwned(pending, owned) {
        const ownedByName = byName(owned, this.o.liveName);
        const later = [];
        for (const d of pending) {
            const mine = ownedByName.get(d.name)?.find(l => !this.isTaken(l));
            if (mine)
                this.pairs.push({ desired: d, live: this.take(mine) });
            else
                later.push(d);
        }
        return later;
    }
    /** A manifest no owned record matches, given the live records of its name: adopt one, create, or a plan error. */
    pairUnowned(d, named) {
        const { o, ctx, what } = this;
        const sameName = named.filter(l => !this.isTaken(l) && !o.owns(l));
        const others = sameName.filter(l => this.siblingOf(l) === undefined);
        if (others.length === 0) {
            // None, or only other stacks' of this repository: a new one; each stack keeps its own.
            this.pairBesideSiblings(d, sameName);
            return;
        }
        const first = others[0];
        const other = o.otherOwner(first);
        if (d.value.spec.adopt && others.length === 1) {
            if (other && !o.adoptFromOthers)
                this.foreign(d, ['adopt'], first, other);
            else
                this.pairs.push({ desired: d, live: this.take(first), notes: [this.adoptionNote(first)] });
        }
        else if (d.value.spec.adopt) {
            this.planError(d, ['adopt'], `${others.length} ${(0,nouns/* wordFor */.G)(o.kind, true)} are named "${d.name}" (ids ${others.map(o.liveId).join(', ')}); pin the one to adopt with \`id:\``);
        }
        else if (other && !o.adoptFromOthers) {
            this.foreign(d, ['name'], first, other);
        }
        else {
            this.planError(d, ['name'], `a ${what} named "${d.name}" already exists (id ${o.liveId(first)}) and is not owned by stack "${ctx.settings.stack}"` +
                `${other ? ` (it is ${other}'s)` : ''}. It is not overwritten: to manage it from this manifest, add \`adopt: true\`` +
                ` (or \`id: ${o.liveId(first)}\`); to keep both, give this manifest another name.`);
        }
    }
    /** A new record beside other stacks' of its name (none, or only this repository's), unless the server refuses the twin. */
    pairBesideSiblings(d, siblings) {
        const { o, ctx, what } = this;
        const twin = siblings.find(l => o.refusesTwin?.(d.value.spec, l) !== undefined);
        if (twin)
            this.planError(d, ['name'], `stack "${ctx.settings.stack}" cannot create ${what} "${d.name}": another stack of this repository (${this.siblingOf(twin)}) has one (id ${o.liveId(twin)}), and ${o.refusesTwin(d.value.spec, twin)}`);
        else {
            const sibling = siblings[0];
            this.pairs.push(sibling === undefined
                ? { desired: d }
                : {
                    desired: d,
                    notes: [siblingNote(what, o.liveId(sibling), this.siblingOf(sibling), d.value.spec.adopt)]
                });
        }
    }
    /** The tag of another stack of this repository that owns it. */
    siblingOf(l) {
        const other = this.o.otherOwner(l);
        return other !== undefined && this.siblings.has(other) ? other : undefined;
    }
    take(l) {
        this.used.add(this.o.liveId(l));
        return l;
    }
    planError(d, path, message) {
        this.ctx.report((0,diagnostics/* diagnostic */.YK)('plan', 'error', message, { ...d.value.located.doc.locate(path), field: (0,manifest_path/* formatPath */.j)(path) }));
    }
    adoptionNote(l) {
        const { o, ctx } = this;
        return `adopts existing ${this.what} ${o.liveId(l)}: this stack takes ownership (${(0,registry/* isRegistryKind */._Y)(o.kind) ? `recorded in its registry dashboard "${(0,registry/* registryName */.jT)(ctx.settings.stack)}"` : `it gets the tag ${ctx.settings.ownershipTag}`})`;
    }
    foreign(d, path, l, other) {
        this.planError(d, path, `${this.what} "${this.o.liveName(l)}" (id ${this.o.liveId(l)}) is owned by another stack (${other}); a stack never takes over another stack's ${(0,nouns/* wordFor */.G)(this.o.kind, true)}: remove it from that stack's manifests first, or give this manifest another name`);
    }
}
/** A same-named record of another stack of this repository: each stack keeps its own (as dashboards do). */
function siblingNote(what, id, owner, adopt) {
    const kept = `${what} ${id} of the same name belongs to another stack of this repository (${owner}) and stays theirs`;
    return adopt
        ? `a new ${what}: ${kept}, because \`adopt: true\` never takes one from another stack`
        : `a new ${what}: ${kept}`;
}
/** One change of a record kind as operations of the apply graph; recordRequests counts the same requests. */
function recordOperations(pc, octx, w) {
    const { change, desired, live } = pc;
    if (change.action === 'noop' || change.deferred)
        return [];
    const lock = `${w.kind}:${live ? w.liveId(live) : change.name}`;
    if (change.action === 'delete' && live)
        return [records_deleteOperation(change, lock, w.liveId(live), w)];
    if (!desired)
        return [];
    if (live)
        return [updateOperation(change, lock, desired, live, octx, w)];
    return createOperations(change, lock, desired, octx, w);
}
/** The registry kind whose entries record this kind's ownership, if it is one. */
const registryKindOf = (kind) => (0,registry/* isRegistryKind */._Y)(kind) ? kind : undefined;
function records_deleteOperation(change, lock, id, w) {
    const registryKind = registryKindOf(w.kind);
    return {
        address: change.address,
        label: 'delete',
        lock,
        provides: [],
        after: [],
        run: async (ctx) => {
            const outcome = await ctx.api.deleteRecord(w.collection, id);
            // Forgotten only once it is gone: the registry never loses a record the stack still has.
            if (registryKind)
                await ctx.registry.forget(registryKind, id);
            return { status: 'applied', id, message: outcome === 'absent' ? 'already gone' : undefined };
        }
    };
}
/** An update, or an adoption alone when nothing but ownership changes (no request then). */
function updateOperation(change, lock, desired, live, octx, w) {
    const registryKind = registryKindOf(w.kind);
    const body = w.updateBody(desired.value, live, change, octx);
    const id = w.liveId(live);
    return {
        address: change.address,
        label: body ? 'update' : 'adopt',
        lock,
        provides: [(0,references/* resourceReady */.mi)(w.kind, desired.name)],
        after: body ? (0,references/* placeholderTokens */.o9)(body) : [],
        run: async (ctx) => {
            if (body)
                await ctx.api.updateRecord(w.collection, id, (0,references/* bindPlaceholders */.aC)(body, ctx.facts));
            const entry = registryKind ? w.entryAfter?.(desired.value, body, live, octx) : undefined;
            if (registryKind && entry)
                await ctx.registry.record(registryKind, id, entry);
            return { status: 'applied', id };
        }
    };
}
/** A duplicate-safe create, recorded in the registry for a registry kind, and its link when it needs one. */
function createOperations(change, lock, desired, octx, w) {
    const registryKind = registryKindOf(w.kind);
    const ready = (0,references/* resourceReady */.mi)(w.kind, desired.name);
    const body = w.createBody(desired.value, octx);
    const link = w.linkBody?.(desired.value, octx);
    const create = {
        address: change.address,
        label: 'create',
        lock,
        provides: [ready],
        after: (0,references/* placeholderTokens */.o9)(body),
        run: async (ctx) => {
            const bound = (0,references/* bindPlaceholders */.aC)(body, ctx.facts);
            const result = await createOnce(ctx, {
                what: w.collection,
                name: desired.name,
                create: () => ctx.api.createRecord(w.collection, bound),
                created: c => ({ status: 'applied', id: c.id }),
                list: () => w.list(ctx),
                find: all => (w.find ? w.find(all, bound, octx) : all.find(l => w.liveName(l) === desired.name)),
                adopted: found => ({ status: 'adopted', id: w.liveId(found) })
            });
            const entry = registryKind ? w.entryAfter?.(desired.value, bound, undefined, octx) : undefined;
            if (registryKind && entry && result.id !== undefined) {
                try {
                    await ctx.registry.record(registryKind, result.id, entry);
                }
                catch (e) {
                    throw (0,registry/* unrecordedError */.IX)(`${(0,nouns/* wordFor */.G)(w.kind)} "${desired.name}" was created (id ${result.id})`, octx.settings.stack, e);
                }
            }
            return result;
        }
    };
    if (!link)
        return [create];
    const linkOp = {
        address: change.address,
        label: 'link',
        lock,
        provides: [],
        after: [ready, ...(0,references/* placeholderTokens */.o9)(link)],
        run: async (ctx) => {
            const id = ctx.facts.get(ready)?.id;
            if (id === undefined)
                throw new Error(`${(0,nouns/* wordFor */.G)(w.kind)} "${desired.name}" has no id`);
            await ctx.api.updateRecord(w.collection, id, (0,references/* bindPlaceholders */.aC)(link, ctx.facts));
            return { status: 'applied', id };
        }
    };
    return [linkOp, create];
}
/** A kind's `operations` and `requests`, both from how it writes, so the estimate decides as the requests do. */
function recordWrites(writes) {
    return {
        operations: (pc, octx) => recordOperations(pc, octx, writes(octx)),
        requests: (pc, octx) => recordRequests(pc, octx, writes(octx))
    };
}
/**
 * What recordOperations send, decided as they decide it: a delete; an update when more than ownership changes; a
 * create, and its link when it must leave out references first. A registry kind records (or forgets) an entry
 * after the write, in the registry dashboard.
 */
function recordRequests(pc, octx, w) {
    const { change, desired, live } = pc;
    const registryKind = (0,registry/* isRegistryKind */._Y)(w.kind);
    if (change.action === 'noop' || change.deferred)
        return { requests: 0 };
    if (change.action === 'delete')
        return live ? { requests: 1, ...(registryKind ? { registry: 1 } : {}) } : { requests: 0 };
    if (!desired)
        return { requests: 0 };
    const body = live ? w.updateBody(desired.value, live, change, octx) : w.createBody(desired.value, octx);
    const requests = live ? (body ? 1 : 0) : w.linkBody?.(desired.value, octx) ? 2 : 1;
    const entry = registryKind ? w.entryAfter?.(desired.value, body, live, octx) : undefined;
    return { requests, ...(entry ? { registry: 1 } : {}) };
}
/** What the apply writes to the registry dashboard for this change, in the plan's words. */
function registryNote(change, ctx) {
    if (!(0,registry/* isRegistryKind */._Y)(change.kind) || change.deferred || change.action === 'noop')
        return;
    const name = (0,registry/* registryName */.jT)(ctx.settings.stack);
    const creates = ctx.registry.dashboard ? '' : ' (the apply creates that dashboard)';
    if (change.action === 'create')
        change.notes.push(`recorded as this stack's in its registry dashboard "${name}"${creates}`);
    else if (change.action === 'delete')
        change.notes.push(`removed from the registry dashboard "${name}" once deleted`);
    else if (change.fields.some(f => f.path === 'owner' || /^(password|headers|queryParams|body)$/.test(f.path)))
        change.notes.push(`the registry dashboard "${name}" records its ownership and write-only fingerprints${creates}`);
}
/** The live owner in a normal form: this stack's tag, another stack's, or none. */
function registryOwner(kind, id, ctx) {
    if (!(0,registry/* isRegistryKind */._Y)(kind))
        return undefined;
    return ctx.registry.owns(kind, id) ? ctx.settings.ownershipTag : ctx.registry.ownerOf(kind, id);
}
/** Whether an update changes more than who owns it (a request is needed). */
const changesMoreThanOwner = (change) => change.fields.some(f => f.path !== 'owner');

;// CONCATENATED MODULE: ./src/kinds/write-only.ts
const SECRET = '(secret)';
const SECRET_CHANGED = '(secret: changed)';
const WRITE_ONLY_SET = '(write-only: set)';
const WRITE_ONLY_CHANGED = '(write-only: changed)';
const WRITE_ONLY_UNKNOWN = '(write-only: unknown, will be sent)';
const WRITE_ONLY_OTHER_KEY = '(write-only: recorded with another API key, will be sent)';
const WRITE_ONLY_RENEW = '(write-only: set, sent once more to replace an unkeyed fingerprint)';
/** A returned secret: markers for both sides. */
function secretMarkers(desired, live) {
    const liveValue = live ?? undefined;
    const known = liveValue !== undefined && liveValue !== '';
    return {
        live: known ? SECRET : undefined,
        // A create has nothing to compare with: it just sets the secret.
        desired: desired === undefined ? undefined : !known || desired === liveValue ? SECRET : SECRET_CHANGED
    };
}
const isEmpty = (v) => v === undefined || (typeof v === 'object' && v !== null && Object.keys(v).length === 0);
function writeOnlyState(field, desired, entry, key) {
    const fp = entry?.writeOnly?.[field];
    const live = fp ? WRITE_ONLY_SET : undefined;
    if (isEmpty(desired))
        return { live, desired: undefined, changed: false, removed: fp !== undefined };
    if (!fp)
        return { live, desired: WRITE_ONLY_UNKNOWN, changed: true, removed: false };
    // Without the run's key nothing can be compared: the value is sent, as for one never recorded.
    const comparison = key ? key.compare(fp, desired) : 'other-key';
    const shown = {
        same: WRITE_ONLY_SET,
        changed: WRITE_ONLY_CHANGED,
        'other-key': WRITE_ONLY_OTHER_KEY,
        renew: WRITE_ONLY_RENEW
    }[comparison];
    return { live, desired: shown, changed: comparison !== 'same', removed: false };
}
/**
 * The registry entry after a write: fingerprints of the write-only values sent now; a field the request
 * left alone keeps its fingerprint, one it cleared loses it.
 */
function entryAfterWrite(name, previous, sent, key, cleared = []) {
    const writeOnly = { ...previous?.writeOnly };
    for (const [field, value] of Object.entries(sent)) {
        // Without a key no fingerprint is recorded: the next plan sends the value again rather than guess.
        if (isEmpty(value) || !key)
            delete writeOnly[field];
        else
            writeOnly[field] = key.fingerprint(value);
    }
    for (const field of cleared)
        delete writeOnly[field];
    return Object.keys(writeOnly).length > 0 ? { name, writeOnly } : { name };
}

;// CONCATENATED MODULE: ./src/kinds/connection-export.ts

const connectionExport = {
    list: 'connections',
    writes: {
        to: { file: 'connections' },
        tags: undefined,
        skips: undefined,
        writer: ctx => c => {
            const comments = [
                `password: write-only (the API never returns it); to manage it, add \`password: \${secret.${ctx.secrets.name(['CONNECTION', c.name, 'PASSWORD'], false)}}\``
            ];
            const value = {
                kind: 'Connection',
                name: c.name,
                ...(0,exporting/* twinPin */.OH)(ctx.namer, 'Connection', c, comments),
                host: c.host ?? '',
                username: c.username ?? ''
            };
            if (c.hyperdxSettingPrefix)
                value.hyperdxSettingPrefix = c.hyperdxSettingPrefix;
            if (c.isPrometheusEndpoint)
                value.isPrometheusEndpoint = true;
            if (!ctx.registry.owns('Connection', c.id))
                value.adopt = true;
            return { documents: [(0,exporting/* withComments */.f6)(value, comments)], carried: 0 };
        }
    }
};

;// CONCATENATED MODULE: ./src/kinds/connection.ts
/**
 * ClickHouse connections (self-hosted only: the cloud has no connections route). The password is
 * write-only: never returned, so the plan compares a fingerprint of what the stack last sent
 * (write-only.ts). A PUT without a password keeps the stored one, so a password cannot be cleared
 * (v2/connections.ts); `hyperdxSettingPrefix: null` clears the prefix. Owned through the registry.
 */






const connectionKind = {
    kind: 'Connection',
    nouns: nouns/* NOUNS */.M.Connection,
    fingerprint: { specs: 'connections', whenEmpty: true, names: { key: 'connections', at: 2 } },
    referredBy: [{ key: 'connectionId', as: 'connection' }],
    copies: undefined,
    seenOn: undefined,
    // The server deletes a connection whatever still names it (docs/real-server.md).
    heldWhileUsed: { fields: ['connectionId'] },
    unnamedUses: undefined,
    exports: connectionExport,
    live: { read: api => api.listConnections() },
    desired: ctx => desiredRecords('Connection', ctx.manifests.specs.Connection, ctx.live.Connection, ctx),
    pair: registryPair('Connection', ctx => ctx.live.Connection),
    normalDesired(d, ctx, live) {
        const s = d.value.spec;
        const password = writeOnlyState('password', s.password, live && ctx.registry.entry('Connection', live.id), ctx.settings.fingerprintKey);
        return connection_normal({
            name: s.name,
            owner: ctx.settings.ownershipTag,
            host: s.host,
            username: s.username,
            hyperdxSettingPrefix: s.hyperdxSettingPrefix,
            isPrometheusEndpoint: s.isPrometheusEndpoint,
            // A password cannot be cleared through the API: one the manifest dropped stays (refine warns).
            password: password.removed ? password.live : password.desired
        });
    },
    normalLive(l, ctx) {
        return connection_normal({
            name: l.name,
            owner: registryOwner('Connection', l.id, ctx),
            host: l.host,
            username: l.username,
            hyperdxSettingPrefix: l.hyperdxSettingPrefix,
            isPrometheusEndpoint: l.isPrometheusEndpoint,
            password: writeOnlyState('password', undefined, ctx.registry.entry('Connection', l.id), undefined).live
        });
    },
    liveName: l => l.name,
    liveId: l => l.id,
    refine(pc, ctx) {
        const { change, desired, live } = pc;
        registryNote(change, ctx);
        if (!desired || !live || desired.value.spec.password !== undefined)
            return;
        if (writeOnlyState('password', undefined, ctx.registry.entry('Connection', live.id), undefined).removed)
            ctx.report((0,diagnostics/* diagnostic */.YK)('plan', 'warning', `connection "${desired.name}": the manifest no longer sets a password, but the API cannot clear one (a PUT without a password keeps the stored one): it stays as it is`, desired.source));
    },
    ...recordWrites(() => ({
        kind: 'Connection',
        collection: 'connections',
        liveId: l => l.id,
        liveName: l => l.name,
        list: async (ctx) => (await ctx.api.listConnections()) ?? [],
        createBody: d => body(d.spec, true),
        updateBody(d, _live, change) {
            if (!changesMoreThanOwner(change))
                return undefined;
            const out = body(d.spec, change.fields.some(f => f.path === 'password'));
            // PUT keeps an omitted prefix and flag (v2/connections.ts): send what the manifest means by absent.
            out.hyperdxSettingPrefix = d.spec.hyperdxSettingPrefix ?? null;
            out.isPrometheusEndpoint = d.spec.isPrometheusEndpoint ?? false;
            return out;
        },
        entryAfter(d, sent, live, octx) {
            const previous = live ? octx.registry.entry('Connection', live.id) : undefined;
            const password = sent?.password;
            // A registry entry is what owning means (registry.ts owns).
            if (password === undefined && previous?.name === d.spec.name)
                return undefined;
            return entryAfterWrite(d.spec.name, previous, password === undefined ? {} : { password }, octx.settings.fingerprintKey);
        }
    }))
};
function body(s, withPassword) {
    const out = { name: s.name, host: s.host, username: s.username };
    if (withPassword && s.password !== undefined)
        out.password = s.password;
    if (s.hyperdxSettingPrefix !== undefined)
        out.hyperdxSettingPrefix = s.hyperdxSettingPrefix;
    if (s.isPrometheusEndpoint !== undefined)
        out.isPrometheusEndpoint = s.isPrometheusEndpoint;
    return out;
}
/** Absent, null, '' and false (the flag's default) compare equal. */
function connection_normal(o) {
    if (o.isPrometheusEndpoint === false)
        o.isPrometheusEndpoint = undefined;
    return ((0,json/* clean */.uH)(o) ?? {});
}

// EXTERNAL MODULE: ./src/manifest/metric-item.ts
var metric_item = __webpack_require__(7057);
// EXTERNAL MODULE: ./src/kinds/dashboard/filters.ts
var dashboard_filters = __webpack_require__(4131);
// EXTERNAL MODULE: ./src/kinds/dashboard/links.ts
var links = __webpack_require__(9981);
;// CONCATENATED MODULE: ./src/kinds/dashboard/desired.ts
/**
 * What the manifests ask for: each dashboard with its tiles and filters as the server will receive them, data
 * sources and connections resolved from names to ids, or to placeholders for ones this run creates
 * (references.ts; an unknown name is a plan error at its line). Container ids and dashboard link-outs depend
 * on the live dashboard, so they are settled later (layout.ts, links.ts).
 */




function desiredDashboards(ctx) {
    // Dashboards of one name (validation allows them only when each is pinned by id) are told apart by the id, as
    // orphans are: a saved plan keys its records by address.
    const named = new Map();
    for (const { spec } of ctx.manifests.specs.Dashboard)
        named.set(spec.name, (named.get(spec.name) ?? 0) + 1);
    return ctx.manifests.specs.Dashboard.map(located => {
        const { spec, doc } = located;
        const tiles = (spec.tiles ?? []).map((tile, i) => desiredTile(tile, ['tiles', i], located, ctx));
        const filters = (spec.filters ?? []).map((f, i) => {
            const path = ['filters', i];
            const appliesTo = f.appliesToSources?.map((name, j) => resolveSource({ source: name }, [...path, 'appliesToSources', j], located, ctx, ''));
            const ids = f.appliesToSourceIds?.map((id, j) => resolveSource({ sourceId: id }, [...path, 'appliesToSourceIds', j], located, ctx, ''));
            return (0,dashboard_filters/* filterBody */.xr)(f, resolveSource(f, path, located, ctx), (appliesTo ?? ids));
        });
        return new DesiredAt(spec.name, named.get(spec.name) > 1 && spec.id !== undefined
            ? `Dashboard/${spec.name}@${spec.id}`
            : `Dashboard/${spec.name}`, { spec, located, tiles, filters, waitsFor: new Set(), linksLater: false }, doc);
    });
}
/**
 * A series tile keeps its spec and its resolved source ids, and makes its body when asked: a plan of
 * thousands of dashboards holds each tile once, not a second copy of it as sent.
 */
class SeriesTile {
    spec;
    sourceIds;
    constructor(spec, sourceIds) {
        this.spec = spec;
        this.sourceIds = sourceIds;
    }
    get body() {
        const { spec } = this;
        const body = tileLayout(spec);
        if (spec.asRatio !== undefined)
            body.asRatio = spec.asRatio;
        body.series = (spec.series ?? []).map((s, i) => seriesBody(s, this.sourceIds[i]));
        return body;
    }
}
/** The tile's references resolved now (each problem reported at its line); a series tile's body made on use. */
function desiredTile(tile, path, located, ctx) {
    if (tile.series)
        return new SeriesTile(tile, tile.series.map((s, i) => resolveSource(s, [...path, 'series', i], located, ctx)));
    return { spec: tile, body: tileBody(tile, path, located, ctx) };
}
const tileLayout = (tile) => ({
    name: tile.name,
    x: tile.x,
    y: tile.y,
    w: tile.w,
    h: tile.h
});
/** A config tile (or one with neither form) as the server will receive it: data sources resolved to ids. */
function tileBody(tile, path, located, ctx) {
    const body = tileLayout(tile);
    if (tile.config) {
        const cpath = [...path, 'config'];
        body.config = configBody(tile.config, resolveSource(tile.config, cpath, located, ctx));
        if (tile.config.configType === 'sql') {
            delete body.config.connection;
            body.config.connectionId = resolveReference('Connection', 'connection', tile.config, cpath, located, ctx);
        }
        if (tile.config.configType !== 'sql' && tile.config.displayType === 'table' && tile.config.onClick) {
            const at = [...cpath, 'onClick', 'target'];
            body.config.onClick = (0,links/* linkBody */.JS)(tile.config.onClick, ref => resolveSource({ source: ref.source, sourceId: ref.id }, at, located, ctx));
        }
    }
    return body;
}
/**
 * A data source named by `source` or `sourceId`: its live id, or `new:Source/<name>` for one this run creates
 * (bound at apply time), or `unresolved:...` after reporting why at `path` (and its field, unless `field`
 * says the path already names it: '').
 */
function resolveSource(ref, path, located, ctx, field) {
    return resolveReference('Source', 'source', ref, path, located, ctx, field);
}
/**
 * A reference written as `<field>` (by name) or `<field>Id` (by id) in the record at `path`; an error is
 * reported at that field, or at `leaf` under `path` when given ('' for `path` itself).
 */
function resolveReference(kind, field, ref, path, located, ctx, leaf) {
    // The manifest schema makes both strings where present.
    const r = ref;
    const name = r[field];
    const id = r[`${field}Id`];
    if (name === undefined && id === undefined)
        return undefined;
    return ctx.refs.resolve({
        kind,
        name,
        id,
        at: { doc: located.doc, path: atLeaf(path, leaf ?? (name !== undefined ? field : `${field}Id`)) }
    }).value;
}
function seriesBody(s, sourceId) {
    if (s.type === 'markdown')
        return { type: 'markdown', content: s.content };
    // The rest is the body. Not a spread copy of it with keys added after (`{ ...rest }`, then `body.x = ...`): in
    // optimised code Node 20's V8 makes such an object a hidden class of its own, in the old generation, at every
    // call: ~10 MB at 5,000 dashboards that only a full collection frees, which a plan's run never reaches.
    const { source: _source, sourceId: _id, ...body } = s;
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
    // The rest is the body, not a spread copy of it (seriesBody says why).
    const { source: _source, sourceId: _id, ...body } = c;
    if (sourceId !== undefined)
        body.sourceId = sourceId;
    if (Array.isArray(body.groupBy))
        body.groupBy = body.groupBy.join(',');
    if (c.displayType !== 'heatmap' && Array.isArray(body.select))
        body.select = body.select.map(selectItemBody);
    if (c.displayType === 'search') {
        if (Array.isArray(body.select))
            body.select = body.select.join(', ');
        // The managed API requires it on a search config (ClickStackSearchChartConfig); lucene is the default.
        body.whereLanguage = c.whereLanguage ?? 'lucene';
    }
    return body;
}
/**
 * A builder select item with its filter and language always present: HyperDX 2.36 stores a missing
 * `whereLanguage` as `aggConditionLanguage: null` (udash convertToInternalSelectItem), which the v2 read shows as
 * lucene but the web UI's own save then refuses (400), on every tile of the dashboard. A metric item without a
 * value expression gets the one the renderer ignores (metric-item.ts): the v2 schema refuses a non-count item
 * without one (utils/zod.ts externalDashboardSelectItemSchema).
 */
function selectItemBody(item) {
    if (typeof item !== 'object' || item === null)
        return item;
    const s = item;
    const body = {
        ...s,
        where: s.where ?? '',
        whereLanguage: s.whereLanguage ?? 'lucene'
    };
    if (s.valueExpression === undefined && s.aggFn !== 'count' && (0,metric_item/* isMetricItem */.o)(s))
        body.valueExpression = metric_item/* METRIC_VALUE_EXPRESSION */.K;
    return body;
}
const atLeaf = (path, leaf) => (leaf === '' ? path : [...path, leaf]);

// EXTERNAL MODULE: ./src/manifest/rules.ts + 10 modules
var rules = __webpack_require__(601);
;// CONCATENATED MODULE: ./src/kinds/dashboard/facts.ts


function recordDashboardFacts(changes, ctx) {
    for (const { change, desired, live } of changes) {
        if (desired) {
            ctx.dashboards.desired.set(desired.name, {
                address: change.address,
                liveId: live?.id,
                tileIds: live ? (0,dashboard_tiles/* tileIdsOf */.I1)((0,dashboard_tiles/* tileSpecs */.d1)(desired.value), live) : new Map(),
                pinnedNames: new Map(desired.value.tiles.flatMap(t => (t.spec.id ? [[t.spec.id, t.spec.name]] : [])))
            });
        }
        if (!live)
            continue;
        const droppedTileIds = new Set();
        if (desired) {
            // Desired tiles that can carry alerts: a live tile not among them goes away, or loses its alerts.
            const pairing = (0,dashboard_tiles/* pairTiles */.uN)((0,dashboard_tiles/* tileSpecs */.d1)(desired.value), live);
            const alertable = new Set(desired.value.tiles.flatMap((t, i) => (0,dashboard_tiles/* isAlertable */.Tn)((0,rules/* tileDisplayType */.PR)(t.spec)) ? [pairing.desired[i].live] : []));
            for (const t of live.tiles)
                if (t.id !== undefined && !alertable.has(t))
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
// EXTERNAL MODULE: ./src/kinds/dashboard/bodies.ts
var bodies = __webpack_require__(5682);
// EXTERNAL MODULE: ./src/kinds/dashboard/carry.ts
var carry = __webpack_require__(1991);
// EXTERNAL MODULE: ./src/kinds/dashboard/layout.ts
var layout = __webpack_require__(7344);
;// CONCATENATED MODULE: ./src/kinds/dashboard/normal.ts









/** The dashboard as the planned request leaves it: an update sends back what the manifest does not model. */
function normalDesired(d, ctx, live) {
    const pairing = (0,dashboard_tiles/* pairTiles */.uN)((0,dashboard_tiles/* tileSpecs */.d1)(d.value), live);
    const tiles = {};
    d.value.tiles.forEach((t, i) => {
        const { key, live: before } = pairing.desired[i];
        const flat = (0,dashboard_tiles/* flatTile */.Ai)((0,carry/* tileAsCompared */._G)(t.body, before));
        tiles[key] = (0,links/* namedLink */.Gp)({ ...flat, ...placed(t.spec.container, t.spec.tab) }, ctx);
    });
    const { spec } = d.value;
    return withoutUndefined({
        name: d.name,
        owner: ctx.settings.ownershipTag,
        tags: (0,ownership/* userTags */.Rz)(spec.tags ?? []),
        tiles,
        filters: (0,dashboard_filters/* normalFilters */.pe)(d.value.filters),
        ...(0,bodies/* savedQueryOf */.zp)(d.value),
        savedFilterValues: normalSavedFilterValues(spec.savedFilterValues),
        containers: (0,layout/* normalContainers */.SH)(spec.containers)
    });
}
function normalLive(l, ctx) {
    // Only an extra registry dashboard of the stack gets here (its delete): what it holds, counted, not shown.
    if ((0,registry/* isRegistryDashboard */._X)(l))
        return (0,registry/* registryNormalForm */.JN)(l, ctx.settings.ownershipTag);
    const tiles = {};
    for (const [key, t] of (0,dashboard_tiles/* keyedLiveTiles */.od)(l)) {
        const at = (0,layout/* livePlacement */.kW)(t, l);
        tiles[key] = (0,links/* namedLink */.Gp)({ ...(0,dashboard_tiles/* flatTile */.Ai)(t), ...placed(at.container, at.tab) }, ctx);
    }
    const owner = l.tags.includes(ctx.settings.ownershipTag)
        ? ctx.settings.ownershipTag
        : l.tags.find(ownership/* isOwnershipTag */.GN);
    return withoutUndefined({
        name: l.name,
        owner,
        tags: (0,ownership/* userTags */.Rz)(l.tags),
        tiles,
        filters: (0,dashboard_filters/* normalFilters */.pe)(l.filters),
        savedQuery: l.savedQuery,
        savedQueryLanguage: l.savedQueryLanguage,
        savedFilterValues: normalSavedFilterValues(l.savedFilterValues),
        containers: (0,layout/* normalContainers */.SH)(l.containers)
    });
}
const placed = (container, tab) => ((0,json/* clean */.uH)({ container, tab }) ?? {});
/** Saved filter values; `type: sql` is the default (and only) type. */
function normalSavedFilterValues(list) {
    return (0,json/* clean */.uH)((list ?? []).map(v => ({ ...v, type: v.type === 'sql' ? undefined : v.type })));
}
function withoutUndefined(o) {
    return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}

// EXTERNAL MODULE: ./src/version.ts
var version = __webpack_require__(311);
// EXTERNAL MODULE: ./src/plan/diff.ts
var diff = __webpack_require__(8256);
;// CONCATENATED MODULE: ./src/kinds/dashboard/patch.ts




/** The tool's tile config keys by display type (mcp/tools/dashboards/schemas.ts); any other is dropped by it. */
const COMMON = ['displayType', 'sourceId', 'select', 'numberFormat'];
const PATCH_CONFIG_KEYS = {
    line: [
        ...COMMON,
        'groupBy',
        'fillNulls',
        'alignDateRangeToGranularity',
        'asRatio',
        'compareToPreviousPeriod',
        'fitYAxisToData',
        'seriesLimit'
    ],
    stacked_bar: [...COMMON, 'groupBy', 'fillNulls', 'alignDateRangeToGranularity', 'asRatio', 'seriesLimit'],
    table: [...COMMON, 'groupBy', 'having', 'orderBy', 'asRatio', 'groupByColumnsOnLeft'],
    number: [...COMMON, 'color'],
    pie: [...COMMON, 'groupBy', 'orderBy', 'limit'],
    bar: [...COMMON, 'groupBy', 'orderBy', 'limit'],
    heatmap: [...COMMON, 'where', 'whereLanguage'],
    search: ['displayType', 'sourceId', 'select', 'where', 'whereLanguage'],
    event_patterns: ['displayType', 'sourceId', 'select', 'where', 'whereLanguage'],
    markdown: ['displayType', 'markdown']
};
const PATCH_SQL_KEYS = [
    'configType',
    'displayType',
    'connectionId',
    'sourceId',
    'sqlTemplate',
    'fillNulls',
    'alignDateRangeToGranularity',
    'numberFormat',
    'compareToPreviousPeriod',
    'fitYAxisToData',
    'color'
];
const PATCH_SQL_TYPES = ['line', 'stacked_bar', 'table', 'number', 'pie', 'bar'];
/** A select item's keys. Not `periodAggFn` (the tool knows `isDelta` instead): a tile with one takes the PUT. */
const PATCH_SELECT_KEYS = [
    'aggFn',
    'valueExpression',
    'where',
    'whereLanguage',
    'alias',
    'level',
    'numberFormat',
    'metricName',
    'metricType'
];
/** The metric types the tool takes (mcpTileMetricTypeSchema: not summary). */
const PATCH_METRIC_TYPES = ['gauge', 'sum', 'histogram', 'exponential histogram'];
const PATCH_HEATMAP_SELECT_KEYS = ['valueExpression', 'countExpression', 'heatmapScaleType'];
const PATCH_NUMBER_FORMAT_KEYS = [
    'output',
    'mantissa',
    'thousandSeparated',
    'average',
    'decimalBytes',
    'factor',
    'currencySymbol',
    'unit'
];
/** The tool takes a quantile level only from this set. */
const PATCH_LEVELS = [0.5, 0.9, 0.95, 0.99];
const within = (value, keys) => typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    // A key whose value is undefined is not sent.
    Object.entries(value).every(([k, v]) => v === undefined || keys.includes(k));
function patchableFormat(value) {
    return value === undefined || within(value, PATCH_NUMBER_FORMAT_KEYS);
}
/**
 * The tool's own checks of a select item's metric fields, which the API does not make (mcp/tools/query/schemas.ts
 * getMetricSelectIssues): name and type together, a type it knows, increase only on a sum, a histogram only with
 * quantile or count. Its missing value expression the tool fills in with `Value`, as an update sends it anyway.
 */
function toolTakesMetric(s) {
    if (s.aggFn === 'increase' && s.metricType !== 'sum')
        return false;
    if (s.metricName === undefined && s.metricType === undefined)
        return true;
    if (!(0,metric_item/* isMetricItem */.o)(s) || !PATCH_METRIC_TYPES.includes(s.metricType))
        return false;
    const histogram = s.metricType === 'histogram' || s.metricType === 'exponential histogram';
    return !histogram || s.aggFn === 'quantile' || s.aggFn === 'count';
}
/** The config as the tool takes it, when it says all the API's form says; undefined when it would not. */
function patchConfig(config) {
    const type = String(config.displayType);
    const sql = config.configType === 'sql';
    if (sql
        ? !PATCH_SQL_TYPES.includes(type) || !within(config, PATCH_SQL_KEYS)
        : !within(config, PATCH_CONFIG_KEYS[type] ?? []))
        return undefined;
    if (!patchableFormat(config.numberFormat))
        return undefined;
    if (Array.isArray(config.select)) {
        const keys = type === 'heatmap' ? PATCH_HEATMAP_SELECT_KEYS : PATCH_SELECT_KEYS;
        for (const item of config.select) {
            if (!within(item, keys))
                return undefined;
            const s = item;
            if (!patchableFormat(s.numberFormat))
                return undefined;
            if (s.level !== undefined && !PATCH_LEVELS.includes(s.level))
                return undefined;
            if (!toolTakesMetric(s))
                return undefined;
        }
    }
    return config;
}
/** The tile as the patch tool takes it, or undefined when the tool's form would lose something of it. */
function patchTile(body, live) {
    // A setting carried from the live tile (a newer server's key) is one the tool would drop.
    if ((0,carry/* holdsUnmanagedSettings */.a3)(live))
        return undefined;
    const sent = (0,carry/* tileAsSent */.BD)(body, live);
    const config = sent.config ?? (0,carry/* seriesAsConfig */.Qq)(sent);
    const patched = config ? patchConfig(config) : undefined;
    if (!patched)
        return undefined;
    return { name: sent.name, x: sent.x, y: sent.y, w: sent.w, h: sent.h, config: patched };
}
/** How this update is sent (see the module's comment). `canPatch`: the server offers the tool. */
function dashboardWrite(change, d, live, canPatch) {
    if (!canPatch)
        return { via: 'put' };
    const pairing = (0,dashboard_tiles/* pairTiles */.uN)((0,dashboard_tiles/* tileSpecs */.d1)(d), live);
    // Each key of the diff to the desired tile's key it changes: a tile renamed keeping its `id:` pin shows as its
    // old key removed and its new one added, and is patched by id like any changed tile.
    const liveKeys = new Map([...pairing.live].map(([k, t]) => [t, k]));
    const changes = new Map();
    const renamed = new Set();
    const tiles = new Map(d.tiles.map((t, i) => {
        const { key, live: paired } = pairing.desired[i];
        const liveKey = paired && liveKeys.get(paired);
        if (liveKey !== undefined)
            changes.set(key, key).set(liveKey, key);
        if (liveKey !== undefined && liveKey !== key)
            renamed.add(key);
        return [key, { body: t.body, live: paired }];
    }));
    const changed = new Set();
    for (const f of change.fields) {
        if (f.path === 'name' || f.path === 'owner' || f.path === 'tags' || f.path.startsWith('tags['))
            continue;
        const at = (0,diff/* keyedField */.n)(f.path, 'tiles');
        // Anything outside the tiles; a tile moved between containers and tabs.
        if (!at || /^\.(container|tab)\b/.test(at.rest))
            return { via: 'put' };
        const key = changes.get(at.key);
        // A tile added or removed (a whole tile, and not one side of a rename).
        if (key === undefined || (at.rest === '' && !renamed.has(key)))
            return { via: 'put' };
        changed.add(key);
    }
    for (const key of changed) {
        const { body, live: paired } = tiles.get(key);
        if (paired?.id === undefined || !patchTile(body, paired))
            return { via: 'put' };
    }
    return { via: 'patch', tiles: [...changed] };
}

;// CONCATENATED MODULE: ./src/kinds/dashboard/series-view.ts

/** Select item keys whose series name differs (tile-normal-form.ts seriesToConfig, read backwards). */
const ITEM_KEYS = { valueExpression: 'field', metricType: 'metricDataType' };
/** Config keys that the first series holds. */
const FIRST_SERIES_KEYS = {
    displayType: 'type',
    sourceId: 'sourceId',
    groupBy: 'groupBy',
    markdown: 'content',
    numberFormat: 'numberFormat',
    where: 'where',
    whereLanguage: 'whereLanguage'
};
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A select item as a series item. */
function seriesItem(item) {
    if (!isObject(item))
        return item;
    return Object.fromEntries(Object.entries(item).map(([k, v]) => [ITEM_KEYS[k] ?? k, v]));
}
/** The series `type` of a display type: a line or stacked bar is a `time` series. */
const seriesType = (displayType) => displayType === 'line' || displayType === 'stacked_bar' ? 'time' : displayType;
/** A whole tile in the normal (config) form as the series form shows it. */
function seriesTile(tile) {
    if (!isObject(tile))
        return tile;
    const { select, displayType, sourceId, groupBy, markdown, numberFormat, where, whereLanguage, ...rest } = tile;
    const first = { type: seriesType(displayType) ?? 'time' };
    if (displayType === 'stacked_bar')
        first.displayType = displayType;
    if (sourceId !== undefined)
        first.sourceId = sourceId;
    if (markdown !== undefined)
        first.content = markdown;
    let series;
    if (displayType === 'search') {
        series = [{ ...first, fields: select ?? null, where: where ?? '', whereLanguage: whereLanguage ?? null }];
    }
    else {
        const items = Array.isArray(select) && select.length > 0 ? select : [{}];
        series = items.map((item, i) => ({
            ...first,
            ...seriesItem(item),
            ...(i === 0 && groupBy !== undefined ? { groupBy } : {}),
            ...(i === 0 && numberFormat !== undefined ? { numberFormat } : {})
        }));
    }
    return { ...rest, series };
}
/** `.select[1].valueExpression` -> `.series[1].field`; `.groupBy` -> `.series[0].groupBy`; others unchanged. */
function seriesPath(rest) {
    const item = /^\.select\[(\d+)\](?:\.([A-Za-z]+))?(.*)$/.exec(rest);
    if (item) {
        const [, i, key, more] = item;
        if (key === undefined)
            return { path: `.series[${i}]`, value: seriesItem };
        return { path: `.series[${i}].${ITEM_KEYS[key] ?? key}${more}`, value: v => v };
    }
    if (rest === '.select')
        return { path: '.series', value: v => (Array.isArray(v) ? v.map(i => seriesItem(i) ?? null) : v) };
    const top = /^\.([A-Za-z]+)(.*)$/.exec(rest);
    const key = top ? FIRST_SERIES_KEYS[top[1]] : undefined;
    if (top && key)
        return { path: `.series[0].${key}${top[2]}`, value: top[1] === 'displayType' ? seriesType : v => v };
    return { path: rest, value: v => v };
}
/**
 * The field change in the series form, when it is about a tile of `seriesTiles` (by name); otherwise as it is.
 * A change of the whole `tiles` map (a create) shows those tiles in the series form too.
 */
function inSeriesTerms(f, seriesTiles) {
    if (seriesTiles.size === 0)
        return f;
    if (f.path === 'tiles') {
        const map = (v) => isObject(v)
            ? Object.fromEntries(Object.entries(v).map(([name, t]) => [name, seriesTiles.has(name) ? seriesTile(t) : t]))
            : v;
        return withValues(f, map);
    }
    const at = (0,diff/* keyedField */.n)(f.path, 'tiles');
    if (!at || !seriesTiles.has(at.key))
        return f;
    if (at.rest === '')
        return withValues(f, seriesTile);
    const mapped = seriesPath(at.rest);
    return withValues({ ...f, path: `${(0,diff/* joinKey */.ID)('tiles', at.key, true)}${mapped.path}` }, mapped.value);
}
function withValues(f, map) {
    const out = { ...f };
    if ('before' in f)
        out.before = map(f.before);
    if ('after' in f)
        out.after = map(f.after);
    return out;
}

;// CONCATENATED MODULE: ./src/kinds/dashboard/ui-only.ts

const TIME = ['tile filter (where)', 'granularity', 'null fill value', 'ratio mode'];
const BY_DISPLAY_TYPE = {
    line: TIME,
    stacked_bar: TIME,
    // "Show complete intervals" (`alignDateRangeToGranularity`): v2 keeps it on line and stacked_bar only, yet a
    // number or table tile can hold it (HyperDX's own runtime templates set it on 43 such tiles), and so can a tile
    // whose display type was changed in the UI.
    table: [
        'tile filter (where)',
        'granularity',
        'row limit',
        'alternating row colours',
        'column colours',
        'complete intervals'
    ],
    number: ['tile filter (where)', 'granularity', 'complete intervals'],
    pie: ['tile filter (where)', 'granularity', 'complete intervals'],
    bar: ['tile filter (where)', 'granularity', 'complete intervals'],
    heatmap: ['granularity'],
    // A search, event-pattern or markdown tile keeps all it has through the API's form.
    search: [],
    event_patterns: [],
    markdown: []
};
const RAW_SQL = {
    line: ['granularity'],
    stacked_bar: ['granularity'],
    table: ['alternating row colours']
};
/** What a write through the API's form resets on this live tile, in words (none: nothing at risk). */
function uiOnlySettings(live) {
    const type = (0,dashboard_tiles/* liveDisplayType */.th)(live) ?? 'line';
    if (live.config?.configType === 'sql')
        return RAW_SQL[type] ?? [];
    return BY_DISPLAY_TYPE[type] ?? TIME;
}

;// CONCATENATED MODULE: ./src/kinds/dashboard/notes.ts
/**
 * What a dashboard update does besides what its fields say, for the reviewer: the alerts the server
 * deletes with their tiles (FACTS.md: the alerts of a tile that goes away or can no longer carry alerts),
 * UI settings the update removes or keeps, and the PromQL tiles no client of this API can protect.
 */













function refineDashboard(pc, ctx) {
    noteRewrites(pc, ctx);
    noteTileConsequences(pc, ctx);
    noteUnmanagedSettings(pc, ctx);
    warnOfPromql(pc, ctx);
    checkSourceKinds(pc, ctx);
    if (pc.desired && !pc.live)
        warnOfLostPins(pc, undefined, ctx);
    // Only a create links later (links.ts settleDashboardLinks): an updated dashboard's targets all exist or wait.
    if (pc.desired?.value.linksLater)
        pc.change.notes.push('a link-out names a dashboard created later in this apply (or this one): it is set by a second request once that exists');
    // Last: the steps above read the paths of the config form.
    const keys = pc.desired ? (0,dashboard_tiles/* pairTiles */.uN)((0,dashboard_tiles/* tileSpecs */.d1)(pc.desired.value), pc.live).desired : [];
    const written = new Set(pc.desired?.value.tiles.flatMap((t, i) => (t.spec.series ? [keys[i].key] : [])));
    if (written.size > 0)
        pc.change.fields = pc.change.fields.map(f => inSeriesTerms(f, written));
}
/**
 * How the update is sent (patch.ts), and what it resets: each tile it writes through the API's form loses what only
 * the web UI can set (ui-only.ts). Nothing is said where nothing is at risk: a create, a name or tag change.
 */
function noteRewrites(pc, ctx) {
    const { change, desired, live } = pc;
    if (!desired || !live || change.action !== 'update')
        return;
    const canPatch = ctx.live.dashboardPatch === true;
    const write = dashboardWrite(change, desired.value, live, canPatch);
    desired.value.write = write;
    // The live tiles the write replaces, by the key of the desired tile each pairs with (write.tiles' keys).
    const pairing = (0,dashboard_tiles/* pairTiles */.uN)((0,dashboard_tiles/* tileSpecs */.d1)(desired.value), live);
    const kept = new Map(pairing.desired.flatMap(t => (t.live ? [[t.live, t.key]] : [])));
    const replaced = new Map(live.tiles.flatMap(t => (kept.has(t) ? [[kept.get(t), t]] : [])));
    const rewritten = write.via === 'patch' ? write.tiles : [...replaced.keys()];
    const resets = rewritten.flatMap(key => {
        const settings = uiOnlySettings(replaced.get(key));
        return settings.length > 0 ? [{ tile: (0,diff/* keyText */.Pu)(key), settings: [...settings] }] : [];
    });
    if (resets.length === 0)
        return;
    const why = write.via === 'patch'
        ? undefined
        : canPatch
            ? 'it changes more than existing tiles, so it cannot replace them one at a time'
            : 'this server offers no narrower write';
    change.resets = { via: write.via, ...(why ? { why } : {}), tiles: resets };
}
/**
 * udash validateDashboardTiles: a heatmap needs a trace source; a tile with formulas a metric, log or trace source
 * (both only for tiles a write adds or changes: a source whose kind changed later does not block other edits); a
 * link-out to a search page a log or trace source. Plan errors at the manifest line, before any request.
 */
function checkSourceKinds(pc, ctx) {
    const { desired, live } = pc;
    if (!desired)
        return;
    const pairing = (0,dashboard_tiles/* pairTiles */.uN)((0,dashboard_tiles/* tileSpecs */.d1)(desired.value), live);
    const kindOf = (id) => ctx.live.Source.find(s => s.id === id)?.kind ?? undefined;
    desired.value.tiles.forEach((t, i) => {
        // A series tile has no config (and its body is made anew on each use).
        const config = t.spec.config ? t.body.config : undefined;
        if (!config)
            return;
        const before = pairing.desired[i].live?.config ?? undefined;
        const kind = kindOf(config.sourceId);
        const report = (path, message) => ctx.report((0,diagnostics/* diagnostic */.YK)('plan', 'error', message, {
            ...desired.value.located.doc.locate(['tiles', i, 'config', ...path]),
            field: (0,manifest_path/* formatPath */.j)(['tiles', i, 'config', ...path])
        }));
        const sameSource = before?.sourceId === config.sourceId && before?.configType !== 'sql';
        if (config.displayType === 'heatmap' &&
            kind &&
            kind !== 'trace' &&
            !(sameSource && before?.displayType === 'heatmap'))
            report(['source'], `a heatmap tile needs a trace source; this one is a ${kind} source`);
        const formulas = config.formulas;
        if (Array.isArray(formulas) &&
            formulas.length > 0 &&
            kind &&
            !['metric', 'log', 'trace'].includes(kind) &&
            !(sameSource && (0,json/* equal */.LC)((0,json/* clean */.uH)(before?.formulas), (0,json/* clean */.uH)(formulas))))
            report(['formulas'], `formulas need a metric, log or trace source; this one is a ${kind} source`);
        const link = config.onClick;
        const linked = link?.type === 'search' ? kindOf(link.target?.id) : undefined;
        if (linked && linked !== 'log' && linked !== 'trace')
            report(['onClick', 'target'], `a search link-out needs a log or trace source; this one is a ${linked} source`);
    });
}
/**
 * Settings the manifest language cannot express: the ones an update removes get a note each; the ones it
 * sends back as read are listed in a notice on every plan, so a UI edit of them is visible too.
 */
function noteUnmanagedSettings(pc, ctx) {
    const { change, desired, live } = pc;
    if (!desired || !live)
        return;
    const pairing = (0,dashboard_tiles/* pairTiles */.uN)((0,dashboard_tiles/* tileSpecs */.d1)(desired.value), live);
    // Only a live tile with such a setting can have one kept or removed.
    const tiles = desired.value.tiles.flatMap((t, i) => {
        const { key, live: before } = pairing.desired[i];
        return (0,carry/* holdsUnmanagedSettings */.a3)(before)
            ? [{ name: (0,diff/* keyText */.Pu)(key), sent: (0,carry/* tileAsSent */.BD)(t.body, before), live: before }]
            : [];
    });
    for (const t of tiles) {
        change.notes.push(...(0,carry/* droppedSettingNotes */.oh)(t.name, t.sent, t.live));
        // Counted in the heading with what else the update may reset (Change.lost).
        const dropped = (0,carry/* droppedSettings */.UN)(t.sent, t.live).map(d => `tile "${t.name}": ${d.key}`);
        if (dropped.length > 0)
            change.lost = [...(change.lost ?? []), ...dropped];
    }
    noteUnknownFields(pc, ctx);
    const kept = (0,carry/* keptSettings */.At)(tiles);
    // Only then the manifest position: positions cost a parse.
    if (kept.length > 0)
        ctx.report((0,returned_fields/* keptSettingsNotice */.e6)(`dashboard "${desired.name}"`, kept, desired.source));
}
/**
 * Dashboard-level fields of a newer server that this version does not know: an update sends them back as read
 * (self-hosted), said in a notice on every plan; the managed API refuses a key it does not declare, so there the
 * update leaves them out, and the change names them as fields it may reset (Change.lost).
 */
function noteUnknownFields(pc, ctx) {
    const { change, desired, live } = pc;
    if (!desired || !live || (change.action !== 'update' && change.action !== 'noop'))
        return;
    const unknown = Object.keys((0,carry/* unknownDashboardFields */.UU)(live)).map(k => `\`${k}\``);
    if (unknown.length === 0)
        return;
    if (ctx.settings.mode !== 'managed') {
        ctx.report((0,returned_fields/* keptSettingsNotice */.e6)(`dashboard "${desired.name}"`, unknown, desired.source));
        return;
    }
    if (change.action !== 'update')
        return;
    change.lost = [...(change.lost ?? []), ...Object.keys((0,carry/* unknownDashboardFields */.UU)(live))];
    change.notes.push(`${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} unknown to obsdeploy ${version/* VERSION */.x} and the managed API refuses a field it does not declare, so the update cannot send ${unknown.length === 1 ? 'it' : 'them'} back: this update may reset ${unknown.length === 1 ? 'it' : 'them'} (HyperDX 2.36 keeps a field its update does not name; a server whose update always sets it does not)`);
}
/**
 * FACTS.md: the API leaves PromQL tiles out of what it returns, and a PUT replaces the whole tile list,
 * so an update deletes them. A dashboard this stack created has none unless someone added them in the
 * UI; one it adopts may well have some.
 */
function warnOfPromql(pc, ctx) {
    const { change, desired, live } = pc;
    // Patches leave every tile they do not name as stored (patch.ts), PromQL tiles included.
    if (!desired || !live || change.action !== 'update' || desired.value.write?.via === 'patch')
        return;
    const { spec } = desired.value;
    const adopted = spec.adopt === true || spec.id !== undefined || !live.tags.includes(ctx.settings.ownershipTag);
    if (!adopted)
        return;
    ctx.report((0,diagnostics/* diagnostic */.YK)('plan', 'warning', `dashboard "${desired.name}" was not created by this stack: tiles this API cannot show (PromQL) are removed by an update. The API leaves PromQL tiles out of what it returns and an update replaces the whole tile list, so no client of this API can protect them; this plan cannot see whether it has any`, desired.source));
}
function noteTileConsequences(pc, ctx) {
    const { change, desired, live } = pc;
    if (!desired || !live)
        return;
    const pairing = (0,dashboard_tiles/* pairTiles */.uN)((0,dashboard_tiles/* tileSpecs */.d1)(desired.value), live);
    const paired = new Set(pairing.desired.map(t => t.live));
    const dropped = [...pairing.live].filter(([, t]) => !paired.has(t));
    const added = desired.value.tiles.filter((_, i) => pairing.desired[i].live === undefined);
    // sameId matches no absent id: a tile without an id has no alerts.
    const alertsOn = (tileId) => ctx.live.Alert.filter(a => a.dashboardId === live.id && (0,schemas/* sameId */.s)(a.tileId, tileId)).map(a => `"${a.name ?? a.id}"`);
    for (const [key, tile] of dropped) {
        const twin = added.find(a => (0,dashboard_tiles/* sameContent */.Cm)((0,dashboard_tiles/* flatTile */.Ai)(a.body), (0,dashboard_tiles/* flatTile */.Ai)(tile)));
        const alerts = alertsOn(tile.id);
        const alertText = alerts.length > 0
            ? `; the server deletes its alert${alerts.length > 1 ? 's' : ''} ${alerts.join(', ')}`
            : '';
        if (twin) {
            change.notes.push(`tile ${(0,diff/* keyLabel */.w8)(key)} renamed to "${twin.spec.name}": tiles are matched by name (or an \`id:\` pin), so "${twin.spec.name}" is a new tile with a new id${alertText}`);
        }
        else if (alerts.length > 0) {
            change.notes.push(`tile ${(0,diff/* keyLabel */.w8)(key)} is removed${alertText}`);
        }
    }
    // A pinned tile renamed keeps its id and its alerts.
    pairing.desired.forEach(({ key, live: before }) => {
        const beforeKey = before && [...pairing.live].find(([, t]) => t === before)[0];
        if (before && beforeKey !== key)
            change.notes.push(`tile ${(0,diff/* keyLabel */.w8)(beforeKey)} renamed to ${(0,diff/* keyLabel */.w8)(key)}: its \`id:\` pin keeps its id and alerts`);
    });
    warnOfLostPins(pc, pairing, ctx);
    for (const [i, t] of desired.value.tiles.entries()) {
        const before = pairing.desired[i].live;
        if (!before || (0,dashboard_tiles/* isAlertable */.Tn)((0,rules/* tileDisplayType */.PR)(t.spec)) || !(0,dashboard_tiles/* isAlertable */.Tn)((0,dashboard_tiles/* liveDisplayType */.th)(before)))
            continue;
        const alerts = alertsOn(before.id);
        if (alerts.length > 0) {
            change.notes.push(`tile ${(0,diff/* keyLabel */.w8)(pairing.desired[i].key)} becomes a ${(0,rules/* tileDisplayType */.PR)(t.spec)} tile, which cannot carry alerts: the server deletes ${alerts.join(', ')}`);
        }
    }
}
/**
 * Tile pins that will not hold, said at the pin so they get fixed. On an update (`pairing`): a pin no tile of the live
 * dashboard has (a manifest exported from another server, or a tile deleted in the UI): the tile is matched by name,
 * or is new. On a create (no pairing): every pin, as the server gives each tile of a new dashboard an id of its own
 * (docs/real-server.md, udash `convertExternalTilesToInternal`).
 */
function warnOfLostPins(pc, pairing, ctx) {
    const desired = pc.desired;
    desired.value.tiles.forEach((t, i) => {
        const pin = t.spec.id;
        const paired = pairing?.desired[i].live;
        if (pin === undefined || (pairing && (0,schemas/* sameId */.s)(paired?.id, pin)))
            return;
        const why = !pairing
            ? `dashboard "${desired.name}" is created, and the server gives each new tile an id of its own, not "${pin}": after the apply, pin the tile to its new id (\`obsdeploy export\` writes it)`
            : `no tile of dashboard "${desired.name}" has id "${pin}": ${paired ? `matched by name with tile ${String(paired.id)}` : 'a new tile, which gets an id of its own'}; pin it to its live id`;
        const path = ['tiles', i, 'id'];
        ctx.report((0,diagnostics/* diagnostic */.YK)('plan', 'warning', why, {
            ...desired.value.located.doc.locate(path),
            field: (0,manifest_path/* formatPath */.j)(path)
        }));
    });
}

;// CONCATENATED MODULE: ./src/kinds/dashboard/operations.ts









function dashboardOperations(pc, octx) {
    const { change, desired, live } = pc;
    if (change.action === 'noop' || change.deferred)
        return [];
    if (change.action === 'delete' && live) {
        // An extra registry dashboard of the stack: its entries go into the kept one first (registry.ts).
        if ((0,registry/* isRegistryDashboard */._X)(live))
            return [extraRegistryDelete(change.address, live)];
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
    const d = desired.value;
    // Link-outs to dashboards this apply creates: written after them (links.ts).
    // And the sources and connections this run creates: their creates first, their ids bound into the body.
    const waits = [
        ...[...d.waitsFor].map(readyToken),
        ...(0,references/* placeholderTokens */.o9)([d.tiles.map(t => t.body), d.filters])
    ];
    const ops = [];
    if (live) {
        ops.push({
            address: change.address,
            label: 'update',
            lock: dashboardLock(live.id),
            provides: [readyToken(name)],
            after: [alertsClearedToken(live.id), ...waits],
            run: async (ctx) => {
                if (d.write?.via === 'patch')
                    return patchDashboard(ctx, d, d.write.tiles, live, octx);
                const updated = await ctx.api.updateDashboard(live.id, (0,references/* bindPlaceholders */.aC)((0,bodies/* updateBody */.Et)(d, live, bodyOptions(ctx, octx)), ctx.facts));
                return { status: 'applied', id: updated.id, tileIds: (0,dashboard_tiles/* tileIdsOf */.I1)((0,dashboard_tiles/* tileSpecs */.d1)(d), updated) };
            }
        });
    }
    else {
        ops.push({
            address: change.address,
            label: 'create',
            lock: dashboardLock(name),
            provides: [readyToken(name)],
            after: waits,
            run: ctx => createDashboard(ctx, d, name, octx)
        });
        if (d.linksLater) {
            // Its link-outs to dashboards created after it (or to itself), once they exist.
            const later = [...new Set(d.tiles.flatMap(t => (0,links/* linkedNames */.wp)(t.body)))].map(readyToken);
            ops.push({
                address: change.address,
                label: 'set links',
                lock: dashboardLock(name),
                provides: [],
                after: [readyToken(name), ...later],
                run: async (ctx) => {
                    const id = ctx.facts.get(readyToken(name)).id;
                    const created = await ctx.api.getDashboard(id);
                    const updated = await ctx.api.updateDashboard(id, (0,references/* bindPlaceholders */.aC)((0,bodies/* updateBody */.Et)(d, created, bodyOptions(ctx, octx)), ctx.facts));
                    return { status: 'applied', id: updated.id, tileIds: (0,dashboard_tiles/* tileIdsOf */.I1)((0,dashboard_tiles/* tileSpecs */.d1)(d), updated) };
                }
            });
        }
    }
    return ops;
}
/**
 * What dashboardOperations send: a delete (an extra registry's: a read, the kept one's write, the delete), a PUT, or the patches (one per changed tile, at least one) and the read
 * after them; a create, and for late link-outs a read and a PUT.
 */
function dashboardRequests(pc) {
    const { change, desired, live } = pc;
    if (change.action === 'noop' || change.deferred)
        return { requests: 0 };
    // An extra registry dashboard is read again and merged into the kept one (a write) before its delete.
    if (change.action === 'delete')
        return { requests: live ? ((0,registry/* isRegistryDashboard */._X)(live) ? 3 : 1) : 0 };
    if (!desired)
        return { requests: 0 };
    const write = desired.value.write;
    if (live)
        return { requests: write?.via === 'patch' ? Math.max(1, write.tiles.length) + 1 : 1 };
    return { requests: desired.value.linksLater ? 3 : 1 };
}
/**
 * An update as patches (patch.ts): the name and tags with the first tile, then one tile a call, then a read of the
 * dashboard for its tile ids. A refusal after the first call leaves the earlier ones applied: the error says which.
 */
async function patchDashboard(ctx, d, tiles, live, octx) {
    const { tags } = (0,bodies/* updateBody */.Et)(d, live, bodyOptions(ctx, octx));
    const pairing = (0,dashboard_tiles/* pairTiles */.uN)((0,dashboard_tiles/* tileSpecs */.d1)(d), live);
    const byKey = new Map(d.tiles.map((t, i) => [pairing.desired[i].key, { t, live: pairing.desired[i].live }]));
    const calls = tiles.map(key => {
        // dashboardWrite patches only tiles paired with a live tile that has an id.
        const { t, live: paired } = byKey.get(key);
        const liveTile = paired;
        const tile = patchTile(t.body, liveTile);
        return { dashboardId: live.id, tileId: String(liveTile.id), tile: (0,references/* bindPlaceholders */.aC)(tile, ctx.facts) };
    });
    if (calls.length === 0)
        calls.push({ dashboardId: live.id });
    Object.assign(calls[0], { name: d.spec.name, tags });
    const done = [];
    for (const [i, call] of calls.entries()) {
        try {
            await ctx.api.patchDashboard(call);
        }
        catch (e) {
            if (done.length === 0)
                throw e;
            const rest = tiles.slice(i);
            throw new Error(`${e instanceof Error ? e.message : String(e)}. Applied before it: the name and tags, and tile${done.length === 1 ? '' : 's'} ${done.map(diff/* keyLabel */.w8).join(', ')}; not applied: ${rest.map(diff/* keyLabel */.w8).join(', ')}. Plan again to see what is left`, { cause: e });
        }
        if (call.tileId !== undefined)
            done.push(tiles[i]);
    }
    const updated = await ctx.api.getDashboard(live.id);
    return { status: 'applied', id: updated.id, tileIds: (0,dashboard_tiles/* tileIdsOf */.I1)((0,dashboard_tiles/* tileSpecs */.d1)(d), updated) };
}
/** The body options of this apply: a link-out to a created dashboard takes the id the create returned. */
function bodyOptions(ctx, octx) {
    return {
        tag: octx.settings.ownershipTag,
        mode: octx.settings.mode,
        idOf: name => ctx.facts.get(readyToken(name))?.id ?? octx.dashboards.desired.get(name)?.liveId
    };
}
/**
 * Creates without ever creating twice: when the response is lost (UnknownOutcomeError), re-read the
 * dashboards and adopt ours if the server did commit it, before trying again.
 */
function createDashboard(ctx, d, name, octx) {
    const body = (0,references/* bindPlaceholders */.aC)((0,bodies/* createBody */.Fm)(d, bodyOptions(ctx, octx)), ctx.facts);
    return createOnce(ctx, {
        what: 'dashboards',
        name,
        create: () => ctx.api.createDashboard(body),
        created: c => ({ status: 'applied', id: c.id, tileIds: (0,dashboard_tiles/* tileIdsOf */.I1)((0,dashboard_tiles/* tileSpecs */.d1)(d), c) }),
        list: () => ctx.api.listDashboards(),
        find: all => all.find(l => l.name === name && l.tags.includes(ctx.settings.ownershipTag) && !(0,registry/* isRegistryDashboard */._X)(l)),
        adopted: found => ({ status: 'adopted', id: found.id, tileIds: (0,dashboard_tiles/* tileIdsOf */.I1)((0,dashboard_tiles/* tileSpecs */.d1)(d), found) })
    });
}
/**
 * The delete of an extra registry dashboard of the stack (registry.ts `extras`): read it again (another apply may have
 * recorded something in it since the plan), write the kept registry dashboard with every entry, the extra's new ones
 * included, and only then delete the extra. A failure at any step leaves the extra in place, so nothing the stack
 * owns is forgotten; the next plan names it again.
 */
function extraRegistryDelete(address, extra) {
    return {
        address,
        label: 'merge into the kept registry, then delete',
        lock: dashboardLock(extra.id),
        provides: [],
        after: [alertsClearedToken(extra.id)],
        run: async (ctx) => {
            const now = (0,registry/* parseRegistry */.l5)(await ctx.api.getDashboard(extra.id));
            if ('problem' in now)
                throw new Error(`not deleted: it changed since the plan and cannot be read now (${now.problem}); restore its tiles as obsdeploy wrote them`);
            const planned = (0,registry/* parseRegistry */.l5)(extra);
            await ctx.registry.absorb((0,registry/* addedSince */.V8)(now.owned, 'owned' in planned ? planned.owned : {}));
            await ctx.api.deleteDashboard(extra.id);
            return { status: 'applied', id: extra.id };
        }
    };
}

;// CONCATENATED MODULE: ./src/kinds/dashboard/pair.ts





function pairDashboards(desired, ctx) {
    // A registry dashboard (registry.ts) is bookkeeping, not a dashboard any manifest manages.
    const all = ctx.live.Dashboard.filter(d => !(0,registry/* isRegistryDashboard */._X)(d)).sort((a, b) => a.id.localeCompare(b.id));
    const owned = all.filter(d => d.tags.includes(ctx.settings.ownershipTag));
    const pairing = new DashboardPairing(ctx, all, owned);
    // 1. Pinned ids, all of them first: a pin wins over a name match, whatever the file order.
    for (const d of desired)
        if (d.value.spec.id !== undefined)
            pairing.pairPinned(d, d.value.spec.id);
    // 2. This stack's dashboard of the same name.
    const pending = [];
    for (const d of desired)
        if (d.value.spec.id === undefined && !pairing.pairOwned(d))
            pending.push(d);
    // 3. renamedFrom; 4. adopt; otherwise create, unless the name is taken by a dashboard we do not own.
    for (const d of pending)
        if (!pairing.pairRenamed(d))
            pairing.pairUnowned(d);
    const result = {
        pairs: pairing.pairs,
        orphans: owned.filter(d => !pairing.isTaken(d))
    };
    (0,links/* settleDashboardLinks */.xd)(result, ctx);
    hintRenames(result);
    // The stack's extra registry dashboards (registry.ts) go like any orphan: named in the plan, deleted with prune.
    const { extras, dashboard: kept } = ctx.registry;
    if (kept && extras.length > 0) {
        result.orphans.push(...extras);
        result.why = new Map(extras.map(e => [e, (0,registry/* extraRegistryWhy */.kh)(kept)]));
    }
    return result;
}
/** One run of pairDashboards: the live dashboards taken so far and the pairs made. */
class DashboardPairing {
    ctx;
    pairs = [];
    used = new Set();
    tag;
    siblings;
    byId;
    // Indexed by name: pairing stays linear in the number of dashboards.
    ownedByName;
    allByName;
    constructor(ctx, all, owned) {
        this.ctx = ctx;
        this.tag = ctx.settings.ownershipTag;
        this.siblings = new Set(ctx.settings.siblingTags);
        this.byId = new Map(all.map(d => [d.id, d]));
        this.ownedByName = pair_byName(owned);
        this.allByName = pair_byName(all);
    }
    isTaken(live) {
        return this.used.has(live.id);
    }
    pairPinned(d, pin) {
        const live = this.byId.get(pin);
        if (!live)
            this.planError(d, ['id'], `no dashboard with id "${pin}" exists`);
        else if (this.used.has(pin))
            this.planError(d, ['id'], `dashboard id "${pin}" is already matched by another manifest`);
        else {
            const notes = live.tags.includes(this.tag) ? [] : [adoptionNote(live, this.tag)];
            this.pairs.push({ desired: d, live: this.take(live), notes });
        }
    }
    /** Whether this stack has a dashboard of the manifest's name (now paired). */
    pairOwned(d) {
        const mine = this.firstUnused(this.ownedByName, d.name);
        if (mine)
            this.pairs.push({ desired: d, live: this.take(mine) });
        return mine !== undefined;
    }
    /** Whether this stack has the dashboard the manifest's `renamedFrom` names (now paired). */
    pairRenamed(d) {
        const from = d.value.spec.renamedFrom;
        const previous = from !== undefined ? this.firstUnused(this.ownedByName, from) : undefined;
        if (previous)
            this.pairs.push({
                desired: d,
                live: this.take(previous),
                notes: [`renamed from "${from}": keeps its id, its tile ids and its alerts`]
            });
        return previous !== undefined;
    }
    /** A manifest no dashboard of this stack matches: a create, an adoption, or a plan error when the name is taken. */
    pairUnowned(d) {
        const { tag, ctx } = this;
        const sameName = (this.allByName.get(d.name) ?? []).filter(l => !this.used.has(l.id) && !l.tags.includes(tag));
        const isSibling = (l) => l.tags.some(t => this.siblings.has(t));
        const others = sameName.filter(l => !isSibling(l));
        if (others.length === 0) {
            const sibling = sameName.find(isSibling);
            this.pairs.push(sibling ? { desired: d, notes: [pair_siblingNote(sibling, d.value.spec.adopt)] } : { desired: d });
        }
        else if (d.value.spec.adopt && others.length === 1) {
            this.pairs.push({ desired: d, live: this.take(others[0]), notes: [adoptionNote(others[0], tag)] });
        }
        else if (d.value.spec.adopt) {
            this.planError(d, ['adopt'], `${others.length} dashboards are named "${d.name}" (ids ${others.map(o => o.id).join(', ')}); pin the one to adopt with \`id:\``);
        }
        else {
            const other = others[0];
            const ownerTag = other.tags.find(ownership/* isOwnershipTag */.GN);
            this.planError(d, ['name'], `a dashboard named "${d.name}" already exists (id ${other.id}) and is not owned by stack "${ctx.settings.stack}"` +
                `${ownerTag ? ` (it carries ${ownerTag})` : ''}. It is not overwritten: to manage it from this manifest, add \`adopt: true\`` +
                ` (or \`id: ${other.id}\`); to keep both, give this manifest another name.`);
        }
    }
    firstUnused(index, name) {
        return index.get(name)?.find(d => !this.used.has(d.id));
    }
    take(d) {
        this.used.add(d.id);
        return d;
    }
    planError(d, path, message) {
        this.ctx.report((0,diagnostics/* diagnostic */.YK)('plan', 'error', message, { ...d.value.located.doc.locate(path), field: (0,manifest_path/* formatPath */.j)(path) }));
    }
}
function pair_byName(list) {
    const index = new Map();
    for (const d of list)
        index.set(d.name, [...(index.get(d.name) ?? []), d]);
    return index;
}
/**
 * A rename without renamedFrom looks like a create plus an orphan with the same tiles. Renames are
 * explicit: it stays a create and a delete (with prune) under their own names, and the create says
 * how to make it a rename.
 */
function hintRenames(result) {
    const orphanKeys = new Map(result.orphans.map(o => [o, tileNameKey(o.tiles.map(t => t.name))]));
    const hinted = new Set();
    for (const pair of result.pairs) {
        if (pair.live)
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
}
const tileNameKey = (names) => (names.length === 0 ? '' : JSON.stringify([...names].sort()));
/** A dashboard of another stack of this repository with the same name: each stack keeps its own. */
function pair_siblingNote(live, adopt) {
    const owner = live.tags.find(ownership/* isOwnershipTag */.GN);
    const kept = `dashboard ${live.id} of the same name belongs to another stack of this repository (${owner}) and stays theirs`;
    return adopt
        ? `a new dashboard: ${kept}, because \`adopt: true\` never takes one from another stack; to move it to this stack, pin it with \`id: ${live.id}\``
        : `a new dashboard: ${kept}`;
}
function adoptionNote(live, tag) {
    const other = live.tags.find(t => (0,ownership/* isOwnershipTag */.GN)(t) && t !== tag);
    return other
        ? `adopts dashboard ${live.id} from ${other}: this stack takes ownership and removes that tag, so the other stack no longer manages it (nor its alerts)`
        : `adopts existing dashboard ${live.id}: it gets this stack's ownership tag ${tag}`;
}

;// CONCATENATED MODULE: ./src/kinds/dashboard/saved.ts


/**
 * save()'s JSON back, or undefined when it is not of its shape. Shallow: the seal of the saved plan proves
 * the JSON is what save() wrote from a validated manifest, so the thousands of tile bodies are not walked
 * again (they are sent as they are).
 */
function savedRequest(v) {
    if (!(0,json/* isMapping */.pi)(v) || !(0,json/* isMapping */.pi)(v.spec) || typeof v.spec.name !== 'string')
        return undefined;
    const { tiles, filters, waitsFor, linksLater, write } = v;
    if (!Array.isArray(tiles) || !Array.isArray(filters) || !Array.isArray(waitsFor))
        return undefined;
    if (typeof linksLater !== 'boolean' ||
        !filters.every(json/* isMapping */.pi) ||
        !waitsFor.every(w => typeof w === 'string'))
        return undefined;
    if (!tiles.every(t => (0,json/* isMapping */.pi)(t) && (0,json/* isMapping */.pi)(t.spec) && typeof t.spec.name === 'string' && (0,json/* isMapping */.pi)(t.body)))
        return undefined;
    if (write !== undefined && !isWrite(write))
        return undefined;
    return {
        spec: v.spec,
        tiles: tiles,
        filters,
        waitsFor: new Set(waitsFor),
        linksLater,
        ...(write !== undefined ? { write } : {})
    };
}
const isWrite = (v) => (0,json/* isMapping */.pi)(v) &&
    (v.via === 'put' ||
        (v.via === 'patch' && Array.isArray(v.tiles) && v.tiles.every(t => typeof t === 'string')));
/** Only the fields DashboardRequest names: the rest of the manifest is in the bodies, or not sent. */
const pick = (from, keys) => {
    const picked = {};
    for (const k of keys)
        if (from[k] !== undefined)
            picked[k] = from[k];
    return picked;
};
const SPEC_FIELDS = [
    'name',
    'tags',
    'containers',
    'savedQuery',
    'savedQueryLanguage',
    'savedFilterValues'
];
const TILE_FIELDS = ['name', 'container', 'tab'];
const savedDashboard = {
    save(d) {
        if (!d)
            return null;
        const saved = {
            spec: pick(d.spec, SPEC_FIELDS),
            tiles: d.tiles.map(t => ({ spec: pick(t.spec, TILE_FIELDS), body: t.body })),
            filters: d.filters,
            waitsFor: [...d.waitsFor],
            linksLater: d.linksLater,
            ...(d.write ? { write: d.write } : {})
        };
        return saved;
    },
    operations(saved, { change, live }, octx) {
        if (saved === null)
            return dashboardOperations({ change, live }, octx);
        const value = savedRequest(saved);
        if (value === undefined)
            return undefined;
        const source = change.source ?? { file: '', line: 0, column: 0 };
        return dashboardOperations({ change, live, desired: { name: change.name, address: change.address, source, value } }, octx);
    }
};

// EXTERNAL MODULE: ./src/yaml-library.ts + 1 modules
var yaml_library = __webpack_require__(5159);
// EXTERNAL MODULE: ./src/kinds/tile-normal-form.ts
var tile_normal_form = __webpack_require__(6134);
;// CONCATENATED MODULE: ./src/kinds/dashboard/export-tiles.ts





/** The series form when it round-trips to exactly the tile's config; otherwise the config form. */
function exportTile(t, d, ctx, comments) {
    const base = { name: t.name, x: t.x, y: t.y, w: t.w, h: t.h };
    Object.assign(base, (0,layout/* livePlacement */.kW)(t, d));
    // A manifest tile needs a form and a type: where the server gave none, the plan's reading is written, and said.
    if (!t.config && !t.series)
        comments.push('the server returned this tile with neither config nor series: written as a plan reads it, an empty line chart');
    else if (!t.config && t.series?.[0]?.type === undefined)
        comments.push('the server returned this series without a type: written as a plan reads it, type time');
    // Exactly what the server holds (its own defaults aside): applying the manifest must change nothing.
    const config = modelledOnly((0,tile_normal_form/* normalTile */.ow)({
        name: t.name,
        x: t.x,
        y: t.y,
        w: t.w,
        h: t.h,
        config: t.config ?? undefined,
        series: t.series ?? undefined,
        asRatio: t.asRatio
    }, true).config, comments);
    const sourceRef = ctx.namer.ref('Source', 'source', config.sourceId, comments, 'data source');
    const series = asSeries(config);
    if (!ctx.alternateForms && series && (0,json/* equal */.LC)(storedFromSeries(series.series, series.asRatio), config)) {
        const out = { ...base };
        if (series.asRatio)
            out.asRatio = true;
        out.series = series.series.map(s => {
            const { sourceId: _id, ...rest } = s;
            return s.type === 'markdown' ? rest : { type: rest.type, ...sourceRef, ...omit(rest, ['type']) };
        });
        return out;
    }
    const { sourceId: _id, connectionId, onClick, ...rest } = config;
    // A raw-SQL tile's connection: by name, except in managed mode (the cloud cannot list connections).
    const connectionRef = connectionId === undefined
        ? {}
        : ctx.mode === 'managed'
            ? { connectionId }
            : ctx.namer.ref('Connection', 'connection', connectionId, comments, 'connection');
    return {
        ...base,
        config: {
            ...(rest.configType !== undefined ? { configType: rest.configType } : {}),
            displayType: rest.displayType,
            ...connectionRef,
            ...(config.sourceId !== undefined ? sourceRef : {}),
            ...omit(rest, ['displayType', 'configType']),
            ...(onClick !== undefined ? { onClick: namedTarget(onClick, ctx.namer, comments) } : {})
        }
    };
}
/** What the server stores for a series tile (FACTS.md: groupBy joined with ','), exactly. */
function storedFromSeries(series, asRatio) {
    const config = (0,tile_normal_form/* seriesToConfig */.xF)(series, asRatio);
    if (Array.isArray(config.groupBy)) {
        if (config.groupBy.length > 0 && config.displayType !== 'number')
            config.groupBy = config.groupBy.join(',');
        else
            delete config.groupBy;
    }
    return (0,tile_normal_form/* normalizeConfig */.I6)(config, true);
}
/** A link-out's target by name: a dashboard by its (unique) name, a search page's source by its name. */
function namedTarget(link, namer, comments) {
    const target = link.target;
    if (!target || target.mode !== 'id' || typeof target.id !== 'string')
        return link;
    const named = link.type === 'search'
        ? namer.ref('Source', 'source', target.id, comments, 'data source', 'id')
        : namer.ref('Dashboard', 'dashboard', target.id, comments, 'dashboard', 'id');
    return { ...link, target: { mode: 'id', ...named } };
}
/** The config keys the manifest language has; the others are named in a comment. */
function modelledOnly(config, comments) {
    const out = {};
    const kept = [];
    for (const [key, value] of Object.entries(config)) {
        const rule = returned_fields/* TILE_CONFIG_FIELDS */.MN[key];
        if (rule?.treatment === 'compared')
            out[key] = value;
        else
            kept.push(key);
    }
    if (kept.length > 0) {
        comments.push(`${kept.join(', ')}: set in the UI, not in the manifest language yet; an update sends them back as they are`);
    }
    return out;
}
/** The config as CONTRACT.md series, when every part of it has a series equivalent. */
function asSeries(config) {
    const type = config.displayType;
    const allowed = new Set([
        'displayType',
        'sourceId',
        'select',
        'groupBy',
        'asRatio',
        'numberFormat',
        'where',
        'whereLanguage',
        'markdown'
    ]);
    if (Object.keys(config).some(k => !allowed.has(k)))
        return undefined;
    // A series filters in Lucene or SQL only.
    const languages = [config, ...(Array.isArray(config.select) ? config.select : [])].map(c => c?.whereLanguage);
    if (languages.some(l => l !== undefined && !vocabulary/* WHERE_LANGUAGES */.uw.includes(l)))
        return undefined;
    // A series' content is required: a markdown tile without text stays in the config form, as stored.
    if (type === 'markdown')
        return typeof config.markdown === 'string'
            ? { series: [{ type: 'markdown', content: config.markdown }], asRatio: false }
            : undefined;
    const sourceId = typeof config.sourceId === 'string' ? config.sourceId : undefined;
    if (type === 'search') {
        const fields = String(config.select ?? '')
            .split(',')
            .map(f => f.trim())
            .filter(Boolean);
        if (fields.length === 0)
            return undefined;
        const s = { type: 'search', sourceId, fields };
        if (config.where !== undefined)
            s.where = String(config.where);
        if (config.whereLanguage !== undefined)
            s.whereLanguage = String(config.whereLanguage);
        return { series: [s], asRatio: false };
    }
    const seriesType = type === 'line' || type === 'stacked_bar'
        ? 'time'
        : type === 'number' || type === 'table'
            ? type
            : undefined;
    if (!seriesType || !Array.isArray(config.select))
        return undefined;
    const groupBy = typeof config.groupBy === 'string' ? config.groupBy.split(',').map(g => g.trim()) : undefined;
    const series = config.select.map((item, i) => {
        const sel = item;
        const s = { type: seriesType, sourceId, aggFn: String(sel.aggFn) };
        if (type === 'stacked_bar')
            s.displayType = 'stacked_bar';
        if (sel.valueExpression !== undefined)
            s.field = String(sel.valueExpression);
        if (sel.level !== undefined)
            s.level = Number(sel.level);
        if (sel.where !== undefined)
            s.where = String(sel.where);
        if (sel.whereLanguage !== undefined)
            s.whereLanguage = String(sel.whereLanguage);
        if (sel.alias !== undefined)
            s.alias = String(sel.alias);
        if (sel.metricName !== undefined)
            s.metricName = String(sel.metricName);
        if (sel.metricType !== undefined)
            s.metricDataType = String(sel.metricType);
        if (groupBy && seriesType !== 'number')
            s.groupBy = groupBy;
        if (i === 0 && config.numberFormat !== undefined)
            s.numberFormat = config.numberFormat;
        return s;
    });
    return { series, asRatio: config.asRatio === true };
}
function omit(o, keys) {
    return Object.fromEntries(Object.entries(o).filter(([k, v]) => !keys.includes(k) && v !== undefined));
}

;// CONCATENATED MODULE: ./src/kinds/dashboard/export.ts





const dashboardExport = {
    list: 'dashboards',
    writes: {
        to: { each: d => ({ name: d.name, what: `dashboard "${d.name}"`, title: `from dashboard ${d.id}` }) },
        tags: d => d.tags,
        skips: registry/* isRegistryDashboard */._X,
        writer: dashboardWriter
    }
};
function dashboardWriter(ctx) {
    // Same-named dashboards, on the server and in this export: each gets an `id:` pin (pair.ts matches a pin before
    // a name), which is also what lets validate accept manifests of one name (rules.ts checkAcrossDocuments).
    const liveByName = groupByName((ctx.all('Dashboard') ?? []).filter(d => !(0,registry/* isRegistryDashboard */._X)(d)));
    const exportedByName = groupByName(ctx.selected('Dashboard'));
    const alertsOf = alertsBy(ctx.all('Alert') ?? [], a => a.source !== 'saved_search' ? a.dashboardId : undefined);
    return d => {
        const notes = [];
        const twins = liveByName.get(d.name) ?? [];
        const pin = twins.length > 1 ? d.id : undefined;
        if (pin !== undefined)
            notes.push(`${twins.length} dashboards are named "${d.name}" (ids ${twins.map(t => t.id).join(', ')}): each is pinned to its own with \`id:\`, so a plan matches it by id, not by name, and validate accepts the shared name as long as every manifest of that name keeps its pin`);
        const alerts = alertsOf(d.id);
        // An alert names its dashboard by name: with two manifests of that name, it could not say which (rules.ts).
        const sharedHere = (exportedByName.get(d.name) ?? []).length > 1;
        if (sharedHere && alerts.length > 0)
            notes.push(`its ${alerts.length} alert(s) are not exported (${alerts.map(a => JSON.stringify(a.name ?? a.id)).join(', ')}): an alert names its dashboard by name, which another exported dashboard has too. Rename one of the dashboards (its pin keeps its id) and add its alerts; until then, a plan with prune deletes them`);
        const exported = sharedHere ? [] : alerts;
        return {
            documents: [
                dashboardDocument(d, ctx, notes, pin),
                ...exported.map(a => alertDocument(a, { dashboard: d }, ctx.namer))
            ],
            ids: [d.id, ...exported.map(a => a.id)],
            carried: exported.length,
            ...(exported.length < alerts.length ? { leftOut: alerts.length - exported.length } : {})
        };
    };
}
function groupByName(list) {
    const out = new Map();
    for (const r of list)
        out.set(r.name, [...(out.get(r.name) ?? []), r]);
    return out;
}
function dashboardDocument(d, ctx, notes, pin) {
    const owned = d.tags.includes(ctx.ownershipTag);
    const value = { kind: 'Dashboard', name: d.name };
    if (pin !== undefined)
        value.id = pin;
    const tags = (0,ownership/* orderedUserTags */.as)(d.tags);
    if (tags.length > 0)
        value.tags = tags;
    // Adopting is explicit: an exported dashboard this stack does not own yet is adopted on the next apply.
    if (!owned)
        value.adopt = true;
    // Names from every source, not only the ones the selection exports.
    Object.assign(value, dashboardSettings(d, ctx.namer, notes));
    const tileComments = new Map();
    // Same-named tiles (HyperDX's templates have some): each is pinned to its own with `id:` (tiles.ts pairTiles).
    const repeated = repeatedNames(d.tiles);
    value.tiles = d.tiles.map((t, i) => {
        const comments = [];
        const tile = exportTile(t, d, ctx, comments);
        if (comments.length > 0)
            tileComments.set(i, comments);
        return repeated.has(t.name) && t.id !== undefined ? { name: t.name, id: String(t.id), ...tile } : tile;
    });
    const doc = new ((0,yaml_library/* yamlLibrary */.T)().Document)(value);
    const other = d.tags.find(t => (0,ownership/* isOwnershipTag */.GN)(t) && t !== ctx.ownershipTag);
    if (other)
        notes.push(`owned by another stack (${other}): adopting it takes it over`);
    if (notes.length > 0)
        doc.commentBefore = notes.map(n => ` ${n}`).join('\n');
    const tilesNode = doc.get('tiles', true);
    for (const [i, comments] of tileComments) {
        const node = tilesNode?.items?.[i];
        if (node)
            node.commentBefore = comments.map(c => ` ${c}`).join('\n');
    }
    return doc;
}
/** The tile names that repeat on a dashboard. */
function repeatedNames(tiles) {
    const seen = new Set();
    const out = new Set();
    for (const t of tiles)
        (seen.has(t.name) ? out : seen).add(t.name);
    return out;
}
const records = (v) => (Array.isArray(v) ? v : []);
/**
 * The dashboard-level settings in the manifest's words: filters with their sources by name, the saved query (its
 * language only where it is not the default), saved filter values, containers by title. No ids.
 */
function dashboardSettings(d, namer, notes) {
    const out = {};
    const filters = records(d.filters).map(f => {
        const { id: _id, type, sourceId, appliesToSourceIds, ...rest } = f;
        const filter = type === 'QUERY_EXPRESSION' ? {} : { type };
        filter.name = rest.name;
        filter.expression = rest.expression;
        Object.assign(filter, namer.ref('Source', 'source', sourceId, notes, 'data source'));
        for (const [k, v] of Object.entries(rest))
            if (!(k in filter) && v !== undefined && v !== null)
                filter[k] = v;
        if (Array.isArray(appliesToSourceIds) && appliesToSourceIds.length > 0) {
            const named = appliesToSourceIds.map(id => namer.ref('Source', 'source', id, [], 'data source').source);
            if (named.every(n => n !== undefined))
                filter.appliesToSources = named;
            else {
                filter.appliesToSourceIds = appliesToSourceIds;
                notes.push(`filter "${String(rest.name)}": a source it applies to has no unique name: kept as appliesToSourceIds`);
            }
        }
        return filter;
    });
    if (filters.length > 0)
        out.filters = filters;
    if (typeof d.savedQuery === 'string' && d.savedQuery !== '')
        out.savedQuery = d.savedQuery;
    // The server makes a query without a language Lucene: only another language is worth writing.
    const language = d.savedQueryLanguage ?? undefined;
    if (language !== undefined && !(language === 'lucene' && out.savedQuery !== undefined))
        out.savedQueryLanguage = language;
    const values = records(d.savedFilterValues).map(v => (v.type === 'sql' ? { condition: v.condition } : v));
    if (values.length > 0)
        out.savedFilterValues = values;
    const containers = records(d.containers).map(c => {
        const container = { title: c.title };
        if (c.collapsed === true)
            container.collapsed = true;
        if (typeof c.collapsible === 'boolean')
            container.collapsible = c.collapsible;
        if (typeof c.bordered === 'boolean')
            container.bordered = c.bordered;
        if (Array.isArray(c.tabs))
            container.tabs = records(c.tabs).map(t => ({ title: t.title }));
        return container;
    });
    const titles = containers.map(c => c.title);
    if (new Set(titles).size !== titles.length)
        notes.push('two containers share a title: tiles name containers by title, rename one');
    if (containers.length > 0)
        out.containers = containers;
    return out;
}

;// CONCATENATED MODULE: ./src/kinds/dashboard/index.ts
/**
 * Dashboards, assembled from named steps. Identity is decided in pair.ts; tiles are matched by name and
 * keep their ids on update (FACTS.md: a tile sent without its id is a new tile, and the server deletes
 * the alerts of the tile that went away).
 */











const dashboardKind = {
    kind: 'Dashboard',
    nouns: nouns/* NOUNS */.M.Dashboard,
    fingerprint: { specs: 'dashboards', whenEmpty: true },
    referredBy: undefined,
    copies: {
        what: 'dashboards',
        isCopy: (r, c, tag) => r.name === c.name && r.tags.includes(tag) && !(0,registry/* isRegistryDashboard */._X)(r),
        remove: (api, id) => api.deleteDashboard(id),
        // A copy with alerts is in use: another apply put them there.
        inUse: async (api) => {
            const alerted = new Set((await api.listAlerts()).map(a => a.dashboardId));
            return id => alerted.has(id);
        }
    },
    seenOn: d => ({ dashboard: d.name, own: true }),
    heldWhileUsed: undefined,
    unnamedUses: links/* linkOutUses */.bu,
    exports: dashboardExport,
    live: { read: api => api.listDashboards(), first: true },
    keyedPaths: new Set(['tiles', 'containers']),
    desired: desiredDashboards,
    pair: pairDashboards,
    normalDesired: normalDesired,
    normalLive: normalLive,
    liveName: l => l.name,
    liveId: l => l.id,
    refine: refineDashboard,
    conclude: recordDashboardFacts,
    operations: dashboardOperations,
    requests: dashboardRequests,
    saved: savedDashboard
};

;// CONCATENATED MODULE: ./src/kinds/role-permissions.ts
const DEFAULT_INTEGRATION = 'mongodb';
/** The rule the server adds to every custom role. */
const AUTO_GRANT = {
    action: 'read',
    subject: 'Connection',
    inverted: false,
    integration: DEFAULT_INTEGRATION
};
/** A manifest's or a live record's rule, defaults filled in. */
function ruleOf(p) {
    const rule = {
        action: p.action,
        subject: p.subject,
        inverted: p.inverted === true,
        integration: p.integration || DEFAULT_INTEGRATION
    };
    const fields = 'fields' in p && Array.isArray(p.fields) ? [...new Set(p.fields)].sort() : [];
    if (fields.length > 0)
        rule.fields = fields;
    const conditions = p.conditions ? canonical(p.conditions) : undefined;
    if (conditions && Object.keys(conditions).length > 0)
        rule.conditions = conditions;
    return rule;
}
/** Keys sorted at every level, so two spellings of one mapping are one text. */
function canonical(v) {
    if (Array.isArray(v))
        return v.map(canonical);
    if (v !== null && typeof v === 'object') {
        const out = {};
        for (const key of Object.keys(v).sort())
            out[key] = canonical(v[key]);
        return out;
    }
    return v === undefined ? null : v;
}
/**
 * A rule in words, without its verb: `read Source where integration is clickhouse`. Unique per rule (it says every
 * part of it), so it is also the rule's key in the normal form.
 */
function ruleWords(r) {
    let words = `\`${r.action} ${r.subject}\``;
    if (r.integration !== DEFAULT_INTEGRATION)
        words += ` where integration is ${r.integration}`;
    if (r.fields)
        words += ` on fields ${r.fields.join(', ')}`;
    if (r.conditions)
        words += ` when ${JSON.stringify(r.conditions)}`;
    return words;
}
/** The rule's key: denying and granting the same thing are two rules. */
const ruleKey = (r) => `${r.inverted ? 'denies' : 'grants'} ${ruleWords(r)}`;
const isAutoGrant = (r) => ruleKey(r) === ruleKey(AUTO_GRANT);
/** A list of rules as a set, by key, in the list's order. */
function ruleSet(rules) {
    const out = new Map();
    for (const r of rules)
        if (!out.has(ruleKey(r)))
            out.set(ruleKey(r), r);
    return out;
}
/** Whether a manifest lists the server's own rule (then it is compared like any other). */
const listsAutoGrant = (desired) => desired.some(isAutoGrant);
/** The live role's rules as the plan compares them: the server's own rule left out unless the manifest lists it. */
function comparedLiveRules(live, manifestListsAuto) {
    return ruleSet(manifestListsAuto ? live : live.filter(r => !isAutoGrant(r)));
}
/** Whether the live role holds the server's own rule (an update sends it back: role.ts says why). */
const holdsAutoGrant = (live) => live.some(isAutoGrant);
/** A rule as a request (and the normal form) carries it: the defaults explicit, as the provider sends them. */
function ruleBody(r) {
    const out = {
        action: r.action,
        subject: r.subject,
        inverted: r.inverted,
        integration: r.integration
    };
    if (r.fields)
        out.fields = r.fields;
    if (r.conditions)
        out.conditions = r.conditions;
    return out;
}
/** A rule as a manifest writes it: the defaults left out (export writes this; the plan shows it). */
function ruleValue(r) {
    const out = { action: r.action, subject: r.subject };
    if (r.inverted)
        out.inverted = true;
    if (r.integration !== DEFAULT_INTEGRATION)
        out.integration = r.integration;
    if (r.fields)
        out.fields = r.fields;
    if (r.conditions)
        out.conditions = r.conditions;
    return out;
}
/** The rules in the normal form: a mapping by key, so the diff shows each rule added or removed by its words. */
function normalRules(rules) {
    const out = {};
    for (const [key, r] of rules)
        out[key] = ruleValue(r);
    return out;
}
/**
 * From the live rules to the desired ones. A rule added that grants: `grants ...` (widens); a grant removed:
 * `revokes ...`; a denial added: `denies ...`; a denial removed: `no longer denies ...` (widens). A changed rule (its
 * conditions, its integration) is one removed and one added: a grant with new conditions widens, whether or not
 * the new ones are narrower, since a set of conditions cannot be compared for breadth.
 */
function ruleChanges(before, after) {
    const notes = [];
    const widens = [];
    for (const [key, r] of before) {
        if (after.has(key))
            continue;
        if (r.inverted) {
            const words = `no longer denies ${ruleWords(r)}`;
            notes.push(words);
            widens.push(words);
        }
        else
            notes.push(`revokes ${ruleWords(r)}`);
    }
    for (const [key, r] of after) {
        if (before.has(key))
            continue;
        notes.push(key);
        if (!r.inverted)
            widens.push(key);
    }
    return { notes, widens };
}
/**
 * What a new role grants that a reviewer must not miss: a grant of `manage` (every action) or on `all` (every
 * subject). A new role holds no users yet, so its other grants give nobody anything until someone is given the role
 * (outside this tool, in the cloud console); these two make it an administrator's role whoever gets it.
 */
const broadGrants = (rules) => [...rules.values()].filter(r => !r.inverted && (r.action === 'manage' || r.subject === 'all')).map(ruleKey);

;// CONCATENATED MODULE: ./src/kinds/role-export.ts


const roleExport = {
    list: 'roles',
    writes: {
        to: { file: 'roles' },
        tags: undefined,
        skips: r => r.isPredefined,
        writer: ctx => r => {
            // `skips` keeps them out of the selection; a writer called with one anyway (a sync) writes nothing either.
            if (r.isPredefined)
                return { documents: [], carried: 0 };
            const comments = [];
            const permissions = [...comparedLiveRules(r.permissions.map(ruleOf), false).values()].map(rule => {
                // A manifest has no `fields`: the rule is written without them, and the comment says so.
                const { fields, ...written } = ruleValue(rule);
                if (fields)
                    comments.push(`the rule ${ruleWords(rule)} is limited to fields, which a manifest cannot say: it is written without them, so a plan of this file revokes it and grants it again without them`);
                return written;
            });
            const value = { kind: 'Role', name: r.name };
            if (r.description)
                value.description = r.description;
            value.permissions = permissions;
            const other = ctx.registry.ownerOf('Role', r.id);
            if (other)
                comments.push(`managed by another stack (${other}): a stack never takes one over, so the plan refuses this manifest until that stack lets go`);
            if (!ctx.registry.owns('Role', r.id))
                value.adopt = true;
            return { documents: [(0,exporting/* withComments */.f6)(value, comments)], carried: 0 };
        }
    }
};

;// CONCATENATED MODULE: ./src/kinds/role.ts







const desiredRules = (spec) => spec.permissions.map(ruleOf);
const liveRules = (l) => l.permissions.map(ruleOf);
/** Whether the manifest of this name lists the server's own rule (a live role is paired by its name). */
function manifestListsAuto(ctx, name) {
    const spec = ctx.manifests.specs.Role.find(l => l.spec.name === name)?.spec;
    return spec !== undefined && listsAutoGrant(desiredRules(spec));
}
const pairCustom = registryPair('Role', ctx => ctx.live.Role?.filter(r => !r.isPredefined), 
// ClickStackCreateRoleRequest: "Must be unique within the team".
() => 'the server allows one role of a name in a team');
const roleKind = {
    kind: 'Role',
    nouns: nouns/* NOUNS */.M.Role,
    // Added after the first plan files: a plan without roles hashes as before.
    fingerprint: { specs: 'roles', whenEmpty: false },
    referredBy: undefined,
    copies: undefined,
    seenOn: undefined,
    heldWhileUsed: undefined,
    unnamedUses: undefined,
    exports: roleExport,
    live: {
        read: api => api.listRoles(),
        // One request more only for a stack with roles, or one whose registry lists some to prune.
        asked: async (options) => (await options.roles) ?? true,
        neededBy: state => state.Dashboard.some(d => (0,registry/* registryLists */.dT)(d, 'Role'))
    },
    desired: ctx => desiredRecords('Role', ctx.manifests.specs.Role, ctx.live.Role, ctx),
    pair(desired, ctx) {
        const predefined = new Map((ctx.live.Role ?? []).filter(r => r.isPredefined).map(r => [r.name.toLowerCase(), r]));
        const custom = desired.filter(d => {
            const p = predefined.get(d.name.toLowerCase());
            if (!p)
                return true;
            ctx.report((0,diagnostics/* diagnostic */.YK)('plan', 'error', `"${p.name}" is a predefined role of this team (id ${p.id}): the server keeps it as it is (it cannot be changed or deleted), and a custom role cannot take its name. Give this role another name`, { ...d.value.located.doc.locate(['name']), field: 'name' }));
            return false;
        });
        return pairCustom(custom, ctx);
    },
    keyedPaths: new Set(['permissions']),
    normalDesired: (d, ctx) => role_normal({
        name: d.value.spec.name,
        owner: ctx.settings.ownershipTag,
        description: d.value.spec.description,
        permissions: normalRules(ruleSet(desiredRules(d.value.spec)))
    }),
    normalLive: (l, ctx) => role_normal({
        name: l.name,
        owner: registryOwner('Role', l.id, ctx),
        description: l.description,
        permissions: normalRules(comparedLiveRules(liveRules(l), manifestListsAuto(ctx, l.name)))
    }),
    liveName: l => l.name,
    liveId: l => l.id,
    refine(pc, ctx) {
        const { change, desired, live } = pc;
        if (change.deferred === undefined && desired) {
            const after = ruleSet(desiredRules(desired.value.spec));
            if (change.action === 'create') {
                change.notes.push(...after.keys());
                setWidens(change, broadGrants(after));
                if (!listsAutoGrant([...after.values()]))
                    change.notes.push(AUTO_GRANT_NOTE);
            }
            else if (change.action === 'update' && live) {
                const before = comparedLiveRules(liveRules(live), listsAutoGrant([...after.values()]));
                const { notes, widens } = ruleChanges(before, after);
                change.notes.push(...notes);
                setWidens(change, widens);
            }
        }
        if (change.action === 'delete' && !change.deferred)
            change.notes.push("the server refuses to delete a role that users have, or the team's default role: the apply then fails with its words, and the role stays this stack's");
        registryNote(change, ctx);
    },
    ...recordWrites(() => ({
        kind: 'Role',
        collection: 'roles',
        liveId: l => l.id,
        liveName: l => l.name,
        list: async (ctx) => (await ctx.api.listRoles()) ?? [],
        find: (all, body) => all.find(l => !l.isPredefined && l.name === body.name),
        createBody: d => {
            const out = { name: d.spec.name };
            if (d.spec.description !== undefined)
                out.description = d.spec.description;
            out.permissions = permissionsBody(desiredRules(d.spec), false);
            return out;
        },
        updateBody(d, live, change) {
            if (!changesMoreThanOwner(change))
                return undefined;
            const rules = desiredRules(d.spec);
            return {
                name: d.spec.name,
                description: d.spec.description ?? '',
                permissions: permissionsBody(rules, holdsAutoGrant(liveRules(live)) && !listsAutoGrant(rules))
            };
        },
        // A registry entry is what owning means: recorded on create and adoption, kept while its name is the same.
        entryAfter(d, _sent, live, octx) {
            const previous = live ? octx.registry.entry('Role', live.id) : undefined;
            return previous?.name === d.spec.name ? undefined : { name: d.spec.name };
        }
    }))
};
const AUTO_GRANT_NOTE = `the server also grants ${ruleWords(AUTO_GRANT)} to every custom role: left out of the comparison, and never removed`;
/** The rules as a request sends them: each once, in the manifest's order; the server's own rule kept when asked. */
function permissionsBody(rules, keepAutoGrant) {
    const set = ruleSet(keepAutoGrant ? [...rules, AUTO_GRANT] : rules);
    return [...set.values()].map(ruleBody);
}
function setWidens(change, widens) {
    if (widens.length > 0)
        change.widens = widens;
}
function role_normal(o) {
    return ((0,json/* clean */.uH)(o) ?? {});
}

;// CONCATENATED MODULE: ./src/kinds/saved-search-filters.ts

/** A filter as the request sends it. */
function filterBody(f) {
    if (f.type === 'sql_ast')
        return { type: f.type, operator: f.operator, left: f.left, right: f.right };
    return { type: f.type ?? 'sql', condition: f.condition };
}
/** Plan errors at the filters the server would refuse: another type than sql, unless kept as stored. */
function checkFilterTypes(located, live, ctx) {
    const stored = new Set((live?.filters ?? []).map(f => filterKey(f)));
    (located.spec.filters ?? []).forEach((f, i) => {
        if ((f.type ?? 'sql') === 'sql')
            return;
        const why = ctx.settings.mode === 'managed'
            ? `the managed API takes sql filters only (ClickStackSavedSearchFilter): remove this ${f.type} filter (an update then deletes it)`
            : stored.has(filterKey(filterBody(f)))
                ? undefined
                : `the server keeps a ${f.type} filter only as the saved search stores it already, and refuses a new or changed one: set it in the web UI, or write it as an sql filter`;
        if (why === undefined)
            return;
        const path = ['filters', i];
        ctx.report((0,diagnostics/* diagnostic */.YK)('plan', 'error', why, { ...located.doc.locate(path), field: `filters[${i}]` }));
    });
}
/** A filter's identity: its type and the fields of that type, in a fixed order. */
function filterKey(f) {
    const type = f.type ?? 'sql';
    return JSON.stringify(type === 'sql_ast' ? [type, f.operator, f.left, f.right] : [type, f.condition ?? null]);
}

;// CONCATENATED MODULE: ./src/kinds/saved-search-export.ts



const savedSearchExport = {
    list: 'savedSearches',
    writes: {
        to: { file: 'saved-searches' },
        tags: s => s.tags,
        skips: undefined,
        writer: ctx => {
            const alertsOf = alertsBy(ctx.all('Alert') ?? [], a => a.source === 'saved_search' ? a.savedSearchId : undefined);
            return s => {
                const comments = [];
                const value = {
                    kind: 'SavedSearch',
                    name: s.name,
                    ...(0,exporting/* twinPin */.OH)(ctx.namer, 'SavedSearch', s, comments)
                };
                Object.assign(value, ctx.namer.ref('Source', 'source', s.sourceId, comments, 'source'));
                if (s.select)
                    value.select = s.select;
                if (s.where)
                    value.where = s.where;
                if (s.whereLanguage && s.whereLanguage !== 'lucene')
                    value.whereLanguage = s.whereLanguage;
                if (s.orderBy)
                    value.orderBy = s.orderBy;
                const tags = (0,ownership/* orderedUserTags */.as)(s.tags);
                if (tags.length > 0)
                    value.tags = tags;
                const all = s.filters ?? [];
                const filters = all.flatMap(f => exportedFilter(f, ctx.mode));
                if (filters.length < all.length)
                    comments.push(ctx.mode === 'managed'
                        ? `${all.length - filters.length} filter(s) of another type than sql (set in the UI): the managed API takes sql filters only, so an update removes them`
                        : `${all.length - filters.length} filter(s) of a shape the manifest cannot express: an update removes them`);
                if (filters.length > 0)
                    value.filters = filters;
                if (!s.tags.includes(ctx.ownershipTag))
                    value.adopt = true;
                const alerts = alertsOf(s.id);
                return {
                    documents: [
                        (0,exporting/* withComments */.f6)(value, comments),
                        ...alerts.map(a => alertDocument(a, { search: s }, ctx.namer))
                    ],
                    ids: [s.id, ...alerts.map(a => a.id)],
                    carried: alerts.length
                };
            };
        }
    }
};
/**
 * A saved search's filter in the manifest's words: sql (its default type left out), and where the server takes
 * them, the lucene and sql_ast filters the web UI writes (saved-search-filters.ts). None when it cannot go.
 */
function exportedFilter(f, mode) {
    const type = f.type ?? 'sql';
    if (type === 'sql')
        return typeof f.condition === 'string' ? [{ condition: f.condition }] : [];
    if (mode === 'managed')
        return [];
    if (type === 'lucene' && typeof f.condition === 'string')
        return [{ type, condition: f.condition }];
    const sides = [f.operator, f.left, f.right];
    if (type === 'sql_ast' && sides.every(v => typeof v === 'string'))
        return [{ type, operator: f.operator, left: f.left, right: f.right }];
    return [];
}

;// CONCATENATED MODULE: ./src/kinds/saved-search.ts
/**
 * Saved searches. They carry tags, so a stack owns the ones with its ownership tag, as with dashboards
 * (adopting one from another stack moves the tag). PUT is a full replace: an omitted field returns to
 * its default (v2/savedSearches.ts), so a request always carries the whole search. Deleting one deletes
 * its alerts (controllers/savedSearch.ts): the alert kind shows those as deleted by the server.
 */






const savedSearchKind = {
    kind: 'SavedSearch',
    nouns: nouns/* NOUNS */.M.SavedSearch,
    fingerprint: { specs: 'savedSearches', whenEmpty: true, names: { key: 'savedSearches', at: 3 } },
    referredBy: [{ key: 'savedSearchId', as: 'savedSearch' }],
    copies: {
        what: 'saved-searches',
        isCopy: (r, c, tag) => r.name === c.name && r.tags.includes(tag),
        remove: (api, id) => api.deleteRecord('saved-searches', id)
    },
    seenOn: undefined,
    // Its alerts are this stack's: the plan names them as deleted by the server with it.
    heldWhileUsed: undefined,
    unnamedUses: undefined,
    exports: savedSearchExport,
    live: { read: api => api.listSavedSearches() },
    desired: ctx => desiredRecords('SavedSearch', ctx.manifests.specs.SavedSearch, ctx.live.SavedSearch, ctx).map(d => {
        const s = d.value.spec;
        d.value.resolvedSource = ctx.refs.resolve({
            kind: 'Source',
            name: s.source,
            id: s.sourceId,
            at: { doc: d.value.located.doc, path: [s.source !== undefined ? 'source' : 'sourceId'] }
        });
        return d;
    }),
    pair: (desired, ctx) => pairRecords(desired, ctx.live.SavedSearch, ctx, {
        kind: 'SavedSearch',
        liveId: l => l.id,
        liveName: l => l.name,
        owns: l => l.tags.includes(ctx.settings.ownershipTag),
        otherOwner: l => l.tags.find(ownership/* isOwnershipTag */.GN),
        adoptFromOthers: true
    }),
    normalDesired(d, ctx) {
        const sent = saved_search_body(d.value, ctx.settings.ownershipTag);
        return saved_search_normal(sent, ctx, ctx.settings.ownershipTag);
    },
    normalLive(l, ctx) {
        const owner = l.tags.includes(ctx.settings.ownershipTag)
            ? ctx.settings.ownershipTag
            : l.tags.find(ownership/* isOwnershipTag */.GN);
        return saved_search_normal(l, ctx, owner);
    },
    liveName: l => l.name,
    liveId: l => l.id,
    // Adoption notes come from pairing; the server's cascade onto alerts is the alert kind's to show.
    refine(pc, ctx) {
        if (pc.desired)
            checkFilterTypes(pc.desired.value.located, pc.live, ctx);
    },
    ...recordWrites(octx => ({
        kind: 'SavedSearch',
        collection: 'saved-searches',
        liveId: l => l.id,
        liveName: l => l.name,
        list: async (ctx) => (await ctx.api.listSavedSearches()) ?? [],
        find: (all, sent) => all.find(l => l.name === sent.name && l.tags.includes(octx.settings.ownershipTag)),
        createBody: d => saved_search_body(d, octx.settings.ownershipTag),
        // Ownership is a tag in the body, so every update (one that only adopts the search included) sends it whole.
        updateBody: d => saved_search_body(d, octx.settings.ownershipTag)
    }))
};
/** The whole saved search as a PUT must carry it (omitted fields reset to their defaults). */
function saved_search_body(d, tag) {
    const s = d.spec;
    return {
        name: s.name,
        sourceId: d.resolvedSource?.value,
        select: s.select ?? '',
        where: s.where ?? '',
        whereLanguage: s.whereLanguage ?? 'lucene',
        orderBy: s.orderBy ?? '',
        // A saved search has one owner: adopting one from another stack replaces that stack's tag.
        tags: [...new Set([...(0,ownership/* orderedUserTags */.as)(s.tags ?? []), tag])],
        filters: (s.filters ?? []).map(filterBody)
    };
}
function saved_search_normal(s, ctx, owner) {
    const filters = Array.isArray(s.filters)
        ? s.filters.map(f => {
            const { type, ...rest } = f;
            return type === 'sql' || type === undefined ? rest : { type, ...rest };
        })
        : undefined;
    return ((0,json/* clean */.uH)({
        name: s.name,
        owner,
        source: typeof s.sourceId === 'string' ? ctx.refs.labelOfValue('Source', s.sourceId) : undefined,
        select: s.select,
        where: s.where,
        whereLanguage: s.whereLanguage === 'lucene' ? undefined : s.whereLanguage,
        orderBy: s.orderBy,
        tags: (0,ownership/* userTags */.Rz)(s.tags ?? []),
        filters
    }) ?? {});
}

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
    nouns: nouns/* NOUNS */.M.ServiceSettings,
    fingerprint: { specs: 'services', whenEmpty: true },
    referredBy: undefined,
    copies: undefined,
    seenOn: undefined,
    heldWhileUsed: undefined,
    unnamedUses: undefined,
    exports: undefined,
    live: {
        read: async (api, options) => ((await options.service) ? [(await api.getService()).service] : undefined)
    },
    keyedPaths: new Set(['ipAccessList', 'endpoints']),
    desired(ctx) {
        if (ctx.settings.mode !== 'managed')
            return [];
        // One at most: validation refuses a second (rules.ts).
        return ctx.manifests.specs.ServiceSettings.map(({ spec, doc }) => new DesiredAt(spec.name ?? 'service', 'ServiceSettings/service', spec, doc, 'kind'));
    },
    pair(desired, ctx) {
        return { pairs: desired.map(d => ({ desired: d, live: ctx.live.ServiceSettings?.[0] })), orphans: [] };
    },
    normalDesired(d) {
        return desiredNormal(d.value);
    },
    normalLive(l, ctx) {
        const declared = ctx.manifests.specs.ServiceSettings[0]?.spec;
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
        const { first, rotation } = patchesOf(patchBody(desired.value, live));
        change.request = { method: 'PATCH', path: ctx.settings.servicePath ?? '', body: first ?? rotation };
        if (first && rotation)
            change.notes.push(`the TDE key rotation goes alone, in a second PATCH ${JSON.stringify(rotation)}, once a read of the service shows it has transparent data encryption`);
        const at = (field) => ({ ...ctx.manifests.specs.ServiceSettings[0].doc.locate([field]), field });
        const channel = first?.releaseChannel;
        // As the ClickHouse Terraform provider: only a development service is held to the default channel.
        if (channel !== undefined && channel !== 'default' && live.tier === 'development')
            ctx.report((0,diagnostics/* diagnostic */.YK)('plan', 'error', `releaseChannel "${String(channel)}": this service's tier is development, whose channel can only be "default"`, at('releaseChannel')));
        if (rotation && live.hasTransparentDataEncryption === false)
            ctx.report((0,diagnostics/* diagnostic */.YK)('plan', 'error', 'this service was not created with transparent data encryption: its key cannot be rotated', at('transparentDataEncryptionKeyId')));
        if (!ctx.settings.serviceGate.open) {
            change.deferred = 'release';
            change.notes.push(`not applied by this run: ${ctx.settings.serviceGate.reason}`);
        }
        else {
            change.notes.push(`applied by this run: ${ctx.settings.serviceGate.reason}`);
        }
    },
    operations(pc) {
        const { change, desired, live } = pc;
        // A no-op carries no request (refine sets one only for a change).
        if (!desired || !live || change.deferred || !change.request)
            return [];
        return [
            {
                address: change.address,
                label: 'PATCH',
                provides: [],
                after: [],
                run: async (ctx) => {
                    const patched = await patchUntilSent(ctx, desired.value, live, 'settings');
                    const rotated = await patchUntilSent(ctx, desired.value, live, 'rotation');
                    const last = rotated ?? patched;
                    // Confirm by reading the service again, not by trusting the PATCH response; a cloud may take a
                    // moment to show a change, so a difference is re-read a few times before it counts.
                    let remaining = [];
                    let service = last?.service;
                    for (let attempt = 0; attempt < CONVERGENCE_READS; attempt++) {
                        if (attempt > 0)
                            await new Promise(resolve => setTimeout(resolve, CONVERGENCE_WAIT_MS * attempt));
                        service = (await ctx.api.getService()).service;
                        remaining = (0,diff/* diffValues */.In)(liveNormal(service, desired.value), desiredNormal(desired.value)).map(f => `${f.path}: server has ${JSON.stringify(f.before ?? null)}, manifest wants ${JSON.stringify(f.after ?? null)}`);
                        if (remaining.length === 0)
                            break;
                    }
                    return {
                        status: 'applied',
                        id: service?.id,
                        requestId: last?.requestId,
                        result: last?.service ?? service,
                        convergence: { converged: remaining.length === 0, remaining }
                    };
                }
            }
        ];
    },
    // As operations: the settings' PATCH, the rotation's read and PATCH, and one read that finds them converged.
    requests({ change, desired, live }) {
        if (!desired || !live || change.deferred || !change.request)
            return { requests: 0 };
        const { first, rotation } = patchesOf(patchBody(desired.value, live));
        return { requests: (first ? 1 : 0) + (rotation ? 2 : 0) + 1 };
    }
};
/**
 * The PATCH bodies of a change: the settings, and the TDE key rotation on its own, as the ClickHouse Terraform
 * provider sends it (`internal/api/service.go` RotateTDEKey, a body of the key id alone).
 */
function patchesOf(body) {
    const { transparentDataEncryptionKeyId: key, ...rest } = body;
    return {
        ...(Object.keys(rest).length > 0 ? { first: rest } : {}),
        ...(key !== undefined ? { rotation: { transparentDataEncryptionKeyId: key } } : {})
    };
}
/**
 * Sends one of the change's PATCHes as the service now needs it: read first for the rotation (it goes only to a
 * service with TDE), and read again after a lost response, so only what still differs is sent.
 */
async function patchUntilSent(ctx, spec, planned, which) {
    const part = (service) => {
        const patches = patchesOf(patchBody(spec, service));
        return which === 'settings' ? patches.first : patches.rotation;
    };
    let body = part(planned);
    if (which === 'rotation' && body) {
        const now = (await ctx.api.getService()).service;
        body = part(now);
        if (body && now.hasTransparentDataEncryption !== true)
            throw new Error('not sent: the service does not have transparent data encryption (hasTransparentDataEncryption), so its key cannot be rotated');
    }
    if (!body)
        return undefined;
    try {
        return await sendPatch(ctx, body);
    }
    catch (e) {
        if (!(e instanceof errors/* UnknownOutcomeError */.rk))
            throw e;
        // The PATCH may have been applied: read the service and send only what still differs.
        ctx.log.warn(`${e.message}: re-reading the service before sending what still differs`);
        const rest = part((await ctx.api.getService()).service);
        return rest ? sendPatch(ctx, rest) : undefined;
    }
}
/** A refusal of a release channel says what the contract says of it. */
async function sendPatch(ctx, patch) {
    try {
        return await ctx.api.patchService(patch);
    }
    catch (e) {
        const release = patch.releaseChannel !== undefined;
        if (e instanceof errors/* ApiError */.hD && e.status === 400 && release && /release/i.test(e.serverMessage ?? '')) {
            throw new Error(`${e.message}. CONTRACT.md: releaseChannel is only available for production services`, {
                cause: e
            });
        }
        throw e;
    }
}
function desiredNormal(s) {
    return withIpAccessList(s.ipAccessList, {
        name: s.name,
        releaseChannel: s.releaseChannel,
        privateEndpointIds: s.privateEndpointIds ? [...s.privateEndpointIds].sort() : undefined,
        endpoints: s.endpoints ? Object.fromEntries(s.endpoints.map(e => [e.protocol, e.enabled])) : undefined,
        transparentDataEncryptionKeyId: s.transparentDataEncryptionKeyId
    });
}
/** The live service, restricted to the fields the manifest declares (the rest is not managed). */
function liveNormal(l, declared) {
    return withIpAccessList(declared.ipAccessList ? liveIps(l) : undefined, {
        name: declared.name !== undefined ? l.name : undefined,
        releaseChannel: declared.releaseChannel !== undefined ? l.releaseChannel : undefined,
        privateEndpointIds: declared.privateEndpointIds ? [...(l.privateEndpointIds ?? [])].sort() : undefined,
        endpoints: declared.endpoints
            ? Object.fromEntries(declared.endpoints.map(e => [e.protocol, endpointEnabled(l, e.protocol)]))
            : undefined,
        transparentDataEncryptionKeyId: declared.transparentDataEncryptionKeyId !== undefined ? l.transparentDataEncryptionKeyId : undefined
    });
}
/**
 * The cleaned fields, and the IP access list as `{source: description}` (entries are matched on source,
 * FACTS.md). The list is added after `clean`, which drops empty strings: an entry without a description
 * would vanish from both sides, and the plan would neither show nor send its addition or removal. Keys
 * stay sorted, as `clean` leaves them (normal forms are compared and hashed as JSON text).
 */
function withIpAccessList(entries, fields) {
    const out = ((0,json/* clean */.uH)(fields) ?? {});
    if (entries)
        out.ipAccessList = sorted(Object.fromEntries(entries.map(e => [ipKey(e.source), e.description ?? ''])));
    return sorted(out);
}
const sorted = (o) => Object.fromEntries((0,json/* sortedKeys */.Mf)(o).map(k => [k, o[k]]));
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

// EXTERNAL MODULE: ./src/manifest/resources-schema.ts
var resources_schema = __webpack_require__(310);
;// CONCATENATED MODULE: ./src/kinds/source-export.ts


/** Fields never written: computed, identity, or written in the manifest's words below. */
const SKIP = new Set(['id', 'name', 'kind', 'connection', 'createdAt', 'updatedAt', 'team', 'teamId']);
const sourceExport = {
    list: 'sources',
    writes: {
        to: { file: 'sources' },
        tags: undefined,
        skips: undefined,
        writer: ctx => {
            const apiRefs = new Map(resources_schema/* SOURCE_REFERENCES */.B5.map(([field, api]) => [api, field]));
            return s => {
                const comments = [];
                const value = {
                    kind: 'Source',
                    name: s.name,
                    ...(0,exporting/* twinPin */.OH)(ctx.namer, 'Source', s, comments),
                    sourceKind: s.kind
                };
                if (ctx.mode === 'managed') {
                    if (s.connection)
                        value.connectionId = s.connection;
                }
                else
                    Object.assign(value, ctx.namer.ref('Connection', 'connection', s.connection, comments, 'connection'));
                for (const [key, v] of Object.entries(s)) {
                    if (SKIP.has(key) || v === null || v === undefined)
                        continue;
                    const field = apiRefs.get(key);
                    if (field)
                        Object.assign(value, ctx.namer.ref('Source', field, v, comments, 'source'));
                    else if (isDefault(s.kind, key, v))
                        continue;
                    else
                        value[key] = v;
                }
                if (!ctx.registry.owns('Source', s.id))
                    value.adopt = true;
                return { documents: [(0,exporting/* withComments */.f6)(value, comments)], carried: 0 };
            };
        }
    }
};
/** What the server returns for a field that was never set (real-server.md §4, response-fields.md §9). */
function isDefault(kind, key, value) {
    if (Array.isArray(value) && value.length === 0)
        return true;
    if (value === '')
        return true;
    if (key === 'disabled' && value === false)
        return true;
    return kind === 'trace' && key === 'durationPrecision' && value === 3;
}

;// CONCATENATED MODULE: ./src/kinds/source.ts
/**
 * Data sources. PUT is a full replace (controllers/sources.ts), so a request always carries the whole
 * source: the manifest, plus fields a newer server returns that this tool does not know, sent back as
 * read. References: the connection, and the correlated log, trace, metric and session sources, by name;
 * they compare by label (references.ts). Sources that refer to each other and are both new are created
 * without those references first and linked by a second request (a session's trace source, which the
 * server requires, is created before it instead). Owned through the registry (sources carry no tags).
 */






/** Every field of the server's source schemas (types.ts, and the managed `filterSettings`). */
const KNOWN = new Set([
    'id',
    'name',
    'kind',
    'section',
    'connection',
    'from',
    'disabled',
    'querySettings',
    'timestampValueExpression',
    'defaultTableSelectExpression',
    'serviceNameExpression',
    'serviceVersionExpression',
    'severityTextExpression',
    'bodyExpression',
    'eventAttributesExpression',
    'resourceAttributesExpression',
    'displayedTimestampValueExpression',
    'metricSourceId',
    'traceSourceId',
    'logSourceId',
    'sessionSourceId',
    'traceIdExpression',
    'spanIdExpression',
    'implicitColumnExpression',
    'knownColumnsListExpression',
    'tableFilterExpression',
    'highlightedTraceAttributeExpressions',
    'highlightedRowAttributeExpressions',
    'materializedViews',
    'metadataMaterializedViews',
    'orderByExpression',
    'useTextIndexForImplicitColumn',
    'durationExpression',
    'durationPrecision',
    'parentSpanIdExpression',
    'spanNameExpression',
    'spanKindExpression',
    'sampleRateExpression',
    'statusCodeExpression',
    'statusMessageExpression',
    'spanEventsValueExpression',
    'spanLinksValueExpression',
    'metricTables',
    'seriesTable',
    'filterSettings'
]);
/** Computed by the server, never sent. */
const COMPUTED = new Set(['id', 'createdAt', 'updatedAt', 'team', 'teamId', '_id', '__v']);
const sourceKind = {
    kind: 'Source',
    nouns: nouns/* NOUNS */.M.Source,
    fingerprint: { specs: 'sources', whenEmpty: true, names: { key: 'sources', at: 0 } },
    // A dashboard filter's sources are a list of ids: named as a list, when the plan can name every one.
    referredBy: [
        { key: 'sourceId', as: 'source' },
        { key: 'appliesToSourceIds', as: 'appliesToSources' }
    ],
    copies: undefined,
    seenOn: undefined,
    // The server deletes a source whatever still names it (docs/real-server.md).
    heldWhileUsed: {
        fields: [
            'sourceId',
            'logSourceId',
            'traceSourceId',
            'metricSourceId',
            'sessionSourceId',
            'appliesToSourceIds'
        ]
    },
    // A source names its connection by `connection`.
    unnamedUses: (o, at) => at === '' && typeof o.connection === 'string'
        ? [{ kind: 'Connection', id: o.connection, at: 'connection' }]
        : [],
    exports: sourceExport,
    live: { read: api => api.listSources() },
    desired: ctx => desiredRecords('Source', ctx.manifests.specs.Source, ctx.live.Source, ctx),
    pair: registryPair('Source', ctx => ctx.live.Source),
    normalDesired(d, ctx, live) {
        const body = { ...apiBody(d.value, ctx), ...(live ? carried(live) : {}) };
        return source_normal(forMode(ctx.settings.mode, body), ctx, ctx.settings.ownershipTag);
    },
    normalLive: (l, ctx) => source_normal(l, ctx, registryOwner('Source', l.id, ctx)),
    liveName: l => l.name,
    liveId: l => l.id,
    refine(pc, ctx) {
        registryNote(pc.change, ctx);
        const unsent = pc.live && ctx.settings.mode === 'managed' ? notSentBack(pc.live) : [];
        if (pc.change.action === 'update' && unsent.length > 0)
            pc.change.notes.push(`not sent back: ${unsent.join(', ')} (the managed API's ${String(pc.live.kind)} source has no such field, and its gateway refuses one); the update replaces the whole source, so they go`);
    },
    ...recordWrites(octx => {
        const resolvedBody = (d) => forMode(octx.settings.mode, apiBodyOf(d));
        return {
            kind: 'Source',
            collection: 'sources',
            liveId: l => l.id,
            liveName: l => l.name,
            list: ctx => ctx.api.listSources(),
            createBody: d => withoutNewSiblings(d, resolvedBody(d)),
            linkBody: d => {
                const full = resolvedBody(d);
                return Object.keys(withoutNewSiblings(d, full)).length === Object.keys(full).length ? undefined : full;
            },
            updateBody: (d, live, change) => changesMoreThanOwner(change)
                ? forMode(octx.settings.mode, { ...resolvedBody(d), ...carried(live) })
                : undefined,
            entryAfter(d, _sent, live, octx) {
                // A registry entry is what owning means (registry.ts owns).
                const previous = live ? octx.registry.entry('Source', live.id) : undefined;
                return previous?.name === d.spec.name ? undefined : { name: d.spec.name };
            }
        };
    })
};
/** The references of a source's manifest, resolved (and their problems reported) once. */
function resolveRefs(d, ctx) {
    if (d.resolved)
        return d.resolved;
    const s = d.spec;
    const doc = d.located.doc;
    const out = new Map();
    const one = (kind, field, apiField) => {
        const name = s[field];
        const id = s[`${field}Id`];
        if (name === undefined && id === undefined)
            return;
        out.set(apiField, ctx.refs.resolve({ kind, name, id, at: { doc, path: [name !== undefined ? field : `${field}Id`] } }));
    };
    one('Connection', 'connection', 'connection');
    for (const [field, apiField] of resources_schema/* SOURCE_REFERENCES */.B5)
        one('Source', field, apiField);
    d.resolved = out;
    return out;
}
/** The request body in the API's words, with references as ids or placeholders. */
function apiBody(d, ctx) {
    resolveRefs(d, ctx);
    return apiBodyOf(d);
}
function apiBodyOf(d) {
    const { apiVersion: _v, kind: _k, id: _id, adopt: _adopt, sourceKind, connection: _c, connectionId: _cid, ...rest } = d.spec;
    const body = { kind: sourceKind, ...rest };
    for (const [field, apiField] of resources_schema/* SOURCE_REFERENCES */.B5) {
        delete body[field];
        delete body[apiField];
    }
    for (const [apiField, r] of d.resolved ?? [])
        body[apiField] = r.value;
    return body;
}
/**
 * Without references to sources this run also creates (they may refer back), except the trace source a
 * session source must have (types.ts SessionSourceSchema), which is then created first.
 */
function withoutNewSiblings(d, body) {
    const out = { ...body };
    for (const [, apiField] of resources_schema/* SOURCE_REFERENCES */.B5) {
        if (d.spec.sourceKind === 'session' && apiField === 'traceSourceId')
            continue;
        const value = out[apiField];
        if (typeof value === 'string' && value.startsWith('new:Source/'))
            delete out[apiField];
    }
    return out;
}
/** Fields of the live source this tool does not know (a newer server): a full-replace PUT keeps them. */
function carried(live) {
    return Object.fromEntries(Object.entries(live).filter(([k]) => !KNOWN.has(k) && !COMPUTED.has(k)));
}
/** Managed mode sends only what the managed source schema of the body's kind declares (managed-request.ts). */
const forMode = (mode, body) => mode === 'managed' ? (0,managed_request/* managedSourceBody */.vU)(body) : body;
/** The live source's fields a managed update cannot send back: its kind's managed schema lacks them. */
function notSentBack(live) {
    const kept = Object.keys((0,managed_request/* managedSourceBody */.vU)(live));
    return Object.keys(live).filter(k => !COMPUTED.has(k) && !kept.includes(k) && live[k] !== undefined && live[k] !== null);
}
/** `5 minute` and `5m` are one granularity: the server returns the short form (v2/sources.ts). */
function shortGranularity(value) {
    if (typeof value !== 'string')
        return value;
    const m = /^(\d+) (second|minute|hour|day)$/.exec(value);
    return m ? `${m[1]}${m[2][0]}` : value;
}
/**
 * Both sides in the manifest's words: references as labels, `kind` as `sourceKind`, granularities in
 * short form, defaults (disabled false, durationPrecision 3, empty lists) left out.
 */
function source_normal(source, ctx, owner) {
    const out = { owner };
    for (const [key, value] of Object.entries(source)) {
        if (COMPUTED.has(key))
            continue;
        if (key === 'kind')
            out.sourceKind = value;
        else if (key === 'connection')
            out.connection = typeof value === 'string' ? ctx.refs.labelOfValue('Connection', value) : value;
        else if (resources_schema/* SOURCE_REFERENCES */.B5.some(([, api]) => api === key)) {
            const field = resources_schema/* SOURCE_REFERENCES */.B5.find(([, api]) => api === key)[0];
            out[field] = typeof value === 'string' ? ctx.refs.labelOfValue('Source', value) : value;
        }
        else
            out[key] = value;
    }
    if (out.disabled === false)
        delete out.disabled;
    if (out.sourceKind === 'trace' && (out.durationPrecision === 3 || out.durationPrecision === undefined))
        delete out.durationPrecision;
    if (Array.isArray(out.materializedViews))
        out.materializedViews = out.materializedViews.map(v => v && typeof v === 'object'
            ? { ...v, minGranularity: shortGranularity(v.minGranularity) }
            : v);
    const meta = out.metadataMaterializedViews;
    if (meta && typeof meta === 'object')
        out.metadataMaterializedViews = {
            ...meta,
            granularity: shortGranularity(meta.granularity)
        };
    return ((0,json/* clean */.uH)(out) ?? {});
}

// EXTERNAL MODULE: ./src/mask-email.ts
var mask_email = __webpack_require__(3038);
;// CONCATENATED MODULE: ./src/kinds/team-member-export.ts

const teamMemberExport = {
    list: 'teamMembers',
    writes: {
        to: { file: 'team-members' },
        tags: undefined,
        skips: undefined,
        writer: ctx => m => {
            const managed = ctx.registry.owns('TeamMember', m.email);
            if (m.currentUser && !managed)
                return {
                    documents: [],
                    carried: 0,
                    notes: [
                        "The API key's own user is not written: a stack never removes it, so it is not adopted either."
                    ]
                };
            const value = { kind: 'TeamMember', email: m.email };
            if (m.name && m.name.toLowerCase() !== m.email)
                value.name = m.name;
            const comments = m.userId ? [] : ['a pending invitation'];
            const other = ctx.registry.ownerOf('TeamMember', m.email);
            if (other)
                comments.push(`managed by another stack (${other}): a stack never takes one over, so the plan refuses this manifest until that stack lets go`);
            if (!managed)
                value.adopt = true;
            return { documents: [(0,exporting/* withComments */.f6)(value, comments)], carried: 0 };
        }
    }
};

;// CONCATENATED MODULE: ./src/kinds/team-member.ts
/**
 * Team members (self-hosted only: routers/external-api/v2/team.ts), the people who can read the team's data,
 * by email. A create is an invitation (POST /team/invitation); a manifest is satisfied by a member of that
 * email or by a pending invitation of it (GET /team/members, GET /team/invitations). Emails compare
 * lowercased: the server lowercases invitations and stores users' emails lowercased (controllers/user.ts).
 *
 * Ownership is the registry's (registry.ts), keyed by the email, not by an id: an invitation's id is not the
 * id of the user it becomes, and accepting deletes the invitation (routers/api/root.ts POST
 * /team/setup/:token), so an id would be forgotten exactly when the person joins. Prune removes the members
 * and invitations the registry lists, never the key's own user (`isCurrentUser`; the server answers 400
 * "You cannot remove yourself from the team"): the plan keeps that one and says why. A person the stack
 * does not manage is never touched; `adopt: true` takes one over, as for the other registry kinds.
 *
 * There is no route to change a member's or an invitation's name (and an accepted invitation's user is
 * named by its email), so `name` is sent with the invitation only and never compared.
 *
 * Emails are personal data: with `maskEmails` (the default) the plan names each person by the run's mask
 * (mask-email.ts: `j***e@example.com #3f2a`, keyed by the API credential), so the plan file, the comment, the
 * summary and the logs hold no email, and a reviewer still tells two people apart. The real email lives only in the
 * manifests, the requests and the registry dashboard on the server. For the same reason the kind has no saved
 * form (kind.ts SavedForm would write the emails into the plan file): `apply --plan` of a plan that invites or
 * removes someone plans again and compares the fingerprints (run/saved-plan.ts).
 */








const teamMemberKind = {
    kind: 'TeamMember',
    nouns: nouns/* NOUNS */.M.TeamMember,
    // Added after the first plan files: a plan without team members hashes as before.
    fingerprint: { specs: 'teamMembers', whenEmpty: false },
    referredBy: undefined,
    copies: undefined,
    seenOn: undefined,
    heldWhileUsed: undefined,
    unnamedUses: undefined,
    exports: teamMemberExport,
    live: {
        read: api => api.listTeam(),
        // Two more requests only for a stack with team members, or one whose registry lists some to prune.
        asked: async (options) => (await options.team) ?? true,
        neededBy: state => state.Dashboard.some(d => (0,registry/* registryLists */.dT)(d, 'TeamMember'))
    },
    desired(ctx) {
        const located = ctx.manifests.specs.TeamMember ?? [];
        const labels = labelsOf(ctx);
        return located.map(l => {
            const email = l.spec.email.toLowerCase();
            if (ctx.live.TeamMember === undefined)
                ctx.report((0,diagnostics/* diagnostic */.YK)('plan', 'error', `this API has no team routes (${ctx.settings.mode}; HyperDX 2.36 or later serves them): TeamMember manifests cannot be applied here`, { ...l.doc.locate(['kind']), field: 'kind' }));
            const name = labels.get(email);
            return new DesiredAt(name, `TeamMember/${name}`, { spec: l.spec, located: l, email }, l.doc, 'email');
        });
    },
    pair(desired, ctx) {
        const live = ctx.live.TeamMember ?? [];
        const labels = labelsOf(ctx);
        const labelled = (l) => ({ ...l, label: labels.get(l.email) });
        const byEmail = new Map(live.map(l => [l.email, l]));
        const used = new Set();
        const result = { pairs: [], orphans: [] };
        const planError = (d, field, message) => ctx.report((0,diagnostics/* diagnostic */.YK)('plan', 'error', message, { ...d.value.located.doc.locate([field]), field }));
        for (const d of desired) {
            const l = byEmail.get(d.value.email);
            if (!l) {
                result.pairs.push({ desired: d });
                continue;
            }
            used.add(l.email);
            const what = `${d.name} ${l.userId ? 'is a member of the team' : 'has a pending invitation'}`;
            const other = ctx.registry.ownerOf('TeamMember', l.email);
            if (ctx.registry.owns('TeamMember', l.email))
                result.pairs.push({ desired: d, live: labelled(l) });
            else if (other)
                planError(d, 'email', `${what}, managed by another stack (${other}); a stack never takes over another stack's team members: remove it from that stack's manifests first`);
            else if (d.value.spec.adopt)
                result.pairs.push({
                    desired: d,
                    live: labelled(l),
                    notes: [
                        `adopts ${l.userId ? 'the existing member' : 'the pending invitation'}: this stack manages it from now on (recorded in its registry dashboard "${(0,registry/* registryName */.jT)(ctx.settings.stack)}"), so prune may remove it`
                    ]
                });
            else
                planError(d, 'email', `${what}, which stack "${ctx.settings.stack}" does not manage. It is left alone: to manage it from this manifest, add \`adopt: true\` (prune may then remove it); otherwise remove this manifest`);
        }
        result.orphans = live
            .filter(l => !used.has(l.email) && ctx.registry.owns('TeamMember', l.email))
            .map(labelled);
        return result;
    },
    normalDesired: (d, ctx, live) => team_member_normal(d.name, ctx.settings.ownershipTag, live ? statusOf(live) : 'invited'),
    normalLive: (l, ctx) => team_member_normal(
    // pair() labelled every record the planner passes here (its pairs and orphans).
    l.label, registryOwner('TeamMember', l.email, ctx), statusOf(l)),
    // By its id and state, not its label: the label's tag depends on the run's credential (kind.ts).
    fingerprinted: ({ id, before }) => {
        const { email: _label, ...state } = (before ?? {});
        return ['TeamMember', id, state];
    },
    liveName: l => l.label ?? l.email,
    liveId: l => l.userId ?? l.invitationId,
    registryKey: l => l.email,
    refine(pc, ctx) {
        const { change, live } = pc;
        if (change.action === 'delete' && live?.currentUser) {
            // The server refuses it (v2/team.ts), and a stack that locked its own key out could not apply again.
            change.deferred = 'own-user';
            change.notes = [
                `not removed: it is the API key's own user (the server answers "You cannot remove yourself from the team"). It stays in the team and in this stack's registry; put its manifest back to manage it again`
            ];
            return;
        }
        // An adoption's note comes from pairing; the registry holds no write-only fingerprints of people.
        if (change.action !== 'update')
            registryNote(change, ctx);
        if (change.action === 'create')
            change.notes.push('invited: the person joins through the emailed link (the invitation expires after 30 days, and the next plan invites again)');
        if (change.action === 'delete' && live?.userId)
            change.notes.push("removed from the team: their alerts stay, now created by the API key's user (controllers/user.ts deleteTeamMember)");
        else if (change.action === 'delete')
            change.notes.push('their pending invitation is withdrawn');
    },
    operations(pc) {
        const { change, desired, live } = pc;
        if (change.action === 'noop' || change.deferred)
            return [];
        const lock = `TeamMember:${desired?.value.email ?? live?.email ?? change.name}`;
        const op = (label, run) => ({
            address: change.address,
            label,
            lock,
            provides: [],
            after: [],
            run
        });
        if (change.action === 'delete' && live) {
            return [
                op('remove', async (ctx) => {
                    const removed = [];
                    let absent = false;
                    if (live.userId) {
                        if ((await ctx.api.deleteTeamMember(live.userId)) === 'absent')
                            absent = true;
                        else
                            removed.push('member');
                    }
                    if (live.invitationId) {
                        if ((await ctx.api.deleteTeamInvitation(live.invitationId)) === 'absent')
                            absent = true;
                        else
                            removed.push('invitation');
                    }
                    // An invitation gone since the plan may have been accepted: the registry keeps the email, so the
                    // next plan removes the member it became (or forgets the email if it expired).
                    if (!absent)
                        await ctx.registry.forget('TeamMember', live.email);
                    return {
                        status: 'applied',
                        id: live.userId ?? live.invitationId,
                        message: absent
                            ? 'already gone (an invitation accepted or expired since the plan?): plan again to see'
                            : undefined
                    };
                })
            ];
        }
        if (!desired)
            return [];
        const email = desired.value.email;
        const entry = { name: desired.value.spec.name ?? email };
        if (live)
            return [
                op('adopt', async (ctx) => {
                    await ctx.registry.record('TeamMember', email, entry);
                    return { status: 'applied', id: live.userId ?? live.invitationId };
                })
            ];
        return [
            op('invite', async (ctx) => {
                const body = { email };
                if (desired.value.spec.name !== undefined)
                    body.name = desired.value.spec.name;
                let invitation;
                try {
                    invitation = await ctx.api.inviteTeamMember(body);
                }
                catch (e) {
                    if (e instanceof errors/* ApiError */.hD && e.status === 400 && /already exists/i.test(e.serverMessage ?? ''))
                        throw new Error(`${change.name} cannot be invited: the server says a user with this email already exists ("${e.serverMessage}"). A HyperDX user belongs to one team, and this one is not in the API key's team (the plan saw no member of this email): the user must be removed from their team first, or drop this manifest`, { cause: e });
                    throw e;
                }
                try {
                    await ctx.registry.record('TeamMember', email, entry);
                }
                catch (e) {
                    throw (0,registry/* unrecordedError */.IX)(`${change.name} was invited (invitation ${invitation.id})`, ctx.settings.stack, e);
                }
                return { status: 'applied', id: invitation.id };
            })
        ];
    },
    // As operations: the member's and the invitation's deletes, or an invitation; each recorded or forgotten.
    requests({ change, desired, live }) {
        if (change.action === 'noop' || change.deferred)
            return { requests: 0 };
        if (change.action === 'delete')
            return live
                ? { requests: (live.userId ? 1 : 0) + (live.invitationId ? 1 : 0), registry: 1 }
                : { requests: 0 };
        if (!desired)
            return { requests: 0 };
        return { requests: live ? 0 : 1, registry: 1 };
    }
};
/**
 * How the plan names each person: the manifests' emails and the ones this stack's registry lists (they may
 * be deleted: their labels must not collide either), masked unless `maskEmails` is false.
 */
function labelsOf(ctx) {
    const owned = (ctx.live.TeamMember ?? []).filter(l => ctx.registry.owns('TeamMember', l.email));
    return labelsFor([
        ...(ctx.manifests.specs.TeamMember ?? []).map(l => l.spec.email.toLowerCase()),
        ...owned.map(l => l.email)
    ], ctx.settings.maskEmails !== false);
}
/**
 * How the plan names each email: itself, or masked; masks two emails share (their tags too: once in 65,536
 * for two people of one first letter, last letter and domain) get `(2)`, `(3)`, ... in the emails' order, so
 * every address of the plan stays unique.
 */
function labelsFor(emails, mask) {
    const labels = new Map();
    const count = new Map();
    for (const email of [...new Set(emails)].sort()) {
        if (!mask) {
            labels.set(email, email);
            continue;
        }
        const masked = (0,mask_email/* maskEmail */.vA)(email);
        const n = (count.get(masked) ?? 0) + 1;
        count.set(masked, n);
        labels.set(email, n === 1 ? masked : `${masked} (${n})`);
    }
    return labels;
}
const statusOf = (l) => (l.userId ? 'member' : 'invited');
function team_member_normal(email, owner, status) {
    const out = { email };
    if (owner !== undefined)
        out.owner = owner;
    out.status = status;
    return out;
}

;// CONCATENATED MODULE: ./src/kinds/webhook-export.ts


const webhookExport = {
    list: 'webhooks',
    writes: {
        to: { file: 'webhooks' },
        tags: undefined,
        skips: undefined,
        writer: ctx => w => {
            if (!vocabulary/* WEBHOOK_SERVICES */.x1.includes(w.service ?? ''))
                return {
                    documents: [],
                    carried: 0,
                    notes: [
                        `webhook "${w.name}" (${w.id}) is a ${w.service} webhook, which the API cannot create or update: not exported`
                    ]
                };
            const comments = [];
            const secret = ctx.secrets.name(['WEBHOOK', w.name, 'URL']);
            comments.push(`url: a secret, never written here: set the secret variable ${secret} to this webhook's url (secret-vars; the CLI: OBSDEPLOY_SECRET_${secret})`);
            if (w.service !== 'slack')
                comments.push('headers and queryParams are write-only (the API never returns them): declare them with ${secret.NAME} values to manage them');
            if (w.service === 'incidentio')
                comments.push('an incident.io body is write-only too: add `body:` to manage it');
            const value = {
                kind: 'Webhook',
                name: w.name,
                ...(0,exporting/* twinPin */.OH)(ctx.namer, 'Webhook', w, comments),
                service: w.service,
                url: `\${secret.${secret}}`
            };
            if (w.description)
                value.description = w.description;
            if (w.service === 'generic' && w.body)
                value.body = w.body;
            if (!ctx.registry.owns('Webhook', w.id))
                value.adopt = true;
            return { documents: [(0,exporting/* withComments */.f6)(value, comments)], carried: 0 };
        }
    }
};

;// CONCATENATED MODULE: ./src/kinds/webhook.ts
/**
 * Webhooks, the alerts' destinations. The url is a secret the API returns: compared, shown only as
 * changed or unchanged. Headers and query parameters (and an incident.io `body`) are write-only: the plan
 * compares fingerprints of what the stack last sent (write-only.ts). PUT semantics (controllers/webhook.ts
 * updateWebhook): name, service, url always set; description and body cleared when omitted; headers and
 * query parameters kept when omitted, unless the url or service changes, which clears them, and `{}`
 * clears them. Owned through the registry (webhooks carry no tags).
 */





const WRITE_ONLY_MAPS = ['headers', 'queryParams'];
/** incident.io takes a body and never returns it; generic returns it (zod.ts externalWebhookSchema). */
const bodyIsWriteOnly = (service) => service === 'incidentio';
const webhookKind = {
    kind: 'Webhook',
    nouns: nouns/* NOUNS */.M.Webhook,
    fingerprint: { specs: 'webhooks', whenEmpty: true, names: { key: 'webhooks', at: 1 } },
    referredBy: [{ key: 'webhookId', as: 'webhook' }],
    copies: undefined,
    seenOn: undefined,
    // The server refuses to delete an alert's first channel (409), and deletes a later one, leaving the alert pointing
    // at nothing (docs/real-server.md).
    heldWhileUsed: { fields: ['webhookId'] },
    unnamedUses: undefined,
    exports: webhookExport,
    live: { read: api => api.listWebhooks() },
    desired: ctx => desiredRecords('Webhook', ctx.manifests.specs.Webhook, ctx.live.Webhook, ctx),
    // models/webhook.ts: a unique index on team, service and name.
    pair: registryPair('Webhook', ctx => ctx.live.Webhook, (spec, l) => spec.service === l.service
        ? `the server allows one webhook of a service and name in a team (it answers "A webhook with this service and name already exists"): give one of them another name or another service`
        : undefined),
    normalDesired(d, ctx, live) {
        const s = d.value.spec;
        const states = writeOnly(s, live ? ctx.registry.entry('Webhook', live.id) : undefined, ctx.settings.fingerprintKey);
        const shown = (st) => (st?.removed ? undefined : st?.desired);
        return webhook_normal({
            name: s.name,
            owner: ctx.settings.ownershipTag,
            service: s.service,
            url: secretMarkers(s.url, live?.url).desired,
            description: s.description,
            body: bodyIsWriteOnly(s.service) ? shown(states.body) : s.body,
            headers: shown(states.headers),
            queryParams: shown(states.queryParams)
        });
    },
    normalLive(l, ctx) {
        const entry = ctx.registry.entry('Webhook', l.id);
        return webhook_normal({
            name: l.name,
            owner: registryOwner('Webhook', l.id, ctx),
            service: l.service,
            url: secretMarkers(undefined, l.url).live,
            description: l.description,
            // The live side shows only whether a value was recorded: no key is needed for that.
            body: bodyIsWriteOnly(l.service) ? writeOnlyState('body', undefined, entry, undefined).live : l.body,
            headers: writeOnlyState('headers', undefined, entry, undefined).live,
            queryParams: writeOnlyState('queryParams', undefined, entry, undefined).live
        });
    },
    liveName: l => l.name,
    liveId: l => l.id,
    refine(pc, ctx) {
        const { change, desired, live } = pc;
        registryNote(change, ctx);
        if (!desired || !live || change.action !== 'update')
            return;
        const s = desired.value.spec;
        const entry = ctx.registry.entry('Webhook', live.id);
        if (destinationChanges(s, live)) {
            const unmanaged = WRITE_ONLY_MAPS.filter(f => s[f] === undefined && !entry?.writeOnly?.[f]);
            if (unmanaged.length > 0)
                change.notes.push(`its url or service changes, and the server then clears ${unmanaged.join(' and ')} the manifest does not set (any set outside it are lost)`);
        }
        if (bodyIsWriteOnly(s.service) &&
            s.body === undefined &&
            !entry?.writeOnly?.body &&
            changesMoreThanOwner(change))
            change.notes.push('an incident.io body is write-only: one set outside the manifest would be cleared by this update');
    },
    ...recordWrites(() => ({
        kind: 'Webhook',
        collection: 'webhooks',
        liveId: l => l.id,
        liveName: l => l.name,
        list: async (ctx) => (await ctx.api.listWebhooks()) ?? [],
        find: (all, body) => all.find(l => l.name === body.name && l.service === body.service),
        createBody: d => {
            const out = readable(d.spec);
            for (const f of WRITE_ONLY_MAPS)
                if (d.spec[f] !== undefined)
                    out[f] = d.spec[f];
            return out;
        },
        updateBody(d, live, change, octx) {
            if (!changesMoreThanOwner(change))
                return undefined;
            const s = d.spec;
            const out = readable(s);
            const states = writeOnly(s, octx.registry.entry('Webhook', live.id), octx.settings.fingerprintKey);
            const moved = destinationChanges(s, live);
            for (const f of WRITE_ONLY_MAPS) {
                const st = states[f];
                // Omitted, the server keeps them; a new destination clears them: send them again then.
                if (s[f] !== undefined && (st.changed || moved))
                    out[f] = s[f];
                else if (st.removed)
                    out[f] = {};
            }
            return out;
        },
        entryAfter(d, sent, live, octx) {
            const s = d.spec;
            const previous = live ? octx.registry.entry('Webhook', live.id) : undefined;
            const written = {};
            const cleared = [];
            for (const f of WRITE_ONLY_MAPS)
                if (sent && f in sent)
                    written[f] = sent[f];
            if (sent && live && destinationChanges(s, live))
                for (const f of WRITE_ONLY_MAPS)
                    if (!(f in sent))
                        cleared.push(f);
            if (sent && bodyIsWriteOnly(s.service)) {
                if (s.body !== undefined)
                    written.body = s.body;
                else
                    cleared.push('body');
            }
            else if (sent)
                cleared.push('body');
            // A registry entry is what owning means (registry.ts owns), so one of the same name is an owned webhook.
            if (previous?.name === s.name &&
                Object.keys(written).length === 0 &&
                cleared.every(f => !previous.writeOnly?.[f]))
                return undefined;
            return entryAfterWrite(s.name, previous, written, octx.settings.fingerprintKey, cleared);
        }
    }))
};
/** The fields a PUT replaces every time (an omitted description or body is cleared). */
function readable(s) {
    const out = { name: s.name, service: s.service, url: s.url };
    if (s.description !== undefined)
        out.description = s.description;
    if (s.body !== undefined)
        out.body = s.body;
    return out;
}
const destinationChanges = (s, live) => s.url !== (live.url ?? undefined) || s.service !== live.service;
function writeOnly(s, entry, key) {
    const out = {};
    for (const f of WRITE_ONLY_MAPS)
        out[f] = writeOnlyState(f, s[f], entry, key);
    if (bodyIsWriteOnly(s.service))
        out.body = writeOnlyState('body', s.body, entry, key);
    return out;
}
function webhook_normal(o) {
    return ((0,json/* clean */.uH)(o) ?? {});
}

;// CONCATENATED MODULE: ./src/kinds/index.ts
/**
 * The resource kinds, in the order they are planned and applied: later kinds refer to earlier ones
 * (Connection -> Source -> SavedSearch / Webhook -> Dashboard -> Alert), and deletes run in reverse.
 */









const KINDS = [
    connectionKind,
    sourceKind,
    savedSearchKind,
    webhookKind,
    dashboardKind,
    alertKind,
    serviceSettingsKind,
    // Refer to nothing and nothing refers to them.
    teamMemberKind,
    roleKind
];
/** Each kind by its name. */
const KINDS_BY_NAME = new Map(KINDS.map(k => [k.kind, k]));


/***/ }),

/***/ 3169:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   K: () => (/* binding */ listed),
/* harmony export */   M: () => (/* binding */ recordsOf)
/* harmony export */ });
/** A kind's live records; undefined where its list is absent (the kind need not be known here). */
const recordsOf = (live, kind) => live[kind];
/** A kind's live records: none where its list is absent. */
const listed = (live, kind) => live[kind] ?? [];


/***/ }),

/***/ 4614:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Sg: () => (/* binding */ managedAlertBody),
/* harmony export */   sI: () => (/* binding */ managedDashboardBody),
/* harmony export */   vU: () => (/* binding */ managedSourceBody)
/* harmony export */ });
/* unused harmony exports MANAGED_DASHBOARD_FIELDS, MANAGED_TILE_FIELDS, MANAGED_SERIES_FIELDS, MANAGED_ALERT_FIELDS, MANAGED_SOURCE_FIELDS */
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
const SOURCE_BASE = [
    'id',
    'name',
    'kind',
    'connection',
    'from',
    'section',
    'disabled',
    'querySettings',
    'timestampValueExpression'
];
const SEARCHABLE = [
    'defaultTableSelectExpression',
    'eventAttributesExpression',
    'resourceAttributesExpression',
    'serviceNameExpression',
    'implicitColumnExpression',
    'knownColumnsListExpression',
    'useTextIndexForImplicitColumn',
    'traceIdExpression',
    'spanIdExpression',
    'metricSourceId',
    'highlightedRowAttributeExpressions',
    'highlightedTraceAttributeExpressions',
    'materializedViews',
    'metadataMaterializedViews',
    'filterSettings'
];
/**
 * By source `kind`: the fields of the managed `ClickStack*Source` schemas (one `oneOf` by kind). A source update is
 * a full replace that sends back what the server returned beyond the manifest, and the gateway refuses a field its
 * schema lacks: managed mode sends only these.
 */
const MANAGED_SOURCE_FIELDS = {
    log: [
        ...SOURCE_BASE,
        ...SEARCHABLE,
        'bodyExpression',
        'displayedTimestampValueExpression',
        'severityTextExpression',
        'traceSourceId'
    ],
    trace: [
        ...SOURCE_BASE,
        ...SEARCHABLE,
        'durationExpression',
        'durationPrecision',
        'logSourceId',
        'parentSpanIdExpression',
        'sessionSourceId',
        'spanEventsValueExpression',
        'spanKindExpression',
        'spanNameExpression',
        'statusCodeExpression',
        'statusMessageExpression'
    ],
    metric: [...SOURCE_BASE, 'logSourceId', 'metricTables', 'resourceAttributesExpression'],
    session: [...SOURCE_BASE, 'traceSourceId'],
    promql: SOURCE_BASE
};
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
/** A source body with only what its kind's managed schema declares (a kind it does not know goes as it is). */
function managedSourceBody(body) {
    const fields = MANAGED_SOURCE_FIELDS[String(body.kind)];
    return fields ? only(body, fields) : body;
}


/***/ }),

/***/ 906:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   G: () => (/* binding */ wordFor),
/* harmony export */   M: () => (/* binding */ NOUNS)
/* harmony export */ });
const NOUNS = {
    Connection: ['connection', 'connections'],
    Source: ['data source', 'data sources'],
    SavedSearch: ['saved search', 'saved searches'],
    Webhook: ['webhook', 'webhooks'],
    Dashboard: ['dashboard', 'dashboards'],
    Alert: ['alert', 'alerts'],
    ServiceSettings: ['service setting', 'service settings'],
    TeamMember: ['team member', 'team members'],
    Role: ['role', 'roles']
};
/** A kind in words: `data source`, `saved searches`. */
const wordFor = (kind, plural = false) => NOUNS[kind][plural ? 1 : 0];


/***/ }),

/***/ 3961:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   N3: () => (/* binding */ References),
/* harmony export */   aC: () => (/* binding */ bindPlaceholders),
/* harmony export */   mi: () => (/* binding */ resourceReady),
/* harmony export */   o9: () => (/* binding */ placeholderTokens)
/* harmony export */ });
/* unused harmony export placeholder */
/* harmony import */ var _diagnostics_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(4851);
/* harmony import */ var _manifest_issues_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9597);
/* harmony import */ var _manifest_path_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(7578);
/* harmony import */ var _nouns_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(906);
/**
 * One mechanism for every reference a manifest makes to another resource by name: a connection, a data
 * source, a saved search, a webhook. At plan time a name resolves to the live id when the resource exists,
 * or, when the manifests declare a resource this run creates, to a placeholder `new:<Kind>/<name>` that
 * the apply binds from the result of the operation creating it (the way alerts get a new dashboard's tile
 * ids). Normal forms compare references by their label: the referenced resource's name when that name says
 * which resource it is, `<name> (new)` for one this run creates, `<name> (<id>)` otherwise, so a plan shows
 * names and a reference to a resource created in the same run plans and applies in one run.
 *
 * The planner registers, kind by kind, the live records, the names the manifests declare and how they were
 * paired; kinds only ask. An unknown or ambiguous name is a plan error at its manifest line, with a hint.
 */




const PLACEHOLDER = /^new:([A-Za-z]+)\/([\s\S]*)$/;
const placeholder = (kind, name) => `new:${kind}/${name}`;
/** The token a create or update provides once the resource exists; its result carries the id. */
const resourceReady = (kind, name) => `ready:${kind}/${name}`;
class References {
    report;
    kinds = new Map();
    reported = new Set();
    constructor(report) {
        this.report = report;
    }
    index(kind) {
        let index = this.kinds.get(kind);
        if (!index) {
            index = {
                declared: new Set(),
                pairedId: new Map(),
                pairedName: new Map(),
                managed: new Set(),
                deleted: new Set()
            };
            this.kinds.set(kind, index);
        }
        return index;
    }
    /** The live records of a kind, or why this API has none to list. */
    live(kind, records, unavailable) {
        const index = this.index(kind);
        index.live = records;
        index.unavailable = records === undefined ? unavailable : undefined;
    }
    /** The names the manifests declare for a kind. */
    declare(kind, names) {
        for (const name of names)
            this.index(kind).declared.add(name);
    }
    /** How a kind's manifests were paired with live records, and which live records the stack manages. */
    paired(kind, pairs, orphans) {
        const index = this.index(kind);
        for (const [name, id] of pairs) {
            index.pairedId.set(name, id);
            index.pairedName.set(id, name);
            index.managed.add(id);
        }
        for (const id of orphans)
            index.managed.add(id);
    }
    /** The live record is deleted by this run (with prune). */
    markDeleted(kind, id) {
        this.index(kind).deleted.add(id);
    }
    isManaged = (kind, id) => this.index(kind).managed.has(id);
    isDeleted = (kind, id) => this.index(kind).deleted.has(id);
    /** The live id a declared resource keeps (undefined when this run creates it). */
    liveIdOf = (kind, name) => this.index(kind).pairedId.get(name);
    /**
     * A reference, resolved: the live id or a placeholder, and its label. Problems are reported once per
     * place; the result then carries `error` and a label that never equals a live one.
     */
    resolve(ref) {
        const index = this.index(ref.kind);
        const fail = (message) => {
            this.problem(ref, message);
            const text = ref.name ?? ref.id ?? '';
            return { kind: ref.kind, value: `unresolved:${text}`, label: `unresolved:${text}`, error: true };
        };
        if (ref.id !== undefined) {
            if (index.live && !index.live.some(r => r.id === ref.id))
                return fail(`no ${(0,_nouns_js__WEBPACK_IMPORTED_MODULE_1__/* .wordFor */ .G)(ref.kind)} with id "${ref.id}"`);
            return { kind: ref.kind, value: ref.id, label: this.label(ref.kind, ref.id) };
        }
        const name = ref.name ?? '';
        if (index.declared.has(name)) {
            const id = index.pairedId.get(name);
            return id !== undefined
                ? { kind: ref.kind, value: id, label: name, declared: name }
                : { kind: ref.kind, value: placeholder(ref.kind, name), label: `${name} (new)`, declared: name };
        }
        if (!index.live) {
            return fail(`this API cannot list ${(0,_nouns_js__WEBPACK_IMPORTED_MODULE_1__/* .wordFor */ .G)(ref.kind, true)}${index.unavailable ? ` (${index.unavailable})` : ''}: name it by id instead`);
        }
        const matches = index.live.filter(r => r.name === name);
        if (matches.length === 1)
            return { kind: ref.kind, value: matches[0].id, label: name };
        if (matches.length > 1)
            return fail(`${(0,_nouns_js__WEBPACK_IMPORTED_MODULE_1__/* .wordFor */ .G)(ref.kind)} name "${name}" is ambiguous: ${matches.length} have it (ids ${matches.map(m => m.id).join(', ')}); use the id instead`);
        const candidates = [...new Set([...index.declared, ...index.live.map(r => r.name)])];
        const guess = (0,_manifest_issues_js__WEBPACK_IMPORTED_MODULE_0__/* .didYouMean */ .au)(name, candidates);
        const known = candidates.length > 0 && !guess
            ? `; known: ${candidates.slice(0, 10).join(', ')}${candidates.length > 10 ? ', ...' : ''}`
            : '';
        return fail(`no ${(0,_nouns_js__WEBPACK_IMPORTED_MODULE_1__/* .wordFor */ .G)(ref.kind)} named "${name}"${guess ? ` (did you mean "${guess}"?)` : known}`);
    }
    /**
     * How a live id reads in a normal form: the name the manifests know it by, `<name> (<id>)` when that
     * name would resolve to another resource, the id itself when no such resource exists.
     */
    label(kind, id) {
        const index = this.index(kind);
        const desired = index.pairedName.get(id);
        if (desired !== undefined)
            return desired;
        const record = index.live?.find(r => r.id === id);
        if (!record)
            return id;
        const unique = !index.declared.has(record.name) && index.live.filter(r => r.name === record.name).length === 1;
        return unique ? record.name : `${record.name} (${id})`;
    }
    /** The label of a value a request would carry: a live id, a placeholder, or an unresolved name. */
    labelOfValue(kind, value) {
        const m = PLACEHOLDER.exec(value);
        if (m)
            return `${m[2]} (new)`;
        // An unresolved value (`unresolved:name`) is no record's id, so it reads as written.
        return this.label(kind, value);
    }
    /** Names for ids and placeholders, for reports (the plan's `references`). */
    names(kind) {
        const index = this.index(kind);
        const out = {};
        for (const r of index.live ?? [])
            if (r.name !== '')
                out[r.id] = index.pairedName.get(r.id) ?? r.name;
        for (const name of index.declared)
            if (!index.pairedId.has(name))
                out[placeholder(kind, name)] = `${name} (new)`;
        return out;
    }
    problem(ref, message) {
        const key = ref.at
            ? `${ref.at.doc.file}\u0000${ref.at.doc.index}\u0000${(0,_manifest_path_js__WEBPACK_IMPORTED_MODULE_2__/* .formatPath */ .j)(ref.at.path)}`
            : message;
        if (this.reported.has(key))
            return;
        this.reported.add(key);
        const at = ref.at ? { ...ref.at.doc.locate(ref.at.path), field: (0,_manifest_path_js__WEBPACK_IMPORTED_MODULE_2__/* .formatPath */ .j)(ref.at.path) } : undefined;
        this.report((0,_diagnostics_js__WEBPACK_IMPORTED_MODULE_3__/* .diagnostic */ .YK)('plan', 'error', message, at));
    }
}
/** The tokens of the placeholders in a request body: the operations that create them come first. */
function placeholderTokens(body) {
    const tokens = new Set();
    visitStrings(body, s => {
        const m = PLACEHOLDER.exec(s);
        if (m)
            tokens.add(resourceReady(m[1], m[2]));
    });
    return [...tokens];
}
/**
 * The body with every placeholder replaced by the id its create produced (facts by token). A body without
 * placeholders (most: they name only what exists) is returned as it is, not copied.
 */
function bindPlaceholders(body, facts) {
    let found = false;
    visitStrings(body, s => {
        if (!found && PLACEHOLDER.test(s))
            found = true;
    });
    if (!found)
        return body;
    return walkStrings(body, s => {
        const m = PLACEHOLDER.exec(s);
        if (!m)
            return s;
        const id = facts.get(resourceReady(m[1], m[2]))?.id;
        if (id === undefined)
            throw new Error(`${m[1]} "${m[2]}" has no id yet (its create did not run)`);
        return id;
    });
}
/** Calls `f` with every string in `value` (keys aside), copying nothing. */
function visitStrings(value, f) {
    if (typeof value === 'string')
        f(value);
    else if (Array.isArray(value))
        for (const v of value)
            visitStrings(v, f);
    else if (value !== null && typeof value === 'object')
        for (const v of Object.values(value))
            visitStrings(v, f);
}
function walkStrings(value, f) {
    if (typeof value === 'string')
        return f(value);
    if (Array.isArray(value))
        return value.map(v => walkStrings(v, f));
    if (value !== null && typeof value === 'object') {
        const out = {};
        for (const [k, v] of Object.entries(value))
            out[k] = walkStrings(v, f);
        return out;
    }
    return value;
}


/***/ }),

/***/ 6340:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Ed: () => (/* binding */ REGISTRY_HOME),
/* harmony export */   IX: () => (/* binding */ unrecordedError),
/* harmony export */   JN: () => (/* binding */ registryNormalForm),
/* harmony export */   OR: () => (/* binding */ Registry),
/* harmony export */   SL: () => (/* binding */ registryWrites),
/* harmony export */   V8: () => (/* binding */ addedSince),
/* harmony export */   _X: () => (/* binding */ isRegistryDashboard),
/* harmony export */   _Y: () => (/* binding */ isRegistryKind),
/* harmony export */   bt: () => (/* binding */ RegistryWriter),
/* harmony export */   dT: () => (/* binding */ registryLists),
/* harmony export */   jT: () => (/* binding */ registryName),
/* harmony export */   kh: () => (/* binding */ extraRegistryWhy),
/* harmony export */   l5: () => (/* binding */ parseRegistry)
/* harmony export */ });
/* unused harmony exports REGISTRY_TAG, REGISTRY_KINDS, registryTiles */
/* harmony import */ var _managed_request_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(4614);
/* harmony import */ var _ownership_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(9586);


/** Marks a registry dashboard; not an ownership tag (those start with `obsdeploy:`). */
const REGISTRY_TAG = 'obsdeploy-registry';
/** Entries by live id; TeamMember's by lowercased email (kinds/team-member.ts says why). */
const REGISTRY_KINDS = ['Connection', 'Source', 'Webhook', 'TeamMember', 'Role'];
const isRegistryKind = (kind) => REGISTRY_KINDS.includes(kind);
const registryName = (stack) => `obsdeploy registry (stack ${stack})`;
/**
 * A resource just made that the stack does not own: recording it in the registry failed. `made` says what
 * was made ("webhook \"pager\" was created (id 1)"); the next apply adopts it once its manifest says so.
 */
function unrecordedError(made, stack, cause) {
    const why = cause instanceof Error ? cause.message : String(cause);
    return new Error(`${made} but could not be recorded in the registry dashboard "${registryName(stack)}", so this stack does not own it yet: ${why}. Add \`adopt: true\` to its manifest and apply again`, { cause });
}
/** The kind whose records hold the registry: a dashboard of the stack's (REGISTRY_TAG). */
const REGISTRY_HOME = 'Dashboard';
const isRegistryDashboard = (d) => d.tags.includes(REGISTRY_TAG);
/** Whether a registry dashboard (of any stack) lists records of a kind. */
function registryLists(d, kind) {
    if (!isRegistryDashboard(d))
        return false;
    const parsed = parseRegistry(d);
    return 'owned' in parsed && parsed.owned[kind] !== undefined;
}
const FENCE = '```';
/** A markdown tile holds at most 50,000 characters (zod.ts); entries are split across tiles below it. */
const TILE_BUDGET = 40_000;
/** What a stack's registry holds, as read at plan time. */
class Registry {
    stack;
    tag;
    dashboard;
    owned;
    problem;
    /** Ids in other stacks' registries, by `kind/id`: the ownership tag of that stack. */
    others = new Map();
    constructor(stack, tag, 
    /** The live registry dashboard, when the stack has one. */
    dashboard, owned, 
    /** Why it could not be read (then nothing of its kinds is pruned). */
    problem) {
        this.stack = stack;
        this.tag = tag;
        this.dashboard = dashboard;
        this.owned = owned;
        this.problem = problem;
    }
    static empty(stack, tag) {
        return new Registry(stack, tag, undefined, {});
    }
    /** The stack's registry and the ids other stacks' registries claim, from the live dashboards. */
    static read(dashboards, stack, tag) {
        // By id, in code-unit order (not the locale's): every run, whatever its machine, keeps the same one.
        const mine = dashboards
            .filter(d => isRegistryDashboard(d) && d.tags.includes(tag))
            .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        let owned = {};
        const problems = [];
        for (const d of mine) {
            const parsed = parseRegistry(d);
            if ('problem' in parsed)
                problems.push(`the registry dashboard "${d.name}" (${d.id}) cannot be read (${parsed.problem})`);
            else
                owned = merge(owned, parsed.owned);
        }
        const registry = new Registry(stack, tag, mine[0], owned, problems.length > 0
            ? `${problems.join('; ')}: restore its tiles as obsdeploy wrote them. Until then no connection, source, webhook, team member or role is deleted`
            : undefined);
        // Extras only when all can be read (an unreadable one is a plan error: nothing is merged or deleted), and never
        // one that carries another stack's ownership tag too: that one is not this stack's alone to delete.
        if (problems.length === 0)
            registry.extras = mine.slice(1).filter(d => !d.tags.some(t => (0,_ownership_js__WEBPACK_IMPORTED_MODULE_1__/* .isOwnershipTag */ .GN)(t) && t !== tag));
        for (const d of dashboards) {
            if (!isRegistryDashboard(d) || d.tags.includes(tag))
                continue;
            const other = d.tags.find(_ownership_js__WEBPACK_IMPORTED_MODULE_1__/* .isOwnershipTag */ .GN);
            const parsed = parseRegistry(d);
            if (!other || 'problem' in parsed)
                continue;
            for (const [kind, entries] of Object.entries(parsed.owned))
                for (const id of Object.keys(entries ?? {}))
                    registry.others.set(`${kind}/${id}`, other);
        }
        return registry;
    }
    /**
     * The stack's registry dashboards beside the kept one (`dashboard`, the lowest id), left by applies that ran at
     * the same time: the plan deletes them (with prune) once the kept one holds their entries.
     */
    extras = [];
    owns = (kind, id) => this.owned[kind]?.[id] !== undefined;
    entry = (kind, id) => this.owned[kind]?.[id];
    /** The ownership tag of another stack whose registry lists it. */
    ownerOf = (kind, id) => this.others.get(`${kind}/${id}`);
    /** Drops ids that no longer exist (deleted outside this tool), for kinds whose records were listed. */
    keepOnly(kind, liveIds) {
        const entries = this.owned[kind];
        if (!entries)
            return;
        for (const id of Object.keys(entries))
            if (!liveIds.has(id))
                delete entries[id];
    }
    /** A copy of what it holds, for the writer. */
    snapshot() {
        return structuredClone(this.owned);
    }
}
/** What a registry dashboard's tiles hold, or why they cannot be read. */
function parseRegistry(d) {
    const owned = {};
    let found = false;
    for (const tile of d.tiles) {
        const markdown = tile.config?.markdown;
        if (typeof markdown !== 'string')
            continue;
        const start = markdown.indexOf(`${FENCE}json\n`);
        const end = markdown.lastIndexOf(`\n${FENCE}`);
        if (start < 0 || end <= start)
            continue;
        try {
            const value = JSON.parse(markdown.slice(start + FENCE.length + 5, end));
            if (value.obsdeployRegistry !== 1 || typeof value.owned !== 'object' || value.owned === null)
                return { problem: `tile "${tile.name}" is not a registry part of version 1` };
            for (const kind of REGISTRY_KINDS) {
                const entries = value.owned[kind];
                if (entries === undefined)
                    continue;
                if (typeof entries !== 'object' || entries === null)
                    return { problem: `tile "${tile.name}": ${kind} is not a mapping` };
                for (const [id, entry] of Object.entries(entries)) {
                    if (typeof entry?.name !== 'string')
                        return { problem: `tile "${tile.name}": ${kind} ${id} has no name` };
                    (owned[kind] ??= {})[id] = entry;
                }
            }
            found = true;
        }
        catch (e) {
            return {
                problem: `tile "${tile.name}" holds no valid JSON: ${e instanceof Error ? e.message : String(e)}`
            };
        }
    }
    return found ? { owned } : { problem: 'it has no registry tile' };
}
function merge(a, b) {
    const out = structuredClone(a);
    for (const kind of REGISTRY_KINDS)
        if (b[kind])
            out[kind] = { ...out[kind], ...b[kind] };
    return out;
}
/**
 * An extra registry dashboard as the plan shows its delete: how many entries of each kind it holds, not the entries
 * (a team member's is an email, which a plan never shows: `mask-emails`).
 */
function registryNormalForm(d, tag) {
    const parsed = parseRegistry(d);
    const entries = {};
    if ('owned' in parsed)
        for (const kind of REGISTRY_KINDS) {
            const n = Object.keys(parsed.owned[kind] ?? {}).length;
            if (n > 0)
                entries[kind] = n;
        }
    return { name: d.name, owner: tag, entries };
}
/** Why the plan deletes an extra registry dashboard, and what the apply does first. */
function extraRegistryWhy(kept) {
    return `an extra registry dashboard of this stack, left by two applies that each created one at the same time: its entries are written into the one the stack keeps (id ${kept.id}, the lowest id) before it is deleted`;
}
/** The registry's tiles: the explanation, then the entries as JSON, split to fit a markdown tile. */
function registryTiles(stack, owned) {
    const lines = [];
    for (const kind of REGISTRY_KINDS)
        for (const [id, entry] of Object.entries(owned[kind] ?? {}).sort(([a], [b]) => a.localeCompare(b)))
            lines.push([kind, id, entry]);
    const parts = [{}];
    let size = 0;
    for (const [kind, id, entry] of lines) {
        const cost = JSON.stringify(entry).length + id.length + 8;
        if (size + cost > TILE_BUDGET && size > 0) {
            parts.push({});
            size = 0;
        }
        ;
        (parts[parts.length - 1][kind] ??= {})[id] = entry;
        size += cost;
    }
    return parts.map((part, i) => ({
        name: parts.length === 1 ? 'obsdeploy registry' : `obsdeploy registry (part ${i + 1} of ${parts.length})`,
        x: 0,
        y: i * 8,
        w: 24,
        h: 8,
        config: { displayType: 'markdown', markdown: registryMarkdown(stack, part, i === 0) }
    }));
}
function registryMarkdown(stack, owned, first) {
    const intro = first
        ? [
            `## Managed by obsdeploy: do not edit or delete`,
            '',
            `This dashboard records which connections, data sources, webhooks, team members (by email) and ClickStack roles the obsdeploy stack \`${stack}\` created or adopted, and fingerprints (never the values) of the write-only settings it sent them. They carry no tags, so this is how the stack knows what it may update and prune.`,
            '',
            'Editing it by hand makes the next plan fail; deleting it makes the stack forget what it owns (it then deletes none of them, and a manifest of the same name asks for `adopt: true`).',
            ''
        ]
        : ['Continued registry of obsdeploy (do not edit).', ''];
    // One entry per line: a human can read it, and a diff of two versions shows what changed.
    const body = REGISTRY_KINDS.filter(k => owned[k] !== undefined).map(kind => {
        const entries = Object.entries(owned[kind]).map(([id, e]) => `    ${JSON.stringify(id)}: ${JSON.stringify(e)}`);
        return `  ${JSON.stringify(kind)}: {\n${entries.join(',\n')}\n  }`;
    });
    const json = `{\n "obsdeployRegistry": 1,\n "owned": {\n${body.join(',\n')}\n }\n}`;
    return [...intro, `${FENCE}json`, json, FENCE].join('\n');
}
// ---------------------------------------------------------------------------------------------------
// Writing it during an apply.
/**
 * How many writes of the registry dashboard an apply that records or forgets `entries` sends at `concurrency`, once
 * the rate limit paces it. Entries that arrive while a write waits go out with the next one; the change that waits
 * for its entry holds its slot, so of `concurrency` changes one waits alone for the write under way and the others
 * share the next: two writes per `concurrency` entries (an apply of 400 invitations wrote the registry 200 times at
 * concurrency 4, 100 times at 8, 400 at 1 and 2, on the emulator). Unpaced, the writes are a little more frequent.
 */
function registryWrites(entries, concurrency) {
    return Math.min(entries, Math.ceil((2 * entries) / Math.max(1, concurrency)));
}
/**
 * Records and forgets ids in the stack's registry dashboard (the kept one, when the plan found several). Changes
 * that arrive while a write is under way go out together in the next one; each caller learns whether its change
 * was written.
 */
class RegistryWriter {
    api;
    mode;
    owned;
    dashboardId;
    queue = [];
    running = false;
    /** `kind/id` of what this run forgot (deleted): an extra registry's copy of them is not taken back. */
    forgotten = new Set();
    /**
     * How this run came to write a registry dashboard it did not read at plan time: `created` it, or created it
     * with a `lost` response (then used the one a re-read found). Another apply may have done the same meanwhile.
     */
    made;
    constructor(registry, api, mode) {
        this.api = api;
        this.mode = mode;
        this.owned = registry.snapshot();
        this.dashboardId = registry.dashboard?.id;
        this.stack = registry.stack;
        this.tag = registry.tag;
    }
    stack;
    tag;
    record(kind, id, entry) {
        return this.change(o => {
            ;
            (o[kind] ??= {})[id] = entry;
        });
    }
    forget(kind, id) {
        this.forgotten.add(`${kind}/${id}`);
        return this.change(o => {
            delete o[kind]?.[id];
        });
    }
    /**
     * Takes in entries found in another registry dashboard of the stack (an extra one, read again just before it is
     * deleted), and writes the registry with them, even when none is new: once this resolves, the registry dashboard
     * holds every entry this run knows. What this run already holds wins (it is as recent), and what it forgot stays
     * forgotten.
     */
    absorb(owned) {
        return this.change(o => this.takeIn(o, owned));
    }
    takeIn(into, from) {
        for (const kind of REGISTRY_KINDS)
            for (const [id, entry] of Object.entries(from[kind] ?? {}))
                if (into[kind]?.[id] === undefined && !this.forgotten.has(`${kind}/${id}`))
                    (into[kind] ??= {})[id] = entry;
    }
    change(change) {
        return new Promise((resolve, reject) => {
            this.queue.push({ change, resolve, reject });
            void this.pump();
        });
    }
    async pump() {
        if (this.running)
            return;
        this.running = true;
        try {
            while (this.queue.length > 0) {
                const batch = this.queue.splice(0);
                const next = structuredClone(this.owned);
                for (const b of batch)
                    b.change(next);
                try {
                    await this.write(next);
                    this.owned = next;
                    for (const b of batch)
                        b.resolve();
                }
                catch (e) {
                    for (const b of batch)
                        b.reject(e);
                }
            }
        }
        finally {
            this.running = false;
        }
    }
    body(owned) {
        const raw = {
            name: registryName(this.stack),
            tags: [this.tag, REGISTRY_TAG],
            tiles: registryTiles(this.stack, owned)
        };
        return this.mode === 'managed' ? (0,_managed_request_js__WEBPACK_IMPORTED_MODULE_0__/* .managedDashboardBody */ .sI)(raw) : raw;
    }
    async write(owned) {
        if (!this.api)
            throw new Error('no API to write the registry with');
        if (this.dashboardId) {
            await this.api.updateDashboard(this.dashboardId, this.body(owned));
            return;
        }
        // Not retried blindly: after a lost response, look for it before creating another.
        this.made = 'created';
        try {
            this.dashboardId = (await this.api.createDashboard(this.body(owned))).id;
        }
        catch (e) {
            // The lowest id, as a plan keeps; it may be another apply's, so what it holds is kept too (an unreadable
            // one is never overwritten).
            const found = (await this.api.listDashboards())
                .filter(d => isRegistryDashboard(d) && d.tags.includes(this.tag))
                .sort((a, b) => (a.id < b.id ? -1 : 1))[0];
            const parsed = found && parseRegistry(found);
            if (!found || !parsed || 'problem' in parsed)
                throw e;
            this.made = 'lost';
            this.takeIn(owned, parsed.owned);
            this.dashboardId = found.id;
            await this.api.updateDashboard(found.id, this.body(owned));
        }
    }
}
/** The entries of `now` whose ids `before` did not list: what was recorded in a registry since it was read. */
function addedSince(now, before) {
    const out = {};
    for (const kind of REGISTRY_KINDS)
        for (const [id, entry] of Object.entries(now[kind] ?? {}))
            if (before[kind]?.[id] === undefined)
                (out[kind] ??= {})[id] = entry;
    return out;
}


/***/ }),

/***/ 8448:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   $w: () => (/* binding */ UNKNOWN_CONFIG_FIELD),
/* harmony export */   HA: () => (/* binding */ ALERT_FIELDS),
/* harmony export */   MN: () => (/* binding */ TILE_CONFIG_FIELDS),
/* harmony export */   Rq: () => (/* binding */ DASHBOARD_FIELDS),
/* harmony export */   VJ: () => (/* binding */ SELECT_ITEM_FIELDS),
/* harmony export */   e6: () => (/* binding */ keptSettingsNotice),
/* harmony export */   i: () => (/* binding */ carriedFields)
/* harmony export */ });
/* unused harmony exports TILE_FIELDS, ROLE_FIELDS, ROLE_PERMISSION_FIELDS, SERVICE_FIELDS */
/* harmony import */ var _diagnostics_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(4851);
/**
 * Every field the servers return on the records this tool writes, and what a plan does with it. This is
 * how "nothing changes on the server that the plan does not show" holds field by field:
 * - `compared`: in the normal form; a difference is a planned change.
 * - `carried`: the manifest language has no word for it (a tile config key no table lists, from a server
 *   newer than ours), so an update sends it back exactly as read. Where the update changes a field it
 *   depends on (`keptWhileSame`), it is not sent back, and the plan shows it going away.
 * - `identity`: the record's or the tile's id, sent back as read (in the path, or a tile's `id`).
 * - `untouched`: computed by the server, or left out of a partial PATCH: no request of ours changes it.
 * The real GET response schemas (test/fixtures/openapi), and the fields HyperDX's converters return, are
 * checked against these tables by test/unit/returned-fields.test.ts: a returned field cannot be forgotten.
 */

const compared = { treatment: 'compared' };
const identity = { treatment: 'identity' };
const untouched = { treatment: 'untouched' };
/** A tile setting that belongs to its display type (and, for formulas, to its select items). */
const carriedOnSameTile = (...more) => ({
    treatment: 'carried',
    keptWhileSame: ['displayType', ...more]
});
/** HyperDX `convertToExternalDashboard`; the managed `ClickStackDashboardResponse`. */
const DASHBOARD_FIELDS = {
    id: identity,
    name: compared,
    tiles: compared,
    tags: compared,
    filters: compared,
    savedQuery: compared,
    savedQueryLanguage: compared,
    savedFilterValues: compared,
    containers: compared
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
    containerId: compared,
    tabId: compared
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
    configType: compared,
    connectionId: compared,
    sqlTemplate: compared,
    formulas: compared,
    showOperandSeries: compared,
    onClick: compared,
    color: compared,
    colorRules: compared,
    backgroundChart: compared
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
    // The published managed request schema has no `channels`; sent where the cloud's reads return it (alert.ts).
    channels: compared,
    dashboardId: compared,
    tileId: compared,
    savedSearchId: compared,
    groupBy: compared,
    scheduleOffsetMinutes: compared,
    scheduleStartAt: compared,
    // HyperDX after 2.36 (pull requests 3063/3065): compared where the manifest sets them, else kept (alert-kept.ts).
    displayName: compared,
    tags: compared,
    state: untouched,
    silenced: untouched,
    executionErrors: untouched,
    teamId: untouched,
    createdAt: untouched,
    updatedAt: untouched
};
/**
 * The managed `ClickStackRole`. Name, description and permissions are compared (the rules as a set, the server's
 * own `read Connection` rule left out: role-permissions.ts) and an update sends them all; `isPredefined` decides
 * whether a role is planned at all; the timestamps are the server's.
 */
const ROLE_FIELDS = {
    id: identity,
    name: compared,
    description: compared,
    permissions: compared,
    isPredefined: untouched,
    createdAt: untouched,
    updatedAt: untouched
};
/** The managed `ClickStackCASLPermission` (and HyperDX's `fields`, which the cloud's schema does not declare). */
const ROLE_PERMISSION_FIELDS = {
    action: compared,
    subject: compared,
    inverted: compared,
    integration: compared,
    conditions: compared,
    fields: compared
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
/* harmony import */ var _manifest_metric_item_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(7057);
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
    // alignDateRangeToGranularity, fitYAxisToData and compareToPreviousPeriod are returned only when set
    // (udash convertToExternalTileChartConfig): an explicit value is a value, not a default.
    asRatio: false,
    fillNulls: true,
    showOperandSeries: true,
    groupByColumnsOnLeft: false,
    where: '',
    whereLanguage: 'lucene'
};
/** The defaults the server itself returns when a config does not set them (udash convertToExternalTileChartConfig). */
const RETURNED_DEFAULTS = {
    asRatio: false,
    fillNulls: true,
    where: '',
    whereLanguage: 'lucene'
};
const SELECT_DEFAULTS = { where: '', whereLanguage: 'lucene' };
const KNOWN_SELECT_KEYS = new Set(Object.keys(_returned_fields_js__WEBPACK_IMPORTED_MODULE_0__/* .SELECT_ITEM_FIELDS */ .VJ));
/**
 * Every config key is part of the normal form: the ones the manifest models, and the ones an update sends
 * back as read (returned-fields.ts), which then compare equal. A key the update cannot keep so shows as
 * a change. Defaults are dropped, so "unset" and "set to the default" compare equal.
 *
 * `exact` (export) keeps what the server stores as it stores it: texts as written, a number format where it
 * is, and only the defaults the server returns by itself left out, so a manifest written from it changes nothing.
 */
function normalizeConfig(config, exact = false) {
    const displayType = String(config.displayType ?? 'line');
    const defaults = exact ? RETURNED_DEFAULTS : CONFIG_DEFAULTS;
    const out = {};
    for (const key of (0,_json_js__WEBPACK_IMPORTED_MODULE_1__/* .sortedKeys */ .Mf)(config)) {
        // A number tile shows one value: a grouping has no effect there, and servers differ on keeping it.
        if (key === 'groupBy' && displayType === 'number')
            continue;
        let value = config[key];
        if (key === 'sourceId' && typeof value === 'number')
            value = String(value); // ids compare as text
        else if (key === 'select')
            value = normalizeSelect(value, displayType, exact);
        else if (key === 'groupBy' && !exact)
            value = normalizeGroupBy(value);
        else if (key === 'markdown' && typeof value === 'string' && !exact)
            value = value.replace(/\s+$/, '');
        // Exactly as stored: an empty text or list inside a setting is a value too (the select items excepted).
        const v = exact && key !== 'select' ? verbatim(value) : (0,_json_js__WEBPACK_IMPORTED_MODULE_1__/* .clean */ .uH)(value);
        if (v === undefined)
            continue;
        if (key in defaults && (0,_json_js__WEBPACK_IMPORTED_MODULE_1__/* .equal */ .LC)(v, defaults[key]))
            continue;
        out[key] = v;
    }
    // A series' number format may come back on the tile or on its select item: compare it on the tile.
    if (!exact && out.numberFormat === undefined && Array.isArray(out.select)) {
        const formats = out.select.map(s => s.numberFormat).filter(f => f !== undefined);
        if (formats.length > 0 && formats.every(f => (0,_json_js__WEBPACK_IMPORTED_MODULE_1__/* .equal */ .LC)(f, formats[0]))) {
            out.numberFormat = formats[0];
            out.select = out.select.map(s => {
                const { numberFormat: _moved, ...rest } = s;
                return rest;
            });
        }
    }
    // asRatio survives only on a line, stacked_bar or table tile with exactly two series (FACTS.md). Its
    // default (false) is already gone, so here it is true or absent.
    if (!(RATIO_TYPES.includes(displayType) && Array.isArray(out.select) && out.select.length === 2))
        delete out.asRatio;
    return out;
}
function normalizeSelect(value, displayType, exact) {
    // An event-pattern tile's select is one expression, kept as written.
    if (displayType === 'event_patterns' || (exact && typeof value === 'string'))
        return (0,_json_js__WEBPACK_IMPORTED_MODULE_1__/* .clean */ .uH)(value);
    if (displayType === 'search' || typeof value === 'string') {
        const fields = Array.isArray(value) ? value.map(String) : String(value ?? '').split(',');
        // An empty list joins to '', which normalizeConfig's clean() drops like any empty text.
        return fields
            .map(f => f.trim())
            .filter(Boolean)
            .join(', ');
    }
    if (!Array.isArray(value))
        return (0,_json_js__WEBPACK_IMPORTED_MODULE_1__/* .clean */ .uH)(value);
    return value.map(item => {
        const out = {};
        const record = (item ?? {});
        // A metric item's value expression: none ('' as stored) and the placeholder a write sends are the same
        // (metric-item.ts). Kept in the exact form: an export writes what the server stores.
        const metric = !exact && (0,_manifest_metric_item_js__WEBPACK_IMPORTED_MODULE_2__/* .isMetricItem */ .o)(record);
        for (const key of (0,_json_js__WEBPACK_IMPORTED_MODULE_1__/* .sortedKeys */ .Mf)(record)) {
            // count takes no value expression (FACTS.md): a stray one is not part of the tile.
            if (key === 'valueExpression' && record.aggFn === 'count')
                continue;
            // Clean in the exact form too: normalizeConfig cleans the whole select after this.
            const v = (0,_json_js__WEBPACK_IMPORTED_MODULE_1__/* .clean */ .uH)(record[key]);
            if (v === undefined || !KNOWN_SELECT_KEYS.has(key))
                continue;
            if (key in SELECT_DEFAULTS && (0,_json_js__WEBPACK_IMPORTED_MODULE_1__/* .equal */ .LC)(v, SELECT_DEFAULTS[key]))
                continue;
            if (metric && key === 'valueExpression' && v === _manifest_metric_item_js__WEBPACK_IMPORTED_MODULE_2__/* .METRIC_VALUE_EXPRESSION */ .K)
                continue;
            out[key] = v;
        }
        return out;
    });
}
/** A value as stored, without what JSON cannot hold; absent when null or empty text. */
function verbatim(value) {
    if (value === null || value === undefined || value === '')
        return undefined;
    return JSON.parse(JSON.stringify(value));
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
function normalTile(tile, exact = false) {
    // CONTRACT.md puts asRatio on the tile itself: a server may return it there next to a config.
    const config = tile.config && tile.asRatio === true && tile.config.asRatio === undefined
        ? { ...tile.config, asRatio: true }
        : tile.config;
    const raw = config ?? (tile.series ? seriesToConfig(tile.series, tile.asRatio ?? undefined) : { displayType: 'line' });
    return { name: tile.name, x: tile.x, y: tile.y, w: tile.w, h: tile.h, config: normalizeConfig(raw, exact) };
}


/***/ }),

/***/ 3660:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   e: () => (/* binding */ readLiveState)
/* harmony export */ });
/* harmony import */ var _kinds_dashboard_preview_copy_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8620);
/* harmony import */ var _kinds_index_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(3617);


async function readLiveState(client, options, kinds = _kinds_index_js__WEBPACK_IMPORTED_MODULE_1__/* .KINDS */ .G) {
    // Dashboards first: in managed mode their list settles the path prefix, and its error says the most.
    const readers = kinds
        .flatMap(k => (k.live ? [{ kind: k.kind, ...k.live }] : []))
        .sort((a, b) => Number(b.first ?? false) - Number(a.first ?? false));
    // The reads are only useful together: the first failure cancels the others, in flight too, so a
    // wrong server fails the run once, at once, instead of retrying its siblings for a minute.
    const siblings = new AbortController();
    const outside = options.signal;
    if (outside?.aborted)
        siblings.abort(outside.reason);
    else
        outside?.addEventListener('abort', () => siblings.abort(outside.reason), { once: true });
    const api = client.withSignal(siblings.signal);
    // Failures that came before the cancel: the cancelled siblings' own errors say nothing.
    const own = new Set();
    // A question, not a list: its answer is false on any failure, so it never fails the read. Asked or not is part
    // of the state (and of a saved plan's digest of it): absent when not asked.
    const patch = Promise.resolve(options.dashboardPatch ?? false).then(ask => (ask ? api.canPatchDashboards() : undefined), () => undefined);
    const skipped = new Set();
    const settled = await Promise.allSettled(readers
        .map(async (r) => {
        if (r.asked && !(await r.asked(options))) {
            skipped.add(r);
            return undefined;
        }
        return r.read(api, options);
    })
        .map(read => read.catch((e) => {
        if (!siblings.signal.aborted) {
            own.add(e);
            siblings.abort('another read of the live state failed');
        }
        throw e;
    })));
    // Of the failures, the first in the readers' order is reported; a read ended from outside (the run
    // stopped) fails with its cancellation, never as a state with lists missing.
    const failed = settled.find(s => s.status === 'rejected' && (own.has(s.reason) || outside?.aborted === true));
    if (failed)
        throw failed.reason;
    const values = settled.map(s => s.value);
    // Filled kind by kind: the kinds every deployment lists have readers that always answer with a list.
    const lists = {};
    readers.forEach((r, i) => {
        if (values[i] !== undefined)
            lists[r.kind] = values[i];
    });
    const state = lists;
    // Here, at the one place every stage's dashboards come from, so no stage can take a preview copy for a dashboard of
    // the stack's (adopt, pair, prune, export, drift, the policies' view of other stacks).
    (0,_kinds_dashboard_preview_copy_js__WEBPACK_IMPORTED_MODULE_0__/* .setPreviewCopiesAside */ .qK)(state);
    // A kind read only when asked, that the others' records show is needed after all (a registry lists some).
    for (const r of skipped)
        if (r.neededBy?.(state))
            lists[r.kind] = await r.read(api, options);
    const canPatch = await patch;
    if (canPatch !== undefined)
        state.dashboardPatch = canPatch;
    return state;
}


/***/ }),

/***/ 8256:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Co: () => (/* binding */ qualifiedKey),
/* harmony export */   ID: () => (/* binding */ joinKey),
/* harmony export */   In: () => (/* binding */ diffValues),
/* harmony export */   Pu: () => (/* binding */ keyText),
/* harmony export */   n: () => (/* binding */ keyedField),
/* harmony export */   w8: () => (/* binding */ keyLabel)
/* harmony export */ });
/* harmony import */ var _json_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8301);
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
    if ((0,_json_js__WEBPACK_IMPORTED_MODULE_0__/* .equal */ .LC)(before, after))
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
    return `${path}[${keyLabel(key)}]`;
}
/**
 * Keyed records of one name are told apart by a short id (tiles of one name: kinds/dashboard/tiles.ts). The
 * key holds both, split by a character no name shown to a reviewer holds; paths write it `["name" #id]`.
 */
const ID_MARK = '\u0000';
const qualifiedKey = (name, shortId) => `${name}${ID_MARK}${shortId}`;
/** A key as a path writes it: `"name"`, or `"name" #id` for a qualified key. */
function keyLabel(key) {
    const at = key.indexOf(ID_MARK);
    return at < 0 ? JSON.stringify(key) : `${JSON.stringify(key.slice(0, at))} #${key.slice(at + 1)}`;
}
/** A key in a sentence's quotes: the name, or `name #id`. */
const keyText = (key) => key.replace(ID_MARK, ' #');
/**
 * The inverse of joinKey with brackets, for a keyed field at the top: `tiles["Errors"].x` read at `tiles` is
 * `{ key: 'Errors', rest: '.x' }`; undefined for a path outside that field.
 */
function keyedField(path, field) {
    if (!path.startsWith(`${field}["`))
        return undefined;
    const m = /^\[("(?:[^"\\]|\\.)*")(?: #([^\]]+))?\](.*)$/s.exec(path.slice(field.length));
    if (!m)
        return undefined;
    try {
        const name = JSON.parse(m[1]);
        return { key: m[2] === undefined ? name : qualifiedKey(name, m[2]), rest: m[3] };
    }
    catch {
        return undefined;
    }
}
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);


/***/ })

};
