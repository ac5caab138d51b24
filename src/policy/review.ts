/**
 * A pull request against its base commit's rules: the base's policies and suppressions (its files that
 * differ from the checkout, read through GitHub, and the ones that do not), what the pull request does to
 * each rule, as a warning at the rule, the findings of the rules it adds or changes as a preview that never
 * blocks, and the review a report renders (plan/policy-review.ts).
 */
import { diagnostic, formatDiagnostic, type Diagnostic } from '../diagnostics.js'
import type { Variables } from '../manifest/vars.js'
import type { ParsedDocument } from '../manifest/yaml.js'
import type { AddedSuppression, PolicyReview, RuleChange } from '../plan/policy-review.js'
import type { Compiled, Rule } from './rules.js'
import { parseBaseFile, type BaseFiles, type BaseRead } from './sources.js'

/** A preview's findings: shown, never enforced. */
export const asPreview = (found: readonly Diagnostic[]): Diagnostic[] =>
  found.map(d => ({
    ...d,
    severity: 'notice',
    message: `preview of a rule this pull request adds or changes (not enforced until merged): ${d.message}`
  }))

/** The base commit's policies and suppressions: its files that differ from this run's, and the same ones. */
export function readBase(
  base: BaseFiles,
  headDocs: readonly ParsedDocument[],
  vars: Variables
): { policies: ParsedDocument[]; suppressions: Set<string>; problems: Diagnostic[] } {
  const policies = headDocs.filter(d => base.unchanged.has(d.file))
  const suppressions = new Set<string>()
  const problems: Diagnostic[] = []
  for (const file of base.differing) {
    const parsed = parseBaseFile(file, vars)
    policies.push(...parsed.policies)
    for (const key of parsed.suppressions) suppressions.add(key)
    // Its rules may be among what could not be read: said with the base's other problems.
    if (parsed.problem) problems.push(diagnostic('validate', 'error', parsed.problem))
  }
  return { policies, suppressions, problems }
}

/** Whether a suppression is new in the pull request: its file differs from the base's, which lacked it. */
export const isAddedSuppression =
  (base: BaseFiles, atBase: ReadonlySet<string>) =>
  (file: string, key: string): boolean =>
    !base.unchanged.has(file) && !atBase.has(key)

/** A rule the pull request changes, as a warning at the rule (or, removed, where the base had it). */
export function changeNotice(c: RuleChange, base: BaseFiles, head: Compiled, based: Compiled): Diagnostic {
  const at = c.verb === 'removes' ? undefined : head.defined.get(c.rule)?.at
  const was = based.defined.get(c.rule)
  const how = c.how.length > 0 ? ` (${c.how.join(', ')})` : ''
  const baseAt = was ? ` (at the base commit ${base.commit.slice(0, 7)}, ${was.from})` : ''
  const held =
    c.verb === 'adds'
      ? 'its findings are a preview until it is merged'
      : "the base commit's rule is still enforced until this change is merged"
  return diagnostic(
    'validate',
    'warning',
    `this pull request ${c.verb} policy rule "${c.rule}"${how}${c.verb === 'adds' ? '' : baseAt}: ${held}`,
    at
  )
}

/**
 * The base commit could not be read: the run obeys the pull request's own files. `loud` (there are policies
 * to obey) makes it a warning the heading repeats; without any, a notice.
 */
export function baseUnreadable(why: string, loud: boolean): Diagnostic {
  return loud
    ? diagnostic(
        'validate',
        'warning',
        `the rules of the pull request's base commit could not be read (${why}), so this pull request's own policy files are obeyed: a change it makes to them is not caught`
      )
    : diagnostic(
        'validate',
        'notice',
        `the pull request's base commit could not be read (${why}): should it hold policy files, this pull request is not checked against them`
      )
}

/** The base commit's own policy problems, as one warning: its rules that do not compile are not in force. */
export const baseProblemsNotice = (problems: readonly Diagnostic[]): Diagnostic =>
  diagnostic(
    'validate',
    'warning',
    `the base commit's policies have problems, so some of its rules are not in force: ${problems
      .slice(0, 3)
      .map(d => formatDiagnostic(d))
      .join('; ')}`
  )

/** The rules in force, where they came from, and what the pull request does to them. */
export function reviewOf(
  base: BaseRead | undefined,
  central: string | undefined,
  inForce: readonly Rule[],
  changes: RuleChange[],
  suppressions: AddedSuppression[]
): PolicyReview {
  return {
    from:
      base === undefined
        ? { kind: 'workspace' }
        : 'commit' in base
          ? { kind: 'base', commit: base.commit }
          : { kind: 'workspace', fallback: base.unavailable },
    ...(central !== undefined ? { central } : {}),
    rules: inForce.map(r => ({
      id: r.id,
      severity: r.severity,
      on: r.on ?? 'manifest',
      suppressible: r.suppressible !== false,
      from: r.from
    })),
    changes,
    suppressions
  }
}
