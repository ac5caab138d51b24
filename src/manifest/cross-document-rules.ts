/**
 * Rules across documents and files: unique names (dashboards of one name need an `id:` pin each), renames that free
 * their old name, alerts that point at a tile that exists and can carry them, names that look alike, and one
 * ServiceSettings at most. They read views of the raw documents, so a document that failed its schema counts too.
 */
import type { Diagnostic } from '../diagnostics.js'
import { didYouMean } from './issues.js'
import { checkLookAlikeNames } from './look-alike.js'
import type { PathSegment } from './path.js'
import { reporter, type Report } from './rule-report.js'
import type { DashboardSpec } from './schema.js'
import { tileDisplayType } from './tile-rules.js'
import { ALERTABLE_DISPLAY_TYPES } from './vocabulary.js'
import type { ParsedDocument } from './yaml.js'

/** What cross-document rules need from a document, read from its raw value so broken ones count too. */
export interface DashboardView {
  doc: ParsedDocument
  name?: string
  id?: string
  renamedFrom?: string
  /** `sqlTemplate`: a raw-SQL tile's query. */
  tiles: Array<{ name: string; id?: string; index: number; displayType?: string; sqlTemplate?: string }>
  /** The dashboards its tiles' link-outs name (`target.dashboard`), and where. */
  links: Array<{ dashboard: string; path: PathSegment[] }>
}
export interface AlertView {
  doc: ParsedDocument
  name?: string
  dashboard?: string
  tile?: string
  tileId?: string
  /** The saved search a saved-search alert names (`source: saved_search`). */
  savedSearch?: string
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const mapping = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined

export function dashboardView(
  doc: ParsedDocument,
  raw: Record<string, unknown>,
  spec?: DashboardSpec
): DashboardView {
  const tiles: unknown[] = Array.isArray(raw.tiles) ? raw.tiles : []
  return {
    doc,
    name: str(raw.name),
    id: str(raw.id),
    renamedFrom: str(raw.renamedFrom),
    tiles: tiles.flatMap((t, i) => {
      const name = str((t as Record<string, unknown> | null)?.name)
      if (name === undefined) return []
      const typed = spec?.tiles?.[i]
      const sql = typed?.config?.configType === 'sql' ? typed.config.sqlTemplate : undefined
      const id = str((t as Record<string, unknown>).id)
      return [
        { name, id, index: i, displayType: typed ? tileDisplayType(typed) : undefined, sqlTemplate: sql }
      ]
    }),
    links: tiles.flatMap((t, i) => {
      const link = mapping(mapping(mapping(t)?.config)?.onClick)
      const dashboard = link?.type === 'dashboard' ? str(mapping(link.target)?.dashboard) : undefined
      return dashboard === undefined
        ? []
        : [{ dashboard, path: ['tiles', i, 'config', 'onClick', 'target', 'dashboard'] }]
    })
  }
}

export function alertView(doc: ParsedDocument, raw: Record<string, unknown>): AlertView {
  return {
    doc,
    name: str(raw.name),
    dashboard: str(raw.dashboard),
    tile: str(raw.tile),
    tileId: str(raw.tileId),
    savedSearch: raw.source === 'saved_search' ? str(raw.savedSearch) : undefined
  }
}

/** Rules across documents and files: unique names, and alerts that point at tiles that exist. */
export function checkAcrossDocuments(
  dashboards: readonly DashboardView[],
  alerts: readonly AlertView[],
  services: readonly ParsedDocument[],
  mode: 'self-hosted' | 'managed',
  /** Some file or document could not be read: a missing name may be in it. */
  incomplete = false
): Diagnostic[] {
  const out: Diagnostic[] = []
  const { byName, pinnedTwins } = checkDashboardNames(dashboards, out)
  checkLinksToTwins(dashboards, pinnedTwins, out)
  checkRenames(dashboards, byName, out)
  checkAlertTargets(alerts, { byName, pinnedTwins }, incomplete, out)
  out.push(...checkLookAlikeNames({ dashboard: dashboards, alert: alerts }))
  checkServices(services, mode, out)
  return out
}

/** The dashboards by name (the first of each), and the same-named ones that are told apart by their pins. */
interface DashboardNames {
  byName: Map<string, DashboardView>
  pinnedTwins: Map<string, DashboardView[]>
}

const where = (doc: ParsedDocument, path: PathSegment[]) => `${doc.file}:${doc.locate(path).line}`

/** An `id:` is pinned once; same-named dashboards are told apart by their `id:` pins (pair.ts pairs pins first). */
function checkDashboardNames(dashboards: readonly DashboardView[], out: Diagnostic[]): DashboardNames {
  const byName = new Map<string, DashboardView>()
  /** Every manifest of each name, in order. */
  const sharing = new Map<string, DashboardView[]>()
  const pins = new Map<string, DashboardView>()
  for (const d of dashboards) {
    if (d.name === undefined) continue
    const list = sharing.get(d.name)
    if (list) list.push(d)
    else sharing.set(d.name, [d])
    if (!byName.has(d.name)) byName.set(d.name, d)
    if (d.id !== undefined) {
      const prevPin = pins.get(d.id)
      if (prevPin)
        reporter(d.doc, out)(
          ['id'],
          `dashboard id "${d.id}" is pinned twice (also at ${where(prevPin.doc, ['id'])})`
        )
      else pins.set(d.id, d)
    }
  }
  // Same-named dashboards each need a pin. Two pins of one id are reported above.
  const pinnedTwins = new Map<string, DashboardView[]>()
  for (const [name, list] of sharing) {
    if (list.length < 2) continue
    if (list.every(d => d.id !== undefined)) {
      pinnedTwins.set(name, list)
      continue
    }
    const [first, ...rest] = list
    for (const d of rest)
      reporter(d.doc, out)(
        ['name'],
        `duplicate dashboard name "${name}" (also at ${where(first!.doc, ['name'])}): same-named dashboards need an \`id:\` pin each (the id of its live dashboard) to tell them apart; pin every one of them, or rename one`
      )
  }
  return { byName, pinnedTwins }
}

/** A link-out names its dashboard too (links.ts pairs the name with one manifest): it cannot tell twins apart. */
function checkLinksToTwins(
  dashboards: readonly DashboardView[],
  pinnedTwins: DashboardNames['pinnedTwins'],
  out: Diagnostic[]
): void {
  for (const d of dashboards)
    for (const link of d.links) {
      const twins = pinnedTwins.get(link.dashboard)
      if (twins)
        reporter(d.doc, out)(
          link.path,
          `${twins.length} dashboards are named "${link.dashboard}" (${twins.map(t => where(t.doc, ['name'])).join(', ')}): a link names its dashboard by name, so it cannot tell which; link to one by \`id:\`, or rename one of them`
        )
    }
}

/** A rename frees its old name: no other manifest may still hold it. */
function checkRenames(
  dashboards: readonly DashboardView[],
  byName: DashboardNames['byName'],
  out: Diagnostic[]
): void {
  for (const d of dashboards) {
    const from = d.renamedFrom
    if (from !== undefined && from !== d.name && byName.has(from)) {
      const other = byName.get(from)!
      reporter(d.doc, out)(
        ['renamedFrom'],
        `"${from}" is still the name of another manifest (${where(other.doc, ['name'])})`
      )
    }
  }
}

/** Alert names are unique, and a tile alert names a dashboard of the manifests and a tile of it that can carry it. */
function checkAlertTargets(
  alerts: readonly AlertView[],
  { byName, pinnedTwins }: DashboardNames,
  incomplete: boolean,
  out: Diagnostic[]
): void {
  const alertNames = new Map<string, AlertView>()
  for (const a of alerts) {
    const report = reporter(a.doc, out)
    if (a.name !== undefined) {
      const prev = alertNames.get(a.name)
      if (prev) report(['name'], `duplicate alert name "${a.name}" (also at ${where(prev.doc, ['name'])})`)
      else alertNames.set(a.name, a)
    }
    if (a.dashboard === undefined) continue
    const twins = pinnedTwins.get(a.dashboard)
    if (twins) {
      report(
        ['dashboard'],
        `${twins.length} dashboards are named "${a.dashboard}" (${twins.map(t => where(t.doc, ['name'])).join(', ')}): an alert names its dashboard by name, so it cannot tell which; rename one of them to put alerts on it`
      )
      continue
    }
    const dash = byName.get(a.dashboard)
    if (!dash) {
      const guess = didYouMean(a.dashboard, [...byName.keys()])
      report(
        ['dashboard'],
        `no dashboard named "${a.dashboard}" in the manifests${guess ? ` (did you mean "${guess}"?)` : ''}${incomplete && !guess ? ' (some manifests could not be read: fix those errors first)' : ''}`
      )
      continue
    }
    const tile = alertTile(a, dash, report)
    if (tile) checkAlertTile(tile, report)
  }
}

/**
 * The alert's tile in its dashboard: by `tileId`, the tile pinned with that id (whose name `tile` must then be); by
 * `tile`, the one tile of that name (a repeated name is ambiguous: both places are named).
 */
function alertTile(
  a: AlertView,
  dash: DashboardView,
  report: Report
): DashboardView['tiles'][number] | undefined {
  const at = (t: DashboardView['tiles'][number]) =>
    `tiles[${t.index}] at ${where(dash.doc, ['tiles', t.index])}`
  if (a.tileId !== undefined) {
    const pinned = dash.tiles.find(t => t.id === a.tileId)
    if (!pinned) report(['tileId'], `dashboard "${dash.name}" has no tile pinned with \`id: ${a.tileId}\``)
    else if (a.tile !== undefined && a.tile !== pinned.name)
      report(
        ['tile'],
        `the tile pinned with id "${a.tileId}" is named "${pinned.name}" (${at(pinned)}), not "${a.tile}"`
      )
    else return pinned
    return undefined
  }
  if (a.tile === undefined) return undefined
  const named = dash.tiles.filter(t => t.name === a.tile)
  if (named.length > 1) {
    report(
      ['tile'],
      `dashboard "${dash.name}" has ${named.length} tiles named "${a.tile}" (${named.map(at).join('; ')}): name the one by its pin, \`tileId: ${named[0]!.id ?? '<id>'}\``
    )
    return undefined
  }
  if (named.length === 0) {
    const guess = didYouMean(
      a.tile,
      dash.tiles.map(t => t.name)
    )
    report(
      ['tile'],
      `dashboard "${dash.name}" has no tile named "${a.tile}"${guess ? ` (did you mean "${guess}"?)` : ''}`
    )
  }
  return named[0]
}

/** The alert's tile is one the server keeps alerts on. */
function checkAlertTile(tile: DashboardView['tiles'][number], report: Report): void {
  if (tile.displayType && !(ALERTABLE_DISPLAY_TYPES as readonly string[]).includes(tile.displayType)) {
    report(
      ['tile'],
      `tile "${tile.name}" is a ${tile.displayType} tile; alerts need a line, stacked_bar or number tile`
    )
  } else if (
    tile.sqlTemplate !== undefined &&
    tile.displayType !== 'number' &&
    !usesInterval(tile.sqlTemplate)
  ) {
    // controllers/alerts.ts validateAlertInput; common-utils core/utils.ts validateRawSqlForAlert.
    report(
      ['tile'],
      `tile "${tile.name}" is a raw-SQL ${tile.displayType} tile: an alert needs its query to use the interval ({intervalSeconds:Int64}, {intervalMilliseconds:Int64} or an interval macro)`
    )
  }
}

/** A raw-SQL query names the alert interval's parameter, or a macro that expands to it. */
const usesInterval = (sql: string): boolean => /interval(Milli)?seconds|\$__\w*interval/i.test(sql)

/** ServiceSettings: managed mode's, and one of them. */
function checkServices(
  services: readonly ParsedDocument[],
  mode: 'self-hosted' | 'managed',
  out: Diagnostic[]
): void {
  services.forEach((doc, i) => {
    const report = reporter(doc, out)
    if (mode === 'self-hosted') {
      report(['kind'], 'ServiceSettings belongs to managed mode (`mode: managed`); this run is self-hosted')
    }
    if (i > 0)
      report(
        ['kind'],
        `only one ServiceSettings is allowed (the first is at ${where(services[0]!, ['kind'])})`
      )
  })
}
