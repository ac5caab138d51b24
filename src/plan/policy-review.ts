/**
 * What a review needs to know of the policies a run was held to: which rules were in force and where they
 * came from, and what the change under review does to them. Data only: src/policy computes it, the report
 * renders it (the heading names every rule a pull request removes, weakens, changes or adds, and every
 * suppression it adds; such a report is never ✅).
 */

/** Where the rules in force came from. */
export type RulesFrom =
  /** The pull request's base commit, read through the GitHub API: the PR's own policy files are not obeyed. */
  | { kind: 'base'; commit: string }
  /** The files of this run (a push, the CLI); `fallback` says why a pull request's base could not be read. */
  | { kind: 'workspace'; fallback?: string }

export interface RuleInForce {
  id: string
  severity: 'error' | 'warning'
  on: 'manifest' | 'plan'
  suppressible: boolean
  /** Where the rule is written: `observability/policy.yaml:7` (at the base commit, or this run's files), the pack, or the policy source. */
  from: string
}

export type RuleChangeVerb = 'removes' | 'weakens' | 'changes' | 'adds'

/** One rule the pull request changes, against the base commit's. */
export interface RuleChange {
  verb: RuleChangeVerb
  rule: string
  /** How, in fixed words: "severity error -> warning", "check changed", "kinds narrowed". */
  how: string[]
}

/** A suppression the pull request adds (one the base commit did not have). */
export interface AddedSuppression {
  rule: string
  kind: string
  name: string
  file: string
  line: number
}

export interface PolicyReview {
  from: RulesFrom
  /** The `policy-source` rules also in force, by where they were read (`acme/policies@main:org`). */
  central?: string
  rules: RuleInForce[]
  changes: RuleChange[]
  suppressions: AddedSuppression[]
}

/** Whether a review is worth a reader's attention in the heading (then the report is never ✅). */
export const reviewIsLoud = (r: PolicyReview | undefined): boolean =>
  r !== undefined &&
  (r.changes.length > 0 ||
    r.suppressions.length > 0 ||
    (r.from.kind === 'workspace' && r.from.fallback !== undefined))
