/**
 * The manifest language as zod schemas: structure, types and value sets. Rules that span fields or
 * documents (a tile's series must agree, an alert's tile must exist) live in `rules.ts`, so these
 * schemas stay plain structure and export cleanly to JSON Schema for editors.
 */
import { z } from 'zod'
import { once } from './once.js'
import { resourceSchemas } from './resources-schema.js'
import { userTags } from './user-tags.js'
import {
  AGG_FNS,
  ALERT_INTERVALS,
  CHANNEL_SEVERITIES,
  ALERT_SOURCES,
  API_VERSIONS,
  BACKGROUND_CHART_TYPES,
  COMPARISON_OPERATORS,
  DASHBOARD_FILTER_TYPES,
  DATA_SOURCES,
  ENDPOINT_PROTOCOLS,
  EQUALITY_OPERATORS,
  HEATMAP_SCALE_TYPES,
  LIMITS,
  LINK_TARGET_MODES,
  METRIC_DATA_TYPES,
  NUMBER_FORMAT_OUTPUTS,
  NUMERIC_UNITS,
  PALETTE_TOKENS,
  QUANTILE_LEVELS,
  RAW_SQL_DISPLAY_TYPES,
  QUERY_LANGUAGES,
  RELEASE_CHANNELS,
  RESOURCE_LIMITS,
  SORT_ORDERS,
  THRESHOLD_TYPES,
  TIME_DISPLAY_TYPES,
  WHERE_LANGUAGES
} from './vocabulary.js'

const between = (min: number, max: number) =>
  z
    .int({ error: `must be a whole number between ${min} and ${max}` })
    .min(min, { error: `must be between ${min} and ${max}` })
    .max(max, { error: `must be between ${min} and ${max}` })
const atLeast = (min: number) =>
  z.int({ error: `must be a whole number of at least ${min}` }).min(min, { error: `must be at least ${min}` })
const text = (max: number) =>
  z
    .string()
    .min(1, { error: 'must not be empty' })
    .max(max, { error: `must be at most ${max} characters` })

const apiVersion = z
  .enum(API_VERSIONS)
  .optional()
  .describe('The manifest language version, obsdeploy/v1 (optional).')

/** A data source by name (resolved to its id at plan time) or by raw id. */
const dataSourceRef = {
  source: z.string().min(1).optional().describe('Data source by name, resolved to its id at plan time.'),
  sourceId: z.string().min(1).optional().describe('Data source id, when you do not want name resolution.')
}
const whereLanguage = z.enum(WHERE_LANGUAGES).optional().describe('Language of `where` (default lucene).')
/** A series' filter: the server sets no length limit on it. */
const seriesFilter = {
  where: z.string().optional().describe('Filter expression (Lucene by default).'),
  whereLanguage
}
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

/** common-utils types.ts NumberFormatSchema: `output` is required, `numericUnit` one of the server's units. */
export const NumberFormat = z
  .strictObject({
    output: z.enum(NUMBER_FORMAT_OUTPUTS).describe('How the number is shown (required).'),
    mantissa: z.int().optional().describe('Decimal places shown.'),
    thousandSeparated: z.boolean().optional().describe('Group thousands (1,000,000).'),
    average: z.boolean().optional().describe('Abbreviate large numbers (1.2M).'),
    decimalBytes: z.boolean().optional().describe('byte output: powers of 1000 (kB) instead of 1024 (KiB).'),
    factor: z.number().optional().describe('Multiply the value by this first (e.g. 0.001 for ms to s).'),
    currencySymbol: z.string().optional().describe('currency output: the symbol shown, e.g. $.'),
    numericUnit: z
      .enum(NUMERIC_UNITS)
      .optional()
      .describe('Unit for data, data rate and throughput formats.'),
    unit: z.string().optional().describe('A unit written after the number, e.g. req/s.')
  })
  .describe('Number formatting of displayed values.')

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
  field: z.string().min(1).optional().describe('Value expression to aggregate; omitted for count.'),
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
      .describe('The expression aggregated; every function but count needs one.'),
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

