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
import { externalDashboard } from './dashboard-output.js'
import { cannotRoutePage } from './errors.js'
import { baseInternalConfig, diffUi, requestTileRecord } from './internal-form.js'
import { dashboardHandlerProblem, parseTileWithId, type DashboardBody } from './rules/dashboard.js'
import { mcpPatchDashboardArgs, patchInputSchema, type McpPatchArgs } from './rules/mcp-patch.js'
import { htmlReply, jsonReply, textReply, type IncomingCall, type Reply } from './reply.js'
import type { EmulatorState } from './state.js'
import type { ResourceStore } from './store.js'
import { isAlertable, normalizeTile } from './tiles.js'
import type { JsonObject, McpToolResult, StoredTile } from './types.js'

type Json = JsonObject

export const MCP_PATH = '/mcp'
export const PATCH_TOOL = 'clickstack_patch_dashboard'

/** The SDK's protocol versions: the newest first; an unknown one asked for in `initialize` gets the newest. */
const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07']
const SERVER_INFO = { name: 'clickstack', version: '2.36.0-beta' }
const INSTRUCTIONS =
  'ClickStack MCP server (emulated): only clickstack_patch_dashboard is served here, to change a dashboard name, ' +
  'its tags or one tile by id without rewriting the other tiles.'

const PATCH_TOOL_DEFINITION = {
  name: PATCH_TOOL,
  title: 'Patch Dashboard',
  description:
    'Change a dashboard in place: its name, its tags, and/or one tile replaced by tileId. Tiles and fields not ' +
    "mentioned stay as stored; an omitted layout, name or container of the tile falls back to the existing tile's.",
  annotations: { destructiveHint: true },
  execution: { taskSupport: 'forbidden' }
}

const toolError = (text: string): McpToolResult => ({ content: [{ type: 'text', text }], isError: true })

/** The SDK's rendering of zod issues: `<message> at <path>`, a path as `a.b[0].c`, one issue a line. */
function issuesText(issues: Array<{ message: string; path: Array<string | number> }>): string {
  return issues
    .map(issue => {
      if (issue.path.length === 0) return issue.message
      const path = issue.path.reduce<string>(
        (acc, seg, i) =>
          i === 0 ? String(seg) : typeof seg === 'number' ? `${acc}[${seg}]` : `${acc}.${seg}`,
        ''
      )
      return `${issue.message} at ${path}`
    })
    .join('\n')
}

/** mcp/tools/dashboards/validation.ts: a raw SQL tile that uses a source-dependent macro must name a source. */
function rawSqlSourceProblem(tile: Json): string | undefined {
  const config = tile.config as Json
  if (config.configType !== 'sql' || config.sourceId) return undefined
  const sql = String(config.sqlTemplate ?? '')
  const macros = ['filters', 'sourceTable']
    .filter(m => new RegExp(`\\$__${m}\\b`).test(sql))
    .map(m => `$__${m}`)
  if (macros.length === 0) return undefined
  const label = (typeof tile.name === 'string' && tile.name.trim()) || 'tile #1'
  return `Raw SQL tiles that use the $__filters or $__sourceTable macro must set a sourceId: ${label} (uses ${macros.join(', ')})`
}

/**
 * `clickstack_patch_dashboard`: name and/or tags (duplicates dropped) and/or one tile replaced by id. The patched
 * tile is checked as a v2 tile and against the team's sources and connections, converted like a v2 write (its UI-only
 * settings go), and written alone: every other stored tile stays as it is, UI settings included. Alerts of the
 * patched tile go when it can no longer carry one. `frontendUrl`, when given, adds the dashboard's `url`.
 */
