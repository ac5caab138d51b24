/**
 * The start of a run that goes online: the online stages' module loads and the live read starts while
 * the manifests load. Only plan, apply and drift come here: `validate` starts without the HTTP client
 * and the planner.
 */
import type { Config } from '../config/types.js'
import type { ManifestSet } from '../manifest/load.js'
import type { CheckedManifests } from '../policy/check.js'
import type { LiveRead, OnlineResult, runOnline as RunOnline } from './online.js'
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

/** `apply --plan` of one stack (online.ts applySavedPlan), with the online stages for a run that plans again. */
export async function applySavedPlanEarly(
  config: Config<'apply'>,
  deps: RunDependencies,
  load: () => Promise<CheckedManifests>
): Promise<
  | { applied: OnlineResult }
  | { planAgain: { read: LiveRead; loaded: Promise<CheckedManifests> }; runOnline: typeof RunOnline }
> {
  const online = await import('./online.js')
  const saved = await online.applySavedPlan(config, deps, load)
  return 'applied' in saved ? saved : { ...saved, runOnline: online.runOnline }
}
