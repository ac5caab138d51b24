export const id = 165;
export const ids = [165];
export const modules = {

/***/ 9165:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  commentMarker: () => (/* binding */ commentMarker),
  upsertStickyComment: () => (/* binding */ upsertStickyComment)
});

;// CONCATENATED MODULE: ./src/github/identity.ts
/** The author of the comments the workflow's GITHUB_TOKEN writes. */
const ACTIONS_BOT = 'github-actions[bot]';
async function tokenLogin(octokit) {
    try {
        return (await octokit.rest.users.getAuthenticated()).data.login;
    }
    catch {
        // An installation token, or GitHub did not answer: ask who the token is another way.
    }
    try {
        const answer = await octokit.graphql('query { viewer { login } }');
        const login = answer.viewer?.login;
        if (typeof login === 'string' && login !== '')
            return login;
    }
    catch {
        // GraphQL refused or unreachable: the workflow's token is the likely one.
    }
    return ACTIONS_BOT;
}
/** Whether a comment by `author` was written with the token whose login is `login`. */
function writtenBy(author, login) {
    if (!author || author.login.toLowerCase() !== login.toLowerCase())
        return false;
    // A `[bot]` login is only ever a GitHub App's: a person's account can never be of that name or type.
    return !login.endsWith('[bot]') || author.type === 'Bot';
}

// EXTERNAL MODULE: ./src/github/rest.ts
var rest = __webpack_require__(6417);
;// CONCATENATED MODULE: ./src/github/comment.ts
/**
 * The plan as one sticky pull request comment: found again by a hidden marker on every run and edited in
 * place, so a pull request carries one current plan per stack and workflow job, never a pile of old ones.
 * Only a comment the token itself wrote is edited (identity.ts): a copied marker takes over nothing.
 * A comment is a convenience: when GitHub refuses it (a fork's read-only token, missing permissions, an
 * outage) the run goes on with a warning, and the plan stays in the job summary.
 */


/**
 * A hidden HTML comment that names the stack and the workflow job (e.g. `${GITHUB_WORKFLOW}/${GITHUB_JOB}`),
 * so two stacks or two jobs on one pull request keep two comments. Both parts are percent-encoded, with
 * `-` too: no text can end the HTML comment early (`--`, `>`) or make one marker a prefix of another.
 */
function commentMarker(stack, job) {
    return `<!-- obsdeploy:sticky stack=${markerPart(stack)} job=${markerPart(job)} -->`;
}
function markerPart(text) {
    // encodeURIComponent throws on a lone surrogate; a workflow name could hold one.
    const wellFormed = text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
    return encodeURIComponent(wellFormed).replace(/[-!'()*~]/g, c => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
/**
 * Posts `body` (which starts with `marker`) as the sticky comment, or edits the one posted before. With no
 * changes and no earlier comment it posts nothing: a pull request that touches no observability manifest
 * gets no comment, but one whose plan went back to "No changes" sees its comment say so.
 */
async function upsertStickyComment(target, marker, body, options) {
    const octokit = (0,rest/* clientFor */.$V)(target);
    const issue = { owner: target.owner, repo: target.repo, issue_number: target.issueNumber };
    // The marker is how the next run finds this comment: a body without it would leave an orphan behind.
    const text = body.startsWith(marker) ? body : `${marker}\n${body}`;
    try {
        const existing = await findStickyComment(octokit, issue, marker);
        if (existing) {
            const { data } = await octokit.rest.issues.updateComment({
                owner: target.owner,
                repo: target.repo,
                comment_id: existing.id,
                body: text
            });
            return { action: 'updated', url: data.html_url };
        }
        if (!options.hasChanges)
            return { action: 'skipped' };
        const { data } = await octokit.rest.issues.createComment({ ...issue, body: text });
        return { action: 'created', url: data.html_url };
    }
    catch (error) {
        return {
            action: 'skipped',
            warning: (0,rest/* refusalWarning */.lW)(error, 'The plan was not posted as a pull request comment', 'The plan is in the job summary.', target.token)
        };
    }
}
/**
 * Every page of the issue's comments, 100 at a time, following the Link header: on a busy pull request
 * the comment is often past the first page. Only a comment that starts with the marker counts (a reply
 * that quotes it starts with `>`), and only one the token wrote; when there are several, the newest wins.
 * Who the token is is asked only when some comment carries the marker: a first run costs no request more.
 */
async function findStickyComment(octokit, issue, marker) {
    const marked = [];
    const pages = octokit.paginate.iterator(octokit.rest.issues.listComments, { ...issue, per_page: 100 });
    for await (const { data } of pages) {
        for (const comment of data)
            if (comment.body?.startsWith(marker))
                marked.push(comment);
    }
    if (marked.length === 0)
        return undefined;
    const login = await tokenLogin(octokit);
    let newest;
    for (const comment of marked) {
        if (!writtenBy(comment.user, login))
            continue;
        if (!newest || isNewer(comment, newest))
            newest = comment;
    }
    return newest;
}
function isNewer(a, b) {
    if (a.created_at !== b.created_at)
        return a.created_at > b.created_at;
    return a.id > b.id;
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
