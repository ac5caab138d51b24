/**
 * A plan's estimate of its apply (apply/requests.ts), the registry writes it counts (kinds/registry.ts), the pace
 * it is timed at (api/pacer.ts), and the words every report says it in (report/pace.ts). What an apply
 * really sends is compared with the estimate in test/scenario/apply-estimate.test.ts.
 */
import { describe, expect, it } from '@jest/globals'
import { applyEstimate, RequestsLeft } from '../../src/apply/requests.js'
import { pacedDurationMs, pacedWindowMs } from '../../src/api/pacer.js'
import { registryWrites } from '../../src/kinds/registry.js'
import {
  ESTIMATE_VERSION,
  type Action,
  type Change,
  type Plan,
  type ResourceKind
} from '../../src/plan/types.js'
import { aboutCount, aboutDuration, applyWords, longApply, paceWords } from '../../src/report/pace.js'

const SELF_HOSTED = { requests: 100, windowMs: 60_000 }
const MANAGED = { requests: 10, windowMs: 10_000 }

const change = (
  kind: ResourceKind,
  action: Action,
  estimate?: Change['estimate'],
  extra: Partial<Change> = {}
): Change => ({
  kind,
  name: 'x',
  address: `${kind}/x`,
  action,
  fields: [],
  notes: [],
  dependsOn: [],
  ...(estimate ? { estimate } : {}),
  ...extra
})

const invitations = (n: number) =>
  Array.from({ length: n }, () => change('TeamMember', 'create', { requests: 1, registry: 1 }))

describe('registry writes', () => {
  it('two per `concurrency` entries once paced, never more than one per entry', () => {
    // As measured on the emulator (kinds/registry.ts): 400 invitations wrote the registry 200, 100 and 400 times.
    expect(registryWrites(400, 4)).toBe(200)
    expect(registryWrites(400, 8)).toBe(100)
    expect(registryWrites(400, 1)).toBe(400)
    expect(registryWrites(400, 2)).toBe(400)
    expect(registryWrites(1, 4)).toBe(1)
    expect(registryWrites(0, 4)).toBe(0)
  })
})

describe('the estimate of an apply', () => {
  it("sums the changes' requests, the registry writes, the dry runs and one re-read per kind created", () => {
    const changes = [
      change('Dashboard', 'create', { requests: 3 }),
      change('Dashboard', 'update', { requests: 2 }),
      change('Alert', 'create', { requests: 1 }),
      change('Alert', 'replace', { requests: 2 }),
      change('Webhook', 'create', { requests: 1, registry: 1 }),
      change('Source', 'delete', { requests: 1, registry: 1 }),
      // Not applied by this run: not counted.
      change('Dashboard', 'noop'),
      change('SavedSearch', 'create', { requests: 1 }, { deferred: 'prune' }),
      change('ServiceSettings', 'update', { requests: 2 }, { deferred: 'release' })
    ]
    const estimate = applyEstimate(changes, { concurrency: 4, rateLimit: SELF_HOSTED, dryRuns: 2 })
    expect(estimate).toEqual({
      version: ESTIMATE_VERSION,
      requests: 10 + 1 + 2 + 2,
      // Copies are looked for among created dashboards and alerts (apply/copies.ts), not webhooks.
      parts: { changes: 10, registry: 1, dryRuns: 2, rereads: 2 },
      concurrency: 4,
      pace: SELF_HOSTED,
      durationMs: Math.round(pacedDurationMs(15, SELF_HOSTED))
    })
  })

  it('2,000 invitations at self-hosted pace: 3,000 requests, about 31 min; without a pace no duration', () => {
    const estimate = applyEstimate(invitations(2000), { concurrency: 4, rateLimit: SELF_HOSTED, dryRuns: 0 })
    expect(estimate.requests).toBe(3000)
    // 30 windows of 61.3 s: the pacer's window keeps a margin (api/pacer.ts).
    expect(estimate.durationMs).toBe(1_839_000)
    const unpaced = applyEstimate(invitations(2000), { concurrency: 8, rateLimit: null, dryRuns: 0 })
    expect(unpaced).toEqual({
      version: ESTIMATE_VERSION,
      requests: 2500,
      parts: { changes: 2000, registry: 500, dryRuns: 0, rereads: 0 },
      concurrency: 8
    })
  })

  it('counts down as changes settle; the re-reads at the end stay until the apply is over', () => {
    const changes = [...invitations(4), change('Dashboard', 'create', { requests: 1 })]
    const left = RequestsLeft.of(changes, 4)
    // 5 requests, 2 registry writes for 4 entries, the dashboards' re-read.
    expect(left.total).toBe(8)
    left.settled(changes[0]!)
    left.settled(changes[1]!)
    expect(left.parts()).toEqual({ changes: 3, registry: 1, rereads: 1 })
    // 5 requests at 100 a minute (a window of 61.3 s); without a pace, no time.
    expect(left.left(SELF_HOSTED)).toEqual({ requests: 5, ms: 3065 })
    expect(left.left(null)).toEqual({ requests: 5 })
    for (const c of changes.slice(2)) left.settled(c)
    expect(left.total).toBe(1)
  })
})

