/**
 * The rules of one alert that its schema cannot express: what it watches (a tile or a saved search), its threshold's
 * bounds, its channels, and its schedule.
 */
import type { Diagnostic } from '../diagnostics.js'
import type { PathSegment } from './path.js'
import { reporter, type Report } from './rule-report.js'
import type { AlertSpec } from './schema.js'
import { ALERT_INTERVAL_MINUTES, RANGE_THRESHOLD_TYPES } from './vocabulary.js'
import type { ParsedDocument } from './yaml.js'

/** Runs on the raw document too (fields of the wrong type are skipped), so it adds to schema errors. */
export function checkAlert(
  doc: ParsedDocument,
  raw: Partial<Record<keyof AlertSpec, unknown>>,
  mode: 'self-hosted' | 'managed' = 'self-hosted'
): Diagnostic[] {
  const out: Diagnostic[] = []
  const report = reporter(doc, out)
  const a = {
    threshold: typeof raw.threshold === 'number' ? raw.threshold : undefined,
    thresholdMax: typeof raw.thresholdMax === 'number' ? raw.thresholdMax : undefined,
    thresholdType: typeof raw.thresholdType === 'string' ? raw.thresholdType : undefined
  }
  checkAlertTarget(raw, report)
  if (a.thresholdType !== undefined) {
    const ranged = (RANGE_THRESHOLD_TYPES as readonly string[]).includes(a.thresholdType)
    if (ranged && raw.thresholdMax === undefined) {
      report(['thresholdMax'], `is required when thresholdType is ${a.thresholdType}`, ['thresholdType'])
    }
    if (ranged && a.thresholdMax !== undefined && a.threshold !== undefined && a.thresholdMax < a.threshold) {
      report(['thresholdMax'], `must be >= threshold (${a.threshold})`)
    }
    if (!ranged && raw.thresholdMax !== undefined) {
      report(['thresholdMax'], `only applies to between and not_between, not ${a.thresholdType}`)
    }
  }
  checkAlertChannels(raw, mode, report)
  checkSchedule(raw, report)
  return out
}

const YEAR_MS = 365 * 24 * 3_600_000

/**
 * common-utils validateAlertScheduleOffsetMinutes and scheduleStartAtSchema: the offset stays below the interval and
 * is 0 with a start date; the start date lies within a year ahead and ten years back (of the time of validation).
 */
function checkSchedule(raw: Partial<Record<keyof AlertSpec, unknown>>, report: Report): void {
  const offset = typeof raw.scheduleOffsetMinutes === 'number' ? raw.scheduleOffsetMinutes : undefined
  const minutes = ALERT_INTERVAL_MINUTES[raw.interval as keyof typeof ALERT_INTERVAL_MINUTES]
  if (offset !== undefined && minutes !== undefined && offset >= minutes)
    report(
      ['scheduleOffsetMinutes'],
      `must be less than the interval (${String(raw.interval)} is ${minutes} minute${minutes === 1 ? '' : 's'})`
    )
  if (typeof raw.scheduleStartAt !== 'string') return
  if (offset !== undefined && offset > 0)
    report(
      ['scheduleOffsetMinutes'],
      'must be 0 (or left out) with scheduleStartAt: the start date aligns the windows'
    )
  const at = Date.parse(raw.scheduleStartAt)
  if (Number.isNaN(at)) return
  const now = Date.now()
  if (at > now + YEAR_MS) report(['scheduleStartAt'], 'must be within a year from now')
  if (at < now - 10 * YEAR_MS) report(['scheduleStartAt'], 'must be within ten years in the past')
}

/** A tile alert names its dashboard and tile; a saved-search alert its saved search (real-server.md §2.2). */
function checkAlertTarget(raw: Partial<Record<keyof AlertSpec, unknown>>, report: Report): void {
  const saved = raw.source === 'saved_search'
  const misplaced = (fields: Array<keyof AlertSpec>, why: string) => {
    for (const f of fields) if (raw[f] !== undefined) report([f], why)
  }
  if (saved) {
    if (raw.savedSearch !== undefined && raw.savedSearchId !== undefined)
      report(['savedSearchId'], 'use `savedSearch` (by name) or `savedSearchId`, not both')
    else if (raw.savedSearch === undefined && raw.savedSearchId === undefined)
      report(['savedSearch'], 'a saved_search alert needs `savedSearch` (by name) or `savedSearchId`', [
        'source'
      ])
    misplaced(
      ['dashboard', 'tile', 'tileId'],
      'only tile alerts have a dashboard and tile (this one is source: saved_search)'
    )
  } else {
    if (raw.dashboard === undefined)
      report(['dashboard'], 'is required (a tile alert: the dashboard, by name)', [])
    if (raw.tile === undefined && raw.tileId === undefined)
      report(['tile'], 'is required (a tile alert: the tile, by name; or `tileId`, by its pin)', [])
    misplaced(
      ['savedSearch', 'savedSearchId', 'groupBy'],
      'only saved_search alerts have this (set `source: saved_search`)'
    )
  }
}

/**
 * `channel` or `channels` (common-utils types.ts validateAlertChannelSelection); webhook channels name one
 * webhook; email and the webhook extras exist only in the managed API. Managed `channels` pass here: whether the
 * cloud takes a list shows only in its reads, so the plan decides (kinds/alert.ts).
 */
function checkAlertChannels(
  raw: Partial<Record<keyof AlertSpec, unknown>>,
  mode: 'self-hosted' | 'managed',
  report: Report
): void {
  if (raw.channel !== undefined && raw.channels !== undefined)
    report(['channels'], 'use `channel` or `channels`, not both')
  else if (raw.channel === undefined && raw.channels === undefined)
    report(['channel'], 'is required (or `channels`, a list)', [])
  const list: Array<[unknown, PathSegment[]]> = Array.isArray(raw.channels)
    ? raw.channels.map((c, i) => [c, ['channels', i]])
    : raw.channel !== undefined
      ? [[raw.channel, ['channel']]]
      : []
  const seen = new Map<string, number>()
  list.forEach(([value, path], i) => {
    if (value === null || typeof value !== 'object') return
    const c = value as Record<string, unknown>
    // Self-hosted, the schema takes webhook channels only, and says so.
    if (c.type !== 'webhook') return
    if (c.webhook !== undefined && c.webhookId !== undefined)
      report([...path, 'webhookId'], 'use `webhook` or `webhookId`, not both')
    if (c.webhook === undefined && c.webhookId === undefined)
      report(path, 'needs `webhook` (by name) or `webhookId`')
    if (mode === 'self-hosted')
      for (const extra of ['webhookService', 'slackChannelId', 'severity'])
        if (c[extra] !== undefined)
          report(
            [...path, extra],
            `${extra} exists only in the managed API (the self-hosted server drops it)`
          )
    const key = JSON.stringify([c.webhook ?? null, c.webhookId ?? null])
    const first = seen.get(key)
    if (first !== undefined)
      report(path, `duplicate channel (the same as channels[${first}]): the server refuses it`)
    else seen.set(key, i)
  })
}
