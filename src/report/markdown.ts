/**
 * The report model as GitHub markdown: the sticky pull request comment and the job summary. Every name,
 * value and message comes from manifests or servers, so each one goes through escape.ts; the layout is ours.
 * When the report is over the limit, whole <details> sections go first, then whole table rows and
 * error lines; the heading, the counts and the callouts always stay (see budget.ts).
 */
import type { ApplyOutcome, ApplyResult, OutcomeStatus } from '../apply/types.js'
import type { RunCommand } from '../config/types.js'
import { formatDiagnostic, type Diagnostic } from '../diagnostics.js'
import { RESOURCE_KINDS, type Action, type Change, type FieldChange, type PlanCounts } from '../plan/types.js'
import { fitSegments, type Cuttable, type Measure, type Segment } from './budget.js'
import { codeBlock, htmlText, inline, linkTarget } from './escape.js'
import type { ReportInput } from './input.js'
import { isDestructive, reportModel, uiLink, type PhrasedChange, type ReportModel } from './model.js'
import type { Verdict } from './verdict.js'
import { describeSeverities, plural } from './wording.js'

/** GitHub refuses issue comments longer than this many characters. */
export const COMMENT_LIMIT = 65536
/** GitHub refuses a job summary (per step) larger than this many bytes. */
export const SUMMARY_LIMIT = 1024 * 1024

export interface MarkdownOptions {
  /** The result never exceeds this, header included. */
  maxLength: number
  /** Prepended verbatim (the sticky comment's hidden marker); a line break is added if it lacks one. */
  header?: string
  /** The unit of maxLength: 'chars' for a comment (the default), 'bytes' for the job summary. */
  measure?: Measure
}

/** Cut first: whole <details> sections. Then ServiceSettings results, apply rows, and error lines last. */
const CUT_ORDER = { details: 0, serviceResults: 1, outcomes: 2, diagnostics: 3 } as const

/** Bounded lists in the fixed part, so that the part that is never cut stays small for any plan. */
const LISTED_IN_CALLOUT = 20
const FIELDS_PER_CHANGE = 50
const VALUE_LENGTH = 200
const JSON_BLOCK_LENGTH = 20_000

export function renderMarkdown(input: ReportInput, options: MarkdownOptions): string {
  const given = options.header ?? ''
  // The heading must start a line of its own, or the marker would swallow it.
  const header = given === '' || given.endsWith('\n') ? given : `${given}\n`
  const model = reportModel(input)

  const segments: Segment[] = [`${header}${heading(model)}\n\n**${model.verdict.text}**\n\n`]
  if (model.counts) segments.push(countsTable(model.counts), deferredLine(model.deferred))
  segments.push(driftList(model.drifted))
  if (model.diagnostics.length > 0) segments.push(diagnosticsRun(model))
  if (input.apply) segments.push(...applySection(input.apply))
  segments.push(destructiveCallout(model))
  if (model.changes.length > 0) segments.push(detailsRun(model))
  segments.push(footer(input))

  const text = fitSegments(
    segments.filter(s => s !== ''),
    options.maxLength,
    options.measure ?? 'chars'
  )
  // Trailing blank lines are ours; dropping them only makes the text shorter.
  return text.replace(/\n+$/, '\n')
}

// ---------------------------------------------------------------------------------------------------
// The fixed part: never cut.

const TONE_ICON: Record<Verdict['tone'], string> = { ok: '✅', changes: '📝', failed: '❌' }

function heading(model: ReportModel): string {
  const { input } = model
  return `### ${TONE_ICON[model.verdict.tone]} ${model.title} for stack ${inline(input.stack, 100)} (${inline(model.api, 60)})`
}

const COLUMNS: ReadonlyArray<[keyof PlanCounts, string]> = [
  ['create', '➕ create'],
  ['update', '✏️ update'],
  ['replace', '♻️ replace'],
  ['delete', '🗑️ delete'],
  ['noop', 'no-op'],
  ['deferred', '⏸️ deferred']
]

function countsTable(counts: NonNullable<ReportModel['counts']>): string {
  const row = (label: string, counts: PlanCounts) =>
    `| ${label} | ${COLUMNS.map(([key]) => counts[key]).join(' | ')} |`
  return [
    `| Kind | ${COLUMNS.map(([, label]) => label).join(' | ')} |`,
    `| --- | ${COLUMNS.map(() => '---:').join(' | ')} |`,
    ...RESOURCE_KINDS.map(kind => row(kind, counts.byKind[kind])),
    row('**Total**', counts.total),
    '',
    ''
  ].join('\n')
}

