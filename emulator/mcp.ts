/**
 * HyperDX's MCP endpoint, `POST /mcp` (packages/api/src/mcp/app.ts): the personal API key as a Bearer token, a
 * stateless Streamable HTTP transport (@modelcontextprotocol/sdk 1.x, StreamableHTTPServerTransport without session
 * ids, answering in server-sent events), JSON-RPC 2.0. The emulator offers one tool, `clickstack_patch_dashboard`
 * (mcp/tools/dashboards/patchDashboard.ts), plus `initialize`, `ping` and `tools/list`.
 *
 * The HTTP answers, in the server's order:
 * - GET or DELETE: 405 `Method Not Allowed` with `Allow: POST`, before any authentication; other methods are the
 *   router's 404 page;
 * - a JSON body that does not parse: the API's 400 `{message: 'Invalid JSON payload'}` (its body parser runs first);
 * - no or a wrong Bearer key: 401 `Unauthorized` (plain text);
 * - an Accept header without both `application/json` and `text/event-stream`: 406, a Content-Type that is not JSON:
 *   415, a body that is no JSON-RPC message: 400 (JSON-RPC errors with `id: null`, `Content-Type: application/json`);
 * - only notifications or responses: 202 with no body;
 * - otherwise 200 `text/event-stream`, one `event: message` / `data: <reply>` event per request.
 * A tool refusal is a successful JSON-RPC reply whose result has `isError: true` and the reason as its text.
 */
import { cannotRoutePage } from './errors.js'
import { PATCH_TOOL, PATCH_TOOL_DEFINITION, patchDashboardTool } from './mcp-tool.js'
import { patchInputSchema } from './rules/mcp-patch.js'
import { htmlReply, jsonReply, textReply, type IncomingCall, type Reply } from './reply.js'
import type { EmulatorState } from './state.js'
import type { ResourceStore } from './store.js'
import type { JsonObject } from './types.js'

type Json = JsonObject

export const MCP_PATH = '/mcp'

/** The SDK's protocol versions: the newest first; an unknown one asked for in `initialize` gets the newest. */
const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07']
const SERVER_INFO = { name: 'clickstack', version: '2.36.0-beta' }
const INSTRUCTIONS =
  'ClickStack MCP server (emulated): only clickstack_patch_dashboard is served here, to change a dashboard name, ' +
  'its tags or one tile by id without rewriting the other tiles.'

// ---------------------------------------------------------------------------------------------------------
// JSON-RPC

interface RpcRequest {
  jsonrpc: '2.0'
  id: string | number
  method: string
  params?: Json
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const isId = (v: unknown) => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v))

/** The SDK's JSONRPCMessageSchema: a request, a notification, a result or an error. */
function isMessage(m: unknown): boolean {
  if (!isObject(m) || m.jsonrpc !== '2.0') return false
  if (typeof m.method === 'string')
    return (m.id === undefined || isId(m.id)) && (m.params === undefined || isObject(m.params))
  if ('result' in m) return isId(m.id) && isObject(m.result)
  if ('error' in m)
    return isObject(m.error) && typeof m.error.code === 'number' && typeof m.error.message === 'string'
  return false
}

const isRequest = (m: Json): m is Json & RpcRequest => typeof m.method === 'string' && m.id !== undefined

const rpcError = (status: number, code: number, message: string): Reply => ({
  status,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null })
})

async function answer(
  request: RpcRequest,
  store: ResourceStore,
  frontendUrl: string | undefined
): Promise<Json> {
  const ok = (result: unknown): Json => ({ result, jsonrpc: '2.0', id: request.id })
  const fail = (code: number, message: string): Json => ({
    jsonrpc: '2.0',
    id: request.id,
    error: { code, message }
  })
  const params = request.params ?? {}
  switch (request.method) {
    case 'initialize': {
      const asked = params.protocolVersion
      const protocolVersion =
        typeof asked === 'string' && PROTOCOL_VERSIONS.includes(asked) ? asked : PROTOCOL_VERSIONS[0]
      return ok({
        protocolVersion,
        capabilities: { tools: { listChanged: true } },
        serverInfo: SERVER_INFO,
        instructions: INSTRUCTIONS
      })
    }
    case 'ping':
      return ok({})
    case 'tools/list':
      return ok({ tools: [{ ...PATCH_TOOL_DEFINITION, inputSchema: patchInputSchema() }] })
    case 'tools/call': {
      if (typeof params.name !== 'string') return fail(-32602, 'Invalid params: a tool name is required')
      if (params.name !== PATCH_TOOL)
        return ok({
          content: [{ type: 'text', text: `MCP error -32602: Tool ${params.name} not found` }],
          isError: true
        })
      return ok(await patchDashboardTool(store, params.arguments, frontendUrl))
    }
  }
  return fail(-32601, 'Method not found')
}

