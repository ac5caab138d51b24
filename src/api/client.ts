/**
 * The one interface the planner and the apply engine use, for both deployment modes. It knows the
 * paths and what the routes answer (their envelopes and shapes: responses.ts; their pages: pages.ts; what a
 * 404 means: not-found.ts); the transport knows the network.
 */
import { z } from 'zod'
import type { ApiPrefix, Config, Mode } from '../config/types.js'
import { silentLogger, type Logger } from '../log.js'
import { pathSegment } from './address.js'
import { ApiError } from './errors.js'
import { isResourceAbsent, routeNotFound, unknownService, type NotFoundShape } from './not-found.js'
import { readPages } from './pages.js'
import { parseResponse, unwrapEnvelope, WithId } from './responses.js'
import { dropStaleSelectFields } from './stale-select.js'
import {
  MCP_ACCEPT,
  MCP_PATH,
  mcpRequest,
  PATCH_DASHBOARD_TOOL,
  replyIn,
  toolNames,
  toolOutcome,
  type McpRequest
} from './mcp.js'
import {
  LiveAlert,
  LiveConnection,
  LiveDashboard,
  LiveRole,
  LiveSavedSearch,
  LiveService,
  LiveSource,
  LiveTeamInvitation,
  LiveTeamUser,
  LiveWebhook,
  SeriesPoint,
  ValidateDashboardResult,
  WrittenDashboard,
  WrittenRecord,
  WrittenTeamInvitation,
  teamMembersOf,
  type LiveTeamMember
} from './schemas.js'
import {
  Transport,
  type ApiResponse,
  type Method,
  type TransportOptions,
  type TransportStats
} from './transport.js'

export { unwrapEnvelope } from './responses.js'

/**
 * The collections written through the same create / update / delete routes (real-server.md §3-§6); `roles` is the
 * managed cloud's alone (`.../clickstack/roles`, cloud OpenAPI).
 */
export type RecordCollection = 'connections' | 'sources' | 'webhooks' | 'saved-searches' | 'roles'

/** One call of the MCP patch tool: at least name, tags, or a tile with its id. */
export interface DashboardPatch {
  dashboardId: string
  name?: string
  tags?: string[]
  tileId?: string
  tile?: Record<string, unknown>
}

export interface ServiceResponse {
  service: LiveService
  requestId?: string
}

