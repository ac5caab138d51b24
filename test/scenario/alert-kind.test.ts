/**
 * The alert kind (src/kinds/alert.ts) as the server sees it: which alerts a replace deletes and creates and
 * in what order, what the request bodies carry, and what the plan says, against the emulator.
 */
import { describe, expect, it } from '@jest/globals'
import { actions, alert, dashboard, obsdeploy, timeTile, useScenario, workspace } from '../support/harness.js'

const { emu, ws } = useScenario()

const alerts = () => [...emu.selfHosted.alerts.values()]
const dashboardId = (name: string) => [...emu.selfHosted.dashboards.values()].find(d => d.name === name)!.id

describe('the plan of a new alert', () => {
  it('points at the name line of its manifest, and its apply reports the new id', async () => {
    ws.write({ 'a.yaml': dashboard('A', timeTile('Errors', 0, 0)) + alert('First', 'A', 'Errors') })
    const plan = await obsdeploy(emu, ws, 'plan')
    const change = plan.plan!.changes.find(c => c.kind === 'Alert')!
    expect(change).toMatchObject({ action: 'create', address: 'Alert/First' })
    // dashboard() is 3 lines, timeTile() 11, then the alert's '---' and `kind:`; the column is the value's.
    expect(change.source).toMatchObject({ file: expect.stringMatching(/a\.yaml$/), line: 17, column: 7 })
    const apply = await obsdeploy(emu, ws, 'apply')
    expect(apply.apply!.outcomes.find(o => o.kind === 'Alert')).toMatchObject({
      action: 'create',
      status: 'applied',
      id: alerts()[0]!.id
    })
  })
})

describe('a replace of several alerts', () => {
  it('waits only for the delete of its own old alert: a failed delete holds back that alert alone', async () => {
    ws.write({
      'one.yaml':
        dashboard('A', timeTile('Errors', 0, 0)) +
        alert('First', 'A', 'Errors') +
        alert('Second', 'A', 'Errors', 20),
      'two.yaml': dashboard('B', timeTile('Errors', 0, 0))
    })
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    const first = alerts().find(a => a.name === 'First')!.id
    ws.write({
      'one.yaml': dashboard('A', timeTile('Errors', 0, 0)),
      'two.yaml':
        dashboard('B', timeTile('Errors', 0, 0)) +
        alert('First', 'B', 'Errors') +
        alert('Second', 'B', 'Errors', 20)
    })
    emu.faults.add({ method: 'DELETE', path: `/api/v2/alerts/${first}`, sequence: ['500'] })
    const failed = await obsdeploy(emu, ws, 'apply')
    expect(failed.exitCode).toBe(1)
    const outcome = (name: string) => failed.apply!.outcomes.find(o => o.kind === 'Alert' && o.name === name)
    expect(outcome('First')).toMatchObject({ action: 'replace', status: 'failed' })
    expect(outcome('Second')).toMatchObject({ action: 'replace', status: 'applied' })
    const b = dashboardId('B')
    expect(
      alerts()
        .map(a => [a.name, a.dashboardId === b ? 'B' : 'A'])
        .sort()
    ).toEqual([
      ['First', 'A'],
      ['Second', 'B']
    ])
  })
})

const search = (name: string, where = 'level:error') => `---
kind: SavedSearch
name: ${name}
source: Logs
where: '${where}'
`
const searchAlert = (on: string, extra = 'savedSearch') => `---
kind: Alert
name: Burst
source: saved_search
${extra}: ${on}
threshold: 5
thresholdType: above
interval: 5m
channel: { type: webhook, webhook: ops-pager }
`

