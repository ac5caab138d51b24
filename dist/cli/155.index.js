export const id = 155;
export const ids = [155];
export const modules = {

/***/ 5155:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   syncText: () => (/* binding */ syncText)
/* harmony export */ });
/* unused harmony exports syncMark, syncCount, syncTitle, syncMarkdown */
/* harmony import */ var _log_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(5625);
/* harmony import */ var _plan_types_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7442);
/* harmony import */ var _escape_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(4031);
/* harmony import */ var _values_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(626);
/**
 * A sync in words: the pull request's body (markdown) and the CLI's text. Every name, value and path comes from a
 * manifest or the server, so each is escaped as data (escape.ts); the values are shown as the plan shows them,
 * the manifest's on the left and the server's on the right: what the UI changed.
 */





/** The mark a sync pull request's body starts with: which stack's it is. */
const syncMark = (stack) => `<!-- obsdeploy-sync: ${encodeURIComponent(stack)} -->`;
/** How many records a sync changes in the manifests. */
const syncCount = (r) => r.outcome.records.length;
/** The pull request's title. */
function syncTitle(r) {
    return `obsdeploy sync (stack ${printable(r.stack, 80)}): ${countOf(r.outcome.records)} from the UI`;
}
/** The pull request's body: what changed on the server, who and when where it says, and what merging does. */
function syncMarkdown(r, options = {}) {
    // A dashboard's name links to its page in the UI, as in the plan comment (only a plain id makes a link).
    const title = (x) => {
        const text = `**${inline(x.kind)} ${inline(x.name)}**`;
        const refs = r.plan?.references;
        const own = refs?.version === REFERENCES_VERSION && refs.seenOn[x.address]?.own === true;
        const url = own ? dashboardLink(options.uiUrl, x.id) : undefined;
        return url ? `[${text}](${linkTarget(url)})` : text;
    };
    const names = namesOf(r.plan);
    const section = (title, records, item) => records.length === 0 ? [] : [`### ${title} (${records.length})`, '', ...records.flatMap(item), ''];
    const by = (action) => r.outcome.records.filter(x => x.action === action);
    const lines = [
        syncMark(r.stack),
        `## Edits made on the server to stack ${code(r.stack)}`,
        '',
        `obsdeploy read the live state at ${r.readAt} and rewrote the manifests below to say what the server holds: the same files and documents, their comments and key order kept.`,
        '',
        afterMerging(r),
        '',
        ...section('Changed on the server', by('updated'), x => [
            `- ${title(x)} in ${code(x.file)}${whoWhen(x, inline)}`,
            ...x.fields.slice(0, 20).map(f => `  - ${fieldLine(f, names)}`),
            ...(x.fields.length > 20 ? [`  - and ${x.fields.length - 20} more field(s)`] : [])
        ]),
        ...section('Deleted on the server', by('removed'), x => [
            `- **${inline(x.kind)} ${inline(x.name)}**: its document is removed from ${code(x.file)} (not on the server any more)`
        ]),
        ...section('Made on the server, owned by this stack', by('added'), x => [
            `- ${title(x)}: added to ${code(x.file)}${whoWhen(x, inline)}`
        ]),
        ...(r.outcome.left.length > 0
            ? [
                `### Left as it is (${r.outcome.left.length})`,
                '',
                ...r.outcome.left.map(l => `- ${code(l.address)}: ${inline(l.why, 400)}`),
                ''
            ]
            : []),
        `Files: ${r.outcome.files.map(f => code(f.path)).join(', ') || 'none'}.`,
        '',
        '---',
        `Opened by obsdeploy \`command: sync\`${options.runUrl ? ` in [its workflow run](${options.runUrl})` : ''}. The branch belongs to the sync: the next run replaces its commit. A pull request opened with the workflow's own token starts no other workflow: the plan of this branch runs when a person pushes to it, or closes and reopens it.`
    ];
    return `${lines.join('\n')}\n`;
}
/** What a merge leaves for the next plan: nothing, or what sync could not write and why. */
function afterMerging(r) {
    const { applied, held } = afterParts(r);
    const heldWords = held.length > 0
        ? ` It still lists ${held.length} record(s) it does not apply (${held
            .slice(0, 10)
            .map(c => code(c.address))
            .join(', ')}${held.length > 10 ? ', …' : ''}: see "Left as it is").`
        : '';
    if (applied.length === 0)
        return `**After merging, the plan is empty**: merging changes nothing on the server.${heldWords}`;
    const listed = applied
        .slice(0, 10)
        .map(c => `${code(c.address)} (${c.action})`)
        .join(', ');
    return `**After merging, the plan still holds ${applied.length} change(s)**: ${listed}${applied.length > 10 ? ', …' : ''}. Sync cannot say them in a manifest (see "Left as it is"); the next apply makes the server match the manifests there.${heldWords}`;
}
/** What a plan after merging would apply, and what it lists without applying (a delete held back: prune off). */
function afterParts(r) {
    return {
        applied: r.after.filter(c => c.deferred === undefined),
        held: r.after.filter(c => c.deferred !== undefined)
    };
}
/** `, last changed by … at …`, where the server says; `say` makes each value inert for the format. */
function whoWhen(x, say) {
    const parts = [
        x.updatedBy ? `by ${say(x.updatedBy, 100)}` : '',
        x.updatedAt ? `at ${say(x.updatedAt, 40)}` : ''
    ].filter(Boolean);
    return parts.length > 0 ? `, last changed ${parts.join(' ')}` : '';
}
/** A field's path and its two values, each on one line (undefined: not set). A plan's `before` is the server's. */
function fieldSides(f, names) {
    const side = (value) => (value === undefined ? undefined : oneLine(value));
    return {
        path: (0,_values_js__WEBPACK_IMPORTED_MODULE_3__/* .readablePath */ .qR)(f, names),
        manifest: side((0,_values_js__WEBPACK_IMPORTED_MODULE_3__/* .readableLeaf */ .Js)(f, 'after', names)),
        server: side((0,_values_js__WEBPACK_IMPORTED_MODULE_3__/* .readableLeaf */ .Js)(f, 'before', names))
    };
}
/** `tiles["Errors"].x`: `0` in the manifest, `3` on the server. */
function fieldLine(f, names) {
    const { path, manifest, server } = fieldSides(f, names);
    const side = (value) => (value === undefined ? 'not set' : code(value, 120));
    return `${code(path)}: ${side(manifest)} in the manifest, ${side(server)} on the server`;
}
const oneLine = (value) => typeof value === 'string' ? value : (0,_values_js__WEBPACK_IMPORTED_MODULE_3__/* .yamlText */ .pS)(value).trim().replace(/\n\s*/g, ' ');
/** The CLI's words: what would change (or changed) per stack, then the diff of each file. */
function syncText(r, diff, written) {
    const names = (0,_values_js__WEBPACK_IMPORTED_MODULE_3__/* .namesOf */ .eZ)(r.plan);
    const out = [];
    const head = `stack ${(0,_log_js__WEBPACK_IMPORTED_MODULE_0__/* .printable */ .g$)(r.stack)}: `;
    if (r.outcome.records.length === 0 && r.outcome.left.length === 0)
        return `${head}the manifests say what the server holds; nothing to sync\n`;
    out.push(`${head}${countOf(r.outcome.records)} ${written ? 'written' : 'to write (run with --write to write them)'}`);
    for (const x of r.outcome.records) {
        const verb = x.action === 'updated'
            ? 'changed on the server'
            : x.action === 'removed'
                ? 'deleted on the server: document removed'
                : 'made on the server: document added';
        out.push(`  ${(0,_log_js__WEBPACK_IMPORTED_MODULE_0__/* .printable */ .g$)(x.kind)} ${(0,_log_js__WEBPACK_IMPORTED_MODULE_0__/* .printable */ .g$)(x.name)} (${(0,_log_js__WEBPACK_IMPORTED_MODULE_0__/* .printable */ .g$)(x.file)}): ${verb}${whoWhen(x, _log_js__WEBPACK_IMPORTED_MODULE_0__/* .printable */ .g$)}`);
        for (const f of x.fields) {
            const { path, manifest, server } = fieldSides(f, names);
            const side = (v) => (v === undefined ? 'not set' : (0,_log_js__WEBPACK_IMPORTED_MODULE_0__/* .printable */ .g$)(v, 120));
            out.push(`    ${(0,_log_js__WEBPACK_IMPORTED_MODULE_0__/* .printable */ .g$)(path)}: ${side(manifest)} -> ${side(server)}`);
        }
    }
    for (const l of r.outcome.left)
        out.push(`  left as it is: ${(0,_log_js__WEBPACK_IMPORTED_MODULE_0__/* .printable */ .g$)(l.address)}: ${(0,_log_js__WEBPACK_IMPORTED_MODULE_0__/* .printable */ .g$)(l.why, 400)}`);
    const { applied, held } = afterParts(r);
    out.push(applied.length === 0
        ? '  after this sync the plan is empty'
        : `  after this sync the plan still holds ${applied.length} change(s): ${applied.map(c => (0,_log_js__WEBPACK_IMPORTED_MODULE_0__/* .printable */ .g$)(c.address)).join(', ')}`);
    if (held.length > 0)
        out.push(`  and lists ${held.length} record(s) it does not apply (left as it is): ${held.map(c => (0,_log_js__WEBPACK_IMPORTED_MODULE_0__/* .printable */ .g$)(c.address)).join(', ')}`);
    for (const f of r.outcome.files)
        out.push(diff(f));
    return `${out.join('\n')}\n`;
}
function countOf(records) {
    const n = (a) => records.filter(r => r.action === a).length;
    const parts = [
        n('updated') ? `${n('updated')} changed` : '',
        n('removed') ? `${n('removed')} deleted` : '',
        n('added') ? `${n('added')} added` : ''
    ].filter(Boolean);
    return parts.length > 0 ? `${parts.join(', ')} record(s)` : 'no record';
}


/***/ })

};
