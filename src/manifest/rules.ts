/**
 * Rules that the schemas cannot express: fields that must agree inside a tile, alerts that must point at
 * a tile that exists and can carry them, names that must be unique across files. Several of them exist
 * because the server would silently rewrite the value (FACTS.md), which would show as a change on every
 * plan forever.
 */
import { isIP } from 'node:net'
import type { Diagnostic } from '../diagnostics.js'
import { diagnostic } from '../diagnostics.js'
import { didYouMean } from './issues.js'
import { checkLucene } from './lucene.js'
import {
  Series as SeriesSchema,
  Tile as TileSchema,
  TileConfig as TileConfigSchema,
  type AlertSpec,
  type DashboardSpec,
  type SelectItemSpec,
  type SeriesSpec,
  type ServiceSettingsSpec,
  type TileSpec
} from './schema.js'
import { ALERTABLE_DISPLAY_TYPES, LIMITS, MANAGED_AGG_FNS, RANGE_THRESHOLD_TYPES } from './vocabulary.js'
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
  mode: 'self-hosted' | 'managed' = 'self-hosted'
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
    // The tile's own rules need its structure; fix the tile's schema errors (reported) to see them.
    const typed = TileSchema.safeParse(tile)
    if (typed.success) checkTile(typed.data, path, report)
    else checkPartialTile(tile, path, report)
  })
  return out
}

/**
 * What the managed API's tile schemas leave out (the cloud's OpenAPI document: ClickStackSelectItem and the series
 * list their aggregation functions without `increase`; no tile config has `seriesLimit`). Read from the raw
 * document, so these are reported next to any schema error.
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
  tiles.forEach((value, i) => {
    const tile = record(value)
    const series: unknown[] = Array.isArray(tile?.series) ? tile.series : []
    series.forEach((s, j) => checkAggFn(s, ['tiles', i, 'series', j]))
    const config = record(tile?.config)
    const select: unknown[] = Array.isArray(config?.select) ? config.select : []
    select.forEach((item, j) => checkAggFn(item, ['tiles', i, 'config', 'select', j]))
    if (config && 'seriesLimit' in config)
      report(
        ['tiles', i, 'config', 'seriesLimit'],
        'seriesLimit is not part of the managed API: remove it in managed mode'
      )
  })
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
    if (c.displayType !== 'markdown') checkSourceRef(c, cpath, report, true)
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
    if ('select' in c && Array.isArray(c.select)) {
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
  }
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
  const stack: Array<[unknown, PathSegment[]]> = [[doc.value, []]]
  while (stack.length > 0) {
    const [value, path] = stack.pop()!
    if (value === null || typeof value !== 'object') continue
    if (Array.isArray(value)) {
      value.forEach((v, i) => stack.push([v, [...path, i]]))
      continue
    }
    const record = value as Record<string, unknown>
    if (typeof record.where === 'string' && record.whereLanguage !== 'sql') {
      const problem = checkLucene(record.where)
      if (problem) {
        const wherePath = [...path, 'where']
        const scalar = doc.scalarAt(wherePath)
        // On a one-line scalar we can point at the exact column; otherwise at the scalar.
        const at = scalar
          ? { ...scalar.location, column: scalar.columnOf(problem.offset) }
          : doc.locate(wherePath)
        out.push(diagnostic('validate', 'error', problem.message, { ...at, field: formatPath(wherePath) }))
      }
    }
    for (const [k, v] of Object.entries(record)) stack.push([v, [...path, k]])
  }
  return out
}

/** Runs on the raw document too (fields of the wrong type are skipped), so it adds to schema errors. */
export function checkAlert(
  doc: ParsedDocument,
  raw: Partial<Record<keyof AlertSpec, unknown>>
): Diagnostic[] {
  const out: Diagnostic[] = []
  const report = reporter(doc, out)
  const a = {
    source: raw.source,
    threshold: typeof raw.threshold === 'number' ? raw.threshold : undefined,
    thresholdMax: typeof raw.thresholdMax === 'number' ? raw.thresholdMax : undefined,
    thresholdType: typeof raw.thresholdType === 'string' ? raw.thresholdType : undefined,
    channel:
      raw.channel !== null && typeof raw.channel === 'object'
        ? (raw.channel as Record<string, unknown>)
        : undefined
  }
  if (a.source === 'saved_search') {
    report(
      ['source'],
      'saved_search alerts are not managed: alert ownership follows its dashboard, so use `source: tile`'
    )
  }
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
  if (a.channel) {
    const { webhook, webhookId } = a.channel
    if (webhook !== undefined && webhookId !== undefined)
      report(['channel', 'webhookId'], 'use `webhook` or `webhookId`, not both')
    if (webhook === undefined && webhookId === undefined)
      report(['channel'], 'needs `webhook` (by name) or `webhookId`')
  }
  return out
}

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
  tiles: Array<{ name: string; displayType?: string }>
}
export interface AlertView {
  doc: ParsedDocument
  name?: string
  dashboard?: string
  tile?: string
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)

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
      return [{ name, displayType: typed ? tileDisplayType(typed) : undefined }]
    })
  }
}

export function alertView(doc: ParsedDocument, raw: Record<string, unknown>): AlertView {
  return { doc, name: str(raw.name), dashboard: str(raw.dashboard), tile: str(raw.tile) }
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
  const pins = new Map<string, DashboardView>()
  for (const d of dashboards) {
    if (d.name === undefined) continue
    const prev = byName.get(d.name)
    if (prev)
      reporter(d.doc, out)(
        ['name'],
        `duplicate dashboard name "${d.name}" (also at ${where(prev.doc, ['name'])})`
      )
    else byName.set(d.name, d)
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
    }
  }
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
