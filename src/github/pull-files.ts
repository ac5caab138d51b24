/**
 * The files a pull request changes, for the `stacks` layout: a run plans the stacks whose folders they
 * touch. Read from the REST API (the event payload does not list them, and the default checkout has no
 * history to diff). When they cannot be listed, every stack is planned: more work, never a missed stack.
 */
import { clientFor, redact, statusMessage, type IssueTarget } from './rest.js'

/** GitHub lists at most this many files of a pull request; a longer list is cut without saying so. */
export const LISTED_FILES_LIMIT = 3000

export type PullRequestFiles =
  | { paths: string[] }
  /** Why the files are unknown, in words for a workflow warning. Never contains the token. */
  | { warning: string }

export async function listPullRequestFiles(target: IssueTarget): Promise<PullRequestFiles> {
  const octokit = clientFor(target)
  const paths = new Set<string>()
  let listed = 0
  try {
    const pages = octokit.paginate.iterator(octokit.rest.pulls.listFiles, {
      owner: target.owner,
      repo: target.repo,
      pull_number: target.issueNumber,
      per_page: 100
    })
    for await (const { data } of pages) {
      for (const f of data) {
        listed++
        paths.add(f.filename)
        // A rename changes the folder it leaves as well as the one it enters.
        if (f.previous_filename) paths.add(f.previous_filename)
      }
    }
  } catch (error) {
    const said = statusMessage(error)
    return {
      warning: redact(
        `The pull request's changed files could not be listed (${said}), so every stack is planned. The job's token needs \`pull-requests: read\`.`,
        target.token
      )
    }
  }
  if (listed >= LISTED_FILES_LIMIT) {
    return {
      warning: `The pull request changes ${LISTED_FILES_LIMIT} files or more, more than GitHub lists, so every stack is planned.`
    }
  }
  return { paths: [...paths].sort() }
}
