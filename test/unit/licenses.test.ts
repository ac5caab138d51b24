/**
 * The build's merge of ncc's per-chunk licence files (scripts/licenses.ts): every package once, its whole
 * licence text kept, blank lines inside a licence included.
 */
import { describe, expect, it } from '@jest/globals'
import { mergeNotices, parseNotices } from '../../scripts/licenses.js'

const installed = new Set(['undici', 'yaml', 'zod', '@octokit/core'])
const isPackage = (name: string) => installed.has(name)

const MIT = (who: string) =>
  `MIT License\n\nCopyright (c) ${who}\n\nPermission is hereby granted, free of charge.\n`
// ncc's format: name, licence id, text, then a blank line between packages.
const mainChunk = `yaml\nISC\nCopyright Eemeli Aro\n\nzod\nMIT\n${MIT('Colin McDonnell')}\nundici\nMIT\n${MIT('Matteo Collina')}\n`
const lazyChunk = `@octokit/core\nMIT\n${MIT('Octokit')}\nundici\nMIT\n${MIT('Matteo Collina')}\n`

describe('licence notices', () => {
  it('splits a file at package names, not at the blank lines inside a licence', () => {
    const notices = parseNotices(mainChunk, isPackage)
    expect(notices.map(n => n.name)).toEqual(['yaml', 'zod', 'undici'])
    expect(notices[1].text).toBe(`zod\nMIT\n${MIT('Colin McDonnell').trim()}`)
  })

  it('does not take a line of licence text for a package that is not installed', () => {
    const text = 'zod\nMIT\nMIT License\n\nsomething\nMIT\nstill the text of zod\n'
    expect(parseNotices(text, isPackage).map(n => n.name)).toEqual(['zod'])
  })

  it('merges the chunks of a bundle: each package once, sorted by name', () => {
    const merged = mergeNotices([mainChunk, lazyChunk], isPackage)
    expect(parseNotices(merged, isPackage).map(n => n.name)).toEqual([
      '@octokit/core',
      'undici',
      'yaml',
      'zod'
    ])
    expect(merged.split('Matteo Collina')).toHaveLength(2)
    expect(merged).toContain(`@octokit/core\nMIT\n${MIT('Octokit')}\nundici\nMIT\n`)
    expect(merged.endsWith('free of charge.\n')).toBe(true)
  })

  it('refuses a file that does not start with a package it knows', () => {
    expect(() => parseNotices('left-pad\nWTFPL\ntext\n', isPackage)).toThrow(/must start with a package name/)
  })
})
