/**
 * The report model for a terminal: the same facts as the markdown report, as plain lines. Untrusted text is
 * printable (log.ts): one line, its control, bidirectional and invisible characters shown as `\u{1B}`, so a
 * name or a server message cannot move the cursor, recolour the terminal, reorder or hide text. Colour is
 * the caller's decision (a TTY and no NO_COLOR): without it there are no escape codes at all.
 */
import { formatDiagnostic } from '../diagnostics.js'
import { printable } from '../log.js'
import type { Change, FieldChange } from '../plan/types.js'
import type { ReportInput, StacksReportInput } from './input.js'
import { longApply } from './pace.js'
import { previewLines } from './preview/text.js'
import {
  notesOf,
  reportModel,
  stacksModel,
  type GroupKey,
  type ReportItem,
  type ReportModel,
  type Tone
} from './model.js'
import {
  addedAndRemoved,
  changedLines,
  createdYaml,
  deletedLines,
  namesOf,
  readableLeaf,
  readablePath,
  readsAsTable,
  yamlText,
  type DiffLine,
  type Names
} from './values.js'
import { describeSeverities, plural } from './wording.js'
import { livePreviewText } from './live-preview.js'

export interface TextOptions {
  color: boolean
  /** `plan --preview`: the plan's layout pictures and data (preview/text.ts). */
  preview?: boolean
}

type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'magenta' | 'cyan'
const SGR: Record<Style, number> = { bold: 1, dim: 2, red: 31, green: 32, yellow: 33, magenta: 35, cyan: 36 }
type Paint = (style: Style, text: string) => string

const VALUE_LENGTH = 200
const TONE_STYLE: Record<Tone, Style> = { ok: 'green', changes: 'yellow', destructive: 'red', failed: 'red' }

export function renderText(input: ReportInput, options: TextOptions): string {
  const paint: Paint = options.color
    ? (style, text) => `\x1b[${SGR[style]}m${text}\x1b[0m`
    : (_style, text) => text
  const model = reportModel(input)
  const names = namesOf(input.plan)

  const blocks: string[][] = [
    [
      paint(
        'bold',
        `obsdeploy ${model.title.toLowerCase()} for stack ${printable(input.stack)} (${printable(model.api)})`
      ),
      ...destroyLines(model, paint),
      paint(TONE_STYLE[model.tone], model.verdict.text),
      ...longApplyLines(input, paint)
    ]
  ]
  if (model.diagnostics.length > 0) blocks.push(diagnosticLines(model, paint))
  blocks.push(convergenceLines(input, paint))
  for (const group of model.groups) blocks.push(groupLines(group, model, names, paint))
  blocks.push(livePreviewText(input.livePreview ?? input.plan?.livePreview, input.uiUrl))
  if (options.preview && input.command === 'plan') blocks.push(previewLines(input.plan, paint))
  if (input.policies && input.policies.rules.length > 0) blocks.push(rulesLines(input, paint))
  if (input.planFile) blocks.push([paint('dim', `Plan JSON: ${printable(input.planFile)}`)])

  return `${blocks
    .filter(b => b.length > 0)
    .map(b => b.join('\n'))
    .join('\n\n')}\n`
}

/** A run over many stacks: a line that says which ran, the run's own problems, then each stack's report. */
export function renderStacksText(input: StacksReportInput, options: TextOptions): string {
  const paint: Paint = options.color
    ? (style, text) => `\x1b[${SGR[style]}m${text}\x1b[0m`
    : (_style, text) => text
  const model = stacksModel(input)
  const n = model.sections.length
  const notRun =
    input.skipped.length > 0 ? `; not run: ${input.skipped.map(s => printable(s, 100)).join(', ')}` : ''
  const blocks: string[][] = [
    [
      paint(
        'bold',
        `obsdeploy ${model.title.toLowerCase()} for ${n === 0 ? 'no stack' : plural(n, 'stack')} (${printable(model.api)})`
      ),
      paint(TONE_STYLE[model.tone], `Stacks run: ${printable(input.reason, 300)}${notRun}`)
    ]
  ]
  if (model.diagnostics.length > 0) blocks.push(diagnosticLines(model, paint))
  // Each stack's report as a run of that stack alone prints it.
  for (const section of input.stacks) blocks.push(renderText(section, options).replace(/\n$/, '').split('\n'))
  if (input.planFile) blocks.push([paint('dim', `Plan JSON: ${printable(input.planFile)}`)])
  return `${blocks.map(b => b.join('\n')).join('\n\n')}\n`
}

