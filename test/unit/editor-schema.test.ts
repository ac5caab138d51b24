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
import { Ajv, type ValidateFunction } from 'ajv'
import picomatch from 'picomatch'
import { parseAllDocuments } from 'yaml'
import { SCHEMA_BASE_URL } from '../../scripts/generated-files.js'

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

const ajv = new Ajv({ allErrors: true })
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
const readmeSettings = (() => {
  const block = [...readme.matchAll(/```json\n([\s\S]*?)```/g)].find(([, body]) =>
    body.includes('"yaml.schemas"')
  )
  if (!block) throw new Error('README.md shows no yaml.schemas set-up')
  return JSON.parse(block[1]) as { 'yaml.schemas': SchemaMap }
})()
const manifestId = (JSON.parse(read('schema/manifest.schema.json')) as { $id: string }).$id

describe("the repository's own editor set-up (.vscode/settings.json)", () => {
  const { unmapped, unreadable, documents } = checkThrough(settings['yaml.schemas'], 'examples')

  it('maps the manifest schema to every YAML file of examples/ and to observability/ folders', () => {
    expect(unmapped).toEqual([])
    expect(unreadable).toEqual([])
    expect(Object.values(settings['yaml.schemas']).flat()).toEqual(
      expect.arrayContaining(['examples/**/*.y*ml', 'observability/**/*.y*ml'])
    )
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
      [`${SCHEMA_BASE_URL}plan.schema.json`, 'schema/plan.schema.json']
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
