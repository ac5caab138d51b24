import { describe, expect, it } from '@jest/globals'
import { runOperations } from '../../src/apply/engine.js'
import type { ApplyContext, Operation } from '../../src/kinds/kind.js'
import { silentLogger } from '../../src/log.js'

const ctx = (): ApplyContext =>
  ({ facts: new Map(), log: silentLogger, reread: async () => [] }) as unknown as ApplyContext
const sleep = (ms: number) => new Promise(r => setTimeout(r, ms))

function op(
  address: string,
  spec: Partial<Operation> & { work?: (log: string[]) => Promise<void> },
  log: string[]
): Operation {
  return {
    address,
    label: address,
    provides: spec.provides ?? [],
    after: spec.after ?? [],
    lock: spec.lock,
    run: async () => {
      log.push(`start ${address}`)
      await (spec.work ?? (() => sleep(5)))(log)
      log.push(`end ${address}`)
      return { status: 'applied', id: address }
    }
  }
}

describe('the apply engine', () => {
  it('runs an operation after the ones that provide what it needs', async () => {
    const log: string[] = []
    const ops = [op('alert', { after: ['ready'] }, log), op('dashboard', { provides: ['ready'] }, log)]
    await runOperations(ops, ctx(), 4)
    expect(log.indexOf('start alert')).toBeGreaterThan(log.indexOf('end dashboard'))
  })

  it('never runs two operations of one lock at once, and never more than the concurrency', async () => {
    const log: string[] = []
    const counter = () => {
      const c = { running: 0, peak: 0 }
      const work = async () => {
        c.running++
        c.peak = Math.max(c.peak, c.running)
        await sleep(10)
        c.running--
      }
      return { c, work }
    }
    const all = counter()
    const locked = counter()
    const both = async (l: string[]) => {
      await Promise.all([all.work(), locked.work()])
      void l
    }
    const ops = [
      ...[1, 2, 3].map(i => op(`d1-${i}`, { lock: 'd1', work: both }, log)),
      ...[1, 2, 3, 4, 5].map(i => op(`x${i}`, { work: all.work }, log))
    ]
    await runOperations(ops, ctx(), 3)
    expect(all.c.peak).toBe(3)
    expect(locked.c.peak).toBe(1)
    expect(log.filter(l => l.startsWith('end'))).toHaveLength(8)
  })

  it.each([
    ['rejects', () => Promise.reject(new Error('HTTP 500'))],
    [
      'throws before it returns a promise',
      () => {
        throw new Error('HTTP 500')
      }
    ]
  ] as const)(
    'skips what depends on a failure (one that %s) and goes on with everything else',
    async (_, run) => {
      const log: string[] = []
      const failing: Operation = { ...op('broken', { provides: ['ready'] }, log), run }
      const ops = [failing, op('dependent', { after: ['ready'] }, log), op('independent', {}, log)]
      const outcomes = await runOperations(ops, ctx(), 2)
      expect(outcomes.get(ops[0]!)).toEqual({ state: 'failed', error: 'HTTP 500' })
      expect(outcomes.get(ops[1]!)).toEqual({ state: 'skipped', reason: 'broken (broken) failed' })
      expect(outcomes.get(ops[2]!)!.state).toBe('done')
    }
  )

  it('records what each successful operation provides, for the ones after it; a failure provides nothing', async () => {
    const log: string[] = []
    const context = ctx()
    const failing: Operation = {
      ...op('broken', { provides: ['b'] }, log),
      run: () => Promise.reject(new Error('x'))
    }
    const ops = [op('maker', { provides: ['ready', 'tiles'] }, log), failing]
    await runOperations(ops, context, 2)
    expect([...context.facts.keys()].sort()).toEqual(['ready', 'tiles'])
    expect(context.facts.get('ready')).toEqual({ status: 'applied', id: 'maker' })
  })

  it('an operation that provides a token it also waits for does not wait for itself', async () => {
    const log: string[] = []
    const ops = [op('self', { provides: ['t'], after: ['t'] }, log), op('next', { after: ['t'] }, log)]
    const outcomes = await runOperations(ops, ctx(), 2)
    expect([...outcomes.values()].map(o => o.state)).toEqual(['done', 'done'])
    expect(log).toEqual(['start self', 'end self', 'start next', 'end next'])
  })

  it('skips a whole chain after a failure, naming the failure, and settles each operation once', async () => {
    const log: string[] = []
    const settled: string[] = []
    const started: string[] = []
    const failing: Operation = {
      ...op('root', { provides: ['r'] }, log),
      label: 'create',
      run: () => Promise.reject(new Error('HTTP 500'))
    }
    // A diamond: left and right both wait for root, bottom for both.
    const ops = [
      failing,
      op('left', { after: ['r'], provides: ['l'] }, log),
      op('right', { after: ['r'], provides: ['rr'] }, log),
      op('bottom', { after: ['l', 'rr'] }, log)
    ]
    const outcomes = await runOperations(ops, ctx(), 2, {
      started: o => started.push(o.address),
      settled: (o, outcome) => settled.push(`${o.address} ${outcome.state}`)
    })
    expect(started).toEqual(['root'])
    expect(settled).toEqual(['root failed', 'left skipped', 'bottom skipped', 'right skipped'])
    expect(outcomes.get(ops[3]!)).toEqual({ state: 'skipped', reason: 'root (create) failed' })
    expect(log).toEqual([])
  })

  it('operations that wait for each other are never run, and are reported as not reached', async () => {
    const log: string[] = []
    const ops = [
      op('a', { provides: ['a'], after: ['b'] }, log),
      op('b', { provides: ['b'], after: ['a'] }, log),
      op('free', {}, log)
    ]
    const outcomes = await runOperations(ops, ctx(), 2)
    expect(outcomes.get(ops[0]!)).toEqual({ state: 'skipped', reason: 'not reached' })
    expect(outcomes.get(ops[1]!)).toEqual({ state: 'skipped', reason: 'not reached' })
    expect(outcomes.get(ops[2]!)!.state).toBe('done')
    expect(log).toEqual(['start free', 'end free'])
  })

  it('a queued operation whose lock is busy lets the next one start in its place, in order', async () => {
    const log: string[] = []
    const ops = [
      op('d1-a', { lock: 'd1' }, log),
      op('d1-b', { lock: 'd1' }, log),
      op('d2', { lock: 'd2' }, log)
    ]
    await runOperations(ops, ctx(), 2)
    expect(log.slice(0, 2)).toEqual(['start d1-a', 'start d2'])
    expect(log.indexOf('start d1-b')).toBeGreaterThan(log.indexOf('end d1-a'))
  })

  it('an operation that waits for two runs only after both, whichever ends last', async () => {
    const log: string[] = []
    let release = () => {}
    const slow = new Promise<void>(r => (release = r))
    const ops = [
      op('fast', { provides: ['f'] }, log),
      op('slow', { provides: ['s'], work: () => slow }, log),
      op('both', { after: ['f', 's'] }, log)
    ]
    let fastSettled = () => {}
    const fastDone = new Promise<void>(r => (fastSettled = r))
    const run = runOperations(ops, ctx(), 3, { settled: o => o.address === 'fast' && fastSettled() })
    await fastDone
    expect(log).toEqual(['start fast', 'start slow', 'end fast'])
    release()
    await run
    expect(log.slice(3)).toEqual(['end slow', 'start both', 'end both'])
  })
})
