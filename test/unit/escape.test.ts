import { describe, expect, it } from '@jest/globals'
import { code, codeBlock, htmlText, inline, linkTarget } from '../../src/report/escape.js'

describe('escaping untrusted text for GitHub markdown', () => {
  it('neutralizes HTML, table pipes and details tags', () => {
    const out = inline('<img src=x onerror=alert(1)> | </details>')
    expect(out).not.toMatch(/<|>/)
    expect(out).toContain('\\|')
    expect(out).toContain('&lt;/details&gt;')
  })
  it('breaks @mentions and autolinks with a zero-width space', () => {
    const out = inline('ping @org/team and https://evil.example and www.evil.example')
    expect(out).not.toMatch(/@[a-z]/)
    expect(out).not.toContain('://')
    expect(out).not.toMatch(/www\./)
  })
  it('cannot close a code block or span', () => {
    expect(codeBlock('a ``` b ```` c')).toMatch(/^`````\n[\s\S]*\n`````$/)
    expect(code('x ` y')).toBe('``x ` y``')
  })
  it('breaks issue references (#123, owner/repo#7, GH-12), in markdown and in raw HTML alike', () => {
    for (const out of [
      inline('fix #123 and owner/repo#7 and GH-12'),
      htmlText('fix #123 and owner/repo#7 and GH-12')
    ]) {
      expect(out).not.toMatch(/#\d/)
      expect(out).not.toMatch(/GH-\d/i)
      expect(out).toContain('#\u200b123')
    }
    // The numeric character references of raw HTML stay whole.
    expect(htmlText('`#1`')).toBe('&#96;#\u200b1&#96;')
  })
  it('shows bidirectional controls, invisible and control characters as \\u{...}, wherever the text goes', () => {
    const nasty = 'Pay\u202eevil\u200b\u2066x\u061c\u200e\u001b[2J\u0007'
    const shown = '\\u{202E}evil\\u{200B}\\u{2066}x\\u{61C}\\u{200E}\\u{1B}[2J\\u{7}'
    expect(htmlText(nasty)).toBe(`Pay${shown}`.replace(/\\/g, '&#92;').replace(/\[/g, '&#91;'))
    expect(inline(nasty)).toBe(`Pay${shown}`.replace(/([\\{}[])/g, '\\$1'))
    expect(codeBlock(nasty, 'yaml')).toBe(`\`\`\`yaml\nPay${shown}\n\`\`\``)
    // An emoji's own joiner is no trick: it stays.
    expect(inline('on call 👩‍💻')).toBe('on call 👩‍💻')
  })
  it('leaves names in code blocks as they are (code links nothing), and no name can close the block', () => {
    const yaml = 'name: "@payments-team ```www.x.io``` #12"\nnext: ````'
    const block = codeBlock(yaml, 'yaml')
    expect(block).toBe(`\`\`\`\`\`yaml\n${yaml}\n\`\`\`\`\``)
    expect(block).not.toContain('\u200b')
  })
  it('encodes a link target once: escapes already in it are kept', () => {
    const url = 'https://github.com/acme/shop/blob/abc1234/my%20team/my%20board%20%C3%BC.yaml#L3'
    expect(linkTarget(url)).toBe(url)
    expect(linkTarget('https://x.example/a b/ü(1)')).toBe('https://x.example/a%20b/%C3%BC%281%29')
  })
})
