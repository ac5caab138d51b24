/**
 * The report model as GitHub markdown: the sticky pull request comment and the job summary. Every name,
 * value and message comes from manifests or servers, so each one goes through escape.ts; the layout is ours.
 *
 * Read top-down it answers, in order: is this safe (the heading: ✅, 📝, ⚠️ naming what is destroyed, ❌),
 * how much changes (one line), what is wrong (problems, grouped), and then each resource once, grouped by
 * action with the destructive groups first. When the report is over the limit, the diffs of creates and
 * updates go first and deletes and errors last (see budget.ts); a plan's preview (preview/) goes before them.
 */
import { VERSION } from '../version.js'
import { formatDiagnostic, type Diagnostic } from '../diagnostics.js'
import type { Change, FieldChange, Plan } from '../plan/types.js'
import { fitSegments, type Cuttable, type Measure, type Segment, type Shortenable } from './budget.js'
import { codeBlock, htmlText, inline, linkTarget } from './escape.js'
import type { ReportInput, StacksReportInput } from './input.js'
import { commitLink, fileLink, runLink } from './links.js'
import { longApply } from './pace.js'
import { livePreviewMarkdown } from './live-preview.js'
import { previewRuns } from './preview/markdown.js'
import {
  notesOf,
  nounOf,
  reportModel,
  stacksModel,
  timeText,
  type DiagnosticGroup,
  type Destruction,
  type PolicyClause,
  type StacksModel,
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

/**
 * One ordering for cutting: first the diffs of what is least dangerous (each resource keeps its line),
 * then whole lines of creates and updates, then warnings, and deletes and errors last.
 */
const SHORTEN_ORDER: Record<GroupKey, number> = {
  create: 0,
  update: 1,
  prune: 2,
  release: 3,
  replace: 4,
  'in-use': 5,
  'own-user': 5,
  delete: 6
}
const CUT_ORDER: Record<GroupKey, number> = {
  create: 10,
  update: 11,
  prune: 12,
  release: 13,
  replace: 21,
  'in-use': 22,
  'own-user': 22,
  delete: 23
}
/** The table of stacks: after every stack's creates and updates, before warnings, replaces and deletes. */
const CUT_STACK_ROWS = 14
const CUT_WARNINGS = 20
const CUT_ERRORS = 30

/** Bounded parts of the fixed text, so that what is never cut stays small for any plan. */
const NAMES_IN_HEADING = 3
const FIELDS_PER_CHANGE = 50
const VALUE_LENGTH = 200
const BLOCK_LENGTH = 20_000
const PLACES_SHOWN = 3
const PLACES_LISTED = 100

export function renderMarkdown(input: ReportInput, options: MarkdownOptions): string {
  const model = reportModel(input)
  return fit([headerOf(options), ...sectionOf(model), footer(input, input.plan)], options)
}

/**
 * A run over many stacks: one heading and a table of the stacks, then each stack's section as its own
 * report would be, in one size budget. The budget cuts across sections by the same order as within one,
 * so every stack's deletes and errors are the last thing to go.
 */
export function renderStacksMarkdown(input: StacksReportInput, options: MarkdownOptions): string {
  const model = stacksModel(input)
  const segments: Segment[] = [headerOf(options), `${stacksHeading(model)}\n\n${stacksLine(model)}\n\n`]
  if (model.sections.length > 0) segments.push(stacksTable(model))
  if (model.diagnostics.length > 0) segments.push(...diagnosticRuns(model, input))
  for (const section of model.sections) segments.push(...sectionOf(section))
  segments.push(footer(input, input.stacks.find(s => s.plan)?.plan))
  return fit(segments, options)
}

/** The given header (the sticky comment's marker) on a line of its own, or the heading would join it. */
function headerOf(options: MarkdownOptions): string {
  const given = options.header ?? ''
  return given === '' || given.endsWith('\n') ? given : `${given}\n`
}

function fit(segments: readonly Segment[], options: MarkdownOptions): string {
  const text = fitSegments(
    segments.filter(s => s !== ''),
    options.maxLength,
    options.measure ?? 'chars'
  )
  // Trailing blank lines are ours; dropping them only makes the text shorter.
  return text.replace(/\n+$/, '\n')
}

/** One stack's report: its heading, verdict, problems and resources. */
function sectionOf(model: ReportModel): Segment[] {
  const segments: Segment[] = [`${heading(model)}\n\n**${model.verdict.text}**\n\n${longApplyLine(model)}`]
  if (model.diagnostics.length > 0) segments.push(...diagnosticRuns(model, model.input))
  segments.push(convergence(model.input))
  const names = namesOf(model.input.plan)
  for (const group of model.groups) segments.push(groupRun(group, model, names))
  if (model.input.policies && model.input.policies.rules.length > 0) segments.push(rulesInForce(model.input))
  // The pull request's preview copies on the server (`live-preview`), linked; old copies swept.
  segments.push(
    ...livePreviewMarkdown(model.input.livePreview ?? model.input.plan?.livePreview, model.input.uiUrl)
  )
  // The plan pictured (preview/): collapsed, and the first thing the size budget shortens and cuts.
  if (model.input.command === 'plan') segments.push(...previewRuns(model.input.plan))
  return segments
}

// ---------------------------------------------------------------------------------------------------
// The fixed part: never cut.

const TONE_ICON: Record<Tone, string> = { ok: '✅', changes: '📝', destructive: '⚠️', failed: '❌' }

function heading(model: ReportModel): string {
  const { input } = model
  const title = `### ${TONE_ICON[model.tone]} ${model.title} for stack ${inline(input.stack, 100)} (${inline(model.api, 60)})`
  const clauses = [
    ...(model.destroys.length > 0 ? [destroyClause(model.destroys)] : []),
    ...(model.policyClauses.length > 0 ? [policyClause(model.policyClauses)] : [])
  ]
  return clauses.length === 0 ? title : `${title}: ${clauses.join('; ')}`
}

/** What a pull request does to the rules: "this pull request removes policy rule "a"; weakens ...". */
function policyClause(clauses: readonly PolicyClause[]): string {
  const said = clauses.map(c => {
    if (c.items.length === 0) return c.verb
    const shown = c.items
      .slice(0, NAMES_IN_HEADING)
      .map(i => `"${inline(i.name, 120)}"${i.how ? ` (${inline(i.how, 200)})` : ''}`)
    const more = c.items.length > NAMES_IN_HEADING ? `, +${c.items.length - NAMES_IN_HEADING} more` : ''
    return `${c.verb} ${shown.join(', ')}${more}`
  })
  return `this pull request ${said.join('; ')}`
}

/** One clause per verb: "deletes dashboard "Legacy", 2 alerts ("A", "B"); replaces ...". */
function destroyClause(destroys: readonly Destruction[]): string {
  const byVerb = new Map<string, string[]>()
  for (const d of destroys) {
    const shown = d.names.slice(0, NAMES_IN_HEADING).map(n => `"${inline(n, 60)}"`)
    const more = d.names.length > NAMES_IN_HEADING ? `, +${d.names.length - NAMES_IN_HEADING} more` : ''
    const said = d.names.length === 1 ? `${d.what} ${shown[0]}` : `${d.what} (${shown.join(', ')}${more})`
    byVerb.set(d.verb, [...(byVerb.get(d.verb) ?? []), said])
  }
  return [...byVerb].map(([verb, said]) => `${verb} ${said.join(', ')}`).join('; ')
}

/** The rules in force, collapsed, each with where it is written; cut with the creates' lines. */
function rulesInForce(input: ReportInput): Cuttable {
  const review = input.policies!
  const from =
    review.from.kind === 'base'
      ? `the pull request's base commit ${review.from.commit.slice(0, 7)}`
      : review.from.fallback !== undefined
        ? "this pull request's own files (its base commit's could not be read)"
        : "this run's files"
  const sources = review.central ? `${from} and ${review.central}` : from
  return {
    head: `<details><summary>Rules in force: ${review.rules.length}, from ${htmlText(sources, 400)}</summary>\n\n| Rule | Severity | Over | Suppressible | Written at |\n| --- | --- | --- | --- | --- |\n`,
    items: review.rules.map(
      r =>
        `| ${inline(r.id, 100)} | ${r.severity} | ${r.on === 'plan' ? 'the plan' : 'each manifest'} | ${r.suppressible ? 'yes' : 'no'} | ${inline(r.from, 300)} |\n`
    ),
    tail: '\n</details>\n\n',
    omitted: n => `| … | ${plural(n, 'more rule')} | | | |\n`,
    cutOrder: CUT_ORDER.create,
    keepHeadWhenEmpty: false
  }
}

// ---------------------------------------------------------------------------------------------------
// Many stacks: the heading names the stacks that destroy something, the table says how each one went.

function stacksHeading(model: StacksModel): string {
  const n = model.sections.length
  const title = `### ${TONE_ICON[model.tone]} ${model.title} for ${n === 0 ? 'no stack' : plural(n, 'stack')} (${inline(model.api, 60)})`
  const loud = model.sections.filter(m => m.destroys.length > 0 || m.policyClauses.length > 0)
  if (loud.length === 0) return title
  const said = loud
    .slice(0, NAMES_IN_HEADING)
    .map(m =>
      [
        `stack ${inline(m.input.stack, 100)}`,
        ...(m.destroys.length > 0 ? [destroyClause(m.destroys)] : []),
        ...(m.policyClauses.length > 0 ? [`(${policyClause(m.policyClauses)})`] : [])
      ].join(' ')
    )
  const more = loud.length > NAMES_IN_HEADING ? `; +${loud.length - NAMES_IN_HEADING} more stacks` : ''
  return `${title}: ${said.join('; ')}${more}`
}

const SKIPPED_SHOWN = 20

/** Which stacks ran and why, and which did not. */
function stacksLine(model: StacksModel): string {
  const { input } = model
  const skipped = input.skipped.slice(0, SKIPPED_SHOWN).map(s => inline(s, 100))
  if (input.skipped.length > SKIPPED_SHOWN) skipped.push(`+${input.skipped.length - SKIPPED_SHOWN} more`)
  const notRun = skipped.length > 0 ? ` Not run: ${skipped.join(', ')}.` : ''
  if (model.sections.length === 0) {
    const none = model.diagnostics.some(d => d.severity === 'error')
      ? `**${model.title} stopped before any stack: the layout of stacks has errors.**`
      : `**Nothing to ${model.title.toLowerCase()}: no stack is among ${inline(input.reason, 300)}.**`
    return `${none}${notRun}`
  }
  return `Stacks run: ${inline(input.reason, 300)}.${notRun}`
}

/** A row per stack; cut (from the end) before any stack's diffs of replaces and deletes. */
function stacksTable(model: StacksModel): Cuttable {
  return {
    head: '| Stack | Folder | Result |\n| --- | --- | --- |\n',
    items: model.sections.map(
      m =>
        `| ${TONE_ICON[m.tone]} ${inline(m.input.stack, 100)} | ${m.input.folder ? `<code>${inline(m.input.folder, 200)}</code>` : ''} | ${m.verdict.text} |\n`
    ),
    tail: '\n',
    omitted: n => `| … | ${plural(n, 'more stack')} | see their sections |\n`,
    cutOrder: CUT_STACK_ROWS,
    keepHeadWhenEmpty: false
  }
}

/** A plan whose apply takes more than a minute at the run's pace says how long (pace.ts): fixed words and numbers. */
function longApplyLine(model: ReportModel): string {
  const long = model.input.command === 'plan' ? longApply(model.input.plan) : undefined
  return long ? `⏱️ **Long apply:** ${long}, paced below the server's rate limit (\`rate-limit\`).\n\n` : ''
}

function convergence(input: ReportInput): string {
  const c = input.apply?.convergence
  if (!c) return ''
  if (c.converged) return '✅ Service settings re-read after the PATCH match the manifests.\n\n'
  const remaining = c.remaining.slice(0, 20).map(r => `> - ${inline(r, 300)}`)
  if (c.remaining.length > 20) remaining.push(`> - … and ${c.remaining.length - 20} more`)
  return `> [!WARNING]\n> **Service settings did not converge.** Re-read after the PATCH, the service still differs from the manifests in:\n>\n${remaining.join('\n')}\n\n`
}

function footer(input: Pick<ReportInput, 'github' | 'time' | 'trigger'>, plan: Plan | undefined): string {
  const parts = [`obsdeploy ${inline(plan?.tool.version ?? VERSION, 40)}`]
  const commit = commitLink(input)
  if (commit) parts.push(`commit [${commit.text}](${linkTarget(commit.url)})`)
  const run = runLink(input)
  if (run) parts.push(`[${run.text}](${linkTarget(run.url)})`)
  const time = timeText(input.time ?? plan?.createdAt)
  if (time) parts.push(time)
  if (input.trigger) parts.push(inline(input.trigger, 200))
  return `<sub>${parts.join(' · ')}</sub>\n`
}

// ---------------------------------------------------------------------------------------------------
// Problems: one line per message, with its first places; errors are the last thing cut.

const SEVERITY_ICON: Record<Diagnostic['severity'], string> = { error: '❌', warning: '⚠️', notice: 'ℹ️' }

/** Where places link to: the commit under review. */
type Links = Pick<ReportInput, 'github'>

function diagnosticRuns(
  model: Pick<ReportModel, 'diagnosticGroups' | 'severities'>,
  input: Links
): Cuttable[] {
  const errors = model.diagnosticGroups.filter(g => g.severity === 'error')
  const others = model.diagnosticGroups.filter(g => g.severity !== 'error')
  const count = model.severities
  const left = (groups: DiagnosticGroup[], n: number) => {
    const places = groups.slice(groups.length - n).reduce((sum, g) => sum + g.places.length, 0)
    return `\n${plural(places, 'more problem')} (${plural(n, 'message')}) ${places === 1 ? 'is' : 'are'} not shown here; the run log lists them all.\n\n`
  }
  return [
    {
      head: `#### Problems: ${describeSeverities(count)}\n\n`,
      items: errors.map(g => diagnosticGroup(g, input)),
      tail: errors.length > 0 && others.length === 0 ? '\n' : '',
      omitted: n => left(errors, n),
      cutOrder: CUT_ERRORS,
      keepHeadWhenEmpty: true
    },
    {
      head: '',
      items: others.map(g => diagnosticGroup(g, input)),
      tail: others.length > 0 ? '\n' : '',
      omitted: n => left(others, n),
      cutOrder: CUT_WARNINGS,
      keepHeadWhenEmpty: false
    }
  ]
}

function place(d: Diagnostic, input: Links): string {
  const field = d.field ? ` <code>${inline(d.field, 200)}</code>` : ''
  if (!d.file) return field.trim()
  const text = `${d.file}${d.line ? `:${d.line}${d.column ? `:${d.column}` : ''}` : ''}`
  const url = fileLink(input, d.file, d.line)
  return `${url ? `[${inline(text, 300)}](${linkTarget(url)})` : inline(text, 300)}${field}`
}

function diagnosticGroup(g: DiagnosticGroup, input: Links): string {
  const icon = SEVERITY_ICON[g.severity]
  const [first] = g.places
  if (g.places.length === 1) {
    const where = place(first!, input)
    const sev = g.severity === 'error' ? '' : `${g.severity}: `
    const text = first!.file
      ? `${where}: ${sev}${inline(g.message, 1000)}`
      : inline(formatDiagnostic(first!), 1000)
    return `- ${icon} ${text}\n`
  }
  const shown = g.places.slice(0, PLACES_SHOWN).map(d => place(d, input))
  const rest = g.places.slice(PLACES_SHOWN)
  const lines = [
    `- ${icon} ${inline(g.message, 1000)} · **${g.places.length} places**: ${shown.join(', ')}${rest.length > 0 ? ', …' : ''}\n`
  ]
  if (rest.length > 0) {
    // One line of raw HTML under the item: no blank line, so the list stays tight.
    const listed = rest.slice(0, PLACES_LISTED).map(d => htmlPlace(d, input))
    if (rest.length > PLACES_LISTED) listed.push(`… and ${rest.length - PLACES_LISTED} more in the run log`)
    lines.push(
      `  <details><summary>${plural(rest.length, 'more place')}</summary>${listed.join('<br>')}</details>\n`
    )
  }
  return lines.join('')
}

/** A place inside raw HTML, where markdown links do not render. */
function htmlPlace(d: Diagnostic, input: Links): string {
  const field = d.field ? ` <code>${htmlText(d.field, 200)}</code>` : ''
  if (!d.file) return field.trim()
  const text = htmlText(`${d.file}${d.line ? `:${d.line}${d.column ? `:${d.column}` : ''}` : ''}`, 300)
  const url = fileLink(input, d.file, d.line)
  return `${url ? anchor(url, text) : text}${field}`
}

// ---------------------------------------------------------------------------------------------------
// Resources, grouped by action: one <details> each, its summary line says what and where.

const GROUP_ICON: Record<GroupKey, string> = {
  delete: '🗑️',
  replace: '♻️',
  update: '✏️',
  create: '➕',
  prune: '⏸️',
  release: '⏳',
  'in-use': '🔒',
  'own-user': '🔒'
}

function groupRun(group: ReportModel['groups'][number], model: ReportModel, names: Names): Cuttable {
  const { input } = model
  const intro =
    group.key === 'prune'
      ? 'Owned by this stack but not in the manifests (each note says why). They stay while prune is off.\n\n'
      : group.key === 'release'
        ? `Service settings are not applied by this run${input.serviceGate ? `: ${inline(input.serviceGate.reason, 200)}` : ''}.\n\n`
        : group.key === 'in-use'
          ? 'Left the manifests, but something this run does not delete still uses them: they stay until those users let go (each note says which).\n\n'
          : group.key === 'own-user'
            ? "Left the manifests, but the server does not let an API key remove its own user from the team: it stays in the team and in this stack's registry (its note says how to manage it again).\n\n"
            : ''
  const n = group.items.length
  return {
    head: `#### ${GROUP_ICON[group.key]} ${group.title} (${n})\n\n${intro}`,
    items: group.items.map(item => resource(item, group.key, model, names)),
    tail: '',
    omitted: left =>
      `ℹ️ ${left} more ${left === 1 ? 'resource' : 'resources'} in this group ${left === 1 ? 'is' : 'are'} not shown here, to fit GitHub's size limit; the plan file (the \`plan-file\` output) lists every change.\n\n`,
    cutOrder: CUT_ORDER[group.key],
    shortenOrder: SHORTEN_ORDER[group.key],
    keepHeadWhenEmpty: true
  }
}

function resource(item: ReportItem, key: GroupKey, model: ReportModel, names: Names): Shortenable {
  const summary = `<summary>${summaryLine(item, key, model)}</summary>`
  const body = detailsBody(item.change, model, names)
  return {
    full: ['<details>', summary, '', ...body.flatMap(b => [b, '']), '</details>', '', ''].join('\n'),
    short: [
      '<details>',
      summary,
      '',
      "The diff is left out to fit GitHub's size limit; the plan file has it.",
      '',
      '</details>',
      '',
      ''
    ].join('\n')
  }
}

const STATUS: Record<NonNullable<ReportItem['outcome']>['status'], string> = {
  applied: '✅ applied',
  adopted: '✅ adopted (found after a lost response)',
  failed: '❌ failed',
  skipped: '⏭️ skipped (depends on a failure)'
}

/** Raw HTML: GitHub renders no markdown inside <summary>, so it uses <b>, <a> and htmlText. */
function summaryLine(item: ReportItem, key: GroupKey, model: ReportModel): string {
  const c = item.change
  const parts = [`${GROUP_ICON[key]} ${c.kind} <b>${htmlText(c.name, 200)}</b>`]
  const what = detail(c, key, model)
  if (what) parts[0] += ` ${what}`
  const o = item.outcome
  if (o) {
    const said = o.status === 'failed' && o.message ? `: ${htmlText(o.message, 200)}` : ''
    const requestId = o.requestId ? ` (request id <code>${htmlText(o.requestId, 100)}</code>)` : ''
    parts.push(`${STATUS[o.status]}${said}${requestId}`)
  }
  if (c.source) {
    const text = `<code>${htmlText(`${c.source.file}:${c.source.line}`, 300)}</code>`
    parts.push(item.fileUrl ? anchor(item.fileUrl, text) : text)
  } else if (c.id) parts.push(`id <code>${htmlText(c.id, 100)}</code>`)
  if (item.ui) parts.push(anchor(item.ui.url, item.ui.label))
  return parts.join(' · ')
}

/** A link in raw HTML: our own URL, attribute-escaped. */
const anchor = (url: string, text: string): string =>
  `<a href="${linkTarget(url).replace(/&/g, '&amp;')}">${text}</a>`

function detail(c: Change, key: GroupKey, model: ReportModel): string {
  const command = model.input.command
  const fields = plural(c.fields.length, 'field')
  if (command === 'drift') {
    if (key === 'delete' || key === 'create') return ''
    return `(${fields} ${c.fields.length === 1 ? 'differs' : 'differ'})`
  }
  if (c.droppedByServer && c.action === 'delete') return '· deleted by the server with its tile or dashboard'
  switch (key) {
    case 'replace':
      return '(deleted and created again: the id changes)'
    case 'update':
    case 'release':
      return c.fields.length > 0 ? `(${fields})` : ''
    default:
      return ''
  }
}

function detailsBody(c: Change, model: ReportModel, names: Names): string[] {
  const body: string[] = []
  const tiles = addedAndRemoved(c.fields)
  if (c.action === 'create' && c.fields.length > 0) {
    body.push(`The ${nounOf(c.kind, model.input.plan)} as it will be created:`)
    body.push(block(createdYaml(c, names), 'yaml'))
  } else if (c.action === 'delete' && !c.droppedByServer && c.fields.length > 0) {
    body.push(block(diffText(deletedLines(c, names)), 'diff'))
  } else if (c.fields.length > 0 && c.action !== 'delete') {
    if (tiles.length > 0 && c.action !== 'create') {
      body.push(
        tiles
          .map(
            t =>
              `- ${t.what} ${t.added ? 'added' : 'removed'}: **${inline(t.name, 200)}**${t.id === undefined ? '' : ` #${inline(t.id, 40)}`}`
          )
          .join('\n')
      )
    }
    const fields = c.fields.slice(0, FIELDS_PER_CHANGE)
    body.push(
      readsAsTable(fields) ? fieldsTable(fields, names) : block(diffText(changedLines(fields, names)), 'diff')
    )
    if (c.fields.length > FIELDS_PER_CHANGE)
      body.push(`${plural(c.fields.length - FIELDS_PER_CHANGE, 'more field')}: see the plan file.`)
  } else body.push(withoutFields(c))
  const notes = notesOf(c)
  if (notes.length > 0) body.push(`**Notes:**\n\n${notes.map(n => `- ${inline(n, 1000)}`).join('\n')}`)
  if (c.evidence && c.evidence.length > 0) {
    body.push(`**Evidence** (live queries):\n\n${c.evidence.map(e => `- ${inline(e, 1000)}`).join('\n')}`)
  }
  if (c.request && model.input.command !== 'drift') {
    body.push(`**Request:** <code>${inline(c.request.method, 10)} ${inline(c.request.path, 300)}</code>`)
    body.push(block(yamlText(c.request.body), 'yaml'))
  }
  return body
}

/** What a change without field differences is, so no <details> opens onto nothing. */
function withoutFields(c: Change): string {
  if (c.droppedByServer) return 'The server deletes it when its tile or dashboard goes away.'
  if (c.action === 'create') return `A new ${c.kind}.`
  if (c.action === 'delete') return 'Owned by this stack and no longer in the manifests.'
  return 'No field differences are recorded for this change.'
}

const diffText = (lines: readonly DiffLine[]): string => lines.map(l => `${l.sign} ${l.text}`).join('\n')

/** A code block of bounded size; `<` and `>` cannot matter inside a fence, but stay out of it anyway. */
function block(text: string, language: string): string {
  const bounded =
    text.length > BLOCK_LENGTH
      ? `${text.slice(0, BLOCK_LENGTH)}\n… (shortened; the plan file has it all)`
      : text
  return codeBlock(bounded, language)
}

function fieldsTable(fields: readonly FieldChange[], names: Names): string {
  const rows = fields.map(
    f =>
      `| <code>${inline(readablePath(f, names), VALUE_LENGTH)}</code> | ${cellValue(readableLeaf(f, 'before', names))} | ${cellValue(readableLeaf(f, 'after', names))} |`
  )
  return `| field | before | after |\n| --- | --- | --- |\n${rows.join('\n')}`
}

/** Only short one-line scalars come here (readsAsTable): never JSON in a cell. */
function cellValue(value: unknown): string {
  if (value === undefined) return '*(absent)*'
  const text = String(value)
  if (text === '') return '*(empty)*'
  return `<code>${inline(text, VALUE_LENGTH)}</code>`
}
