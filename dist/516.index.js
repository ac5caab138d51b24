export const id = 516;
export const ids = [516];
export const modules = {

/***/ 5516:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  runSync: () => (/* binding */ runSync),
  writeSynced: () => (/* binding */ writeSynced)
});

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
var external_node_path_default = /*#__PURE__*/__webpack_require__.n(external_node_path_);
// EXTERNAL MODULE: ./src/api/client.ts + 9 modules
var client = __webpack_require__(6930);
// EXTERNAL MODULE: ./src/config/stack-layout.ts
var stack_layout = __webpack_require__(5605);
// EXTERNAL MODULE: ./src/diagnostics.ts
var src_diagnostics = __webpack_require__(4851);
// EXTERNAL MODULE: ./src/error-message.ts
var error_message = __webpack_require__(6587);
;// CONCATENATED MODULE: ./node_modules/diff/libesm/diff/base.js
class Diff {
    diff(oldStr, newStr, 
    // Type below is not accurate/complete - see above for full possibilities - but it compiles
    options = {}) {
        let callback;
        if (typeof options === 'function') {
            callback = options;
            options = {};
        }
        else if ('callback' in options) {
            callback = options.callback;
        }
        // Allow subclasses to massage the input prior to running
        const oldString = this.castInput(oldStr, options);
        const newString = this.castInput(newStr, options);
        const oldTokens = this.removeEmpty(this.tokenize(oldString, options));
        const newTokens = this.removeEmpty(this.tokenize(newString, options));
        return this.diffWithOptionsObj(oldTokens, newTokens, options, callback);
    }
    diffWithOptionsObj(oldTokens, newTokens, options, callback) {
        var _a;
        const done = (value) => {
            value = this.postProcess(value, options);
            if (callback) {
                setTimeout(function () { callback(value); }, 0);
                return undefined;
            }
            else {
                return value;
            }
        };
        const newLen = newTokens.length, oldLen = oldTokens.length;
        let editLength = 1;
        let maxEditLength = newLen + oldLen;
        if (options.maxEditLength != null) {
            maxEditLength = Math.min(maxEditLength, options.maxEditLength);
        }
        const maxExecutionTime = (_a = options.timeout) !== null && _a !== void 0 ? _a : Infinity;
        const abortAfterTimestamp = Date.now() + maxExecutionTime;
        const bestPath = [{ oldPos: -1, lastComponent: undefined }];
        // Seed editLength = 0, i.e. the content starts with the same values
        let newPos = this.extractCommon(bestPath[0], newTokens, oldTokens, 0, options);
        if (bestPath[0].oldPos + 1 >= oldLen && newPos + 1 >= newLen) {
            // Identity per the equality and tokenizer
            return done(this.buildValues(bestPath[0].lastComponent, newTokens, oldTokens));
        }
        // Once we hit the right edge of the edit graph on some diagonal k, we can
        // definitely reach the end of the edit graph in no more than k edits, so
        // there's no point in considering any moves to diagonal k+1 any more (from
        // which we're guaranteed to need at least k+1 more edits).
        // Similarly, once we've reached the bottom of the edit graph, there's no
        // point considering moves to lower diagonals.
        // We record this fact by setting minDiagonalToConsider and
        // maxDiagonalToConsider to some finite value once we've hit the edge of
        // the edit graph.
        // This optimization is not faithful to the original algorithm presented in
        // Myers's paper, which instead pointlessly extends D-paths off the end of
        // the edit graph - see page 7 of Myers's paper which notes this point
        // explicitly and illustrates it with a diagram. This has major performance
        // implications for some common scenarios. For instance, to compute a diff
        // where the new text simply appends d characters on the end of the
        // original text of length n, the true Myers algorithm will take O(n+d^2)
        // time while this optimization needs only O(n+d) time.
        let minDiagonalToConsider = -Infinity, maxDiagonalToConsider = Infinity;
        // Main worker method. checks all permutations of a given edit length for acceptance.
        const execEditLength = () => {
            for (let diagonalPath = Math.max(minDiagonalToConsider, -editLength); diagonalPath <= Math.min(maxDiagonalToConsider, editLength); diagonalPath += 2) {
                let basePath;
                const removePath = bestPath[diagonalPath - 1], addPath = bestPath[diagonalPath + 1];
                if (removePath) {
                    // No one else is going to attempt to use this value, clear it
                    // @ts-expect-error - perf optimisation. This type-violating value will never be read.
                    bestPath[diagonalPath - 1] = undefined;
                }
                let canAdd = false;
                if (addPath) {
                    // what newPos will be after we do an insertion:
                    const addPathNewPos = addPath.oldPos - diagonalPath;
                    canAdd = addPath && 0 <= addPathNewPos && addPathNewPos < newLen;
                }
                const canRemove = removePath && removePath.oldPos + 1 < oldLen;
                if (!canAdd && !canRemove) {
                    // If this path is a terminal then prune
                    // @ts-expect-error - perf optimisation. This type-violating value will never be read.
                    bestPath[diagonalPath] = undefined;
                    continue;
                }
                // Select the diagonal that we want to branch from. We select the prior
                // path whose position in the old string is the farthest from the origin
                // and does not pass the bounds of the diff graph
                if (!canRemove || (canAdd && removePath.oldPos < addPath.oldPos)) {
                    basePath = this.addToPath(addPath, true, false, 0, options);
                }
                else {
                    basePath = this.addToPath(removePath, false, true, 1, options);
                }
                newPos = this.extractCommon(basePath, newTokens, oldTokens, diagonalPath, options);
                if (basePath.oldPos + 1 >= oldLen && newPos + 1 >= newLen) {
                    // If we have hit the end of both strings, then we are done
                    return done(this.buildValues(basePath.lastComponent, newTokens, oldTokens)) || true;
                }
                else {
                    bestPath[diagonalPath] = basePath;
                    if (basePath.oldPos + 1 >= oldLen) {
                        maxDiagonalToConsider = Math.min(maxDiagonalToConsider, diagonalPath - 1);
                    }
                    if (newPos + 1 >= newLen) {
                        minDiagonalToConsider = Math.max(minDiagonalToConsider, diagonalPath + 1);
                    }
                }
            }
            editLength++;
        };
        // Performs the length of edit iteration. Is a bit fugly as this has to support the
        // sync and async mode which is never fun. Loops over execEditLength until a value
        // is produced, or until the edit length exceeds options.maxEditLength (if given),
        // in which case it will return undefined.
        if (callback) {
            (function exec() {
                setTimeout(function () {
                    if (editLength > maxEditLength || Date.now() > abortAfterTimestamp) {
                        return callback(undefined);
                    }
                    if (!execEditLength()) {
                        exec();
                    }
                }, 0);
            }());
        }
        else {
            while (editLength <= maxEditLength && Date.now() <= abortAfterTimestamp) {
                const ret = execEditLength();
                if (ret) {
                    return ret;
                }
            }
        }
    }
    addToPath(path, added, removed, oldPosInc, options) {
        const last = path.lastComponent;
        if (last && !options.oneChangePerToken && last.added === added && last.removed === removed) {
            return {
                oldPos: path.oldPos + oldPosInc,
                lastComponent: { count: last.count + 1, added: added, removed: removed, previousComponent: last.previousComponent }
            };
        }
        else {
            return {
                oldPos: path.oldPos + oldPosInc,
                lastComponent: { count: 1, added: added, removed: removed, previousComponent: last }
            };
        }
    }
    extractCommon(basePath, newTokens, oldTokens, diagonalPath, options) {
        const newLen = newTokens.length, oldLen = oldTokens.length;
        let oldPos = basePath.oldPos, newPos = oldPos - diagonalPath, commonCount = 0;
        while (newPos + 1 < newLen && oldPos + 1 < oldLen && this.equals(oldTokens[oldPos + 1], newTokens[newPos + 1], options)) {
            newPos++;
            oldPos++;
            commonCount++;
            if (options.oneChangePerToken) {
                basePath.lastComponent = { count: 1, previousComponent: basePath.lastComponent, added: false, removed: false };
            }
        }
        if (commonCount && !options.oneChangePerToken) {
            basePath.lastComponent = { count: commonCount, previousComponent: basePath.lastComponent, added: false, removed: false };
        }
        basePath.oldPos = oldPos;
        return newPos;
    }
    equals(left, right, options) {
        if (options.comparator) {
            return options.comparator(left, right);
        }
        else {
            return left === right
                || (!!options.ignoreCase && left.toLowerCase() === right.toLowerCase());
        }
    }
    removeEmpty(array) {
        const ret = [];
        for (let i = 0; i < array.length; i++) {
            if (array[i]) {
                ret.push(array[i]);
            }
        }
        return ret;
    }
    // eslint-disable-next-line @typescript-eslint/no-unused-vars
    castInput(value, options) {
        return value;
    }
    // eslint-disable-next-line @typescript-eslint/no-unused-vars
    tokenize(value, options) {
        return Array.from(value);
    }
    join(chars) {
        // Assumes ValueT is string, which is the case for most subclasses.
        // When it's false, e.g. in diffArrays, this method needs to be overridden (e.g. with a no-op)
        // Yes, the casts are verbose and ugly, because this pattern - of having the base class SORT OF
        // assume tokens and values are strings, but not completely - is weird and janky.
        return chars.join('');
    }
    postProcess(changeObjects, 
    // eslint-disable-next-line @typescript-eslint/no-unused-vars
    options) {
        return changeObjects;
    }
    get useLongestToken() {
        return false;
    }
    buildValues(lastComponent, newTokens, oldTokens) {
        // First we convert our linked list of components in reverse order to an
        // array in the right order:
        const components = [];
        let nextComponent;
        while (lastComponent) {
            components.push(lastComponent);
            nextComponent = lastComponent.previousComponent;
            delete lastComponent.previousComponent;
            lastComponent = nextComponent;
        }
        components.reverse();
        const componentLen = components.length;
        let componentPos = 0, newPos = 0, oldPos = 0;
        for (; componentPos < componentLen; componentPos++) {
            const component = components[componentPos];
            if (!component.removed) {
                if (!component.added && this.useLongestToken) {
                    let value = newTokens.slice(newPos, newPos + component.count);
                    value = value.map(function (value, i) {
                        const oldValue = oldTokens[oldPos + i];
                        return oldValue.length > value.length ? oldValue : value;
                    });
                    component.value = this.join(value);
                }
                else {
                    component.value = this.join(newTokens.slice(newPos, newPos + component.count));
                }
                newPos += component.count;
                // Common case
                if (!component.added) {
                    oldPos += component.count;
                }
            }
            else {
                component.value = this.join(oldTokens.slice(oldPos, oldPos + component.count));
                oldPos += component.count;
            }
        }
        return components;
    }
}

