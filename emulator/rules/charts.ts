/**
 * POST /charts/series (self-hosted only), as HyperDX 2.36 checks the body: v2/charts.ts with the series of zod.ts
 * externalQueryChartSeriesSchema. The route validates without stripping, and answers 400 `{message}` like the others.
 */
import { objectId, oneOf, parseWith, z, type Parsed } from './common.js'
import { AGGREGATE_FUNCTIONS, CHART_GRANULARITIES, METRIC_DATA_TYPES, WHERE_LANGUAGES } from './vocabulary.js'

const timestamp = z
  .number()
  .int({ message: 'Timestamp must be an integer' })
  .positive({ message: 'Timestamp must be positive' })
  .refine(value => value.toString().length >= 13, { message: 'Timestamp must be in milliseconds' })

const series = z.object({
  sourceId: objectId,
  dataSource: z.enum(['events', 'metrics']).optional(),
  aggFn: oneOf(AGGREGATE_FUNCTIONS),
  level: z.number().min(0).max(1).optional(),
  field: z.string().optional(),
  where: z.string(),
  whereLanguage: oneOf(WHERE_LANGUAGES).optional(),
  groupBy: z.array(z.string()).max(10),
  sortOrder: z.union([z.literal('desc'), z.literal('asc')]).optional(),
  metricDataType: oneOf(METRIC_DATA_TYPES).optional(),
  metricName: z.string().optional()
})

const body = z.object({
  series: z
    .array(series)
    .min(1, { message: 'Series array cannot be empty' })
    .max(5)
    .refine(
      list =>
        list.length === 0 || list.every(s => JSON.stringify(s.groupBy) === JSON.stringify(list[0]!.groupBy)),
      { message: 'All series must have the same groupBy fields' }
    ),
  endTime: timestamp,
  granularity: oneOf(CHART_GRANULARITIES).optional(),
  startTime: timestamp,
  seriesReturnType: z.enum(['ratio', 'column']).optional()
})

export type ChartQuery = z.infer<typeof body>

export function parseChartQuery(input: unknown): Parsed<ChartQuery> {
  return parseWith(body, input)
}
