export const id = 700;
export const ids = [700];
export const modules = {

/***/ 3700:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  runSyncAction: () => (/* binding */ runSyncAction)
});

// UNUSED EXPORTS: syncBranch

// EXTERNAL MODULE: ./src/github/core.ts + 5 modules
var core = __webpack_require__(1042);
// EXTERNAL MODULE: ./src/diagnostics.ts
var diagnostics = __webpack_require__(4851);
// EXTERNAL MODULE: ./src/github/events.ts
var events = __webpack_require__(4254);
// EXTERNAL MODULE: ./src/log.ts
var src_log = __webpack_require__(5625);
// EXTERNAL MODULE: ./src/report/links.ts
var links = __webpack_require__(3303);
// EXTERNAL MODULE: ./src/plan/types.ts + 1 modules
var types = __webpack_require__(7442);
// EXTERNAL MODULE: ./src/report/escape.ts
var report_escape = __webpack_require__(4031);
// EXTERNAL MODULE: ./src/report/values.ts
var values = __webpack_require__(626);
;// CONCATENATED MODULE: ./src/report/sync.ts
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
    return `obsdeploy sync (stack ${(0,src_log/* printable */.g$)(r.stack, 80)}): ${countOf(r.outcome.records)} from the UI`;
}
/** The pull request's body: what changed on the server, who and when where it says, and what merging does. */
function syncMarkdown(r, options = {}) {
    // A dashboard's name links to its page in the UI, as in the plan comment (only a plain id makes a link).
    const title = (x) => {
        const text = `**${(0,report_escape/* inline */.mG)(x.kind)} ${(0,report_escape/* inline */.mG)(x.name)}**`;
        const refs = r.plan?.references;
        const own = refs?.version === types/* REFERENCES_VERSION */.c9 && refs.seenOn[x.address]?.own === true;
        const url = own ? (0,links/* dashboardLink */.d3)(options.uiUrl, x.id) : undefined;
        return url ? `[${text}](${(0,report_escape/* linkTarget */.Cm)(url)})` : text;
    };
    const names = (0,values/* namesOf */.eZ)(r.plan);
    const section = (title, records, item) => records.length === 0 ? [] : [`### ${title} (${records.length})`, '', ...records.flatMap(item), ''];
    const by = (action) => r.outcome.records.filter(x => x.action === action);
    const lines = [
        syncMark(r.stack),
        `## Edits made on the server to stack ${(0,report_escape/* code */.aY)(r.stack)}`,
        '',
        `obsdeploy read the live state at ${r.readAt} and rewrote the manifests below to say what the server holds: the same files and documents, their comments and key order kept.`,
        '',
        afterMerging(r),
        '',
        ...section('Changed on the server', by('updated'), x => [
            `- ${title(x)} in ${(0,report_escape/* code */.aY)(x.file)}${whoWhen(x, report_escape/* inline */.mG)}`,
            ...x.fields.slice(0, 20).map(f => `  - ${fieldLine(f, names)}`),
            ...(x.fields.length > 20 ? [`  - and ${x.fields.length - 20} more field(s)`] : [])
        ]),
        ...section('Deleted on the server', by('removed'), x => [
            `- **${(0,report_escape/* inline */.mG)(x.kind)} ${(0,report_escape/* inline */.mG)(x.name)}**: its document is removed from ${(0,report_escape/* code */.aY)(x.file)} (not on the server any more)`
        ]),
        ...section('Made on the server, owned by this stack', by('added'), x => [
            `- ${title(x)}: added to ${(0,report_escape/* code */.aY)(x.file)}${whoWhen(x, report_escape/* inline */.mG)}`
        ]),
        ...(r.outcome.left.length > 0
            ? [
                `### Left as it is (${r.outcome.left.length})`,
                '',
                ...r.outcome.left.map(l => `- ${(0,report_escape/* code */.aY)(l.address)}: ${(0,report_escape/* inline */.mG)(l.why, 400)}`),
                ''
            ]
            : []),
        `Files: ${r.outcome.files.map(f => (0,report_escape/* code */.aY)(f.path)).join(', ') || 'none'}.`,
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
            .map(c => (0,report_escape/* code */.aY)(c.address))
            .join(', ')}${held.length > 10 ? ', …' : ''}: see "Left as it is").`
        : '';
    if (applied.length === 0)
        return `**After merging, the plan is empty**: merging changes nothing on the server.${heldWords}`;
    const listed = applied
        .slice(0, 10)
        .map(c => `${(0,report_escape/* code */.aY)(c.address)} (${c.action})`)
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
        path: (0,values/* readablePath */.qR)(f, names),
        manifest: side((0,values/* readableLeaf */.Js)(f, 'after', names)),
        server: side((0,values/* readableLeaf */.Js)(f, 'before', names))
    };
}
/** `tiles["Errors"].x`: `0` in the manifest, `3` on the server. */
function fieldLine(f, names) {
    const { path, manifest, server } = fieldSides(f, names);
    const side = (value) => (value === undefined ? 'not set' : (0,report_escape/* code */.aY)(value, 120));
    return `${(0,report_escape/* code */.aY)(path)}: ${side(manifest)} in the manifest, ${side(server)} on the server`;
}
const oneLine = (value) => typeof value === 'string' ? value : (0,values/* yamlText */.pS)(value).trim().replace(/\n\s*/g, ' ');
/** The CLI's words: what would change (or changed) per stack, then the diff of each file. */
function syncText(r, diff, written) {
    const names = namesOf(r.plan);
    const out = [];
    const head = `stack ${printable(r.stack)}: `;
    if (r.outcome.records.length === 0 && r.outcome.left.length === 0)
        return `${head}the manifests say what the server holds; nothing to sync\n`;
    out.push(`${head}${countOf(r.outcome.records)} ${written ? 'written' : 'to write (run with --write to write them)'}`);
    for (const x of r.outcome.records) {
        const verb = x.action === 'updated'
            ? 'changed on the server'
            : x.action === 'removed'
                ? 'deleted on the server: document removed'
                : 'made on the server: document added';
        out.push(`  ${printable(x.kind)} ${printable(x.name)} (${printable(x.file)}): ${verb}${whoWhen(x, printable)}`);
        for (const f of x.fields) {
            const { path, manifest, server } = fieldSides(f, names);
            const side = (v) => (v === undefined ? 'not set' : printable(v, 120));
            out.push(`    ${printable(path)}: ${side(manifest)} -> ${side(server)}`);
        }
    }
    for (const l of r.outcome.left)
        out.push(`  left as it is: ${printable(l.address)}: ${printable(l.why, 400)}`);
    const { applied, held } = afterParts(r);
    out.push(applied.length === 0
        ? '  after this sync the plan is empty'
        : `  after this sync the plan still holds ${applied.length} change(s): ${applied.map(c => printable(c.address)).join(', ')}`);
    if (held.length > 0)
        out.push(`  and lists ${held.length} record(s) it does not apply (left as it is): ${held.map(c => printable(c.address)).join(', ')}`);
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

// EXTERNAL MODULE: ./src/report/budget.ts
var budget = __webpack_require__(2585);
// EXTERNAL MODULE: ./src/report/markdown.ts + 6 modules
var markdown = __webpack_require__(1237);
;// CONCATENATED MODULE: ./src/sync-action.ts
/**
 * The action's `command: sync`: each stack's manifests rewritten from the live state (run/sync.ts), committed to
 * the branch `obsdeploy/sync/<stack>` and proposed as one pull request per stack (github/sync-pull.ts), or that
 * pull request closed once the UI and the repository agree again. The job summary says, per stack, what changed
 * on the server and what became of its pull request.
 */








/** The branch of a stack's sync: one per stack, its name safe as a git ref whatever the stack is called. */
const syncBranch = (stack) => `obsdeploy/sync/${stack.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+|\.+$/g, '') || 'stack'}`;
async function runSyncAction(config, runner, token, log) {
    const refusal = (0,events/* syncRefusal */.ki)(runner.event);
    if (refusal)
        return fail(refusal);
    if (!runner.repository)
        return fail('sync needs GITHUB_REPOSITORY: it runs in a GitHub Actions workflow');
    if (!token)
        return fail('sync needs a github-token with `contents: write` and `pull-requests: write` to push its branch and open its pull request');
    const base = (runner.event && (0,events/* defaultBranchOf */.dV)(runner.event)) ??
        process.env.GITHUB_REF_NAME ??
        process.env.GITHUB_BASE_REF;
    if (!base)
        return fail('sync cannot tell the default branch: the event names none, and GITHUB_REF_NAME is unset');
    const { runSync, writeSynced } = await Promise.all(/* import() */[__webpack_require__.e(752), __webpack_require__.e(726), __webpack_require__.e(353), __webpack_require__.e(516)]).then(__webpack_require__.bind(__webpack_require__, 5516));
    const { publishSync, SyncPermissionError } = await Promise.all(/* import() */[__webpack_require__.e(752), __webpack_require__.e(184), __webpack_require__.e(447)]).then(__webpack_require__.bind(__webpack_require__, 2447));
    const result = await runSync(config, { write: false, deps: { log } });
    const problems = [...result.diagnostics];
    const summary = [];
    const runUrl = (0,links/* runLink */.ut)({ github: runner.links })?.url;
    for (const stack of result.stacks) {
        if ((0,diagnostics/* hasErrors */.Cs)(stack.diagnostics)) {
            problems.push(...stack.diagnostics);
            summary.push(`### Stack ${(0,src_log/* printable */.g$)(stack.stack)}: not synced (see the errors)`);
            continue;
        }
        const written = await writeSynced(config.cwd, stack.outcome.files);
        if (written.length > 0) {
            problems.push(...written);
            continue;
        }
        const body = syncMarkdown(stack, {
            ...(runUrl ? { runUrl } : {}),
            ...(config.uiUrl ? { uiUrl: config.uiUrl } : {})
        });
        try {
            const outcome = await publishSync({
                token,
                ...runner.repository,
                cwd: config.cwd,
                base,
                stack: stack.stack,
                branch: syncBranch(stack.stack),
                files: stack.outcome.files.map(f => f.path),
                title: syncTitle(stack),
                body,
                commitMessage: commitMessage(stack),
                closeComment: `The UI and the repository agree again (read at ${stack.readAt}): nothing left to sync, so obsdeploy closes this pull request.`
            });
            const said = outcome.operation === 'none'
                ? `stack ${(0,src_log/* printable */.g$)(stack.stack)}: the manifests say what the server holds; no pull request`
                : `stack ${(0,src_log/* printable */.g$)(stack.stack)}: pull request #${outcome.number} ${outcome.operation} (${outcome.url})`;
            core/* info */.pq(said);
            summary.push(outcome.operation === 'none' || outcome.operation === 'closed' ? `### ${said}` : body);
        }
        catch (e) {
            if (e instanceof SyncPermissionError)
                return fail(e.message, summary);
            throw e;
        }
    }
    for (const d of problems) {
        if (d.severity === 'error')
            core/* error */.z3((0,src_log/* printable */.g$)((0,diagnostics/* formatDiagnostic */.xy)(d)));
        else
            core/* warning */.$e((0,src_log/* printable */.g$)((0,diagnostics/* formatDiagnostic */.xy)(d)));
    }
    await writeSummary(summary);
    if ((0,diagnostics/* hasErrors */.Cs)(problems) || result.exitCode !== 0)
        core/* setFailed */.C1(`sync: ${problems.filter(d => d.severity === 'error').length} error(s) (see the log)`);
}
function commitMessage(stack) {
    const lines = stack.outcome.records.map(r => `- ${r.kind} ${r.name}: ${r.action} on the server`);
    return `obsdeploy sync (stack ${stack.stack}): edits made on the server\n\n${lines.slice(0, 50).join('\n')}\n`;
}
async function fail(message, summary = []) {
    await writeSummary([...summary, `**obsdeploy sync failed**: ${(0,src_log/* printable */.g$)(message)}`]);
    core/* setFailed */.C1(message);
}
async function writeSummary(parts) {
    if (!process.env.GITHUB_STEP_SUMMARY || parts.length === 0)
        return;
    const text = parts.join('\n\n');
    // GitHub's limit is in bytes: cut at a line (report/budget.ts), and say it was cut.
    const cut = (0,budget/* cutToSize */.Vn)(text, markdown/* SUMMARY_LIMIT */.Jt - 8, 'bytes');
    await core/* summary */.z.addRaw(cut === text ? text : `${cut}\n\n…`).write({ overwrite: false });
}


/***/ })

};
