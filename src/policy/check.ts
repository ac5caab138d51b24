/**
 * Policies: an organisation's rules, written in CEL in `kind: Policy` documents, checked over the
 * manifests in `validate` (offline, at the offending line) and over the plan in `plan` (rules with
 * `on: plan`, which see the change and the live totals). A finding is a diagnostic like any other, so
 * annotations, the report's heading and the exit code come with it; an error blocks `apply`. A resource
 * may be excused from a rule by a comment with a reason (suppress.ts), which every report lists.
 *
 * Between manifest and plan in the import order: it reads the ManifestSet and the Plan's shape, nothing later.
 */
import { diagnostic, sortDiagnostics, type Diagnostic, type SourceLocation } from '../diagnostics.js'
import { isOwnershipTag } from '../kinds/ownership.js'
import { maskEmail } from '../mask-email.js'
import { issuesToDiagnostics } from '../manifest/issues.js'
import { loadManifests, type LoadOptions, type ManifestSet } from '../manifest/load.js'
import { formatPath, type PathSegment } from '../manifest/path.js'
import { MANIFEST_KINDS, type ManifestKind } from '../manifest/vocabulary.js'
import type { ParsedDocument } from '../manifest/yaml.js'
import { countChanges, type Change, type Plan } from '../plan/types.js'
import { compileCheck, loadCel, type CelProgram, type CompileError } from './cel.js'
import { RECOMMENDED_RULES } from './recommended.js'
import { PolicySchema, type PolicyRule } from './schema.js'
import { declarationsFor } from './shapes.js'
import { suppressionsAt, type Suppression } from './suppress.js'

interface Rule extends PolicyRule {
  program: CelProgram
  /** The Policy document that turns it on. */
  policy: string
  /** What the check reads besides the resource and the change (told once, when the rule is compiled). */
  readsLabels: boolean
  readsQuery: boolean
  /** Where its check is written: an error of the rule itself (over its cost budget, too deep) points there. */
  checkAt: SourceLocation & { field: string }
}

interface Document {
  kind: ManifestKind
  doc: ParsedDocument
  value: Record<string, unknown>
  suppressions: Suppression[]
}

/** What the plan-time rules need of a stack's manifests: kept beside the set, never in it. */
interface PlanTime {
  rules: Rule[]
  documents: Document[]
}

const planTime = new WeakMap<ManifestSet, PlanTime>()

export interface PolicyOptions {
  /** The stack the manifests are of: rules scoped to other stacks are skipped. */
  stack: string
  /**
   * Policy documents of the whole repository (with stacks: the files outside every stack's folder), which
   * hold in this stack too, before its own. Their own problems are reported once, where they are loaded.
   */
  repository?: readonly ParsedDocument[]
}

