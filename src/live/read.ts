/**
 * Reading the live state: list calls only, in parallel, following pages. A plan never does one GET per
 * resource, so 1,000 dashboards cost the same handful of requests as 10 (the managed API allows 10
 * requests per 10 s).
 */
import type { ObservabilityApi } from '../api/client.js'
import type { LiveState } from '../kinds/kind.js'

export async function readLiveState(
  client: ObservabilityApi,
  options: { service: boolean }
): Promise<LiveState> {
  // The reads are only useful together: the first failure cancels the others, in flight too, so a
  // wrong server fails the run once, at once, instead of retrying its siblings for a minute.
  const siblings = new AbortController()
  const api = client.withSignal(siblings.signal)
  const read = <T>(p: Promise<T>): Promise<T> =>
    p.catch((e: unknown) => {
      siblings.abort('another read of the live state failed')
      throw e
    })
  const [dashboards, alerts, sources, webhooks, service] = await Promise.all([
    read(api.listDashboards()),
    read(api.listAlerts()),
    read(api.listSources()),
    read(api.listWebhooks()),
    options.service ? read(api.getService().then(r => r.service)) : Promise.resolve(undefined)
  ])
  return { dashboards, alerts, sources, webhooks, service }
}
