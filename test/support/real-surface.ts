/**
 * Every form of the connections, sources, webhooks, saved searches, saved-search alerts, multi-channel alerts
 * and raw-SQL tiles the real API can hold, made as a user would make them in the UI: through the emulator's store,
 * which checks each one with the server's rules. Self-hosted and managed differ where the cloud's schemas do.
 */
import type { Store, StoredConnection } from '../../emulator/types.js'

export const LOGS = '65a1f0c2b3d4e5f6a7b8c901'
export const TRACES = '65a1f0c2b3d4e5f6a7b8c902'
export const OPS_PAGER = '65a1f0c2b3d4e5f6a7b8ca01'
export const TEAM_SLACK = '65a1f0c2b3d4e5f6a7b8ca02'
/** The seed's connection (the sources above use it); the managed cloud's stores have no connections to list. */
export const SEED_CONNECTION = '65a1f0c2b3d4e5f6a7b8c9f1'

export const INTERVAL_SQL =
  'SELECT toStartOfInterval(Timestamp, INTERVAL {intervalSeconds:Int64} second) AS ts, count() AS n FROM otel_logs WHERE $__timeFilter(Timestamp) GROUP BY ts ORDER BY ts'

export interface Surface {
  /** Values of the secrets the store holds, by webhook name (url) and connection name (password). */
  urls: Record<string, string>
  passwords: Record<string, string>
}

