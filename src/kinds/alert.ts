/**
 * Alerts, on a dashboard tile (`source: tile`) or on a saved search (`source: saved_search`). An alert on a
 * dashboard or saved search this stack owns is owned too; identity is the alert's name among owned alerts.
 * The server deletes an alert with its tile, dashboard or saved search (real-server.md §10), so an alert
 * whose tile goes away is replaced (deleted first, created on its new tile after the dashboard is updated),
 * and an orphan whose tile, dashboard or saved search goes is shown as deleted by the server whether or not
 * prune is on. Channels (webhooks by name, up to 10 self-hosted; one, webhook or email, managed) and the
 * saved search are references (references.ts): ones this run creates are bound at apply time.
 */
import { NOUNS } from './nouns.js'
import { createOnce } from './create-once.js'
import { DesiredAt } from './desired-at.js'
import { sameId, type LiveAlert, type LiveDashboard, type RawId } from '../api/schemas.js'
import { diagnostic } from '../diagnostics.js'
import { clean, type Json, type JsonObject } from '../json.js'
import { managedAlertBody } from './managed-request.js'
import type { Located } from '../manifest/rules.js'
import type { AlertChannelSpec, AlertSpec } from '../manifest/schema.js'
import { alertsClearedToken, dashboardLock, deleteOperation, readyToken } from './operations.js'
import { alertTileRef } from './dashboard/tiles.js'
import { bindPlaceholders, placeholderTokens, type Resolved } from './references.js'
import type {
  ApplyContext,
  Kind,
  Operation,
  OperationContext,
  OperationResult,
  PlanContext,
  PlannedChange
} from './kind.js'
import { alertExport } from './alert-export.js'
import { keptBody, keptFields, keptNote, type KeptFields } from './alert-kept.js'

/** A channel as the request sends it, with its webhook resolved (an id or a placeholder). */
type ChannelBody = Record<string, unknown>

export interface DesiredAlert {
  spec: AlertSpec
  located: Located<AlertSpec>
  /** The channels in order, their webhooks resolved. */
  channels: Array<{ body: ChannelBody; webhook?: Resolved }>
  /** Saved-search alerts: the saved search, resolved. */
  savedSearch?: Resolved
  /** Whether this server reads and writes `displayName` and `tags` (an alert read returns them). */
  displayFields: boolean
  /** Whether this server's alerts carry a `channels` list (managed: only then can an update send one). */
  channelsField: boolean
  /** What an update or a replace carries from the live alert (alert-kept.ts): set by `refine`. */
  kept?: KeptFields
}

const alertDeletedToken = (liveId: string) => `alert-deleted:${liveId}`
const isSavedSearch = (s: { source?: string | null }) => s.source === 'saved_search'
/**
 * A tile alert's dashboard and tile, by name. Validation (`src/manifest/rules.ts`) requires both on every
 * alert whose source is not saved_search; the schema alone cannot say so.
 */
const tileTarget = (s: AlertSpec) => ({ dashboard: s.dashboard!, tile: alertTileRef(s) })

const pinnedName = (ctx: PlanContext, dashboard: string | undefined, tileId: RawId | null | undefined) =>
  dashboard === undefined || tileId == null
    ? undefined
    : ctx.dashboards.desired.get(dashboard)?.pinnedNames.get(String(tileId))

/** The alert's tile in a sentence: its name, and its pin where it has one. */
const tileText = (s: AlertSpec) =>
  [s.tile, s.tileId !== undefined ? `#${s.tileId}` : undefined].filter(Boolean).join(' ')