;// CONCATENATED MODULE: ./node_modules/diff/libesm/diff/array.js

class ArrayDiff extends Diff {
    tokenize(value) {
        return value.slice();
    }
    join(value) {
        return value;
    }
    removeEmpty(value) {
        return value;
    }
}
const arrayDiff = new ArrayDiff();
function diffArrays(oldArr, newArr, options) {
    return arrayDiff.diff(oldArr, newArr, options);
}

// EXTERNAL MODULE: ./src/json.ts
var json = __webpack_require__(8301);
// EXTERNAL MODULE: ./src/manifest/path.ts
var manifest_path = __webpack_require__(7578);
// EXTERNAL MODULE: ./src/kinds/exporting.ts
var exporting = __webpack_require__(7989);
// EXTERNAL MODULE: ./src/kinds/index.ts + 36 modules
var src_kinds = __webpack_require__(3617);
// EXTERNAL MODULE: ./src/kinds/kind.ts
var kinds_kind = __webpack_require__(3169);
// EXTERNAL MODULE: ./src/yaml-library.ts + 1 modules
var yaml_library = __webpack_require__(5159);
// EXTERNAL MODULE: ./src/kinds/registry.ts
var registry = __webpack_require__(6340);
;// CONCATENATED MODULE: ./src/export/manifests.ts



