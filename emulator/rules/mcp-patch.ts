/**
 * The arguments of the MCP tool `clickstack_patch_dashboard` (packages/api/src/mcp/tools/dashboards/schemas.ts
 * mcpPatchDashboardSchema and the tile schemas it is made of), as the MCP SDK checks them before the tool runs.
 * What matters to a caller:
 * - a tile is one of eleven shapes, tried in turn (line, stacked_bar, table, number, pie, bar, heatmap, search,
 *   event_patterns, markdown, raw SQL); none matching is zod's "Invalid input" at `tile`;
 * - unknown keys are dropped, so a select item's `periodAggFn` is lost (the tool knows `isDelta`, which the
 *   converter then ignores) and a config key the tool does not list is not stored;
 * - a select item's `where` defaults to '' and its `whereLanguage` to 'lucene' (so a patched tile never stores a
 *   null language); line and stacked_bar default `fillNulls` to true;
 * - an aggregation tile (line, stacked_bar, table, number, pie, bar) refuses a tile-level `where`/`whereLanguage`;
 * - layout fields have no defaults here: the tool falls back to the existing tile's.
 * The definitions and descriptions are ours; the shapes, limits and defaults are the server's. The server defines these
 * schemas apart from the v2 API's (zod.ts), sharing only the colour rules and background chart of types.ts, and so does
 * this file: they look like rules/dashboard.ts's but differ where a caller sees it (messages, defaults, link targets).
 */
import { backgroundChart, isValidObjectId, numberTileColorRule, z } from './common.js'
import { AGGREGATE_FUNCTIONS, NUMBER_FORMAT_OUTPUTS, PALETTE_TOKENS } from './vocabulary.js'

/** Never shown to a caller as such: inside the tile union, any refusal reads "Invalid input" at `tile`. */
const TILE_WHERE_REFUSAL = 'No tile-level where on this tile type: filter on each select item instead'

const objectId = z.string().refine(isValidObjectId, 'Invalid ObjectId')
const language = z.enum(['sql', 'lucene'])
const palette = z.enum(PALETTE_TOKENS as unknown as [string, ...string[]])

/** The tool's number format: the shared one without `numericUnit`. */
const numberFormat = z.object({
  output: z.enum(NUMBER_FORMAT_OUTPUTS as unknown as [string, ...string[]]),
  mantissa: z.number().int().optional(),
  thousandSeparated: z.boolean().optional(),
  average: z.boolean().optional(),
  decimalBytes: z.boolean().optional(),
  factor: z.number().optional(),
  currencySymbol: z.string().optional(),
  unit: z.string().optional()
})

/** A quantile level: a number or its string, one of four. */
const quantileLevel = z
  .preprocess(
    value => (typeof value === 'number' ? String(value) : value),
    z.enum(['0.5', '0.9', '0.95', '0.99'])
  )
  .transform(Number)

/**
 * mcp/tools/query/schemas.ts getMetricSelectIssues: which select items the tool refuses (the wording is ours: inside
 * the tile union a caller only ever sees "Invalid input" at `tile`).
 */
function metricIssues(item: {
  aggFn?: string
  metricType?: string
  metricName?: string
  isDelta?: boolean
  level?: number
  valueExpression?: string
}): Array<{ path: string[]; message: string }> {
  const issues: Array<{ path: string[]; message: string }> = []
  const add = (key: string, message: string) => issues.push({ path: [key], message })
  if (item.metricType && !item.metricName) add('metricName', 'metricType needs metricName')
  if (item.metricName && !item.metricType) add('metricType', 'metricName needs metricType')
  if (item.aggFn === 'increase' && item.metricType !== 'sum') add('aggFn', 'increase is for sum metrics only')
  if (item.metricType === 'histogram' || item.metricType === 'exponential histogram') {
    if (item.aggFn !== 'quantile' && item.aggFn !== 'count') add('aggFn', 'histograms take quantile or count')
    if (item.aggFn === 'quantile' && item.level == null) add('level', 'a histogram quantile needs a level')
  }
  if (item.isDelta && item.metricType !== 'gauge') add('isDelta', 'isDelta is for gauge metrics only')
  if (item.level != null && item.aggFn !== 'quantile') add('level', 'level needs aggFn quantile')
  if (item.valueExpression && item.aggFn === 'count') add('valueExpression', 'count takes no valueExpression')
  else if (!item.valueExpression && item.aggFn !== 'count' && !item.metricType)
    add('valueExpression', 'this aggFn needs a valueExpression (or a metricType)')
  return issues
}

