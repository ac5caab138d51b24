/**
 * What the manifests ask for: each dashboard with its tiles and filters as the server will receive them, data
 * sources and connections resolved from names to ids, or to placeholders for ones this run creates
 * (references.ts; an unknown name is a plan error at its line). Container ids and dashboard link-outs depend
 * on the live dashboard, so they are settled later (layout.ts, links.ts).
 */
import { isMetricItem, METRIC_VALUE_EXPRESSION } from '../../manifest/metric-item.js'
import type { PathSegment } from '../../manifest/path.js'
import type { Located } from '../../manifest/rules.js'
import type { AnyTileConfigSpec, DashboardSpec, SeriesSpec, TileSpec } from '../../manifest/schema.js'
import { DesiredAt } from '../desired-at.js'
import type { Desired, PlanContext } from '../kind.js'
import type { ResourceKind } from '../../plan/types.js'
import { filterBody } from './filters.js'
import { linkBody } from './links.js'

/** The fields of a dashboard's manifest its requests read. */
export type RequestSpec = Pick<
  DashboardSpec,
  'name' | 'tags' | 'containers' | 'savedQuery' | 'savedQueryLanguage' | 'savedFilterValues'
>
/** The fields of a tile's manifest its requests read (the rest is in its body). */
export type RequestTileSpec = Pick<TileSpec, 'name' | 'id' | 'container' | 'tab'>

/** How an update is sent (patch.ts): patches of these tiles (by name; none: name and tags only), or one PUT. */
export type DashboardWrite = { via: 'patch'; tiles: string[] } | { via: 'put' }

/** What a dashboard's requests are built from: what they read of a desired dashboard. */
export interface DashboardRequest {
  spec: RequestSpec
  /** Tiles as they will be sent (sources resolved to ids, no container ids yet), in manifest order. */
  tiles: ReadonlyArray<{ readonly spec: RequestTileSpec; readonly body: Record<string, unknown> }>
  /** Filters as they will be sent, without ids. */
  filters: Array<Record<string, unknown>>
  /** Dashboards this apply creates that a link-out of this one names: written first (links.ts). */
  waitsFor: Set<string>
  /** A link-out names a dashboard created later in this apply (or this one): set by a second request. */
  linksLater: boolean
  /** How an update is sent (patch.ts), as the plan decided and said; absent: a PUT. */
  write?: DashboardWrite
}

export interface DesiredDashboard extends DashboardRequest {
  spec: DashboardSpec
  located: Located<DashboardSpec>
  tiles: DesiredTile[]
}

export function desiredDashboards(ctx: PlanContext): Desired<DesiredDashboard>[] {
  // Dashboards of one name (validation allows them only when each is pinned by id) are told apart by the id, as
  // orphans are: a saved plan keys its records by address.
  const named = new Map<string, number>()
  for (const { spec } of ctx.manifests.specs.Dashboard) named.set(spec.name, (named.get(spec.name) ?? 0) + 1)
  return ctx.manifests.specs.Dashboard.map(located => {
    const { spec, doc } = located
    const tiles = (spec.tiles ?? []).map((tile, i) => desiredTile(tile, ['tiles', i], located, ctx))
    const filters = (spec.filters ?? []).map((f, i) => {
      const path = ['filters', i]
      const appliesTo = f.appliesToSources?.map((name, j) =>
        resolveSource({ source: name }, [...path, 'appliesToSources', j], located, ctx, '')
      )
      const ids = f.appliesToSourceIds?.map((id, j) =>
        resolveSource({ sourceId: id }, [...path, 'appliesToSourceIds', j], located, ctx, '')
      )
      return filterBody(f, resolveSource(f, path, located, ctx), (appliesTo ?? ids) as string[] | undefined)
    })
    return new DesiredAt<DesiredDashboard>(
      spec.name,
      named.get(spec.name)! > 1 && spec.id !== undefined
        ? `Dashboard/${spec.name}@${spec.id}`
        : `Dashboard/${spec.name}`,
      { spec, located, tiles, filters, waitsFor: new Set<string>(), linksLater: false },
      doc
    )
  })
}

/** A desired tile: its spec, and its body as the server will receive it (data sources resolved to ids). */
export interface DesiredTile {
  readonly spec: TileSpec
  readonly body: Record<string, unknown>
}

/**
 * A series tile keeps its spec and its resolved source ids, and makes its body when asked: a plan of
 * thousands of dashboards holds each tile once, not a second copy of it as sent.
 */
class SeriesTile implements DesiredTile {
  constructor(
    readonly spec: TileSpec,
    private readonly sourceIds: ReadonlyArray<string | undefined>
  ) {}

  get body(): Record<string, unknown> {
    const { spec } = this
    const body = tileLayout(spec)
    if (spec.asRatio !== undefined) body.asRatio = spec.asRatio
    body.series = (spec.series ?? []).map((s, i) => seriesBody(s, this.sourceIds[i]))
    return body
  }
}

/** The tile's references resolved now (each problem reported at its line); a series tile's body made on use. */
function desiredTile(
  tile: TileSpec,
  path: PathSegment[],
  located: Located<DashboardSpec>,
  ctx: PlanContext
): DesiredTile {
  if (tile.series)
    return new SeriesTile(
      tile,
      tile.series.map((s, i) => resolveSource(s, [...path, 'series', i], located, ctx))
    )
  return { spec: tile, body: tileBody(tile, path, located, ctx) }
}

const tileLayout = (tile: TileSpec): Record<string, unknown> => ({
  name: tile.name,
  x: tile.x,
  y: tile.y,
  w: tile.w,
  h: tile.h
})

