import { resolvePaletteToken } from './palette.js'
import { AGGREGATE_FUNCTIONS, QUANTILE_LEVELS } from './rules/vocabulary.js'
import type { JsonObject, StoredDashboard, StoredTile, TileConfig } from './types.js'

/**
 * A stored dashboard as the API returns it: HyperDX `convertToExternalDashboard` and the converters it calls
 * (`packages/api/src/routers/external-api/v2/utils/dashboards.ts`, `packages/api/src/utils/externalApi.ts`), rule by
 * rule; the code is ours.
 * - PromQL tiles (`configType: 'promql'`, made in the UI) are left out: this API has no shape for them, and a PUT
 *   replaces the whole tile list, so an update drops them.
 * - `filters`, `savedQuery`, `savedQueryLanguage` and `savedFilterValues` are always present (`[]` / `null`), and
 *   `containers` only when there is at least one.
 * - A tile's `containerId` / `tabId` that no container or tab resolves are dropped on read (self-heal).
 * - Each config variant returns its own fields with the server's defaults (`fillNulls`, `asRatio`, `where`, ...).
 */
export function externalDashboard(dashboard: StoredDashboard): JsonObject {
  return dashboardOutput(dashboard, {})
}

/** externalDashboard, with the managed cloud's differences where `options` asks for them. */
export function dashboardOutput(dashboard: StoredDashboard, options: OutputOptions): JsonObject {
  const containers = dashboard.containers ?? []
  const byId = new Map(containers.map(c => [String(c.id), c]))
  return dropUndefined({
    id: dashboard.id,
    name: dashboard.name,
    tiles: dashboard.tiles.filter(tile => !isPromqlTile(tile)).map(tile => externalTile(tile, byId, options)),
    tags: dashboard.tags ?? [],
    filters: (dashboard.filters ?? []).map(externalFilter),
    savedQuery: dashboard.savedQuery ?? null,
    savedQueryLanguage: dashboard.savedQueryLanguage ?? null,
    savedFilterValues: dashboard.savedFilterValues ?? [],
    containers: containers.length > 0 ? containers : undefined,
    refreshInterval: options.next ? dashboard.refreshInterval : undefined
  })
}

export interface OutputOptions {
  /**
   * The managed cloud returns a select item's stored `level` whatever its aggregation, and a count's value
   * expression, though its write schema refuses both (TF dashboard_select_fixups.go).
   */
  staleSelectFields?: boolean
  /**
   * The `next` server (next-server.ts) returns a table tile's `alternateRowBackground`, which 2.36 stores (the UI
   * sets it) but its v2 converter leaves out: the stand-in for a tile setting obsdeploy does not model.
   */
  next?: boolean
}

const isPromqlTile = (tile: StoredTile): boolean => tile.config.configType === 'promql'

function externalTile(
  tile: StoredTile,
  containers: Map<string, JsonObject>,
  options: OutputOptions
): JsonObject {
  let containerId =
    typeof tile.containerId === 'string' && tile.containerId !== '' ? tile.containerId : undefined
  let tabId = typeof tile.tabId === 'string' && tile.tabId !== '' ? tile.tabId : undefined
  const container = containerId === undefined ? undefined : containers.get(containerId)
  if (container === undefined) {
    containerId = undefined
    tabId = undefined
  } else if (tabId !== undefined) {
    const tabs = Array.isArray(container.tabs) ? (container.tabs as JsonObject[]) : []
    if (!tabs.some(tab => tab.id === tabId)) tabId = undefined
  }
  return dropUndefined({
    id: tile.id,
    x: tile.x,
    y: tile.y,
    w: tile.w,
    h: tile.h,
    name: tile.name ?? '',
    config: externalConfig(tile.config, options) ?? defaultConfig(tile.config),
    containerId,
    tabId
  })
}

/** What a tile whose stored config cannot be converted comes back as: a line tile (`defaultTileConfig`). */
function defaultConfig(config: TileConfig): JsonObject {
  if (config.configType === 'sql')
    return {
      configType: 'sql',
      displayType: 'line',
      connectionId: config.connectionId,
      sqlTemplate: config.sqlTemplate
    }
  return { displayType: 'line', sourceId: sourceOf(config), select: [DEFAULT_SELECT_ITEM] }
}

const DEFAULT_SELECT_ITEM = { aggFn: 'count', where: '' }
const sourceOf = (config: TileConfig): string =>
  config.sourceId === undefined || config.sourceId === null ? '' : String(config.sourceId)
