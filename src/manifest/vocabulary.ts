/**
 * The value sets of the API, from CONTRACT.md where it names them and FACTS.md where it says "not shown".
 * One place, so the schemas, the normalizer and the emulator-facing code agree.
 */
export const AGG_FNS = [
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
/** Managed mode (the cloud's ClickStackSelectItem and series): the same functions without `increase`. */
export const MANAGED_AGG_FNS = AGG_FNS.filter(fn => fn !== 'increase')
export const WHERE_LANGUAGES = ['lucene', 'sql'] as const
export const SERIES_TYPES = ['time', 'number', 'table', 'search', 'markdown'] as const
export const DATA_SOURCES = ['events', 'metrics'] as const
export const METRIC_DATA_TYPES = ['sum', 'gauge', 'histogram', 'summary', 'exponential histogram'] as const
/** The config form's select items take only these percentile levels (OpenAPI QuantileLevel). */
export const QUANTILE_LEVELS = [0.5, 0.9, 0.95, 0.99] as const
export const SORT_ORDERS = ['asc', 'desc'] as const
export const TIME_DISPLAY_TYPES = ['line', 'stacked_bar'] as const
export const DISPLAY_TYPES = [
  'line',
  'stacked_bar',
  'table',
  'number',
  'pie',
  'bar',
  'search',
  'markdown'
] as const
/** FACTS.md: an alert's tile must be line, stacked_bar or number. */
export const ALERTABLE_DISPLAY_TYPES = ['line', 'stacked_bar', 'number'] as const

export const ALERT_INTERVALS = ['1m', '5m', '15m', '30m', '1h', '6h', '12h', '1d'] as const
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
/** FACTS.md: the range types need `thresholdMax >= threshold`. */
export const RANGE_THRESHOLD_TYPES = ['between', 'not_between'] as const
export const ALERT_SOURCES = ['tile', 'saved_search'] as const

export const RELEASE_CHANNELS = ['slow', 'default', 'fast'] as const
/** The managed PATCH accepts only mysql endpoints (FACTS.md). */
export const ENDPOINT_PROTOCOLS = ['mysql'] as const

/** common-utils types.ts NumberFormatSchema: `output` is required and one of these. */
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

/** common-utils types.ts NumericUnit: the units a number format may name. */
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

/** FACTS.md limits, and the server's (packages/api/src/utils/zod.ts, common-utils types.ts). */
export const LIMITS = {
  dashboardName: 1024,
  tiles: 500,
  gridColumns: 24,
  tags: 50,
  tagLength: 32,
  alertName: 512,
  alertMessage: 4096,
  serviceName: 50,
  groupBy: 10,
  selectItems: 20,
  /** A config's groupBy, having, orderBy, select text and each select item's fields. */
  expression: 10000,
  markdown: 50000,
  seriesMarkdown: 100000,
  note: 4096
} as const

export const MANIFEST_KINDS = ['Dashboard', 'Alert', 'ServiceSettings'] as const
export type ManifestKind = (typeof MANIFEST_KINDS)[number]
export const API_VERSIONS = ['obsdeploy/v1'] as const