function deferredLine(parts: ReportModel['deferred']): string {
  if (parts.length === 0) return ''
  const said = parts.map(p => (p.because === undefined ? p.text : `${p.text}: ${inline(p.because, 200)}`))
  return `⏸️ **Deferred**, shown but not applied by this run: ${said.join('; ')}.\n\n`
}

function driftList(drifted: readonly PhrasedChange[]): string {
  if (drifted.length === 0) return ''
  const lines = drifted
    .slice(0, LISTED_IN_CALLOUT)
    .map(({ change: c, phrase }) => `- ${c.kind} **${inline(c.name, 100)}**: ${phrase}`)
  if (drifted.length > LISTED_IN_CALLOUT) lines.push(`- … and ${drifted.length - LISTED_IN_CALLOUT} more`)
  return `**What drifted:**\n\n${lines.join('\n')}\n\n`
}

function destructiveCallout(model: ReportModel): string {
  const { sentence, changes } = model.destructive
  if (changes.length === 0) return ''
  const lines = changes
    .slice(0, LISTED_IN_CALLOUT)
    .map(({ change: c, phrase }) => `> - ⚠️ ${c.kind} **${inline(c.name, 100)}**: ${phrase}`)
  if (changes.length > LISTED_IN_CALLOUT) lines.push(`> - … and ${changes.length - LISTED_IN_CALLOUT} more`)
  const review = model.input.command === 'apply' ? '' : ' Review before merging.'
  const capitalized = `${sentence[0]!.toUpperCase()}${sentence.slice(1)}`
  return `> [!WARNING]\n> **${capitalized}.**${review}\n>\n${lines.join('\n')}\n\n`
}

function footer(input: ReportInput): string {
  const parts: string[] = []
  if (input.plan) parts.push(`obsdeploy ${inline(input.plan.tool.version, 40)}`)
  if (input.trigger) parts.push(inline(input.trigger, 200))
  if (input.planFile) parts.push(`plan JSON: ${inline(input.planFile, 300)}`)
  return parts.length > 0 ? `<sub>${parts.join(' · ')}</sub>\n` : ''
}

// ---------------------------------------------------------------------------------------------------
// Diagnostics: whole lines, errors first, so warnings are the first to go.

const SEVERITY_ICON: Record<Diagnostic['severity'], string> = { error: '❌', warning: '⚠️', notice: 'ℹ️' }

function diagnosticsRun(model: ReportModel): Cuttable {
  const count = model.severities
  return {
    head: `#### Problems: ${describeSeverities(count)}\n\n`,
    items: model.diagnostics.map(
      d => `- ${SEVERITY_ICON[d.severity]} ${inline(formatDiagnostic(d), 1000)}\n`
    ),
    tail: '\n',
    omitted: n => {
      // The cut takes the last lines: notices, then warnings, then errors.
      const notices = Math.min(n, count.notice)
      const warnings = Math.min(n - notices, count.warning)
      const left = describeSeverities(
        { error: n - notices - warnings, warning: warnings, notice: notices },
        'more '
      )
      return `\n${left} ${n === 1 ? 'is' : 'are'} not shown here; the run log lists them all.\n`
    },
    cutOrder: CUT_ORDER.diagnostics,
    keepHeadWhenEmpty: true
  }
}

// ---------------------------------------------------------------------------------------------------
// Apply results.

const STATUS_LABEL: Record<OutcomeStatus, string> = {
  failed: '❌ failed',
  skipped: '⏭️ skipped (depends on a failure)',
  adopted: '✅ adopted (found after a lost response)',
  applied: '✅ applied'
}
const STATUS_RANK: Record<OutcomeStatus, number> = { failed: 0, skipped: 1, adopted: 2, applied: 3 }

