/**
 * Rules that the schemas cannot express: fields that must agree inside a tile, alerts that must point at
 * a tile that exists and can carry them, names that must be unique across files. Several of them exist
 * because the server would silently rewrite the value (FACTS.md), which would show as a change on every
 * plan forever.
 */
import { isIP } from 'node:net'
import type { Diagnostic } from '../diagnostics.js'
import { diagnostic } from '../diagnostics.js'
import { formulaProblem } from './formula.js'
import { didYouMean } from './issues.js'
import { checkLookAlikeNames } from './look-alike.js'
import { checkLucene } from './lucene.js'
import {
  Series as SeriesSchema,
  Tile as TileSchema,
  TileConfig as TileConfigSchema,
  type AlertSpec,
  type DashboardSpec,
  type OnClickSpec,
  type SelectItemSpec,
  type SeriesSpec,
  type ServiceSettingsSpec,
  type TileConfigSpec,
  type TileSpec
} from './schema.js'
import {
  ALERT_INTERVAL_MINUTES,
  ALERTABLE_DISPLAY_TYPES,
  LIMITS,
  MANAGED_AGG_FNS,
  RANGE_THRESHOLD_TYPES
} from './vocabulary.js'
import { formatPath, type PathSegment } from './path.js'
import type { ParsedDocument } from './yaml.js'

/** The prefix of the ownership tag; manifests may not use it themselves. */
export const OWNERSHIP_TAG_PREFIX = 'obsdeploy:'

export interface Located<T> {
  spec: T
  doc: ParsedDocument
}

/** Reports at `path`; `near` is where to point when the field itself is missing. */
type Report = (
  path: readonly PathSegment[],
  message: string,
  near?: readonly PathSegment[],
  severity?: 'error' | 'warning'
) => void

function reporter(doc: ParsedDocument, out: Diagnostic[]): Report {
  return (path, message, near, severity = 'error') =>
    out.push(
      diagnostic('validate', severity, message, { ...doc.locate(near ?? path), field: formatPath(path) })
    )
}

