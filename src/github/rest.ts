/**
 * What the sticky comment and the labels share: an Octokit client for the pull request, and the
 * warning that says why GitHub refused a write. Both are conveniences: a refusal never fails the run.
 */
import { getOctokit } from '@actions/github'
import { errorMessage } from '../error-message.js'

export interface IssueTarget {
  token: string
  owner: string
  repo: string
  issueNumber: number
  /** REST API base; defaults to GITHUB_API_URL (GitHub Enterprise Server sets it), then api.github.com. */
  baseUrl?: string
}

export type GitHubClient = ReturnType<typeof getOctokit>

export function clientFor(target: Pick<IssueTarget, 'token' | 'baseUrl'>): GitHubClient {
  return getOctokit(target.token, {
    baseUrl: (target.baseUrl ?? process.env.GITHUB_API_URL ?? 'https://api.github.com').replace(/\/+$/, '')
  })
}

const PERMISSION_SNIPPET = 'permissions:\n  pull-requests: write'

/**
 * Why a write was refused, for a workflow warning: `what` says what did not happen ("The plan was not
 * posted as a pull request comment"), `after` what the reader still has. Never contains the token.
 */
export function refusalWarning(error: unknown, what: string, after: string, token: string): string {
  const status = (error as { status?: unknown }).status
  const said = serverMessage(error)
  let text: string
  if (typeof status !== 'number') {
    text = `${what}: GitHub could not be reached (${said}). ${after}`
  } else if (status === 403 && /rate limit/i.test(said)) {
    text = `${what}: GitHub's rate limit was hit (${said}). ${after}`
  } else if (status === 401) {
    text = `${what}: GitHub rejected the github-token (401: ${said}). ${after}`
  } else if (status === 403 || status === 404) {
    const why =
      status === 404
        ? 'the token cannot see this pull request (GitHub answers 404 when a private repository is out of its reach)'
        : 'the token cannot write to this pull request'
    text = [
      `${what}: ${why} (${status}: ${said}). Give the workflow job this permission:`,
      '',
      PERMISSION_SNIPPET,
      '',
      `On a pull request from a fork the token stays read-only whatever the workflow asks for. ${after}`
    ].join('\n')
  } else {
    text = `${what}: GitHub answered ${status} (${said}). ${after}`
  }
  return redact(text, token)
}

/** The server's words on one short line: the message GitHub returned, not our request. */
export function serverMessage(error: unknown): string {
  const data = (error as { response?: { data?: unknown } }).response?.data
  const fromBody = (data as { message?: unknown } | undefined)?.message
  const text = typeof fromBody === 'string' ? fromBody : errorMessage(error)
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > 300 ? `${line.slice(0, 300)}…` : line
}

/** An Octokit error in a line: its HTTP status (when it has one) and the server's message. */
export function statusMessage(error: unknown): string {
  const status = (error as { status?: unknown }).status
  return `${typeof status === 'number' ? `${status}: ` : ''}${serverMessage(error)}`
}

/** Defence in depth: whatever an error carries, the token does not leave through a warning. */
export function redact(text: string, token: string): string {
  return token.length >= 6 ? text.split(token).join('***') : text
}
