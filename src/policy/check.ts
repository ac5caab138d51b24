/**
 * Policies: an organisation's rules, written in CEL in `kind: Policy` documents, checked over the
 * manifests in `validate` (offline, at the offending line) and over the plan in `plan` (rules with
 * `on: plan`, which see the change and the live totals). A finding is a diagnostic like any other, so
 * annotations, the report's heading and the exit code come with it; an error blocks `apply`. A resource
 * may be excused from a rule by a comment with a reason (suppressions.ts), which every report lists.
 *
 * Here the stages meet: which rules are in force (on a pull request, its base commit's: review.ts), the rules
 * compiled and evaluated (rules.ts), the suppressions honoured. Its results are values the run carries beside
 * the set (CheckedManifests): the set it is given is never changed, and nothing is kept here. It reads the
 * ManifestSet, the Plan's shape and the ownership tags, nothing later; loading is the run's (run/load.ts).
 */
import { diagnostic, sortDiagnostics, type Diagnostic } from '../diagnostics.js'
import { isOwnershipTag } from '../kinds/ownership.js'
import type { ManifestSet } from '../manifest/load.js'
import { MANIFEST_KINDS } from '../manifest/vocabulary.js'
import type { ParsedDocument } from '../manifest/yaml.js'
import type { Variables } from '../manifest/vars.js'
import type { PolicyReview } from '../plan/policy-review.js'
import { countChanges, type Change, type Plan } from '../plan/types.js'
import { loadCel } from './cel.js'
import { compareRules } from './compare.js'
import {
  asPreview,
  baseProblemsNotice,
  baseUnreadable,
  changeNotice,
  isAddedSuppression,
  readBase,
  reviewOf
} from './review.js'
import {
  compilePolicies,
  evaluate,
  evaluateOver,
  report,
  ruleText,
  withheld,
  type Failure,
  type PolicyDocument,
  type Rule
} from './rules.js'
import { secretFree } from './secret-text.js'
import type { EnforcedPolicies } from './sources.js'
import { withSuppressions } from './suppressions.js'

/**
 * What the plan-time rules need of a stack's policies: the run keeps it beside the stack's manifests and
 * hands it to checkPlanPolicies once the plan is made.
 */
export interface PlanPolicies {
  /** The plan-time rules in force. */
  rules: Rule[]
  /** The plan-time rules a pull request adds or changes: evaluated for a preview, never enforced. */
  preview: Rule[]
  documents: PolicyDocument[]
  /** Whether text a rule's evaluation produced may be printed (secret-text.ts). */
  printable: (text: string) => boolean
}

/** A stack's manifests once its policies are checked, and what the later stages need of the policies. */
export interface CheckedManifests {
  /**
   * The set as checked: its diagnostics with the policies' findings, and without the documents as written,
   * which have served the rules (a plan of thousands of manifests would keep them otherwise).
   */
  manifests: ManifestSet
  /** The plan-time rules in force or previewed, with what they read; absent when there is none. */
  planRules?: PlanPolicies
  /** The rules in force for the stack, where they came from, and what the change under review does to them. */
  review?: PolicyReview
}

export interface PolicyOptions {
  /** The stack the manifests are of: rules scoped to other stacks are skipped. */
  stack: string
  /**
   * Policy documents of the whole repository (with stacks: the files outside every stack's folder), which
   * hold in this stack too, before its own. Their own problems are reported once, where they are loaded.
   */
  repository?: readonly ParsedDocument[]
  /** The run's secret values: text a rule's evaluation produced that quotes one is withheld. */
  secrets?: readonly string[]
  /** Rules from places the pull request cannot change: its base commit, the `policy-source` input. */
  enforced?: EnforcedPolicies
  /** The variables the base commit's files are read with (the stack's, as its own files). */
  vars?: Variables
}

/**
 * The pull request's labels, for plan-time rules (`labels` in CEL): read by the entry points (on GitHub,
 * from the event or from the pull request that merged the commit; `--label` on the command line) and
 * passed down as data. `unknown` says why there are none to read: a rule that needs a label then fails,
 * which is the safe side, and its finding says why.
 */
export interface PullRequestLabels {
  names: readonly string[]
  unknown?: string
}

/** What a plan-time rule reads besides the change: gathered by the run from the event and the live state. */
export interface PlanPolicyInput {
  labels?: PullRequestLabels
  /**
   * check-queries' verdict on each alert it replayed, by alert name; undefined when it did not run
   * (`change.query.status` is then `unchecked`, and a rule that reads it says so once).
   */
  queries?: ReadonlyMap<string, { status: string; reason?: string }>
  /** Why queries are undefined, for that notice: "check-queries is off". */
  queriesUnchecked?: string
  /** Names of each kind's resources that other stacks manage, with those stacks (live and this run's). */
  elsewhere?: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>
}