function applySection(apply: ApplyResult): Segment[] {
  // Failures first: when rows are cut, the successes go.
  const outcomes = [...apply.outcomes].sort((a, b) => STATUS_RANK[a.status] - STATUS_RANK[b.status])
  const segments: Segment[] = []
  if (outcomes.length > 0) {
    segments.push('#### Apply results\n\n', {
      head: '| Resource | Action | Result | Server message |\n| --- | --- | --- | --- |\n',
      items: outcomes.map(o => `${outcomeRow(o)}\n`),
      tail: '\n',
      omitted: n =>
        `\n${plural(n, 'more result')} ${n === 1 ? 'is' : 'are'} not shown here; the run log lists them all.\n`,
      cutOrder: CUT_ORDER.outcomes,
      keepHeadWhenEmpty: false
    })
  }
  const services = apply.outcomes.filter(o => o.kind === 'ServiceSettings' && o.result !== undefined)
  if (services.length > 0) {
    segments.push({
      head: '',
      items: services.map(serviceResult),
      tail: '',
      omitted: n =>
        `${plural(n, 'more service result')} ${n === 1 ? 'is' : 'are'} not shown here; the run log has them.\n\n`,
      cutOrder: CUT_ORDER.serviceResults,
      keepHeadWhenEmpty: false
    })
  }
  const convergence = apply.convergence
  if (convergence?.converged) {
    segments.push(
      '✅ ServiceSettings converged: the service re-read after the PATCH matches the manifests.\n\n'
    )
  } else if (convergence) {
    const remaining = convergence.remaining.slice(0, LISTED_IN_CALLOUT).map(r => `> - ${inline(r, 300)}`)
    if (convergence.remaining.length > LISTED_IN_CALLOUT) {
      remaining.push(`> - … and ${convergence.remaining.length - LISTED_IN_CALLOUT} more`)
    }
    segments.push(
      `> [!WARNING]\n> **ServiceSettings did not converge.** Re-read after the PATCH, the service still differs from the manifests in:\n>\n${remaining.join('\n')}\n\n`
    )
  }
  return segments
}

function outcomeRow(o: ApplyOutcome): string {
  const message: string[] = []
  if (o.message) message.push(inline(o.message, 500))
  if (o.requestId) message.push(`request id <code>${inline(o.requestId, 100)}</code>`)
  return `| ${o.kind} **${inline(o.name, 100)}** | ${o.action} | ${STATUS_LABEL[o.status]} | ${message.join(' · ')} |`
}

function serviceResult(o: ApplyOutcome): string {
  const requestId = o.requestId ? ` · request id <code>${htmlText(o.requestId, 100)}</code>` : ''
  return [
    '<details>',
    `<summary>ServiceSettings <b>${htmlText(o.name, 100)}</b>: the service as the PATCH returned it${requestId}</summary>`,
    '',
    jsonBlock(o.result),
    '',
    '</details>',
    '',
    ''
  ].join('\n')
}

// ---------------------------------------------------------------------------------------------------
// One <details> per changed resource: the part that is cut first.

interface DetailsContext {
  command: RunCommand
  uiUrl?: string
  outcomes: Map<string, ApplyOutcome>
}

function detailsRun(model: ReportModel): Cuttable {
  const { input, groups } = model
  const ctx: DetailsContext = { command: input.command, uiUrl: input.uiUrl, outcomes: model.outcomes }
  const items: string[] = []
  const group = (members: readonly Change[], intro: string) =>
    members.forEach((c, i) => items.push(`${i === 0 ? intro : ''}${changeDetails(c, ctx)}`))

  group(groups.actionable, `#### ${input.command === 'drift' ? 'Differences' : 'Changes'}\n\n`)
  group(
    groups.prune,
    '#### ⏸️ Would be deleted with prune\n\nOwned by this stack but no longer in the manifests. They stay while prune is off.\n\n'
  )
  const gate = input.serviceGate ? `: ${inline(input.serviceGate.reason, 200)}` : ''
  group(
    groups.release,
    `#### ⏳ Waits for a release\n\nServiceSettings are not applied by this run${gate}.\n\n`
  )
  const where = input.planFile ? inline(input.planFile, 300) : 'the plan-file output'
  return {
    head: '',
    items,
    tail: '',
    omitted: n =>
      `ℹ️ ${n} more ${n === 1 ? 'resource is' : 'resources are'} not shown here; see the plan JSON: ${where}\n\n`,
    cutOrder: CUT_ORDER.details,
    keepHeadWhenEmpty: false
  }
}

const SYMBOL: Record<Action, string> = { create: '➕', update: '✏️', replace: '♻️', delete: '🗑️', noop: '·' }

