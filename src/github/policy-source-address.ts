/**
 * The `policy-source` input as the action takes it, `owner/repo@ref:path`: checked with the other inputs,
 * before anything is read (the reader, policy-source.ts, loads Octokit).
 */

export interface PolicySourceAddress {
  owner: string
  repo: string
  ref: string
  /** A file or a folder of the repository, `/`-separated, without a leading `/` (`''`: all of it). */
  path: string
}

const FORM = /^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/([A-Za-z0-9._-]{1,100})@([^:\s]{1,250}):(.*)$/

/** The address, or what is wrong with it (for an error that names the input). */
export function parsePolicySource(value: string): PolicySourceAddress | { problem: string } {
  const m = FORM.exec(value.trim())
  if (!m)
    return { problem: 'must be written owner/repo@ref:path (for example acme/policies@main:observability)' }
  const [, owner, repo, ref, rest] = m
  const clean = rest!.replace(/^\/+|\/+$/g, '')
  if (clean.split('/').some(part => part === '..'))
    return { problem: `its path must stay inside the repository: ${JSON.stringify(rest)}` }
  return { owner: owner!, repo: repo!, ref: ref!, path: clean === '.' ? '' : clean }
}

export const describeSource = (a: PolicySourceAddress): string => `${a.owner}/${a.repo}@${a.ref}:${a.path}`
