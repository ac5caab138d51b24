/**
 * The rooms of src/ keep their word: the table of README.md ("The rooms of `src/`") is read as written, the
 * import map of src/ is read from the sources with TypeScript's parser, and each is held to the other. Every
 * folder and file of src/ has a row; every import from one room into another is one its row allows (a row
 * that says `types` allows `import type` only); no row allows what its room does not import; the rooms import
 * each other in no circle; and report/ renders: it imports plan/ and base files, and only types of apply/
 * and config/.
 */
import { describe, expect, it } from '@jest/globals'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const REPO = fileURLToPath(new URL('../..', import.meta.url))
const SRC = path.join(REPO, 'src')
const HEADING = '### The rooms of `src/`'
const BASE = 'base files'

/** One row of the table: its room, what it holds (a group's files), and what it may import. */
interface Row {
  /** `manifest/`, `mask-email.ts`, or a group's name: `base files`, `entry points`. */
  room: string
  /** README.md's line of the row. */
  line: number
  /** The "May import" cell as written. */
  mayImport: string
  /** The folder or the files of src/ that belong to the row. */
  members: string[]
  /** Room -> `types` (import type only) or `all`. */
  allows: Map<string, 'types' | 'all'>
  /** "anything above": every room before it. */
  anythingAbove: boolean
}

interface Table {
  rows: Row[]
  problems: string[]
}

/** The rooms table as README.md writes it. */
function readTable(readme: string): Table {
  const lines = readme.split('\n')
  const at = lines.indexOf(HEADING)
  if (at < 0) return { rows: [], problems: [`README.md has no heading "${HEADING}"`] }
  let i = at + 1
  while (i < lines.length && !lines[i]!.startsWith('|')) i++
  const rows: Row[] = []
  const problems: string[] = []
  // The header and its rule, then a row per line up to the table's end.
  for (i += 2; i < lines.length && lines[i]!.startsWith('|'); i++) {
    const cells = lines[i]!.split('|')
      .slice(1, -1)
      .map(c => c.trim())
    const where = `README.md:${i + 1}`
    if (cells.length !== 3) {
      problems.push(`${where}: a row of the rooms table has ${cells.length} cells, not 3`)
      continue
    }
    const [roomCell, holds, mayImport] = cells as [string, string, string]
    const named = /^`([^`]+)`$/.exec(roomCell)
    const room = named ? named[1]! : roomCell
    // A group names its files, at the top of src/, in what it holds.
    const members = named ? [room] : [...holds.matchAll(/`([^`/]+\.ts)`/g)].map(m => m[1]!)
    const row: Row = { room, line: i + 1, mayImport, members, allows: new Map(), anythingAbove: false }
    readMayImport(row, rows, where, problems)
    rows.push(row)
  }
  if (rows.length === 0) problems.push(`README.md: no table under "${HEADING}"`)
  return { rows, problems }
}

/** "`plan/`, `apply/` types, base files": each room named, said before the row, optionally with "types". */
function readMayImport(row: Row, above: readonly Row[], where: string, problems: string[]): void {
  // Words in parentheses say why, for the reader.
  const cell = row.mayImport.replace(/\s*\([^)]*\)/g, '').trim()
  if (/^(nothing|each other only)$/.test(cell)) return
  if (cell === 'anything above') {
    row.anythingAbove = true
    for (const r of above) row.allows.set(r.room, 'all')
    return
  }
  for (const item of cell.split(/,\s*/)) {
    const m = /^(?:`([^`]+)`|(base files))( types)?$/.exec(item)
    if (!m) {
      problems.push(
        `${where}: the row of ${row.room} cannot be read at "${item}": write rooms as \`folder/\`, \`file.ts\` or base files, each optionally followed by "types"`
      )
      continue
    }
    const name = m[1] ?? m[2]!
    if (!above.some(r => r.room === name))
      problems.push(
        `${where}: the row of ${row.room} allows ${name}, which is not a room listed before it (rooms import only from the ground up)`
      )
    row.allows.set(name, m[3] ? 'types' : 'all')
  }
}

