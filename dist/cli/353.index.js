export const id = 353;
export const ids = [353];
export const modules = {

/***/ 8807:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Nx: () => (/* binding */ copiesOfStack),
/* harmony export */   Sl: () => (/* binding */ sweepCopies)
/* harmony export */ });
/* unused harmony export sweepReason */
/* harmony import */ var _kinds_dashboard_preview_copy_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8620);
/* harmony import */ var _error_message_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6587);


const DAY_MS = 24 * 3600 * 1000;
/** The copies of one stack among those the live read set aside. */
const copiesOfStack = (copies, stack) => copies.filter(c => c.tags.includes((0,_kinds_dashboard_preview_copy_js__WEBPACK_IMPORTED_MODULE_0__/* .previewStackTag */ .PM)(stack)));
/** Why a copy goes, or undefined when it stays. GitHub is asked once per pull request. */
async function sweepReason(copy, rules, asked) {
    const { pullRequest, writtenAt } = (0,_kinds_dashboard_preview_copy_js__WEBPACK_IMPORTED_MODULE_0__/* .copyFacts */ .JX)(copy);
    if (rules.pullRequests)
        return pullRequest !== undefined && rules.pullRequests.includes(pullRequest)
            ? `a copy of pull request #${pullRequest}`
            : undefined;
    if (!writtenAt)
        return 'no date of its last write (its obsdeploy-at: tag is missing)';
    const age = rules.now.getTime() - writtenAt.getTime();
    if (age > rules.ttlMs)
        return `last written ${days(age)} ago (live-preview-ttl: ${days(rules.ttlMs)})`;
    if (pullRequest === undefined || !rules.isClosed)
        return undefined;
    let closed = asked.get(pullRequest);
    if (!closed)
        asked.set(pullRequest, (closed = rules.isClosed(pullRequest).catch(() => undefined)));
    return (await closed) === true ? `pull request #${pullRequest} is closed` : undefined;
}
/** Deletes each copy a rule says goes, one request each through the paced client; what went, and what failed. */
async function sweepCopies(api, copies, rules) {
    const asked = new Map();
    const swept = [];
    let requests = 0;
    for (const copy of copies) {
        const why = await sweepReason(copy, rules, asked);
        if (why === undefined)
            continue;
        const { pullRequest } = (0,_kinds_dashboard_preview_copy_js__WEBPACK_IMPORTED_MODULE_0__/* .copyFacts */ .JX)(copy);
        const entry = {
            name: copy.name,
            id: copy.id,
            ...(pullRequest !== undefined ? { pullRequest } : {}),
            why
        };
        requests++;
        try {
            await api.deleteDashboard(copy.id);
        }
        catch (e) {
            entry.problem = (0,_error_message_js__WEBPACK_IMPORTED_MODULE_1__/* .errorMessage */ .gJ)(e);
        }
        swept.push(entry);
    }
    return { swept, requests };
}
function days(ms) {
    const n = ms / DAY_MS;
    const shown = n >= 10 || Number.isInteger(n) ? String(Math.round(n)) : n.toFixed(1);
    return `${shown} day${shown === '1' ? '' : 's'}`;
}


/***/ }),

/***/ 6996:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  R: () => (/* binding */ computePlan),
  _: () => (/* binding */ readRegistry)
});

// EXTERNAL MODULE: ./src/kinds/index.ts + 36 modules
var src_kinds = __webpack_require__(3617);
// EXTERNAL MODULE: ./src/kinds/kind.ts
var kinds_kind = __webpack_require__(3169);
// EXTERNAL MODULE: ./src/kinds/references.ts
var references = __webpack_require__(3961);
// EXTERNAL MODULE: ./src/kinds/registry.ts
var kinds_registry = __webpack_require__(6340);
// EXTERNAL MODULE: ./src/diagnostics.ts
var src_diagnostics = __webpack_require__(4851);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
// EXTERNAL MODULE: ./src/manifest/path.ts
var manifest_path = __webpack_require__(7578);
// EXTERNAL MODULE: ./src/version.ts
var version = __webpack_require__(311);
// EXTERNAL MODULE: ./src/plan/diff.ts
var diff = __webpack_require__(8256);
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
    // A replacer costs a call per key: most values hold no volatile key, and their plain JSON is the same text.
    const plain = JSON.stringify(value);
    if (plain === undefined || !VOLATILE_KEY.test(plain))
        return plain;
    return JSON.stringify(value, (key, v) => (VOLATILE.has(key) ? undefined : v));
}
/** A volatile field's key as JSON writes it (a string value holding the same text only costs the slow path). */
const VOLATILE_KEY = new RegExp(`"(?:${[...VOLATILE].join('|')})":`);
function fingerprint(value) {
    return `sha256:${createHash('sha256').update(stableJson(value)).digest('hex')}`;
}
/** Order-independent: lists of records are fingerprinted sorted by id. */
function byId(records) {
    return [...records].sort((a, b) => (a.id ?? '').localeCompare(b.id ?? ''));
}
/**
 * fingerprint() of an object written field by field, a list field item by item: each item is hashed as
 * it comes, so a plan of thousands of records holds neither all their normal forms until the end nor one
 * string of them all. The bytes hashed are those of fingerprint() of the whole object.
 */
class FingerprintStream {
    hash = (0,external_node_crypto_.createHash)('sha256');
    fields = 0;
    /** Items written to the open list, or -1 with no list open. */
    items = -1;
    /** The open list is a volatile field: stableJson leaves it out. */
    dropped = false;
    /** A field whose value is whole. */
    field(key, value) {
        this.closeList();
        const json = VOLATILE.has(key) ? undefined : stableJson(value);
        if (json !== undefined)
            this.hash.update(`${this.key(key)}${json}`);
        return this;
    }
    /** Opens a list field: items follow. */
    list(key) {
        this.closeList();
        this.dropped = VOLATILE.has(key);
        if (!this.dropped)
            this.hash.update(`${this.key(key)}[`);
        this.items = 0;
        return this;
    }
    /** One item of the open list. */
    item(value) {
        if (this.dropped)
            return;
        this.hash.update(`${this.items++ > 0 ? ',' : ''}${stableJson(value) ?? 'null'}`);
    }
    digest() {
        this.closeList();
        this.hash.update(this.fields === 0 ? '{}' : '}');
        return `sha256:${this.hash.digest('hex')}`;
    }
    key(key) {
        return `${this.fields++ === 0 ? '{' : ','}${JSON.stringify(key)}:`;
    }
    closeList() {
        if (this.items < 0)
            return;
        if (!this.dropped)
            this.hash.update(']');
        this.items = -1;
        this.dropped = false;
    }
}

;// CONCATENATED MODULE: ./src/planner/in-use.ts

/** The fields that hold ids of a kind whose deletes wait for their users (`Kind.heldWhileUsed`), to that kind. */
function referenceFields(kinds) {
    return new Map(kinds.flatMap(k => (k.heldWhileUsed?.fields ?? []).map(field => [field, k.kind])));
}
/**
 * Every reference a live record of `kind` holds: by field name wherever it is, and those its kind finds that no
 * field name says (`Kind.unnamedUses`).
 */
function usesOf(kinds, kind, record, fields = referenceFields(kinds)) {
    const unnamed = kinds.find(k => k.kind === kind)?.unnamedUses;
    const uses = [];
    const visit = (value, at) => {
        if (Array.isArray(value)) {
            value.forEach((v, i) => visit(v, `${at}[${i}]`));
            return;
        }
        if (typeof value !== 'object' || value === null)
            return;
        const o = value;
        for (const [key, v] of Object.entries(o)) {
            const target = fields.get(key);
            // A tile's config and series are where its references live: the tile's name says enough.
            const here = at === '' ? key : key === 'config' || key === 'series' ? at : `${at}.${key}`;
            if (target !== undefined) {
                for (const id of Array.isArray(v) ? v : [v])
                    if (typeof id === 'string' && id !== '')
                        uses.push({ kind: target, id, at: here });
            }
            else if (key === 'tiles' && Array.isArray(v)) {
                // A tile is named by its title: that is what a user finds in the UI.
                v.forEach((t, i) => visit(t, `tiles[${JSON.stringify(t?.name ?? i)}]`));
            }
            else
                visit(v, here);
        }
        if (unnamed)
            uses.push(...unnamed(o, at));
    };
    visit(record, '');
    return uses;
}
/**
 * Holds back (deferred: in-use) each delete of a kind held while used that a kept live record still uses, with a note
 * naming every user. A user this run deletes does not count, nor one this stack rewrites from its manifest (an
 * update: the manifest says what it uses after the run). Returns the held changes.
 */
function holdDeletesInUse(planned, kinds, live, settings, managed) {
    const deletes = new Map();
    const waits = new Set(kinds.filter(k => k.heldWhileUsed).map(k => k.kind));
    // What this run deletes or rewrites, by kind and id: those records' present uses do not last.
    const rewritten = new Set();
    for (const pc of planned) {
        const { action, deferred, id, kind } = pc.change;
        if (id === undefined)
            continue;
        const key = `${kind}/${id}`;
        if (action === 'delete' && !deferred && waits.has(kind))
            deletes.set(key, pc);
        if ((action === 'delete' || action === 'replace') && !deferred)
            rewritten.add(key);
        if (action === 'update' && pc.desired)
            rewritten.add(key);
    }
    const held = [];
    // A held delete keeps its record, whose own uses then count: repeat until nothing more is held. Without a
    // pending delete there is nothing to look for (a converged plan walked every live record for nothing).
    while (deletes.size > 0) {
        const users = usersOf(deletes, rewritten, kinds, live, settings, managed);
        if (users.size === 0)
            return held;
        for (const [key, names] of users) {
            const pc = deletes.get(key);
            pc.change.deferred = 'in-use';
            pc.change.notes = [
                `not deleted: still used by ${names.join('; ')}. Point ${names.length === 1 ? 'it' : 'them'} elsewhere (or delete ${names.length === 1 ? 'it' : 'them'}), then plan again`
            ];
            held.push(pc);
            deletes.delete(key);
            rewritten.delete(key);
        }
    }
    return held;
}
/** The kept live records that use each pending delete, in words, by the delete's key. */
function usersOf(deletes, rewritten, kinds, live, settings, managed) {
    const users = new Map();
    const fields = referenceFields(kinds);
    for (const kind of kinds) {
        const records = kind.live ? (0,kinds_kind/* recordsOf */.M)(live, kind.kind) : undefined;
        if (!Array.isArray(records))
            continue;
        for (const record of records) {
            const id = kind.liveId(record);
            if (id === undefined || rewritten.has(`${kind.kind}/${id}`))
                continue;
            for (const use of usesOf(kinds, kind.kind, record, fields)) {
                const key = `${use.kind}/${use.id}`;
                if (!deletes.has(key))
                    continue;
                const whose = managed(kind.kind, id) ? `stack "${settings.stack}"` : 'not managed by this stack';
                const user = `${kind.kind} "${kind.liveName(record)}" (${whose})`;
                const byUser = users.get(key) ?? new Map();
                byUser.set(user, [...(byUser.get(user) ?? []), use.at]);
                users.set(key, byUser);
            }
        }
    }
    // One entry per user, with every place it names the resource (an alert's `channel` mirrors `channels[0]`).
    return new Map([...users].map(([key, byUser]) => [key, [...byUser].map(([user, at]) => `${user} at ${at.join(', ')}`)]));
}

// EXTERNAL MODULE: ./src/plan/types.ts + 1 modules
var types = __webpack_require__(7442);
;// CONCATENATED MODULE: ./src/planner/planner.ts












function computePlan(input) {
    const diagnostics = [];
    const report = (d) => diagnostics.push(d);
    const kinds = input.kinds ?? src_kinds/* KINDS */.G;
    const registry = readRegistry(input.live, input.settings, kinds);
    // An unreadable registry is a plan error (nothing of those kinds is pruned then).
    if (registry.problem)
        report((0,src_diagnostics/* diagnostic */.YK)('plan', 'error', registry.problem));
    const ctx = {
        settings: input.settings,
        manifests: input.manifests,
        live: input.live,
        report,
        dashboards: { desired: new Map(), live: new Map() },
        refs: new references/* References */.N3(report),
        registry
    };
    for (const kind of kinds) {
        if (!kind.live)
            continue;
        const records = (0,kinds_kind/* recordsOf */.M)(input.live, kind.kind);
        ctx.refs.live(kind.kind, Array.isArray(records)
            ? records.flatMap(r => {
                const id = kind.liveId(r);
                return id === undefined ? [] : [{ id, name: kind.liveName(r) }];
            })
            : undefined, `${input.settings.mode === 'managed' ? `managed mode${input.settings.managedPrefix ? `, prefix ${input.settings.managedPrefix}` : ''}` : 'this server'} has no such route`);
    }
    const planned = [];
    /**
     * The live records the plan depends on, in their normal form: what the live fingerprint covers. Hashed
     * as they come, so the normal forms are garbage at once instead of held to the end.
     */
    const dependsOn = new FingerprintStream().list('records');
    for (const kind of kinds)
        planned.push(...planKind(kind, ctx, input.settings.prune, dependsOn));
    holdDeletesInUse(planned, kinds, input.live, input.settings, ctx.refs.isManaged);
    estimateRequests(planned, kinds, { settings: input.settings, dashboards: ctx.dashboards, registry });
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
        references: referencesOf(input, ctx, kinds, planned)
    };
    return { plan, planned, dashboards: ctx.dashboards, registry };
}
/** One kind's changes: its desired records paired with the live ones, diffed, refined; orphans as deletes. */
function planKind(kind, ctx, prune, dependsOn) {
    const ofKind = [];
    const desired = kind.desired(ctx);
    ctx.refs.declare(kind.kind, desired.map(d => d.name));
    const pairing = kind.pair(desired, ctx);
    const idOf = (l) => kind.liveId(l);
    ctx.refs.paired(kind.kind, pairing.pairs.flatMap(p => {
        const id = p.live === undefined ? undefined : idOf(p.live);
        return id === undefined ? [] : [[p.desired.name, id]];
    }), pairing.orphans.map(idOf).filter((id) => id !== undefined));
    for (const pair of pairing.pairs) {
        const after = kind.normalDesired(pair.desired, ctx, pair.live);
        const before = pair.live === undefined ? undefined : kind.normalLive(pair.live, ctx);
        const fields = before === undefined
            ? listFields(after, 'after', kind.keyedPaths)
            : (0,diff/* diffValues */.In)(before, after, kind.keyedPaths);
        const change = newChange(kind, pair.desired.name, pair.desired.address, fields, {
            action: pair.live ? (fields.length > 0 ? 'update' : 'noop') : 'create',
            id: pair.live === undefined ? undefined : kind.liveId(pair.live),
            notes: pair.notes ?? []
        });
        dependsOn.item(fingerprinted(kind, change.address, change.id, before));
        ofKind.push({ change, desired: pair.desired, live: pair.live });
    }
    // A live record left over beside the one a manifest of its name pairs with: a copy, not a removed manifest.
    const pairedIds = new Map(pairing.pairs.flatMap(p => (p.live === undefined ? [] : [[p.desired.name, idOf(p.live)]])));
    for (const orphan of pairing.orphans) {
        const name = kind.liveName(orphan);
        const id = kind.liveId(orphan);
        const twin = pairedIds.get(name);
        const why = pairing.why?.get(orphan) ??
            (twin !== undefined
                ? `a copy: the manifest "${name}" pairs with another live one of that name (id ${twin})`
                : 'no longer in the manifests');
        const before = kind.normalLive(orphan, ctx);
        dependsOn.item(fingerprinted(kind, `${kind.kind}/${name}@${id}`, id, before));
        const change = newChange(kind, name, `${kind.kind}/${name}@${id}`, listFields(before, 'before', kind.keyedPaths), {
            action: 'delete',
            id,
            notes: prune ? [`${why} (prune is on)`] : [`${why}: would be deleted with prune`],
            deferred: prune ? undefined : 'prune'
        });
        ofKind.push({ change, live: orphan });
    }
    for (const pc of ofKind) {
        kind.refine(pc, ctx);
        // Only changes carry their manifest line: a no-op needs none, and positions cost a parse.
        if (pc.desired && pc.change.action !== 'noop')
            pc.change.source = pc.desired.source;
        const { action, deferred, id } = pc.change;
        if ((action === 'delete' || action === 'replace') && !deferred && id !== undefined)
            ctx.refs.markDeleted(kind.kind, id);
    }
    kind.conclude?.(ofKind, ctx);
    return ofKind;
}
/** A record as the live fingerprint holds it: its kind's view, or its address, id and normal form. */
const fingerprinted = (kind, address, id, before) => kind.fingerprinted?.({ address, id, before }) ?? [address, id, before];
/** Each change the apply carries out, with what its kind says it sends (Change.estimate). */
function estimateRequests(planned, kinds, octx) {
    const byKind = new Map(kinds.map(k => [k.kind, k]));
    for (const pc of planned) {
        if (!(0,types/* isActionable */.nM)(pc.change))
            continue;
        const { requests, registry } = byKind.get(pc.change.kind).requests(pc, octx);
        if (requests > 0 || registry)
            pc.change.estimate = registry ? { requests, registry } : { requests };
    }
}
/**
 * The stack's registry of the kinds without tags, without the ids that no longer exist: a function of the
 * live state and the settings alone, so an apply of a saved plan reads the same one again.
 */
