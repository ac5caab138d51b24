export const id = 936;
export const ids = [936];
export const modules = {

/***/ 9936:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  applyPlan: () => (/* binding */ applyPlan)
});

// EXTERNAL MODULE: ./src/kinds/index.ts + 5 modules
var src_kinds = __webpack_require__(3404);
;// CONCATENATED MODULE: ./src/apply/engine.ts
async function runOperations(operations, ctx, concurrency) {
    const outcomes = new Map();
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
        outcomes.set(op, { state: 'skipped', reason });
        for (const d of dependents.get(op) ?? [])
            skip(d, reason);
    };
    const finish = (op, outcome) => {
        outcomes.set(op, outcome);
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
            const p = op
                .run(ctx)
                .then(result => finish(op, { state: 'done', result }), (e) => finish(op, { state: 'failed', error: e instanceof Error ? e.message : String(e) }))
                .finally(() => running.delete(p));
            running.add(p);
        }
        if (running.size === 0)
            break;
        await Promise.race(running);
    }
    for (const op of operations)
        if (!outcomes.has(op))
            outcomes.set(op, { state: 'skipped', reason: 'not reached' });
    return outcomes;
}

;// CONCATENATED MODULE: ./src/apply/apply.ts


async function applyPlan(input) {
    const kinds = new Map((input.kinds ?? src_kinds/* KINDS */.G).map(k => [k.kind, k]));
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
    const outcomes = await runOperations(all, ctx, input.concurrency);
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


/***/ })

};
