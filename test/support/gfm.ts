/**
 * Markdown as GitHub renders it, for tests and screenshots: micromark with its GFM extension (the
 * CommonMark and GFM specs, tables, autolink literals and the tag filter GitHub applies), raw HTML
 * allowed as GitHub allows <details>, <summary>, <a>, <b> and <code>. Tests query the result as a DOM.
 */
import { micromark } from 'micromark'
import { gfm, gfmHtml } from 'micromark-extension-gfm'
import { parse, type HTMLElement } from 'node-html-parser'

export function renderGfm(markdown: string): string {
  return micromark(markdown, {
    allowDangerousHtml: true,
    extensions: [gfm()],
    htmlExtensions: [gfmHtml()]
  })
}

/** The rendered markdown as a DOM to query (`querySelectorAll('table td')`). */
export function gfmDom(markdown: string): HTMLElement {
  // <pre> parsed as elements too (by default the parser keeps its content as raw text).
  return parse(renderGfm(markdown), { blockTextElements: { script: true, noscript: true, style: true } })
}
