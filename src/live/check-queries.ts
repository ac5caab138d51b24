/**
 * `check-queries`: run each changed tile's query over the last 24 hours, and replay each changed alert over
 * the last 7 days, so a reviewer sees whether a query works and whether a threshold is sane before
 * anything is applied. Self-hosted only (CONTRACT.md: charts are a self-hosted route). The queries go
 * through the same paced client as everything else, so they count against the rate limit: one request per
 * changed tile and per changed alert. What they return is also kept for the report's data preview
 * (plan/preview.ts), with a line for each tile that cannot be queried and why.
 */
import type { ObservabilityApi } from '../api/client.js'
import type { LiveDashboard, SeriesPoint } from '../api/schemas.js'
import { diagnostic, type Diagnostic } from '../diagnostics.js'
import { errorMessage } from '../error-message.js'
import type { DesiredAlert } from '../kinds/alert.js'
import type { DesiredDashboard } from '../kinds/dashboard/desired.js'
import { pairTiles, tileSpecs } from '../kinds/dashboard/tiles.js'
import type { PlannedChange } from '../kinds/kind.js'
import { normalizeGroupBy, seriesToConfig, type SeriesLike } from '../kinds/tile-normal-form.js'
import type { Logger } from '../log.js'
import { AGG_FNS } from '../manifest/vocabulary.js'
import { keyedField, keyText } from '../plan/diff.js'
import type { AlertSeries, SeriesStatus, TileSeries } from '../plan/preview.js'

const HOUR = 3_600_000
/** A tile's query: the last 24 hours in 48 buckets. */
const TILE_RANGE = 24 * HOUR
const TILE_GRANULARITY = '30m'
/** An alert's replay: the last 7 days, one bucket per window. */
const ALERT_RANGE = 7 * 24 * HOUR
/** Points kept for an alert's chart (a week of 5m windows is 2,016): each one the group's most alarming value. */
const ALERT_POINTS = 168
const QUERYABLE = new Set(['line', 'stacked_bar', 'table', 'number', 'pie', 'bar'])
/** The charts route takes the tile functions except these (OpenAPI ChartSeries). */
const CHART_AGG_FNS = new Set<string>(AGG_FNS.filter(f => !['any', 'none', 'increase'].includes(f)))
const INTERVAL_MS: Record<string, number> = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': HOUR,
  '6h': 6 * HOUR,
  '12h': 12 * HOUR,
  '1d': 24 * HOUR
}

interface TileQuery {
  series: Array<Record<string, unknown>>
}

