// Public types of the emulator. Other parts of the project (tests, benchmarks, demo scripts) code against these.
import type { TeamMembers } from './team-members.js'

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
  /**
   * Serve the MCP endpoint (`POST /mcp`, emulator/mcp.ts) as HyperDX 2.36 does (the default). Off: /mcp is an
   * unknown path (404), as on an older server, and a client that asks falls back to the v2 PUT.
   */
  mcp?: boolean
  /**
   * Which server to be: HyperDX 2.36 (the default), or `next`, a newer one as its pull requests describe it
   * (emulator/next-server.ts): alerts with `displayName` and `tags` (3063/3065/3067) and a field obsdeploy does
   * not model (`runbookUrl`), each reset by a write that omits it.
   */
  server?: ServerProfile
}

export type ServerProfile = '2.36' | 'next'

export type FaultKind =
  '429' | '500' | '502' | '503' | 'reset' | 'delay' | 'gather' | 'commit-drop' | 'commit-late'

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
  /**
   * For 'delay' (default 60000): hold the request longer than any client timeout, then answer normally. For
   * 'gather': the longest a request waits for the others of its group.
   */
  delayMs?: number
  /** For 'gather' (default 2): how many requests of the rule are held until they all go on together. */
  together?: number
}

export interface FaultController {
  add(rule: FaultRule): void
  clear(): void
}

/** `ui`: the web UI's own routes (`/login/password`, `/dashboards`, `/alerts`); `mcp`: `POST /mcp`. */
export type RequestMode = 'self-hosted' | 'managed' | 'control' | 'ui' | 'mcp' | 'other'

export interface RequestLogEntry {
  /** Start of the request, ms since the epoch. */
  time: number
  method: string
  /** Path without the query string. */
  path: string
  query: Record<string, string>
  mode: RequestMode
  /** `committed late`: a commit-late fault stored the request after its client had gone. */
  status: number | 'reset' | 'dropped' | 'timeout' | 'committed late'
  durationMs: number
  fault?: string
  rateLimited?: boolean
  /**
   * What the request did, where the path alone does not say: an MCP request's JSON-RPC method(s), with the tool
   * name for `tools/call` (`tools/call clickstack_patch_dashboard`); `login` for the web UI's sign-in.
   */
  label?: string
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
  /**
   * The password of the seed user (its email is `Seed.user.email`): `POST /login/password` with both opens a web UI
   * session. Filled in with a default when a seed or persisted state has none.
   */
  userPassword?: string
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
  /**
   * What the server's record of this tile holds beyond what `config` converts to (emulator/internal-form/): the
   * settings only the web UI can set (a builder tile's own filter, granularity, …), a select item's
   * `aggConditionLanguage: null` after a v2 PUT, the series form's extras. Absent when the tile converts as is.
   * Every v2 write of a tile replaces it (the converter writes the tile afresh); an MCP patch replaces it on the
   * patched tile only.
   */
  ui?: TileUi
}

/** Keys to set on, and keys to remove from, one converted object (a tile config or a select item). */
export interface UiOverlay {
  set?: JsonObject
  unset?: string[]
}

export interface TileUi {
  /** The internal config's own differences. */
  config?: UiOverlay
  /** Per select item, by index; null where the item converts as is. */
  select?: Array<UiOverlay | null>
  /** Tile-level keys the web UI stored beside id, x, y, w, h, containerId, tabId and config. */
  tile?: JsonObject
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
  /** The `next` server's stand-in for a dashboard-level field obsdeploy does not model (next-server.ts). */
  refreshInterval?: string
}

/**
 * What the server's dashboard record holds besides its content, kept beside it (ResourceStore.dashboardMeta): the
 * timestamps, and the user who created / last updated it through the web UI (the v2 API sets neither user).
 */
export interface DashboardMeta {
  createdAt?: string
  updatedAt?: string
  createdBy?: string
  updatedBy?: string
}

/** A webhook channel; managed mode also stores email channels and the webhook extras as sent. */
export interface AlertChannel {
  type: 'webhook' | 'email'
  webhookId?: string
  [key: string]: unknown
}

export interface StoredAlert {
  id: string
  name: string | null
  message: string | null
  threshold: number
  /** Absent until a request sets it; a PUT that omits it keeps it. */
  thresholdMax?: number
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
  /** The `next` server only (next-server.ts): absent on 2.36, where a write never sets them. */
  displayName?: string | null
  tags?: string[] | null
  runbookUrl?: string | null
}

/** A data source record (self-hosted OpenAPI LogSource / TraceSource / MetricSource ...). */
export interface StoredSource {
  id: string
  name: string
  kind: 'log' | 'trace' | 'metric' | 'session' | 'promql'
  [key: string]: unknown
}

/**
 * A webhook record (self-hosted OpenAPI SlackWebhook / GenericWebhook / IncidentIOWebhook). `headers` and
 * `queryParams` are stored but never returned (zod.ts: "headers are intentionally omitted from response schemas"), nor
 * is an incident.io `body`.
 */
export interface StoredWebhook {
  id: string
  name: string
  service: 'slack' | 'generic' | 'incidentio'
  url?: string
  description?: string
  body?: string
  headers?: Record<string, string>
  queryParams?: Record<string, string>
  createdAt: string
  updatedAt: string
}

/** A ClickHouse connection (self-hosted only). The password is stored, never returned. */
export interface StoredConnection {
  id: string
  name: string
  host: string
  username: string
  password: string
  hyperdxSettingPrefix?: string
  isPrometheusEndpoint?: boolean
  createdAt: string
  updatedAt: string
}