describe('a saved-search alert', () => {
  it('whose saved search is deleted is replaced on its new saved search, and the plan says why', async () => {
    ws.write({ 'a.yaml': search('Errors') + searchAlert('Errors') })
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    const old = alerts()[0]!.id
    ws.write({ 'a.yaml': search('Warnings', 'level:warn') + searchAlert('Warnings') })
    const plan = await obsdeploy(emu, ws, 'plan', { prune: 'true' })
    const change = plan.plan!.changes.find(c => c.kind === 'Alert')!
    expect(change).toMatchObject({ action: 'replace', droppedByServer: true, id: old })
    expect(change.notes).toContain(
      'its saved search is deleted, and the server deletes its alerts with it; it is created again on saved search "Warnings" (new alert id)'
    )
    expect((await obsdeploy(emu, ws, 'apply', { prune: 'true' })).exitCode).toBe(0)
    const warnings = [...emu.selfHosted.savedSearches.values()].find(s => s.name === 'Warnings')!.id
    expect(alerts()).toMatchObject([{ name: 'Burst', savedSearchId: warnings }])
    expect(alerts()[0]!.id).not.toBe(old)
  })

  it('on a saved search pinned by an id this stack does not manage is a plan error at the field', async () => {
    const other = workspace({ 'a.yaml': search('Theirs') })
    try {
      expect((await obsdeploy(emu, other, 'apply', { stack: 'other' })).exitCode).toBe(0)
    } finally {
      other.cleanup()
    }
    const theirs = [...emu.selfHosted.savedSearches.values()].find(s => s.name === 'Theirs')!.id
    ws.write({ 'a.yaml': searchAlert(theirs, 'savedSearchId') })
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(plan.diagnostics.filter(d => d.severity === 'error')).toEqual([
      expect.objectContaining({
        stage: 'plan',
        field: 'savedSearchId',
        file: expect.stringMatching(/a\.yaml$/),
        line: 5,
        message: `saved search ${JSON.stringify(theirs)} is not managed by stack "shop": an alert is owned through its saved search, so declare the saved search in the manifests (\`adopt: true\` for an existing one)`
      })
    ])
  })

  it('whose create response is lost is adopted from the server, not the same-named alert of another stack', async () => {
    const other = workspace({ 'a.yaml': search('Theirs') + searchAlert('Theirs') })
    try {
      expect((await obsdeploy(emu, other, 'apply', { stack: 'other' })).exitCode).toBe(0)
    } finally {
      other.cleanup()
    }
    ws.write({ 'a.yaml': search('Errors') + searchAlert('Errors') })
    emu.faults.add({ method: 'POST', path: '/api/v2/alerts', sequence: ['commit-drop'] })
    const apply = await obsdeploy(emu, ws, 'apply')
    expect(apply.exitCode).toBe(0)
    const errorsId = [...emu.selfHosted.savedSearches.values()].find(s => s.name === 'Errors')!.id
    const ours = alerts().filter(a => a.savedSearchId === errorsId)
    expect(ours).toHaveLength(1)
    expect(alerts()).toHaveLength(2)
    expect(apply.apply!.outcomes.find(o => o.kind === 'Alert')).toMatchObject({
      status: 'adopted',
      id: ours[0]!.id
    })
  })
})

describe('a tile alert whose create response is lost', () => {
  it('is adopted from the server: not another alert on its tile, nor the same-named one of another stack', async () => {
    const other = workspace({
      'a.yaml': dashboard('Theirs', timeTile('Errors', 0, 0)) + alert('First', 'Theirs', 'Errors')
    })
    try {
      expect((await obsdeploy(emu, other, 'apply', { stack: 'other' })).exitCode).toBe(0)
    } finally {
      other.cleanup()
    }
    // Another alert of ours on the same tile, listed before the new one.
    const board = dashboard('A', timeTile('Errors', 0, 0)) + alert('Second', 'A', 'Errors')
    ws.write({ 'a.yaml': board })
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    ws.write({ 'a.yaml': board + alert('First', 'A', 'Errors') })
    emu.faults.add({ method: 'POST', path: '/api/v2/alerts', sequence: ['commit-drop'] })
    const apply = await obsdeploy(emu, ws, 'apply')
    expect(apply.exitCode).toBe(0)
    const ours = alerts().filter(a => a.dashboardId === dashboardId('A') && a.name === 'First')
    expect(ours).toHaveLength(1)
    expect(alerts()).toHaveLength(3)
    expect(apply.apply!.outcomes.find(o => o.kind === 'Alert' && o.name === 'First')).toMatchObject({
      status: 'adopted',
      id: ours[0]!.id
    })
  })
})