/**
 * Validates the set's Policy documents and runs the manifest rules in force; the set it returns has their
 * findings among its diagnostics (`set` itself is left as it is). On a pull request whose base commit could
 * be read, the rules in force are the base's (and the policy source's): the pull request's own rules are
 * validated, compared with the base's, and those it adds or changes evaluated as a preview that never blocks
 * (README "Policies").
 */
export async function checkPolicies(set: ManifestSet, options: PolicyOptions): Promise<CheckedManifests> {
  const repository = options.repository ?? []
  const central = options.enforced?.central
  const base = options.enforced?.base
  const headDocs = [...repository, ...(set.policies ?? [])]
  const docs = set.documents ?? []
  const suppressionLines = set.suppressionLines ?? new Map<string, readonly string[]>()
  const served = { ...set, documents: undefined, suppressionLines: undefined }
  const snapshot = base && 'commit' in base ? base : undefined
  const read = snapshot ? readBase(snapshot, headDocs, options.vars ?? {}) : undefined
  const centralDocs = central?.documents ?? []
  if (headDocs.length === 0 && centralDocs.length === 0 && (read?.policies.length ?? 0) === 0) {
    // No rule anywhere this run can see. Whether the base had any is unknown: said, quietly (a repository
    // without policies would otherwise hear it on every pull request).
    const unknown = base && 'unavailable' in base ? [baseUnreadable(base.unavailable, false)] : []
    return { manifests: { ...served, diagnostics: [...set.diagnostics, ...unknown] } }
  }
  await loadCel()
  const out: Diagnostic[] = []
  // The pull request's rules (or the run's): always validated, so what merges is valid.
  const head = compilePolicies(
    [...centralDocs, ...headDocs],
    options.stack,
    out,
    new Set([...repository, ...centralDocs])
  )
  // The base commit's: their own problems are the base's, said once as one warning.
  const baseProblems: Diagnostic[] = [...(read?.problems ?? [])]
  const based = read
    ? compilePolicies([...centralDocs, ...read.policies], options.stack, baseProblems, new Set(centralDocs))
    : undefined
  if (baseProblems.length > 0) out.push(baseProblemsNotice(baseProblems))
  const inForce = based ?? head
  const changes = based ? compareRules(based.defined, head.defined) : []
  const previewIds = new Set(changes.filter(c => c.verb !== 'removes').map(c => c.rule))
  const preview = based ? head.rules.filter(r => previewIds.has(r.id)) : []
  const added = read ? isAddedSuppression(snapshot!, read.suppressions) : undefined
  const suppressed = withSuppressions(docs, suppressionLines, [...inForce.rules, ...preview], added, out)
  const printable = secretFree(options.secrets ?? [])
  evaluateOver(inForce.rules, suppressed.documents, printable, out)
  out.push(...asPreview(evaluateOver(preview, suppressed.documents, printable, [])))
  if (snapshot) for (const c of changes) out.push(changeNotice(c, snapshot, head, based!))
  if (base && 'unavailable' in base) out.push(baseUnreadable(base.unavailable, true))
  const review = reviewOf(base, central?.origin, inForce.rules, changes, suppressed.added)
  const planRules: PlanPolicies = {
    rules: inForce.rules.filter(r => r.on === 'plan'),
    preview: preview.filter(r => r.on === 'plan'),
    documents: suppressed.documents,
    printable
  }
  return {
    manifests: { ...served, diagnostics: sortDiagnostics([...set.diagnostics, ...out]) },
    ...(planRules.rules.length + planRules.preview.length > 0 ? { planRules } : {}),
    ...(review ? { review } : {})
  }
}

/** Whether a plan-time rule reads the pull request's labels (only then are they asked of GitHub). */
export const readsLabels = (planRules: PlanPolicies): boolean =>
  [...planRules.rules, ...planRules.preview].some(rule => rule.readsLabels)

/**
 * The plan-time rules of a stack's policies over its plan: each change of a kind the rule reads, with
 * `change` (kind, name, address, action, deferred, id; `tags`, the live resource's when it exists, else
 * the manifest's; `query`, check-queries' verdict on an alert), `plan` (the stack, counts of each action
 * and of each kind after the plan, `elsewhere`: names other stacks manage), `labels` (the pull request's)
 * and `resource` (the manifest as written, `{}` for a delete). `planned` gives each change's live record.
 */
