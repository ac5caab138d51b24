export const id = 715;
export const ids = [715];
export const modules = {

/***/ 7715:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   exportCommand: () => (/* binding */ exportCommand)
/* harmony export */ });
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var picomatch__WEBPACK_IMPORTED_MODULE_11__ = __webpack_require__(4006);
/* harmony import */ var picomatch__WEBPACK_IMPORTED_MODULE_11___default = /*#__PURE__*/__webpack_require__.n(picomatch__WEBPACK_IMPORTED_MODULE_11__);
/* harmony import */ var _api_client_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6930);
/* harmony import */ var _kinds_index_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(3617);
/* harmony import */ var _kinds_kind_js__WEBPACK_IMPORTED_MODULE_10__ = __webpack_require__(3169);
/* harmony import */ var _kinds_ownership_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(9586);
/* harmony import */ var _kinds_registry_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(6340);
/* harmony import */ var _log_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(5625);
/* harmony import */ var _live_read_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(3660);
/* harmony import */ var _error_message_js__WEBPACK_IMPORTED_MODULE_9__ = __webpack_require__(6587);
/* harmony import */ var _manifests_js__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(9332);
/* harmony import */ var _write_js__WEBPACK_IMPORTED_MODULE_8__ = __webpack_require__(1013);
/**
 * `obsdeploy export --out observability/`: onboarding in one command. Reads every kind from the live API
 * (list calls only), selects what the options ask for, and writes the files each kind's records go to
 * (manifests.ts): one per dashboard, with its alerts, and one per kind for the others.
 */












/** The kinds export writes, in the order of the plan. */
const WRITTEN = (0,_manifests_js__WEBPACK_IMPORTED_MODULE_7__/* .writtenKinds */ .Bv)();
async function exportCommand(config, options) {
    const usage = usageProblem(options);
    if (usage !== undefined) {
        options.io.stderr(`obsdeploy export: ${usage}\n`);
        return 2;
    }
    // The folder is checked before anything is read: a wrong --out costs no request.
    const folder = await (0,_write_js__WEBPACK_IMPORTED_MODULE_8__/* .outFolder */ .Nx)(options.io.cwd, options.out);
    if ('problem' in folder) {
        options.io.stderr(`obsdeploy export: ${folder.problem}\n`);
        return 2;
    }
    const api = (0,_api_client_js__WEBPACK_IMPORTED_MODULE_1__/* .createApi */ .x)(config, { log: options.log });
    try {
        const live = await (0,_live_read_js__WEBPACK_IMPORTED_MODULE_6__/* .readLiveState */ .e)(api, { service: false });
        const files = (0,_manifests_js__WEBPACK_IMPORTED_MODULE_7__/* .exportManifests */ .xz)(selection(live, config, options));
        const kept = [];
        for (const f of files) {
            // `what` names the server's resource: printable, as is the file named after it.
            const shown = (0,_log_js__WEBPACK_IMPORTED_MODULE_5__/* .printable */ .g$)(node_path__WEBPACK_IMPORTED_MODULE_0___default().join(options.out, f.name));
            const outcome = await (0,_write_js__WEBPACK_IMPORTED_MODULE_8__/* .writeExported */ .NF)(folder.dir, f.name, f.text, Boolean(options.force));
            if (outcome.status === 'kept') {
                kept.push(f.name);
                options.io.stderr(`obsdeploy export: ${shown} ${outcome.why}\n`);
                continue;
            }
            const leftOut = f.alertsLeftOut ? ` (${f.alertsLeftOut} left out: see the file's note)` : '';
            const same = outcome.status === 'unchanged' ? ' (unchanged)' : '';
            options.io.stdout(`${shown}: ${(0,_log_js__WEBPACK_IMPORTED_MODULE_5__/* .printable */ .g$)(f.what)}, ${f.alerts} alert(s)${leftOut}${same}\n`);
        }
        const notWritten = kept.length > 0 ? `; ${kept.length} file(s) not written (see above)` : '';
        options.io.stderr(`exported ${counted(files, live)}, in ${api.stats.requests} request(s)${notWritten}\n`);
        return kept.length > 0 ? 1 : 0;
    }
    catch (e) {
        options.io.stderr(`obsdeploy export: ${(0,_log_js__WEBPACK_IMPORTED_MODULE_5__/* .printable */ .g$)((0,_error_message_js__WEBPACK_IMPORTED_MODULE_9__/* .errorMessage */ .gJ)(e))}\n`);
        return 1;
    }
    finally {
        await api.close();
    }
}
/** What is wrong with the options, before anything is done. */
function usageProblem(options) {
    if (!options.out)
        return '--out <folder> is required';
    const unknown = (options.kinds ?? []).filter(k => !WRITTEN.some(w => w.kind.kind === k));
    if (unknown.length > 0)
        return `--kind ${unknown.join(', ')}: one of ${WRITTEN.map(w => w.kind.kind).join(', ')}`;
    return undefined;
}
/**
 * The export's input: every live record of each kind, and those to write. A kind with tags is selected by them
 * (`--tag`; `--owned`: the stack's tag); one without is left out when selecting by tag, and is owned as the
 * stack's registry says. `--name` matches a record's name (a person's email).
 */
