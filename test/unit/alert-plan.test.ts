/**
 * The alert kind without a server (src/kinds/alert.ts): which live alert a manifest means, what the plan says
 * of it (its fields in the form the server stores, replaces and server-side deletes in words, errors at their
 * field), and what its apply sends, in what order. A stand-in server stores what it is sent (dashboards with
 * tile ids, alerts, saved searches, the registry) as the real one does, so a test applies manifests, edits
 * the stored records as a user would in the UI, and plans again.
 */
import { describe, expect, it } from '@jest/globals'
import { UnknownOutcomeError } from '../../src/api/errors.js'
import type { LiveAlert, LiveDashboard, LiveSavedSearch } from '../../src/api/schemas.js'
import { applyPlan } from '../../src/apply/apply.js'
import { alertKind } from '../../src/kinds/alert.js'
import { MANAGED_ALERT_FIELDS } from '../../src/kinds/managed-request.js'
import type { ApplyResult } from '../../src/apply/types.js'
import type { ApplyContext, LiveState } from '../../src/kinds/kind.js'
import { silentLogger, type Logger } from '../../src/log.js'
import { readLiveState } from '../../src/live/read.js'
import { validateText } from '../../src/manifest/load.js'
import type { Change } from '../../src/plan/types.js'
import { computePlan, type PlanOutcome } from '../../src/planner/planner.js'
import { shopSettings } from '../support/shop-stack.js'

const SOURCES = [{ id: 'src-logs', name: 'Logs', kind: 'log' }]
const WEBHOOKS = [
  { id: 'wh-pager', name: 'ops-pager', service: 'generic' },
  { id: 'wh-slack', name: 'team-slack', service: 'slack' },
  { id: 'wh-mail', name: 'team-mail', service: 'generic' }
]
const PAGER = { type: 'webhook', webhookId: 'wh-pager' }

const settings = shopSettings
const MANAGED = settings({ mode: 'managed' })
const NO_PRUNE = settings({ prune: false })

const tile = (name: string, y: number) =>
  `  - name: ${JSON.stringify(name)}\n    x: 0\n    y: ${y}\n    w: 6\n    h: 3\n` +
  '    config:\n      displayType: line\n      source: Logs\n      select: [{ aggFn: count }]\n'
const dashboard = (name: string, tiles: string[], extra = '') =>
  `---\nkind: Dashboard\nname: ${JSON.stringify(name)}\n${extra}tiles:\n${tiles.map((t, i) => tile(t, i * 3)).join('')}`
const PAGER_CHANNEL = 'channel: { type: webhook, webhook: ops-pager }\n'
/** A `channels` list of webhooks by name. */
const channelList = (...webhooks: string[]) =>
  `channels:\n${webhooks.map(w => `  - { type: webhook, webhook: ${w} }\n`).join('')}`
const alert = (name: string, dash: string, onTile: string, more = '', channel = PAGER_CHANNEL) =>
  `---\nkind: Alert\nname: ${JSON.stringify(name)}\ndashboard: ${JSON.stringify(dash)}\ntile: ${JSON.stringify(onTile)}\n` +
  `threshold: 10\nthresholdType: above\ninterval: 5m\n${channel}${more}`
const savedSearch = (name: string, where = 'level:error') =>
  `---\nkind: SavedSearch\nname: ${JSON.stringify(name)}\nsource: Logs\nwhere: '${where}'\n`
const searchAlert = (name: string, on: string, more = '', field = 'savedSearch') =>
  `---\nkind: Alert\nname: ${JSON.stringify(name)}\nsource: saved_search\n${field}: ${JSON.stringify(on)}\n` +
  `threshold: 5\nthresholdType: above\ninterval: 5m\n${PAGER_CHANNEL}${more}`

/** The 1-based line of the first line of `yaml` that starts with `text`, after the `after`th match of it. */
const lineOf = (yaml: string, text: string, nth = 0) =>
  yaml
    .split('\n')
    .map((l, i) => [l, i + 1] as const)
    .filter(([l]) => l.startsWith(text))[nth]![1]

type Body = Record<string, unknown>
/** A request body as the server receives it: JSON, so a field set to undefined is not there. */
const wire = (body: Body): Body => JSON.parse(JSON.stringify(body)) as Body
interface Sent {
  request: string
  body?: Body
}

/**
 * Stores what it is sent (as JSON), with ids, as the server does: an alert's channel list mirrored into `channel`, the
 * window count and offset defaulted, the start date in `toISOString` form. A write waits a turn of the event
 * loop, so two requests on one dashboard at once show in `overlaps`.
 */
class Server {
  readonly dashboards = new Map<string, LiveDashboard>()
  readonly alerts = new Map<string, LiveAlert>()
  readonly savedSearches = new Map<string, LiveSavedSearch>()
  readonly webhooks = new Map(WEBHOOKS.map(w => [w.id, { ...w }]))
  readonly sent: Sent[] = []
  readonly overlaps: string[] = []
  /** By request ("DELETE /alerts/a1"): fail it with this error once, or commit it and lose the answer. */
  readonly faults = new Map<string, Error | 'lose the answer'>()
  private next = 0
  private readonly busy = new Map<string, number>()

  constructor(private readonly tileIds: 'unique' | 'per dashboard' = 'unique') {}

  live(): LiveState {
    return structuredClone({
      Dashboard: [...this.dashboards.values()],
      Alert: [...this.alerts.values()],
      Source: SOURCES,
      Webhook: [...this.webhooks.values()],
      Connection: [],
      SavedSearch: [...this.savedSearches.values()]
    })
  }

  /** The alert of this name, as stored. */
  alert(name: string): LiveAlert {
    return [...this.alerts.values()].find(a => a.name === name)!
  }

  dashboard(name: string): LiveDashboard {
    return [...this.dashboards.values()].find(d => d.name === name)!
  }

  tileId(dashboard: string, name: string): string {
    return String(this.dashboard(dashboard).tiles.find(t => t.name === name)!.id)
  }

  requests(): string[] {
    return this.sent.map(s => s.request)
  }

  private async handle<T>(request: string, dashboardId: unknown, run: () => T, body?: unknown): Promise<T> {
    this.sent.push({ request, ...(body === undefined ? {} : { body: wire(body as Body) }) })
    const key = typeof dashboardId === 'string' ? dashboardId : undefined
    if (key) {
      if (this.busy.get(key)) this.overlaps.push(request)
      this.busy.set(key, (this.busy.get(key) ?? 0) + 1)
    }
    try {
      await new Promise(resolve => setImmediate(resolve))
      const fault = this.faults.get(request)
      this.faults.delete(request)
      if (fault instanceof Error) throw fault
      const result = run()
      if (fault) throw new UnknownOutcomeError({ method: request.split(' ')[0]!, path: '/alerts' }, 'reset')
      return result
    } finally {
      if (key) this.busy.set(key, this.busy.get(key)! - 1)
    }
  }

