import { describe, expect, it } from '@jest/globals'
import {
  actions,
  alert,
  dashboard,
  errors,
  obsdeploy,
  timeTile,
  useScenario,
  workspace
} from '../support/harness.js'
import { reportOf } from '../../src/report/input.js'
import { renderMarkdown } from '../../src/report/markdown.js'

const { emu, ws } = useScenario()

const checkout = (where = 'level:error', extra = '') =>
  dashboard(
    'Checkout',
    timeTile('Errors', 0, 0, where) + timeTile('Latency', 6, 0, 'service:checkout'),
    extra
  ) + alert('Checkout errors', 'Checkout', 'Errors')

const stored = () => [...emu.selfHosted.dashboards.values()]
const storedAlerts = () => [...emu.selfHosted.alerts.values()]

describe('plan and apply against the emulator', () => {
  it('creates from empty, and a second plan is empty', async () => {
    ws.write({ 'checkout.yaml': checkout() })
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(actions(plan)).toEqual(['create Alert/Checkout errors', 'create Dashboard/Checkout'])
    expect(plan.outputs).toMatchObject({ hasChanges: true, creates: 2, updates: 0, deletes: 0 })
    expect(stored()).toHaveLength(0) // plan changes nothing

    const apply = await obsdeploy(emu, ws, 'apply')
    expect(apply.exitCode).toBe(0)
    expect(stored().map(d => d.name)).toEqual(['Checkout'])
    expect(stored()[0]!.tags).toContain('obsdeploy:shop')
    const tile = stored()[0]!.tiles.find(t => t.name === 'Errors')!
    expect(storedAlerts()).toMatchObject([
      { name: 'Checkout errors', dashboardId: stored()[0]!.id, tileId: tile.id }
    ])

    const again = await obsdeploy(emu, ws, 'plan')
    expect(actions(again)).toEqual([])
    expect(again.outputs.hasChanges).toBe(false)
  })

  it('keeps tile ids and the alert when a query changes', async () => {
    ws.write({ 'checkout.yaml': checkout() })
    await obsdeploy(emu, ws, 'apply')
    const before = stored()[0]!
    const tileId = before.tiles.find(t => t.name === 'Errors')!.id
    const alertId = storedAlerts()[0]!.id

    ws.write({ 'checkout.yaml': checkout('level:error OR level:fatal') })
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(actions(plan)).toEqual(['update Dashboard/Checkout'])
    const change = plan.plan!.changes.find(c => c.kind === 'Dashboard')!
    expect(change.fields).toEqual([
      { path: 'tiles["Errors"].series[0].where', before: 'level:error', after: 'level:error OR level:fatal' }
    ])
    await obsdeploy(emu, ws, 'apply')
    const after = stored()[0]!
    expect(after.id).toBe(before.id)
    expect(after.tiles.find(t => t.name === 'Errors')!.id).toBe(tileId)
    expect(storedAlerts().map(a => a.id)).toEqual([alertId])
    expect(actions(await obsdeploy(emu, ws, 'plan'))).toEqual([])
  })

  it('treats reordered tiles as no change, and moved tiles as a layout update that keeps ids', async () => {
    ws.write({ 'checkout.yaml': checkout() })
    await obsdeploy(emu, ws, 'apply')
    const ids = Object.fromEntries(stored()[0]!.tiles.map(t => [t.name, t.id]))

    // Same tiles, other order in the file: the layout is x/y, not list order.
    ws.write({
      'checkout.yaml':
        dashboard('Checkout', timeTile('Latency', 6, 0, 'service:checkout') + timeTile('Errors', 0, 0)) +
        alert('Checkout errors', 'Checkout', 'Errors')
    })
    expect(actions(await obsdeploy(emu, ws, 'plan'))).toEqual([])

    // Swap their positions: an update of x, ids kept.
    ws.write({
      'checkout.yaml':
        dashboard('Checkout', timeTile('Latency', 0, 0, 'service:checkout') + timeTile('Errors', 6, 0)) +
        alert('Checkout errors', 'Checkout', 'Errors')
    })
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(plan.plan!.changes.find(c => c.kind === 'Dashboard')!.fields.map(f => f.path)).toEqual([
      'tiles["Errors"].x',
      'tiles["Latency"].x'
    ])
    await obsdeploy(emu, ws, 'apply')
    expect(Object.fromEntries(stored()[0]!.tiles.map(t => [t.name, t.id]))).toEqual(ids)
    expect(storedAlerts()).toHaveLength(1)
  })

  it('keeps the dashboard id across a rename with renamedFrom', async () => {
    ws.write({ 'checkout.yaml': checkout() })
    await obsdeploy(emu, ws, 'apply')
    const { id } = stored()[0]!
    const alertId = storedAlerts()[0]!.id

    ws.write({
      'checkout.yaml':
        dashboard(
          'Checkout v2',
          timeTile('Errors', 0, 0) + timeTile('Latency', 6, 0, 'service:checkout'),
          'renamedFrom: Checkout\n'
        ) + alert('Checkout errors', 'Checkout v2', 'Errors')
    })
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(actions(plan)).toEqual(['update Dashboard/Checkout v2'])
    expect(plan.plan!.changes[0]!.fields).toEqual([
      { path: 'name', before: 'Checkout', after: 'Checkout v2' }
    ])
    await obsdeploy(emu, ws, 'apply')
    expect(stored().map(d => [d.id, d.name])).toEqual([[id, 'Checkout v2']])
    expect(storedAlerts().map(a => a.id)).toEqual([alertId])
  })

  it('never guesses a rename: without renamedFrom it is a create plus a delete (with prune), and the alert a replace', async () => {
    ws.write({ 'checkout.yaml': checkout() })
    await obsdeploy(emu, ws, 'apply')
    const oldId = stored()[0]!.id
    ws.write({
      'checkout.yaml':
        dashboard('Checkout v2', timeTile('Errors', 0, 0) + timeTile('Latency', 6, 0, 'service:checkout')) +
        alert('Checkout errors', 'Checkout v2', 'Errors')
    })

    const withoutPrune = await obsdeploy(emu, ws, 'plan')
    const create = withoutPrune.plan!.changes.find(c => c.name === 'Checkout v2')!
    expect(create.action).toBe('create')
    expect(create.notes).toEqual([
      'looks like a rename of "Checkout": add `renamedFrom: "Checkout"` to keep its id and alerts'
    ])
    expect(withoutPrune.plan!.changes.find(c => c.name === 'Checkout')).toMatchObject({
      action: 'delete',
      deferred: 'prune'
    })

    const withPrune = await obsdeploy(emu, ws, 'plan', { prune: 'true' })
    expect(actions(withPrune)).toEqual([
      'create Dashboard/Checkout v2',
      'delete Dashboard/Checkout',
      'replace Alert/Checkout errors'
    ])
    expect(withPrune.plan!.changes.find(c => c.name === 'Checkout')!.id).toBe(oldId)
    // The server deletes the alert with its dashboard; the plan creates it again on the new one.
    expect(withPrune.plan!.changes.find(c => c.kind === 'Alert')).toMatchObject({
      action: 'replace',
      droppedByServer: true
    })
    expect(withPrune.outputs).toMatchObject({ creates: 1, updates: 1, deletes: 1 })

    const apply = await obsdeploy(emu, ws, 'apply', { prune: 'true' })
    expect(apply.exitCode).toBe(0)
    expect(stored().map(d => d.name)).toEqual(['Checkout v2'])
    expect(stored()[0]!.id).not.toBe(oldId)
    expect(storedAlerts()).toMatchObject([{ name: 'Checkout errors', dashboardId: stored()[0]!.id }])
    expect(actions(await obsdeploy(emu, ws, 'plan', { prune: 'true' }))).toEqual([])
  })

  it('names every dashboard it deletes: three new dashboards with the tiles of three removed ones are 3 creates and 3 deletes', async () => {
    const tiles = timeTile('Errors', 0, 0) + timeTile('Latency', 6, 0, 'service:checkout')
    ws.write({
      'old.yaml': ['Ads', 'Reviews', 'Search'].map(name => dashboard(name, tiles)).join('---\n')
    })
    await obsdeploy(emu, ws, 'apply')
    ws.remove('old.yaml')
    ws.write({
      'new.yaml': ['Kafka service', 'Payments', 'Billing'].map(name => dashboard(name, tiles)).join('---\n')
    })

    const plan = await obsdeploy(emu, ws, 'plan', { prune: 'true' })
    expect(actions(plan)).toEqual([
      'create Dashboard/Billing',
      'create Dashboard/Kafka service',
      'create Dashboard/Payments',
      'delete Dashboard/Ads',
      'delete Dashboard/Reviews',
      'delete Dashboard/Search'
    ])
    expect(plan.outputs).toMatchObject({ creates: 3, updates: 0, deletes: 3 })
    // Each create may say what it looks like, never more than once per removed dashboard.
    const hinted = plan
      .plan!.changes.filter(c => c.action === 'create')
      .flatMap(c => c.notes.map(n => /looks like a rename of "([^"]+)"/.exec(n)?.[1]))
    expect(hinted.sort()).toEqual(['Ads', 'Reviews', 'Search'])
    // The warning names each deleted dashboard under its own name.
    const report = renderMarkdown(
      reportOf(
        { command: 'plan', mode: 'self-hosted', stack: 'shop', serviceGate: { open: false, reason: '' } },
        plan
      ),
      { maxLength: 65_000 }
    )
    expect(report.split('\n')[0]).toContain('deletes 3 dashboards ("Ads", "Reviews", "Search")')
    expect(report).toContain('**Plan: 3 to delete, 3 to create.**')
    for (const name of ['Ads', 'Reviews', 'Search'])
      expect(report).toContain(`<summary>🗑️ Dashboard <b>${name}</b>`)

    expect((await obsdeploy(emu, ws, 'apply', { prune: 'true' })).exitCode).toBe(0)
    expect(
      stored()
        .map(d => d.name)
        .sort()
    ).toEqual(['Billing', 'Kafka service', 'Payments'])
  })

  it('lists a removed dashboard as "would be deleted with prune" and deletes it only with prune', async () => {
    ws.write({
      'checkout.yaml': checkout(),
      'cart.yaml': dashboard('Cart', timeTile('Adds', 0, 0, 'service:cart'))
    })
    await obsdeploy(emu, ws, 'apply')
    ws.remove('cart.yaml')

    const plan = await obsdeploy(emu, ws, 'plan')
    expect(actions(plan)).toEqual([])
    expect(plan.plan!.changes.find(c => c.name === 'Cart')).toMatchObject({
      action: 'delete',
      deferred: 'prune'
    })
    expect(plan.outputs.deletes).toBe(0)
    await obsdeploy(emu, ws, 'apply')
    expect(
      stored()
        .map(d => d.name)
        .sort()
    ).toEqual(['Cart', 'Checkout'])

    const pruned = await obsdeploy(emu, ws, 'apply', { prune: 'true' })
    expect(pruned.outputs.deletes).toBe(1)
    expect(stored().map(d => d.name)).toEqual(['Checkout'])
  })

  it('deletes the alerts of a removed tile first, and says the server would have dropped them', async () => {
    ws.write({ 'checkout.yaml': checkout() })
    await obsdeploy(emu, ws, 'apply')
    ws.write({ 'checkout.yaml': dashboard('Checkout', timeTile('Latency', 6, 0, 'service:checkout')) })

    const plan = await obsdeploy(emu, ws, 'plan')
    const dash = plan.plan!.changes.find(c => c.kind === 'Dashboard')!
    expect(dash.notes.join(' ')).toMatch(
      /tile "Errors" is removed; the server deletes its alert "Checkout errors"/
    )
    // Prune is off, but the alert goes with its tile anyway: shown as a delete by the server.
    expect(plan.plan!.changes.find(c => c.kind === 'Alert')).toMatchObject({
      action: 'delete',
      droppedByServer: true
    })
    expect(plan.plan!.changes.find(c => c.kind === 'Alert')!.deferred).toBeUndefined()

    emu.clearLog()
    await obsdeploy(emu, ws, 'apply')
    const writes = emu.requestLog
      .filter(r => r.method !== 'GET')
      .map(r => `${r.method} ${r.path.replace(/[0-9a-f]{24}/g, ':id')}`)
    // POST /mcp: the live read's question whether dashboards can be patched; the dry run of the update
    // (server-validation); a removed tile takes the PUT.
    expect(writes).toEqual([
      'POST /mcp',
      'POST /api/v2/dashboards/validate',
      'DELETE /api/v2/alerts/:id',
      'PUT /api/v2/dashboards/:id'
    ])
    expect(storedAlerts()).toHaveLength(0)
  })

  it('tells a tile rename apart: a new tile, and the alert is recreated on it', async () => {
    ws.write({ 'checkout.yaml': checkout() })
    await obsdeploy(emu, ws, 'apply')
    const oldAlert = storedAlerts()[0]!.id
    ws.write({
      'checkout.yaml':
        dashboard('Checkout', timeTile('Failures', 0, 0) + timeTile('Latency', 6, 0, 'service:checkout')) +
        alert('Checkout errors', 'Checkout', 'Failures')
    })
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(plan.plan!.changes.find(c => c.kind === 'Dashboard')!.notes.join(' ')).toMatch(
      /tile "Errors" renamed to "Failures".*new tile with a new id.*"Checkout errors"/
    )
    expect(plan.plan!.changes.find(c => c.kind === 'Alert')).toMatchObject({
      action: 'replace',
      droppedByServer: true
    })
    await obsdeploy(emu, ws, 'apply')
    const failures = stored()[0]!.tiles.find(t => t.name === 'Failures')!
    expect(storedAlerts()).toMatchObject([{ name: 'Checkout errors', tileId: failures.id }])
    expect(storedAlerts()[0]!.id).not.toBe(oldAlert)
    expect(actions(await obsdeploy(emu, ws, 'plan'))).toEqual([])
  })

  it('refuses to overwrite an unowned dashboard of the same name, and adopts it when asked', async () => {
    const theirs = emu.selfHosted.createDashboard({
      name: 'Checkout',
      tags: ['made-in-ui'],
      tiles: [
        {
          name: 'Errors',
          x: 0,
          y: 0,
          w: 6,
          h: 3,
          config: {
            displayType: 'line',
            sourceId: emu.selfHosted.sources[0]!.id,
            select: [{ aggFn: 'count' }]
          }
        }
      ]
    })
    ws.write({ 'checkout.yaml': checkout() })
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(plan.exitCode).toBe(1)
    const err = plan.diagnostics.find(d => d.stage === 'plan' && d.severity === 'error')!
    expect(err).toMatchObject({ file: 'observability/checkout.yaml', line: 2, field: 'name' })
    expect(err.message).toMatch(
      /already exists \(id [0-9a-f]{24}\) and is not owned by stack "shop".*adopt: true/
    )
    const apply = await obsdeploy(emu, ws, 'apply')
    expect(apply.exitCode).toBe(1)
    expect(errors(apply).join(' ')).toMatch(/nothing was applied/)
    expect(emu.selfHosted.dashboards.get(theirs.id)!.tags).toEqual(['made-in-ui'])

    ws.write({ 'checkout.yaml': checkout('level:error', 'adopt: true\n') })
    const adopt = await obsdeploy(emu, ws, 'plan')
    const change = adopt.plan!.changes.find(c => c.kind === 'Dashboard')!
    expect(change).toMatchObject({ action: 'update', id: theirs.id })
    expect(change.notes.join(' ')).toMatch(/adopts existing dashboard/)
    expect(change.fields).toContainEqual({ path: 'owner', after: 'obsdeploy:shop' })
    await obsdeploy(emu, ws, 'apply')
    // The manifest is the truth for tags: the UI's tag goes, the ownership tag comes.
    expect(change.fields).toContainEqual({ path: 'tags', before: ['made-in-ui'], after: [] })
    expect(emu.selfHosted.dashboards.get(theirs.id)!.tags).toEqual(['obsdeploy:shop'])
    expect(actions(await obsdeploy(emu, ws, 'plan'))).toEqual([])
  })

  it('keeps two stacks side by side without touching each other', async () => {
    const a = workspace({ 'checkout.yaml': checkout() })
    const b = workspace({ 'cart.yaml': dashboard('Cart', timeTile('Adds', 0, 0, 'service:cart')) })
    try {
      await obsdeploy(emu, a, 'apply', { stack: 'team-a', prune: 'true' })
      await obsdeploy(emu, b, 'apply', { stack: 'team-b', prune: 'true' })
      expect(
        stored()
          .map(d => [d.name, d.tags.find(t => t.startsWith('obsdeploy:'))])
          .sort()
      ).toEqual([
        ['Cart', 'obsdeploy:team-b'],
        ['Checkout', 'obsdeploy:team-a']
      ])
      // Each stack's prune sees only its own dashboards.
      expect(actions(await obsdeploy(emu, a, 'plan', { stack: 'team-a', prune: 'true' }))).toEqual([])
      expect(actions(await obsdeploy(emu, b, 'plan', { stack: 'team-b', prune: 'true' }))).toEqual([])
      // And a name taken by the other stack is a collision, not an update.
      b.write({ 'checkout.yaml': dashboard('Checkout', timeTile('Adds', 0, 0)) })
      const clash = await obsdeploy(emu, b, 'plan', { stack: 'team-b', prune: 'true' })
      expect(errors(clash).join(' ')).toMatch(/not owned by stack "team-b" \(it carries obsdeploy:team-a\)/)
    } finally {
      a.cleanup()
      b.cleanup()
    }
  })

  it('refuses to apply a saved plan when what it depends on changed since, and ignores what it does not', async () => {
    ws.write({ 'checkout.yaml': checkout() })
    await obsdeploy(emu, ws, 'apply')
    ws.write({ 'checkout.yaml': checkout('level:fatal') })
    await obsdeploy(emu, ws, 'plan', { 'plan-path': 'saved.json' })
    // Another team's dashboard appears: not something this plan looked at.
    emu.selfHosted.createDashboard({ name: 'Hand made', tiles: [] })
    // Someone edits our dashboard in the UI in between.
    const d = stored().find(x => x.name === 'Checkout')!
    emu.selfHosted.updateDashboard(d.id, {
      name: d.name,
      tags: d.tags,
      tiles: d.tiles.map(t => ({ ...t, h: t.h + 1 }))
    })
    const apply = await obsdeploy(emu, ws, 'apply', { 'saved-plan': 'saved.json', 'plan-path': 'now.json' })
    expect(apply.exitCode).toBe(1)
    expect(errors(apply).join(' ')).toMatch(/live state changed since the saved plan/)

    await obsdeploy(emu, ws, 'plan', { 'plan-path': 'saved.json' })
    emu.selfHosted.createDashboard({ name: 'Another hand made', tiles: [] })
    const ok = await obsdeploy(emu, ws, 'apply', { 'saved-plan': 'saved.json', 'plan-path': 'now.json' })
    expect(ok.exitCode).toBe(0)
  })

  it('compares with the saved plan before writing the new one, when both are the same file', async () => {
    ws.write({ 'checkout.yaml': checkout() })
    await obsdeploy(emu, ws, 'apply')
    ws.write({ 'checkout.yaml': checkout('level:fatal') })
    await obsdeploy(emu, ws, 'plan', { 'plan-path': 'plan.json' })
    const d = stored().find(x => x.name === 'Checkout')!
    emu.selfHosted.updateDashboard(d.id, {
      name: d.name,
      tags: d.tags,
      tiles: d.tiles.map(t => ({ ...t, h: t.h + 1 }))
    })
    const apply = await obsdeploy(emu, ws, 'apply', { 'saved-plan': 'plan.json', 'plan-path': 'plan.json' })
    expect(apply.exitCode).toBe(1)
    expect(errors(apply).join(' ')).toMatch(/live state changed since the saved plan/)
  })

  it('reports drift after a change by hand, and exits non-zero', async () => {
    ws.write({ 'checkout.yaml': checkout() })
    await obsdeploy(emu, ws, 'apply')
    expect((await obsdeploy(emu, ws, 'drift')).exitCode).toBe(0)
    const d = stored()[0]!
    emu.selfHosted.updateDashboard(d.id, {
      name: d.name,
      tags: d.tags,
      tiles: d.tiles.map(t => (t.name === 'Errors' ? { ...t, w: 12 } : t))
    })
    const drift = await obsdeploy(emu, ws, 'drift')
    expect(drift.exitCode).toBe(1)
    expect(drift.outputs.hasChanges).toBe(true)
    expect(drift.plan!.changes.find(c => c.kind === 'Dashboard')!.fields).toEqual([
      { path: 'tiles["Errors"].w', before: 12, after: 6 }
    ])
  })

  it('reports an unknown data source or webhook name at its manifest line', async () => {
    ws.write({
      'checkout.yaml':
        dashboard('Checkout', timeTile('Errors', 0, 0).replace('source: Logs', 'source: Logz')) +
        alert('A', 'Checkout', 'Errors').replace('ops-pager', 'ops-pagr')
    })
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(plan.exitCode).toBe(1)
    const planErrors = plan.diagnostics.filter(d => d.stage === 'plan')
    expect(planErrors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          line: 11,
          field: 'tiles[0].series[0].source',
          message: 'no data source named "Logz" (did you mean "Logs"?)'
        }),
        expect.objectContaining({
          field: 'channel.webhook',
          message: 'no webhook named "ops-pagr" (did you mean "ops-pager"?)'
        })
      ])
    )
  })

  it('a channel and a schedule offset added in the UI show, and the update takes them away', async () => {
    ws.write({ 'checkout.yaml': checkout() })
    await obsdeploy(emu, ws, 'apply')
    const a = storedAlerts()[0]!
    const slack = emu.selfHosted.webhooks.find(w => w.name === 'team-slack')!.id
    // A teammate adds a second channel and a schedule offset in the UI.
    Object.assign(a, {
      channels: [a.channel, { type: 'webhook', webhookId: slack }],
      scheduleOffsetMinutes: 2
    })
    ws.write({
      'checkout.yaml':
        dashboard('Checkout', timeTile('Errors', 0, 0) + timeTile('Latency', 6, 0, 'service:checkout')) +
        alert('Checkout errors', 'Checkout', 'Errors', 20)
    })
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(plan.plan!.changes.find(c => c.kind === 'Alert')!.fields).toEqual([
      { path: 'channels', before: ['ops-pager', 'team-slack'], after: ['ops-pager'] },
      { path: 'scheduleOffsetMinutes', before: 2 },
      { path: 'threshold', before: 10, after: 20 }
    ])
    await obsdeploy(emu, ws, 'apply')
    expect(storedAlerts()[0]).toMatchObject({ threshold: 20, scheduleOffsetMinutes: 0 })
    expect(storedAlerts()[0]!.channels.map(c => c.webhookId)).toEqual([a.channel.webhookId])
    expect(actions(await obsdeploy(emu, ws, 'plan'))).toEqual([])
  })

  it('takes a dashboard away from another stack when adopting it: one owner, whose prune alone governs its alerts', async () => {
    const b = workspace({ 'shared.yaml': dashboard('Shared', timeTile('Errors', 0, 0)) })
    try {
      await obsdeploy(emu, b, 'apply', { stack: 'team-b', prune: 'true' })
      ws.write({
        'shared.yaml':
          dashboard('Shared', timeTile('Errors', 0, 0), 'adopt: true\n') +
          alert('A alert', 'Shared', 'Errors')
      })
      const adopt = await obsdeploy(emu, ws, 'plan', { stack: 'team-a', prune: 'true' })
      expect(adopt.plan!.changes.find(c => c.kind === 'Dashboard')!.notes.join(' ')).toMatch(
        /from obsdeploy:team-b: this stack takes ownership and removes that tag/
      )
      await obsdeploy(emu, ws, 'apply', { stack: 'team-a', prune: 'true' })
      expect(stored()[0]!.tags).toEqual(['obsdeploy:team-a'])
      // Team B no longer owns it: its next apply neither prunes team A's alert nor reverts the dashboard;
      // it reports the name as taken instead.
      const bAgain = await obsdeploy(emu, b, 'apply', { stack: 'team-b', prune: 'true' })
      expect(bAgain.exitCode).toBe(1)
      expect(errors(bAgain).join(' ')).toMatch(/not owned by stack "team-b" \(it carries obsdeploy:team-a\)/)
      expect(storedAlerts().map(x => x.name)).toEqual(['A alert'])
    } finally {
      b.cleanup()
    }
  })

  it('pairs id pins before names, whatever the file order', async () => {
    ws.write({ 'checkout.yaml': checkout() })
    await obsdeploy(emu, ws, 'apply')
    const { id } = stored()[0]!
    // "Checkout v2" pins Checkout's id; a new "Checkout" comes first in file order.
    ws.write({
      'a.yaml': dashboard('Checkout', timeTile('New', 0, 0)),
      'checkout.yaml':
        dashboard(
          'Checkout v2',
          timeTile('Errors', 0, 0) + timeTile('Latency', 6, 0, 'service:checkout'),
          `id: "${id}"\n`
        ) + alert('Checkout errors', 'Checkout v2', 'Errors')
    })
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(errors(plan)).toEqual([])
    expect(actions(plan)).toEqual(['create Dashboard/Checkout', 'update Dashboard/Checkout v2'])
    expect(plan.plan!.changes.find(c => c.name === 'Checkout v2')!.id).toBe(id)
  })
})
