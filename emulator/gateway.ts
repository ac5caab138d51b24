import { readFileSync } from 'node:fs'
import { isPlainObject } from './errors.js'
import type { ServerProfile } from './types.js'

/**
 * The cloud gateway in front of the managed observability API refuses a request body whose top-level keys
 * its request schema does not declare: 400 `request body property can't be validated: <key>` (the Terraform
 * provider, `internal/service/clickstack/dashboard_tile_ids.go`, seen for a dashboard body carrying `id`).
 * Whether it also checks nested keys is not known; nested keys reach the API, which strips unknown ones.
 * The declared keys are read from the managed OpenAPI document, per route and method.
 */
export function undeclaredBodyKey(
  method: string,
  segments: string[],
  body: unknown,
  server: ServerProfile = '2.36'
): string | undefined {
  if (!isPlainObject(body)) return undefined
  const keys = declaredKeys()
  // A `oneOf` by `kind` (ClickStackSource): the variant the body names.
  const declared =
    keys.get(`${routeKey(method, segments)}#${String(body.kind)}`) ?? keys.get(routeKey(method, segments))
  if (declared === undefined) return undefined
  const more = server === 'next' && segments[0] === 'alerts' ? NEXT_ALERT_KEYS : undefined
  return Object.keys(body).find(key => !declared.has(key) && !more?.has(key))
}

/**
 * The `next` cloud (next-server.ts) takes an alert's `channels` (clickhousectl pull request 719), `displayName` and
 * `tags`, which the published document does not declare yet.
 */
const NEXT_ALERT_KEYS: ReadonlySet<string> = new Set(['channels', 'displayName', 'tags'])

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
    components: {
      schemas: Record<
        string,
        { properties?: Record<string, { enum?: unknown[] }>; oneOf?: Array<{ $ref?: string }> }
      >
    }
  }
  cache = new Map()
  for (const [path, operations] of Object.entries(document.paths)) {
    if (!path.startsWith(PREFIX)) continue
    const route = path.slice(PREFIX.length).replace(/\{(?!validate)[^}]+\}/g, '{}')
    for (const [method, operation] of Object.entries(operations)) {
      const schema = operation.requestBody?.content?.['application/json']?.schema as
        { $ref?: string } | undefined
      const name = schema?.$ref?.split('/').pop()
      const schemaOf = (ref: string | undefined) =>
        ref ? document.components.schemas[ref.split('/').pop()!] : undefined
      const properties = name ? document.components.schemas[name]?.properties : undefined
      if (properties) cache.set(`${method.toUpperCase()} ${route}`, new Set(Object.keys(properties)))
      for (const variant of (name ? document.components.schemas[name]?.oneOf : undefined) ?? []) {
        const props = schemaOf(variant.$ref)?.properties
        const kind = props?.kind?.enum?.[0]
        if (props && typeof kind === 'string')
          cache.set(`${method.toUpperCase()} ${route}#${kind}`, new Set(Object.keys(props)))
      }
    }
  }
  return cache
}
