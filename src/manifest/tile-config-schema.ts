/**
 * The server's tile form, `config`: a builder config tagged by displayType (select items, formulas, colour rules,
 * link-outs), or a raw-SQL one (`configType: sql`).
 */
import { z } from 'zod'
import { dataSourceRef, NumberFormat } from './schema-fields.js'
import {
  AGG_FNS,
  BACKGROUND_CHART_TYPES,
  COMPARISON_OPERATORS,
  EQUALITY_OPERATORS,
  HEATMAP_SCALE_TYPES,
  LIMITS,
  LINK_TARGET_MODES,
  METRIC_DATA_TYPES,
  PALETTE_TOKENS,
  QUANTILE_LEVELS,
  RAW_SQL_DISPLAY_TYPES,
  QUERY_LANGUAGES,
  RESOURCE_LIMITS
} from './vocabulary.js'

/** A config tile's languages (select items, search, heatmap, link-outs): PromQL too, self-hosted only. */
const queryLanguage = z
  .enum(QUERY_LANGUAGES)
  .optional()
  .describe('Language of `where`: lucene (default), sql or promql (promql: self-hosted only).')
/** A select item's or a search config's filter: at most 10,000 characters (zod.ts). */
const filter = {
  where: z.string().max(LIMITS.expression).optional().describe('Filter expression (Lucene by default).'),
  whereLanguage: queryLanguage
}

export const SelectItem = z
  .strictObject({
    aggFn: z
      .enum(AGG_FNS)
      .describe('How values are aggregated per time bucket or group (managed mode: no increase).'),
    valueExpression: z
      .string()
      .min(1)
      .max(LIMITS.expression)
      .optional()
      .describe(
        'The expression aggregated; every function but count needs one, except on a metric (metricName and metricType).'
      ),
    alias: z.string().max(LIMITS.expression).optional().describe('Name shown in legends and columns.'),
    level: z
      .literal(QUANTILE_LEVELS)
      .optional()
      .describe('Percentile level for quantile: 0.5, 0.9, 0.95 or 0.99.'),
    ...filter,
    metricName: z.string().optional().describe('Metric sources: the metric to read.'),
    metricType: z.enum(METRIC_DATA_TYPES).optional().describe('Metric sources: the type of that metric.'),
    periodAggFn: z
      .literal('delta')
      .optional()
      .describe('delta: aggregate the change per period of a cumulative metric.'),
    numberFormat: NumberFormat.optional()
  })
  .describe('A value the tile shows (A, B, ... in formulas, in order).')
const select = (max: number) =>
  z
    .array(SelectItem)
    .min(1)
    .max(max)
    .describe(max === 1 ? 'The value shown: one select item.' : `The values shown: 1 to ${max} select items.`)
const configGroupBy = z
  .union([z.string().max(LIMITS.expression), z.array(z.string().min(1)).max(LIMITS.groupBy)])
  .optional()
  .describe('Grouping expression, or a list of fields (joined with commas).')

/** common-utils MetricFormulaSchema: a series computed from the select items, named A, B, ... in order. */
export const Formula = z
  .strictObject({
    expression: z
      .string()
      .min(1, { error: 'must not be empty' })
      .max(LIMITS.formulaExpression, { error: `must be at most ${LIMITS.formulaExpression} characters` })
      .describe(
        'Arithmetic over the select items: A is select[0], B select[1], ...; e.g. "A / (A + B) * 100".'
      ),
    alias: z.string().optional().describe('Legend or column name of the formula (default: the expression).'),
    numberFormat: NumberFormat.optional()
  })
  .describe('A formula series.')
const formulas = z
  .array(Formula)
  .max(LIMITS.formulas, { error: `at most ${LIMITS.formulas} formulas` })
  .optional()
  .describe('Series computed from the select items (self-hosted only; a number tile takes one).')
const showOperandSeries = z
  .boolean()
  .optional()
  .describe('With formulas: also show the select items they use (default true).')

