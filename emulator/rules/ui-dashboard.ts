/**
 * The web UI's dashboard bodies (`POST /dashboards`, `PATCH /dashboards/{id}` of packages/api/src/routers/api/
 * dashboards.ts): common-utils types.ts DashboardSchema (`.partial()` for a PATCH, without `id` for a POST) and the
 * schemas it is made of (TileSchema, SavedChartConfigSchema, …), checked by zod-express-middleware, which answers a
 * 400 with the zod error itself: `[{type: 'Body', errors: {issues, name: 'ZodError'}}]`.
 *
 * The structure is the server's where it decides what a refusal looks like: every union nests as the server's does
 * (`a.or(b).or(c)` is a union inside a union), objects list their keys in the server's order (zod reports issues in
 * key order), and the messages are zod 3's own. So a select item with `aggConditionLanguage: null` is refused with
 * the server's nested `invalid_union` tree, down to `Expected 'sql' | 'lucene' | 'promql', received null`. The code
 * is ours.
 */
import {
  addIssue,
  backgroundChart,
  channelSelectionProblem,
  colorRuleTail,
  dashboardContainer,
  isValidObjectId,
  NUMBER_TILE_COLOR_CONDITIONS,
  numberFormat,
  oneOf,
  paletteToken,
  scheduleStartAt,
  z
} from './common.js'
import { checkFilterModes, checkFilterVariableNames } from './dashboard-validation.js'
import {
  AGGREGATE_FUNCTIONS,
  ALERT_INTERVAL_MINUTES,
  FILTER_WHERE_LANGUAGES,
  METRIC_DATA_TYPES,
  THRESHOLD_TYPES,
  WHERE_LANGUAGES
} from './vocabulary.js'

type Json = Record<string, unknown>
type FilterCondition = ReturnType<typeof filterConditionSchema>
type Language = ReturnType<typeof whereLanguage>

/** types.ts SearchConditionLanguageSchema, optional. */
const whereLanguage = () => oneOf(WHERE_LANGUAGES).optional()

/** types.ts DisplayType, in declaration order. */
const DISPLAY_TYPES = [
  'line',
  'stacked_bar',
  'table',
  'pie',
  'bar',
  'number',
  'search',
  'heatmap',
  'markdown',
  'event_patterns'
] as const

const ALERT_STATES = ['ALERT', 'DISABLED', 'ERROR', 'INSUFFICIENT_DATA', 'OK', 'PENDING'] as const
function build() {
  const language = whereLanguage()
  const filter = filterConditionSchema()
  const dashboard = dashboardSchema(tileSchema(language, filter), language, filter)
  // routers/api/dashboards.ts addFilterIssues: variable names and filter modes (not the v2 API's field gating).
  const filterIssues = (data: { filters?: Json[] }, ctx: z.RefinementCtx) => {
    checkFilterVariableNames(data.filters ?? [], ctx)
    checkFilterModes(data.filters ?? [], ctx)
  }
  return {
    create: dashboard.omit({ id: true }).superRefine(filterIssues),
    patch: dashboard.partial().superRefine(filterIssues),
    params: z.object({ id: z.string().refine(isValidObjectId, 'Invalid ObjectId') })
  }
}