/** The key of every live record of a kind in an ExportInput: `allDashboards`. */
const allOf = (list) => `all${list.charAt(0).toUpperCase()}${list.slice(1)}`;
/** The kinds export writes, in the order of the plan, with their lists' names and how they are written. */
function writtenKinds(kinds = src_kinds/* KINDS */.G) {
    return kinds.flatMap(kind => kind.exports?.writes ? [{ kind, list: kind.exports.list, writes: kind.exports.writes }] : []);
}
function exportManifests(input, kinds = KINDS) {
    const ctx = exportContext(input, kinds);
    const written = writtenKinds(kinds);
    const used = new Set();
    return [
        ...written.flatMap(w => 'file' in w.writes.to ? kindFile(w.kind, w.writes, w.writes.to.file, ctx, used) : []),
        ...written.flatMap(w => 'each' in w.writes.to ? recordFiles(w.kind, w.writes, w.writes.to.each, ctx, used) : [])
    ];
}
/** What the kinds' writers see of an export's input (a sync that writes what export writes builds the same). */
function exportContext(input, kinds = src_kinds/* KINDS */.G, options = {}) {
    const byKind = new Map(kinds.map(k => [k.kind, k]));
    const list = (kind, all) => {
        const name = byKind.get(kind)?.exports?.list;
        if (name === undefined)
            return undefined;
        return ((all ? input[allOf(name)] : undefined) ?? input[name]);
    };
    return {
        ownershipTag: input.ownershipTag,
        registry: input.registry ?? registry/* Registry */.OR.empty('', input.ownershipTag),
        mode: input.mode ?? 'self-hosted',
        namer: new exporting/* Namer */.mu(kind => {
            const k = byKind.get(kind);
            return k && list(kind, true)?.map(r => ({ id: k.liveId(r) ?? '', name: k.liveName(r) }));
        }),
        secrets: new exporting/* SecretNames */.Np(),
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

;// CONCATENATED MODULE: ./src/export/sync-merge.ts


const PLACEHOLDER = /\$\{[^}]*\}/;
/**
 * Edits `doc` so that its value is `target` (a plain value: the exported document's), but for extras, additions and
 * placeholders. `alternate` is the same record written in its other forms (ExportContext.alternateForms): where a
 * mapping of the manifest shares more keys with the alternate's, that one is followed (a tile kept in `config`).
 */
function mergeInto(doc, target, alternate) {
    const outcome = { changed: false, extras: [], additions: [], placeholders: [] };
    const merged = mergeNode(doc, doc.contents, target, alternate, [], outcome);
    if (merged !== doc.contents) {
        doc.contents = merged;
        outcome.changed = true;
    }
    return outcome;
}
/** Adds a key export writes where export puts it: after the nearest key before it that the manifest has. */
function addAt(doc, addition) {
    const { isMap, isScalar } = (0,yaml_library/* yamlLibrary */.T)();
    const map = addition.path.length === 1 ? doc.contents : doc.getIn(addition.path.slice(0, -1), true);
    if (!isMap(map))
        return;
    const keyOf = (pair) => (isScalar(pair.key) ? pair.key.value : pair.key);
    const at = addition.after.map(k => map.items.findIndex(p => keyOf(p) === k)).find(i => i >= 0);
    const key = addition.path[addition.path.length - 1];
    map.items.splice(at === undefined ? map.items.length : at + 1, 0, doc.createPair(key, addition.value));
}
/** Removes the key at `path` (an extra), as a person would delete its line. */
function removeAt(doc, path) {
    doc.deleteIn(path);
}
/** The node to hold `target` where `node` is: `node` itself, edited, or a new node when the shapes differ. */
function mergeNode(doc, node, target, alternate, path, outcome) {
    const { isMap, isSeq, isScalar } = (0,yaml_library/* yamlLibrary */.T)();
    if ((0,json/* isMapping */.pi)(target) && isMap(node)) {
        if ((0,json/* isMapping */.pi)(alternate) && sharedKeys(node, alternate) > sharedKeys(node, target))
            mergeMap(doc, node, alternate, undefined, path, outcome);
        else
            mergeMap(doc, node, target, alternate, path, outcome);
        return node;
    }
    if (Array.isArray(target) && isSeq(node)) {
        mergeSeq(doc, node, target, Array.isArray(alternate) ? alternate : undefined, path, outcome);
        return node;
    }
    if (isScalar(node) && !(0,json/* isMapping */.pi)(target) && !Array.isArray(target)) {
        if (node.value === target || (isNullish(node.value) && isNullish(target)))
            return node;
        if (typeof node.value === 'string' && PLACEHOLDER.test(node.value)) {
            outcome.placeholders.push(path);
            return node;
        }
        if (typeof target === 'string' && PLACEHOLDER.test(target)) {
            // Export writes a placeholder for what it cannot read (a secret): the manifest's own value stays.
            outcome.placeholders.push(path);
            return node;
        }
        // A quoted or block string keeps its style when it can hold the new value; a number stays plain.
        node.value = target;
        if (typeof target !== 'string')
            node.type = 'PLAIN';
        outcome.changed = true;
        return node;
    }
    outcome.changed = true;
    return doc.createNode(target);
}
/** How many of a mapping's keys a plain object has too. */
function sharedKeys(map, value) {
    const { isScalar } = (0,yaml_library/* yamlLibrary */.T)();
    return map.items.filter(p => {
        const key = isScalar(p.key) ? p.key.value : p.key;
        return typeof key === 'string' && key in value;
    }).length;
}
function mergeMap(doc, map, target, alternate, path, outcome) {
    const { isScalar } = (0,yaml_library/* yamlLibrary */.T)();
    const keyOf = (pair) => (isScalar(pair.key) ? pair.key.value : pair.key);
    for (const pair of map.items) {
        const key = keyOf(pair);
        if (typeof key === 'string' && !(key in target))
            outcome.extras.push([...path, key]);
    }
    const order = Object.keys(target);
    order.forEach((key, i) => {
        const value = target[key];
        if (value === undefined)
            return;
        const pair = map.items.find(p => keyOf(p) === key);
        if (pair) {
            const other = (0,json/* isMapping */.pi)(alternate) ? alternate[key] : undefined;
            const merged = mergeNode(doc, pair.value, value, other, [...path, key], outcome);
            if (merged !== pair.value)
                pair.value = merged;
            return;
        }
        outcome.additions.push({ path: [...path, key], value, after: order.slice(0, i).reverse() });
    });
}
/**
 * A list: items matched by their `id` (a tile's pin), else their `name`, else their place; the manifest's items
 * keep their order and comments, new ones go at the end, and those the live record no longer has go.
 */
function mergeSeq(doc, seq, target, alternate, path, outcome) {
    const identity = identityOf(seq, target);
    const matched = new Map();
    const taken = new Set();
    target.forEach((t, i) => {
        const at = identity
            ? seq.items.findIndex((n, j) => !taken.has(j) && identity.node(n) === identity.target(t))
            : i;
        if (at >= 0 && at < seq.items.length && !taken.has(at)) {
            matched.set(at, i);
            taken.add(at);
        }
    });
    // Left over on both sides, in order: an item renamed (a tile renamed in the UI) keeps its place and comments.
    if (identity) {
        const leftItems = seq.items.map((_, j) => j).filter(j => !taken.has(j));
        const leftTargets = target.map((_, i) => i).filter(i => ![...matched.values()].includes(i));
        leftItems.forEach((j, n) => {
            if (n < leftTargets.length)
                matched.set(j, leftTargets[n]);
        });
    }
    const kept = [];
    seq.items.forEach((item, j) => {
        const i = matched.get(j);
        if (i === undefined) {
            outcome.changed = true;
            return;
        }
        // The alternate writes the same items in the same order: only their forms differ.
        const other = alternate?.length === target.length ? alternate[i] : undefined;
        const merged = mergeNode(doc, item, target[i], other, [...path, kept.length], outcome);
        kept.push(merged);
    });
    const added = target.filter((_, i) => ![...matched.values()].includes(i));
    for (const t of added)
        kept.push(doc.createNode(t));
    if (added.length > 0)
        outcome.changed = true;
    seq.items = kept;
}
/** How a list's items are told apart, where every item of both sides has an `id` or a `name`. */
function identityOf(seq, target) {
    const { isMap, isScalar } = (0,yaml_library/* yamlLibrary */.T)();
    if (!target.every(t => idOf(t) !== undefined))
        return undefined;
    const nodeId = (node) => {
        if (!isMap(node))
            return undefined;
        const field = (key) => {
            const v = node.get(key, true);
            return isScalar(v) && (typeof v.value === 'string' || typeof v.value === 'number')
                ? String(v.value)
                : undefined;
        };
        const id = field('id');
        return id !== undefined ? `id:${id}` : field('name') !== undefined ? `name:${field('name')}` : undefined;
    };
    if (!seq.items.every(n => nodeId(n) !== undefined))
        return undefined;
    // A pin on one side only (export pins repeated names alone): matched by name then.
    const pinned = target.some(t => (0,json/* isMapping */.pi)(t) && t.id !== undefined);
    const allPinned = pinned && seq.items.every(n => nodeId(n).startsWith('id:'));
    if (!pinned || allPinned)
        return { node: nodeId, target: idOf };
    return {
        node: node => {
            const v = isMap(node) ? node.get('name', true) : undefined;
            return isScalar(v) && typeof v.value === 'string' ? `name:${v.value}` : undefined;
        },
        target: t => ((0,json/* isMapping */.pi)(t) && typeof t.name === 'string' ? `name:${t.name}` : undefined)
    };
}
function idOf(value) {
    if (!(0,json/* isMapping */.pi)(value))
        return undefined;
    const id = value.id;
    if (typeof id === 'string' || typeof id === 'number')
        return `id:${String(id)}`;
    return typeof value.name === 'string' ? `name:${value.name}` : undefined;
}
const isNullish = (v) => v === null || v === undefined;

;// CONCATENATED MODULE: ./src/export/sync.ts
/**
 * `obsdeploy sync`: the stack's manifest files rewritten so that they describe the live state of what the stack
 * owns, where it differs (an edit in the web UI, or through the API). Pure: the caller reads the files and the live
 * state, plans them, and hands over a `replan` that plans texts as they would be; this module says what each file
 * becomes.
 *
 * Each differing record's document is brought in line with what export writes of its live record (sync-merge.ts),
 * in place: the same file and document, comments, key order and quoting kept, names not ids, placeholders kept. A
 * key the manifest spells out and export leaves out stays unless the plan still differs with it: then the keys
 * whose removal brings the plan closer go, one at a time. A document whose record is gone from the server is
 * removed; a record the stack owns that no manifest declares (made in the UI with the stack's tag) is added,
 * where the stack prunes (else the plan defers its delete, and sync leaves it alone too). What still differs
 * afterwards (a secret, a setting no manifest can say) is named, never hidden: the caller checks the plan of the
 * written files, and says what it still holds.
 */









function syncManifests(input) {
    const exported = exportedIndex(input);
    const files = input.files.map(parseFile);
    const byPath = new Map(files.map(f => [f.path, f]));
    const records = [];
    const left = [];
    const orphans = [];
    const merges = [];
    for (const change of input.changes) {
        if (change.action === 'noop')
            continue;
        const located = change.source && locate(byPath.get(change.source.file), change.source.line);
        if (!located) {
            if (change.action === 'delete')
                orphans.push(change);
            else
                left.push({ address: change.address, why: 'no manifest document of this stack declares it' });
            continue;
        }
        const { file, index } = located;
        const key = (0,exporting/* documentIdentity */.yt)(file.docs[index].toJS());
        // By the live id the plan paired it with (a record renamed in the UI), else by what the document names.
        const target = (change.id !== undefined ? exported.byLive.get(`${change.kind}|${change.id}`) : undefined) ??
            (key === undefined ? undefined : exported.byIdentity.get(key));
        if (change.action === 'create') {
            if (target)
                left.push({
                    address: change.address,
                    why: 'a record of that name is on the server, but this stack does not own it: its document is kept'
                });
            else {
                file.removed.add(index);
                records.push(recordOf(change, 'removed', file.path, input.live));
            }
        }
        else if (target)
            merges.push({ file, index, change, target });
        else
            left.push({
                address: change.address,
                why: 'export writes no manifest of this kind: sync cannot say it'
            });
    }
    const merged = merges.map(m => {
        m.file.edited.add(m.index);
        const open = mergeInto(m.file.docs[m.index], m.target.value, m.target.alternate);
        return { file: m.file, index: m.index, address: m.change.address, open };
    });
    const distances = settleAll(merged);
    merges.forEach((m, i) => {
        const outcome = merged[i].open;
        // A placeholder stands for a variable or a secret: sync never writes a value over it, and says so.
        if ((distances.get(m.change.address) ?? 0) > 0)
            for (const at of outcome.placeholders)
                left.push({
                    address: m.change.address,
                    why: `${(0,manifest_path/* formatPath */.j)(at)} is a placeholder in the manifest; the server holds another value, which sync does not write over it (set the variable or secret, or edit the manifest)`
                });
        records.push(recordOf(m.change, 'updated', m.file.path, input.live));
    });
    addKept();
    const created = addOrphans();
    const changed = files.flatMap((f) => {
        const after = render(f);
        if (after === f.text)
            return [];
        return [{ path: f.path, before: f.text, after: after.trim() === '' ? null : after }];
    });
    return { files: [...changed, ...created], records, left };
    /**
     * What the merges left open, settled by asking the planner (stepsOf says which steps, in which order). Every
     * record takes its next step at once and one plan judges them all: a step stays where its record's plan then
     * differs less (or, for a key at the top that an update keeps, no more), and is undone otherwise. So a sync of many
     * records asks the planner as often as one record has steps, not once per step of every record. A round whose
     * texts do not validate is tried again one step at a time, so one record's bad step costs no other its own.
     * Returns how far each record's plan still is from nothing to do.
     */
    function settleAll(open) {
        const start = distancesOf(open.map(o => o.address));
        const runs = open.map(o => {
            const steps = stepsOf(o.open);
            return { ...o, distance: start?.get(o.address) ?? Infinity, steps, next: steps.next(false) };
        });
        for (;;) {
            // A record the plan finds equal takes only the steps that add what an update keeps.
            for (const r of runs)
                while (!r.next.done && r.distance === 0 && !r.next.value.even)
                    r.next = r.steps.next(false);
            const active = runs.filter(r => !r.next.done);
            if (active.length === 0)
                break;
            tryRound(active);
        }
        return new Map(runs.map(r => [r.address, r.distance]));
    }
    function tryRound(active) {
        const before = active.map(r => r.file.docs[r.index].clone());
        for (const r of active)
            r.next.value.edit(r.file.docs[r.index]);
        const after = distancesOf(active.map(r => r.address));
        if (after === undefined && active.length > 1) {
            active.forEach((r, i) => (r.file.docs[r.index] = before[i]));
            for (const r of active)
                tryRound([r]);
            return;
        }
        active.forEach((r, i) => {
            const step = r.next.value;
            const d = after?.get(r.address) ?? Infinity;
            const kept = d < r.distance || (step.even && d === r.distance && d !== Infinity);
            if (kept)
                r.distance = d;
            else
                r.file.docs[r.index] = before[i];
            r.next = r.steps.next(kept);
        });
    }
    /** How far each record's plan is from nothing to do, in one plan of the texts as they are; undefined: invalid. */
    function distancesOf(addresses) {
        const texts = new Map(files.map(f => [f.path, render(f)]));
        const changes = input.replan(texts);
        if (!changes)
            return undefined;
        const byAddress = new Map(changes.map(c => [c.address, c]));
        return new Map(addresses.map(a => [a, distanceOfChange(byAddress.get(a))]));
    }
    /**
     * Records the plan finds equal that still hold what the manifest leaves out and an update keeps (an alert's
     * displayName and tags set in the UI): the keys export writes at the top of their documents are added, each only
     * where the plan stays empty. Nothing else of such a document is touched.
     */
    function addKept() {
        const merged = new Set(merges.map(m => m.file.docs[m.index]));
        const equal = input.changes.filter(c => c.action === 'noop');
        const kept = [];
        for (const file of files)
            file.docs.forEach((doc, index) => {
                if (merged.has(doc) || file.removed.has(index))
                    return;
                const value = doc.toJS();
                const key = (0,exporting/* documentIdentity */.yt)(value);
                const target = key === undefined ? undefined : exported.byIdentity.get(key);
                const same = (0,json/* isMapping */.pi)(value) ? equal.filter(c => c.kind === value.kind && c.name === value.name) : [];
                if (!target || same.length !== 1)
                    return;
                const additions = mergeInto(doc.clone(), target.value, target.alternate).additions.filter(a => a.path.length === 1);
                if (additions.length === 0)
                    return;
                const open = { changed: false, extras: [], additions, placeholders: [] };
                kept.push({ file, index, address: same[0].address, open, change: same[0] });
            });
        if (kept.length === 0)
            return;
        // Each step adds a key at the top, kept where the plan stays empty (settleAll's `even` steps), all in rounds.
        for (const k of kept)
            k.file.edited.add(k.index);
        settleAll(kept);
        for (const k of kept) {
            const doc = k.file.docs[k.index];
            const added = k.open.additions
                .filter(a => doc.has(a.path[0]))
                .map(a => ({ path: String(a.path[0]), before: a.value }));
            if (added.length === 0)
                k.file.edited.delete(k.index);
            else
                records.push({ ...recordOf(k.change, 'updated', k.file.path, input.live), fields: added });
        }
    }
    /**
     * Records the stack owns that no manifest declares (made in the UI with the stack's tag, or on a dashboard of
     * the stack): added where the plan would delete them (the stack prunes); where it holds the delete back (prune
     * off: it may be a manifest removed on purpose), named and left alone. A dashboard gets a file of its own with
     * its alerts; an alert goes into the file of what it watches.
     */
    function addOrphans() {
        const out = [];
        const taken = new Set(input.files.map(f => f.path));
        const handled = new Set();
        const add = (change, file) => {
            handled.add(change);
            records.push(recordOf(change, 'added', file, input.live));
        };
        for (const change of orphans) {
            if (handled.has(change))
                continue;
            if (change.deferred !== undefined) {
                left.push({
                    address: change.address,
                    why: change.deferred === 'prune'
                        ? 'owned on the server and in no manifest; this stack does not prune, so sync does not add it (it may be a manifest removed on purpose)'
                        : `owned on the server and in no manifest, its delete held (${change.deferred}): sync does not add it`
                });
                continue;
            }
            const own = change.id === undefined ? undefined : exported.byLive.get(`${change.kind}|${change.id}`);
            if (own?.family) {
                const path = freshPath(input.folder, change.name, taken);
                const text = own.family.map(d => d.doc.toString({ lineWidth: 0 })).join('---\n');
                out.push({
                    path,
                    before: null,
                    after: `# Added by obsdeploy sync: made on the server with this stack's tag, in no manifest before.\n${text}`
                });
                add(change, path);
                for (const d of own.family.slice(1)) {
                    const carried = orphans.find(c => !handled.has(c) && `${c.kind}|${c.name}` === d.kindName);
                    if (carried)
                        add(carried, path);
                }
                continue;
            }
            const carried = exported.carried.filter(d => d.kindName === `${change.kind}|${change.name}`);
            const holder = carried.length === 1 ? findHolder(files, carried[0].carrier) : undefined;
            if (!holder) {
                left.push({
                    address: change.address,
                    why: carried.length > 1
                        ? 'owned on the server and in no manifest; several records have its name, so sync cannot tell which to add'
                        : 'owned on the server and in no manifest; sync finds no manifest of what it belongs to'
                });
                continue;
            }
            holder.appended.push(carried[0].doc.toString({ lineWidth: 0 }));
            add(change, holder.path);
        }
        return out;
    }
}
/**
 * The steps that settle what a merge left open, each told whether it was kept: each key export writes that the
 * manifest lacks, added; each key the manifest spells out that export does not write, removed; then each addition
 * not kept, tried again with its siblings that export does not write removed: another way of saying the same thing.
 */
function* stepsOf(open) {
    const removed = new Set();
    const untried = [];
    for (const addition of open.additions) {
        const kept = yield { edit: doc => addAt(doc, addition), even: addition.path.length === 1 };
        if (!kept)
            untried.push(addition);
    }
    for (const extra of open.extras)
        if (yield { edit: doc => removeAt(doc, extra), even: false })
            removed.add(extra);
    for (const addition of untried) {
        const parent = JSON.stringify(addition.path.slice(0, -1));
        const siblings = open.extras.filter(e => !removed.has(e) && JSON.stringify(e.slice(0, -1)) === parent);
        if (siblings.length === 0)
            continue;
        const swap = (doc) => {
            for (const e of siblings)
                removeAt(doc, e);
            addAt(doc, addition);
        };
        if (yield { edit: swap, even: false })
            siblings.forEach(e => removed.add(e));
    }
}
/** How far a record's plan is from nothing to do: its changed fields and notes, and one for any action. */
function distanceOfChange(change) {
    // Texts that no longer declare the record are as far as can be (a noop carries no source: told apart first).
    if (change?.action === 'noop')
        return 0;
    if (!change || change.source === undefined)
        return Infinity;
    return 1 + change.fields.length + change.notes.length;
}
/** Every document export writes of the live state, by identity; records' own documents also by live id. */
function exportedIndex(input) {
    const exportInput = {
        ownershipTag: input.ownershipTag,
        registry: input.registry,
        mode: input.mode
    };
    for (const kind of src_kinds/* KINDS_BY_NAME */._.values()) {
        if (!kind.exports)
            continue;
        const records = (0,kinds_kind/* recordsOf */.M)(input.live, kind.kind);
        exportInput[allOf(kind.exports.list)] = records;
        exportInput[kind.exports.list] = records;
    }
    const ctx = exportContext(exportInput);
    // The same records in their other forms, for the manifests that use those (mergeInto's `alternate`).
    const alternateCtx = exportContext(exportInput, undefined, { alternateForms: true });
    const byIdentity = new Map();
    const byLive = new Map();
    const carried = [];
    for (const { kind, writes } of writtenKinds()) {
        const write = writes.writer(ctx);
        const writeAlternate = writes.writer(alternateCtx);
        for (const record of (0,kinds_kind/* recordsOf */.M)(input.live, kind.kind) ?? []) {
            if (writes.skips?.(record))
                continue;
            const written = write(record);
            const alternates = writeAlternate(record).documents;
            const docs = written.documents.map((doc, i) => {
                const d = exportedDoc(doc);
                if (alternates.length === written.documents.length)
                    d.alternate = alternates[i].toJS();
                return d;
            });
            ctx.secrets.all.splice(0);
            alternateCtx.secrets.all.splice(0);
            if (docs.length === 0)
                continue;
            const own = docs[0];
            own.family = docs;
            const ids = written.ids ?? [kind.liveId(record)];
            docs.forEach((d, i) => {
                if (ids[i] !== undefined)
                    byLive.set(`${d.kindName.split('|')[0]}|${ids[i]}`, d);
            });
            const carrier = (0,exporting/* documentIdentity */.yt)(own.value);
            for (const d of docs.slice(1)) {
                d.carrier = carrier;
                carried.push(d);
            }
            for (const d of docs) {
                const key = (0,exporting/* documentIdentity */.yt)(d.value);
                // Two records export alike (same-named alerts on one tile): neither is a safe match.
                if (key !== undefined)
                    byIdentity.set(key, byIdentity.has(key) ? AMBIGUOUS : d);
            }
        }
    }
    for (const [key, d] of byIdentity)
        if (d === AMBIGUOUS)
            byIdentity.delete(key);
    return { byIdentity, byLive, carried };
}
const AMBIGUOUS = { value: undefined, doc: undefined, kindName: '' };
function exportedDoc(doc) {
    const value = doc.toJS();
    const v = (0,json/* isMapping */.pi)(value) ? value : {};
    return { value, doc, kindName: `${String(v.kind)}|${String(v.name)}` };
}
function recordOf(change, action, file, live) {
    const kind = src_kinds/* KINDS_BY_NAME */._.get(change.kind);
    const record = action === 'removed' || change.id === undefined ? undefined : liveRecord(kind, live, change.id);
    const said = (key) => {
        const v = (0,json/* isMapping */.pi)(record) ? record[key] : undefined;
        return typeof v === 'string' && v !== '' ? v : undefined;
    };
    const updatedAt = said('updatedAt');
    const updatedBy = said('updatedBy');
    return {
        address: change.address,
        kind: change.kind,
        name: change.name,
        action,
        ...(action !== 'removed' && change.id !== undefined ? { id: change.id } : {}),
        file,
        fields: action === 'updated' ? change.fields : [],
        ...(updatedAt ? { updatedAt } : {}),
        ...(updatedBy ? { updatedBy } : {})
    };
}
function liveRecord(kind, live, id) {
    if (!kind)
        return undefined;
    return ((0,kinds_kind/* recordsOf */.M)(live, kind.kind) ?? []).find(r => kind.liveId(r) === id);
}
function parseFile(input) {
    const { parseAllDocuments } = (0,yaml_library/* yamlLibrary */.T)();
    const parsed = parseAllDocuments(input.text);
    const docs = (Array.isArray(parsed) ? parsed : [parsed]);
    // Where each document starts in the text, as read: the documents are replaced by copies as sync tries edits.
    const starts = docs.map((d, i) => (i === 0 ? 0 : (d.range?.[0] ?? 0)));
    return {
        path: input.path,
        text: input.text,
        docs,
        starts,
        edited: new Set(),
        removed: new Set(),
        appended: []
    };
}
/** The document of `file` that holds `line` (1-based). */
function locate(file, line) {
    if (!file)
        return undefined;
    const lineStarts = [0];
    for (let i = 0; i < file.text.length; i++)
        if (file.text[i] === '\n')
            lineStarts.push(i + 1);
    const offset = lineStarts[line - 1] ?? file.text.length;
    let index = -1;
    file.docs.forEach((d, i) => {
        if ((d.range?.[0] ?? 0) <= offset)
            index = i;
    });
    // The first document's range starts after the file's leading comments; a line before it is still its.
    return file.docs.length === 0 ? undefined : { file, index: Math.max(0, index) };
}
/** A file as sync leaves it: documents it did not touch as they were written, byte for byte. */
function render(f) {
    if (f.edited.size === 0 && f.removed.size === 0 && f.appended.length === 0)
        return f.text;
    const starts = f.starts;
    const style = styleOf(f.text);
    const pieces = [];
    f.docs.forEach((doc, i) => {
        if (f.removed.has(i))
            return;
        const original = f.text.slice(starts[i], i + 1 < starts.length ? starts[i + 1] : f.text.length);
        pieces.push(f.edited.has(i) ? restoreLines(original, doc.toString({ lineWidth: 0, ...style })) : original);
    });
    pieces.push(...f.appended);
    // Every document after the first starts with its marker (one that followed a removed one keeps its own).
    return pieces
        .map((p, i) => (i === 0 || p.startsWith('---') ? p : `---\n${p}`))
        .map(p => (p.endsWith('\n') ? p : `${p}\n`))
        .join('');
}
/**
 * The `yaml` library writes a document again in its own spacing (`[a]` as `[ a ]`, a comment's alignment); a line
 * it wrote that says what a line of the original said, spaced otherwise, is put back as written. Lines are paired
 * where a run of the original's lines was replaced by as many: the same value and comment, spacing aside.
 */
function restoreLines(original, rendered) {
    const { parse } = (0,yaml_library/* yamlLibrary */.T)();
    const same = (a, b) => {
        // Indentation is structure: only spacing within a line may differ.
        const indent = (line) => /^[\s-]*/.exec(line)[0];
        if (indent(a) !== indent(b) || a.replace(/\s+/g, '') !== b.replace(/\s+/g, ''))
            return false;
        try {
            return JSON.stringify(parse(a.trim())) === JSON.stringify(parse(b.trim()));
        }
        catch {
            return false;
        }
    };
    const out = [];
    let removed = [];
    for (const part of diffArrays(original.split('\n'), rendered.split('\n'))) {
        if (part.removed)
            removed = part.value;
        else if (part.added) {
            out.push(...part.value.map((line, i) => removed[i] !== undefined && same(removed[i], line) ? removed[i] : line));
            removed = [];
        }
        else {
            removed = [];
            out.push(...part.value);
        }
    }
    return out.join('\n');
}
/** The file's own ways, for the documents written again: lists at their key's indent or below it, `[a]` or `[ a ]`. */
function styleOf(text) {
    return {
        indentSeq: !/^( *)[^\s#-][^\n]*:\n\1- /m.test(text),
        flowCollectionPadding: /[[{] \S/.test(text)
    };
}
function findHolder(files, carrier) {
    if (carrier === undefined)
        return undefined;
    return files.find(f => f.docs.some(d => (0,exporting/* documentIdentity */.yt)(d.toJS()) === carrier));
}
/** `<folder>/<slug>.yaml`, unique among the stack's files. */
function freshPath(folder, name, taken) {
    const at = (file) => (folder === '.' || folder === '' ? file : `${folder}/${file}`);
    const path = at(uniqueFileName(name, 'record', file => taken.has(at(file))));
    taken.add(path);
    return path;
}

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: ./src/manifest/files.ts + 5 modules
var files = __webpack_require__(4018);
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
    return `# obsdeploy export sha256:${textDigest(text)} (the next export replaces this file only while it is unedited, or with --force)\n${text}`;
}
/** Whether a file's text is one export wrote, unedited since. */
function unedited(text) {
    const stamp = STAMP.exec(text);
    return stamp !== null && textDigest(text.slice(stamp[0].length)) === stamp[1];
}
/**
 * The `--out` folder, made when missing, one level at a time so no link on the way is followed; or why
 * not, in words. Below the working directory every part of the path is checked; a folder named outside it
 * is the user's explicit choice, and only the folder itself (and what export creates) is.
 */
async function outFolder(cwd, out) {
    const dir = path.resolve(cwd, out);
    const base = isInside(path.resolve(cwd), dir) ? path.resolve(cwd) : path.dirname(dir);
    const named = (at) => path.relative(cwd, at) || '.';
    const refuse = (what) => ({ problem: `--out ${out}: ${what}` });
    let at = base;
    for (const part of path.relative(base, dir).split(path.sep).filter(Boolean)) {
        at = path.join(at, part);
        try {
            const info = await lstatOrNothing(at);
            if (!info)
                await mkdir(at);
            else if (info.isSymbolicLink())
                return refuse(`${named(at)} is a symbolic link: export never writes through a link, which could lead outside the folder. Name the folder itself, or a new one`);
            else if (!info.isDirectory())
                return refuse(`${named(at)} is a file, not a folder. Export writes one manifest file per dashboard into a folder (made when missing): name a folder, e.g. --out observability/`);
        }
        catch (e) {
            const code = e.code;
            const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : errorMessage(e);
            return refuse(`cannot make the folder ${named(at)}: ${why}`);
        }
    }
    return { dir };
}
/** Writes one exported file into `dir`, unless it would replace what is not export's to replace. */
async function writeExported(dir, name, text, force) {
    const file = path.join(dir, name);
    if (path.basename(name) !== name || !isInside(dir, file) || file === dir)
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
        const existing = await readFile(file, 'utf8');
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
        return { status: 'kept', why: `cannot be written: ${errorMessage(e)}` };
    }
    return { status: 'written' };
}
/**
 * O_NOFOLLOW: a link put in the file's place since it was checked is refused, not written through; `fresh`: a file
 * made in the meantime is refused too (O_EXCL). Sync writes with it as well.
 */
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
/** The file's lstat, or nothing where there is no file. */
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
    const rel = path.relative(root, target);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

// EXTERNAL MODULE: ./src/kinds/ownership.ts
var ownership = __webpack_require__(9586);
// EXTERNAL MODULE: ./src/live/read.ts
var read = __webpack_require__(3660);
// EXTERNAL MODULE: ./src/log.ts
var src_log = __webpack_require__(5625);
// EXTERNAL MODULE: ./src/manifest/load.ts + 2 modules
var load = __webpack_require__(3337);
// EXTERNAL MODULE: ./src/planner/planner.ts + 2 modules
var planner = __webpack_require__(6996);
// EXTERNAL MODULE: ./src/run/live-read.ts
var live_read = __webpack_require__(6928);
// EXTERNAL MODULE: ./src/run/online.ts + 19 modules
var online = __webpack_require__(7353);
;// CONCATENATED MODULE: ./src/run/sync.ts
/**
 * `sync`, the CLI's and the action's: each stack's manifests planned against one read of the live state, the
 * files rewritten to say what the server holds (export/sync.ts), and that checked: the written files must
 * validate, and their plan is what the report calls "after merging". With `write`, the files are written (never
 * through a link, never over a file that changed since it was read); without, only the outcome is returned.
 */
















async function runSync(config, options) {
    const log = options.deps?.log ?? src_log/* silentLogger */.qq;
    const now = options.now ?? (() => new Date());
    const found = await stacksOf(config);
    if ((0,src_diagnostics/* hasErrors */.Cs)(found.diagnostics))
        return { stacks: [], diagnostics: found.diagnostics, exitCode: 1 };
    const loaded = await Promise.all(found.stacks.map(s => loadStack(config, s)));
    const broken = loaded.flatMap(l => l.manifests.diagnostics.filter(d => d.severity === 'error'));
    if (broken.length > 0)
        return {
            stacks: [],
            diagnostics: [
                ...broken,
                (0,src_diagnostics/* diagnostic */.YK)('validate', 'error', 'sync reads manifests that validate: fix the errors above first')
            ],
            exitCode: 1
        };
    const api = (0,client/* createApi */.x)(config, { log });
    let live;
    try {
        const sets = loaded.map(l => l.manifests);
        live = await (0,read/* readLiveState */.e)(api, {
            service: (0,live_read/* readsService */.xg)(config, sets),
            dashboardPatch: (0,live_read/* asksDashboardPatch */.PF)(config, sets),
            team: (0,live_read/* readsTeam */.vM)(config, sets),
            roles: (0,live_read/* readsRoles */.JP)(config, sets)
        });
    }
    catch (e) {
        await api.close();
        return {
            stacks: [],
            diagnostics: [(0,src_diagnostics/* diagnostic */.YK)('plan', 'error', `could not read the live state: ${(0,error_message/* errorMessage */.gJ)(e)}`)],
            exitCode: 1
        };
    }
    await api.close();
    log.info(`Read live state in ${api.stats.requests} request(s)`);
    const stacks = [];
    for (const l of loaded)
        stacks.push(await syncStack(config, l, live, now, options.write, found.stacks));
    const failed = stacks.some(s => (0,src_diagnostics/* hasErrors */.Cs)(s.diagnostics));
    return { stacks, diagnostics: found.diagnostics, exitCode: failed ? 1 : 0 };
}
async function syncStack(config, stack, live, now, write, all) {
    const { definition } = stack;
    const settings = (0,online.planSettings)(config, {
        name: definition.name,
        prune: definition.prune ?? config.prune,
        siblings: all.filter(s => s !== definition).map(s => s.name)
    });
    const vars = { ...definition.vars, ...config.vars };
    const plan = (manifests) => (0,planner/* computePlan */.R)({ command: 'plan', settings, manifests, live, now: now() });
    const first = plan(stack.manifests);
    const diagnostics = first.plan.diagnostics.filter(d => d.severity === 'error');
    const base = {
        stack: definition.name,
        folder: definition.folder,
        written: false,
        plan: first.plan,
        readAt: first.plan.createdAt
    };
    if (diagnostics.length > 0)
        return { ...base, outcome: { files: [], records: [], left: [] }, after: [], diagnostics };
    const textsWith = (changed) => [...stack.texts].flatMap(([p, text]) => {
        const t = changed.has(p) ? changed.get(p) : text;
        return t === '' ? [] : [{ path: p, text: t }];
    });
    const outcome = syncManifests({
        files: [...stack.texts].map(([p, text]) => ({ path: p, text })),
        changes: first.plan.changes,
        live,
        ownershipTag: (0,ownership/* ownershipTag */.IC)(definition.name),
        registry: first.registry,
        mode: config.mode,
        folder: definition.folder,
        replan: texts => {
            const manifests = (0,load/* validateTexts */.T$)(textsWith(texts), config.mode, vars, config.secretVars);
            return (0,src_diagnostics/* hasErrors */.Cs)(manifests.diagnostics) ? undefined : plan(manifests).plan.changes;
        }
    });
    // The files as sync leaves them must validate; their plan is what is left after merging.
    const finalTexts = new Map(outcome.files.map(f => [f.path, f.after ?? '']));
    const checked = (0,load/* validateTexts */.T$)([
        ...textsWith(finalTexts),
        ...outcome.files
            .filter(f => f.before === null && f.after !== null)
            .map(f => ({ path: f.path, text: f.after }))
    ], config.mode, vars, config.secretVars);
    const invalid = checked.diagnostics.filter(d => d.severity === 'error');
    if (invalid.length > 0)
        return {
            ...base,
            outcome,
            after: [],
            diagnostics: [
                ...invalid,
                (0,src_diagnostics/* diagnostic */.YK)('validate', 'error', `stack "${definition.name}": the manifests sync would write do not validate (above): nothing was written. This is a defect of obsdeploy; please report it`)
            ]
        };
    const after = plan(checked).plan.changes.filter(c => c.action !== 'noop');
    if (!write || outcome.files.length === 0)
        return { ...base, outcome, after, diagnostics: [] };
    const problems = await writeSynced(config.cwd, outcome.files);
    return { ...base, outcome, after, diagnostics: problems, written: problems.length === 0 };
}
/** The stacks: each folder with a stack.yaml (with `stacks`), else one of every matched file. */
async function stacksOf(config) {
    if (config.stacks) {
        const layout = await (0,stack_layout/* readStackLayout */.Hf)(config.manifests, config.cwd);
        const selected = (0,stack_layout/* selectStacks */.wf)(layout, { only: config.stacks.only });
        return { stacks: selected.stacks, diagnostics: [...layout.diagnostics, ...selected.diagnostics] };
    }
    const found = await (0,files/* findManifestFiles */.GH)(config.manifests, config.cwd);
    const folders = found.files.map(stack_layout/* folderOf */.yS);
    const diagnostics = [...found.diagnostics];
    if (found.files.length === 0)
        diagnostics.push((0,src_diagnostics/* diagnostic */.YK)('config', 'error', `no manifest files match ${config.manifests.map(p => `'${p}'`).join(', ')}: sync rewrites the manifests a stack has, and there are none`));
    return {
        stacks: [
            {
                name: config.stack,
                folder: commonFolder(folders),
                file: '',
                vars: {},
                manifests: found.files
            }
        ],
        diagnostics
    };
}
async function loadStack(config, definition) {
    const manifests = await (0,load/* loadManifests */.DD)({
        patterns: [],
        files: definition.manifests,
        cwd: config.cwd,
        mode: config.mode,
        vars: { ...definition.vars, ...config.vars },
        secrets: config.secretVars
    });
    const texts = new Map();
    for (const file of definition.manifests)
        texts.set(file, await (0,promises_.readFile)(external_node_path_default().resolve(config.cwd, file), 'utf8'));
    return { definition, manifests, texts };
}
/** The deepest folder holding every file (`.`: the workspace). */
function commonFolder(folders) {
    if (folders.length === 0)
        return '.';
    let common = folders[0].split('/');
    for (const f of folders.slice(1)) {
        const parts = f.split('/');
        let n = 0;
        while (n < common.length && common[n] === parts[n])
            n++;
        common = common.slice(0, n);
    }
    return common.join('/') || '.';
}
/**
 * Writes what sync decided: a file is rewritten only while it still holds the text sync read (an edit since is
 * kept, and said), never through a symbolic link; a new file never replaces one; a file with no document left is
 * removed.
 */
async function writeSynced(cwd, files) {
    const problems = [];
    const refuse = (file, why) => problems.push((0,src_diagnostics/* diagnostic */.YK)('apply', 'error', `${file}: ${why}; not written`, { file, line: 1, column: 1 }));
    for (const f of files) {
        const at = external_node_path_default().resolve(cwd, f.path);
        try {
            const info = await lstatOrNothing(at);
            if (info?.isSymbolicLink()) {
                refuse(f.path, 'is a symbolic link: sync never writes through a link');
                continue;
            }
            if (f.before === null) {
                if (info) {
                    refuse(f.path, 'exists already: sync adds a record only in a new file');
                    continue;
                }
            }
            else if (!info || (await (0,promises_.readFile)(at, 'utf8')) !== f.before) {
                refuse(f.path, 'changed since sync read it');
                continue;
            }
            if (f.after === null)
                await (0,promises_.unlink)(at);
            else
                await writeNoFollow(at, f.after, f.before === null);
        }
        catch (e) {
            refuse(f.path, `cannot be written: ${(0,error_message/* errorMessage */.gJ)(e)}`);
        }
    }
    return problems;
}


/***/ })

};
