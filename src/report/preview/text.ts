/**
 * The preview for a terminal (`obsdeploy plan --preview`): the same pictures and data lines as the comment,
 * as plain lines. Sparklines only (a terminal draws no mermaid); names are printable (log.ts). Colour is
 * the caller's: changed rows green, the old rows red, a query without data red.
 */
import { printable } from '../../log.js'
import type { Plan } from '../../plan/types.js'
import { plural } from '../wording.js'
import { layoutPicture } from './grid.js'
import { layoutWords, previewModel } from './model.js'
import {
  alertBody,
  alertSummary,
  barLines,
  CELL_LENGTH,
  labelText,
  renderPhrase,
  tileView,
  type Block,
  type Phrase
} from './views.js'

type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'magenta' | 'cyan'
export type Paint = (style: Style, text: string) => string

/** A phrase on a terminal: the data's text printable (no escape sequence gets through), names quoted. */
export function textPhrase(phrase: Phrase): string {
  return renderPhrase(phrase, {
    data: t => printable(t, 300),
    name: t => `"${printable(t, 60)}"`,
    spark: t => t,
    loud: t => t
  })
}

/** A block as lines under its item, indented by `pad`. */
function textBlock(block: Block, pad: string): string[] {
  switch (block.kind) {
    case 'rows':
      return block.rows.map(r => `${pad}${textPhrase(r)}`)
    case 'table': {
      const rows = [block.columns, ...block.rows].map(r =>
        block.columns.map((_, i) => printable(r[i] ?? '', CELL_LENGTH))
      )
      const widths = block.columns.map((_, i) => Math.max(...rows.map(r => [...r[i]!].length)))
      return rows.map(r =>
        `${pad}${r.map((c, i) => c + ' '.repeat(widths[i]! - [...c].length)).join(' | ')}`.trimEnd()
      )
    }
    case 'bars':
      return barLines(
        block.rows.map(r => ({ label: labelText(r.label), bar: r.bar, value: printable(r.value, 40) }))
      ).map(l => `${pad}${l}`)
    case 'code':
      return block.lines.map(l => `${pad}${l}`)
    case 'mermaid':
      return []
  }
}

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
  const noChart = () => false
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
        const view = tileView(t, noChart, model.hide)
        const text = `  data "${printable(t.tile, 100)}": ${textPhrase(view.head)}`
        lines.push(
          view.tone === 'error' ? paint('red', text) : view.tone === 'warn' ? paint('yellow', text) : text
        )
        for (const b of view.blocks) lines.push(...textBlock(b, '    '))
      }
    }
  }
  if (model.alerts.length > 0)
    lines.push(
      '',
      paint('bold', `Alerts replayed over the last 7 days (${plural(model.alerts.length, 'alert')}):`)
    )
  for (const a of model.alerts) {
    const view = alertSummary(a)
    const text = `  alert "${printable(a.alert, 100)}": ${textPhrase(view.head)}`
    lines.push(
      view.tone === 'error' ? paint('red', text) : view.tone === 'warn' ? paint('yellow', text) : text
    )
    for (const b of alertBody(a, noChart)) lines.push(...textBlock(b, '    '))
  }
  return lines
}