describe('a live alert without some fields', () => {
  it('without a source is a tile alert: nothing to change', async () => {
    ws.write({ 'a.yaml': dashboard('A', timeTile('Errors', 0, 0)) + alert('First', 'A', 'Errors') })
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    delete (alerts()[0]! as unknown as Record<string, unknown>).source
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(plan.plan!.changes.find(c => c.kind === 'Alert')).toMatchObject({ action: 'noop', fields: [] })
  })

  it('without a channel shows the channel the manifest adds, from nothing', async () => {
    ws.write({ 'a.yaml': dashboard('A', timeTile('Errors', 0, 0)) + alert('First', 'A', 'Errors') })
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    const live = alerts()[0]! as unknown as Record<string, unknown>
    delete live.channel
    delete live.channels
    const plan = await obsdeploy(emu, ws, 'plan')
    const change = plan.plan!.changes.find(c => c.kind === 'Alert')!
    expect(change.action).toBe('update')
    expect(change.fields).toEqual([{ path: 'channels', after: ['ops-pager'] }])
  })
})

describe('thresholdMax, which a PUT that omits it keeps', () => {
  it('kept on the server while the manifest leaves it out; a new value shows and is sent, with the message, note and window count', async () => {
    ws.write({ 'a.yaml': dashboard('A', timeTile('Errors', 0, 0)) + alert('First', 'A', 'Errors') })
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    // Set in the UI on an "above" alert: the manifest does not say, and the server would keep it anyway.
    Object.assign(alerts()[0]!, { thresholdMax: 100 })
    const unchanged = await obsdeploy(emu, ws, 'plan')
    expect(unchanged.plan!.changes.find(c => c.kind === 'Alert')).toMatchObject({ action: 'noop' })
    const between = alert('First', 'A', 'Errors', 10).replace(
      'thresholdType: above',
      'thresholdType: between\nthresholdMax: 200\nmessage: Errors are up\nnote: See the runbook\nnumConsecutiveWindows: 3'
    )
    ws.write({ 'a.yaml': dashboard('A', timeTile('Errors', 0, 0)) + between })
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(plan.plan!.changes.find(c => c.kind === 'Alert')!.fields).toEqual([
      { path: 'message', after: 'Errors are up' },
      { path: 'note', after: 'See the runbook' },
      { path: 'numConsecutiveWindows', after: 3 },
      { path: 'thresholdMax', before: 100, after: 200 },
      { path: 'thresholdType', before: 'above', after: 'between' }
    ])
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    expect(alerts()[0]).toMatchObject({
      thresholdType: 'between',
      thresholdMax: 200,
      message: 'Errors are up',
      note: 'See the runbook',
      numConsecutiveWindows: 3
    })
    expect(actions(await obsdeploy(emu, ws, 'plan'))).toEqual([])
  })
})

