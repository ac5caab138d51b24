/**
 * The internal form of a tile: what HyperDX 2.36 keeps in Mongo and what its web UI routes (`GET /dashboards`) return,
 * against the v2 form the emulator stores (StoredTile.config). Rules from
 * packages/api/src/routers/external-api/v2/utils/dashboards.ts (convertToInternalTileConfig,
 * convertToExternalTileChartConfig and their select-item helpers) and utils/externalApi.ts
 * (translateExternalChartToTileConfig); the code is ours.
 *
 * A stored tile's internal form is its v2 config converted the way a v2 POST converts it, then its `ui` overlay
 * (types.ts TileUi) applied: the overlay holds what the record has beyond that. So
 * - a v2 write computes the record the real converter writes and keeps the difference as `ui` (a PUT's `$set` writes
 *   a select item's missing `whereLanguage` as `aggConditionLanguage: null`, a POST's save leaves the key out; a
 *   series tile is written in its own form, `seriesReturnType: 'column'` and all);
 * - a web UI write stores the v2 form of what it sent (what a v2 read shows) and the rest as `ui`, so the UI reads
 *   back exactly what it wrote.
 */
import { isPlainObject } from './errors.js'
import { resolvePaletteToken } from './palette.js'
import { AGGREGATE_FUNCTIONS, QUANTILE_LEVELS } from './rules/vocabulary.js'
import { normalizeConfig } from './tiles.js'
import type { JsonObject, StoredTile, TileConfig, TileUi, UiOverlay } from './types.js'

/**
 * How the record is written: `insert` is a document save (a key whose value is undefined is left out), `update` a
 * `$set` (the driver writes such a key nested in the tiles as null).
 */
export type WriteKind = 'insert' | 'update'

type Json = JsonObject

const has = (value: unknown): boolean => value !== undefined && value !== null

/** lodash `pick`: the listed keys the object has, in the list's order. */
function pick(source: Json, keys: readonly string[]): Json {
  const out: Json = {}
  for (const key of keys) if (key in source) out[key] = source[key]
  return out
}

/** lodash `omitBy(isNil)`, as the converter applies it to the config (not to the select items inside). */
function dropNil(value: Json): Json {
  for (const key of Object.keys(value)) if (!has(value[key])) delete value[key]
  return value
}

// ---------------------------------------------------------------------------------------------------------
// v2 form -> internal form

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

const items = (select: unknown): Json[] =>
  Array.isArray(select) ? (select as unknown[]).filter(isPlainObject) : []

/** A v2 `config` (a request's, or a stored one) in the internal form; `name` is the tile's. */
export function configToInternal(name: string, c: Json): Json {
  const source = c.sourceId
  if (c.configType === 'sql') {
    const refs = { name, connection: c.connectionId, sqlTemplate: c.sqlTemplate, source }
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
  const select = items(c.select).map(selectItemToInternal)
  const formulas = Array.isArray(c.formulas) && c.formulas.length > 0
  switch (c.displayType) {
    case 'line':
    case 'stacked_bar':
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
        select,
        source,
        where: '',
        fillNulls: c.fillNulls === false ? false : undefined,
        seriesReturnType: c.asRatio ? 'ratio' : undefined,
        seriesLimit: c.seriesLimit,
        name
      })
    case 'table':
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
        select,
        source,
        where: '',
        seriesReturnType: c.asRatio ? 'ratio' : undefined,
        name
      })
    case 'number':
      return dropNil({
        displayType: 'number',
        select: formulas ? select : select.slice(0, 1),
        source,
        where: '',
        numberFormat: c.numberFormat,
        formulas: c.formulas,
        showOperandSeries: formulas ? false : undefined,
        color: c.color,
        colorRules: c.colorRules,
        backgroundChart: c.backgroundChart,
        name
      })
    case 'pie':
    case 'bar':
      return dropNil({
        ...pick(c, ['groupBy', 'numberFormat', 'orderBy']),
        displayType: c.displayType,
        select: select.slice(0, 1),
        source,
        where: '',
        seriesLimit: c.limit,
        name
      })
    case 'heatmap': {
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
        source,
        where: c.where,
        whereLanguage: c.whereLanguage ?? 'lucene',
        name
      })
    }
    case 'search':
    case 'event_patterns':
      return dropNil({
        ...pick(c, ['select', 'where']),
        displayType: c.displayType,
        source,
        name,
        whereLanguage: c.whereLanguage ?? 'lucene'
      })
    case 'markdown':
      return dropNil({
        displayType: 'markdown',
        markdown: c.markdown,
        source: '',
        where: '',
        select: [],
        name
      })
  }
  return dropNil({ ...c, name })
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

