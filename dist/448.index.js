export const id = 448;
export const ids = [448];
export const modules = {

/***/ 7448:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   syncLabels: () => (/* binding */ syncLabels)
/* harmony export */ });
/* unused harmony export PLAN_LABELS */
/* harmony import */ var _rest_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(6417);
/**
 * Pull request labels, as tfcmt adds them: one of obsdeploy:no-changes, obsdeploy:changes and
 * obsdeploy:destroy, so reviewers can filter the pull requests that delete something. The label that no
 * longer fits is removed. Like the comment it is a convenience: a refusal is a warning, never a failure.
 */

const PLAN_LABELS = {
    'no-changes': 'obsdeploy:no-changes',
    changes: 'obsdeploy:changes',
    destroy: 'obsdeploy:destroy'
};
async function syncLabels(target, wanted) {
    const octokit = (0,_rest_js__WEBPACK_IMPORTED_MODULE_0__/* .clientFor */ .$V)(target);
    const issue = { owner: target.owner, repo: target.repo, issue_number: target.issueNumber };
    const label = PLAN_LABELS[wanted];
    const ours = new Set(Object.values(PLAN_LABELS));
    const result = { added: [], removed: [] };
    try {
        const present = new Set();
        const pages = octokit.paginate.iterator(octokit.rest.issues.listLabelsOnIssue, {
            ...issue,
            per_page: 100
        });
        for await (const { data } of pages)
            for (const l of data)
                present.add(l.name);
        for (const stale of [...present].filter(name => ours.has(name) && name !== label)) {
            try {
                await octokit.rest.issues.removeLabel({ ...issue, name: stale });
            }
            catch (error) {
                // Removed meanwhile (another job of the same pull request): what we wanted anyway.
                if (error.status !== 404)
                    throw error;
            }
            result.removed.push(stale);
        }
        if (!present.has(label)) {
            // GitHub creates a label that the repository does not have yet.
            await octokit.rest.issues.addLabels({ ...issue, labels: [label] });
            result.added.push(label);
        }
        return result;
    }
    catch (error) {
        return {
            ...result,
            warning: (0,_rest_js__WEBPACK_IMPORTED_MODULE_0__/* .refusalWarning */ .lW)(error, `The pull request was not labelled ${label}`, 'The plan is in the job summary either way.', target.token)
        };
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
