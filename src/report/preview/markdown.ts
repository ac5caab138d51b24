/**
 * The preview as GitHub markdown, for the sticky comment and the job summary: one collapsed <details> per
 * dashboard (its layout picture in a `diff` fence, so changed rows are coloured, and its tiles' data) and
 * per alert (its replay against the threshold). Names go through escape.ts; charts hold only our text.
 *
 * Charts: a sparkline on every tile's line (it reads the same in the comment, an e-mail notification, the
 * mobile app and the terminal), and a mermaid `xychart-beta` under it for the first few series, which
 * GitHub draws on the web. Mermaid is not used where it cannot serve: beyond MERMAID_CHARTS per section
 * (each is a separate frame GitHub renders on its own), for fewer than two values, and in text.
 *
 * Every item has a one-line short form that keeps the loud facts (no data, a failing query, how often an
 * alert would have fired), and the preview is the first thing the size budget shortens, then cuts, least
 * important first.
 */
import type { Cuttable, Shortenable } from '../budget.js'
import { printable } from '../../log.js'
import { code, codeBlock, htmlText, inline } from '../escape.js'
import type { AlertSeries, TileSeries } from '../../plan/preview.js'
import type { Plan } from '../../plan/types.js'
import { plural } from '../wording.js'
import { layoutPicture } from './grid.js'
import { layoutWords, previewModel, type DashboardPreview, type PreviewModel } from './model.js'
import {
  alertBody,
  alertSummary,
  barLines,
  CELL_LENGTH,
  labelText,
  renderPhrase,
  tileView,
  type Block,
  type Phrase,
  type Tone
} from './views.js'

/** Mermaid charts per report section; the other series are sparklines only. */
export const MERMAID_CHARTS = 10
/** Before anything else of the report: shortened first, then cut. */
export const PREVIEW_SHORTEN_ORDER = -20
export const PREVIEW_CUT_ORDER = -10

/** The preview runs of one stack's report, or none (no preview in the plan). */
export function previewRuns(plan: Plan | undefined): Cuttable[] {
  const model = previewModel(plan)
  if (!model) return []
  let mermaid = MERMAID_CHARTS
  const takeChart = (): boolean => mermaid-- > 0
  const dashboards = model.dashboards.map(d => dashboardItem(d, model, takeChart))
  const alerts = model.alerts.map(a => alertItem(a, takeChart))
  const omitted = (n: number) =>
    `ℹ️ ${plural(n, 'more preview')} ${n === 1 ? 'is' : 'are'} not shown here, to fit GitHub's size limit; \`obsdeploy plan --preview\` shows them all.\n\n`
  const intro = model.data
    ? 'Layouts after this plan, and each created or changed tile over the last 24 hours (times UTC). Collapsed: open one to see it.\n\n'
    : 'Layouts after this plan. Collapsed: open one to see it. With `check-queries` on, each created or changed tile also shows its data over the last 24 hours.\n\n'
  const runs: Cuttable[] = []
  if (dashboards.length > 0) {
    runs.push({
      head: `#### 🖼️ Preview\n\n${intro}`,
      items: dashboards,
      tail: '',
      omitted,
      cutOrder: PREVIEW_CUT_ORDER,
      shortenOrder: PREVIEW_SHORTEN_ORDER,
      keepHeadWhenEmpty: true
    })
  }
  if (alerts.length > 0) {
    runs.push({
      head: `#### 🔔 Alerts replayed over the last 7 days\n\n`,
      items: alerts,
      tail: '',
      omitted,
      cutOrder: PREVIEW_CUT_ORDER + 1,
      shortenOrder: PREVIEW_SHORTEN_ORDER + 1,
      keepHeadWhenEmpty: true
    })
  }
  return runs
}

/** The facts a dashboard's summary line says: what its layout does, and what is loud about its data. */
function dashboardFacts(d: DashboardPreview, model: PreviewModel): string[] {
  const facts: string[] = []
  if (d.layout) facts.push(`layout: ${layoutWords(d.layout)}`)
  if (model.data) {
    // A number, a table or bars are not charts: "with data" says what every display type shares.
    const shown = d.tiles.filter(t => t.status === 'ok').length
    if (d.tiles.length > 0) facts.push(`data: ${shown} of ${plural(d.tiles.length, 'tile')} with data`)
  }
  return facts
}

function loudFacts(d: DashboardPreview, html: boolean): string[] {
  const name = (n: string) => (html ? htmlText(n, 80) : inline(n, 80))
  const out: string[] = []
  if (d.empty.length > 0)
    out.push(
      `⚠️ <b>NO DATA in 24 h</b>: ${d.empty
        .slice(0, 5)
        .map(n => `"${name(n)}"`)
        .join(', ')}${d.empty.length > 5 ? ', …' : ''}`
    )
  if (d.failed.length > 0)
    out.push(
      `❌ <b>query fails</b>: ${d.failed
        .slice(0, 5)
        .map(n => `"${name(n)}"`)
        .join(', ')}${d.failed.length > 5 ? ', …' : ''}`
    )
  return out
}

