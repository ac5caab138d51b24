/**
 * The report as facts, computed once for every format: the heading and how loud it is, the verdict,
 * the changes grouped by action (destructive first), the diagnostics grouped by message, the links.
 * The facts hold no markup; untrusted text (names, messages, the gate's reason) stays apart, so each
 * renderer escapes it its way.
 */
import type { ApplyOutcome } from '../apply/types.js'
import type { RunCommand } from '../config/types.js'
import { sortDiagnostics, type Diagnostic, type Severity } from '../diagnostics.js'
import type { PolicyReview, RuleChangeVerb } from '../plan/policy-review.js'
import { REFERENCES_VERSION, type Change, type Plan, type ResourceKind } from '../plan/types.js'
import type { ReportInput, StacksReportInput } from './input.js'
import { dashboardLink, fileLink } from './links.js'
import { parsePath, type PathSegment } from './values.js'
import { TITLES, verdictOf, type Verdict } from './verdict.js'
import { plural } from './wording.js'

/** ✅ only when nothing differs; ⚠️ when anything is destroyed now or at a release; ❌ on errors. */
export type Tone = 'ok' | 'changes' | 'destructive' | 'failed'

/** One thing the heading says is destroyed: fixed words, and the names (untrusted) of what goes. */
export interface Destruction {
  /** "deletes", "replaces", "the server deletes", "on release removes" (in the run's tense). */
  verb: string
  /** "2 dashboards", "IP allow-list entry" (one: its name follows). */
  what: string
  names: string[]
}

/** The actions, and each reason a change is held back (Change['deferred']). */
export type GroupKey = 'delete' | 'replace' | 'update' | 'create' | NonNullable<Change['deferred']>

/** A resource as a report lists it: once, with what happened to it and where to look. */
export interface ReportItem {
  change: Change
  outcome?: ApplyOutcome
  destructive: boolean
  /** The manifest line at the commit under review. */
  fileUrl?: string
  /** The resource in the web UI: a dashboard's page; for an alert, the dashboard whose tile it watches. */
  ui?: { url: string; label: string }
}

export interface ReportGroup {
  key: GroupKey
  /** Fixed words: "To delete", "Would be deleted with prune". */
  title: string
  items: ReportItem[]
}

/** Diagnostics with the same severity and message, in the order of their first place. */
export interface DiagnosticGroup {
  severity: Severity
  message: string
  places: Diagnostic[]
}

export interface ReportModel {
  input: ReportInput
  /** "Plan", "Apply", "Drift", "Validation". */
  title: string
  /** The API the run talked to: the mode, and in managed mode the path prefix it used. */
  api: string
  tone: Tone
  verdict: Verdict
  /** What is destroyed (or would be at a release); empty for drift and validate. */
  destroys: Destruction[]
  /** Diagnostics of all stages and of the plan, each once, errors before warnings before notices. */
  diagnostics: Diagnostic[]
  diagnosticGroups: DiagnosticGroup[]
  severities: Record<Severity, number>
  /** Non-empty groups, destructive first: delete, replace, update, create, then the deferred ones. */
  groups: ReportGroup[]
  /** drift: what differs, and how. */
  drifted: Array<{ change: Change; phrase: string }>
  /** What the heading says of the rules: a pull request's changes to them, or that its base was not read. */
  policyClauses: PolicyClause[]
}

/** One thing the heading says of the rules in force: fixed words, and the rule ids or names (untrusted). */
export interface PolicyClause {
  /** "removes policy rule", "adds a suppression of", "obeys its own policy files". */
  verb: string
  /** Rule ids, or for a suppression the rule and the resource (untrusted), each with how in fixed words. */
  items: Array<{ name: string; how?: string }>
  /** ⚠️: it weakens the control (a rule removed or weakened, a suppression added, the base not read). */
  loud: boolean
}

