/**
 * One kind, one place: what differs by kind is a member of its Kind (src/kinds/), and the engine around the kinds
 * names none. This test lists every file of src/ outside kinds/ whose code names a kind (a string or an identifier
 * spelled like one: `'Dashboard'`, `specs.Alert`, `{ Source: ... }`; comments and prose do not count) and holds
 * the list to the short one below, each with its reason. A new place fails the test: move the difference into
 * the kind, or add the place here with a reason a reviewer can weigh. A place that no longer names a kind fails too,
 * so the list stays true.
 */
import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from '@jest/globals'
import ts from 'typescript'
import { MANIFEST_KINDS } from '../../src/manifest/vocabulary.js'

const SRC = path.join(import.meta.dirname, '../../src')

/** Files (relative to src/) allowed to name kinds, and why. */
const ALLOWED: Readonly<Record<string, string>> = {
  'manifest/vocabulary.ts': 'the vocabulary: the kinds and their order',
  'manifest/schema.ts':
    'the manifest language: each kind’s schema, built offline before any kind’s code loads',
  'manifest/load.ts':
    'the manifest language: each kind’s document checks (one record over the vocabulary, so none is left out) and the rules across documents (unique names, a saved search an alert needs)',
  'manifest/resource-rules.ts': 'the manifest language: the document rules of the record kinds',
  'manifest/resources-schema.ts': 'the manifest language: the schemas of the record kinds',
  'manifest/role-schema.ts': 'the manifest language: the role’s schema',
  'manifest/dashboard-schema.ts': 'the manifest language: the dashboard’s schema',
  'manifest/alert-schema.ts': 'the manifest language: the alert’s schema',
  'manifest/service-settings-schema.ts': 'the manifest language: the service settings’ schema',
  'policy/recommended.ts':
    'the recommended policy pack is policy text about kinds, as a user’s own rules are',
  'policy/rules.ts': 'a policy names a document as the loader does: a team member by its email',
  'policy/sources.ts': 'a policy names a document as the loader does: a team member by its email',
  'live/check-queries.ts': 'checking tile queries on the server is a feature of dashboards alone',
  'live/server-validation.ts': 'the server’s dry run takes dashboards alone',
  'live-preview/write.ts': 'the live preview copies dashboards alone',
  'policy/check.ts':
    'a plan-time rule reads the query check’s verdict on an alert: check-queries replays alerts alone',
  'planner/preview.ts': 'the layout and data preview is of dashboards alone',
  'run/live-read.ts':
    'the lists read only when manifests need them: the service, the team, whether dashboards can be patched',
  'apply/apply.ts': 'service settings are the one kind that no kind refers to and that deletes nothing',
  'run/cross-stack.ts': 'the server’s unique names of webhooks (by service) and roles, across stacks',
  'run/saved-plan.ts': 'a saved plan with service settings reads the service again (managed mode)',
  'run/online.ts':
    'dashboards only: whether to ask the server for its patch route, and dashboards named alike in two stacks',
  'run/run.ts': 'the validate log line counts dashboards, alerts and service settings'
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(e => {
    const full = path.join(dir, e.name)
    if (e.isDirectory()) return sourceFiles(full)
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [full] : []
  })
}

/** The kind names a file's code spells, with their lines. */
export function kindNamesIn(file: string, text: string): Array<{ name: string; line: number }> {
  const kinds = new Set<string>(MANIFEST_KINDS)
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found: Array<{ name: string; line: number }> = []
  const visit = (node: ts.Node): void => {
    if (
      (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isIdentifier(node)) &&
      kinds.has(node.text)
    )
      found.push({ name: node.text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 })
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

function placesNamingKinds(): Map<string, Array<{ name: string; line: number }>> {
  const places = new Map<string, Array<{ name: string; line: number }>>()
  for (const full of sourceFiles(SRC)) {
    const rel = path.relative(SRC, full).split(path.sep).join('/')
    if (rel.startsWith('kinds/')) continue
    const names = kindNamesIn(rel, readFileSync(full, 'utf8'))
    if (names.length > 0) places.set(rel, names)
  }
  return places
}

describe('where kinds are named', () => {
  const places = placesNamingKinds()

  it('no file outside kinds/ names a kind but the allowed ones', () => {
    const unexpected = [...places]
      .filter(([file]) => !Object.hasOwn(ALLOWED, file))
      .map(([file, names]) => `src/${file}: ${names.map(n => `${n.name} (line ${n.line})`).join(', ')}`)
    expect(unexpected).toEqual([])
  })

  it('every allowed place still names a kind (the list stays true)', () => {
    expect(Object.keys(ALLOWED).filter(file => !places.has(file))).toEqual([])
  })

  it('finds a kind named in code, not in comments or prose', () => {
    const text = [
      '// a Dashboard in a comment',
      'const a = "prose about a Dashboard"',
      "if (kind === 'Alert') go()",
      'const n = set.specs.Source.length',
      'const t = { Webhook: 1 }'
    ].join('\n')
    expect(kindNamesIn('x.ts', text)).toEqual([
      { name: 'Alert', line: 3 },
      { name: 'Source', line: 4 },
      { name: 'Webhook', line: 5 }
    ])
  })
})
