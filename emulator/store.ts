import { buildAlert } from './alert-body.js'
import { checkDashboardBody, type DashboardDraft } from './dashboard-body.js'
import { ApiError } from './errors.js'
import { newObjectId } from './ids.js'
import type { RuleMode } from './rules/index.js'
import { isAlertable, type TileDraft } from './tiles.js'
import type {
  Store,
  StoredAlert,
  StoredDashboard,
  StoredEvent,
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
  events: StoredEvent[]
}

export interface ValidationResult {
  valid: boolean
  errors: { path: string; message: string }[]
  normalized: Record<string, unknown> | null
}

/**
 * One team's observability resources (the self-hosted team, or one managed service). Every write goes through the
 * same validation and normalization as the HTTP routes, so tests that "edit by hand in the UI" produce real records.
 */
export class ResourceStore implements Store {
  readonly dashboards = new Map<string, StoredDashboard>()
  readonly alerts = new Map<string, StoredAlert>()
  readonly sources: StoredSource[]
  readonly webhooks: StoredWebhook[]
  readonly events: StoredEvent[]

  constructor(
    snapshot: StoreSnapshot,
    private readonly teamId: string,
    private readonly onChange: () => void = () => {},
    /** Whose request rules apply: the self-hosted server's, or the managed cloud's. */
    readonly mode: RuleMode = 'self-hosted'
  ) {
    for (const dashboard of snapshot.dashboards) this.dashboards.set(dashboard.id, dashboard)
    for (const alert of snapshot.alerts) this.alerts.set(alert.id, alert)
    this.sources = snapshot.sources
    this.webhooks = snapshot.webhooks
    this.events = snapshot.events
  }

  snapshot(): StoreSnapshot {
    return {
      dashboards: [...this.dashboards.values()],
      alerts: [...this.alerts.values()],
      sources: this.sources,
      webhooks: this.webhooks,
      events: this.events
    }
  }

  getDashboard(id: string): StoredDashboard {
    const dashboard = this.dashboards.get(id)
    // FACTS.md "Errors": dashboard 404 is plain text.
    if (dashboard === undefined) throw new ApiError(404, 'Dashboard not found', 'text')
    return dashboard
  }

  /** FACTS.md: on create the server assigns every tile id; ids sent are ignored. */
  createDashboard(body: unknown): StoredDashboard {
    const check = checkDashboardBody(body, 'create', this.bodyContext())
    if (!check.ok) throw check.error
    const dashboard = toRecord(newObjectId(), check.draft, () => newObjectId())
    this.dashboards.set(dashboard.id, dashboard)
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
    const dashboard = toRecord(id, check.draft, draft => {
      if (draft.requestedId !== undefined && available.delete(draft.requestedId)) return draft.requestedId
      return newObjectId()
    })
    this.dashboards.set(id, dashboard)
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
    const alert = buildAlert(body, this.alertContext())
    this.alerts.set(alert.id, alert)
    this.onChange()
    return alert
  }

  /** PUT /alerts/{id} replaces the configuration; the body is checked before the id is looked up (404). */
  updateAlert(id: string, body: unknown): StoredAlert {
    const alert = buildAlert(body, this.alertContext(), () => this.getAlert(id))
    this.alerts.set(id, alert)
    this.onChange()
    return alert
  }

  /** FACTS.md: alert delete of an unknown id is a 404 `{message}`. */
  deleteAlert(id: string): void {
    this.getAlert(id)
    this.alerts.delete(id)
    this.onChange()
  }

  getSource(id: string): StoredSource {
    const source = this.sources.find(candidate => candidate.id === id)
    if (source === undefined) throw new ApiError(404, 'Source not found')
    return source
  }

  private bodyContext() {
    return { mode: this.mode, sources: this.sources, dashboards: this.dashboards }
  }

  private alertContext() {
    return { mode: this.mode, dashboards: this.dashboards, webhooks: this.webhooks, teamId: this.teamId }
  }
}

function toRecord(id: string, draft: DashboardDraft, tileId: (tile: TileDraft) => string): StoredDashboard {
  const tiles = draft.tiles.map((tile): StoredTile => {
    const { requestedId: _requestedId, ...rest } = tile
    return { id: tileId(tile), ...rest }
  })
  return { id, name: draft.name, tiles, tags: draft.tags, ...draft.extras }
}