export const Tile = z.strictObject({
  name: text(1024).describe(
    'Unique in the dashboard: tiles are matched by name, which keeps their ids and alerts.'
  ),
  x: between(0, LIMITS.gridColumns - 1).describe('Column of the left edge, 0-23 (the grid is 24 wide).'),
  y: atLeast(0).describe('Row of the top edge, from 0.'),
  w: between(1, LIMITS.gridColumns).describe('Width in columns, 1-24; x + w is at most 24.'),
  h: atLeast(1).describe('Height in rows, at least 1.'),
  asRatio: z.boolean().optional().describe('Series form only: show series[0] / series[1].'),
  series: z
    .array(Series)
    .min(1, { error: 'needs at least one series' })
    .optional()
    .describe("CONTRACT.md's tile form: a list of series of one type (or use `config`)."),
  config: AnyTileConfig.optional().describe(
    "The server's tile form, by displayType (or use `series`); `configType: sql` for a raw-SQL tile."
  ),
  container: z
    .string()
    .min(1)
    .optional()
    .describe("The dashboard's container (group) the tile is in, by title."),
  tab: z.string().min(1).optional().describe("The container's tab the tile is on, by title.")
})

/** common-utils DashboardFilterSchema (the API's sourceId by name): a filter at the top of the dashboard. */
export const DashboardFilter = z
  .strictObject({
    type: z.enum(DASHBOARD_FILTER_TYPES).optional().describe('QUERY_EXPRESSION (the default and only type).'),
    name: z.string().min(1, { error: 'must not be empty' }).describe('Its name on the dashboard.'),
    expression: z
      .string()
      .min(1, { error: 'must not be empty' })
      .describe('The expression whose values the filter offers, e.g. ServiceName.'),
    ...dataSourceRef,
    sourceMetricType: z
      .enum(METRIC_DATA_TYPES)
      .optional()
      .describe('For a metric source: the metric type the values come from.'),
    where: z.string().optional().describe('Narrows the values offered.'),
    whereLanguage: z.enum(WHERE_LANGUAGES).optional().describe('Language of `where`: lucene or sql.'),
    appliesToSources: z
      .array(z.string().min(1))
      .optional()
      .describe('The data sources, by name, whose tiles the filter applies to (default: all).'),
    appliesToSourceIds: z
      .array(z.string().min(1))
      .optional()
      .describe('The same by id, when you do not want name resolution.'),
    isBroadcastEnabled: z
      .boolean()
      .optional()
      .describe('Apply the selected value to matching tiles (default true; self-hosted only).'),
    isVariableEnabled: z
      .boolean()
      .optional()
      .describe('Offer the value to tile queries as $variableName (default false; self-hosted only).'),
    variableName: z
      .string()
      .max(LIMITS.variableName, { error: `must be at most ${LIMITS.variableName} characters` })
      .regex(/^[a-zA-Z][a-zA-Z0-9_]*$/, {
        error: 'must start with a letter and hold only letters, digits and _'
      })
      .optional()
      .describe('The variable name (default: derived from `name`); needs isVariableEnabled.')
  })
  .describe('A dashboard filter.')

/** common-utils DashboardContainerSchema without its id: tiles refer to a container and its tabs by title. */
export const Container = z
  .strictObject({
    title: z
      .string()
      .min(1, { error: 'must not be empty' })
      .max(LIMITS.containerTitle, { error: `must be at most ${LIMITS.containerTitle} characters` })
      .describe('Its title, unique in the dashboard: tiles name it in `container`.'),
    collapsed: z.boolean().optional().describe('Shown collapsed (default false).'),
    collapsible: z.boolean().optional().describe('Can be collapsed.'),
    bordered: z.boolean().optional().describe('Drawn with a border.'),
    tabs: z
      .array(
        z
          .strictObject({
            title: z
              .string()
              .min(1, { error: 'must not be empty' })
              .max(LIMITS.containerTitle, { error: `must be at most ${LIMITS.containerTitle} characters` })
              .describe('Its title, unique in the container: tiles name it in `tab`.')
          })
          .describe('A tab.')
      )
      .max(LIMITS.containerTabs, { error: `at most ${LIMITS.containerTabs} tabs` })
      .optional()
      .describe('Tabs (two or more show a tab bar).')
  })
  .describe('A group of tiles, with optional tabs.')

