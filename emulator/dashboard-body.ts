import { ApiError, bodyValidationError, type Issue } from './errors.js'
import { newObjectId } from './ids.js'
import {
  dashboardHandlerProblem,
  parseDashboardBody,
  type DashboardBody,
  type RuleMode
} from './rules/index.js'
import { diffUi } from './internal-form/overlay.js'
import { baseInternalConfig } from './internal-form/stored-tile.js'
import { requestTileRecord } from './internal-form/to-internal.js'
import { normalizeTile, type TileDraft } from './tiles.js'
import type { JsonObject, ServerProfile, StoredDashboard, StoredSource } from './types.js'

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
  /** The team's connections (self-hosted); undefined where there are none to look at (managed). */
  connectionIds?: ReadonlySet<string>
  /** The `next` server takes a table tile's `alternateRowBackground` (next-server.ts). */
  server?: ServerProfile
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
    connectionIds: context.connectionIds,
    existing
  })
  if (problem !== undefined)
    return { ok: false, issues: [{ path: '', message: problem }], error: new ApiError(400, problem) }

  const draft: DashboardDraft = {
    name: data.name,
    tiles: data.tiles.map((tile, index) => {
      const normalized = withNextSettings(normalizeTile(tile as JsonObject), body, index, context)
      // Self-hosted: what the record holds beyond the v2 form (internal-form/). A POST saves a new document, a PUT
      // `$set`s the tile list: every tile is written afresh, so whatever the UI had set on it is gone.
      if (context.mode === 'self-hosted') {
        const record = requestTileRecord(tile as JsonObject, kind === 'create' ? 'insert' : 'update')
        const ui = diffUi(baseInternalConfig(normalized), record)
        if (ui !== undefined) normalized.ui = ui
      }
      return normalized
    }),
    // The server removes duplicate tags, keeping the first of each.
    tags: data.tags !== undefined ? [...new Set(data.tags)] : [...(existing?.tags ?? [])],
    extras: extrasOf(data, existing)
  }
  return { ok: true, draft, parsed: data }
}

/**
 * The dashboard-level fields as the POST and PUT handlers store them (`v2/dashboards.ts`): a PUT keeps what it omits.
 * - Filters get new ids, except on a PUT one whose id is an existing filter's (`convertExternalFiltersToInternal`).
 * - `savedQueryLanguage` follows `resolveSavedQueryLanguage`: a sent value (null too) wins, a `savedQuery: null`
 *   clears it, a non-empty `savedQuery` without one is Lucene.
 */
function extrasOf(body: DashboardBody, existing?: StoredDashboard): DashboardDraft['extras'] {
  const extras: DashboardDraft['extras'] = {}
  const previous = existing ?? ({} as Partial<StoredDashboard>)
  if (Array.isArray(body.filters)) {
    const known = new Set((previous.filters ?? []).map(filter => filter.id))
    extras.filters = (structuredClone(body.filters) as JsonObject[]).map(filter => ({
      ...filter,
      id: typeof filter.id === 'string' && known.has(filter.id) ? filter.id : newObjectId()
    }))
  } else if (previous.filters !== undefined) extras.filters = structuredClone(previous.filters)
  for (const key of ['savedQuery', 'savedFilterValues', 'containers'] as const) {
    const value = body[key] !== undefined ? body[key] : previous[key]
    if (value !== undefined) (extras as JsonObject)[key] = structuredClone(value)
  }
  const language = savedQueryLanguage(body)
  const kept = language !== undefined ? language : previous.savedQueryLanguage
  if (kept !== undefined) extras.savedQueryLanguage = kept
  return extras
}

function savedQueryLanguage(body: DashboardBody): string | null | undefined {
  const language = body.savedQueryLanguage as string | null | undefined
  if (language !== undefined) return language
  if (body.savedQuery === null) return null
  if (typeof body.savedQuery === 'string' && body.savedQuery !== '') return 'lucene'
  return undefined
}

/**
 * The `next` server's v2 write keeps a builder table tile's `alternateRowBackground` (the 2.36 schema strips it: zod
 * strip mode); read from the raw body, where the tile's parse dropped it.
 */
function withNextSettings<T extends JsonObject>(
  normalized: T,
  body: unknown,
  index: number,
  context: DashboardBodyContext
): T {
  if (context.server !== 'next') return normalized
  const raw = (body as { tiles?: Array<{ config?: JsonObject }> }).tiles?.[index]?.config
  const config = (normalized as { config?: JsonObject }).config
  if (!raw || !config || config.displayType !== 'table' || config.configType === 'sql') return normalized
  if (typeof raw.alternateRowBackground !== 'boolean') return normalized
  return { ...normalized, config: { ...config, alternateRowBackground: raw.alternateRowBackground } }
}