// ---------------------------------------------------------------------------------------------------------
// Stored tile <-> internal tile

/** A stored tile's config converted as a v2 POST would write it, before its `ui` overlay. */
export function baseInternalConfig(tile: Pick<StoredTile, 'name' | 'config'>): Json {
  const config = structuredClone(tile.config) as Json
  // PromQL tiles (made in the UI) are stored as the UI sent them, without the name.
  if (config.configType === 'promql') return { ...config, name: tile.name }
  return finishRecord(configToInternal(tile.name ?? '', config), 'insert')
}

/** The tile as the record holds it (what GET /dashboards returns, before the alert is added to its config). */
export function internalTile(tile: StoredTile): Json {
  const config = applyUi(baseInternalConfig(tile), tile.ui)
  return {
    id: tile.id,
    x: tile.x,
    y: tile.y,
    w: tile.w,
    h: tile.h,
    ...(tile.containerId !== undefined ? { containerId: tile.containerId } : {}),
    ...(tile.tabId !== undefined ? { tabId: tile.tabId } : {}),
    config,
    ...structuredClone(tile.ui?.tile ?? {})
  }
}

function applyOverlay(target: Json, overlay: UiOverlay | null | undefined): Json {
  if (!overlay) return target
  for (const key of overlay.unset ?? []) delete target[key]
  Object.assign(target, structuredClone(overlay.set ?? {}))
  return target
}

export function applyUi(base: Json, ui: TileUi | undefined): Json {
  if (ui === undefined) return base
  const out = structuredClone(base)
  if (ui.select && Array.isArray(out.select))
    out.select = (out.select as unknown[]).map((item, i) =>
      isPlainObject(item) ? applyOverlay(item, ui.select?.[i]) : item
    )
  return applyOverlay(out, ui.config)
}

/**
 * JSON equality, key order aside. Not util.isDeepStrictEqual: that compares prototypes, and objects parsed in a test
 * runner's sandbox have another realm's Object.prototype than structuredClone's copies.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    return a.every((item, i) => sameJson(item, b[i]))
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  const left = Object.entries(a).filter(([, v]) => v !== undefined)
  const right = b as Json
  const rightKeys = Object.keys(right).filter(k => right[k] !== undefined)
  return (
    left.length === rightKeys.length &&
    left.every(([key, value]) => key in right && sameJson(value, right[key]))
  )
}

function diffObject(base: Json, actual: Json): UiOverlay | undefined {
  const set: Json = {}
  const unset = Object.keys(base).filter(key => !(key in actual))
  for (const [key, value] of Object.entries(actual))
    if (!(key in base) || !sameJson(base[key], value)) set[key] = structuredClone(value)
  if (Object.keys(set).length === 0 && unset.length === 0) return undefined
  return { ...(Object.keys(set).length > 0 ? { set } : {}), ...(unset.length > 0 ? { unset } : {}) }
}

/** The overlay that turns `base` (a stored config converted) into `actual` (the record); undefined when none. */
export function diffUi(base: Json, actual: Json): TileUi | undefined {
  const ui: TileUi = {}
  let configBase = base
  const b = base.select
  const a = actual.select
  if (
    Array.isArray(b) &&
    Array.isArray(a) &&
    b.length === a.length &&
    b.every(isPlainObject) &&
    a.every(isPlainObject)
  ) {
    const perItem = a.map((item, i) => diffObject(b[i] as Json, item as Json) ?? null)
    if (perItem.some(o => o !== null)) ui.select = perItem
    // The items are told apart one by one: the config-level comparison takes the select list as it ends up.
    configBase = { ...base, select: a }
  }
  const config = diffObject(configBase, actual)
  if (config) ui.config = config
  return ui.config || ui.select ? ui : undefined
}

