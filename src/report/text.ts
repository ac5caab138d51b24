/**
 * The report model for a terminal: the same facts as the markdown report, as plain lines. Untrusted text loses
 * its control characters, so a name or a server message cannot move the cursor, recolour the terminal
 * or hide text. Colour is the caller's decision (a TTY and no NO_COLOR): without it there are no escape
 * codes at all.
 */
import type { ApplyOutcome, ApplyResult, OutcomeStatus } from '../apply/types.js'
import { formatDiagnostic } from '../diagnostics.js'
import { RESOURCE_KINDS, type Change, type PlanCounts } from '../plan/types.js'
import type { ReportInput } from './input.js'
import { reportModel, uiLink, type ReportModel } from './model.js'
import { describeSeverities } from './wording.js'

export interface TextOptions {
  color: boolean
}

type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'magenta' | 'cyan'
const SGR: Record<Style, number> = { bold: 1, dim: 2, red: 31, green: 32, yellow: 33, magenta: 35, cyan: 36 }
type Paint = (style: Style, text: string) => string

const VALUE_LENGTH = 200

export function renderText(input: ReportInput, options: TextOptions): string {
  const paint: Paint = options.color
    ? (style, text) => `\x1b[${SGR[style]}m${text}\x1b[0m`
    : (_style, text) => text
  const model = reportModel(input)
  const { verdict } = model
  const tone: Style = verdict.tone === 'failed' ? 'red' : verdict.tone === 'changes' ? 'yellow' : 'green'

  const blocks: string[][] = [
    [
      paint(
        'bold',
        `obsdeploy ${model.title.toLowerCase()} for stack ${clean(input.stack)} (${clean(model.api)})`
      ),
      paint(tone, verdict.text)
    ]
  ]
  if (model.counts) blocks.push(countsTable(model.counts), deferredLines(model.deferred))
  if (model.diagnostics.length > 0) blocks.push(diagnosticLines(model, paint))
  if (input.apply) blocks.push(applyLines(input.apply, paint))
  blocks.push(destructiveLines(model, paint))
  blocks.push(...changeBlocks(model, paint))
  if (input.planFile) blocks.push([paint('dim', `Plan JSON: ${clean(input.planFile)}`)])

  return `${blocks
    .filter(b => b.length > 0)
    .map(b => b.join('\n'))
    .join('\n\n')}\n`
}

/**
 * C0 and C1 control characters (ESC starts every terminal escape sequence; C1 CSI is one on its own),
 * DEL, and bidirectional overrides that reorder what a reader sees. Line breaks and tabs become spaces.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g
const BREAKS = /[\t\n\u2028\u2029]+/g

/** Untrusted text on one line, with nothing a terminal would interpret. */
export function clean(value: unknown, maxLength = 1000): string {
  let text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))
  if (text.length > maxLength) text = `${text.slice(0, maxLength)}…`
  return text.replace(BREAKS, ' ').replace(CONTROL, '')
}

function value(v: unknown): string {
  if (v === undefined) return '(absent)'
  return clean(JSON.stringify(v) ?? String(v), VALUE_LENGTH)
}

const COLUMNS: ReadonlyArray<[keyof PlanCounts, string]> = [
  ['create', 'create'],
  ['update', 'update'],
  ['replace', 'replace'],
  ['delete', 'delete'],
  ['noop', 'no-op'],
  ['deferred', 'deferred']
]

function countsTable(counts: NonNullable<ReportModel['counts']>): string[] {
  const rows: Array<[string, PlanCounts | undefined]> = [
    ['', undefined],
    ...RESOURCE_KINDS.map((k): [string, PlanCounts] => [k, counts.byKind[k]]),
    ['Total', counts.total]
  ]
  const first = Math.max(...rows.map(([label]) => label.length))
  return rows.map(([label, counts]) =>
    [
      label.padEnd(first),
      ...COLUMNS.map(([key, title]) =>
        (counts ? String(counts[key]) : title).padStart(Math.max(title.length, 3))
      )
    ]
      .join('  ')
      .trimEnd()
  )
}

function deferredLines(parts: ReportModel['deferred']): string[] {
  if (parts.length === 0) return []
  const said = parts.map(p => (p.because === undefined ? p.text : `${p.text}: ${clean(p.because, 200)}`))
  return [`Deferred, shown but not applied by this run: ${said.join('; ')}.`]
}

function diagnosticLines(model: ReportModel, paint: Paint): string[] {
  return [
    paint('bold', `Problems: ${describeSeverities(model.severities)}`),
    ...model.diagnostics.map(d => {
      const style: Style = d.severity === 'error' ? 'red' : d.severity === 'warning' ? 'yellow' : 'cyan'
      return `  ${paint(style, d.severity.padEnd(7))} ${clean(formatDiagnostic(d))}`
    })
  ]
}