export const Dashboard = z.strictObject({
  apiVersion,
  kind: z.literal('Dashboard').describe('A dashboard: tiles, and the filters and layout around them.'),
  name: text(LIMITS.dashboardName).describe('Its name (1-1024 characters); how the plan finds it again.'),
  tags: userTags()
    .optional()
    .describe('Tags (at most 49 of at most 32 characters; the ownership tag is added).'),
  tiles: z
    .array(Tile)
    .max(LIMITS.tiles, { error: `at most ${LIMITS.tiles} tiles` })
    .optional()
    .describe('The tiles (at most 500), each placed on the 24-column grid.'),
  filters: z.array(DashboardFilter).optional().describe('Filters at the top of the dashboard.'),
  savedQuery: z.string().optional().describe('The query the dashboard opens with.'),
  savedQueryLanguage: z
    .enum(QUERY_LANGUAGES)
    .optional()
    .describe('Language of savedQuery: lucene (the default with a query), sql or promql (self-hosted only).'),
  savedFilterValues: z
    .array(
      z
        .strictObject({
          type: z.literal('sql').optional().describe('sql (the default and only type).'),
          condition: z
            .string()
            .max(LIMITS.expression, { error: `must be at most ${LIMITS.expression} characters` })
            .describe("A SQL condition, e.g. ServiceName IN ('cart')")
        })
        .describe('A saved filter value.')
    )
    .optional()
    .describe('Filter values the dashboard opens with.'),
  containers: z
    .array(Container)
    .max(LIMITS.containers, { error: `at most ${LIMITS.containers} containers` })
    .optional()
    .describe('Groups of tiles (collapsible sections, with optional tabs).'),
  id: z.string().min(1).optional().describe('Pin this manifest to an existing dashboard id (adopts it).'),
  adopt: z.boolean().optional().describe('Take ownership of an existing dashboard of the same name.'),
  renamedFrom: text(LIMITS.dashboardName)
    .optional()
    .describe('The previous name, so a rename keeps the dashboard id.')
})

const MANAGED_ONLY = 'Managed mode only (the cloud API).'
export const WebhookChannel = z.strictObject({
  type: z.literal('webhook').describe('webhook: notify through a webhook.'),
  webhook: z.string().min(1).optional().describe("Webhook by name (a manifest's or an existing one)."),
  webhookId: z.string().min(1).optional().describe('Webhook by id.'),
  webhookService: z
    .string()
    .min(1)
    .optional()
    .describe(`${MANAGED_ONLY} The webhook's service, e.g. slack_api.`),
  slackChannelId: z
    .string()
    .min(1)
    .optional()
    .describe(`${MANAGED_ONLY} Slack channel id for Slack API webhooks.`),
  severity: z
    .enum(CHANNEL_SEVERITIES)
    .optional()
    .describe(`${MANAGED_ONLY} Severity for PagerDuty API webhooks.`)
})
export const EmailChannel = z.strictObject({
  type: z.literal('email').describe(`${MANAGED_ONLY} Email the alert.`),
  emailRecipients: z.array(z.string().min(1)).describe('Addresses to email.')
})
export const AlertChannel = z.discriminatedUnion('type', [WebhookChannel, EmailChannel])

