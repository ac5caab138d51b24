/**
 * Data source request bodies (POST /sources, PUT /sources/{id}: a full replace) as HyperDX 2.36 checks them
 * (v2/sources.ts): granularities in short form (`5m`) are turned into SQL intervals (`5 minute`) first, then the
 * body must parse as common-utils types.ts SourceSchemaNoId (a union on `kind`), then its `connection` must be a
 * connection of the team (400 `connection must be a valid connection id` / `... an existing connection id`).
 * Responses give granularities in short form again (`mapGranularityToExternalFormat`).
 */
import { isRecord, isValidObjectId, oneOf, parseWith, z, type Parsed } from './common.js'
import { AGGREGATE_FUNCTIONS, METRIC_DATA_TYPES, USE_TEXT_INDEX } from './vocabulary.js'

const SQL_INTERVAL = /^\d+ (second|minute|hour|day)$/
const sqlInterval = z.string().regex(SQL_INTERVAL)

const attributes = z.array(
  z.object({
    sqlExpression: z.string().min(1, 'Attribute SQL Expression is required'),
    luceneExpression: z.string().optional(),
    alias: z.string().optional()
  })
)
const view = z.object({
  databaseName: z.string().min(1, 'Materialized View Database is required'),
  tableName: z.string().min(1, 'Materialized View Table is required'),
  dimensionColumns: z.string(),
  minGranularity: sqlInterval,
  minDate: z.string().datetime().nullish(),
  timestampColumn: z.string().min(1, 'Materialized View Timestamp column is required'),
  aggregatedColumns: z
    .array(
      z
        .object({
          sourceColumn: z.string().optional(),
          aggFn: z.enum([...AGGREGATE_FUNCTIONS, 'histogram']),
          mvColumn: z.string().min(1, 'Materialized View Column is required')
        })
        .refine(({ sourceColumn, aggFn }) => aggFn === 'count' || !!sourceColumn?.length, {
          message: 'Materialized View Source Column is required'
        })
    )
    .min(1, 'At least one aggregated column is required')
})
const metadataViews = z.object({
  keyRollupTable: z.string().nullish(),
  kvRollupTable: z.string().min(1, 'KV rollup table name is required'),
  granularity: sqlInterval
})

const base = {
  name: z.string().min(1, 'Name is required'),
  section: z.string().max(256).optional(),
  connection: z.string().min(1, 'Server Connection is required'),
  from: z.object({
    databaseName: z.string().min(1, 'Database is required'),
    tableName: z.string().min(1, 'Table is required')
  }),
  disabled: z.boolean().optional(),
  querySettings: z
    .array(z.object({ setting: z.string().min(1), value: z.string().min(1) }))
    .max(10)
    .optional(),
  timestampValueExpression: z.string().min(1, 'Timestamp Column is required')
}
const optional = (...names: string[]) => Object.fromEntries(names.map(n => [n, z.string().optional()]))
const tabular = {
  defaultTableSelectExpression: z.string().min(1, 'Default Select Expression is required'),
  highlightedTraceAttributeExpressions: attributes.optional(),
  highlightedRowAttributeExpressions: attributes.optional(),
  materializedViews: z.array(view).optional(),
  metadataMaterializedViews: metadataViews.optional(),
  useTextIndexForImplicitColumn: oneOf(USE_TEXT_INDEX).optional()
}

const log = z.object({
  ...base,
  kind: z.literal('log'),
  ...tabular,
  ...optional(
    'serviceNameExpression',
    'serviceVersionExpression',
    'severityTextExpression',
    'bodyExpression',
    'eventAttributesExpression',
    'resourceAttributesExpression',
    'displayedTimestampValueExpression',
    'metricSourceId',
    'traceSourceId',
    'traceIdExpression',
    'spanIdExpression',
    'implicitColumnExpression',
    'knownColumnsListExpression',
    'tableFilterExpression',
    'orderByExpression'
  )
})
const trace = z.object({
  ...base,
  kind: z.literal('trace'),
  ...tabular,
  durationExpression: z.string().min(1, 'Duration Expression is required'),
  durationPrecision: z.number().min(0).max(9).default(3),
  traceIdExpression: z.string().min(1, 'Trace ID Expression is required'),
  spanIdExpression: z.string().min(1, 'Span ID Expression is required'),
  parentSpanIdExpression: z.string().min(1, 'Parent span ID expression is required'),
  spanNameExpression: z.string().min(1, 'Span Name Expression is required'),
  spanKindExpression: z.string().min(1, 'Span Kind Expression is required'),
  logSourceId: z.string().optional().nullable(),
  ...optional(
    'sampleRateExpression',
    'sessionSourceId',
    'metricSourceId',
    'statusCodeExpression',
    'statusMessageExpression',
    'serviceNameExpression',
    'serviceVersionExpression',
    'resourceAttributesExpression',
    'eventAttributesExpression',
    'spanEventsValueExpression',
    'spanLinksValueExpression',
    'implicitColumnExpression',
    'knownColumnsListExpression',
    'displayedTimestampValueExpression',
    'orderByExpression'
  )
})
const session = z.object({
  ...base,
  kind: z.literal('session'),
  traceSourceId: z
    .string({ message: 'Correlated Trace Source is required' })
    .min(1, 'Correlated Trace Source is required'),
  resourceAttributesExpression: z.string().optional()
})
const metricTables = z
  .object(Object.fromEntries(METRIC_DATA_TYPES.map(t => [t, z.string().optional()])))
  .refine(tables => Object.values(tables).some(t => t && t.length > 0), {
    message: 'At least one metric table must be specified'
  })