const palette = z.enum(PALETTE_TOKENS)
const ruleTail = {
  color: palette.describe('Colour when the rule matches.'),
  label: z
    .string()
    .max(LIMITS.colorRuleLabel, { error: `must be at most ${LIMITS.colorRuleLabel} characters` })
    .optional()
    .describe('Text shown with the colour.')
}
/** common-utils NumberTileColorConditionSchema: the last rule that matches colours the value. */
export const ColorRule = z
  .discriminatedUnion('operator', [
    z.strictObject({
      operator: z.enum(COMPARISON_OPERATORS).describe('gt, gte, lt or lte the value.'),
      value: z.number().describe('The number compared with.'),
      ...ruleTail
    }),
    z.strictObject({
      operator: z.literal('between').describe('Between two numbers, both included.'),
      value: z
        .array(z.number())
        .length(2, { error: 'must be two numbers: [from, to]' })
        .describe('[from, to].'),
      ...ruleTail
    }),
    z.strictObject({
      operator: z.enum(EQUALITY_OPERATORS).describe('eq or neq: equal or not equal.'),
      value: z
        .union([
          z.number(),
          z
            .string()
            .max(LIMITS.colorRuleText, { error: `must be at most ${LIMITS.colorRuleText} characters` })
        ])
        .describe('A number or a text.'),
      ...ruleTail
    })
  ])
  .describe('A conditional colour; the last rule that matches wins.')

/** A link-out's target: by id, by template, or (this tool) the dashboard or data source by name. */
export const LinkTarget = z
  .strictObject({
    mode: z.enum(LINK_TARGET_MODES).describe('id: a dashboard or data source; template: a name template.'),
    dashboard: z
      .string()
      .min(1)
      .optional()
      .describe('mode id, type dashboard: the dashboard by name (from the manifests or the server).'),
    source: z.string().min(1).optional().describe('mode id, type search: the data source by name.'),
    id: z.string().min(1).optional().describe('mode id: the raw id, when you do not want name resolution.'),
    template: z
      .string()
      .min(1)
      .max(LIMITS.linkTemplate, { error: `must be at most ${LIMITS.linkTemplate} characters` })
      .optional()
      .describe('mode template: a name template filled from the row, e.g. "{{service}} overview".')
  })
  .describe('Where the link goes.')
const linkFilters = z
  .array(
    z.strictObject({
      kind: z.literal('expressionTemplate').describe('expressionTemplate (the only kind).'),
      expression: z
        .string()
        .min(1, { error: 'must not be empty' })
        .max(LIMITS.linkTemplate)
        .describe('The filter expression of the target, e.g. ServiceName.'),
      template: z
        .string()
        .min(1, { error: 'must not be empty' })
        .max(LIMITS.linkTemplate)
        .describe('Its value, filled from the row, e.g. "{{service}}".')
    })
  )
  .max(LIMITS.linkFilters, { error: `at most ${LIMITS.linkFilters} filters` })
  .optional()
  .describe('Filters the target opens with.')
const linkTo = (type: 'search' | 'dashboard', what: string) =>
  z.strictObject({
    type: z.literal(type).describe(what),
    target: LinkTarget,
    whereTemplate: z
      .string()
      .max(LIMITS.linkTemplate)
      .optional()
      .describe('A filter template the target opens with, filled from the row.'),
    whereLanguage: queryLanguage,
    filters: linkFilters
  })
/** utils/zod.ts externalOnClickSchema: what clicking a table row opens. */
export const OnClick = z
  .discriminatedUnion('type', [
    linkTo('search', 'Open the search page of a log or trace source.'),
    linkTo('dashboard', 'Open a dashboard.'),
    z.strictObject({
      type: z.literal('external').describe('Open a URL.'),
      urlTemplate: z
        .string()
        .min(1, { error: 'must not be empty' })
        .max(LIMITS.linkTemplate)
        .describe('The URL, filled from the row, e.g. "https://runbooks.example.com/{{service}}".')
    })
  ])
  .describe('What clicking a row opens.')

const asRatio = z
  .boolean()
  .optional()
  .describe('Show the first select item divided by the second (needs exactly two; not with formulas).')