export async function patchDashboardTool(
  store: ResourceStore,
  args: unknown,
  frontendUrl?: string
): Promise<McpToolResult> {
  const parsed = await mcpPatchDashboardArgs.safeParseAsync(args ?? {})
  if (!parsed.success)
    return toolError(
      `MCP error -32602: Input validation error: Invalid arguments for tool ${PATCH_TOOL}: ${issuesText(parsed.error.issues)}`
    )
  const { dashboardId, name, tags, tileId, tile } = parsed.data as McpPatchArgs
  if (name === undefined && tags === undefined && (tileId === undefined || tile === undefined))
    return toolError('Provide at least one of: name, tags, or tileId+tile to patch.')
  if ((tileId === undefined) !== (tile === undefined))
    return toolError('tileId and tile must both be provided or both omitted.')
  const existing = store.dashboards.get(dashboardId)
  if (existing === undefined) return toolError('Dashboard not found')

  let patched: { index: number; tile: StoredTile; merged: Json } | undefined
  if (tileId !== undefined && tile !== undefined) {
    const index = existing.tiles.findIndex(t => t.id === tileId)
    if (index === -1) {
      const listed = (externalDashboard(existing).tiles as Json[]).map(
        t => `${String(t.id)} (${String(t.name)})`
      )
      return toolError(`Tile not found: ${tileId}. Available tile IDs: ${listed.join(', ')}`)
    }
    const old = existing.tiles[index]!
    const merged: Json = {
      id: tileId,
      name: tile.name ?? old.name ?? '',
      x: tile.x ?? old.x ?? 0,
      y: tile.y ?? old.y ?? 0,
      w: tile.w ?? old.w ?? 12,
      h: tile.h ?? old.h ?? 4,
      containerId: 'containerId' in tile ? tile.containerId : old.containerId || undefined,
      tabId: 'tabId' in tile ? tile.tabId : old.tabId || undefined,
      config: tile.config
    }
    const asV2 = parseTileWithId(merged)
    if (!asV2.success) return toolError(`Validation error: ${JSON.stringify(asV2.error.errors)}`)
    const sqlProblem = rawSqlSourceProblem(merged)
    if (sqlProblem) return toolError(sqlProblem)
    const context = store.bodyContext()
    const problem = dashboardHandlerProblem(
      {
        name: existing.name,
        tiles: [merged],
        containers: existing.containers ?? []
      } as unknown as DashboardBody,
      {
        sources: context.sources,
        dashboardIds: new Set(context.dashboards.keys()),
        connectionIds: context.connectionIds,
        existing: { tiles: existing.tiles, containers: existing.containers }
      }
    )
    if (problem) return toolError(problem)
    patched = { index, tile: storedTile(merged), merged }
  }

  const updated = { ...existing }
  if (name !== undefined) updated.name = name
  if (tags !== undefined) updated.tags = [...new Set(tags)]
  if (patched) updated.tiles = existing.tiles.map((t, i) => (i === patched.index ? patched.tile : t))
  store.dashboards.set(dashboardId, updated)
  store.touchDashboard(dashboardId)
  if (patched && !isAlertable(patched.tile)) {
    for (const alert of [...store.alerts.values()])
      if (alert.dashboardId === dashboardId && alert.tileId === tileId) store.alerts.delete(alert.id)
  }
  store.records.changed()

  const output: Json = {
    id: updated.id,
    name: updated.name,
    tags: updated.tags,
    ...(frontendUrl ? { url: `${frontendUrl}/dashboards/${updated.id}` } : {})
  }
  if (patched) {
    output.patchedTile = patched.merged
    output.hint = 'Use clickstack_query_tile to test the patched tile query.'
  }
  return { content: [{ type: 'text', text: JSON.stringify(output, null, 2) }] }
}

/** The merged tile as stored: its v2 form (without the tool's `isDelta`), and what the `$set` record holds beyond. */
function storedTile(merged: Json): StoredTile {
  const config = structuredClone(merged.config) as Json
  if (Array.isArray(config.select))
    config.select = config.select.map(item => {
      if (typeof item !== 'object' || item === null) return item
      const { isDelta: _isDelta, ...rest } = item as Json
      return rest
    })
  const { requestedId: _requestedId, ...draft } = normalizeTile({ ...merged, config })
  const tile: StoredTile = { id: String(merged.id), ...draft }
  const ui = diffUi(baseInternalConfig(tile), requestTileRecord(merged, 'update'))
  if (ui !== undefined) tile.ui = ui
  return tile
}

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
