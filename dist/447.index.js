export const id = 447;
export const ids = [447];
export const modules = {

/***/ 6417:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   $V: () => (/* binding */ clientFor),
/* harmony export */   E$: () => (/* binding */ redact),
/* harmony export */   lW: () => (/* binding */ refusalWarning),
/* harmony export */   uP: () => (/* binding */ statusMessage),
/* harmony export */   x_: () => (/* binding */ serverMessage)
/* harmony export */ });
/* harmony import */ var _actions_github__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(2184);
/* harmony import */ var _error_message_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6587);
/**
 * What the sticky comment and the labels share: an Octokit client for the pull request, and the
 * warning that says why GitHub refused a write. Both are conveniences: a refusal never fails the run.
 */


function clientFor(target) {
    return (0,_actions_github__WEBPACK_IMPORTED_MODULE_0__/* .getOctokit */ .Q)(target.token, {
        baseUrl: (target.baseUrl ?? process.env.GITHUB_API_URL ?? 'https://api.github.com').replace(/\/+$/, '')
    });
}
const PERMISSION_SNIPPET = 'permissions:\n  pull-requests: write';
/**
 * Why a write was refused, for a workflow warning: `what` says what did not happen ("The plan was not
 * posted as a pull request comment"), `after` what the reader still has. Never contains the token.
 */
function refusalWarning(error, what, after, token) {
    const status = error.status;
    const said = serverMessage(error);
    let text;
    if (typeof status !== 'number') {
        text = `${what}: GitHub could not be reached (${said}). ${after}`;
    }
    else if (status === 403 && /rate limit/i.test(said)) {
        text = `${what}: GitHub's rate limit was hit (${said}). ${after}`;
    }
    else if (status === 401) {
        text = `${what}: GitHub rejected the github-token (401: ${said}). ${after}`;
    }
    else if (status === 403 || status === 404) {
        const why = status === 404
            ? 'the token cannot see this pull request (GitHub answers 404 when a private repository is out of its reach)'
            : 'the token cannot write to this pull request';
        text = [
            `${what}: ${why} (${status}: ${said}). Give the workflow job this permission:`,
            '',
            PERMISSION_SNIPPET,
            '',
            `On a pull request from a fork the token stays read-only whatever the workflow asks for. ${after}`
        ].join('\n');
    }
    else {
        text = `${what}: GitHub answered ${status} (${said}). ${after}`;
    }
    return redact(text, token);
}
/** The server's words on one short line: the message GitHub returned, not our request. */
function serverMessage(error) {
    const data = error.response?.data;
    const fromBody = data?.message;
    const text = typeof fromBody === 'string' ? fromBody : (0,_error_message_js__WEBPACK_IMPORTED_MODULE_1__/* .errorMessage */ .gJ)(error);
    const line = text.replace(/\s+/g, ' ').trim();
    return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
/** An Octokit error in a line: its HTTP status (when it has one) and the server's message. */
function statusMessage(error) {
    const status = error.status;
    return `${typeof status === 'number' ? `${status}: ` : ''}${serverMessage(error)}`;
}
/** Defence in depth: whatever an error carries, the token does not leave through a warning. */
function redact(text, token) {
    return token.length >= 6 ? text.split(token).join('***') : text;
}


/***/ }),

/***/ 2447:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  SyncPermissionError: () => (/* reexport */ SyncPermissionError),
  publishSync: () => (/* binding */ publishSync)
});

// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 11 modules
var schemas = __webpack_require__(2857);
// EXTERNAL MODULE: ./src/github/rest.ts
var rest = __webpack_require__(6417);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(8161);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
var external_node_path_default = /*#__PURE__*/__webpack_require__.n(external_node_path_);
// EXTERNAL MODULE: external "node:child_process"
var external_node_child_process_ = __webpack_require__(1421);
// EXTERNAL MODULE: ./src/log.ts
var log = __webpack_require__(5625);
;// CONCATENATED MODULE: ./src/github/git.ts
/**
 * git, run as a program: the sync's commit and push go through the checkout's own git, with the credentials
 * actions/checkout left in the repository's config, so the token is never on a command line or in a URL.
 * No shell: arguments are passed as they are. A failure quotes what git said on stderr, with anything that
 * looks like a credential taken out first: git echoes remote URLs, and a URL can carry one.
 */