const selectItem = z
  .object({
    aggFn: z.enum(AGGREGATE_FUNCTIONS as unknown as [string, ...string[]]).describe('Aggregation function'),
    valueExpression: z.string().optional().describe('What to aggregate; not with count'),
    where: z.string().optional().default('').describe("This series' row filter"),
    whereLanguage: language.optional().default('lucene'),
    alias: z.string().optional().describe('Series label'),
    level: quantileLevel.optional().describe('Quantile level, with aggFn quantile'),
    numberFormat: numberFormat.optional(),
    metricType: z.enum(['gauge', 'sum', 'histogram', 'exponential histogram']).optional(),
    metricName: z.string().optional(),
    isDelta: z.boolean().optional().describe('Gauge metrics only')
  })
  .superRefine((item, ctx) => {
    for (const issue of metricIssues(item)) ctx.addIssue({ code: z.ZodIssueCode.custom, ...issue })
  })
  .transform(item =>
    item.metricType && item.aggFn !== 'count' && !item.valueExpression
      ? { ...item, valueExpression: 'Value' }
      : item
  )

const formula = z.object({
  expression: z.string().max(1024).describe('Arithmetic over the select items by letter: A is select[0]'),
  alias: z.string().optional(),
  numberFormat: numberFormat.optional()
})
const formulas = z.array(formula).max(10).optional()

const linkTarget = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('id'), id: z.string().min(1) }),
  z.object({ mode: z.literal('template'), template: z.string().min(1).max(10000) })
])
const linkFilter = z.object({
  kind: z.literal('expressionTemplate'),
  expression: z.string().min(1).max(10000),
  template: z.string().min(1).max(10000)
})
const linkTo = (type: 'search' | 'dashboard') =>
  z.object({
    type: z.literal(type),
    target: linkTarget,
    whereTemplate: z.string().max(10000).optional(),
    whereLanguage: language.optional(),
    filters: z.array(linkFilter).max(50).optional()
  })
const onClick = z.discriminatedUnion('type', [
  linkTo('search'),
  linkTo('dashboard'),
  z.object({ type: z.literal('external'), urlTemplate: z.string().min(1).max(10000) })
])

/** Declared only to refuse a tile-level filter on the aggregation tiles. */
const refused = z.never({ invalid_type_error: TILE_WHERE_REFUSAL }).optional().describe('Not supported here')
const noTileWhere = { where: refused, whereLanguage: refused }
const seriesLimit = z.number().int().nonnegative().optional()
const source = z.string().describe('Source id')