export function reportModel(input: ReportInput): ReportModel {
  const diagnostics = reportDiagnostics(input)
  const verdict = verdictOf(input, diagnostics)
  const destroys = input.command === 'plan' || input.command === 'apply' ? destructionsOf(input) : []
  const changes = input.plan?.changes ?? []
  const policyClauses = policyClausesOf(input.policies)
  // A pull request that changes the rules is never ✅: one that weakens them reads like a delete.
  const tone: Tone =
    verdict.tone === 'failed'
      ? 'failed'
      : destroys.length > 0 || policyClauses.some(c => c.loud)
        ? 'destructive'
        : changes.some(c => c.action !== 'noop') ||
            (input.apply?.outcomes.length ?? 0) > 0 ||
            policyClauses.length > 0
          ? 'changes'
          : verdict.tone === 'changes'
            ? 'changes'
            : 'ok'
  return {
    input,
    title: TITLES[input.command],
    api: input.plan?.managedPrefix ? `${input.mode}, prefix ${input.plan.managedPrefix}` : input.mode,
    tone,
    verdict,
    destroys,
    diagnostics,
    diagnosticGroups: groupDiagnostics(diagnostics),
    severities: severityCounts(diagnostics),
    groups: groupsOf(input),
    drifted:
      input.command === 'drift'
        ? changes.filter(c => c.action !== 'noop').map(change => ({ change, phrase: driftPhrase(change) }))
        : [],
    policyClauses
  }
}

const RULE_VERBS: Record<RuleChangeVerb, string> = {
  removes: 'removes policy rule',
  weakens: 'weakens policy rule',
  changes: 'changes policy rule',
  adds: 'adds policy rule'
}

/** The heading's words on the rules: what the pull request does to them, in the order of their weight. */
export function policyClausesOf(review: PolicyReview | undefined): PolicyClause[] {
  if (!review) return []
  const out: PolicyClause[] = []
  if (review.from.kind === 'workspace' && review.from.fallback !== undefined)
    out.push({
      verb: "obeys its own policy files: its base commit's could not be read",
      items: [],
      loud: true
    })
  for (const verb of ['removes', 'weakens', 'changes', 'adds'] as const) {
    const of = review.changes.filter(c => c.verb === verb)
    if (of.length === 0) continue
    out.push({
      verb: RULE_VERBS[verb],
      items: of.map(c => ({ name: c.rule, ...(c.how.length > 0 ? { how: c.how.join(', ') } : {}) })),
      loud: verb === 'removes' || verb === 'weakens'
    })
  }
  if (review.suppressions.length > 0)
    out.push({
      verb: `adds ${review.suppressions.length === 1 ? 'a new suppression of' : `${review.suppressions.length} new suppressions:`}`,
      items: review.suppressions.map(s => ({ name: s.rule, how: `for ${s.kind} ${s.name}` })),
      loud: true
    })
  return out
}

export type Label = 'destroy' | 'changes' | 'no-changes'

/** The PR label a run earns: what a reviewer filters pull requests by. */
export function labelOf(input: ReportInput): Label {
  if (destructionsOf(input).length > 0) return 'destroy'
  return (input.plan?.changes ?? []).some(c => c.action !== 'noop') ? 'changes' : 'no-changes'
}

/** The label of a run over many stacks: the loudest of its stacks'. */
export function stacksLabelOf(input: StacksReportInput): Label {
  const labels = new Set(input.stacks.map(labelOf))
  return labels.has('destroy') ? 'destroy' : labels.has('changes') ? 'changes' : 'no-changes'
}

/** The report of many stacks as facts: each stack's own model, and the run's heading, tone and problems. */
export interface StacksModel {
  input: StacksReportInput
  title: string
  api: string
  /** The loudest of the sections', or ❌ when the run itself failed. */
  tone: Tone
  sections: ReportModel[]
  /** The run's own problems (not any one stack's). */
  diagnostics: Diagnostic[]
  diagnosticGroups: DiagnosticGroup[]
  severities: Record<Severity, number>
}

const TONE_RANK: Record<Tone, number> = { ok: 0, changes: 1, destructive: 2, failed: 3 }

export function stacksModel(input: StacksReportInput): StacksModel {
  const sections = input.stacks.map(reportModel)
  const diagnostics = uniqueDiagnostics(input.diagnostics)
  const own: Tone = diagnostics.some(d => d.severity === 'error') ? 'failed' : 'ok'
  const tone = sections.reduce<Tone>((t, m) => (TONE_RANK[m.tone] > TONE_RANK[t] ? m.tone : t), own)
  const prefix = input.stacks.find(s => s.plan?.managedPrefix)?.plan?.managedPrefix
  return {
    input,
    title: TITLES[input.command],
    api: prefix ? `${input.mode}, prefix ${prefix}` : input.mode,
    tone,
    sections,
    diagnostics,
    diagnosticGroups: groupDiagnostics(diagnostics),
    severities: severityCounts(diagnostics)
  }
}