export interface ObservabilityApi {
  readonly mode: Mode
  /** Managed mode: the path segment in use, once the first request has settled it (`managed-prefix: auto`). */
  readonly prefix?: ApiPrefix
  listDashboards(): Promise<LiveDashboard[]>
  getDashboard(id: string): Promise<LiveDashboard>
  /** The new dashboard's id and the tile ids the server assigned. */
  createDashboard(body: unknown): Promise<WrittenDashboard>
  updateDashboard(id: string, body: unknown): Promise<WrittenDashboard>
  /** 'absent' when the server says it does not exist (already deleted). */
  deleteDashboard(id: string): Promise<'deleted' | 'absent'>
  validateDashboard(body: unknown): Promise<ValidateDashboardResult>
  /**
   * Self-hosted: whether the server's MCP endpoint offers the dashboard patch tool (api/mcp.ts). False on any
   * failure, and in managed mode: a plan then writes with PUT, as before.
   */
  canPatchDashboards(): Promise<boolean>
  /** MCP `clickstack_patch_dashboard`: name and tags and/or one tile replaced by id; every other tile is kept. */
  patchDashboard(patch: DashboardPatch): Promise<void>
  listAlerts(): Promise<LiveAlert[]>
  getAlert(id: string): Promise<LiveAlert>
  /** Returns the new alert's id. */
  createAlert(body: unknown): Promise<{ id: string }>
  updateAlert(id: string, body: unknown): Promise<{ id: string }>
  deleteAlert(id: string): Promise<'deleted' | 'absent'>
  listSources(): Promise<LiveSource[]>
  /** `undefined` when this deployment has no webhooks route (CONTRACT.md: managed mode). */
  listWebhooks(): Promise<LiveWebhook[] | undefined>
  /** `undefined` in managed mode: the cloud has no connections route (real-server.md §11.2). */
  listConnections(): Promise<LiveConnection[] | undefined>
  /** `undefined` when this deployment has no saved-searches route (the contract's managed prefix). */
  listSavedSearches(): Promise<LiveSavedSearch[] | undefined>
  /** POST: the created record, with its id. */
  createRecord(collection: RecordCollection, body: unknown): Promise<WrittenRecord>
  /** PUT: the record as stored (or only its id, when the server says no more). */
  updateRecord(collection: RecordCollection, id: string, body: unknown): Promise<WrittenRecord>
  /** 'absent' when the server says it does not exist (already deleted). */
  deleteRecord(collection: RecordCollection, id: string): Promise<'deleted' | 'absent'>
  /**
   * Self-hosted: the key's team members and pending invitations (v2/team.ts), one record per email;
   * `undefined` in managed mode and on a server without these routes.
   */
  listTeam(): Promise<LiveTeamMember[] | undefined>
  /** POST /team/invitation: idempotent on the server (an invitation of that email is answered again). */
  inviteTeamMember(body: { email: string; name?: string }): Promise<WrittenTeamInvitation>
  /** 'absent' when the server says it does not exist (already deleted, or accepted). */
  deleteTeamInvitation(id: string): Promise<'deleted' | 'absent'>
  deleteTeamMember(id: string): Promise<'deleted' | 'absent'>
  /**
   * Managed: the team's ClickStack roles, predefined ones included (GET `.../clickstack/roles`, one request: the
   * list is not paged); `undefined` in self-hosted mode (HyperDX 2.36's open-source API has none) and where the
   * managed route is absent (the contract's `observability` prefix).
   */
  listRoles(): Promise<LiveRole[] | undefined>
  /** Self-hosted only (CONTRACT.md). */
  querySeries(body: unknown): Promise<SeriesPoint[]>
  /** Managed only: the database service (control plane). */
  getService(): Promise<ServiceResponse>
  patchService(body: unknown): Promise<ServiceResponse>
  readonly stats: TransportStats
  /** How long (ms) requests still wait for the client-side rate limit, while they do (progress shows it). */
  pacingFor?(): number | undefined
  /**
   * The same client whose requests end when `signal` aborts, in flight too (they reject with
   * RequestCancelledError). Reads that are only useful together cancel each other this way.
   */
  withSignal(signal: AbortSignal): ObservabilityApi
  close(): Promise<void>
}

export type ApiSettings = Pick<
  Config,
  | 'mode'
  | 'apiUrl'
  | 'auth'
  | 'organizationId'
  | 'serviceId'
  | 'managedPrefix'
  | 'rateLimit'
  | 'requestTimeoutMs'
  | 'retryBudgetMs'
> &
  Partial<Pick<Config, 'connectBudgetMs'>>

export function createApi(
  settings: ApiSettings,
  extra: Partial<
    Pick<TransportOptions, 'clock' | 'random' | 'maxConnections' | 'maxAttempts' | 'slowNoticeMs'>
  > & {
    log?: Logger
  } = {}
): ObservabilityApi {
  const transport = new Transport({
    baseUrl: settings.apiUrl,
    auth: settings.auth,
    mode: settings.mode,
    rateLimit: settings.rateLimit,
    requestTimeoutMs: settings.requestTimeoutMs,
    retryBudgetMs: settings.retryBudgetMs,
    connectBudgetMs: settings.connectBudgetMs,
    ...extra
  })
  return new HttpObservabilityApi(settings, transport, extra.log ?? silentLogger)
}

/**
 * What each route answers when the resource itself does not exist (real-server.md §0.5, §1.1, §2.1,
 * §11.3). Any other 404 is a route the server (or the gateway in front of it) does not have.
 * `status-text` is Express's `sendStatus(404)`: the plain text `Not Found`.
 */
