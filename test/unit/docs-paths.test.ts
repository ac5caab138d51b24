/**
 * The documents name this repository's files as they are: every path they give under src/, emulator/, test/ and the
 * other folders exists, and a name written right after a path (`emulator/rules/dashboard-handler.ts`
 * `dashboardHandlerProblem`) is in that file. A file that is split, renamed or emptied of a function fails here, with
 * the document and line, until the documents follow. CHANGELOG.md is left out: it may name what a release removed.
 */
import { describe, expect, it } from '@jest/globals'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const REPO = fileURLToPath(new URL('../..', import.meta.url))
const DOCUMENTS = [
  ...readdirSync(path.join(REPO, 'docs'))
    .filter(f => f.endsWith('.md'))
    .map(f => `docs/${f}`),
  'README.md',
  'CONTRIBUTING.md',
  'RELEASING.md',
  'SECURITY.md'
]
/** A path of this repository: one of its folders at the start, not the tail of another path (HyperDX's `packages/api/src/…`). */
const PATH = /(?<![\w/.-])((?:src|emulator|test|bench|scripts|schema|examples|docs)\/[\w./-]*\w)(?![\w*])/g
/** A path in backticks (not a glob), then the names in backticks that follow it: `` `a/b.ts` `f`, `g` ``. */
const NAMED = /`((?:src|emulator|test)\/[^`\s]+)`((?: `[A-Za-z_$][\w$.]*`,?)+)/g

interface Cited {
  document: string
  line: number
  path: string
  names: string[]
}

function cited(document: string): Cited[] {
  const text = readFileSync(path.join(REPO, document), 'utf8')
  const lineAt = (index: number) => text.slice(0, index).split('\n').length
  const paths = [...text.matchAll(PATH)].map(m => ({
    document,
    line: lineAt(m.index),
    path: m[1]!,
    names: []
  }))
  const named = [...text.matchAll(NAMED)]
    .filter(m => !m[1]!.includes('*'))
    .map(m => ({
      document,
      line: lineAt(m.index),
      path: m[1]!,
      // `Dashboard.name` is looked up as `Dashboard`.
      names: [...m[2]!.matchAll(/`([A-Za-z_$][\w$]*)/g)].map(n => n[1]!)
    }))
  return [...paths, ...named]
}

const all = DOCUMENTS.flatMap(cited)
const where = (c: Cited) => `${c.document}:${c.line} ${c.path}`

describe('the paths the documents name', () => {
  it('finds the paths and names to check', () => {
    expect(all.length).toBeGreaterThan(500)
    expect(all.filter(c => c.names.length > 0).length).toBeGreaterThan(200)
  })

  it('names only files and folders that exist', () => {
    expect(all.filter(c => !existsSync(path.join(REPO, c.path))).map(where)).toEqual([])
  })

  it('finds each name given after a file in that file', () => {
    const missing = all
      .filter(c => c.names.length > 0 && existsSync(path.join(REPO, c.path)))
      .filter(c => statSync(path.join(REPO, c.path)).isFile())
      .flatMap(c => {
        const source = readFileSync(path.join(REPO, c.path), 'utf8')
        return c.names
          .filter(name => !new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`).test(source))
          .map(name => `${where(c)} ${name}`)
      })
    expect(missing).toEqual([])
  })
})
