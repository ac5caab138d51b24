// The loopback emulator of the observability API, both modes from one server (see CONTRACT.md and FACTS.md).
export { startEmulator } from './server.js'
export { ApiError } from './errors.js'
export type {
  AlertChannel,
  Credentials,
  Emulator,
  EmulatorOptions,
  FaultController,
  FaultKind,
  FaultRule,
  IpAccessListEntry,
  JsonObject,
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
  TileConfig
} from './types.js'