/** A git call that failed: its arguments and git's stderr, both scrubbed of credentials. */
class GitError extends Error {
    command;
    stderr;
    exitCode;
    constructor(
    /** `git push --force origin …`, as run. */
    command, 
    /** git's stderr, credentials removed, one printable line per line git wrote. */
    stderr, 
    /** The exit code, or undefined when git could not be started or was killed. */
    exitCode) {
        super(`${command} failed${exitCode === undefined ? '' : ` (exit code ${exitCode})`}${quoted(stderr)}`);
        this.command = command;
        this.stderr = stderr;
        this.exitCode = exitCode;
        this.name = 'GitError';
    }
}
function quoted(stderr) {
    return stderr === '' ? '' : `:\n${stderr.replace(/^/gm, '  ')}`;
}
// git's output is small here (a status, a sha, a push's progress); 16 MiB is room for a status of many files.
const MAX_BUFFER = 16 * 2 ** 20;
// The last lines of stderr carry the reason; a push's progress before them does not.
const MAX_LINES = 30;
/** Runs git in `cwd` and resolves to its stdout; rejects with a GitError. */
function git(cwd, args, options = {}) {
    // A prompt for a username would wait forever on a runner: fail at once instead.
    const env = { ...process.env, ...options.env, GIT_TERMINAL_PROMPT: '0' };
    return new Promise((resolve, reject) => {
        (0,external_node_child_process_.execFile)('git', [...args], { cwd, env, maxBuffer: MAX_BUFFER, encoding: 'utf8' }, (error, stdout, stderr) => {
            if (!error)
                return resolve(stdout);
            const scrub = scrubber(options.secrets ?? []);
            const code = typeof error.code === 'number' ? error.code : undefined;
            const said = stderr || (code === undefined ? error.message : '');
            reject(new GitError(`git ${scrub((0,log/* printable */.g$)(args.join(' '), 300))}`, cleanStderr(said, scrub), code));
        });
    });
}
function cleanStderr(text, scrub) {
    const lines = text
        .split(/\r?\n|\r/)
        .map(line => scrub((0,log/* printable */.g$)(line, 500)).trimEnd())
        .filter(line => line.trim() !== '');
    return lines.slice(-MAX_LINES).join('\n');
}
/**
 * Takes out of a text what looks like a credential: the userinfo of a URL (`https://x-access-token:…@`), the
 * value of an Authorization header (actions/checkout's `http.extraheader` holds one, base64), GitHub's token
 * formats, and the given secrets in any of the forms a log could show them in.
 */
function scrubber(secrets) {
    const known = (0,log/* redactor */.$p)(secrets);
    return text => known(text)
        .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@'"]+@/gi, '$1***@')
        .replace(/\b(authorization:\s*(?:basic|bearer|token))\s+[\w+/=.~-]+/gi, '$1 ***')
        .replace(/\b(?:gh[pousr]_[A-Za-z0-9_]{16,}|github_pat_[A-Za-z0-9_]{20,})/g, '***');
}

;// CONCATENATED MODULE: ./src/github/sync-branch.ts
/**
 * The git side of a sync: the files the sync wrote, committed alone on the stack's branch and pushed. The commit
 * is built in a temporary index from HEAD (`read-tree`, `update-index`, `write-tree`, `commit-tree`), so HEAD, the
 * branch checked out, the user's index and every other file of the work tree stay as they are: a second stack of
 * the same run starts from the default branch, whatever the first one wrote. Afterwards the synced files are put
 * back as HEAD has them.
 */




/** Who the sync commits as: the workflow's own bot, whatever the runner's git config says. */
const SYNC_AUTHOR = {
    name: 'github-actions[bot]',
    email: '41898282+github-actions[bot]@users.noreply.github.com'
};
async function openCheckout(cwd, secrets) {
    const top = (await git(cwd, ['rev-parse', '--show-toplevel'], { secrets })).trim();
    // --literal-pathspecs: a manifest named `*.yaml` or `:(glob)x` is that file, never a pattern.
    const run = (args, env) => {
        const options = { secrets, ...(env ? { env } : {}) };
        return git(top, ['--literal-pathspecs', ...args], options);
    };
    const head = (await run(['rev-parse', '--verify', 'HEAD^{commit}'])).trim();
    return { top, head, run };
}
/** The files, relative to `cwd`, as paths from the work tree's top (posix separators). */
function fromTop(checkout, cwd, files) {
    const paths = files.map(f => external_node_path_default().relative(checkout.top, external_node_path_default().resolve(cwd, f)).split((external_node_path_default()).sep).join('/'));
    return [...new Set(paths)].sort();
}
/**
 * Those of `paths` whose work tree differs from HEAD: edited, created (untracked) or deleted. git status
 * lists nothing for an empty pathspec only because there is none: without paths it would list the whole tree.
 */
