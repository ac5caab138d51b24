/**
 * The kinds without dashboards (connections, sources, webhooks, saved searches) planned from manifest text and
 * applied to an in-memory server, for unit tests: each request is logged as the server receives it, and the
 * records are stored and listed as the real server returns them (HyperDX 2.36 v2 routers and controllers):
 * connections without their password, webhooks without headers and query parameters (incident.io ones without
 * their body), saved searches and sources as sent. A PUT of a connection keeps an omitted password and clears
 * the prefix on null; a PUT of a webhook keeps omitted headers and query parameters unless the url or the
 * service changes. Roles as the managed cloud keeps them (the Terraform provider's account of it): every custom
 * role gets the `read Connection` rule, on create and update; names are unique; predefined roles refuse writes; a
 * delete can be refused (`refuseDelete`). The registry dashboard is stored too, so a second plan sees what the apply
 * recorded.
 */
import type { ObservabilityApi, RecordCollection } from '../../src/api/client.js'
import { ApiError, UnknownOutcomeError } from '../../src/api/errors.js'
import type { LiveDashboard } from '../../src/api/schemas.js'
import { applyPlan } from '../../src/apply/apply.js'
import type { ApplyResult } from '../../src/apply/types.js'
import { KINDS } from '../../src/kinds/index.js'
import type { LiveState } from '../../src/kinds/kind.js'
import { registryTiles } from '../../src/kinds/registry.js'
import { silentLogger } from '../../src/log.js'
import { validateText } from '../../src/manifest/load.js'
import { computePlan, type PlanOutcome } from '../../src/planner/planner.js'
import type { Change } from '../../src/plan/types.js'
import { SHOP_TAG as TAG, shopSettings as settings } from './shop-stack.js'

export { TAG, settings }

type Stored = Record<string, unknown> & { id: string }

export interface Request {
  method: 'POST' | 'PUT' | 'DELETE'
  collection: RecordCollection | 'dashboards'
  id?: string
  body?: Record<string, unknown>
}

/** Omits what the server never returns of a record. */
function formatted(collection: RecordCollection, r: Stored): Stored {
  if (collection === 'connections') {
    const { password: _p, ...rest } = r
    return rest as Stored
  }
  if (collection === 'webhooks') {
    const { headers: _h, queryParams: _q, body, ...rest } = r
    return (r.service === 'incidentio' || body === undefined ? rest : { ...rest, body }) as Stored
  }
  return r
}

/** The cloud's own rule on every custom role (kinds/role-permissions.ts AUTO_GRANT). */
const AUTO_GRANT = { action: 'read', subject: 'Connection', integration: 'mongodb', inverted: false }

/** A role as stored: the server's own rule added when missing, never predefined. */
function storedRole(body: Record<string, unknown>, id: string): Stored {
  const permissions = [...((body.permissions as Array<Record<string, unknown>>) ?? [])]
  if (
    !permissions.some(p => p.action === 'read' && p.subject === 'Connection' && !p.inverted && !p.conditions)
  )
    permissions.push({ ...AUTO_GRANT })
  return { ...body, id, permissions, isPredefined: false }
}

const refused = (method: string, path: string, message: string) =>
  new ApiError({ status: 400, method, path, serverMessage: message, bodyShape: 'json' })

/** The stored record after a PUT of `body` (the routers' update semantics, above). */
function updated(collection: RecordCollection, old: Stored, body: Record<string, unknown>): Stored {
  if (collection === 'roles') {
    if (old.isPredefined) throw refused('PUT', `/roles/${old.id}`, 'Predefined roles cannot be modified')
    return storedRole({ description: old.description, ...body }, old.id)
  }
  if (collection === 'connections') {
    const next: Record<string, unknown> = { ...old, ...body, id: old.id }
    if (!body.password) next.password = old.password
    if (body.hyperdxSettingPrefix === null) delete next.hyperdxSettingPrefix
    return next as Stored
  }
  if (collection === 'webhooks') {
    const moved = body.url !== old.url || body.service !== old.service
    const next: Record<string, unknown> = { ...body, id: old.id }
    for (const f of ['headers', 'queryParams'])
      if (body[f] === undefined && !moved && old[f] !== undefined) next[f] = old[f]
      else if (body[f] !== undefined && Object.keys(body[f] as object).length === 0) delete next[f]
    return next as Stored
  }
  return { ...body, id: old.id }
}

export class RecordStore {
  readonly requests: Request[] = []
  readonly records: Record<RecordCollection, Stored[]> = {
    connections: [],
    sources: [],
    webhooks: [],
    'saved-searches': [],
    roles: []
  }
  /** Role deletes the server refuses, by id: its message (a role users have, the team's default role). */
  readonly refuseDelete = new Map<string, string>()
  readonly dashboards: LiveDashboard[] = []
  /** Creates whose response is lost after the server stored the record (a reset connection). */
  loseCreateResponses = 0
  private next = 0

  constructor(initial: Partial<Record<RecordCollection, Stored[]>> = {}) {
    for (const [c, rs] of Object.entries(initial)) this.records[c as RecordCollection].push(...rs)
  }

  /** A registry dashboard of stack `shop` that owns these ids (with these entries). */
  owns(owned: Parameters<typeof registryTiles>[1], stack = 'shop', tag = TAG): this {
    this.dashboards.push({
      id: `registry-${stack}`,
      name: `obsdeploy registry (stack ${stack})`,
      tags: [tag, 'obsdeploy-registry'],
      tiles: registryTiles(stack, owned)
    } as unknown as LiveDashboard)
    return this
  }

