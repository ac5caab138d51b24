/**
 * Dashboards as manifests, one file each with its alerts: names instead of ids, every server default left out, a
 * comment wherever an id could not be mapped to a name. Same-named dashboards, and same-named tiles of a dashboard,
 * are pinned to their own with `id:`.
 */
import type { Document, Node } from 'yaml'
import type { LiveDashboard } from '../../api/schemas.js'
import { yamlLibrary } from '../../yaml-library.js'
import { alertDocument, alertsBy } from '../alert-export.js'
import type { Namer } from '../exporting.js'
import type { ExportContext, ExportedRecord, KindExport } from '../kind.js'
import { isOwnershipTag, orderedUserTags } from '../ownership.js'
import { isRegistryDashboard } from '../registry.js'
import { exportTile } from './export-tiles.js'

export const dashboardExport: KindExport<LiveDashboard> = {
  list: 'dashboards',
  writes: {
    to: { each: d => ({ name: d.name, what: `dashboard "${d.name}"`, title: `from dashboard ${d.id}` }) },
    tags: d => d.tags,
    skips: isRegistryDashboard,
    writer: dashboardWriter
  }
}

function dashboardWriter(ctx: ExportContext): (d: LiveDashboard) => ExportedRecord {
  // Same-named dashboards, on the server and in this export: each gets an `id:` pin (pair.ts matches a pin before
  // a name), which is also what lets validate accept manifests of one name (rules.ts checkAcrossDocuments).
  const liveByName = groupByName((ctx.all('Dashboard') ?? []).filter(d => !isRegistryDashboard(d)))
  const exportedByName = groupByName(ctx.selected('Dashboard'))
  const alertsOf = alertsBy(ctx.all('Alert') ?? [], a =>
    a.source !== 'saved_search' ? a.dashboardId : undefined
  )
  return d => {
    const notes: string[] = []
    const twins = liveByName.get(d.name) ?? []
    const pin = twins.length > 1 ? d.id : undefined
    if (pin !== undefined)
      notes.push(
        `${twins.length} dashboards are named "${d.name}" (ids ${twins.map(t => t.id).join(', ')}): each is pinned to its own with \`id:\`, so a plan matches it by id, not by name, and validate accepts the shared name as long as every manifest of that name keeps its pin`
      )
    const alerts = alertsOf(d.id)
    // An alert names its dashboard by name: with two manifests of that name, it could not say which (rules.ts).
    const sharedHere = (exportedByName.get(d.name) ?? []).length > 1
    if (sharedHere && alerts.length > 0)
      notes.push(
        `its ${alerts.length} alert(s) are not exported (${alerts.map(a => JSON.stringify(a.name ?? a.id)).join(', ')}): an alert names its dashboard by name, which another exported dashboard has too. Rename one of the dashboards (its pin keeps its id) and add its alerts; until then, a plan with prune deletes them`
      )
    const exported = sharedHere ? [] : alerts
    return {
      documents: [
        dashboardDocument(d, ctx, notes, pin),
        ...exported.map(a => alertDocument(a, { dashboard: d }, ctx.namer))
      ],
      ids: [d.id, ...exported.map(a => a.id)],
      carried: exported.length,
      ...(exported.length < alerts.length ? { leftOut: alerts.length - exported.length } : {})
    }
  }
}

function groupByName<T extends { name: string }>(list: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>()
  for (const r of list) out.set(r.name, [...(out.get(r.name) ?? []), r])
  return out
}