export const alertKind: Kind<DesiredAlert, LiveAlert> = {
  kind: 'Alert',
  nouns: NOUNS.Alert,
  fingerprint: { specs: 'alerts', whenEmpty: true },
  referredBy: undefined,
  // An alert is this stack's by its place: the same name on the same tile or saved search.
  copies: {
    what: 'alerts',
    isCopy: (r, c) =>
      r.name === c.name &&
      r.dashboardId === c.dashboardId &&
      r.tileId === c.tileId &&
      r.savedSearchId === c.savedSearchId,
    remove: (api, id) => api.deleteAlert(id)
  },
  seenOn: d => (d.value.spec.dashboard === undefined ? undefined : { dashboard: d.value.spec.dashboard }),
  heldWhileUsed: undefined,
  unnamedUses: undefined,
  exports: alertExport,
  live: { read: api => api.listAlerts() },

  desired(ctx) {
    const displayFields = ctx.live.Alert.some(a => a.displayName !== undefined || a.tags !== undefined)
    const channelsField = ctx.live.Alert.some(a => Array.isArray(a.channels))
    return ctx.manifests.specs.Alert.map(located => {
      const { spec, doc } = located
      return new DesiredAt<DesiredAlert>(
        spec.name,
        `Alert/${spec.name}`,
        {
          spec,
          located,
          channels: resolveChannels(located, ctx),
          savedSearch: isSavedSearch(spec) ? resolveSavedSearch(located, ctx) : undefined,
          displayFields,
          channelsField
        },
        doc
      )
    })
  },

  pair(desired, ctx) {
    const owned = ownedAlerts(ctx).sort((a, b) => a.id.localeCompare(b.id))
    const ownedByName = new Map<string | null | undefined, LiveAlert[]>()
    for (const a of owned) ownedByName.set(a.name, [...(ownedByName.get(a.name) ?? []), a])
    const used = new Set<string>()
    // Alert names are unique among the manifests (rules.ts), so no two desired alerts compete for one.
    const pairs = desired.map(d => {
      const candidates = ownedByName.get(d.name) ?? []
      // Among duplicates (made by hand), prefer the one already on the right tile or saved search.
      const live = candidates.find(a => onTarget(d.value, a, ctx)) ?? candidates[0]
      if (live) used.add(live.id)
      return { desired: d, live }
    })
    return { pairs, orphans: owned.filter(a => !used.has(a.id)) }
  },

  normalDesired(d, ctx, live) {
    const s = d.value.spec
    const saved = isSavedSearch(s)
    return normal({
      name: s.name,
      source: s.source ?? 'tile',
      dashboard: saved ? undefined : s.dashboard,
      // By `tileId` alone: the name of the tile pinned with it, as the live side shows it.
      tile: saved
        ? undefined
        : (s.tile ?? ctx.dashboards.desired.get(s.dashboard!)?.pinnedNames.get(s.tileId!)),
      savedSearch: d.value.savedSearch?.label,
      groupBy: saved ? (s.groupBy ?? keptGroupBy(ctx, live)) : undefined,
      threshold: s.threshold,
      // HyperDX keeps the stored thresholdMax when a PUT omits it, and refuses null: it stays.
      thresholdMax: s.thresholdMax ?? live?.thresholdMax,
      thresholdType: s.thresholdType,
      interval: s.interval,
      channels: d.value.channels.map(c => channelNormal(c.body, c.webhook?.label)),
      message: s.message,
      numConsecutiveWindows: s.numConsecutiveWindows,
      note: s.note,
      scheduleOffsetMinutes: s.scheduleOffsetMinutes,
      scheduleStartAt: s.scheduleStartAt,
      // Left out, the live ones stay (alert-kept.ts): they compare as the same.
      displayName: s.displayName ?? live?.displayName,
      tags: s.tags ?? live?.tags
    })
  },

  normalLive(l, ctx) {
    const dash = l.dashboardId ? ctx.dashboards.live.get(l.dashboardId) : undefined
    const liveDash = l.dashboardId ? liveDashboardsById(ctx).get(l.dashboardId) : undefined
    const tile = liveDash?.tiles.find(t => sameId(t.id, l.tileId))
    const channels = l.channels ?? (l.channel ? [l.channel] : [])
    return normal({
      name: l.name,
      source: l.source ?? 'tile',
      // Compared by the name the dashboard will have, so a dashboard rename does not show on its alerts.
      dashboard: dash?.desiredName ?? liveDash?.name ?? l.dashboardId ?? undefined,
      // Likewise a pinned tile by the name it will have: a rename that keeps its id does not show either.
      tile: pinnedName(ctx, dash?.desiredName, l.tileId) ?? tile?.name ?? l.tileId ?? undefined,
      savedSearch: l.savedSearchId ? ctx.refs.labelOfValue('SavedSearch', l.savedSearchId) : undefined,
      groupBy: l.groupBy,
      threshold: l.threshold,
      thresholdMax: l.thresholdMax,
      thresholdType: l.thresholdType,
      interval: l.interval,
      channels: channels.map(c => {
        const { webhookId, ...rest } = c as Record<string, unknown>
        return channelNormal(
          rest,
          typeof webhookId === 'string' ? ctx.refs.labelOfValue('Webhook', webhookId) : undefined
        )
      }),
      message: l.message,
      numConsecutiveWindows: l.numConsecutiveWindows,
      note: l.note,
      scheduleOffsetMinutes: l.scheduleOffsetMinutes,
      scheduleStartAt: l.scheduleStartAt,
      displayName: l.displayName,
      tags: l.tags
    })
  },

  liveName: l => l.name ?? l.id,
  liveId: l => l.id,

  refine(pc, ctx) {
    refineTarget(pc, ctx)
    refineKept(pc, ctx)
    refuseChannelList(pc, ctx)
  },

  operations(pc, octx) {
    const { change, desired, live } = pc
    if (change.action === 'noop' || change.deferred) return []
    const ops: Operation[] = []
    if (live && (change.action === 'delete' || change.action === 'replace')) {
      const liveDash = live.dashboardId ?? undefined
      ops.push(
        deleteOperation({
          address: change.address,
          label: 'delete',
          id: live.id,
          lock: liveDash ? dashboardLock(liveDash) : undefined,
          provides: [alertDeletedToken(live.id), ...(liveDash ? [alertsClearedToken(liveDash)] : [])],
          request: (api, id) => api.deleteAlert(id),
          alreadyGone: 'already deleted by the server'
        })
      )
    }
    // A delete is an orphan's (planner.ts): it has no desired alert.
    if (!desired) return ops
    const s = desired.value.spec
    const dashName = isSavedSearch(s) ? undefined : tileTarget(s).dashboard
    const lock =
      dashName === undefined
        ? undefined
        : dashboardLock(octx.dashboards.desired.get(dashName)?.liveId ?? dashName)
    const refs = placeholderTokens([
      desired.value.channels.map(c => c.body),
      desired.value.savedSearch?.value
    ])
    const after = [...(dashName === undefined ? [] : [readyToken(dashName)]), ...refs]
    if (live && change.action === 'update') {
      ops.push({
        address: change.address,
        label: 'update',
        lock,
        provides: [],
        after,
        run: async ctx => {
          const res = await ctx.api.updateAlert(live.id, alertBody(desired.value, ctx, octx, live))
          return { status: 'applied', id: res.id }
        }
      })
    } else {
      ops.push({
        address: change.address,
        label: 'create',
        lock,
        provides: [],
        // A replace creates only once the old alert is gone: never two alerts of one name.
        after: [...after, ...(live ? [alertDeletedToken(live.id)] : [])],
        // A replace keeps what the old alert had that the manifest does not model.
        run: ctx => createAlert(ctx, desired.value, octx, live)
      })
    }
    return ops
  },

  // As operations: a delete (a replace's first), then an update or a create.
  requests({ change, desired, live }) {
    if (change.action === 'noop' || change.deferred) return { requests: 0 }
    const deletes = live && (change.action === 'delete' || change.action === 'replace') ? 1 : 0
    return { requests: deletes + (desired ? 1 : 0) }
  }
}