async function changedPaths(checkout, paths) {
    if (paths.length === 0)
        return [];
    const out = await checkout.run([
        'status',
        '--porcelain',
        '-z',
        '--untracked-files=all',
        '--no-renames',
        '--',
        ...paths
    ]);
    // Each entry is `XY path`, NUL-terminated; porcelain paths are from the top, as ours are.
    return out
        .split('\0')
        .filter(entry => entry.length > 3)
        .map(entry => entry.slice(3));
}
/**
 * A commit of HEAD with `paths` as the work tree has them (a path gone from the work tree is deleted), or
 * undefined when its tree is HEAD's. Nothing but a temporary index is written besides git's objects.
 */
async function commitPaths(checkout, paths, message) {
    const folder = await (0,promises_.mkdtemp)(external_node_path_default().join((0,external_node_os_.tmpdir)(), 'obsdeploy-sync-'));
    try {
        const env = { GIT_INDEX_FILE: external_node_path_default().join(folder, 'index') };
        await checkout.run(['read-tree', checkout.head], env);
        await checkout.run(['update-index', '--add', '--remove', '--', ...paths], env);
        const tree = (await checkout.run(['write-tree'], env)).trim();
        const headTree = (await checkout.run(['rev-parse', `${checkout.head}^{tree}`])).trim();
        if (tree === headTree)
            return undefined;
        const commit = (await checkout.run([
            '-c',
            `user.name=${SYNC_AUTHOR.name}`,
            '-c',
            `user.email=${SYNC_AUTHOR.email}`,
            'commit-tree',
            tree,
            '-p',
            checkout.head,
            '-m',
            message
        ])).trim();
        return { commit, tree };
    }
    finally {
        await (0,promises_.rm)(folder, { recursive: true, force: true });
    }
}
/**
 * The tree the remote branch holds, or undefined when there is no such branch. A shallow checkout (actions/checkout's
 * default) fetches the tip alone; a full one fetches what it lacks, and is not made shallow by the fetch.
 */
async function remoteTree(checkout, branch) {
    const ref = `refs/heads/${branch}`;
    try {
        await checkout.run(['ls-remote', '--exit-code', 'origin', ref]);
    }
    catch (error) {
        // ls-remote's exit code 2: the remote answered, and has no such ref.
        if (error.exitCode === 2)
            return undefined;
        throw error;
    }
    const shallow = (await checkout.run(['rev-parse', '--is-shallow-repository'])).trim() === 'true';
    await checkout.run(['fetch', '--no-tags', '--quiet', ...(shallow ? ['--depth=1'] : []), 'origin', ref]);
    return (await checkout.run(['rev-parse', 'FETCH_HEAD^{tree}'])).trim();
}
/**
 * Pushes the commit as the branch, over whatever it held: the branch is the sync's, made afresh each run.
 * No local hook runs (a repository's pre-push checks are for people's pushes).
 */
async function pushCommit(checkout, commit, branch) {
    await checkout.run([
        'push',
        '--force',
        '--no-verify',
        '--quiet',
        'origin',
        `${commit}:refs/heads/${branch}`
    ]);
}
/** Puts `paths` back as HEAD has them: edits undone, created files removed, deleted files restored. */
async function restorePaths(checkout, paths) {
    if (paths.length === 0)
        return;
    const listed = await checkout.run(['ls-tree', '-r', '-z', '--name-only', checkout.head, '--', ...paths]);
    const inHead = new Set(listed.split('\0').filter(Boolean));
    const tracked = paths.filter(p => inHead.has(p));
    const created = paths.filter(p => !inHead.has(p));
    if (tracked.length > 0)
        await checkout.run(['checkout', checkout.head, '--', ...tracked]);
    if (created.length > 0) {
        await checkout.run(['rm', '--cached', '--quiet', '--ignore-unmatch', '--', ...created]);
        for (const p of created)
            await removeFile(checkout.top, p);
    }
}
/** Removes a file the sync created, and the folders it created for it once they are empty. */
async function removeFile(top, file) {
    await (0,promises_.rm)(external_node_path_default().join(top, file), { force: true });
    for (let dir = external_node_path_default().posix.dirname(file); dir !== '.' && dir !== '/'; dir = external_node_path_default().posix.dirname(dir)) {
        try {
            await (0,promises_.rmdir)(external_node_path_default().join(top, dir));
        }
        catch {
            return; // not empty (or not ours to remove): the folders above are not empty either
        }
    }
}

;// CONCATENATED MODULE: ./src/github/sync-permissions.ts

