// The loopback emulator of the observability API, both modes from one server (see CONTRACT.md and FACTS.md).
export { startEmulator } from './server.js'
export { ApiError, UiBodyError } from './errors.js'
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
  Seed,
  SeedEvent,
  ServiceEndpoint,
  ServiceRecord,
  Store,
  StoredAlert,
  StoredDashboard,
  StoredEvent,
  StoredSource,
  StoredTile,
  StoredWebhook,
  TileConfig,
  TileUi,
  UiOverlay
} from './types.js'