/** An alert's `channels`: at least one, at most the server's limit. */
const channelList = <T extends z.ZodType>(channel: T) =>
  z
    .array(channel)
    .min(1, { error: 'needs at least one channel' })
    .max(RESOURCE_LIMITS.alertChannels, {
      error: `an alert has at most ${RESOURCE_LIMITS.alertChannels} channels`
    })

export const Alert = z.strictObject({
  apiVersion,
  kind: z.literal('Alert').describe("An alert on a dashboard tile's value, or on a saved search."),
  name: text(LIMITS.alertName).describe(
    'Unique among the alerts (1-512 characters); how the plan finds it again.'
  ),
  dashboard: z
    .string()
    .min(1)
    .optional()
    .describe('Tile alerts: the dashboard, by name, from the manifests.'),
  tile: z.string().min(1).optional().describe('Tile alerts: the tile, by name, within that dashboard.'),
  source: z
    .enum(ALERT_SOURCES)
    .optional()
    .describe('tile (the default: `dashboard` and `tile`) or saved_search (`savedSearch`).'),
  savedSearch: z
    .string()
    .min(1)
    .optional()
    .describe("Saved-search alerts: the saved search, by name (a manifest's or an existing one)."),
  savedSearchId: z.string().min(1).optional().describe('Saved-search alerts: the saved search, by id.'),
  groupBy: z.string().optional().describe('Saved-search alerts: evaluate per value of this expression.'),
  threshold: z.number().describe('The value the watched value is compared with.'),
  thresholdMax: z
    .number()
    .optional()
    .describe('Upper bound for between and not_between (at least threshold).'),
  thresholdType: z
    .enum(THRESHOLD_TYPES)
    .describe(
      'When the alert fires: the value above, below, ... the threshold (between: within both bounds).'
    ),
  interval: z.enum(ALERT_INTERVALS).describe('How often the value is evaluated, over a window this long.'),
  channel: AlertChannel.optional().describe('Where the alert goes: `channel`, or a list in `channels`.'),
  channels: channelList(AlertChannel)
    .optional()
    .describe(
      `Self-hosted: up to ${RESOURCE_LIMITS.alertChannels} channels (the managed API takes one \`channel\`).`
    ),
  message: text(LIMITS.alertMessage).optional().describe('The notification text (at most 4096 characters).'),
  numConsecutiveWindows: atLeast(1)
    .optional()
    .describe('Fire only after this many windows in a row breach the threshold (default 1).'),
  note: text(LIMITS.note).optional().describe('A note for responders (at most 4096 characters).'),
  scheduleOffsetMinutes: between(0, LIMITS.scheduleOffsetMinutes)
    .optional()
    .describe('Minutes to shift each evaluation window by; less than the interval (default 0).'),
  scheduleStartAt: z.iso
    .datetime({ error: 'must be a UTC date and time like 2026-01-01T10:00:00Z' })
    .optional()
    .describe('Align the windows to this UTC time (within a year ahead, ten years back); offset must be 0.')
})

/** The self-hosted server takes webhook channels only (HyperDX zod.ts zAlertChannel). */
const selfHostedAlert = once('self-hosted Alert schema', () =>
  Alert.extend({
    channel: WebhookChannel.optional().describe(Alert.shape.channel.description ?? ''),
    channels: channelList(WebhookChannel).optional()
  })
)