/** The display type a tile will have on the server, whichever form the manifest uses. */
export function tileDisplayType(tile: TileSpec): string | undefined {
  if (tile.config) return tile.config.displayType
  const first = tile.series?.[0]
  if (!first) return undefined
  if (first.type === 'time') return first.displayType ?? 'line'
  return first.type
}

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
    if (seenTags.has(tag)) report(['tags', i], `duplicate tag "${tag}"`)
    seenTags.add(tag)
  })
  if (typeof raw.renamedFrom === 'string' && raw.renamedFrom === raw.name) {
    report(['renamedFrom'], 'is the same as `name`; remove it once the rename has been applied')
  }
  const containers = checkContainers(raw, report)
  checkDashboardFilters(raw, report)
  const tileNames = new Map<string, number>()
  const tiles: unknown[] = Array.isArray(raw.tiles) ? raw.tiles : []
  tiles.forEach((value, i) => {
    if (value === null || typeof value !== 'object') return
    const tile = value as Record<string, unknown>
    const path = ['tiles', i]
    if (typeof tile.name === 'string') {
      const first = tileNames.get(tile.name)
      if (first !== undefined)
        report([...path, 'name'], `duplicate tile name "${tile.name}" (also tiles[${first}])`)
      else tileNames.set(tile.name, i)
    }
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

const SOURCED_SERIES = new Set<unknown>(['time', 'table', 'number', 'search'])

/** The rules of a tile that fails the schema, on whichever of its series or config do parse. */
function checkPartialTile(tile: Record<string, unknown>, path: PathSegment[], report: Report): void {
  if (Array.isArray(tile.series)) {
    tile.series.forEach((s, i) => {
      // A series of a known type that reads data needs a source (a wrong type is reported on its own).
      const series = s as Record<string, unknown> | null
      if (series && typeof series === 'object' && SOURCED_SERIES.has(series.type))
        checkSourceRef(series as { source?: string; sourceId?: string }, [...path, 'series', i], report, true)
      const typed = SeriesSchema.safeParse(s)
      if (typed.success && typed.data.type !== 'markdown' && typed.data.type !== 'search') {
        checkAggregation(
          typed.data.aggFn,
          typed.data.field,
          typed.data.level,
          [...path, 'series', i],
          'field',
          report
        )
      }
    })
  }
  const config = TileConfigSchema.safeParse(tile.config)
  if (config.success && config.data.displayType !== 'markdown')
    checkSourceRef(config.data, [...path, 'config'], report, true)
}

function checkTile(tile: TileSpec, path: PathSegment[], report: Report): void {
  if (tile.series && tile.config) report(path, 'has both `series` and `config`; use one form')
  if (!tile.series && !tile.config)
    report(path, 'needs `series` (list of series) or `config` (a display type)')
  if (tile.series) checkSeriesList(tile, tile.series, [...path, 'series'], report)
  if (tile.config) {
    const cpath = [...path, 'config']
    if (tile.asRatio !== undefined) report([...path, 'asRatio'], 'with `config`, set asRatio inside config')
    const c = tile.config
    if (c.configType === 'sql') {
      // A raw-SQL tile runs on a connection; its data source is optional (zod.ts raw-SQL config).
      checkSourceRef(c, cpath, report, false)
      checkConnectionRef(c, cpath, report)
    } else if (c.displayType !== 'markdown') checkSourceRef(c, cpath, report, true)
    // A list is sent joined into one expression, which the server takes up to 10,000 characters.
    const joined = (field: 'groupBy' | 'select', separator: string) => {
      const value = (c as Record<string, unknown>)[field]
      if (Array.isArray(value) && value.every(v => typeof v === 'string')) {
        const length = value.join(separator).length
        if (length > LIMITS.expression)
          report(
            [...cpath, field],
            `is sent as one expression of ${length} characters; the server takes at most ${LIMITS.expression}`
          )
      }
    }
    joined('groupBy', ',')
    if (c.displayType === 'search') joined('select', ', ')
    if (c.displayType !== 'heatmap' && 'select' in c && Array.isArray(c.select)) {
      c.select.forEach((item, i) => {
        if (typeof item === 'object') checkSelectItem(item, [...cpath, 'select', i], report)
      })
      if ('asRatio' in c && c.asRatio && c.select.length !== 2) {
        report(
          [...cpath, 'asRatio'],
          'asRatio needs exactly two select items (the server stores false otherwise)'
        )
      }
    }
    if (c.configType !== 'sql') {
      checkFormulas(c, cpath, report)
      if (c.displayType === 'table' && c.onClick) checkLink(c.onClick, [...cpath, 'onClick'], report)
    }
  }
}

/**
 * common-utils validateChartConfigFormulas: each formula parses and names existing select items; not with asRatio;
 * a number tile takes one formula, and without one exactly one select item. Plus ours: showOperandSeries only with
 * formulas (the server returns it only then, so every plan would show it).
 */
function checkFormulas(c: TileConfigSpec, path: PathSegment[], report: Report): void {
  const formulas = 'formulas' in c ? (c.formulas ?? []) : []
  const count = 'select' in c && Array.isArray(c.select) ? c.select.length : 0
  formulas.forEach((f, i) => {
    const problem = formulaProblem(f.expression, count)
    if (problem) report([...path, 'formulas', i, 'expression'], `formula ${problem}`)
  })
  if (formulas.length > 0 && 'asRatio' in c && c.asRatio)
    report(
      [...path, 'formulas'],
      'formulas cannot be combined with asRatio: write the ratio as a formula ("A / B")'
    )
  if (c.displayType === 'number') {
    if (formulas.length > 1)
      report([...path, 'formulas'], 'a number tile shows one value: at most one formula')
    if (formulas.length === 0 && count !== 1)
      report(
        [...path, 'select'],
        'a number tile without a formula shows one select item: use one, or add a formula over them'
      )
  }
  if ('showOperandSeries' in c && c.showOperandSeries !== undefined && formulas.length === 0)
    report([...path, 'showOperandSeries'], 'only applies with formulas (the server drops it otherwise)')
}

/** A link-out's target: by name, by id or by template, as its mode and type allow. */
function checkLink(link: OnClickSpec, path: PathSegment[], report: Report): void {
  if (link.type === 'external') return
  const t = link.target
  const at = [...path, 'target']
  const byName = link.type === 'dashboard' ? 'dashboard' : 'source'
  const other = link.type === 'dashboard' ? 'source' : 'dashboard'
  if (t[other] !== undefined)
    report([...at, other], `a ${link.type} link names its target with \`${byName}\`, not \`${other}\``)
  if (t.mode === 'template') {
    if (t.template === undefined) report(at, 'mode template needs `template`')
    for (const key of [byName, 'id'] as const)
      if (t[key] !== undefined) report([...at, key], 'only with mode id (this target is a template)')
    return
  }
  if (t.template !== undefined) report([...at, 'template'], 'only with mode template')
  if (t[byName] !== undefined && t.id !== undefined)
    report([...at, 'id'], `use \`${byName}\` or \`id\`, not both`)
  else if (t[byName] === undefined && t.id === undefined)
    report(
      at,
      `mode id needs the ${link.type === 'dashboard' ? 'dashboard' : 'data source'}: \`${byName}\` (by name) or \`id\``
    )
}

function checkSeriesList(tile: TileSpec, list: SeriesSpec[], path: PathSegment[], report: Report): void {
  const first = list[0]!
  list.forEach((s, i) => {
    const p = [...path, i]
    if (s.type !== first.type) {
      report([...p, 'type'], `all series of a tile must have the same type (series[0] is ${first.type})`)
      return
    }
    if (i > 0 && ['number', 'search', 'markdown'].includes(s.type)) {
      report(p, `a ${s.type} tile shows only its first series; the server drops the rest`)
    }
    if (s.type === 'markdown') return
    // zod.ts chartSeriesSchema: every series but markdown needs a sourceId.
    checkSourceRef(s, p, report, true)
    if (i > 0 && first.type !== 'markdown' && sourceKey(s) !== sourceKey(first)) {
      report(p, 'all series of a tile must use the same data source (the server keeps only the first one)')
    }
    if (s.type === 'search') return
    checkAggregation(s.aggFn, s.field, s.level, p, 'field', report)
    if (s.type === 'table' && s.sortOrder !== undefined) {
      report(
        [...p, 'sortOrder'],
        "sortOrder is not kept by servers that store tiles in the config form (FACTS.md); use the config form's orderBy",
        undefined,
        'warning'
      )
    }
    if (
      i > 0 &&
      'groupBy' in first &&
      JSON.stringify(s.groupBy ?? []) !== JSON.stringify(first.groupBy ?? [])
    ) {
      report([...p, 'groupBy'], 'all series of a tile must have the same groupBy (the tile has one grouping)')
    }
  })
  if (tile.asRatio && (first.type !== 'time' || list.length !== 2)) {
    report(
      [...path.slice(0, -1), 'asRatio'],
      'asRatio needs a time tile with exactly two series (the server stores false otherwise)'
    )
  }
}

const sourceKey = (s: { source?: string; sourceId?: string }): string =>
  `${s.source ?? ''}\u0000${s.sourceId ?? ''}`

function checkSourceRef(
  s: { source?: string; sourceId?: string },
  path: PathSegment[],
  report: Report,
  required: boolean
): void {
  if (s.source !== undefined && s.sourceId !== undefined)
    report([...path, 'sourceId'], 'use `source` or `sourceId`, not both')
  else if (required && s.source === undefined && s.sourceId === undefined) {
    report(path, 'needs a data source: `source` (by name) or `sourceId`')
  }
}

function checkConnectionRef(
  c: { connection?: string; connectionId?: string },
  path: PathSegment[],
  report: Report
): void {
  if (c.connection !== undefined && c.connectionId !== undefined)
    report([...path, 'connectionId'], 'use `connection` or `connectionId`, not both')
  else if (c.connection === undefined && c.connectionId === undefined)
    report(path, 'a raw-SQL tile needs its connection: `connection` (by name) or `connectionId`')
}

function checkSelectItem(item: SelectItemSpec, path: PathSegment[], report: Report): void {
  checkAggregation(item.aggFn, item.valueExpression, item.level, path, 'valueExpression', report)
}

/** SelectItem rules (OpenAPI): count takes no value expression, every other function needs one. */
function checkAggregation(
  aggFn: string,
  value: string | undefined,
  level: number | undefined,
  path: PathSegment[],
  valueField: string,
  report: Report
): void {
  if (aggFn === 'count' && value !== undefined)
    report([...path, valueField], 'count takes no value expression')
  if (aggFn !== 'count' && value === undefined) {
    report([...path, 'aggFn'], `${aggFn} needs a value expression in \`${valueField}\``)
  }
  if (aggFn === 'quantile' && level === undefined)
    report([...path, 'aggFn'], 'quantile needs `level` (e.g. 0.95)')
  if (aggFn !== 'quantile' && level !== undefined)
    report([...path, 'level'], 'level only applies to quantile')
}

/**
 * Every `where` in the document, whatever else is wrong with it: a filter typo is worth reporting even
 * in a manifest that also has a schema error. Errors point at the column inside the expression.
 */
export function checkFilters(doc: ParsedDocument): Diagnostic[] {
  const out: Diagnostic[] = []
  // Depth-first over one shared path (the depth is bounded by the YAML limits), last child first: the
  // order of the stack walk this replaced, without a path array per value of every manifest.
  const path: PathSegment[] = []
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== 'object') return
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) visitChild(i, value[i])
      return
    }
    const record = value as Record<string, unknown>
    // A tile's or filter's `where`, and a dashboard's saved query, in Lucene unless they say otherwise.
    for (const [field, language] of FILTER_FIELDS) {
      const text = record[field]
      const lang = record[language]
      if (typeof text !== 'string' || (lang !== undefined && lang !== 'lucene')) continue
      const problem = checkLucene(text)
      if (!problem) continue
      const fieldPath = [...path, field]
      const scalar = doc.scalarAt(fieldPath)
      // On a one-line scalar we can point at the exact column; otherwise at the scalar.
      const at = scalar
        ? { ...scalar.location, column: scalar.columnOf(problem.offset) }
        : doc.locate(fieldPath)
      out.push(diagnostic('validate', 'error', problem.message, { ...at, field: formatPath(fieldPath) }))
    }
    const keys = Object.keys(record)
    for (let i = keys.length - 1; i >= 0; i--) visitChild(keys[i]!, record[keys[i]!])
  }
  const visitChild = (segment: PathSegment, value: unknown): void => {
    if (value === null || typeof value !== 'object') return
    path.push(segment)
    visit(value)
    path.pop()
  }
  visit(doc.value)
  return out
}

