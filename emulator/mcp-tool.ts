/**
 * The MCP tool `clickstack_patch_dashboard` of HyperDX 2.36 (packages/api/src/mcp/tools/dashboards/patchDashboard.ts),
 * on a store: a dashboard's name and tags and/or one tile replaced by id, every other stored tile left as it is.
 * The transport and JSON-RPC around it are mcp.ts.
 */
import { externalDashboard } from './dashboard-output.js'
import { diffUi } from './internal-form/overlay.js'
import { baseInternalConfig } from './internal-form/stored-tile.js'
import { requestTileRecord } from './internal-form/to-internal.js'
import { parseTileWithId, type DashboardBody } from './rules/dashboard.js'
import { dashboardHandlerProblem } from './rules/dashboard-handler.js'
import { mcpPatchDashboardArgs, type McpPatchArgs } from './rules/mcp-patch.js'
import type { ResourceStore } from './store.js'
import { isAlertable, normalizeTile } from './tiles.js'
import type { JsonObject, McpToolResult, StoredDashboard, StoredTile } from './types.js'

type Json = JsonObject

export const PATCH_TOOL = 'clickstack_patch_dashboard'

export const PATCH_TOOL_DEFINITION = {
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

  let patched: PatchedTile | undefined
  if (tileId !== undefined && tile !== undefined) {
    const result = patchTile(store, existing, tileId, tile)
    if (!('merged' in result)) return result
    patched = result
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

/** The replacement tile: where it goes, as stored, and as the tool merged it (its answer shows that). */
interface PatchedTile {
  index: number
  tile: StoredTile
  merged: Json
}

/**
 * The tool's tile replacement: merged over the existing tile (layout, name and container fall back to it), then checked
 * as a v2 tile with an id, for raw SQL macros, and against the team's sources and connections. A tool error when
 * refused.
 */
function patchTile(
  store: ResourceStore,
  existing: StoredDashboard,
  tileId: string,
  tile: Json
): PatchedTile | McpToolResult {
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
  return { index, tile: storedTile(merged), merged }
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