/** One import of a src/ file by another, as written. */
interface Import {
  /** The importing file, from the repository's root: src/report/markdown.ts. */
  file: string
  line: number
  specifier: string
  /** The imported file, from src/: run/run.ts. */
  target: string
  /** `import type`, `export type ... from`, all of an import's names types, or `typeof import(...)`. */
  typeOnly: boolean
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(e => {
    const full = path.join(dir, e.name)
    if (e.isDirectory()) return sourceFiles(full)
    return e.name.endsWith('.ts') ? [full] : []
  })
}

function isTypeOnlyImport(clause: ts.ImportClause | undefined): boolean {
  // A bare `import './x.js'` runs the module.
  if (!clause) return false
  if (clause.isTypeOnly) return true
  if (clause.name) return false
  const bindings = clause.namedBindings
  return (
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every(e => e.isTypeOnly)
  )
}

/** Every module specifier of a file, static, `export ... from`, dynamic `import()` and `import('...')` types. */
function specifiersOf(file: string): Array<{ specifier: string; typeOnly: boolean; line: number }> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
  const found: Array<{ specifier: string; typeOnly: boolean; line: number }> = []
  const add = (literal: ts.Node, typeOnly: boolean) => {
    if (!ts.isStringLiteral(literal)) return
    const line = source.getLineAndCharacterOfPosition(literal.getStart(source)).line + 1
    found.push({ specifier: literal.text, typeOnly, line })
  }
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, isTypeOnlyImport(node.importClause))
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      const clause = node.exportClause
      const namedTypes =
        clause !== undefined &&
        ts.isNamedExports(clause) &&
        clause.elements.length > 0 &&
        clause.elements.every(e => e.isTypeOnly)
      add(node.moduleSpecifier, node.isTypeOnly || namedTypes)
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      if (node.arguments[0]) add(node.arguments[0], false)
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, true)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/** The imports of src/ files by src/ files (packages, also one reached by a path, are no room). */
function importMap(): { imports: Import[]; unresolved: string[] } {
  const imports: Import[] = []
  const unresolved: string[] = []
  for (const file of sourceFiles(SRC)) {
    const from = path.relative(REPO, file)
    for (const { specifier, typeOnly, line } of specifiersOf(file)) {
      if (!specifier.startsWith('.')) continue
      const resolved = path.resolve(path.dirname(file), specifier)
      if (path.relative(SRC, resolved).startsWith('..')) continue
      const candidates = [resolved.replace(/\.js$/, '.ts'), `${resolved}.ts`, path.join(resolved, 'index.ts')]
      const target = candidates.find(c => c.endsWith('.ts') && existsSync(c))
      if (!target) unresolved.push(`${from}:${line} imports '${specifier}', which is no file of src/`)
      else imports.push({ file: from, line, specifier, target: path.relative(SRC, target), typeOnly })
    }
  }
  return { imports, unresolved }
}

/** The row a file of src/ (`report/markdown.ts`, `log.ts`) belongs to. */
function rowOf(rows: readonly Row[], fromSrc: string): Row | undefined {
  const slash = fromSrc.indexOf('/')
  const member = slash < 0 ? fromSrc : fromSrc.slice(0, slash + 1)
  return rows.find(r => r.members.includes(member))
}

/** The imports from one room into another, with their rows. */
function crossings(rows: readonly Row[], imports: readonly Import[]) {
  return imports.flatMap(imp => {
    const from = rowOf(rows, path.relative('src', imp.file))
    const to = rowOf(rows, imp.target)
    return from && to && from !== to ? [{ imp, from, to }] : []
  })
}

const rowWords = (row: Row) => `the row of ${row.room} (README.md:${row.line}) may import: ${row.mayImport}`
const importWords = (imp: Import) => `${imp.file}:${imp.line} imports '${imp.specifier}'`

