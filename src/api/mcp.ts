/**
 * HyperDX's MCP endpoint (`POST /mcp`, the same Bearer key as /api/v2): a stateless JSON-RPC 2.0 server over
 * Streamable HTTP (packages/api/src/mcp/app.ts). We use one tool of it, `clickstack_patch_dashboard`
 * (mcp/tools/dashboards/patchDashboard.ts): it sets a dashboard's name and tags and/or replaces one tile by id,
 * leaving every other stored tile as it is, where a v2 PUT rewrites every tile through the API's form and so
 * resets the settings only the web UI can set (docs/real-server.md).
 */
import { z } from 'zod'

export const MCP_PATH = '/mcp'
/** The SDK's transport answers 406 unless the client accepts both. */
export const MCP_ACCEPT = 'application/json, text/event-stream'
export const PATCH_DASHBOARD_TOOL = 'clickstack_patch_dashboard'

export interface McpRequest {
  jsonrpc: '2.0'
  id: number
  method: string
  params: Record<string, unknown>
}

export const mcpRequest = (id: number, method: string, params: Record<string, unknown> = {}): McpRequest => ({
  jsonrpc: '2.0',
  id,
  method,
  params
})

const JsonRpcReply = z.looseObject({
  id: z.union([z.number(), z.string(), z.null()]).optional(),
  result: z.unknown().optional(),
  error: z.looseObject({ code: z.number().optional(), message: z.string().optional() }).optional()
})
type JsonRpcReply = z.infer<typeof JsonRpcReply>

const ToolList = z.looseObject({ tools: z.array(z.looseObject({ name: z.string() })) })
const ToolResult = z.looseObject({
  isError: z.boolean().optional(),
  content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })).optional()
})

/**
 * The JSON-RPC reply in a response body: JSON, or server-sent events whose `data:` lines carry it (the
 * SDK's default). Undefined when the body holds none.
 */
export function replyIn(body: unknown): JsonRpcReply | undefined {
  if (typeof body !== 'string') {
    const parsed = JsonRpcReply.safeParse(body)
    return parsed.success ? parsed.data : undefined
  }
  // Events are separated by a blank line; an event's data is its `data:` lines joined by newlines.
  for (const event of body.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter(line => line.startsWith('data:'))
      .map(line => line.slice(5).replace(/^ /, ''))
      .join('\n')
    if (data === '') continue
    try {
      const parsed = JsonRpcReply.safeParse(JSON.parse(data))
      if (parsed.success && (parsed.data.result !== undefined || parsed.data.error !== undefined))
        return parsed.data
    } catch {
      // Not JSON: not the reply.
    }
  }
  return undefined
}

/** The tool names a `tools/list` reply offers. */
export function toolNames(reply: JsonRpcReply | undefined): string[] {
  const list = ToolList.safeParse(reply?.result)
  return list.success ? list.data.tools.map(t => t.name) : []
}

/** A `tools/call` reply: its text, and whether the tool refused. A JSON-RPC error is a refusal too. */
export function toolOutcome(reply: JsonRpcReply | undefined): { ok: boolean; text: string } {
  if (reply === undefined) return { ok: false, text: 'the response held no JSON-RPC reply' }
  if (reply.error)
    return { ok: false, text: reply.error.message ?? `JSON-RPC error ${reply.error.code ?? ''}` }
  const result = ToolResult.safeParse(reply.result)
  if (!result.success) return { ok: false, text: 'the reply is not a tool result' }
  const text = (result.data.content ?? []).map(c => c.text ?? '').join('\n')
  return { ok: result.data.isError !== true, text }
}