const ABSENT_SHAPES: Record<
  'dashboards' | 'alerts' | 'team' | RecordCollection,
  Record<Mode, readonly NotFoundShape[]>
> = {
  // HyperDX answers a missing dashboard with sendStatus(404); its OpenAPI comments advertise {message}.
  dashboards: { 'self-hosted': ['status-text', 'json'], managed: ['json'] },
  // HyperDX: 404 {message: "Alert not found"}; the cloud gateway: 404 {status, error, requestId}.
  alerts: { 'self-hosted': ['json'], managed: ['json'] },
  // v2/connections.ts: sendStatus(404), the plain text `Not Found`.
  connections: { 'self-hosted': ['status-text'], managed: ['json'] },
  // v2/sources.ts, webhooks.ts, savedSearches.ts: 404 {message: "... not found"}.
  sources: { 'self-hosted': ['json'], managed: ['json'] },
  webhooks: { 'self-hosted': ['json'], managed: ['json'] },
  'saved-searches': { 'self-hosted': ['json'], managed: ['json'] },
  // v2/team.ts: sendStatus(404) for a missing invitation or member; the cloud has no team routes.
  team: { 'self-hosted': ['status-text'], managed: [] },
  // The cloud's envelope `{status, error, requestId}`; the open-source API has no roles.
  roles: { 'self-hosted': [], managed: ['json'] }
}

/** Words for a path segment's id, in errors. */
const RECORD_WORDS: Record<RecordCollection, string> = {
  connections: 'connection id',
  sources: 'source id',
  webhooks: 'webhook id',
  'saved-searches': 'saved search id',
  roles: 'role id'
}

/** What the copies of one client (withSignal) share: the managed prefix, once settled. */
interface PrefixState {
  /** Managed: the prefix in use; `undefined` until the first list settles `auto`. */
  resolved?: ApiPrefix
  probe?: Promise<ApiPrefix>
  /** The first dashboards page, read while settling `auto`: the dashboards list uses it. */
  probed?: ApiResponse
}

class HttpObservabilityApi implements ObservabilityApi {
  readonly mode: Mode
  private readonly serviceBase?: string

  constructor(
    private readonly settings: ApiSettings,
    private readonly transport: Transport,
    private readonly log: Logger,
    private readonly state: PrefixState = {},
    /** Ends this copy's requests (see withSignal). */
    private readonly signal?: AbortSignal
  ) {
    this.mode = settings.mode
    if (settings.mode === 'managed') {
      // Checked as UUIDs by config; pathSegment still refuses anything that could leave its segment.
      const org = pathSegment(settings.organizationId ?? '', 'organization-id')
      const svc = pathSegment(settings.serviceId ?? '', 'service-id')
      this.serviceBase = `/v1/organizations/${org}/services/${svc}`
      if (settings.managedPrefix !== 'auto') this.state.resolved ??= settings.managedPrefix
    }
  }

  get prefix(): ApiPrefix | undefined {
    return this.state.resolved
  }

  withSignal(signal: AbortSignal): ObservabilityApi {
    return new HttpObservabilityApi(this.settings, this.transport, this.log, this.state, signal)
  }

  get stats(): TransportStats {
    return this.transport.stats
  }

  pacingFor(): number | undefined {
    return this.transport.pacingFor()
  }

  close(): Promise<void> {
    return this.transport.close()
  }

  async listDashboards(): Promise<LiveDashboard[]> {
    return (await this.list('/dashboards', LiveDashboard)).map(dropStaleSelectFields)
  }

  async getDashboard(id: string): Promise<LiveDashboard> {
    const res = await this.send('GET', await this.item('/dashboards', id, 'dashboard id'))
    return dropStaleSelectFields(parseResponse(LiveDashboard, unwrapEnvelope(res.body), res))
  }

  async createDashboard(body: unknown): Promise<WrittenDashboard> {
    return this.writeDashboard('POST', `${await this.base()}/dashboards`, body)
  }

