import type { Issue } from './errors.js'
import { isPlainObject } from './errors.js'
import type { JsonObject, StoredTile, TileConfig } from './types.js'

/** A normalized tile before the store decides its id; `requestedId` is the id the request carried, if any. */
export type TileDraft = Omit<StoredTile, 'id'> & { requestedId?: string }

const RATIO_TYPES = new Set(['line', 'stacked_bar', 'table'])

/** FACTS.md "Alerts": an alert's tile must be line, stacked_bar or number. */
const ALERTABLE_DISPLAY_TYPES = new Set(['line', 'stacked_bar', 'number'])

export function isAlertable(tile: StoredTile): boolean {
  return ALERTABLE_DISPLAY_TYPES.has(tile.config.displayType) && tile.config.configType !== 'sql'
}

/**
 * Rules the OpenAPI document cannot express: a tile carries `series` (CONTRACT.md) or `config` (FACTS.md, newer form),
 * not both and not neither, and a tile's series are all of one type (the document: "all must be the same type").
 */
export function checkTileForms(tiles: unknown[], issues: Issue[]): void {
  tiles.forEach((tile, index) => {
    if (!isPlainObject(tile)) return
    const hasSeries = tile.series !== undefined
    const hasConfig = tile.config !== undefined
    if (hasSeries && hasConfig)
      issues.push({ path: `tiles.${index}`, message: 'Provide either series or config, not both' })
    if (!hasSeries && !hasConfig)
      issues.push({ path: `tiles.${index}`, message: 'Either series or config is required' })
    if (Array.isArray(tile.series)) {
      const types = new Set(tile.series.map(series => (isPlainObject(series) ? series.type : undefined)))
      if (types.size > 1)
        issues.push({ path: `tiles.${index}.series`, message: 'All series must have the same type' })
    }
  })
}

/** A request tile (already schema-checked) in the server's normal form. */
export function normalizeTile(input: JsonObject): TileDraft {
  const tile = structuredClone(input)
  const config = Array.isArray(tile.series)
    ? seriesToConfig(tile.series as JsonObject[], tile.asRatio === true)
    : normalizeConfig(tile.config as TileConfig)
  const draft: TileDraft = {
    name: tile.name as string,
    x: tile.x as number,
    y: tile.y as number,
    w: tile.w as number,
    h: tile.h as number,
    config
  }
  if (typeof tile.containerId === 'string') draft.containerId = tile.containerId
  if (typeof tile.tabId === 'string') draft.tabId = tile.tabId
  if (typeof tile.id === 'string') draft.requestedId = tile.id
  return draft
}

/**
 * FACTS.md "How a series tile comes back": the server stores the newer config form.
 * - `time` -> line (stacked_bar when the series says so); table/number/search/markdown keep their names;
 * - each series -> one select item; a number tile keeps only its first series;
 * - the first series' sourceId -> config.sourceId; its groupBy array -> one comma-joined string;
 * - asRatio survives only on line/stacked_bar with exactly two series; fillNulls defaults to true there;
 * - dataSource and other unknown series keys are dropped.
 */
export function seriesToConfig(series: JsonObject[], asRatio: boolean): TileConfig {
  const first = series[0]
  const type = first.type as string
  const config: TileConfig = { displayType: 'line' }
  switch (type) {
    case 'time':
      config.displayType = first.displayType === 'stacked_bar' ? 'stacked_bar' : 'line'
      break
    case 'markdown':
      return { displayType: 'markdown', markdown: first.content as string }
    case 'search':
      config.displayType = 'search'
      assignSource(config, first)
      config.select = ((first.fields as string[] | undefined) ?? []).join(', ')
      config.where = (first.where as string | undefined) ?? ''
      config.whereLanguage = (first.whereLanguage as string | undefined) ?? 'lucene'
      return config
    default:
      config.displayType = type
  }
  assignSource(config, first)
  const kept = type === 'number' ? [first] : series
  config.select = kept.map(seriesToSelectItem)
  if (type !== 'number' && Array.isArray(first.groupBy))
    config.groupBy = (first.groupBy as string[]).join(',')
  const numberFormat = kept.find(item => item.numberFormat !== undefined)?.numberFormat
  if (numberFormat !== undefined) config.numberFormat = numberFormat
  // HyperDX returns asRatio on builder line, stacked_bar and table tiles: true with exactly two select items.
  if (RATIO_TYPES.has(config.displayType)) config.asRatio = asRatio && series.length === 2
  if (config.displayType === 'line' || config.displayType === 'stacked_bar') config.fillNulls = true
  return config
}

function assignSource(config: TileConfig, series: JsonObject): void {
  // A contract series may omit sourceId (it names `dataSource: events` instead): then the config has none either.
  if (typeof series.sourceId === 'string') config.sourceId = series.sourceId
}

function seriesToSelectItem(series: JsonObject): JsonObject {
  const item: JsonObject = {
    aggFn: series.aggFn,
    where: (series.where as string | undefined) ?? '',
    whereLanguage: (series.whereLanguage as string | undefined) ?? 'lucene'
  }
  if (series.aggFn !== 'count' && typeof series.field === 'string') item.valueExpression = series.field
  if (series.alias !== undefined) item.alias = series.alias
  if (series.level !== undefined) item.level = series.level
  if (series.metricName !== undefined) item.metricName = series.metricName
  if (series.metricDataType !== undefined) item.metricType = series.metricDataType
  return item
}

/** A tile sent in config form gets the same defaults as a converted series tile (FACTS.md: normalized form). */
export function normalizeConfig(input: TileConfig): TileConfig {
  const config: TileConfig = { ...input }
  if (config.configType === 'sql') return config
  switch (config.displayType) {
    case 'line':
    case 'stacked_bar':
      config.select = fillSelect(config.select)
      config.asRatio = config.asRatio === true && Array.isArray(config.select) && config.select.length === 2
      config.fillNulls = config.fillNulls ?? true
      break
    case 'table':
      config.select = fillSelect(config.select)
      config.asRatio = config.asRatio === true && Array.isArray(config.select) && config.select.length === 2
      break
    case 'number':
    case 'pie':
    case 'bar':
      config.select = fillSelect(config.select)
      break
    case 'search':
      config.where = config.where ?? ''
      config.whereLanguage = config.whereLanguage ?? 'lucene'
      break
  }
  return config
}

function fillSelect(select: unknown): unknown {
  if (!Array.isArray(select)) return select
  return select.map(item =>
    isPlainObject(item)
      ? { ...item, where: item.where ?? '', whereLanguage: item.whereLanguage ?? 'lucene' }
      : item
  )
}
