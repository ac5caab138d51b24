export const id = 303;
export const ids = [303];
export const modules = {

/***/ 6303:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  exportCommand: () => (/* binding */ exportCommand)
});

// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
var external_node_path_default = /*#__PURE__*/__webpack_require__.n(external_node_path_);
// EXTERNAL MODULE: ./node_modules/picomatch/index.js
var picomatch = __webpack_require__(4006);
var picomatch_default = /*#__PURE__*/__webpack_require__.n(picomatch);
// EXTERNAL MODULE: ./src/api/client.ts + 9 modules
var client = __webpack_require__(6930);
// EXTERNAL MODULE: ./src/kinds/ownership.ts
var ownership = __webpack_require__(9586);
// EXTERNAL MODULE: ./src/kinds/registry.ts
var kinds_registry = __webpack_require__(6340);
// EXTERNAL MODULE: ./src/log.ts
var log = __webpack_require__(5625);
// EXTERNAL MODULE: ./src/live/read.ts
var read = __webpack_require__(3660);
// EXTERNAL MODULE: ./src/error-message.ts
var error_message = __webpack_require__(6587);
// EXTERNAL MODULE: ./src/api/schemas.ts
var schemas = __webpack_require__(8164);
// EXTERNAL MODULE: ./src/json.ts
var json = __webpack_require__(8301);
// EXTERNAL MODULE: ./src/kinds/dashboard/layout.ts
var layout = __webpack_require__(7344);
// EXTERNAL MODULE: ./src/manifest/vocabulary.ts
var vocabulary = __webpack_require__(7817);
// EXTERNAL MODULE: ./src/kinds/returned-fields.ts
var returned_fields = __webpack_require__(8448);
// EXTERNAL MODULE: ./src/kinds/tile-normal-form.ts
var tile_normal_form = __webpack_require__(6134);
// EXTERNAL MODULE: ./src/kinds/nouns.ts
var nouns = __webpack_require__(906);
// EXTERNAL MODULE: ./src/manifest/resources-schema.ts
var resources_schema = __webpack_require__(310);
// EXTERNAL MODULE: ./src/yaml-library.ts + 1 modules
var yaml_library = __webpack_require__(5159);
;// CONCATENATED MODULE: ./src/export/resources.ts





/** How ids of other resources are written: a name when it names exactly one, else the id with a comment. */
class Namer {
    records;
    constructor(records) {
        this.records = records;
    }
    /** `{[field]: name}` or `{[idField]: id}`, adding a comment to `comments` for the second. */
    ref(kind, field, id, comments, what, idField = `${field}Id`) {
        if (typeof id !== 'string' || id === '')
            return {};
        const list = this.records[kind];
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
        return (this.records[kind] ?? []).filter(r => r.name === name).map(r => r.id);
    }
}
/**
 * An `id:` pin for a record whose name another record of its kind shares, and a comment saying so. Manifests
 * refer to these kinds by name (validate refuses two of one name, `load.ts` uniqueNames, as references could not
 * tell them apart), so each stays pinned to its own record until one of them is renamed.
 */
