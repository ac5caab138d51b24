/**
 * applyPlan's report of what happened, per change: the status and message the reports, the outputs and
 * the exit code read, the progress events, and the re-read shared by creates whose responses were lost.
 * A fake kind hands out scripted operations, so each outcome is set by the test, not by a server.
 */
import { describe, expect, it } from '@jest/globals'
import { apply, change, fails, ok, type Step } from '../support/apply.js'

describe('applyPlan reports each change', () => {
  it('applied: the id, request id, message and result the request returned; a change without requests is left out', async () => {
    const { result } = await apply([change('A', 'create'), change('Same', 'noop', 'same-1')], {
      'Dashboard/A': [ok({ id: 'a-1', requestId: 'req-1', message: 'created', result: { ok: 1 } })]
    })
    expect(result).toEqual({
      complete: true,
      outcomes: [
        {
          address: 'Dashboard/A',
          kind: 'Dashboard',
          name: 'A',
          action: 'create',
          status: 'applied',
          id: 'a-1',
          requestId: 'req-1',
          message: 'created',
          result: { ok: 1 }
        }
      ]
    })
  })

  it('a delete keeps the id of what it deleted; nothing the request did not return is set, not even as undefined', async () => {
    const { result } = await apply([change('Gone', 'delete', 'gone-1')], {
      'Dashboard/Gone': [ok({ id: 'something-else' })]
    })
    expect(result).toStrictEqual({
      complete: true,
      outcomes: [
        {
          address: 'Dashboard/Gone',
          kind: 'Dashboard',
          name: 'Gone',
          action: 'delete',
          status: 'applied',
          id: 'gone-1'
        }
      ]
    })
  })

  it('failed: the error alone for a one-request change, each failed request by its label for a longer one', async () => {
    const { result } = await apply([change('One', 'create'), change('Two', 'replace', 'two-1')], {
      'Dashboard/One': [fails('HTTP 500: boom')],
      'Dashboard/Two': [
        fails('HTTP 502', 'delete old dashboard'),
        { ...ok(), after: ['two-deleted'] },
        { ...fails('never runs'), provides: ['two-deleted'], label: 'x' }
      ]
    })
    const [one, two] = result.outcomes
    expect(one).toMatchObject({ status: 'failed', message: 'HTTP 500: boom' })
    expect(two).toMatchObject({
      status: 'failed',
      id: 'two-1',
      message: 'delete old dashboard: HTTP 502; not attempted: Dashboard/Two (x) failed; x: never runs'
    })
    expect(result.complete).toBe(false)
  })

  it('skipped, when what it depends on failed: never marked applied, and the run is incomplete', async () => {
    const { result } = await apply([change('Dash', 'create'), change('Alert', 'create')], {
      'Dashboard/Dash': [{ ...fails('HTTP 400: bad tile'), provides: ['dash-ready'] }],
      'Dashboard/Alert': [{ ...ok({ id: 'never' }), after: ['dash-ready'] }]
    })
    expect(result.outcomes[1]).toEqual({
      address: 'Dashboard/Alert',
      kind: 'Dashboard',
      name: 'Alert',
      action: 'create',
      status: 'skipped',
      message: 'not attempted: Dashboard/Dash (create) failed'
    })
    expect(result.complete).toBe(false)
  })

  it('a change never reached (its operations wait for each other) is skipped, and the run is incomplete', async () => {
    const { result } = await apply([change('Loop', 'replace', 'l-1')], {
      'Dashboard/Loop': [
        { ...ok(), provides: ['a'], after: ['b'] },
        { ...ok(), provides: ['b'], after: ['a'] }
      ]
    })
    expect(result.outcomes[0]).toMatchObject({
      status: 'skipped',
      message: 'not attempted: not reached; not attempted: not reached'
    })
    expect(result.complete).toBe(false)
  })

  it('a failure outranks a later skip or adoption in the same change', async () => {
    const { result } = await apply([change('Mixed', 'replace', 'm-1')], {
      'Dashboard/Mixed': [
        { ...fails('HTTP 500', 'delete'), provides: ['gone'] },
        { ...ok(), after: ['gone'] },
        { run: async () => ({ status: 'adopted', id: 'm-2' }) }
      ]
    })
    expect(result.outcomes[0]!.status).toBe('failed')
    expect(result.complete).toBe(false)
  })

  it('adopted: a create whose response was lost and that was found again; the run is complete', async () => {
    const { result } = await apply([change('Lost', 'create')], {
      'Dashboard/Lost': [ok(), { run: async () => ({ status: 'adopted', id: 'lost-1' }) }]
    })
    expect(result.outcomes[0]).toMatchObject({ status: 'adopted', id: 'lost-1' })
    expect(result.complete).toBe(true)
  })

  it('a re-read that still differs after the request makes the run incomplete, and says what differs', async () => {
    const differs = { converged: false, remaining: ['ingestion.retentionDays'] }
    const { result } = await apply([change('Svc', 'update', 's-1')], {
      'Dashboard/Svc': [ok({ convergence: differs })]
    })
    expect(result.convergence).toEqual(differs)
    expect(result.outcomes[0]!.status).toBe('applied')
    expect(result.complete).toBe(false)

    const converged = await apply([change('Svc', 'update', 's-1')], {
      'Dashboard/Svc': [ok({ convergence: { converged: true, remaining: [] } })]
    })
    expect(converged.result.complete).toBe(true)
    expect(converged.result.convergence).toEqual({ converged: true, remaining: [] })
  })
})