const metric = z.object({
  ...base,
  kind: z.literal('metric'),
  from: z.object({ databaseName: z.string().min(1, 'Database is required'), tableName: z.string() }),
  metricTables,
  resourceAttributesExpression: z.string().min(1, 'Resource Attributes is required'),
  ...optional('serviceNameExpression', 'logSourceId', 'seriesTable')
})
const promql = z.object({ ...base, kind: z.literal('promql') })

/** The managed cloud's log and trace sources also take `filterSettings` (ClickStackSourceFilterSettings). */
const filterSettings = z
  .object({
    databaseName: z.string(),
    tableName: z.string(),
    columns: z.array(z.object({ name: z.string(), label: z.string() })).max(10)
  })
  .optional()

function build(mode: 'self-hosted' | 'managed') {
  return mode === 'managed'
    ? z.discriminatedUnion('kind', [
        log.extend({ filterSettings }),
        trace.extend({ filterSettings }),
        session,
        metric,
        promql
      ])
    : z.discriminatedUnion('kind', [log, trace, session, metric, promql])
}
const schemas = { 'self-hosted': build('self-hosted'), managed: build('managed') }

export type SourceBody = z.infer<ReturnType<typeof build>> & Record<string, unknown>

/** v2/sources.ts mapGranularityToInternalFormat, on a copy of the body, before validation. */
function internalGranularities(body: unknown): unknown {
  if (!isRecord(body)) return body
  const out: Record<string, unknown> = structuredClone(body)
  const toSql = (g: unknown) => {
    const m = typeof g === 'string' ? /^(\d+)(s|m|h|d)$/.exec(g) : null
    return m ? `${m[1]} ${{ s: 'second', m: 'minute', h: 'hour', d: 'day' }[m[2] as 's']}` : g
  }
  if (Array.isArray(out.materializedViews))
    for (const v of out.materializedViews) if (isRecord(v)) v.minGranularity = toSql(v.minGranularity)
  if (isRecord(out.metadataMaterializedViews))
    out.metadataMaterializedViews.granularity = toSql(out.metadataMaterializedViews.granularity)
  return out
}

export function parseSourceBody(body: unknown, mode: 'self-hosted' | 'managed'): Parsed<SourceBody> {
  return parseWith(schemas[mode], internalGranularities(body)) as Parsed<SourceBody>
}

/** controllers/connection.ts validateConnectionId, as the router answers it (400 `{message}`). */
export function sourceHandlerProblem(
  body: SourceBody,
  connectionIds: ReadonlySet<string> | undefined
): string | undefined {
  if (!isValidObjectId(String(body.connection))) return 'connection must be a valid connection id'
  if (connectionIds && !connectionIds.has(String(body.connection)))
    return 'connection must be an existing connection id'
  return undefined
}

/** v2/sources.ts mapGranularityToExternalFormat, applied to every source a response carries. */
export function externalGranularities<T extends Record<string, unknown>>(source: T): T {
  const short = (g: unknown) => {
    const m = typeof g === 'string' ? /^(\d+) (second|minute|hour|day)$/.exec(g) : null
    return m ? `${m[1]}${m[2]![0]}` : g
  }
  const out: Record<string, unknown> = { ...source }
  if (Array.isArray(out.materializedViews))
    out.materializedViews = out.materializedViews.map(v =>
      isRecord(v) ? { ...v, minGranularity: short(v.minGranularity) } : v
    )
  if (isRecord(out.metadataMaterializedViews))
    out.metadataMaterializedViews = {
      ...out.metadataMaterializedViews,
      granularity: short(out.metadataMaterializedViews.granularity)
    }
  return out as T
}
