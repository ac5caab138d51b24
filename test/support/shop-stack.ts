/** The stack the unit tests of a kind plan as: "shop", self-hosted, pruning, the service gate open. */
import type { PlanSettings } from '../../src/kinds/kind.js'

export const SHOP_TAG = 'obsdeploy:shop'

export const shopSettings = (over: Partial<PlanSettings> = {}): PlanSettings => ({
  stack: 'shop',
  ownershipTag: SHOP_TAG,
  prune: true,
  mode: 'self-hosted',
  serviceGate: { open: true, reason: 'test' },
  ...over
})
