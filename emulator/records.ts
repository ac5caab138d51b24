/**
 * Connections, data sources, saved searches and webhooks of one store, written as HyperDX 2.36 writes them
 * (v2/connections.ts, sources.ts, savedSearches.ts, webhooks.ts and their controllers) and returned as its
 * formatters return them: a webhook without its headers and query parameters (and an incident.io one without its
 * body), a connection without its password, a source with the model's defaults and short granularities.
 * Cascades: deleting a saved search deletes its alerts; a webhook that is some alert's first channel cannot be
 * deleted (409); deleting a source or a connection leaves whatever refers to it dangling.
 */
import { ApiError, bodyValidationError } from './errors.js'
import { newObjectId } from './ids.js'
import {
  externalGranularities,
  parseConnectionBody,
  parseSavedSearchBody,
  parseSourceBody,
  parseWebhookBody,
  savedSearchHandlerProblem,
  sourceHandlerProblem,
  webhookUrlProblem,
  type RuleMode
} from './rules/index.js'
import type {
  JsonObject,
  StoredAlert,
  StoredConnection,
  StoredSavedSearch,
  StoredSource,
  StoredWebhook
} from './types.js'

export interface RecordState {
  mode: RuleMode
  teamId: string
  sources: StoredSource[]
  webhooks: StoredWebhook[]
  connections: StoredConnection[]
  savedSearches: Map<string, StoredSavedSearch>
  alerts: Map<string, StoredAlert>
  changed: () => void
}

const now = () => new Date().toISOString()

// ---------------------------------------------------------------------------------------------------------
// Webhooks

/** formatExternalWebhook: the response schema has no headers or query parameters, and `body` only for generic. */
export function externalWebhook(w: StoredWebhook): JsonObject {
  const { headers: _h, queryParams: _q, body, ...rest } = w
  return { ...rest, ...(w.service === 'generic' && body !== undefined ? { body } : {}) }
}

const DUPLICATE_WEBHOOK = 'A webhook with this service and name already exists'

function checkWebhook(body: unknown) {
  const parsed = parseWebhookBody(body)
  if (!parsed.ok) throw bodyValidationError(parsed.issues)
  return parsed.data
}

export function createWebhook(s: RecordState, body: unknown): StoredWebhook {
  const w = checkWebhook(body)
  const problem = webhookUrlProblem(w.service, w.url)
  if (problem) throw new ApiError(400, problem)
  if (s.webhooks.some(o => o.service === w.service && o.name === w.name))
    throw new ApiError(400, DUPLICATE_WEBHOOK)
  const at = now()
  const record: StoredWebhook = { id: newObjectId(), ...w, createdAt: at, updatedAt: at }
  for (const key of Object.keys(record) as (keyof StoredWebhook)[])
    if (record[key] === undefined) delete record[key]
  s.webhooks.push(record)
  s.changed()
  return record
}

/** controllers/webhook.ts updateWebhook: 404 before the URL check; headers/queryParams kept unless the destination moves. */
export function updateWebhook(s: RecordState, id: string, body: unknown): StoredWebhook {
  const w = checkWebhook(body)
  const existing = s.webhooks.find(o => o.id === id)
  if (!existing) throw new ApiError(404, 'Webhook not found')
  const problem = webhookUrlProblem(w.service, w.url)
  if (problem) throw new ApiError(400, problem)
  if (s.webhooks.some(o => o.id !== id && o.service === w.service && o.name === w.name))
    throw new ApiError(400, DUPLICATE_WEBHOOK)
  const moved = w.url !== existing.url || w.service !== existing.service
  const next: StoredWebhook = {
    id,
    name: w.name,
    service: w.service,
    url: w.url,
    createdAt: existing.createdAt,
    updatedAt: now()
  }
  if (w.description !== undefined) next.description = w.description
  if (w.body !== undefined) next.body = w.body
  for (const field of ['headers', 'queryParams'] as const) {
    const sent = w[field]
    if (sent === undefined) {
      if (!moved && existing[field] !== undefined) next[field] = existing[field]
    } else if (Object.keys(sent).length > 0) next[field] = sent
  }
  s.webhooks.splice(s.webhooks.indexOf(existing), 1, next)
  s.changed()
  return next
}