function readRegistry(live, settings, kinds = src_kinds/* KINDS */.G) {
    const registry = kinds_registry/* Registry */.OR.read((0,kinds_kind/* listed */.K)(live, kinds_registry/* REGISTRY_HOME */.Ed), settings.stack, settings.ownershipTag);
    for (const kind of kinds) {
        if (!kind.live || !(0,kinds_registry/* isRegistryKind */._Y)(kind.kind))
            continue;
        const records = (0,kinds_kind/* recordsOf */.M)(live, kind.kind);
        if (Array.isArray(records))
            registry.keepOnly(kind.kind, new Set(records.map(r => kind.registryKey?.(r) ?? kind.liveId(r)).filter(id => id !== undefined)));
    }
    return registry;
}
/** Names for the ids the plan's values hold, where its changes are seen, and its kinds in words, for reports. */
function referencesOf(input, ctx, kinds, planned) {
    const keys = {};
    for (const kind of kinds) {
        if (!kind.referredBy || (0,kinds_kind/* recordsOf */.M)(input.live, kind.kind) === undefined)
            continue;
        const names = ctx.refs.names(kind.kind);
        for (const { key, as } of kind.referredBy)
            keys[key] = { as, names };
    }
    const byKind = new Map(kinds.map(k => [k.kind, k]));
    const seenOn = {};
    for (const pc of planned) {
        const seen = pc.desired && byKind.get(pc.change.kind)?.seenOn?.(pc.desired);
        if (seen)
            seenOn[pc.change.address] = seen;
    }
    const nouns = Object.fromEntries(kinds.map(k => [k.kind, [...k.nouns]]));
    return { version: types/* REFERENCES_VERSION */.c9, keys, seenOn, nouns };
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
            return Object.entries(v).map(([k, item]) => ({ path: (0,diff/* joinKey */.ID)(key, k, true), [side]: item }));
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
    const named = (records) => byId(records).map(r => ({ id: r.id, name: r.name }));
    // Every kind others name, in the order the first plan files hashed them, whichever kinds this plan drives.
    const referred = src_kinds/* KINDS */.G.flatMap(k => (k.fingerprint.names ? [{ kind: k.kind, ...k.fingerprint.names }] : []));
    for (const { kind, key } of referred.sort((a, b) => a.at - b.at)) {
        const records = (0,kinds_kind/* recordsOf */.M)(live, kind);
        dependsOn.field(key, records ? named(records) : null);
    }
    return dependsOn.digest();
}
function desiredFingerprint(manifests, settings) {
    const stream = new FingerprintStream().field('settings', {
        stack: settings.stack,
        prune: settings.prune,
        mode: settings.mode,
        gate: settings.serviceGate.open
    });
    // Spec by spec into the hash, secrets masked (their values collected for the digest below).
    const secrets = [];
    // Every manifest, whichever kinds this plan drives.
    for (const { kind, fingerprint } of src_kinds/* KINDS */.G) {
        const located = manifests.specs[kind];
        if (located.length === 0 && !fingerprint.whenEmpty)
            continue;
        stream.list(fingerprint.specs);
        for (const l of located)
            stream.item(maskSecrets(l.spec, l.doc.secretPaths, secrets));
    }
    // A changed secret changes the fingerprint, but the plan file never holds a plain hash of one.
    return stream.field('secrets', secrets.length === 0 ? null : secretDigest(secrets)).digest();
}
/** The spec with the values secret placeholders filled replaced, those values collected. */
function maskSecrets(spec, paths, out) {
    if (!paths || paths.size === 0)
        return spec;
    const walk = (v, path) => {
        if (typeof v === 'string' && paths.has((0,manifest_path/* formatPath */.j)(path))) {
            out.push(v);
            return '(secret)';
        }
        if (Array.isArray(v))
            return v.map((x, i) => walk(x, [...path, i]));
        if (v !== null && typeof v === 'object')
            return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, [...path, k])]));
        return v;
    };
    return walk(spec, []);
}
/** scrypt with a fixed salt: deterministic, so a saved plan's fingerprint can be checked, and slow to guess. */
function secretDigest(values) {
    return (0,external_node_crypto_.scryptSync)(JSON.stringify(values), 'obsdeploy desired fingerprint', 32, {
        N: 16384,
        r: 8,
        p: 1
    }).toString('base64url');
}


/***/ }),

/***/ 6928:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   JP: () => (/* binding */ readsRoles),
/* harmony export */   PF: () => (/* binding */ asksDashboardPatch),
/* harmony export */   pW: () => (/* binding */ startLiveRead),
/* harmony export */   vM: () => (/* binding */ readsTeam),
/* harmony export */   v_: () => (/* binding */ startRead),
/* harmony export */   xg: () => (/* binding */ readsService)
/* harmony export */ });
/* harmony import */ var _api_client_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(6930);
/* harmony import */ var _live_read_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(3660);
/* harmony import */ var _log_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(5625);
/**
 * The live read a run starts early: the list calls go out while the manifests load, told what to read
 * (the managed service, whether dashboards can be patched, the team, the roles) once the manifests say it. Reached
 * only through online.ts, which run() imports once the manifests are valid, so `validate` never loads the
 * HTTP client.
 */



/**
 * Starts reading the live state: it needs only the config, so the list calls run while the manifests
 * load. Whether the service is read too waits for the manifests (`manifests`). Nothing is written, and
 * nothing is reported here: runOnline reports a failed read, after validation, as before.
 */
function startLiveRead(config, deps, manifests) {
    return startRead(config, deps, manifests.then(sets => readsService(config, sets)), manifests.then(sets => asksDashboardPatch(config, sets)), manifests.then(sets => readsTeam(config, sets)), manifests.then(sets => readsRoles(config, sets)));
}
/** The managed service is read when a manifest sets service settings. */
const readsService = (config, sets) => config.mode === 'managed' && sets.some(m => m.specs.ServiceSettings.length > 0);
/** Whether dashboards can be patched is asked (self-hosted) when a manifest declares a dashboard. */
const asksDashboardPatch = (config, sets) => config.mode === 'self-hosted' && sets.some(m => m.specs.Dashboard.length > 0);
/** The team is read (self-hosted) when a manifest declares a team member (or a registry lists one: read.ts). */
const readsTeam = (config, sets) => config.mode === 'self-hosted' && sets.some(m => m.specs.TeamMember.length > 0);
/** The managed roles are read when a manifest declares a role (or a registry lists one: read.ts). */
const readsRoles = (config, sets) => config.mode === 'managed' && sets.some(m => m.specs.Role.length > 0);
/**
 * startLiveRead, told whether to read the managed service (`service`) and to ask whether dashboards can be
 * patched (`dashboardPatch`) once that is known.
 */
function startRead(config, deps, service, dashboardPatch = Promise.resolve(false), team = Promise.resolve(false), roles = Promise.resolve(false)) {
    const api = deps.api ? deps.api(config) : (0,_api_client_js__WEBPACK_IMPORTED_MODULE_0__/* .createApi */ .x)(config, { log: deps.log ?? _log_js__WEBPACK_IMPORTED_MODULE_2__/* .silentLogger */ .qq });
    const stop = new AbortController();
    const live = (0,_live_read_js__WEBPACK_IMPORTED_MODULE_1__/* .readLiveState */ .e)(api, { service, dashboardPatch, team, roles, signal: stop.signal });
    // Awaited by runOnline, or dropped when the run stops first: never an unhandled rejection.
    live.catch(() => undefined);
    return {
        api,
        live,
        abandon: async () => {
            stop.abort('the run stopped before planning');
            await live.catch(() => undefined);
            await api.close();
        }
    };
}


/***/ }),

/***/ 7353:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  applySavedPlan: () => (/* binding */ applySavedPlan),
  planSettings: () => (/* binding */ planSettings),
  runOnline: () => (/* binding */ runOnline),
  startLiveRead: () => (/* reexport */ live_read/* startLiveRead */.pW)
});

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
var external_node_path_default = /*#__PURE__*/__webpack_require__.n(external_node_path_);
// EXTERNAL MODULE: ./src/api/pacer.ts
var pacer = __webpack_require__(7483);
// EXTERNAL MODULE: ./src/kinds/registry.ts
var kinds_registry = __webpack_require__(6340);
// EXTERNAL MODULE: ./src/plan/types.ts + 1 modules
var types = __webpack_require__(7442);
// EXTERNAL MODULE: ./src/kinds/index.ts + 36 modules
var src_kinds = __webpack_require__(3617);
// EXTERNAL MODULE: ./src/kinds/kind.ts
var kinds_kind = __webpack_require__(3169);
;// CONCATENATED MODULE: ./src/apply/copies.ts



const tagged = (r, tag) => Array.isArray(r.tags) && r.tags.includes(tag);
async function findCopies(input) {
    const found = { removed: [], left: [] };
    // One list call per kind, shared by the registry's look below.
    const lists = new Map();
    const list = (kind) => {
        let read = lists.get(kind);
        if (!read) {
            read = input.kinds
                .get(kind)
                .live.read(input.api, { service: false })
                .then(r => (r ?? []));
            lists.set(kind, read);
        }
        return read;
    };
    const created = input.outcomes.filter(o => o.action === 'create' && (o.status === 'applied' || o.status === 'adopted') && o.id !== undefined);
    const kinds = [...new Set(created.map(o => o.kind))].filter(k => input.kinds.get(k)?.copies && input.kinds.get(k)?.live);
    for (const kindName of kinds)
        await findCopiesOfKind(input, created.filter(o => o.kind === kindName), kindName, await list(kindName), found);
    const registries = await findRegistryCopies(input, list);
    if (registries)
        found.registries = registries;
    return found;
}
/** The copies of one kind's creates, given its list read now: this run's own deleted, the others added to `left`. */
async function findCopiesOfKind(input, created, kindName, now, found) {
    const { what, isCopy, remove, inUse: usedBy } = input.kinds.get(kindName).copies;
    const before = new Set(((0,kinds_kind/* recordsOf */.M)(input.before, kindName) ?? []).map(r => String(r.id)));
    // What uses a copy (alerts on a dashboard) is read only when a copy of this run's own could be deleted, which is
    // rare: most applies find none.
    let used;
    const inUse = async (id) => usedBy !== undefined && (await (used ??= usedBy(input.api)))(id);
    for (const outcome of created) {
        const made = now.find(r => String(r.id) === outcome.id);
        if (!made)
            continue;
        const copies = now.filter(r => String(r.id) !== outcome.id &&
            !before.has(String(r.id)) &&
            isCopy(r, made, input.settings.ownershipTag));
        if (copies.length === 0)
            continue;
        const ours = input.lostResponses.has(`${what}:${outcome.name}`);
        const kept = [];
        for (const copy of copies) {
            const id = String(copy.id);
            if (!ours || (await inUse(id))) {
                kept.push(id);
                continue;
            }
            try {
                await remove(input.api, id);
                found.removed.push({ outcome, id });
            }
            catch {
                kept.push(id);
            }
        }
        if (kept.length > 0)
            found.left.push({
                outcome,
                ids: kept,
                why: ours
                    ? 'a create whose response was lost and that committed late, or another apply of this stack at the same time'
                    : 'another apply of this stack ran at the same time'
            });
    }
}
/** The stack's registry dashboards, when this run created one and finds more than one now. */
async function findRegistryCopies(input, list) {
    const made = input.registry?.made;
    if (!made || !input.kinds.get(kinds_registry/* REGISTRY_HOME */.Ed)?.live)
        return undefined;
    const tag = input.settings.ownershipTag;
    const ids = (await list(kinds_registry/* REGISTRY_HOME */.Ed))
        .filter(d => (0,kinds_registry/* isRegistryDashboard */._X)(d) && tagged(d, tag))
        .map(d => String(d.id))
        .sort((a, b) => (a < b ? -1 : 1));
    if (ids.length <= 1)
        return undefined;
    return {
        ids,
        why: made === 'lost'
            ? 'a create of it whose response was lost and that committed late, or another apply of this stack at the same time'
            : 'another apply of this stack created one at the same time'
    };
}
/** The lists findCopies reads again at an apply's end when `changes` are applied: one per kind it creates records of. */
function copiesRereads(changes, kinds = src_kinds/* KINDS_BY_NAME */._) {
    return new Set(changes.filter(c => c.action === 'create' && kinds.get(c.kind)?.copies).map(c => c.kind))
        .size;
}

;// CONCATENATED MODULE: ./src/apply/requests.ts
/**
 * How many requests an apply sends, estimated from the plan, and how long they take at the run's pace: the plan says
 * it when that is more than a minute ("about 31 min at 100 requests a minute"), and the apply's progress counts it
 * down. Each change's own requests are its kind's to say (Kind.requests, in Change.estimate); the apply adds the
 * registry writes their entries take (batched: kinds/registry.ts) and the re-reads at its end (copies.ts).
 * Pure: the plan's changes and the run's settings in, numbers out.
 */




/**
 * The estimate of a plan's apply. `dryRuns`: the dashboards server-validation sends to the server's dry run first
 * (live/server-validation.ts), which an apply does before its first write.
 */
function applyEstimate(changes, settings) {
    const applied = changes.filter(types/* isActionable */.nM);
    const { changes: own, registry, rereads } = RequestsLeft.of(applied, settings.concurrency).parts();
    const parts = { changes: own, registry, dryRuns: settings.dryRuns, rereads };
    const requests = parts.changes + parts.registry + parts.dryRuns + parts.rereads;
    const pace = settings.rateLimit ?? undefined;
    return {
        version: types/* ESTIMATE_VERSION */.SO,
        requests,
        parts,
        concurrency: settings.concurrency,
        ...(pace ? { pace: { ...pace }, durationMs: Math.round((0,pacer/* pacedDurationMs */.Sz)(requests, pace)) } : {})
    };
}
/**
 * The requests an apply has still to send, as its changes settle, and how long they take at `pace`: what its progress
 * counts down.
 */
class RequestsLeft {
    concurrency;
    rereads;
    own = 0;
    entries = 0;
    constructor(concurrency, 
    /** The re-reads at the end: still to come until the apply is over. */
    rereads) {
        this.concurrency = concurrency;
        this.rereads = rereads;
    }
    static of(changes, concurrency) {
        const left = new RequestsLeft(concurrency, copiesRereads(changes));
        for (const c of changes) {
            left.own += c.estimate?.requests ?? 0;
            left.entries += c.estimate?.registry ?? 0;
        }
        return left;
    }
    /** A change settled: its requests are sent (or will never be). */
    settled(change) {
        this.own -= change.estimate?.requests ?? 0;
        this.entries -= change.estimate?.registry ?? 0;
    }
    parts() {
        return {
            changes: this.own,
            registry: (0,kinds_registry/* registryWrites */.SL)(this.entries, this.concurrency),
            rereads: this.rereads
        };
    }
    get total() {
        const { changes, registry, rereads } = this.parts();
        return changes + registry + rereads;
    }
    /** What progress says: the requests left, and with a pace the time they take at it. */
    left(pace) {
        const requests = this.total;
        return pace ? { requests, ms: Math.round((0,pacer/* pacedDurationMs */.Sz)(requests, pace)) } : { requests };
    }
}

// EXTERNAL MODULE: ./src/diagnostics.ts
var src_diagnostics = __webpack_require__(4851);
// EXTERNAL MODULE: ./src/error-message.ts
var error_message = __webpack_require__(6587);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
// EXTERNAL MODULE: ./src/config/credential.ts
var credential = __webpack_require__(6285);
;// CONCATENATED MODULE: ./src/kinds/fingerprint-key.ts
/**
 * Fingerprints of the write-only values a stack sent (connection passwords, webhook headers, query
 * parameters, an incident.io body), as its registry dashboard keeps them (registry.ts). Anyone who can
 * read dashboards can read them, so a fingerprint must be useless for testing guesses without a key that
 * reader lacks: `hmac-sha256$<key id>$<salt>$<mac>`, an HMAC-SHA256 of the value under a key derived
 * (HKDF) from the API credential the plan runs with.
 *
 * Why the API credential, and not a key of its own: it needs no new setting, and who holds it can already
 * reach every write-only value (point a webhook at a server of theirs, and the server sends the headers
 * there), so a fingerprint tells them nothing new. A user who reads dashboards in the UI, or with an API
 * key of their own, cannot test a single guess. The price: a plan run with another credential (a rotated
 * key, a colleague's personal key) cannot compare, and shows each value as "will be sent" once; the apply
 * sends it and records a fingerprint under that credential. The key id says which credential made a
 * fingerprint, so that case is told apart from a changed value. The random salt keeps two equal values
 * from having equal fingerprints.
 *
 * Fingerprints of earlier versions (`scrypt$N$r$p$<salt>$<hash>`, unkeyed: a weak secret could be guessed
 * offline) are still read: a value that matches one is sent once more, so the apply replaces it with a
 * keyed fingerprint, and the plan says why.
 */


