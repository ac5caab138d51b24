/**
 * Names and values in reports come from manifests and servers: untrusted text. These functions make
 * such text inert in GitHub markdown: it cannot break a table or a <details>, inject HTML or links,
 * ping people or teams, link issues, or close a code block; and what cannot be seen (bidirectional
 * controls, zero-width characters, control characters) is shown as `\u{202E}` (log.ts printable).
 */
import { printable, visible } from '../log.js'

const ZWSP = '\u200b'

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** Text for a table cell, a summary line or a list item: one line, no markup of its own. */
export function inline(value: unknown, maxLength = 300): string {
  // Markdown syntax characters, including | (table cells) and ` (code spans).
  return escapeHtml(defuse(printable(value, maxLength))).replace(/([\\`*_{}[\]()#+!|~])/g, '\\$1')
}

/**
 * Text inside raw HTML, such as a `<summary>` line: GitHub does not parse markdown there (the line is part
 * of an HTML block), so backslash escapes would show as backslashes. Instead: HTML-escaped, markdown
 * characters as character references, on one line, with mentions and autolinks defused.
 */
export function htmlText(value: unknown, maxLength = 300): string {
  // Markdown syntax as numeric references: inert even where a renderer did parse markdown. Defused
  // first, so that the `#` of a reference is not taken for an issue number.
  return escapeHtml(defuse(printable(value, maxLength))).replace(
    /[\\`*_[\]()|~]/g,
    c => `&#${c.charCodeAt(0)};`
  )
}

/**
 * Mentions, issue references and autolinks are found in the rendered text, so escaping the characters
 * is not enough: a zero-width space after `@`, after the `#` of `#123` and `owner/repo#7` and the `-` of
 * `GH-123`, and inside `://` and `www.` keeps the text readable and inert.
 */
function defuse(text: string): string {
  return text
    .replace(/@(?=[A-Za-z0-9_-])/g, `@${ZWSP}`)
    .replace(/#(?=\d)/g, `#${ZWSP}`)
    .replace(/\bGH-(?=\d)/gi, m => `${m}${ZWSP}`)
    .replace(/:\/\//g, `:${ZWSP}//`)
    .replace(/\bwww\./gi, m => `${m.slice(0, 3)}${ZWSP}.`)
}

/**
 * A fenced code block that the content cannot close: the fence is longer than any backtick run in it.
 * Nothing inside renders or links, so names stay as they are (copied from the comment, they match), but
 * for what cannot be seen.
 */
export function codeBlock(content: string, language = ''): string {
  const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map(run => run.length))
  const fence = '`'.repeat(Math.max(3, longest + 1))
  return `${fence}${language}\n${visible(content)}\n${fence}`
}

/** An inline code span for untrusted text: no backticks inside can end it early. */
export function code(value: unknown, maxLength = 200): string {
  const text = printable(value, maxLength).replace(/\|/g, '\\|')
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map(run => run.length))
  const ticks = '`'.repeat(longest + 1)
  const pad = text.startsWith('`') || text.endsWith('`') || text === '' ? ' ' : ''
  return `${ticks}${pad}${defuse(text)}${pad}${ticks}`
}

/**
 * A URL we built ourselves from a configured base and parts (links.ts encodes each path segment): safe
 * in a link target. An escape already in it stays as it is: encoded once, not `%2520`.
 */
export function linkTarget(url: string): string {
  return encodeURI(url)
    .replace(/%25([0-9A-F]{2})/gi, '%$1')
    .replace(/[()<>"']/g, c => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}