describe('the pace', () => {
  it("is the pacer's window: the configured one plus 2% and 100 ms", () => {
    expect(pacedWindowMs(SELF_HOSTED)).toBe(61_300)
    expect(pacedDurationMs(3000, SELF_HOSTED)).toBe(30 * 61_300)
    expect(pacedDurationMs(60, MANAGED)).toBe(6 * 10_300)
  })
})

describe('the words of an estimate', () => {
  it('say about, and round: seconds, minutes, then five minutes beyond an hour', () => {
    expect(aboutDuration(400)).toBe('about 1 s')
    expect(aboutDuration(6_700)).toBe('about 7 s')
    expect(aboutDuration(23_000)).toBe('about 25 s')
    expect(aboutDuration(58_000)).toBe('about 1 min')
    expect(aboutDuration(1_839_000)).toBe('about 31 min')
    expect(aboutDuration(59 * 60_000 + 40_000)).toBe('about 1 h')
    expect(aboutDuration(95 * 60_000)).toBe('about 1 h 35 min')
    expect(aboutDuration(5 * 3_600_000 + 2 * 60_000)).toBe('about 5 h')
  })

  it('give the pace a minute, as the rate-limit input is configured (managed mode too)', () => {
    expect(paceWords(SELF_HOSTED)).toBe('100 requests a minute')
    expect(paceWords(MANAGED)).toBe('60 requests a minute')
    expect(paceWords({ requests: 200, windowMs: 1000 })).toBe('12,000 requests a minute')
    expect(paceWords({ requests: 1, windowMs: 60_000 })).toBe('1 request a minute')
    expect(paceWords({ requests: 7, windowMs: 45_000 })).toBe('7 requests every 45 s')
  })

  it('count exactly below 100, else to two figures', () => {
    expect([5, 99, 904, 1234, 3000, 3008, 12_345].map(aboutCount)).toEqual([
      '5',
      '99',
      '900',
      '1,200',
      '3,000',
      '3,000',
      '12,000'
    ])
    expect(applyWords(3000, SELF_HOSTED, 1_839_000)).toBe(
      'about 31 min at 100 requests a minute (about 3,000 requests)'
    )
  })

  it("are a plan's when its apply takes more than a minute at a pace, and for this estimate's version only", () => {
    const plan = (estimate: Plan['estimate']) => ({ estimate }) as Plan
    const of = (requests: number, pace = SELF_HOSTED) =>
      applyEstimate(invitations(requests), { concurrency: 4, rateLimit: pace, dryRuns: 0 })
    expect(longApply(plan(of(2000)))).toBe('about 31 min at 100 requests a minute (about 3,000 requests)')
    expect(longApply(plan(of(2000, MANAGED)))).toBe(
      'about 52 min at 60 requests a minute (about 3,000 requests)'
    )
    // 60 requests: within the first window, and under a minute even at the pace.
    expect(longApply(plan(of(40)))).toBeUndefined()
    expect(longApply(plan({ ...of(2000), pace: undefined, durationMs: undefined }))).toBeUndefined()
    expect(longApply(plan({ ...of(2000), version: ESTIMATE_VERSION + 1 }))).toBeUndefined()
    expect(longApply(undefined)).toBeUndefined()
  })
})
