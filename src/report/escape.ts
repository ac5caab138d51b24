/**
 * Names and values in reports come from manifests and servers: untrusted text. These functions make
 * such text inert in GitHub markdown: it cannot break a table or a <details>, inject HTML or links,
 * ping people or teams, or close a code block.
 */

const ZWSP = '\u200b'

/** Any value as one line of text, shortened to `maxLength`. */
function oneLine(value: unknown, maxLength: number): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))
  return (text.length > maxLength ? `${text.slice(0, maxLength)}…` : text).replace(/[\r\n\t]+/g, ' ')
}

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** Text for a table cell, a summary line or a list item: one line, no markup of its own. */
export function inline(value: unknown, maxLength = 300): string {
  // Markdown syntax characters, including | (table cells) and ` (code spans).
  return defuse(escapeHtml(oneLine(value, maxLength)).replace(/([\\`*_{}[\]()#+!|~])/g, '\\$1'))
}

/**
 * Text inside raw HTML, such as a `<summary>` line: GitHub does not parse markdown there (the line is part
 * of an HTML block), so backslash escapes would show as backslashes. Instead: HTML-escaped, markdown
 * characters as character references, on one line, with mentions and autolinks defused.
 */
export function htmlText(value: unknown, maxLength = 300): string {
  // Markdown syntax as numeric references: inert even where a renderer did parse markdown.
  return defuse(
    escapeHtml(oneLine(value, maxLength)).replace(/[\\`*_[\]()|~]/g, c => `&#${c.charCodeAt(0)};`)
  )
}

/**
 * Mentions and autolinks are found in the rendered text, so escaping the characters is not enough: a
 * zero-width space after `@` and inside `://` and `www.` keeps the text readable and inert.
 */
function defuse(text: string): string {
  return text
    .replace(/@(?=[A-Za-z0-9_-])/g, `@${ZWSP}`)
    .replace(/:\/\//g, `:${ZWSP}//`)
    .replace(/\bwww\./gi, m => `${m.slice(0, 3)}${ZWSP}.`)
}

/** A fenced code block that the content cannot close: the fence is longer than any backtick run in it. */
export function codeBlock(content: string, language = ''): string {
  const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map(run => run.length))
  const fence = '`'.repeat(Math.max(3, longest + 1))
  // Inside a block nothing renders, except that GitHub still links mentions in some clients: defuse.
  return `${fence}${language}\n${defuse(content)}\n${fence}`
}

/** An inline code span for untrusted text: no backticks inside can end it early. */
export function code(value: unknown, maxLength = 200): string {
  let text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))
  if (text.length > maxLength) text = `${text.slice(0, maxLength)}…`
  text = text.replace(/[\r\n\t]+/g, ' ').replace(/\|/g, '\\|')
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map(run => run.length))
  const ticks = '`'.repeat(longest + 1)
  const pad = text.startsWith('`') || text.endsWith('`') || text === '' ? ' ' : ''
  return `${ticks}${pad}${defuse(text)}${pad}${ticks}`
}

/** A URL we built ourselves from a configured base and an id: safe in a link target. */
export function linkTarget(url: string): string {
  return encodeURI(url).replace(/[()<>"']/g, c => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}