  /** What the planner reads. */
  live(): LiveState {
    const list = (c: RecordCollection) => this.records[c].map(r => structuredClone(formatted(c, r)))
    return {
      Dashboard: structuredClone(this.dashboards),
      Alert: [],
      Source: list('sources') as LiveState['Source'],
      Webhook: list('webhooks') as LiveState['Webhook'],
      Connection: list('connections') as LiveState['Connection'],
      SavedSearch: list('saved-searches') as LiveState['SavedSearch'],
      Role: list('roles') as LiveState['Role']
    }
  }

  find(collection: RecordCollection, name: string): Stored | undefined {
    return this.records[collection].find(r => r.name === name)
  }

  /** The requests to the record collections (not the registry's dashboard writes). */
  sent(): Request[] {
    return this.requests.filter(r => r.collection !== 'dashboards')
  }

  api(): ObservabilityApi {
    const writeDashboard = (id: string, body: Record<string, unknown>) => {
      const tiles = (body.tiles as Array<Record<string, unknown>>).map((t, i) => ({
        id: `${id}-t${i}`,
        ...t
      }))
      const d = { ...body, id, tiles } as unknown as LiveDashboard
      const at = this.dashboards.findIndex(x => x.id === id)
      if (at >= 0) this.dashboards[at] = d
      else this.dashboards.push(d)
      return { id, tiles }
    }
    const live = this.live.bind(this)
    return {
      mode: 'self-hosted',
      listSources: async () => live().Source,
      listWebhooks: async () => live().Webhook,
      listConnections: async () => live().Connection,
      listSavedSearches: async () => live().SavedSearch,
      listRoles: async () => live().Role,
      listDashboards: async () => live().Dashboard,
      createDashboard: async (body: Record<string, unknown>) => {
        this.requests.push({ method: 'POST', collection: 'dashboards', body })
        return writeDashboard(`dash-${++this.next}`, body)
      },
      updateDashboard: async (id: string, body: Record<string, unknown>) => {
        this.requests.push({ method: 'PUT', collection: 'dashboards', id, body })
        return writeDashboard(id, body)
      },
      createRecord: async (collection: RecordCollection, body: Record<string, unknown>) => {
        this.requests.push({ method: 'POST', collection, body: structuredClone(body) })
        if (collection === 'roles' && this.records.roles.some(r => r.name === body.name))
          throw refused('POST', '/roles', 'A role with this name already exists')
        const id = `${collection}-${++this.next}`
        const stored =
          collection === 'roles' ? storedRole(structuredClone(body), id) : { ...structuredClone(body), id }
        this.records[collection].push(stored)
        if (this.loseCreateResponses-- > 0)
          throw new UnknownOutcomeError({ method: 'POST', path: `/api/v2/${collection}` }, 'reset')
        return formatted(collection, stored)
      },
      updateRecord: async (collection: RecordCollection, id: string, body: Record<string, unknown>) => {
        this.requests.push({ method: 'PUT', collection, id, body: structuredClone(body) })
        const all = this.records[collection]
        const at = all.findIndex(r => r.id === id)
        all[at] = updated(collection, all[at]!, structuredClone(body))
        return formatted(collection, all[at]!)
      },
      deleteRecord: async (collection: RecordCollection, id: string) => {
        this.requests.push({ method: 'DELETE', collection, id })
        const refusal = collection === 'roles' ? this.refuseDelete.get(id) : undefined
        if (refusal) throw refused('DELETE', `/roles/${id}`, refusal)
        const all = this.records[collection]
        const at = all.findIndex(r => r.id === id)
        if (at < 0) return 'absent'
        all.splice(at, 1)
        return 'deleted'
      }
    } as unknown as ObservabilityApi
  }
}

export interface Planned {
  outcome: PlanOutcome
  changes: Change[]
  /** Plan errors and warnings, as `severity field: message`. */
  diagnostics: string[]
}

/** Plans manifest text (secrets by name) against what the store lists. */
export function plan(
  store: RecordStore,
  yaml: string,
  secrets: Record<string, string> = {},
  s = settings()
): Planned {
  const manifests = validateText('records.yaml', yaml, s.mode, {}, secrets)
  const invalid = manifests.diagnostics.filter(d => d.severity === 'error')
  if (invalid.length > 0) throw new Error(`invalid manifests: ${invalid.map(d => d.message).join('; ')}`)
  const outcome = computePlan({
    command: 'apply',
    settings: s,
    manifests,
    live: store.live(),
    now: new Date(0),
    kinds: KINDS
  })
  return {
    outcome,
    changes: outcome.plan.changes,
    diagnostics: outcome.plan.diagnostics.map(d => `${d.severity} ${d.field ?? ''}: ${d.message}`)
  }
}

/** Applies a plan to the store, one operation at a time. */
export async function apply(store: RecordStore, p: Planned, s = settings()): Promise<ApplyResult> {
  return applyPlan({
    api: store.api(),
    planned: p.outcome.planned,
    dashboards: p.outcome.dashboards,
    settings: s,
    registry: p.outcome.registry,
    concurrency: 1,
    log: silentLogger
  })
}

/** One change of a plan, by address. */
export const change = (p: Planned, address: string): Change => {
  const c = p.changes.find(x => x.address === address)
  if (!c) throw new Error(`no change ${address} in ${p.changes.map(x => x.address).join(', ')}`)
  return c
}

/** The actions of the changes that do something, as `address action`. */
export const actions = (p: Planned): string[] =>
  p.changes.filter(c => c.action !== 'noop').map(c => `${c.address} ${c.action}`)
