/**
 * The manifest language as zod schemas: structure, types and value sets. Rules that span fields or
 * documents (a tile's series must agree, an alert's tile must exist) live in `rules.ts`, so these
 * schemas stay plain structure and export cleanly to JSON Schema for editors.
 */
import { z } from 'zod'
import {
  AGG_FNS,
  ALERT_INTERVALS,
  ALERT_SOURCES,
  API_VERSIONS,
  DATA_SOURCES,
  ENDPOINT_PROTOCOLS,
  LIMITS,
  METRIC_DATA_TYPES,
  NUMBER_FORMAT_OUTPUTS,
  NUMERIC_UNITS,
  QUANTILE_LEVELS,
  RELEASE_CHANNELS,
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

const apiVersion = z.enum(API_VERSIONS).optional().describe('Optional; the manifest language version.')

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
/** A select item's or a search config's filter: at most 10,000 characters (zod.ts). */
const filter = {
  where: z.string().max(LIMITS.expression).optional().describe('Filter expression (Lucene by default).'),
  whereLanguage
}

/** common-utils types.ts NumberFormatSchema: `output` is required, `numericUnit` one of the server's units. */
export const NumberFormat = z
  .strictObject({
    output: z.enum(NUMBER_FORMAT_OUTPUTS).describe('How the number is shown (required).'),
    mantissa: z.int().optional().describe('Decimal places.'),
    thousandSeparated: z.boolean().optional(),
    average: z.boolean().optional(),
    decimalBytes: z.boolean().optional(),
    factor: z.number().optional(),
    currencySymbol: z.string().optional(),
    numericUnit: z
      .enum(NUMERIC_UNITS)
      .optional()
      .describe('Unit for data, data rate and throughput formats.'),
    unit: z.string().optional()
  })
  .describe('Number formatting of displayed values.')

/** Fields shared by the aggregating series types (CONTRACT.md "Series", FACTS.md aggFn values). */
const aggregating = {
  dataSource: z
    .enum(DATA_SOURCES)
    .optional()
    .describe('Accepted for CONTRACT.md compatibility; the server drops it (FACTS.md).'),
  ...dataSourceRef,
  aggFn: z.enum(AGG_FNS),
  field: z.string().min(1).optional().describe('Value expression to aggregate; omitted for count.'),
  // A series becomes a select item on the server, which takes only these levels.
  level: z
    .literal(QUANTILE_LEVELS)
    .optional()
    .describe('Percentile level for quantile: 0.5, 0.9, 0.95 or 0.99.'),
  ...seriesFilter,
  alias: z.string().optional(),
  metricName: z.string().optional(),
  metricDataType: z.enum(METRIC_DATA_TYPES).optional(),
  numberFormat: NumberFormat.optional()
}
const groupBy = z.array(z.string().min(1)).max(LIMITS.groupBy).optional().describe('Grouping fields.')

export const TimeSeries = z.strictObject({
  type: z.literal('time'),
  ...aggregating,
  groupBy,
  displayType: z.enum(TIME_DISPLAY_TYPES).optional().describe('line (default) or stacked_bar.')
})
export const TableSeries = z.strictObject({
  type: z.literal('table'),
  ...aggregating,
  groupBy,
  sortOrder: z.enum(SORT_ORDERS).optional()
})
export const NumberSeries = z.strictObject({ type: z.literal('number'), ...aggregating, groupBy })
export const SearchSeries = z.strictObject({
  type: z.literal('search'),
  dataSource: aggregating.dataSource,
  ...dataSourceRef,
  fields: z
    .array(z.string().min(1))
    .describe('Columns shown in the search tile (none: the default columns).'),
  ...seriesFilter
})
export const MarkdownSeries = z.strictObject({
  type: z.literal('markdown'),
  content: z.string().max(LIMITS.seriesMarkdown)
})
/** CONTRACT.md's tile form: a list of series. */
export const Series = z.discriminatedUnion('type', [
  TimeSeries,
  TableSeries,
  NumberSeries,
  SearchSeries,
  MarkdownSeries
])

export const SelectItem = z.strictObject({
  aggFn: z.enum(AGG_FNS),
  valueExpression: z.string().min(1).max(LIMITS.expression).optional(),
  alias: z.string().max(LIMITS.expression).optional(),
  level: z.literal(QUANTILE_LEVELS).optional(),
  ...filter,
  metricName: z.string().optional(),
  metricType: z.enum(METRIC_DATA_TYPES).optional(),
  periodAggFn: z.literal('delta').optional(),
  numberFormat: NumberFormat.optional()
})
const select = (max: number) => z.array(SelectItem).min(1).max(max)
const configGroupBy = z
  .union([z.string().max(LIMITS.expression), z.array(z.string().min(1)).max(LIMITS.groupBy)])
  .optional()
  .describe('Grouping expression, or a list of fields.')

const timeConfig = {
  ...dataSourceRef,
  select: select(LIMITS.selectItems),
  groupBy: configGroupBy,
  asRatio: z.boolean().optional(),
  alignDateRangeToGranularity: z.boolean().optional(),
  fillNulls: z.boolean().optional(),
  numberFormat: NumberFormat.optional(),
  seriesLimit: z.int().min(0).optional()
}
/** FACTS.md's newer tile form, tagged by displayType (builder variants). */
export const TileConfig = z.discriminatedUnion('displayType', [
  z.strictObject({
    displayType: z.literal('line'),
    ...timeConfig,
    fitYAxisToData: z.boolean().optional(),
    compareToPreviousPeriod: z.boolean().optional()
  }),
  z.strictObject({ displayType: z.literal('stacked_bar'), ...timeConfig }),
  z.strictObject({
    displayType: z.literal('table'),
    ...dataSourceRef,
    select: select(LIMITS.selectItems),
    groupBy: configGroupBy,
    having: z.string().max(LIMITS.expression).optional(),
    orderBy: z.string().max(LIMITS.expression).optional(),
    asRatio: z.boolean().optional(),
    numberFormat: NumberFormat.optional(),
    groupByColumnsOnLeft: z.boolean().optional()
  }),
  z.strictObject({
    displayType: z.literal('number'),
    ...dataSourceRef,
    select: select(1),
    numberFormat: NumberFormat.optional()
  }),
  ...(['pie', 'bar'] as const).map(displayType =>
    z.strictObject({
      displayType: z.literal(displayType),
      ...dataSourceRef,
      select: select(1),
      groupBy: configGroupBy,
      orderBy: z.string().max(LIMITS.expression).optional(),
      numberFormat: NumberFormat.optional(),
      limit: z.int().min(0).optional()
    })
  ),
  z.strictObject({
    displayType: z.literal('search'),
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
  z.strictObject({ displayType: z.literal('markdown'), markdown: z.string().max(LIMITS.markdown).optional() })
])

export const Tile = z.strictObject({
  name: text(1024),
  x: between(0, LIMITS.gridColumns - 1),
  y: atLeast(0),
  w: between(1, LIMITS.gridColumns),
  h: atLeast(1),
  asRatio: z.boolean().optional().describe('Series form only: show series[0] / series[1].'),
  series: z.array(Series).min(1, { error: 'needs at least one series' }).optional(),
  config: TileConfig.optional()
})

export const Dashboard = z.strictObject({
  apiVersion,
  kind: z.literal('Dashboard'),
  name: text(LIMITS.dashboardName),
  tags: z
    .array(z.string().max(LIMITS.tagLength, { error: `must be at most ${LIMITS.tagLength} characters` }))
    .max(LIMITS.tags - 1, {
      error: `at most ${LIMITS.tags - 1} tags (one of the server's ${LIMITS.tags} is the ownership tag)`
    })
    .optional(),
  tiles: z
    .array(Tile)
    .max(LIMITS.tiles, { error: `at most ${LIMITS.tiles} tiles` })
    .optional(),
  id: z.string().min(1).optional().describe('Pin this manifest to an existing dashboard id (adopts it).'),
  adopt: z.boolean().optional().describe('Take ownership of an existing dashboard of the same name.'),
  renamedFrom: text(LIMITS.dashboardName)
    .optional()
    .describe('The previous name, so a rename keeps the dashboard id.')
})

export const AlertChannel = z.strictObject({
  type: z.literal('webhook'),
  webhook: z.string().min(1).optional().describe('Webhook by name.'),
  webhookId: z.string().min(1).optional().describe('Webhook by id.')
})

export const Alert = z.strictObject({
  apiVersion,
  kind: z.literal('Alert'),
  name: text(LIMITS.alertName),
  dashboard: z.string().min(1).describe('The dashboard, by name, from the manifests.'),
  tile: z.string().min(1).describe('The tile, by name, within that dashboard.'),
  source: z.enum(ALERT_SOURCES).optional().describe('tile (default).'),
  threshold: z.number(),
  thresholdMax: z.number().optional().describe('Upper bound for between and not_between.'),
  thresholdType: z.enum(THRESHOLD_TYPES),
  interval: z.enum(ALERT_INTERVALS),
  channel: AlertChannel,
  message: text(LIMITS.alertMessage).optional(),
  numConsecutiveWindows: atLeast(1).optional(),
  note: text(LIMITS.note).optional()
})

export const IpAccessEntry = z.strictObject({
  source: z.string().min(1).describe('IPv4/IPv6 address or CIDR.'),
  description: z.string().optional()
})

export const ServiceSettings = z.strictObject({
  apiVersion,
  kind: z.literal('ServiceSettings'),
  name: z
    .string()
    .min(1, { error: 'must be 1-50 letters, digits and whitespace' })
    .max(LIMITS.serviceName, {
      error: `must be at most ${LIMITS.serviceName} characters (letters, digits and whitespace)`
    })
    .optional(),
  releaseChannel: z.enum(RELEASE_CHANNELS).optional(),
  ipAccessList: z.array(IpAccessEntry).optional(),
  privateEndpointIds: z.array(z.string().min(1)).optional(),
  endpoints: z
    .array(z.strictObject({ protocol: z.enum(ENDPOINT_PROTOCOLS), enabled: z.boolean() }))
    .optional(),
  transparentDataEncryptionKeyId: z.string().min(1).optional()
})

export const KIND_SCHEMAS = { Dashboard, Alert, ServiceSettings } as const

export type DashboardSpec = z.infer<typeof Dashboard>
export type TileSpec = z.infer<typeof Tile>
export type SeriesSpec = z.infer<typeof Series>
export type TileConfigSpec = z.infer<typeof TileConfig>
export type SelectItemSpec = z.infer<typeof SelectItem>
export type AlertSpec = z.infer<typeof Alert>
export type ServiceSettingsSpec = z.infer<typeof ServiceSettings>

/** One schema for editors: any of the kinds, by `kind`. */
export const Manifest = z.discriminatedUnion('kind', [Dashboard, Alert, ServiceSettings])
