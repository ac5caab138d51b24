/**
 * Table link-outs (`onClick`) by name. A link to a data source's search page names the source, resolved to its id
 * like any other source reference. A link to a dashboard names it: a dashboard of the manifests (whichever live
 * dashboard it pairs with, so a rename via `renamedFrom` keeps its links), or any other live dashboard of that name.
 * Both sides of a plan compare links by the target's name, never its id.
 *
 * A dashboard created by the same apply has no id yet: a dashboard that links to it is written after it. Between two
 * new dashboards only links to one earlier in the plan wait; a link to a later one (or to itself) is set by a second
 * request once its target exists, so no order of creates can deadlock.
 */
import type { LiveDashboard } from '../../api/schemas.js'
import { diagnostic } from '../../diagnostics.js'
import { clean, type Json, type JsonObject } from '../../json.js'
import { formatPath, type PathSegment } from '../../manifest/path.js'
import type { Located } from '../../manifest/rules.js'
import type { DashboardSpec, OnClickSpec } from '../../manifest/schema.js'
import type { Pairing, PlanContext, Use } from '../kind.js'

type Body = Record<string, unknown>

/** A link-out as the request sends it; a dashboard target stays a name (`{mode: 'id', dashboard}`) until paired. */
export function linkBody(
  link: OnClickSpec,
  sourceId: (ref: { source?: string; id?: string }) => string
): Body {
  if (link.type === 'external') return { ...link }
  const { dashboard, source, id, ...target } = link.target
  let sent: Body = target
  if (target.mode === 'id') {
    // A valid search link names its source or id (rules.ts checkLink); with neither, sourceId gives undefined.
    if (link.type === 'search') sent = { mode: 'id', id: sourceId({ source, id }) }
    else if (dashboard !== undefined) sent = { mode: 'id', dashboard }
    else sent = { mode: 'id', id }
  }
  return { ...link, target: sent }
}

const dashboardLinkOf = (tileBody: Body): Body | undefined => {
  const link = (tileBody.config as Body | undefined)?.onClick as Body | undefined
  return link?.type === 'dashboard' ? (link.target as Body | undefined) : undefined
}

const linkNames = new WeakMap<PlanContext, Map<string, string>>()

/** What settling links needs of a desired dashboard (desired.ts's DesiredDashboard, which builds on linkBody). */
export interface LinkingDashboard {
  located: Located<DashboardSpec>
  tiles: Array<{ body: Body }>
  waitsFor: Set<string>
  linksLater: boolean
}

/**
 * After pairing: each dashboard link names a target, now resolved to its live id where it has one (in the tile
 * bodies); the ones to dashboards this apply creates stay names, recorded as what to wait for or to set later.
 */
export function settleDashboardLinks<D extends LinkingDashboard>(
  result: Pairing<D, LiveDashboard>,
  ctx: PlanContext
): void {
  const index = new Map(result.pairs.map((p, i) => [p.desired.name, { pair: p, i }]))
  const orphans = new Set(result.orphans.map(o => o.id))
  // Each live dashboard by its name, a paired one by the name its manifest gives it.
  const names = new Map<string, string>()
  for (const d of ctx.live.Dashboard) names.set(d.id, d.name)
  for (const p of result.pairs) if (p.live) names.set(p.live.id, p.desired.name)
  linkNames.set(ctx, names)

  result.pairs.forEach(({ desired, live }, i) => {
    const d = desired.value
    d.tiles.forEach((t, ti) => {
      const target = dashboardLinkOf(t.body)
      const name = target?.dashboard
      const at = (field: string): PathSegment[] => ['tiles', ti, 'config', 'onClick', 'target', field]
      const reportAt = (path: PathSegment[], message: string) =>
        ctx.report(
          diagnostic('plan', 'error', message, { ...d.located.doc.locate(path), field: formatPath(path) })
        )
      // A raw id must name a dashboard (udash getMissingOnClickDashboards).
      if (typeof target?.id === 'string' && !ctx.live.Dashboard.some(x => x.id === target.id))
        reportAt(at('id'), `no dashboard with id "${target.id}"`)
      if (typeof name !== 'string') return
      const report = (message: string) => reportAt(at('dashboard'), message)
      const mine = index.get(name)
      if (mine?.pair.live) {
        setId(target!, mine.pair.live.id)
      } else if (mine) {
        // Created by this apply: wait for an earlier create; set a link to a later one (or itself) afterwards.
        if (!live && mine.i >= i) d.linksLater = true
        else d.waitsFor.add(name)
      } else {
        // Any other dashboard: the run's references resolve it (and report an unknown or ambiguous name).
        const resolved = ctx.refs.resolve({
          kind: 'Dashboard',
          name,
          at: { doc: d.located.doc, path: at('dashboard') }
        })
        if (resolved.error) return
        if (orphans.has(resolved.value) && ctx.settings.prune)
          report(`links to dashboard "${name}", which this plan deletes (it is no longer in the manifests)`)
        else setId(target!, resolved.value)
      }
    })
  })
}

function setId(target: Body, id: string): void {
  delete target.dashboard
  target.id = id
}

/** The dashboard a tile body's link-out names and has no id for yet (created in this apply). */
export function linkedNames(tileBody: Body): string[] {
  const name = dashboardLinkOf(tileBody)?.dashboard
  return typeof name === 'string' ? [name] : []
}

/** The tile bodies with their dashboard links' ids (`idOf` a created dashboard's); `unresolved` ones left out. */
export function withLinkIds(tiles: readonly Body[], idOf: (name: string) => string | undefined): Body[] {
  return tiles.map(tile => {
    const target = dashboardLinkOf(tile)
    if (typeof target?.dashboard !== 'string') return tile
    const id = idOf(target.dashboard)
    const config = { ...(tile.config as Body) }
    if (id === undefined) delete config.onClick
    else config.onClick = { ...(config.onClick as Body), target: { mode: 'id', id } }
    return { ...tile, config }
  })
}

/**
 * A flat tile's link in the words both sides of a plan share: a dashboard by the name it will have, a data
 * source as `sourceId` (which a report shows by name).
 */
export function namedLink(flat: JsonObject, ctx: PlanContext): JsonObject {
  const link = flat.onClick as JsonObject | undefined
  const target = link?.target as JsonObject | undefined
  if (!target || target.mode !== 'id' || typeof target.id !== 'string') return flat
  const named: Json =
    link!.type === 'dashboard'
      ? {
          mode: 'id',
          ...(linkNames.get(ctx)?.has(target.id)
            ? { dashboard: linkNames.get(ctx)!.get(target.id)! }
            : { id: target.id })
        }
      : { mode: 'id', sourceId: target.id }
  return { ...flat, onClick: clean({ ...link, target: named }) as JsonObject }
}

/**
 * A search link-out's source, which its live target names by `id` (no field name says it is a source): a delete of
 * that source waits while the link stays (planner/in-use.ts).
 */
export function linkOutUses(o: Readonly<Body>, at: string): Use[] {
  const target = o.target as { mode?: unknown; id?: unknown } | undefined
  if (o.type !== 'search' || target?.mode !== 'id' || typeof target.id !== 'string') return []
  return [{ kind: 'Source', id: target.id, at: at === '' ? 'onClick' : at }]
}