const FILTER_FIELDS = [
  ['where', 'whereLanguage'],
  ['savedQuery', 'savedQueryLanguage']
] as const

/** Runs on the raw document too (fields of the wrong type are skipped), so it adds to schema errors. */
export function checkAlert(
  doc: ParsedDocument,
  raw: Partial<Record<keyof AlertSpec, unknown>>,
  mode: 'self-hosted' | 'managed' = 'self-hosted'
): Diagnostic[] {
  const out: Diagnostic[] = []
  const report = reporter(doc, out)
  const a = {
    threshold: typeof raw.threshold === 'number' ? raw.threshold : undefined,
    thresholdMax: typeof raw.thresholdMax === 'number' ? raw.thresholdMax : undefined,
    thresholdType: typeof raw.thresholdType === 'string' ? raw.thresholdType : undefined
  }
  checkAlertTarget(raw, report)
  if (a.thresholdType !== undefined) {
    const ranged = (RANGE_THRESHOLD_TYPES as readonly string[]).includes(a.thresholdType)
    if (ranged && raw.thresholdMax === undefined) {
      report(['thresholdMax'], `is required when thresholdType is ${a.thresholdType}`, ['thresholdType'])
    }
    if (ranged && a.thresholdMax !== undefined && a.threshold !== undefined && a.thresholdMax < a.threshold) {
      report(['thresholdMax'], `must be >= threshold (${a.threshold})`)
    }
    if (!ranged && raw.thresholdMax !== undefined) {
      report(['thresholdMax'], `only applies to between and not_between, not ${a.thresholdType}`)
    }
  }
  checkAlertChannels(raw, mode, report)
  checkSchedule(raw, report)
  return out
}