/** controllers/webhook.ts deleteWebhook: only alerts whose first channel (`channel`) uses it block the delete. */
export function deleteWebhook(s: RecordState, id: string): void {
  const users = [...s.alerts.values()].filter(
    a => (a.channel as { webhookId?: string } | undefined)?.webhookId === id
  )
  if (users.length > 0)
    throw new ApiError(
      409,
      `Cannot delete webhook: ${users.length} alert(s) still reference it. Reassign or remove those alerts first.`
    )
  const index = s.webhooks.findIndex(w => w.id === id)
  if (index < 0) throw new ApiError(404, 'Webhook not found')
  s.webhooks.splice(index, 1)
  s.changed()
}

// ---------------------------------------------------------------------------------------------------------
// Connections (self-hosted only)

/** formatExternalConnection: everything but the password. */
export function externalConnection(c: StoredConnection): JsonObject {
  const { password: _password, ...rest } = c
  return rest
}

const connectionNotFound = () => new ApiError(404, 'Not Found', 'text')

export function getConnection(s: RecordState, id: string): StoredConnection {
  const c = s.connections.find(o => o.id === id)
  if (!c) throw connectionNotFound()
  return c
}

export function createConnection(s: RecordState, body: unknown): StoredConnection {
  const parsed = parseConnectionBody(body, 'create')
  if (!parsed.ok) throw bodyValidationError(parsed.issues)
  const c = parsed.data
  const at = now()
  const record: StoredConnection = {
    id: newObjectId(),
    name: c.name,
    host: c.host,
    username: c.username,
    password: c.password ?? '',
    createdAt: at,
    updatedAt: at
  }
  if (c.hyperdxSettingPrefix) record.hyperdxSettingPrefix = c.hyperdxSettingPrefix
  if (c.isPrometheusEndpoint !== undefined) record.isPrometheusEndpoint = c.isPrometheusEndpoint
  s.connections.push(record)
  s.changed()
  return record
}

/** v2/connections.ts PUT: `$set` of what was sent; an empty or missing password keeps the stored one. */
export function updateConnection(s: RecordState, id: string, body: unknown): StoredConnection {
  const parsed = parseConnectionBody(body, 'update')
  if (!parsed.ok) throw bodyValidationError(parsed.issues)
  const existing = getConnection(s, id)
  const c = parsed.data
  const next: StoredConnection = {
    ...existing,
    name: c.name,
    host: c.host,
    username: c.username,
    password: c.password ? c.password : existing.password,
    updatedAt: now()
  }
  if (c.hyperdxSettingPrefix === null || c.hyperdxSettingPrefix === '') delete next.hyperdxSettingPrefix
  else if (c.hyperdxSettingPrefix) next.hyperdxSettingPrefix = c.hyperdxSettingPrefix
  if (c.isPrometheusEndpoint !== undefined) next.isPrometheusEndpoint = c.isPrometheusEndpoint
  s.connections.splice(s.connections.indexOf(existing), 1, next)
  s.changed()
  return next
}

/** Nothing is checked: sources that use it keep a dangling `connection`. */
export function deleteConnection(s: RecordState, id: string): void {
  s.connections.splice(s.connections.indexOf(getConnection(s, id)), 1)
  s.changed()
}

// ---------------------------------------------------------------------------------------------------------
// Sources

