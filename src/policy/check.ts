/**
 * Policies: an organisation's rules, written in CEL in `kind: Policy` documents, checked over the
 * manifests in `validate` (offline, at the offending line) and over the plan in `plan` (rules with
 * `on: plan`, which see the change and the live totals). A finding is a diagnostic like any other, so
 * annotations, the report's heading and the exit code come with it; an error blocks `apply`. A resource
 * may be excused from a rule by a comment with a reason (suppress.ts), which every report lists.
 *
 * Between manifest and plan in the import order: it reads the ManifestSet and the Plan's shape, nothing later.
 */
import {
  diagnostic,
  formatDiagnostic,
  sortDiagnostics,
  type Diagnostic,
  type SourceLocation
} from '../diagnostics.js'
import { isOwnershipTag } from '../kinds/ownership.js'
import { maskEmail } from '../mask-email.js'
import { issuesToDiagnostics } from '../manifest/issues.js'
import { loadManifests, type LoadOptions, type ManifestSet } from '../manifest/load.js'
import { formatPath, type PathSegment } from '../manifest/path.js'
import { MANIFEST_KINDS, type ManifestKind } from '../manifest/vocabulary.js'
import type { ParsedDocument } from '../manifest/yaml.js'
import type { Variables } from '../manifest/vars.js'
import type { AddedSuppression, PolicyReview, RuleChange } from '../plan/policy-review.js'
import { countChanges, type Change, type Plan } from '../plan/types.js'
import { compileCheck, loadCel, type CelProgram, type CompileError } from './cel.js'
import { compareRules, type DefinedRule } from './compare.js'
import { RECOMMENDED_RULES } from './recommended.js'
import { PolicySchema, type PolicyRule } from './schema.js'
import { secretFree, WITHHELD } from './secret-text.js'
import { declarationsFor } from './shapes.js'
import {
  parseBaseFile,
  resourceKey,
  suppressionKey,
  type BaseFiles,
  type EnforcedPolicies
} from './sources.js'
import { suppressionsAt, type Suppression } from './suppress.js'