const timeConfig = {
  ...dataSourceRef,
  select: select(LIMITS.selectItems),
  groupBy: configGroupBy,
  asRatio,
  alignDateRangeToGranularity: z
    .boolean()
    .optional()
    .describe('Align the time range to whole buckets of the granularity.'),
  fillNulls: z.boolean().optional().describe('Draw empty buckets as zero (default true).'),
  numberFormat: NumberFormat.optional(),
  seriesLimit: z
    .int()
    .min(0)
    .optional()
    .describe('How many groups to draw, the largest first (0: all; managed mode: not available).'),
  formulas,
  showOperandSeries
}
/** utils/zod.ts externalDashboardHeatmapSelectItemSchema. */
export const HeatmapItem = z
  .strictObject({
    valueExpression: z
      .string()
      .min(1, { error: 'must not be empty' })
      .max(LIMITS.expression)
      .describe('The value bucketed on the y axis, e.g. Duration.'),
    countExpression: z
      .string()
      .max(LIMITS.expression)
      .optional()
      .describe('What is counted per bucket (default count()).'),
    heatmapScaleType: z.enum(HEATMAP_SCALE_TYPES).optional().describe('log or linear colour scale.')
  })
  .describe('The heatmap series.')
/** FACTS.md's newer tile form, tagged by displayType (builder variants). */
const orderBy = z
  .string()
  .max(LIMITS.expression)
  .optional()
  .describe('Order of the rows or slices, e.g. "count() DESC".')
export const TileConfig = z.discriminatedUnion('displayType', [
  z.strictObject({
    displayType: z.literal('line').describe('A line chart over time.'),
    ...timeConfig,
    fitYAxisToData: z.boolean().optional().describe('Scale the y axis to the data instead of from zero.'),
    compareToPreviousPeriod: z.boolean().optional().describe('Also draw the previous period, for comparison.')
  }),
  z.strictObject({
    displayType: z.literal('stacked_bar').describe('Stacked bars over time.'),
    ...timeConfig
  }),
  z.strictObject({
    displayType: z.literal('table').describe('A table: one row per group, a column per select item.'),
    ...dataSourceRef,
    select: select(LIMITS.selectItems),
    groupBy: configGroupBy,
    having: z
      .string()
      .max(LIMITS.expression)
      .optional()
      .describe('A condition on the aggregated rows, e.g. "count() > 10".'),
    orderBy,
    asRatio,
    numberFormat: NumberFormat.optional(),
    groupByColumnsOnLeft: z.boolean().optional().describe('Show the grouping columns first.'),
    onClick: OnClick.optional(),
    formulas,
    showOperandSeries
  }),
  z.strictObject({
    displayType: z.literal('number').describe('One value, shown as a number.'),
    ...dataSourceRef,
    select: select(LIMITS.selectItems).describe(
      'The value: one select item, or with a formula the items it uses (A, B, ...).'
    ),
    numberFormat: NumberFormat.optional(),
    formulas,
    color: palette.optional().describe('Colour of the value (and of the sparkline, unless it sets one).'),
    colorRules: z
      .array(ColorRule)
      .max(LIMITS.colorRules, { error: `at most ${LIMITS.colorRules} rules` })
      .optional()
      .describe('Conditional colours of the value; the last rule that matches wins.'),
    backgroundChart: z
      .strictObject({
        type: z.enum(BACKGROUND_CHART_TYPES).describe('Its shape: a line, or a filled area.'),
        color: palette.optional().describe('Its colour (default: the tile colour).')
      })
      .optional()
      .describe('A trend sparkline behind the value.')
  }),
  ...(['pie', 'bar'] as const).map(displayType =>
    z.strictObject({
      displayType: z
        .literal(displayType)
        .describe(
          displayType === 'pie' ? 'A pie chart: one slice per group.' : 'A bar chart: one bar per group.'
        ),
      ...dataSourceRef,
      select: select(1),
      groupBy: configGroupBy,
      orderBy,
      numberFormat: NumberFormat.optional(),
      limit: z.int().min(0).optional().describe('How many groups to show, the largest first (0: all).')
    })
  ),
  z.strictObject({
    displayType: z.literal('search').describe('Matching events as a list.'),
    ...dataSourceRef,
    // zod.ts externalDashboardSearchChartConfigSchema: `select` is required (a string; a list is joined).
    select: z
      .union([z.string().max(LIMITS.expression), z.array(z.string().min(1))], {
        error: issue =>
          issue.input === undefined
            ? 'is required: the columns to show, as text ("" for the default columns) or a list'
            : undefined
      })
      .describe('Columns shown in the search tile: text, or a list of columns.'),
    ...filter
  }),
  z.strictObject({
    displayType: z.literal('markdown').describe('Text, written in Markdown.'),
    markdown: z
      .string()
      .max(LIMITS.markdown)
      .optional()
      .describe('The Markdown text (at most 50,000 characters).')
  }),
  z.strictObject({
    displayType: z.literal('heatmap').describe('How a value is distributed over time (a trace source).'),
    ...dataSourceRef,
    select: z
      .array(HeatmapItem)
      .length(1, { error: 'needs exactly one item: the value to bucket' })
      .describe('Exactly one item: the value to bucket.'),
    ...filter,
    numberFormat: NumberFormat.optional()
  }),
  z.strictObject({
    displayType: z.literal('event_patterns').describe('Events grouped into recurring patterns.'),
    ...dataSourceRef,
    select: z
      .string()
      .max(LIMITS.expression)
      .optional()
      .describe('The expression whose values are grouped into patterns (default: the body).'),
    ...filter
  })
])