const STATUS_TEXT: Record<OutcomeStatus, [string, Style]> = {
  applied: ['applied', 'green'],
  adopted: ['adopted', 'green'],
  failed: ['FAILED', 'red'],
  skipped: ['skipped', 'yellow']
}

function applyLines(apply: ApplyResult, paint: Paint): string[] {
  const lines = [paint('bold', 'Apply results:')]
  for (const o of apply.outcomes) {
    const [label, style] = STATUS_TEXT[o.status]
    const message = o.message
      ? `: ${clean(o.message)}`
      : o.status === 'skipped'
        ? ': depends on a failed change'
        : ''
    const requestId = o.requestId ? ` [request id ${clean(o.requestId, 100)}]` : ''
    lines.push(
      `  ${paint(style, label.padEnd(7))} ${o.kind} "${clean(o.name, 200)}" (${o.action})${message}${requestId}`
    )
    if (o.kind === 'ServiceSettings' && o.result !== undefined) {
      lines.push('    the service as the PATCH returned it:', ...jsonLines(o.result, '      '))
    }
  }
  const convergence = apply.convergence
  if (convergence?.converged) {
    lines.push(
      paint('green', 'ServiceSettings converged: the service re-read after the PATCH matches the manifests.')
    )
  } else if (convergence) {
    lines.push(
      paint('red', 'ServiceSettings did not converge. Re-read after the PATCH, the service still differs in:')
    )
    lines.push(...convergence.remaining.map(r => `  - ${clean(r, 300)}`))
  }
  return lines
}

function destructiveLines(model: ReportModel, paint: Paint): string[] {
  const { sentence, changes } = model.destructive
  if (changes.length === 0) return []
  return [
    paint('red', `WARNING: ${sentence}:`),
    ...changes.map(({ change: c, phrase }) => `  ${c.kind} "${clean(c.name, 200)}": ${phrase}`)
  ]
}

const MARKERS: Record<Change['action'], [string, Style]> = {
  create: ['+', 'green'],
  update: ['~', 'yellow'],
  replace: ['-/+', 'magenta'],
  delete: ['-', 'red'],
  noop: [' ', 'dim']
}

function changeBlocks(model: ReportModel, paint: Paint): string[][] {
  const { input, groups } = model
  const section = (title: string, members: readonly Change[]): string[] =>
    members.length === 0
      ? []
      : [paint('bold', title), ...members.flatMap(c => changeLines(c, input, model.outcomes, paint))]
  const reason = input.serviceGate
    ? ` (not applied by this run: ${clean(input.serviceGate.reason, 200)})`
    : ''
  return [
    section(input.command === 'drift' ? 'Differences:' : 'Changes:', groups.actionable),
    section('Would be deleted with prune (prune is off):', groups.prune),
    section(`Waits for a release${reason}:`, groups.release)
  ]
}

function changeLines(
  c: Change,
  input: ReportInput,
  outcomes: Map<string, ApplyOutcome>,
  paint: Paint
): string[] {
  const [marker, style] = c.droppedByServer ? MARKERS.delete : MARKERS[c.action]
  const action = c.droppedByServer ? 'delete (by the server)' : c.action
  const place = c.source ? `  ${c.source.file}:${c.source.line}` : c.id ? `  id ${c.id}` : ''
  const outcome = outcomes.get(c.address)
  const status = outcome ? `  [${STATUS_TEXT[outcome.status][0]}]` : ''
  const lines = [
    `${paint(style, `${marker} ${action}`)} ${c.kind} "${clean(c.name, 200)}"${paint('dim', clean(place, 400))}${status}`
  ]
  for (const f of c.fields)
    lines.push(`    ${clean(f.path, VALUE_LENGTH)}: ${value(f.before)} -> ${value(f.after)}`)
  for (const note of c.notes) lines.push(`    note: ${clean(note)}`)
  for (const e of c.evidence ?? []) lines.push(`    evidence: ${clean(e)}`)
  if (c.request) {
    lines.push(
      `    request: ${clean(c.request.method, 10)} ${clean(c.request.path, 300)}`,
      ...jsonLines(c.request.body, '      ')
    )
  }
  const link = uiLink(c, input.uiUrl)
  if (link) lines.push(`    ui: ${clean(link)}`)
  return lines
}

/** Pretty JSON, line by line: JSON.stringify escapes C0 controls but not C1 or bidi characters. */
function jsonLines(v: unknown, indent: string): string[] {
  const json = JSON.stringify(v, null, 2) ?? String(v)
  return json.split('\n').map(line => `${indent}${line.replace(CONTROL, '')}`)
}