/** loadManifests, then the policies the manifests hold (and the repository's, `repository`). */
export async function loadWithPolicies(
  options: LoadOptions & { stack: string; repository?: readonly ParsedDocument[] }
): Promise<ManifestSet> {
  const repository = options.repository ?? []
  const set = await loadManifests({ ...options, keepDocuments: repository.length > 0 })
  await checkPolicies(set, { stack: options.stack, repository })
  return set
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

/** Validates the set's Policy documents and runs their manifest rules; adds the findings to its diagnostics. */
export async function checkPolicies(set: ManifestSet, options: PolicyOptions): Promise<void> {
  const repository = options.repository ?? []
  const policyDocs = [...repository, ...(set.policies ?? [])]
  const docs = set.documents ?? []
  const suppressionLines = set.suppressionLines ?? new Map<string, readonly string[]>()
  set.documents = undefined
  set.suppressionLines = undefined
  if (policyDocs.length === 0) return
  await loadCel()
  const out: Diagnostic[] = []
  const { rules, known } = compilePolicies(policyDocs, options.stack, out, new Set(repository))
  const documents = withSuppressions(docs, suppressionLines, known, out)
  for (const rule of rules) {
    if (rule.on === 'plan') continue
    for (const d of documents) {
      if (rule.kinds && !rule.kinds.includes(d.kind)) continue
      const failure = evaluate(rule, { resource: d.value })
      if (failure === undefined) continue
      report(out, rule, d, failure, 'validate')
      if (failure.error === 'rule') break
    }
  }
  const planRules = rules.filter(r => r.on === 'plan')
  if (planRules.length > 0) planTime.set(set, { rules: planRules, documents })
  set.diagnostics = sortDiagnostics([...set.diagnostics, ...out])
}

/** Whether the stack's policies have rules over the plan (a plan applied as recorded would skip them). */
export const hasPlanPolicies = (set: ManifestSet): boolean => planTime.has(set)

/** Whether a plan-time rule of the set reads the pull request's labels (only then are they asked of GitHub). */
export const readsLabels = (set: ManifestSet): boolean =>
  planTime.get(set)?.rules.some(rule => rule.readsLabels) ?? false

/**
 * The plan-time rules of a stack's policies over its plan: each change of a kind the rule reads, with
 * `change` (kind, name, address, action, deferred, id; `tags`, the live resource's when it exists, else
 * the manifest's; `query`, check-queries' verdict on an alert), `plan` (the stack, counts of each action
 * and of each kind after the plan, `elsewhere`: names other stacks manage), `labels` (the pull request's)
 * and `resource` (the manifest as written, `{}` for a delete). `planned` gives each change's live record.
 */
export function checkPlanPolicies(
  set: ManifestSet,
  plan: Plan,
  planned: ReadonlyArray<{ change: Change; live?: unknown }> = [],
  input: PlanPolicyInput = {}
): Diagnostic[] {
  const found = planTime.get(set)
  if (!found) return []
  const out: Diagnostic[] = []
  // A change is of the manifest of its kind and name (names are unique per kind in a stack).
  const byName = new Map(found.documents.map(d => [`${d.kind}/${String(d.value.name)}`, d]))
  const liveOf = new Map(planned.map(p => [p.change, p.live]))
  const after: Record<string, number> = Object.fromEntries(MANIFEST_KINDS.map(k => [k, 0]))
  for (const c of plan.changes)
    if (c.action !== 'delete' || c.deferred) after[c.kind] = (after[c.kind] ?? 0) + 1
  const elsewhere: Record<string, Readonly<Record<string, readonly string[]>>> = Object.fromEntries(
    MANIFEST_KINDS.map(k => [k, input.elsewhere?.[k] ?? {}])
  )
  const planValue = { stack: plan.stack, counts: { ...countChanges(plan.changes) }, after, elsewhere }
  const labels = [...(input.labels?.names ?? [])]
  for (const rule of found.rules) {
    const { readsLabels, readsQuery } = rule
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
      const failure = evaluate(rule, { resource: d?.value ?? {}, change, plan: planValue, labels })
      if (failure === undefined) continue
      if (readsLabels && input.labels?.unknown && !failure.error)
        failure.reason = [failure.reason, `no labels to read: ${input.labels.unknown}`]
          .filter(Boolean)
          .join('; ')
      if (d) report(out, rule, d, failure, 'plan')
      else if (failure.error)
        out.push(
          diagnostic(
            'plan',
            'error',
            ruleText(rule, `${c.kind} "${c.name}" (${c.action})`, failure),
            failure.error === 'rule' ? rule.checkAt : undefined
          )
        )
      else
        out.push(
          diagnostic(
            'plan',
            rule.severity,
            `${c.kind} "${c.name}" (${c.action}): ${ruleText(rule, '', failure)}`
          )
        )
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
  }
  return out
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

function compilePolicies(
  docs: readonly ParsedDocument[],
  stack: string,
  found: Diagnostic[],
  /** Documents whose own problems are reported elsewhere (once, not in each stack). */
  quiet: ReadonlySet<ParsedDocument> = new Set()
): { rules: Rule[]; known: Set<string> } {
  const rules: Rule[] = []
  const seen = new Map<string, string>()
  let packOn = false
  for (const doc of docs) {
    const out = quiet.has(doc) ? [] : found
    const parsed = PolicySchema.safeParse(doc.value, { reportInput: true })
    if (!parsed.success) {
      out.push(...issuesToDiagnostics(parsed.error.issues, doc, PolicySchema))
      continue
    }
    const policy = parsed.data
    const own = (policy.rules ?? []).map((rule, i) => ({ rule, at: ['rules', i] as PathSegment[] }))
    // The pack turned on twice (by the repository's policy and a stack's) is the same pack: once.
    const pack =
      policy.recommended && !packOn ? RECOMMENDED_RULES.map(rule => ({ rule, at: ['recommended'] })) : []
    packOn ||= policy.recommended === true
    for (const { rule, at } of [...pack, ...own]) {
      const where = `${doc.file}:${doc.locate(at).line}`
      const twice = seen.get(rule.id)
      if (twice !== undefined) {
        out.push(
          diagnostic('validate', 'error', `duplicate policy rule id "${rule.id}" (also at ${twice})`, {
            ...doc.locate([...at, 'id']),
            field: formatPath([...at, 'id'])
          })
        )
        continue
      }
      seen.set(rule.id, where)
      // Checked against the declared shapes of what it reads, whatever its severity and scope: a rule that
      // cannot be evaluated is an error now, not a finding on every resource later.
      const program = compileCheck(rule.check, declarationsFor(rule.kinds, rule.on === 'plan'))
      if ('error' in program) {
        out.push(checkError(doc, at, rule, program))
        continue
      }
      if (rule.stacks && !rule.stacks.includes(stack)) continue
      rules.push({
        ...rule,
        program,
        policy: policy.name,
        readsLabels: /\blabels\b/.test(rule.check),
        readsQuery: /\bchange\.query\b/.test(rule.check),
        checkAt: { ...doc.locate([...at, 'check']), field: formatPath([...at, 'check']) }
      })
    }
  }
  return { rules, known: new Set(seen.keys()) }
}

/**
 * A check that does not compile, at its place in the policy file: the line and column of the offending
 * part of the expression (in a block scalar too), else the check's start and the column in the check.
 */
function checkError(
  doc: ParsedDocument,
  at: PathSegment[],
  rule: PolicyRule,
  found: CompileError
): Diagnostic {
  const path = [...at, 'check']
  const exact =
    found.offset !== undefined && at[0] === 'rules' ? doc.locateIn(path, rule.check, found.offset) : undefined
  const column = found.offset !== undefined && !exact ? ` (column ${found.offset + 1} of the check)` : ''
  return diagnostic(
    'validate',
    'error',
    `policy rule "${rule.id}": the check does not compile: ${found.error}${column}`,
    {
      ...(exact ?? doc.locate(path)),
      field: formatPath(path)
    }
  )
}

/**
 * Each document's suppressions, from the lines the loader kept of each file that mentions one (the text it
 * validated); a malformed one, one without a reason or of an unknown rule is reported.
 */
function withSuppressions(
  docs: NonNullable<ManifestSet['documents']>,
  lines: ReadonlyMap<string, readonly string[]>,
  known: ReadonlySet<string>,
  out: Diagnostic[]
): Document[] {
  const result: Document[] = []
  for (const d of docs) {
    const text = lines.get(d.doc.file)
    const suppressions: Suppression[] = []
    // A document's start asks for the file's positions (a second parse): only files with a suppression need it.
    const found = text ? suppressionsAt(text, d.doc.start.line) : []
    for (const s of found) {
      const at = { file: d.doc.file, line: s.line, column: s.column }
      if ('malformed' in s) {
        out.push(
          diagnostic(
            'validate',
            'error',
            'a suppression is written `# obsdeploy: allow <rule-id> -- <reason>`',
            at
          )
        )
      } else if (!s.reason) {
        out.push(
          diagnostic(
            'validate',
            'error',
            `the suppression of policy rule "${s.rule}" has no reason: write \`# obsdeploy: allow ${s.rule} -- <why>\``,
            at
          )
        )
      } else if (!known.has(s.rule)) {
        out.push(diagnostic('validate', 'warning', `no policy rule "${s.rule}" to suppress here`, at))
      } else {
        suppressions.push(s)
        // Listed in every report, so the exception is reviewed with the change.
        out.push(
          diagnostic(
            'validate',
            'notice',
            `policy rule "${s.rule}" is suppressed for ${d.kind} ${label(d)}: ${s.reason}`,
            at
          )
        )
      }
    }
    result.push({ ...d, suppressions })
  }
  return result
}

/**
 * Why a rule does not hold on a resource: its check was false (`reason` may say more), or it could not be
 * evaluated there (`error`): the resource lacks what it reads (`resource`), or the rule itself is at fault
 * (`rule`: over its cost budget, or a stack overflow), and then it is evaluated on no other resource of the run.
 */
interface Failure {
  reason: string
  error?: 'resource' | 'rule'
}

/** undefined when the rule holds. */
function evaluate(rule: Rule, context: Record<string, unknown>): Failure | undefined {
  const result = rule.program(context)
  if ('error' in result) return { reason: result.error, error: result.limit ? 'rule' : 'resource' }
  if (result.value === true) return undefined
  if (result.value === false) return { reason: '' }
  return { reason: `the check gave ${celTypeOf(result.value)}, not a bool`, error: 'resource' }
}

const celTypeOf = (v: unknown) =>
  typeof v === 'number'
    ? 'a double'
    : typeof v === 'bigint'
      ? 'an int'
      : Array.isArray(v)
        ? 'a list'
        : `a ${typeof v}`

function report(
  out: Diagnostic[],
  rule: Rule,
  d: Document,
  failure: Failure,
  stage: 'validate' | 'plan'
): void {
  // A rule at fault is reported even where it is suppressed: it is not evaluated on the resources after.
  if (failure.error !== 'rule' && d.suppressions.some(s => s.rule === rule.id)) return
  if (failure.error === 'rule') {
    out.push(diagnostic(stage, 'error', ruleText(rule, `${d.kind} ${label(d)}`, failure), rule.checkAt))
    return
  }
  const field = rule.field ? parseField(rule.field) : undefined
  const at = field ? d.doc.locate(field) : d.doc.start
  const severity = failure.error ? 'error' : rule.severity
  const text = failure.error
    ? ruleText(rule, `${d.kind} ${label(d)}`, failure)
    : `${d.kind} ${label(d)}: ${ruleText(rule, '', failure)}`
  out.push(diagnostic(stage, severity, text, { ...at, ...(rule.field ? { field: rule.field } : {}) }))
}

/**
 * A finding's text: the rule's message, then the rule (and what more the check's failure says); a rule
 * that cannot be evaluated on `subject` says so with the reason first, whatever its message.
 */
const ruleText = (rule: Rule, subject: string, failure: Failure) =>
  failure.error
    ? `policy rule "${rule.id}" cannot be evaluated on ${subject}: ${failure.reason} [policy ${rule.policy}]${failure.error === 'rule' ? '; it is evaluated on no other resource in this run' : ''}`
    : `${rule.message} [policy ${rule.policy}: ${rule.id}]${failure.reason ? ` (${failure.reason})` : ''}`

/** A resource as a finding names it: by its name; a person by a masked email, as the plan does (personal data). */
const label = (d: Pick<Document, 'kind' | 'value'>) =>
  d.kind === 'TeamMember' && typeof d.value.email === 'string'
    ? maskEmail(d.value.email)
    : typeof d.value.name === 'string'
      ? `"${d.value.name}"`
      : '(unnamed)'

/** `tiles[0].name` -> ['tiles', 0, 'name']. */
export function parseField(field: string): PathSegment[] {
  const out: PathSegment[] = []
  for (const part of field.split('.'))
    for (const m of part.matchAll(/([^[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]!)
  return out
}