  private storeDashboard(id: string, body: Body): LiveDashboard {
    const tiles = (body.tiles as Body[]).map((t, i) => ({
      ...t,
      id: t.id ?? (this.tileIds === 'unique' ? `${id}-t${i}` : `tile-${i}`)
    }))
    const d = structuredClone({ tags: [], ...body, id, tiles }) as unknown as LiveDashboard
    this.dashboards.set(id, d)
    return d
  }

  private storeAlert(id: string, body: Body): { id: string } {
    const stored: Body = {
      ...wire(body),
      id,
      numConsecutiveWindows: body.numConsecutiveWindows ?? 1,
      scheduleOffsetMinutes: body.scheduleOffsetMinutes ?? 0,
      scheduleStartAt:
        typeof body.scheduleStartAt === 'string' ? new Date(body.scheduleStartAt).toISOString() : null
    }
    if (Array.isArray(body.channels)) stored.channel = body.channels[0]
    this.alerts.set(id, stored as LiveAlert)
    return { id }
  }

  private gone(map: Map<string, unknown>, id: string): 'deleted' | 'absent' {
    return map.delete(id) ? 'deleted' : 'absent'
  }

  api(): ApplyContext['api'] {
    const alertDashboard = (id: string) => this.alerts.get(id)?.dashboardId
    const api = {
      mode: 'self-hosted',
      createDashboard: (body: Body) =>
        this.handle('POST /dashboards', undefined, () => this.storeDashboard(`d${++this.next}`, body), body),
      updateDashboard: (id: string, body: Body) =>
        this.handle(`PUT /dashboards/${id}`, id, () => this.storeDashboard(id, body), body),
      getDashboard: (id: string) =>
        this.handle(`GET /dashboards/${id}`, undefined, () => structuredClone(this.dashboards.get(id)!)),
      deleteDashboard: (id: string) =>
        this.handle(`DELETE /dashboards/${id}`, id, () => {
          for (const [aid, a] of this.alerts) if (a.dashboardId === id) this.alerts.delete(aid)
          return this.gone(this.dashboards, id)
        }),
      listAlerts: () =>
        this.handle('GET /alerts', undefined, () => structuredClone([...this.alerts.values()])),
      createAlert: (body: Body) =>
        this.handle('POST /alerts', body.dashboardId, () => this.storeAlert(`a${++this.next}`, body), body),
      updateAlert: (id: string, body: Body) =>
        this.handle(`PUT /alerts/${id}`, body.dashboardId, () => this.storeAlert(id, body), body),
      deleteAlert: (id: string) =>
        this.handle(`DELETE /alerts/${id}`, alertDashboard(id), () => this.gone(this.alerts, id)),
      createRecord: (collection: string, body: Body) =>
        this.handle(`POST /${collection}`, undefined, () => {
          const record = { ...structuredClone(body), id: `s${++this.next}` }
          if (collection === 'webhooks') this.webhooks.set(record.id, record as (typeof WEBHOOKS)[number])
          else this.savedSearches.set(record.id, record as LiveSavedSearch)
          return record
        }),
      deleteRecord: (collection: string, id: string) =>
        this.handle(`DELETE /${collection}/${id}`, undefined, () => {
          for (const [aid, a] of this.alerts) if (a.savedSearchId === id) this.alerts.delete(aid)
          return this.gone(this.savedSearches, id)
        })
    }
    const client = { ...api, withSignal: () => client }
    return client as unknown as ApplyContext['api']
  }
}

function plan(server: Server, yaml: string, s = settings()): PlanOutcome {
  const manifests = validateText('a.yaml', yaml, s.mode, {}, { HOOK_URL: 'https://hooks.example.com/x' })
  expect(manifests.diagnostics.filter(d => d.severity === 'error')).toEqual([])
  return computePlan({ command: 'plan', settings: s, manifests, live: server.live(), now: new Date(0) })
}

async function apply(
  server: Server,
  o: PlanOutcome,
  s = settings(),
  concurrency = 1,
  log: Logger = silentLogger
): Promise<ApplyResult> {
  return applyPlan({
    api: server.api(),
    planned: o.planned,
    dashboards: o.dashboards,
    registry: o.registry,
    settings: s,
    concurrency,
    log
  })
}

/** Plans and applies `yaml` without errors; the requests it sent are forgotten. */
async function deploy(server: Server, yaml: string, s = settings()): Promise<void> {
  const o = plan(server, yaml, s)
  expect(errors(o)).toEqual([])
  expect((await apply(server, o, s)).complete).toBe(true)
  server.sent.length = 0
}

const alertChange = (o: PlanOutcome, name: string): Change =>
  o.plan.changes.find(c => c.kind === 'Alert' && c.name === name)!
const alertActions = (o: PlanOutcome) =>
  o.plan.changes.filter(c => c.kind === 'Alert').map(c => [c.name, c.action, c.id])
const errors = (o: PlanOutcome) => o.plan.diagnostics.filter(d => d.severity === 'error')
const outcome = (r: ApplyResult, name: string) => r.outcomes.find(x => x.kind === 'Alert' && x.name === name)