/** formatExternalSource: the model's defaults, parsed through SourceSchema, granularities in short form. */
export function externalSource(source: StoredSource): JsonObject {
  const out: JsonObject = { disabled: false, querySettings: [], ...source }
  if (source.kind === 'log' || source.kind === 'trace') {
    out.highlightedTraceAttributeExpressions ??= []
    out.highlightedRowAttributeExpressions ??= []
    out.materializedViews ??= []
  }
  if (source.kind === 'trace') out.durationPrecision ??= 3
  if (source.kind === 'session' && !source.timestampValueExpression)
    out.timestampValueExpression = 'TimestampTime'
  return externalGranularities(out)
}

function checkSource(s: RecordState, body: unknown): StoredSource {
  const parsed = parseSourceBody(body, s.mode)
  if (!parsed.ok) throw bodyValidationError(parsed.issues)
  // The managed cloud has no connections route: its sources' connections cannot be checked here.
  const problem = sourceHandlerProblem(
    parsed.data,
    s.mode === 'self-hosted' ? new Set(s.connections.map(c => c.id)) : undefined
  )
  if (problem) throw new ApiError(400, problem)
  return parsed.data as unknown as StoredSource
}

export function getSource(s: RecordState, id: string): StoredSource {
  const source = s.sources.find(o => o.id === id)
  if (!source) throw new ApiError(404, 'Source not found')
  return source
}

export function createSource(s: RecordState, body: unknown): StoredSource {
  const source = { ...checkSource(s, body), id: newObjectId() }
  s.sources.push(source)
  s.changed()
  return source
}

/** A full replace (controllers/sources.ts findOneAndReplace): omitted fields are gone; the connection is checked first. */
export function updateSource(s: RecordState, id: string, body: unknown): StoredSource {
  const source = { ...checkSource(s, body), id }
  s.sources.splice(s.sources.indexOf(getSource(s, id)), 1, source)
  s.changed()
  return source
}

/** Nothing is checked: tiles, filters, saved searches and alerts that use it keep a dangling id. */
export function deleteSource(s: RecordState, id: string): void {
  s.sources.splice(s.sources.indexOf(getSource(s, id)), 1)
  s.changed()
}

// ---------------------------------------------------------------------------------------------------------
// Saved searches

export function getSavedSearch(s: RecordState, id: string): StoredSavedSearch {
  const found = s.savedSearches.get(id)
  if (!found) throw new ApiError(404, 'Saved search not found')
  return found
}

function writeSavedSearch(s: RecordState, body: unknown, id?: string): StoredSavedSearch {
  const parsed = parseSavedSearchBody(body, s.mode)
  if (!parsed.ok) throw bodyValidationError(parsed.issues)
  const sourceIds = new Set(s.sources.map(o => o.id))
  // The source is checked before the 404 (requireValidSourceId runs first).
  if (!sourceIds.has(parsed.data.sourceId)) throw new ApiError(400, 'sourceId must be an existing source id')
  const stored = id === undefined ? undefined : getSavedSearch(s, id)
  const problem = savedSearchHandlerProblem(parsed.data, { sourceIds, stored })
  if (problem) throw new ApiError(400, problem)
  const at = now()
  const record: StoredSavedSearch = {
    id: id ?? newObjectId(),
    ...parsed.data,
    filters: parsed.data.filters as JsonObject[],
    teamId: s.teamId,
    createdAt: stored?.createdAt ?? at,
    updatedAt: at
  }
  s.savedSearches.set(record.id, record)
  s.changed()
  return record
}

export const createSavedSearch = (s: RecordState, body: unknown) => writeSavedSearch(s, body)
export const updateSavedSearch = (s: RecordState, id: string, body: unknown) => writeSavedSearch(s, body, id)

/** controllers/savedSearch.ts deleteSavedSearch: its alerts go with it. */
export function deleteSavedSearch(s: RecordState, id: string): void {
  getSavedSearch(s, id)
  for (const alert of [...s.alerts.values()]) if (alert.savedSearchId === id) s.alerts.delete(alert.id)
  s.savedSearches.delete(id)
  s.changed()
}
