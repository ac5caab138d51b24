import { readFileSync } from 'node:fs'
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats'
import type { Issue } from './errors.js'
import { isPlainObject } from './errors.js'

// Request validation against the published OpenAPI documents (copied into test/fixtures/openapi). The documents are
// loaded and compiled lazily, once per process, on the first request that needs a validator.

type Schema = Record<string, unknown>
type Schemas = Record<string, Schema>

export type SelfHostedSchemaName =
  | 'CreateDashboardRequest'
  | 'UpdateDashboardRequest'
  | 'CreateAlertRequest'
  | 'UpdateAlertRequest'
  | 'SeriesQueryRequest'
export type ManagedSchemaName = 'ServicePatchRequest'

const SELF_HOSTED_ID = 'https://emulator.local/self-hosted-v2.json'
const MANAGED_ID = 'https://emulator.local/managed-cloud.json'

// ajv-formats is CommonJS with a default export; under NodeNext the default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ??
  addFormatsModule) as FormatsPlugin

let ajv: Ajv | undefined
const validators = new Map<string, ValidateFunction>()

export function validateSelfHosted(name: SelfHostedSchemaName, body: unknown): Issue[] {
  return run(`${SELF_HOSTED_ID}#/components/schemas/${name}`, body)
}

export function validateManaged(name: ManagedSchemaName, body: unknown): Issue[] {
  return run(`${MANAGED_ID}#/components/schemas/${name}`, body)
}

function run(ref: string, body: unknown): Issue[] {
  let validate = validators.get(ref)
  if (validate === undefined) {
    validate = instance().compile({ $ref: ref })
    validators.set(ref, validate)
  }
  if (validate(body)) return []
  return toIssues(validate.errors ?? [])
}

function instance(): Ajv {
  if (ajv !== undefined) return ajv
  // strict: false because the documents carry OpenAPI-only keywords; `example` is declared so it is known.
  const created = new Ajv({ strict: false, allErrors: true, verbose: true, validateFormats: true })
  addFormats(created)
  created.addKeyword({ keyword: 'example' })
  created.addSchema({
    $id: SELF_HOSTED_ID,
    components: { schemas: prepare(loadSchemas('self-hosted-v2'), relaxSelfHosted) }
  })
  created.addSchema({
    $id: MANAGED_ID,
    components: { schemas: prepare(loadSchemas('managed-cloud'), tightenManaged) }
  })
  ajv = created
  return created
}

function loadSchemas(name: string): Schemas {
  const url = new URL(`../test/fixtures/openapi/${name}.openapi.json`, import.meta.url)
  const document = JSON.parse(readFileSync(url, 'utf8')) as { components: { schemas: Schemas } }
  return document.components.schemas
}

function prepare(schemas: Schemas, patch: (schemas: Schemas) => void): Schemas {
  const copy = structuredClone(schemas)
  patch(copy)
  const converted: Schemas = {}
  for (const [name, schema] of Object.entries(copy)) converted[name] = convert(schema, copy) as Schema
  return converted
}

/**
 * What CONTRACT.md allows and the self-hosted document forbids (the contract wins, FACTS.md first line):
 * - a contract `series` item may omit `sourceId` and `whereLanguage` and may carry `dataSource`;
 * - `groupBy` is optional on a `number` series (already so in the document);
 * - the PUT body marks no field required;
 * - FACTS.md lists `increase` among the aggregation functions; the document's enum lacks it.
 */
function relaxSelfHosted(schemas: Schemas): void {
  for (const name of ['TimeChartSeries', 'TableChartSeries', 'NumberChartSeries', 'SearchChartSeries']) {
    const schema = schemas[name]
    schema.required = (schema.required as string[]).filter(
      key => key !== 'sourceId' && key !== 'whereLanguage'
    )
    if (name === 'NumberChartSeries')
      schema.required = (schema.required as string[]).filter(key => key !== 'groupBy')
  }
  for (const name of [
    'TimeChartSeries',
    'TableChartSeries',
    'NumberChartSeries',
    'SearchChartSeries',
    'ChartSeries'
  ]) {
    ;(schemas[name].properties as Schemas).dataSource = { type: 'string' }
  }
  const aggregation = schemas.AggregationFunction
  aggregation.enum = [...(aggregation.enum as string[]), 'increase']
  schemas.UpdateDashboardRequest.required = []
}

/**
 * The cloud API rejects unknown fields in a service PATCH (a typo must not pass silently), and an access-list entry
 * or endpoint change without its key fields is meaningless; the document does not say so, the server does.
 */
function tightenManaged(schemas: Schemas): void {
  for (const name of [
    'ServicePatchRequest',
    'IpAccessListPatch',
    'IpAccessListEntry',
    'InstancePrivateEndpointsPatch',
    'ServiceEndpointChange',
    'InstanceTagsPatch',
    'ResourceTagsV1'
  ]) {
    schemas[name].type = 'object'
    schemas[name].additionalProperties = false
  }
  schemas.IpAccessListEntry.required = ['source']
  schemas.ServiceEndpointChange.required = ['protocol', 'enabled']
}

/**
 * Turns an OpenAPI 3.0/3.1 schema into plain JSON Schema for ajv:
 * - `nullable: true` becomes a `null` type (or an anyOf with null around a `$ref`);
 * - `oneOf` + `discriminator` becomes an if/then chain on the discriminating property, so an error names the field
 *   that is wrong instead of "must match exactly one schema"; an unmapped variant is the default (the document's
 *   "omit configType for the builder variant");
 * - `readOnly` properties are not required in a request;
 * - `example` is dropped.
 */
