/**
 * The manifest language of the kinds besides dashboards and alerts: Connection, Source, SavedSearch and
 * Webhook, with the real API's field names, other resources by name instead of by id (`connection`,
 * `source`, `traceSource`, ... or their `...Id` forms), and the servers' request rules (HyperDX
 * `utils/zod.ts`, common-utils `types.ts`, the v2 routers; docs/server-rules.md R162-R217). Secret fields
 * take only `${secret.NAME}` placeholders (rules.ts checks where the value came from).
 *
 * A Source's own `kind` (log, trace, ...) is `sourceKind` here: `kind` names the manifest's kind.
 *
 * The schemas are built on first use (`resourceSchemas()`): most repositories hold none of these kinds.
 */
import { z } from 'zod'
import { once } from './once.js'
import { userTags } from './user-tags.js'
import {
  API_VERSIONS,
  METRIC_DATA_TYPES,
  RESOURCE_LIMITS,
  USE_TEXT_INDEX,
  VIEW_AGG_FNS,
  WEBHOOK_SERVICES
} from './vocabulary.js'

/** The fields of a source that name other sources, with the API field each one is sent as. */
export const SOURCE_REFERENCES = [
  ['metricSource', 'metricSourceId'],
  ['traceSource', 'traceSourceId'],
  ['logSource', 'logSourceId'],
  ['sessionSource', 'sessionSourceId']
] as const

/**
 * The five kinds' schemas, built together on first use. One long expression on purpose: it is a declarative table
 * (each kind's fields, their types and the server's words), and its pieces share the helpers above them (names,
 * identity, references by name or by id, the secret note). Built inside this one function, they stay off the
 * start-up of the runs that hold none of these kinds, and are built once (test/unit/lazy-schemas.test.ts).
 */