// ---------------------------------------------------------------------------------------------------
// What is destroyed.

/** Deleted or replaced by this run, or deleted by the server as a consequence. */
/** A change's notes as reports show them: its own, then what its write resets (Change.resets), in words. */
export function notesOf(c: Change): string[] {
  if (!c.resets) return c.notes
  const { via, why, tiles } = c.resets
  const how =
    via === 'patch'
      ? `the update replaces ${tiles.length === 1 ? 'this tile' : 'these tiles'} one at a time and leaves the other tiles as they are`
      : `the update rewrites every tile${why ? `: ${why}` : ''}`
  const what = tiles.map(t => `tile "${t.tile}" (${t.settings.join(', ')})`).join('; ')
  return [...c.notes, `${how}. What only the web UI can set is reset where it was set: ${what}`]
}

export function isDestructive(c: Change): boolean {
  return (
    c.deferred === undefined &&
    (c.action === 'delete' || c.action === 'replace' || c.droppedByServer === true)
  )
}

/** A kind in words, as the plan names it (a plan file without its nouns: the kind as it is written). */
export const nounsOf = (kind: ResourceKind, plan: Plan | undefined): readonly [string, string] =>
  plan?.references?.version === REFERENCES_VERSION && plan.references.nouns[kind]
    ? plan.references.nouns[kind]
    : [kind, kind]

/** A kind in words: `data source`, `saved search`. */
export const nounOf = (kind: ResourceKind, plan: Plan | undefined): string => nounsOf(kind, plan)[0]

/**
 * Entries of a service's lists that a change removes. Whole resources are not all a plan destroys: an
 * IP allow-list entry removed locks its clients out, so it counts, even when it waits for a release.
 */
const REMOVABLE: Record<string, [string, string]> = {
  ipAccessList: ['IP allow-list entry', 'IP allow-list entries'],
  privateEndpointIds: ['private endpoint', 'private endpoints']
}

function destructionsOf(input: ReportInput): Destruction[] {
  const past = input.command === 'apply'
  const changes = input.plan?.changes ?? []
  const out: Destruction[] = []
  const add = (verb: string, members: Change[]) => {
    for (const kind of new Set(members.map(c => c.kind))) {
      const ofKind = members.filter(c => c.kind === kind)
      const [one, many] = nounsOf(kind, input.plan)
      out.push({
        verb,
        what: ofKind.length === 1 ? one : `${ofKind.length} ${many}`,
        names: ofKind.map(c => c.name)
      })
    }
  }
  const now = changes.filter(isDestructive)
  add(
    past ? 'deleted' : 'deletes',
    now.filter(c => c.action === 'delete' && !c.droppedByServer)
  )
  add(
    past ? 'replaced' : 'replaces',
    now.filter(c => c.action === 'replace')
  )
  add(
    past ? 'the server deleted' : 'the server deletes',
    now.filter(c => c.action === 'delete' && c.droppedByServer)
  )
  // What a change does to parts of a record, each named `<record>: <part>`: one line of the heading per kind of harm.
  const parts = (
    verb: string,
    what: (n: number) => string,
    of: (c: Change) => readonly string[] | undefined
  ) => {
    const names = changes
      .filter(c => c.deferred === undefined)
      .flatMap(c => (of(c) ?? []).map(part => `${c.name}: ${part}`))
    if (names.length > 0) out.push({ verb, what: what(names.length), names })
  }
  parts(
    past ? 'reset' : 'resets',
    n => `what only the web UI can set on ${n === 1 ? 'tile' : `${n} tiles`}`,
    c => c.resets?.tiles.map(r => r.tile)
  )
  parts(
    past ? 'widened' : 'widens',
    n => `access (${n === 1 ? 'a grant' : `${n} grants`})`,
    c => c.widens
  )
  parts(
    past ? 'may have reset' : 'may reset',
    n =>
      `${n === 1 ? 'a setting' : `${n} settings`} no manifest can express (unknown to this version of obsdeploy, or set only in the UI)`,
    c => c.lost
  )
  for (const c of changes) {
    if (c.action !== 'update' || c.deferred === 'prune') continue
    const removed = new Map<string, string[]>()
    for (const f of c.fields) {
      const segments = parsePath(f.path)
      const head = segments?.[0]
      if (!head || !('key' in head) || !(head.key in REMOVABLE)) continue
      const gone = removedEntries(f.before, f.after, segments!.length > 1 ? segments![1] : undefined)
      if (gone.length > 0) removed.set(head.key, [...(removed.get(head.key) ?? []), ...gone])
    }
    for (const [key, names] of removed) {
      const [one, many] = REMOVABLE[key]!
      const verb =
        c.deferred === 'release'
          ? past
            ? 'at a release removed'
            : 'on release removes'
          : past
            ? 'removed'
            : 'removes'
      out.push({ verb, what: names.length === 1 ? one : `${names.length} ${many}`, names })
    }
  }
  return out
}

