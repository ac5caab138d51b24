/**
 * Alerts. An alert on a dashboard this stack owns is owned too. Identity is the alert's name among
 * owned alerts. An alert whose tile goes away is deleted by the server (FACTS.md), so such an alert
 * is replaced (deleted first, created on its new tile after the dashboard is updated), and an orphan on
 * such a tile is shown as deleted by the server whether or not prune is on.
 */
import { createOnce } from './create-once.js'
import { sameId, type LiveAlert, type LiveDashboard, type RawId } from '../api/schemas.js'
import type { Mode } from '../config/types.js'
import { diagnostic } from '../diagnostics.js'
import { clean, type JsonObject } from '../json.js'
import { managedAlertBody } from './managed-request.js'
import { ALERT_FIELDS, carriedFields, keptSettingsNotice } from './returned-fields.js'
import { formatPath } from '../manifest/path.js'
import type { Located } from '../manifest/rules.js'
import type { AlertSpec } from '../manifest/schema.js'
import { resolveById, resolveByName } from './resolve.js'
import { alertsClearedToken, dashboardLock, deleteOperation, readyToken } from './operations.js'
import type { Change } from '../plan/types.js'
import type {
  ApplyContext,
  Desired,
  Kind,
  Operation,
  OperationContext,
  OperationResult,
  PlanContext
} from './kind.js'

export interface DesiredAlert {
  spec: AlertSpec
  located: Located<AlertSpec>
  webhookId?: string
  webhookLabel: string
}

const alertDeletedToken = (liveId: string) => `alert-deleted:${liveId}`