function selection(live, config, options) {
    const tag = (0,_kinds_ownership_js__WEBPACK_IMPORTED_MODULE_3__/* .ownershipTag */ .IC)(config.stack);
    const registry = _kinds_registry_js__WEBPACK_IMPORTED_MODULE_4__/* .Registry */ .OR.read((0,_kinds_kind_js__WEBPACK_IMPORTED_MODULE_10__/* .listed */ .K)(live, _kinds_registry_js__WEBPACK_IMPORTED_MODULE_4__/* .REGISTRY_HOME */ .Ed), config.stack, tag);
    const nameMatch = options.names.length > 0 ? picomatch__WEBPACK_IMPORTED_MODULE_11___default()(options.names) : undefined;
    const wanted = (kind) => (options.kinds ?? []).length === 0 || options.kinds.includes(kind.kind);
    const owns = (kind, r) => (0,_kinds_registry_js__WEBPACK_IMPORTED_MODULE_4__/* .isRegistryKind */ ._Y)(kind.kind) && registry.owns(kind.kind, kind.registryKey?.(r) ?? kind.liveId(r) ?? '');
    const chosen = ({ kind, writes }, r) => {
        if (writes.skips?.(r) || (nameMatch && !nameMatch(kind.liveName(r))))
            return false;
        const tags = writes.tags?.(r);
        if (tags === undefined)
            return options.tags.length === 0 && (!options.owned || owns(kind, r));
        const tagged = options.tags.length === 0 || tags.some(t => options.tags.includes(t));
        return tagged && (!options.owned || tags.includes(tag));
    };
    const input = { ownershipTag: tag, registry, mode: config.mode };
    // Every live record, for names; a kind export never writes (alerts) is read to go with what carries it.
    for (const kind of _kinds_index_js__WEBPACK_IMPORTED_MODULE_2__/* .KINDS */ .G)
        if (kind.exports)
            input[(0,_manifests_js__WEBPACK_IMPORTED_MODULE_7__/* .allOf */ .bn)(kind.exports.list)] = (0,_kinds_kind_js__WEBPACK_IMPORTED_MODULE_10__/* .recordsOf */ .M)(live, kind.kind);
    for (const w of WRITTEN)
        input[w.list] = wanted(w.kind) ? (0,_kinds_kind_js__WEBPACK_IMPORTED_MODULE_10__/* .recordsOf */ .M)(live, w.kind.kind)?.filter(r => chosen(w, r)) : [];
    return input;
}
/** `5 of 7 dashboard(s), and 3 file(s) of other kinds`: the kinds written one file each, counted. */
function counted(files, live) {
    const each = WRITTEN.filter(w => 'each' in w.writes.to);
    const parts = each.map(({ kind, writes }) => {
        const all = ((0,_kinds_kind_js__WEBPACK_IMPORTED_MODULE_10__/* .recordsOf */ .M)(live, kind.kind) ?? []).filter(r => !writes.skips?.(r));
        return `${files.filter(f => f.kind === kind.kind).length} of ${all.length} ${kind.nouns[0]}(s)`;
    });
    const others = files.filter(f => !each.some(w => w.kind.kind === f.kind)).length;
    return `${parts.join(', ')}, and ${others} file(s) of other kinds`;
}


/***/ }),

/***/ 9332:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Bv: () => (/* binding */ writtenKinds),
/* harmony export */   MK: () => (/* binding */ exportContext),
/* harmony export */   Nd: () => (/* binding */ uniqueFileName),
/* harmony export */   bn: () => (/* binding */ allOf),
/* harmony export */   xz: () => (/* binding */ exportManifests)
/* harmony export */ });
/* harmony import */ var _kinds_exporting_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7989);
/* harmony import */ var _kinds_index_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(3617);
/* harmony import */ var _kinds_registry_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(6340);