/** `text/event-stream`, `application/json; charset=utf-8`, … : the media type alone. */
const mediaType = (header: string | undefined) => (header ?? '').split(';')[0]!.trim().toLowerCase()

/** What the request log shows of an MCP request: its methods, a tool call with the tool's name. */
function labelOf(messages: Json[]): string {
  return messages
    .map(m =>
      m.method === 'tools/call' && isObject(m.params) && typeof m.params.name === 'string'
        ? `tools/call ${m.params.name}`
        : typeof m.method === 'string'
          ? m.method
          : 'response'
    )
    .join(', ')
}

export async function handleMcp(call: IncomingCall, state: EmulatorState): Promise<Reply> {
  const headers = call.headers ?? {}
  if (call.method === 'GET' || call.method === 'DELETE')
    return {
      ...textReply(405, 'Method Not Allowed'),
      headers: { 'Content-Type': 'text/plain; charset=utf-8', Allow: 'POST' }
    }
  if (call.method !== 'POST') return htmlReply(404, cannotRoutePage(call.method, call.path, 'self-hosted'))
  const json = mediaType(headers['content-type']) === 'application/json'
  let body: unknown = {}
  if (json && call.body.trim() !== '') {
    try {
      body = JSON.parse(call.body) as unknown
    } catch {
      return jsonReply(400, { message: 'Invalid JSON payload' })
    }
  }
  // middleware/auth.ts validateUserAccessKey: the text after `Bearer `, exactly.
  const key = call.authorization?.split('Bearer ')[1]
  if (!key || key !== state.credentials.apiKey) return textReply(401, 'Unauthorized')

  const accept = headers.accept ?? ''
  if (!accept.includes('application/json') || !accept.includes('text/event-stream'))
    return rpcError(
      406,
      -32000,
      'Not Acceptable: Client must accept both application/json and text/event-stream'
    )
  if (!json) return rpcError(415, -32000, 'Unsupported Media Type: Content-Type must be application/json')
  if (Array.isArray(body) && body.length > 100)
    return rpcError(400, -32600, 'Invalid Request: Batch must not exceed 100 messages')
  const list = Array.isArray(body) ? body : [body]
  if (!list.every(isMessage)) return rpcError(400, -32700, 'Parse error: Invalid JSON-RPC message')
  const messages = list as Json[]
  const initializing = messages.some(m => m.method === 'initialize' && isRequest(m))
  if (initializing && messages.length > 1)
    return rpcError(400, -32600, 'Invalid Request: Only one initialization request is allowed')
  const version = headers['mcp-protocol-version']
  if (!initializing && version !== undefined && !PROTOCOL_VERSIONS.includes(version))
    return rpcError(
      400,
      -32000,
      `Bad Request: Unsupported protocol version: ${version} (supported versions: ${PROTOCOL_VERSIONS.join(', ')})`
    )
  const label = labelOf(messages)
  const requests = messages.filter(isRequest)
  if (requests.length === 0) return { status: 202, headers: {}, body: '', label }

  const frontendUrl = headers.host ? `http://${headers.host}` : undefined
  const replies: Json[] = []
  for (const request of requests) replies.push(await answer(request, state.selfHosted, frontendUrl))
  return {
    status: 200,
    headers: {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no'
    },
    body: replies.map(reply => `event: message\ndata: ${JSON.stringify(reply)}\n\n`).join(''),
    label
  }
}
