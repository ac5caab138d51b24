/**
 * The v2 form -> the internal form: what a v2 write stores in Mongo. Rules from HyperDX 2.36
 * packages/api/src/routers/external-api/v2/utils/dashboards.ts (convertToInternalTileConfig and its select-item
 * helper) and utils/externalApi.ts (translateExternalChartToTileConfig, for the older `series` form); the code is ours.
 */
import { isPlainObject } from '../errors.js'
import type { JsonObject } from '../types.js'
import { dropNil, items, pick } from './json.js'

type Json = JsonObject

/**
 * How the record is written: `insert` is a document save (a key whose value is undefined is left out), `update` a
 * `$set` (the driver writes such a key nested in the tiles as null).
 */
export type WriteKind = 'insert' | 'update'

/** A v2 select item (`where`, `whereLanguage`, `periodAggFn`) as the record holds it (`aggCondition`, …). */
function selectItemToInternal(item: Json): Json {
  return {
    ...pick(item, ['alias', 'metricType', 'metricName', 'aggFn', 'level', 'numberFormat']),
    aggCondition: item.where,
    // Copied as sent: a missing language stays undefined here (see finishRecord).
    aggConditionLanguage: item.whereLanguage,
    isDelta: item.periodAggFn === 'delta',
    valueExpression: item.valueExpression ?? ''
  }
}

const selectToInternal = (c: Json): Json[] => items(c.select).map(selectItemToInternal)

/** A v2 `config` (a request's, or a stored one) in the internal form; `name` is the tile's. */
export function configToInternal(name: string, c: Json): Json {
  if (c.configType === 'sql') return rawSqlToInternal(name, c)
  switch (c.displayType) {
    case 'line':
    case 'stacked_bar':
      return timeChartToInternal(name, c)
    case 'table':
      return tableToInternal(name, c)
    case 'number':
      return numberToInternal(name, c)
    case 'pie':
    case 'bar':
      return categoricalToInternal(name, c)
    case 'heatmap':
      return heatmapToInternal(name, c)
    case 'search':
    case 'event_patterns':
      return rowsToInternal(name, c)
    case 'markdown':
      return markdownToInternal(name, c)
  }
  return dropNil({ ...c, name })
}

function rawSqlToInternal(name: string, c: Json): Json {
  const refs = { name, connection: c.connectionId, sqlTemplate: c.sqlTemplate, source: c.sourceId }
  if (c.displayType === 'line' || c.displayType === 'stacked_bar')
    return dropNil({
      configType: 'sql',
      ...pick(c, [
        'numberFormat',
        'alignDateRangeToGranularity',
        'compareToPreviousPeriod',
        'fitYAxisToData',
        'seriesLimit'
      ]),
      displayType: c.displayType,
      fillNulls: c.fillNulls === false ? false : undefined,
      ...refs
    })
  return dropNil({
    configType: 'sql',
    displayType: c.displayType,
    ...refs,
    numberFormat: c.numberFormat,
    onClick: c.displayType === 'table' ? c.onClick : undefined,
    color: c.displayType === 'number' ? c.color : undefined
  })
}

function timeChartToInternal(name: string, c: Json): Json {
  return dropNil({
    ...pick(c, [
      'groupBy',
      'numberFormat',
      'alignDateRangeToGranularity',
      'compareToPreviousPeriod',
      'fitYAxisToData',
      'formulas',
      'showOperandSeries'
    ]),
    displayType: c.displayType,
    select: selectToInternal(c),
    source: c.sourceId,
    where: '',
    fillNulls: c.fillNulls === false ? false : undefined,
    seriesReturnType: c.asRatio ? 'ratio' : undefined,
    seriesLimit: c.seriesLimit,
    name
  })
}

function tableToInternal(name: string, c: Json): Json {
  return dropNil({
    ...pick(c, [
      'groupBy',
      'numberFormat',
      'having',
      'orderBy',
      'groupByColumnsOnLeft',
      'onClick',
      'formulas',
      'showOperandSeries'
    ]),
    displayType: 'table',
    select: selectToInternal(c),
    source: c.sourceId,
    where: '',
    seriesReturnType: c.asRatio ? 'ratio' : undefined,
    name
  })
}

function numberToInternal(name: string, c: Json): Json {
  const select = selectToInternal(c)
  const formulas = Array.isArray(c.formulas) && c.formulas.length > 0
  return dropNil({
    displayType: 'number',
    select: formulas ? select : select.slice(0, 1),
    source: c.sourceId,
    where: '',
    numberFormat: c.numberFormat,
    formulas: c.formulas,
    showOperandSeries: formulas ? false : undefined,
    color: c.color,
    colorRules: c.colorRules,
    backgroundChart: c.backgroundChart,
    name
  })
}

function categoricalToInternal(name: string, c: Json): Json {
  return dropNil({
    ...pick(c, ['groupBy', 'numberFormat', 'orderBy']),
    displayType: c.displayType,
    select: selectToInternal(c).slice(0, 1),
    source: c.sourceId,
    where: '',
    seriesLimit: c.limit,
    name
  })
}