const SCHEME = 'hmac-sha256';
class FingerprintKey {
    #key;
    /** Names the credential without revealing it: a digest under the key itself. */
    id;
    constructor(key) {
        this.#key = key;
        this.id = (0,external_node_crypto_.createHmac)('sha256', key).update('obsdeploy key id').digest('base64url').slice(0, 11);
    }
    /** The key of the credential a run talks to the API with (with none, the API is open to all anyway). */
    static fromAuth(auth) {
        return FingerprintKey.fromSecret((0,credential/* credentialOf */.$)(auth) ?? 'none');
    }
    static fromSecret(secret) {
        const key = (0,external_node_crypto_.hkdfSync)('sha256', secret, 'obsdeploy', 'write-only fingerprints v1', 32);
        return new FingerprintKey(Buffer.from(key));
    }
    /** A new fingerprint of a value (never the value). */
    fingerprint(value) {
        const salt = (0,external_node_crypto_.randomBytes)(16);
        return `${SCHEME}$${this.id}$${salt.toString('base64url')}$${this.mac(salt, value).toString('base64url')}`;
    }
    compare(fp, value) {
        const [scheme, id, salt, mac] = fp.split('$');
        if (scheme === 'scrypt')
            return matchesScrypt(fp, value) ? 'renew' : 'changed';
        // A hand edit (no salt or mac, another scheme) matches nothing.
        if (scheme !== SCHEME || !salt || !mac)
            return 'changed';
        if (id !== this.id)
            return 'other-key';
        const expected = Buffer.from(mac, 'base64url');
        const actual = this.mac(Buffer.from(salt, 'base64url'), value);
        return expected.length === actual.length && (0,external_node_crypto_.timingSafeEqual)(expected, actual) ? 'same' : 'changed';
    }
    /** Never serialized with the settings that carry it (a saved plan, a digest of the settings). */
    toJSON() {
        return undefined;
    }
    mac(salt, value) {
        return (0,external_node_crypto_.createHmac)('sha256', this.#key).update(salt).update(canonical(value)).digest();
    }
}
/** Canonical text of a write-only value: maps with sorted keys. */
function canonical(value) {
    if (typeof value === 'string')
        return `s:${value}`;
    const sorted = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(Object.keys(v)
            .sort()
            .map(k => [k, sorted(v[k])]))
        : v;
    return `j:${JSON.stringify(sorted(value))}`;
}
/** An earlier version's fingerprint, `scrypt$N$r$p$<salt>$<hash>`: whether `value` is what it was made of. */
function matchesScrypt(fp, value) {
    const [, n, r, p, salt, hash] = fp.split('$');
    if (!salt || !hash)
        return false;
    const expected = Buffer.from(hash, 'base64url');
    const params = { N: Number(n), r: Number(r), p: Number(p) };
    // A hand edit: no hash (an empty one equals any value's), or a cost far above the one written.
    if (expected.length === 0 || params.N * params.r * params.p > 1 << 20)
        return false;
    try {
        const actual = (0,external_node_crypto_.scryptSync)(canonical(value), Buffer.from(salt, 'base64url'), expected.length, params);
        return (0,external_node_crypto_.timingSafeEqual)(expected, actual);
    }
    catch {
        return false; // settings scrypt refuses (not a power of two, not a number, its memory limit)
    }
}

// EXTERNAL MODULE: ./src/kinds/ownership.ts
var ownership = __webpack_require__(9586);
// EXTERNAL MODULE: ./src/kinds/dashboard/tiles.ts
var dashboard_tiles = __webpack_require__(1133);
// EXTERNAL MODULE: external "node:net"
var external_node_net_ = __webpack_require__(7030);
// EXTERNAL MODULE: ./src/mask-email.ts
var mask_email = __webpack_require__(3038);
;// CONCATENATED MODULE: ./src/mask-value.ts
/**
 * Values from the data (a tile's group names, a table's cells) can be people's data: a table grouped by
 * `user_email` or `client_ip` would print them in a pull request comment. `preview-values` (mask, the
 * default) masks each part of a value that looks personal and keeps the rest, so `checkout` reads as it is
 * and `jane.doe@customer.example` as `j***e@customer.example #3f2a`: the same keyed tag as a team member's
 * email (mask-email.ts), so one value reads alike in every output of a run and can be told apart from
 * another, and nobody without the credential can test a guess.
 *
 * Looks personal: an email, an IPv4 or IPv6 address, a number of 6 or more digits (an account, a phone, a
 * card). Each is masked where it sits, also inside a longer value (`user 1234567 logged in`).
 */


/** Quotes written as escapes (\u0022 \u0027 \u0060): an email ends at any of them. */
const EMAIL = /[^\s@<>()[\]\u0022\u0027\u0060,;:]+@[^\s@<>()[\]\u0022\u0027\u0060,;:]+\.[^\s@<>()[\]\u0022\u0027\u0060,;:]+/gu;
/** A candidate address: dotted digits, or hex groups with colons (isIPv4 / isIPv6 decide). */
const IPV4 = /(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?![\d.])/gu;
const IPV6 = /(?<![\w:])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?:%\w+)?(?![\w:])/gu;
const LONG_NUMBER = /\d{6,}/gu;
/** `value` with each personal-looking part masked; the rest as it is. */
function maskPersonal(value) {
    const tag = (part) => (0,mask_email/* runMask */.E8)().tag(part.toLowerCase());
    return value
        .replace(EMAIL, email => (0,mask_email/* maskEmail */.vA)(email))
        .replace(IPV4, ip => ((0,external_node_net_.isIPv4)(ip) ? `IPv4 #${tag(ip)}` : ip))
        .replace(IPV6, ip => ((0,external_node_net_.isIPv6)(ip.replace(/%\w+$/u, '')) ? `IPv6 #${tag(ip)}` : ip))
        .replace(LONG_NUMBER, digits => `${digits.length} digits #${tag(digits)}`);
}
/** Whether a value holds anything that looks personal. */
function looksPersonal(value) {
    return maskPersonal(value) !== value;
}
/** A value from the data as `preview-values` keeps it: whole, masked where personal, or not at all. */
function dataValue(value, mode) {
    if (mode === 'hide')
        return undefined;
    return mode === 'show' ? value : maskPersonal(value);
}

// EXTERNAL MODULE: ./src/plan/diff.ts
var diff = __webpack_require__(8256);
;// CONCATENATED MODULE: ./src/live/series-math.ts
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The route's granularities (v2/charts.ts granularitySchema) in ms; `auto` is never sent. */
const GRANULARITY_MS = {
    '30s': 30_000,
    '1m': MINUTE,
    '5m': 5 * MINUTE,
    '10m': 10 * MINUTE,
    '15m': 15 * MINUTE,
    '30m': 30 * MINUTE,
    '1h': HOUR,
    '2h': 2 * HOUR,
    '6h': 6 * HOUR,
    '12h': 12 * HOUR,
    '1d': DAY,
    '2d': 2 * DAY,
    '7d': 7 * DAY,
    '30d': 30 * DAY
};
/** The bucket `t` falls in, as toStartOfInterval puts it: epoch-aligned (UTC). */
function bucketStart(t, step) {
    return Math.floor(t / step) * step;
}
/**
 * The axis of the `count` whole buckets that end at `end` (a bucket boundary): the range a preview queries.
 * Whole buckets only, so no bucket is cut short (a partial last bucket would read as a drop).
 */
function axisEndingAt(end, step, count) {
    return { start: end - count * step, step, count };
}
/** The axis's range as the route takes it: `[start, end]` with both ends inclusive (rows at `end` are dropped). */
function rangeOf(axis) {
    return { startTime: axis.start, endTime: axis.start + axis.count * axis.step };
}
/** A bucket's start in ms: the route gives epoch ms; a date text is read too. */
function bucketTime(ts) {
    if (typeof ts === 'number')
        return ts;
    const n = Number(ts);
    if (Number.isFinite(n))
        return n;
    const t = Date.parse(String(ts));
    return Number.isNaN(t) ? Number.NaN : t;
}
/** A value as the route returns it (a count is a string): a finite number, or null. */
function numberOf(v) {
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
    return Number.isFinite(n) ? n : null;
}
/** A row's group as text parts (`[]` ungrouped); a missing value reads as empty. */
function groupOf(p) {
    return Array.isArray(p.group) ? p.group.map(v => (v === null || v === undefined ? '' : String(v))) : [];
}
/**
 * Each group's values of series `index` along `axis`, groups in the order first met. A row outside the axis
 * (the bucket at its inclusive end) is dropped.
 */
function groupsAlong(points, axis, index = 0) {
    const byGroup = new Map();
    for (const p of points) {
        const i = (bucketTime(p.ts_bucket) - axis.start) / axis.step;
        if (!Number.isInteger(i) || i < 0 || i >= axis.count)
            continue;
        const group = groupOf(p);
        const key = JSON.stringify(group);
        let g = byGroup.get(key);
        if (!g) {
            g = { group, values: new Array(axis.count).fill(null) };
            byGroup.set(key, g);
        }
        const v = numberOf(p[`series_${index}.data`]);
        if (v !== null)
            g.values[i] = v;
    }
    return [...byGroup.values()];
}
/** Aggregates whose buckets add up to the whole range's value: a group's total, and "other", are sums only for these. */
const ADDITIVE = new Set(['count', 'sum']);
/** Values of buckets combine exactly into the range's value for these (avg through its sum and count). */
function combine(aggFn, values) {
    const present = values.filter((v) => v !== null);
    if (aggFn === 'count')
        return present.reduce((a, b) => a + b, 0);
    if (present.length === 0)
        return null;
    switch (aggFn) {
        case 'sum':
            return present.reduce((a, b) => a + b, 0);
        case 'min':
            return Math.min(...present);
        case 'max':
            return Math.max(...present);
        default:
            return null;
    }
}
/** Whether `combine` gives the exact value of the range for this aggregate. */
function combinesExactly(aggFn) {
    return ['count', 'sum', 'min', 'max'].includes(aggFn);
}
/** Element-wise sum of lines (a null bucket adds nothing; all null stays null). */
function sumAlong(lines, count) {
    const out = new Array(count).fill(null);
    for (const values of lines)
        values.forEach((v, i) => {
            if (v !== null)
                out[i] = (out[i] ?? 0) + v;
        });
    return out;
}
/** How a group ranks: its total for a count or a sum, else its largest bucket (an average has no total). */
function rankOf(aggFn, values) {
    const present = values.filter((v) => v !== null);
    if (present.length === 0)
        return Number.NEGATIVE_INFINITY;
    return ADDITIVE.has(aggFn) ? present.reduce((a, b) => a + b, 0) : Math.max(...present);
}
/** Buckets that hold a row. */
function bucketsWithData(values) {
    return values.filter(v => v !== null).length;
}

;// CONCATENATED MODULE: ./src/live/alert-replay.ts

/** doesExceedThreshold: above is >=, above_exclusive >, below <, below_or_equal <=, between inclusive. */
function crosses(value, t) {
    const { threshold, thresholdMax } = t;
    switch (t.thresholdType) {
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
            return value >= threshold && value <= (thresholdMax ?? threshold);
        case 'not_between':
            return value < threshold || value > (thresholdMax ?? threshold);
        default:
            return false;
    }
}
/**
 * The windows replayed: the `count` whole windows of `step` that end at the boundary the check last
 * evaluated up to (now rounded down), and `lookBack` windows before them that only seed a consecutive run.
 */
function replayAxis(now, step, range) {
    const end = bucketStart(now, step);
    const count = Math.round(range / step);
    return { start: end - count * step, step, count };
}
/**
 * Replays `points` (the route's series 0 at the alert's interval, from `lookBack` windows before the axis to
 * its end) window by window as the check evaluates them.
 */
function replay(points, axis, alert, lookBack) {
    const first = axis.start - lookBack * axis.step;
    const total = axis.count + lookBack;
    const rows = Array.from({ length: total }, () => new Map());
    for (const p of points) {
        const i = (bucketTime(p.ts_bucket) - first) / axis.step;
        if (!Number.isInteger(i) || i < 0 || i >= total)
            continue;
        const key = JSON.stringify(groupOf(p));
        const list = rows[i].get(key) ?? [];
        list.push(numberOf(p['series_0.data']));
        rows[i].set(key, list);
    }
    const needed = Math.max(1, alert.numConsecutiveWindows ?? 1);
    /** Per group, how many windows in a row it has crossed, up to the window before. */
    let runs = new Map();
    const values = [];
    const firing = [];
    let highest;
    rows.forEach((groups, w) => {
        const next = new Map();
        let fires = false;
        // A window without rows is the value 0 under the ungrouped key (index.ts: "No data returned ... for time bucket").
        const evaluated = groups.size === 0
            ? [['[]', 0]]
            : [...groups].flatMap(([key, list]) => {
                const present = list.filter((v) => v !== null);
                if (present.length === 0)
                    return [];
                // The worst of a group's rows in one window (a later OK row does not undo an ALERT one).
                return [[key, present.find(v => crosses(v, alert)) ?? present[0]]];
            });
        for (const [key, value] of evaluated) {
            if (!crosses(value, alert))
                continue;
            const run = (runs.get(key) ?? 0) + 1;
            next.set(key, run);
            if (run >= needed)
                fires = true;
        }
        runs = next;
        if (w < lookBack)
            return;
        const present = groups.size === 0 ? [] : evaluated.map(([, v]) => v);
        values.push(present.length === 0 ? null : mostAlarming(present, alert));
        for (const v of present)
            highest = highest === undefined ? v : Math.max(highest, v);
        if (fires)
            firing.push(w - lookBack);
    });
    return { values, firing, ...(highest !== undefined ? { highest } : {}) };
}
/** Of a window's group values, the one that crosses (the furthest in the threshold's direction), else the nearest. */
function mostAlarming(values, t) {
    const low = t.thresholdType === 'below' || t.thresholdType === 'below_or_equal';
    const pick = (list) => (low ? Math.min(...list) : Math.max(...list));
    const crossing = values.filter(v => crosses(v, t));
    return crossing.length > 0 ? pick(crossing) : pick(values);
}

;// CONCATENATED MODULE: ./src/live/series-rows.ts

const BUCKET = '__hdx_time_bucket';
const SERIES = /^series_(\d+)$/;
/** The route's answer to `body`, asked in the column format, as rows of `{ts_bucket, group, series_i.data}`. */
async function askSeries(api, body) {
    return byBucketAndGroup(await api.querySeries({ ...body, seriesReturnType: 'column' }));
}
/** Column rows merged by bucket and group (the series of one bucket and group in one row). */
function byBucketAndGroup(rows) {
    const merged = new Map();
    for (const row of rows) {
        if (!(BUCKET in row)) {
            merged.set(`${merged.size}`, row);
            continue;
        }
        const ts = bucketTime(row[BUCKET]);
        const group = [];
        const values = [];
        for (const [key, value] of Object.entries(row)) {
            if (key === BUCKET)
                continue;
            const series = SERIES.exec(key);
            if (series)
                values.push([`series_${series[1]}.data`, value]);
            else
                group.push(value);
        }
        const id = JSON.stringify([ts, group]);
        const point = merged.get(id) ?? { ts_bucket: ts, group };
        for (const [key, value] of values)
            point[key] = value;
        merged.set(id, point);
    }
    return [...merged.values()];
}

// EXTERNAL MODULE: ./src/kinds/tile-normal-form.ts
var tile_normal_form = __webpack_require__(6134);
// EXTERNAL MODULE: ./src/manifest/vocabulary.ts
var vocabulary = __webpack_require__(7817);
;// CONCATENATED MODULE: ./src/live/tile-query.ts
/**
 * What a tile asks the charts route, read from either of the API's tile shapes (config, or series): its
 * series, how it draws, whether it fills empty buckets, how its rows sort, and why a tile cannot be asked.
 */


