/** A response the router has decided on; the server writes it (or, for a commit-drop fault, does not). */
export interface Reply {
  status: number
  headers: Record<string, string>
  body: string
  /** Set when the rate limiter refused the request, for the request log. */
  rateLimited?: boolean
  /** What the request log shows beside mode and path (RequestLogEntry.label). */
  label?: string
}

export function jsonReply(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(value)
  }
}

export function textReply(status: number, text: string, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...headers }, body: text }
}

/** The parsed parts of a request that routing needs. */
export interface IncomingCall {
  method: string
  path: string
  query: Record<string, string>
  authorization: string | undefined
  /** Raw body text ('' when none). */
  body: string
  /** The request headers, names in lower case (the web UI and MCP routes read Accept, Content-Type, Cookie, Host). */
  headers?: Record<string, string | undefined>
}

export type ParsedBody = { ok: true; value: unknown } | { ok: false }

export function parseJsonBody(text: string): ParsedBody {
  if (text.trim() === '') return { ok: true, value: undefined }
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch {
    return { ok: false }
  }
}

export function htmlReply(status: number, html: string, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'Content-Type': 'text/html; charset=utf-8', ...headers }, body: html }
}
