/**
 * `check-queries`: run each changed tile's query over the last 24 hours, and replay each changed alert over
 * the last 7 days, so a reviewer sees whether a query works and whether a threshold is sane before
 * anything is applied. Self-hosted only (CONTRACT.md: charts are a self-hosted route). The queries go
 * through the same paced client as everything else, so they count against the rate limit: one request per
 * changed tile and per changed alert. What they return is also kept for the report's data preview
 * (plan/preview.ts), each display type as itself (tile-preview.ts), an alert's windows as the server's check
 * counts them (alert-replay.ts), with a line for each tile that cannot be queried and why. Values from the
 * data pass `preview-values` (mask-value.ts) as they are collected: no raw one reaches the plan file, an
 * evidence line or a diagnostic.
 */
import type { ObservabilityApi } from '../api/client.js'
import type { LiveDashboard } from '../api/schemas.js'
import { diagnostic, type Diagnostic } from '../diagnostics.js'
import { errorMessage } from '../error-message.js'
import type { DesiredAlert } from '../kinds/alert.js'
import type { DesiredDashboard } from '../kinds/dashboard/desired.js'
import { pairTiles, tileSpecs } from '../kinds/dashboard/tiles.js'
import type { PlannedChange } from '../kinds/kind.js'
import type { Logger } from '../log.js'
import { maskPersonal, type ValuesMode } from '../mask-value.js'
import { keyedField, keyText } from '../plan/diff.js'
import type { AlertSeries, SeriesStatus, TileSeries } from '../plan/preview.js'
import { replay, replayAxis } from './alert-replay.js'
import { DAY, GRANULARITY_MS, rangeOf } from './series-math.js'
import { askSeries } from './series-rows.js'
import { TILE_GRANULARITY, previewTile, tileAxis } from './tile-preview.js'
import { displayTypeOf, numberFormatOf, tileQuery, whyNotQueried } from './tile-query.js'

export { crosses } from './alert-replay.js'

/** An alert's replay: the last 7 days, one bucket per window. */
const ALERT_RANGE = 7 * DAY

/** Where a query's findings go: the plan's diagnostics, and (when a preview is kept) its series. */
interface Findings {
  out: Diagnostic[]
  keep?: { tiles?: TileSeries[]; alerts?: AlertSeries[] }
  /** When the check runs (ms since the epoch): each range ends at the last whole bucket before it. */
  now: number
  values: ValuesMode
}

export async function checkQueries(
  api: ObservabilityApi,
  planned: readonly PlannedChange[],
  options: {
    mode: 'self-hosted' | 'managed'
    now: Date
    log: Logger
    /** Filled with each queried series and each tile that cannot be queried, for the report's preview. */
    preview?: { tiles?: TileSeries[]; alerts?: AlertSeries[] }
    /** What is kept of values from the data (`preview-values`; default mask). */
    previewValues?: ValuesMode
  }
): Promise<Diagnostic[]> {
  const now = options.now.getTime()
  const keep = options.preview
  if (options.mode !== 'self-hosted') {
    if (keep) cannotQuery(planned, keep, now)
    return [
      diagnostic(
        'plan',
        'notice',
        'check-queries runs in self-hosted mode only: the managed API has no charts route'
      )
    ]
  }
  const findings: Findings = { out: [], keep, now, values: options.previewValues ?? 'mask' }
  const dashboards = new Map<string, DesiredDashboard>()
  for (const pc of planned) {
    if (pc.change.kind === 'Dashboard' && pc.desired)
      dashboards.set(pc.desired.name, pc.desired.value as DesiredDashboard)
  }
  for (const pc of planned) {
    const { change } = pc
    if (
      change.kind !== 'Dashboard' ||
      !pc.desired ||
      !['create', 'update', 'replace'].includes(change.action)
    )
      continue
    await queryTiles(api, pc, findings)
  }
  for (const pc of planned) {
    const { change } = pc
    if (change.kind !== 'Alert' || !pc.desired || !['create', 'update', 'replace'].includes(change.action))
      continue
    await replayAlert(api, pc, dashboards, findings)
  }
  return findings.out
}

/** A server's message, with anything personal-looking masked unless values are shown (it may quote a query's text). */
const said = (e: unknown, values: ValuesMode) =>
  values === 'show' ? errorMessage(e) : maskPersonal(errorMessage(e))