  async updateDashboard(id: string, body: unknown): Promise<WrittenDashboard> {
    return this.writeDashboard('PUT', await this.item('/dashboards', id, 'dashboard id'), body)
  }

  async deleteDashboard(id: string): Promise<'deleted' | 'absent'> {
    return this.remove(await this.item('/dashboards', id, 'dashboard id'), ABSENT_SHAPES.dashboards)
  }

  async validateDashboard(body: unknown): Promise<ValidateDashboardResult> {
    const res = await this.send('POST', `${await this.base()}/dashboards/validate`, body, true)
    return parseResponse(ValidateDashboardResult, unwrapEnvelope(res.body), res)
  }

  async canPatchDashboards(): Promise<boolean> {
    if (this.mode !== 'self-hosted') return false
    try {
      const res = await this.mcp(mcpRequest(1, 'tools/list'))
      return toolNames(replyIn(res.body)).includes(PATCH_DASHBOARD_TOOL)
    } catch (e) {
      // An older server (a 404 page), a proxy that refuses the route, a key the route refuses: PUT as before.
      this.log.debug(`no dashboard patch through MCP: ${e instanceof Error ? e.message : String(e)}`)
      return false
    }
  }

  async patchDashboard(patch: DashboardPatch): Promise<void> {
    const res = await this.mcp(mcpRequest(1, 'tools/call', { name: PATCH_DASHBOARD_TOOL, arguments: patch }))
    const outcome = toolOutcome(replyIn(res.body))
    if (!outcome.ok)
      throw new ApiError(
        { method: 'POST', path: MCP_PATH, status: res.status, serverMessage: outcome.text },
        `refused (tool ${PATCH_DASHBOARD_TOOL})`
      )
  }

  /** One JSON-RPC request to the MCP endpoint. Setting a name, tags or a tile twice leaves the same record. */
  private mcp(body: McpRequest): Promise<ApiResponse> {
    return this.transport.request(
      { method: 'POST', path: MCP_PATH, body, idempotent: true, accept: MCP_ACCEPT },
      this.signal
    )
  }

  async listAlerts(): Promise<LiveAlert[]> {
    return this.list('/alerts', LiveAlert, true)
  }

  async getAlert(id: string): Promise<LiveAlert> {
    const res = await this.send('GET', await this.item('/alerts', id, 'alert id'))
    return parseResponse(LiveAlert, unwrapEnvelope(res.body), res)
  }

  async createAlert(body: unknown): Promise<{ id: string }> {
    const res = await this.send('POST', `${await this.base()}/alerts`, body, false)
    return parseResponse(WithId, unwrapEnvelope(res.body), res)
  }

  async updateAlert(id: string, body: unknown): Promise<{ id: string }> {
    const res = await this.send('PUT', await this.item('/alerts', id, 'alert id'), body)
    const parsed = WithId.safeParse(unwrapEnvelope(res.body))
    return parsed.success ? parsed.data : { id }
  }

  async deleteAlert(id: string): Promise<'deleted' | 'absent'> {
    return this.remove(await this.item('/alerts', id, 'alert id'), ABSENT_SHAPES.alerts)
  }

  async listSources(): Promise<LiveSource[]> {
    return this.list('/sources', LiveSource)
  }

  async listWebhooks(): Promise<LiveWebhook[] | undefined> {
    // The contract's managed mode has no webhooks route; the public cloud's clickstack prefix has one.
    return this.managedOptional(() => this.list('/webhooks', LiveWebhook, true))
  }

  async listConnections(): Promise<LiveConnection[] | undefined> {
    if (this.mode === 'managed') return undefined
    // CONTRACT.md has no connections: a server that follows it only answers 404.
    return this.optional(() => this.list('/connections', LiveConnection))
  }

  async listSavedSearches(): Promise<LiveSavedSearch[] | undefined> {
    // Not in CONTRACT.md either, nor under the managed `observability` prefix.
    return this.optional(() => this.list('/saved-searches', LiveSavedSearch, true))
  }

