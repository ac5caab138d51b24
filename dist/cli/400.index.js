export const id = 400;
export const ids = [400];
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

/***/ 9400:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   sweepPreviews: () => (/* binding */ sweepPreviews)
/* harmony export */ });
/* harmony import */ var _api_client_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(6930);
/* harmony import */ var _config_stack_layout_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(5605);
/* harmony import */ var _diagnostics_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(4851);
/* harmony import */ var _error_message_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(6587);
/* harmony import */ var _kinds_dashboard_preview_copy_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(8620);
/* harmony import */ var _log_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(5625);
/* harmony import */ var _live_preview_sweep_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(8807);
/**
 * Deleting preview copies without planning: the action on a closed pull request (its copies), and the CLI's
 * `sweep-previews` (the copies of `--pr N`, or those older than `live-preview-ttl`). The stack's copies (every
 * stack's of the layout with `stacks`) are found by their tags in one list of the dashboards, through the paced
 * client, and deleted one request each.
 */







async function sweepPreviews(config, deps, 
/** Only these pull requests' copies; otherwise those older than the TTL and (with `isClosed`) of closed ones. */
pullRequests) {
    const log = deps.log ?? _log_js__WEBPACK_IMPORTED_MODULE_3__/* .silentLogger */ .qq;
    const names = await stackNames(config);
    if ('problem' in names)
        return { exitCode: 1, diagnostics: [names.problem], stacks: [] };
    const api = deps.api ? deps.api(config) : (0,_api_client_js__WEBPACK_IMPORTED_MODULE_0__/* .createApi */ .x)(config, { log });
    try {
        let copies;
        try {
            copies = (await api.listDashboards()).filter(_kinds_dashboard_preview_copy_js__WEBPACK_IMPORTED_MODULE_2__/* .isPreviewCopy */ .G7);
        }
        catch (e) {
            return {
                exitCode: 1,
                diagnostics: [(0,_diagnostics_js__WEBPACK_IMPORTED_MODULE_5__/* .diagnostic */ .YK)('plan', 'error', `could not list the dashboards: ${(0,_error_message_js__WEBPACK_IMPORTED_MODULE_6__/* .errorMessage */ .gJ)(e)}`)],
                stacks: []
            };
        }
        const now = (deps.now ?? (() => new Date()))();
        const isClosed = deps.livePreview?.isClosed;
        const stacks = [];
        let failed = false;
        for (const stack of names.stacks) {
            const { swept, requests } = await (0,_live_preview_sweep_js__WEBPACK_IMPORTED_MODULE_4__/* .sweepCopies */ .Sl)(api, (0,_live_preview_sweep_js__WEBPACK_IMPORTED_MODULE_4__/* .copiesOfStack */ .Nx)(copies, stack), {
                now,
                ttlMs: config.livePreview.ttlMs,
                ...(isClosed ? { isClosed } : {}),
                ...(pullRequests ? { pullRequests } : {})
            });
            failed ||= swept.some(s => s.problem !== undefined);
            const only = pullRequests?.length === 1 ? { pullRequest: pullRequests[0] } : {};
            stacks.push({ stack, livePreview: { ...only, copies: [], swept, requests } });
            log.info(`Live preview of stack ${stack}: ${swept.length} copy(ies) deleted in ${requests} request(s)`);
        }
        return { exitCode: failed ? 1 : 0, diagnostics: [], stacks };
    }
    finally {
        await api.close();
    }
}
/** The stack, or with `stacks` each stack of the layout (or those `stack` names). */
async function stackNames(config) {
    if (!config.stacks)
        return { stacks: [config.stack] };
    if (config.stacks.only.length > 0)
        return { stacks: config.stacks.only };
    const layout = await (0,_config_stack_layout_js__WEBPACK_IMPORTED_MODULE_1__/* .readStackLayout */ .Hf)(config.manifests, config.cwd);
    const error = layout.diagnostics.find(d => d.severity === 'error');
    if (error)
        return { problem: error };
    return { stacks: layout.stacks.map(s => s.name) };
}


/***/ })

};