function convert(node: unknown, schemas: Schemas): unknown {
  if (Array.isArray(node)) return node.map(item => convert(item, schemas))
  if (!isPlainObject(node)) return node
  const out: Schema = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === 'example' || key === 'discriminator' || key === 'nullable') continue
    if (key === 'properties' && isPlainObject(value)) {
      const properties: Schemas = {}
      for (const [name, property] of Object.entries(value))
        properties[name] = convert(property, schemas) as Schema
      out.properties = properties
    } else {
      out[key] = convert(value, schemas)
    }
  }
  if (Array.isArray(out.required) && isPlainObject(out.properties)) {
    const properties = out.properties as Schemas
    out.required = (out.required as string[]).filter(name => properties[name]?.readOnly !== true)
  }
  const discriminator = node.discriminator
  if (isPlainObject(discriminator) && Array.isArray(out.oneOf)) {
    const chain = discriminatorChain(out.oneOf as Schema[], discriminator)
    if (chain !== undefined) {
      delete out.oneOf
      Object.assign(out, chain)
    }
  }
  return node.nullable === true ? nullable(out, schemas) : out
}

function discriminatorChain(variants: Schema[], discriminator: Record<string, unknown>): Schema | undefined {
  const property = discriminator.propertyName as string
  const mapping = isPlainObject(discriminator.mapping)
    ? (discriminator.mapping as Record<string, string>)
    : {}
  const entries = Object.entries(mapping)
  if (entries.length === 0) return undefined
  const mapped = new Set(entries.map(([, ref]) => ref))
  const unmapped = variants.filter(variant => typeof variant.$ref !== 'string' || !mapped.has(variant.$ref))
  let tail: Schema
  if (unmapped.length === 1) tail = unmapped[0]
  else if (unmapped.length === 0)
    tail = { required: [property], properties: { [property]: { enum: entries.map(([value]) => value) } } }
  else return undefined
  for (const [value, ref] of entries.reverse()) {
    tail = {
      if: { required: [property], properties: { [property]: { const: value } } },
      then: { $ref: ref },
      else: tail
    }
  }
  return tail
}

function nullable(schema: Schema, schemas: Schemas): Schema {
  if (typeof schema.type === 'string') {
    const out: Schema = { ...schema, type: [schema.type, 'null'] }
    if (Array.isArray(schema.enum)) out.enum = [...(schema.enum as unknown[]), null]
    return out
  }
  if (typeof schema.$ref === 'string') {
    // Inline a simple referenced schema (e.g. QueryLanguage) so the error reads "must be one of ..." not "anyOf".
    const target = schemas[schema.$ref.replace('#/components/schemas/', '')]
    if (target !== undefined && typeof target.type === 'string' && target.properties === undefined) {
      const rest = { ...schema }
      delete rest.$ref
      return nullable({ ...(convert(target, schemas) as Schema), ...rest }, schemas)
    }
  }
  return { anyOf: [schema, { type: 'null' }] }
}

/** ajv errors in the zod-like wording of the self-hosted server (`tiles.0.x: Number must be ...`). */
function toIssues(errors: ErrorObject[]): Issue[] {
  const specific = errors.filter(error => !['if', 'anyOf', 'oneOf', 'allOf'].includes(error.keyword))
  const chosen = specific.length > 0 ? specific : errors
  const seen = new Set<string>()
  const issues: Issue[] = []
  for (const error of chosen) {
    const issue = toIssue(error)
    const key = `${issue.path}\u0000${issue.message}`
    if (seen.has(key)) continue
    seen.add(key)
    issues.push(issue)
  }
  return issues
}

function toIssue(error: ErrorObject): Issue {
  const base = error.instancePath
    .split('/')
    .slice(1)
    .map(part => part.replace(/~1/g, '/').replace(/~0/g, '~'))
  const params = error.params as Record<string, unknown>
  const join = (parts: string[]) => parts.join('.')
  switch (error.keyword) {
    case 'required':
      return { path: join([...base, String(params.missingProperty)]), message: 'Required' }
    case 'additionalProperties':
      return {
        path: join(base),
        message: `Unrecognized key(s) in object: '${String(params.additionalProperty)}'`
      }
    case 'type':
      return {
        path: join(base),
        message: `Expected ${String(params.type)}, received ${describe(error.data)}`
      }
    case 'enum':
      return {
        path: join(base),
        message: `Invalid enum value. Expected ${(params.allowedValues as unknown[])
          .filter(value => value !== null)
          .map(value => `'${String(value)}'`)
          .join(' | ')}, received '${String(error.data)}'`
      }
    case 'const':
      return { path: join(base), message: `Invalid literal value, expected "${String(params.allowedValue)}"` }
    case 'maximum':
      return { path: join(base), message: `Number must be less than or equal to ${String(params.limit)}` }
    case 'minimum':
      return { path: join(base), message: `Number must be greater than or equal to ${String(params.limit)}` }
    case 'maxLength':
      return { path: join(base), message: `String must contain at most ${String(params.limit)} character(s)` }
    case 'minLength':
      return {
        path: join(base),
        message: `String must contain at least ${String(params.limit)} character(s)`
      }
    case 'maxItems':
      return { path: join(base), message: `Array must contain at most ${String(params.limit)} element(s)` }
    case 'minItems':
      return { path: join(base), message: `Array must contain at least ${String(params.limit)} element(s)` }
    case 'format':
      return { path: join(base), message: `Invalid ${String(params.format)}` }
    case 'pattern':
      return { path: join(base), message: 'Invalid' }
    default:
      return { path: join(base), message: error.message ?? 'Invalid' }
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number' && !Number.isInteger(value)) return 'number'
  return typeof value
}
