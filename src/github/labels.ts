/**
 * Pull request labels, as tfcmt adds them: one of obsdeploy:no-changes, obsdeploy:changes and
 * obsdeploy:destroy, so reviewers can filter the pull requests that delete something. The label that no
 * longer fits is removed. Like the comment it is a convenience: a refusal is a warning, never a failure.
 */
import { clientFor, refusalWarning, type IssueTarget } from './rest.js'

export const PLAN_LABELS = {
  'no-changes': 'obsdeploy:no-changes',
  changes: 'obsdeploy:changes',
  destroy: 'obsdeploy:destroy'
} as const
export type PlanLabel = keyof typeof PLAN_LABELS

export interface LabelResult {
  added: string[]
  removed: string[]
  /** Why the labels were not set, in words for a workflow warning. Never contains the token. */
  warning?: string
}

export async function syncLabels(target: IssueTarget, wanted: PlanLabel): Promise<LabelResult> {
  const octokit = clientFor(target)
  const issue = { owner: target.owner, repo: target.repo, issue_number: target.issueNumber }
  const label = PLAN_LABELS[wanted]
  const ours = new Set<string>(Object.values(PLAN_LABELS))
  const result: LabelResult = { added: [], removed: [] }
  try {
    const present = new Set<string>()
    const pages = octokit.paginate.iterator(octokit.rest.issues.listLabelsOnIssue, {
      ...issue,
      per_page: 100
    })
    for await (const { data } of pages) for (const l of data) present.add(l.name)
    for (const stale of [...present].filter(name => ours.has(name) && name !== label)) {
      try {
        await octokit.rest.issues.removeLabel({ ...issue, name: stale })
      } catch (error) {
        // Removed meanwhile (another job of the same pull request): what we wanted anyway.
        if ((error as { status?: unknown }).status !== 404) throw error
      }
      result.removed.push(stale)
    }
    if (!present.has(label)) {
      // GitHub creates a label that the repository does not have yet.
      await octokit.rest.issues.addLabels({ ...issue, labels: [label] })
      result.added.push(label)
    }
    return result
  } catch (error) {
    return {
      ...result,
      warning: refusalWarning(
        error,
        `The pull request was not labelled ${label}`,
        'The plan is in the job summary either way.',
        target.token
      )
    }
  }
}