describe('a tile alert', () => {
  const yaml = dashboard('A', ['Errors', 'Latency']) + alert('First', 'A', 'Latency')

  it('is created once its dashboard exists, on the ids the dashboard create returned; planned again, nothing changes', async () => {
    const server = new Server()
    const o = plan(server, yaml)
    const c = alertChange(o, 'First')
    expect(c).toMatchObject({ action: 'create', address: 'Alert/First' })
    expect(c.source).toMatchObject({ line: lineOf(yaml, 'name: "First"'), column: 7 })
    const r = await apply(server, o)
    expect(server.requests()).toEqual(['POST /dashboards', 'POST /alerts'])
    expect(server.sent[1]!.body).toStrictEqual({
      dashboardId: server.dashboard('A').id,
      tileId: server.tileId('A', 'Latency'),
      source: 'tile',
      name: 'First',
      threshold: 10,
      thresholdType: 'above',
      interval: '5m',
      channel: PAGER
    })
    expect(outcome(r, 'First')).toMatchObject({ status: 'applied', id: server.alert('First').id })
    const again = plan(server, yaml)
    expect(alertChange(again, 'First')).toMatchObject({
      action: 'noop',
      fields: [],
      id: server.alert('First').id
    })
  })

  it('on an unchanged dashboard is created on the ids the plan read, and waits for no dashboard request', async () => {
    const server = new Server()
    await deploy(server, dashboard('A', ['Errors', 'Latency']))
    const r = await apply(server, plan(server, yaml))
    expect(server.requests()).toEqual(['POST /alerts'])
    expect(server.sent[0]!.body).toMatchObject({
      dashboardId: server.dashboard('A').id,
      tileId: server.tileId('A', 'Latency')
    })
    expect(r.complete).toBe(true)
  })

  it('sends every setting the manifest sets, and compares each as the server stores it', async () => {
    const server = new Server()
    const full =
      dashboard('A', ['Errors']) +
      alert(
        'Full',
        'A',
        'Errors',
        'thresholdMax: 20\nmessage: Errors are up\nnumConsecutiveWindows: 3\nnote: See the runbook\n' +
          "scheduleStartAt: '2026-03-01T10:00:00Z'\n",
        channelList('ops-pager', 'team-slack')
      ).replace('thresholdType: above', 'thresholdType: between') +
      alert('Offset', 'A', 'Errors', 'scheduleOffsetMinutes: 2\nnumConsecutiveWindows: 1\n').replace(
        'interval: 5m',
        'interval: 15m'
      )
    await apply(server, plan(server, full))
    const bodies = server.sent.filter(s => s.request === 'POST /alerts').map(s => s.body)
    const target = { dashboardId: server.dashboard('A').id, tileId: server.tileId('A', 'Errors') }
    expect(bodies).toStrictEqual([
      {
        ...target,
        source: 'tile',
        name: 'Full',
        threshold: 10,
        thresholdType: 'between',
        interval: '5m',
        channels: [PAGER, { type: 'webhook', webhookId: 'wh-slack' }],
        thresholdMax: 20,
        message: 'Errors are up',
        numConsecutiveWindows: 3,
        note: 'See the runbook',
        scheduleStartAt: '2026-03-01T10:00:00Z'
      },
      {
        ...target,
        source: 'tile',
        name: 'Offset',
        threshold: 10,
        thresholdType: 'above',
        interval: '15m',
        channel: PAGER,
        numConsecutiveWindows: 1,
        scheduleOffsetMinutes: 2
      }
    ])
    // Stored as '2026-03-01T10:00:00.000Z', with the first channel mirrored and the defaults filled in.
    expect(server.alert('Full').scheduleStartAt).toBe('2026-03-01T10:00:00.000Z')
    const again = plan(server, full)
    expect(alertChange(again, 'Full')).toMatchObject({ action: 'noop', fields: [] })
    expect(alertChange(again, 'Offset')).toMatchObject({ action: 'noop', fields: [] })
    expect(again.plan.diagnostics).toEqual([])

    const edited = full
      .replace("'2026-03-01T10:00:00Z'", "'2026-03-01T11:00:00Z'")
      .replace('webhook: team-slack', 'webhook: team-mail')
      .replace('numConsecutiveWindows: 1\n', '')
      .replace('scheduleOffsetMinutes: 2', 'scheduleOffsetMinutes: 0')
    const changed = plan(server, edited)
    expect(alertChange(changed, 'Full')).toMatchObject({
      action: 'update',
      fields: [
        { path: 'channels[1]', before: 'team-slack', after: 'team-mail' },
        { path: 'scheduleStartAt', before: '2026-03-01T10:00:00.000Z', after: '2026-03-01T11:00:00.000Z' }
      ]
    })
    expect(alertChange(changed, 'Offset').fields).toEqual([{ path: 'scheduleOffsetMinutes', before: 2 }])
  })

  it('compares a stored start date that is no date as it is written', async () => {
    const server = new Server()
    const yaml1 = dashboard('A', ['Errors']) + alert('First', 'A', 'Errors')
    await deploy(server, yaml1)
    server.alert('First').scheduleStartAt = 'soon'
    expect(alertChange(plan(server, yaml1), 'First').fields).toEqual([
      { path: 'scheduleStartAt', before: 'soon' }
    ])
  })

  it('keeps a thresholdMax the manifest leaves out: not a change, and not sent', async () => {
    const server = new Server()
    const base = dashboard('A', ['Errors']) + alert('First', 'A', 'Errors')
    await deploy(server, base)
    server.alert('First').thresholdMax = 100
    expect(alertChange(plan(server, base), 'First')).toMatchObject({ action: 'noop', fields: [] })
    const o = plan(server, base.replace('threshold: 10', 'threshold: 12'))
    expect(alertChange(o, 'First').fields).toEqual([{ path: 'threshold', before: 10, after: 12 }])
    await apply(server, o)
    expect(server.requests()).toEqual([`PUT /alerts/${server.alert('First').id}`])
    expect(Object.keys(server.sent[0]!.body!)).not.toContain('thresholdMax')
  })

  it('an update clears the schedule the manifest no longer sets, and sends none the server does not have', async () => {
    const server = new Server()
    const base =
      dashboard('A', ['Errors']) + alert('First', 'A', 'Errors').replace('interval: 5m', 'interval: 15m')
    const withStart = base + "scheduleStartAt: '2026-03-01T10:00:00Z'\n"
    const withOffset = base + 'scheduleOffsetMinutes: 5\n'
    await deploy(server, withStart)
    const id = server.alert('First').id
    const cleared = plan(server, base.replace('threshold: 10', 'threshold: 11'))
    expect(alertChange(cleared, 'First').fields).toEqual([
      { path: 'scheduleStartAt', before: '2026-03-01T10:00:00.000Z' },
      { path: 'threshold', before: 10, after: 11 }
    ])
    await apply(server, cleared)
    expect(server.sent[0]).toMatchObject({ request: `PUT /alerts/${id}`, body: { scheduleStartAt: null } })
    expect(server.sent[0]!.body).not.toHaveProperty('scheduleOffsetMinutes')
    await deploy(server, withOffset)
    await apply(server, plan(server, base))
    expect(server.sent[0]!.body).toMatchObject({ scheduleOffsetMinutes: 0 })
    expect(server.sent[0]!.body).not.toHaveProperty('scheduleStartAt')
    expect(server.alert('First')).toMatchObject({ scheduleOffsetMinutes: 0, scheduleStartAt: null })
  })

  it('is updated in place with the PUT of its id, after its dashboard is updated', async () => {
    const server = new Server()
    await deploy(server, yaml)
    const id = server.alert('First').id
    const o = plan(
      server,
      dashboard('A', ['Errors', 'Latency', 'New']) + alert('First', 'A', 'Latency', 'message: m\n')
    )
    expect(alertChange(o, 'First')).toMatchObject({
      action: 'update',
      id,
      fields: [{ path: 'message', after: 'm' }]
    })
    // Listed alerts first: the order comes from what each request waits for.
    const r = await apply(server, { ...o, planned: [...o.planned].reverse() }, settings(), 4)
    expect(server.requests()).toEqual([`PUT /dashboards/${server.dashboard('A').id}`, `PUT /alerts/${id}`])
    expect(server.sent[1]!.body).toMatchObject({
      name: 'First',
      message: 'm',
      tileId: server.tileId('A', 'Latency')
    })
    expect(outcome(r, 'First')).toMatchObject({ action: 'update', status: 'applied', id })
    expect(server.alerts.size).toBe(1)
  })

  it('keeps its changes when its dashboard is renamed', async () => {
    const server = new Server()
    await deploy(server, yaml)
    const renamed = yaml
      .replace('name: "A"', 'name: "B"\nrenamedFrom: A')
      .replace('dashboard: "A"', 'dashboard: "B"')
    const o = plan(server, renamed)
    expect(o.plan.changes.find(c => c.kind === 'Dashboard')).toMatchObject({ action: 'update' })
    expect(alertChange(o, 'First')).toMatchObject({ action: 'noop', fields: [] })
  })

  it('stored without a source, or with one channel as a list, is still what the manifest says', async () => {
    const server = new Server()
    await deploy(server, yaml)
    const stored = server.alert('First') as Record<string, unknown>
    delete stored.source
    stored.channels = [stored.channel]
    delete stored.channel
    expect(alertChange(plan(server, yaml), 'First')).toMatchObject({ action: 'noop', fields: [] })
    delete stored.channels
    expect(alertChange(plan(server, yaml), 'First').fields).toEqual([
      { path: 'channels', after: ['ops-pager'] }
    ])
  })

  it('stored with a channel of a webhook id no list has, or of no webhook, shows it as read', async () => {
    const server = new Server()
    await deploy(server, yaml)
    server.alert('First').channel = { type: 'webhook', webhookId: 'wh-gone' }
    expect(alertChange(plan(server, yaml), 'First').fields).toEqual([
      { path: 'channels[0]', before: 'wh-gone', after: 'ops-pager' }
    ])
    // A channel without a webhook and without extras is no channel.
    server.alert('First').channel = { type: 'webhook', webhookId: null }
    expect(alertChange(plan(server, yaml), 'First').fields).toEqual([
      { path: 'channels', after: ['ops-pager'] }
    ])
  })
})

