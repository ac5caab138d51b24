export const id = 133;
export const ids = [133];
export const modules = {

/***/ 2133:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  exportCommand: () => (/* binding */ exportCommand)
});

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
var external_node_path_default = /*#__PURE__*/__webpack_require__.n(external_node_path_);
// EXTERNAL MODULE: ./node_modules/picomatch/index.js
var picomatch = __webpack_require__(4006);
var picomatch_default = /*#__PURE__*/__webpack_require__.n(picomatch);
// EXTERNAL MODULE: ./src/api/client.ts + 5 modules
var client = __webpack_require__(1721);
// EXTERNAL MODULE: ./src/kinds/ownership.ts
var ownership = __webpack_require__(9586);
// EXTERNAL MODULE: ./src/live/read.ts
var read = __webpack_require__(3660);
// EXTERNAL MODULE: ./src/error-message.ts
var error_message = __webpack_require__(6587);
// EXTERNAL MODULE: ./node_modules/yaml/dist/index.js
var dist = __webpack_require__(8815);
// EXTERNAL MODULE: ./src/api/schemas.ts
var schemas = __webpack_require__(8164);
// EXTERNAL MODULE: ./src/json.ts
var json = __webpack_require__(8301);
// EXTERNAL MODULE: ./src/kinds/returned-fields.ts
var returned_fields = __webpack_require__(8448);
// EXTERNAL MODULE: ./src/kinds/tile-normal-form.ts
var tile_normal_form = __webpack_require__(6134);
;// CONCATENATED MODULE: ./src/export/manifests.ts
/**
 * Live dashboards and alerts -> manifest files a human would write: names instead of ids, every server
 * default left out, the short `series` form where it says exactly the same as the tile's config, and a
 * comment wherever an id could not be mapped to a name. Pure: the command does the I/O.
 */






