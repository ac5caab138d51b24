/**
 * The live read a run starts early: the list calls go out while the manifests load, told what to read
 * (the managed service, whether dashboards can be patched, the team, the roles) once the manifests say it. Reached
 * only through online.ts, which run() imports once the manifests are valid, so `validate` never loads the
 * HTTP client.
 */
import { createApi, type ObservabilityApi } from '../api/client.js'
import type { Config } from '../config/types.js'
import type { LiveState } from '../kinds/kind.js'
import { readLiveState } from '../live/read.js'
import { silentLogger } from '../log.js'
import type { ManifestSet } from '../manifest/load.js'
import type { RunDependencies } from './types.js'

/** A read of the live state under way, started before the manifests were loaded (see startLiveRead). */
export interface LiveRead {
  api: ObservabilityApi
  /** Settles once; a failure is reported by runOnline, as when the read starts there. */
  live: Promise<LiveState>
  /** Ends the read and the client: the run stops before planning (its manifests are invalid). */
  abandon(): Promise<void>
}

/**
 * Starts reading the live state: it needs only the config, so the list calls run while the manifests
 * load. Whether the service is read too waits for the manifests (`manifests`). Nothing is written, and
 * nothing is reported here: runOnline reports a failed read, after validation, as before.
 */
export function startLiveRead(
  config: Config,
  deps: RunDependencies,
  manifests: Promise<readonly ManifestSet[]>
): LiveRead {
  return startRead(
    config,
    deps,
    manifests.then(sets => readsService(config, sets)),
    manifests.then(sets => asksDashboardPatch(config, sets)),
    manifests.then(sets => readsTeam(config, sets)),
    manifests.then(sets => readsRoles(config, sets))
  )
}

/** The managed service is read when a manifest sets service settings. */
export const readsService = (config: Pick<Config, 'mode'>, sets: readonly ManifestSet[]): boolean =>
  config.mode === 'managed' && sets.some(m => m.specs.ServiceSettings.length > 0)

/** Whether dashboards can be patched is asked (self-hosted) when a manifest declares a dashboard. */
export const asksDashboardPatch = (config: Pick<Config, 'mode'>, sets: readonly ManifestSet[]): boolean =>
  config.mode === 'self-hosted' && sets.some(m => m.specs.Dashboard.length > 0)

/** The team is read (self-hosted) when a manifest declares a team member (or a registry lists one: read.ts). */
export const readsTeam = (config: Pick<Config, 'mode'>, sets: readonly ManifestSet[]): boolean =>
  config.mode === 'self-hosted' && sets.some(m => m.specs.TeamMember.length > 0)

/** The managed roles are read when a manifest declares a role (or a registry lists one: read.ts). */
export const readsRoles = (config: Pick<Config, 'mode'>, sets: readonly ManifestSet[]): boolean =>
  config.mode === 'managed' && sets.some(m => m.specs.Role.length > 0)

/**
 * startLiveRead, told whether to read the managed service (`service`) and to ask whether dashboards can be
 * patched (`dashboardPatch`) once that is known.
 */
export function startRead(
  config: Config,
  deps: RunDependencies,
  service: Promise<boolean>,
  dashboardPatch: Promise<boolean> = Promise.resolve(false),
  team: Promise<boolean> = Promise.resolve(false),
  roles: Promise<boolean> = Promise.resolve(false)
): LiveRead {
  const api = deps.api ? deps.api(config) : createApi(config, { log: deps.log ?? silentLogger })
  const stop = new AbortController()
  const live = readLiveState(api, { service, dashboardPatch, team, roles, signal: stop.signal })
  // Awaited by runOnline, or dropped when the run stops first: never an unhandled rejection.
  live.catch(() => undefined)
  return {
    api,
    live,
    abandon: async () => {
      stop.abort('the run stopped before planning')
      await live.catch(() => undefined)
      await api.close()
    }
  }
}