export const alertKind: Kind<DesiredAlert, LiveAlert> = {
  kind: 'Alert',

  desired(ctx) {
    return ctx.manifests.alerts.map(located => {
      const { spec, doc } = located
      const { webhookId, label } = resolveWebhook(located, ctx)
      return {
        name: spec.name,
        address: `Alert/${spec.name}`,
        // A getter: positions are built only for what the plan shows.
        get source() {
          return doc.locate(['name'])
        },
        value: { spec, located, webhookId, webhookLabel: label }
      }
    })
  },

  pair(desired, ctx) {
    const owned = ownedAlerts(ctx).sort((a, b) => a.id.localeCompare(b.id))
    const ownedByName = new Map<string, LiveAlert[]>()
    for (const a of owned) ownedByName.set(a.name ?? '', [...(ownedByName.get(a.name ?? '') ?? []), a])
    const used = new Set<string>()
    const pairs = desired.map(d => {
      const target = ctx.dashboards.desired.get(d.value.spec.dashboard)
      const candidates = (ownedByName.get(d.name) ?? []).filter(a => !used.has(a.id))
      // Among duplicates (made by hand), prefer the one already on the right tile.
      const live =
        candidates.find(
          a => a.dashboardId === target?.liveId && sameId(a.tileId, target?.tileIds.get(d.value.spec.tile))
        ) ?? candidates[0]
      if (live) used.add(live.id)
      return { desired: d, live }
    })
    return { pairs, orphans: owned.filter(a => !used.has(a.id)) }
  },

  normalDesired(d, ctx, live) {
    const s = d.value.spec
    const carried = live ? carriedAlertFields(live, d.value.webhookId, ctx.settings.mode) : {}
    return normal({
      name: s.name,
      dashboard: s.dashboard,
      tile: s.tile,
      source: s.source ?? 'tile',
      threshold: s.threshold,
      // HyperDX keeps the stored thresholdMax when a PUT omits it, and refuses null: it stays.
      thresholdMax: s.thresholdMax ?? live?.thresholdMax,
      thresholdType: s.thresholdType,
      interval: s.interval,
      webhook: d.value.webhookLabel,
      otherChannels: carried.channels?.slice(1).map(c => webhookLabel(ctx, c.webhookId ?? undefined)),
      message: s.message,
      numConsecutiveWindows: s.numConsecutiveWindows,
      note: s.note
    })
  },

  normalLive(l, ctx) {
    const dash = l.dashboardId ? ctx.dashboards.live.get(l.dashboardId) : undefined
    const liveDash = l.dashboardId ? liveDashboardsById(ctx).get(l.dashboardId) : undefined
    const tile = liveDash?.tiles.find(t => sameId(t.id, l.tileId))
    const webhookId = l.channel?.webhookId ?? l.channels?.[0]?.webhookId ?? undefined
    return normal({
      name: l.name ?? '',
      // Compared by the name the dashboard will have, so a dashboard rename does not show on its alerts.
      dashboard: dash?.desiredName ?? liveDash?.name ?? l.dashboardId ?? undefined,
      tile: tile?.name ?? l.tileId ?? undefined,
      source: l.source ?? 'tile',
      threshold: l.threshold,
      thresholdMax: l.thresholdMax,
      thresholdType: l.thresholdType,
      interval: l.interval,
      webhook: webhookLabel(ctx, webhookId ?? undefined),
      otherChannels: l.channels?.slice(1).map(c => webhookLabel(ctx, c.webhookId ?? undefined)),
      message: l.message,
      numConsecutiveWindows: l.numConsecutiveWindows,
      note: l.note,
      // Saved-search alerts are not in the manifest language: a live value is a difference.
      savedSearchId: l.savedSearchId,
      groupBy: l.groupBy
    })
  },

  liveName: l => l.name ?? l.id,
  liveId: l => l.id,

  refine(pc, ctx) {
    const { change, desired, live } = pc
    if (!live) return
    if (desired) noteAlertSettings(pc.change, desired, live, ctx)
    const dash = live.dashboardId ? ctx.dashboards.live.get(live.dashboardId) : undefined
    const tileGoes =
      dash !== undefined &&
      (dash.deleted ||
        (live.tileId !== undefined && live.tileId !== null && dash.droppedTileIds.has(live.tileId)))
    if (!desired) {
      if (tileGoes) {
        // Prune or not, the server deletes it with its tile or dashboard.
        change.deferred = undefined
        change.droppedByServer = true
        change.notes.push(
          dash!.deleted
            ? 'its dashboard is deleted, and the server deletes its alerts with it'
            : 'its tile goes away, and the server deletes the alerts of a removed tile'
        )
      }
      return
    }
    const target = ctx.dashboards.desired.get(desired.value.spec.dashboard)
    const sameTile =
      target?.liveId !== undefined &&
      target.liveId === live.dashboardId &&
      sameId(target.tileIds.get(desired.value.spec.tile), live.tileId)
    if (tileGoes || !sameTile) {
      change.action = 'replace'
      change.droppedByServer = tileGoes
      change.notes.push(
        tileGoes
          ? `the server deletes this alert when its current tile goes away; it is created again on tile "${desired.value.spec.tile}" (new alert id)`
          : `it moves to tile "${desired.value.spec.tile}" of "${desired.value.spec.dashboard}": deleted and created again there (new alert id)`
      )
    }
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
    if (!desired || change.action === 'delete') return ops
    const dashName = desired.value.spec.dashboard
    const lock = dashboardLock(octx.dashboards.desired.get(dashName)?.liveId ?? dashName)
    if (live && change.action === 'update') {
      ops.push({
        address: change.address,
        label: 'update',
        lock,
        provides: [],
        after: [readyToken(dashName)],
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
        after: [readyToken(dashName), ...(live ? [alertDeletedToken(live.id)] : [])],
        // A replace keeps what the old alert had that the manifest does not model.
        run: ctx => createAlert(ctx, desired.value, octx, live)
      })
    }
    return ops
  }
}

const dashboardIndexes = new WeakMap<PlanContext, Map<string, LiveDashboard>>()
/** Live dashboards by id, built once per plan. */
function liveDashboardsById(ctx: PlanContext): Map<string, LiveDashboard> {
  let index = dashboardIndexes.get(ctx)
  if (!index) dashboardIndexes.set(ctx, (index = new Map(ctx.live.dashboards.map(d => [d.id, d]))))
  return index
}

function ownedAlerts(ctx: PlanContext): LiveAlert[] {
  return ctx.live.alerts.filter(a => a.dashboardId && ctx.dashboards.live.has(a.dashboardId))
}

/** A webhook compares by id and shows by name. */
function webhookLabel(ctx: PlanContext, id: string | undefined): string | undefined {
  if (id === undefined) return undefined
  const hook = ctx.live.webhooks?.find(w => w.id === id)
  return hook?.name ? `${hook.name} (${id})` : id
}

