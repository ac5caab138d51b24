/**
 * Why GitHub refused a sync, in one error that says what to change. A sync needs more than a plan: it pushes
 * a branch (`contents: write`) and opens or edits a pull request (`pull-requests: write`), and GitHub also
 * refuses the workflow's token any pull request until the repository allows Actions to create them. Unlike
 * the sticky comment (a convenience, rest.ts), a refused sync fails the step: it did not do its one job.
 */
import type { GitError } from './git.js'
import { redact, serverMessage, statusMessage } from './rest.js'

/** What the job lacks: a permission of its token, a repository setting, or credentials for git. */
export type SyncNeed = 'contents: write' | 'pull-requests: write' | 'repository setting' | 'git credentials'

export class SyncPermissionError extends Error {
  constructor(
    readonly needs: SyncNeed,
    message: string
  ) {
    super(message)
    this.name = 'SyncPermissionError'
  }
}

const SNIPPET = ['permissions:', '  contents: write', '  pull-requests: write'].join('\n')
const SETTING =
  'Settings → Actions → General → Workflow permissions → "Allow GitHub Actions to create and approve pull requests"'

/** git's own words for a refused push over HTTPS, and GitHub's (`remote: Permission to o/r.git denied to …`). */
const PUSH_REFUSED =
  /\b403\b|Permission to \S+ denied|The requested URL returned error: 403|Write access to repository not granted/i
/** git found no credentials and was not allowed to ask (GIT_TERMINAL_PROMPT=0), or they were not taken. */
const NO_CREDENTIALS =
  /could not read (Username|Password)|terminal prompts disabled|Authentication failed|Permission denied \(publickey/i

/** The push's failure as the error to show: a permission one when GitHub refused it, otherwise git's own. */
export function pushFailure(error: unknown, branch: string): unknown {
  const stderr = (error as Partial<GitError>).stderr
  if (typeof stderr !== 'string') return error
  const said = `git said:\n${stderr.replace(/^/gm, '  ')}`
  // Checked first: a 401 or a missing key is not fixed by a permission.
  if (NO_CREDENTIALS.test(stderr))
    return new SyncPermissionError(
      'git credentials',
      [
        `The sync could not push the branch ${branch}: git has no credentials for origin. Check out the repository with actions/checkout and keep its \`persist-credentials: true\` (the default), with a job that has these permissions:`,
        '',
        SNIPPET,
        '',
        said
      ].join('\n')
    )
  if (PUSH_REFUSED.test(stderr))
    return new SyncPermissionError(
      'contents: write',
      [
        `The sync could not push the branch ${branch}: GitHub refused the job's token, which needs \`contents: write\`. Give the workflow job these permissions:`,
        '',
        SNIPPET,
        '',
        said
      ].join('\n')
    )
  return error
}

/**
 * A pull request route's failure (`what`: "open the pull request for obsdeploy/sync/shop") as the error to
 * show. Never contains the token.
 */
export function pullFailure(error: unknown, what: string, token: string): Error {
  const status = (error as { status?: unknown }).status
  // GitHub's sentences end with a full stop; ours go on after the quote.
  const said = serverMessage(error).replace(/\.$/, '')
  if (status === 403 && /not permitted to create or approve pull requests/i.test(said))
    return new SyncPermissionError(
      'repository setting',
      redact(
        [
          `The sync could not ${what}: the repository does not let GitHub Actions create pull requests (403: ${said}).`,
          `Turn on ${SETTING} (an organization can turn it off for all its repositories), or give the action a \`github-token\` of a GitHub App or a person that may open pull requests.`
        ].join('\n'),
        token
      )
    )
  if (status === 403 && /Resource not accessible by integration/i.test(said))
    return new SyncPermissionError(
      'pull-requests: write',
      redact(
        [
          `The sync could not ${what}: the job's token needs \`pull-requests: write\` (403: ${said}). Give the workflow job these permissions:`,
          '',
          SNIPPET
        ].join('\n'),
        token
      )
    )
  return new Error(redact(`The sync could not ${what}: GitHub answered ${statusMessage(error)}`, token))
}