/** Select items (RootValueExpressionSchema): four shapes, chained with `.or`. */
function rootValueExpressionSchema(language: Language) {
  const metricType = oneOf(METRIC_DATA_TYPES)
  return z
    .object({
      aggFn: z.union([
        z.literal('quantile'),
        z.literal('quantileMerge'),
        z.literal('histogram'),
        z.literal('histogramMerge')
      ]),
      level: z.number(),
      aggCondition: z.string(),
      aggConditionLanguage: language,
      valueExpression: z.string(),
      valueExpressionLanguage: z.undefined().optional(),
      isDelta: z.boolean().optional()
    })
    .or(
      z.object({
        aggFn: z.union([oneOf(AGGREGATE_FUNCTIONS), z.string().regex(/^(\w+)If(State|Merge)$/)]),
        aggCondition: z.string(),
        aggConditionLanguage: language,
        valueExpression: z.string(),
        valueExpressionLanguage: z.undefined().optional(),
        isDelta: z.boolean().optional()
      })
    )
    .or(
      z.object({
        aggFn: z.string().optional(),
        aggCondition: z.string().optional(),
        aggConditionLanguage: language,
        valueExpression: z.string(),
        valueExpressionLanguage: z.undefined().optional(),
        metricType: metricType.optional(),
        isDelta: z.boolean().optional()
      })
    )
    .or(
      z.object({
        aggFn: z.string().optional(),
        aggCondition: z.string().optional(),
        aggConditionLanguage: language.optional(),
        valueExpression: z.string(),
        valueExpressionLanguage: language,
        isDelta: z.boolean().optional()
      })
    )
}

/** types.ts ColorConditionSchema: the number tile's rules, then string matches and a pattern. */
function colorConditionSchema() {
  return z.discriminatedUnion('operator', [
    ...NUMBER_TILE_COLOR_CONDITIONS,
    z.object({
      operator: z.enum(['contains', 'startsWith', 'endsWith']),
      value: z.string().min(1).max(200),
      ...colorRuleTail
    }),
    z.object({
      operator: z.literal('regex'),
      value: z
        .string()
        .min(1)
        .max(500)
        .refine(
          v => {
            try {
              new RegExp(v)
              return true
            } catch {
              return false
            }
          },
          { message: 'Invalid regex pattern' }
        ),
      ...colorRuleTail
    })
  ])
}

/** A chart's select and sort lists (DerivedColumnSchema, SortSpecificationListSchema), or their SQL text. */
function selectSchemas(language: Language) {
  const metricType = oneOf(METRIC_DATA_TYPES)
  const rootValueExpression = rootValueExpressionSchema(language)
  const colorCondition = colorConditionSchema()
  const derivedColumn = z.intersection(
    rootValueExpression,
    z.object({
      alias: z.string().optional(),
      metricType: metricType.optional(),
      metricName: z.string().optional(),
      metricNameSql: z.string().optional(),
      countExpression: z.string().optional(),
      heatmapScaleType: z.enum(['log', 'linear']).optional(),
      numberFormat: numberFormat.optional(),
      color: paletteToken.optional(),
      colorRules: z.array(colorCondition).max(10).optional()
    })
  )
  const selectList = z.array(derivedColumn).or(z.string())
  const sortList = z
    .array(z.intersection(rootValueExpression, z.object({ ordering: z.enum(['ASC', 'DESC']) })))
    .or(z.string())
  return { selectList, sortList }
}

/** SharedChartSettingsSchema: what every saved chart config may carry. */
function sharedChartSettings(language: Language) {
  const colorCondition = colorConditionSchema()
  const linkTarget = z.discriminatedUnion('mode', [
    z.object({ mode: z.literal('id'), id: z.string().min(1) }),
    z.object({ mode: z.literal('template'), template: z.string().min(1).max(10000) })
  ])
  const linkFilter = z.object({
    kind: z.literal('expressionTemplate'),
    expression: z.string().min(1, 'Expression is required').max(10000),
    template: z.string().min(1, 'Template is required').max(10000)
  })
  const linkTo = (type: 'search' | 'dashboard') =>
    z.object({
      type: z.literal(type),
      target: linkTarget,
      whereTemplate: z.string().max(10000).optional(),
      whereLanguage: language,
      filters: z.array(linkFilter).max(50).optional()
    })
  const onClick = z.discriminatedUnion('type', [
    linkTo('search'),
    linkTo('dashboard'),
    z.object({ type: z.literal('external'), urlTemplate: z.string().min(1).max(10000) })
  ])
  const shared = {
    displayType: oneOf(DISPLAY_TYPES).optional(),
    numberFormat: numberFormat.optional(),
    granularity: z.union([z.string().regex(/^\d+ (second|minute|hour|day)$/), z.literal('auto')]).optional(),
    compareToPreviousPeriod: z.boolean().optional(),
    fillNulls: z.union([z.number(), z.literal(false)]).optional(),
    alignDateRangeToGranularity: z.boolean().optional(),
    fitYAxisToData: z.boolean().optional(),
    onClick: onClick.optional(),
    color: paletteToken.optional(),
    colorRules: z.array(colorCondition).max(10).optional(),
    backgroundChart: backgroundChart.optional(),
    alternateRowBackground: z.boolean().optional(),
    seriesLimit: z.number().int().nonnegative().nullish()
  }
  return shared
}

