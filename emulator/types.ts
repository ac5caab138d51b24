// Public types of the emulator. Other parts of the project (tests, benchmarks, demo scripts) code against these.

export type JsonObject = Record<string, unknown>

export interface RateLimit {
  requests: number
  windowMs: number
}

export interface EmulatorOptions {
  /** 0 = a free port (default). The host is always 127.0.0.1. */
  port?: number
  /** Default: emulator/fixtures/seed.json. */
  seed?: Seed
  /** When set: load state from this JSON file if it exists, and write it after every mutation. */
  persistPath?: string
  /** Defaults: selfHosted {requests: 100, windowMs: 60000}, managed {requests: 10, windowMs: 10000}. */
  rateLimits?: { selfHosted?: RateLimit | false; managed?: RateLimit | false }
  /** Default page size of the paginated lists (FACTS.md: 1000). */
  pageSize?: number
  /** Seed of the deterministic PRNG behind probability faults. */
  randomSeed?: number
  /** Artificial latency added to every request (default 0). */
  latencyMs?: number
  /**
   * The time the rate limiters and the request log go by (default Date.now): a test can run the limiter
   * on the same fake clock as the client's pacer, so pacing is checked without waiting for real time.
   */
  clock?: () => number
  /**
   * The managed path prefixes served (default both). The public cloud serves only `clickstack`; CONTRACT.md
   * says `observability`. Any other path gets the gateway's HTML 404 page.
   */
  managedPrefixes?: Array<'clickstack' | 'observability'>
}

export type FaultKind = '429' | '500' | '502' | '503' | 'reset' | 'delay' | 'commit-drop'

export interface FaultRule {
  /** e.g. 'POST'; default: any method. */
  method?: string
  /** Matched against the path without query; a string matches as a substring. */
  path?: RegExp | string
  /** Used with probability (default probability 1). */
  kind?: FaultKind
  /** 0..1, per matching request. */
  probability?: number
  /** Scripted: successive matching requests get these in order, then pass through. */
  sequence?: (FaultKind | 'ok')[]
  /** For '429' (default 1). */
  retryAfterSeconds?: number
  /** For 'delay' (default 60000): hold the request longer than any client timeout, then answer normally. */
  delayMs?: number
}

export interface FaultController {
  add(rule: FaultRule): void
  clear(): void
}

export type RequestMode = 'self-hosted' | 'managed' | 'control' | 'other'

export interface RequestLogEntry {
  /** Start of the request, ms since the epoch. */
  time: number
  method: string
  /** Path without the query string. */
  path: string
  query: Record<string, string>
  mode: RequestMode
  status: number | 'reset' | 'dropped' | 'timeout'
  durationMs: number
  fault?: string
  rateLimited?: boolean
}

export interface Credentials {
  apiKey: string
  ingestionKey: string
  keyId: string
  keySecret: string
  readOnlyKeyId: string
  readOnlyKeySecret: string
  organizationId: string
  serviceId: string
  devServiceId: string
}

/** A tile's chart configuration in the server's normal (`config`) form, tagged by displayType. */
export interface TileConfig {
  displayType: string
  [key: string]: unknown
}

export interface StoredTile {
  id: string
  name: string
  x: number
  y: number
  w: number
  h: number
  config: TileConfig
  containerId?: string
  tabId?: string
}

export interface StoredDashboard {
  id: string
  name: string
  tiles: StoredTile[]
  tags: string[]
  filters?: JsonObject[]
  savedQuery?: string | null
  savedQueryLanguage?: string | null
  savedFilterValues?: JsonObject[]
  containers?: JsonObject[]
}

export interface AlertChannel {
  type: 'webhook'
  webhookId: string
}

export interface StoredAlert {
  id: string
  name: string | null
  message: string | null
  threshold: number
  thresholdMax: number | null
  interval: string
  thresholdType: string
  source: 'tile' | 'saved_search'
  state: 'OK' | 'ALERT' | 'INSUFFICIENT_DATA' | 'DISABLED' | 'PENDING'
  channel: AlertChannel
  channels: AlertChannel[]
  dashboardId: string | null
  tileId: string | null
  savedSearchId?: string | null
  groupBy?: string | null
  note?: string | null
  scheduleOffsetMinutes?: number | null
  scheduleStartAt?: string | null
  numConsecutiveWindows: number | null
  createdAt: string
  updatedAt: string
  teamId: string
}

