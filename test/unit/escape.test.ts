import { describe, expect, it } from '@jest/globals'
import { code, codeBlock, inline } from '../../src/report/escape.js'

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
})