const text = (value: unknown, fallback: string | undefined): string | undefined =>
  typeof value === 'string' ? value : fallback

/**
 * `convertToExternalTileChartConfig`: undefined when the stored config has no external shape. The server runs it on the
 * record; internal-form/to-external.ts does that for the web UI's writes. This one reads the stored v2 form instead
 * (`sourceId`, `where`, `asRatio`, `limit` where the record has `source`, `aggCondition`, `seriesReturnType`,
 * `seriesLimit`), so the two look alike but read different keys.
 */
function externalConfig(config: TileConfig, options: OutputOptions): JsonObject | undefined {
  if (config.configType === 'sql') return rawSqlConfig(config)
  const b = builderParts(config, options)
  switch (config.displayType) {
    case 'line':
    case 'stacked_bar':
      return timeChartConfig(config, b)
    case 'table':
      return { ...tableConfig(config, b), ...nextTableSettings(config, options) }
    case 'number':
      return numberConfig(config, b)
    case 'pie':
    case 'bar':
      return categoricalConfig(config, b)
    case 'search':
      return dropUndefined({
        displayType: 'search',
        sourceId: b.sourceId,
        select: text(config.select, ''),
        where: config.where,
        whereLanguage: config.whereLanguage ?? 'lucene'
      })
    case 'markdown':
      return { displayType: 'markdown', markdown: text(config.markdown, '') }
    case 'heatmap':
      return heatmapConfig(config, b)
    case 'event_patterns':
      return {
        displayType: 'event_patterns',
        sourceId: b.sourceId,
        select: text(config.select, ''),
        where: text(config.where, ''),
        whereLanguage: config.whereLanguage ?? 'lucene'
      }
  }
  return undefined
}

/** Raw SQL tiles are returned as stored, with line and stacked_bar's fillNulls default. */
function rawSqlConfig(config: TileConfig): JsonObject | undefined {
  if (!['line', 'stacked_bar', 'table', 'number', 'pie', 'bar'].includes(config.displayType)) return undefined
  const time = config.displayType === 'line' || config.displayType === 'stacked_bar'
  return dropUndefined({ ...config, fillNulls: time ? config.fillNulls !== false : undefined })
}

/** What the builder variants read alike from a stored config. */
interface BuilderParts {
  sourceId: string
  /** The select items as returned: all of them, or the first; a config without a list reads as one count. */
  select: (all: boolean) => unknown[]
  formulas: unknown[] | undefined
  showOperandSeries: unknown
  asRatio: boolean
  groupBy: string | undefined
}

function builderParts(config: TileConfig, options: OutputOptions): BuilderParts {
  const formulas = Array.isArray(config.formulas) && config.formulas.length > 0 ? config.formulas : undefined
  return {
    sourceId: sourceOf(config),
    select: all =>
      Array.isArray(config.select)
        ? (all ? config.select : config.select.slice(0, 1)).map(item =>
            externalSelectItem(item as JsonObject, options)
          )
        : [DEFAULT_SELECT_ITEM],
    formulas,
    showOperandSeries: formulas ? config.showOperandSeries : undefined,
    asRatio: config.asRatio === true && Array.isArray(config.select) && config.select.length === 2,
    groupBy: text(config.groupBy, undefined)
  }
}

function timeChartConfig(config: TileConfig, b: BuilderParts): JsonObject {
  const line = config.displayType === 'line'
  return dropUndefined({
    displayType: config.displayType,
    sourceId: b.sourceId,
    asRatio: b.asRatio,
    alignDateRangeToGranularity: config.alignDateRangeToGranularity,
    fillNulls: config.fillNulls !== false,
    fitYAxisToData: line ? config.fitYAxisToData : undefined,
    groupBy: b.groupBy,
    select: b.select(true),
    compareToPreviousPeriod: line ? config.compareToPreviousPeriod : undefined,
    numberFormat: config.numberFormat,
    seriesLimit: config.seriesLimit ?? undefined,
    formulas: b.formulas,
    showOperandSeries: b.showOperandSeries
  })
}

function tableConfig(config: TileConfig, b: BuilderParts): JsonObject {
  return dropUndefined({
    having: config.having,
    numberFormat: config.numberFormat,
    groupByColumnsOnLeft: config.groupByColumnsOnLeft,
    onClick: config.onClick,
    displayType: 'table',
    sourceId: b.sourceId,
    asRatio: b.asRatio,
    groupBy: b.groupBy,
    select: b.select(true),
    orderBy: text(config.orderBy, undefined),
    formulas: b.formulas,
    showOperandSeries: b.showOperandSeries
  })
}

