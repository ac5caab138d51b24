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

export const NUMBER_FORMAT_OUTPUTS = [
  'currency',
  'percent',
  'byte',
  'time',
  'number',
  'data_rate',
  'throughput',
  'duration'
] as const

/** FACTS.md limits. */
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
  selectItems: 20
} as const

export const MANIFEST_KINDS = ['Dashboard', 'Alert', 'ServiceSettings'] as const
export type ManifestKind = (typeof MANIFEST_KINDS)[number]
export const API_VERSIONS = ['obsdeploy/v1'] as const