/** A saved search, as `toExternalJSON` returns it. */
export interface StoredSavedSearch {
  id: string
  name: string
  sourceId: string
  select: string
  where: string
  whereLanguage: string
  orderBy: string
  tags: string[]
  filters: JsonObject[]
  teamId: string
  createdAt: string
  updatedAt: string
}

/** One CASL rule of a ClickStack role (managed OpenAPI ClickStackCASLPermission). */
export interface RolePermission {
  action: string
  subject: string
  /** Stored and returned filled in: false when not sent. */
  inverted: boolean
  /** Stored and returned filled in: `mongodb` (the API's own records) when not sent. */
  integration: string
  /** Opaque, as sent (a MongoDB filter or a ClickHouse row policy). */
  conditions?: JsonObject
}

/**
 * A ClickStack role of one managed service (managed OpenAPI ClickStackRole); managed mode only (emulator/roles.ts).
 * Predefined roles are the cloud's own and immutable.
 */
export interface StoredRole {
  id: string
  name: string
  description?: string
  permissions: RolePermission[]
  isPredefined: boolean
  createdAt: string
  updatedAt: string
  /**
   * How many users hold the role (never returned). The cloud refuses to delete a role assigned to users (the OpenAPI
   * description of DELETE); the emulator has no managed users, so tests set it (Store.assignRole).
   */
  assignedUsers?: number
}

/** A custom role of a seed, as a create request would send it (the server adds what it adds on create). */
export interface SeedRole {
  name: string
  description?: string
  permissions: Array<Partial<RolePermission> & { action: string; subject: string }>
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
  /** The team's ClickHouse connections (the sources' `connection` ids). */
  connections?: StoredConnection[]
  /** Events of the self-hosted team, placed relative to "now" when the emulator starts. */
  events: SeedEvent[]
  services: ServiceRecord[]
  /** Custom ClickStack roles every managed service starts with, beside the predefined ones (default none). */
  roles?: SeedRole[]
}

export interface Store {
  /** Stored in the server's normal form (config tiles). */
  dashboards: Map<string, StoredDashboard>
  alerts: Map<string, StoredAlert>
  sources: StoredSource[]
  webhooks: StoredWebhook[]
  connections: StoredConnection[]
  savedSearches: Map<string, StoredSavedSearch>
  events: StoredEvent[]
  /** The service's ClickStack roles, predefined ones included (managed stores; empty in self-hosted mode). */
  roles: Map<string, StoredRole>
  /** Same validation and normalization path as POST /dashboards. */
  createDashboard(body: unknown): StoredDashboard
  /** Same as PUT /dashboards/{id}. */
  updateDashboard(id: string, body: unknown): StoredDashboard
  createAlert(body: unknown): StoredAlert
  /** The same as the routes of connections, sources, saved searches and webhooks (emulator/records.ts). */
  createConnection(body: unknown): StoredConnection
  updateConnection(id: string, body: unknown): StoredConnection
  createSource(body: unknown): StoredSource
  updateSource(id: string, body: unknown): StoredSource
  createSavedSearch(body: unknown): StoredSavedSearch
  updateSavedSearch(id: string, body: unknown): StoredSavedSearch
  createWebhook(body: unknown): StoredWebhook
  updateWebhook(id: string, body: unknown): StoredWebhook
  /** The same as POST /roles and PUT /roles/{id} (emulator/roles.ts). */
  createRole(body: unknown): StoredRole
  updateRole(id: string, body: unknown): StoredRole
  /** Gives the role `users` holders (0: none), as assigning it in the cloud's console would: a delete is then refused. */
  assignRole(id: string, users: number): void
  // The web UI's routes (emulator/ui-store.ts), as the signed-in seed user. Refusals throw ApiError: a validation
  // failure is a `UiBodyError` whose `body` is the 400 body (zod-express-middleware's list), a missing record a 404
  // with the text `Not Found`.
  /** GET /dashboards: every dashboard in the internal form, each tile's alert in its config. */
  uiDashboards(): JsonObject[]
  /** POST /dashboards: the created record as the server answers it. */
  uiCreateDashboard(body: unknown): JsonObject
  /** PATCH /dashboards/{id}: the updated record as the server answers it. */
  uiPatchDashboard(id: string, body: unknown): JsonObject
  /** DELETE /dashboards/{id}: deletes its alerts too; an unknown id is not an error. */
  uiDeleteDashboard(id: string): void
  /** PUT /alerts/{id}: the updated alert (the answer's `data`). */
  uiUpdateAlert(id: string, body: unknown): JsonObject
  /** The MCP tool `clickstack_patch_dashboard` (emulator/mcp.ts): its result, `isError` on a refusal. */
  mcpPatchDashboard(args: unknown): Promise<McpToolResult>
}

/** A `tools/call` result. */
export interface McpToolResult {
  content: Array<{ type: 'text'; text: string }>
  isError?: true
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
  /** The seed user the web UI routes sign in (POST /login/password takes its email and `credentials.userPassword`). */
  user: Seed['user']
  /** A `Cookie` header value of a new signed-in web UI session, as POST /login/password sets it. */
  uiCookie(): string
  /** The self-hosted team's users and invitations, with what tests do besides the v2 routes (accept, add a user). */
  team: TeamMembers
  save(): void
  close(): Promise<void>
}