export function checkPlanPolicies(
  found: PlanPolicies | undefined,
  plan: Plan,
  planned: ReadonlyArray<{ change: Change; live?: unknown }> = [],
  input: PlanPolicyInput = {}
): Diagnostic[] {
  if (!found || found.rules.length + found.preview.length === 0) return []
  const findings: Diagnostic[] = []
  // A change is of the manifest of its kind and name (names are unique per kind in a stack).
  const byName = new Map(found.documents.map(d => [`${d.kind}/${String(d.value.name)}`, d]))
  const liveOf = new Map(planned.map(p => [p.change, p.live]))
  const planValue = planValueOf(plan, input)
  const labels = [...(input.labels?.names ?? [])]
  const all = [
    ...found.rules.map(rule => ({ rule, preview: false })),
    ...found.preview.map(rule => ({ rule, preview: true }))
  ]
  for (const { rule, preview } of all) {
    const { readsLabels, readsQuery } = rule
    // A preview's findings (a rule the pull request adds or changes) are shown, never enforced.
    const out: Diagnostic[] = []
    let unchecked = 0
    for (const c of plan.changes) {
      if (rule.kinds && !rule.kinds.includes(c.kind)) continue
      const d = c.action === 'delete' ? undefined : byName.get(`${c.kind}/${c.name}`)
      const query = queryOf(c, input)
      if (readsQuery && !input.queries && c.action !== 'delete' && c.action !== 'noop') unchecked++
      const change = {
        kind: c.kind,
        name: c.name,
        address: c.address,
        action: c.action,
        deferred: c.deferred ?? '',
        id: c.id ?? '',
        tags: tagsOf(liveOf.get(c)) ?? tagsOf(d?.value) ?? [],
        query
      }
      const failure = withheld(
        evaluate(rule, { resource: d?.value ?? {}, change, plan: planValue, labels }),
        found.printable
      )
      if (failure === undefined) continue
      if (readsLabels && input.labels?.unknown && !failure.error)
        failure.reason = [failure.reason, `no labels to read: ${input.labels.unknown}`]
          .filter(Boolean)
          .join('; ')
      if (d) report(out, rule, d, failure, 'plan')
      else out.push(unplacedFinding(rule, c, failure))
      if (failure.error === 'rule') break
    }
    if (unchecked > 0)
      out.push(
        diagnostic(
          'plan',
          'notice',
          `policy rule "${rule.id}" reads the query data of ${unchecked} changed resource(s), which this run could not check (${input.queriesUnchecked ?? 'check-queries did not query them'}) [policy ${rule.policy}]`
        )
      )
    findings.push(...(preview ? asPreview(out) : out))
  }
  return findings
}

/**
 * What `plan` holds for a rule: the stack, the counts of each action and of each kind after the plan (a
 * deferred delete keeps its resource), and the names other stacks manage.
 */
function planValueOf(plan: Plan, input: PlanPolicyInput) {
  const after: Record<string, number> = Object.fromEntries(MANIFEST_KINDS.map(k => [k, 0]))
  for (const c of plan.changes)
    if (c.action !== 'delete' || c.deferred) after[c.kind] = (after[c.kind] ?? 0) + 1
  const elsewhere: Record<string, Readonly<Record<string, readonly string[]>>> = Object.fromEntries(
    MANIFEST_KINDS.map(k => [k, input.elsewhere?.[k] ?? {}])
  )
  return { stack: plan.stack, counts: { ...countChanges(plan.changes) }, after, elsewhere }
}

/** A rule's finding on a change without a manifest to point at (a delete): at the rule when the rule failed. */
function unplacedFinding(rule: Rule, c: Change, failure: Failure): Diagnostic {
  if (failure.error)
    return diagnostic(
      'plan',
      'error',
      ruleText(rule, `${c.kind} "${c.name}" (${c.action})`, failure),
      failure.error === 'rule' ? rule.checkAt : undefined
    )
  return diagnostic(
    'plan',
    rule.severity,
    `${c.kind} "${c.name}" (${c.action}): ${ruleText(rule, '', failure)}`
  )
}

/** check-queries' verdict on an alert's query: `unchecked` when it did not run or did not replay this one. */
function queryOf(c: Change, input: PlanPolicyInput): { status: string; reason: string } {
  if (c.kind !== 'Alert' || !input.queries) return { status: 'unchecked', reason: '' }
  const found = input.queries.get(c.name)
  return found ? { status: found.status, reason: found.reason ?? '' } : { status: 'unchecked', reason: '' }
}

/** A record's tags as the user writes them: without the stacks' ownership tags, which the manifests never hold. */
const tagsOf = (record: unknown): string[] | undefined => {
  const tags = (record as { tags?: unknown } | undefined)?.tags
  return Array.isArray(tags)
    ? tags.filter((t): t is string => typeof t === 'string' && !isOwnershipTag(t))
    : undefined
}
