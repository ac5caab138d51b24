import { ApiError, bodyValidationError, isPlainObject, type Issue } from './errors.js'
import { newObjectId } from './ids.js'
import { validateSelfHosted } from './openapi.js'
import { checkTileForms, normalizeTile, type TileDraft } from './tiles.js'
import type { JsonObject, StoredDashboard, StoredTile } from './types.js'

/** A dashboard body after validation, in normal form; tiles do not have their final ids yet. */
export interface DashboardDraft {
  name: string
  tiles: TileDraft[]
  tags: string[]
  extras: Partial<Omit<StoredDashboard, 'id' | 'name' | 'tiles' | 'tags'>>
}

export type DashboardCheck =
  { ok: true; draft: DashboardDraft } | { ok: false; issues: Issue[]; error: ApiError }

/**
 * Validates a create (POST) or update (PUT) body the way the self-hosted server does: the OpenAPI document (with
 * CONTRACT.md's relaxations), the tile form rules, then the semantic check that every referenced source exists
 * (FACTS.md: 400 `Could not find the following source IDs: ...`). On update, omitted fields keep their stored value
 * (CONTRACT.md: no PUT field is required).
 */
export function checkDashboardBody(
  body: unknown,
  kind: 'create' | 'update',
  sourceIds: ReadonlySet<string>,
  existing?: StoredDashboard
): DashboardCheck {
  if (!isPlainObject(body)) {
    const issues = [
      { path: '', message: `Expected object, received ${body === null ? 'null' : typeof body}` }
    ]
    return { ok: false, issues, error: bodyValidationError(issues) }
  }
  const issues = validateSelfHosted(
    kind === 'create' ? 'CreateDashboardRequest' : 'UpdateDashboardRequest',
    body
  )
  if (issues.length === 0 && Array.isArray(body.tiles)) checkTileForms(body.tiles, issues)
  if (issues.length > 0) return { ok: false, issues, error: bodyValidationError(issues) }

  const tiles = Array.isArray(body.tiles)
    ? (body.tiles as JsonObject[]).map(normalizeTile)
    : (existing?.tiles ?? []).map(tileToDraft)
  const draft: DashboardDraft = {
    name: (body.name as string | undefined) ?? existing?.name ?? '',
    tiles,
    tags: Array.isArray(body.tags) ? [...(body.tags as string[])] : [...(existing?.tags ?? [])],
    extras: extrasOf(body, existing)
  }
  const missing = missingSources(draft, sourceIds)
  if (missing.length > 0) {
    const message = `Could not find the following source IDs: ${missing.join(', ')}`
    return { ok: false, issues: [{ path: 'tiles', message }], error: new ApiError(400, message) }
  }
  return { ok: true, draft }
}

function tileToDraft(tile: StoredTile): TileDraft {
  const { id, ...rest } = structuredClone(tile)
  return { ...rest, requestedId: id }
}

function extrasOf(body: JsonObject, existing?: StoredDashboard): DashboardDraft['extras'] {
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

function missingSources(draft: DashboardDraft, sourceIds: ReadonlySet<string>): string[] {
  const referenced: string[] = []
  for (const tile of draft.tiles) {
    if (typeof tile.config.sourceId === 'string') referenced.push(tile.config.sourceId)
  }
  for (const filter of draft.extras.filters ?? []) {
    if (typeof filter.sourceId === 'string') referenced.push(filter.sourceId)
  }
  return [...new Set(referenced.filter(id => !sourceIds.has(id)))]
}
