/**
 * The rules in force from places the pull request cannot change, read once for the run: the base commit's
 * files (on a pull request, from the entry point) and the `policy-source` input's policies. A policy source
 * that cannot be read, or holds no rule, is an error: nothing is planned without the rules it holds. A base
 * commit that cannot be read is not: the run obeys its own files and every report says so.
 */
import type { Diagnostic } from '../diagnostics.js'
import type { Variables } from '../manifest/vars.js'
import { centralPolicies, type BaseRead, type EnforcedPolicies } from '../policy/sources.js'
import type { RunDependencies } from './types.js'

export interface Enforced {
  base?: BaseRead
  central?: EnforcedPolicies['central']
  /** The policy source's own problems: the run's, said once. */
  diagnostics: Diagnostic[]
}

/** Started at once, so GitHub answers while the manifests load; undefined when there is nothing to read. */
export function readEnforced(deps: RunDependencies, vars: Variables): Promise<Enforced> | undefined {
  if (!deps.baseFiles && !deps.policySource) return undefined
  return (async () => {
    const [base, source] = await Promise.all([deps.baseFiles?.(), deps.policySource?.()])
    const central = source ? centralPolicies(source, vars) : undefined
    return {
      ...(base ? { base } : {}),
      ...(central ? { central: { origin: central.origin, documents: central.documents } } : {}),
      diagnostics: central?.diagnostics ?? []
    }
  })()
}

/**
 * One stack's share of the base commit: the files in its folder and those outside every stack's folder (the
 * repository's policies); with no stacks, all of it.
 */
export function baseOfStack(
  base: BaseRead | undefined,
  inStack: (file: string) => boolean
): BaseRead | undefined {
  if (!base || 'unavailable' in base) return base
  return { ...base, differing: base.differing.filter(f => inStack(f.path)) }
}