// ---------------------------------------------------------------------------------------------------------
// internal form -> v2 form

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
  const sourceId = has(c.source) ? String(c.source) : ''
  if (c.configType === 'sql') {
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
  if (c.configType === 'promql') return undefined
  const list = Array.isArray(c.select) ? items(c.select) : undefined
  const select = (all: boolean) =>
    list ? (all ? list : list.slice(0, 1)).map(selectItemToExternal) : [{ ...DEFAULT_SELECT_ITEM }]
  const formulas = Array.isArray(c.formulas) && c.formulas.length > 0 ? c.formulas : undefined
  const showOperandSeries = formulas ? c.showOperandSeries : undefined
  const asRatio = c.seriesReturnType === 'ratio' && Array.isArray(c.select) && c.select.length === 2
  switch (c.displayType) {
    case 'line':
    case 'stacked_bar': {
      const line = c.displayType === 'line'
      return dropNil({
        displayType: c.displayType,
        sourceId,
        asRatio,
        alignDateRangeToGranularity: c.alignDateRangeToGranularity,
        fillNulls: c.fillNulls !== false,
        fitYAxisToData: line ? c.fitYAxisToData : undefined,
        groupBy: text(c.groupBy),
        select: select(true),
        compareToPreviousPeriod: line ? c.compareToPreviousPeriod : undefined,
        numberFormat: c.numberFormat,
        seriesLimit: c.seriesLimit,
        formulas,
        showOperandSeries
      })
    }
    case 'number':
      return dropNil({
        displayType: 'number',
        sourceId,
        select: select(formulas !== undefined),
        numberFormat: c.numberFormat,
        formulas,
        color: resolvePaletteToken(c.color),
        colorRules: c.colorRules,
        backgroundChart: c.backgroundChart
      })
    case 'pie':
    case 'bar':
      return dropNil({
        displayType: c.displayType,
        sourceId,
        select: select(false),
        groupBy: text(c.groupBy),
        orderBy: text(c.orderBy),
        numberFormat: c.numberFormat,
        limit: c.seriesLimit
      })
    case 'table':
      return dropNil({
        ...pick(c, ['having', 'numberFormat', 'groupByColumnsOnLeft', 'onClick']),
        displayType: 'table',
        sourceId,
        asRatio,
        groupBy: text(c.groupBy),
        select: select(true),
        orderBy: text(c.orderBy),
        formulas,
        showOperandSeries
      })
    case 'search':
    case 'event_patterns':
      return dropNil({
        displayType: c.displayType,
        sourceId,
        select: text(c.select) ?? '',
        where: c.displayType === 'search' ? c.where : (text(c.where) ?? ''),
        whereLanguage: c.whereLanguage ?? 'lucene'
      })
    case 'markdown':
      return { displayType: 'markdown', markdown: text(c.markdown) ?? '' }
    case 'heatmap': {
      const item = list?.[0]
      return dropNil({
        displayType: 'heatmap',
        sourceId,
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
  }
  return undefined
}

/** What a v2 read shows of a config it has no shape for (`defaultTileConfig`). */
function fallbackExternal(c: Json): Json {
  if (c.configType === 'sql')
    return { configType: 'sql', displayType: 'line', connectionId: c.connection, sqlTemplate: c.sqlTemplate }
  return {
    displayType: 'line',
    sourceId: has(c.source) ? String(c.source) : '',
    select: [{ ...DEFAULT_SELECT_ITEM }]
  }
}

const TILE_KEYS = new Set(['id', 'x', 'y', 'w', 'h', 'containerId', 'tabId', 'config'])

/**
 * A tile the web UI sent (already validated) as the emulator stores it: the v2 form of its config, and the rest as
 * `ui`, so that a v2 read shows what the real one shows and the UI reads back what it wrote.
 */
export function storedFromInternal(tile: Json): StoredTile {
  const internal = structuredClone((tile.config ?? {}) as Json)
  const name = typeof internal.name === 'string' ? internal.name : ''
  let config: TileConfig
  if (internal.configType === 'promql') {
    const { name: _name, ...rest } = internal
    config = rest as TileConfig
  } else {
    const external = internalToExternal(internal) ?? fallbackExternal(internal)
    config = normalizeConfig(external as TileConfig)
  }
  const stored: StoredTile = {
    id: String(tile.id),
    name,
    x: tile.x as number,
    y: tile.y as number,
    w: tile.w as number,
    h: tile.h as number,
    config
  }
  if (tile.containerId !== undefined) stored.containerId = tile.containerId as string
  if (tile.tabId !== undefined) stored.tabId = tile.tabId as string
  const ui = diffUi(baseInternalConfig(stored), internal) ?? {}
  const extra = Object.fromEntries(Object.entries(tile).filter(([key]) => !TILE_KEYS.has(key)))
  if (Object.keys(extra).length > 0) ui.tile = structuredClone(extra)
  if (Object.keys(ui).length > 0) stored.ui = ui
  return stored
}