/** Each created tile's query, and each changed one's of an update, over the last 24 hours. */
async function queryTiles(api: ObservabilityApi, pc: PlannedChange, findings: Findings): Promise<void> {
  const { out, keep, now, values } = findings
  const { change } = pc
  const d = pc.desired!.value as DesiredDashboard
  const axis = tileAxis(now)
  for (const [i, tile, name] of tilesToQuery(pc, d)) {
    const query = tileQuery(tile.body)
    const displayType = displayTypeOf(tile.body)
    const kept: TileSeries = {
      ...tileSeries(d.spec.name, name, displayType, now, 'ok'),
      ...numberFormatOf(tile.body)
    }
    if (!query) {
      keep?.tiles?.push({ ...kept, status: 'unsupported', reason: whyNotQueried(tile.body) })
      continue
    }
    const at = { ...d.located.doc.locate(['tiles', i, 'name']), field: `tiles[${i}]` }
    try {
      const found = await previewTile(displayType, { api, query, body: tile.body, axis, values })
      keep?.tiles?.push({ ...kept, ...found.fields, status: found.empty ? 'empty' : 'ok' })
      if (found.empty) {
        out.push(
          diagnostic(
            'plan',
            'warning',
            `tile "${name}": the query returns no data over the last 24 hours`,
            at
          )
        )
      } else {
        change.evidence = [...(change.evidence ?? []), `tile "${name}": ${found.said}`]
      }
    } catch (e) {
      keep?.tiles?.push({ ...kept, status: 'error', reason: said(e, values) })
      out.push(
        diagnostic('plan', 'error', `tile "${name}": the query fails on the server: ${said(e, values)}`, at)
      )
    }
  }
}

/** A created or changed alert's query replayed over the last 7 days: the windows it would have fired in. */
async function replayAlert(
  api: ObservabilityApi,
  pc: PlannedChange,
  dashboards: ReadonlyMap<string, DesiredDashboard>,
  findings: Findings
): Promise<void> {
  const { out, keep, now, values: mode } = findings
  const { change } = pc
  const a = (pc.desired!.value as DesiredAlert).spec
  const tile =
    a.dashboard === undefined
      ? undefined
      : dashboards
          .get(a.dashboard)
          ?.tiles.find(t => (a.tileId !== undefined ? t.spec.id === a.tileId : t.spec.name === a.tile))
  const query = tile ? tileQuery(tile.body) : undefined
  const step = GRANULARITY_MS[a.interval]
  const kept: AlertSeries = { ...alertSeries(a, now, 'ok'), ...(tile ? numberFormatOf(tile.body) : {}) }
  const shifted = (a.scheduleOffsetMinutes ?? 0) > 0 || a.scheduleStartAt !== undefined
  if (!query || !step || shifted) {
    keep?.alerts?.push({
      ...kept,
      status: 'unsupported',
      reason: !tile
        ? a.dashboard === undefined
          ? 'it watches a saved search, not a tile: nothing to chart'
          : 'its tile is not in the manifests of this plan'
        : !query
          ? whyNotQueried(tile.body)
          : !step
            ? `its interval ${a.interval} cannot be replayed`
            : "its windows are shifted by its schedule, and the charts route's buckets are aligned to the epoch: the replay could not count the same windows"
    })
    return
  }
  const axis = replayAxis(now, step, ALERT_RANGE)
  // The check reads the numConsecutiveWindows - 1 windows before each: asked too, so the first ones count right.
  const lookBack = Math.max(0, (a.numConsecutiveWindows ?? 1) - 1)
  try {
    const { endTime } = rangeOf(axis)
    const points = await askSeries(api, {
      series: query.series.slice(0, 1),
      startTime: axis.start - lookBack * step,
      endTime,
      granularity: a.interval
    })
    const r = replay(points, axis, a, lookBack)
    const empty = r.values.every(v => v === null)
    keep?.alerts?.push({
      ...kept,
      startTime: axis.start,
      endTime,
      status: empty ? 'empty' : 'ok',
      axis,
      // The check evaluates a window without rows as 0 (checkAlerts/index.ts), whatever the aggregate.
      fill: 'zero',
      values: r.values,
      ...(a.numConsecutiveWindows !== undefined ? { numConsecutiveWindows: a.numConsecutiveWindows } : {}),
      firing: r.firing,
      fired: r.firing.length,
      windows: axis.count
    })
    const consecutive =
      (a.numConsecutiveWindows ?? 1) > 1 ? `, ${a.numConsecutiveWindows} windows in a row` : ''
    change.evidence = [
      ...(change.evidence ?? []),
      `over the last 7 days it would have fired in ${r.firing.length} of ${axis.count} ${a.interval} windows at threshold ${a.thresholdType} ${a.threshold}${a.thresholdMax !== undefined ? `..${a.thresholdMax}` : ''}${consecutive}${r.highest !== undefined ? ` (highest value ${r.highest})` : ''}; the server's check notifies again at every window that still crosses`
    ]
  } catch (e) {
    keep?.alerts?.push({ ...kept, status: 'error', reason: said(e, mode) })
    out.push(
      diagnostic(
        'plan',
        'warning',
        `alert "${a.name}": could not replay its query: ${said(e, mode)}`,
        pc.desired!.source
      )
    )
  }
}