/** What a field change removes: a keyed entry that goes, or list items the new list lacks. */
function removedEntries(before: unknown, after: unknown, keyed: PathSegment | undefined): string[] {
  if (before === undefined) return []
  if (keyed && 'key' in keyed) return after === undefined ? [keyed.key] : []
  if (Array.isArray(before)) {
    const kept = new Set((Array.isArray(after) ? after : []).map(v => JSON.stringify(v)))
    return before.filter(v => !kept.has(JSON.stringify(v))).map(entryName)
  }
  return []
}

/** An entry of a list by what names it: an IP entry by its source, a record by its name. */
function entryName(v: unknown): string {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const r = v as Record<string, unknown>
    for (const key of ['source', 'name', 'id']) if (typeof r[key] === 'string') return r[key] as string
  }
  return typeof v === 'string' ? v : JSON.stringify(v)
}

// ---------------------------------------------------------------------------------------------------
// Groups by action, with links.

const GROUP_ORDER: GroupKey[] = [
  'delete',
  'in-use',
  'own-user',
  'replace',
  'update',
  'create',
  'prune',
  'release'
]

function groupKey(c: Change, command: RunCommand): GroupKey {
  if (command === 'drift') {
    if (c.action === 'delete' || c.deferred === 'prune') return 'delete'
    return c.action === 'create' ? 'create' : 'update'
  }
  // Each reason for holding a change back is a group of its own.
  if (c.deferred) return c.deferred
  return c.action === 'noop' ? 'update' : c.action
}

function groupTitle(key: GroupKey, command: RunCommand): string {
  if (command === 'drift') {
    return { delete: 'Live but not in the manifests', update: 'Differs', create: 'Missing live' }[
      key as 'delete' | 'update' | 'create'
    ]
  }
  const apply = command === 'apply'
  switch (key) {
    case 'delete':
      return apply ? 'Delete' : 'To delete'
    case 'replace':
      return apply ? 'Replace' : 'To replace'
    case 'update':
      return apply ? 'Update' : 'To update'
    case 'create':
      return apply ? 'Create' : 'To create'
    case 'prune':
      return 'Would be deleted with prune (prune is off)'
    case 'release':
      return 'Waits for a release'
    case 'in-use':
      return 'Not deleted: still in use'
    case 'own-user':
      return "Not removed: the API key's own user"
  }
}

function groupsOf(input: ReportInput): ReportGroup[] {
  const outcomes = new Map((input.apply?.outcomes ?? []).map(o => [o.address, o]))
  const changes = (input.plan?.changes ?? []).filter(c => c.action !== 'noop' || outcomes.has(c.address))
  // An outcome whose change is not in the plan (never so from run(), but a report takes what it is given).
  const planned = new Set(changes.map(c => c.address))
  for (const o of outcomes.values()) {
    if (planned.has(o.address)) continue
    changes.push({
      kind: o.kind,
      name: o.name,
      address: o.address,
      action: o.action,
      id: o.id,
      fields: [],
      notes: [],
      dependsOn: []
    })
  }
  const dashboardIds = liveDashboardIds(input)
  const byKey = new Map<GroupKey, ReportItem[]>()
  for (const c of changes) {
    const key = groupKey(c, input.command)
    const outcome = outcomes.get(c.address)
    const item: ReportItem = {
      change: c,
      outcome,
      destructive: isDestructive(c) && input.command !== 'drift'
    }
    if (c.source) item.fileUrl = fileLink(input, c.source.file, c.source.line)
    item.ui = uiLinkOf(c, input, dashboardIds)
    const members = byKey.get(key)
    if (members) members.push(item)
    else byKey.set(key, [item])
  }
  // Failures first in their group: a size cut takes the end of a group.
  const rank = (i: ReportItem) =>
    i.outcome?.status === 'failed' ? 0 : i.outcome?.status === 'skipped' ? 1 : 2
  return GROUP_ORDER.filter(k => byKey.has(k)).map(key => ({
    key,
    title: groupTitle(key, input.command),
    items: byKey.get(key)!.sort((a, b) => rank(a) - rank(b))
  }))
}

