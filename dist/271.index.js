export const id = 271;
export const ids = [271];
export const modules = {

/***/ 2281:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   b4: () => (/* binding */ readBlobs),
/* harmony export */   nT: () => (/* binding */ listTree),
/* harmony export */   wJ: () => (/* binding */ blobSha)
/* harmony export */ });
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _manifest_files_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(4018);
/**
 * Files of a commit read through the GitHub API, which needs only `contents: read`: a shallow checkout holds
 * no other commit. The tree is listed in one request (recursive); blobs are read a hundred at a time through
 * GraphQL (a pull request that touches a thousand manifests costs ten requests, not a thousand), and a blob
 * GraphQL cuts short or leaves out is read alone through REST.
 */


/** Every file of a commit (or a branch or tag) of a repository. A tree GitHub cut short is an error. */
async function listTree(octokit, repo, ref) {
    const { data } = await octokit.rest.git.getTree({ ...repo, tree_sha: ref, recursive: 'true' });
    if (data.truncated)
        throw new Error(`the tree of ${ref} has more entries than GitHub lists in one answer`);
    const files = [];
    for (const e of data.tree)
        if (e.type === 'blob' && typeof e.path === 'string' && typeof e.sha === 'string')
            files.push({ path: e.path, sha: e.sha, ...(typeof e.size === 'number' ? { size: e.size } : {}) });
    return files;
}
const BATCH = 100;
/** The text of each blob, by sha. A blob over the manifest size limit is refused before it is read. */
async function readBlobs(octokit, repo, entries) {
    const texts = new Map();
    const tooLarge = entries.find(e => (e.size ?? 0) > _manifest_files_js__WEBPACK_IMPORTED_MODULE_1__/* .MAX_MANIFEST_BYTES */ .ZJ);
    if (tooLarge)
        throw new Error(`${tooLarge.path} is larger than ${_manifest_files_js__WEBPACK_IMPORTED_MODULE_1__/* .MAX_MANIFEST_BYTES */ .ZJ} bytes, the manifest limit`);
    const shas = [...new Set(entries.map(e => e.sha))];
    // Shas go into the query's text: only what a git object id looks like.
    const odd = shas.find(sha => !/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(sha));
    if (odd !== undefined)
        throw new Error(`GitHub listed a blob id that is not one: ${JSON.stringify(odd)}`);
    for (let i = 0; i < shas.length; i += BATCH) {
        const batch = shas.slice(i, i + BATCH);
        const fields = batch.map((sha, j) => `b${j}: object(oid: "${sha}") { ... on Blob { text isTruncated } }`);
        const answer = await octokit.graphql(`query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { ${fields.join(' ')} } }`, {
            owner: repo.owner,
            name: repo.repo
        });
        batch.forEach((sha, j) => {
            const blob = answer.repository?.[`b${j}`];
            if (blob && typeof blob.text === 'string' && blob.isTruncated !== true)
                texts.set(sha, blob.text);
        });
    }
    // What GraphQL left out (a large blob it cut, or binary content): the REST blob, base64.
    for (const sha of shas) {
        if (texts.has(sha))
            continue;
        const { data } = await octokit.rest.git.getBlob({ ...repo, file_sha: sha });
        texts.set(sha, Buffer.from(data.content, data.encoding === 'base64' ? 'base64' : 'utf8').toString('utf8'));
    }
    return texts;
}
/** The git blob sha of bytes: what a tree entry of the same content carries. */
function blobSha(bytes) {
    return (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.createHash)('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}


/***/ }),

/***/ 9271:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   readPolicySource: () => (/* binding */ readPolicySource)
/* harmony export */ });
/* harmony import */ var _policy_source_address_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(1134);
/* harmony import */ var _git_files_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(2281);
/* harmony import */ var _rest_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6417);



async function readPolicySource(address, token, baseUrl) {
    const origin = (0,_policy_source_address_js__WEBPACK_IMPORTED_MODULE_2__/* .describeSource */ .B)(address);
    if (!token)
        return { origin, unreadable: 'no github-token to read it with' };
    try {
        const octokit = (0,_rest_js__WEBPACK_IMPORTED_MODULE_1__/* .clientFor */ .$V)({ token, baseUrl });
        const repo = { owner: address.owner, repo: address.repo };
        const inside = (await (0,_git_files_js__WEBPACK_IMPORTED_MODULE_0__/* .listTree */ .nT)(octokit, repo, address.ref)).filter(e => (address.path === '' || e.path === address.path || e.path.startsWith(`${address.path}/`)) &&
            /\.ya?ml$/.test(e.path));
        const texts = await (0,_git_files_js__WEBPACK_IMPORTED_MODULE_0__/* .readBlobs */ .b4)(octokit, repo, inside);
        return {
            origin,
            files: inside.map(e => ({
                path: `${address.owner}/${address.repo}@${address.ref}:${e.path}`,
                text: texts.get(e.sha)
            }))
        };
    }
    catch (error) {
        return { origin, unreadable: (0,_rest_js__WEBPACK_IMPORTED_MODULE_1__/* .redact */ .E$)(`GitHub answered ${(0,_rest_js__WEBPACK_IMPORTED_MODULE_1__/* .statusMessage */ .uP)(error)}`, token) };
    }
}


/***/ }),

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


/***/ })

};
