/** CONTRACT.md's tile form: a list of series, each of one type (time, table, number, search, markdown). */
import { z } from 'zod'
import { dataSourceRef, NumberFormat } from './schema-fields.js'
import {
  AGG_FNS,
  DATA_SOURCES,
  LIMITS,
  METRIC_DATA_TYPES,
  QUANTILE_LEVELS,
  SORT_ORDERS,
  TIME_DISPLAY_TYPES,
  WHERE_LANGUAGES
} from './vocabulary.js'

const whereLanguage = z.enum(WHERE_LANGUAGES).optional().describe('Language of `where` (default lucene).')
/** A series' filter: the server sets no length limit on it. */
const seriesFilter = {
  where: z.string().optional().describe('Filter expression (Lucene by default).'),
  whereLanguage
}
/** Fields shared by the aggregating series types (CONTRACT.md "Series", FACTS.md aggFn values). */
const aggregating = {
  dataSource: z
    .enum(DATA_SOURCES)
    .optional()
    .describe('Accepted for CONTRACT.md compatibility; the server drops it (FACTS.md).'),
  ...dataSourceRef,
  aggFn: z
    .enum(AGG_FNS)
    .describe('How values are aggregated per time bucket or group (managed mode: no increase).'),
  field: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Value expression to aggregate; omitted for count and on a metric (metricName and metricDataType).'
    ),
  // A series becomes a select item on the server, which takes only these levels.
  level: z
    .literal(QUANTILE_LEVELS)
    .optional()
    .describe('Percentile level for quantile: 0.5, 0.9, 0.95 or 0.99.'),
  ...seriesFilter,
  alias: z.string().optional().describe('Name shown for the series in legends and columns.'),
  metricName: z.string().optional().describe('Metric sources: the metric to read.'),
  metricDataType: z.enum(METRIC_DATA_TYPES).optional().describe('Metric sources: the type of that metric.'),
  numberFormat: NumberFormat.optional()
}
const groupBy = z
  .array(z.string().min(1))
  .max(LIMITS.groupBy)
  .optional()
  .describe('Fields to group by (at most 10); the same for every series of the tile.')

export const TimeSeries = z.strictObject({
  type: z.literal('time').describe('A value over time: a line or stacked bar chart.'),
  ...aggregating,
  groupBy,
  displayType: z
    .enum(TIME_DISPLAY_TYPES)
    .optional()
    .describe('The chart: line (the default) or stacked_bar (stacked bars).')
})
export const TableSeries = z.strictObject({
  type: z.literal('table').describe('A value per group, as a table column.'),
  ...aggregating,
  groupBy,
  sortOrder: z
    .enum(SORT_ORDERS)
    .optional()
    .describe('Sort rows by this series (not kept by servers that store the config form: use orderBy there).')
})
export const NumberSeries = z.strictObject({
  type: z.literal('number').describe('One value, shown as a number (only the first series counts).'),
  ...aggregating,
  groupBy
})
export const SearchSeries = z.strictObject({
  type: z.literal('search').describe('Matching events as a list.'),
  dataSource: aggregating.dataSource,
  ...dataSourceRef,
  fields: z
    .array(z.string().min(1))
    .describe('Columns shown in the search tile (none: the default columns).'),
  ...seriesFilter
})
export const MarkdownSeries = z.strictObject({
  type: z.literal('markdown').describe('Text, written in Markdown.'),
  content: z.string().max(LIMITS.seriesMarkdown).describe('The Markdown text (at most 100,000 characters).')
})
/** CONTRACT.md's tile form: a list of series. */
export const Series = z.discriminatedUnion('type', [
  TimeSeries,
  TableSeries,
  NumberSeries,
  SearchSeries,
  MarkdownSeries
])