interface Rule extends PolicyRule {
  program: CelProgram
  /** The Policy document that turns it on. */
  policy: string
  /** Where it is written (`observability/policy.yaml:7`), for the list of rules in force. */
  from: string
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

/** What the plan-time rules and the report need of a stack's policies: kept beside the set, never in it. */
interface Checked {
  /** The plan-time rules in force. */
  rules: Rule[]
  /** The plan-time rules a pull request adds or changes: evaluated for a preview, never enforced. */
  preview: Rule[]
  documents: Document[]
  /** Whether text a rule's evaluation produced may be printed (secret-text.ts). */
  printable: (text: string) => boolean
  review?: PolicyReview
}

const checked = new WeakMap<ManifestSet, Checked>()

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

/** loadManifests, then the policies the manifests hold (and the repository's, `repository`). */
export async function loadWithPolicies(
  options: LoadOptions & {
    stack: string
    repository?: readonly ParsedDocument[]
    /** Read while the manifests load (a request to GitHub on a pull request). */
    enforced?: Promise<EnforcedPolicies | undefined>
  }
): Promise<ManifestSet> {
  const repository = options.repository ?? []
  // A base commit or a policy source may hold rules where these files hold none: keep what rules read.
  const set = await loadManifests({
    ...options,
    keepDocuments: repository.length > 0 || options.enforced !== undefined
  })
  await checkPolicies(set, {
    stack: options.stack,
    repository,
    secrets: Object.values(options.secrets ?? {}),
    enforced: await options.enforced,
    vars: options.vars
  })
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

/**
 * Validates the set's Policy documents and runs the manifest rules in force; adds the findings to its
 * diagnostics. On a pull request whose base commit could be read, the rules in force are the base's (and the
 * policy source's): the pull request's own rules are validated, compared with the base's, and those it adds
 * or changes evaluated as a preview that never blocks (README "Policies").
 */
export async function checkPolicies(set: ManifestSet, options: PolicyOptions): Promise<void> {
  const repository = options.repository ?? []
  const central = options.enforced?.central
  const base = options.enforced?.base
  const headDocs = [...repository, ...(set.policies ?? [])]
  const docs = set.documents ?? []
  const suppressionLines = set.suppressionLines ?? new Map<string, readonly string[]>()
  set.documents = undefined
  set.suppressionLines = undefined
  const snapshot = base && 'commit' in base ? base : undefined
  const read = snapshot ? readBase(snapshot, headDocs, options.vars ?? {}) : undefined
  const centralDocs = central?.documents ?? []
  if (headDocs.length === 0 && centralDocs.length === 0 && (read?.policies.length ?? 0) === 0) {
    // No rule anywhere this run can see. Whether the base had any is unknown: said, quietly (a repository
    // without policies would otherwise hear it on every pull request).
    if (base && 'unavailable' in base)
      set.diagnostics.push(
        diagnostic(
          'validate',
          'notice',
          `the pull request's base commit could not be read (${base.unavailable}): should it hold policy files, this pull request is not checked against them`
        )
      )
    return
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
  const baseProblems: Diagnostic[] = []
  const based = read
    ? compilePolicies([...centralDocs, ...read.policies], options.stack, baseProblems, new Set(centralDocs))
    : undefined
  if (based && baseProblems.length > 0)
    out.push(
      diagnostic(
        'validate',
        'warning',
        `the base commit's policies have problems, so some of its rules are not in force: ${baseProblems
          .slice(0, 3)
          .map(d => formatDiagnostic(d))
          .join('; ')}`
      )
    )
  const inForce = based ?? head
  const changes = based ? compareRules(based.defined, head.defined) : []
  const previewIds = new Set(changes.filter(c => c.verb !== 'removes').map(c => c.rule))
  const preview = based ? head.rules.filter(r => previewIds.has(r.id)) : []
  const added = read ? isAddedSuppression(snapshot!, read.suppressions) : undefined
  const suppressed = withSuppressions(docs, suppressionLines, [...inForce.rules, ...preview], added, out)
  const printable = secretFree(options.secrets ?? [])
  evaluateOver(inForce.rules, suppressed.documents, printable, out)
  out.push(...asPreview(evaluateOver(preview, suppressed.documents, printable, [])))
  for (const c of changes) out.push(changeNotice(c, snapshot!, head, based!))
  const review: PolicyReview = {
    from: snapshot
      ? { kind: 'base', commit: snapshot.commit }
      : base && 'unavailable' in base
        ? { kind: 'workspace', fallback: base.unavailable }
        : { kind: 'workspace' },
    ...(central ? { central: central.origin } : {}),
    rules: inForce.rules.map(r => ({
      id: r.id,
      severity: r.severity,
      on: r.on ?? 'manifest',
      suppressible: r.suppressible !== false,
      from: r.from
    })),
    changes,
    suppressions: suppressed.added
  }
  if (base && 'unavailable' in base)
    out.push(
      diagnostic(
        'validate',
        'warning',
        `the rules of the pull request's base commit could not be read (${base.unavailable}), so this pull request's own policy files are obeyed: a change it makes to them is not caught`
      )
    )
  checked.set(set, {
    rules: inForce.rules.filter(r => r.on === 'plan'),
    preview: preview.filter(r => r.on === 'plan'),
    documents: suppressed.documents,
    printable,
    review
  })
  set.diagnostics = sortDiagnostics([...set.diagnostics, ...out])
}

/** The manifest rules over the documents: their findings, appended to `out` (which is returned). */
function evaluateOver(
  rules: readonly Rule[],
  documents: readonly Document[],
  printable: (text: string) => boolean,
  out: Diagnostic[]
): Diagnostic[] {
  for (const rule of rules) {
    if (rule.on === 'plan') continue
    for (const d of documents) {
      if (rule.kinds && !rule.kinds.includes(d.kind)) continue
      const failure = withheld(evaluate(rule, { resource: d.value }), printable)
      if (failure === undefined) continue
      report(out, rule, d, failure, 'validate')
      if (failure.error === 'rule') break
    }
  }
  return out
}

/** A preview's findings: shown, never enforced. */
const asPreview = (found: readonly Diagnostic[]): Diagnostic[] =>
  found.map(d => ({
    ...d,
    severity: 'notice',
    message: `preview of a rule this pull request adds or changes (not enforced until merged): ${d.message}`
  }))

/** The base commit's policies and suppressions: its files that differ from this run's, and the same ones. */
function readBase(
  base: BaseFiles,
  headDocs: readonly ParsedDocument[],
  vars: Variables
): { policies: ParsedDocument[]; suppressions: Set<string> } {
  const policies = headDocs.filter(d => base.unchanged.has(d.file))
  const suppressions = new Set<string>()
  for (const file of base.differing) {
    const parsed = parseBaseFile(file, vars)
    policies.push(...parsed.policies)
    for (const key of parsed.suppressions) suppressions.add(key)
  }
  return { policies, suppressions }
}

/** Whether a suppression is new in the pull request: its file differs from the base's, which lacked it. */
const isAddedSuppression =
  (base: BaseFiles, atBase: ReadonlySet<string>) =>
  (file: string, key: string): boolean =>
    !base.unchanged.has(file) && !atBase.has(key)

/** A rule the pull request changes, as a warning at the rule (or, removed, where the base had it). */
function changeNotice(c: RuleChange, base: BaseFiles, head: Compiled, based: Compiled): Diagnostic {
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

/** Whether the stack's policies have rules over the plan (a plan applied as recorded would skip them). */
export const hasPlanPolicies = (set: ManifestSet): boolean => {
  const found = checked.get(set)
  return found !== undefined && found.rules.length + found.preview.length > 0
}

/** Whether a plan-time rule of the set reads the pull request's labels (only then are they asked of GitHub). */
export const readsLabels = (set: ManifestSet): boolean => {
  const found = checked.get(set)
  return [...(found?.rules ?? []), ...(found?.preview ?? [])].some(rule => rule.readsLabels)
}

/** The rules in force for the stack, where they came from, and what the change under review does to them. */
export const policyReviewOf = (set: ManifestSet): PolicyReview | undefined => checked.get(set)?.review

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
  const found = checked.get(set)
  if (!found || found.rules.length + found.preview.length === 0) return []
  const findings: Diagnostic[] = []
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
    findings.push(...(preview ? asPreview(out) : out))
  }
  return findings
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

/** A set of policies compiled for one stack. */
interface Compiled {
  /** The rules that hold in the stack. */
  rules: Rule[]
  /** Every rule defined, by id, with whether it holds in the stack and where it is written. */
  defined: Map<string, DefinedRule & { from: string; at: SourceLocation }>
}

function compilePolicies(
  docs: readonly ParsedDocument[],
  stack: string,
  found: Diagnostic[],
  /** Documents whose own problems are reported elsewhere (once, not in each stack). */
  quiet: ReadonlySet<ParsedDocument> = new Set()
): Compiled {
  const rules: Rule[] = []
  const defined: Compiled['defined'] = new Map()
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
      const applies = !rule.stacks || rule.stacks.includes(stack)
      defined.set(rule.id, { rule, applies, from: where, at: doc.locate(at) })
      if (!applies) continue
      rules.push({
        ...rule,
        program,
        policy: policy.name,
        from: where,
        readsLabels: /\blabels\b/.test(rule.check),
        readsQuery: /\bchange\.query\b/.test(rule.check),
        checkAt: { ...doc.locate([...at, 'check']), field: formatPath([...at, 'check']) }
      })
    }
  }
  return { rules, defined }
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
 * validated); a malformed one, one without a reason, of an unknown rule or of a rule that may not be
 * suppressed is reported. Each one is listed, so the exception is reviewed with the change; one the pull
 * request adds (`added`, with a base commit) is a warning, and the report's heading names it.
 */
function withSuppressions(
  docs: NonNullable<ManifestSet['documents']>,
  lines: ReadonlyMap<string, readonly string[]>,
  rules: readonly Rule[],
  added: ((file: string, key: string) => boolean) | undefined,
  out: Diagnostic[]
): { documents: Document[]; added: AddedSuppression[] } {
  const byId = new Map(rules.map(r => [r.id, r]))
  const result: Document[] = []
  const adds: AddedSuppression[] = []
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
        continue
      }
      if (!s.reason) {
        out.push(
          diagnostic(
            'validate',
            'error',
            `the suppression of policy rule "${s.rule}" has no reason: write \`# obsdeploy: allow ${s.rule} -- <why>\``,
            at
          )
        )
        continue
      }
      const rule = byId.get(s.rule)
      if (!rule) {
        out.push(diagnostic('validate', 'warning', `no policy rule "${s.rule}" to suppress here`, at))
        continue
      }
      if (rule.suppressible === false) {
        out.push(
          diagnostic(
            'validate',
            'error',
            `policy rule "${s.rule}" cannot be suppressed (suppressible: false in ${rule.from}): remove this comment and make ${d.kind} ${label(d)} meet the rule`,
            at
          )
        )
        continue
      }
      suppressions.push(s)
      const key = resourceKey(d.kind, d.value)
      const isNew =
        added !== undefined && key !== undefined && added(d.doc.file, suppressionKey(d.kind, key, s.rule))
      if (isNew) adds.push({ rule: s.rule, kind: d.kind, name: label(d), file: at.file, line: at.line })
      out.push(
        diagnostic(
          'validate',
          isNew ? 'warning' : 'notice',
          `${isNew ? 'this pull request adds a suppression: ' : ''}policy rule "${s.rule}" is suppressed for ${d.kind} ${label(d)}: ${s.reason}`,
          at
        )
      )
    }
    result.push({ ...d, suppressions })
  }
  return { documents: result, added: adds }
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

/** A failure, its words withheld when they may quote a secret (secret-text.ts). */
const withheld = (failure: Failure | undefined, printable: (text: string) => boolean) =>
  failure === undefined || printable(failure.reason) ? failure : { ...failure, reason: WITHHELD }

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