/** Where a query's findings go: the plan's diagnostics, and (when a preview is kept) its series. */
interface Findings {
  out: Diagnostic[]
  keep?: { tiles?: TileSeries[]; alerts?: AlertSeries[] }
  /** The end of the ranges queried (ms since the epoch). */
  end: number
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
  }
): Promise<Diagnostic[]> {
  const end = options.now.getTime()
  const keep = options.preview
  if (options.mode !== 'self-hosted') {
    if (keep) cannotQuery(planned, keep, end)
    return [
      diagnostic(
        'plan',
        'notice',
        'check-queries runs in self-hosted mode only: the managed API has no charts route'
      )
    ]
  }
  const findings: Findings = { out: [], keep, end }
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

/** Each created tile's query, and each changed one's of an update, over the last 24 hours. */
async function queryTiles(api: ObservabilityApi, pc: PlannedChange, findings: Findings): Promise<void> {
  const { out, keep, end } = findings
  const { change } = pc
  const d = pc.desired!.value as DesiredDashboard
  for (const [i, tile, name] of tilesToQuery(pc, d)) {
    const query = tileQuery(tile.body)
    const kept: TileSeries = {
      ...tileSeries(d.spec.name, name, displayTypeOf(tile.body), end, 'ok'),
      ...numberFormatOf(tile.body)
    }
    if (!query) {
      keep?.tiles?.push({ ...kept, status: 'unsupported', reason: whyNotQueried(tile.body) })
      continue
    }
    const at = { ...d.located.doc.locate(['tiles', i, 'name']), field: `tiles[${i}]` }
    try {
      const points = await api.querySeries({
        ...query,
        startTime: end - TILE_RANGE,
        endTime: end,
        granularity: TILE_GRANULARITY
      })
      keep?.tiles?.push({ ...kept, ...chartedGroup(points), status: points.length === 0 ? 'empty' : 'ok' })
      if (points.length === 0) {
        out.push(
          diagnostic(
            'plan',
            'warning',
            `tile "${name}": the query returns no data over the last 24 hours`,
            at
          )
        )
      } else {
        change.evidence = [
          ...(change.evidence ?? []),
          `tile "${name}": ${points.length} data point(s) over the last 24 hours`
        ]
      }
    } catch (e) {
      keep?.tiles?.push({ ...kept, status: 'error', reason: errorMessage(e) })
      out.push(
        diagnostic('plan', 'error', `tile "${name}": the query fails on the server: ${errorMessage(e)}`, at)
      )
    }
  }
}

/** A created or changed alert's query replayed over the last 7 days: how often it would have fired. */
async function replayAlert(
  api: ObservabilityApi,
  pc: PlannedChange,
  dashboards: ReadonlyMap<string, DesiredDashboard>,
  findings: Findings
): Promise<void> {
  const { out, keep, end } = findings
  const { change } = pc
  const a = (pc.desired!.value as DesiredAlert).spec
  const tile =
    a.dashboard === undefined
      ? undefined
      : dashboards
          .get(a.dashboard)
          ?.tiles.find(t => (a.tileId !== undefined ? t.spec.id === a.tileId : t.spec.name === a.tile))
  const query = tile ? tileQuery(tile.body) : undefined
  const interval = INTERVAL_MS[a.interval]
  const kept: AlertSeries = { ...alertSeries(a, end, 'ok'), ...(tile ? numberFormatOf(tile.body) : {}) }
  if (!query || !interval) {
    keep?.alerts?.push({
      ...kept,
      status: 'unsupported',
      reason: !tile
        ? a.dashboard === undefined
          ? 'it watches a saved search, not a tile: nothing to chart'
          : 'its tile is not in the manifests of this plan'
        : !query
          ? whyNotQueried(tile.body)
          : `its interval ${a.interval} cannot be replayed`
    })
    return
  }
  try {
    const points = await api.querySeries({
      series: query.series.slice(0, 1),
      startTime: end - ALERT_RANGE,
      endTime: end,
      granularity: a.interval
    })
    const windows = Math.round(ALERT_RANGE / interval)
    const firing = countFiring(points, a, (query.series[0]?.aggFn as string) === 'count', windows)
    keep?.alerts?.push({
      ...kept,
      status: points.length === 0 ? 'empty' : 'ok',
      points: alarmingPoints(points, a.thresholdType),
      fired: firing.fired,
      windows
    })
    change.evidence = [
      ...(change.evidence ?? []),
      `over the last 7 days it would have fired in ${firing.fired} of ${windows} ${a.interval} windows at threshold ${a.thresholdType} ${a.threshold}${a.thresholdMax !== undefined ? `..${a.thresholdMax}` : ''}${firing.max !== undefined ? ` (highest value ${firing.max})` : ''}`
    ]
  } catch (e) {
    keep?.alerts?.push({ ...kept, status: 'error', reason: errorMessage(e) })
    out.push(
      diagnostic(
        'plan',
        'warning',
        `alert "${a.name}": could not replay its query: ${errorMessage(e)}`,
        a ? pc.desired!.source : undefined
      )
    )
  }
}

/** The tile's query in the charts route's shape, or nothing for tiles that are not aggregations. */
function tileQuery(body: Record<string, unknown>): TileQuery | undefined {
  const config =
    (body.config as Record<string, unknown> | undefined) ??
    seriesToConfig((body.series as SeriesLike[]) ?? [], undefined)
  if (
    !QUERYABLE.has(String(config.displayType)) ||
    !Array.isArray(config.select) ||
    typeof config.sourceId !== 'string'
  )
    return undefined
  const groupBy = normalizeGroupBy(config.groupBy)?.split(',') ?? []
  const series = (config.select as Array<Record<string, unknown>>)
    .filter(s => CHART_AGG_FNS.has(String(s.aggFn)))
    .slice(0, 5)
    .map(s => {
      const q: Record<string, unknown> = {
        sourceId: config.sourceId,
        aggFn: s.aggFn,
        where: s.where ?? '',
        whereLanguage: s.whereLanguage ?? 'lucene',
        groupBy
      }
      if (s.valueExpression !== undefined) q.field = s.valueExpression
      // A quantile is at its level: without it the server computes a default one.
      if (s.level !== undefined) q.level = s.level
      // A metric tile queries its metric, not events.
      if (s.metricName !== undefined) q.metricName = s.metricName
      if (s.metricType !== undefined) q.metricDataType = s.metricType
      return q
    })
  return series.length > 0 ? { series } : undefined
}

/** FACTS.md threshold types: above is >=, above_exclusive is >, below is <, below_or_equal is <=. */
export function crosses(value: number, type: string, threshold: number, max?: number): boolean {
  switch (type) {
    case 'above':
      return value >= threshold
    case 'above_exclusive':
      return value > threshold
    case 'below':
      return value < threshold
    case 'below_or_equal':
      return value <= threshold
    case 'equal':
      return value === threshold
    case 'not_equal':
      return value !== threshold
    case 'between':
      return value >= threshold && value <= (max ?? threshold)
    case 'not_between':
      return value < threshold || value > (max ?? threshold)
    default:
      return false
  }
}

/** Windows where any group crossed; a count has 0 in windows without data (the server omits them). */
export function countFiring(
  points: readonly SeriesPoint[],
  alert: { thresholdType: string; threshold: number; thresholdMax?: number },
  zeroFill: boolean,
  windows: number
): { fired: number; max?: number } {
  const byBucket = new Map<string, number[]>()
  for (const p of points) {
    const v = Number(p['series_0.data'])
    if (!Number.isFinite(v)) continue
    const key = String(p.ts_bucket)
    byBucket.set(key, [...(byBucket.get(key) ?? []), v])
  }
  let fired = 0
  let max: number | undefined
  for (const values of byBucket.values()) {
    if (values.some(v => crosses(v, alert.thresholdType, alert.threshold, alert.thresholdMax))) fired++
    for (const v of values) max = max === undefined ? v : Math.max(max, v)
  }
  if (zeroFill && crosses(0, alert.thresholdType, alert.threshold, alert.thresholdMax))
    fired += Math.max(0, windows - byBucket.size)
  return { fired, max }
}

/** The tile's number format, as the server takes it (on the config, or on a series). */
function numberFormatOf(body: Record<string, unknown>): { numberFormat?: Record<string, unknown> } {
  const config = body.config as Record<string, unknown> | undefined
  const series = Array.isArray(body.series) ? (body.series as Array<Record<string, unknown>>) : []
  const format =
    config?.numberFormat ??
    (Array.isArray(config?.select)
      ? (config.select as Array<Record<string, unknown>>).find(s => s.numberFormat)?.numberFormat
      : undefined) ??
    series.find(s => s.numberFormat)?.numberFormat
  return format !== null && typeof format === 'object' && !Array.isArray(format)
    ? { numberFormat: format as Record<string, unknown> }
    : {}
}

/** How a tile draws, from either of the API's shapes (config, or series). */
function displayTypeOf(body: Record<string, unknown>): string {
  const config = body.config as Record<string, unknown> | undefined
  const series = Array.isArray(body.series) ? (body.series as Array<Record<string, unknown>>) : []
  return String(config?.displayType ?? series[0]?.type ?? series[0]?.displayType ?? 'unknown')
}

/** Why a tile's data cannot be previewed, in words. */
function whyNotQueried(body: Record<string, unknown>): string {
  const config = body.config as Record<string, unknown> | undefined
  if (config?.configType === 'sql') return 'a raw-SQL tile: the charts route runs builder queries only'
  const type = displayTypeOf(body)
  if (type === 'markdown') return 'a markdown tile: no query'
  if (type === 'search') return 'a search tile: it lists events, it charts nothing'
  return `a ${type} tile without an aggregation the charts route runs`
}

/** The first series by bucket; grouped, the group with the most buckets (the first of them on a tie). */
function chartedGroup(points: readonly SeriesPoint[]): Pick<TileSeries, 'points' | 'groups' | 'group'> {
  const byGroup = new Map<string, Array<[number, number | null]>>()
  for (const p of points) {
    const key = Array.isArray(p.group) ? p.group.map(String).join(', ') : ''
    const list = byGroup.get(key) ?? []
    list.push([bucketTime(p.ts_bucket), valueOf(p['series_0.data'])])
    byGroup.set(key, list)
  }
  if (byGroup.size === 0) return { points: [] }
  let best: [string, Array<[number, number | null]>] | undefined
  for (const entry of byGroup) if (!best || entry[1].length > best[1].length) best = entry
  const grouped = points.some(p => Array.isArray(p.group) && p.group.length > 0)
  return grouped ? { points: best![1], groups: byGroup.size, group: best![0] } : { points: best![1] }
}

/** Per bucket the most alarming value of any group, then at most ALERT_POINTS of them (each the most alarming of its run). */
function alarmingPoints(points: readonly SeriesPoint[], type: string): Array<[number, number | null]> {
  const below = type === 'below' || type === 'below_or_equal'
  const pick = (a: number, b: number) => (below ? Math.min(a, b) : Math.max(a, b))
  const byBucket = new Map<number, number>()
  for (const p of points) {
    const v = valueOf(p['series_0.data'])
    if (v === null) continue
    const t = bucketTime(p.ts_bucket)
    byBucket.set(t, byBucket.has(t) ? pick(byBucket.get(t)!, v) : v)
  }
  const all = [...byBucket].sort((a, b) => a[0] - b[0])
  if (all.length <= ALERT_POINTS) return all
  const step = Math.ceil(all.length / ALERT_POINTS)
  const out: Array<[number, number | null]> = []
  for (let i = 0; i < all.length; i += step) {
    const run = all.slice(i, i + step)
    out.push([run[0]![0], run.map(r => r[1]).reduce(pick)])
  }
  return out
}

/** A bucket's start in ms: the server gives epoch ms, or a date text. */
function bucketTime(ts: unknown): number {
  if (typeof ts === 'number') return ts
  const n = Number(ts)
  if (Number.isFinite(n)) return n
  const t = Date.parse(String(ts))
  return Number.isNaN(t) ? 0 : t
}

function valueOf(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN
  return Number.isFinite(n) ? n : null
}

/** Managed mode: every created or changed tile and alert says why it has no data preview. */
function cannotQuery(
  planned: readonly PlannedChange[],
  keep: { tiles?: TileSeries[]; alerts?: AlertSeries[] },
  end: number
): void {
  const reason = 'managed mode: the managed API has no charts route'
  for (const pc of planned) {
    const { change } = pc
    if (!pc.desired || !['create', 'update', 'replace'].includes(change.action)) continue
    if (change.kind === 'Dashboard') {
      const d = pc.desired.value as DesiredDashboard
      for (const [, tile, name] of tilesToQuery(pc, d)) {
        keep.tiles?.push(tileSeries(d.spec.name, name, displayTypeOf(tile.body), end, 'managed', reason))
      }
    } else if (change.kind === 'Alert') {
      keep.alerts?.push(alertSeries((pc.desired.value as DesiredAlert).spec, end, 'managed', reason))
    }
  }
}

/** A tile's preview entry before its points: which tile, and the range its query covers. */
function tileSeries(
  dashboard: string,
  tile: string,
  displayType: string,
  end: number,
  status: SeriesStatus,
  reason?: string
): TileSeries {
  return {
    dashboard,
    tile,
    displayType,
    status,
    ...(reason !== undefined ? { reason } : {}),
    startTime: end - TILE_RANGE,
    endTime: end,
    granularity: TILE_GRANULARITY,
    points: []
  }
}

/** An alert's preview entry before its points: what it watches, the range it is replayed over, its threshold. */
function alertSeries(
  a: DesiredAlert['spec'],
  end: number,
  status: SeriesStatus,
  reason?: string
): AlertSeries {
  return {
    alert: a.name,
    ...(a.dashboard !== undefined ? { dashboard: a.dashboard } : {}),
    ...(a.tile !== undefined ? { tile: a.tile } : {}),
    status,
    ...(reason !== undefined ? { reason } : {}),
    startTime: end - ALERT_RANGE,
    endTime: end,
    granularity: a.interval,
    points: [],
    thresholdType: a.thresholdType,
    threshold: a.threshold,
    ...(a.thresholdMax !== undefined ? { thresholdMax: a.thresholdMax } : {})
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
