/** run/heap.ts: the one full collection before planning, for large runs only, and never a failure. */
import { describe, expect, it } from '@jest/globals'
import { collectBeforePlanning, COLLECT_FROM_RECORDS } from '../../src/run/heap.js'

/** A weak reference to an object nothing else holds (a WeakRef keeps its target to the end of the job). */
async function garbage(): Promise<WeakRef<object>> {
  const ref = new WeakRef({ big: new Array(1000).fill('x') })
  await new Promise(resolve => setImmediate(resolve))
  return ref
}

describe('collectBeforePlanning', () => {
  it('leaves a small run to V8', () => {
    expect(() => collectBeforePlanning(COLLECT_FROM_RECORDS - 1)).not.toThrow()
  })

  it('collects in a large run, and the run goes on', async () => {
    const ref = await garbage()
    collectBeforePlanning(COLLECT_FROM_RECORDS)
    expect(ref.deref()).toBeUndefined()
  })
})