/**
 * Dashboard ids by name, as they are once this run is over: a create's new id from its apply outcome,
 * no id for one deleted by this apply (nor for a replaced one whose new id the outcome does not give).
 */
function liveDashboardIds(input: ReportInput): Map<string, string> {
  const outcomes = new Map((input.apply?.outcomes ?? []).map(o => [o.address, o]))
  const ids = new Map<string, string>()
  const refs = input.plan?.references
  const seenOn = refs?.version === REFERENCES_VERSION ? refs.seenOn : {}
  for (const c of input.plan?.changes ?? []) {
    // A dashboard's own changes: the plan says it is seen on itself.
    if (!seenOn[c.address]?.own || c.deferred === 'prune') continue
    const o = outcomes.get(c.address)
    let id = c.id
    if (input.apply) {
      if (c.action === 'delete') continue
      if (o && (o.status === 'applied' || o.status === 'adopted')) {
        if (c.action === 'replace' && o.id === c.id) continue
        id = o.id ?? id
      } else if (c.action === 'create' || c.action === 'replace') continue
    }
    if (id && (c.action !== 'delete' || !ids.has(c.name))) ids.set(c.name, id)
  }
  return ids
}

function uiLinkOf(
  c: Change,
  input: ReportInput,
  dashboardIds: Map<string, string>
): ReportItem['ui'] | undefined {
  const refs = input.plan?.references
  const seen = refs?.version === REFERENCES_VERSION ? refs.seenOn[c.address] : undefined
  if (!seen) return undefined
  if (seen.own) {
    if (input.apply && (c.action === 'delete' || !dashboardIds.has(seen.dashboard))) return undefined
    const id = c.action === 'delete' ? c.id : dashboardIds.get(seen.dashboard)
    const url = dashboardLink(input.uiUrl, id)
    return url ? { url, label: 'open dashboard' } : undefined
  }
  if (c.action === 'delete') return undefined
  const url = dashboardLink(input.uiUrl, dashboardIds.get(seen.dashboard))
  return url ? { url, label: 'open its dashboard' } : undefined
}

// ---------------------------------------------------------------------------------------------------
// Diagnostics.

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, notice: 2 }

function reportDiagnostics(input: ReportInput): Diagnostic[] {
  return uniqueDiagnostics([...input.diagnostics, ...(input.plan?.diagnostics ?? [])])
}

/** Each problem once, errors before warnings before notices. */
function uniqueDiagnostics(all: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>()
  const unique: Diagnostic[] = []
  for (const d of all) {
    // The same problem found by validation and again by the plan is one problem: the stage is not part of the key.
    const key = [d.severity, d.file, d.line, d.column, d.field, d.message].join('\u0000')
    if (seen.has(key)) continue
    seen.add(key)
    unique.push(d)
  }
  return sortDiagnostics(unique).sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity])
}

function groupDiagnostics(diagnostics: readonly Diagnostic[]): DiagnosticGroup[] {
  const groups = new Map<string, DiagnosticGroup>()
  for (const d of diagnostics) {
    const key = `${d.severity}\u0000${d.message}`
    const group = groups.get(key)
    if (group) group.places.push(d)
    else groups.set(key, { severity: d.severity, message: d.message, places: [d] })
  }
  return [...groups.values()]
}

function severityCounts(diagnostics: readonly Diagnostic[]): Record<Severity, number> {
  const count = { error: 0, warning: 0, notice: 0 }
  for (const d of diagnostics) count[d.severity]++
  return count
}

function driftPhrase(c: Change): string {
  if (c.deferred === 'prune' || c.action === 'delete') return 'live but not in the manifests'
  if (c.action === 'create') return 'missing live'
  if (c.action === 'replace') return 'changed (a replace)'
  return `${plural(c.fields.length, 'field')} ${c.fields.length === 1 ? 'differs' : 'differ'}`
}

/** "2025-03-14 09:26 UTC": minutes are enough to tell an old comment from a current one. */
export function timeText(iso: string | undefined): string | undefined {
  if (!iso) return undefined
  const t = new Date(iso)
  if (Number.isNaN(t.getTime())) return undefined
  return `${t.toISOString().slice(0, 16).replace('T', ' ')} UTC`
}
