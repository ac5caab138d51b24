/**
 * Alerts as manifests. An alert has no file of its own: it is written with what it watches, a dashboard's tile (in
 * the dashboard's file) or a saved search (in the saved searches' file). Its webhooks by name, the managed extras
 * and email recipients as read.
 */
import type { Document } from 'yaml'
import { sameId, type LiveAlert, type LiveDashboard, type LiveSavedSearch } from '../api/schemas.js'
import { withComments, type Namer } from './exporting.js'
import type { KindExport } from './kind.js'
import { derivedDisplay } from './alert-kept.js'

/** Export reads the alerts (the `alerts` list) to write them with their dashboards and saved searches. */
export const alertExport: KindExport<LiveAlert> = { list: 'alerts', writes: undefined }

/** The alerts of each dashboard or saved search (by the id `of` gives), sorted by name as export writes them. */
export function alertsBy(
  alerts: readonly LiveAlert[],
  of: (a: LiveAlert) => string | null | undefined
): (id: string) => LiveAlert[] {
  const by = new Map<string, LiveAlert[]>()
  for (const a of alerts) {
    const id = of(a)
    if (typeof id === 'string') by.set(id, [...(by.get(id) ?? []), a])
  }
  return id => [...(by.get(id) ?? [])].sort((a, b) => (a.name ?? a.id).localeCompare(b.name ?? b.id))
}

/** An alert on a tile of `on.dashboard`, or on `on.search`. */
export function alertDocument(
  a: LiveAlert,
  on: { dashboard: LiveDashboard } | { search: LiveSavedSearch },
  namer: Namer
): Document {
  const comments: string[] = []
  const value: Record<string, unknown> = { kind: 'Alert', name: a.name ?? `alert ${a.id}` }
  if ('search' in on) {
    value.source = 'saved_search'
    value.savedSearch = on.search.name
    if (a.groupBy) value.groupBy = a.groupBy
  } else {
    const d = on.dashboard
    const tile = d.tiles.find(t => sameId(t.id, a.tileId))
    if (!tile) comments.push(`tile id ${a.tileId ?? '(none)'} could not be mapped to a tile of "${d.name}"`)
    value.dashboard = d.name
    value.tile = tile?.name ?? String(a.tileId ?? '')
    // A tile whose name repeats is pinned with `id:` (export.ts): the alert names it by that pin.
    if (tile?.id !== undefined && d.tiles.filter(t => t.name === tile.name).length > 1)
      value.tileId = String(tile.id)
  }
  if (!a.name)
    comments.push(
      `alert ${a.id} has no name on the server: this one was made up, and applying it names the alert`
    )
  value.threshold = a.threshold
  if (a.thresholdMax !== undefined && a.thresholdMax !== null) value.thresholdMax = a.thresholdMax
  value.thresholdType = a.thresholdType
  value.interval = a.interval
  const channels = (a.channels ?? (a.channel ? [a.channel] : [])).map(c => exportChannel(c, namer, comments))
  if (channels.length === 1) value.channel = channels[0]
  else if (channels.length > 1) value.channels = channels
  // As a plan compares them: written where they are not what the server would derive (alert-kept.ts).
  const derived = derivedDisplay(a, 'search' in on ? { search: on.search } : { dashboard: on.dashboard })
  if (typeof a.displayName === 'string' && a.displayName !== derived?.displayName)
    value.displayName = a.displayName
  if (Array.isArray(a.tags) && (!derived || JSON.stringify(a.tags) !== JSON.stringify(derived.tags)))
    value.tags = a.tags
  if (a.message) value.message = a.message
  if (
    a.numConsecutiveWindows !== undefined &&
    a.numConsecutiveWindows !== null &&
    a.numConsecutiveWindows !== 1
  )
    value.numConsecutiveWindows = a.numConsecutiveWindows
  if (a.note) value.note = a.note
  if (a.scheduleOffsetMinutes) value.scheduleOffsetMinutes = a.scheduleOffsetMinutes
  if (a.scheduleStartAt) value.scheduleStartAt = a.scheduleStartAt
  return withComments(value, comments)
}

/** A channel in the manifest's words: its webhook by name (or id), the managed extras and email as read. */
function exportChannel(
  c: Record<string, unknown>,
  namer: Namer,
  comments: string[]
): Record<string, unknown> {
  if (c.type === 'email') {
    // The manifest language requires the list: written empty, and said, where the server returned none.
    if (c.emailRecipients === undefined || c.emailRecipients === null)
      comments.push('email channel: the server returned no emailRecipients: written as an empty list')
    return { type: 'email', emailRecipients: c.emailRecipients ?? [] }
  }
  const { type: _type, webhookId, ...extras } = c
  const out: Record<string, unknown> = {
    type: 'webhook',
    ...namer.ref('Webhook', 'webhook', webhookId, comments, 'webhook')
  }
  for (const [k, v] of Object.entries(extras)) if (v !== null && v !== undefined) out[k] = v
  return out
}
