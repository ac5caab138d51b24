/**
 * `check-queries`: run each changed tile's query over the last hour, and replay each changed alert over
 * the last 24 hours, so a reviewer sees whether a query works and whether a threshold is sane before
 * anything is applied. Self-hosted only (CONTRACT.md: charts are a self-hosted route). The queries go
 * through the same paced client as everything else, so they count against the rate limit.
 */
import type { ObservabilityApi } from '../api/client.js'
import type { SeriesPoint } from '../api/schemas.js'
import { diagnostic, type Diagnostic } from '../diagnostics.js'
import { errorMessage } from '../error-message.js'
import type { DesiredAlert } from '../kinds/alert.js'
import type { DesiredDashboard } from '../kinds/dashboard/desired.js'
import type { PlannedChange } from '../kinds/kind.js'
import { normalizeGroupBy, seriesToConfig, type SeriesLike } from '../kinds/tile-normal-form.js'
import type { Logger } from '../log.js'
import { AGG_FNS } from '../manifest/vocabulary.js'

const HOUR = 3_600_000
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

export async function checkQueries(
  api: ObservabilityApi,
  planned: readonly PlannedChange[],
  options: { mode: 'self-hosted' | 'managed'; now: Date; log: Logger }
): Promise<Diagnostic[]> {
  if (options.mode !== 'self-hosted') {
    return [
      diagnostic(
        'plan',
        'notice',
        'check-queries runs in self-hosted mode only: the managed API has no charts route'
      )
    ]
  }
  const out: Diagnostic[] = []
  const end = options.now.getTime()
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
    const d = pc.desired.value as DesiredDashboard
    const changedTiles = new Set(
      change.fields
        .map(f => /^tiles\["((?:[^"\\]|\\.)*)"\]/.exec(f.path)?.[1])
        .filter(Boolean)
        .map(n => JSON.parse(`"${n}"`) as string)
    )
    for (const [i, tile] of d.tiles.entries()) {
      if (change.action === 'update' && !changedTiles.has(tile.spec.name)) continue
      const query = tileQuery(tile.body)
      if (!query) continue
      const at = { ...d.located.doc.locate(['tiles', i, 'name']), field: `tiles[${i}]` }
      try {
        const points = await api.querySeries({
          ...query,
          startTime: end - HOUR,
          endTime: end,
          granularity: '1m'
        })
        if (points.length === 0) {
          out.push(
            diagnostic(
              'plan',
              'warning',
              `tile "${tile.spec.name}": the query returns no data over the last hour`,
              at
            )
          )
        } else {
          change.evidence = [
            ...(change.evidence ?? []),
            `tile "${tile.spec.name}": ${points.length} data point(s) over the last hour`
          ]
        }
      } catch (e) {
        out.push(
          diagnostic(
            'plan',
            'error',
            `tile "${tile.spec.name}": the query fails on the server: ${errorMessage(e)}`,
            at
          )
        )
      }
    }
  }

  for (const pc of planned) {
    const { change } = pc
    if (change.kind !== 'Alert' || !pc.desired || !['create', 'update', 'replace'].includes(change.action))
      continue
    const a = (pc.desired.value as DesiredAlert).spec
    const tile = dashboards.get(a.dashboard)?.tiles.find(t => t.spec.name === a.tile)
    const query = tile ? tileQuery(tile.body) : undefined
    const interval = INTERVAL_MS[a.interval]
    if (!query || !interval) continue
    try {
      const points = await api.querySeries({
        series: query.series.slice(0, 1),
        startTime: end - 24 * HOUR,
        endTime: end,
        granularity: a.interval
      })
      const windows = Math.round((24 * HOUR) / interval)
      const firing = countFiring(points, a, (query.series[0]?.aggFn as string) === 'count', windows)
      change.evidence = [
        ...(change.evidence ?? []),
        `over the last 24 h it would have fired in ${firing.fired} of ${windows} ${a.interval} windows at threshold ${a.thresholdType} ${a.threshold}${a.thresholdMax !== undefined ? `..${a.thresholdMax}` : ''}${firing.max !== undefined ? ` (highest value ${firing.max})` : ''}`
      ]
    } catch (e) {
      out.push(
        diagnostic(
          'plan',
          'warning',
          `alert "${a.name}": could not replay its query: ${errorMessage(e)}`,
          a ? pc.desired.source : undefined
        )
      )
    }
  }
  return out
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