function value(v: unknown): string {
  if (v === undefined) return '(absent)'
  return printable(typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v)), VALUE_LENGTH)
}

/** A plan whose apply takes more than a minute at the run's pace says how long (pace.ts). */
function longApplyLines(input: ReportInput, paint: Paint): string[] {
  const long = input.command === 'plan' ? longApply(input.plan) : undefined
  return long
    ? [paint('yellow', `Long apply: ${long}, paced below the server's rate limit (rate-limit)`)]
    : []
}

function destroyLines(model: ReportModel, paint: Paint): string[] {
  return [
    ...model.destroys.map(d =>
      paint('red', `WARNING: ${d.verb} ${d.what}: ${d.names.map(n => `"${printable(n, 200)}"`).join(', ')}`)
    ),
    ...model.policyClauses.map(c =>
      paint(
        c.loud ? 'red' : 'yellow',
        `${c.loud ? 'WARNING: ' : ''}this change ${c.verb}${c.items.length > 0 ? ` ${c.items.map(i => `"${printable(i.name, 200)}"${i.how ? ` (${printable(i.how, 200)})` : ''}`).join(', ')}` : ''}`
      )
    )
  ]
}

/** Where the rules in force came from, in one dim line, when not only from these files. */
function rulesLines(input: ReportInput, paint: Paint): string[] {
  const review = input.policies!
  if (review.from.kind !== 'base' && !review.central) return []
  const from = review.from.kind === 'base' ? `base commit ${review.from.commit.slice(0, 7)}` : 'these files'
  const central = review.central ? ` and ${printable(review.central)}` : ''
  return [paint('dim', `Rules in force: ${review.rules.length}, from ${from}${central}`)]
}

function diagnosticLines(
  model: Pick<ReportModel, 'diagnosticGroups' | 'severities'>,
  paint: Paint
): string[] {
  const lines = [paint('bold', `Problems: ${describeSeverities(model.severities)}`)]
  for (const g of model.diagnosticGroups) {
    const style: Style = g.severity === 'error' ? 'red' : g.severity === 'warning' ? 'yellow' : 'cyan'
    const label = paint(style, g.severity.padEnd(7))
    if (g.places.length === 1) {
      lines.push(`  ${label} ${printable(formatDiagnostic(g.places[0]!))}`)
      continue
    }
    lines.push(`  ${label} ${printable(g.message)} (${g.places.length} places):`)
    for (const d of g.places)
      lines.push(`            ${printable(formatDiagnostic({ ...d, message: '' }).replace(/:? ?$/, ''))}`)
  }
  return lines
}

function convergenceLines(input: ReportInput, paint: Paint): string[] {
  const c = input.apply?.convergence
  if (!c) return []
  if (c.converged) return [paint('green', 'Service settings re-read after the PATCH match the manifests.')]
  return [
    paint('red', 'Service settings did not converge. Re-read after the PATCH, the service still differs in:'),
    ...c.remaining.map(r => `  - ${printable(r, 300)}`)
  ]
}

const MARKERS: Record<GroupKey, [string, Style]> = {
  create: ['+', 'green'],
  update: ['~', 'yellow'],
  replace: ['-/+', 'magenta'],
  delete: ['-', 'red'],
  prune: ['-', 'dim'],
  release: ['~', 'dim'],
  'in-use': ['!', 'yellow'],
  'own-user': ['!', 'yellow']
}

