/**
 * The internal form -> the v2 form: what a v2 read shows of a record. Rules from HyperDX 2.36
 * packages/api/src/routers/external-api/v2/utils/dashboards.ts (convertToExternalTileChartConfig, its select-item
 * helper and defaultTileConfig); the code is ours. The emulator stores tiles in the v2 form, so this runs where the web
 * UI writes a record (stored-tile.ts); a v2 read of a stored tile is dashboard-output.ts, the same rules over the v2
 * form's keys.
 */
import { resolvePaletteToken } from '../palette.js'
import { AGGREGATE_FUNCTIONS, QUANTILE_LEVELS } from '../rules/vocabulary.js'
import type { JsonObject } from '../types.js'
import { dropNil, has, items, pick } from './json.js'

type Json = JsonObject

const DEFAULT_SELECT_ITEM = { aggFn: 'count', where: '' }
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)

function selectItemToExternal(item: Json): Json {
  const aggFn = (AGGREGATE_FUNCTIONS as readonly unknown[]).includes(item.aggFn) ? item.aggFn : 'none'
  const level =
    aggFn === 'quantile' && (QUANTILE_LEVELS as readonly unknown[]).includes(item.level)
      ? item.level
      : undefined
  const stale = aggFn === 'count' && Boolean(item.valueExpression)
  return dropNil({
    ...pick(item, ['alias', 'metricType', 'metricName', 'numberFormat']),
    ...(stale ? {} : pick(item, ['valueExpression'])),
    aggFn,
    where: item.aggCondition ?? '',
    whereLanguage: item.aggConditionLanguage ?? 'lucene',
    periodAggFn: item.isDelta ? 'delta' : undefined,
    level
  })
}

/** An internal config in the v2 form (what a v2 read returns); undefined when that form has no shape for it. */
export function internalToExternal(c: Json): Json | undefined {
  if (c.configType === 'sql') return rawSqlToExternal(c)
  if (c.configType === 'promql') return undefined
  const b = builderParts(c)
  switch (c.displayType) {
    case 'line':
    case 'stacked_bar':
      return timeChartToExternal(c, b)
    case 'number':
      return numberToExternal(c, b)
    case 'pie':
    case 'bar':
      return categoricalToExternal(c, b)
    case 'table':
      return tableToExternal(c, b)
    case 'search':
    case 'event_patterns':
      return rowsToExternal(c, b)
    case 'markdown':
      return { displayType: 'markdown', markdown: text(c.markdown) ?? '' }
    case 'heatmap':
      return heatmapToExternal(c, b)
  }
  return undefined
}

function rawSqlToExternal(c: Json): Json | undefined {
  const refs = {
    configType: 'sql',
    displayType: c.displayType,
    connectionId: c.connection,
    sqlTemplate: c.sqlTemplate
  }
  const time = {
    alignDateRangeToGranularity: c.alignDateRangeToGranularity,
    fillNulls: c.fillNulls !== false
  }
  switch (c.displayType) {
    case 'line':
      return dropNil({
        ...refs,
        sourceId: c.source,
        ...time,
        fitYAxisToData: c.fitYAxisToData,
        numberFormat: c.numberFormat,
        compareToPreviousPeriod: c.compareToPreviousPeriod,
        seriesLimit: c.seriesLimit
      })
    case 'stacked_bar':
      return dropNil({
        ...refs,
        sourceId: c.source,
        ...time,
        numberFormat: c.numberFormat,
        seriesLimit: c.seriesLimit
      })
    case 'table':
      return dropNil({ ...refs, sourceId: c.source, numberFormat: c.numberFormat, onClick: c.onClick })
    case 'number':
      return dropNil({
        ...refs,
        sourceId: c.source,
        numberFormat: c.numberFormat,
        color: resolvePaletteToken(c.color)
      })
    case 'pie':
    case 'bar':
      return dropNil({ ...refs, sourceId: c.source, numberFormat: c.numberFormat })
  }
  return undefined
}

/** What the builder variants read alike from a record. */
interface BuilderParts {
  sourceId: string
  /** The select items, v2-shaped: all of them, or the first; a record without a list reads as one count. */
  select: (all: boolean) => Json[]
  /** The select items as the record holds them; undefined when `select` is not a list. */
  list: Json[] | undefined
  formulas: unknown
  showOperandSeries: unknown
  asRatio: boolean
}

