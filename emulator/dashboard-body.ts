import { ApiError, bodyValidationError, type Issue } from './errors.js'
import { newObjectId } from './ids.js'
import {
  dashboardHandlerProblem,
  parseDashboardBody,
  type DashboardBody,
  type RuleMode
} from './rules/index.js'
import { normalizeTile, type TileDraft } from './tiles.js'
import type { JsonObject, StoredDashboard, StoredSource } from './types.js'

/** A dashboard body after validation, in normal form; tiles do not have their final ids yet. */
export interface DashboardDraft {
  name: string
  tiles: TileDraft[]
  tags: string[]
  extras: Partial<Omit<StoredDashboard, 'id' | 'name' | 'tiles' | 'tags'>>
}

export type DashboardCheck =
  { ok: true; draft: DashboardDraft; parsed: DashboardBody } | { ok: false; issues: Issue[]; error: ApiError }

export interface DashboardBodyContext {
  mode: RuleMode
  sources: readonly StoredSource[]
  dashboards: ReadonlyMap<string, StoredDashboard>
}

/**
 * Validates a create (POST) or update (PUT) body the way the real server does (emulator/rules/dashboard.ts): the body
 * rules (400 `Body validation failed: …`), then the handler's checks of what the body refers to (400 `{message}`, for
 * example `Could not find the following source IDs: …`). The parsed body, with unknown keys stripped and defaults
 * filled in, is what gets stored. A PUT replaces name and tiles; tags, filters, savedQuery and the rest are kept when
 * the body omits them.
 */
export function checkDashboardBody(
  body: unknown,
  kind: 'create' | 'update',
  context: DashboardBodyContext,
  existing?: StoredDashboard
): DashboardCheck {
  const parsed = parseDashboardBody(body, kind, context.mode)
  if (!parsed.ok) return { ok: false, issues: parsed.issues, error: bodyValidationError(parsed.issues) }
  const data = parsed.data
  const problem = dashboardHandlerProblem(data, {
    sources: context.sources,
    dashboardIds: new Set(context.dashboards.keys()),
    existing
  })
  if (problem !== undefined)
    return { ok: false, issues: [{ path: '', message: problem }], error: new ApiError(400, problem) }

  const draft: DashboardDraft = {
    name: data.name,
    tiles: data.tiles.map(tile => normalizeTile(tile as JsonObject)),
    // The server removes duplicate tags, keeping the first of each.
    tags: data.tags !== undefined ? [...new Set(data.tags)] : [...(existing?.tags ?? [])],
    extras: extrasOf(data, existing)
  }
  return { ok: true, draft, parsed: data }
}

function extrasOf(body: DashboardBody, existing?: StoredDashboard): DashboardDraft['extras'] {
  const extras: DashboardDraft['extras'] = {}
  const previous = existing ?? ({} as Partial<StoredDashboard>)
  if (Array.isArray(body.filters)) {
    // Filters are server-assigned an id like tiles; a filter that sends one keeps it.
    extras.filters = (structuredClone(body.filters) as JsonObject[]).map(filter => ({
      ...filter,
      id: typeof filter.id === 'string' ? filter.id : newObjectId()
    }))
  } else if (previous.filters !== undefined) extras.filters = structuredClone(previous.filters)
  for (const key of ['savedQuery', 'savedQueryLanguage', 'savedFilterValues', 'containers'] as const) {
    const value = body[key] !== undefined ? body[key] : previous[key]
    if (value !== undefined) (extras as JsonObject)[key] = structuredClone(value)
  }
  return extras
}