function exportManifests(input) {
    const usedFiles = new Set();
    const seenNames = new Map();
    return input.dashboards.map(d => {
        const notes = [];
        const duplicateOf = seenNames.get(d.name);
        if (duplicateOf)
            notes.push(`another dashboard (${duplicateOf}) has this name too: rename one of them before planning`);
        else
            seenNames.set(d.name, d.id);
        const docs = [dashboardDocument(d, input, notes)];
        const alerts = input.alerts
            .filter(a => a.dashboardId === d.id)
            .sort((a, b) => (a.name ?? a.id).localeCompare(b.name ?? b.id));
        for (const a of alerts)
            docs.push(alertDocument(a, d, input));
        const name = uniqueFileName(d.name, usedFiles);
        const header = `# Exported from dashboard ${d.id} by obsdeploy export.\n`;
        return {
            name,
            text: header + docs.map(doc => doc.toString({ lineWidth: 0 })).join('---\n'),
            dashboard: d.name,
            alerts: alerts.length
        };
    });
}
function dashboardDocument(d, input, notes) {
    const owned = d.tags.includes(input.ownershipTag);
    const value = { kind: 'Dashboard', name: d.name };
    const tags = (0,ownership/* userTags */.Rz)(d.tags);
    if (tags.length > 0)
        value.tags = tags;
    // Adopting is explicit: an exported dashboard this stack does not own yet is adopted on the next apply.
    if (!owned)
        value.adopt = true;
    const tileComments = new Map();
    const seenTiles = new Set();
    value.tiles = d.tiles.map((t, i) => {
        const comments = [];
        if (seenTiles.has(t.name))
            comments.push(`another tile of this dashboard is named "${t.name}": tiles are matched by name, rename one`);
        seenTiles.add(t.name);
        const tile = exportTile(t, input.sources, comments);
        if (comments.length > 0)
            tileComments.set(i, comments);
        return tile;
    });
    const doc = new dist/* Document */.yo(value);
    const other = d.tags.find(t => (0,ownership/* isOwnershipTag */.GN)(t) && t !== input.ownershipTag);
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
/** The series form when it round-trips to exactly the tile's config; otherwise the config form. */
function exportTile(t, sources, comments) {
    const base = { name: t.name, x: t.x, y: t.y, w: t.w, h: t.h };
    const config = modelledOnly((0,tile_normal_form/* normalTile */.ow)({
        ...base,
        config: t.config ?? undefined,
        series: t.series ?? undefined,
        asRatio: t.asRatio
    }).config, comments);
    const sourceRef = sourceReference(config.sourceId, sources, comments);
    const series = asSeries(config);
    if (series && (0,json/* equal */.L)((0,tile_normal_form/* normalizeConfig */.I6)((0,tile_normal_form/* seriesToConfig */.xF)(series.series, series.asRatio)), config)) {
        const out = { ...base };
        if (series.asRatio)
            out.asRatio = true;
        out.series = series.series.map(s => {
            const { sourceId: _id, ...rest } = s;
            return s.type === 'markdown' ? rest : { type: rest.type, ...sourceRef, ...omit(rest, ['type']) };
        });
        return out;
    }
    const { sourceId: _id, ...rest } = config;
    return {
        ...base,
        config: {
            displayType: rest.displayType,
            ...(config.sourceId !== undefined ? sourceRef : {}),
            ...omit(rest, ['displayType'])
        }
    };
}
/** The config keys the manifest language has; the others are named in a comment. */
function modelledOnly(config, comments) {
    const out = {};
    const kept = [];
    for (const [key, value] of Object.entries(config)) {
        const rule = returned_fields/* TILE_CONFIG_FIELDS */.MN[key];
        if (rule?.treatment === 'compared' && !rule.unexpressible)
            out[key] = value;
        else
            kept.push(key);
    }
    if (config.configType === 'sql') {
        comments.push('a raw-SQL tile: the manifest language cannot express it yet, and applying this builder form would replace its SQL');
    }
    else if (kept.length > 0) {
        comments.push(`${kept.join(', ')}: set in the UI, not in the manifest language yet; an update sends them back as they are`);
    }
    return out;
}
function sourceReference(id, sources, comments) {
    if (typeof id !== 'string')
        return {};
    const named = sources.filter(s => s.id === id);
    const sameName = named[0] ? sources.filter(s => s.name === named[0].name) : [];
    if (named.length === 1 && sameName.length === 1 && named[0].name)
        return { source: named[0].name };
    comments.push(named.length === 0
        ? `data source id ${id} could not be mapped to a name (no such source): kept as sourceId`
        : `data source id ${id} has a name shared by another source: kept as sourceId`);
    return { sourceId: id };
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
    if (type === 'markdown')
        return { series: [{ type: 'markdown', content: String(config.markdown ?? '') }], asRatio: false };
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
    const groupBy = typeof config.groupBy === 'string' ? config.groupBy.split(',') : undefined;
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
function alertDocument(a, d, input) {
    const comments = [];
    const tile = d.tiles.find(t => (0,schemas/* sameId */.s)(t.id, a.tileId));
    if (!tile)
        comments.push(`tile id ${a.tileId ?? '(none)'} could not be mapped to a tile of "${d.name}"`);
    const value = {
        kind: 'Alert',
        name: a.name ?? `alert ${a.id}`,
        dashboard: d.name,
        tile: tile?.name ?? String(a.tileId ?? '')
    };
    if (!a.name)
        comments.push(`alert ${a.id} has no name on the server: this one was made up, and applying it names the alert`);
    if (a.source && a.source !== 'tile')
        value.source = a.source;
    value.threshold = a.threshold;
    if (a.thresholdMax !== undefined && a.thresholdMax !== null)
        value.thresholdMax = a.thresholdMax;
    value.thresholdType = a.thresholdType;
    value.interval = a.interval;
    const webhookId = a.channel?.webhookId ?? a.channels?.[0]?.webhookId ?? undefined;
    const hook = webhookId !== undefined ? input.webhooks?.filter(w => w.id === webhookId) : undefined;
    const unique = hook?.length === 1 && input.webhooks.filter(w => w.name === hook[0].name).length === 1;
    if (hook && unique && hook[0].name)
        value.channel = { type: 'webhook', webhook: hook[0].name };
    else {
        value.channel = { type: 'webhook', webhookId: webhookId ?? '' };
        comments.push(input.webhooks === undefined
            ? 'webhooks cannot be listed in this mode: kept as webhookId'
            : `webhook id ${webhookId ?? '(none)'} could not be mapped to a unique name: kept as webhookId`);
    }
    if (a.message)
        value.message = a.message;
    if (a.numConsecutiveWindows !== undefined &&
        a.numConsecutiveWindows !== null &&
        a.numConsecutiveWindows !== 1) {
        value.numConsecutiveWindows = a.numConsecutiveWindows;
    }
    if (a.note)
        value.note = a.note;
    const doc = new dist/* Document */.yo(value);
    if (comments.length > 0)
        doc.commentBefore = comments.map(c => ` ${c}`).join('\n');
    return doc;
}
function omit(o, keys) {
    return Object.fromEntries(Object.entries(o).filter(([k, v]) => !keys.includes(k) && v !== undefined));
}
function uniqueFileName(dashboardName, used) {
    const slug = dashboardName
        .toLowerCase()
        .normalize('NFKD')
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 60) || 'dashboard';
    let name = `${slug}.yaml`;
    for (let n = 2; used.has(name); n++)
        name = `${slug}-${n}.yaml`;
    used.add(name);
    return name;
}

;// CONCATENATED MODULE: ./src/export/command.ts
/**
 * `obsdeploy export --out observability/`: onboarding in one command. Reads dashboards and alerts from
 * the live API (list calls only) and writes one manifest file per dashboard, with its alerts.
 */








async function exportCommand(config, options) {
    if (!options.out) {
        options.io.stderr('obsdeploy export: --out <folder> is required\n');
        return 2;
    }
    const api = (0,client/* createApi */.x)(config, { log: options.log });
    try {
        const live = await (0,read/* readLiveState */.e)(api, { service: false });
        const tag = (0,ownership/* ownershipTag */.IC)(config.stack);
        const nameMatch = options.names.length > 0 ? picomatch_default()(options.names) : undefined;
        const dashboards = live.dashboards.filter(d => (options.tags.length === 0 || d.tags.some(t => options.tags.includes(t))) &&
            (!nameMatch || nameMatch(d.name)) &&
            (!options.owned || d.tags.includes(tag)));
        const files = exportManifests({
            dashboards,
            alerts: live.alerts,
            sources: live.sources,
            webhooks: live.webhooks,
            ownershipTag: tag
        });
        const dir = external_node_path_default().resolve(options.io.cwd, options.out);
        await (0,promises_.mkdir)(dir, { recursive: true });
        for (const f of files) {
            await (0,promises_.writeFile)(external_node_path_default().join(dir, f.name), f.text);
            options.io.stdout(`${external_node_path_default().join(options.out, f.name)}: dashboard "${f.dashboard}", ${f.alerts} alert(s)\n`);
        }
        options.io.stderr(`exported ${files.length} of ${live.dashboards.length} dashboard(s) in ${api.stats.requests} request(s)\n`);
        return 0;
    }
    catch (e) {
        options.io.stderr(`obsdeploy export: ${(0,error_message/* errorMessage */.gJ)(e)}\n`);
        return 1;
    }
    finally {
        await api.close();
    }
}


/***/ })

};
