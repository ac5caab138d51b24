/**
 * The rules of one dashboard that its schema cannot express: tags, renames, containers and their tabs, filters and
 * their variables, tiles that fit the grid and have unique names, what managed mode leaves out; then each tile's own
 * rules (tile-rules.ts).
 */
import type { Diagnostic } from '../diagnostics.js'
import { didYouMean } from './issues.js'
import type { PathSegment } from './path.js'
import { reporter, type Report } from './rule-report.js'
import { Tile as TileSchema, type DashboardSpec, type TileSpec } from './schema.js'
import { checkPartialTile, checkSourceRef, checkTile } from './tile-rules.js'
import { LIMITS, MANAGED_AGG_FNS } from './vocabulary.js'
import type { ParsedDocument } from './yaml.js'

/** The prefix of the ownership tag; manifests may not use it themselves. */
export const OWNERSHIP_TAG_PREFIX = 'obsdeploy:'

/**
 * The prefixes of a live preview copy's tags (kinds/dashboard/preview-copy.ts): its stack, its pull request and
 * when it was written. Reserved too: a dashboard of the stack's own tagged so would be taken for a copy.
 */
export const PREVIEW_TAG_PREFIXES = {
  stack: 'obsdeploy-preview:',
  pullRequest: 'obsdeploy-pr:',
  writtenAt: 'obsdeploy-at:'
} as const

/**
 * Runs on the raw document (fields of the wrong type are skipped, tiles that fail the schema get the
 * checks their valid fields allow), so a schema error does not hide the other problems of a dashboard.
 */
export function checkDashboard(
  doc: ParsedDocument,
  raw: Record<string, unknown>,
  mode: 'self-hosted' | 'managed' = 'self-hosted',
  /** The document as its schema typed it, when it passed: its tiles need no second parse. */
  typed?: DashboardSpec
): Diagnostic[] {
  const out: Diagnostic[] = []
  const report = reporter(doc, out)
  if (mode === 'managed') checkManagedTiles(raw, report)
  const seenTags = new Set<string>()
  const tags: unknown[] = Array.isArray(raw.tags) ? raw.tags : []
  tags.forEach((tag, i) => {
    if (typeof tag !== 'string') return
    if (tag.startsWith(OWNERSHIP_TAG_PREFIX)) {
      report(['tags', i], `tags starting with "${OWNERSHIP_TAG_PREFIX}" are reserved for the ownership tag`)
    }
    const previewPrefix = Object.values(PREVIEW_TAG_PREFIXES).find(p => tag.startsWith(p))
    if (previewPrefix)
      report(['tags', i], `tags starting with "${previewPrefix}" are reserved for the live preview's copies`)
    if (seenTags.has(tag)) report(['tags', i], `duplicate tag "${tag}"`)
    seenTags.add(tag)
  })
  if (typeof raw.renamedFrom === 'string' && raw.renamedFrom === raw.name) {
    report(['renamedFrom'], 'is the same as `name`; remove it once the rename has been applied')
  }
  const containers = checkContainers(raw, report)
  checkDashboardFilters(raw, report)
  const tiles: unknown[] = Array.isArray(raw.tiles) ? raw.tiles : []
  checkTileNames(doc, tiles, report)
  tiles.forEach((value, i) => {
    if (value === null || typeof value !== 'object') return
    const tile = value as Record<string, unknown>
    const path = ['tiles', i]
    // Only when x and w are each valid: otherwise their own error says it already.
    const inGrid = (v: unknown, min: number, max: number) =>
      Number.isInteger(v) && (v as number) >= min && (v as number) <= max
    if (
      inGrid(tile.x, 0, LIMITS.gridColumns - 1) &&
      inGrid(tile.w, 1, LIMITS.gridColumns) &&
      Number(tile.x) + Number(tile.w) > LIMITS.gridColumns
    ) {
      report(
        [...path, 'w'],
        `tile extends past the ${LIMITS.gridColumns}-column grid (x + w = ${Number(tile.x) + Number(tile.w)})`
      )
    }
    checkContainerRef(tile, path, containers, report)
    // The tile's own rules need its structure; fix the tile's schema errors (reported) to see them.
    const typedTile = typed?.tiles?.[i] ?? parsedTile(tile)
    if (typedTile) checkTile(typedTile, path, report)
    else checkPartialTile(tile, path, report)
  })
  return out
}

/**
 * Tiles are matched by name, or by an `id:` pin: a name may repeat (HyperDX's own templates repeat some) only where
 * every tile of it is pinned, and a pin names one tile.
 */