describe('the request of an alert', () => {
  it('is not sent when the dashboard response lacks its tile: the create fails, naming both', async () => {
    // A server that answers the dashboard create without the alert's tile: its id is unknown.
    const server = new Server()
    const api = server.api.bind(server)
    server.api = () => {
      const inner = api()
      const client = {
        ...inner,
        createDashboard: async (body: Body) => {
          const d = await inner.createDashboard(body)
          return { ...d, tiles: d.tiles.filter(t => t.name !== 'Latency') }
        },
        withSignal: () => client
      }
      return client
    }
    const yaml = dashboard('A', ['Errors', 'Latency']) + alert('First', 'A', 'Latency')
    const r = await apply(server, plan(server, yaml))
    expect(server.requests()).toEqual(['POST /dashboards'])
    expect(outcome(r, 'First')).toMatchObject({
      status: 'failed',
      message: expect.stringContaining('dashboard "A" or its tile "Latency" has no id yet')
    })
  })

  it('managed: holds only fields of the managed request schema, whatever the alert holds', async () => {
    // A `channels` list is a validation error in managed mode; the request is filtered all the same.
    const yaml =
      dashboard('A', ['Errors']) + alert('Two', 'A', 'Errors', '', channelList('ops-pager', 'team-slack'))
    const keysSent = async (s: ReturnType<typeof settings>) => {
      const server = new Server()
      await apply(server, plan(server, yaml), s)
      return Object.keys(server.sent.find(x => x.request === 'POST /alerts')!.body!)
    }
    expect(await keysSent(settings())).toContain('channels')
    const managed = await keysSent(MANAGED)
    expect(managed.filter(k => !(MANAGED_ALERT_FIELDS as readonly string[]).includes(k))).toEqual([])
    expect(managed).toEqual(expect.arrayContaining(['dashboardId', 'tileId', 'name', 'threshold']))
  })
})

describe('the live alerts', () => {
  it('are read with one list request, into the alerts of the live state', async () => {
    const server = new Server()
    await deploy(
      server,
      dashboard('A', ['Errors']) + alert('One', 'A', 'Errors') + alert('Two', 'A', 'Errors')
    )
    const state = await readLiveState(server.api(), { service: false }, [alertKind])
    expect(server.requests()).toEqual(['GET /alerts'])
    expect(state.Alert.map(a => a.name)).toEqual(['One', 'Two'])
  })
})

