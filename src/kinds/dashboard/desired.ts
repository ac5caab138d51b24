/**
 * What the manifests ask for: each dashboard with its tiles as the server will receive them, data
 * sources resolved from names to ids (an unknown name is a plan error at its line).
 */
import { diagnostic, type SourceLocation } from '../../diagnostics.js'
import { formatPath, type PathSegment } from '../../manifest/path.js'
import type { Located } from '../../manifest/rules.js'
import type { DashboardSpec, SeriesSpec, TileConfigSpec, TileSpec } from '../../manifest/schema.js'
import type { Desired, PlanContext } from '../kind.js'
import { resolveById, resolveByName } from '../resolve.js'

export interface DesiredDashboard {
  spec: DashboardSpec
  located: Located<DashboardSpec>
  /** Tiles as they will be sent (sources resolved to ids), in manifest order. */
  tiles: Array<{ spec: TileSpec; body: Record<string, unknown> }>
}

export function desiredDashboards(ctx: PlanContext): Desired<DesiredDashboard>[] {
  return ctx.manifests.dashboards.map(located => {
    const { spec, doc } = located
    const tiles = (spec.tiles ?? []).map((tile, i) => ({
      spec: tile,
      body: tileBody(tile, ['tiles', i], located, ctx)
    }))
    return {
      name: spec.name,
      address: `Dashboard/${spec.name}`,
      // A getter: positions are built only for what the plan shows.
      get source() {
        return doc.locate(['name'])
      },
      value: { spec, located, tiles }
    }
  })
}

/** The tile as the server will receive it: the manifest's form, with data sources resolved to ids. */
function tileBody(
  tile: TileSpec,
  path: PathSegment[],
  located: Located<DashboardSpec>,
  ctx: PlanContext
): Record<string, unknown> {
  const body: Record<string, unknown> = { name: tile.name, x: tile.x, y: tile.y, w: tile.w, h: tile.h }
  if (tile.series) {
    if (tile.asRatio !== undefined) body.asRatio = tile.asRatio
    body.series = tile.series.map((s, i) =>
      seriesBody(s, resolveSource(s, [...path, 'series', i], located, ctx))
    )
  } else if (tile.config) {
    body.config = configBody(tile.config, resolveSource(tile.config, [...path, 'config'], located, ctx))
  }
  return body
}

function resolveSource(
  ref: { source?: string; sourceId?: string } | SeriesSpec | TileConfigSpec,
  path: PathSegment[],
  located: Located<DashboardSpec>,
  ctx: PlanContext
): string | undefined {
  const { source, sourceId } = ref as { source?: string; sourceId?: string }
  if (source === undefined && sourceId === undefined) return undefined
  const sources = ctx.live.sources.map(s => ({ id: s.id, name: s.name }))
  const field = source !== undefined ? 'source' : 'sourceId'
  const resolution =
    source !== undefined
      ? resolveByName(sources, source, 'data source')
      : resolveById(sources, sourceId!, 'data source')
  if ('id' in resolution) return resolution.id
  const at: SourceLocation = located.doc.locate([...path, field])
  ctx.report(diagnostic('plan', 'error', resolution.error, { ...at, field: formatPath([...path, field]) }))
  return `unresolved:${source ?? sourceId}`
}

function seriesBody(s: SeriesSpec, sourceId: string | undefined): Record<string, unknown> {
  if (s.type === 'markdown') return { type: 'markdown', content: s.content }
  const { source: _source, sourceId: _id, ...rest } = s as SeriesSpec & { source?: string; sourceId?: string }
  const body: Record<string, unknown> = { ...rest }
  if (sourceId !== undefined) body.sourceId = sourceId
  // The published spec requires where, whereLanguage and (time, table) groupBy; send their defaults.
  body.where = s.where ?? ''
  body.whereLanguage = s.whereLanguage ?? 'lucene'
  if ((s.type === 'time' || s.type === 'table') && s.groupBy === undefined) body.groupBy = []
  return body
}

function configBody(c: TileConfigSpec, sourceId: string | undefined): Record<string, unknown> {
  const {
    source: _source,
    sourceId: _id,
    ...rest
  } = c as TileConfigSpec & { source?: string; sourceId?: string }
  const body: Record<string, unknown> = { ...rest }
  if (sourceId !== undefined) body.sourceId = sourceId
  if (Array.isArray(body.groupBy)) body.groupBy = body.groupBy.join(',')
  if (c.displayType === 'search') {
    if (Array.isArray(body.select)) body.select = body.select.join(', ')
    // The managed API requires it on a search config (ClickStackSearchChartConfig); lucene is the default.
    body.whereLanguage = c.whereLanguage ?? 'lucene'
  }
  return body
}
