/**
 * The order applyPlan runs changes of different kinds in: a delete waits for every operation of the kinds
 * after it (what may still refer to what it deletes), deletes run in the reverse of the kinds' order, and
 * nothing else waits for a later kind. Each operation logs its start and end; the ones that may start
 * together start in one go, before any ends.
 */
import { describe, expect, it } from '@jest/globals'
import type { Action, ResourceKind } from '../../src/plan/types.js'
import { apply, change, ok, type Step } from '../support/apply.js'

/** One change per entry, each with one operation that logs its start and its end (a `slow` one after the microtasks). */
async function applyLogged(changes: [ResourceKind, string, Action, 'slow'?][]) {
  const log: string[] = []
  const steps: Record<string, Step[]> = {}
  for (const [kind, name, , slow] of changes) {
    const address = `${kind}/${name}`
    steps[address] = [
      {
        run: async () => {
          log.push(`start ${address}`)
          await (slow ? new Promise(resolve => setImmediate(resolve)) : Promise.resolve())
          log.push(`end ${address}`)
          return { status: 'applied' }
        }
      }
    ]
  }
  const planned = changes.map(([kind, name, action]) => change(name, action, `${name}-1`, kind))
  const { result } = await apply(planned, steps, changes.length)
  expect(result.complete).toBe(true)
  return log
}

describe('the order of an apply', () => {
  it('deletes run in the reverse of the kinds’ order, each after every operation of the kinds after it', async () => {
    const log = await applyLogged([
      ['Source', 'Logs', 'delete'],
      ['Dashboard', 'Gone', 'delete'],
      ['Alert', 'Slow', 'create']
    ])
    expect(log).toStrictEqual([
      'start Alert/Slow',
      'end Alert/Slow',
      'start Dashboard/Gone',
      'end Dashboard/Gone',
      'start Source/Logs',
      'end Source/Logs'
    ])
  })

  it('a delete waits for every change of a later kind, not only the last one planned', async () => {
    const log = await applyLogged([
      ['Dashboard', 'Gone', 'delete'],
      ['Alert', 'Slow', 'create', 'slow'],
      ['Alert', 'Fast', 'create']
    ])
    expect(log.slice(-2)).toStrictEqual(['start Dashboard/Gone', 'end Dashboard/Gone'])
  })

  it('a delete waits for no earlier kind, no other change of its own kind and no service settings; nothing else waits for a later kind', async () => {
    const log = await applyLogged([
      ['Dashboard', 'Old', 'delete'],
      ['Dashboard', 'Cart', 'update'],
      ['Source', 'Logs', 'create'],
      ['Webhook', 'Pager', 'replace'],
      ['ServiceSettings', 'svc', 'update']
    ])
    expect(log.slice(0, 5)).toStrictEqual([
      'start Dashboard/Old',
      'start Dashboard/Cart',
      'start Source/Logs',
      'start Webhook/Pager',
      'start ServiceSettings/svc'
    ])
  })

  it('without a progress listener the apply runs and reports the same', async () => {
    const { result, progress } = await apply(
      [change('A', 'create'), change('B', 'update', 'b-1')],
      { 'Dashboard/A': [ok({ id: 'a-1' })], 'Dashboard/B': [ok()] },
      2,
      { progress: false }
    )
    expect(progress).toStrictEqual([])
    expect(result.complete).toBe(true)
    expect(result.outcomes.map(o => [o.address, o.status, o.id])).toStrictEqual([
      ['Dashboard/A', 'applied', 'a-1'],
      ['Dashboard/B', 'applied', 'b-1']
    ])
  })
})