/** Each import the table does not allow, said with the file, the import and the row. */
function violations(rows: readonly Row[], imports: readonly Import[]): string[] {
  return crossings(rows, imports).flatMap(({ imp, from, to }) => {
    const allowed = from.allows.get(to.room)
    const what = `${importWords(imp)} (${to.room}${imp.typeOnly ? ', types only' : ''})`
    if (allowed === undefined) return [`${what}: ${rowWords(from)}`]
    if (allowed === 'types' && !imp.typeOnly)
      return [`${what} for its values: ${rowWords(from)} (only types of ${to.room})`]
    return []
  })
}

/** Each room a row allows that its files do not import, or import only types of: the row says more than is so. */
function overstatements(rows: readonly Row[], imports: readonly Import[]): string[] {
  const used = new Map<string, Import[]>()
  for (const { imp, from, to } of crossings(rows, imports)) {
    const key = `${from.room} -> ${to.room}`
    used.set(key, [...(used.get(key) ?? []), imp])
  }
  return rows
    .filter(row => !row.anythingAbove)
    .flatMap(row =>
      [...row.allows].flatMap(([room, allowed]) => {
        const these = used.get(`${row.room} -> ${room}`) ?? []
        if (these.length === 0)
          return [`${rowWords(row)}; no file of ${row.room} imports ${room}: take it out of the row`]
        if (allowed === 'all' && these.every(i => i.typeOnly))
          return [`${rowWords(row)}; ${row.room} imports only types of ${room}: write \`${room}\` types`]
        return []
      })
    )
}

/** The circles of the rooms' import graph, each as its rooms and one import per step. */
function circles(rows: readonly Row[], imports: readonly Import[]): string[] {
  const edges = new Map<string, Map<string, Import>>()
  for (const { imp, from, to } of crossings(rows, imports)) {
    const out = edges.get(from.room) ?? new Map<string, Import>()
    if (!out.has(to.room)) out.set(to.room, imp)
    edges.set(from.room, out)
  }
  // Depth first: an edge back to a room on the path closes a circle.
  const found: string[] = []
  const state = new Map<string, 'open' | 'done'>()
  const trail: string[] = []
  const walk = (room: string) => {
    state.set(room, 'open')
    trail.push(room)
    for (const next of edges.get(room)?.keys() ?? []) {
      if (state.get(next) === 'open') {
        const loop = [...trail.slice(trail.indexOf(next)), next]
        const steps = loop.slice(0, -1).map((r, k) => importWords(edges.get(r)!.get(loop[k + 1]!)!))
        found.push(`${loop.join(' -> ')}: ${steps.join('; ')}`)
      } else if (!state.has(next)) walk(next)
    }
    trail.pop()
    state.set(room, 'done')
  }
  for (const room of edges.keys()) if (!state.has(room)) walk(room)
  return found
}

const table = readTable(readFileSync(path.join(REPO, 'README.md'), 'utf8'))
const map = importMap()
const roomOf = (name: string) => table.rows.find(r => r.room === name)

describe('the rooms table of README.md', () => {
  it('reads: each row names rooms listed before it', () => {
    expect(table.problems).toEqual([])
    expect(table.rows.length).toBeGreaterThan(10)
  })

  it('has a row for every folder and file of src/, and names only what is there', () => {
    const entries = readdirSync(SRC, { withFileTypes: true })
      .filter(e => e.isDirectory() || e.name.endsWith('.ts'))
      .map(e => (e.isDirectory() ? `${e.name}/` : e.name))
    const missing = entries
      .filter(e => !table.rows.some(r => r.members.includes(e)))
      .map(e => `src/${e} has no row in README.md's rooms table: add one (what it holds, what it may import)`)
    const twice = entries
      .filter(e => table.rows.filter(r => r.members.includes(e)).length > 1)
      .map(e => `src/${e} is in more than one row of README.md's rooms table`)
    const gone = table.rows.flatMap(r =>
      r.members
        .filter(m => !entries.includes(m))
        .map(m => `the row of ${r.room} (README.md:${r.line}) names ${m}, which src/ does not hold`)
    )
    expect([...missing, ...twice, ...gone]).toEqual([])
  })
})

