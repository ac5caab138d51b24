export const id = 850;
export const ids = [850];
export const modules = {

/***/ 8850:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   listPullRequestFiles: () => (/* binding */ listPullRequestFiles)
/* harmony export */ });
/* unused harmony export LISTED_FILES_LIMIT */
/* harmony import */ var _rest_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(6417);
/**
 * The files a pull request changes, for the `stacks` layout: a run plans the stacks whose folders they
 * touch. Read from the REST API (the event payload does not list them, and the default checkout has no
 * history to diff). When they cannot be listed, every stack is planned: more work, never a missed stack.
 */

/** GitHub lists at most this many files of a pull request; a longer list is cut without saying so. */
const LISTED_FILES_LIMIT = 3000;
async function listPullRequestFiles(target) {
    const octokit = (0,_rest_js__WEBPACK_IMPORTED_MODULE_0__/* .clientFor */ .$V)(target);
    const paths = new Set();
    let listed = 0;
    try {
        const pages = octokit.paginate.iterator(octokit.rest.pulls.listFiles, {
            owner: target.owner,
            repo: target.repo,
            pull_number: target.issueNumber,
            per_page: 100
        });
        for await (const { data } of pages) {
            for (const f of data) {
                listed++;
                paths.add(f.filename);
                // A rename changes the folder it leaves as well as the one it enters.
                if (f.previous_filename)
                    paths.add(f.previous_filename);
            }
        }
    }
    catch (error) {
        const said = (0,_rest_js__WEBPACK_IMPORTED_MODULE_0__/* .statusMessage */ .uP)(error);
        return {
            warning: (0,_rest_js__WEBPACK_IMPORTED_MODULE_0__/* .redact */ .E$)(`The pull request's changed files could not be listed (${said}), so every stack is planned. The job's token needs \`pull-requests: read\`.`, target.token)
        };
    }
    if (listed >= LISTED_FILES_LIMIT) {
        return {
            warning: `The pull request changes ${LISTED_FILES_LIMIT} files or more, more than GitHub lists, so every stack is planned.`
        };
    }
    return { paths: [...paths].sort() };
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