const YEAR_MS = 365 * 24 * 3_600_000

/**
 * common-utils validateAlertScheduleOffsetMinutes and scheduleStartAtSchema: the offset stays below the interval and
 * is 0 with a start date; the start date lies within a year ahead and ten years back (of the time of validation).
 */
function checkSchedule(raw: Partial<Record<keyof AlertSpec, unknown>>, report: Report): void {
  const offset = typeof raw.scheduleOffsetMinutes === 'number' ? raw.scheduleOffsetMinutes : undefined
  const minutes = ALERT_INTERVAL_MINUTES[raw.interval as keyof typeof ALERT_INTERVAL_MINUTES]
  if (offset !== undefined && minutes !== undefined && offset >= minutes)
    report(
      ['scheduleOffsetMinutes'],
      `must be less than the interval (${String(raw.interval)} is ${minutes} minute${minutes === 1 ? '' : 's'})`
    )
  if (typeof raw.scheduleStartAt !== 'string') return
  if (offset !== undefined && offset > 0)
    report(
      ['scheduleOffsetMinutes'],
      'must be 0 (or left out) with scheduleStartAt: the start date aligns the windows'
    )
  const at = Date.parse(raw.scheduleStartAt)
  if (Number.isNaN(at)) return
  const now = Date.now()
  if (at > now + YEAR_MS) report(['scheduleStartAt'], 'must be within a year from now')
  if (at < now - 10 * YEAR_MS) report(['scheduleStartAt'], 'must be within ten years in the past')
}