const STATUS_TEXT: Record<NonNullable<ReportItem['outcome']>['status'], [string, Style]> = {
  applied: ['applied', 'green'],
  adopted: ['adopted', 'green'],
  failed: ['FAILED', 'red'],
  skipped: ['skipped', 'yellow']
}

function groupLines(
  group: ReportModel['groups'][number],
  model: ReportModel,
  names: Names,
  paint: Paint
): string[] {
  const reason =
    group.key === 'release' && model.input.serviceGate
      ? ` (${printable(model.input.serviceGate.reason, 200)})`
      : ''
  const lines = [paint('bold', `${group.title} (${group.items.length})${reason}:`)]
  for (const item of group.items) lines.push(...itemLines(item, group.key, names, paint))
  return lines
}

function itemLines(item: ReportItem, key: GroupKey, names: Names, paint: Paint): string[] {
  const c = item.change
  const [marker, style] = MARKERS[key]
  const place = c.source ? `  ${c.source.file}:${c.source.line}` : c.id ? `  id ${c.id}` : ''
  const action = c.droppedByServer && c.action === 'delete' ? 'delete (by the server)' : c.action
  let status = ''
  if (item.outcome) {
    const [label, s] = STATUS_TEXT[item.outcome.status]
    const said = item.outcome.status === 'skipped' ? 'depends on a failed change' : undefined
    const message = item.outcome.message ? `: ${printable(item.outcome.message)}` : said ? `: ${said}` : ''
    const requestId = item.outcome.requestId ? ` [request id ${printable(item.outcome.requestId, 100)}]` : ''
    status = `  ${paint(s, `[${label}${message}]`)}${requestId}`
  }
  const lines = [
    `${paint(style, `${marker} ${action}`)} ${c.kind} "${printable(c.name, 200)}"${paint('dim', printable(place, 400))}${status}`
  ]
  lines.push(...bodyLines(c, names, paint).map(l => `    ${l}`))
  for (const note of notesOf(c)) lines.push(`    note: ${printable(note)}`)
  for (const e of c.evidence ?? []) lines.push(`    evidence: ${printable(e)}`)
  if (c.request) {
    lines.push(`    request: ${printable(c.request.method, 10)} ${printable(c.request.path, 300)}`)
    lines.push(
      ...yamlText(c.request.body)
        .split('\n')
        .map(l => `      ${printable(l)}`)
    )
  }
  if (item.ui) lines.push(`    ${item.ui.label}: ${printable(item.ui.url)}`)
  return lines
}

function bodyLines(c: Change, names: Names, paint: Paint): string[] {
  if (c.fields.length === 0) return []
  if (c.action === 'create')
    return createdYaml(c, names)
      .split('\n')
      .map(l => paint('green', `+ ${printable(l)}`))
  if (c.action === 'delete') return c.droppedByServer ? [] : diffLines(deletedLines(c, names), paint)
  const tiles = addedAndRemoved(c.fields).map(
    t =>
      `${t.what} ${t.added ? 'added' : 'removed'}: "${printable(t.name, 200)}"${t.id === undefined ? '' : ` #${printable(t.id, 40)}`}`
  )
  if (readsAsTable(c.fields)) return [...tiles, ...c.fields.map(f => fieldLine(f, names))]
  return [...tiles, ...diffLines(changedLines(c.fields, names), paint)]
}

function fieldLine(f: FieldChange, names: Names): string {
  return `${printable(readablePath(f, names), VALUE_LENGTH)}: ${value(readableLeaf(f, 'before', names))} -> ${value(readableLeaf(f, 'after', names))}`
}

const SIGN_STYLE: Record<DiffLine['sign'], Style> = { '+': 'green', '-': 'red', ' ': 'dim' }

function diffLines(lines: readonly DiffLine[], paint: Paint): string[] {
  return lines.map(l => paint(SIGN_STYLE[l.sign], `${l.sign} ${printable(l.text)}`))
}