/** Managed mode: every created or changed tile and alert says why it has no data preview. */
function cannotQuery(
  planned: readonly PlannedChange[],
  keep: { tiles?: TileSeries[]; alerts?: AlertSeries[] },
  now: number
): void {
  const reason = 'managed mode: the managed API has no charts route'
  for (const pc of planned) {
    const { change } = pc
    if (!pc.desired || !['create', 'update', 'replace'].includes(change.action)) continue
    if (change.kind === 'Dashboard') {
      const d = pc.desired.value as DesiredDashboard
      for (const [, tile, name] of tilesToQuery(pc, d)) {
        keep.tiles?.push(tileSeries(d.spec.name, name, displayTypeOf(tile.body), now, 'managed', reason))
      }
    } else if (change.kind === 'Alert') {
      keep.alerts?.push(alertSeries((pc.desired.value as DesiredAlert).spec, now, 'managed', reason))
    }
  }
}

/** A tile's preview entry before its data: which tile, and the range its query covers. */
function tileSeries(
  dashboard: string,
  tile: string,
  displayType: string,
  now: number,
  status: SeriesStatus,
  reason?: string
): TileSeries {
  const { startTime, endTime } = rangeOf(tileAxis(now))
  return {
    dashboard,
    tile,
    displayType,
    status,
    ...(reason !== undefined ? { reason } : {}),
    startTime,
    endTime,
    granularity: TILE_GRANULARITY
  }
}

/** An alert's preview entry before its data: what it watches, the range it is replayed over, its threshold. */
function alertSeries(
  a: DesiredAlert['spec'],
  now: number,
  status: SeriesStatus,
  reason?: string
): AlertSeries {
  const step = GRANULARITY_MS[a.interval]
  const { startTime, endTime } = step
    ? rangeOf(replayAxis(now, step, ALERT_RANGE))
    : { startTime: now - ALERT_RANGE, endTime: now }
  return {
    alert: a.name,
    ...(a.dashboard !== undefined ? { dashboard: a.dashboard } : {}),
    ...(a.tile !== undefined ? { tile: a.tile } : {}),
    status,
    ...(reason !== undefined ? { reason } : {}),
    startTime,
    endTime,
    granularity: a.interval,
    thresholdType: a.thresholdType,
    threshold: a.threshold,
    ...(a.thresholdMax !== undefined ? { thresholdMax: a.thresholdMax } : {}),
    ...(a.numConsecutiveWindows !== undefined ? { numConsecutiveWindows: a.numConsecutiveWindows } : {})
  }
}

/** A created dashboard's tiles, or an updated one's changed tiles (by their keys in the change's paths). */
function tilesToQuery(
  pc: PlannedChange,
  d: DesiredDashboard
): Array<[number, DesiredDashboard['tiles'][number], string]> {
  // Named by the key the plan's paths and the layout preview use: a repeated name with its short id.
  const keys = pairTiles(tileSpecs(d), pc.live as LiveDashboard | undefined).desired
  const all = d.tiles.map((t, i): [number, DesiredDashboard['tiles'][number], string] => [
    i,
    t,
    keyText(keys[i]!.key)
  ])
  if (pc.change.action !== 'update') return all
  const changed = new Set(pc.change.fields.flatMap(f => keyedField(f.path, 'tiles')?.key ?? []))
  return all.filter(([i]) => changed.has(keys[i]!.key))
}
