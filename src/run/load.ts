/**
 * A stack's manifests as the run takes them: loaded (manifest/), then checked by the policies they hold,
 * the repository's and the enforced ones (policy/). Loading is the run's: policy/ only checks what it is
 * given.
 */
import { loadManifests, type LoadOptions } from '../manifest/load.js'
import type { ParsedDocument } from '../manifest/yaml.js'
import { checkPolicies, type CheckedManifests } from '../policy/check.js'
import type { EnforcedPolicies } from '../policy/sources.js'

/** loadManifests, then the policies the manifests hold (and the repository's, `repository`). */
export async function loadWithPolicies(
  options: LoadOptions & {
    stack: string
    repository?: readonly ParsedDocument[]
    /** Read while the manifests load (a request to GitHub on a pull request). */
    enforced?: Promise<EnforcedPolicies | undefined>
  }
): Promise<CheckedManifests> {
  const repository = options.repository ?? []
  // A base commit or a policy source may hold rules where these files hold none: keep what rules read.
  const set = await loadManifests({
    ...options,
    keepDocuments: repository.length > 0 || options.enforced !== undefined
  })
  return checkPolicies(set, {
    stack: options.stack,
    repository,
    secrets: Object.values(options.secrets ?? {}),
    enforced: await options.enforced,
    vars: options.vars
  })
}