describe('values the server stores in its own form', () => {
  it('a default window count and offset, and a start date without milliseconds, plan nothing once applied', async () => {
    const written = alert('First', 'A', 'Errors').replace(
      'interval: 5m',
      "interval: 5m\nnumConsecutiveWindows: 1\nscheduleOffsetMinutes: 0\nscheduleStartAt: '2026-03-01T10:00:00Z'"
    )
    ws.write({ 'a.yaml': dashboard('A', timeTile('Errors', 0, 0)) + written })
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    expect(alerts()[0]).toMatchObject({ scheduleStartAt: '2026-03-01T10:00:00.000Z' })
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(plan.plan!.changes.find(c => c.kind === 'Alert')).toMatchObject({ action: 'noop', fields: [] })
    // Nothing kept that the manifest cannot express: no notice either.
    expect(plan.diagnostics).toEqual([])
    // A server that returns the defaults for what the manifest leaves out: still no change.
    ws.write({
      'a.yaml':
        dashboard('A', timeTile('Errors', 0, 0)) +
        written.replace('numConsecutiveWindows: 1\n', '').replace('scheduleOffsetMinutes: 0\n', '')
    })
    Object.assign(alerts()[0]!, { numConsecutiveWindows: 1, scheduleOffsetMinutes: 0 })
    expect((await obsdeploy(emu, ws, 'plan')).plan!.changes.find(c => c.kind === 'Alert')!.fields).toEqual([])
    // Another instant is a change.
    ws.write({
      'a.yaml':
        dashboard('A', timeTile('Errors', 0, 0)) +
        written
          .replace('2026-03-01T10:00:00Z', '2026-03-01T11:00:00Z')
          .replace('numConsecutiveWindows: 1', 'numConsecutiveWindows: 2')
    })
    expect((await obsdeploy(emu, ws, 'plan')).plan!.changes.find(c => c.kind === 'Alert')!.fields).toEqual([
      { path: 'numConsecutiveWindows', after: 2 },
      { path: 'scheduleStartAt', before: '2026-03-01T10:00:00.000Z', after: '2026-03-01T11:00:00.000Z' }
    ])
  })
})

describe('a schedule offset', () => {
  it('set by the manifest is sent on create and on update', async () => {
    const withOffset = (n: number) =>
      dashboard('A', timeTile('Errors', 0, 0)) +
      alert('First', 'A', 'Errors').replace('interval: 5m', `interval: 15m\nscheduleOffsetMinutes: ${n}`)
    ws.write({ 'a.yaml': withOffset(2) })
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    expect(alerts()[0]).toMatchObject({ scheduleOffsetMinutes: 2 })
    ws.write({ 'a.yaml': withOffset(7) })
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    expect(alerts()[0]).toMatchObject({ scheduleOffsetMinutes: 7 })
  })
})

describe('managed channels in the plan', () => {
  const managed = { mode: 'managed', 'managed-prefix': 'clickstack' }
  const searchAlertOn = (name: string, channel: string) =>
    searchAlert('Errors')
      .replace('name: Burst', `name: ${name}`)
      .replace('channel: { type: webhook, webhook: ops-pager }', `channel: ${channel}`)
  const files = (mail: string, severity: string, webhook = 'ops-pager') => ({
    'a.yaml':
      search('Errors') +
      searchAlertOn('Mail', `{ type: email, emailRecipients: [${mail}] }`) +
      searchAlertOn('Page', `{ type: webhook, webhook: ${webhook}, severity: ${severity} }`)
  })

  it('show an email recipient and a webhook extra that change, by recipient and by webhook name', async () => {
    ws.write(files('oncall@example.com', 'critical'))
    expect((await obsdeploy(emu, ws, 'apply', managed)).exitCode).toBe(0)
    ws.write(files('ops@example.com', 'warning', 'team-slack'))
    const plan = await obsdeploy(emu, ws, 'plan', managed)
    const fields = (name: string) => plan.plan!.changes.find(c => c.name === name)!.fields
    expect(fields('Mail')).toEqual([
      { path: 'channels[0].email[0]', before: 'oncall@example.com', after: 'ops@example.com' }
    ])
    expect(fields('Page')).toEqual([
      { path: 'channels[0].severity', before: 'critical', after: 'warning' },
      { path: 'channels[0].webhook', before: 'ops-pager', after: 'team-slack' }
    ])
  })
})