  async createRecord(collection: RecordCollection, body: unknown): Promise<WrittenRecord> {
    const res = await this.send('POST', `${await this.base()}/${collection}`, body, false)
    return parseResponse(WrittenRecord, unwrapEnvelope(res.body), res)
  }

  async updateRecord(collection: RecordCollection, id: string, body: unknown): Promise<WrittenRecord> {
    const res = await this.send('PUT', await this.item(`/${collection}`, id, RECORD_WORDS[collection]), body)
    const parsed = WrittenRecord.safeParse(unwrapEnvelope(res.body))
    return parsed.success ? parsed.data : { id }
  }

  async deleteRecord(collection: RecordCollection, id: string): Promise<'deleted' | 'absent'> {
    return this.remove(
      await this.item(`/${collection}`, id, RECORD_WORDS[collection]),
      ABSENT_SHAPES[collection]
    )
  }

  async listTeam(): Promise<LiveTeamMember[] | undefined> {
    if (this.mode === 'managed') return undefined
    // HyperDX before 2.36 has no team routes: a 404 on a list can only mean that.
    return this.optional(async () => {
      const [members, invitations] = await Promise.all([
        this.list('/team/members', LiveTeamUser),
        this.list('/team/invitations', LiveTeamInvitation)
      ])
      return teamMembersOf(members, invitations)
    })
  }

  async inviteTeamMember(body: { email: string; name?: string }): Promise<WrittenTeamInvitation> {
    // Idempotent on the server (v2/team.ts returns the existing invitation of that email): safe to retry.
    const res = await this.send('POST', `${await this.base()}/team/invitation`, body, true)
    return parseResponse(WrittenTeamInvitation, unwrapEnvelope(res.body), res)
  }

  async deleteTeamInvitation(id: string): Promise<'deleted' | 'absent'> {
    return this.remove(await this.item('/team/invitation', id, 'invitation id'), ABSENT_SHAPES.team)
  }

  async deleteTeamMember(id: string): Promise<'deleted' | 'absent'> {
    return this.remove(await this.item('/team/member', id, 'team member id'), ABSENT_SHAPES.team)
  }

  async listRoles(): Promise<LiveRole[] | undefined> {
    if (this.mode !== 'managed') return undefined
    return this.optional(() => this.list('/roles', LiveRole))
  }

  /** A list the managed API may not have (the contract's `observability` prefix): a 404 is "no route". */
  private async managedOptional<T>(read: () => Promise<T>): Promise<T | undefined> {
    return this.mode === 'managed' ? this.optional(read) : read()
  }

  /** A list route the server may not have: a 404 on a list can only mean that (a list of nothing is `[]`). */
  private async optional<T>(read: () => Promise<T>): Promise<T | undefined> {
    try {
      return await read()
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return undefined
      throw e
    }
  }

  async querySeries(body: unknown): Promise<SeriesPoint[]> {
    const res = await this.send('POST', `${await this.base()}/charts/series`, body, true)
    return parseResponse(z.array(SeriesPoint), unwrapEnvelope(res.body), res)
  }

  async getService(): Promise<ServiceResponse> {
    const res = await this.send('GET', this.requireServiceBase())
    return this.serviceResponse(res)
  }

  async patchService(body: unknown): Promise<ServiceResponse> {
    // Not retried blindly: a replayed `add` of an entry that now exists may be refused. After a lost
    // response the caller re-reads the service and sends only what still differs.
    const res = await this.send('PATCH', this.requireServiceBase(), body, false)
    return this.serviceResponse(res)
  }

  private serviceResponse(res: ApiResponse): ServiceResponse {
    const requestId = (res.body as { requestId?: unknown } | undefined)?.requestId
    return {
      service: parseResponse(LiveService, unwrapEnvelope(res.body), res),
      requestId: typeof requestId === 'string' ? requestId : undefined
    }
  }

  private requireServiceBase(): string {
    if (!this.serviceBase) throw new Error('service settings exist only in managed mode')
    return this.serviceBase
  }

