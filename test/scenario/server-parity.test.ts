/**
 * Promise 1 as a property (scripts/server-parity.ts): random manifests that validate offline produce requests the
 * emulator accepts under the real server's rules, in both modes; a short fixed-seed sample here, `npm run fuzz --
 * --parity` for thousands. The sample must also reach both outcomes: manifests refused offline, and manifests
 * applied twice (create, then update).
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { checkParity, parityCase, type Mode } from '../../scripts/server-parity.js'

const SEED = 20260813
const RUNS = 40

describe.each<Mode>(['self-hosted', 'managed'])('%s: what validates offline, the emulator accepts', mode => {
  it(`holds for ${RUNS} random manifest pairs (seed ${SEED})`, async () => {
    const seen = { refused: 0, once: 0, twice: 0, requests: 0 }
    const result = await fc.check(
      fc.asyncProperty(parityCase(mode), async c => {
        const outcome = await checkParity(c)
        seen.requests += outcome.requests
        if (outcome.appliedSets === 0) seen.refused++
        else if (outcome.appliedSets === 1) seen.once++
        else seen.twice++
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true }
    )
    // The error carries the emulator's 400 text and the manifests, which say more than the generated values.
    if (result.failed)
      throw new Error(
        `parity failed (seed ${SEED}, path ${result.counterexamplePath ?? '?'}): ${String(result.errorInstance)}`
      )
    // Not vacuous: some manifests were refused offline, many were applied and then updated.
    expect(seen.refused).toBeGreaterThan(0)
    expect(seen.twice).toBeGreaterThan(RUNS / 4)
    expect(seen.requests).toBeGreaterThan(RUNS)
  })
})