/** A saved chart's filter or a dashboard's saved filter value: a condition in a language, or an SQL comparison. */
function filterConditionSchema() {
  return z.union([
    z.object({ type: z.enum(['lucene', 'sql']), condition: z.string() }),
    z.object({
      type: z.literal('sql_ast'),
      operator: z.enum(['=', '<', '>', '!=', '<=', '>=']),
      left: z.string(),
      right: z.string()
    })
  ])
}

/** The alert a tile's config may carry (AlertBaseObjectSchema, checked for its channel selection). */
function tileAlertSchema() {
  const channel = z.object({
    type: z.literal('webhook'),
    webhookId: z.string().nonempty("Webhook ID can't be empty")
  })
  const intervals = Object.keys(ALERT_INTERVAL_MINUTES).map(i => z.literal(i))
  const alertBase = z.object({
    id: z.string().optional(),
    interval: z.union(intervals as unknown as [z.ZodLiteral<string>, z.ZodLiteral<string>]),
    scheduleOffsetMinutes: z.number().int().min(0).max(1439).optional(),
    scheduleStartAt,
    threshold: z.number(),
    thresholdType: oneOf(THRESHOLD_TYPES),
    thresholdMax: z.number().optional(),
    channel: channel.optional(),
    channels: z
      .array(channel)
      .min(1, 'At least one notification channel is required')
      .max(10, 'An alert supports at most 10 notification channels')
      .optional(),
    state: oneOf(ALERT_STATES).optional(),
    name: z.string().min(1).max(512).nullish(),
    message: z.string().min(1).max(4096).nullish(),
    note: z.string().min(1).max(4096).nullish(),
    silenced: z.object({ by: z.string(), at: z.string(), until: z.string() }).optional(),
    numConsecutiveWindows: z.number().int().min(1).nullish()
  })
  const channelChecked = (schema: typeof alertBase) =>
    schema.superRefine((alert, ctx) => {
      const problem = channelSelectionProblem(alert.channel, alert.channels)
      if (problem) addIssue(ctx, problem, ['channels'])
    })
  const alert = z.union([
    channelChecked(alertBase).optional(),
    channelChecked(alertBase.extend({ threshold: z.number() })).optional()
  ])
  return alert
}

/** A tile (TileSchema) with one of the three saved chart configs (SavedChartConfigSchema), keys in the server's order. */
function tileSchema(language: Language, filter: FilterCondition) {
  const shared = sharedChartSettings(language)
  const alert = tileAlertSchema()
  const builder = builderConfigSchema(language, filter, shared, alert)
  const rawSql = z.object({
    ...shared,
    configType: z.literal('sql'),
    sqlTemplate: z.string(),
    connection: z.string(),
    source: z.string().optional(),
    name: z.string().optional(),
    alert
  })
  const promql = z.object({
    ...shared,
    configType: z.literal('promql'),
    promqlExpression: z.string(),
    connection: z.string(),
    source: z.string().optional(),
    step: z.string().optional(),
    name: z.string().optional(),
    alert
  })
  const tile = z.object({
    id: z.string(),
    x: z.number(),
    y: z.number(),
    w: z.number(),
    h: z.number(),
    config: z.union([builder, rawSql, promql]),
    containerId: z.string().min(1).optional(),
    tabId: z.string().min(1).optional()
  })
  return tile
}

