import { buildAlert } from './alert-body.js'
import { checkDashboardBody, type DashboardDraft } from './dashboard-body.js'
import { ApiError } from './errors.js'
import { newObjectId } from './ids.js'
import type { RuleMode } from './rules/index.js'
import { nextAlertRecord, nextDashboardRecord, parseNextAlertFields } from './next-server.js'
import * as records from './records.js'
import * as roles from './roles.js'
import { isAlertable, type TileDraft } from './tiles.js'
import type {
  DashboardMeta,
  Seed,
  ServerProfile,
  Store,
  StoredAlert,
  StoredConnection,
  StoredDashboard,
  StoredEvent,
  StoredRole,
  StoredSavedSearch,
  StoredSource,
  StoredTile,
  StoredWebhook
} from './types.js'

/** The plain-JSON form of one store, as persisted. */
export interface StoreSnapshot {
  dashboards: StoredDashboard[]
  alerts: StoredAlert[]
  sources: StoredSource[]
  webhooks: StoredWebhook[]
  /** Absent in files persisted before connections and saved searches were served. */
  connections?: StoredConnection[]
  savedSearches?: StoredSavedSearch[]
  events: StoredEvent[]
  /** Per dashboard id; absent in files persisted before it was kept. */
  dashboardMeta?: Record<string, DashboardMeta>
  /** A managed service's ClickStack roles; absent in files persisted before they were served (then the predefined ones). */
  roles?: StoredRole[]
}

export interface ValidationResult {
  valid: boolean
  errors: { path: string; message: string }[]
  normalized: Record<string, unknown> | null
}

/** What TeamStore (team-store.ts) adds: the web UI's routes and the MCP tool. */
type UiStoreMethods =
  | 'uiDashboards'
  | 'uiCreateDashboard'
  | 'uiPatchDashboard'
  | 'uiDeleteDashboard'
  | 'uiUpdateAlert'
  | 'mcpPatchDashboard'

/**
 * One team's observability resources (the self-hosted team, or one managed service). Every write goes through the
 * same validation and normalization as the HTTP routes, so tests that "edit by hand in the UI" produce real records.
 */
export class ResourceStore implements Omit<Store, UiStoreMethods> {
  readonly dashboards = new Map<string, StoredDashboard>()
  readonly alerts = new Map<string, StoredAlert>()
  readonly sources: StoredSource[]
  readonly webhooks: StoredWebhook[]
  readonly connections: StoredConnection[]
  readonly savedSearches = new Map<string, StoredSavedSearch>()
  readonly events: StoredEvent[]
  /** Each dashboard's timestamps and web UI users (types.ts DashboardMeta), by id. */
  readonly dashboardMeta = new Map<string, DashboardMeta>()
  /** A managed service's ClickStack roles (roles.ts), by id; none in self-hosted mode, which has no roles route. */
  readonly roles = new Map<string, StoredRole>()
  /** Which server this store answers as (EmulatorOptions.server): set for every store by EmulatorState. */
  server: ServerProfile = '2.36'

  constructor(
    snapshot: StoreSnapshot,
    readonly teamId: string,
    private readonly onChange: () => void = () => {},
    /** Whose request rules apply: the self-hosted server's, or the managed cloud's. */
    readonly mode: RuleMode = 'self-hosted',
    /** Who the web UI routes act as (the records' createdBy / updatedBy). */
    readonly user: Seed['user'] = { id: '000000000000000000000000', email: 'user@example.com', name: 'User' }
  ) {
    for (const dashboard of snapshot.dashboards) this.dashboards.set(dashboard.id, dashboard)
    for (const alert of snapshot.alerts) this.alerts.set(alert.id, alert)
    this.sources = snapshot.sources
    this.webhooks = snapshot.webhooks
    this.connections = snapshot.connections ?? []
    for (const search of snapshot.savedSearches ?? []) this.savedSearches.set(search.id, search)
    this.events = snapshot.events
    for (const [id, meta] of Object.entries(snapshot.dashboardMeta ?? {})) this.dashboardMeta.set(id, meta)
    const initial = snapshot.roles ?? (mode === 'managed' ? roles.initialRoles() : [])
    for (const role of initial) this.roles.set(role.id, role)
  }