const lineConfig = z.object({
  ...noTileWhere,
  displayType: z.literal('line'),
  sourceId: source,
  select: z.array(selectItem).min(1).max(20),
  groupBy: z.string().optional(),
  fillNulls: z.boolean().optional().default(true),
  alignDateRangeToGranularity: z.boolean().optional(),
  asRatio: z.boolean().optional(),
  numberFormat: numberFormat.optional(),
  compareToPreviousPeriod: z.boolean().optional(),
  fitYAxisToData: z.boolean().optional(),
  seriesLimit,
  formulas,
  showOperandSeries: z.boolean().optional()
})
const stackedBarConfig = z.object({
  ...noTileWhere,
  displayType: z.literal('stacked_bar'),
  sourceId: source,
  select: z.array(selectItem).min(1).max(20),
  groupBy: z.string().optional(),
  fillNulls: z.boolean().optional().default(true),
  alignDateRangeToGranularity: z.boolean().optional(),
  asRatio: z.boolean().optional(),
  numberFormat: numberFormat.optional(),
  seriesLimit,
  formulas,
  showOperandSeries: z.boolean().optional()
})
const tableConfig = z.object({
  ...noTileWhere,
  displayType: z.literal('table'),
  sourceId: source,
  select: z.array(selectItem).min(1).max(20),
  groupBy: z.string().optional(),
  having: z.string().max(10000).optional(),
  orderBy: z.string().optional(),
  asRatio: z.boolean().optional(),
  groupByColumnsOnLeft: z.boolean().optional(),
  numberFormat: numberFormat.optional(),
  onClick: onClick.optional(),
  formulas,
  showOperandSeries: z.boolean().optional()
})
const numberConfig = z.object({
  ...noTileWhere,
  displayType: z.literal('number'),
  sourceId: source,
  select: z.array(selectItem).min(1).max(20),
  numberFormat: numberFormat.optional(),
  formulas: z.array(formula).max(1).optional(),
  color: palette.optional(),
  colorRules: z.array(numberTileColorRule).max(10).optional(),
  backgroundChart: backgroundChart.optional()
})
const categorical = (displayType: 'pie' | 'bar') =>
  z.object({
    ...noTileWhere,
    displayType: z.literal(displayType),
    sourceId: source,
    select: z.array(selectItem).length(1),
    groupBy: z.string().optional(),
    orderBy: z.string().optional(),
    numberFormat: numberFormat.optional(),
    limit: z.number().int().nonnegative().optional()
  })
const heatmapConfig = z.object({
  displayType: z.literal('heatmap'),
  sourceId: source,
  select: z
    .array(
      z.object({
        valueExpression: z.string().min(1),
        countExpression: z.string().optional(),
        heatmapScaleType: z.enum(['log', 'linear']).optional()
      })
    )
    .length(1),
  where: z.string().optional().default(''),
  whereLanguage: language.optional().default('lucene'),
  numberFormat: numberFormat.optional()
})
const rowsConfig = (displayType: 'search' | 'event_patterns') =>
  z.object({
    displayType: z.literal(displayType),
    sourceId: source,
    where: z.string().optional().default(''),
    whereLanguage: language.optional().default('lucene'),
    select: z.string().optional().default('')
  })
const markdownConfig = z.object({
  displayType: z.literal('markdown'),
  markdown: z.string().optional().default('')
})
const sqlConfig = z.object({
  configType: z.literal('sql'),
  displayType: z.enum(['line', 'stacked_bar', 'table', 'number', 'pie', 'bar']),
  connectionId: z.string().describe('Connection id'),
  sourceId: z.string().optional(),
  sqlTemplate: z.string().describe('ClickHouse SQL'),
  fillNulls: z.boolean().optional(),
  alignDateRangeToGranularity: z.boolean().optional(),
  numberFormat: numberFormat.optional(),
  compareToPreviousPeriod: z.boolean().optional(),
  fitYAxisToData: z.boolean().optional(),
  color: palette.optional(),
  onClick: onClick.optional()
})

/** Layout without defaults: an omitted field falls back to the existing tile's. */
const layout = z.object({
  name: z.string().min(1).optional().describe('Tile title; omit to keep it'),
  x: z.number().min(0).max(23).optional(),
  y: z.number().min(0).optional(),
  w: z.number().min(1).max(24).optional(),
  h: z.number().min(1).optional(),
  containerId: z.string().min(1).max(256).optional(),
  tabId: z.string().min(1).max(256).optional()
})

const CONFIGS = [
  lineConfig,
  stackedBarConfig,
  tableConfig,
  numberConfig,
  categorical('pie'),
  categorical('bar'),
  heatmapConfig,
  rowsConfig('search'),
  rowsConfig('event_patterns'),
  markdownConfig,
  sqlConfig
] as const

const patchTile = z.union(
  CONFIGS.map(config => layout.extend({ config })) as unknown as [
    z.ZodTypeAny,
    z.ZodTypeAny,
    ...z.ZodTypeAny[]
  ]
)