function twinPin(input, kind, record, comments) {
    const ids = input.namer.idsNamed(kind, record.name);
    if (ids.length < 2)
        return {};
    const [one, many] = [(0,nouns/* wordFor */.G)(kind), (0,nouns/* wordFor */.G)(kind, true)];
    comments.push(`${ids.length} ${many} are named "${record.name}" (ids ${ids.join(', ')}): each is pinned to its own with \`id:\`, but manifests name ${many} by name, so validate refuses two of one name: rename one of them here (its pin keeps it the same ${one}, and the plan renames it on the server)`);
    return { id: record.id };
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
const withComments = (value, comments) => {
    const doc = new ((0,yaml_library/* yamlLibrary */.T)().Document)(value);
    if (comments.length > 0)
        doc.commentBefore = comments.map(c => ` ${c}`).join('\n');
    return doc;
};
const owned = (input, kind, id) => input.registry.owns(kind, id);
function connectionDocuments(input) {
    return (input.connections ?? []).map(c => {
        const comments = [
            `password: write-only (the API never returns it); to manage it, add \`password: \${secret.${input.secrets.name(['CONNECTION', c.name, 'PASSWORD'], false)}}\``
        ];
        const value = {
            kind: 'Connection',
            name: c.name,
            ...twinPin(input, 'Connection', c, comments),
            host: c.host ?? '',
            username: c.username ?? ''
        };
        if (c.hyperdxSettingPrefix)
            value.hyperdxSettingPrefix = c.hyperdxSettingPrefix;
        if (c.isPrometheusEndpoint)
            value.isPrometheusEndpoint = true;
        if (!owned(input, 'Connection', c.id))
            value.adopt = true;
        return withComments(value, comments);
    });
}
/** Fields never written: computed, identity, or written in the manifest's words below. */
const SOURCE_SKIP = new Set(['id', 'name', 'kind', 'connection', 'createdAt', 'updatedAt', 'team', 'teamId']);
function sourceDocuments(input) {
    return input.sources.map(s => {
        const comments = [];
        const value = {
            kind: 'Source',
            name: s.name,
            ...twinPin(input, 'Source', s, comments),
            sourceKind: s.kind
        };
        if (input.mode === 'managed') {
            if (s.connection)
                value.connectionId = s.connection;
        }
        else
            Object.assign(value, input.namer.ref('Connection', 'connection', s.connection, comments, 'connection'));
        const apiRefs = new Map(resources_schema/* SOURCE_REFERENCES */.B5.map(([field, api]) => [api, field]));
        for (const [key, v] of Object.entries(s)) {
            if (SOURCE_SKIP.has(key) || v === null || v === undefined)
                continue;
            const field = apiRefs.get(key);
            if (field)
                Object.assign(value, input.namer.ref('Source', field, v, comments, 'source'));
            else if (isDefault(s.kind, key, v))
                continue;
            else
                value[key] = v;
        }
        if (!owned(input, 'Source', s.id))
            value.adopt = true;
        return withComments(value, comments);
    });
}
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
/** Webhooks the API can write; the others (managed `slack_api`, `pagerduty_api`) are named in `skipped`. */
function webhookDocuments(input, skipped) {
    return (input.webhooks ?? []).flatMap(w => {
        const comments = [];
        if (!vocabulary/* WEBHOOK_SERVICES */.x1.includes(w.service ?? '')) {
            skipped.push(`webhook "${w.name}" (${w.id}) is a ${w.service} webhook, which the API cannot create or update: not exported`);
            return [];
        }
        const secret = input.secrets.name(['WEBHOOK', w.name, 'URL']);
        comments.push(`url: a secret, never written here: set the secret variable ${secret} to this webhook's url (secret-vars; the CLI: OBSDEPLOY_SECRET_${secret})`);
        if (w.service !== 'slack')
            comments.push('headers and queryParams are write-only (the API never returns them): declare them with ${secret.NAME} values to manage them');
        if (w.service === 'incidentio')
            comments.push('an incident.io body is write-only too: add `body:` to manage it');
        const value = {
            kind: 'Webhook',
            name: w.name,
            ...twinPin(input, 'Webhook', w, comments),
            service: w.service,
            url: `\${secret.${secret}}`
        };
        if (w.description)
            value.description = w.description;
        if (w.service === 'generic' && w.body)
            value.body = w.body;
        if (!owned(input, 'Webhook', w.id))
            value.adopt = true;
        return [withComments(value, comments)];
    });
}
/**
 * A saved search's filter in the manifest's words: sql (its default type left out), and where the server takes
 * them, the lucene and sql_ast filters the web UI writes (kinds/saved-search-filters.ts). None when it cannot go.
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
function savedSearchDocument(s, input) {
    const comments = [];
    const value = {
        kind: 'SavedSearch',
        name: s.name,
        ...twinPin(input, 'SavedSearch', s, comments)
    };
    Object.assign(value, input.namer.ref('Source', 'source', s.sourceId, comments, 'source'));
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
    const filters = all.flatMap(f => exportedFilter(f, input.mode));
    if (filters.length < all.length)
        comments.push(input.mode === 'managed'
            ? `${all.length - filters.length} filter(s) of another type than sql (set in the UI): the managed API takes sql filters only, so an update removes them`
            : `${all.length - filters.length} filter(s) of a shape the manifest cannot express: an update removes them`);
    if (filters.length > 0)
        value.filters = filters;
    if (!s.tags.includes(input.ownershipTag))
        value.adopt = true;
    return withComments(value, comments);
}
/**
 * The team's members and pending invitations, by email. The API key's own user is left out unless this stack
 * already manages it: a stack never removes it (kinds/team-member.ts), so adopting it would only claim what the
 * stack cannot do, while leaving out one it manages would plan it as held back. A name is written when it says
 * more than the email (an accepted invitation's user is named by its email).
 */
function teamMemberDocuments(input, notes) {
    return (input.teamMembers ?? []).flatMap(m => {
        const managed = owned(input, 'TeamMember', m.email);
        if (m.currentUser && !managed) {
            notes.push("The API key's own user is not written: a stack never removes it, so it is not adopted either.");
            return [];
        }
        const value = { kind: 'TeamMember', email: m.email };
        if (m.name && m.name.toLowerCase() !== m.email)
            value.name = m.name;
        const comments = m.userId ? [] : ['a pending invitation'];
        const other = input.registry.ownerOf('TeamMember', m.email);
        if (other)
            comments.push(`managed by another stack (${other}): a stack never takes one over, so the plan refuses this manifest until that stack lets go`);
        if (!managed)
            value.adopt = true;
        return [withComments(value, comments)];
    });
}

;// CONCATENATED MODULE: ./src/export/manifests.ts










function exportManifests(input) {
    const usedFiles = new Set();
    const all = input.all ?? input;
    const namer = new Namer({
        Connection: all.connections,
        Source: all.sources,
        Webhook: all.webhooks,
        SavedSearch: all.savedSearches,
        Dashboard: input.allDashboards ?? input.dashboards
    });
    const secrets = new SecretNames();
    const resources = {
        connections: input.connections,
        sources: input.sources,
        savedSearches: input.savedSearches,
        webhooks: input.webhooks,
        teamMembers: input.teamMembers,
        ownershipTag: input.ownershipTag,
        registry: input.registry ?? kinds_registry/* Registry */.OR.empty('', input.ownershipTag),
        mode: input.mode ?? 'self-hosted',
        namer,
        secrets
    };
    const files = [];
    const kindFile = (kind, file, what, docs, alerts = 0, notes = []) => {
        if (docs.length === 0 && notes.length === 0)
            return;
        const used = secrets.all.splice(0);
        const header = [
            `# Exported ${what} by obsdeploy export.`,
            ...notes.map(n => `# ${n}`),
            ...(used.length > 0
                ? [
                    `# Secret variables these manifests need (secret-vars; the CLI: OBSDEPLOY_SECRET_<NAME>): ${used.join(', ')}`
                ]
                : [])
        ].join('\n');
        files.push({
            name: uniqueFileName(file, usedFiles),
            text: `${header}\n${docs.map(doc => doc.toString({ lineWidth: 0 })).join('---\n')}`,
            kind,
            what,
            alerts
        });
    };
    kindFile('Connection', 'connections', 'connections', connectionDocuments(resources));
    kindFile('Source', 'sources', 'data sources', sourceDocuments(resources));
    const skipped = [];
    kindFile('Webhook', 'webhooks', 'webhooks', webhookDocuments(resources, skipped), 0, skipped);
    const searchDocs = [];
    let searchAlerts = 0;
    for (const search of input.savedSearches ?? []) {
        searchDocs.push(savedSearchDocument(search, resources));
        const alerts = input.alerts
            .filter(a => a.source === 'saved_search' && a.savedSearchId === search.id)
            .sort((a, b) => (a.name ?? a.id).localeCompare(b.name ?? b.id));
        for (const a of alerts)
            searchDocs.push(alertDocument(a, undefined, search, resources));
        searchAlerts += alerts.length;
    }
    kindFile('SavedSearch', 'saved-searches', 'saved searches', searchDocs, searchAlerts);
    const teamNotes = [];
    kindFile('TeamMember', 'team-members', 'team members', teamMemberDocuments(resources, teamNotes), 0, teamNotes);
    return [...files, ...dashboardFiles(input, resources, usedFiles)];
}
function dashboardFiles(input, resources, usedFiles) {
    // Same-named dashboards, on the server and in this export: each gets an `id:` pin (pair.ts matches a pin before
    // a name), which is also what lets validate accept manifests of one name (rules.ts checkAcrossDocuments).
    const liveByName = groupByName((input.allDashboards ?? input.dashboards).filter(d => !(0,kinds_registry/* isRegistryDashboard */._X)(d)));
    const exportedByName = groupByName(input.dashboards);
    return input.dashboards.map(d => {
        const notes = [];
        const twins = liveByName.get(d.name) ?? [];
        const pin = twins.length > 1 ? d.id : undefined;
        if (pin !== undefined)
            notes.push(`${twins.length} dashboards are named "${d.name}" (ids ${twins.map(t => t.id).join(', ')}): each is pinned to its own with \`id:\`, so a plan matches it by id, not by name, and validate accepts the shared name as long as every manifest of that name keeps its pin`);
        const alerts = input.alerts
            .filter(a => a.source !== 'saved_search' && a.dashboardId === d.id)
            .sort((a, b) => (a.name ?? a.id).localeCompare(b.name ?? b.id));
        // An alert names its dashboard by name: with two manifests of that name, it could not say which (rules.ts).
        const sharedHere = (exportedByName.get(d.name) ?? []).length > 1;
        if (sharedHere && alerts.length > 0)
            notes.push(`its ${alerts.length} alert(s) are not exported (${alerts.map(a => JSON.stringify(a.name ?? a.id)).join(', ')}): an alert names its dashboard by name, which another exported dashboard has too. Rename one of the dashboards (its pin keeps its id) and add its alerts; until then, a plan with prune deletes them`);
        const docs = [dashboardDocument(d, input, notes, resources, pin)];
        const exported = sharedHere ? [] : alerts;
        for (const a of exported)
            docs.push(alertDocument(a, d, undefined, resources));
        const name = uniqueFileName(d.name, usedFiles);
        const header = `# Exported from dashboard ${d.id} by obsdeploy export.\n`;
        return {
            name,
            text: header + docs.map(doc => doc.toString({ lineWidth: 0 })).join('---\n'),
            kind: 'Dashboard',
            what: `dashboard "${d.name}"`,
            alerts: exported.length,
            ...(exported.length < alerts.length ? { alertsLeftOut: alerts.length - exported.length } : {})
        };
    });
}
function groupByName(list) {
    const out = new Map();
    for (const r of list)
        out.set(r.name, [...(out.get(r.name) ?? []), r]);
    return out;
}
function dashboardDocument(d, input, notes, resources, pin) {
    const owned = d.tags.includes(input.ownershipTag);
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
    Object.assign(value, dashboardSettings(d, resources.namer, notes));
    const tileComments = new Map();
    const seenTiles = new Set();
    value.tiles = d.tiles.map((t, i) => {
        const comments = [];
        if (seenTiles.has(t.name))
            comments.push(`another tile of this dashboard is named "${t.name}": tiles are matched by name, rename one`);
        seenTiles.add(t.name);
        const tile = exportTile(t, d, resources, comments);
        if (comments.length > 0)
            tileComments.set(i, comments);
        return tile;
    });
    const doc = new ((0,yaml_library/* yamlLibrary */.T)().Document)(value);
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
/** The series form when it round-trips to exactly the tile's config; otherwise the config form. */
function exportTile(t, d, resources, comments) {
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
    const sourceRef = resources.namer.ref('Source', 'source', config.sourceId, comments, 'data source');
    const series = asSeries(config);
    if (series && (0,json/* equal */.LC)(storedFromSeries(series.series, series.asRatio), config)) {
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
        : resources.mode === 'managed'
            ? { connectionId }
            : resources.namer.ref('Connection', 'connection', connectionId, comments, 'connection');
    return {
        ...base,
        config: {
            ...(rest.configType !== undefined ? { configType: rest.configType } : {}),
            displayType: rest.displayType,
            ...connectionRef,
            ...(config.sourceId !== undefined ? sourceRef : {}),
            ...omit(rest, ['displayType', 'configType']),
            ...(onClick !== undefined ? { onClick: namedTarget(onClick, resources.namer, comments) } : {})
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
function alertDocument(a, d, search, resources) {
    const comments = [];
    const value = { kind: 'Alert', name: a.name ?? `alert ${a.id}` };
    if (search) {
        value.source = 'saved_search';
        value.savedSearch = search.name;
        if (a.groupBy)
            value.groupBy = a.groupBy;
    }
    else if (d) {
        const tile = d.tiles.find(t => (0,schemas/* sameId */.s)(t.id, a.tileId));
        if (!tile)
            comments.push(`tile id ${a.tileId ?? '(none)'} could not be mapped to a tile of "${d.name}"`);
        value.dashboard = d.name;
        value.tile = tile?.name ?? String(a.tileId ?? '');
    }
    if (!a.name)
        comments.push(`alert ${a.id} has no name on the server: this one was made up, and applying it names the alert`);
    value.threshold = a.threshold;
    if (a.thresholdMax !== undefined && a.thresholdMax !== null)
        value.thresholdMax = a.thresholdMax;
    value.thresholdType = a.thresholdType;
    value.interval = a.interval;
    const channels = (a.channels ?? (a.channel ? [a.channel] : [])).map(c => exportChannel(c, resources, comments));
    if (channels.length === 1)
        value.channel = channels[0];
    else if (channels.length > 1)
        value.channels = channels;
    if (a.message)
        value.message = a.message;
    if (a.numConsecutiveWindows !== undefined &&
        a.numConsecutiveWindows !== null &&
        a.numConsecutiveWindows !== 1) {
        value.numConsecutiveWindows = a.numConsecutiveWindows;
    }
    if (a.note)
        value.note = a.note;
    if (a.scheduleOffsetMinutes)
        value.scheduleOffsetMinutes = a.scheduleOffsetMinutes;
    if (a.scheduleStartAt)
        value.scheduleStartAt = a.scheduleStartAt;
    const doc = new ((0,yaml_library/* yamlLibrary */.T)().Document)(value);
    if (comments.length > 0)
        doc.commentBefore = comments.map(c => ` ${c}`).join('\n');
    return doc;
}
/** A channel in the manifest's words: its webhook by name (or id), the managed extras and email as read. */
function exportChannel(c, resources, comments) {
    if (c.type === 'email') {
        // The manifest language requires the list: written empty, and said, where the server returned none.
        if (c.emailRecipients === undefined || c.emailRecipients === null)
            comments.push('email channel: the server returned no emailRecipients: written as an empty list');
        return { type: 'email', emailRecipients: c.emailRecipients ?? [] };
    }
    const { type: _type, webhookId, ...extras } = c;
    const out = {
        type: 'webhook',
        ...resources.namer.ref('Webhook', 'webhook', webhookId, comments, 'webhook')
    };
    for (const [k, v] of Object.entries(extras))
        if (v !== null && v !== undefined)
            out[k] = v;
    return out;
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

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: ./src/manifest/files.ts + 6 modules
var files = __webpack_require__(8937);
;// CONCATENATED MODULE: ./src/export/write.ts
/**
 * Where export writes, and what it will not do there. The folder is the user's (often the repository's
 * manifests, under review), so export:
 * - writes only inside `--out`, and never through a symbolic link: not the folder, not a folder on the way
 *   to it below the working directory, not a file in it (a link could lead anywhere on the machine);
 * - never replaces a file it did not write, or one edited since: each file it writes starts with a stamp,
 *   the digest of the text below it. A file whose text still matches its stamp is replaced; any other file
 *   is kept as it is, unless `--force`.
 */





/** The stamp line: `# obsdeploy export sha256:<digest of the text below> ...`. */
const STAMP = /^# obsdeploy export sha256:([\w-]+)[^\n]*\n/;
/** The text with its stamp, as export writes it. */
function stamped(text) {
    return `# obsdeploy export sha256:${(0,files/* textDigest */.oA)(text)} (the next export replaces this file only while it is unedited, or with --force)\n${text}`;
}
/** Whether a file's text is one export wrote, unedited since. */
function unedited(text) {
    const stamp = STAMP.exec(text);
    return stamp !== null && (0,files/* textDigest */.oA)(text.slice(stamp[0].length)) === stamp[1];
}
/**
 * The `--out` folder, made when missing, one level at a time so no link on the way is followed; or why
 * not, in words. Below the working directory every part of the path is checked; a folder named outside it
 * is the user's explicit choice, and only the folder itself (and what export creates) is.
 */
async function outFolder(cwd, out) {
    const dir = external_node_path_default().resolve(cwd, out);
    const base = isInside(external_node_path_default().resolve(cwd), dir) ? external_node_path_default().resolve(cwd) : external_node_path_default().dirname(dir);
    const named = (at) => external_node_path_default().relative(cwd, at) || '.';
    const refuse = (what) => ({ problem: `--out ${out}: ${what}` });
    let at = base;
    for (const part of external_node_path_default().relative(base, dir).split((external_node_path_default()).sep).filter(Boolean)) {
        at = external_node_path_default().join(at, part);
        try {
            const info = await lstatOrNothing(at);
            if (!info)
                await (0,promises_.mkdir)(at);
            else if (info.isSymbolicLink())
                return refuse(`${named(at)} is a symbolic link: export never writes through a link, which could lead outside the folder. Name the folder itself, or a new one`);
            else if (!info.isDirectory())
                return refuse(`${named(at)} is a file, not a folder. Export writes one manifest file per dashboard into a folder (made when missing): name a folder, e.g. --out observability/`);
        }
        catch (e) {
            const code = e.code;
            const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (0,error_message/* errorMessage */.gJ)(e);
            return refuse(`cannot make the folder ${named(at)}: ${why}`);
        }
    }
    return { dir };
}
/** Writes one exported file into `dir`, unless it would replace what is not export's to replace. */
async function writeExported(dir, name, text, force) {
    const file = external_node_path_default().join(dir, name);
    if (external_node_path_default().basename(name) !== name || !isInside(dir, file) || file === dir)
        return { status: 'kept', why: 'is not a plain file name: export writes only inside --out' };
    const content = stamped(text);
    const info = await lstatOrNothing(file);
    if (info?.isSymbolicLink())
        return {
            status: 'kept',
            why: 'is a symbolic link: export never writes through a link (not even with --force)'
        };
    if (info && !info.isFile())
        return { status: 'kept', why: 'is not a regular file' };
    if (info) {
        const existing = await (0,promises_.readFile)(file, 'utf8');
        if (existing === content)
            return { status: 'unchanged' };
        if (!force && !unedited(existing))
            return {
                status: 'kept',
                why: STAMP.test(existing)
                    ? 'was edited since export wrote it: kept as it is (move it away, or --force to replace it)'
                    : 'was not written by export: kept as it is (move it away, or --force to replace it)'
            };
    }
    try {
        await writeNoFollow(file, content, info === undefined);
    }
    catch (e) {
        const code = e.code;
        if (code === 'ELOOP' || code === 'EEXIST')
            return { status: 'kept', why: 'appeared while export was writing (a link, or a new file): not written' };
        return { status: 'kept', why: `cannot be written: ${(0,error_message/* errorMessage */.gJ)(e)}` };
    }
    return { status: 'written' };
}
/** O_NOFOLLOW: a link put in the file's place since it was checked is refused, not written through. */
async function writeNoFollow(file, content, fresh) {
    const flags = external_node_fs_.constants.O_WRONLY |
        external_node_fs_.constants.O_CREAT |
        external_node_fs_.constants.O_TRUNC |
        (external_node_fs_.constants.O_NOFOLLOW ?? 0) |
        (fresh ? external_node_fs_.constants.O_EXCL : 0);
    const handle = await (0,promises_.open)(file, flags, 0o666);
    try {
        await handle.writeFile(content);
    }
    finally {
        await handle.close();
    }
}
async function lstatOrNothing(at) {
    try {
        return await (0,promises_.lstat)(at);
    }
    catch (e) {
        if (e.code === 'ENOENT')
            return undefined;
        throw e;
    }
}
const isInside = (root, target) => {
    const rel = external_node_path_default().relative(root, target);
    return rel === '' || (!rel.startsWith('..') && !external_node_path_default().isAbsolute(rel));
};

;// CONCATENATED MODULE: ./src/export/command.ts
/**
 * `obsdeploy export --out observability/`: onboarding in one command. Reads every kind from the live API
 * (list calls only) and writes one manifest file per dashboard, with its alerts, and one per kind for
 * connections, sources, webhooks and saved searches (with their alerts).
 */










const EXPORTED_KINDS = ['Connection', 'Source', 'Webhook', 'SavedSearch', 'Dashboard', 'TeamMember'];
async function exportCommand(config, options) {
    if (!options.out) {
        options.io.stderr('obsdeploy export: --out <folder> is required\n');
        return 2;
    }
    const unknown = (options.kinds ?? []).filter(k => !EXPORTED_KINDS.includes(k));
    if (unknown.length > 0) {
        options.io.stderr(`obsdeploy export: --kind ${unknown.join(', ')}: one of ${EXPORTED_KINDS.join(', ')}\n`);
        return 2;
    }
    const wanted = (kind) => (options.kinds ?? []).length === 0 || options.kinds.includes(kind);
    // The folder is checked before anything is read: a wrong --out costs no request.
    const folder = await outFolder(options.io.cwd, options.out);
    if ('problem' in folder) {
        options.io.stderr(`obsdeploy export: ${folder.problem}\n`);
        return 2;
    }
    const api = (0,client/* createApi */.x)(config, { log: options.log });
    try {
        const live = await (0,read/* readLiveState */.e)(api, { service: false });
        const tag = (0,ownership/* ownershipTag */.IC)(config.stack);
        const registry = kinds_registry/* Registry */.OR.read(live.Dashboard, config.stack, tag);
        const nameMatch = options.names.length > 0 ? picomatch_default()(options.names) : undefined;
        const tagged = (tags) => (options.tags.length === 0 || tags.some(t => options.tags.includes(t))) &&
            (!options.owned || tags.includes(tag));
        const named = (name) => !nameMatch || nameMatch(name);
        // The kinds without tags: none when selecting by tag; owned ones are the registry's.
        // A record is named and owned by its name and id; a person by the email (--name matches it).
        const untagged = (kind, list, key) => list?.filter(r => {
            const { name, id } = key(r);
            return (wanted(kind) &&
                options.tags.length === 0 &&
                named(name) &&
                (!options.owned || registry.owns(kind, id)));
        });
        const asRecord = (r) => r;
        const dashboards = live.Dashboard.filter(d => wanted('Dashboard') && !(0,kinds_registry/* isRegistryDashboard */._X)(d) && tagged(d.tags) && named(d.name));
        const files = exportManifests({
            dashboards,
            allDashboards: live.Dashboard,
            alerts: live.Alert,
            sources: untagged('Source', live.Source, asRecord) ?? [],
            webhooks: untagged('Webhook', live.Webhook, asRecord),
            connections: untagged('Connection', live.Connection, asRecord),
            savedSearches: live.SavedSearch?.filter(s => wanted('SavedSearch') && tagged(s.tags) && named(s.name)),
            teamMembers: untagged('TeamMember', live.TeamMember, m => ({ name: m.email, id: m.email })),
            ownershipTag: tag,
            registry,
            mode: config.mode,
            all: {
                sources: live.Source,
                webhooks: live.Webhook,
                connections: live.Connection,
                savedSearches: live.SavedSearch
            }
        });
        const kept = [];
        for (const f of files) {
            // `what` names the server's resource: printable, as is the file named after it.
            const shown = (0,log/* printable */.g$)(external_node_path_default().join(options.out, f.name));
            const outcome = await writeExported(folder.dir, f.name, f.text, Boolean(options.force));
            if (outcome.status === 'kept') {
                kept.push(f.name);
                options.io.stderr(`obsdeploy export: ${shown} ${outcome.why}\n`);
                continue;
            }
            const leftOut = f.alertsLeftOut ? ` (${f.alertsLeftOut} left out: see the file's note)` : '';
            const same = outcome.status === 'unchanged' ? ' (unchanged)' : '';
            options.io.stdout(`${shown}: ${(0,log/* printable */.g$)(f.what)}, ${f.alerts} alert(s)${leftOut}${same}\n`);
        }
        const exported = files.filter(f => f.kind === 'Dashboard').length;
        const total = live.Dashboard.filter(d => !(0,kinds_registry/* isRegistryDashboard */._X)(d)).length;
        const notWritten = kept.length > 0 ? `; ${kept.length} file(s) not written (see above)` : '';
        options.io.stderr(`exported ${exported} of ${total} dashboard(s), and ${files.length - exported} file(s) of other kinds, in ${api.stats.requests} request(s)${notWritten}\n`);
        return kept.length > 0 ? 1 : 0;
    }
    catch (e) {
        options.io.stderr(`obsdeploy export: ${(0,log/* printable */.g$)((0,error_message/* errorMessage */.gJ)(e))}\n`);
        return 1;
    }
    finally {
        await api.close();
    }
}


/***/ })

};