function resolveWebhook(
  located: Located<AlertSpec>,
  ctx: PlanContext
): { webhookId?: string; label: string } {
  const { webhook, webhookId } = located.spec.channel
  const hooks = ctx.live.webhooks?.map(w => ({ id: w.id, name: w.name }))
  const field = webhook !== undefined ? 'webhook' : 'webhookId'
  const report = (message: string) =>
    ctx.report(
      diagnostic('plan', 'error', message, {
        ...located.doc.locate(['channel', field]),
        field: formatPath(['channel', field])
      })
    )
  if (hooks === undefined) {
    if (webhookId !== undefined) return { webhookId, label: webhookId }
    report(
      'this API cannot list webhooks (managed mode with the `observability` prefix): use `channel.webhookId`, or `managed-prefix: clickstack`'
    )
    return { label: `unresolved:${webhook}` }
  }
  const resolution =
    webhook !== undefined
      ? resolveByName(hooks, webhook, 'webhook')
      : resolveById(hooks, webhookId!, 'webhook')
  if ('error' in resolution) {
    report(resolution.error)
    return { label: `unresolved:${webhook ?? webhookId}` }
  }
  return { webhookId: resolution.id, label: webhookLabel(ctx, resolution.id) ?? resolution.id }
}

/** Absent, null, '' and the server's defaults compare equal (numConsecutiveWindows defaults to 1). */
function normal(o: Record<string, unknown>): JsonObject {
  if (o.numConsecutiveWindows === 1) o.numConsecutiveWindows = undefined
  return (clean(o) ?? {}) as JsonObject
}

/**
 * What an update (or a replace) sends back as read: the schedule, and channels after the first (added in
 * the UI) after ours, since `channel` must be the first of `channels` when both are sent. The managed
 * request schema has no `channels`: there only `channel` is sent, and the plan shows the others going.
 */
function carriedAlertFields(
  live: LiveAlert,
  webhookId: string | undefined,
  mode: Mode
): { channels?: LiveAlert['channels'] } & Record<string, unknown> {
  const { channels, ...rest } = carriedFields(live, {}, ALERT_FIELDS, () => false)
  const others = ((channels ?? []) as NonNullable<LiveAlert['channels']>)
    .slice(1)
    .filter(c => c.webhookId !== webhookId)
  if (mode === 'managed' || others.length === 0) return rest
  return { ...rest, channels: [{ type: 'webhook', webhookId }, ...others] }
}

function alertBody(
  d: DesiredAlert,
  ctx: ApplyContext,
  octx: OperationContext,
  live?: LiveAlert
): Record<string, unknown> {
  const s = d.spec
  const dashName = s.dashboard
  const fromRun = ctx.facts.get(readyToken(dashName))
  const planned = octx.dashboards.desired.get(dashName)
  const dashboardId = fromRun?.id ?? planned?.liveId
  const tileId = fromRun?.tileIds?.get(s.tile) ?? planned?.tileIds.get(s.tile)
  if (!dashboardId || !tileId)
    throw new Error(`dashboard "${dashName}" or its tile "${s.tile}" has no id yet`)
  const mode = octx.settings.mode
  const body: Record<string, unknown> = {
    ...(live ? carriedAlertFields(live, d.webhookId, mode) : {}),
    dashboardId,
    tileId,
    source: s.source ?? 'tile',
    name: s.name,
    threshold: s.threshold,
    thresholdType: s.thresholdType,
    interval: s.interval,
    channel: { type: 'webhook', webhookId: d.webhookId }
  }
  if (s.thresholdMax !== undefined) body.thresholdMax = s.thresholdMax
  if (s.message !== undefined) body.message = s.message
  if (s.numConsecutiveWindows !== undefined) body.numConsecutiveWindows = s.numConsecutiveWindows
  if (s.note !== undefined) body.note = s.note
  return mode === 'managed' ? managedAlertBody(body) : body
}

/** Settings the manifest cannot express: dropped ones get a note, kept ones a notice on every plan. */
function noteAlertSettings(
  change: Change,
  desired: Desired<DesiredAlert>,
  live: LiveAlert,
  ctx: PlanContext
): void {
  const carried = carriedAlertFields(live, desired.value.webhookId, ctx.settings.mode)
  const kept = Object.keys(carried).filter(k => clean(carried[k]) !== undefined)
  if (ctx.settings.mode === 'managed' && (live.channels?.length ?? 0) > 1) {
    change.notes.push(
      "it has more than one channel (set in the UI); the managed API takes only `channel`, so an update keeps only the manifest's"
    )
  }
  // Only then the manifest position: positions cost a parse.
  if (kept.length > 0) ctx.report(keptSettingsNotice(`alert "${desired.name}"`, kept, desired.source))
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
          a.dashboardId === body.dashboardId &&
          sameId(a.tileId, body.tileId as RawId)
      ),
    adopted: found => ({ status: 'adopted', id: found.id })
  })
}
