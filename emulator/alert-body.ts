import { ApiError, bodyValidationError } from './errors.js'
import { newObjectId } from './ids.js'
import { alertHandlerProblem, parseAlertBody, type RuleMode } from './rules/index.js'
import type { AlertChannel, JsonObject, StoredAlert, StoredDashboard, StoredWebhook } from './types.js'

export interface AlertContext {
  mode: RuleMode
  /** Managed: the `next` cloud takes `channels` (next-server.ts). */
  managedChannels?: boolean
  dashboards: Map<string, StoredDashboard>
  webhooks: StoredWebhook[]
  savedSearchIds: ReadonlySet<string>
  teamId: string
}

/**
 * Validates a create or update (PUT replaces the configuration) alert body as the real server does
 * (emulator/rules/alert.ts: the body rules, then what it refers to) and returns the record to store. `existing` is
 * looked up after validation, as the server does: a bad body to an unknown id is a 400, not a 404.
 */
export function buildAlert(body: unknown, context: AlertContext, existing?: () => StoredAlert): StoredAlert {
  const parsed = parseAlertBody(body, context.mode, context.managedChannels)
  if (!parsed.ok) throw bodyValidationError(parsed.issues)
  const problem = alertHandlerProblem(parsed.data, {
    dashboards: context.dashboards,
    webhookIds: new Set(context.webhooks.map(webhook => webhook.id)),
    savedSearchIds: context.savedSearchIds
  })
  if (problem !== undefined) throw new ApiError(400, problem)
  return toRecord(parsed.data, context, existing?.())
}

/**
 * `makeAlert` (controllers/alerts.ts): a PUT sets what it sends and clears name, message, note, numConsecutiveWindows
 * and groupBy when omitted (the managed cloud keeps groupBy), but keeps `thresholdMax` and the schedule.
 */
function toRecord(body: JsonObject, context: AlertContext, existing?: StoredAlert): StoredAlert {
  const source = (body.source as StoredAlert['source'] | undefined) ?? 'tile'
  const channels = channelsOf(body)
  const record = alertRecord(body, existing, {
    source,
    channel: channels[0],
    channels,
    dashboardId: source === 'tile' ? (body.dashboardId as string) : null,
    tileId: source === 'tile' ? (body.tileId as string) : null,
    teamId: context.teamId
  })
  if (source === 'saved_search') {
    record.savedSearchId = body.savedSearchId as string
    // Self-hosted clears an omitted groupBy (makeAlert); the cloud keeps it (TF client/alert.go).
    const kept = context.mode === 'managed' ? existing?.groupBy : undefined
    record.groupBy = (body.groupBy as string | null | undefined) ?? kept ?? null
  }
  setSchedule(record, body, existing)
  return record
}

/** What the writer of an alert decides: what it is on and whom it notifies. */
export type AlertPlace = Pick<
  StoredAlert,
  'source' | 'channel' | 'channels' | 'dashboardId' | 'tileId' | 'teamId'
>

/**
 * makeAlert's record from a body the rules accepted (a v2 alert, or the alert a web UI tile carries): what it sends
 * replaces, an omitted name, message, note or numConsecutiveWindows clears, `thresholdMax` stays unless sent. The
 * schedule is setSchedule's.
 */
export function alertRecord(
  sent: JsonObject,
  existing: StoredAlert | undefined,
  place: AlertPlace
): StoredAlert {
  const now = new Date().toISOString()
  const record: StoredAlert = {
    id: existing?.id ?? newObjectId(),
    name: (sent.name as string | null | undefined) ?? null,
    message: (sent.message as string | null | undefined) ?? null,
    threshold: sent.threshold as number,
    interval: sent.interval as string,
    thresholdType: sent.thresholdType as string,
    source: place.source,
    state: existing?.state ?? 'OK',
    channel: place.channel,
    channels: place.channels,
    dashboardId: place.dashboardId,
    tileId: place.tileId,
    note: (sent.note as string | null | undefined) ?? null,
    numConsecutiveWindows: (sent.numConsecutiveWindows as number | null | undefined) ?? null,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
    teamId: place.teamId
  }
  const thresholdMax = (sent.thresholdMax as number | undefined) ?? existing?.thresholdMax
  if (thresholdMax !== undefined) record.thresholdMax = thresholdMax
  return record
}

/**
 * makeAlert's schedule: kept unless sent. `scheduleStartAt` is stored as a date (so it reads back as `toISOString()`);
 * a start date, or clearing it without an offset, forces the offset to 0.
 */
export function setSchedule(record: StoredAlert, sent: JsonObject, existing: StoredAlert | undefined): void {
  const startAt = sent.scheduleStartAt as string | null | undefined
  const offset = sent.scheduleOffsetMinutes as number | undefined
  if (startAt !== undefined)
    record.scheduleStartAt = startAt === null ? null : new Date(startAt).toISOString()
  else if (existing?.scheduleStartAt !== undefined) record.scheduleStartAt = existing.scheduleStartAt
  const storedOffset = startAt != null ? 0 : startAt === null && offset == null ? 0 : offset
  if (storedOffset != null) record.scheduleOffsetMinutes = storedOffset
  else if (existing?.scheduleOffsetMinutes != null)
    record.scheduleOffsetMinutes = existing.scheduleOffsetMinutes
}

/**
 * An alert as the API returns it (`translateAlertDocumentToExternalAlert`, packages/api/src/utils/externalApi.ts):
 * `thresholdMax`, the schedule, the other source's references and `groupBy` are absent when unset; `note` and
 * `numConsecutiveWindows` are null.
 */
export function externalAlert(alert: StoredAlert): JsonObject {
  const out: JsonObject = {
    id: alert.id,
    name: alert.name,
    message: alert.message,
    note: alert.note ?? null,
    threshold: alert.threshold,
    thresholdMax: alert.thresholdMax ?? undefined,
    interval: alert.interval,
    scheduleOffsetMinutes: alert.scheduleOffsetMinutes ?? undefined,
    scheduleStartAt: alert.scheduleStartAt,
    numConsecutiveWindows: alert.numConsecutiveWindows ?? null,
    thresholdType: alert.thresholdType,
    source: alert.source,
    state: alert.state,
    channel: alert.channel,
    channels: alert.channels,
    teamId: alert.teamId,
    tileId: alert.tileId ?? undefined,
    dashboardId: alert.dashboardId ?? undefined,
    savedSearchId: alert.savedSearchId ?? undefined,
    groupBy: alert.groupBy ?? undefined,
    createdAt: alert.createdAt,
    updatedAt: alert.updatedAt
  }
  for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key]
  return out
}

/** The channels as parsed (the managed API's email channels and webhook extras included). */
function channelsOf(body: JsonObject): AlertChannel[] {
  const list = Array.isArray(body.channels) ? (body.channels as JsonObject[]) : [body.channel as JsonObject]
  return list.map(item => ({ ...item }) as AlertChannel)
}
