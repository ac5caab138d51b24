/**
 * The pull request's labels, for policy rules that read them (`labels`, e.g. "no delete of a dashboard
 * tagged critical without the approved-delete label"). On a pull request they are in the event. On a
 * push (the apply after a merge) they are the labels of the pull request that merged the commit, asked of
 * GitHub (`GET /repos/{owner}/{repo}/commits/{sha}/pulls`, which needs `pull-requests: read`). When they
 * cannot be known, there are none, with the reason: a rule that asks for a label then blocks, the safe side.
 */
import type { PullRequestLabels } from '../policy/check.js'
import { clientFor, redact, statusMessage } from './rest.js'

/** The labels of the pull request(s) merged as `sha`: the ones merged into the default branch. */
export async function labelsOfCommit(target: {
  token: string
  owner: string
  repo: string
  sha: string
  baseUrl?: string
}): Promise<PullRequestLabels> {
  const short = target.sha.slice(0, 12)
  try {
    const octokit = clientFor(target)
    const { data } = await octokit.rest.repos.listPullRequestsAssociatedWithCommit({
      owner: target.owner,
      repo: target.repo,
      commit_sha: target.sha,
      per_page: 100
    })
    const merged = data.filter(pr => pr.merged_at)
    if (merged.length === 0) return { names: [], unknown: `no merged pull request has commit ${short}` }
    const names = new Set<string>()
    for (const pr of merged) for (const l of pr.labels) if (l.name) names.add(l.name)
    return { names: [...names].sort() }
  } catch (error) {
    const said = statusMessage(error)
    return {
      names: [],
      unknown: redact(
        `the pull request that merged commit ${short} could not be read (${said}); the job's token needs \`pull-requests: read\``,
        target.token
      )
    }
  }
}
