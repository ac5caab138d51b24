/**
 * What `command: sync` does once the sync has written its files: the files committed alone on the stack's
 * branch (`obsdeploy/sync/<stack>`, sync-branch.ts), pushed with git, and one pull request for that branch,
 * opened or brought up to date; never a second. When nothing differs there is no commit (GitHub refuses a pull
 * request without one), and an open sync pull request is closed with a comment: the UI and the repository
 * agree again. The behaviour follows peter-evans/create-pull-request's, as its documentation describes it.
 */
import { z } from 'zod'
import { clientFor, type GitHubClient } from './rest.js'
import {
  changedPaths,
  commitPaths,
  fromTop,
  openCheckout,
  pushCommit,
  remoteTree,
  restorePaths,
  type Checkout
} from './sync-branch.js'
import { pullFailure, pushFailure } from './sync-permissions.js'

export { SyncPermissionError, type SyncNeed } from './sync-permissions.js'

export interface SyncPullInput {
  token: string
  owner: string
  repo: string
  /** REST base, as rest.ts clientFor takes it. */
  baseUrl?: string
  /** The repository's work tree (what actions/checkout left, on the default branch). */
  cwd: string
  /** The default branch's name: the pull request's base. */
  base: string
  stack: string
  /** `obsdeploy/sync/<stack>`: one per stack, fixed. */
  branch: string
  /** Paths relative to cwd that the sync wrote, created or deleted (may be empty). */
  files: string[]
  title: string
  /** Markdown, already escaped. */
  body: string
  commitMessage: string
  /** Posted on an open sync pull request closed because nothing differs. */
  closeComment: string
}

export type SyncPullOutcome =
  | { operation: 'created' | 'updated' | 'unchanged' | 'closed'; number: number; url: string }
  /** Nothing differs and no pull request was open. */
  | { operation: 'none' }

/** The fields of a pull request the sync reads; GitHub's answer has many more. */
const Pull = z.object({
  number: z.number().int().positive(),
  html_url: z.string(),
  title: z.string(),
  body: z.string().nullish(),
  head: z.object({ ref: z.string() }),
  base: z.object({ ref: z.string() })
})
type Pull = z.infer<typeof Pull>

/**
 * Commits and pushes the synced files and opens, updates or closes the stack's pull request. Afterwards the
 * work tree is on the commit it started on, with those files as that commit has them. Throws a
 * SyncPermissionError when GitHub refuses for want of a permission or a setting.
 */
export async function publishSync(input: SyncPullInput): Promise<SyncPullOutcome> {
  const checkout = await openCheckout(input.cwd, [input.token])
  const changed = await changedPaths(checkout, fromTop(checkout, input.cwd, input.files))
  let failed = false
  try {
    return await publish(input, checkout, changed)
  } catch (error) {
    failed = true
    throw error
  } finally {
    // The next stack of the run starts from HEAD. Should this fail after another failure, that one is the news.
    await restorePaths(checkout, changed).catch((error: unknown) => {
      if (!failed) throw error
    })
  }
}

async function publish(
  input: SyncPullInput,
  checkout: Checkout,
  changed: string[]
): Promise<SyncPullOutcome> {
  const pulls = new Pulls(input)
  const built = changed.length > 0 ? await commitPaths(checkout, changed, input.commitMessage) : undefined
  if (!built) {
    const open = await pulls.findOpen()
    if (open.length === 0) return { operation: 'none' }
    for (const pull of open) await pulls.close(pull)
    return { operation: 'closed', number: open[0]!.number, url: open[0]!.html_url }
  }
  // A branch that already holds this tree needs no push: a rerun changes nothing on GitHub.
  const pushed = (await remoteTree(checkout, input.branch)) !== built.tree
  if (pushed)
    await pushCommit(checkout, built.commit, input.branch).catch((error: unknown) => {
      throw pushFailure(error, input.branch)
    })
  const existing = pulls.pick(await pulls.findOpen())
  if (!existing) {
    const made = await pulls.create()
    if (made) return { operation: 'created', number: made.number, url: made.html_url }
  }
  // Open already, or opened by another run between our look and our create.
  const open = existing ?? pulls.pick(await pulls.findOpen())
  if (!open)
    throw new Error(`The sync could not find the pull request of ${input.branch} GitHub says is open`)
  await pulls.update(open)
  return { operation: pushed ? 'updated' : 'unchanged', number: open.number, url: open.html_url }
}

/** The pull request routes the sync uses, each failure worded as pullFailure words it. */
class Pulls {
  private readonly octokit: GitHubClient
  private readonly repo: { owner: string; repo: string }

  constructor(private readonly input: SyncPullInput) {
    this.octokit = clientFor(input)
    this.repo = { owner: input.owner, repo: input.repo }
  }

  /** The open pull requests from the branch (of this repository, not a fork's of the same name). */
  async findOpen(): Promise<Pull[]> {
    const { data } = await this.octokit.rest.pulls
      .list({ ...this.repo, state: 'open', head: `${this.input.owner}:${this.input.branch}`, per_page: 100 })
      .catch((error: unknown) => {
        throw pullFailure(error, `list the open pull requests of ${this.input.branch}`, this.input.token)
      })
    return z
      .array(Pull)
      .parse(data)
      .filter(p => p.head.ref === this.input.branch)
      .sort((a, b) => a.number - b.number)
  }

  /** The one to keep up to date: the one into the default branch, else the oldest. */
  pick(open: Pull[]): Pull | undefined {
    return open.find(p => p.base.ref === this.input.base) ?? open[0]
  }

  /** Opens the pull request; undefined when GitHub says one for the branch is open already (a race). */
  async create(): Promise<Pull | undefined> {
    const { branch, base, title, body, token } = this.input
    try {
      const { data } = await this.octokit.rest.pulls.create({ ...this.repo, head: branch, base, title, body })
      return Pull.parse(data)
    } catch (error) {
      if (isAlreadyOpen(error)) return undefined
      throw pullFailure(error, `open the pull request for ${branch}`, token)
    }
  }

  /** Title, body and base as this run has them; no request when they are already so. */
  async update(pull: Pull): Promise<void> {
    const { title, body, base } = this.input
    const changes = {
      ...(pull.title !== title ? { title } : {}),
      ...((pull.body ?? '') !== body ? { body } : {}),
      ...(pull.base.ref !== base ? { base } : {})
    }
    if (Object.keys(changes).length === 0) return
    await this.octokit.rest.pulls
      .update({ ...this.repo, pull_number: pull.number, ...changes })
      .catch((error: unknown) => {
        throw pullFailure(error, `update pull request #${pull.number}`, this.input.token)
      })
  }

  /** Says why, then closes it. The branch stays: the next difference is pushed over it. */
  async close(pull: Pull): Promise<void> {
    const what = `close pull request #${pull.number}`
    const fail = (error: unknown): never => {
      throw pullFailure(error, what, this.input.token)
    }
    await this.octokit.rest.issues
      .createComment({ ...this.repo, issue_number: pull.number, body: this.input.closeComment })
      .catch(fail)
    await this.octokit.rest.pulls
      .update({ ...this.repo, pull_number: pull.number, state: 'closed' })
      .catch(fail)
  }
}

/** GitHub's 422 for a second pull request of a head and base: "A pull request already exists for o:branch." */
function isAlreadyOpen(error: unknown): boolean {
  if ((error as { status?: unknown }).status !== 422) return false
  const data = (error as { response?: { data?: unknown } }).response?.data
  return /pull request already exists/i.test(JSON.stringify(data ?? ''))
}