export const resourceSchemas = once('resource schemas', () => {
  const apiVersion = z.enum(API_VERSIONS).optional().describe('Optional; the manifest language version.')
  /** Names must not be empty: they are how manifests refer to a resource. */
  const name = (what: string, max?: number) => {
    const text = z.string().min(1, { error: 'must not be empty' })
    return (
      max === undefined ? text : text.max(max, { error: `must be at most ${max} characters` })
    ).describe(`The ${what}'s name: how manifests refer to it, and how it is matched with the live one.`)
  }
  const identity = (what: string) => ({
    id: z
      .string()
      .min(1)
      .optional()
      .describe(`Pin this manifest to an existing ${what} id (adopts it; a rename then keeps the id).`),
    adopt: z
      .boolean()
      .optional()
      .describe(`Take ownership of an existing ${what} of the same name that this stack does not own.`)
  })
  const SECRET =
    'Secret: only a `${secret.NAME}` placeholder; plans show it as changed or unchanged, never its value.'

  // ---------------------------------------------------------------------------------------------------
  // Connection (common-utils types.ts ConnectionSchema; v2/connections.ts). Self-hosted only.

  const Connection = z.strictObject({
    apiVersion,
    kind: z.literal('Connection').describe('A ClickHouse connection (self-hosted mode only).'),
    name: name('connection'),
    host: z.string().describe('The ClickHouse HTTP(S) address, e.g. `http://clickhouse:8123`.'),
    username: z.string().describe('The ClickHouse user.'),
    password: z
      .string()
      .optional()
      .describe(
        `The ClickHouse password. Write-only: the API never returns it, so the plan compares a fingerprint of what it last sent; an update cannot clear it. ${SECRET}`
      ),
    hyperdxSettingPrefix: z
      .string()
      .regex(/^[a-z0-9_]+$/i, { error: 'must be letters, digits and _ (the server refuses anything else)' })
      .optional()
      .describe('Prefix of the HyperDX settings passed to ClickHouse with each query.'),
    isPrometheusEndpoint: z
      .boolean()
      .optional()
      .describe('The connection serves the Prometheus API (PromQL).'),
    ...identity('connection')
  })

  // ---------------------------------------------------------------------------------------------------
  // Source (common-utils types.ts SourceSchema and its kinds; v2/sources.ts).

  /** A reference to another resource, by name (resolved at plan time) or by id. */
  const byName = (what: string, field: string) =>
    z
      .string()
      .min(1)
      .optional()
      .describe(`The ${what}, by name (a manifest's or an existing one); or \`${field}Id\` by id.`)
  const byId = (what: string) => z.string().min(1).optional().describe(`The ${what}, by id.`)
  type OptionalText = ReturnType<typeof byId>
  /** `field` (by name) and `fieldId` (by id), typed. */
  const ref = <F extends string>(field: F, what: string) =>
    ({ [field]: byName(what, field), [`${field}Id`]: byId(what) }) as {
      [K in F | `${F}Id`]: OptionalText
    }

  const expr = (what: string) => z.string().optional().describe(what)
  const required = (what: string, message: string) =>
    z
      .string({ error: issue => (issue.input === undefined ? 'is required' : undefined) })
      .min(1, { error: message })
      .describe(what)

  const attributeExpressions = z
    .array(
      z.strictObject({
        sqlExpression: z
          .string()
          .min(1, { error: 'Attribute SQL Expression is required' })
          .describe('The SQL expression of the attribute.'),
        luceneExpression: z
          .string()
          .optional()
          .describe('The same attribute as a Lucene field, for search links.'),
        alias: z.string().optional().describe('The name shown for it.')
      })
    )
    .optional()

  const granularity = z
    .string()
    .regex(/^(\d+(s|m|h|d)|\d+ (second|minute|hour|day))$/, {
      error: 'must be a granularity like 15s, 5m, 1h, 1d (or "5 minute")'
    })
    .describe('e.g. 5m; the server also takes "5 minute" and returns the short form.')

  const materializedView = z
    .strictObject({
      databaseName: z
        .string()
        .min(1, { error: 'Materialized View Database is required' })
        .describe("The view's ClickHouse database."),
      tableName: z
        .string()
        .min(1, { error: 'Materialized View Table is required' })
        .describe("The view's ClickHouse table."),
      dimensionColumns: z.string().describe('Comma-separated dimension columns.'),
      minGranularity: granularity,
      minDate: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/, {
          error: 'must be an ISO date-time in UTC, like 2025-01-01T00:00:00Z'
        })
        .nullable()
        .optional()
        .describe('ISO date-time (UTC) of the earliest data, or null.'),
      timestampColumn: z
        .string()
        .min(1, { error: 'Materialized View Timestamp column is required' })
        .describe("The view's timestamp column."),
      aggregatedColumns: z
        .array(
          z.strictObject({
            sourceColumn: z.string().optional().describe('Required unless aggFn is count.'),
            aggFn: z.enum(VIEW_AGG_FNS).describe('The aggregate function the view stores for this column.'),
            mvColumn: z
              .string()
              .min(1, { error: 'Materialized View Column is required' })
              .describe('The column of the view that holds the aggregate.')
          })
        )
        .min(1, { error: 'At least one aggregated column is required' })
        .describe('The aggregated columns of the view.')
    })
    .describe('A materialized view the source may read pre-aggregated data from.')

  const sourceBase = {
    apiVersion,
    kind: z.literal('Source').describe('A data source: a ClickHouse table and how to read it.'),
    name: name('data source'),
    section: z
      .string()
      .max(RESOURCE_LIMITS.sourceSection)
      .optional()
      .describe('Groups sources in the source selector.'),
    ...ref('connection', 'ClickHouse connection'),
    from: z
      .strictObject({
        databaseName: z.string().min(1, { error: 'Database is required' }).describe('ClickHouse database.'),
        tableName: z.string().min(1, { error: 'Table is required' }).describe('ClickHouse table.')
      })
      .describe('The table the source reads.'),
    disabled: z.boolean().optional().describe('Hidden from source selectors (default false).'),
    querySettings: z
      .array(
        z.strictObject({
          setting: z.string().min(1).describe('The ClickHouse setting name.'),
          value: z.string().min(1).describe('Its value.')
        })
      )
      .max(RESOURCE_LIMITS.querySettings, { error: `at most ${RESOURCE_LIMITS.querySettings} settings` })
      .optional()
      .describe('ClickHouse settings sent with every query of this source.'),
    timestampValueExpression: required(
      'The timestamp column (required for every kind).',
      'Timestamp Column is required'
    ),
    ...identity('data source')
  }

  /** Fields log and trace sources share. */
  const tabular = {
    defaultTableSelectExpression: required(
      'Columns shown by default.',
      'Default Select Expression is required'
    ),
    serviceNameExpression: expr('The service name expression.'),
    serviceVersionExpression: expr('The service version expression (self-hosted; not in the managed API).'),
    resourceAttributesExpression: expr('The resource attributes column.'),
    eventAttributesExpression: expr('The event attributes column.'),
    displayedTimestampValueExpression: expr('The timestamp column shown in the UI.'),
    ...ref('metricSource', 'correlated metric source'),
    implicitColumnExpression: expr('The column full-text search reads.'),
    knownColumnsListExpression: expr('The known columns list.'),
    orderByExpression: expr('ORDER BY of searches (self-hosted; not in the managed API).'),
    useTextIndexForImplicitColumn: z
      .enum(USE_TEXT_INDEX)
      .optional()
      .describe('Use a text index for full-text search.'),
    highlightedTraceAttributeExpressions: attributeExpressions.describe('Attributes highlighted on traces.'),
    highlightedRowAttributeExpressions: attributeExpressions.describe('Attributes highlighted on rows.'),
    materializedViews: z
      .array(materializedView)
      .optional()
      .describe('Materialized views the source may read pre-aggregated data from.'),
    metadataMaterializedViews: z
      .strictObject({
        keyRollupTable: z.string().nullable().optional().describe('The table of rolled-up keys.'),
        kvRollupTable: z
          .string()
          .min(1, { error: 'KV rollup table name is required' })
          .describe('The table of rolled-up keys and values.'),
        granularity
      })
      .optional()
      .describe('Rollup tables for field discovery and value autocomplete.'),
    filterSettings: z
      .strictObject({
        databaseName: z.string().min(1).describe('The database of the filter values.'),
        tableName: z.string().min(1).describe('The table of the filter values.'),
        columns: z
          .array(
            z.strictObject({
              name: z.string().min(1).describe('The column.'),
              label: z.string().min(1).describe('Its label in the filter panel.')
            })
          )
          .max(10)
          .describe('The columns offered as filters (at most 10).')
      })
      .optional()
      .describe('Managed mode only (the cloud API): columns exposed as filters.')
  }

  const LogSource = z.strictObject({
    ...sourceBase,
    sourceKind: z
      .literal('log')
      .describe("The source's `kind` in the API: log, trace, session, metric or promql."),
    ...tabular,
    severityTextExpression: expr('The severity column.'),
    bodyExpression: expr('The log body column.'),
    ...ref('traceSource', 'correlated trace source'),
    traceIdExpression: expr('The trace id column.'),
    spanIdExpression: expr('The span id column.'),
    tableFilterExpression: expr('Deprecated: a SQL predicate added to every query (self-hosted).')
  })

  const TraceSource = z.strictObject({
    ...sourceBase,
    sourceKind: z.literal('trace').describe("The source's `kind` in the API: here spans of traces."),
    ...tabular,
    durationExpression: required('The duration column.', 'Duration Expression is required'),
    durationPrecision: z
      .int()
      .min(0)
      .max(RESOURCE_LIMITS.durationPrecision)
      .optional()
      .describe('Digits of the duration unit: 3 milliseconds (the default), 6 microseconds, 9 nanoseconds.'),
    traceIdExpression: required('The trace id column.', 'Trace ID Expression is required'),
    spanIdExpression: required('The span id column.', 'Span ID Expression is required'),
    parentSpanIdExpression: required('The parent span id column.', 'Parent span ID expression is required'),
    spanNameExpression: required('The span name column.', 'Span Name Expression is required'),
    spanKindExpression: required('The span kind column.', 'Span Kind Expression is required'),
    sampleRateExpression: expr('The sample rate column (self-hosted).'),
    ...ref('logSource', 'correlated log source'),
    ...ref('sessionSource', 'correlated session source'),
    statusCodeExpression: expr('The status code column.'),
    statusMessageExpression: expr('The status message column.'),
    spanEventsValueExpression: expr('The span events column.'),
    spanLinksValueExpression: expr('The span links column (self-hosted).')
  })

  const SessionSource = z.strictObject({
    ...sourceBase,
    sourceKind: z.literal('session').describe("The source's `kind` in the API: here session replays."),
    ...ref('traceSource', 'correlated trace source (required)'),
    resourceAttributesExpression: expr('The resource attributes column (self-hosted).')
  })

  const MetricSource = z.strictObject({
    ...sourceBase,
    sourceKind: z.literal('metric').describe("The source's `kind` in the API: here OpenTelemetry metrics."),
    from: z
      .strictObject({
        databaseName: z.string().min(1, { error: 'Database is required' }).describe('ClickHouse database.'),
        tableName: z.string().describe('May be empty: metric sources read `metricTables`.')
      })
      .describe('The database the metric tables are in.'),
    metricTables: z
      .strictObject(
        Object.fromEntries(
          METRIC_DATA_TYPES.map(t => [t, z.string().optional().describe(`The ${t} table.`)])
        ) as Record<(typeof METRIC_DATA_TYPES)[number], z.ZodOptional<z.ZodString>>
      )
      .describe('The table of each metric type (at least one).'),
    resourceAttributesExpression: required(
      'The resource attributes column.',
      'Resource Attributes is required'
    ),
    serviceNameExpression: expr('The service name expression (self-hosted).'),
    ...ref('logSource', 'correlated log source'),
    seriesTable: expr('The unified metrics series table (self-hosted).')
  })

  const PromqlSource = z.strictObject({
    ...sourceBase,
    sourceKind: z.literal('promql').describe("The source's `kind` in the API: here a Prometheus endpoint.")
  })

  const Source = z.discriminatedUnion('sourceKind', [
    LogSource,
    TraceSource,
    SessionSource,
    MetricSource,
    PromqlSource
  ])

  // ---------------------------------------------------------------------------------------------------
  // Saved search (v2/savedSearches.ts savedSearchRequestSchema).

  const SavedSearch = z.strictObject({
    apiVersion,
    kind: z.literal('SavedSearch').describe('A saved search; alerts may watch it (`source: saved_search`).'),
    name: name('saved search', RESOURCE_LIMITS.savedSearchName),
    ...ref('source', 'data source it searches'),
    select: z
      .string()
      .max(RESOURCE_LIMITS.savedSearchSelect)
      .optional()
      .describe('Comma-separated columns to show (empty: the source default).'),
    where: z.string().max(RESOURCE_LIMITS.savedSearchWhere).optional().describe('The search filter.'),
    whereLanguage: z.enum(['lucene', 'sql']).optional().describe('Language of `where` (default lucene).'),
    orderBy: z
      .string()
      .max(RESOURCE_LIMITS.savedSearchOrderBy)
      .optional()
      .describe('ORDER BY (empty: the default).'),
    tags: userTags().optional().describe('Tags; the stack adds its ownership tag.'),
    filters: z
      .array(
        z.discriminatedUnion('type', [
          z.strictObject({
            type: z.literal('sql').optional().describe('sql (the only type a new filter may have).'),
            condition: z
              .string()
              .max(RESOURCE_LIMITS.savedSearchFilter)
              .describe(
                "One sidebar filter: `<column> IN ('a', ...)`, `NOT IN (...)` or `BETWEEN <n> AND <n>`."
              )
          }),
          // The web UI also writes these two; the server keeps one only as it stores it already.
          z.strictObject({
            type: z.literal('lucene').describe('A Lucene filter the web UI wrote (kept, not created).'),
            condition: z.string().max(RESOURCE_LIMITS.savedSearchFilter).describe('The Lucene condition.')
          }),
          z.strictObject({
            type: z.literal('sql_ast').describe('A comparison the web UI wrote (kept, not created).'),
            operator: z.enum(['=', '<', '>', '!=', '<=', '>=']).describe('The comparison.'),
            left: z.string().max(RESOURCE_LIMITS.savedSearchFilter).describe('Its left side.'),
            right: z.string().max(RESOURCE_LIMITS.savedSearchFilter).describe('Its right side.')
          })
        ])
      )
      .max(RESOURCE_LIMITS.savedSearchFilters, {
        error: `at most ${RESOURCE_LIMITS.savedSearchFilters} filters`
      })
      .optional()
      .describe('Pinned sidebar filters.'),
    ...identity('saved search')
  })

  // ---------------------------------------------------------------------------------------------------
  // Webhook (zod.ts externalWebhookCreateSchema; controllers/webhook.ts).

  const Webhook = z.strictObject({
    apiVersion,
    kind: z.literal('Webhook').describe('An alert destination.'),
    name: name('webhook', RESOURCE_LIMITS.webhookName),
    service: z
      .enum(WEBHOOK_SERVICES)
      .describe('Where it posts: a Slack incoming webhook, any HTTP endpoint (generic) or incident.io.'),
    url: z
      .string()
      .max(RESOURCE_LIMITS.webhookUrl, { error: `must be at most ${RESOURCE_LIMITS.webhookUrl} characters` })
      .describe(`Where alerts are sent (http or https; slack: a slack.com address). ${SECRET}`),
    description: z.string().max(RESOURCE_LIMITS.webhookDescription).optional().describe('Shown in the UI.'),
    body: z
      .string()
      .max(RESOURCE_LIMITS.webhookBody)
      .optional()
      .describe('Request body template (generic, incidentio; write-only for incidentio).'),
    headers: z
      .record(z.string(), z.string())
      .optional()
      .describe(
        `Request headers (generic, incidentio). Write-only: the API never returns them. Each value: ${SECRET}`
      ),
    queryParams: z
      .record(z.string(), z.string())
      .optional()
      .describe(`Query parameters (generic, incidentio). Write-only. Each value: ${SECRET}`),
    ...identity('webhook')
  })

  // ---------------------------------------------------------------------------------------------------
  // TeamMember (v2/team.ts: POST /team/invitation takes `{email: z.string().email(), name?}`). Self-hosted only.

  const TeamMember = z.strictObject({
    apiVersion,
    kind: z
      .literal('TeamMember')
      .describe(
        "A person in the API key's team, by email (self-hosted mode only): created by an invitation, satisfied by a member or a pending invitation."
      ),
    // zod's own email pattern, as a plain pattern: the editor schema then needs no `format` support.
    email: z
      .string()
      .regex(z.regexes.email, { error: 'must be an email address' })
      .describe(
        'The email address: how the person is matched with a member or an invitation (compared case-insensitively; the server lowercases it).'
      ),
    name: z
      .string()
      .min(1, { error: 'must not be empty' })
      .optional()
      .describe(
        'Sent with the invitation only: the API has no route to change a name, so a different live name is left as it is (never an update).'
      ),
    adopt: z
      .boolean()
      .optional()
      .describe(
        'Manage an existing member or invitation of this email that this stack does not manage (prune may then remove it).'
      )
  })

  return { Connection, Source, SavedSearch, Webhook, TeamMember }
})

type ResourceSchemas = ReturnType<typeof resourceSchemas>
export type ConnectionSpec = z.infer<ResourceSchemas['Connection']>
export type SourceSpec = z.infer<ResourceSchemas['Source']>
export type SavedSearchSpec = z.infer<ResourceSchemas['SavedSearch']>
export type WebhookSpec = z.infer<ResourceSchemas['Webhook']>
export type TeamMemberSpec = z.infer<ResourceSchemas['TeamMember']>

/** The fields that take only `${secret.NAME}` placeholders, by kind (`*` is any key of a mapping). */
export const SECRET_FIELDS: Readonly<Record<string, ReadonlyArray<readonly string[]>>> = {
  Connection: [['password']],
  Webhook: [['url'], ['headers', '*'], ['queryParams', '*']]
}
