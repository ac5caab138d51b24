import { readFileSync } from 'node:fs'
import { isPlainObject } from './errors.js'

/**
 * The cloud gateway in front of the managed observability API refuses a request body whose top-level keys
 * its request schema does not declare: 400 `request body property can't be validated: <key>` (the Terraform
 * provider, `internal/service/clickstack/dashboard_tile_ids.go`, seen for a dashboard body carrying `id`).
 * Whether it also checks nested keys is not known; nested keys reach the API, which strips unknown ones.
 * The declared keys are read from the managed OpenAPI document, per route and method.
 */
export function undeclaredBodyKey(method: string, segments: string[], body: unknown): string | undefined {
  if (!isPlainObject(body)) return undefined
  const declared = declaredKeys().get(routeKey(method, segments))
  if (declared === undefined) return undefined
  return Object.keys(body).find(key => !declared.has(key))
}

const PREFIX = '/v1/organizations/{organizationId}/services/{serviceId}/clickstack/'

/** `POST dashboards`, `PUT dashboards/{}`, `POST dashboards/validate`: ids are `{}`. */
function routeKey(method: string, segments: string[]): string {
  const [resource, id] = segments
  const item = id === undefined ? '' : id === 'validate' ? '/validate' : '/{}'
  return `${method.toUpperCase()} ${resource}${item}`
}

let cache: Map<string, Set<string>> | undefined

function declaredKeys(): Map<string, Set<string>> {
  if (cache !== undefined) return cache
  const url = new URL('../test/fixtures/openapi/managed-cloud.openapi.json', import.meta.url)
  const document = JSON.parse(readFileSync(url, 'utf8')) as {
    paths: Record<
      string,
      Record<string, { requestBody?: { content?: Record<string, { schema?: unknown }> } }>
    >
    components: { schemas: Record<string, { properties?: Record<string, unknown> }> }
  }
  cache = new Map()
  for (const [path, operations] of Object.entries(document.paths)) {
    if (!path.startsWith(PREFIX)) continue
    const route = path.slice(PREFIX.length).replace(/\{(?!validate)[^}]+\}/g, '{}')
    for (const [method, operation] of Object.entries(operations)) {
      const schema = operation.requestBody?.content?.['application/json']?.schema as
        { $ref?: string } | undefined
      const name = schema?.$ref?.split('/').pop()
      const properties = name ? document.components.schemas[name]?.properties : undefined
      if (properties) cache.set(`${method.toUpperCase()} ${route}`, new Set(Object.keys(properties)))
    }
  }
  return cache
}