/** A tile alert names its dashboard and tile; a saved-search alert its saved search (real-server.md §2.2). */
function checkAlertTarget(raw: Partial<Record<keyof AlertSpec, unknown>>, report: Report): void {
  const saved = raw.source === 'saved_search'
  const misplaced = (fields: Array<keyof AlertSpec>, why: string) => {
    for (const f of fields) if (raw[f] !== undefined) report([f], why)
  }
  if (saved) {
    if (raw.savedSearch !== undefined && raw.savedSearchId !== undefined)
      report(['savedSearchId'], 'use `savedSearch` (by name) or `savedSearchId`, not both')
    else if (raw.savedSearch === undefined && raw.savedSearchId === undefined)
      report(['savedSearch'], 'a saved_search alert needs `savedSearch` (by name) or `savedSearchId`', [
        'source'
      ])
    misplaced(
      ['dashboard', 'tile'],
      'only tile alerts have a dashboard and tile (this one is source: saved_search)'
    )
  } else {
    if (raw.dashboard === undefined)
      report(['dashboard'], 'is required (a tile alert: the dashboard, by name)', [])
    if (raw.tile === undefined) report(['tile'], 'is required (a tile alert: the tile, by name)', [])
    misplaced(
      ['savedSearch', 'savedSearchId', 'groupBy'],
      'only saved_search alerts have this (set `source: saved_search`)'
    )
  }
}

/**
 * `channel` or `channels` (common-utils types.ts validateAlertChannelSelection); webhook channels name one
 * webhook; email and the webhook extras exist only in the managed API, which has no `channels`.
 */
function checkAlertChannels(
  raw: Partial<Record<keyof AlertSpec, unknown>>,
  mode: 'self-hosted' | 'managed',
  report: Report
): void {
  if (raw.channel !== undefined && raw.channels !== undefined)
    report(['channels'], 'use `channel` or `channels`, not both')
  else if (raw.channel === undefined && raw.channels === undefined)
    report(['channel'], 'is required (or `channels`, a list)', [])
  if (mode === 'managed' && raw.channels !== undefined)
    report(['channels'], 'the managed API has no `channels`: an alert has one `channel` there')
  const list: Array<[unknown, PathSegment[]]> = Array.isArray(raw.channels)
    ? raw.channels.map((c, i) => [c, ['channels', i]])
    : raw.channel !== undefined
      ? [[raw.channel, ['channel']]]
      : []
  const seen = new Map<string, number>()
  list.forEach(([value, path], i) => {
    if (value === null || typeof value !== 'object') return
    const c = value as Record<string, unknown>
    // Self-hosted, the schema takes webhook channels only, and says so.
    if (c.type !== 'webhook') return
    if (c.webhook !== undefined && c.webhookId !== undefined)
      report([...path, 'webhookId'], 'use `webhook` or `webhookId`, not both')
    if (c.webhook === undefined && c.webhookId === undefined)
      report(path, 'needs `webhook` (by name) or `webhookId`')
    if (mode === 'self-hosted')
      for (const extra of ['webhookService', 'slackChannelId', 'severity'])
        if (c[extra] !== undefined)
          report(
            [...path, extra],
            `${extra} exists only in the managed API (the self-hosted server drops it)`
          )
    const key = JSON.stringify([c.webhook ?? null, c.webhookId ?? null])
    const first = seen.get(key)
    if (first !== undefined)
      report(path, `duplicate channel (the same as channels[${first}]): the server refuses it`)
    else seen.set(key, i)
  })
}