function dashboardDocument(
  d: LiveDashboard,
  ctx: ExportContext,
  notes: string[],
  pin: string | undefined
): Document {
  const owned = d.tags.includes(ctx.ownershipTag)
  const value: Record<string, unknown> = { kind: 'Dashboard', name: d.name }
  if (pin !== undefined) value.id = pin
  const tags = orderedUserTags(d.tags)
  if (tags.length > 0) value.tags = tags
  // Adopting is explicit: an exported dashboard this stack does not own yet is adopted on the next apply.
  if (!owned) value.adopt = true
  // Names from every source, not only the ones the selection exports.
  Object.assign(value, dashboardSettings(d, ctx.namer, notes))
  const tileComments = new Map<number, string[]>()
  // Same-named tiles (HyperDX's templates have some): each is pinned to its own with `id:` (tiles.ts pairTiles).
  const repeated = repeatedNames(d.tiles)
  value.tiles = d.tiles.map((t, i) => {
    const comments: string[] = []
    const tile = exportTile(t, d, ctx, comments)
    if (comments.length > 0) tileComments.set(i, comments)
    return repeated.has(t.name) && t.id !== undefined ? { name: t.name, id: String(t.id), ...tile } : tile
  })
  const doc = new (yamlLibrary().Document)(value)
  const other = d.tags.find(t => isOwnershipTag(t) && t !== ctx.ownershipTag)
  if (other) notes.push(`owned by another stack (${other}): adopting it takes it over`)
  if (notes.length > 0) doc.commentBefore = notes.map(n => ` ${n}`).join('\n')
  const tilesNode = doc.get('tiles', true) as { items?: Node[] } | undefined
  for (const [i, comments] of tileComments) {
    const node = tilesNode?.items?.[i]
    if (node) node.commentBefore = comments.map(c => ` ${c}`).join('\n')
  }
  return doc
}

/** The tile names that repeat on a dashboard. */
export function repeatedNames(tiles: ReadonlyArray<{ name: string }>): Set<string> {
  const seen = new Set<string>()
  const out = new Set<string>()
  for (const t of tiles) (seen.has(t.name) ? out : seen).add(t.name)
  return out
}

type Body = Record<string, unknown>
const records = (v: unknown): Body[] => (Array.isArray(v) ? (v as Body[]) : [])

/**
 * The dashboard-level settings in the manifest's words: filters with their sources by name, the saved query (its
 * language only where it is not the default), saved filter values, containers by title. No ids.
 */
function dashboardSettings(d: LiveDashboard, namer: Namer, notes: string[]): Body {
  const out: Body = {}
  const filters = records(d.filters).map(f => {
    const { id: _id, type, sourceId, appliesToSourceIds, ...rest } = f
    const filter: Body = type === 'QUERY_EXPRESSION' ? {} : { type }
    filter.name = rest.name
    filter.expression = rest.expression
    Object.assign(filter, namer.ref('Source', 'source', sourceId, notes, 'data source'))
    for (const [k, v] of Object.entries(rest))
      if (!(k in filter) && v !== undefined && v !== null) filter[k] = v
    if (Array.isArray(appliesToSourceIds) && appliesToSourceIds.length > 0) {
      const named = appliesToSourceIds.map(id => namer.ref('Source', 'source', id, [], 'data source').source)
      if (named.every(n => n !== undefined)) filter.appliesToSources = named
      else {
        filter.appliesToSourceIds = appliesToSourceIds
        notes.push(
          `filter "${String(rest.name)}": a source it applies to has no unique name: kept as appliesToSourceIds`
        )
      }
    }
    return filter
  })
  if (filters.length > 0) out.filters = filters
  if (typeof d.savedQuery === 'string' && d.savedQuery !== '') out.savedQuery = d.savedQuery
  // The server makes a query without a language Lucene: only another language is worth writing.
  const language = d.savedQueryLanguage ?? undefined
  if (language !== undefined && !(language === 'lucene' && out.savedQuery !== undefined))
    out.savedQueryLanguage = language
  const values = records(d.savedFilterValues).map(v => (v.type === 'sql' ? { condition: v.condition } : v))
  if (values.length > 0) out.savedFilterValues = values
  const containers = records(d.containers).map(c => {
    const container: Body = { title: c.title }
    if (c.collapsed === true) container.collapsed = true
    if (typeof c.collapsible === 'boolean') container.collapsible = c.collapsible
    if (typeof c.bordered === 'boolean') container.bordered = c.bordered
    if (Array.isArray(c.tabs)) container.tabs = records(c.tabs).map(t => ({ title: t.title }))
    return container
  })
  const titles = containers.map(c => c.title)
  if (new Set(titles).size !== titles.length)
    notes.push('two containers share a title: tiles name containers by title, rename one')
  if (containers.length > 0) out.containers = containers
  return out
}
