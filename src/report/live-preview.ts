/**
 * The plan's live preview section (plan/live-preview.ts) in words: each preview copy written, updated or deleted,
 * linked to the web UI (`ui-url`), the raw SQL tiles left out of it, the old copies swept, and why no copy was
 * written when none was. One list of lines for both formats; markdown escapes every name, the terminal makes it
 * printable.
 */
import { printable } from '../log.js'
import type { LivePreview, LivePreviewCopy, SweptCopy } from '../plan/live-preview.js'
import type { Cuttable } from './budget.js'
import { code, inline, linkTarget } from './escape.js'
import { dashboardLink } from './links.js'
import { listOfCounts, plural } from './wording.js'

const VERB: Record<LivePreviewCopy['action'], string> = {
  created: 'created',
  updated: 'updated',
  deleted: 'deleted',
  kept: 'kept as an earlier push wrote it',
  failed: 'failed'
}

/** After the changes of creates and updates, before warnings: a reviewer's link to the copies stays long. */
const CUT_LIVE_PREVIEW = 15

type Name = (name: string, url?: string) => string

export function livePreviewMarkdown(section: LivePreview | undefined, uiUrl: string | undefined): Cuttable[] {
  if (!section) return []
  const name: Name = (text, url) => (url ? `[${inline(text, 200)}](${linkTarget(url)})` : code(text, 200))
  return [
    {
      head: `#### 🔎 ${headLine(section)}\n\n`,
      items: lines(section, uiUrl, name, inline).map(l => `- ${l}\n`),
      tail: '\n',
      omitted: n => `- and ${listOfCounts([[n, 'more copy', 'more copies']])} (the plan file lists them)\n`,
      cutOrder: CUT_LIVE_PREVIEW,
      keepHeadWhenEmpty: true
    }
  ]
}

export function livePreviewText(section: LivePreview | undefined, uiUrl: string | undefined): string[] {
  if (!section) return []
  const name: Name = (text, url) => (url ? `${printable(text, 200)} ${url}` : printable(text, 200))
  return [headLine(section), ...lines(section, uiUrl, name, t => printable(t, 300)).map(l => `  ${l}`)]
}

function headLine(section: LivePreview): string {
  const of = section.pullRequest !== undefined ? ` of pull request #${section.pullRequest}` : ''
  const requests = `${plural(section.requests, 'request')} to the live server`
  const notWritten = section.notWritten !== undefined ? ': no copy written' : ''
  return `Live preview${of}${notWritten} (${requests})`
}

function lines(
  section: LivePreview,
  uiUrl: string | undefined,
  name: Name,
  text: (t: string) => string
): string[] {
  const out: string[] = []
  if (section.notWritten !== undefined) out.push(text(`${section.notWritten}.`))
  for (const c of section.copies) out.push(copyLine(c, uiUrl, name, text))
  for (const s of section.swept) out.push(sweptLine(s, name, text))
  if (out.length === 0 && section.pullRequest !== undefined)
    out.push(text('No copy: the plan creates or changes no dashboard.'))
  return out
}

function copyLine(
  c: LivePreviewCopy,
  uiUrl: string | undefined,
  name: Name,
  text: (t: string) => string
): string {
  const linked = c.action === 'created' || c.action === 'updated' || c.action === 'kept'
  const url = linked ? dashboardLink(uiUrl, c.id) : undefined
  const parts = [`${VERB[c.action]} ${name(c.name, url)}`]
  if (c.action === 'deleted') parts.push(text('(its dashboard is no longer changed by this pull request)'))
  if (c.sqlLeftOut?.length)
    parts.push(
      text(
        `without its raw SQL ${c.sqlLeftOut.length === 1 ? 'tile' : 'tiles'} ${c.sqlLeftOut.map(t => `"${t}"`).join(', ')} (live-preview-sql: false)`
      )
    )
  return `${parts.join(' ')}${c.problem !== undefined ? text(`: ${c.problem}`) : ''}`
}

function sweptLine(s: SweptCopy, name: Name, text: (t: string) => string): string {
  const verb = s.problem === undefined ? 'swept' : 'could not sweep'
  return `${verb} ${name(s.name)} ${text(`(${s.why})${s.problem !== undefined ? `: ${s.problem}` : ''}`)}`
}