/** Whether the alert is replaced: its tile, dashboard or saved search goes, or it moves to another tile. */
function refineTarget(pc: PlannedChange<DesiredAlert, LiveAlert>, ctx: PlanContext): void {
  const { change, desired, live } = pc
  if (!live) return
  const goes = targetGoes(live, ctx)
  if (!desired) {
    if (goes) {
      // Prune or not, the server deletes it with its tile, dashboard or saved search.
      change.deferred = undefined
      change.droppedByServer = true
      change.notes.push(goes)
    }
    return
  }
  if (isSavedSearch(desired.value.spec)) {
    // A PUT may point it at another saved search; only the cascade of a deleted one forces a new alert.
    if (goes) {
      change.action = 'replace'
      change.droppedByServer = true
      change.notes.push(
        `${goes}; it is created again on saved search "${desired.value.spec.savedSearch ?? desired.value.spec.savedSearchId}" (new alert id)`
      )
    }
    reportStickyGroupBy(pc, ctx)
    return
  }
  const s = tileTarget(desired.value.spec)
  const target = ctx.dashboards.desired.get(s.dashboard)
  const sameTile =
    target?.liveId !== undefined &&
    target.liveId === live.dashboardId &&
    sameId(target.tileIds.get(s.tile), live.tileId)
  if (goes || !sameTile) {
    change.action = 'replace'
    change.droppedByServer = goes !== undefined
    change.notes.push(
      goes
        ? `the server deletes this alert when its current tile goes away; it is created again on tile "${tileText(desired.value.spec)}" (new alert id)`
        : `it moves to tile "${tileText(desired.value.spec)}" of "${s.dashboard}": deleted and created again there (new alert id)`
    )
  }
}