function dashboardItem(d: DashboardPreview, model: PreviewModel, takeChart: () => boolean): Shortenable {
  const facts = [...dashboardFacts(d, model), ...loudFacts(d, true)]
  const summary = `📐 <b>${htmlText(d.name, 100)}</b>${facts.length > 0 ? ` · ${facts.join(' · ')}` : ''}`
  const body: string[] = []
  if (d.layout) {
    const picture = layoutPicture(d.layout)
      .map(l => `${l.sign}${l.text}`)
      .join('\n')
    body.push(codeBlock(picture, 'diff'))
  }
  if (model.data && d.tiles.length > 0) {
    body.push(d.tiles.map(t => tileLines(t, takeChart, model.hide)).join('\n'))
  } else if (model.data) body.push('No tile of this dashboard changes its query.')
  const full = `<details><summary>${summary}</summary>\n\n${body.join('\n\n')}\n\n</details>\n\n`
  const shortFacts = [
    ...dashboardFacts(d, model),
    ...loudFacts(d, false).map(f => f.replace(/<\/?b>/g, '**'))
  ]
  const short = `- 📐 **${inline(d.name, 100)}**${shortFacts.length > 0 ? ` · ${shortFacts.join(' · ')}` : ''} (preview left out to fit)\n\n`
  return { full, short }
}

const ICONS: Record<Tone, string> = { ok: '', info: 'ℹ️ ', warn: '⚠️ ', error: '❌ ' }

/** A phrase in markdown: the data's text escaped (names as code), our own as it is. */
export function markdownPhrase(phrase: Phrase): string {
  return renderPhrase(phrase, {
    data: t => inline(t, 300),
    name: t => code(t, 60),
    spark: t => `\`${t}\``,
    loud: t => `**${t}**`
  })
}

/** A phrase inside raw HTML (a <summary>): markdown does not apply there. */
export function htmlPhrase(phrase: Phrase): string {
  return renderPhrase(phrase, {
    data: t => htmlText(t, 300),
    name: t => `<code>${htmlText(t, 60)}</code>`,
    spark: t => `<code>${t}</code>`,
    loud: t => `<b>${t}</b>`
  })
}

/** A table cell: one line, markdown and HTML inert, a pipe escaped, long text cut. */
const cell = (text: string): string => inline(text, CELL_LENGTH)

function markdownBlock(block: Block): string {
  switch (block.kind) {
    case 'rows':
      return block.rows.map(r => `- ${markdownPhrase(r)}`).join('\n')
    case 'table':
      return [
        `| ${block.columns.map(cell).join(' | ')} |`,
        `|${block.columns.map(() => ' --- |').join('')}`,
        ...block.rows.map(r => `| ${block.columns.map((_, i) => cell(r[i] ?? '')).join(' | ')} |`)
      ].join('\n')
    case 'bars':
      return codeBlock(
        barLines(
          block.rows.map(r => ({ label: labelText(r.label), bar: r.bar, value: printable(r.value, 40) }))
        ).join('\n')
      )
    case 'code':
      return codeBlock(block.lines.join('\n'))
    case 'mermaid':
      return `${codeBlock(block.source, 'mermaid')}${block.legend.length > 0 ? `\n\n${markdownPhrase(block.legend)}` : ''}`
  }
}

/** A tile's data: what it shows on one line (or why it shows none), its blocks under it. */
function tileLines(t: TileSeries, takeChart: () => boolean, hide: boolean): string {
  const view = tileView(t, takeChart, hide)
  const first = `- ${ICONS[view.tone]}**${inline(t.tile, 100)}**: ${markdownPhrase(view.head)}`
  return [first, ...view.blocks.map(b => indent(markdownBlock(b)))].join('\n\n')
}

function alertItem(a: AlertSeries, takeChart: () => boolean): Shortenable {
  const where =
    a.dashboard !== undefined && a.tile !== undefined
      ? ` on "${htmlText(a.tile, 80)}" of "${htmlText(a.dashboard, 80)}"`
      : ''
  const view = alertSummary(a)
  const said = `${view.tone === 'warn' || view.tone === 'error' ? '⚠️ ' : ''}${htmlPhrase(view.head)}`
  const summary = `🔔 <b>${htmlText(a.alert, 100)}</b>${where} · ${said}`
  const body = alertBody(a, takeChart).map(markdownBlock)
  const full =
    body.length > 0
      ? `<details><summary>${summary}</summary>\n\n${body.join('\n\n')}\n\n</details>\n\n`
      : `<p>${summary}</p>\n\n`
  const short = `- ${summary.replace(/<\/?b>/g, '**')}\n\n`
  return { full, short }
}

const indent = (text: string): string =>
  text
    .split('\n')
    .map(l => (l === '' ? l : `  ${l}`))
    .join('\n')