function checkTileNames(doc: ParsedDocument, tiles: unknown[], report: Report): void {
  const where = (i: number, field: string) => `tiles[${i}], line ${doc.locate(['tiles', i, field]).line}`
  const names = new Map<string, number>()
  const pins = new Map<string, number>()
  const pinned = (t: Record<string, unknown>) => typeof t.id === 'string' && t.id !== ''
  tiles.forEach((value, i) => {
    if (value === null || typeof value !== 'object') return
    const tile = value as Record<string, unknown>
    if (typeof tile.id === 'string') {
      const first = pins.get(tile.id)
      if (first !== undefined)
        report(['tiles', i, 'id'], `tile id "${tile.id}" is pinned twice (also ${where(first, 'id')})`)
      else pins.set(tile.id, i)
    }
    if (typeof tile.name !== 'string') return
    const first = names.get(tile.name)
    if (first === undefined) names.set(tile.name, i)
    else if (!pinned(tile) || !pinned(tiles[first] as Record<string, unknown>))
      report(
        ['tiles', i, 'name'],
        `duplicate tile name "${tile.name}" (also ${where(first, 'name')}): same-named tiles need an \`id:\` pin each (the id of its live tile) to tell them apart; pin every one of them, or rename one`
      )
  })
}

function parsedTile(tile: unknown): TileSpec | undefined {
  const typed = TileSchema.safeParse(tile)
  return typed.success ? typed.data : undefined
}

/**
 * What the managed API's schemas leave out (the cloud's OpenAPI document: ClickStackSelectItem and the series list
 * their aggregation functions without `increase`; no tile config has `seriesLimit`, `formulas` or `showOperandSeries`;
 * languages are lucene and sql only; filters have no broadcast or variable settings). Read from the raw document, so
 * these are reported next to any schema error.
 */
function checkManagedTiles(raw: Record<string, unknown>, report: Report): void {
  const tiles: unknown[] = Array.isArray(raw.tiles) ? raw.tiles : []
  const record = (v: unknown) =>
    v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : undefined
  const checkAggFn = (item: unknown, path: PathSegment[]) => {
    if (record(item)?.aggFn === 'increase')
      report(
        [...path, 'aggFn'],
        `increase is not available in managed mode: the managed API takes ${MANAGED_AGG_FNS.join(', ')}`
      )
  }
  const checkLanguage = (value: unknown, path: PathSegment[], field = 'whereLanguage') => {
    if (record(value)?.[field] === 'promql')
      report(
        [...path, field],
        'promql is not available in managed mode: the managed API takes lucene and sql'
      )
  }
  checkLanguage(raw, [], 'savedQueryLanguage')
  const filters: unknown[] = Array.isArray(raw.filters) ? raw.filters : []
  filters.forEach((f, i) => {
    for (const key of ['isBroadcastEnabled', 'isVariableEnabled', 'variableName'])
      if (record(f) && key in record(f)!)
        report(
          ['filters', i, key],
          `${key} is not part of the managed API's filters: remove it in managed mode`
        )
  })
  tiles.forEach((value, i) => {
    const tile = record(value)
    const series: unknown[] = Array.isArray(tile?.series) ? tile.series : []
    series.forEach((s, j) => checkAggFn(s, ['tiles', i, 'series', j]))
    const config = record(tile?.config)
    const cpath = ['tiles', i, 'config']
    const select: unknown[] = Array.isArray(config?.select) ? config.select : []
    select.forEach((item, j) => {
      checkAggFn(item, [...cpath, 'select', j])
      checkLanguage(item, [...cpath, 'select', j])
    })
    checkLanguage(config, cpath)
    checkLanguage(config?.onClick, [...cpath, 'onClick'])
    for (const key of ['seriesLimit', 'formulas', 'showOperandSeries'])
      if (config && key in config)
        report([...cpath, key], `${key} is not part of the managed API: remove it in managed mode`)
    if (config?.configType === 'sql' && config.connection !== undefined)
      report(
        [...cpath, 'connection'],
        "the managed API cannot list connections: name a raw-SQL tile's connection by `connectionId`"
      )
  })
}