/**
 * What an update or a replace carries from the live alert (alert-kept.ts), said on the change; and the manifest's
 * displayName or tags where this server shows no sign of them.
 */
function refineKept(pc: PlannedChange<DesiredAlert, LiveAlert>, ctx: PlanContext): void {
  const { change, desired, live } = pc
  if (!desired) return
  const s = desired.value.spec
  if ((s.displayName !== undefined || s.tags !== undefined) && !desired.value.displayFields) {
    const fields = [s.displayName !== undefined ? 'displayName' : '', s.tags !== undefined ? 'tags' : '']
      .filter(Boolean)
      .join(' and ')
    ctx.report(
      diagnostic(
        'plan',
        'warning',
        ctx.settings.mode === 'managed'
          ? `${fields}: not sent: no alert this server returns has them, and the managed API refuses a field it does not declare. They are sent once the cloud's alerts carry them`
          : `${fields}: no alert this server returns has them (HyperDX 2.36 and earlier): it accepts and ignores them, so the plan shows them again until the server supports them`,
        desired.source
      )
    )
  }
  if (!live || (change.action !== 'update' && change.action !== 'replace')) return
  // The target by the plan's index of live dashboards (one lookup, not a search per alert).
  const target =
    live.source === 'saved_search'
      ? { search: ctx.live.SavedSearch?.find(x => x.id === live.savedSearchId) }
      : { dashboard: live.dashboardId ? liveDashboardsById(ctx).get(live.dashboardId) : undefined }
  const kept = keptFields(live, s, target, ctx.settings.mode)
  desired.value.kept = kept
  const note = keptNote(kept)
  if (note) change.notes.push(`it ${note}`)
  if (kept.lost.length > 0) change.lost = [...kept.lost]
  if (kept.lost.length > 0)
    ctx.report(
      diagnostic(
        'plan',
        'warning',
        `this update resets ${kept.lost.map(k => `\`${k}\``).join(', ')}: fields of the live alert this version of obsdeploy does not know, which the managed API does not take`,
        desired.source
      )
    )
}

/**
 * Managed: the published API takes one `channel`; the cloud takes a list where its reads return one
 * (clickhousectl pull request 719). Several channels where no alert of the service returns `channels` would be cut
 * to one: a plan error, never a silent cut.
 */
function refuseChannelList(pc: PlannedChange<DesiredAlert, LiveAlert>, ctx: PlanContext): void {
  const { change, desired } = pc
  if (ctx.settings.mode !== 'managed' || !desired || desired.value.channelsField) return
  if (desired.value.channels.length < 2 || change.action === 'noop' || change.action === 'delete') return
  const { doc } = desired.value.located
  ctx.report(
    diagnostic(
      'plan',
      'error',
      `${desired.value.channels.length} channels: this service's alerts return no \`channels\` list, so the managed API takes one \`channel\` here and an update would keep only the first. Keep one channel, or apply it where the cloud returns \`channels\``,
      { ...doc.locate(['channels']), field: 'channels' }
    )
  )
}

