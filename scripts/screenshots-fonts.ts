/**
 * The fonts `npm run screenshots` draws with, so a picture shows what a reviewer sees on github.com and
 * never a box where a glyph is missing. GitHub's font stacks (Primer's, which github-markdown-css copies)
 * name fonts this machine lacks and fall back to fonts it has:
 * - text: `-apple-system, ..., "Noto Sans", ..., "Apple Color Emoji", "Segoe UI Emoji"`: Noto Sans as on
 *   Linux and Android, and emoji from Noto Color Emoji (what fontconfig falls back to for them);
 * - code: `ui-monospace, SFMono-Regular, SF Mono, Menlo, Consolas, Liberation Mono, monospace`. A Mac draws
 *   code in Menlo, a Windows PC in Consolas: both have all eight sparkline blocks ▁ to █ in one face. Here
 *   "Menlo" is DejaVu Sans Mono (Menlo is Apple's version of Bitstream Vera Sans Mono, which DejaVu Sans
 *   Mono extends), declared with @font-face below: else Liberation Mono, if installed, wins the stack and
 *   draws only ▄ and █ itself, the other six falling back to another font of another height.
 * At start the script asks Chromium which fonts it drew a probe with (DevTools' CSS.getPlatformFontsForNode)
 * and stops, naming the Debian packages, if it is not these; before each picture it asks fontconfig (the
 * fallback Chromium uses on Linux) for a font with each character of the markdown.
 */
import { execFileSync } from 'node:child_process'
import type { Page } from 'playwright-core'

/** What to install on Debian (bookworm) for the pictures, Chromium included. */
export const PACKAGES = 'chromium fonts-dejavu-core fonts-noto-core fonts-noto-color-emoji'

/** GitHub's stacks (Primer's --fontStack-sansSerif and --fontStack-monospace). */
export const SANS =
  '-apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif, "Apple Color Emoji", "Segoe UI Emoji"'
export const MONO = 'ui-monospace, SFMono-Regular, SF Mono, Menlo, Consolas, Liberation Mono, monospace'

/** Menlo and Apple Color Emoji, by the fonts that stand in for them here. */
export const FONT_FACES = `
@font-face { font-family: Menlo; src: local("DejaVu Sans Mono"), local("DejaVuSansMono"); }
@font-face { font-family: Menlo; font-weight: 600 700; src: local("DejaVu Sans Mono Bold"), local("DejaVuSansMono-Bold"); }
@font-face { font-family: "Apple Color Emoji"; src: local("Noto Color Emoji"), local("NotoColorEmoji"); }
`

/** Each probe: text in the report's font, and the one font every glyph of it must come from. */
const PROBES = [
  { css: SANS, text: 'Plan for stack shop', font: 'Noto Sans', packageName: 'fonts-noto-core' },
  { css: SANS, text: '🔔🖼️📐⚠️✏️ℹ️❌✅🗑️', font: 'Noto Color Emoji', packageName: 'fonts-noto-color-emoji' },
  // The sparkline's eight heights, and the eighths a bar ends in (pie and bar tiles).
  { css: MONO, text: '▁▂▃▄▅▆▇█▉▊▋▌▍▎▏', font: 'DejaVu Sans Mono', packageName: 'fonts-dejavu-core' },
  { css: MONO, text: '┌─┐│└┘╔═╗║╚╝', font: 'DejaVu Sans Mono', packageName: 'fonts-dejavu-core' }
]

/** Stops with what to install unless Chromium draws each probe wholly in its font. */
export async function checkFonts(page: Page): Promise<void> {
  const spans = PROBES.map((p, i) => `<span id="p${i}" style='font-family: ${p.css}'>${p.text}</span>`).join(
    ' '
  )
  await page.setContent(`<!doctype html><meta charset="utf-8"><style>${FONT_FACES}</style>${spans}`)
  await page.evaluate('document.fonts.ready')
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('DOM.enable')
  await cdp.send('CSS.enable')
  const { root } = await cdp.send('DOM.getDocument')
  const wrong: string[] = []
  for (const [i, probe] of PROBES.entries()) {
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: `#p${i}` })
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId })
    const used = fonts.map(f => f.familyName)
    if (used.length !== 1 || used[0] !== probe.font)
      wrong.push(
        `"${probe.text}" is drawn in ${used.join(' + ') || 'nothing'}, not ${probe.font} (${probe.packageName})`
      )
  }
  await cdp.detach()
  if (wrong.length > 0)
    throw new Error(
      `the pictures would not show what GitHub shows:\n  ${wrong.join('\n  ')}\n` +
        `Install the fonts: apt-get install -y ${PACKAGES}`
    )
}

const covered = new Map<number, boolean>()

/** Whether some installed font has the character (fontconfig: what Chromium falls back to on Linux). */
function hasFont(codePoint: number): boolean {
  let known = covered.get(codePoint)
  if (known === undefined) {
    const out = execFileSync('fc-list', [`:charset=${codePoint.toString(16)}`, 'family'], {
      encoding: 'utf8'
    })
    known = out.trim() !== ''
    covered.set(codePoint, known)
  }
  return known
}

/**
 * The characters of a text no installed font has (each would be a box), as "U+2581 ▁". Marks, format
 * characters (zero-width space, joiners, variation selectors) and ASCII need no glyph of their own.
 */
export function missingGlyphs(text: string): string[] {
  const missing = new Set<string>()
  for (const ch of new Set(text)) {
    const cp = ch.codePointAt(0)!
    if (cp < 0x80 || /[\p{M}\p{Cf}\p{Cc}\s]/u.test(ch)) continue
    if (!hasFont(cp)) missing.add(`U+${cp.toString(16).toUpperCase().padStart(4, '0')} ${ch}`)
  }
  return [...missing]
}
