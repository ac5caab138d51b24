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
import { codeBlock, htmlText, inline } from '../escape.js'
import type { AlertSeries, TileSeries } from '../../plan/preview.js'
import type { Plan } from '../../plan/types.js'
import { plural } from '../wording.js'
import { charts, formatNumber, mermaidChart, sparkline, seriesVerdict, timeLabel } from './chart.js'
import { layoutPicture } from './grid.js'
import {
  firedWords,
  layoutWords,
  previewModel,
  rangeWords,
  type DashboardPreview,
  type PreviewModel
} from './model.js'

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
    const charted = d.tiles.filter(t => t.status === 'ok').length
    if (d.tiles.length > 0) facts.push(`data: ${charted} of ${plural(d.tiles.length, 'tile')} charted`)
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
    body.push(d.tiles.map(t => tileLines(t, takeChart)).join('\n'))
  } else if (model.data) body.push('No tile of this dashboard changes its query.')
  const full = `<details><summary>${summary}</summary>\n\n${body.join('\n\n')}\n\n</details>\n\n`
  const shortFacts = [
    ...dashboardFacts(d, model),
    ...loudFacts(d, false).map(f => f.replace(/<\/?b>/g, '**'))
  ]
  const short = `- 📐 **${inline(d.name, 100)}**${shortFacts.length > 0 ? ` · ${shortFacts.join(' · ')}` : ''} (preview left out to fit)\n\n`
  return { full, short }
}

/** A tile's data: its sparkline and range on one line, or why there is none; a mermaid chart under it. */
function tileLines(t: TileSeries, takeChart: () => boolean): string {
  const hours = rangeWords(t.startTime, t.endTime)
  const verdict = seriesVerdict(t.status, t.points, t.numberFormat, hours)
  const name = `**${inline(t.tile, 100)}**`
  const group = t.group !== undefined ? ` (group ${inline(t.group || '(empty)', 60)} of ${t.groups})` : ''
  if (t.status !== 'ok') {
    const why = t.reason ? `: ${inline(t.reason, 300)}` : ''
    const text = verdict.loud ? `**${verdict.text}**` : verdict.text
    return `- ${verdict.loud ? (t.status === 'error' ? '❌' : '⚠️') : 'ℹ️'} ${name}: ${text}${why}`
  }
  const line = sparkline(t.points)
  const lines = [
    `- ${name}${group}: ${line ? `\`${line}\` ` : ''}${verdict.text}, ${timeLabel(t.points[0]![0])} to ${timeLabel(t.points.at(-1)![0])}`
  ]
  if (charts(t.points) && takeChart()) lines.push(indent(codeBlock(mermaidChart(t.points), 'mermaid')))
  return lines.join('\n\n')
}

function alertItem(a: AlertSeries, takeChart: () => boolean): Shortenable {
  const format = (n: number) => formatNumber(n, a.numberFormat)
  const where =
    a.dashboard !== undefined && a.tile !== undefined
      ? ` on "${htmlText(a.tile, 80)}" of "${htmlText(a.dashboard, 80)}"`
      : ''
  const verdict = seriesVerdict(a.status, a.points, a.numberFormat, rangeWords(a.startTime, a.endTime))
  const said =
    a.status === 'ok' || a.status === 'empty'
      ? `${firedWords(a, format)}${a.status === 'empty' ? ` · ⚠️ <b>${verdict.text}</b>` : ''}`
      : `${verdict.loud ? '⚠️ ' : ''}${verdict.text}${a.reason ? `: ${htmlText(a.reason, 200)}` : ''}`
  const summary = `🔔 <b>${htmlText(a.alert, 100)}</b>${where} · ${said}`
  const body: string[] = []
  if (a.status === 'ok') {
    const line = sparkline(a.points)
    body.push(
      `${line ? `\`${line}\` ` : ''}${verdict.text}${a.points.length > 0 ? `, ${timeLabel(a.points[0]![0], true)} to ${timeLabel(a.points.at(-1)![0], true)}` : ''}; threshold ${format(a.threshold)}${a.thresholdMax !== undefined ? ` and ${format(a.thresholdMax)}` : ''} (the flat line).`
    )
    if (charts(a.points) && takeChart())
      body.push(
        codeBlock(
          mermaidChart(a.points, { threshold: a.threshold, thresholdMax: a.thresholdMax, days: true }),
          'mermaid'
        )
      )
  }
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
    .map(l => `  ${l}`)
    .join('\n')