/** Makes every form in `store`; `mode` picks what the mode's schemas have. */
export function makeEverything(store: Store, mode: 'self-hosted' | 'managed'): Surface {
  const selfHosted = mode === 'self-hosted'
  const surface: Surface = { urls: {}, passwords: {} }

  let connection: StoredConnection | undefined
  if (selfHosted) {
    connection = store.createConnection({
      name: 'Warehouse',
      host: 'https://warehouse.example.com:8443',
      username: 'reader',
      password: 'warehouse-password-1',
      hyperdxSettingPrefix: 'hdx_',
      isPrometheusEndpoint: true
    })
    store.createConnection({ name: 'Scratch', host: '', username: '' })
    surface.passwords.Warehouse = 'warehouse-password-1'
  }
  const connectionId = connection?.id ?? SEED_CONNECTION

  const log = store.createSource({
    name: 'App logs',
    kind: 'log',
    connection: connectionId,
    section: 'Apps',
    disabled: true,
    from: { databaseName: 'app', tableName: 'logs' },
    querySettings: [{ setting: 'max_threads', value: '4' }],
    timestampValueExpression: 'Timestamp',
    defaultTableSelectExpression: 'Timestamp, ServiceName, Body',
    serviceNameExpression: 'ServiceName',
    severityTextExpression: 'SeverityText',
    bodyExpression: 'Body',
    eventAttributesExpression: 'LogAttributes',
    resourceAttributesExpression: 'ResourceAttributes',
    displayedTimestampValueExpression: 'Timestamp',
    traceIdExpression: 'TraceId',
    spanIdExpression: 'SpanId',
    implicitColumnExpression: 'Body',
    knownColumnsListExpression: 'knownColumns',
    useTextIndexForImplicitColumn: 'auto',
    metricSourceId: '65a1f0c2b3d4e5f6a7b8c903',
    highlightedTraceAttributeExpressions: [{ sqlExpression: 'ServiceName', alias: 'service' }],
    highlightedRowAttributeExpressions: [{ sqlExpression: 'SeverityText', luceneExpression: 'level' }],
    materializedViews: [
      {
        databaseName: 'app',
        tableName: 'logs_5m',
        dimensionColumns: 'ServiceName',
        minGranularity: '5m',
        minDate: '2025-01-01T00:00:00Z',
        timestampColumn: 'Timestamp',
        aggregatedColumns: [
          { aggFn: 'count', mvColumn: 'count' },
          { aggFn: 'avg', sourceColumn: 'Duration', mvColumn: 'avg_duration' }
        ]
      }
    ],
    metadataMaterializedViews: {
      keyRollupTable: 'keys_15m',
      kvRollupTable: 'kv_15m',
      granularity: '15 minute'
    },
    ...(selfHosted ? { serviceVersionExpression: 'ServiceVersion', orderByExpression: 'Timestamp DESC' } : {})
  })
  const trace = store.createSource({
    name: 'App traces',
    kind: 'trace',
    connection: connectionId,
    from: { databaseName: 'app', tableName: 'traces' },
    timestampValueExpression: 'Timestamp',
    defaultTableSelectExpression: 'Timestamp, SpanName',
    durationExpression: 'Duration',
    durationPrecision: 6,
    traceIdExpression: 'TraceId',
    spanIdExpression: 'SpanId',
    parentSpanIdExpression: 'ParentSpanId',
    spanNameExpression: 'SpanName',
    spanKindExpression: 'SpanKind',
    logSourceId: log.id,
    statusCodeExpression: 'StatusCode',
    statusMessageExpression: 'StatusMessage',
    spanEventsValueExpression: 'Events',
    ...(selfHosted ? { sampleRateExpression: 'SampleRate', spanLinksValueExpression: 'Links' } : {})
  })
  const session = store.createSource({
    name: 'App sessions',
    kind: 'session',
    connection: connectionId,
    from: { databaseName: 'app', tableName: 'sessions' },
    timestampValueExpression: 'Timestamp',
    traceSourceId: trace.id,
    ...(selfHosted ? { resourceAttributesExpression: 'ResourceAttributes' } : {})
  })
  // The trace and log sources refer to each other, as the UI makes them.
  store.updateSource(trace.id, {
    ...withoutId(trace),
    sessionSourceId: session.id
  })
  store.updateSource(log.id, { ...withoutId(log), traceSourceId: trace.id })
  store.createSource({
    name: 'App metrics',
    kind: 'metric',
    connection: connectionId,
    from: { databaseName: 'app', tableName: '' },
    timestampValueExpression: 'TimeUnix',
    metricTables: { gauge: 'metrics_gauge', sum: 'metrics_sum' },
    resourceAttributesExpression: 'ResourceAttributes',
    logSourceId: log.id,
    ...(selfHosted ? { serviceNameExpression: 'ServiceName', seriesTable: 'metrics_series' } : {})
  })
  store.createSource({
    name: 'Prometheus',
    kind: 'promql',
    connection: connectionId,
    from: { databaseName: 'prom', tableName: 'samples' },
    timestampValueExpression: 'Timestamp'
  })

  surface.urls['Pager'] = 'https://events.example.com/pager/secret-token-123'
  const pager = store.createWebhook({
    name: 'Pager',
    service: 'generic',
    url: surface.urls.Pager,
    description: 'Pages the on-call engineer',
    body: '{"text": "{{title}}"}',
    headers: { Authorization: 'Bearer abcdef', 'X-Team': 'shop' },
    queryParams: { routing: 'shop' }
  })
  surface.urls['Incidents'] = 'https://api.incident.io/v2/alert_events/http/source-123'
  const incidents = store.createWebhook({
    name: 'Incidents',
    service: 'incidentio',
    url: surface.urls.Incidents,
    body: '{"deduplication_key": "{{id}}"}',
    headers: { Authorization: 'Bearer incident' }
  })
  surface.urls['Team chat'] = 'https://hooks.slack.com/services/T000/B000/secret'
  const chat = store.createWebhook({ name: 'Team chat', service: 'slack', url: surface.urls['Team chat'] })

  const errors = store.createSavedSearch({
    name: 'App errors',
    sourceId: log.id,
    select: 'Timestamp, ServiceName, Body',
    where: "SeverityText = 'error'",
    whereLanguage: 'sql',
    orderBy: 'Timestamp DESC',
    tags: ['shop', 'errors'],
    filters: [
      { condition: "ServiceName IN ('checkout', 'cart')" },
      { type: 'sql', condition: "SeverityText NOT IN ('debug')" },
      { condition: 'Duration BETWEEN 100 AND 5000' }
    ]
  })
  const slow = store.createSavedSearch({ name: 'Slow spans', sourceId: trace.id })

  const channel = (id: string) => ({ type: 'webhook', webhookId: id })
  store.createAlert({
    source: 'saved_search',
    savedSearchId: errors.id,
    groupBy: 'ServiceName',
    name: 'Error burst',
    message: 'Errors are up',
    note: 'See the runbook',
    numConsecutiveWindows: 2,
    threshold: 5,
    thresholdType: 'above',
    interval: '5m',
    ...(selfHosted
      ? { channels: [channel(pager.id), channel(chat.id), channel(incidents.id)] }
      : { channel: { type: 'email', emailRecipients: ['oncall@example.com', 'shop@example.com'] } })
  })
  store.createAlert({
    source: 'saved_search',
    savedSearchId: slow.id,
    name: 'Slow spans',
    threshold: 10,
    thresholdType: 'above',
    interval: '15m',
    channel: selfHosted ? channel(OPS_PAGER) : { ...channel(pager.id), severity: 'critical' }
  })

  const raw = (displayType: string, extra: Record<string, unknown> = {}) => ({
    configType: 'sql',
    displayType,
    connectionId,
    sqlTemplate: INTERVAL_SQL,
    ...extra
  })
  const tiles = [
    raw('line', {
      sourceId: log.id,
      fillNulls: false,
      alignDateRangeToGranularity: true,
      fitYAxisToData: true,
      compareToPreviousPeriod: true,
      numberFormat: { output: 'number', mantissa: 1 },
      ...(selfHosted ? { seriesLimit: 5 } : {})
    }),
    raw('stacked_bar', { alignDateRangeToGranularity: false }),
    raw('table', { numberFormat: { output: 'byte', numericUnit: 'bytes_iec' } }),
    raw('number', { sqlTemplate: 'SELECT count() FROM otel_logs' }),
    raw('pie', { sqlTemplate: 'SELECT ServiceName, count() FROM otel_logs GROUP BY ServiceName' }),
    raw('bar', { sqlTemplate: 'SELECT ServiceName, count() FROM otel_logs GROUP BY ServiceName' })
  ].map((config, i) => ({
    name: `Raw ${config.displayType}`,
    x: (i % 4) * 6,
    y: Math.floor(i / 4) * 4,
    w: 6,
    h: 4,
    config
  }))
  const board = store.createDashboard({ name: 'Raw SQL', tags: ['sql'], tiles })
  const tile = board.tiles.find(t => t.name === 'Raw line')!
  store.createAlert({
    source: 'tile',
    dashboardId: board.id,
    tileId: tile.id,
    name: 'Raw SQL errors',
    threshold: 100,
    thresholdType: 'above',
    interval: '5m',
    ...(selfHosted
      ? { channels: [channel(OPS_PAGER), channel(TEAM_SLACK)] }
      : { channel: channel(OPS_PAGER) })
  })
  return surface
}

function withoutId<T extends { id: string }>(record: T): Omit<T, 'id'> {
  const { id: _id, ...rest } = record
  return rest
}
