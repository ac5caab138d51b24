/**
 * The value sets of the real server's request schemas (HyperDX 2.36: packages/common-utils/src/types.ts and
 * packages/api/src/utils/zod.ts; the managed cloud's OpenAPI document). Kept apart from src/manifest/vocabulary.ts on
 * purpose: the emulator stands in for the server, and the property tests compare the two, which only finds a wrong
 * value when the two sides do not share it.
 */

/** types.ts AggregateFunctionSchema, in the server's order (its enum message lists them so). */
export const AGGREGATE_FUNCTIONS = [
  'avg',
  'count',
  'count_distinct',
  'last_value',
  'max',
  'min',
  'quantile',
  'sum',
  'any',
  'none',
  'increase'
] as const
/** Managed OpenAPI ClickStackSelectItem / ClickStack*ChartSeries: the same list without `increase`. */
export const MANAGED_AGGREGATE_FUNCTIONS = AGGREGATE_FUNCTIONS.filter(fn => fn !== 'increase')

/** types.ts SearchConditionLanguageSchema (self-hosted); the managed document has no promql. */
export const WHERE_LANGUAGES = ['sql', 'lucene', 'promql'] as const
export const MANAGED_WHERE_LANGUAGES = ['sql', 'lucene'] as const
/** types.ts SearchConditionTrimmedLanguageSchema (dashboard filters). */
export const FILTER_WHERE_LANGUAGES = ['sql', 'lucene'] as const

/** types.ts MetricsDataType, in declaration order (a native enum: its message lists the values). */
export const METRIC_DATA_TYPES = ['gauge', 'histogram', 'sum', 'summary', 'exponential histogram'] as const

/** zod.ts externalQuantileLevelSchema. */
export const QUANTILE_LEVELS = [0.5, 0.9, 0.95, 0.99] as const

/** types.ts NumberFormatSchema `output`. */
export const NUMBER_FORMAT_OUTPUTS = [
  'currency',
  'percent',
  'byte',
  'time',
  'duration',
  'number',
  'data_rate',
  'throughput'
] as const

/** types.ts NumericUnit, in declaration order. */
export const NUMERIC_UNITS = [
  'bytes_iec',
  'bytes_si',
  'bits_iec',
  'bits_si',
  'kibibytes',
  'kilobytes',
  'mebibytes',
  'megabytes',
  'gibibytes',
  'gigabytes',
  'tebibytes',
  'terabytes',
  'pebibytes',
  'petabytes',
  'packets_sec',
  'bytes_sec_iec',
  'bytes_sec_si',
  'bits_sec_iec',
  'bits_sec_si',
  'kibibytes_sec',
  'kibibits_sec',
  'kilobytes_sec',
  'kilobits_sec',
  'mebibytes_sec',
  'mebibits_sec',
  'megabytes_sec',
  'megabits_sec',
  'gibibytes_sec',
  'gibibits_sec',
  'gigabytes_sec',
  'gigabits_sec',
  'tebibytes_sec',
  'tebibits_sec',
  'terabytes_sec',
  'terabits_sec',
  'pebibytes_sec',
  'pebibits_sec',
  'petabytes_sec',
  'petabits_sec',
  'cps',
  'ops',
  'rps',
  'reads_sec',
  'wps',
  'iops',
  'cpm',
  'opm',
  'rpm_reads',
  'wpm'
] as const

/** types.ts CHART_PALETTE_TOKENS (categorical, then semantic). */
export const PALETTE_TOKENS = [
  'chart-blue',
  'chart-orange',
  'chart-red',
  'chart-cyan',
  'chart-green',
  'chart-pink',
  'chart-purple',
  'chart-light-blue',
  'chart-brown',
  'chart-gray',
  'chart-success',
  'chart-warning',
  'chart-error'
] as const

/** zod.ts alertSchema `interval`, with its length in minutes (types.ts ALERT_INTERVAL_TO_MINUTES). */
export const ALERT_INTERVAL_MINUTES = {
  '1m': 1,
  '5m': 5,
  '15m': 15,
  '30m': 30,
  '1h': 60,
  '6h': 360,
  '12h': 720,
  '1d': 1440
} as const

/** types.ts AlertThresholdType, in declaration order. */
export const THRESHOLD_TYPES = [
  'above',
  'below',
  'above_exclusive',
  'below_or_equal',
  'equal',
  'not_equal',
  'between',
  'not_between'
] as const

/** models/alert.ts AlertSource. */
export const ALERT_SOURCES = ['saved_search', 'tile'] as const

/** v2/charts.ts granularitySchema. */
export const CHART_GRANULARITIES = [
  '30s',
  '1m',
  '5m',
  '10m',
  '15m',
  '30m',
  '1h',
  '2h',
  '6h',
  '12h',
  '1d',
  '2d',
  '7d',
  '30d',
  'auto'
] as const

/** Display types an alert may watch (core/utils.ts displayTypeSupportsRawSqlAlerts / …BuilderAlerts). */
export const ALERTABLE_DISPLAY_TYPES = ['line', 'stacked_bar', 'number'] as const

/** types.ts limits. */
export const LIMITS = {
  maxTiles: 500,
  maxTags: 50,
  maxTagLength: 32,
  maxContainers: 50,
  maxContainerTabs: 20,
  containerIdMax: 256,
  variableNameMax: 64,
  maxAlertChannels: 10
} as const