/**
 * Raw-SQL tiles (zod.ts externalDashboardRawSqlChartConfigSchema): a query on a connection instead of a
 * source and select items, for the display types the server allows them on. `configType: sql` picks them.
 */
const rawSqlBase = {
  configType: z.literal('sql').describe('Raw SQL: the tile runs `sqlTemplate` on its connection.'),
  connection: z
    .string()
    .min(1)
    .optional()
    .describe('The ClickHouse connection, by name (self-hosted); or `connectionId`.'),
  connectionId: z
    .string()
    .min(1)
    .optional()
    .describe(
      'The connection id: the only form in managed mode, where the cloud API cannot list connections.'
    ),
  sqlTemplate: z
    .string()
    .max(RESOURCE_LIMITS.sqlTemplate)
    .describe(
      'The query; macros such as `$__timeFilter(Timestamp)` and `{intervalSeconds:Int64}` as in the UI.'
    ),
  ...dataSourceRef,
  numberFormat: NumberFormat.optional()
}
const rawTime = {
  fillNulls: z.boolean().optional().describe('Draw missing buckets as zero.'),
  alignDateRangeToGranularity: z.boolean().optional().describe('Round the time range to whole buckets.'),
  seriesLimit: z.int().min(0).optional().describe('Top-N series by peak (0: unlimited; self-hosted).')
}
export const RawSqlTileConfig = z.discriminatedUnion('displayType', [
  z.strictObject({
    ...rawSqlBase,
    displayType: z.literal('line').describe('How the query result is drawn: a line chart.'),
    ...rawTime,
    fitYAxisToData: z.boolean().optional().describe('Fit the y axis to the data instead of starting at 0.'),
    compareToPreviousPeriod: z.boolean().optional().describe('Also draw the previous period.')
  }),
  z.strictObject({
    ...rawSqlBase,
    displayType: z.literal('stacked_bar').describe('How the query result is drawn: stacked bars.'),
    ...rawTime
  }),
  ...RAW_SQL_DISPLAY_TYPES.filter(t => t !== 'line' && t !== 'stacked_bar').map(displayType =>
    z.strictObject({
      ...rawSqlBase,
      displayType: z.literal(displayType).describe(`How the query result is drawn: a ${displayType} tile.`)
    })
  )
])

/** The builder configs, each marked as having no `configType`, so `configType` can pick the union. */
const builderConfigs = TileConfig.options.map(o =>
  o.extend({ configType: z.undefined().optional().describe('Absent on builder tiles.') })
)
/** A tile's `config`: a builder config (no `configType`), or a raw-SQL one (`configType: sql`). */
export const AnyTileConfig = z.discriminatedUnion('configType', [
  RawSqlTileConfig,
  z.discriminatedUnion(
    'displayType',
    builderConfigs as [(typeof builderConfigs)[number], ...(typeof builderConfigs)[number][]]
  )
])