/** Display types the charts route can feed: everything else says why not (whyNotQueried). */
const QUERYABLE = new Set(['line', 'stacked_bar', 'table', 'number', 'pie', 'bar']);
/** The charts route takes the tile functions except these (OpenAPI ChartSeries). */
const CHART_AGG_FNS = new Set(vocabulary/* AGG_FNS */.gT.filter(f => !['any', 'none', 'increase'].includes(f)));
function configOf(body) {
    return (body.config ??
        (0,tile_normal_form/* seriesToConfig */.xF)(body.series ?? [], undefined));
}
/** The tile's query in the charts route's shape, or nothing for tiles that are not aggregations. */
function tileQuery(body) {
    const config = configOf(body);
    if (!QUERYABLE.has(String(config.displayType)) ||
        config.configType === 'sql' ||
        !Array.isArray(config.select) ||
        typeof config.sourceId !== 'string')
        return undefined;
    // A number tile shows one value: its grouping has no effect (tile-normal-form.ts drops it too).
    const groupBy = config.displayType === 'number' ? [] : ((0,tile_normal_form/* normalizeGroupBy */.G9)(config.groupBy)?.split(',') ?? []);
    const items = config.select
        .filter(s => CHART_AGG_FNS.has(String(s.aggFn)))
        .slice(0, 5);
    const series = items.map(s => {
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
    const names = items.map(s => typeof s.alias === 'string' && s.alias !== ''
        ? s.alias
        : `${String(s.aggFn)}(${typeof s.valueExpression === 'string' ? s.valueExpression : ''})`);
    return series.length > 0 ? { series, groupBy, names } : undefined;
}
/** How a tile draws, from either of the API's shapes (config, or series). */
function displayTypeOf(body) {
    const config = body.config;
    const series = Array.isArray(body.series) ? body.series : [];
    if (config)
        return String(config.displayType ?? 'unknown');
    const first = series[0];
    if (!first)
        return 'unknown';
    if (first.type === 'time' || first.type === undefined)
        return first.displayType === 'stacked_bar' ? 'stacked_bar' : 'line';
    return String(first.type);
}
/** ChartUtils.tsx shouldFillNullsWithZero: an empty bucket is drawn as zero unless the tile sets fillNulls false. */
function fillOf(body) {
    return configOf(body).fillNulls === false ? 'gap' : 'zero';
}
/**
 * How a table's rows sort: by a series (its index), ascending or not. A series with `sortOrder`, or the
 * config's `orderBy` naming a series' alias (ASC or DESC); otherwise the first series, largest first.
 */
function sortOf(body, names) {
    const series = Array.isArray(body.series) ? body.series : [];
    const sorted = series.findIndex(s => s.sortOrder === 'asc' || s.sortOrder === 'desc');
    if (sorted >= 0 && sorted < names.length)
        return { index: sorted, asc: series[sorted].sortOrder === 'asc' };
    const orderBy = body.config?.orderBy;
    if (typeof orderBy === 'string' && orderBy.trim() !== '') {
        const named = names.findIndex(n => orderBy.includes(n));
        return { index: Math.max(0, named), asc: /\basc\s*$/i.test(orderBy) };
    }
    return { index: 0, asc: false };
}
/** The tile's number format, as the server takes it (on the config, or on a series). */
function numberFormatOf(body) {
    const config = body.config;
    const series = Array.isArray(body.series) ? body.series : [];
    const format = config?.numberFormat ??
        (Array.isArray(config?.select)
            ? config.select.find(s => s.numberFormat)?.numberFormat
            : undefined) ??
        series.find(s => s.numberFormat)?.numberFormat;
    return format !== null && typeof format === 'object' && !Array.isArray(format)
        ? { numberFormat: format }
        : {};
}
/** Why a tile's data cannot be previewed, in one sentence. */
function whyNotQueried(body) {
    const config = body.config;
    if (config?.configType === 'sql')
        return 'a raw-SQL tile: the charts route runs builder queries only';
    const type = displayTypeOf(body);
    if (type === 'markdown')
        return 'a markdown tile: no query';
    if (type === 'search')
        return 'a search tile: it lists events, it charts nothing';
    if (type === 'heatmap')
        return 'a heatmap tile: the charts route returns no distribution to draw it from';
    return `a ${type} tile without an aggregation the charts route runs`;
}

;// CONCATENATED MODULE: ./src/live/tile-preview.ts




/** A tile's chart: the last 24 hours in 48 whole buckets. */
const TILE_GRANULARITY = '30m';
const TILE_STEP = GRANULARITY_MS[TILE_GRANULARITY];
const TILE_BUCKETS = DAY / TILE_STEP;
/** Lines drawn of a grouped tile; rows of a table; parts of a pie or bar. */
const MAX_LINES = 5;
const MAX_ROWS = 10;
const MAX_BARS = 10;
/**
 * A whole-range value (table, pie, bar) is asked as one bucket of the route's coarsest granularity: 30 days,
 * epoch-aligned, so 24 hours fall in one bucket on 29 days of 30; on the others two buckets are combined.
 */
const WHOLE = '30d';
/** The 24 h axis of whole buckets that ends at the last bucket boundary before `now`. */
function tileAxis(now) {
    return axisEndingAt(bucketStart(now, TILE_STEP), TILE_STEP, TILE_BUCKETS);
}
/** One tile's preview, by how it draws. */
async function previewTile(displayType, ask) {
    if (displayType === 'number')
        return numberTile(ask);
    if (displayType === 'table')
        return tableTile(ask);
    if (displayType === 'pie' || displayType === 'bar')
        return barsTile(ask);
    return linesTile(ask);
}
const aggOf = (q) => String(q.series[0].aggFn);
const nameOf = (group, values) => group.length === 0 ? undefined : dataValue(group.join(', '), values);
const plural = (n, one, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
async function linesTile({ api, query, body, axis, values }) {
    const points = await askSeries(api, {
        series: query.series,
        ...rangeOf(axis),
        granularity: TILE_GRANULARITY
    });
    const aggFn = aggOf(query);
    const fill = fillOf(body);
    const groups = groupsAlong(points, axis).filter(g => bucketsWithData(g.values) > 0);
    const ranked = [...groups].sort((a, b) => rankOf(aggFn, b.values) - rankOf(aggFn, a.values));
    const shown = ranked.slice(0, MAX_LINES);
    const rest = ranked.slice(MAX_LINES);
    const additive = ADDITIVE.has(aggFn);
    const lineOf = (g) => {
        const name = nameOf(g.group, values);
        return {
            ...(name !== undefined ? { name } : {}),
            values: g.values,
            total: additive ? combine(aggFn, g.values) : null
        };
    };
    const lines = shown.map(lineOf);
    const grouped = query.groupBy.length > 0;
    const otherValues = sumAlong(rest.map(g => g.values), axis.count);
    const fields = {
        axis,
        fill,
        aggFn,
        lines,
        ...(grouped ? { moreGroups: rest.length } : {}),
        ...(additive && rest.length > 0
            ? { other: { values: otherValues, total: combine(aggFn, otherValues) } }
            : {})
    };
    const withData = bucketsWithData(sumAlong(groups.map(g => g.values), axis.count));
    const said = `data in ${withData} of ${axis.count} ${TILE_GRANULARITY} buckets over the last 24 hours${grouped
        ? ` (${plural(groups.length, 'group')}${rest.length > 0 ? `: the ${shown.length} largest charted, ${plural(rest.length, 'more group')}${additive ? ' summed as other' : ''}` : ''})`
        : ''}`;
    return { fields, empty: groups.length === 0, said };
}
async function numberTile({ api, query, body, axis }) {
    const aggFn = aggOf(query);
    const first = query.series[0];
    // An average over 48 buckets is its sum over their count: both asked beside it, in the same request.
    const avg = aggFn === 'avg' && first.field !== undefined;
    const series = avg
        ? [first, { ...first, aggFn: 'sum' }, { ...first, aggFn: 'count', field: undefined }]
        : [first];
    const both = { start: axis.start - DAY, step: axis.step, count: axis.count * 2 };
    const points = await askSeries(api, {
        series: series.map(dropUndefined),
        ...rangeOf(both),
        granularity: TILE_GRANULARITY
    });
    const along = (index) => sumAlong(groupsAlong(points, both, index).map(g => g.values), both.count);
    const v0 = along(0);
    const halves = (v) => [v.slice(0, axis.count), v.slice(axis.count)];
    const [before, now] = halves(v0);
    let value;
    let previous;
    let approximate;
    if (avg) {
        const [sumBefore, sumNow] = halves(along(1));
        const [countBefore, countNow] = halves(along(2));
        const ratio = (s, c) => {
            const n = combine('count', c);
            return n ? combine('sum', s) / n : null;
        };
        value = ratio(sumNow, countNow);
        previous = ratio(sumBefore, countBefore);
    }
    else if (combinesExactly(aggFn)) {
        value = combine(aggFn, now);
        previous = combine(aggFn, before);
    }
    else {
        value = null;
        previous = null;
        approximate = `a ${aggFn} per ${TILE_GRANULARITY} bucket does not combine into one value for 24 hours: the line shows it per bucket`;
    }
    const empty = bucketsWithData(now) === 0;
    const fields = {
        axis,
        fill: fillOf(body),
        aggFn,
        lines: [{ values: now, total: ADDITIVE.has(aggFn) ? combine(aggFn, now) : null }],
        value,
        previous,
        ...(approximate !== undefined ? { approximate } : {})
    };
    const said = value === null
        ? `data in ${bucketsWithData(now)} of ${axis.count} ${TILE_GRANULARITY} buckets over the last 24 hours`
        : `${aggFn} ${value.toLocaleString('en-US')} over the last 24 hours${previous !== null ? ` (the 24 hours before: ${previous.toLocaleString('en-US')})` : ''}`;
    return { fields, empty, said };
}
/** Each group's value of each series over the whole axis: one request, one (or two) 30-day buckets. */
async function wholeRange({ api, query, axis }) {
    const { startTime, endTime } = rangeOf(axis);
    // The route's end is inclusive: one ms short keeps the next bucket's first instant out.
    const points = await askSeries(api, {
        series: query.series,
        startTime,
        endTime: endTime - 1,
        granularity: WHOLE
    });
    const byGroup = new Map();
    for (const p of points) {
        const group = groupOf(p);
        const key = JSON.stringify(group);
        const entry = byGroup.get(key) ?? { group, parts: [] };
        entry.parts.push(p);
        byGroup.set(key, entry);
    }
    let straddles = false;
    const rows = [...byGroup.values()].map(({ group, parts }) => {
        if (parts.length > 1)
            straddles = true;
        const cells = query.series.map((s, i) => {
            const values = parts.map(p => numberOf(p[`series_${i}.data`]));
            return values.length === 1 ? values[0] : combine(String(s.aggFn), values);
        });
        return { group, cells };
    });
    const inexact = query.series.map(s => String(s.aggFn)).filter(f => !combinesExactly(f));
    return straddles && inexact.length > 0
        ? {
            rows,
            approximate: `the 24 hours span two of the route's 30-day buckets, and a ${inexact[0]} does not combine across them: its cells are left empty`
        }
        : { rows };
}
async function tableTile(ask) {
    const { query, body, values } = ask;
    const { rows, approximate } = await wholeRange(ask);
    const { index, asc } = sortOf(body, query.names);
    const key = (r) => r.cells[index] ?? Number.NEGATIVE_INFINITY;
    rows.sort((a, b) => (asc ? key(a) - key(b) : key(b) - key(a)));
    const top = rows.slice(0, MAX_ROWS);
    const fields = {
        aggFn: aggOf(query),
        table: {
            columns: [...query.groupBy, ...query.names],
            rows: top.map(r => [...r.group.map(g => dataValue(g, values) ?? null), ...r.cells]),
            more: rows.length - top.length
        },
        ...(approximate !== undefined ? { approximate } : {})
    };
    const said = `${plural(rows.length, 'row')} over the last 24 hours${rows.length > top.length ? ` (the top ${top.length} shown)` : ''}`;
    return { fields, empty: rows.length === 0, said };
}
async function barsTile(ask) {
    const { query, values } = ask;
    const { rows, approximate } = await wholeRange(ask);
    rows.sort((a, b) => (b.cells[0] ?? Number.NEGATIVE_INFINITY) - (a.cells[0] ?? Number.NEGATIVE_INFINITY));
    const top = rows.slice(0, MAX_BARS);
    const fields = {
        aggFn: aggOf(query),
        bars: top.map(r => {
            const name = nameOf(r.group, values);
            return { ...(name !== undefined ? { name } : {}), value: r.cells[0] ?? null };
        }),
        moreGroups: rows.length - top.length,
        ...(approximate !== undefined ? { approximate } : {})
    };
    const said = `${plural(rows.length, 'part')} over the last 24 hours${rows.length > top.length ? ` (the largest ${top.length} shown)` : ''}`;
    return { fields, empty: rows.length === 0, said };
}
function dropUndefined(o) {
    return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

;// CONCATENATED MODULE: ./src/live/check-queries.ts











/** An alert's replay: the last 7 days, one bucket per window. */
const ALERT_RANGE = 7 * DAY;
async function checkQueries(api, planned, options) {
    const now = options.now.getTime();
    const keep = options.preview;
    if (options.mode !== 'self-hosted') {
        if (keep)
            cannotQuery(planned, keep, now);
        return [
            (0,src_diagnostics/* diagnostic */.YK)('plan', 'notice', 'check-queries runs in self-hosted mode only: the managed API has no charts route')
        ];
    }
    const findings = { out: [], keep, now, values: options.previewValues ?? 'mask' };
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
        await queryTiles(api, pc, findings);
    }
    for (const pc of planned) {
        const { change } = pc;
        if (change.kind !== 'Alert' || !pc.desired || !['create', 'update', 'replace'].includes(change.action))
            continue;
        await replayAlert(api, pc, dashboards, findings);
    }
    return findings.out;
}
/** A server's message, with anything personal-looking masked unless values are shown (it may quote a query's text). */
const said = (e, values) => values === 'show' ? (0,error_message/* errorMessage */.gJ)(e) : maskPersonal((0,error_message/* errorMessage */.gJ)(e));
/** Each created tile's query, and each changed one's of an update, over the last 24 hours. */
async function queryTiles(api, pc, findings) {
    const { out, keep, now, values } = findings;
    const { change } = pc;
    const d = pc.desired.value;
    const axis = tileAxis(now);
    for (const [i, tile, name] of tilesToQuery(pc, d)) {
        const query = tileQuery(tile.body);
        const displayType = displayTypeOf(tile.body);
        const kept = {
            ...tileSeries(d.spec.name, name, displayType, now, 'ok'),
            ...numberFormatOf(tile.body)
        };
        if (!query) {
            keep?.tiles?.push({ ...kept, status: 'unsupported', reason: whyNotQueried(tile.body) });
            continue;
        }
        const at = { ...d.located.doc.locate(['tiles', i, 'name']), field: `tiles[${i}]` };
        try {
            const found = await previewTile(displayType, { api, query, body: tile.body, axis, values });
            keep?.tiles?.push({ ...kept, ...found.fields, status: found.empty ? 'empty' : 'ok' });
            if (found.empty) {
                out.push((0,src_diagnostics/* diagnostic */.YK)('plan', 'warning', `tile "${name}": the query returns no data over the last 24 hours`, at));
            }
            else {
                change.evidence = [...(change.evidence ?? []), `tile "${name}": ${found.said}`];
            }
        }
        catch (e) {
            keep?.tiles?.push({ ...kept, status: 'error', reason: said(e, values) });
            out.push((0,src_diagnostics/* diagnostic */.YK)('plan', 'error', `tile "${name}": the query fails on the server: ${said(e, values)}`, at));
        }
    }
}
/** A created or changed alert's query replayed over the last 7 days: the windows it would have fired in. */
async function replayAlert(api, pc, dashboards, findings) {
    const { out, keep, now, values: mode } = findings;
    const { change } = pc;
    const a = pc.desired.value.spec;
    const tile = a.dashboard === undefined
        ? undefined
        : dashboards
            .get(a.dashboard)
            ?.tiles.find(t => (a.tileId !== undefined ? t.spec.id === a.tileId : t.spec.name === a.tile));
    const query = tile ? tileQuery(tile.body) : undefined;
    const step = GRANULARITY_MS[a.interval];
    const kept = { ...alertSeries(a, now, 'ok'), ...(tile ? numberFormatOf(tile.body) : {}) };
    const shifted = (a.scheduleOffsetMinutes ?? 0) > 0 || a.scheduleStartAt !== undefined;
    if (!query || !step || shifted) {
        keep?.alerts?.push({
            ...kept,
            status: 'unsupported',
            reason: !tile
                ? a.dashboard === undefined
                    ? 'it watches a saved search, not a tile: nothing to chart'
                    : 'its tile is not in the manifests of this plan'
                : !query
                    ? whyNotQueried(tile.body)
                    : !step
                        ? `its interval ${a.interval} cannot be replayed`
                        : "its windows are shifted by its schedule, and the charts route's buckets are aligned to the epoch: the replay could not count the same windows"
        });
        return;
    }
    const axis = replayAxis(now, step, ALERT_RANGE);
    // The check reads the numConsecutiveWindows - 1 windows before each: asked too, so the first ones count right.
    const lookBack = Math.max(0, (a.numConsecutiveWindows ?? 1) - 1);
    try {
        const { endTime } = rangeOf(axis);
        const points = await askSeries(api, {
            series: query.series.slice(0, 1),
            startTime: axis.start - lookBack * step,
            endTime,
            granularity: a.interval
        });
        const r = replay(points, axis, a, lookBack);
        const empty = r.values.every(v => v === null);
        keep?.alerts?.push({
            ...kept,
            startTime: axis.start,
            endTime,
            status: empty ? 'empty' : 'ok',
            axis,
            // The check evaluates a window without rows as 0 (checkAlerts/index.ts), whatever the aggregate.
            fill: 'zero',
            values: r.values,
            ...(a.numConsecutiveWindows !== undefined ? { numConsecutiveWindows: a.numConsecutiveWindows } : {}),
            firing: r.firing,
            fired: r.firing.length,
            windows: axis.count
        });
        const consecutive = (a.numConsecutiveWindows ?? 1) > 1 ? `, ${a.numConsecutiveWindows} windows in a row` : '';
        change.evidence = [
            ...(change.evidence ?? []),
            `over the last 7 days it would have fired in ${r.firing.length} of ${axis.count} ${a.interval} windows at threshold ${a.thresholdType} ${a.threshold}${a.thresholdMax !== undefined ? `..${a.thresholdMax}` : ''}${consecutive}${r.highest !== undefined ? ` (highest value ${r.highest})` : ''}; the server's check notifies again at every window that still crosses`
        ];
    }
    catch (e) {
        keep?.alerts?.push({ ...kept, status: 'error', reason: said(e, mode) });
        out.push((0,src_diagnostics/* diagnostic */.YK)('plan', 'warning', `alert "${a.name}": could not replay its query: ${said(e, mode)}`, pc.desired.source));
    }
}
/** Managed mode: every created or changed tile and alert says why it has no data preview. */
function cannotQuery(planned, keep, now) {
    const reason = 'managed mode: the managed API has no charts route';
    for (const pc of planned) {
        const { change } = pc;
        if (!pc.desired || !['create', 'update', 'replace'].includes(change.action))
            continue;
        if (change.kind === 'Dashboard') {
            const d = pc.desired.value;
            for (const [, tile, name] of tilesToQuery(pc, d)) {
                keep.tiles?.push(tileSeries(d.spec.name, name, displayTypeOf(tile.body), now, 'managed', reason));
            }
        }
        else if (change.kind === 'Alert') {
            keep.alerts?.push(alertSeries(pc.desired.value.spec, now, 'managed', reason));
        }
    }
}
/** A tile's preview entry before its data: which tile, and the range its query covers. */
function tileSeries(dashboard, tile, displayType, now, status, reason) {
    const { startTime, endTime } = rangeOf(tileAxis(now));
    return {
        dashboard,
        tile,
        displayType,
        status,
        ...(reason !== undefined ? { reason } : {}),
        startTime,
        endTime,
        granularity: TILE_GRANULARITY
    };
}
/** An alert's preview entry before its data: what it watches, the range it is replayed over, its threshold. */
function alertSeries(a, now, status, reason) {
    const step = GRANULARITY_MS[a.interval];
    const { startTime, endTime } = step
        ? rangeOf(replayAxis(now, step, ALERT_RANGE))
        : { startTime: now - ALERT_RANGE, endTime: now };
    return {
        alert: a.name,
        ...(a.dashboard !== undefined ? { dashboard: a.dashboard } : {}),
        ...(a.tile !== undefined ? { tile: a.tile } : {}),
        status,
        ...(reason !== undefined ? { reason } : {}),
        startTime,
        endTime,
        granularity: a.interval,
        thresholdType: a.thresholdType,
        threshold: a.threshold,
        ...(a.thresholdMax !== undefined ? { thresholdMax: a.thresholdMax } : {}),
        ...(a.numConsecutiveWindows !== undefined ? { numConsecutiveWindows: a.numConsecutiveWindows } : {})
    };
}
/** A created dashboard's tiles, or an updated one's changed tiles (by their keys in the change's paths). */
function tilesToQuery(pc, d) {
    // Named by the key the plan's paths and the layout preview use: a repeated name with its short id.
    const keys = (0,dashboard_tiles/* pairTiles */.uN)((0,dashboard_tiles/* tileSpecs */.d1)(d), pc.live).desired;
    const all = d.tiles.map((t, i) => [
        i,
        t,
        (0,diff/* keyText */.Pu)(keys[i].key)
    ]);
    if (pc.change.action !== 'update')
        return all;
    const changed = new Set(pc.change.fields.flatMap(f => (0,diff/* keyedField */.n)(f.path, 'tiles')?.key ?? []));
    return all.filter(([i]) => changed.has(keys[i].key));
}

// EXTERNAL MODULE: ./src/kinds/dashboard/bodies.ts
var bodies = __webpack_require__(5682);
// EXTERNAL MODULE: ./src/kinds/dashboard/preview-copy.ts
var preview_copy = __webpack_require__(8620);
// EXTERNAL MODULE: ./src/kinds/references.ts
var references = __webpack_require__(3961);
// EXTERNAL MODULE: ./src/live-preview/sweep.ts
var sweep = __webpack_require__(8807);
;// CONCATENATED MODULE: ./src/live-preview/write.ts





const WRITES = new Set(['create', 'update', 'replace']);
async function livePreview(api, plan, run) {
    if (run.refused !== undefined)
        return {
            ...(run.pullRequest ? { pullRequest: run.pullRequest } : {}),
            notWritten: run.refused,
            copies: [],
            swept: [],
            requests: 0
        };
    const mine = (0,sweep/* copiesOfStack */.Nx)(plan.live.previewCopies ?? [], run.stack);
    const ofThis = mine.filter(c => run.pullRequest !== undefined && (0,preview_copy/* copyFacts */.JX)(c).pullRequest === run.pullRequest);
    // This pull request's copies are rewritten below (or kept, with the plan's errors): never swept by age here.
    const { swept, requests: sweeps } = await (0,sweep/* sweepCopies */.Sl)(api, mine.filter(c => !ofThis.includes(c)), run.sweep);
    if (run.pullRequest === undefined)
        return { copies: [], swept, requests: sweeps };
    const section = { pullRequest: run.pullRequest, swept };
    if (run.held !== undefined)
        return {
            ...section,
            notWritten: run.held,
            copies: ofThis.map(c => ({
                dashboard: (0,preview_copy/* copiedName */.AS)(run.pullRequest, c.name),
                name: c.name,
                id: c.id,
                action: 'kept'
            })),
            requests: sweeps
        };
    const written = await writeCopies(api, plan, run, run.pullRequest, ofThis);
    return { ...section, copies: written.copies, requests: sweeps + written.requests };
}
/** The plan's dashboards as copies: created, updated (found by name among this pull request's), or deleted. */
async function writeCopies(api, plan, run, pullRequest, existing) {
    const options = {
        // Replaced by the copy's tags (copyBody): no request of a copy carries the stack's ownership tag.
        tag: '',
        mode: run.mode,
        // A link-out names the stack's own dashboard (a copy of it may not exist).
        idOf: name => plan.dashboards.desired.get(name)?.liveId
    };
    const tags = (0,preview_copy/* previewCopyTags */.OZ)(run.stack, pullRequest, run.sweep.now);
    const left = [...existing];
    const copies = [];
    let requests = 0;
    for (const pc of plan.planned) {
        if (!writesDashboard(pc))
            continue;
        const d = pc.desired.value;
        const name = (0,preview_copy/* copyName */.vC)(pullRequest, d.spec.name);
        const at = left.findIndex(c => c.name === name);
        const old = at >= 0 ? left.splice(at, 1)[0] : undefined;
        const entry = { dashboard: d.spec.name, name, action: old ? 'updated' : 'created' };
        if (old)
            entry.id = old.id;
        copies.push(entry);
        if ((0,references/* placeholderTokens */.o9)([d.tiles.map(t => t.body), d.filters]).length > 0) {
            // Its source or connection does not exist before the merge: there is no id to write.
            entry.action = 'failed';
            entry.problem =
                'it names a source or connection this pull request creates, which exists only after the merge';
            continue;
        }
        const request = old ? (0,bodies/* updateBody */.Et)(d, old, options) : (0,bodies/* createBody */.Fm)(d, options);
        const { body, sqlLeftOut } = (0,preview_copy/* copyBody */.GO)(request, { name, tags, sql: run.sql });
        if (sqlLeftOut.length > 0)
            entry.sqlLeftOut = sqlLeftOut;
        requests++;
        try {
            const saved = old ? await api.updateDashboard(old.id, body) : await api.createDashboard(body);
            entry.id = saved.id;
        }
        catch (e) {
            entry.action = 'failed';
            entry.problem = (0,error_message/* errorMessage */.gJ)(e);
        }
    }
    // A copy whose dashboard the plan no longer changes (or a second one of a name) goes.
    for (const c of left) {
        const entry = {
            dashboard: (0,preview_copy/* copiedName */.AS)(pullRequest, c.name),
            name: c.name,
            id: c.id,
            action: 'deleted'
        };
        requests++;
        try {
            await api.deleteDashboard(c.id);
        }
        catch (e) {
            entry.action = 'failed';
            entry.problem = (0,error_message/* errorMessage */.gJ)(e);
        }
        copies.push(entry);
    }
    return { copies, requests };
}
const writesDashboard = ({ change, desired }) => change.kind === 'Dashboard' && desired !== undefined && !change.deferred && WRITES.has(change.action);

// EXTERNAL MODULE: ./src/api/errors.ts
var errors = __webpack_require__(3249);
// EXTERNAL MODULE: ./src/manifest/path.ts
var manifest_path = __webpack_require__(7578);
;// CONCATENATED MODULE: ./src/live/server-validation.ts






const server_validation_WRITES = new Set(['create', 'update', 'replace']);
async function validateOnServer(api, planned, options) {
    const out = [];
    const bodyOptions = {
        tag: options.settings.ownershipTag,
        mode: options.settings.mode,
        idOf: name => options.dashboards.desired.get(name)?.liveId
    };
    for (const pc of planned) {
        const { change } = pc;
        if (!server_validation_writesDashboard(pc))
            continue;
        const d = pc.desired.value;
        if (namesWhatThisRunCreates(d)) {
            options.log.debug(`${change.address}: not validated on the server: it names what this run creates`);
            continue;
        }
        const live = change.action === 'update' ? pc.live : undefined;
        const body = dryRunBody(live ? (0,bodies/* updateBody */.Et)(d, live, bodyOptions) : (0,bodies/* createBody */.Fm)(d, bodyOptions));
        let verdict;
        try {
            verdict = await api.validateDashboard(body);
        }
        catch (e) {
            out.push(unavailable(e));
            // The route is absent or failing: the other dashboards would fare no better, and cost a request each.
            break;
        }
        if (verdict.valid)
            continue;
        const errors = verdict.errors ?? [];
        if (errors.length === 0)
            out.push(refusal(d, '', 'the server reports this dashboard invalid without saying why'));
        for (const e of errors)
            out.push(refusal(d, e.path, e.message));
    }
    return out;
}
/** The changes validateOnServer sends to the dry run, a request each: an apply sends them before its first write. */
const sentToDryRun = (pc) => server_validation_writesDashboard(pc) && !namesWhatThisRunCreates(pc.desired.value);
const server_validation_writesDashboard = ({ change, desired }) => change.kind === 'Dashboard' && desired !== undefined && !change.deferred && server_validation_WRITES.has(change.action);
/**
 * A body naming a source or connection this run creates has no id for it yet: the apply's write checks it. Those
 * names are in the tiles and the filters (a link-out to a dashboard not yet created is left out of the body).
 */
const namesWhatThisRunCreates = (d) => (0,references/* placeholderTokens */.o9)([d.tiles.map(t => t.body), d.filters]).length > 0;
/**
 * The body as the dry run takes it: it checks a dashboard as a create does, whose schema refuses filter ids (TF
 * `dashboard_tile_ids.go` stripServerIDs); tile ids pass.
 */
function dryRunBody(body) {
    if (!Array.isArray(body.filters))
        return body;
    const filters = body.filters.map(({ id: _id, ...rest }) => rest);
    return { ...body, filters };
}
/**
 * A finding at the manifest's line: the server's path (`tiles.0.config.select.1`) names the request's fields,
 * whose tiles and filters are the manifest's, in its order; a field the manifest writes otherwise (a series) points
 * at the nearest one it has.
 */
function refusal(d, serverPath, message) {
    const path = serverPath
        .split('.')
        .filter(p => p !== '')
        .map(p => (/^\d+$/.test(p) ? Number(p) : p));
    const field = path.length > 0 ? (0,manifest_path/* formatPath */.j)(path) : undefined;
    return (0,src_diagnostics/* diagnostic */.YK)('plan', 'error', `the server's validation refuses it: ${message}`, {
        ...d.located.doc.locate(path.length > 0 ? path : ['name']),
        ...(field ? { field } : {})
    });
}
function unavailable(e) {
    const absent = e instanceof errors/* ApiError */.hD && e.status === 404;
    return (0,src_diagnostics/* diagnostic */.YK)('plan', 'warning', absent
        ? 'dashboards were not validated on the server: it has no dashboards/validate route, so they are checked when the apply writes them (server-validation: false skips the attempt)'
        : `dashboards were not validated on the server (the apply still checks them): ${(0,error_message/* errorMessage */.gJ)(e)}`);
}

// EXTERNAL MODULE: ./src/log.ts
var src_log = __webpack_require__(5625);
// EXTERNAL MODULE: ./src/manifest/files.ts + 6 modules
var files = __webpack_require__(8937);
// EXTERNAL MODULE: ./src/planner/planner.ts + 2 modules
var planner = __webpack_require__(6996);
// EXTERNAL MODULE: ./src/kinds/dashboard/layout.ts
var layout = __webpack_require__(7344);
// EXTERNAL MODULE: ./src/plan/preview.ts
var preview = __webpack_require__(9687);
;// CONCATENATED MODULE: ./src/planner/preview.ts




/** A change path's tile and what under it changed: `tiles["A"].x` -> ["A", "x"]; `tiles["A"]` -> ["A", ""]. */
function tilePathOf(path) {
    const at = (0,diff/* keyedField */.n)(path, 'tiles');
    return at && [at.key, /^\.([A-Za-z]+)/.exec(at.rest)?.[1] ?? ''];
}
const PLACE_FIELDS = new Set(['', 'x', 'y', 'w', 'h', 'container', 'tab']);
/** Whether a dashboard change moves, sizes, adds or removes a tile, or changes its containers. */
function changesLayout(c) {
    return c.fields.some(f => {
        if (f.path === 'containers' || f.path.startsWith('containers'))
            return true;
        const at = tilePathOf(f.path);
        return at !== undefined && PLACE_FIELDS.has(at[1]);
    });
}
/**
 * A plan's preview: its layouts, and with data (check-queries, and how `preview-values` treats values from
 * the data) empty lists the query check fills.
 */
function previewOf(planned, withData) {
    const values = withData === true ? 'mask' : withData === false ? undefined : withData;
    return {
        version: preview/* PREVIEW_VERSION */.E,
        ...(values !== undefined ? { values } : {}),
        layouts: layoutPreviews(planned),
        ...(values !== undefined ? { tiles: [], alerts: [] } : {})
    };
}
function layoutPreviews(planned) {
    const out = [];
    for (const pc of planned) {
        const c = pc.change;
        if (c.kind !== 'Dashboard' || c.deferred !== undefined || !pc.desired)
            continue;
        if (c.action !== 'create' && c.action !== 'replace' && c.action !== 'update')
            continue;
        if (c.action === 'update' && !changesLayout(c))
            continue;
        const desired = pc.desired.value;
        const live = pc.live;
        const edited = new Set();
        for (const f of c.fields) {
            const at = tilePathOf(f.path);
            if (at && !PLACE_FIELDS.has(at[1]))
                edited.add((0,diff/* keyText */.Pu)(at[0]));
        }
        out.push({
            address: c.address,
            name: c.name,
            action: c.action,
            ...(live && c.action !== 'create' ? { before: liveGrid(live) } : {}),
            after: desiredGrid(desired, live),
            edited: [...edited]
        });
    }
    return out;
}
/** Tiles by their keys in the plan's paths (a repeated name with a short id), as the reviewer reads them. */
function desiredGrid(d, live) {
    const keys = (0,dashboard_tiles/* pairTiles */.uN)((0,dashboard_tiles/* tileSpecs */.d1)(d), live).desired;
    const tiles = d.tiles.map(({ spec }, i) => tileOf((0,diff/* keyText */.Pu)(keys[i].key), spec.x, spec.y, spec.w, spec.h, spec.container, spec.tab));
    const containers = (d.spec.containers ?? []).map(c => containerOf(c.title, c.tabs?.map(t => t.title), c.collapsed));
    return { tiles, containers };
}
function liveGrid(l) {
    const tiles = [...(0,dashboard_tiles/* keyedLiveTiles */.od)(l)].map(([key, t]) => {
        const at = (0,layout/* livePlacement */.kW)(t, l);
        return tileOf((0,diff/* keyText */.Pu)(key), t.x, t.y, t.w, t.h, at.container, at.tab);
    });
    const containers = (Array.isArray(l.containers) ? l.containers : []).map(c => {
        const tabs = Array.isArray(c.tabs)
            ? c.tabs.map(t => String(t.title ?? t.id))
            : undefined;
        return containerOf(String(c.title ?? c.id), tabs, c.collapsed === true);
    });
    return { tiles, containers };
}
function tileOf(name, x, y, w, h, container, tab) {
    const t = { name, x, y, w, h };
    if (container !== undefined)
        t.container = container;
    if (container !== undefined && tab !== undefined)
        t.tab = tab;
    return t;
}
function containerOf(title, tabs, collapsed) {
    const c = { title };
    if (tabs && tabs.length > 0)
        c.tabs = tabs;
    if (collapsed)
        c.collapsed = true;
    return c;
}

// EXTERNAL MODULE: ./src/policy/check.ts + 12 modules
var check = __webpack_require__(5075);
;// CONCATENATED MODULE: ./src/run/cross-stack.ts
/**
 * A resource belongs to one stack. Ownership tags keep stacks apart on their own; what can still bring
 * two stacks of one run onto the same resource is explicit: an `id:` pin, or a dashboard that carries two
 * ownership tags. Two plans of one run that manage the same live resource are both refused here, before
 * anything is applied, so one stack never updates or deletes what another one plans.
 */

/**
 * Whether a change has a stack manage a live resource: anything paired with one. A create has no live
 * resource yet, and a delete that waits for prune is only shown: the stack that adopts a dashboard
 * another stack left (pinned with `id:`) may take it while that stack's prune is off.
 */
const manages = (c) => c.id !== undefined && c.action !== 'create' && c.deferred !== 'prune';
/** The problems of each plan (by index) that shares a managed resource with another plan. */
function crossStackConflicts(plans) {
    const problems = plans.map(() => []);
    if (plans.length < 2)
        return problems;
    const byResource = new Map();
    plans.forEach((plan, i) => {
        for (const change of plan.changes.filter(manages)) {
            const key = `${change.kind}\u0000${change.id}`;
            byResource.set(key, [...(byResource.get(key) ?? []), { plan: i, change }]);
        }
    });
    for (const holders of byResource.values()) {
        const stacks = new Set(holders.map(h => h.plan));
        if (stacks.size < 2)
            continue;
        for (const { plan, change } of holders) {
            const others = [...stacks].filter(p => p !== plan).map(p => `"${plans[p].stack}"`);
            problems[plan].push((0,src_diagnostics/* diagnostic */.YK)('plan', 'error', `${change.kind} "${change.name}" (id ${change.id}) is also managed by stack ${others.join(', ')} in this run: a resource belongs to one stack, so neither plan may change it. To move it to another stack, take it out of the old stack's manifests and pin it with \`id:\` in the new one, in a run where the old stack's prune is off`, change.source));
        }
    }
    twinCreates(plans, problems);
    return problems;
}
/**
 * Creates the server refuses twice in one team: webhooks of one service and name (models/webhook.ts has a
 * unique index on them), roles of one name (the cloud's ClickStackCreateRoleRequest: "Must be unique within the
 * team"). Two stacks of one run that would both create one are both refused before any write.
 */
function twinCreates(plans, problems) {
    const byKey = new Map();
    plans.forEach((plan, i) => {
        for (const change of plan.changes) {
            if (change.action !== 'create')
                continue;
            const twin = twinOf(change);
            if (!twin)
                continue;
            const key = JSON.stringify([change.kind, twin.key]);
            byKey.set(key, [...(byKey.get(key) ?? []), { plan: i, change, ...twin }]);
        }
    });
    for (const creates of byKey.values()) {
        const stacks = new Set(creates.map(c => c.plan));
        if (stacks.size < 2)
            continue;
        for (const { plan, change, what, rule } of creates) {
            const others = [...stacks].filter(p => p !== plan).map(p => `"${plans[p].stack}"`);
            problems[plan].push((0,src_diagnostics/* diagnostic */.YK)('plan', 'error', `stack "${plans[plan].stack}" and stack ${others.join(', ')} both create ${what} in this run, and ${rule}`, change.source));
        }
    }
}
/** What makes a created record a twin the server refuses, and the words for it. */
function twinOf(change) {
    if (change.kind === 'Webhook') {
        const service = String(change.fields.find(f => f.path === 'service')?.after ?? '');
        return {
            key: [change.name, service],
            what: `webhook "${change.name}" (${service})`,
            rule: 'the server allows one webhook of a service and name in a team: give one of them another name or another service'
        };
    }
    if (change.kind === 'Role')
        return {
            key: change.name,
            what: `role "${change.name}"`,
            rule: 'the server allows one role of a name in a team: give one of them another name'
        };
    return undefined;
}

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
    const { waitsFor, dependents } = dependencyGraph(operations);
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
                // Every dependency done: nothing can skip it any more (only a failed dependency does).
                if (deps.size === 0)
                    ready.push(d);
            }
        }
        else {
            const why = outcome.state === 'failed' ? `${op.address} (${op.label}) failed` : outcome.reason;
            for (const d of dependents.get(op) ?? [])
                skip(d, why);
        }
    };
    // Ends when nothing runs: an operation not started by then waits for one that never comes (not reached).
    for (;;) {
        // Start what may start: free slot, free lock. Others stay queued in order.
        for (let i = 0; i < ready.length && running.size < concurrency;) {
            const op = ready[i];
            if (op.lock && heldLocks.has(op.lock)) {
                i++;
                continue;
            }
            ready.splice(i, 1);
            if (op.lock)
                heldLocks.add(op.lock);
            hooks.started?.(op);
            // Async, so an operation that throws before its first await fails like one that rejects.
            const p = (async () => op.run(ctx))()
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
/** What each operation waits for (the providers of its tokens, never itself), and who waits for each. */
function dependencyGraph(operations) {
    const providers = new Map();
    // Pushed, not copied: a kind's token is provided by each of its thousand operations.
    for (const op of operations)
        for (const token of op.provides) {
            const list = providers.get(token);
            if (list)
                list.push(op);
            else
                providers.set(token, [op]);
        }
    const waitsFor = new Map();
    const dependents = new Map();
    for (const op of operations) {
        const deps = new Set(op.after.flatMap(t => providers.get(t) ?? []).filter(p => p !== op));
        waitsFor.set(op, deps);
        for (const d of deps) {
            const list = dependents.get(d);
            if (list)
                list.push(op);
            else
                dependents.set(d, [op]);
        }
    }
    return { waitsFor, dependents };
}

;// CONCATENATED MODULE: ./src/apply/apply.ts






/** Every operation of a kind provides this token: deletes of earlier kinds wait for it. */
const kindDone = (kind) => `kind-done:${kind}`;
/** Kinds that no other kind refers to and that delete nothing: deletes do not wait for them. */
const INDEPENDENT = new Set(['ServiceSettings']);
async function applyPlan(input) {
    const kinds = new Map((input.kinds ?? src_kinds/* KINDS */.G).map(k => [k.kind, k]));
    const registry = input.registry ?? kinds_registry/* Registry */.OR.empty(input.settings.stack, input.settings.ownershipTag);
    const octx = { settings: input.settings, dashboards: input.dashboards, registry };
    const opsByChange = new Map();
    const build = input.operations ?? ((pc) => kinds.get(pc.change.kind).operations(pc, octx));
    for (const pc of input.planned)
        opsByChange.set(pc, build(pc, octx));
    orderDeletes(opsByChange);
    const all = [...opsByChange.values()].flat();
    const ctx = {
        api: input.api,
        settings: input.settings,
        dashboards: input.dashboards,
        registry: new kinds_registry/* RegistryWriter */.bt(registry, input.api, input.settings.mode),
        facts: new Map(),
        log: input.log,
        reread: sharedReader(),
        lostResponses: new Set()
    };
    const stopPacing = watchPacing(input);
    const outcomes = await runOperations(all, ctx, input.concurrency, progressHooks(opsByChange, input.onProgress, input.concurrency, input.countdown)).finally(stopPacing);
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
    if (input.before)
        await settleCopies(input, ctx, kinds, result);
    return result;
}
/**
 * Tells onPacing, once per wait of more than a second, that requests are held for the client-side rate limit: a
 * long apply says it is pacing instead of seeming stuck on one change.
 */
function watchPacing(input) {
    const { onPacing, api } = input;
    if (!onPacing || !api.pacingFor)
        return () => { };
    let pacing = false;
    const timer = setInterval(() => {
        const left = api.pacingFor();
        // Said when a wait of more than a second begins; not again until requests flow.
        if (left !== undefined && left >= 1000 && !pacing)
            onPacing(left);
        pacing = left !== undefined;
    }, 250);
    timer.unref();
    return () => clearInterval(timer);
}
/** The copies an apply's creates left (apply/copies.ts): this run's own late commits deleted, others reported. */
async function settleCopies(input, ctx, kinds, result) {
    const lost = ctx.lostResponses;
    if (lost.size > 0 && input.settleMs) {
        input.log.info(`waiting ${Math.round(input.settleMs / 1000)} s for creates whose response was lost to land, then looking for copies`);
        await new Promise(resolve => setTimeout(resolve, input.settleMs));
    }
    let found;
    try {
        found = await findCopies({
            api: input.api,
            kinds,
            outcomes: result.outcomes,
            before: input.before,
            settings: input.settings,
            lostResponses: lost,
            registry: ctx.registry
        });
    }
    catch (e) {
        // The apply is done; an unanswered re-read only means copies were not looked for. Said, not fatal.
        input.log.warn(`could not look for copies of what this apply created: ${e instanceof Error ? e.message : String(e)}`);
        return;
    }
    for (const { outcome, id } of found.removed) {
        const note = `a copy (id ${id}) that the server committed late, after this create's response was lost and it was created again, was deleted`;
        outcome.message = outcome.message ? `${outcome.message}; ${note}` : note;
    }
    const copies = found.left.map(({ outcome, ids, why }) => ({
        address: outcome.address,
        message: `${outcome.kind} "${outcome.name}" exists ${ids.length + 1} times (ids ${[outcome.id, ...ids].join(', ')}): ${why}. This run keeps ${outcome.id}; the next plan deletes the other${ids.length === 1 ? '' : 's'} with prune, as a copy. Let one apply of a stack run at a time (the workflow's \`concurrency:\` setting)`
    }));
    if (found.registries) {
        const [kept, ...extra] = found.registries.ids;
        const name = (0,kinds_registry/* registryName */.jT)(input.settings.stack);
        const them = extra.length === 1 ? 'it' : 'them';
        copies.push({
            address: `Dashboard/${name}`,
            message: `the registry dashboard "${name}" exists ${extra.length + 1} times (ids ${found.registries.ids.join(', ')}): ${found.registries.why}. What each apply created is recorded in one of them, and a plan reads them as one, so the stack still owns it all; the next plan names the extra one${extra.length === 1 ? '' : 's'} (${extra.join(', ')}), and \`apply --prune\` writes ${extra.length === 1 ? 'its' : 'their'} entries into ${kept} (the lowest id) and deletes ${them}. Let one apply of a stack run at a time (the workflow's \`concurrency:\` setting)`
        });
    }
    if (copies.length === 0)
        return;
    result.complete = false;
    result.copies = copies;
}
/**
 * Deletes run in the reverse of the kinds' order: a delete waits for every operation of the kinds that may
 * refer to what it deletes (a webhook's delete for the alerts that stop using it, a source's for the
 * dashboards and saved searches). Creates and updates are ordered by what they refer to.
 */
function orderDeletes(opsByChange) {
    for (const [pc, ops] of opsByChange)
        for (const op of ops)
            op.provides.push(kindDone(pc.change.kind));
    for (const [pc, ops] of opsByChange) {
        if (pc.change.action !== 'delete')
            continue;
        const later = types/* RESOURCE_KINDS */.pQ.slice(types/* RESOURCE_KINDS */.pQ.indexOf(pc.change.kind) + 1).filter(k => !INDEPENDENT.has(k));
        for (const op of ops)
            op.after.push(...later.map(kindDone));
    }
}
/**
 * Operations' starts and ends, as changes' starts and ends: a change ends when its last operation settles. Each says
 * how many requests are left by the plan's estimate, counting a change's as sent when it ends.
 */
function progressHooks(opsByChange, report, concurrency, countdown) {
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
    const changes = [...left.keys()].map(pc => pc.change);
    const requests = countdown ? RequestsLeft.of(changes, concurrency) : undefined;
    const started = new Set();
    const statuses = new Map();
    let done = 0;
    const event = (pc, kind, status) => {
        const { address, kind: resource, name, action } = pc.change;
        const progress = {
            event: kind,
            address,
            kind: resource,
            name,
            action,
            status,
            done,
            total
        };
        if (requests)
            progress.left = requests.left(countdown.pace);
        return progress;
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
            requests?.settled(pc.change);
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

// EXTERNAL MODULE: ./src/version.ts
var version = __webpack_require__(311);
;// CONCATENATED MODULE: ./src/run/saved-plan.ts
/**
 * A saved plan (`apply --plan saved.json`): reading it, checking it, and applying its changes as recorded.
 *
 * Why applying the recorded changes is exactly as strict as planning again (what `apply --plan` did before):
 * - Planning again refuses when the new plan has errors, is for another stack or mode, or when either of
 *   its fingerprints differs from the saved plan's; otherwise it applies the operations of the NEW plan.
 * - A plan is a pure function of the manifest files' bytes (found by the patterns), the settings and
 *   variables that shape it (PlanSettings, `vars`, `secret-vars`), the live state as read, and the tool's
 *   version. computePlan reads no clock but for `createdAt`, no environment, nothing else.
 * - `plan` writes, beside the plan, an apply section (one stack, no secret-vars, no errors): a digest of
 *   the patterns, the variables, the settings and each file's text by path (`inputs`); a digest of the whole
 *   live state as read, every record of every list and the service (`live`); what each change's
 *   operations read of its desired record (`records`, the kind's SavedForm); the dashboard facts. A seal,
 *   an HMAC of the whole file keyed with the API credentials, proves the file is as the tool wrote it: the
 *   records are the planner's own, not an edit.
 * - `apply` uses the section only when the seal holds for its own credentials, the tool and section
 *   versions are its own, the plan has no errors and is for its stack and mode, the same patterns find the
 *   same files with the same digests under the same settings and variables, and the live state read now
 *   has the same digest and managed prefix. Then planning again would compute the very same plan: the same
 *   fingerprints (so no refusal) and the same changes, whose operations are the ones the records rebuild
 *   (SavedForm's promise). The registry is the same function of the same live state.
 * - When anything differs or cannot be checked, the run plans again, compares fingerprints and refuses
 *   exactly as before. So this never applies where planning again would refuse, and never applies
 *   anything planning again would not.
 * One assumption: the version names the planner's code (as a release's does). Two builds that share a
 * version string but plan differently (between releases) would take each other's sealed plans.
 * The live digest is a superset of what the planner reads (volatile fields such as an alert's state
 * included): any change there sends the run down the path that plans again, which applies when the
 * fingerprints that matter still agree.
 */










/**
 * A plan JSON from an earlier plan run, or why it cannot be used. With `auth`, a plan whose seal holds for
 * it is taken as written (see SavedPlanFile).
 */
async function readSavedPlan(file, cwd, auth) {
    try {
        const bytes = await (0,promises_.readFile)(external_node_path_default().resolve(cwd, file));
        const text = bytes.toString('utf8');
        const json = JSON.parse(text);
        // An apply section of another version is not this tool's to read: the plan is applied by planning again.
        const section = json?.apply;
        if (section !== undefined && section?.version !== types/* APPLY_SECTION_VERSION */.Kk)
            delete json.apply;
        else if (auth && json?.tool?.version === version/* VERSION */.x && sealHolds(bytes, section, auth))
            return { plan: json, sealed: text };
        const saved = (0,types/* planSchemas */.we)().PlanFile.safeParse(json);
        return saved.success ? { plan: saved.data } : `${file} is not a plan file of this tool (schemaVersion 1)`;
    }
    catch (e) {
        return `the saved plan ${file} cannot be read: ${(0,error_message/* errorMessage */.gJ)(e)}`;
    }
}
/**
 * One stack's saved plan. A plan file of many stacks holds those its run planned (on a pull request, the
 * changed ones): a stack it does not hold may be applied only when its plan has nothing to apply.
 */
function savedPlanFor(saved, stack, file) {
    if (typeof saved === 'string')
        return saved;
    if (!('stacks' in saved.plan))
        return saved.plan;
    const plans = saved.plan.stacks;
    return (plans.find(p => p.stack === stack) ?? {
        missing: `the saved plan ${file} has no plan for stack "${stack}" (it has ${plans.map(p => `"${p.stack}"`).join(', ') || 'none'}); plan it again and review it`
    });
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
/** What the seal field holds while the seal is computed over the file's text. */
const UNSEALED = 'unsealed';
/** The seal's key: the run's API credentials (a plan sealed with one key does not verify with another). */
const sealKey = (auth) => (0,credential/* credentialOf */.$)(auth) ?? 'none';
/** The seal of a text given in parts (a file's bytes around its seal field are not copied into one). */
function hmac(auth, ...parts) {
    const mac = (0,external_node_crypto_.createHmac)('sha256', sealKey(auth));
    for (const part of parts)
        mac.update(part);
    return `hmac-sha256:${mac.digest('base64url')}`;
}
/** The seal field as it stands while the seal is computed. */
const UNSEALED_FIELD = `"seal":"${UNSEALED}"`;
/**
 * The plan file's text, its apply section sealed: the plan as JSON indented for people, the apply
 * section last and on one line (it is for the tool, and indenting its request bodies would more than
 * double the file). The seal is the HMAC of that text with the seal UNSEALED, put in its place (its last
 * field). In the parts it is made of, not joined: a plan of thousands of changes is written part by part
 * (at 5,000 dashboards the file is 6.6 MB, and each whole copy of it a large object that stays until a full
 * collection).
 */
function sealedPlanParts(plan, auth) {
    const { apply, ...rest } = plan;
    const section = JSON.stringify({ ...apply, seal: UNSEALED });
    const at = section.lastIndexOf(UNSEALED_FIELD);
    const parts = [
        JSON.stringify(rest, null, 2).slice(0, -2),
        ',\n  "apply": ',
        section.slice(0, at),
        UNSEALED_FIELD,
        `${section.slice(at + UNSEALED_FIELD.length)}\n}\n`
    ];
    parts[3] = `"seal":"${hmac(auth, ...parts)}"`;
    return parts;
}
/** Whether the file carries the seal these credentials make of it (over its bytes, the seal UNSEALED). */
function sealHolds(bytes, section, auth) {
    if (typeof section?.seal !== 'string')
        return false;
    const field = Buffer.from(`"seal":"${section.seal}"`);
    const at = bytes.lastIndexOf(field);
    if (at < 0)
        return false;
    const actual = Buffer.from(section.seal);
    const wanted = Buffer.from(hmac(auth, bytes.subarray(0, at), UNSEALED_FIELD, bytes.subarray(at + field.length)));
    return actual.length === wanted.length && (0,external_node_crypto_.timingSafeEqual)(actual, wanted);
}
/**
 * The text of the plan file an apply of a sealed saved plan writes: the saved text (exactly what writing
 * the plan gives) with this run's time and command, without the apply section. Top-level fields are the
 * only ones indented by two spaces, and the apply section is the last.
 */
function appliedPlanText(sealed, createdAt, command) {
    const end = sealed.lastIndexOf(',\n  "apply": {');
    return `${sealed.slice(0, end)}\n}\n`
        .replace(/\n {2}"createdAt": "[^"]*"/, () => `\n  "createdAt": ${JSON.stringify(createdAt)}`)
        .replace(/\n {2}"command": "[^"]*"/, () => `\n  "command": ${JSON.stringify(command)}`);
}
const sha256 = (text) => `sha256:${(0,external_node_crypto_.createHash)('sha256').update(text).digest('base64url')}`;
/**
 * The digest of the whole live state as read (every list, every field, the service): the bytes of
 * `JSON.stringify(live)`, hashed list item by list item, so that no string of the whole state is built
 * (tens of megabytes at thousands of dashboards, on every plan of one stack).
 */
function liveDigest(live) {
    const hash = (0,external_node_crypto_.createHash)('sha256').update('{');
    let fields = 0;
    for (const [key, value] of Object.entries(live)) {
        // Copies come and go with every pull request's push: they are no part of what a plan is made from.
        if (value === undefined || key === 'previewCopies')
            continue;
        hash.update(`${fields++ > 0 ? ',' : ''}${JSON.stringify(key)}:`);
        if (!Array.isArray(value)) {
            hash.update(JSON.stringify(value));
            continue;
        }
        hash.update('[');
        value.forEach((item, i) => hash.update(`${i > 0 ? ',' : ''}${JSON.stringify(item) ?? 'null'}`));
        hash.update(']');
    }
    return `sha256:${hash.update('}').digest('base64url')}`;
}
/**
 * The digest of what shapes a plan besides the live state: the settings (but the managed prefix, which the
 * live read settles and which is compared on its own), the patterns, the variables, the names of the secret
 * variables, and each manifest file's text digest by path.
 */
function inputsDigest(config, settings, files) {
    return sha256(JSON.stringify({
        settings: { ...settings, managedPrefix: undefined },
        patterns: config.manifests,
        vars: config.vars,
        secretVars: Object.keys(config.secretVars).sort(),
        files: [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    }));
}
/**
 * The apply section of a plan just computed, sealed later (sealedPlanParts), or why it has none: the
 * `apply --plan` of such a plan plans again.
 */
function applySectionOf(input) {
    const { outcome, settings } = input;
    if (Object.keys(input.config.secretVars).length > 0)
        return 'secret-vars are set (a saved plan never holds request bodies then)';
    if (!input.manifests.digests)
        return 'the manifests were not read from files';
    if ((0,src_diagnostics/* hasErrors */.Cs)(outcome.plan.diagnostics))
        return 'the plan has errors';
    if (input.planRules !== undefined)
        return 'its policies have rules over the plan, which an apply checks again (labels may differ)';
    const kinds = new Map(input.kinds.map(k => [k.kind, k]));
    const octx = { settings, dashboards: outcome.dashboards, registry: outcome.registry };
    const records = {};
    for (const pc of outcome.planned) {
        // No kind has operations for a no-op or a deferred change: skipped without building them.
        if (!(0,types/* isActionable */.nM)(pc.change))
            continue;
        const kind = kinds.get(pc.change.kind);
        if (kind.operations(pc, octx).length === 0)
            continue;
        if (!kind.saved)
            return `${pc.change.kind} changes are not carried by a saved plan yet`;
        records[pc.change.address] = kind.saved.save(pc.desired?.value);
    }
    const facts = outcome.dashboards;
    return {
        version: types/* APPLY_SECTION_VERSION */.Kk,
        inputs: inputsDigest(input.config, settings, input.manifests.digests),
        live: input.live,
        records,
        dashboards: {
            desired: [...facts.desired].map(([name, d]) => ({
                name,
                address: d.address,
                ...(d.liveId === undefined ? {} : { liveId: d.liveId }),
                tileIds: [...d.tileIds],
                ...(d.pinnedNames.size > 0 ? { pinnedNames: [...d.pinnedNames] } : {})
            })),
            live: [...facts.live].map(([id, l]) => ({
                id,
                address: l.address,
                ...(l.desiredName === undefined ? {} : { desiredName: l.desiredName }),
                deleted: l.deleted,
                droppedTileIds: [...l.droppedTileIds]
            }))
        },
        seal: UNSEALED
    };
}
/** The saved plan, when its section is sealed for these credentials and fits this run; or why not. */
function sealedPlan(saved, config) {
    if (typeof saved === 'string')
        return saved;
    if ('stacks' in saved.plan)
        return 'it is a plan of many stacks';
    const plan = saved.plan;
    if (!plan.apply)
        return 'it has no apply section of this version';
    if (plan.tool.version !== version/* VERSION */.x)
        return `it was made by version ${plan.tool.version}`;
    if (saved.sealed === undefined)
        return 'its seal does not hold (edited, or made with other credentials)';
    if ((0,src_diagnostics/* hasErrors */.Cs)(plan.diagnostics))
        return 'it has errors';
    if (plan.stack !== config.stack || plan.mode !== config.mode)
        return 'it is for another stack or mode';
    return {
        plan: plan,
        text: saved.sealed,
        readsService: config.mode === 'managed' && plan.changes.some(c => c.kind === 'ServiceSettings')
    };
}
/**
 * The plan outcome the saved plan records, to be applied as planning again would have computed it, or why
 * not. `live` has the digest the plan records (checked by the caller).
 */
function restoreOutcome(sealed, live, settings, kinds) {
    const { plan } = sealed;
    const section = plan.apply;
    const byKind = new Map(kinds.map(k => [k.kind, k]));
    const planned = [];
    for (const change of plan.changes) {
        if (!Object.hasOwn(section.records, change.address))
            continue;
        const kind = byKind.get(change.kind);
        if (!kind?.saved)
            return `${change.kind} changes are not carried by a saved plan`;
        let liveRecord;
        if (change.id !== undefined && kind.live) {
            const records = (0,kinds_kind/* recordsOf */.M)(live, kind.kind);
            liveRecord = Array.isArray(records) ? records.find(r => kind.liveId(r) === change.id) : undefined;
            if (liveRecord === undefined)
                return `the live ${change.kind} ${change.id} is not in the live state`;
        }
        planned.push({ change, live: liveRecord });
    }
    const dashboards = {
        desired: new Map(section.dashboards.desired.map(d => [
            d.name,
            {
                address: d.address,
                liveId: d.liveId,
                tileIds: new Map(d.tileIds),
                pinnedNames: new Map(d.pinnedNames ?? [])
            }
        ])),
        live: new Map(section.dashboards.live.map(l => [
            l.id,
            {
                address: l.address,
                desiredName: l.desiredName,
                deleted: l.deleted,
                droppedTileIds: new Set(l.droppedTileIds)
            }
        ]))
    };
    const registry = (0,planner/* readRegistry */._)(live, settings, kinds);
    // Every record is read back before anything is sent: one that is not of its kind's form stops it here.
    const octx = { settings, dashboards, registry };
    const built = new Map();
    for (const pc of planned) {
        const ops = byKind.get(pc.change.kind).saved.operations(section.records[pc.change.address], pc, octx);
        if (ops === undefined)
            return `its record of ${pc.change.address} is not of its kind's form`;
        built.set(pc, ops);
    }
    return { outcome: { plan, planned, dashboards, registry }, operations: pc => built.get(pc) };
}

// EXTERNAL MODULE: ./src/run/types.ts
var run_types = __webpack_require__(1316);
;// CONCATENATED MODULE: ./src/run/finish.ts





/** A stack's plan carried through: refused on errors, returned for plan and drift, or applied. */
async function finishStack(config, planned, run) {
    const { stack, outcome } = planned;
    const plan = outcome.plan;
    const diagnostics = [
        ...stack.manifests.diagnostics,
        ...plan.diagnostics.filter(d => d.stage !== 'validate')
    ];
    const outputs = outputsOf(plan, run.planFile);
    const finish = (exitCode, apply) => ({
        stack: stack.name,
        exitCode,
        diagnostics,
        plan,
        ...(apply ? { apply } : {}),
        outputs
    });
    if ((0,src_diagnostics/* hasErrors */.Cs)(plan.diagnostics)) {
        if (config.command === 'apply')
            diagnostics.push((0,src_diagnostics/* diagnostic */.YK)('apply', 'error', 'nothing was applied: the plan has errors'));
        return finish(1);
    }
    if (config.command === 'plan')
        return finish(0);
    if (config.command === 'drift')
        return finish(outputs.hasChanges ? 1 : 0);
    const refusal = run.forStack !== undefined && savedPlanRefusal(run.forStack, config, plan, outputs.hasChanges);
    if (refusal) {
        diagnostics.push((0,src_diagnostics/* diagnostic */.YK)('apply', 'error', `nothing was applied: ${refusal}`));
        return finish(1);
    }
    if (!outputs.hasChanges)
        return finish(0);
    const apply = await applyStack(config, planned, run);
    diagnostics.push(...applyProblems(plan, apply));
    return finish(apply.complete ? 0 : 1, apply);
}
/**
 * Why `apply --plan` applies nothing of this stack: its plan differs from the saved one, or the saved file does not
 * hold this stack while its plan has changes.
 */
function savedPlanRefusal(forStack, config, plan, hasChanges) {
    if (typeof forStack === 'object' && 'missing' in forStack)
        return hasChanges ? forStack.missing : undefined;
    return compareWithSavedPlan(forStack, config.savedPlan, plan);
}
function applyStack(config, { stack, settings, outcome }, run) {
    const progress = run.deps.progress;
    return applyPlan({
        api: run.api,
        planned: outcome.planned,
        dashboards: outcome.dashboards,
        registry: outcome.registry,
        settings,
        concurrency: config.concurrency,
        log: run.log,
        ...(run.operations ? { operations: run.operations } : {}),
        before: run.live,
        ...(run.deps.pacing ? { onPacing: run.deps.pacing } : {}),
        // A plan file older than estimates has none to count down.
        ...(outcome.plan.estimate?.version === types/* ESTIMATE_VERSION */.SO ? { countdown: { pace: config.rateLimit } } : {}),
        // A create that timed out may commit up to about as late again: wait that long before looking for copies.
        settleMs: 2 * config.requestTimeoutMs,
        // With many stacks, each line says whose change it is.
        onProgress: progress && run.many ? p => progress({ ...p, stack: stack.name }) : progress
    });
}
/** What went wrong in an apply, each at the manifest of its change: failed changes, copies, a service not converged. */
function applyProblems(plan, apply) {
    const problems = [];
    for (const o of apply.outcomes) {
        if (o.status === 'failed') {
            const at = plan.changes.find(c => c.address === o.address)?.source;
            problems.push((0,src_diagnostics/* diagnostic */.YK)('apply', 'error', `${o.kind} "${o.name}" (${o.action}) failed: ${o.message ?? 'unknown error'}`, at));
        }
    }
    for (const copy of apply.copies ?? []) {
        const at = plan.changes.find(c => c.address === copy.address)?.source;
        problems.push((0,src_diagnostics/* diagnostic */.YK)('apply', 'error', copy.message, at));
    }
    if (apply.convergence && !apply.convergence.converged) {
        problems.push((0,src_diagnostics/* diagnostic */.YK)('apply', 'error', `the service did not reach the desired state: ${apply.convergence.remaining.join('; ')}`));
    }
    return problems;
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
        planFile,
        matrix: run_types/* EMPTY_OUTPUTS */.J.matrix
    };
}

// EXTERNAL MODULE: external "node:v8"
var external_node_v8_ = __webpack_require__(8877);
var external_node_v8_default = /*#__PURE__*/__webpack_require__.n(external_node_v8_);
// EXTERNAL MODULE: external "node:vm"
var external_node_vm_ = __webpack_require__(714);
var external_node_vm_default = /*#__PURE__*/__webpack_require__.n(external_node_vm_);
;// CONCATENATED MODULE: ./src/run/heap.ts
/**
 * One full garbage collection between reading and planning, for large runs only.
 *
 * Why: loading the manifests and reading the live state leave garbage that only a full (mark-compact)
 * collection frees: each manifest file's text and each large list response as one large string, the
 * response's bytes, and the parsed JSON that the response schemas copy. V8 sizes the old generation from
 * what the last full collection kept, up to four times that, and in a plan of thousands of records the last
 * one comes while the manifests load: none follows before exit, so the planner's own heap piles on top of
 * that garbage. Measured on the CLI's plan of 5,000 dashboards + 10,000 alerts (bench/RESULTS.md section
 * 10): peak RSS ~265 -> ~240 MB, for one collection of a ~100 MB heap (~20 ms) in a run of ~3.5 s of CPU.
 *
 * How: Node exposes no collection to scripts without `--expose-gc` at start-up, which neither the action
 * (node24, started by the runner) nor the CLI's users can pass. The flag set at run time applies to
 * contexts made afterwards, so a new `vm` context has `gc`. Node documents flags set after start-up as
 * unsupported, so nothing depends on it: where it is refused, or `gc` is absent, the run goes on as before.
 */


/** Below this many records (live and desired together), a run's garbage is small and is left to V8. */
const COLLECT_FROM_RECORDS = 10_000;
function collectBeforePlanning(records) {
    if (records < COLLECT_FROM_RECORDS)
        return;
    try {
        external_node_v8_default().setFlagsFromString('--expose-gc');
        const gc = external_node_vm_default().runInNewContext('typeof gc === "function" ? gc : undefined');
        if (typeof gc === 'function')
            gc();
    }
    catch {
        // A runtime without the flag: V8 collects when it decides to, as before.
    }
}

// EXTERNAL MODULE: ./src/run/live-read.ts
var live_read = __webpack_require__(6928);
;// CONCATENATED MODULE: ./src/run/online.ts
/**
 * The stages that need the API: read the live state (live-read.ts), plan, check queries, apply (each
 * stack carried through in finish.ts). run() loads this module with one import once the manifests are
 * valid, so `validate` never loads the HTTP client.
 */






















// run() reaches the live read through this module's one import (early.ts).

/**
 * Plans every stack from ONE read of the live state, through one client: the stacks talk to the same API,
 * so N stacks cost the list calls of one, and their requests share one pacer (a managed key's rate limit
 * is per key, not per stack or job). Stacks are then applied one after another, so `concurrency` bounds
 * the whole run.
 */
async function runOnline(config, stacks, deps, started) {
    const log = deps.log ?? src_log/* silentLogger */.qq;
    const now = deps.now ?? (() => new Date());
    // The saved plan is read before anything is written: plan-path may be the same file.
    const saved = config.command === 'apply' && config.savedPlan
        ? await readSavedPlan(config.savedPlan, config.cwd)
        : undefined;
    const { api, live: reading } = started ?? (0,live_read/* startLiveRead */.pW)(config, deps, Promise.resolve(stacks.map(s => s.manifests)));
    try {
        let live;
        try {
            live = await reading;
        }
        catch (e) {
            const failed = (0,src_diagnostics/* diagnostic */.YK)('plan', 'error', `could not read the live state: ${(0,error_message/* errorMessage */.gJ)(e)}`);
            return {
                diagnostics: [failed],
                stacks: stacks.map(s => ({
                    stack: s.name,
                    exitCode: 1,
                    diagnostics: [...s.manifests.diagnostics],
                    outputs: { ...run_types/* EMPTY_OUTPUTS */.J }
                }))
            };
        }
        log.info(`Read live state in ${api.stats.requests} request(s): ${live.Dashboard.length} dashboard(s), ${live.Alert.length} alert(s)`);
        // A plan of one stack records the live state it was made from for `apply --plan` (saved-plan.ts):
        // digested before planning, as read.
        const liveAsRead = config.command === 'plan' && !config.stacks && stacks.length === 1 ? liveDigest(live) : undefined;
        // The garbage of loading and reading goes before planning adds its own (heap.ts says why).
        collectBeforePlanning(live.Dashboard.length +
            live.Alert.length +
            stacks.reduce((n, s) => n + s.manifests.specs.Dashboard.length + s.manifests.specs.Alert.length, 0));
        const planned = planStacks(config, stacks, api.prefix, live, now);
        const plans = planned.map(p => p.outcome.plan);
        const queried = await checkPlans(config, planned, { api, live, log, now, deps, stacks });
        if (liveAsRead !== undefined)
            recordApplySection(config, planned[0], liveAsRead, queried[0], log);
        await writeLivePreviews(config, planned, { api, live, log, now, deps });
        const planFile = await writePlan(config.planPath, config.stacks ? { schemaVersion: 1, stacks: plans } : plans[0], Object.keys(config.secretVars).length > 0
            ? (0,src_log/* redactor */.$p)(Object.values(config.secretVars), src_log/* SECRET_VAR_MIN_LENGTH */.vb)
            : undefined, config.auth);
        const outcomes = [];
        for (const p of planned) {
            const forStack = saved === undefined ? undefined : savedPlanFor(saved, p.stack.name, config.savedPlan);
            outcomes.push(await finishStack(config, p, { api, log, forStack, planFile, deps, many: stacks.length > 1, live }));
        }
        return { diagnostics: [], stacks: outcomes, planFile };
    }
    finally {
        await api.close();
    }
}
/** Each stack planned from the one live read, with what the plan says beside its changes. */
function planStacks(config, stacks, managedPrefix, live, now) {
    const planned = stacks.map(stack => {
        const settings = planSettings(config, stack);
        settings.managedPrefix = managedPrefix;
        return {
            stack,
            settings,
            outcome: (0,planner/* computePlan */.R)({
                command: config.command,
                settings,
                manifests: stack.manifests,
                live,
                now: now()
            })
        };
    });
    const plans = planned.map(p => p.outcome.plan);
    crossStackConflicts(plans).forEach((problems, i) => plans[i].diagnostics.push(...problems));
    // How long an apply of each plan takes at this run's pace: the plan says it, the apply counts it down.
    if (config.command === 'plan' || config.command === 'apply')
        for (const { outcome } of planned)
            outcome.plan.estimate = estimateOf(config, outcome);
    // What the report pictures (report/preview/): layouts from the planned changes, data from the query check.
    if (config.command === 'plan')
        for (const { outcome } of planned)
            outcome.plan.preview = previewOf(outcome.planned, config.checkQueries ? config.previewValues : undefined);
    return planned;
}
/**
 * The checks over each plan that ask the server or read what it answered: check-queries, then the policy
 * rules over the plan (which may read the queries' verdicts), then server validation. Their findings are
 * plan diagnostics. Says of each plan whether check-queries found something.
 */
async function checkPlans(config, planned, run) {
    const { api, log } = run;
    const found = planned.map(p => p.outcome.plan.diagnostics.length);
    if (config.checkQueries && config.command === 'plan') {
        for (const { outcome } of planned) {
            // Query findings are plan diagnostics: in the plan JSON, and a query the server refuses fails the plan.
            outcome.plan.diagnostics.push(...(await checkQueries(api, outcome.planned, {
                mode: config.mode,
                now: run.now(),
                log,
                preview: outcome.plan.preview,
                previewValues: config.previewValues
            })));
        }
    }
    const queried = planned.map(({ outcome }, i) => outcome.plan.diagnostics.length > found[i] || outcome.plan.changes.some(c => c.evidence));
    // Policy rules over the plan (on: plan), after the queries they may read: their errors fail the plan,
    // so nothing is applied.
    for (const { stack, outcome } of planned) {
        if (!stack.planRules)
            continue;
        const labels = run.deps.labels && (0,check/* readsLabels */.pM)(stack.planRules) ? await run.deps.labels() : undefined;
        outcome.plan.diagnostics.push(...(0,check/* checkPlanPolicies */.eN)(stack.planRules, outcome.plan, outcome.planned, planPolicyInput(config, stack, run.stacks, run.live, outcome.plan, labels)));
    }
    if (config.serverValidation && (config.command === 'plan' || config.command === 'apply')) {
        for (const { outcome, settings } of planned) {
            // A plan that fails already needs no dry run: its errors say what to fix first.
            if ((0,src_diagnostics/* hasErrors */.Cs)(outcome.plan.diagnostics))
                continue;
            outcome.plan.diagnostics.push(...(await validateOnServer(api, outcome.planned, {
                settings,
                dashboards: outcome.dashboards,
                log
            })));
        }
    }
    return queried;
}
/**
 * The live preview (`live-preview`): each stack's copies of what its plan creates or changes, written on a pull
 * request's plan, and old copies swept on every run; the plan's section says what was done. After every check, so a
 * plan with an error (validation stops before, policies and the server's dry run come first) writes none.
 */
async function writeLivePreviews(config, planned, run) {
    const event = run.deps.livePreview;
    if (!config.livePreview.write || !event)
        return;
    for (const { stack, outcome } of planned) {
        const section = await livePreview(run.api, { planned: outcome.planned, dashboards: outcome.dashboards, live: run.live }, {
            stack: stack.name,
            mode: config.mode,
            // Copies show a pull request's plan: an apply or drift run only sweeps.
            ...(config.command === 'plan' && event.pullRequest !== undefined
                ? { pullRequest: event.pullRequest }
                : {}),
            ...(event.refused !== undefined ? { refused: event.refused } : {}),
            ...((0,src_diagnostics/* hasErrors */.Cs)(outcome.plan.diagnostics)
                ? { held: 'the plan has errors: no copy is written until they are fixed' }
                : {}),
            sql: config.livePreview.sql,
            sweep: {
                now: run.now(),
                ttlMs: config.livePreview.ttlMs,
                ...(event.isClosed ? { isClosed: event.isClosed } : {})
            }
        });
        // A run that neither wrote nor swept anything has nothing to say of it.
        if (section.pullRequest === undefined && section.swept.length === 0 && section.notWritten === undefined)
            continue;
        outcome.plan.livePreview = section;
        run.log.info(`Live preview: ${section.copies.length} copy(ies), ${section.swept.length} swept, ${section.requests} request(s)`);
    }
}
/**
 * A plan of one stack gets its apply section (saved-plan.ts), so `apply --plan` can apply it as recorded;
 * or the log says why it has none. `liveAsRead` is the live state's digest, taken before planning.
 */
function recordApplySection(config, { stack, settings, outcome }, liveAsRead, queried, log) {
    // Query findings come from this run's queries, not from planning: a plan with them is planned again.
    const section = queried
        ? 'check-queries found something'
        : applySectionOf({
            config,
            settings,
            manifests: stack.manifests,
            planRules: stack.planRules,
            live: liveAsRead,
            outcome,
            kinds: src_kinds/* KINDS */.G
        });
    if (typeof section === 'string')
        log.debug(`the plan has no apply section: ${section}`);
    else
        outcome.plan.apply = section;
}
/**
 * `apply --plan` of one stack: when the saved plan's apply section holds and nothing it was made from has
 * changed, its changes are applied as recorded, without loading the manifests or planning (saved-plan.ts
 * says why that is exactly as strict as planning again). Otherwise the run plans again as before, from
 * the live read started here and the manifests `load` reads.
 */
async function applySavedPlan(config, deps, load) {
    const log = deps.log ?? src_log/* silentLogger */.qq;
    let loading;
    const loaded = () => (loading ??= load());
    const manifests = () => loaded().then(c => c.manifests);
    const planAgain = (why, read) => {
        log.info(`The saved plan is checked by planning again: ${why}`);
        return { planAgain: { read, loaded: loaded() } };
    };
    const sealed = sealedPlan(await readSavedPlan(config.savedPlan, config.cwd, config.auth), config);
    if (typeof sealed === 'string')
        return planAgain(sealed, (0,live_read/* startLiveRead */.pW)(config, deps, manifests().then(m => [m])));
    const settings = planSettings(config, { name: config.stack, prune: config.prune, siblings: [] });
    const { inputs, read } = startSavedRead(config, deps, sealed, settings, manifests);
    const why = await inputs;
    if (why !== undefined)
        return planAgain(why, read);
    let live;
    try {
        live = await read.live;
    }
    catch {
        // Reported as before, by the run that plans again.
        return planAgain('the live state could not be read', read);
    }
    settings.managedPrefix = read.api.prefix;
    if (settings.managedPrefix !== sealed.plan.managedPrefix || liveDigest(live) !== sealed.plan.apply.live)
        return planAgain('the live state changed since the plan', read);
    const restored = restoreOutcome(sealed, live, settings, src_kinds/* KINDS */.G);
    if (typeof restored === 'string')
        return planAgain(restored, read);
    try {
        log.info(`Read live state in ${read.api.stats.requests} request(s); the saved plan holds for it and for the manifests: applied as recorded`);
        const { apply: _section, ...rest } = sealed.plan;
        const plan = {
            ...rest,
            command: config.command,
            createdAt: (deps.now ?? (() => new Date()))().toISOString()
        };
        // What writePlan would write of this plan: the saved text with this run's time and command.
        const planFile = config.planPath;
        await (0,promises_.mkdir)(external_node_path_default().dirname(planFile), { recursive: true });
        await (0,promises_.writeFile)(planFile, appliedPlanText(sealed.text, plan.createdAt, plan.command));
        const outcome = await finishStack(config, {
            // The manifests' own diagnostics are the plan's of the validate stage (the plan holds them first).
            stack: {
                name: config.stack,
                manifests: { diagnostics: plan.diagnostics.filter(d => d.stage === 'validate') }
            },
            settings,
            outcome: { ...restored.outcome, plan }
        }, { api: read.api, log, planFile, deps, many: false, operations: restored.operations, live });
        return { applied: { diagnostics: [], stacks: [outcome], planFile } };
    }
    finally {
        await read.api.close();
    }
}
/**
 * The live read of an `apply --plan`, started as the manifest files are digested: it reads what the saved
 * plan read while the plan's inputs are those of now (so the live digest compares), else what the manifests
 * of now ask (`manifests` loads them then). `inputs` says why the plan's inputs changed, if they did.
 */
function startSavedRead(config, deps, sealed, settings, manifests) {
    const inputs = manifestDigests(config).then(files => typeof files === 'string'
        ? files
        : inputsDigest(config, settings, files) === sealed.plan.apply.inputs
            ? undefined
            : 'the manifest files, the variables or the settings changed since the plan');
    // The service is read when the saved plan has one, if its manifests are those of now; else as they say.
    const service = inputs.then(why => why === undefined ? sealed.readsService : manifests().then(m => (0,live_read/* readsService */.xg)(config, [m])));
    // Whether to ask if dashboards can be patched: as the plan asked (it had dashboard manifests), so the live
    // digest compares; as the manifests of now say when they changed.
    const dashboardPatch = inputs.then(why => why === undefined
        ? config.mode === 'self-hosted' &&
            sealed.plan.changes.some(c => c.kind === 'Dashboard' && c.action !== 'delete')
        : manifests().then(m => (0,live_read/* asksDashboardPatch */.PF)(config, [m])));
    // The team: as the plan read it (it had TeamMember changes), or as the manifests of now say.
    const team = inputs.then(why => why === undefined
        ? config.mode === 'self-hosted' && sealed.plan.changes.some(c => c.kind === 'TeamMember')
        : manifests().then(m => (0,live_read/* readsTeam */.vM)(config, [m])));
    // The roles: as the plan read them (it had Role changes), or as the manifests of now say.
    const roles = inputs.then(why => why === undefined
        ? config.mode === 'managed' && sealed.plan.changes.some(c => c.kind === 'Role')
        : manifests().then(m => (0,live_read/* readsRoles */.JP)(config, [m])));
    return { inputs, read: (0,live_read/* startRead */.v_)(config, deps, service, dashboardPatch, team, roles) };
}
const FILES_AT_ONCE = 32;
/** Each manifest file's textDigest by path, found and read as loadManifests does; or why not. */
async function manifestDigests(config) {
    const found = await (0,files/* findManifestFiles */.GH)(config.manifests, config.cwd);
    if (found.diagnostics.length > 0)
        return 'the manifest files cannot all be found';
    const digests = new Map();
    // A few files at a time: thousands of files opened at once would run out of file descriptors.
    for (let i = 0; i < found.files.length; i += FILES_AT_ONCE) {
        const batch = found.files.slice(i, i + FILES_AT_ONCE);
        const read = await Promise.all(batch.map(f => (0,files/* readManifestFile */.oe)(f, config.cwd)));
        for (const [j, r] of read.entries()) {
            if (!r.file || r.diagnostics.length > 0)
                return 'a manifest file cannot be read';
            digests.set(batch[j], (0,files/* textDigest */.oA)(r.file.text));
        }
    }
    return digests;
}
/**
 * What a stack's plan-time policy rules read besides its plan: the pull request's labels (from the entry
 * point), check-queries' verdict on each alert, and the names other stacks manage (from the live ownership
 * tags, and from the other stacks of this run).
 */
function planPolicyInput(config, stack, all, live, plan, labels) {
    const own = (0,ownership/* ownershipTag */.IC)(stack.name);
    const dashboards = {};
    const add = (name, other) => {
        const list = (dashboards[name] ??= []);
        if (!list.includes(other))
            list.push(other);
    };
    for (const d of live.Dashboard) {
        if (d.tags.includes(own))
            continue;
        for (const tag of d.tags)
            if ((0,ownership/* isOwnershipTag */.GN)(tag))
                add(d.name, (0,ownership/* stackOfTag */.oi)(tag));
    }
    for (const other of all)
        if (other !== stack)
            for (const d of other.manifests.specs.Dashboard)
                add(d.spec.name, other.name);
    const alerts = plan.preview?.alerts;
    return {
        ...(labels ? { labels } : {}),
        ...(alerts
            ? { queries: new Map(alerts.map(a => [a.alert, { status: a.status, reason: a.reason }])) }
            : {
                queriesUnchecked: config.command !== 'plan'
                    ? `check-queries runs in plan only, not in ${config.command}`
                    : 'check-queries is off'
            }),
        elsewhere: { Dashboard: dashboards }
    };
}
/** What an apply of the plan sends, with the dry runs server-validation sends before it (apply/requests.ts). */
function estimateOf(config, outcome) {
    return applyEstimate(outcome.plan.changes, {
        concurrency: config.concurrency,
        rateLimit: config.rateLimit,
        dryRuns: config.serverValidation ? outcome.planned.filter(sentToDryRun).length : 0
    });
}
function planSettings(config, stack) {
    return {
        stack: stack.name,
        ownershipTag: (0,ownership/* ownershipTag */.IC)(stack.name),
        siblingTags: stack.siblings.map(ownership/* ownershipTag */.IC),
        prune: stack.prune,
        mode: config.mode,
        serviceGate: config.serviceGate,
        servicePath: config.mode === 'managed'
            ? `/v1/organizations/${config.organizationId}/services/${config.serviceId}`
            : undefined,
        fingerprintKey: FingerprintKey.fromAuth(config.auth),
        maskEmails: config.maskEmails
    };
}
/** The plan JSON, secrets scrubbed (`scrub`, when there are any), its apply section sealed with `auth`. */
async function writePlan(planPath, plan, scrub, auth) {
    await (0,promises_.mkdir)(external_node_path_default().dirname(planPath), { recursive: true });
    const scrubbed = scrub ? (0,src_log/* redactDeep */.KL)(plan, scrub) : plan;
    // In parts, never joined (sealedPlanParts says why).
    const parts = 'stacks' in scrubbed || !scrubbed.apply
        ? [JSON.stringify(scrubbed, null, 2), '\n']
        : sealedPlanParts({ ...scrubbed, apply: scrubbed.apply }, auth);
    await (0,promises_.writeFile)(planPath, parts);
    return planPath;
}


/***/ })

};
