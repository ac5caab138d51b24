/**
 * A v2 dashboard's tiles as the real server checks them (HyperDX 2.36 packages/api/src/utils/zod.ts: the tile, series,
 * config and select-item schemas and their refinements), for either rule mode: managed mode adds what the cloud's
 * OpenAPI document (ClickStack* schemas) leaves out or requires on top. The definitions are ours; the limits, value
 * sets, order of checks and messages are the server's. rules/dashboard.ts puts them in a body.
 */
import {
  addIssue,
  backgroundChart,
  isRecord,
  numberFormat,
  numberTileColorRule,
  objectId,
  oneOf,
  paletteToken,
  z,
  type RuleMode
} from './common.js'
import { unexpectedError } from '../errors.js'
import { formulaProblems } from './formula.js'
import {
  AGGREGATE_FUNCTIONS,
  LIMITS,
  MANAGED_AGGREGATE_FUNCTIONS,
  MANAGED_WHERE_LANGUAGES,
  METRIC_DATA_TYPES,
  QUANTILE_LEVELS,
  WHERE_LANGUAGES
} from './vocabulary.js'

type Shape = z.ZodRawShape
type Json = Record<string, unknown>

/** Config keys the managed document does not declare on any tile config: the emulator refuses them there. */
const MANAGED_UNDECLARED_CONFIG_KEYS = ['formulas', 'showOperandSeries', 'seriesLimit'] as const

export const text = (max: number) => z.string().max(max)

/** What the rule mode changes in the tile schemas, made once per mode. */
export function tileVocabulary(mode: RuleMode) {
  const managed = mode === 'managed'
  const language = oneOf<string>(managed ? MANAGED_WHERE_LANGUAGES : WHERE_LANGUAGES).optional()
  return {
    managed,
    aggFn: oneOf(managed ? MANAGED_AGGREGATE_FUNCTIONS : AGGREGATE_FUNCTIONS),
    language,
    /** Managed series and search configs list whereLanguage as required (ClickStack*ChartSeries, …SearchChartConfig). */
    requiredLanguage: managed ? oneOf<string>(MANAGED_WHERE_LANGUAGES) : language,
    metricType: oneOf(METRIC_DATA_TYPES),
    /** Managed tiles declare x, y, w and h as integers (ClickStackTileInput); HyperDX takes any number. */
    gridNumber: managed ? z.number().int() : z.number()
  }
}

export type TileVocabulary = ReturnType<typeof tileVocabulary>

/** zod.ts externalDashboardTileSchema (…WithOptionalId, externalDashboardTileListSchema) and the MCP patch's tile. */
export function tileSchemas(v: TileVocabulary) {
  const containerRef = z.string().min(1).max(LIMITS.containerIdMax).optional()
  const tileBase = z
    .object({
      name: z.string(),
      x: v.gridNumber.min(0).max(23),
      y: v.gridNumber.min(0),
      w: v.gridNumber.min(1).max(24),
      h: v.gridNumber.min(1),
      asRatio: z.boolean().optional(),
      series: seriesListSchema(v).optional(),
      config: configSchema(v).optional(),
      containerId: containerRef,
      tabId: containerRef
    })
    .superRefine((t, ctx) => {
      if (t.series && t.config) addIssue(ctx, 'Tile cannot have both series and config')
      else if (!t.series && !t.config) addIssue(ctx, 'Tile must have either series or config')
      if (t.asRatio != undefined && t.config)
        addIssue(
          ctx,
          'asRatio property is not supported when using config property. Specify config.asRatio instead.'
        )
    })
  const tile = tileBase.and(z.object({ id: z.string().max(36).optional() }))
  /** zod.ts externalDashboardTileSchemaWithId: what an MCP tile patch is checked against. */
  const tileWithId = tileBase.and(z.object({ id: z.string().max(36) }))
  const tiles = z
    .array(tile)
    .max(LIMITS.maxTiles)
    .superRefine((list, ctx) => {
      const seen = new Set<string>()
      list.forEach((t, i) => {
        if (!t.id) return
        if (seen.has(t.id))
          addIssue(ctx, `Duplicate tile ID: ${t.id}. Omit the ID to generate a unique one.`, [i, 'id'])
        seen.add(t.id)
      })
    })
  return { tiles, tileWithId }
}

