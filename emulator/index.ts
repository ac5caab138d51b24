// The loopback emulator of the observability API, both modes from one server (see CONTRACT.md and FACTS.md).
export { startEmulator } from './server.js'
export { ApiError, UiBodyError } from './errors.js'
export { CONNECTION_READ, PREDEFINED_ROLE_IDS } from './roles.js'
export type {
  AlertChannel,
  Credentials,
  DashboardMeta,
  Emulator,
  EmulatorOptions,
  FaultController,
  FaultKind,
  FaultRule,
  IpAccessListEntry,
  JsonObject,
  McpToolResult,
  RateLimit,
  RequestLogEntry,
  RequestMode,
  RolePermission,
  Seed,
  SeedRole,
  SeedEvent,
  ServiceEndpoint,
  ServiceRecord,
  Store,
  StoredAlert,
  StoredDashboard,
  StoredEvent,
  StoredRole,
  StoredSource,
  StoredTile,
  StoredWebhook,
  TileConfig,
  TileUi,
  UiOverlay
} from './types.js'
