/**
 * Whether a pull request is closed, for the live preview's sweep (live-preview/sweep.ts): a copy of a closed pull
 * request is deleted by the next run of its stack, as a missed `closed` event would have. Asked of GitHub
 * (`GET /repos/{owner}/{repo}/pulls/{number}`, which needs `pull-requests: read`); undefined when GitHub does not say,
 * so the copy stays until its time to live runs out.
 */
import { clientFor } from './rest.js'

export async function isPullRequestClosed(target: {
  token: string
  owner: string
  repo: string
  pullRequest: number
  baseUrl?: string
}): Promise<boolean | undefined> {
  try {
    const { data } = await clientFor(target).rest.pulls.get({
      owner: target.owner,
      repo: target.repo,
      pull_number: target.pullRequest
    })
    return data.state === 'closed'
  } catch {
    return undefined
  }
}
