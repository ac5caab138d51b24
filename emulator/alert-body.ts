import { ApiError, bodyValidationError, isPlainObject, type Issue } from './errors.js'
import { newObjectId } from './ids.js'
import { validateSelfHosted } from './openapi.js'
import { isAlertable } from './tiles.js'
import type { AlertChannel, JsonObject, StoredAlert, StoredDashboard, StoredWebhook } from './types.js'

export interface AlertContext {
  dashboards: Map<string, StoredDashboard>
  webhooks: StoredWebhook[]
  teamId: string
}

const RANGE_TYPES = new Set(['between', 'not_between'])

/**
 * Validates a create or update (PUT replaces the configuration) alert body and returns the record to store.
 * Rules from FACTS.md "Alerts": threshold/interval/thresholdType required; range types need thresholdMax >= threshold;
 * a `tile` alert needs an existing dashboard and a line/stacked_bar/number tile; the channel names an existing webhook;
 * optional name (1-512), message (1-4096), numConsecutiveWindows (>= 1).
 */
export function buildAlert(body: unknown, context: AlertContext, existing?: StoredAlert): StoredAlert {
  if (!isPlainObject(body)) {
    throw bodyValidationError([
      { path: '', message: `Expected object, received ${body === null ? 'null' : typeof body}` }
    ])
  }
  const issues = validateSelfHosted(existing ? 'UpdateAlertRequest' : 'CreateAlertRequest', body)
  if (issues.length === 0) checkRules(body, issues)
  if (issues.length > 0) throw bodyValidationError(issues)

  const source = (body.source as StoredAlert['source'] | undefined) ?? 'tile'
  const channels = channelsOf(body)
  checkReferences(body, source, channels, context)

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

function checkRules(body: JsonObject, issues: Issue[]): void {
  const thresholdType = body.thresholdType as string
  if (RANGE_TYPES.has(thresholdType)) {
    if (typeof body.thresholdMax !== 'number') {
      issues.push({
        path: 'thresholdMax',
        message: `thresholdMax is required when thresholdType is ${thresholdType}`
      })
    } else if (body.thresholdMax < (body.threshold as number)) {
      issues.push({
        path: 'thresholdMax',
        message: 'thresholdMax must be greater than or equal to threshold'
      })
    }
  }
  lengthRule(body, 'name', 512, issues)
  lengthRule(body, 'message', 4096, issues)
  const source = body.source ?? 'tile'
  if (source === 'tile') {
    if (typeof body.dashboardId !== 'string') issues.push({ path: 'dashboardId', message: 'Required' })
    if (typeof body.tileId !== 'string') issues.push({ path: 'tileId', message: 'Required' })
  } else if (typeof body.savedSearchId !== 'string') {
    issues.push({ path: 'savedSearchId', message: 'Required' })
  }
  const channel = body.channel
  const channels = body.channels
  if (channel === undefined && channels === undefined) {
    issues.push({ path: 'channel', message: 'At least one of "channel" or "channels" must be provided' })
  }
  if (Array.isArray(channels)) {
    const keys = channels.map(item => JSON.stringify(item))
    if (new Set(keys).size !== keys.length) issues.push({ path: 'channels', message: 'Duplicate channels' })
    if (
      isPlainObject(channel) &&
      keys[0] !== JSON.stringify({ type: channel.type, webhookId: channel.webhookId })
    ) {
      issues.push({ path: 'channel', message: '"channel" must match the first entry of "channels"' })
    }
  }
}

function lengthRule(body: JsonObject, key: string, max: number, issues: Issue[]): void {
  const value = body[key]
  if (typeof value !== 'string') return
  if (value.length < 1) issues.push({ path: key, message: 'String must contain at least 1 character(s)' })
  if (value.length > max)
    issues.push({ path: key, message: `String must contain at most ${max} character(s)` })
}

function channelsOf(body: JsonObject): AlertChannel[] {
  const list = Array.isArray(body.channels) ? (body.channels as JsonObject[]) : [body.channel as JsonObject]
  return list.map(item => ({ type: 'webhook', webhookId: item.webhookId as string }))
}

/** Semantic 400s with `{message}` (FACTS.md "Errors": e.g. `Tile not found`). */
function checkReferences(
  body: JsonObject,
  source: StoredAlert['source'],
  channels: AlertChannel[],
  context: AlertContext
): void {
  if (source === 'tile') {
    const dashboard = context.dashboards.get(body.dashboardId as string)
    if (dashboard === undefined) throw new ApiError(400, 'Dashboard not found')
    const tile = dashboard.tiles.find(candidate => candidate.id === body.tileId)
    if (tile === undefined) throw new ApiError(400, 'Tile not found')
    if (!isAlertable(tile)) {
      throw new ApiError(400, 'Alerts are only supported on line, stacked_bar and number tiles')
    }
  } else {
    // The emulator stores no saved searches, so every saved_search alert names an unknown one.
    throw new ApiError(400, 'Saved search not found')
  }
  for (const channel of channels) {
    if (!context.webhooks.some(webhook => webhook.id === channel.webhookId)) {
      throw new ApiError(400, 'Webhook not found')
    }
  }
}
