/**
 * Jest's global setup: stops a run whose dist/ is stale (fresh-dist.mjs), then gives the run its own temp
 * folder (temp-guard.mjs), which the global teardown checks and removes.
 */
import freshDist from './fresh-dist.mjs'
import { claimTempFolder } from './temp-guard.mjs'

export default function globalSetup(globalConfig) {
  freshDist(globalConfig)
  claimTempFolder()
}