function heatmapToInternal(name: string, c: Json): Json {
  const item = items(c.select)[0] ?? {}
  return dropNil({
    ...pick(c, ['numberFormat']),
    displayType: 'heatmap',
    // Fixed as the editor writes a heatmap's one series; the tile's own filter stays on the config.
    select: [
      {
        aggFn: 'count',
        aggCondition: '',
        aggConditionLanguage: 'lucene',
        valueExpression: item.valueExpression,
        ...(item.countExpression !== undefined ? { countExpression: item.countExpression } : {}),
        ...(item.heatmapScaleType !== undefined ? { heatmapScaleType: item.heatmapScaleType } : {})
      }
    ],
    source: c.sourceId,
    where: c.where,
    whereLanguage: c.whereLanguage ?? 'lucene',
    name
  })
}

/** search and event_patterns: rows of a source, with the tile's own filter. */
function rowsToInternal(name: string, c: Json): Json {
  return dropNil({
    ...pick(c, ['select', 'where']),
    displayType: c.displayType,
    source: c.sourceId,
    name,
    whereLanguage: c.whereLanguage ?? 'lucene'
  })
}

function markdownToInternal(name: string, c: Json): Json {
  return dropNil({
    displayType: 'markdown',
    markdown: c.markdown,
    source: '',
    where: '',
    select: [],
    name
  })
}

/** utils/externalApi.ts pickIfTruthy. */
function truthy(source: Json, keys: readonly string[]): Json {
  const out: Json = {}
  for (const key of keys) if (source[key]) out[key] = source[key]
  return out
}

/** A tile in the older `series` form as the record holds it: every default written out, nothing undefined. */
export function seriesToInternal(name: string, series: Json[], asRatio: boolean): Json {
  const first = series[0] ?? {}
  const item = (s: Json): Json => ({
    ...truthy(s, ['alias', 'aggFn', 'level', 'metricName']),
    ...(s.metricDataType ? { metricType: s.metricDataType } : {}),
    valueExpression: s.field ?? '',
    aggCondition: s.where ?? '',
    aggConditionLanguage: s.whereLanguage ?? 'lucene'
  })
  let source: unknown = first.type === 'markdown' ? '' : first.sourceId
  let select: unknown = ''
  let displayType: unknown
  let groupBy: unknown = ''
  let where: unknown = ''
  let whereLanguage: unknown = 'lucene'
  let orderBy: unknown = ''
  let markdown: unknown = ''
  let numberFormat: unknown
  const firstFormat = () => series.find(s => s.numberFormat)?.numberFormat
  switch (first.type) {
    case 'time':
      displayType = first.displayType === 'stacked_bar' ? 'stacked_bar' : 'line'
      select = series.map(item)
      numberFormat = firstFormat()
      groupBy = ((first.groupBy as string[] | undefined) ?? []).join(',')
      break
    case 'table':
      displayType = 'table'
      select = series.map(item)
      numberFormat = firstFormat()
      groupBy = ((first.groupBy as string[] | undefined) ?? []).join(',')
      if (first.sortOrder && first.field)
        orderBy = [{ valueExpression: first.field, ordering: first.sortOrder === 'desc' ? 'DESC' : 'ASC' }]
      break
    case 'number':
      displayType = 'number'
      numberFormat = first.numberFormat
      select = [item(first)]
      break
    case 'search':
      displayType = 'search'
      select = ((first.fields as string[] | undefined) ?? []).join(', ')
      where = first.where ?? ''
      whereLanguage = first.whereLanguage ?? 'lucene'
      break
    case 'markdown':
      displayType = 'markdown'
      // The record names a placeholder source for markdown.
      source = 'markdown'
      markdown = first.content
      break
  }
  return {
    ...truthy({ groupBy, orderBy, markdown, seriesReturnType: asRatio ? 'ratio' : 'column', numberFormat }, [
      'groupBy',
      'orderBy',
      'markdown',
      'seriesReturnType',
      'numberFormat'
    ]),
    name,
    source,
    displayType,
    select,
    where,
    whereLanguage
  }
}

/**
 * The undefined values the converter leaves in select items, as the write stores them: left out by a save, null
 * after a `$set` (a v2 PUT, an MCP patch).
 */
export function finishRecord(config: Json, kind: WriteKind): Json {
  if (!Array.isArray(config.select)) return config
  config.select = (config.select as unknown[]).map(item => {
    if (!isPlainObject(item)) return item
    const out: Json = {}
    for (const [key, value] of Object.entries(item)) {
      if (value !== undefined) out[key] = value
      else if (kind === 'update') out[key] = null
    }
    return out
  })
  return config
}

/** The record a v2 write (or an MCP patch) makes of one parsed request tile. */
export function requestTileRecord(tile: Json, kind: WriteKind): Json {
  const name = typeof tile.name === 'string' ? tile.name : ''
  if (Array.isArray(tile.series)) return seriesToInternal(name, tile.series as Json[], tile.asRatio === true)
  return finishRecord(configToInternal(name, (tile.config ?? {}) as Json), kind)
}
