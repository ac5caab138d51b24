/**
 * The start of a run that goes online: the online stages' module loads and the live read starts while
 * the manifests load. Only plan, apply and drift come here: `validate` starts without the HTTP client
 * and the planner.
 */
import type { Config } from '../config/types.js'
import type { ManifestSet } from '../manifest/load.js'
import type { LiveRead, runOnline as RunOnline } from './online.js'
import type { RunDependencies } from './types.js'

/** `manifests`: the manifest sets once loaded and valid (whether the service is read depends on them). */
export async function startEarly(
  config: Config,
  deps: RunDependencies,
  manifests: Promise<readonly ManifestSet[]>
): Promise<{ runOnline: typeof RunOnline; read: LiveRead }> {
  const online = await import('./online.js')
  return { runOnline: online.runOnline, read: online.startLiveRead(config, deps, manifests) }
}