/** A raw-SQL query names the alert interval's parameter, or a macro that expands to it. */
const usesInterval = (sql: string): boolean => /interval(Milli)?seconds|\$__\w*interval/i.test(sql)

/** `name` is 1-50 letters, digits and whitespace (CONTRACT.md, service-update). */
export const SERVICE_NAME_PATTERN = /^[A-Za-z0-9\s]{1,50}$/

export function isIpOrCidr(value: string): boolean {
  const [addr, prefix, ...rest] = value.split('/')
  if (rest.length > 0 || !addr) return false
  const family = isIP(addr)
  if (family === 0) return false
  if (prefix === undefined) return true
  if (!/^(0|[1-9]\d{0,2})$/.test(prefix)) return false
  return Number(prefix) <= (family === 4 ? 32 : 128)
}

export function checkServiceSettings(doc: ParsedDocument, s: ServiceSettingsSpec): Diagnostic[] {
  const out: Diagnostic[] = []
  const report = reporter(doc, out)
  if (s.name !== undefined && (!SERVICE_NAME_PATTERN.test(s.name) || s.name.trim() === '')) {
    const odd = [...s.name].find(ch => !/[A-Za-z0-9\s]/.test(ch))
    report(
      ['name'],
      `must be 1-50 characters of letters, digits and whitespace, not only whitespace (the cloud API's rule)${odd ? `; "${odd}" is not allowed` : ''}`
    )
  }
  const sources = new Set<string>()
  s.ipAccessList?.forEach((entry, i) => {
    if (!isIpOrCidr(entry.source))
      report(['ipAccessList', i, 'source'], `"${entry.source}" is not an IPv4/IPv6 address or CIDR`)
    if (sources.has(entry.source)) report(['ipAccessList', i, 'source'], `duplicate source "${entry.source}"`)
    sources.add(entry.source)
  })
  const endpoints = new Set<string>()
  s.privateEndpointIds?.forEach((id, i) => {
    if (endpoints.has(id)) report(['privateEndpointIds', i], `duplicate private endpoint id "${id}"`)
    endpoints.add(id)
  })
  const protocols = new Set<string>()
  s.endpoints?.forEach((e, i) => {
    if (protocols.has(e.protocol)) report(['endpoints', i, 'protocol'], `duplicate protocol "${e.protocol}"`)
    protocols.add(e.protocol)
  })
  return out
}

/** What cross-document rules need from a document, read from its raw value so broken ones count too. */
export interface DashboardView {
  doc: ParsedDocument
  name?: string
  id?: string
  renamedFrom?: string
  /** `sqlTemplate`: a raw-SQL tile's query. */
  tiles: Array<{ name: string; displayType?: string; sqlTemplate?: string }>
  /** The dashboards its tiles' link-outs name (`target.dashboard`), and where. */
  links: Array<{ dashboard: string; path: PathSegment[] }>
}
export interface AlertView {
  doc: ParsedDocument
  name?: string
  dashboard?: string
  tile?: string
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
      return [{ name, displayType: typed ? tileDisplayType(typed) : undefined, sqlTemplate: sql }]
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
  const where = (doc: ParsedDocument, path: PathSegment[]) => `${doc.file}:${doc.locate(path).line}`
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
  // Same-named dashboards are told apart by their `id:` pins (pair.ts pairs pins first): each of them needs
  // one. Two pins of one id are reported above.
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
  // A link-out names its dashboard too (links.ts pairs the name with one manifest): it cannot tell twins apart.
  for (const d of dashboards)
    for (const link of d.links) {
      const twins = pinnedTwins.get(link.dashboard)
      if (twins)
        reporter(d.doc, out)(
          link.path,
          `${twins.length} dashboards are named "${link.dashboard}" (${twins.map(t => where(t.doc, ['name'])).join(', ')}): a link names its dashboard by name, so it cannot tell which; link to one by \`id:\`, or rename one of them`
        )
    }
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
    if (a.tile === undefined) continue
    const tile = dash.tiles.find(t => t.name === a.tile)
    if (!tile) {
      const guess = didYouMean(
        a.tile,
        dash.tiles.map(t => t.name)
      )
      report(
        ['tile'],
        `dashboard "${dash.name}" has no tile named "${a.tile}"${guess ? ` (did you mean "${guess}"?)` : ''}`
      )
      continue
    }
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
  out.push(...checkLookAlikeNames({ dashboard: dashboards, alert: alerts }))
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
  return out
}
