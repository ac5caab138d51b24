/**
 * Files of a commit read through the GitHub API, which needs only `contents: read`: a shallow checkout holds
 * no other commit. The tree is listed in one request (recursive); blobs are read a hundred at a time through
 * GraphQL (a pull request that touches a thousand manifests costs ten requests, not a thousand), and a blob
 * GraphQL cuts short or leaves out is read alone through REST.
 */
import { createHash } from 'node:crypto'
import { MAX_MANIFEST_BYTES } from '../manifest/files.js'
import type { GitHubClient } from './rest.js'

export interface TreeEntry {
  /** Relative to the repository's root, `/`-separated. */
  path: string
  /** The git blob's sha: equal shas, equal bytes. */
  sha: string
  size?: number
}

/** Every file of a commit (or a branch or tag) of a repository. A tree GitHub cut short is an error. */
export async function listTree(
  octokit: GitHubClient,
  repo: { owner: string; repo: string },
  ref: string
): Promise<TreeEntry[]> {
  const { data } = await octokit.rest.git.getTree({ ...repo, tree_sha: ref, recursive: 'true' })
  if (data.truncated) throw new Error(`the tree of ${ref} has more entries than GitHub lists in one answer`)
  const files: TreeEntry[] = []
  for (const e of data.tree)
    if (e.type === 'blob' && typeof e.path === 'string' && typeof e.sha === 'string')
      files.push({ path: e.path, sha: e.sha, ...(typeof e.size === 'number' ? { size: e.size } : {}) })
  return files
}

const BATCH = 100

/** The text of each blob, by sha. A blob over the manifest size limit is refused before it is read. */
export async function readBlobs(
  octokit: GitHubClient,
  repo: { owner: string; repo: string },
  entries: readonly TreeEntry[]
): Promise<Map<string, string>> {
  const texts = new Map<string, string>()
  const tooLarge = entries.find(e => (e.size ?? 0) > MAX_MANIFEST_BYTES)
  if (tooLarge)
    throw new Error(`${tooLarge.path} is larger than ${MAX_MANIFEST_BYTES} bytes, the manifest limit`)
  const shas = [...new Set(entries.map(e => e.sha))]
  // Shas go into the query's text: only what a git object id looks like.
  const odd = shas.find(sha => !/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(sha))
  if (odd !== undefined) throw new Error(`GitHub listed a blob id that is not one: ${JSON.stringify(odd)}`)
  for (let i = 0; i < shas.length; i += BATCH) {
    const batch = shas.slice(i, i + BATCH)
    const fields = batch.map((sha, j) => `b${j}: object(oid: "${sha}") { ... on Blob { text isTruncated } }`)
    const answer = await octokit.graphql<{
      repository?: Record<string, { text?: string | null; isTruncated?: boolean } | null> | null
    }>(
      `query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { ${fields.join(' ')} } }`,
      {
        owner: repo.owner,
        name: repo.repo
      }
    )
    batch.forEach((sha, j) => {
      const blob = answer.repository?.[`b${j}`]
      if (blob && typeof blob.text === 'string' && blob.isTruncated !== true) texts.set(sha, blob.text)
    })
  }
  // What GraphQL left out (a large blob it cut, or binary content): the REST blob, base64.
  for (const sha of shas) {
    if (texts.has(sha)) continue
    const { data } = await octokit.rest.git.getBlob({ ...repo, file_sha: sha })
    texts.set(sha, Buffer.from(data.content, data.encoding === 'base64' ? 'base64' : 'utf8').toString('utf8'))
  }
  return texts
}

/** The git blob sha of bytes: what a tree entry of the same content carries. */
export function blobSha(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex')
}
