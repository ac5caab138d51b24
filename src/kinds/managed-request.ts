/**
 * Managed mode sends only the fields its request schemas declare (the managed OpenAPI, `ClickStack*`):
 * the cloud gateway refuses an undeclared top-level key with 400 "request body property can't be
 * validated" (Terraform provider, `internal/service/clickstack/dashboard_tile_ids.go`). There is no
 * `dataSource` in a managed series and no `channels` on a managed alert. Tile configs go through as
 * they are: the API behind the gateway knows them (HyperDX `utils/zod.ts`). test/unit/managed-request.test.ts
 * checks these lists against the managed OpenAPI document.
 */

export const MANAGED_DASHBOARD_FIELDS = [
  'name',
  'tiles',
  'tags',
  'filters',
  'savedQuery',
  'savedQueryLanguage',
  'savedFilterValues',
  'containers'
] as const
export const MANAGED_TILE_FIELDS = [
  'name',
  'x',
  'y',
  'w',
  'h',
  'config',
  'containerId',
  'tabId',
  'id',
  'asRatio',
  'series'
] as const
const AGGREGATING = ['type', 'sourceId', 'aggFn', 'level', 'field', 'alias', 'where', 'whereLanguage']
const METRIC = ['numberFormat', 'metricDataType', 'metricName']
/** By series `type`. */
export const MANAGED_SERIES_FIELDS: Readonly<Record<string, readonly string[]>> = {
  time: [...AGGREGATING, 'groupBy', ...METRIC, 'displayType'],
  table: [...AGGREGATING, 'groupBy', 'sortOrder', ...METRIC],
  number: [...AGGREGATING, ...METRIC],
  search: ['type', 'sourceId', 'fields', 'where', 'whereLanguage'],
  markdown: ['type', 'content']
}
export const MANAGED_ALERT_FIELDS = [
  'dashboardId',
  'tileId',
  'savedSearchId',
  'groupBy',
  'threshold',
  'thresholdMax',
  'interval',
  'scheduleOffsetMinutes',
  'scheduleStartAt',
  'source',
  'thresholdType',
  'channel',
  'name',
  'message',
  'note',
  'numConsecutiveWindows'
] as const

const SOURCE_BASE = [
  'id',
  'name',
  'kind',
  'connection',
  'from',
  'section',
  'disabled',
  'querySettings',
  'timestampValueExpression'
]
const SEARCHABLE = [
  'defaultTableSelectExpression',
  'eventAttributesExpression',
  'resourceAttributesExpression',
  'serviceNameExpression',
  'implicitColumnExpression',
  'knownColumnsListExpression',
  'useTextIndexForImplicitColumn',
  'traceIdExpression',
  'spanIdExpression',
  'metricSourceId',
  'highlightedRowAttributeExpressions',
  'highlightedTraceAttributeExpressions',
  'materializedViews',
  'metadataMaterializedViews',
  'filterSettings'
]
/**
 * By source `kind`: the fields of the managed `ClickStack*Source` schemas (one `oneOf` by kind). A source update is
 * a full replace that sends back what the server returned beyond the manifest, and the gateway refuses a field its
 * schema lacks: managed mode sends only these.
 */
export const MANAGED_SOURCE_FIELDS: Readonly<Record<string, readonly string[]>> = {
  log: [
    ...SOURCE_BASE,
    ...SEARCHABLE,
    'bodyExpression',
    'displayedTimestampValueExpression',
    'severityTextExpression',
    'traceSourceId'
  ],
  trace: [
    ...SOURCE_BASE,
    ...SEARCHABLE,
    'durationExpression',
    'durationPrecision',
    'logSourceId',
    'parentSpanIdExpression',
    'sessionSourceId',
    'spanEventsValueExpression',
    'spanKindExpression',
    'spanNameExpression',
    'statusCodeExpression',
    'statusMessageExpression'
  ],
  metric: [...SOURCE_BASE, 'logSourceId', 'metricTables', 'resourceAttributesExpression'],
  session: [...SOURCE_BASE, 'traceSourceId'],
  promql: SOURCE_BASE
}

const only = (value: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> =>
  Object.fromEntries(Object.entries(value).filter(([key]) => fields.includes(key)))

export function managedDashboardBody(body: Record<string, unknown>): Record<string, unknown> {
  const out = only(body, MANAGED_DASHBOARD_FIELDS)
  if (Array.isArray(out.tiles)) out.tiles = out.tiles.map(t => managedTile(t as Record<string, unknown>))
  return out
}

function managedTile(tile: Record<string, unknown>): Record<string, unknown> {
  const out = only(tile, MANAGED_TILE_FIELDS)
  if (Array.isArray(out.series)) {
    out.series = out.series.map(s => {
      const series = s as Record<string, unknown>
      const fields = MANAGED_SERIES_FIELDS[String(series.type)]
      return fields ? only(series, fields) : series
    })
  }
  return out
}

export function managedAlertBody(body: Record<string, unknown>): Record<string, unknown> {
  return only(body, MANAGED_ALERT_FIELDS)
}

/** A source body with only what its kind's managed schema declares (a kind it does not know goes as it is). */
export function managedSourceBody(body: Record<string, unknown>): Record<string, unknown> {
  const fields = MANAGED_SOURCE_FIELDS[String(body.kind)]
  return fields ? only(body, fields) : body
}
