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
/**
 * The languages of a config tile's filters, its select items' and its link-outs' (common-utils types.ts
 * SearchConditionLanguageSchema); the managed API takes only lucene and sql there.
 */
export const QUERY_LANGUAGES = ['lucene', 'sql', 'promql'] as const
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
  'markdown',
  'heatmap',
  'event_patterns'
] as const
/** FACTS.md: an alert's tile must be line, stacked_bar or number. */
export const ALERTABLE_DISPLAY_TYPES = ['line', 'stacked_bar', 'number'] as const

export const ALERT_INTERVALS = ['1m', '5m', '15m', '30m', '1h', '6h', '12h', '1d'] as const
/** common-utils types.ts ALERT_INTERVAL_TO_MINUTES: a schedule offset must stay below the interval. */
export const ALERT_INTERVAL_MINUTES: Readonly<Record<(typeof ALERT_INTERVALS)[number], number>> = {
  '1m': 1,
  '5m': 5,
  '15m': 15,
  '30m': 30,
  '1h': 60,
  '6h': 360,
  '12h': 720,
  '1d': 1440
}
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

/** common-utils types.ts CHART_PALETTE_TOKENS: the colours a number tile, its rules and its sparkline take. */
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
/** common-utils types.ts NumberTileColorConditionSchema: the operators a number tile's colour rule takes. */
export const COMPARISON_OPERATORS = ['gt', 'gte', 'lt', 'lte'] as const
export const EQUALITY_OPERATORS = ['eq', 'neq'] as const
/** common-utils types.ts BackgroundChartSchema. */
export const BACKGROUND_CHART_TYPES = ['line', 'area'] as const
/** utils/zod.ts externalDashboardHeatmapSelectItemSchema. */
export const HEATMAP_SCALE_TYPES = ['log', 'linear'] as const
/** utils/zod.ts externalOnClickSchema: where a table row links to. */
export const LINK_TYPES = ['search', 'dashboard', 'external'] as const
export const LINK_TARGET_MODES = ['id', 'template'] as const
/** common-utils types.ts DashboardFilterType. */
export const DASHBOARD_FILTER_TYPES = ['QUERY_EXPRESSION'] as const

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
  /** HyperDX after 2.36 (pull request 3063): an alert's displayName; its tags are as a dashboard's. */
  alertDisplayName: 512,
  alertMessage: 4096,
  serviceName: 50,
  groupBy: 10,
  selectItems: 20,
  /** A config's groupBy, having, orderBy, select text and each select item's fields. */
  expression: 10000,
  markdown: 50000,
  seriesMarkdown: 100000,
  note: 4096,
  /** utils/zod.ts externalFormulasSchema, common-utils MetricFormulaSchema. */
  formulas: 10,
  formulaExpression: 1024,
  /** common-utils types.ts number tile colour rules. */
  colorRules: 10,
  colorRuleLabel: 40,
  colorRuleText: 200,
  /** common-utils types.ts OnClick*Schema. */
  linkTemplate: 10000,
  linkFilters: 50,
  /** common-utils types.ts DashboardContainerSchema, DASHBOARD_MAX_CONTAINERS. */
  containers: 50,
  containerTabs: 20,
  containerTitle: 256,
  /** common-utils types.ts DASHBOARD_VARIABLE_NAME_MAX_LENGTH. */
  variableName: 64,
  /** utils/zod.ts alertSchema. */
  scheduleOffsetMinutes: 1439
} as const

/**
 * Every kind of resource a manifest may declare (and a plan change), in the order they are planned and
 * applied: later kinds refer to earlier ones (deletes run in reverse). `Policy` documents are not resources.
 */
export const MANIFEST_KINDS = [
  'Connection',
  'Source',
  'SavedSearch',
  'Webhook',
  'Dashboard',
  'Alert',
  'ServiceSettings',
  'TeamMember',
  'Role'
] as const
export type ManifestKind = (typeof MANIFEST_KINDS)[number]
export const API_VERSIONS = ['obsdeploy/v1'] as const

/** common-utils types.ts SourceKind: what a data source holds. */
export const SOURCE_KINDS = ['log', 'trace', 'session', 'metric', 'promql'] as const
/** common-utils types.ts UseTextIndex. */
export const USE_TEXT_INDEX = ['auto', 'enabled', 'disabled'] as const
/** common-utils types.ts InternalAggregateFunctionSchema: a materialized view column's function. */
export const VIEW_AGG_FNS = [...AGG_FNS, 'histogram'] as const
/** common-utils types.ts WebhookService: what a webhook may be created as (the API returns two more). */
export const WEBHOOK_SERVICES = ['slack', 'generic', 'incidentio'] as const
/**
 * The managed cloud's predefined ClickStack roles (immutable: `isPredefined`), as the ClickHouse Terraform provider
 * names them (`internal/service/clickstack/client/role.go`, `role_resource.go`: "Admin, Member, ReadOnly"). A
 * custom role may not take one of these names; a live role flagged `isPredefined` under another name is refused at
 * plan time too (kinds/role.ts).
 */
export const PREDEFINED_ROLE_NAMES = ['Admin', 'Member', 'ReadOnly'] as const
/** The managed alert channel's severity (cloud OpenAPI ClickStackAlertChannelWebhook). */
export const CHANNEL_SEVERITIES = ['critical', 'error', 'warning', 'info'] as const
/** Raw-SQL tiles: the display types the server allows them on (zod.ts externalDashboardRawSqlChartConfigSchema). */
export const RAW_SQL_DISPLAY_TYPES = ['line', 'stacked_bar', 'table', 'number', 'pie', 'bar'] as const

/** The request limits of the kinds besides dashboards and alerts (zod.ts, types.ts, v2 routers). */
export const RESOURCE_LIMITS = {
  webhookName: 1024,
  webhookUrl: 2048,
  webhookDescription: 2048,
  webhookBody: 16384,
  webhookHeaders: 100,
  headerName: 256,
  headerValue: 4096,
  webhookQueryParams: 100,
  queryParamKey: 1024,
  queryParamValue: 4096,
  sourceSection: 256,
  querySettings: 10,
  durationPrecision: 9,
  savedSearchName: 1024,
  savedSearchSelect: 4096,
  savedSearchWhere: 8192,
  savedSearchOrderBy: 1024,
  savedSearchFilters: 100,
  savedSearchFilter: 8192,
  alertChannels: 10,
  sqlTemplate: 100000
} as const