/** The older `series` form (zod.ts chartSeriesSchema): one type for all of a tile's series. */
function seriesListSchema(v: TileVocabulary) {
  const level = z.number().min(0).max(1).optional()
  const measure = {
    sourceId: objectId,
    aggFn: v.aggFn,
    level,
    field: z.string().optional(),
    alias: z.string().optional(),
    where: z.string(),
    whereLanguage: v.requiredLanguage
  }
  const metric = {
    numberFormat: numberFormat.optional(),
    metricDataType: v.metricType.optional(),
    metricName: z.string().optional()
  }
  const groupBy = z.array(z.string()).max(10)
  const series = z.discriminatedUnion('type', [
    z.object({
      type: z.literal('time'),
      ...measure,
      groupBy,
      ...metric,
      displayType: z.union([z.literal('stacked_bar'), z.literal('line')]).optional()
    }),
    z.object({
      type: z.literal('table'),
      ...measure,
      groupBy,
      sortOrder: z.union([z.literal('desc'), z.literal('asc')]).optional(),
      ...metric
    }),
    z.object({
      type: z.literal('search'),
      sourceId: objectId,
      fields: z.array(z.string()),
      where: z.string(),
      whereLanguage: v.requiredLanguage
    }),
    z.object({ type: z.literal('number'), ...measure, ...metric }),
    z.object({ type: z.literal('markdown'), content: text(100000) })
  ])
  return z
    .array(series)
    .min(1)
    .superRefine((list, ctx) => {
      if (list.some(s => s.type !== list[0]!.type)) addIssue(ctx, 'All series must have the same type')
    })
}

/**
 * The `config` form (zod.ts externalDashboardTileConfigSchema): `configType: 'sql'` picks the raw SQL union, anything
 * else the builder union. Checked on the raw input first (checkConfig), then re-parsed through the variant: unknown
 * keys are stripped and defaults filled in, as the server stores them.
 */
function configSchema(v: TileVocabulary) {
  const onClick = onClickSchema(v)
  const raw = rawSqlConfigSchema(v, onClick)
  const builder = builderConfigSchema(v, onClick)
  const variantOf = (value: unknown) => (isRecord(value) && value.configType === 'sql' ? raw : builder)
  return z
    .unknown()
    .superRefine((value, ctx) => {
      if (v.managed && isRecord(value)) {
        const extra = MANAGED_UNDECLARED_CONFIG_KEYS.filter(key => key in value)
        if (extra.length > 0)
          addIssue(ctx, `Unrecognized key(s) in object: ${extra.map(k => `'${k}'`).join(', ')}`)
      }
      const parsed = variantOf(value).safeParse(value)
      if (!parsed.success) {
        for (const issue of parsed.error.issues) ctx.addIssue(issue)
        return
      }
      checkConfig(value as Json, v.managed, ctx)
    })
    .transform(value => variantOf(value).parse(value) as Json)
}

/** The config's refinements past its variant (zod.ts), on the raw input: select counts, asRatio and formulas. */
function checkConfig(data: Json, managed: boolean, ctx: z.RefinementCtx): void {
  // On the raw input, so asRatio also fails on variants that do not declare it (pie, raw SQL).
  if ('asRatio' in data && data.asRatio && (!Array.isArray(data.select) || data.select.length !== 2))
    addIssue(ctx, 'asRatio can only be used with exactly two select items')
  if ('configType' in data) return
  if (!managed && formulasCrashTheServer(data.formulas)) throw unexpectedError()
  const list = !managed && Array.isArray(data.formulas) ? (data.formulas as Json[]) : []
  if (list.length > 0) {
    const count = Array.isArray(data.select) ? data.select.length : 0
    list.forEach((formula, k) => {
      const problems = formulaProblems(String(formula.expression ?? ''), count)
      if (problems.length > 0) addIssue(ctx, problems.join('; '), ['formulas', k, 'expression'])
    })
    if (data.asRatio)
      addIssue(
        ctx,
        'formulas cannot be combined with asRatio; express the ratio as a formula instead (e.g. "A / B")',
        ['formulas']
      )
    if (data.displayType === 'number' && list.length > 1)
      addIssue(ctx, 'Number charts support a single formula', ['formulas'])
  }
  if (
    data.displayType === 'number' &&
    list.length === 0 &&
    Array.isArray(data.select) &&
    data.select.length !== 1
  )
    addIssue(
      ctx,
      'Number tiles support a single select item unless formulas are used (extra items are formula operands)',
      ['select']
    )
}

