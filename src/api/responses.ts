/**
 * What a response's body says: the value inside the route's envelope, parsed with the schema the caller expects,
 * or an error that names the route and the field (and says so when the body is cut short or is not the API's).
 */
import { z } from 'zod'
import { ResponseShapeError } from './errors.js'
import type { ApiResponse } from './transport.js'

/** `{data}` (self-hosted), `{status, requestId, result}` (managed), or the bare value. */
export function unwrapEnvelope(body: unknown): unknown {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const b = body as Record<string, unknown>
    if ('result' in b && ('requestId' in b || 'status' in b)) return b.result
    if ('data' in b) return b.data
  }
  return body
}

/** A written record as far as every write answers: its id. */
export const WithId = z.looseObject({ id: z.union([z.string().min(1), z.number()]).transform(String) })

/** The value as `schema` types it, or an error that names the route and the field (or what else the body is). */
export function parseResponse<T extends z.ZodType>(schema: T, value: unknown, res: ApiResponse): z.infer<T> {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  // A body cut short (by a proxy, a dropped connection) is said as such, not as a wrong type of field.
  if (res.notJson !== undefined)
    throw new ResponseShapeError(
      { method: res.method, path: res.path, status: res.status },
      '',
      `the body is not valid JSON (${res.notJson}; ${String(res.body).length} bytes): the response may have been cut short. Run again; if it persists, check a proxy between here and the server`
    )
  const issue = result.error.issues[0]!
  const field = issue.path
    .map(p => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '')
  throw new ResponseShapeError(
    { method: res.method, path: res.path, status: res.status, hint: notTheApi(res.body) },
    field,
    issue.message
  )
}

/** A page where JSON was expected: the address is something else than the API. */
function notTheApi(body: unknown): string | undefined {
  if (typeof body !== 'string' || !/^\s*</.test(body)) return undefined
  return 'The server answered with an HTML page, not the API: api-url may point at the web UI or at a proxy page. The self-hosted API listens on its own port (8000 by default); the managed API is https://api.clickhouse.cloud'
}