function changeDetails(c: Change, ctx: DetailsContext): string {
  const body: string[] = []
  if (c.fields.length > 0) body.push(fieldsTable(c.fields))
  else body.push(withoutFields(c))
  if (c.notes.length > 0) body.push(`**Notes:**\n\n${c.notes.map(n => `- ${inline(n, 1000)}`).join('\n')}`)
  if (c.evidence && c.evidence.length > 0) {
    body.push(`**Evidence** (live queries):\n\n${c.evidence.map(e => `- ${inline(e, 1000)}`).join('\n')}`)
  }
  if (c.request) {
    body.push(`**Request:** <code>${inline(c.request.method, 10)} ${inline(c.request.path, 300)}</code>`)
    body.push(jsonBlock(c.request.body))
  }
  const link = uiLink(c, ctx.uiUrl)
  if (link) body.push(`[Open in the UI](${linkTarget(link)})`)

  return [
    '<details>',
    `<summary>${summaryLine(c, ctx)}</summary>`,
    '',
    ...body.flatMap(b => [b, '']),
    '</details>',
    '',
    ''
  ].join('\n')
}

/** What a change without field differences is, so no <details> opens onto nothing. */
function withoutFields(c: Change): string {
  if (c.droppedByServer) return 'The server deletes it when its tile or dashboard goes away.'
  if (c.action === 'create') return `A new ${c.kind}.`
  if (c.action === 'delete') return 'Owned by this stack and no longer in the manifests.'
  return 'No field differences are recorded for this change.'
}

/** Raw HTML: GitHub renders no markdown inside <summary>, so it uses <b> and htmlText, not ** and inline. */
function summaryLine(c: Change, ctx: DetailsContext): string {
  const warn = isDestructive(c) ? '⚠️ ' : ''
  const symbol = c.deferred === 'release' ? '⏳' : c.droppedByServer ? SYMBOL.delete : SYMBOL[c.action]
  const place = c.source
    ? ` · <code>${htmlText(`${c.source.file}:${c.source.line}`, 300)}</code>`
    : c.id
      ? ` · id <code>${htmlText(c.id, 100)}</code>`
      : ''
  const outcome = ctx.outcomes.get(c.address)
  const status = outcome ? ` · ${STATUS_LABEL[outcome.status]}` : ''
  return `${warn}${symbol} ${c.kind} <b>${htmlText(c.name, 200)}</b>: ${actionLabel(c, ctx.command)}${place}${status}`
}

function actionLabel(c: Change, command: RunCommand): string {
  if (c.deferred === 'prune') return 'would be deleted with prune'
  if (c.deferred === 'release') return `waits for a release (${plural(c.fields.length, 'field')})`
  const tense = command === 'drift' ? 'would be ' : command === 'apply' ? '' : 'will be '
  if (c.droppedByServer) return `<b>${tense}deleted by the server</b>`
  switch (c.action) {
    case 'create':
      return command === 'drift' ? 'missing live' : 'create'
    case 'update':
      return `${command === 'drift' ? 'differs' : 'update'} (${plural(c.fields.length, 'field')})`
    case 'replace':
      return `<b>${tense}replaced</b> (deleted and created again: the id changes)`
    case 'delete':
      return command === 'drift' ? '<b>not in the manifests</b>' : `<b>${tense}deleted</b>`
    default:
      return 'no change'
  }
}

function fieldsTable(fields: readonly FieldChange[]): string {
  const rows = fields
    .slice(0, FIELDS_PER_CHANGE)
    .map(
      f => `| <code>${inline(f.path, VALUE_LENGTH)}</code> | ${cellValue(f.before)} | ${cellValue(f.after)} |`
    )
  const more =
    fields.length > FIELDS_PER_CHANGE
      ? `\n\n${plural(fields.length - FIELDS_PER_CHANGE, 'more field')}: see the plan JSON.`
      : ''
  return `| field | before | after |\n| --- | --- | --- |\n${rows.join('\n')}${more}`
}

function cellValue(value: unknown): string {
  if (value === undefined) return '*(absent)*'
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))
  if (text === '') return '*(empty)*'
  return `<code>${inline(text, VALUE_LENGTH)}</code>`
}

/**
 * A JSON value in a code block. `<` and `>` only occur inside JSON strings, where `\u003c` and `\u003e`
 * mean the same: the block stays valid JSON with no HTML in it, even for text that could never escape a
 * fence anyway.
 */
function jsonBlock(value: unknown): string {
  let json = JSON.stringify(value, null, 2) ?? String(value)
  if (json.length > JSON_BLOCK_LENGTH)
    json = `${json.slice(0, JSON_BLOCK_LENGTH)}\n… (shortened; the plan JSON has it all)`
  return codeBlock(json.replace(/</g, '\\u003c').replace(/>/g, '\\u003e'), 'json')
}