function nextTableSettings(config: TileConfig, options: OutputOptions): JsonObject {
  return options.next && typeof config.alternateRowBackground === 'boolean'
    ? { alternateRowBackground: config.alternateRowBackground }
    : {}
}

/** A formula number tile returns every operand; operands are always hidden there, so showOperandSeries is not. */
function numberConfig(config: TileConfig, b: BuilderParts): JsonObject {
  return dropUndefined({
    displayType: 'number',
    sourceId: b.sourceId,
    select: b.select(b.formulas !== undefined),
    numberFormat: config.numberFormat,
    formulas: b.formulas,
    color: resolvePaletteToken(config.color),
    colorRules: colorRules(config.colorRules),
    backgroundChart: config.backgroundChart
  })
}

function categoricalConfig(config: TileConfig, b: BuilderParts): JsonObject {
  return dropUndefined({
    displayType: config.displayType,
    sourceId: b.sourceId,
    select: b.select(false),
    groupBy: b.groupBy,
    orderBy: text(config.orderBy, undefined),
    numberFormat: config.numberFormat,
    limit: config.limit ?? undefined
  })
}

/** A heatmap without a value expression comes back as a placeholder that a re-PUT refuses, not as a line tile. */
function heatmapConfig(config: TileConfig, b: BuilderParts): JsonObject {
  const item = Array.isArray(config.select) ? (config.select[0] as JsonObject | undefined) : undefined
  const heatmapItem =
    item && typeof item === 'object' && item.valueExpression
      ? dropUndefined({
          valueExpression: item.valueExpression,
          countExpression: item.countExpression,
          heatmapScaleType: item.heatmapScaleType
        })
      : { valueExpression: '' }
  return dropUndefined({
    displayType: 'heatmap',
    sourceId: b.sourceId,
    select: [heatmapItem],
    where: text(config.where, ''),
    whereLanguage: config.whereLanguage ?? 'lucene',
    numberFormat: config.numberFormat
  })
}

/**
 * `convertToExternalSelectItem`: an aggregation the enum lacks reads `none`; `level` only on a quantile with one of the
 * four levels; a count's leftover value expression is dropped (an empty one stays); `periodAggFn` only when delta.
 */
function externalSelectItem(item: JsonObject, options: OutputOptions): JsonObject {
  const aggFn = (AGGREGATE_FUNCTIONS as readonly unknown[]).includes(item.aggFn) ? item.aggFn : 'none'
  const keep = options.staleSelectFields === true
  const level =
    (aggFn === 'quantile' || keep) && (QUANTILE_LEVELS as readonly unknown[]).includes(item.level)
      ? item.level
      : undefined
  const stale =
    !keep && aggFn === 'count' && typeof item.valueExpression === 'string' && item.valueExpression !== ''
  return dropUndefined({
    alias: item.alias,
    metricType: item.metricType,
    metricName: item.metricName,
    numberFormat: item.numberFormat,
    valueExpression: stale ? undefined : item.valueExpression,
    aggFn,
    where: item.where ?? '',
    whereLanguage: item.whereLanguage ?? 'lucene',
    periodAggFn: item.periodAggFn === 'delta' ? 'delta' : undefined,
    level
  })
}

const RULE_OPERATORS = ['gt', 'gte', 'lt', 'lte', 'between', 'eq', 'neq']

/** `toExternalColorRules`: rules whose colour or operator cannot be returned are dropped; none left is absent. */
function colorRules(value: unknown): JsonObject[] | undefined {
  if (!Array.isArray(value)) return undefined
  const rules = (value as JsonObject[]).flatMap(rule => {
    const color = resolvePaletteToken(rule?.color)
    return color && RULE_OPERATORS.includes(String(rule.operator)) ? [{ ...rule, color }] : []
  })
  return rules.length > 0 ? rules : undefined
}

/**
 * `translateFilterToExternalFilter`: `variableName` only while the filter is a variable, `appliesToSourceIds` only
 * while it broadcasts (absent means it does).
 */
function externalFilter(filter: JsonObject): JsonObject {
  const out = { ...filter }
  if (filter.isVariableEnabled !== true) delete out.variableName
  if (filter.isBroadcastEnabled === false) delete out.appliesToSourceIds
  return out
}

function dropUndefined<T extends JsonObject>(value: T): T {
  for (const key of Object.keys(value)) if (value[key] === undefined) delete value[key]
  return value
}
