/**
 * The preview for a terminal (`obsdeploy plan --preview`): the same pictures and data lines as the comment,
 * as plain lines. Sparklines only (a terminal draws no mermaid); names are printable (log.ts). Colour is
 * the caller's: changed rows green, the old rows red, a query without data red.
 */
import { printable } from '../../log.js'
import type { Plan } from '../../plan/types.js'
import { plural } from '../wording.js'
import { formatNumber, seriesVerdict, sparkline, timeLabel } from './chart.js'
import { layoutPicture } from './grid.js'
import { firedWords, layoutWords, previewModel, rangeWords } from './model.js'

type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'magenta' | 'cyan'
export type Paint = (style: Style, text: string) => string

/** The preview block of one stack's report, or none. */
export function previewLines(plan: Plan | undefined, paint: Paint): string[] {
  const model = previewModel(plan)
  if (!model) return []
  const lines = [paint('bold', 'Preview:')]
  if (!model.data)
    lines.push(
      paint(
        'dim',
        '  (data: off; --check-queries charts each created or changed tile over the last 24 hours)'
      )
    )
  for (const d of model.dashboards) {
    const facts: string[] = []
    if (d.layout) facts.push(`layout: ${layoutWords(d.layout)}`)
    lines.push(
      '',
      paint('bold', `Dashboard "${printable(d.name, 200)}"${facts.length > 0 ? `: ${facts.join('; ')}` : ''}`)
    )
    if (d.layout) {
      for (const l of layoutPicture(d.layout)) {
        const text = `  ${l.sign} ${l.text}`
        lines.push(l.sign === '+' ? paint('green', text) : l.sign === '-' ? paint('red', text) : text)
      }
    }
    if (model.data) {
      if (d.tiles.length === 0) lines.push('  data: no tile of this dashboard changes its query')
      for (const t of d.tiles) {
        const verdict = seriesVerdict(t.status, t.points, t.numberFormat, rangeWords(t.startTime, t.endTime))
        const name = `"${printable(t.tile, 100)}"`
        if (t.status !== 'ok') {
          const why = t.reason ? `: ${printable(t.reason, 300)}` : ''
          const text = `  data ${name}: ${verdict.text}${why}`
          lines.push(verdict.loud ? paint(t.status === 'error' ? 'red' : 'yellow', text) : text)
          continue
        }
        const group =
          t.group !== undefined ? ` (group ${printable(t.group || '(empty)', 60)} of ${t.groups})` : ''
        lines.push(
          `  data ${name}${group}: ${sparkline(t.points)}  ${verdict.text}, ${timeLabel(t.points[0]![0])} to ${timeLabel(t.points.at(-1)![0])} UTC`
        )
      }
    }
  }
  if (model.alerts.length > 0)
    lines.push(
      '',
      paint('bold', `Alerts replayed over the last 7 days (${plural(model.alerts.length, 'alert')}):`)
    )
  for (const a of model.alerts) {
    const format = (n: number) => formatNumber(n, a.numberFormat)
    const verdict = seriesVerdict(a.status, a.points, a.numberFormat, rangeWords(a.startTime, a.endTime))
    const head = `  alert "${printable(a.alert, 100)}"`
    if (a.status !== 'ok' && a.status !== 'empty') {
      lines.push(`${head}: ${verdict.text}${a.reason ? `: ${printable(a.reason, 300)}` : ''}`)
      continue
    }
    lines.push(`${head}: ${firedWords(a, format)}`)
    if (a.status === 'empty') lines.push(paint('yellow', `    ${verdict.text}`))
    else lines.push(`    ${sparkline(a.points)}  ${verdict.text}`)
  }
  return lines
}
