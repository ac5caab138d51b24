/** The stack the unit tests of a kind plan as: "shop", self-hosted, pruning, the service gate open. */
import { FingerprintKey } from '../../src/kinds/fingerprint-key.js'
import type { PlanSettings } from '../../src/kinds/kind.js'

export const SHOP_TAG = 'obsdeploy:shop'
/** The key of the API credential the tests plan with (write-only fingerprints). */
export const SHOP_KEY = FingerprintKey.fromAuth({ kind: 'bearer', apiKey: 'shop-test-key' })

export const shopSettings = (over: Partial<PlanSettings> = {}): PlanSettings => ({
  stack: 'shop',
  ownershipTag: SHOP_TAG,
  prune: true,
  mode: 'self-hosted',
  serviceGate: { open: true, reason: 'test' },
  fingerprintKey: SHOP_KEY,
  ...over
})
