/**
 * Two stacks of one run never manage the same live resource: both plans get an error at the manifest
 * line, so neither is applied. A create has no live resource yet, and a delete that waits for prune is
 * only shown, so neither counts: that is how a dashboard moves from one stack to another.
 */
import { describe, expect, it } from '@jest/globals'
import type { Change } from '../../src/plan/types.js'
import { crossStackConflicts } from '../../src/run/cross-stack.js'
import { makePlan } from './report-fixtures.js'

const change = (c: Partial<Change> & Pick<Change, 'kind' | 'name' | 'action'>): Change => ({
  address: `${c.kind}/${c.name}`,
  fields: [],
  notes: [],
  dependsOn: [],
  ...c
})
const plan = (stack: string, changes: Change[]) => makePlan(changes, { stack })
const messages = (problems: ReturnType<typeof crossStackConflicts>) =>
  problems.map(list => list.map(d => `${d.file ?? ''}:${d.line ?? ''} ${d.message.split(':')[0]}`))

describe('resources two stacks of one run would both manage', () => {
  const pinned = change({
    kind: 'Dashboard',
    name: 'Checkout',
    action: 'update',
    id: 'd1',
    source: { file: 'observability/search/checkout.yaml', line: 3, column: 1 }
  })
  const owned = change({ kind: 'Dashboard', name: 'Checkout', action: 'noop', id: 'd1' })

  it('are refused in both plans, each at its own manifest line', () => {
    expect(messages(crossStackConflicts([plan('payments', [owned]), plan('search', [pinned])]))).toEqual([
      [': Dashboard "Checkout" (id d1) is also managed by stack "search" in this run'],
      [
        'observability/search/checkout.yaml:3 Dashboard "Checkout" (id d1) is also managed by stack "payments" in this run'
      ]
    ])
  })

  it('name every other stack that manages it', () => {
    const three = crossStackConflicts([plan('a', [owned]), plan('b', [owned]), plan('c', [pinned])])
    expect(three[2]![0]!.message).toMatch(/is also managed by stack "a", "b" in this run/)
  })

  it('do not include creates, a delete that waits for prune, other kinds with the same id, or one stack', () => {
    const created = change({ kind: 'Dashboard', name: 'Checkout', action: 'create' })
    const waiting = change({
      kind: 'Dashboard',
      name: 'Checkout',
      action: 'delete',
      id: 'd1',
      deferred: 'prune'
    })
    const alert = change({ kind: 'Alert', name: 'Checkout', action: 'noop', id: 'd1' })
    expect(crossStackConflicts([plan('a', [created]), plan('b', [created])])).toEqual([[], []])
    expect(crossStackConflicts([plan('a', [waiting]), plan('b', [pinned])])).toEqual([[], []])
    expect(crossStackConflicts([plan('a', [alert]), plan('b', [owned])])).toEqual([[], []])
    expect(crossStackConflicts([plan('a', [owned, pinned])])).toEqual([[]])
  })

  it('include service settings in two stacks, even unchanged or waiting for a release', () => {
    const service = (action: Change['action'], deferred?: 'release') =>
      change({ kind: 'ServiceSettings', name: 'prod', action, id: 'svc', ...(deferred ? { deferred } : {}) })
    const problems = crossStackConflicts([
      plan('a', [service('noop')]),
      plan('b', [service('update', 'release')])
    ])
    expect(problems.map(p => p.length)).toEqual([1, 1])
  })

  it('refuse a role two stacks both create in one run: the cloud allows one role of a name in a team', () => {
    const role = (name: string) => change({ kind: 'Role', name, action: 'create' })
    const problems = crossStackConflicts([plan('a', [role('Ops')]), plan('b', [role('Ops'), role('Dev')])])
    expect(problems.map(list => list.map(d => d.message))).toEqual([
      [
        'stack "a" and stack "b" both create role "Ops" in this run, and the server allows one role of a name in a team: give one of them another name'
      ],
      [
        'stack "b" and stack "a" both create role "Ops" in this run, and the server allows one role of a name in a team: give one of them another name'
      ]
    ])
  })
})
