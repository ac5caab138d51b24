/**
 * Who the github-token writes as, so the sticky comment is only ever found among the product's own
 * comments: a hidden marker is plain text anyone can copy into a comment of theirs, and that comment
 * must never be edited with the plan.
 *
 * The rule: a comment is ours when it starts with the marker and its author's login is the token's login.
 * - `GET /user` answers a personal token (classic or fine-grained) with the person's login.
 * - An installation token (the workflow's GITHUB_TOKEN, or a GitHub App's) gets 403 "Resource not
 *   accessible by integration" there; GraphQL's `viewer` names its bot instead (`github-actions[bot]`,
 *   `my-app[bot]`), and a bot's login is checked to be a Bot account's.
 * - When GitHub answers neither, the token is taken to be the workflow's own, `github-actions[bot]`: at
 *   worst the run posts a new comment instead of editing its old one, never edits someone else's.
 */
import type { GitHubClient } from './rest.js'

/** The author of the comments the workflow's GITHUB_TOKEN writes. */
export const ACTIONS_BOT = 'github-actions[bot]'

export interface CommentAuthor {
  login: string
  type?: string
}

export async function tokenLogin(octokit: GitHubClient): Promise<string> {
  try {
    return (await octokit.rest.users.getAuthenticated()).data.login
  } catch {
    // An installation token, or GitHub did not answer: ask who the token is another way.
  }
  try {
    const answer = await octokit.graphql<{ viewer?: { login?: unknown } }>('query { viewer { login } }')
    const login = answer.viewer?.login
    if (typeof login === 'string' && login !== '') return login
  } catch {
    // GraphQL refused or unreachable: the workflow's token is the likely one.
  }
  return ACTIONS_BOT
}

/** Whether a comment by `author` was written with the token whose login is `login`. */
export function writtenBy(author: CommentAuthor | null | undefined, login: string): boolean {
  if (!author || author.login.toLowerCase() !== login.toLowerCase()) return false
  // A `[bot]` login is only ever a GitHub App's: a person's account can never be of that name or type.
  return !login.endsWith('[bot]') || author.type === 'Bot'
}