const dashboardIndexes = new WeakMap<PlanContext, Map<string, LiveDashboard>>()
/** Live dashboards by id, built once per plan. */
function liveDashboardsById(ctx: PlanContext): Map<string, LiveDashboard> {
  let index = dashboardIndexes.get(ctx)
  if (!index) dashboardIndexes.set(ctx, (index = new Map(ctx.live.Dashboard.map(d => [d.id, d]))))
  return index
}

/** Alerts on a dashboard or a saved search this stack manages. */
function ownedAlerts(ctx: PlanContext): LiveAlert[] {
  return ctx.live.Alert.filter(a =>
    a.source === 'saved_search'
      ? a.savedSearchId != null && ctx.refs.isManaged('SavedSearch', a.savedSearchId)
      : a.dashboardId != null && ctx.dashboards.live.has(a.dashboardId)
  )
}

function onTarget(d: DesiredAlert, a: LiveAlert, ctx: PlanContext): boolean {
  if (isSavedSearch(d.spec)) return a.savedSearchId != null && a.savedSearchId === d.savedSearch?.value
  const { dashboard, tile } = tileTarget(d.spec)
  const target = ctx.dashboards.desired.get(dashboard)
  return a.dashboardId === target?.liveId && sameId(a.tileId, target?.tileIds.get(tile))
}

/** Why the server deletes this alert in this run (its tile, dashboard or saved search goes), if it does. */
function targetGoes(live: LiveAlert, ctx: PlanContext): string | undefined {
  if (live.source === 'saved_search') {
    return live.savedSearchId != null && ctx.refs.isDeleted('SavedSearch', live.savedSearchId)
      ? 'its saved search is deleted, and the server deletes its alerts with it'
      : undefined
  }
  const dash = live.dashboardId ? ctx.dashboards.live.get(live.dashboardId) : undefined
  if (!dash) return undefined
  if (dash.deleted) return 'its dashboard is deleted, and the server deletes its alerts with it'
  if (live.tileId != null && dash.droppedTileIds.has(String(live.tileId)))
    return 'its tile goes away, and the server deletes the alerts of a removed tile'
  return undefined
}

/**
 * The managed cloud keeps a saved-search alert's `groupBy` when an update leaves it out, and refuses `null`
 * (TF `client/alert.go`, `alert_resource.go`): the value an update leaves there, when the manifest has none.
 */
function keptGroupBy(ctx: PlanContext, live: LiveAlert | undefined): string | undefined {
  return ctx.settings.mode === 'managed' ? (live?.groupBy ?? undefined) : undefined
}

/** Says that a `groupBy` the manifest dropped stays (managed): only a new alert starts without one. */
function reportStickyGroupBy(pc: PlannedChange<DesiredAlert, LiveAlert>, ctx: PlanContext): void {
  const { change, desired, live } = pc
  const kept = keptGroupBy(ctx, live)
  if (!desired || kept === undefined || desired.value.spec.groupBy !== undefined) return
  if (change.action === 'replace') {
    change.notes.push(`groupBy ${JSON.stringify(kept)} goes with the old alert: the new one has none`)
    return
  }
  ctx.report(
    diagnostic(
      'plan',
      'warning',
      `groupBy ${JSON.stringify(kept)} stays: the managed API keeps a saved-search alert's groupBy when an update leaves it out and refuses to clear it. Only a new alert starts without one: with prune on, remove the manifest for one apply and add it back`,
      desired.source
    )
  )
}