/** Managed mode's service settings: built on first use, as few repositories hold them. */
const serviceSettings = once('ServiceSettings schema', () => {
  const IpAccessEntry = z
    .strictObject({
      source: z.string().min(1).describe('IPv4/IPv6 address or CIDR.'),
      description: z.string().optional().describe('What the entry is for.')
    })
    .describe('An address allowed to connect.')

  return z.strictObject({
    apiVersion,
    kind: z
      .literal('ServiceSettings')
      .describe("Managed mode: the database service's settings, applied on a release (service-update)."),
    name: z
      .string()
      .min(1, { error: 'must be 1-50 letters, digits and whitespace' })
      .max(LIMITS.serviceName, {
        error: `must be at most ${LIMITS.serviceName} characters (letters, digits and whitespace)`
      })
      .optional()
      .describe("The service's name: 1-50 letters, digits and whitespace."),
    releaseChannel: z
      .enum(RELEASE_CHANNELS)
      .optional()
      .describe('How soon the service gets upgrades: slow, default or fast (production services only).'),
    ipAccessList: z
      .array(IpAccessEntry)
      .optional()
      .describe('The addresses allowed to connect: the whole list (entries are matched on source).'),
    privateEndpointIds: z
      .array(z.string().min(1))
      .optional()
      .describe('Private endpoints allowed to connect: the whole list.'),
    endpoints: z
      .array(
        z
          .strictObject({
            protocol: z.enum(ENDPOINT_PROTOCOLS).describe('mysql: the MySQL-compatible endpoint.'),
            enabled: z.boolean().describe('Whether it is on.')
          })
          .describe('An optional endpoint.')
      )
      .optional()
      .describe('Optional endpoints to turn on or off.'),
    transparentDataEncryptionKeyId: z
      .string()
      .min(1)
      .optional()
      .describe('Rotate transparent data encryption to this key (services with TDE only).')
  })
})

/**
 * The schema of each kind, built on first use: a run builds the schemas of the kinds its manifests hold
 * (dashboards' and alerts' are built with this module, since nearly every repository has them).
 */
const KIND_SCHEMAS = {
  Connection: () => resourceSchemas().Connection,
  Source: () => resourceSchemas().Source,
  SavedSearch: () => resourceSchemas().SavedSearch,
  Webhook: () => resourceSchemas().Webhook,
  TeamMember: () => resourceSchemas().TeamMember,
  Dashboard: () => Dashboard,
  Alert: () => Alert,
  ServiceSettings: serviceSettings
} as const

export type KindSchema = ReturnType<(typeof KIND_SCHEMAS)[keyof typeof KIND_SCHEMAS]>

/** The schema a manifest of `kind` is validated with (self-hosted alerts take webhook channels only). */
export function kindSchema(kind: keyof typeof KIND_SCHEMAS, mode: 'self-hosted' | 'managed'): KindSchema {
  const schema = kind === 'Alert' && mode === 'self-hosted' ? selfHostedAlert() : KIND_SCHEMAS[kind]()
  // A self-hosted alert parses to an Alert with fewer channel types.
  return schema as KindSchema
}

export type DashboardSpec = z.infer<typeof Dashboard>
export type TileSpec = z.infer<typeof Tile>
export type SeriesSpec = z.infer<typeof Series>
export type TileConfigSpec = z.infer<typeof TileConfig>
export type RawSqlTileConfigSpec = z.infer<typeof RawSqlTileConfig>
export type AnyTileConfigSpec = z.infer<typeof AnyTileConfig>
export type AlertChannelSpec = z.infer<typeof AlertChannel>
export type SelectItemSpec = z.infer<typeof SelectItem>
export type OnClickSpec = z.infer<typeof OnClick>
export type DashboardFilterSpec = z.infer<typeof DashboardFilter>
export type ContainerSpec = z.infer<typeof Container>
export type AlertSpec = z.infer<typeof Alert>
export type ServiceSettingsSpec = z.infer<ReturnType<typeof serviceSettings>>

/** One schema for editors: any of the kinds, by `kind` (built when asked for: only `npm run schema` needs it). */
export const manifestSchema = once('Manifest schema', () =>
  z.discriminatedUnion('kind', [
    KIND_SCHEMAS.Connection(),
    KIND_SCHEMAS.Source(),
    KIND_SCHEMAS.SavedSearch(),
    KIND_SCHEMAS.Webhook(),
    Dashboard,
    Alert,
    serviceSettings(),
    KIND_SCHEMAS.TeamMember()
  ])
)