  snapshot(): StoreSnapshot {
    return {
      dashboards: [...this.dashboards.values()],
      alerts: [...this.alerts.values()],
      sources: this.sources,
      webhooks: this.webhooks,
      connections: this.connections,
      savedSearches: [...this.savedSearches.values()],
      events: this.events,
      dashboardMeta: Object.fromEntries(this.dashboardMeta),
      roles: [...this.roles.values()]
    }
  }

  /** Records a write of a dashboard: its update time (and creation time when new), and the web UI user if any. */
  touchDashboard(id: string, change: { created?: boolean; by?: string } = {}): void {
    const at = new Date().toISOString()
    const meta: DashboardMeta = change.created ? { createdAt: at } : { ...this.dashboardMeta.get(id) }
    meta.updatedAt = at
    if (change.by !== undefined) {
      if (change.created) meta.createdBy = change.by
      meta.updatedBy = change.by
    }
    this.dashboardMeta.set(id, meta)
  }

  /** What the record routes (records.ts) work on. */
  get records(): records.RecordState {
    return {
      mode: this.mode,
      teamId: this.teamId,
      sources: this.sources,
      webhooks: this.webhooks,
      connections: this.connections,
      savedSearches: this.savedSearches,
      alerts: this.alerts,
      changed: this.onChange
    }
  }

  // The same requests as the HTTP routes, for tests that edit "in the UI".
  createWebhook = (body: unknown) => records.createWebhook(this.records, body)
  updateWebhook = (id: string, body: unknown) => records.updateWebhook(this.records, id, body)
  createConnection = (body: unknown) => records.createConnection(this.records, body)
  updateConnection = (id: string, body: unknown) => records.updateConnection(this.records, id, body)
  createSource = (body: unknown) => records.createSource(this.records, body)
  updateSource = (id: string, body: unknown) => records.updateSource(this.records, id, body)
  createSavedSearch = (body: unknown) => records.createSavedSearch(this.records, body)
  updateSavedSearch = (id: string, body: unknown) => records.updateSavedSearch(this.records, id, body)
  createRole = (body: unknown) => roles.createRole(this.roleState, body)
  updateRole = (id: string, body: unknown) => roles.updateRole(this.roleState, id, body)
  assignRole = (id: string, users: number) => roles.assignRole(this.roleState, id, users)

  /** What the role routes (roles.ts) work on. */
  get roleState(): roles.RoleState {
    return { roles: this.roles, changed: this.onChange }
  }

  getDashboard(id: string): StoredDashboard {
    const dashboard = this.dashboards.get(id)
    // GET and PUT of an unknown dashboard: `res.sendStatus(404)`, the plain text `Not Found` (not the `{message}` the
    // route's OpenAPI comment advertises). The managed gateway answers it in its own envelope.
    if (dashboard === undefined)
      throw this.mode === 'managed'
        ? new ApiError(404, 'Dashboard not found')
        : new ApiError(404, 'Not Found', 'text')
    return dashboard
  }

  /** FACTS.md: on create the server assigns every tile id; ids sent are ignored. */
  createDashboard(body: unknown): StoredDashboard {
    const check = checkDashboardBody(body, 'create', this.bodyContext())
    if (!check.ok) throw check.error
    const dashboard = this.withNextFields(
      toRecord(newObjectId(), check.draft, () => newObjectId()),
      body
    )
    this.dashboards.set(dashboard.id, dashboard)
    this.touchDashboard(dashboard.id, { created: true })
    this.onChange()
    return dashboard
  }