/** The alert's channels (`channel`, or the list in `channels`), their webhooks resolved. */
function resolveChannels(located: Located<AlertSpec>, ctx: PlanContext): DesiredAlert['channels'] {
  const { spec, doc } = located
  const list: AlertChannelSpec[] = spec.channels ?? (spec.channel ? [spec.channel] : [])
  const base = spec.channels ? ['channels'] : ['channel']
  return list.map((c, i) => {
    const path = spec.channels ? [...base, i] : base
    if (c.type === 'email') return { body: { type: 'email', emailRecipients: c.emailRecipients } }
    const { webhook, webhookId, ...extras } = c
    const resolved = ctx.refs.resolve({
      kind: 'Webhook',
      name: webhook,
      id: webhookId,
      at: { doc, path: [...path, webhook !== undefined ? 'webhook' : 'webhookId'] }
    })
    // The rest is the body, the webhook's id added to it: not a spread copy of it with a key after
    // (dashboard/desired.ts seriesBody says why).
    const body: Record<string, unknown> = extras
    body.webhookId = resolved.value
    return { body: body as ChannelBody, webhook: resolved }
  })
}

/**
 * The saved search a saved-search alert watches. It must be one this stack manages: alert ownership
 * follows it, as it follows a tile alert's dashboard.
 */
function resolveSavedSearch(located: Located<AlertSpec>, ctx: PlanContext): Resolved {
  const { spec, doc } = located
  const field = spec.savedSearch !== undefined ? 'savedSearch' : 'savedSearchId'
  const resolved = ctx.refs.resolve({
    kind: 'SavedSearch',
    name: spec.savedSearch,
    id: spec.savedSearchId,
    at: { doc, path: [field] }
  })
  if (!resolved.error && !resolved.declared && !ctx.refs.isManaged('SavedSearch', resolved.value))
    ctx.report(
      diagnostic(
        'plan',
        'error',
        `saved search ${JSON.stringify(spec.savedSearch ?? spec.savedSearchId)} is not managed by stack "${ctx.settings.stack}": an alert is owned through its saved search, so declare the saved search in the manifests (\`adopt: true\` for an existing one)`,
        { ...doc.locate([field]), field }
      )
    )
  return resolved
}

/** A channel in the normal form: a webhook's label, or the channel's fields when it has more. */
function channelNormal(body: ChannelBody, webhookLabel: string | undefined): Json {
  const { type, webhookId: _id, ...rest } = body
  const extras = clean(rest) as JsonObject | undefined
  if (type === 'email') return (clean({ email: rest.emailRecipients }) ?? {}) as Json
  if (!extras) return webhookLabel ?? null
  return { webhook: webhookLabel ?? null, ...extras }
}

/**
 * Absent, null, '' and the server's defaults compare equal (numConsecutiveWindows defaults to 1, the schedule offset
 * to 0); a start date compares as the instant it names (the server returns it in `toISOString` form).
 */
function normal(o: Record<string, unknown>): JsonObject {
  if (o.numConsecutiveWindows === 1) o.numConsecutiveWindows = undefined
  if (o.scheduleOffsetMinutes === 0) o.scheduleOffsetMinutes = undefined
  if (typeof o.scheduleStartAt === 'string' && !Number.isNaN(Date.parse(o.scheduleStartAt)))
    o.scheduleStartAt = new Date(o.scheduleStartAt).toISOString()
  return (clean(o) ?? {}) as JsonObject
}