  /** The path below which the observability resources are: `/api/v2`, or the service's prefix. */
  private async base(): Promise<string> {
    if (!this.serviceBase) return '/api/v2'
    return `${this.serviceBase}/${this.state.resolved ?? (await this.settlePrefix())}`
  }

  /**
   * `managed-prefix: auto`: the public cloud serves only `clickstack` (its gateway answers any other path
   * with a 404 page); CONTRACT.md says `observability`. The first request lists the dashboards under
   * `clickstack`; a 404 there (a list of nothing is `[]`, so a 404 can only mean the route is absent,
   * FACTS.md) switches to `observability` for the rest of the run. Concurrent callers share the probe.
   */
  private settlePrefix(): Promise<ApiPrefix> {
    const state = this.state
    state.probe ??= (async () => {
      try {
        state.probed = await this.send('GET', `${this.serviceBase}/clickstack/dashboards`)
        state.resolved = 'clickstack'
      } catch (e) {
        if (!(e instanceof ApiError && e.status === 404)) throw e
        // Only the gateway's page means "no such route"; a JSON 404 is the API's own answer about the path's
        // organization or service (TF client/client.go), and no other prefix would find them.
        if (e.bodyShape === 'json') throw unknownService(e)
        state.resolved = 'observability'
        this.log.info(
          "managed-prefix auto: the server has no clickstack route (HTTP 404), so this run uses the contract's observability prefix"
        )
      }
      return state.resolved
    })().catch((e: unknown) => {
      // A failure that says nothing about the route (401, network, a cancel): the next request settles it.
      state.probe = undefined
      throw e
    })
    return state.probe
  }

  private async item(collection: string, id: string, what: string): Promise<string> {
    return `${await this.base()}${collection}/${pathSegment(id, what)}`
  }

  private send(
    method: Method,
    path: string,
    body?: unknown,
    idempotent = method !== 'POST'
  ): Promise<ApiResponse> {
    return this.transport.request({ method, path, body, idempotent }, this.signal)
  }

  /** 'absent' only on the route's own "not found" answer; a router's 404 is an error that says so. */
  private async remove(
    path: string,
    absent: Record<Mode, readonly NotFoundShape[]>
  ): Promise<'deleted' | 'absent'> {
    try {
      await this.send('DELETE', path)
      return 'deleted'
    } catch (e) {
      if (e instanceof ApiError && isResourceAbsent(e, absent[this.mode])) return 'absent'
      throw this.routeError(e)
    }
  }

  /**
   * Some servers answer a write with the full record, some with less: when the tiles are missing we
   * read the dashboard back, because the apply needs the tile ids the server assigned.
   */
  private async writeDashboard(
    method: 'POST' | 'PUT',
    path: string,
    body: unknown
  ): Promise<WrittenDashboard> {
    const res = await this.send(method, path, body)
    const value = unwrapEnvelope(res.body)
    const written = WrittenDashboard.safeParse(value)
    if (written.success) return written.data
    const { id } = parseResponse(WithId, value, res)
    return this.getDashboard(id)
  }

  /** Reads a whole collection, following its pages (pages.ts); lists that do not paginate take one request. */
  private async list<T extends z.ZodType>(
    collection: string,
    item: T,
    paginated = false
  ): Promise<z.infer<T>[]> {
    const base = await this.base()
    const path = `${base}${collection}`
    let first: ApiResponse | undefined
    if (collection === '/dashboards' && this.state.probed?.path === path) {
      first = this.state.probed
      this.state.probed = undefined
    }
    // FACTS.md: a list of nothing is `[]`, so a 404 on a list means the route is absent, whatever its body.
    first ??= await this.send('GET', path).catch((e: unknown) => {
      throw this.routeError(e)
    })
    return readPages(path, first, item, paginated, query =>
      this.transport.request({ method: 'GET', path, query, idempotent: true }, this.signal)
    )
  }

  /** A 404 that is not a resource's "not found" names the path and, in managed mode, the prefix. */
  private routeError(e: unknown): unknown {
    return routeNotFound(e, this.mode, this.state.resolved)
  }
}
