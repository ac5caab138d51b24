/**
 * Reading the live state: list calls only, in parallel, following pages. A plan never does one GET per
 * resource, so 1,000 dashboards cost the same handful of requests as 10 (the managed API allows 10
 * requests per 10 s).
 */
import type { ObservabilityApi } from '../api/client.js'
import type { LiveState } from '../kinds/kind.js'

export async function readLiveState(
  api: ObservabilityApi,
  options: { service: boolean }
): Promise<LiveState> {
  const [dashboards, alerts, sources, webhooks, service] = await Promise.all([
    api.listDashboards(),
    api.listAlerts(),
    api.listSources(),
    api.listWebhooks(),
    options.service ? api.getService().then(r => r.service) : Promise.resolve(undefined)
  ])
  return { dashboards, alerts, sources, webhooks, service }
}
