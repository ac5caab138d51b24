/**
 * The plan as one sticky pull request comment: found again by a hidden marker on every run and edited in
 * place, so a pull request carries one current plan per stack and workflow job, never a pile of old ones.
 * Only a comment the token itself wrote is edited (identity.ts): a copied marker takes over nothing.
 * A comment is a convenience: when GitHub refuses it (a fork's read-only token, missing permissions, an
 * outage) the run goes on with a warning, and the plan stays in the job summary.
 */
import { tokenLogin, writtenBy, type CommentAuthor } from './identity.js'
import { clientFor, refusalWarning, type GitHubClient, type IssueTarget } from './rest.js'

export type CommentTarget = IssueTarget

export interface StickyCommentResult {
  action: 'created' | 'updated' | 'skipped'
  url?: string
  /** Why nothing was posted, in words for a workflow warning. Never contains the token. */
  warning?: string
}

/**
 * A hidden HTML comment that names the stack and the workflow job (e.g. `${GITHUB_WORKFLOW}/${GITHUB_JOB}`),
 * so two stacks or two jobs on one pull request keep two comments. Both parts are percent-encoded, with
 * `-` too: no text can end the HTML comment early (`--`, `>`) or make one marker a prefix of another.
 */
export function commentMarker(stack: string, job: string): string {
  return `<!-- obsdeploy:sticky stack=${markerPart(stack)} job=${markerPart(job)} -->`
}

function markerPart(text: string): string {
  // encodeURIComponent throws on a lone surrogate; a workflow name could hold one.
  const wellFormed = text.replace(
    /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    '\uFFFD'
  )
  return encodeURIComponent(wellFormed).replace(
    /[-!'()*~]/g,
    c => `%${c.charCodeAt(0).toString(16).toUpperCase()}`
  )
}

/**
 * Posts `body` (which starts with `marker`) as the sticky comment, or edits the one posted before. With no
 * changes and no earlier comment it posts nothing: a pull request that touches no observability manifest
 * gets no comment, but one whose plan went back to "No changes" sees its comment say so.
 */
export async function upsertStickyComment(
  target: CommentTarget,
  marker: string,
  body: string,
  options: { hasChanges: boolean }
): Promise<StickyCommentResult> {
  const octokit = clientFor(target)
  const issue = { owner: target.owner, repo: target.repo, issue_number: target.issueNumber }
  // The marker is how the next run finds this comment: a body without it would leave an orphan behind.
  const text = body.startsWith(marker) ? body : `${marker}\n${body}`
  try {
    const existing = await findStickyComment(octokit, issue, marker)
    if (existing) {
      const { data } = await octokit.rest.issues.updateComment({
        owner: target.owner,
        repo: target.repo,
        comment_id: existing.id,
        body: text
      })
      return { action: 'updated', url: data.html_url }
    }
    if (!options.hasChanges) return { action: 'skipped' }
    const { data } = await octokit.rest.issues.createComment({ ...issue, body: text })
    return { action: 'created', url: data.html_url }
  } catch (error) {
    return {
      action: 'skipped',
      warning: refusalWarning(
        error,
        'The plan was not posted as a pull request comment',
        'The plan is in the job summary.',
        target.token
      )
    }
  }
}

interface IssueRef {
  owner: string
  repo: string
  issue_number: number
}
interface ListedComment {
  id: number
  body?: string
  created_at: string
  user: CommentAuthor | null
}

/**
 * Every page of the issue's comments, 100 at a time, following the Link header: on a busy pull request
 * the comment is often past the first page. Only a comment that starts with the marker counts (a reply
 * that quotes it starts with `>`), and only one the token wrote; when there are several, the newest wins.
 * Who the token is is asked only when some comment carries the marker: a first run costs no request more.
 */
async function findStickyComment(
  octokit: GitHubClient,
  issue: IssueRef,
  marker: string
): Promise<ListedComment | undefined> {
  const marked: ListedComment[] = []
  const pages = octokit.paginate.iterator(octokit.rest.issues.listComments, { ...issue, per_page: 100 })
  for await (const { data } of pages) {
    for (const comment of data) if (comment.body?.startsWith(marker)) marked.push(comment)
  }
  if (marked.length === 0) return undefined
  const login = await tokenLogin(octokit)
  let newest: ListedComment | undefined
  for (const comment of marked) {
    if (!writtenBy(comment.user, login)) continue
    if (!newest || isNewer(comment, newest)) newest = comment
  }
  return newest
}

function isNewer(a: ListedComment, b: ListedComment): boolean {
  if (a.created_at !== b.created_at) return a.created_at > b.created_at
  return a.id > b.id
}