function builderParts(c: Json): BuilderParts {
  const list = Array.isArray(c.select) ? items(c.select) : undefined
  const formulas = Array.isArray(c.formulas) && c.formulas.length > 0 ? c.formulas : undefined
  return {
    sourceId: has(c.source) ? String(c.source) : '',
    select: all =>
      list ? (all ? list : list.slice(0, 1)).map(selectItemToExternal) : [{ ...DEFAULT_SELECT_ITEM }],
    list,
    formulas,
    showOperandSeries: formulas ? c.showOperandSeries : undefined,
    asRatio: c.seriesReturnType === 'ratio' && Array.isArray(c.select) && c.select.length === 2
  }
}

function timeChartToExternal(c: Json, b: BuilderParts): Json {
  const line = c.displayType === 'line'
  return dropNil({
    displayType: c.displayType,
    sourceId: b.sourceId,
    asRatio: b.asRatio,
    alignDateRangeToGranularity: c.alignDateRangeToGranularity,
    fillNulls: c.fillNulls !== false,
    fitYAxisToData: line ? c.fitYAxisToData : undefined,
    groupBy: text(c.groupBy),
    select: b.select(true),
    compareToPreviousPeriod: line ? c.compareToPreviousPeriod : undefined,
    numberFormat: c.numberFormat,
    seriesLimit: c.seriesLimit,
    formulas: b.formulas,
    showOperandSeries: b.showOperandSeries
  })
}

function numberToExternal(c: Json, b: BuilderParts): Json {
  return dropNil({
    displayType: 'number',
    sourceId: b.sourceId,
    select: b.select(b.formulas !== undefined),
    numberFormat: c.numberFormat,
    formulas: b.formulas,
    color: resolvePaletteToken(c.color),
    colorRules: c.colorRules,
    backgroundChart: c.backgroundChart
  })
}

function categoricalToExternal(c: Json, b: BuilderParts): Json {
  return dropNil({
    displayType: c.displayType,
    sourceId: b.sourceId,
    select: b.select(false),
    groupBy: text(c.groupBy),
    orderBy: text(c.orderBy),
    numberFormat: c.numberFormat,
    limit: c.seriesLimit
  })
}

function tableToExternal(c: Json, b: BuilderParts): Json {
  return dropNil({
    ...pick(c, ['having', 'numberFormat', 'groupByColumnsOnLeft', 'onClick']),
    displayType: 'table',
    sourceId: b.sourceId,
    asRatio: b.asRatio,
    groupBy: text(c.groupBy),
    select: b.select(true),
    orderBy: text(c.orderBy),
    formulas: b.formulas,
    showOperandSeries: b.showOperandSeries
  })
}

/** search and event_patterns: rows of a source, with the tile's own filter. */
function rowsToExternal(c: Json, b: BuilderParts): Json {
  return dropNil({
    displayType: c.displayType,
    sourceId: b.sourceId,
    select: text(c.select) ?? '',
    where: c.displayType === 'search' ? c.where : (text(c.where) ?? ''),
    whereLanguage: c.whereLanguage ?? 'lucene'
  })
}

function heatmapToExternal(c: Json, b: BuilderParts): Json {
  const item = b.list?.[0]
  return dropNil({
    displayType: 'heatmap',
    sourceId: b.sourceId,
    select: [
      item && item.valueExpression
        ? dropNil({
            valueExpression: item.valueExpression,
            countExpression: item.countExpression,
            heatmapScaleType: item.heatmapScaleType
          })
        : { valueExpression: '' }
    ],
    where: text(c.where) ?? '',
    whereLanguage: c.whereLanguage ?? 'lucene',
    numberFormat: c.numberFormat
  })
}

/** What a v2 read shows of a config it has no shape for (`defaultTileConfig`). */
export function fallbackExternal(c: Json): Json {
  if (c.configType === 'sql')
    return { configType: 'sql', displayType: 'line', connectionId: c.connection, sqlTemplate: c.sqlTemplate }
  return {
    displayType: 'line',
    sourceId: has(c.source) ? String(c.source) : '',
    select: [{ ...DEFAULT_SELECT_ITEM }]
  }
}