/** The builder config (the first of SavedChartConfigSchema's three), keys in the server's order. */
function builderConfigSchema(
  language: Language,
  filter: FilterCondition,
  shared: ReturnType<typeof sharedChartSettings>,
  alert: ReturnType<typeof tileAlertSchema>
) {
  const { selectList, sortList } = selectSchemas(language)
  const metricTables = z
    .object(Object.fromEntries(METRIC_DATA_TYPES.map(kind => [kind, z.string().optional()])))
    .refine(tables => Object.values(tables).some(table => table && table.length > 0), {
      message: 'At least one metric table must be specified'
    })
  const formula = z.object({
    expression: z.string().max(1024),
    alias: z.string().optional(),
    numberFormat: numberFormat.optional()
  })
  return z.object({
    name: z.string().optional(),
    source: z.string(),
    ...shared,
    implicitColumnExpression: z.string().optional(),
    bodyExpression: z.string().optional(),
    useTextIndexForImplicitColumn: z.enum(['auto', 'enabled', 'disabled']).optional(),
    sampleWeightExpression: z.string().optional(),
    markdown: z.string().optional(),
    filtersLogicalOperator: z.enum(['AND', 'OR']).optional(),
    filters: z.array(filter).optional(),
    selectGroupBy: z.boolean().optional(),
    metricTables: metricTables.optional(),
    seriesReturnType: z.enum(['ratio', 'column']).optional(),
    ratioMode: z.enum(['per_group', 'share_of_total']).optional(),
    formulas: z.array(formula).optional(),
    showOperandSeries: z.boolean().optional(),
    eventTableSelect: z.string().optional(),
    groupByColumnsOnLeft: z.boolean().optional(),
    select: selectList,
    where: z.string(),
    whereLanguage: language,
    groupBy: selectList.optional(),
    having: z.string().optional(),
    havingLanguage: language.optional(),
    orderBy: sortList.optional(),
    limit: z.object({ limit: z.number().optional(), offset: z.number().optional() }).optional(),
    alert
  })
}

/** DashboardSchema, with its filters (DashboardFilterSchema) and containers. */
function dashboardSchema(tile: ReturnType<typeof tileSchema>, language: Language, filter: FilterCondition) {
  const metricType = oneOf(METRIC_DATA_TYPES)
  const trimmedLanguage = oneOf(FILTER_WHERE_LANGUAGES).optional()
  const dashboardFilter = z.object({
    id: z.string(),
    type: z.enum(['QUERY_EXPRESSION']),
    name: z.string().min(1),
    expression: z.string().min(1),
    source: z.string().min(1),
    sourceMetricType: metricType.optional(),
    where: z.string().optional(),
    whereLanguage: trimmedLanguage,
    appliesToSourceIds: z.array(z.string().min(1)).optional(),
    isBroadcastEnabled: z.boolean().optional(),
    isVariableEnabled: z.boolean().optional(),
    variableName: z
      .string()
      .max(64)
      .regex(/^[a-zA-Z][a-zA-Z0-9_]*$/)
      .optional()
  })
  const dashboard = z.object({
    id: z.string(),
    name: z.string().min(1),
    tiles: z.array(tile),
    tags: z.array(z.string()),
    filters: z.array(dashboardFilter).optional(),
    savedQuery: z.string().nullable().optional(),
    savedQueryLanguage: language.nullable().optional(),
    savedFilterValues: z.array(filter).optional(),
    containers: z
      .array(dashboardContainer)
      .max(50)
      .superRefine((list, ctx) => {
        const seen = new Set<string>()
        list.forEach((c, i) => {
          if (seen.has(c.id)) addIssue(ctx, `Container IDs must be unique: "${c.id}"`, [i, 'id'])
          seen.add(c.id)
        })
      })
      .optional()
  })
  return dashboard
}

let built: ReturnType<typeof build> | undefined
/** The web UI's schemas: `create` (POST body), `patch` (PATCH body), `params` (`:id`). */
export function uiSchemas(): ReturnType<typeof build> {
  return (built ??= build())
}