class SyncPermissionError extends Error {
    needs;
    constructor(needs, message) {
        super(message);
        this.needs = needs;
        this.name = 'SyncPermissionError';
    }
}
const SNIPPET = ['permissions:', '  contents: write', '  pull-requests: write'].join('\n');
const SETTING = 'Settings → Actions → General → Workflow permissions → "Allow GitHub Actions to create and approve pull requests"';
/** git's own words for a refused push over HTTPS, and GitHub's (`remote: Permission to o/r.git denied to …`). */
const PUSH_REFUSED = /\b403\b|Permission to \S+ denied|The requested URL returned error: 403|Write access to repository not granted/i;
/** git found no credentials and was not allowed to ask (GIT_TERMINAL_PROMPT=0), or they were not taken. */
const NO_CREDENTIALS = /could not read (Username|Password)|terminal prompts disabled|Authentication failed|Permission denied \(publickey/i;
/** The push's failure as the error to show: a permission one when GitHub refused it, otherwise git's own. */
function pushFailure(error, branch) {
    const stderr = error.stderr;
    if (typeof stderr !== 'string')
        return error;
    const said = `git said:\n${stderr.replace(/^/gm, '  ')}`;
    // Checked first: a 401 or a missing key is not fixed by a permission.
    if (NO_CREDENTIALS.test(stderr))
        return new SyncPermissionError('git credentials', [
            `The sync could not push the branch ${branch}: git has no credentials for origin. Check out the repository with actions/checkout and keep its \`persist-credentials: true\` (the default), with a job that has these permissions:`,
            '',
            SNIPPET,
            '',
            said
        ].join('\n'));
    if (PUSH_REFUSED.test(stderr))
        return new SyncPermissionError('contents: write', [
            `The sync could not push the branch ${branch}: GitHub refused the job's token, which needs \`contents: write\`. Give the workflow job these permissions:`,
            '',
            SNIPPET,
            '',
            said
        ].join('\n'));
    return error;
}
/**
 * A pull request route's failure (`what`: "open the pull request for obsdeploy/sync/shop") as the error to
 * show. Never contains the token.
 */
function pullFailure(error, what, token) {
    const status = error.status;
    // GitHub's sentences end with a full stop; ours go on after the quote.
    const said = (0,rest/* serverMessage */.x_)(error).replace(/\.$/, '');
    if (status === 403 && /not permitted to create or approve pull requests/i.test(said))
        return new SyncPermissionError('repository setting', (0,rest/* redact */.E$)([
            `The sync could not ${what}: the repository does not let GitHub Actions create pull requests (403: ${said}).`,
            `Turn on ${SETTING} (an organization can turn it off for all its repositories), or give the action a \`github-token\` of a GitHub App or a person that may open pull requests.`
        ].join('\n'), token));
    if (status === 403 && /Resource not accessible by integration/i.test(said))
        return new SyncPermissionError('pull-requests: write', (0,rest/* redact */.E$)([
            `The sync could not ${what}: the job's token needs \`pull-requests: write\` (403: ${said}). Give the workflow job these permissions:`,
            '',
            SNIPPET
        ].join('\n'), token));
    return new Error((0,rest/* redact */.E$)(`The sync could not ${what}: GitHub answered ${(0,rest/* statusMessage */.uP)(error)}`, token));
}

;// CONCATENATED MODULE: ./src/github/sync-pull.ts
/**
 * What `command: sync` does once the sync has written its files: the files committed alone on the stack's
 * branch (`obsdeploy/sync/<stack>`, sync-branch.ts), pushed with git, and one pull request for that branch,
 * opened or brought up to date; never a second. When nothing differs there is no commit (GitHub refuses a pull
 * request without one), and an open sync pull request is closed with a comment: the UI and the repository
 * agree again. The behaviour follows peter-evans/create-pull-request's, as its documentation describes it.
 */





/** The fields of a pull request the sync reads; GitHub's answer has many more. */
const Pull = schemas/* object */.Ikc({
    number: schemas/* number */.aig().int().positive(),
    html_url: schemas/* string */.YjP(),
    title: schemas/* string */.YjP(),
    body: schemas/* string */.YjP().nullish(),
    head: schemas/* object */.Ikc({ ref: schemas/* string */.YjP() }),
    base: schemas/* object */.Ikc({ ref: schemas/* string */.YjP() })
});
/**
 * Commits and pushes the synced files and opens, updates or closes the stack's pull request. Afterwards the
 * work tree is on the commit it started on, with those files as that commit has them. Throws a
 * SyncPermissionError when GitHub refuses for want of a permission or a setting.
 */
async function publishSync(input) {
    const checkout = await openCheckout(input.cwd, [input.token]);
    const changed = await changedPaths(checkout, fromTop(checkout, input.cwd, input.files));
    let failed = false;
    try {
        return await publish(input, checkout, changed);
    }
    catch (error) {
        failed = true;
        throw error;
    }
    finally {
        // The next stack of the run starts from HEAD. Should this fail after another failure, that one is the news.
        await restorePaths(checkout, changed).catch((error) => {
            if (!failed)
                throw error;
        });
    }
}
async function publish(input, checkout, changed) {
    const pulls = new Pulls(input);
    const built = changed.length > 0 ? await commitPaths(checkout, changed, input.commitMessage) : undefined;
    if (!built) {
        const open = await pulls.findOpen();
        if (open.length === 0)
            return { operation: 'none' };
        for (const pull of open)
            await pulls.close(pull);
        return { operation: 'closed', number: open[0].number, url: open[0].html_url };
    }
    // A branch that already holds this tree needs no push: a rerun changes nothing on GitHub.
    const pushed = (await remoteTree(checkout, input.branch)) !== built.tree;
    if (pushed)
        await pushCommit(checkout, built.commit, input.branch).catch((error) => {
            throw pushFailure(error, input.branch);
        });
    const existing = pulls.pick(await pulls.findOpen());
    if (!existing) {
        const made = await pulls.create();
        if (made)
            return { operation: 'created', number: made.number, url: made.html_url };
    }
    // Open already, or opened by another run between our look and our create.
    const open = existing ?? pulls.pick(await pulls.findOpen());
    if (!open)
        throw new Error(`The sync could not find the pull request of ${input.branch} GitHub says is open`);
    await pulls.update(open);
    return { operation: pushed ? 'updated' : 'unchanged', number: open.number, url: open.html_url };
}
/** The pull request routes the sync uses, each failure worded as pullFailure words it. */
class Pulls {
    input;
    octokit;
    repo;
    constructor(input) {
        this.input = input;
        this.octokit = (0,rest/* clientFor */.$V)(input);
        this.repo = { owner: input.owner, repo: input.repo };
    }
    /** The open pull requests from the branch (of this repository, not a fork's of the same name). */
    async findOpen() {
        const { data } = await this.octokit.rest.pulls
            .list({ ...this.repo, state: 'open', head: `${this.input.owner}:${this.input.branch}`, per_page: 100 })
            .catch((error) => {
            throw pullFailure(error, `list the open pull requests of ${this.input.branch}`, this.input.token);
        });
        return schemas/* array */.YOg(Pull)
            .parse(data)
            .filter(p => p.head.ref === this.input.branch)
            .sort((a, b) => a.number - b.number);
    }
    /** The one to keep up to date: the one into the default branch, else the oldest. */
    pick(open) {
        return open.find(p => p.base.ref === this.input.base) ?? open[0];
    }
    /** Opens the pull request; undefined when GitHub says one for the branch is open already (a race). */
    async create() {
        const { branch, base, title, body, token } = this.input;
        try {
            const { data } = await this.octokit.rest.pulls.create({ ...this.repo, head: branch, base, title, body });
            return Pull.parse(data);
        }
        catch (error) {
            if (isAlreadyOpen(error))
                return undefined;
            throw pullFailure(error, `open the pull request for ${branch}`, token);
        }
    }
    /** Title, body and base as this run has them; no request when they are already so. */
    async update(pull) {
        const { title, body, base } = this.input;
        const changes = {
            ...(pull.title !== title ? { title } : {}),
            ...((pull.body ?? '') !== body ? { body } : {}),
            ...(pull.base.ref !== base ? { base } : {})
        };
        if (Object.keys(changes).length === 0)
            return;
        await this.octokit.rest.pulls
            .update({ ...this.repo, pull_number: pull.number, ...changes })
            .catch((error) => {
            throw pullFailure(error, `update pull request #${pull.number}`, this.input.token);
        });
    }
    /** Says why, then closes it. The branch stays: the next difference is pushed over it. */
    async close(pull) {
        const what = `close pull request #${pull.number}`;
        const fail = (error) => {
            throw pullFailure(error, what, this.input.token);
        };
        await this.octokit.rest.issues
            .createComment({ ...this.repo, issue_number: pull.number, body: this.input.closeComment })
            .catch(fail);
        await this.octokit.rest.pulls
            .update({ ...this.repo, pull_number: pull.number, state: 'closed' })
            .catch(fail);
    }
}
/** GitHub's 422 for a second pull request of a head and base: "A pull request already exists for o:branch." */
function isAlreadyOpen(error) {
    if (error.status !== 422)
        return false;
    const data = error.response?.data;
    return /pull request already exists/i.test(JSON.stringify(data ?? ''));
}


/***/ })

};