  /**
   * FACTS.md: PUT replaces the whole tile list; a tile whose id matches an existing tile keeps it, any other gets a new
   * id; alerts on a tile that disappears or stops supporting alerts are deleted.
   */
  updateDashboard(id: string, body: unknown): StoredDashboard {
    const existing = this.getDashboard(id)
    const check = checkDashboardBody(body, 'update', this.bodyContext(), existing)
    if (!check.ok) throw check.error
    const available = new Set(existing.tiles.map(tile => tile.id))
    const dashboard = this.withNextFields(
      toRecord(id, check.draft, draft => {
        if (draft.requestedId !== undefined && available.delete(draft.requestedId)) return draft.requestedId
        return newObjectId()
      }),
      body
    )
    this.dashboards.set(id, dashboard)
    this.touchDashboard(id)
    const tiles = new Map(dashboard.tiles.map(tile => [tile.id, tile]))
    for (const alert of [...this.alerts.values()]) {
      if (alert.dashboardId !== id || alert.tileId === null) continue
      const tile = tiles.get(alert.tileId)
      if (tile === undefined || !isAlertable(tile)) this.alerts.delete(alert.id)
    }
    this.onChange()
    return dashboard
  }

  /** FACTS.md: deleting a dashboard deletes its alerts; an unknown id is not an error. */
  deleteDashboard(id: string): void {
    if (!this.dashboards.delete(id)) return
    this.dashboardMeta.delete(id)
    for (const alert of [...this.alerts.values()]) {
      if (alert.dashboardId === id) this.alerts.delete(alert.id)
    }
    this.onChange()
  }

  /** POST /dashboards/validate: a dry run that always answers and saves nothing; `normalized` is the parsed body. */
  validateDashboard(body: unknown): ValidationResult {
    const check = checkDashboardBody(body, 'create', this.bodyContext())
    if (!check.ok) return { valid: false, errors: check.issues, normalized: null }
    return { valid: true, errors: [], normalized: check.parsed }
  }

  getAlert(id: string): StoredAlert {
    const alert = this.alerts.get(id)
    if (alert === undefined) throw new ApiError(404, 'Alert not found')
    return alert
  }

  createAlert(body: unknown): StoredAlert {
    const alert = this.nextAlert(body, buildAlert(body, this.alertContext()))
    this.alerts.set(alert.id, alert)
    this.onChange()
    return alert
  }

  /** PUT /alerts/{id} replaces the configuration; the body is checked before the id is looked up (404). */
  updateAlert(id: string, body: unknown): StoredAlert {
    const alert = this.nextAlert(
      body,
      buildAlert(body, this.alertContext(), () => this.getAlert(id))
    )
    this.alerts.set(id, alert)
    this.onChange()
    return alert
  }

  /** The `next` server's dashboard field (next-server.ts); 2.36 never stores it. */
  private withNextFields(dashboard: StoredDashboard, body: unknown): StoredDashboard {
    return this.server === 'next' ? nextDashboardRecord(dashboard, body) : dashboard
  }

  /** The `next` server's alert fields (next-server.ts); 2.36 never stores them. */
  private nextAlert(body: unknown, alert: StoredAlert): StoredAlert {
    return this.server === 'next' ? nextAlertRecord(alert, parseNextAlertFields(body), this) : alert
  }

  /** FACTS.md: alert delete of an unknown id is a 404 `{message}`. */
  deleteAlert(id: string): void {
    this.getAlert(id)
    this.alerts.delete(id)
    this.onChange()
  }

  getSource(id: string): StoredSource {
    return records.getSource(this.records, id)
  }

  /** What the dashboard body checks look up (also the MCP tool's). */
  bodyContext() {
    return {
      mode: this.mode,
      server: this.server,
      sources: this.sources,
      dashboards: this.dashboards,
      // The managed cloud has no connections route: there a raw-SQL tile's connection is its sources'.
      connectionIds: this.mode === 'self-hosted' ? new Set(this.connections.map(c => c.id)) : undefined
    }
  }

  /** What the alert body checks look up (also the web UI's alert route). */
  alertContext() {
    return {
      mode: this.mode,
      managedChannels: this.server === 'next',
      dashboards: this.dashboards,
      webhooks: this.webhooks,
      savedSearchIds: new Set(this.savedSearches.keys()),
      teamId: this.teamId
    }
  }
}

function toRecord(id: string, draft: DashboardDraft, tileId: (tile: TileDraft) => string): StoredDashboard {
  const tiles = draft.tiles.map((tile): StoredTile => {
    const { requestedId: _requestedId, ...rest } = tile
    return { id: tileId(tile), ...rest }
  })
  return { id, name: draft.name, tiles, tags: draft.tags, ...draft.extras }
}
