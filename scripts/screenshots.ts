/**
 * `npm run screenshots`: the demo's pull request comments and job summary as GitHub shows them, written
 * to docs/images/ for the README. The built action (dist/index.js) runs as the runner runs it against the
 * emulator and a loopback stand-in for GitHub's API; its markdown is rendered by a GFM renderer with
 * GitHub's markdown CSS, and Debian's headless Chromium takes the picture at 900 px wide, <details>
 * closed as GitHub first shows them. Run it before a release; it is not part of `npm test`.
 * The preview's mermaid charts are drawn as GitHub draws them: by the `mermaid` package, in the page, from each
 * `mermaid` code block (the sparkline beside each is what every other client shows).
 *
 * Scenario 4 is the preview with each kind of chart (a grouped line, a number, a table, a pie, a search tile
 * and an alert's replay) over a week of made-up storefront logs (screenshots-data.ts). It pictures what the
 * built action renders, whichever renderer that is: re-run the script after a change to the preview.
 *
 * Needs Debian's Chromium and the fonts GitHub's font stacks fall back to on Linux (screenshots-fonts.ts):
 * `apt-get install -y chromium fonts-dejavu-core fonts-noto-core fonts-noto-color-emoji` (Chromium at
 * /usr/bin/chromium; override with CHROMIUM). Without an emoji font, or with a monospace font that lacks the
 * sparkline's blocks, the pictures show boxes where GitHub shows glyphs: the script checks first and stops,
 * naming the packages, and stops again if any character of a report has no font.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Page } from 'playwright-core'
import { renderGfm } from '../test/support/gfm.js'
import { checkFonts, FONT_FACES, missingGlyphs, PACKAGES, SANS } from './screenshots-fonts.js'
import { runScenarios, type Shot } from './screenshots-scenarios.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const images = path.join(root, 'docs', 'images')
const scratch = path.join(root, '.obsdeploy', 'screenshots')
const WIDTH = 900

/** Each `mermaid` code block as GitHub shows it: drawn by the mermaid package (a chart, in place of its source). */
async function drawMermaid(page: Page): Promise<void> {
  const blocks = await page.locator('pre > code.language-mermaid').count()
  if (blocks === 0) return
  await page.addScriptTag({ path: path.join(root, 'node_modules', 'mermaid', 'dist', 'mermaid.min.js') })
  // In the page (this project's types have no DOM): each block becomes a drawing.
  await page.evaluate(`(async () => {
    const nodes = [...document.querySelectorAll('pre > code.language-mermaid')].map(code => {
      const div = document.createElement('div')
      div.className = 'mermaid'
      div.textContent = code.textContent
      code.parentElement.replaceWith(div)
      return div
    })
    mermaid.initialize({ startOnLoad: false, theme: 'default' })
    await mermaid.run({ nodes })
  })()`)
}

const css = readFileSync(
  path.join(root, 'node_modules', 'github-markdown-css', 'github-markdown-light.css'),
  'utf8'
)
const profile = mkdtempSync(path.join(tmpdir(), 'obsdeploy-chromium-'))
// A fresh profile each time (playwright passes it as --user-data-dir). Opened first: a missing font stops
// the script before the demo runs, not after.
const browser = await chromium
  .launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync'
    ],
    viewport: { width: WIDTH, height: 600 },
    deviceScaleFactor: 1
  })
  .catch((error: unknown) => {
    throw new Error(
      `Chromium did not start (${error instanceof Error ? error.message.split('\n')[0] : String(error)}): apt-get install -y ${PACKAGES}, or set CHROMIUM`
    )
  })
try {
  const page = await browser.newPage()
  await checkFonts(page)
  const shots = await runScenarios(root)
  mkdirSync(images, { recursive: true })
  mkdirSync(scratch, { recursive: true })
  for (const shot of shots) {
    // The markdown beside, for a look at what was rendered (not committed).
    writeFileSync(path.join(scratch, `${shot.name}.md`), shot.markdown)
    const missing = missingGlyphs(shot.markdown)
    if (missing.length > 0)
      throw new Error(
        `${shot.name}: no installed font has ${missing.join(', ')}: the picture would show a box where a reader on GitHub sees a glyph. Install a font that has it (apt-cache search fonts-), then re-run.`
      )
    const where = shot.name.startsWith('job-summary') ? 'summary' : 'comment'
    await page.setContent(pageHtml(shot.markdown, where, shot.open, css), { waitUntil: 'load' })
    await drawMermaid(page)
    await page.screenshot({ path: path.join(images, `${shot.name}.png`), fullPage: true })
    console.log(`docs/images/${shot.name}.png: ${shot.title}`)
  }
} finally {
  await browser.close()
  rmSync(profile, { recursive: true, force: true })
}

/** A GitHub comment (or job summary) box around the rendered markdown, with what GitHub's renderer adds. */
function pageHtml(markdown: string, where: 'comment' | 'summary', open: Shot['open'], css: string): string {
  let html = githubTouches(renderGfm(markdown.replace(/^<!--[^\n]*-->\n/, '')))
  if (open === true) html = html.replace(/<details>/g, '<details open>')
  else if (open) {
    // Only the sections after a heading: the pull request's preview, not the changes above it.
    const at = html.search(new RegExp(`<h[1-6]>[^<]*${open.after}`))
    if (at < 0) throw new Error(`no heading "${open.after}" to open the sections after`)
    html = html.slice(0, at) + html.slice(at).replace(/<details>/g, '<details open>')
  }
  return `<!doctype html><html><head><meta charset="utf-8"><style>${css}
${FONT_FACES}
body { margin: 0; background: #fff; font-family: ${SANS}; }
.box { margin: 16px; border: 1px solid #d1d9e0; border-radius: 6px; }
.box-header { background: #f6f8fa; border-bottom: 1px solid #d1d9e0; padding: 8px 16px; font-size: 14px; color: #59636e; border-radius: 6px 6px 0 0; }
.box-header b { color: #1f2328; }
.markdown-body { padding: 16px; font-size: 14px; }
</style></head><body><div class="box"><div class="box-header">${
    where === 'comment' ? '<b>github-actions</b> <span>bot</span> commented' : '<b>apply summary</b>'
  }</div>
<div class="markdown-body">${html}</div></div></body></html>`
}

/**
 * What github.com adds to the HTML of a comment: coloured lines in ```diff blocks, YAML keys in colour,
 * and `> [!WARNING]` quotes as alert boxes.
 */
function githubTouches(html: string): string {
  return html
    .replace(/<code class="language-diff">([\s\S]*?)<\/code>/g, (_m, body: string) => {
      const lines = body
        .split('\n')
        .map(line =>
          line.startsWith('+')
            ? `<span class="pl-mi1">${line}</span>`
            : line.startsWith('-')
              ? `<span class="pl-md">${line}</span>`
              : line
        )
      return `<code class="language-diff">${lines.join('\n')}</code>`
    })
    .replace(/<code class="language-yaml">([\s\S]*?)<\/code>/g, (_m, body: string) => {
      const lines = body
        .split('\n')
        .map(line =>
          line.replace(/^(\s*(?:- )?)([^:\s'&][^:]*?)(:(?: |$))/, '$1<span class="pl-ent">$2</span>$3')
        )
      return `<code class="language-yaml">${lines.join('\n')}</code>`
    })
    .replace(
      /<blockquote>\n<p>\[!WARNING\]\n?([\s\S]*?)<\/blockquote>/g,
      '<div class="markdown-alert markdown-alert-warning"><p class="markdown-alert-title">Warning</p><p>$1</div>'
    )
}