/**
 * Whether the server's formula check (common-utils dashboardValidation.ts validateChartConfigFormulas) throws on this
 * raw `formulas`. It reads them as a list of objects on every builder config, also one whose display type has no
 * formulas (pie, bar, heatmap, markdown, search, event patterns: their variant stripped the key, so nothing refused it
 * first): a value with a length other than 0 that is not a list, or a null in the list, is a TypeError there, and the
 * route answers 500 `Something went wrong :(` whatever else the body holds (docs/real-server.md, seen on 2.36.0).
 */
function formulasCrashTheServer(formulas: unknown): boolean {
  if (!formulas || (formulas as { length?: unknown }).length === 0) return false
  return !Array.isArray(formulas) || formulas.some(formula => formula === null)
}

/** Select items of the `config` form (zod.ts externalDashboardSelectItemSchema). */
function selectListSchema(v: TileVocabulary) {
  const quantileLevel = z.union(
    QUANTILE_LEVELS.map(l => z.literal(l)) as unknown as [z.ZodLiteral<number>, z.ZodLiteral<number>]
  )
  const selectItem = z
    .object({
      valueExpression: text(10000).optional(),
      alias: text(10000).optional(),
      aggFn: v.aggFn,
      level: quantileLevel.optional(),
      where: text(10000).optional().default(''),
      whereLanguage: v.language,
      numberFormat: numberFormat.optional(),
      metricType: v.metricType.optional(),
      metricName: z.string().optional(),
      periodAggFn: z.enum(['delta']).optional()
    })
    .superRefine((item, ctx) => {
      if (item.level && item.aggFn !== 'quantile')
        addIssue(ctx, 'Level can only be used with quantile aggregation function')
      if (item.valueExpression && item.aggFn === 'count')
        addIssue(ctx, 'Value expression cannot be used with count aggregation function')
      else if (!item.valueExpression && item.aggFn !== 'count')
        addIssue(ctx, 'Value expression is required for non-count aggregation functions')
    })
  return z.array(selectItem)
}

/** onClick link-outs of table tiles (types.ts OnClick*Schema, zod.ts externalOnClickSchema). */
function onClickSchema(v: TileVocabulary) {
  const target = z.discriminatedUnion('mode', [
    z.object({ mode: z.literal('id'), id: objectId }),
    z.object({ mode: z.literal('template'), template: z.string().min(1).max(10000) })
  ])
  const linkFilters = z
    .array(
      z.object({
        kind: z.literal('expressionTemplate'),
        expression: z.string().min(1, 'Expression is required').max(10000),
        template: z.string().min(1, 'Template is required').max(10000)
      })
    )
    .max(50)
    .optional()
  const linkTo = (type: 'search' | 'dashboard') =>
    z.object({
      type: z.literal(type),
      target,
      whereTemplate: text(10000).optional(),
      whereLanguage: v.language,
      filters: linkFilters
    })
  return z.discriminatedUnion('type', [
    linkTo('search'),
    linkTo('dashboard'),
    z.object({ type: z.literal('external'), urlTemplate: z.string().min(1).max(10000) })
  ])
}

type OnClick = ReturnType<typeof onClickSchema>

/** The settings the cloud's document does not declare: formulas on builder tiles, a series limit on time charts. */
function selfHostedOnly(v: TileVocabulary) {
  const formulas = z
    .array(
      z.object({
        expression: text(1024),
        alias: z.string().optional(),
        numberFormat: numberFormat.optional()
      })
    )
    .max(10)
    .optional()
  const seriesLimit = z.number().int().nonnegative().optional()
  const withFormulas: Shape = v.managed ? {} : { formulas, showOperandSeries: z.boolean().optional() }
  const withSeriesLimit: Shape = v.managed ? {} : { seriesLimit }
  return { formulas, withFormulas, withSeriesLimit }
}