/** Container titles are unique (tiles name them), and so are the tab titles of each. Returns the tabs by title. */
function checkContainers(raw: Record<string, unknown>, report: Report): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>()
  const list: unknown[] = Array.isArray(raw.containers) ? raw.containers : []
  list.forEach((value, i) => {
    const c = value as Record<string, unknown> | null
    if (!c || typeof c !== 'object' || typeof c.title !== 'string') return
    if (out.has(c.title))
      report(
        ['containers', i, 'title'],
        `duplicate container title "${c.title}": tiles name containers by title`
      )
    const tabs = new Set<string>()
    const tabList: unknown[] = Array.isArray(c.tabs) ? c.tabs : []
    tabList.forEach((t, j) => {
      const title = (t as Record<string, unknown> | null)?.title
      if (typeof title !== 'string') return
      if (tabs.has(title))
        report(
          ['containers', i, 'tabs', j, 'title'],
          `duplicate tab title "${title}" in container "${c.title}"`
        )
      tabs.add(title)
    })
    if (!out.has(c.title)) out.set(c.title, tabs)
  })
  return out
}

/** udash validateDashboardTiles: a tile's container and tab must exist, and a tab needs its container. */
function checkContainerRef(
  tile: Record<string, unknown>,
  path: PathSegment[],
  containers: Map<string, Set<string>>,
  report: Report
): void {
  const { container, tab } = tile
  if (typeof container === 'string' && !containers.has(container)) {
    const guess = didYouMean(container, [...containers.keys()])
    report(
      [...path, 'container'],
      `no container titled "${container}" in \`containers\`${guess ? ` (did you mean "${guess}"?)` : ''}`
    )
  }
  if (typeof tab !== 'string') return
  if (typeof container !== 'string')
    report([...path, 'tab'], 'needs `container`: the container the tab belongs to')
  else if (containers.get(container) && !containers.get(container)!.has(tab)) {
    const guess = didYouMean(tab, [...containers.get(container)!])
    report(
      [...path, 'tab'],
      `container "${container}" has no tab titled "${tab}"${guess ? ` (did you mean "${guess}"?)` : ''}`
    )
  }
}

/**
 * common-utils dashboardValidation.ts: a filter broadcasts its value (the default), is a variable, or both; a
 * variable has a name (given, or derived from the filter's name) unique in the dashboard; `variableName` needs
 * `isVariableEnabled`, and the sources a filter applies to need broadcasting. Plus ours: one data source reference.
 */
function checkDashboardFilters(raw: Record<string, unknown>, report: Report): void {
  const list: unknown[] = Array.isArray(raw.filters) ? raw.filters : []
  const variables = new Map<string, number>()
  list.forEach((value, i) => {
    const f = value as Record<string, unknown> | null
    if (!f || typeof f !== 'object') return
    const path = ['filters', i]
    checkSourceRef(f as { source?: string; sourceId?: string }, path, report, true)
    if (f.appliesToSources !== undefined && f.appliesToSourceIds !== undefined)
      report([...path, 'appliesToSourceIds'], 'use `appliesToSources` or `appliesToSourceIds`, not both')
    const broadcasts = f.isBroadcastEnabled !== false
    const variable = f.isVariableEnabled === true
    const label = typeof f.name === 'string' ? f.name : `filters[${i}]`
    if (!broadcasts && !variable)
      report(
        [...path, 'isBroadcastEnabled'],
        `filter "${label}" must broadcast its value, be a variable (isVariableEnabled: true), or both`
      )
    if (f.variableName !== undefined && !variable)
      report([...path, 'variableName'], 'needs `isVariableEnabled: true` (the server ignores it otherwise)')
    const applies = [f.appliesToSources, f.appliesToSourceIds].some(a => Array.isArray(a) && a.length > 0)
    if (applies && !broadcasts)
      report(
        [...path, f.appliesToSources !== undefined ? 'appliesToSources' : 'appliesToSourceIds'],
        'needs a filter that broadcasts its value (isBroadcastEnabled is false)'
      )
    if (!variable) return
    const name = variableNameOf(f)
    if (!name) {
      report(
        [...path, 'variableName'],
        `filter "${label}" needs a variableName: none can be derived from its name`
      )
      return
    }
    const first = variables.get(name)
    if (first !== undefined)
      report(
        [...path, 'variableName'],
        `variable name "${name}" is also filters[${first}]'s: they must be unique`
      )
    else variables.set(name, i)
  })
}

/** common-utils filters.ts deriveVariableName: the given name, or the display name made an identifier. */
export function variableNameOf(filter: Record<string, unknown>): string | undefined {
  const given = typeof filter.variableName === 'string' ? filter.variableName.trim() : ''
  if (given) return given
  const derived = String(filter.name ?? '')
    .trim()
    .replace(/\s+/g, '_')
    .replace(/[^A-Za-z0-9_]+/g, '')
  const name = /^[0-9_]/.test(derived) ? `v${derived}` : derived
  return name || undefined
}
