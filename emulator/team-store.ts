/**
 * A team's store as the emulator serves it: the records and the v2 routes' writes (store.ts), plus the web UI's
 * routes (ui-store.ts) and the MCP tool (mcp-tool.ts) on the same records, for tests that edit "in the UI" or
 * "through MCP". Apart from ResourceStore so that those modules, which work on a ResourceStore, are not imported by it.
 */
import { patchDashboardTool } from './mcp-tool.js'
import { ResourceStore } from './store.js'
import type { JsonObject, McpToolResult, Store } from './types.js'
import * as ui from './ui-store.js'

export class TeamStore extends ResourceStore implements Store {
  uiDashboards = (): JsonObject[] => ui.uiDashboards(this)
  uiCreateDashboard = (body: unknown): JsonObject => ui.uiCreateDashboard(this, body)
  uiPatchDashboard = (id: string, body: unknown): JsonObject => ui.uiPatchDashboard(this, id, body)
  uiDeleteDashboard = (id: string): void => ui.uiDeleteDashboard(this, id)
  uiUpdateAlert = (id: string, body: unknown): JsonObject => ui.uiUpdateAlert(this, id, body)
  mcpPatchDashboard = (args: unknown): Promise<McpToolResult> => patchDashboardTool(this, args)
}
