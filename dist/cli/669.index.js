export const id = 669;
export const ids = [669];
export const modules = {

/***/ 8669:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  computePlan: () => (/* binding */ computePlan)
});

// EXTERNAL MODULE: ./src/kinds/index.ts + 5 modules
var kinds = __webpack_require__(3404);
// EXTERNAL MODULE: ./src/version.ts
var version = __webpack_require__(311);
// EXTERNAL MODULE: ./src/plan/diff.ts
var diff = __webpack_require__(8256);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
;// CONCATENATED MODULE: ./src/plan/fingerprint.ts
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

// EXTERNAL MODULE: ./src/plan/types.ts
var types = __webpack_require__(9898);
;// CONCATENATED MODULE: ./src/plan/planner.ts





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
    for (const kind of input.kinds ?? kinds/* KINDS */.G) {
        const ofKind = [];
        const pairing = kind.pair(kind.desired(ctx), ctx);
        for (const pair of pairing.pairs) {
            const after = kind.normalDesired(pair.desired, ctx);
            const old = pair.replaces ?? pair.live;
            const before = old === undefined ? undefined : kind.normalLive(old, ctx);
            const fields = before === undefined
                ? listFields(after, 'after', kind.keyedPaths)
                : (0,diff/* diffValues */.I)(before, after, kind.keyedPaths);
            const change = newChange(kind, pair.desired.name, pair.desired.address, fields, {
                action: pair.replaces ? 'replace' : pair.live ? (fields.length > 0 ? 'update' : 'noop') : 'create',
                id: old === undefined ? undefined : kind.liveId(old),
                notes: pair.notes ?? []
            });
            dependsOn.push([change.address, change.id, before]);
            ofKind.push({ change, desired: pair.desired, live: pair.live, replaces: pair.replaces });
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
        stack: input.settings.stack,
        ownershipTag: input.settings.ownershipTag,
        prune: input.settings.prune,
        fingerprint: {
            live: liveFingerprint(dependsOn, input.live),
            desired: desiredFingerprint(input.manifests, input.settings)
        },
        changes: planned.map(p => p.change),
        diagnostics: [...input.manifests.diagnostics, ...diagnostics]
    };
    return { plan, planned, dashboards: ctx.dashboards };
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
            return Object.entries(v).map(([k, item]) => ({ path: (0,diff/* joinKey */.p)(key, k, true), [side]: item }));
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


/***/ })

};
