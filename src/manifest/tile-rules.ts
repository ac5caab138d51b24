/**
 * The rules of one tile that its schema cannot express: its series must agree, its config's fields must fit
 * together (formulas, ratios, link-outs), each data source or connection is named once, and aggregations
 * take the value expressions and levels their functions need.
 */
import { formulaProblem } from './formula.js'
import { isMetricItem } from './metric-item.js'
import type { PathSegment } from './path.js'
import type { Report } from './rule-report.js'
import {
  Series as SeriesSchema,
  TileConfig as TileConfigSchema,
  type OnClickSpec,
  type SelectItemSpec,
  type SeriesSpec,
  type TileConfigSpec,
  type TileSpec
} from './schema.js'
import { LIMITS } from './vocabulary.js'

/** The display type a tile will have on the server, whichever form the manifest uses. */
export function tileDisplayType(tile: TileSpec): string | undefined {
  if (tile.config) return tile.config.displayType
  const first = tile.series?.[0]
  if (!first) return undefined
  if (first.type === 'time') return first.displayType ?? 'line'
  return first.type
}

const SOURCED_SERIES = new Set<unknown>(['time', 'table', 'number', 'search'])

/** The rules of a tile that fails the schema, on whichever of its series or config do parse. */
export function checkPartialTile(tile: Record<string, unknown>, path: PathSegment[], report: Report): void {
  if (Array.isArray(tile.series)) {
    tile.series.forEach((s, i) => {
      // A series of a known type that reads data needs a source (a wrong type is reported on its own).
      const series = s as Record<string, unknown> | null
      if (series && typeof series === 'object' && SOURCED_SERIES.has(series.type))
        checkSourceRef(series as { source?: string; sourceId?: string }, [...path, 'series', i], report, true)
      const typed = SeriesSchema.safeParse(s)
      if (typed.success && typed.data.type !== 'markdown' && typed.data.type !== 'search') {
        const { data } = typed
        checkAggregation(data, data.field, metricOf(data), [...path, 'series', i], 'field', report)
      }
    })
  }
  const config = TileConfigSchema.safeParse(tile.config)
  if (config.success && config.data.displayType !== 'markdown')
    checkSourceRef(config.data, [...path, 'config'], report, true)
}

export function checkTile(tile: TileSpec, path: PathSegment[], report: Report): void {
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
    checkAggregation(s, s.field, metricOf(s), p, 'field', report)
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

export function checkSourceRef(
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
  const metric = { metricName: item.metricName, metricType: item.metricType }
  checkAggregation(item, item.valueExpression, metric, path, 'valueExpression', report)
}

/** A series names its metric's type `metricDataType`; a select item, `metricType`. */
const metricOf = (s: { metricName?: string; metricDataType?: string }) => ({
  metricName: s.metricName,
  metricType: s.metricDataType
})

/**
 * SelectItem rules (OpenAPI): count takes no value expression, every other function needs one, but a metric item
 * (metric-item.ts: the renderer aggregates the metric's own value, and a write sends a placeholder).
 */
function checkAggregation(
  { aggFn, level }: { aggFn: string; level?: number },
  value: string | undefined,
  metric: { metricName?: string; metricType?: string },
  path: PathSegment[],
  valueField: string,
  report: Report
): void {
  if (aggFn === 'count' && value !== undefined)
    report([...path, valueField], 'count takes no value expression')
  if (aggFn !== 'count' && value === undefined && !isMetricItem(metric)) {
    const typeField = valueField === 'field' ? 'metricDataType' : 'metricType'
    report(
      [...path, 'aggFn'],
      metric.metricName === undefined && metric.metricType === undefined
        ? `${aggFn} needs a value expression in \`${valueField}\``
        : `${aggFn} needs a value expression in \`${valueField}\`, or both \`metricName\` and \`${typeField}\` (a metric's own value)`
    )
  }
  if (aggFn === 'quantile' && level === undefined)
    report([...path, 'aggFn'], 'quantile needs `level` (e.g. 0.95)')
  if (aggFn !== 'quantile' && level !== undefined)
    report([...path, 'level'], 'level only applies to quantile')
}