describe('the import map of src/', () => {
  it('is read whole: every import of a src/ file finds its file', () => {
    expect(map.unresolved).toEqual([])
    // The map is not empty by a parsing mistake: the pipeline's own imports are in it.
    expect(map.imports).toContainEqual(
      expect.objectContaining({ file: 'src/run/online.ts', target: 'planner/planner.ts', typeOnly: false })
    )
    expect(map.imports).toContainEqual(
      expect.objectContaining({ file: 'src/report/input.ts', target: 'config/types.ts', typeOnly: true })
    )
  })

  it('imports across rooms only what the rows allow', () => {
    expect(violations(table.rows, map.imports)).toEqual([])
  })

  it('is all the rows say: no row allows what its room does not import', () => {
    expect(overstatements(table.rows, map.imports)).toEqual([])
  })

  it('has no circle between rooms', () => {
    expect(circles(table.rows, map.imports)).toEqual([])
  })

  it('keeps report/ a renderer: plan/ and base files, and only types of apply/ and config/', () => {
    const report = roomOf('report/')!
    expect(Object.fromEntries(report.allows)).toEqual({
      'plan/': 'all',
      'apply/': 'types',
      'config/': 'types',
      [BASE]: 'all'
    })
    const reached = crossings(table.rows, map.imports)
      .filter(({ from }) => from === report)
      .filter(({ imp, to }) => {
        if (to.room === 'plan/' || to.room === BASE) return false
        return !((to.room === 'apply/' || to.room === 'config/') && imp.typeOnly)
      })
      .map(({ imp }) => importWords(imp))
    expect(reached).toEqual([])
  })

  it('keeps run/ from report/ and github/: the entry points render and talk to GitHub', () => {
    const run = roomOf('run/')!
    expect(run.allows.has('report/')).toBe(false)
    expect(run.allows.has('github/')).toBe(false)
  })
})

describe('the check itself', () => {
  const at = (file: string, specifier: string, target: string, typeOnly = false): Import => ({
    file,
    line: 3,
    specifier,
    target,
    typeOnly
  })

  it('names the file, the import and the row of an import the table does not allow', () => {
    const report = roomOf('report/')!
    expect(violations(table.rows, [at('src/report/markdown.ts', '../run/run.js', 'run/run.ts')])).toEqual([
      `src/report/markdown.ts:3 imports '../run/run.js' (run/): the row of report/ (README.md:${report.line}) may import: ${report.mayImport}`
    ])
    // A row that allows types only refuses a value.
    expect(
      violations(table.rows, [at('src/report/model.ts', '../config/parse.js', 'config/parse.ts')])
    ).toEqual([
      expect.stringMatching(
        /^src\/report\/model\.ts:3 imports '..\/config\/parse\.js' \(config\/\) for its values: the row of report\/ .*\(only types of config\/\)$/
      )
    ])
    expect(
      violations(table.rows, [at('src/report/model.ts', '../config/types.js', 'config/types.ts', true)])
    ).toEqual([])
  })

  it('finds a circle between rooms', () => {
    const loop = [
      at('src/plan/types.ts', '../planner/planner.js', 'planner/planner.ts'),
      at('src/planner/planner.ts', '../plan/types.js', 'plan/types.ts')
    ]
    expect(circles(table.rows, loop)).toEqual([
      "plan/ -> planner/ -> plan/: src/plan/types.ts:3 imports '../planner/planner.js'; src/planner/planner.ts:3 imports '../plan/types.js'"
    ])
  })
})
