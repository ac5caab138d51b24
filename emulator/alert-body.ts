import { ApiError, bodyValidationError } from './errors.js'
import { newObjectId } from './ids.js'
import { alertHandlerProblem, parseAlertBody, type RuleMode } from './rules/index.js'
import type { AlertChannel, JsonObject, StoredAlert, StoredDashboard, StoredWebhook } from './types.js'

export interface AlertContext {
  mode: RuleMode
  dashboards: Map<string, StoredDashboard>
  webhooks: StoredWebhook[]
  teamId: string
}

/**
 * Validates a create or update (PUT replaces the configuration) alert body as the real server does
 * (emulator/rules/alert.ts: the body rules, then what it refers to) and returns the record to store. `existing` is
 * looked up after validation, as the server does: a bad body to an unknown id is a 400, not a 404.
 */
export function buildAlert(body: unknown, context: AlertContext, existing?: () => StoredAlert): StoredAlert {
  const parsed = parseAlertBody(body, context.mode)
  if (!parsed.ok) throw bodyValidationError(parsed.issues)
  const problem = alertHandlerProblem(parsed.data, {
    dashboards: context.dashboards,
    webhookIds: new Set(context.webhooks.map(webhook => webhook.id)),
    // The emulator stores no saved searches.
    savedSearchIds: new Set()
  })
  if (problem !== undefined) throw new ApiError(400, problem)
  return toRecord(parsed.data, context, existing?.())
}

function toRecord(body: JsonObject, context: AlertContext, existing?: StoredAlert): StoredAlert {
  const source = (body.source as StoredAlert['source'] | undefined) ?? 'tile'
  const channels = channelsOf(body)

  const now = new Date().toISOString()
  const record: StoredAlert = {
    id: existing?.id ?? newObjectId(),
    name: (body.name as string | null | undefined) ?? null,
    message: (body.message as string | null | undefined) ?? null,
    threshold: body.threshold as number,
    thresholdMax: (body.thresholdMax as number | null | undefined) ?? null,
    interval: body.interval as string,
    thresholdType: body.thresholdType as string,
    source,
    state: existing?.state ?? 'OK',
    channel: channels[0],
    channels,
    dashboardId: source === 'tile' ? (body.dashboardId as string) : null,
    tileId: source === 'tile' ? (body.tileId as string) : null,
    numConsecutiveWindows: (body.numConsecutiveWindows as number | null | undefined) ?? null,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
    teamId: context.teamId
  }
  if (source === 'saved_search') {
    record.savedSearchId = body.savedSearchId as string
    record.groupBy = (body.groupBy as string | null | undefined) ?? null
  }
  for (const key of ['note', 'scheduleOffsetMinutes', 'scheduleStartAt'] as const) {
    if (body[key] !== undefined && body[key] !== null) (record as unknown as JsonObject)[key] = body[key]
  }
  return record
}

function channelsOf(body: JsonObject): AlertChannel[] {
  const list = Array.isArray(body.channels) ? (body.channels as JsonObject[]) : [body.channel as JsonObject]
  return list.map(item => ({ type: 'webhook', webhookId: item.webhookId as string }))
}