/** The key of every live record of a kind in an ExportInput: `allDashboards`. */
const allOf = (list) => `all${list.charAt(0).toUpperCase()}${list.slice(1)}`;
/** The kinds export writes, in the order of the plan, with their lists' names and how they are written. */
function writtenKinds(kinds = _kinds_index_js__WEBPACK_IMPORTED_MODULE_1__/* .KINDS */ .G) {
    return kinds.flatMap(kind => kind.exports?.writes ? [{ kind, list: kind.exports.list, writes: kind.exports.writes }] : []);
}
function exportManifests(input, kinds = _kinds_index_js__WEBPACK_IMPORTED_MODULE_1__/* .KINDS */ .G) {
    const ctx = exportContext(input, kinds);
    const written = writtenKinds(kinds);
    const used = new Set();
    return [
        ...written.flatMap(w => 'file' in w.writes.to ? kindFile(w.kind, w.writes, w.writes.to.file, ctx, used) : []),
        ...written.flatMap(w => 'each' in w.writes.to ? recordFiles(w.kind, w.writes, w.writes.to.each, ctx, used) : [])
    ];
}
/** What the kinds' writers see of an export's input (a sync that writes what export writes builds the same). */
function exportContext(input, kinds = _kinds_index_js__WEBPACK_IMPORTED_MODULE_1__/* .KINDS */ .G, options = {}) {
    const byKind = new Map(kinds.map(k => [k.kind, k]));
    const list = (kind, all) => {
        const name = byKind.get(kind)?.exports?.list;
        if (name === undefined)
            return undefined;
        return ((all ? input[allOf(name)] : undefined) ?? input[name]);
    };
    return {
        ownershipTag: input.ownershipTag,
        registry: input.registry ?? _kinds_registry_js__WEBPACK_IMPORTED_MODULE_2__/* .Registry */ .OR.empty('', input.ownershipTag),
        mode: input.mode ?? 'self-hosted',
        namer: new _kinds_exporting_js__WEBPACK_IMPORTED_MODULE_0__/* .Namer */ .mu(kind => {
            const k = byKind.get(kind);
            return k && list(kind, true)?.map(r => ({ id: k.liveId(r) ?? '', name: k.liveName(r) }));
        }),
        secrets: new _kinds_exporting_js__WEBPACK_IMPORTED_MODULE_0__/* .SecretNames */ .Np(),
        ...options,
        all: (kind => list(kind, true)),
        selected: (kind => list(kind, false) ?? [])
    };
}
/** All of a kind's records in one file (none when there is nothing to write or say). */
function kindFile(kind, writes, file, ctx, used) {
    const write = writes.writer(ctx);
    const records = ctx.selected(kind.kind).map(r => write(r));
    const notes = records.flatMap(r => r.notes ?? []);
    if (records.every(r => r.documents.length === 0) && notes.length === 0)
        return [];
    const what = kind.nouns[1];
    return [exportedFile(kind, { name: file, what, title: what }, records, notes, ctx, used)];
}
/** A file per record. */
function recordFiles(kind, writes, each, ctx, used) {
    const write = writes.writer(ctx);
    return ctx.selected(kind.kind).map(r => {
        const record = write(r);
        return exportedFile(kind, each(r), [record], record.notes ?? [], ctx, used);
    });
}
function exportedFile(kind, file, records, notes, ctx, used) {
    const secrets = ctx.secrets.all.splice(0);
    const header = [
        `# Exported ${file.title} by obsdeploy export.`,
        ...notes.map(n => `# ${n}`),
        ...(secrets.length > 0
            ? [
                `# Secret variables these manifests need (secret-vars; the CLI: OBSDEPLOY_SECRET_<NAME>): ${secrets.join(', ')}`
            ]
            : [])
    ];
    const documents = records.flatMap(r => r.documents);
    const leftOut = records.reduce((n, r) => n + (r.leftOut ?? 0), 0);
    const name = uniqueFileName(file.name, kind.nouns[0], f => used.has(f));
    used.add(name);
    return {
        name,
        text: `${header.join('\n')}\n${documents.map(doc => doc.toString({ lineWidth: 0 })).join('---\n')}`,
        kind: kind.kind,
        what: file.what,
        alerts: records.reduce((n, r) => n + r.carried, 0),
        ...(leftOut > 0 ? { alertsLeftOut: leftOut } : {})
    };
}
/**
 * `name` as a file name, `checkout.yaml`, or `checkout-2.yaml` and on while `taken` says a name is taken (`noun`
 * when nothing is left of the name). Export and sync name the files they add alike.
 */
function uniqueFileName(name, noun, taken) {
    const slugOf = (text) => text
        .toLowerCase()
        .normalize('NFKD')
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 60);
    const slug = slugOf(name) || slugOf(noun);
    let file = `${slug}.yaml`;
    for (let n = 2; taken(file); n++)
        file = `${slug}-${n}.yaml`;
    return file;
}


/***/ }),