describe('which live alert a manifest means', () => {
  const board = dashboard('A', ['Errors', 'Warnings'])

  /** First applied on Errors, then copied by hand onto `tile` with the id `id`. */
  async function duplicated(tileName: string, id: string) {
    const server = new Server()
    await deploy(server, board + alert('First', 'A', 'Errors'))
    const original = server.alert('First')
    const copy = { ...structuredClone(original), id, tileId: server.tileId('A', tileName) }
    return { server, original, copy }
  }

  it('of two of one name, the one on the manifest tile, whatever their ids; the other is deleted', async () => {
    const { server, original, copy } = await duplicated('Warnings', 'a0')
    server.alerts.set(copy.id, copy)
    const o = plan(server, board + alert('First', 'A', 'Errors'))
    expect(alertActions(o)).toEqual([
      ['First', 'noop', original.id],
      ['First', 'delete', copy.id]
    ])
  })

  it('of two of one name on tiles of one id, the one on the manifest dashboard, whatever their ids', async () => {
    const server = new Server('per dashboard')
    const two = dashboard('A', ['Errors']) + dashboard('B', ['Errors'])
    await deploy(server, two + alert('First', 'A', 'Errors'))
    const original = server.alert('First')
    const copy = { ...structuredClone(original), id: 'a0', dashboardId: server.dashboard('B').id }
    expect(copy.tileId).toBe(server.tileId('B', 'Errors'))
    server.alerts.set(copy.id, copy)
    expect(alertActions(plan(server, two + alert('First', 'A', 'Errors')))).toEqual([
      ['First', 'noop', original.id],
      ['First', 'delete', copy.id]
    ])
  })

  it('of two of one name on other tiles, the one of the lowest id, whatever order the server lists them in', async () => {
    for (const first of [true, false]) {
      const { server, original, copy } = await duplicated('Errors', 'a0')
      if (first) {
        server.alerts.delete(original.id)
        server.alerts.set(copy.id, copy)
        server.alerts.set(original.id, original)
      } else server.alerts.set(copy.id, copy)
      const o = plan(server, board + alert('First', 'A', 'Warnings'))
      expect(alertActions(o)).toEqual([
        ['First', 'replace', copy.id],
        ['First', 'delete', original.id]
      ])
    }
  })

  it('of two saved-search alerts of one name, the one on the manifest saved search, whatever their ids', async () => {
    const server = new Server()
    const searches = savedSearch('Errors') + savedSearch('Warnings', 'level:warn')
    await deploy(server, searches + searchAlert('Burst', 'Warnings'))
    const original = server.alert('Burst')
    const errorsId = [...server.savedSearches.values()].find(s => s.name === 'Errors')!.id
    server.alerts.set('a0', { ...structuredClone(original), id: 'a0', savedSearchId: errorsId })
    expect(alertActions(plan(server, searches + searchAlert('Burst', 'Warnings')))).toEqual([
      ['Burst', 'noop', original.id],
      ['Burst', 'delete', 'a0']
    ])
    expect(alertActions(plan(server, searches + searchAlert('Burst', 'Errors')))).toEqual([
      ['Burst', 'noop', 'a0'],
      ['Burst', 'delete', original.id]
    ])
  })

  it('only alerts on dashboards and saved searches this stack owns are ours: others are never paired nor deleted', async () => {
    const server = new Server()
    await deploy(server, board + alert('First', 'A', 'Errors'))
    const mine = server.alert('First')
    // The same names on a dashboard and a saved search of no stack, and an alert on neither.
    server.dashboards.set('theirs', {
      id: 'theirs',
      name: 'Theirs',
      tags: [],
      tiles: [{ id: 'x', name: 'Errors', x: 0, y: 0, w: 6, h: 3 }]
    } as LiveDashboard)
    server.savedSearches.set('ss-theirs', { id: 'ss-theirs', name: 'S', tags: [] } as LiveSavedSearch)
    for (const [id, where] of [
      ['b1', { dashboardId: 'theirs', tileId: 'x' }],
      ['b2', { source: 'saved_search', savedSearchId: 'ss-theirs' }],
      ['b3', { source: 'saved_search', savedSearchId: null }],
      ['b4', { dashboardId: null }]
    ] as const)
      server.alerts.set(id, { ...structuredClone(mine), id, ...where } as LiveAlert)
    server.alerts.delete(mine.id)
    const o = plan(server, board + alert('First', 'A', 'Errors'))
    expect(alertActions(o)).toEqual([['First', 'create', undefined]])
  })

  it('an alert this stack owns that no manifest declares is deleted with prune; without prune it stays', async () => {
    const server = new Server()
    await deploy(server, board + alert('First', 'A', 'Errors') + alert('Second', 'A', 'Warnings'))
    const second = server.alert('Second').id
    const o = plan(server, board + alert('First', 'A', 'Errors'))
    expect(alertChange(o, 'Second')).toMatchObject({ action: 'delete', id: second })
    expect(alertChange(o, 'Second').droppedByServer).toBeUndefined()
    const r = await apply(server, o)
    expect(server.requests()).toEqual([`DELETE /alerts/${second}`])
    expect(outcome(r, 'Second')).toMatchObject({ action: 'delete', status: 'applied', id: second })
    server.sent.length = 0
    await deploy(server, board + alert('First', 'A', 'Errors') + alert('Second', 'A', 'Warnings'))
    const kept = plan(server, board + alert('First', 'A', 'Errors'), NO_PRUNE)
    expect(alertChange(kept, 'Second')).toMatchObject({ action: 'delete', deferred: 'prune' })
    await apply(server, kept, NO_PRUNE)
    expect(server.requests()).toEqual([])
  })
})