/** A config tile (or one with neither form) as the server will receive it: data sources resolved to ids. */
function tileBody(
  tile: TileSpec,
  path: PathSegment[],
  located: Located<DashboardSpec>,
  ctx: PlanContext
): Record<string, unknown> {
  const body = tileLayout(tile)
  if (tile.config) {
    const cpath = [...path, 'config']
    body.config = configBody(tile.config, resolveSource(tile.config, cpath, located, ctx))
    if (tile.config.configType === 'sql') {
      delete (body.config as Record<string, unknown>).connection
      // Undefined only when the tile names no connection, which validation refuses (rules.ts).
      ;(body.config as Record<string, unknown>).connectionId = resolveReference(
        'Connection',
        'connection',
        tile.config,
        cpath,
        located,
        ctx
      )
    }
    if (tile.config.configType !== 'sql' && tile.config.displayType === 'table' && tile.config.onClick) {
      const at = [...cpath, 'onClick', 'target']
      ;(body.config as Record<string, unknown>).onClick = linkBody(tile.config.onClick, ref =>
        resolveSource({ source: ref.source, sourceId: ref.id }, at, located, ctx)!
      )
    }
  }
  return body
}

/**
 * A data source named by `source` or `sourceId`: its live id, or `new:Source/<name>` for one this run creates
 * (bound at apply time), or `unresolved:...` after reporting why at `path` (and its field, unless `field`
 * says the path already names it: '').
 */
export function resolveSource(
  ref: { source?: string; sourceId?: string } | SeriesSpec | AnyTileConfigSpec,
  path: PathSegment[],
  located: Located<DashboardSpec>,
  ctx: PlanContext,
  field?: string
): string | undefined {
  return resolveReference('Source', 'source', ref, path, located, ctx, field)
}

/**
 * A reference written as `<field>` (by name) or `<field>Id` (by id) in the record at `path`; an error is
 * reported at that field, or at `leaf` under `path` when given ('' for `path` itself).
 */
function resolveReference(
  kind: ResourceKind,
  field: string,
  ref: object,
  path: PathSegment[],
  located: Located<DashboardSpec>,
  ctx: PlanContext,
  leaf?: string
): string | undefined {
  // The manifest schema makes both strings where present.
  const r = ref as Record<string, string | undefined>
  const name = r[field]
  const id = r[`${field}Id`]
  if (name === undefined && id === undefined) return undefined
  return ctx.refs.resolve({
    kind,
    name,
    id,
    at: { doc: located.doc, path: atLeaf(path, leaf ?? (name !== undefined ? field : `${field}Id`)) }
  }).value
}

function seriesBody(s: SeriesSpec, sourceId: string | undefined): Record<string, unknown> {
  if (s.type === 'markdown') return { type: 'markdown', content: s.content }
  // The rest is the body. Not a spread copy of it with keys added after (`{ ...rest }`, then `body.x = ...`): in
  // optimised code Node 20's V8 makes such an object a hidden class of its own, in the old generation, at every
  // call: ~10 MB at 5,000 dashboards that only a full collection frees, which a plan's run never reaches.
  const { source: _source, sourceId: _id, ...body }: Record<string, unknown> = s
  if (sourceId !== undefined) body.sourceId = sourceId
  // The published spec requires where, whereLanguage and (time, table) groupBy; send their defaults.
  body.where = s.where ?? ''
  body.whereLanguage = s.whereLanguage ?? 'lucene'
  if ((s.type === 'time' || s.type === 'table') && s.groupBy === undefined) body.groupBy = []
  return body
}

function configBody(c: AnyTileConfigSpec, sourceId: string | undefined): Record<string, unknown> {
  // The rest is the body, not a spread copy of it (seriesBody says why).
  const { source: _source, sourceId: _id, ...body }: Record<string, unknown> = c
  if (sourceId !== undefined) body.sourceId = sourceId
  if (Array.isArray(body.groupBy)) body.groupBy = body.groupBy.join(',')
  if (c.displayType !== 'heatmap' && Array.isArray(body.select)) body.select = body.select.map(selectItemBody)
  if (c.displayType === 'search') {
    if (Array.isArray(body.select)) body.select = body.select.join(', ')
    // The managed API requires it on a search config (ClickStackSearchChartConfig); lucene is the default.
    body.whereLanguage = c.whereLanguage ?? 'lucene'
  }
  return body
}

/**
 * A builder select item with its filter and language always present: HyperDX 2.36 stores a missing
 * `whereLanguage` as `aggConditionLanguage: null` (udash convertToInternalSelectItem), which the v2 read shows as
 * lucene but the web UI's own save then refuses (400), on every tile of the dashboard. A metric item without a
 * value expression gets the one the renderer ignores (metric-item.ts): the v2 schema refuses a non-count item
 * without one (utils/zod.ts externalDashboardSelectItemSchema).
 */
function selectItemBody(item: unknown): unknown {
  if (typeof item !== 'object' || item === null) return item
  const s = item as Record<string, unknown>
  const body: Record<string, unknown> = {
    ...s,
    where: s.where ?? '',
    whereLanguage: s.whereLanguage ?? 'lucene'
  }
  if (s.valueExpression === undefined && s.aggFn !== 'count' && isMetricItem(s))
    body.valueExpression = METRIC_VALUE_EXPRESSION
  return body
}

const atLeaf = (path: PathSegment[], leaf: string): PathSegment[] => (leaf === '' ? path : [...path, leaf])
