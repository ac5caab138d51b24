/**
 * What a pull request does to the rules in force: each rule of the base commit against the pull request's
 * rule of the same id, for one stack. Removing a rule, lowering its severity, changing its check or when it
 * runs, narrowing its kinds or stacks, or letting it be suppressed weakens it; any other difference changes
 * it. A changed check counts as weakening: whether a new expression is stricter cannot be told in general.
 */
import type { RuleChange } from '../plan/policy-review.js'
import type { PolicyRule } from './schema.js'

/** A rule as written, and whether it holds in the stack being checked. */
export interface DefinedRule {
  rule: PolicyRule
  applies: boolean
}

export function compareRules(
  base: ReadonlyMap<string, DefinedRule>,
  head: ReadonlyMap<string, DefinedRule>
): RuleChange[] {
  const changes: RuleChange[] = []
  for (const [id, was] of base) {
    if (!was.applies) continue
    const now = head.get(id)
    if (!now) changes.push({ verb: 'removes', rule: id, how: [] })
    else if (!now.applies) changes.push({ verb: 'weakens', rule: id, how: ['no longer holds in this stack'] })
    else {
      const { weaker, other } = differences(was.rule, now.rule)
      if (weaker.length > 0) changes.push({ verb: 'weakens', rule: id, how: [...weaker, ...other] })
      else if (other.length > 0) changes.push({ verb: 'changes', rule: id, how: other })
    }
  }
  for (const [id, now] of head)
    if (now.applies && !base.get(id)?.applies) changes.push({ verb: 'adds', rule: id, how: [] })
  return changes
}

function differences(was: PolicyRule, now: PolicyRule): { weaker: string[]; other: string[] } {
  const weaker: string[] = []
  const other: string[] = []
  if (was.severity !== now.severity)
    (was.severity === 'error' ? weaker : other).push(`severity ${was.severity} to ${now.severity}`)
  if (was.check.trim() !== now.check.trim()) weaker.push('check changed')
  if ((was.on ?? 'manifest') !== (now.on ?? 'manifest'))
    weaker.push(`runs over the ${now.on === 'plan' ? 'plan' : 'manifests'} instead`)
  const kinds = scope(was.kinds, now.kinds)
  if (kinds === 'narrower') weaker.push('kinds narrowed')
  else if (kinds === 'wider') other.push('kinds widened')
  const stacks = scope(was.stacks, now.stacks)
  if (stacks === 'narrower') weaker.push('stacks narrowed')
  else if (stacks === 'wider') other.push('stacks widened')
  if (was.suppressible === false && now.suppressible !== false) weaker.push('can now be suppressed')
  else if (was.suppressible !== false && now.suppressible === false) other.push('can no longer be suppressed')
  if (was.message !== now.message) other.push('message changed')
  if (was.field !== now.field) other.push('field changed')
  return { weaker, other }
}

/** A scope list against another (absent: everything): narrower when it drops any member. */
function scope(
  was: readonly string[] | undefined,
  now: readonly string[] | undefined
): 'same' | 'narrower' | 'wider' {
  if (was === undefined) return now === undefined ? 'same' : 'narrower'
  if (now === undefined) return 'wider'
  if (was.some(k => !now.includes(k))) return 'narrower'
  return now.some(k => !was.includes(k)) ? 'wider' : 'same'
}
