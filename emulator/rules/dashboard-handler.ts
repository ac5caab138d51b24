/**
 * What the server checks after a v2 dashboard body passed its schema (HyperDX 2.36
 * packages/api/src/routers/external-api/v2/utils/dashboards.ts validateDashboardTiles), in its order: container
 * references, then what the tiles and filters refer to (sources, connections), then the source kinds some tiles need,
 * then the onClick targets. The first failure is the answer.
 */
import type { DashboardBody } from './dashboard.js'
import { containerRefIssues } from './dashboard-validation.js'

type Json = Record<string, unknown>

/** What the handler checks look up: the team's sources, dashboards and connections, and the dashboard being updated. */
export interface DashboardContext {
  sources: ReadonlyArray<{ id: string; kind: string; connection?: unknown }>
  dashboardIds: ReadonlySet<string>
  /** The team's connections; without them, the ones its sources use (a caller that has no connections). */
  connectionIds?: ReadonlySet<string>
  /** PUT only: the stored dashboard. */
  existing?: { tiles: ReadonlyArray<{ id: string; config: Json }>; containers?: ReadonlyArray<Json> }
}

/** One check's view of the request: the body, its tiles' configs (`{}` for a series tile) and the team. */
interface Checked {
  body: DashboardBody
  configs: Json[]
  ctx: DashboardContext
  sourceById: Map<string, DashboardContext['sources'][number]>
}

const isRaw = (c: Json) => c.configType === 'sql'

/** The id an onClick link of `type` names, when it names one (mode `id`). */
function linkTarget(c: Json, type: string): string | undefined {
  const link = c.onClick as Json | undefined
  const target = link?.target as Json | undefined
  return link?.type === type && target?.mode === 'id' ? String(target.id) : undefined
}

/**
 * udash validateDashboardTiles: a 400 `{message}` without the "Body validation failed" prefix, or undefined when the
 * body is accepted.
 */
export function dashboardHandlerProblem(body: DashboardBody, ctx: DashboardContext): string | undefined {
  const containers = body.containers ?? (ctx.existing?.containers as DashboardBody['containers']) ?? []
  const refs = containerRefIssues(containers, body.tiles)
  if (refs.length > 0) return refs.map(issue => `${issue.path}: ${issue.message}`).join('; ')
  const checked: Checked = {
    body,
    configs: body.tiles.map(t => (t.config ?? {}) as Json),
    ctx,
    sourceById: new Map(ctx.sources.map(s => [s.id, s]))
  }
  return referenceProblem(checked) ?? sourceKindProblem(checked) ?? onClickProblem(checked)
}

/** Sources the tiles, their search links and the filters name; raw SQL tiles' connections, and their sources'. */
function referenceProblem({ body, configs, ctx, sourceById }: Checked): string | undefined {
  const referenced = new Set<string>()
  body.tiles.forEach((t, i) => {
    for (const s of t.series ?? []) if (typeof s.sourceId === 'string') referenced.add(s.sourceId)
    const c = configs[i]!
    if (typeof c.sourceId === 'string' && c.sourceId) referenced.add(c.sourceId)
    const search = linkTarget(c, 'search')
    if (search) referenced.add(search)
  })
  for (const f of body.filters ?? []) if (typeof f.sourceId === 'string') referenced.add(f.sourceId)
  const missingSources = [...referenced].filter(id => !sourceById.has(id))
  if (missingSources.length > 0)
    return `Could not find the following source IDs: ${missingSources.join(', ')}`

  const connections = ctx.connectionIds ?? new Set(ctx.sources.map(s => String(s.connection)))
  const missingConnections = [...new Set(configs.filter(isRaw).map(c => String(c.connectionId)))].filter(
    id => !connections.has(id)
  )
  if (missingConnections.length > 0)
    return `Could not find the following connection IDs: ${missingConnections.join(', ')}`

  const mismatched = configs
    .filter(c => isRaw(c) && typeof c.sourceId === 'string' && c.sourceId)
    .filter(c => {
      const source = sourceById.get(String(c.sourceId))
      return source !== undefined && String(source.connection) !== c.connectionId
    })
    .map(c => String(c.sourceId))
  if (mismatched.length > 0)
    return `The following source IDs do not match the specified connections: ${mismatched.join(', ')}`
  return undefined
}

/**
 * Heatmaps need a trace source, formulas a metric, log or trace one. On PUT only the tiles that are new or changed are
 * checked against their source's kind.
 */
function sourceKindProblem({ body, configs, ctx, sourceById }: Checked): string | undefined {
  const before = new Map((ctx.existing?.tiles ?? []).map(t => [t.id, t.config]))
  const kindNotIn = (ids: Iterable<string>, kinds: string[]) =>
    [...new Set(ids)].filter(id => {
      const source = sourceById.get(id)
      return source !== undefined && !kinds.includes(source.kind)
    })
  const changed = (i: number, same: (old: Json, now: Json) => boolean): boolean => {
    const id = body.tiles[i]!.id
    const old = ctx.existing && id !== undefined ? before.get(id) : undefined
    return old === undefined || isRaw(old) || !same(old, configs[i]!)
  }
  const heatmaps = configs
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => !isRaw(c) && c.displayType === 'heatmap')
    .filter(({ i }) =>
      changed(i, (old, now) => old.displayType === 'heatmap' && old.sourceId === now.sourceId)
    )
    .map(({ c }) => String(c.sourceId))
  const notTrace = kindNotIn(heatmaps, ['trace'])
  if (notTrace.length > 0)
    return `Heatmap tiles require a Trace source. The following source IDs are not Trace sources: ${notTrace.join(', ')}`
  const withFormulas = configs
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => !isRaw(c) && Array.isArray(c.formulas) && c.formulas.length > 0 && c.sourceId)
    .filter(({ i }) =>
      changed(
        i,
        (old, now) =>
          JSON.stringify(old.formulas) === JSON.stringify(now.formulas) && old.sourceId === now.sourceId
      )
    )
    .map(({ c }) => String(c.sourceId))
  const notFormulaCapable = kindNotIn(withFormulas, ['metric', 'log', 'trace'])
  if (notFormulaCapable.length > 0)
    return `Tiles with formulas require a Metric, Log, or Trace source. The following source IDs are not formula-capable: ${notFormulaCapable.join(', ')}`
  return undefined
}

/** onClick links: a dashboard target must exist, a search target must be a log or trace source. */
function onClickProblem({ configs, ctx, sourceById }: Checked): string | undefined {
  const dashboards = [...new Set(configs.map(c => linkTarget(c, 'dashboard')).filter(id => id !== undefined))]
  const missingDashboards = dashboards.filter(id => !ctx.dashboardIds.has(id))
  if (missingDashboards.length > 0)
    return `Could not find the following onClick dashboard IDs: ${missingDashboards.join(', ')}`
  const searches = [...new Set(configs.map(c => linkTarget(c, 'search')).filter(id => id !== undefined))]
  const notSearchable = searches.filter(id => !['log', 'trace'].includes(sourceById.get(id)?.kind ?? ''))
  if (notSearchable.length > 0)
    return `The following onClick search source IDs are not log or trace sources: ${notSearchable.join(', ')}`
  return undefined
}