describe('an alert whose tile or dashboard changes', () => {
  it('moved to another tile is deleted, then created there; the plan says so', async () => {
    const server = new Server()
    await deploy(server, dashboard('A', ['Errors', 'Latency']) + alert('One', 'A', 'Errors'))
    const old = server.alert('One').id
    const o = plan(server, dashboard('A', ['Errors', 'Latency']) + alert('One', 'A', 'Latency'))
    expect(alertChange(o, 'One')).toMatchObject({
      action: 'replace',
      droppedByServer: false,
      id: old,
      fields: [{ path: 'tile', before: 'Errors', after: 'Latency' }],
      notes: ['it moves to tile "Latency" of "A": deleted and created again there (new alert id)']
    })
    const r = await apply(server, o, settings(), 4)
    expect(server.requests()).toEqual([`DELETE /alerts/${old}`, 'POST /alerts'])
    expect(server.sent[1]!.body).toMatchObject({ tileId: server.tileId('A', 'Latency') })
    expect(outcome(r, 'One')).toMatchObject({
      action: 'replace',
      status: 'applied',
      id: server.alert('One').id
    })
    expect(server.alert('One').id).not.toBe(old)
  })

  it('moved to a dashboard whose tile has the same id is replaced too', async () => {
    const server = new Server('per dashboard')
    const two = dashboard('A', ['Errors']) + dashboard('B', ['Errors'])
    await deploy(server, two + alert('One', 'A', 'Errors'))
    expect(server.tileId('A', 'Errors')).toBe(server.tileId('B', 'Errors'))
    const o = plan(server, two + alert('One', 'B', 'Errors'))
    expect(alertChange(o, 'One')).toMatchObject({
      action: 'replace',
      fields: [{ path: 'dashboard', before: 'A', after: 'B' }],
      notes: ['it moves to tile "Errors" of "B": deleted and created again there (new alert id)']
    })
  })

  it('moved to a dashboard this run creates is created on the ids its create returned', async () => {
    const server = new Server()
    await deploy(server, dashboard('A', ['Errors']) + alert('One', 'A', 'Errors'))
    const old = server.alert('One').id
    const o = plan(
      server,
      dashboard('A', ['Errors']) + dashboard('New', ['Other', 'Errors']) + alert('One', 'New', 'Errors')
    )
    expect(alertChange(o, 'One')).toMatchObject({ action: 'replace', droppedByServer: false })
    const r = await apply(server, { ...o, planned: [...o.planned].reverse() }, settings(), 4)
    expect(r.complete).toBe(true)
    expect(server.requests().sort()).toEqual(
      ['DELETE /alerts/' + old, 'POST /alerts', 'POST /dashboards'].sort()
    )
    expect(server.requests().indexOf('POST /alerts')).toBeGreaterThan(
      server.requests().indexOf('POST /dashboards')
    )
    const created = server.sent.find(s => s.request === 'POST /alerts')!.body
    expect(created).toMatchObject({
      dashboardId: server.dashboard('New').id,
      tileId: server.tileId('New', 'Errors')
    })
  })

  it('whose stored tile id matches no tile shows that id, and is put back on its tile', async () => {
    const server = new Server()
    const yaml = dashboard('A', ['Errors']) + alert('One', 'A', 'Errors')
    await deploy(server, yaml)
    server.alert('One').tileId = 'lost'
    expect(alertChange(plan(server, yaml), 'One')).toMatchObject({
      action: 'replace',
      fields: [{ path: 'tile', before: 'lost', after: 'Errors' }]
    })
  })

  it('on a removed tile is replaced (the server deletes it first), or deleted, with or without prune', async () => {
    for (const s of [settings(), NO_PRUNE]) {
      const server = new Server()
      await deploy(
        server,
        dashboard('A', ['Errors', 'Old', 'Gone']) + alert('Two', 'A', 'Old') + alert('Four', 'A', 'Gone')
      )
      const [two, four] = [server.alert('Two').id, server.alert('Four').id]
      const o = plan(server, dashboard('A', ['Errors', 'New']) + alert('Two', 'A', 'New'), s)
      expect(alertChange(o, 'Two')).toMatchObject({
        action: 'replace',
        droppedByServer: true,
        notes: [
          'the server deletes this alert when its current tile goes away; it is created again on tile "New" (new alert id)'
        ]
      })
      const four_ = alertChange(o, 'Four')
      expect(four_).toMatchObject({ action: 'delete', droppedByServer: true })
      expect(four_.deferred).toBeUndefined()
      expect(four_.notes).toContain('its tile goes away, and the server deletes the alerts of a removed tile')
      const r = await apply(server, o, s)
      expect(r.complete).toBe(true)
      const requests = server.requests()
      const update = requests.indexOf(`PUT /dashboards/${server.dashboard('A').id}`)
      // The alerts of a tile go before the update that removes it; the new one waits for the new tile.
      expect(requests.indexOf(`DELETE /alerts/${two}`)).toBeLessThan(update)
      expect(requests.indexOf(`DELETE /alerts/${four}`)).toBeLessThan(update)
      expect(requests.indexOf('POST /alerts')).toBeGreaterThan(update)
      expect([...server.alerts.values()].map(a => [a.name, a.tileId])).toEqual([
        ['Two', server.tileId('A', 'New')]
      ])
    }
  })

  it('on a deleted dashboard is deleted first, even without prune when the server deletes it anyway', async () => {
    const server = new Server()
    await deploy(
      server,
      dashboard('A', ['Errors']) + dashboard('B', ['Errors']) + alert('Three', 'B', 'Errors')
    )
    const three = server.alert('Three').id
    const b = server.dashboard('B').id
    const o = plan(server, dashboard('A', ['Errors']))
    const c = alertChange(o, 'Three')
    expect(c).toMatchObject({ action: 'delete', droppedByServer: true })
    expect(c.notes).toEqual([
      'no longer in the manifests (prune is on)',
      'its dashboard is deleted, and the server deletes its alerts with it'
    ])
    const r = await apply(server, o, settings(), 4)
    expect(server.requests()).toEqual([`DELETE /alerts/${three}`, `DELETE /dashboards/${b}`])
    expect(outcome(r, 'Three')).toMatchObject({ status: 'applied', id: three })
    // Without prune the dashboard stays, and so does its alert.
    const kept = new Server()
    await deploy(
      kept,
      dashboard('A', ['Errors']) + dashboard('B', ['Errors']) + alert('Three', 'B', 'Errors')
    )
    expect(alertChange(plan(kept, dashboard('A', ['Errors']), NO_PRUNE), 'Three')).toMatchObject({
      action: 'delete',
      deferred: 'prune'
    })
  })

  it('already deleted by the server when its delete runs counts as deleted, saying so', async () => {
    const server = new Server()
    await deploy(server, dashboard('A', ['Errors']) + alert('One', 'A', 'Errors'))
    const o = plan(server, dashboard('A', ['Errors']))
    server.alerts.clear()
    const r = await apply(server, o)
    expect(outcome(r, 'One')).toMatchObject({ status: 'applied', message: 'already deleted by the server' })
  })

  it('a failed delete holds back its own create only', async () => {
    const server = new Server()
    await deploy(
      server,
      dashboard('A', ['Errors', 'Latency']) + alert('One', 'A', 'Errors') + alert('Two', 'A', 'Errors')
    )
    const one = server.alert('One').id
    server.faults.set(`DELETE /alerts/${one}`, new Error('HTTP 500: boom'))
    const o = plan(
      server,
      dashboard('A', ['Errors', 'Latency']) + alert('One', 'A', 'Latency') + alert('Two', 'A', 'Latency')
    )
    const r = await apply(server, o, settings(), 4)
    expect(outcome(r, 'One')).toMatchObject({ status: 'failed' })
    expect(outcome(r, 'One')!.message).toBe(
      'delete: HTTP 500: boom; not attempted: Alert/One (delete) failed'
    )
    expect(outcome(r, 'Two')).toMatchObject({ status: 'applied' })
    expect(server.requests().filter(q => q === 'POST /alerts')).toHaveLength(1)
    expect([...server.alerts.values()].map(a => [a.name, a.tileId])).toEqual([
      ['One', server.tileId('A', 'Errors')],
      ['Two', server.tileId('A', 'Latency')]
    ])
  })

  it('a failed alert request names itself: in a replace, and where it holds back the delete of a dashboard', async () => {
    const server = new Server()
    const both = dashboard('A', ['Errors', 'Latency']) + dashboard('B', ['Errors'])
    await deploy(server, both + alert('One', 'A', 'Errors'))
    const one = server.alert('One').id
    const b = server.dashboard('B').id
    const onlyA = dashboard('A', ['Errors', 'Latency'])
    const dashboardOutcome = (r: ApplyResult) => r.outcomes.find(x => x.kind === 'Dashboard')
    server.faults.set(`PUT /alerts/${one}`, new Error('HTTP 400: bad'))
    const updated = await apply(server, plan(server, onlyA + alert('One', 'A', 'Errors', 'message: m\n')))
    expect(outcome(updated, 'One')).toMatchObject({ status: 'failed', message: 'HTTP 400: bad' })
    expect(dashboardOutcome(updated)).toMatchObject({
      status: 'skipped',
      message: 'not attempted: Alert/One (update) failed'
    })
    server.faults.set('POST /alerts', new Error('HTTP 400: bad'))
    const created = await apply(
      server,
      plan(server, onlyA + alert('One', 'A', 'Errors') + alert('Two', 'A', 'Errors'))
    )
    expect(dashboardOutcome(created)).toMatchObject({ message: 'not attempted: Alert/Two (create) failed' })
    server.faults.set('POST /alerts', new Error('HTTP 400: bad'))
    const moved = await apply(server, plan(server, both + alert('One', 'A', 'Latency')))
    expect(outcome(moved, 'One')).toMatchObject({ status: 'failed', message: 'create: HTTP 400: bad' })
    expect(server.alerts.has(one)).toBe(false)
    expect(server.dashboards.has(b)).toBe(true)
  })

  it('two alerts of one dashboard are written one at a time', async () => {
    const server = new Server()
    const yaml = dashboard('A', ['Errors']) + alert('One', 'A', 'Errors') + alert('Two', 'A', 'Errors')
    await deploy(server, yaml)
    await apply(server, plan(server, yaml.replaceAll('threshold: 10', 'threshold: 11')), settings(), 4)
    expect(server.requests()).toHaveLength(2)
    expect(server.overlaps).toEqual([])
    // Creates too, on a dashboard that exists, and deletes.
    await apply(
      server,
      plan(server, dashboard('A', ['Errors']) + alert('Three', 'A', 'Errors') + alert('Four', 'A', 'Errors')),
      settings(),
      4
    )
    expect(server.requests()).toHaveLength(6)
    expect(server.overlaps).toEqual([])
  })
})