/** A data source record (self-hosted OpenAPI LogSource / TraceSource / MetricSource ...). */
export interface StoredSource {
  id: string
  name: string
  kind: 'log' | 'trace' | 'metric' | 'session' | 'promql'
  [key: string]: unknown
}

/** A webhook record (self-hosted OpenAPI SlackWebhook / GenericWebhook / IncidentIOWebhook). */
export interface StoredWebhook {
  id: string
  name: string
  service: 'slack' | 'generic' | 'incidentio'
  url?: string
  description?: string
  body?: string
  createdAt: string
  updatedAt: string
}

/** One telemetry event that chart queries aggregate over. */
export interface StoredEvent {
  /** ms since the epoch */
  timestamp: number
  sourceId: string
  fields: Record<string, string | number>
}

/** An event of the seed, placed relative to the moment the emulator starts. */
export interface SeedEvent {
  minutesAgo: number
  sourceId: string
  fields: Record<string, string | number>
}

export interface ServiceEndpoint {
  protocol: 'https' | 'nativesecure' | 'mysql'
  host: string
  port: number
  username?: string | null
}

export interface IpAccessListEntry {
  source: string
  description?: string
}

/** A managed control-plane service (managed OpenAPI `Service` schema, plus CONTRACT.md's `engineVersion`). */
export interface ServiceRecord {
  id: string
  name: string
  provider?: string
  region?: string
  state?: string
  clickhouseVersion?: string
  engineVersion?: string
  endpoints: ServiceEndpoint[]
  tier?: string
  minTotalMemoryGb?: number
  maxTotalMemoryGb?: number
  minReplicaMemoryGb?: number
  maxReplicaMemoryGb?: number
  numReplicas?: number
  autoscalingMode: 'vertical' | 'horizontal'
  idleScaling?: boolean
  idleTimeoutMinutes?: number
  ipAccessList: IpAccessListEntry[]
  createdAt?: string
  encryptionKey?: string
  encryptionAssumedRoleIdentifier?: string
  iamRole?: string
  privateEndpointIds: string[]
  availablePrivateEndpointIds: string[]
  dataWarehouseId?: string
  isPrimary?: boolean
  isReadonly?: boolean
  releaseChannel?: 'slow' | 'default' | 'fast'
  byocId?: string
  hasTransparentDataEncryption: boolean
  profile?: string
  transparentDataEncryptionKeyId?: string
  encryptionRoleId?: string
  complianceType?: string
  tags?: { key: string; value?: string }[]
  enableCoreDumps?: boolean
  currentScaling: JsonObject
  [key: string]: unknown
}

export interface Seed {
  credentials: Credentials
  team: { id: string; name: string }
  user: { id: string; email: string; name: string }
  sources: StoredSource[]
  webhooks: StoredWebhook[]
  /** Events of the self-hosted team, placed relative to "now" when the emulator starts. */
  events: SeedEvent[]
  services: ServiceRecord[]
}

export interface Store {
  /** Stored in the server's normal form (config tiles). */
  dashboards: Map<string, StoredDashboard>
  alerts: Map<string, StoredAlert>
  sources: StoredSource[]
  webhooks: StoredWebhook[]
  events: StoredEvent[]
  /** Same validation and normalization path as POST /dashboards. */
  createDashboard(body: unknown): StoredDashboard
  /** Same as PUT /dashboards/{id}. */
  updateDashboard(id: string, body: unknown): StoredDashboard
  createAlert(body: unknown): StoredAlert
}

export interface Emulator {
  /** http://127.0.0.1:PORT */
  url: string
  port: number
  credentials: Credentials
  selfHosted: Store
  managed(serviceId?: string): Store
  services: Map<string, ServiceRecord>
  faults: FaultController
  requestLog: RequestLogEntry[]
  clearLog(): void
  setRateLimits(limits: EmulatorOptions['rateLimits']): void
  save(): void
  close(): Promise<void>
}