describe('applyPlan progress', () => {
  it('each change starts once and ends when its last request settles, with its worst status', async () => {
    const { progress } = await apply(
      [change('A', 'create'), change('Noop', 'noop'), change('B', 'replace', 'b-1')],
      {
        'Dashboard/A': [ok(), { run: async () => ({ status: 'adopted' }) }],
        'Dashboard/B': [fails('HTTP 500', 'delete'), ok()]
      }
    )
    const brief = progress.map(p => [p.event, p.address, p.status, p.done, p.total])
    expect(brief).toEqual([
      ['start', 'Dashboard/A', undefined, 0, 2],
      ['end', 'Dashboard/A', 'adopted', 1, 2],
      ['start', 'Dashboard/B', undefined, 1, 2],
      ['end', 'Dashboard/B', 'failed', 2, 2]
    ])
    expect(progress[0]).toEqual({
      event: 'start',
      address: 'Dashboard/A',
      kind: 'Dashboard',
      name: 'A',
      action: 'create',
      status: undefined,
      done: 0,
      total: 2
    })
  })

  it("counts down the requests left by the plan's estimate, a change's as sent when it ends", async () => {
    const planned = [
      change('A', 'create'),
      change('B', 'update', 'b-1'),
      change('Invite', 'create', undefined, 'TeamMember')
    ]
    planned[0]!.change.estimate = { requests: 3 }
    planned[1]!.change.estimate = { requests: 2 }
    planned[2]!.change.estimate = { requests: 1, registry: 1 }
    const steps = { 'Dashboard/A': [ok()], 'Dashboard/B': [ok()], 'TeamMember/Invite': [ok()] }
    const pace = { requests: 100, windowMs: 60_000 }
    const { progress } = await apply(planned, steps, 1, { countdown: { pace } })
    // 6 of their own, 1 registry write, and the dashboards' re-read at the end (A is a create); 613 ms each.
    expect(progress.map(p => [p.event, p.address, p.left])).toEqual([
      ['start', 'Dashboard/A', { requests: 8, ms: 4904 }],
      ['end', 'Dashboard/A', { requests: 5, ms: 3065 }],
      ['start', 'Dashboard/B', { requests: 5, ms: 3065 }],
      ['end', 'Dashboard/B', { requests: 3, ms: 1839 }],
      ['start', 'TeamMember/Invite', { requests: 3, ms: 1839 }],
      ['end', 'TeamMember/Invite', { requests: 1, ms: 613 }]
    ])
    // Unpaced: the requests, no time. A plan without estimates (an older plan file): nothing to count down.
    const unpaced = await apply(planned, steps, 1, { countdown: { pace: null } })
    expect(unpaced.progress[0]!.left).toEqual({ requests: 8 })
    const old = await apply(planned, steps)
    expect(old.progress.every(p => !('left' in p))).toBe(true)
  })

  it('a skipped request ranks above an adopted one, below a failed one', async () => {
    const { progress } = await apply([change('Base', 'create'), change('C', 'create')], {
      'Dashboard/Base': [{ ...fails('HTTP 500'), provides: ['base'] }],
      'Dashboard/C': [{ run: async () => ({ status: 'adopted' }) }, { ...ok(), after: ['base'] }]
    })
    expect(progress.filter(p => p.event === 'end').map(p => [p.address, p.status])).toEqual([
      ['Dashboard/Base', 'failed'],
      ['Dashboard/C', 'skipped']
    ])
  })
})

describe("applyPlan's shared re-read", () => {
  it('creates that lose their responses at once share one read; a later one reads again', async () => {
    let reads = 0
    const read = async () => [`read ${++reads}`]
    const seen: string[][] = []
    const rereads = (what: 'dashboards' | 'alerts'): Step => ({
      run: async ctx => {
        seen.push(await ctx.reread(what, read))
        return { status: 'adopted' }
      }
    })
    const planned = [change('A', 'create'), change('B', 'create'), change('C', 'create')]
    const kindSteps = { 'Dashboard/A': [rereads('dashboards')], 'Dashboard/B': [rereads('dashboards')] }
    // Concurrency 1 runs A's re-read before B's: two reads. Both at once share one.
    await apply(planned.slice(0, 2), kindSteps)
    expect(seen).toEqual([['read 1'], ['read 2']])

    seen.length = 0
    reads = 0
    const { result: both } = await apply(planned, { ...kindSteps, 'Dashboard/C': [rereads('alerts')] }, 3)
    expect(both.complete).toBe(true)
    // A and B share the dashboards read; C's alerts read is its own.
    expect(reads).toBe(2)
    expect(seen.filter(s => s[0] === seen[0]![0])).toHaveLength(2)
    expect(new Set(seen.map(s => s[0])).size).toBe(2)
  })
})
