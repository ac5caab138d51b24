/**
 * The `policy-source` input in the action: `owner/repo@ref:path`, policies kept in a place the pull request
 * cannot change (an organisation's central repository, or a protected branch of this one), read through the
 * GitHub API with the github-token. `path` is a file or a folder (its `.yaml` and `.yml` files, subfolders
 * included).
 */
import type { CentralRead } from '../policy/sources.js'
import { describeSource, type PolicySourceAddress } from './policy-source-address.js'
import { listTree, readBlobs } from './git-files.js'
import { clientFor, redact, statusMessage } from './rest.js'

export async function readPolicySource(
  address: PolicySourceAddress,
  token: string,
  baseUrl?: string
): Promise<CentralRead> {
  const origin = describeSource(address)
  if (!token) return { origin, unreadable: 'no github-token to read it with' }
  try {
    const octokit = clientFor({ token, baseUrl })
    const repo = { owner: address.owner, repo: address.repo }
    const inside = (await listTree(octokit, repo, address.ref)).filter(
      e =>
        (address.path === '' || e.path === address.path || e.path.startsWith(`${address.path}/`)) &&
        /\.ya?ml$/.test(e.path)
    )
    const texts = await readBlobs(octokit, repo, inside)
    return {
      origin,
      files: inside.map(e => ({
        path: `${address.owner}/${address.repo}@${address.ref}:${e.path}`,
        text: texts.get(e.sha)!
      }))
    }
  } catch (error) {
    return { origin, unreadable: redact(`GitHub answered ${statusMessage(error)}`, token) }
  }
}
