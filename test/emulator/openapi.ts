/**
 * The managed cloud's published OpenAPI document (test data), and a small checker of a JSON answer against one of its
 * response schemas: `$ref`, `type`, `properties`, `required`, `items`, `format` (date-time, uuid). Stricter than the
 * document on one point: a property it does not declare is a problem unless the schema says `additionalProperties`,
 * so an emulator answer carries nothing a client could not find in the document.
 */
import { readFileSync } from 'node:fs'

export interface Schema {
  $ref?: string
  type?: string
  properties?: Record<string, Schema>
  required?: string[]
  items?: Schema
  format?: string
  additionalProperties?: boolean | Schema
}

interface Operation {
  requestBody?: { content?: Record<string, { schema?: Schema }> }
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, Schema> }
}

export const MANAGED_DOCUMENT = JSON.parse(
  readFileSync(new URL('../fixtures/openapi/managed-cloud.openapi.json', import.meta.url), 'utf8')
) as OpenApiDocument

export const MANAGED_PREFIX = '/v1/organizations/{organizationId}/services/{serviceId}/clickstack'

/** The JSON schema of one documented answer (`responses[status]`). */
export function responseSchema(path: string, method: string, status: number): Schema {
  const operation = MANAGED_DOCUMENT.paths[MANAGED_PREFIX + path]?.[method.toLowerCase()]
  const schema = operation?.responses[String(status)]?.content?.['application/json']?.schema
  if (schema === undefined) throw new Error(`the document has no ${status} answer for ${method} ${path}`)
  return schema
}

/** The properties a request body may have (the `$ref`'d schema's). */
export function requestProperties(path: string, method: string): string[] {
  const operation = MANAGED_DOCUMENT.paths[MANAGED_PREFIX + path]?.[method.toLowerCase()]
  const schema = resolve(operation?.requestBody?.content?.['application/json']?.schema ?? {})
  return Object.keys(schema.properties ?? {})
}

export function schemaNamed(name: string): Schema {
  const schema = MANAGED_DOCUMENT.components.schemas[name]
  if (schema === undefined) throw new Error(`no schema ${name}`)
  return schema
}

function resolve(schema: Schema): Schema {
  return schema.$ref === undefined ? schema : resolve(schemaNamed(schema.$ref.split('/').pop()!))
}

const FORMATS: Record<string, RegExp> = {
  'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
}

/** Every way `value` departs from `schema`, each as `<path>: <problem>`; empty when it conforms. */
export function conformance(value: unknown, given: Schema, at = '$'): string[] {
  const schema = resolve(given)
  const type = schema.type ?? (schema.properties ? 'object' : undefined)
  const problems: string[] = []
  const kind = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value
  switch (type) {
    case 'object': {
      if (kind !== 'object') return [`${at}: expected an object, got ${kind}`]
      const object = value as Record<string, unknown>
      for (const key of schema.required ?? [])
        if (!(key in object)) problems.push(`${at}.${key}: required, absent`)
      for (const [key, item] of Object.entries(object)) {
        const declared = schema.properties?.[key]
        if (declared !== undefined) problems.push(...conformance(item, declared, `${at}.${key}`))
        else if (schema.additionalProperties === undefined || schema.additionalProperties === false)
          problems.push(`${at}.${key}: not declared`)
      }
      return problems
    }
    case 'array':
      if (kind !== 'array') return [`${at}: expected an array, got ${kind}`]
      return (value as unknown[]).flatMap((item, i) => conformance(item, schema.items ?? {}, `${at}[${i}]`))
    case 'string':
      if (kind !== 'string') return [`${at}: expected a string, got ${kind}`]
      if (schema.format && FORMATS[schema.format] && !FORMATS[schema.format]!.test(value as string))
        return [`${at}: not a ${schema.format}`]
      return []
    case 'number':
    case 'integer':
      if (kind !== 'number' || (type === 'integer' && !Number.isInteger(value)))
        return [`${at}: expected ${type}, got ${kind}`]
      return []
    case 'boolean':
      return kind === 'boolean' ? [] : [`${at}: expected a boolean, got ${kind}`]
  }
  return []
}