export const mcpPatchDashboardArgs = z.object({
  dashboardId: objectId.describe('Dashboard id'),
  name: z.string().min(1).optional().describe('New name; omit to keep it'),
  tags: z.array(z.string().max(32)).max(50).optional().describe('New tags (replace all); omit to keep them'),
  tileId: z.string().optional().describe('Id of the tile to replace; with `tile`'),
  tile: patchTile
    .optional()
    .describe("The replacement tile; layout, name and container default to the existing tile's")
})

export type McpPatchArgs = {
  dashboardId: string
  name?: string
  tags?: string[]
  tileId?: string
  tile?: Record<string, unknown>
}

// ---------------------------------------------------------------------------------------------------------
// The JSON Schema `tools/list` advertises (draft-07, as the SDK's converter writes it).

type Schema = Record<string, unknown>

function describe(def: { description?: string }, schema: Schema): Schema {
  return def.description ? { ...schema, description: def.description } : schema
}

/** The subset of zod the tool's schema uses, in JSON Schema. */
function toJsonSchema(schema: z.ZodTypeAny): Schema {
  const def = schema._def as { typeName: string; description?: string; [key: string]: unknown }
  switch (def.typeName) {
    case 'ZodOptional':
    case 'ZodDefault': {
      const inner = toJsonSchema(def.innerType as z.ZodTypeAny)
      const out =
        def.typeName === 'ZodDefault' ? { ...inner, default: (def.defaultValue as () => unknown)() } : inner
      return describe(def, out)
    }
    case 'ZodEffects':
      return describe(def, toJsonSchema(def.schema as z.ZodTypeAny))
    case 'ZodObject': {
      const shape = (schema as z.AnyZodObject).shape as Record<string, z.ZodTypeAny>
      const properties: Schema = {}
      const required: string[] = []
      for (const [key, value] of Object.entries(shape)) {
        properties[key] = toJsonSchema(value)
        if (!value.isOptional()) required.push(key)
      }
      return describe(def, {
        type: 'object',
        properties,
        ...(required.length > 0 ? { required } : {}),
        additionalProperties: false
      })
    }
    case 'ZodArray': {
      const out: Schema = { type: 'array', items: toJsonSchema(def.type as z.ZodTypeAny) }
      const exact = def.exactLength as { value: number } | null
      const min = def.minLength as { value: number } | null
      const max = def.maxLength as { value: number } | null
      if (exact) Object.assign(out, { minItems: exact.value, maxItems: exact.value })
      if (min) out.minItems = min.value
      if (max) out.maxItems = max.value
      return describe(def, out)
    }
    case 'ZodUnion':
    case 'ZodDiscriminatedUnion': {
      const options = (def.options as z.ZodTypeAny[] | Map<unknown, z.ZodTypeAny>) ?? []
      const list = Array.isArray(options) ? options : [...options.values()]
      return describe(def, { anyOf: list.map(toJsonSchema) })
    }
    case 'ZodString': {
      const out: Schema = { type: 'string' }
      for (const check of def.checks as Array<{ kind: string; value?: number }>) {
        if (check.kind === 'min') out.minLength = check.value
        if (check.kind === 'max') out.maxLength = check.value
      }
      return describe(def, out)
    }
    case 'ZodNumber': {
      const checks = def.checks as Array<{ kind: string; value?: number }>
      const out: Schema = { type: checks.some(c => c.kind === 'int') ? 'integer' : 'number' }
      for (const check of checks) {
        if (check.kind === 'min') out.minimum = check.value
        if (check.kind === 'max') out.maximum = check.value
      }
      return describe(def, out)
    }
    case 'ZodBoolean':
      return describe(def, { type: 'boolean' })
    case 'ZodEnum':
      return describe(def, { type: 'string', enum: [...(def.values as string[])] })
    case 'ZodLiteral':
      return describe(def, { type: typeof def.value, const: def.value })
    case 'ZodNever':
      return describe(def, { not: {} })
  }
  return describe(def, {})
}

/** The `inputSchema` of the tool in `tools/list`. */
export function patchInputSchema(): Schema {
  return { ...toJsonSchema(mcpPatchDashboardArgs), $schema: 'http://json-schema.org/draft-07/schema#' }
}
