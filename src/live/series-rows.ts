/**
 * The charts route's rows, asked in its `column` format and read as one row per bucket and group.
 *
 * Why not the default format: the route builds it (v2/charts.ts formatCHResult) by looking each group-by
 * value up under the group-by's text, but ClickHouse names the column of an expression otherwise
 * (`LogAttributes['user.email']` comes back as `arrayElement(LogAttributes, 'user.email')`), so every group of
 * such a tile reads as `[null]` and the groups of one bucket collapse into one row, the last one's value
 * winning (seen on HyperDX 2.36, docs/real-server.md). The `column` format returns ClickHouse's rows as they
 * are: `{series_0, <one column per group-by, in its order>, __hdx_time_bucket}`, one row per series, bucket
 * and group, the bucket as ISO text. A row in the default format is read as it is (an older server).
 */
import type { ObservabilityApi } from '../api/client.js'
import type { SeriesPoint } from '../api/schemas.js'
import { bucketTime } from './series-math.js'

const BUCKET = '__hdx_time_bucket'
const SERIES = /^series_(\d+)$/

/** The route's answer to `body`, asked in the column format, as rows of `{ts_bucket, group, series_i.data}`. */
export async function askSeries(
  api: ObservabilityApi,
  body: Record<string, unknown>
): Promise<SeriesPoint[]> {
  return byBucketAndGroup(await api.querySeries({ ...body, seriesReturnType: 'column' }))
}

/** Column rows merged by bucket and group (the series of one bucket and group in one row). */
export function byBucketAndGroup(rows: readonly SeriesPoint[]): SeriesPoint[] {
  const merged = new Map<string, SeriesPoint>()
  for (const row of rows) {
    if (!(BUCKET in row)) {
      merged.set(`${merged.size}`, row)
      continue
    }
    const ts = bucketTime(row[BUCKET])
    const group: unknown[] = []
    const values: Array<[string, unknown]> = []
    for (const [key, value] of Object.entries(row)) {
      if (key === BUCKET) continue
      const series = SERIES.exec(key)
      if (series) values.push([`series_${series[1]}.data`, value])
      else group.push(value)
    }
    const id = JSON.stringify([ts, group])
    const point = merged.get(id) ?? { ts_bucket: ts, group }
    for (const [key, value] of values) point[key] = value
    merged.set(id, point)
  }
  return [...merged.values()]
}