describe('a saved-search alert', () => {
  const searches = savedSearch('Errors') + savedSearch('Warnings', 'level:warn')

  it('is created after its saved search, on the id the create returned, with its groupBy; planned again, nothing changes', async () => {
    const server = new Server()
    const yaml = searches + searchAlert('Burst', 'Errors', 'groupBy: service\n')
    const o = plan(server, yaml)
    expect(alertChange(o, 'Burst')).toMatchObject({ action: 'create' })
    await apply(server, o, settings(), 4)
    const posts = server.requests().filter(q => q !== 'POST /dashboards')
    expect(posts.slice(-1)).toEqual(['POST /alerts'])
    const errorsId = [...server.savedSearches.values()].find(s => s.name === 'Errors')!.id
    expect(server.sent.find(s => s.request === 'POST /alerts')!.body).toStrictEqual({
      savedSearchId: errorsId,
      groupBy: 'service',
      source: 'saved_search',
      name: 'Burst',
      threshold: 5,
      thresholdType: 'above',
      interval: '5m',
      channel: PAGER
    })
    expect(alertChange(plan(server, yaml), 'Burst')).toMatchObject({ action: 'noop', fields: [] })
  })

  it('managed: a groupBy the manifest drops stays on the cloud: no change to plan or send, a warning at the alert', async () => {
    const server = new Server()
    await deploy(server, searches + searchAlert('Burst', 'Errors', 'groupBy: service\n'), MANAGED)
    const yaml = searches + searchAlert('Burst', 'Errors')
    const o = plan(server, yaml, MANAGED)
    expect(alertChange(o, 'Burst')).toMatchObject({ action: 'noop', fields: [] })
    expect(o.plan.diagnostics.map(d => [d.severity, d.line, d.message])).toEqual([
      [
        'warning',
        lineOf(yaml, 'name: "Burst"'),
        'groupBy "service" stays: the managed API keeps a saved-search alert\'s groupBy when an update leaves it out and refuses to clear it. Only a new alert starts without one: with prune on, remove the manifest for one apply and add it back'
      ]
    ])
    // With another change, the update leaves groupBy out (null would be refused) and compares it as kept.
    const raised = plan(server, yaml.replace('threshold: 5', 'threshold: 6'), MANAGED)
    expect(alertChange(raised, 'Burst').fields.map(f => f.path)).toEqual(['threshold'])
    await apply(server, raised, MANAGED)
    expect(server.sent.at(-1)!.body).not.toHaveProperty('groupBy')
  })

  it('self-hosted: a groupBy the manifest drops is cleared by the update, and the plan shows it', async () => {
    const server = new Server()
    await deploy(server, searches + searchAlert('Burst', 'Errors', 'groupBy: service\n'))
    const o = plan(server, searches + searchAlert('Burst', 'Errors'))
    expect(alertChange(o, 'Burst').fields).toEqual([{ path: 'groupBy', before: 'service' }])
    expect(o.plan.diagnostics).toEqual([])
  })

  it('pointed at another saved search is updated in place, by name in the plan', async () => {
    const server = new Server()
    await deploy(server, searches + searchAlert('Burst', 'Errors'))
    const id = server.alert('Burst').id
    const o = plan(server, searches + searchAlert('Burst', 'Warnings'))
    expect(alertChange(o, 'Burst')).toMatchObject({
      action: 'update',
      fields: [{ path: 'savedSearch', before: 'Errors', after: 'Warnings' }]
    })
    await apply(server, o)
    const warnings = [...server.savedSearches.values()].find(s => s.name === 'Warnings')!.id
    expect(server.sent).toMatchObject([{ request: `PUT /alerts/${id}`, body: { savedSearchId: warnings } }])
  })

  it('whose saved search is deleted is replaced on its new one, and the plan says why; an orphan is deleted', async () => {
    for (const field of ['savedSearch', 'savedSearchId']) {
      const server = new Server()
      await deploy(server, searches + searchAlert('Burst', 'Errors') + searchAlert('Other', 'Errors'))
      const [old, other] = [server.alert('Burst').id, server.alert('Other').id]
      const warnings = [...server.savedSearches.values()].find(s => s.name === 'Warnings')!.id
      const named = field === 'savedSearch' ? 'Warnings' : warnings
      const o = plan(server, savedSearch('Warnings', 'level:warn') + searchAlert('Burst', named, '', field))
      expect(alertChange(o, 'Burst')).toMatchObject({
        action: 'replace',
        droppedByServer: true,
        id: old,
        notes: [
          `its saved search is deleted, and the server deletes its alerts with it; it is created again on saved search "${named}" (new alert id)`
        ]
      })
      expect(alertChange(o, 'Other')).toMatchObject({ action: 'delete', droppedByServer: true, id: other })
      expect(alertChange(o, 'Other').notes).toContain(
        'its saved search is deleted, and the server deletes its alerts with it'
      )
      expect((await apply(server, o)).complete).toBe(true)
      expect([...server.alerts.values()]).toMatchObject([{ name: 'Burst', savedSearchId: warnings }])
    }
  })

  it('pinned by the id of a saved search this stack does not manage is a plan error at the field', () => {
    const server = new Server()
    server.savedSearches.set('ss-theirs', { id: 'ss-theirs', name: 'Theirs', tags: [] } as LiveSavedSearch)
    const yaml = searchAlert('Burst', 'ss-theirs', '', 'savedSearchId')
    expect(errors(plan(server, yaml))).toEqual([
      {
        stage: 'plan',
        severity: 'error',
        field: 'savedSearchId',
        file: 'a.yaml',
        line: lineOf(yaml, 'savedSearchId:'),
        column: 16,
        message:
          'saved search "ss-theirs" is not managed by stack "shop": an alert is owned through its saved search, so declare the saved search in the manifests (`adopt: true` for an existing one)'
      }
    ])
  })
})

describe('a saved-search alert on an unknown id', () => {
  it('is one plan error, at the id', () => {
    const yaml = searchAlert('Burst', 'ss-missing', '', 'savedSearchId')
    const found = errors(plan(new Server(), yaml))
    expect(found.map(d => [d.field, d.line])).toEqual([['savedSearchId', lineOf(yaml, 'savedSearchId:')]])
    expect(found[0]!.message).not.toMatch(/is not managed/)
  })
})

