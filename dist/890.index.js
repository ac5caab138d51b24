export const id = 890;
export const ids = [890];
export const modules = {

/***/ 6134:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   CY: () => (/* binding */ isModelledConfigKey),
/* harmony export */   G9: () => (/* binding */ normalizeGroupBy),
/* harmony export */   LC: () => (/* binding */ equal),
/* harmony export */   ow: () => (/* binding */ normalTile),
/* harmony export */   uH: () => (/* binding */ clean),
/* harmony export */   xF: () => (/* binding */ seriesToConfig)
/* harmony export */ });
/* unused harmony export normalizeConfig */
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

/***/ 5890:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   checkQueries: () => (/* binding */ checkQueries)
/* harmony export */ });
/* unused harmony exports crosses, countFiring */
/* harmony import */ var _diagnostics_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(4851);
/* harmony import */ var _kinds_tile_normal_form_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(6134);
/* harmony import */ var _manifest_vocabulary_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7817);
/* harmony import */ var _run_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(8679);




const HOUR = 3_600_000;
const QUERYABLE = new Set(['line', 'stacked_bar', 'table', 'number', 'pie', 'bar']);
/** The charts route takes the tile functions except these (OpenAPI ChartSeries). */
const CHART_AGG_FNS = new Set(_manifest_vocabulary_js__WEBPACK_IMPORTED_MODULE_1__/* .AGG_FNS */ .gT.filter(f => !['any', 'none', 'increase'].includes(f)));
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
            (0,_diagnostics_js__WEBPACK_IMPORTED_MODULE_3__/* .diagnostic */ .YK)('plan', 'notice', 'check-queries runs in self-hosted mode only: the managed API has no charts route')
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
                    out.push((0,_diagnostics_js__WEBPACK_IMPORTED_MODULE_3__/* .diagnostic */ .YK)('plan', 'warning', `tile "${tile.spec.name}": the query returns no data over the last hour`, at));
                }
                else {
                    change.evidence = [
                        ...(change.evidence ?? []),
                        `tile "${tile.spec.name}": ${points.length} data point(s) over the last hour`
                    ];
                }
            }
            catch (e) {
                out.push((0,_diagnostics_js__WEBPACK_IMPORTED_MODULE_3__/* .diagnostic */ .YK)('plan', 'error', `tile "${tile.spec.name}": the query fails on the server: ${(0,_run_js__WEBPACK_IMPORTED_MODULE_2__/* .errorMessage */ .gJ)(e)}`, at));
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
            out.push((0,_diagnostics_js__WEBPACK_IMPORTED_MODULE_3__/* .diagnostic */ .YK)('plan', 'warning', `alert "${a.name}": could not replay its query: ${(0,_run_js__WEBPACK_IMPORTED_MODULE_2__/* .errorMessage */ .gJ)(e)}`, a ? pc.desired.source : undefined));
        }
    }
    return out;
}
/** The tile's query in the charts route's shape, or nothing for tiles that are not aggregations. */
function tileQuery(body) {
    const config = body.config ??
        (0,_kinds_tile_normal_form_js__WEBPACK_IMPORTED_MODULE_0__/* .seriesToConfig */ .xF)(body.series ?? [], undefined);
    if (!QUERYABLE.has(String(config.displayType)) ||
        !Array.isArray(config.select) ||
        typeof config.sourceId !== 'string')
        return undefined;
    const groupBy = (0,_kinds_tile_normal_form_js__WEBPACK_IMPORTED_MODULE_0__/* .normalizeGroupBy */ .G9)(config.groupBy)?.split(',') ?? [];
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


/***/ })

};