describe('two owned alerts of one name (a duplicate made by hand)', () => {
  const board = dashboard('A', timeTile('Errors', 0, 0) + timeTile('Warnings', 6, 0, 'level:warn'))

  /** Applies First on Errors, then copies it with a lower id: first in id order, last in the server's list. */
  async function duplicated(tile: 'Errors' | 'Warnings') {
    ws.write({ 'a.yaml': board + alert('First', 'A', 'Errors') })
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    const original = alerts()[0]!
    const tileId = [...emu.selfHosted.dashboards.values()][0]!.tiles.find(t => t.name === tile)!.id
    const duplicate = { ...structuredClone(original), id: '000000000000000000000001', tileId }
    emu.selfHosted.alerts.set(duplicate.id, duplicate)
    return { original, duplicate }
  }
  const alertChanges = async () =>
    (await obsdeploy(emu, ws, 'plan', { prune: 'true' }))
      .plan!.changes.filter(c => c.kind === 'Alert')
      .map(c => [c.action, c.id])
      .sort()

  it('keeps the one on the manifest tile and shows the other as the one to delete', async () => {
    // The duplicate on another tile: only the tile decides.
    const { original, duplicate } = await duplicated('Warnings')
    expect(await alertChanges()).toEqual([
      ['delete', duplicate.id],
      ['noop', original.id]
    ])
  })

  it('neither on the manifest tile: replaces the one of the lowest id, whatever order the server lists them in', async () => {
    const { original, duplicate } = await duplicated('Errors')
    ws.write({ 'a.yaml': board + alert('First', 'A', 'Warnings') })
    expect(await alertChanges()).toEqual([
      ['delete', original.id],
      ['replace', duplicate.id]
    ])
  })
})

describe('what the plan says of alerts whose tile or dashboard changes', () => {
  it('a move, a removed tile, a removed dashboard: replace or delete, and why, in words', async () => {
    const a = (tiles: string[]) =>
      dashboard(
        'A',
        tiles.map((t, i) => timeTile(t, (i % 2) * 6, Math.floor(i / 2) * 3, `service:${t}`)).join('')
      )
    ws.write({
      'a.yaml':
        a(['Errors', 'Warnings', 'Old', 'Latency']) +
        alert('One', 'A', 'Errors') +
        alert('Two', 'A', 'Warnings') +
        alert('Four', 'A', 'Old'),
      'b.yaml': dashboard('B', timeTile('Errors', 0, 0)) + alert('Three', 'B', 'Errors')
    })
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    ws.remove('b.yaml')
    ws.write({
      'a.yaml':
        a(['Errors', 'Failures', 'Latency']) + alert('One', 'A', 'Latency') + alert('Two', 'A', 'Failures')
    })
    const plan = await obsdeploy(emu, ws, 'plan', { prune: 'true' })
    const byName = Object.fromEntries(
      plan
        .plan!.changes.filter(c => c.kind === 'Alert')
        .map(c => [c.name, [c.action, c.droppedByServer ?? false, c.notes]])
    )
    expect(byName).toEqual({
      One: [
        'replace',
        false,
        ['it moves to tile "Latency" of "A": deleted and created again there (new alert id)']
      ],
      Two: [
        'replace',
        true,
        [
          'the server deletes this alert when its current tile goes away; it is created again on tile "Failures" (new alert id)'
        ]
      ],
      Three: [
        'delete',
        true,
        [
          'no longer in the manifests (prune is on)',
          'its dashboard is deleted, and the server deletes its alerts with it'
        ]
      ],
      Four: [
        'delete',
        true,
        [
          'no longer in the manifests (prune is on)',
          'its tile goes away, and the server deletes the alerts of a removed tile'
        ]
      ]
    })
    expect((await obsdeploy(emu, ws, 'apply', { prune: 'true' })).exitCode).toBe(0)
    const tiles = [...emu.selfHosted.dashboards.values()][0]!.tiles
    const tileOf = (id: unknown) => tiles.find(t => t.id === id)?.name
    expect(
      alerts()
        .map(x => [x.name, tileOf(x.tileId)])
        .sort()
    ).toEqual([
      ['One', 'Latency'],
      ['Two', 'Failures']
    ])
  })
})
