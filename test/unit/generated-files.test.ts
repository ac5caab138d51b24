/**
 * Generated files are current: the JSON Schemas (from the zod schemas), action.yml and the README's
 * inputs/outputs tables (from the registries in src/config/). A stale copy fails with the npm script that rewrites it.
 * The examples must also pass the published manifest JSON Schema, which editors use.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from '@jest/globals'
import { parseAllDocuments } from 'yaml'
import {
  actionYml,
  manifestSchema,
  planSchema,
  readmeWithTables,
  stackSchema,
  readText
} from '../../scripts/generated-files.js'
import { schemaAjv } from '../support/ajv.js'

const REPO = fileURLToPath(new URL('../..', import.meta.url))

/** Undefined when current; otherwise what to run, and where the committed file first differs. */
function staleness(file: string, committed: string, fresh: string, script: string): string | undefined {
  if (committed === fresh) return undefined
  const a = committed.split('\n')
  const b = fresh.split('\n')
  let i = 0
  while (i < Math.max(a.length, b.length) && a[i] === b[i]) i++
  return [
    `${file} is out of date: run \`${script}\` and commit the result.`,
    `First difference at line ${i + 1}:`,
    `  committed: ${JSON.stringify(a[i] ?? '<end of file>')}`,
    `  generated: ${JSON.stringify(b[i] ?? '<end of file>')}`
  ].join('\n')
}

function expectCurrent(file: string, fresh: string, script: string): void {
  const problem = staleness(file, readText(file), fresh, script)
  if (problem) throw new Error(problem)
}

describe('generated files are current', () => {
  it('schema/manifest.schema.json equals manifestSchema() (npm run schema)', () => {
    expectCurrent('schema/manifest.schema.json', manifestSchema(), 'npm run schema')
  })

  it('schema/plan.schema.json equals planSchema() (npm run schema)', () => {
    expectCurrent('schema/plan.schema.json', planSchema(), 'npm run schema')
  })

  it('schema/stack.schema.json equals stackSchema() (npm run schema)', () => {
    expectCurrent('schema/stack.schema.json', stackSchema(), 'npm run schema')
  })

  it('action.yml equals actionYml() (npm run docs)', () => {
    expectCurrent('action.yml', actionYml(), 'npm run docs')
  })

  it("README.md's inputs and outputs tables equal readmeWithTables() (npm run docs)", () => {
    expectCurrent('README.md', readmeWithTables(readText('README.md')), 'npm run docs')
  })

  it('tells the developer which script to run and where a stale file differs', () => {
    const message = staleness('action.yml', 'name: a\nold: 1\n', 'name: a\nnew: 2\n', 'npm run docs')
    expect(message).toBe(
      [
        'action.yml is out of date: run `npm run docs` and commit the result.',
        'First difference at line 2:',
        '  committed: "old: 1"',
        '  generated: "new: 2"'
      ].join('\n')
    )
    expect(staleness('x', 'same', 'same', 'npm run docs')).toBeUndefined()
  })

  it('refuses a README without the table markers instead of writing a broken one', () => {
    expect(() => readmeWithTables('# README without markers\n')).toThrow(/lacks the markers/)
  })
})

describe('the manifest JSON Schema', () => {
  const ajv = schemaAjv()
  // The committed file: the one editors point at.
  const validate = ajv.compile(JSON.parse(readText('schema/manifest.schema.json')) as object)

  /** Every document of every YAML file under a folder of examples. */
  const documents = (folder: string) =>
    readdirSync(path.join(REPO, folder))
      .filter(f => /\.ya?ml$/.test(f))
      .flatMap(f =>
        parseAllDocuments(readFileSync(path.join(REPO, folder, f), 'utf8')).map((doc, i) => ({
          where: `${folder}/${f} document ${i + 1}`,
          value: doc.toJS() as unknown
        }))
      )

  it('is draft-07', () => {
    expect((JSON.parse(readText('schema/manifest.schema.json')) as { $schema: string }).$schema).toBe(
      'http://json-schema.org/draft-07/schema#'
    )
  })

  it('accepts every document of the examples', () => {
    const all = [...documents('examples/observability'), ...documents('examples/managed')]
    expect(all.length).toBe(8)
    const failures = all
      .filter(d => !validate(d.value))
      .map(d => ({ where: d.where, errors: ajv.errorsText(validate.errors) }))
    expect(failures).toEqual([])
  })

  it('refuses each document of examples/broken', () => {
    const broken = documents('examples/broken')
    expect(broken).toHaveLength(2)
    for (const doc of broken)
      expect({ where: doc.where, valid: validate(doc.value) }).toEqual({ where: doc.where, valid: false })
  })

  it('refuses an unknown field, a wrong type and a tile off the grid', () => {
    const dashboard = { kind: 'Dashboard', name: 'D' }
    expect(validate(dashboard)).toBe(true)
    expect(validate({ ...dashboard, titles: [] })).toBe(false)
    expect(validate({ ...dashboard, name: 5 })).toBe(false)
    const tile = { name: 'T', x: 0, y: 0, w: 6, h: 3, series: [{ type: 'markdown', content: 'hi' }] }
    expect(validate({ ...dashboard, tiles: [tile] })).toBe(true)
    expect(validate({ ...dashboard, tiles: [{ ...tile, w: 25 }] })).toBe(false)
    expect(validate({ kind: 'Pipeline', name: 'D' })).toBe(false)
  })
})

describe('the stack and plan JSON Schemas', () => {
  const ajv = schemaAjv()
  const stack = ajv.compile(JSON.parse(readText('schema/stack.schema.json')) as object)
  const plan = ajv.compile(JSON.parse(readText('schema/plan.schema.json')) as object)

  it("accepts each example stack's stack.yaml and refuses what the tool refuses", () => {
    for (const folder of readdirSync(path.join(REPO, 'examples/stacks'))) {
      const value = parseAllDocuments(readText(`examples/stacks/${folder}/stack.yaml`))[0]!.toJS() as unknown
      expect({ folder, valid: stack(value) }).toEqual({ folder, valid: true })
    }
    expect(stack({ name: 'payments', vars: { THRESHOLD: 10 }, prune: true })).toBe(true)
    expect(stack({})).toBe(false)
    expect(stack({ name: 'payments', prnue: true })).toBe(false)
    expect(stack({ name: '-payments' })).toBe(false)
    expect(stack({ name: 'payments', vars: { 'not a name': 1 } })).toBe(false)
  })

  it('describes a plan file of one stack and one of many stacks', () => {
    const one = {
      schemaVersion: 1,
      tool: { name: 'obsdeploy', version: '1.0.0' },
      createdAt: '2025-01-01T00:00:00.000Z',
      command: 'plan',
      mode: 'self-hosted',
      stack: 'payments',
      ownershipTag: 'obsdeploy:payments',
      prune: false,
      fingerprint: { live: 'sha256:a', desired: 'sha256:b' },
      changes: [],
      diagnostics: []
    }
    expect(plan(one)).toBe(true)
    expect(plan({ schemaVersion: 1, stacks: [one, { ...one, stack: 'search' }] })).toBe(true)
    expect(plan({ schemaVersion: 1, stacks: [{ ...one, changes: undefined }] })).toBe(false)
  })
})
