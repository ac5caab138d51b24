/**
 * The `next` server profile (EmulatorOptions.server): what a HyperDX newer than 2.36 does to alerts, as its pull
 * requests describe it (real-server.md "Newer servers"; not checked on a running server: the source after 2.36 is
 * not available here).
 * - `displayName` and `tags` (3063, 3065, 3067): a write stores what it sends; a write that omits one stores the
 *   value derived from the tile's dashboard ("<dashboard> - <tile>", the dashboard's tags) or the saved search (its
 *   name and tags). A read returns the stored value, else the derived one, else "Alert" and [].
 * - `runbookUrl`, standing in for any field a newer server adds and obsdeploy does not model: stored when sent,
 *   cleared by a write that omits it, returned when set.
 * - A builder table tile's `alternateRowBackground` (the UI's setting, which 2.36's v2 converter leaves out; open
 *   upstream work exposes it): taken by a v2 write and returned by a read (dashboard-body.ts, dashboard-output.ts),
 *   standing in for a tile setting obsdeploy does not model.
 * - A dashboard's `refreshInterval`, standing in for a dashboard-level field a newer server adds: stored when a v2
 *   write sends it, cleared by one that omits it (a field such a server's PUT always sets), returned when set.
 * - Managed: the cloud takes and returns `channels` (clickhousectl issue 695, pull request 719; the published
 *   OpenAPI does not declare it), as the self-hosted API does.
 * On 2.36 the request schema strips all three (zod strip mode), so the default profile never stores them.
 */
import { bodyValidationError, isPlainObject } from './errors.js'
import type { JsonObject, StoredAlert, StoredDashboard, StoredSavedSearch } from './types.js'

const MAX_NAME = 512
const MAX_TAGS = 50
const MAX_TAG_LENGTH = 32

export interface NextAlertContext {
  dashboards: ReadonlyMap<string, StoredDashboard>
  savedSearches: ReadonlyMap<string, StoredSavedSearch>
}

type NextFields = Pick<StoredAlert, 'displayName' | 'tags' | 'runbookUrl'>

/** The next server's checks of the three fields (common-utils alertDisplayNameSchema, alertTagsSchema). */
export function parseNextAlertFields(body: unknown): NextFields {
  const sent = isPlainObject(body) ? body : {}
  const issues: Array<{ path: string; message: string }> = []
  const out: NextFields = {}
  const name = sent.displayName
  if (name !== undefined && name !== null) {
    if (typeof name !== 'string') issues.push({ path: 'displayName', message: 'Expected string' })
    else if (name.trim().length < 1)
      issues.push({ path: 'displayName', message: 'String must contain at least 1 character(s)' })
    else if (name.trim().length > MAX_NAME)
      issues.push({ path: 'displayName', message: `String must contain at most ${MAX_NAME} character(s)` })
    else out.displayName = name.trim()
  }
  const tags = sent.tags
  if (tags !== undefined && tags !== null) {
    if (!Array.isArray(tags) || tags.some(t => typeof t !== 'string'))
      issues.push({ path: 'tags', message: 'Expected array of strings' })
    else if (tags.length > MAX_TAGS)
      issues.push({ path: 'tags', message: `Array must contain at most ${MAX_TAGS} element(s)` })
    else if ((tags as string[]).some(t => t.length > MAX_TAG_LENGTH))
      issues.push({ path: 'tags', message: `String must contain at most ${MAX_TAG_LENGTH} character(s)` })
    else out.tags = tags as string[]
  }
  const runbook = sent.runbookUrl
  if (runbook !== undefined && runbook !== null) {
    if (typeof runbook !== 'string') issues.push({ path: 'runbookUrl', message: 'Expected string' })
    else out.runbookUrl = runbook
  }
  if (issues.length > 0) throw bodyValidationError(issues)
  return out
}

/** makeAlert on the next server: what is sent, else what is derived now, else null. */
export function nextAlertRecord(
  record: StoredAlert,
  sent: NextFields,
  context: NextAlertContext
): StoredAlert {
  const derived = derivedDisplay(record, context)
  return {
    ...record,
    displayName: sent.displayName ?? derived?.displayName ?? null,
    tags: sent.tags ?? derived?.tags ?? null,
    runbookUrl: sent.runbookUrl ?? null
  }
}

/** The read: stored, else derived, else the defaults. */
export function nextExternalFields(record: StoredAlert, context: NextAlertContext): JsonObject {
  const derived = derivedDisplay(record, context)
  return {
    displayName: record.displayName ?? derived?.displayName ?? 'Alert',
    tags: record.tags ?? derived?.tags ?? [],
    ...(record.runbookUrl != null ? { runbookUrl: record.runbookUrl } : {})
  }
}

function derivedDisplay(
  record: StoredAlert,
  context: NextAlertContext
): { displayName: string | null; tags: string[] } | undefined {
  if (record.source === 'saved_search') {
    const search = record.savedSearchId ? context.savedSearches.get(record.savedSearchId) : undefined
    return search && { displayName: clampName(search.name.trim()), tags: clampTags(search.tags) }
  }
  const dashboard = record.dashboardId ? context.dashboards.get(record.dashboardId) : undefined
  if (!dashboard) return undefined
  const tile = dashboard.tiles.find(t => t.id === record.tileId)
  const name = dashboard.name.trim()
  return {
    displayName: name === '' ? null : clampName(`${name} - ${tile?.name?.trim() || 'Tile'}`),
    tags: clampTags(dashboard.tags)
  }
}

const clampName = (name: string): string => name.slice(0, MAX_NAME)
const clampTags = (tags: readonly string[]): string[] =>
  tags
    .filter(t => t !== '')
    .slice(0, MAX_TAGS)
    .map(t => t.slice(0, MAX_TAG_LENGTH))

/** The next server's dashboard-level stand-in field, as a write leaves it: what it sent, or nothing. */
export function nextDashboardRecord(dashboard: StoredDashboard, body: unknown): StoredDashboard {
  const sent = isPlainObject(body) ? body.refreshInterval : undefined
  const { refreshInterval: _dropped, ...rest } = dashboard
  if (sent !== undefined && sent !== null && typeof sent !== 'string')
    throw bodyValidationError([{ path: 'refreshInterval', message: 'Expected string' }])
  return typeof sent === 'string' ? { ...rest, refreshInterval: sent } : rest
}
