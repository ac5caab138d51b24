/**
 * Policy rules as the checks run them: each Policy document's rules validated and compiled for a stack (a
 * check that does not compile is an error at its place in the policy file), evaluated over a document, and a
 * failure reported as a finding at the resource, or as the rule's own error when it cannot be evaluated.
 */
import { diagnostic, type Diagnostic, type SourceLocation } from '../diagnostics.js'
import { maskEmail } from '../mask-email.js'
import { issuesToDiagnostics } from '../manifest/issues.js'
import { formatPath, type PathSegment } from '../manifest/path.js'
import type { ManifestKind } from '../manifest/vocabulary.js'
import type { ParsedDocument } from '../manifest/yaml.js'
import { compileCheck, type CelProgram, type CompileError } from './cel.js'
import type { DefinedRule } from './compare.js'
import { RECOMMENDED_RULES } from './recommended.js'
import { PolicySchema, type PolicyRule } from './schema.js'
import { WITHHELD } from './secret-text.js'
import { declarationsFor } from './shapes.js'
import type { Suppression } from './suppress.js'

export interface Rule extends PolicyRule {
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

/** A document the rules read: its kind, where it is, its value as written, and its suppressions. */
export interface PolicyDocument {
  kind: ManifestKind
  doc: ParsedDocument
  value: Record<string, unknown>
  suppressions: Suppression[]
}

/** A set of policies compiled for one stack. */
export interface Compiled {
  /** The rules that hold in the stack. */
  rules: Rule[]
  /** Every rule defined, by id, with whether it holds in the stack and where it is written. */
  defined: Map<string, DefinedRule & { from: string; at: SourceLocation }>
}

export function compilePolicies(
  docs: readonly ParsedDocument[],
  stack: string,
  found: Diagnostic[],
  /** PolicyDocuments whose own problems are reported elsewhere (once, not in each stack). */
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

/** The manifest rules over the documents: their findings, appended to `out` (which is returned). */
export function evaluateOver(
  rules: readonly Rule[],
  documents: readonly PolicyDocument[],
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

/**
 * Why a rule does not hold on a resource: its check was false (`reason` may say more), or it could not be
 * evaluated there (`error`): the resource lacks what it reads (`resource`), or the rule itself is at fault
 * (`rule`: over its cost budget, or a stack overflow), and then it is evaluated on no other resource of the run.
 */
export interface Failure {
  reason: string
  error?: 'resource' | 'rule'
}

/** A failure, its words withheld when they may quote a secret (secret-text.ts). */
export const withheld = (failure: Failure | undefined, printable: (text: string) => boolean) =>
  failure === undefined || printable(failure.reason) ? failure : { ...failure, reason: WITHHELD }

/** undefined when the rule holds. */
export function evaluate(rule: Rule, context: Record<string, unknown>): Failure | undefined {
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

export function report(
  out: Diagnostic[],
  rule: Rule,
  d: PolicyDocument,
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
export const ruleText = (rule: Rule, subject: string, failure: Failure) =>
  failure.error
    ? `policy rule "${rule.id}" cannot be evaluated on ${subject}: ${failure.reason} [policy ${rule.policy}]${failure.error === 'rule' ? '; it is evaluated on no other resource in this run' : ''}`
    : `${rule.message} [policy ${rule.policy}: ${rule.id}]${failure.reason ? ` (${failure.reason})` : ''}`

/** A resource as a finding names it: by its name; a person by a masked email, as the plan does (personal data). */
export const label = (d: Pick<PolicyDocument, 'kind' | 'value'>) =>
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