/** The builder variants, by display type (zod.ts external*ChartConfigSchema), in the server's order. */
function builderConfigSchema(v: TileVocabulary, onClick: OnClick) {
  const selectList = selectListSchema(v)
  const { formulas, withFormulas, withSeriesLimit } = selfHostedOnly(v)
  const timeBuilder = {
    sourceId: objectId,
    select: selectList.min(1).max(20),
    groupBy: text(10000).optional(),
    asRatio: z.boolean().optional(),
    alignDateRangeToGranularity: z.boolean().optional(),
    fillNulls: z.boolean().optional(),
    numberFormat: numberFormat.optional(),
    ...withFormulas
  }
  const categorical = (displayType: 'pie' | 'bar') =>
    z.object({
      displayType: z.literal(displayType),
      sourceId: objectId,
      select: selectList.length(1),
      groupBy: text(10000).optional(),
      orderBy: text(10000).optional(),
      numberFormat: numberFormat.optional(),
      limit: z.number().int().nonnegative().optional()
    })
  return z.discriminatedUnion('displayType', [
    z.object({
      displayType: z.literal('line'),
      ...timeBuilder,
      compareToPreviousPeriod: z.boolean().optional(),
      fitYAxisToData: z.boolean().optional(),
      ...withSeriesLimit
    }),
    z.object({ displayType: z.literal('stacked_bar'), ...timeBuilder, ...withSeriesLimit }),
    z.object({
      displayType: z.literal('table'),
      sourceId: objectId,
      select: selectList.min(1).max(20),
      groupBy: text(10000).optional(),
      having: text(10000).optional(),
      orderBy: text(10000).optional(),
      asRatio: z.boolean().optional(),
      numberFormat: numberFormat.optional(),
      groupByColumnsOnLeft: z.boolean().optional(),
      onClick: onClick.optional(),
      ...withFormulas
    }),
    z.object({
      displayType: z.literal('number'),
      sourceId: objectId,
      select: selectList.min(1).max(20),
      numberFormat: numberFormat.optional(),
      ...(v.managed ? {} : { formulas }),
      color: paletteToken.optional(),
      colorRules: z.array(numberTileColorRule).max(10).optional(),
      backgroundChart: backgroundChart.optional()
    }),
    categorical('pie'),
    categorical('bar'),
    ...rowBuilderConfigs(v)
  ])
}

/** The builder variants that show rows or text rather than aggregates: heatmap, markdown, search, event patterns. */
function rowBuilderConfigs(v: TileVocabulary) {
  const filtered = { where: text(10000).optional().default(''), whereLanguage: v.language }
  return [
    z.object({
      displayType: z.literal('heatmap'),
      sourceId: objectId,
      select: z
        .array(
          z.object({
            valueExpression: z.string().min(1).max(10000),
            countExpression: text(10000).optional(),
            heatmapScaleType: z.enum(['log', 'linear']).optional()
          })
        )
        .length(1),
      ...filtered,
      numberFormat: numberFormat.optional()
    }),
    z.object({ displayType: z.literal('markdown'), markdown: text(50000).optional() }),
    z.object({
      displayType: z.literal('search'),
      sourceId: objectId,
      select: text(10000),
      ...filtered,
      whereLanguage: v.requiredLanguage
    }),
    z.object({
      displayType: z.literal('event_patterns'),
      sourceId: objectId,
      select: text(10000).optional().default(''),
      ...filtered
    })
  ] as const
}

/** Raw SQL tiles (configType 'sql'): a connection and a template instead of a source and select items. */
function rawSqlConfigSchema(v: TileVocabulary, onClick: OnClick) {
  const { withSeriesLimit } = selfHostedOnly(v)
  const rawBase = {
    configType: z.literal('sql'),
    connectionId: objectId,
    sqlTemplate: text(100000),
    sourceId: objectId.optional(),
    numberFormat: numberFormat.optional()
  }
  const rawTime = { fillNulls: z.boolean().optional(), alignDateRangeToGranularity: z.boolean().optional() }
  return z.discriminatedUnion('displayType', [
    z.object({
      ...rawBase,
      displayType: z.literal('line'),
      compareToPreviousPeriod: z.boolean().optional(),
      ...rawTime,
      fitYAxisToData: z.boolean().optional(),
      ...withSeriesLimit
    }),
    z.object({ ...rawBase, displayType: z.literal('stacked_bar'), ...rawTime, ...withSeriesLimit }),
    z.object({ ...rawBase, displayType: z.literal('table'), onClick: onClick.optional() }),
    z.object({ ...rawBase, displayType: z.literal('number'), color: paletteToken.optional() }),
    z.object({ ...rawBase, displayType: z.literal('pie') }),
    z.object({ ...rawBase, displayType: z.literal('bar') })
  ])
}
