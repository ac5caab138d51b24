/**
 * A metric select item: one that names a metric and its type. HyperDX's renderer aggregates the metric's own
 * column for it and replaces the item's value expression (common-utils renderChartConfig.ts
 * translateMetricChartConfig: a gauge's `LastValue`, a sum's `Rate`, a histogram's buckets), so the value
 * expression means nothing there: HyperDX's own dashboard templates store none (''). The v2 API still refuses
 * a non-count item without one, so a write sends `Value`, what HyperDX itself fills in (v2 charts.ts for a
 * series, the MCP tools' select item schemas), and a comparison takes `Value` and none as the same.
 * On the real server the series were the same with '', `Value` and any other text (docs/real-server.md).
 */

/** What HyperDX fills in for a metric item's value expression, and what the product sends where one is required. */
export const METRIC_VALUE_EXPRESSION = 'Value'

/** The item names a metric and its type: the renderer needs both to translate it (an empty name does not count). */
export function isMetricItem(item: { metricName?: unknown; metricType?: unknown }): boolean {
  return (
    typeof item.metricName === 'string' &&
    item.metricName !== '' &&
    typeof item.metricType === 'string' &&
    item.metricType !== ''
  )
}