function alertBody(
  d: DesiredAlert,
  ctx: ApplyContext,
  octx: OperationContext,
  live?: LiveAlert
): Record<string, unknown> {
  const s = d.spec
  const mode = octx.settings.mode
  const target: Record<string, unknown> = {}
  if (isSavedSearch(s)) {
    target.savedSearchId = d.savedSearch?.value
    target.groupBy = s.groupBy
  } else {
    const { dashboard, tile } = tileTarget(s)
    const fromRun = ctx.facts.get(readyToken(dashboard))
    const planned = octx.dashboards.desired.get(dashboard)
    const dashboardId = fromRun?.id ?? planned?.liveId
    const tileId = fromRun?.tileIds?.get(tile) ?? planned?.tileIds.get(tile)
    // The create waits for the dashboard's ready token, which carries these: never send an alert without its tile.
    if (!dashboardId || !tileId)
      throw new Error(`dashboard "${dashboard}" or its tile "${tileText(s)}" has no id yet`)
    target.dashboardId = dashboardId
    target.tileId = tileId
  }
  const channels = d.channels.map(c => c.body)
  // Fields the manifest leaves out are undefined here, and JSON leaves them out of the request.
  const body: Record<string, unknown> = {
    ...target,
    source: s.source ?? 'tile',
    name: s.name,
    threshold: s.threshold,
    thresholdType: s.thresholdType,
    interval: s.interval,
    // One channel as `channel` (both modes); several as `channels` (self-hosted; the server mirrors the first).
    ...(channels.length === 1 ? { channel: channels[0] } : { channels }),
    thresholdMax: s.thresholdMax,
    message: s.message,
    numConsecutiveWindows: s.numConsecutiveWindows,
    note: s.note
  }
  // Managed: only where the cloud's reads show it knows them (the gateway refuses an undeclared key). An empty
  // list of tags is sent: it clears them.
  const display: Record<string, unknown> = {}
  if (mode !== 'managed' || d.displayFields) {
    if (s.displayName !== undefined) display.displayName = s.displayName
    if (s.tags !== undefined) display.tags = s.tags
  }
  // A PUT keeps the schedule it omits (controllers/alerts.ts makeAlert): clear what the manifest does not set.
  if (s.scheduleStartAt !== undefined || (live?.scheduleStartAt ?? null) !== null)
    body.scheduleStartAt = s.scheduleStartAt ?? null
  if (s.scheduleOffsetMinutes !== undefined || (live?.scheduleOffsetMinutes ?? 0) !== 0)
    body.scheduleOffsetMinutes = s.scheduleOffsetMinutes ?? 0
  const bound = bindPlaceholders(body, ctx.facts)
  // What the live alert holds that the manifest does not set goes back as read (alert-kept.ts).
  // Managed: a list only where the cloud's reads show it takes one (refuseChannelList); `channel` mirrors its first.
  const managedChannels =
    mode === 'managed' && d.channelsField ? { channels: bound.channels ?? [bound.channel] } : {}
  return {
    ...(mode === 'managed'
      ? {
          ...managedAlertBody(bound),
          channel: (bound.channels as unknown[] | undefined)?.[0] ?? bound.channel
        }
      : bound),
    ...managedChannels,
    ...keptBody(d.kept),
    ...display
  }
}

/** Duplicate-safe: after a lost response, re-read the alerts and adopt ours if it was committed. */
function createAlert(
  ctx: ApplyContext,
  d: DesiredAlert,
  octx: OperationContext,
  replaced?: LiveAlert
): Promise<OperationResult> {
  const body = alertBody(d, ctx, octx, replaced)
  return createOnce(ctx, {
    what: 'alerts',
    name: d.spec.name,
    create: () => ctx.api.createAlert(body),
    created: c => ({ status: 'applied', id: c.id }),
    list: () => ctx.api.listAlerts(),
    find: all =>
      all.find(
        a =>
          a.name === d.spec.name &&
          (isSavedSearch(d.spec)
            ? a.savedSearchId === body.savedSearchId
            : a.dashboardId === body.dashboardId && sameId(a.tileId, body.tileId as RawId))
      ),
    adopted: found => ({ status: 'adopted', id: found.id })
  })
}
