/**
 * The report as facts, computed once for every format: the title, the verdict, the counts, what is
 * deferred, which diagnostics and in what order, what is destructive and what drifted. The facts hold
 * no markup; untrusted text (names, the gate's reason) stays apart, so each renderer escapes it its way.
 */
import type { ApplyOutcome } from '../apply/types.js'
import type { RunCommand } from '../config/types.js'
import { sortDiagnostics, type Diagnostic, type Severity } from '../diagnostics.js'
import {
  countChanges,
  isActionable,
  RESOURCE_KINDS,
  type Change,
  type PlanCounts,
  type ResourceKind
} from '../plan/types.js'
import type { ReportInput } from './input.js'
import { TITLES, verdictOf, type Verdict } from './verdict.js'
import { plural } from './wording.js'

/** A change with the words that say what happens to it. */
export interface PhrasedChange {
  change: Change
  phrase: string
}

export interface ReportModel {
  input: ReportInput
  /** "Plan", "Apply", "Drift", "Validation". */
  title: string
  /** The API the run talked to: the mode, and in managed mode the path prefix it used. */
  api: string
  verdict: Verdict
  /** Diagnostics of all stages and of the plan, each once, errors before warnings before notices. */
  diagnostics: Diagnostic[]
  severities: Record<Severity, number>
  changes: readonly Change[]
  /** When there is a plan. */
  counts?: { byKind: Record<ResourceKind, PlanCounts>; total: PlanCounts }
  /**
   * What the plan shows but this run does not apply, in fixed words; `because` is the gate's reason
   * (untrusted text, for the renderer to escape).
   */
  deferred: Array<{ text: string; because?: string }>
  /** Deletes and replaces this run makes, and the sentence that announces them (not for drift or validate). */
  destructive: { sentence: string; changes: PhrasedChange[] }
  /** drift: what differs, and how. */
  drifted: PhrasedChange[]
  /** The changes by section: carried out, left for prune, waiting for a release. */
  groups: { actionable: Change[]; prune: Change[]; release: Change[] }
  /** Apply outcomes by change address. */
  outcomes: Map<string, ApplyOutcome>
}

export function reportModel(input: ReportInput): ReportModel {
  const diagnostics = reportDiagnostics(input)
  const changes = input.plan?.changes ?? []
  const destructive =
    input.command === 'drift' || input.command === 'validate'
      ? []
      : changes
          .filter(isDestructive)
          .map(change => ({ change, phrase: destructivePhrase(change, input.command) }))
  return {
    input,
    title: TITLES[input.command],
    api: input.plan?.managedPrefix ? `${input.mode}, prefix ${input.plan.managedPrefix}` : input.mode,
    verdict: verdictOf(input, diagnostics),
    diagnostics,
    severities: severityCounts(diagnostics),
    changes,
    counts: input.plan ? { byKind: countsByKind(changes), total: countChanges(changes) } : undefined,
    deferred: input.plan ? deferredParts(input, changes) : [],
    destructive: {
      sentence: `${input.command === 'apply' ? 'this run' : 'this plan'} deletes or replaces ${plural(destructive.length, 'resource')}`,
      changes: destructive
    },
    drifted:
      input.command === 'drift'
        ? changes.filter(c => c.action !== 'noop').map(change => ({ change, phrase: driftPhrase(change) }))
        : [],
    groups: {
      actionable: changes.filter(isActionable),
      prune: changes.filter(c => c.deferred === 'prune'),
      release: changes.filter(c => c.deferred === 'release')
    },
    outcomes: new Map((input.apply?.outcomes ?? []).map(o => [o.address, o]))
  }
}

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, notice: 2 }

function reportDiagnostics(input: ReportInput): Diagnostic[] {
  const seen = new Set<string>()
  const unique: Diagnostic[] = []
  for (const d of [...input.diagnostics, ...(input.plan?.diagnostics ?? [])]) {
    // The same problem found by validation and again by the plan is one problem: the stage is not part of the key.
    const key = [d.severity, d.file, d.line, d.column, d.field, d.message].join('\u0000')
    if (seen.has(key)) continue
    seen.add(key)
    unique.push(d)
  }
  return sortDiagnostics(unique).sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity])
}

function severityCounts(diagnostics: readonly Diagnostic[]): Record<Severity, number> {
  const count = { error: 0, warning: 0, notice: 0 }
  for (const d of diagnostics) count[d.severity]++
  return count
}

function countsByKind(changes: readonly Change[]): Record<ResourceKind, PlanCounts> {
  const byKind = Object.fromEntries(RESOURCE_KINDS.map(k => [k, [] as Change[]])) as Record<
    ResourceKind,
    Change[]
  >
  for (const c of changes) byKind[c.kind].push(c)
  return Object.fromEntries(RESOURCE_KINDS.map(k => [k, countChanges(byKind[k])])) as Record<
    ResourceKind,
    PlanCounts
  >
}

function deferredParts(input: ReportInput, changes: readonly Change[]): ReportModel['deferred'] {
  const prune = changes.filter(c => c.deferred === 'prune').length
  const release = changes.filter(c => c.deferred === 'release').length
  const parts: ReportModel['deferred'] = []
  if (prune > 0) parts.push({ text: `${prune} would be deleted with prune (prune is off)` })
  if (release > 0)
    parts.push({
      text: `${plural(release, 'ServiceSettings change')} held back`,
      because: input.serviceGate?.reason
    })
  return parts
}

/** Deleted or replaced by this run, or deleted by the server as a consequence. */
export function isDestructive(c: Change): boolean {
  return (
    c.deferred === undefined &&
    (c.action === 'delete' || c.action === 'replace' || c.droppedByServer === true)
  )
}

function destructivePhrase(c: Change, command: RunCommand): string {
  const will = command === 'apply' ? '' : 'will be '
  if (c.droppedByServer) return `${will}deleted by the server (its tile or dashboard goes away)`
  if (c.action === 'replace') return `${will}replaced (deleted and created again: the id changes)`
  return `${will}deleted`
}

function driftPhrase(c: Change): string {
  if (c.deferred === 'prune' || c.action === 'delete') return 'live but not in the manifests'
  if (c.action === 'create') return 'missing live'
  if (c.action === 'replace') return 'changed (a replace)'
  return `${plural(c.fields.length, 'field')} ${c.fields.length === 1 ? 'differs' : 'differ'}`
}

/** Ids come from the server: only plain ones go into a URL, so an id cannot change where the link points. */
const PLAIN_ID = /^(?!\.+$)[A-Za-z0-9._~-]{1,100}$/

/** The resource in the web UI, when a UI URL is configured and the resource has a live id. */
export function uiLink(c: Change, uiUrl: string | undefined): string | undefined {
  if (!uiUrl || !/^https?:\/\//i.test(uiUrl) || !c.id || !PLAIN_ID.test(c.id)) return undefined
  const base = uiUrl.replace(/\/+$/, '')
  if (c.kind === 'Dashboard') return `${base}/dashboards/${c.id}`
  if (c.kind === 'Alert') return `${base}/alerts`
  return undefined
}