describe('a create whose response is lost', () => {
  it('of a tile alert adopts ours from the server: not another of ours on its tile, nor its namesake elsewhere', async () => {
    const server = new Server()
    const board = dashboard('A', ['Errors'])
    await deploy(server, board + alert('Second', 'A', 'Errors'))
    const tileId = server.tileId('A', 'Errors')
    // Another stack's alert of the same name, on a tile of the same id on their dashboard.
    server.dashboards.set('theirs', {
      id: 'theirs',
      name: 'Theirs',
      tags: ['obsdeploy:other'],
      tiles: [{ id: tileId, name: 'Errors', x: 0, y: 0, w: 6, h: 3 }]
    } as LiveDashboard)
    server.alerts.set('a0', {
      ...structuredClone(server.alert('Second')),
      id: 'a0',
      name: 'First',
      dashboardId: 'theirs'
    })
    const o = plan(server, board + alert('Second', 'A', 'Errors') + alert('First', 'A', 'Errors'))
    expect(alertActions(o)).toEqual([
      ['Second', 'noop', server.alert('Second').id],
      ['First', 'create', undefined]
    ])
    server.faults.set('POST /alerts', 'lose the answer')
    const warnings: string[] = []
    const r = await apply(server, o, settings(), 1, { ...silentLogger, warn: m => warnings.push(m) })
    expect(server.requests()).toEqual(['POST /alerts', 'GET /alerts'])
    expect(warnings).toEqual([expect.stringMatching(/: re-reading alerts before creating "First" again$/)])
    const ours = [...server.alerts.values()].filter(a => a.name === 'First' && a.dashboardId !== 'theirs')
    expect(ours).toMatchObject([{ dashboardId: server.dashboard('A').id, tileId }])
    expect(outcome(r, 'First')).toStrictEqual({
      address: 'Alert/First',
      kind: 'Alert',
      name: 'First',
      action: 'create',
      status: 'adopted',
      id: ours[0]!.id,
      message: 'the create was committed although its response was lost'
    })
  })

  it('of a saved-search alert adopts the one on its saved search, not its namesake on another', async () => {
    const server = new Server()
    const searches = savedSearch('Errors')
    await deploy(server, searches)
    server.savedSearches.set('ss-theirs', { id: 'ss-theirs', name: 'Theirs', tags: [] } as LiveSavedSearch)
    server.alerts.set('a0', {
      id: 'a0',
      name: 'Burst',
      source: 'saved_search',
      savedSearchId: 'ss-theirs'
    } as LiveAlert)
    const o = plan(server, searches + searchAlert('Burst', 'Errors'))
    expect(alertActions(o)).toEqual([['Burst', 'create', undefined]])
    server.faults.set('POST /alerts', 'lose the answer')
    const r = await apply(server, o)
    const errorsId = [...server.savedSearches.values()].find(s => s.name === 'Errors')!.id
    const created = [...server.alerts.values()].find(a => a.savedSearchId === errorsId)!
    expect(outcome(r, 'Burst')).toMatchObject({ status: 'adopted', id: created.id })
    expect(server.requests()).toEqual(['POST /alerts', 'GET /alerts'])
  })
})

describe('channels', () => {
  it('an unknown webhook is a plan error at its field and line, in a list or alone', () => {
    const server = new Server()
    const listed =
      dashboard('A', ['Errors']) +
      alert('One', 'A', 'Errors', '', channelList('ops-pager', 'nope')) +
      alert('Two', 'A', 'Errors', '', 'channel: { type: webhook, webhookId: wh-nope }\n')
    const found = errors(plan(server, listed)).map(d => [d.field, d.line])
    expect(found).toEqual([
      ['channels[1].webhook', lineOf(listed, '  - { type: webhook, webhook: nope }')],
      ['channel.webhookId', lineOf(listed, 'channel: { type: webhook, webhookId')]
    ])
  })

  it('a webhook this run creates is created first, and the alert sends its new id', async () => {
    const server = new Server()
    const yaml =
      '---\nkind: Webhook\nname: fresh\nservice: generic\nurl: ${secret.HOOK_URL}\n' +
      dashboard('A', ['Errors']) +
      alert('One', 'A', 'Errors', '', channelList('ops-pager', 'fresh'))
    const o = plan(server, yaml)
    expect(alertChange(o, 'One').action).toBe('create')
    await apply(server, { ...o, planned: [...o.planned].reverse() }, settings(), 4)
    const fresh = [...server.webhooks.values()].find(w => w.name === 'fresh')!.id
    const requests = server.requests()
    expect(requests.indexOf('POST /alerts')).toBeGreaterThan(requests.indexOf('POST /webhooks'))
    expect(server.sent.find(q => q.request === 'POST /alerts')!.body!.channels).toStrictEqual([
      PAGER,
      { type: 'webhook', webhookId: fresh }
    ])
    expect(alertChange(plan(server, yaml), 'One')).toMatchObject({ action: 'noop', fields: [] })
  })

  it('managed: an email channel and a webhook with extras are sent as written, and compared by recipient and webhook name', async () => {
    const server = new Server()
    const files = (mail: string, severity: string, webhook = 'ops-pager') =>
      dashboard('A', ['Errors']) +
      alert('Mail', 'A', 'Errors', '', `channel: { type: email, emailRecipients: [${mail}] }\n`) +
      alert(
        'Page',
        'A',
        'Errors',
        '',
        `channel: { type: webhook, webhook: ${webhook}, severity: ${severity} }\n`
      )
    const o = plan(server, files('oncall@example.com', 'critical'), MANAGED)
    await apply(server, o, MANAGED)
    const bodies = server.sent.filter(s => s.request === 'POST /alerts').map(s => s.body!.channel)
    expect(bodies).toStrictEqual([
      { type: 'email', emailRecipients: ['oncall@example.com'] },
      { type: 'webhook', severity: 'critical', webhookId: 'wh-pager' }
    ])
    expect(
      alertActions(plan(server, files('oncall@example.com', 'critical'), MANAGED)).map(a => a[1])
    ).toEqual(['noop', 'noop'])
    const changed = plan(server, files('ops@example.com', 'warning', 'team-slack'), MANAGED)
    expect(alertChange(changed, 'Mail').fields).toEqual([
      { path: 'channels[0].email[0]', before: 'oncall@example.com', after: 'ops@example.com' }
    ])
    expect(alertChange(changed, 'Page').fields).toEqual([
      { path: 'channels[0].severity', before: 'critical', after: 'warning' },
      { path: 'channels[0].webhook', before: 'ops-pager', after: 'team-slack' }
    ])
    // A webhook channel with extras but no webhook id reads as no webhook.
    delete (server.alert('Page').channel as Record<string, unknown>).webhookId
    expect(
      alertChange(plan(server, files('oncall@example.com', 'critical'), MANAGED), 'Page').fields
    ).toEqual([{ path: 'channels[0].webhook', after: 'ops-pager' }])
  })
})