/***/ 1013:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   $3: () => (/* binding */ lstatOrNothing),
/* harmony export */   NF: () => (/* binding */ writeExported),
/* harmony export */   Nx: () => (/* binding */ outFolder),
/* harmony export */   cK: () => (/* binding */ writeNoFollow)
/* harmony export */ });
/* unused harmony exports stamped, unedited */
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var _error_message_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(6587);
/* harmony import */ var _manifest_files_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(8937);
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
    return `# obsdeploy export sha256:${(0,_manifest_files_js__WEBPACK_IMPORTED_MODULE_3__/* .textDigest */ .oA)(text)} (the next export replaces this file only while it is unedited, or with --force)\n${text}`;
}
/** Whether a file's text is one export wrote, unedited since. */
function unedited(text) {
    const stamp = STAMP.exec(text);
    return stamp !== null && (0,_manifest_files_js__WEBPACK_IMPORTED_MODULE_3__/* .textDigest */ .oA)(text.slice(stamp[0].length)) === stamp[1];
}
/**
 * The `--out` folder, made when missing, one level at a time so no link on the way is followed; or why
 * not, in words. Below the working directory every part of the path is checked; a folder named outside it
 * is the user's explicit choice, and only the folder itself (and what export creates) is.
 */
async function outFolder(cwd, out) {
    const dir = node_path__WEBPACK_IMPORTED_MODULE_2___default().resolve(cwd, out);
    const base = isInside(node_path__WEBPACK_IMPORTED_MODULE_2___default().resolve(cwd), dir) ? node_path__WEBPACK_IMPORTED_MODULE_2___default().resolve(cwd) : node_path__WEBPACK_IMPORTED_MODULE_2___default().dirname(dir);
    const named = (at) => node_path__WEBPACK_IMPORTED_MODULE_2___default().relative(cwd, at) || '.';
    const refuse = (what) => ({ problem: `--out ${out}: ${what}` });
    let at = base;
    for (const part of node_path__WEBPACK_IMPORTED_MODULE_2___default().relative(base, dir).split((node_path__WEBPACK_IMPORTED_MODULE_2___default().sep)).filter(Boolean)) {
        at = node_path__WEBPACK_IMPORTED_MODULE_2___default().join(at, part);
        try {
            const info = await lstatOrNothing(at);
            if (!info)
                await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.mkdir)(at);
            else if (info.isSymbolicLink())
                return refuse(`${named(at)} is a symbolic link: export never writes through a link, which could lead outside the folder. Name the folder itself, or a new one`);
            else if (!info.isDirectory())
                return refuse(`${named(at)} is a file, not a folder. Export writes one manifest file per dashboard into a folder (made when missing): name a folder, e.g. --out observability/`);
        }
        catch (e) {
            const code = e.code;
            const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (0,_error_message_js__WEBPACK_IMPORTED_MODULE_4__/* .errorMessage */ .gJ)(e);
            return refuse(`cannot make the folder ${named(at)}: ${why}`);
        }
    }
    return { dir };
}
/** Writes one exported file into `dir`, unless it would replace what is not export's to replace. */
async function writeExported(dir, name, text, force) {
    const file = node_path__WEBPACK_IMPORTED_MODULE_2___default().join(dir, name);
    if (node_path__WEBPACK_IMPORTED_MODULE_2___default().basename(name) !== name || !isInside(dir, file) || file === dir)
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
        const existing = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.readFile)(file, 'utf8');
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
        return { status: 'kept', why: `cannot be written: ${(0,_error_message_js__WEBPACK_IMPORTED_MODULE_4__/* .errorMessage */ .gJ)(e)}` };
    }
    return { status: 'written' };
}
/**
 * O_NOFOLLOW: a link put in the file's place since it was checked is refused, not written through; `fresh`: a file
 * made in the meantime is refused too (O_EXCL). Sync writes with it as well.
 */
async function writeNoFollow(file, content, fresh) {
    const flags = node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.O_WRONLY |
        node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.O_CREAT |
        node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.O_TRUNC |
        (node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.O_NOFOLLOW ?? 0) |
        (fresh ? node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.O_EXCL : 0);
    const handle = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.open)(file, flags, 0o666);
    try {
        await handle.writeFile(content);
    }
    finally {
        await handle.close();
    }
}
/** The file's lstat, or nothing where there is no file. */
async function lstatOrNothing(at) {
    try {
        return await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.lstat)(at);
    }
    catch (e) {
        if (e.code === 'ENOENT')
            return undefined;
        throw e;
    }
}
const isInside = (root, target) => {
    const rel = node_path__WEBPACK_IMPORTED_MODULE_2___default().relative(root, target);
    return rel === '' || (!rel.startsWith('..') && !node_path__WEBPACK_IMPORTED_MODULE_2___default().isAbsolute(rel));
};


/***/ })

};
