/**
 * Each form of the whole tile, dashboard and alert language, through its life against the emulator: create (the next
 * plan is empty), an update of each of its fields (the plan names exactly those fields, and the record has them after),
 * delete with prune, adoption of one another stack made, and export of it back to a manifest that plans empty.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { externalDashboard } from '../../emulator/dashboard-output.js'
import { externalAlert } from '../../emulator/alert-body.js'
import { cli } from '../../src/cli.js'
import { validateText } from '../../src/manifest/load.js'
import { actions, errors, obsdeploy, useScenario } from '../support/harness.js'

const { emu, ws } = useScenario()

/** A dashboard "Form" with the given tile lines (indented by 2) and top-level lines. */
const dashboard = (tiles: string, head = '') => `kind: Dashboard
name: Form
${head}tiles:
${tiles}`
const tile = (name: string, config: string, extra = '') => `  - name: ${name}
    x: 0
    y: 0
    w: 6
    h: 3
${extra}    config:
${config
  .trim()
  .split('\n')
  .map(l => `      ${l}`)
  .join('\n')}
`
const lineTile = tile('Line', 'displayType: line\nsource: Logs\nselect: [{ aggFn: count }]')
const soon = new Date(Date.now() + 7 * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z')
const later = new Date(Date.now() + 9 * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z')
const alertOn = (extra: string) => `---
kind: Alert
name: Form alert
dashboard: Form
tile: Line
threshold: 1
thresholdType: above
interval: 15m
channel: { type: webhook, webhook: ops-pager }
${extra}
`

interface Form {
  name: string
  /** The manifest, and a second version that changes every field of the form. */
  base: string
  changed: string
  /** The field paths the plan of `changed` shows (on the dashboard, or on the alert for alert forms). */
  paths: string[]
  /** Checks the record after `changed` was applied. */
  stored: (record: Record<string, unknown>) => void
  alert?: boolean
}

const config = (record: Record<string, unknown>, name = 'T') =>
  (record.tiles as Array<{ name: string; config: Record<string, unknown> }>).find(t => t.name === name)!
    .config

const FORMS: Form[] = [
  {
    name: 'heatmap tile',
    base: dashboard(
      tile('T', 'displayType: heatmap\nsource: Traces\nselect: [{ valueExpression: Duration }]')
    ),
    changed: dashboard(
      tile(
        'T',
        "displayType: heatmap\nsource: Traces\nselect: [{ valueExpression: Duration / 1000, countExpression: count(), heatmapScaleType: log }]\nwhere: 'service:cart'\nnumberFormat: { output: duration }"
      )
    ),
    paths: [
      'tiles["T"].numberFormat',
      'tiles["T"].select[0].countExpression',
      'tiles["T"].select[0].heatmapScaleType',
      'tiles["T"].select[0].valueExpression',
      'tiles["T"].where'
    ],
    stored: d =>
      expect(config(d)).toMatchObject({
        select: [{ valueExpression: 'Duration / 1000', countExpression: 'count()', heatmapScaleType: 'log' }],
        where: 'service:cart'
      })
  },
  {
    name: 'event-pattern tile',
    base: dashboard(tile('T', 'displayType: event_patterns\nsource: Logs')),
    changed: dashboard(
      tile(
        'T',
        "displayType: event_patterns\nsource: Logs\nselect: Body\nwhere: 'level = 1'\nwhereLanguage: sql"
      )
    ),
    paths: ['tiles["T"].select', 'tiles["T"].where', 'tiles["T"].whereLanguage'],
    stored: d => expect(config(d)).toMatchObject({ select: 'Body', where: 'level = 1', whereLanguage: 'sql' })
  },
  {
    name: 'line formulas',
    base: dashboard(
      tile(
        'T',
        "displayType: line\nsource: Logs\nselect: [{ aggFn: count }, { aggFn: count, where: 'level:error' }]\nformulas: [{ expression: B / A }]"
      )
    ),
    changed: dashboard(
      tile(
        'T',
        "displayType: line\nsource: Logs\nselect: [{ aggFn: count }, { aggFn: count, where: 'level:error' }]\nformulas: [{ expression: B / A * 100, alias: error rate, numberFormat: { output: percent } }]\nshowOperandSeries: false"
      )
    ),
    paths: [
      'tiles["T"].formulas[0].alias',
      'tiles["T"].formulas[0].expression',
      'tiles["T"].formulas[0].numberFormat',
      'tiles["T"].showOperandSeries'
    ],
    stored: d =>
      expect(config(d)).toMatchObject({
        formulas: [{ expression: 'B / A * 100', alias: 'error rate' }],
        showOperandSeries: false
      })
  },
  {
    name: 'number tile with a formula over several operands',
    base: dashboard(tile('T', 'displayType: number\nsource: Metrics\nselect: [{ aggFn: count }]')),
    changed: dashboard(
      tile(
        'T',
        "displayType: number\nsource: Metrics\nselect: [{ aggFn: count }, { aggFn: count, where: 'level:error' }]\nformulas: [{ expression: B / A }]"
      )
    ),
    paths: ['tiles["T"].formulas', 'tiles["T"].select'],
    stored: d => expect(config(d)).toMatchObject({ formulas: [{ expression: 'B / A' }], select: [{}, {}] })
  },
  {
    name: 'number colours',
    base: dashboard(
      tile('T', 'displayType: number\nsource: Logs\nselect: [{ aggFn: count }]\ncolor: chart-blue')
    ),
    changed: dashboard(
      tile(
        'T',
        `displayType: number
source: Logs
select: [{ aggFn: count }]
color: chart-green
colorRules: [{ operator: gt, value: 100, color: chart-red, label: high }, { operator: between, value: [10, 100], color: chart-warning }]
backgroundChart: { type: area }`
      )
    ),
    paths: ['tiles["T"].backgroundChart', 'tiles["T"].color', 'tiles["T"].colorRules'],
    stored: d =>
      expect(config(d)).toMatchObject({
        color: 'chart-green',
        backgroundChart: { type: 'area' },
        colorRules: [{}, {}]
      })
  },
  {
    name: 'table link-outs by name',
    base:
      dashboard(
        tile(
          'T',
          'displayType: table\nsource: Logs\nselect: [{ aggFn: count }]\ngroupBy: service\nonClick: { type: dashboard, target: { mode: id, dashboard: Target } }'
        )
      ) + '---\nkind: Dashboard\nname: Target\ntiles: []\n',
    changed:
      dashboard(
        tile(
          'T',
          "displayType: table\nsource: Logs\nselect: [{ aggFn: count }]\ngroupBy: service\nonClick: { type: search, target: { mode: id, source: Traces }, whereTemplate: 'service:{{service}}' }"
        )
      ) + '---\nkind: Dashboard\nname: Target\ntiles: []\n',
    paths: [
      'tiles["T"].onClick.target.dashboard',
      'tiles["T"].onClick.target.sourceId',
      'tiles["T"].onClick.type',
      'tiles["T"].onClick.whereTemplate'
    ],
    stored: d =>
      expect(config(d).onClick).toEqual({
        type: 'search',
        target: { mode: 'id', id: emu.selfHosted.sources.find(s => s.name === 'Traces')!.id },
        whereTemplate: 'service:{{service}}'
      })
  },
  {
    name: 'table ratio and formulas',
    base: dashboard(
      tile(
        'T',
        "displayType: table\nsource: Logs\nselect: [{ aggFn: count, where: 'level:error' }, { aggFn: count }]\nasRatio: true"
      )
    ),
    changed: dashboard(
      tile(
        'T',
        "displayType: table\nsource: Logs\nselect: [{ aggFn: count, where: 'level:error' }, { aggFn: count }]\nformulas: [{ expression: A / B }]\nshowOperandSeries: false"
      )
    ),
    paths: ['tiles["T"].asRatio', 'tiles["T"].formulas', 'tiles["T"].showOperandSeries'],
    stored: d => expect(config(d)).toMatchObject({ asRatio: false, formulas: [{ expression: 'A / B' }] })
  },
  {
    name: 'dashboard filters',
    base: dashboard(
      lineTile,
      `filters:
  - { name: Service, expression: ServiceName, source: Logs }
  - { name: Env, expression: env, source: Metrics, isVariableEnabled: true }
`
    ),
    changed: dashboard(
      lineTile,
      `filters:
  - { name: Service, expression: ServiceName, source: Traces, appliesToSources: [Traces], where: 'service:*' }
  - { name: Env, expression: env, source: Metrics, sourceMetricType: gauge, isVariableEnabled: true, variableName: env, isBroadcastEnabled: false }
`
    ),
    paths: [
      'filters[0].appliesToSourceIds',
      'filters[0].sourceId',
      'filters[0].where',
      'filters[1].isBroadcastEnabled',
      'filters[1].sourceMetricType',
      'filters[1].variableName'
    ],
    stored: d => expect((d.filters as unknown[]).length).toBe(2)
  },
  {
    name: 'saved query and saved filter values',
    base: dashboard(lineTile, "savedQuery: 'service:cart'\n"),
    changed: dashboard(
      lineTile,
      'savedQuery: "ServiceName = \'cart\'"\nsavedQueryLanguage: sql\nsavedFilterValues: [{ condition: "ServiceName IN (\'cart\')" }]\n'
    ),
    paths: ['savedFilterValues', 'savedQuery', 'savedQueryLanguage'],
    stored: d =>
      expect(d).toMatchObject({
        savedQuery: "ServiceName = 'cart'",
        savedQueryLanguage: 'sql',
        savedFilterValues: [{ type: 'sql', condition: "ServiceName IN ('cart')" }]
      })
  },
  {
    name: 'containers and tabs',
    base: dashboard(
      lineTile.replace('    config:', '    container: Overview\n    config:'),
      'containers: [{ title: Overview }]\n'
    ),
    changed: dashboard(
      lineTile.replace('    config:', '    container: Overview\n    tab: Errors\n    config:'),
      'containers: [{ title: Overview, collapsed: true, collapsible: true, bordered: false, tabs: [{ title: Errors }, { title: Latency }] }]\n'
    ),
    paths: [
      'containers["Overview"].bordered',
      'containers["Overview"].collapsed',
      'containers["Overview"].collapsible',
      'containers["Overview"].tabs',
      'tiles["Line"].tab'
    ],
    stored: d => {
      const [container] = d.containers as Array<{ id: string; tabs: Array<{ id: string; title: string }> }>
      const line = (d.tiles as Array<{ containerId: string; tabId: string }>)[0]!
      expect(line.containerId).toBe(container!.id)
      expect(line.tabId).toBe(container!.tabs.find(t => t.title === 'Errors')!.id)
    }
  },
  {
    name: 'alert schedule and range',
    alert: true,
    base: dashboard(lineTile) + alertOn('scheduleOffsetMinutes: 5'),
    changed:
      dashboard(lineTile) +
      alertOn(`scheduleStartAt: '${soon}'\nthresholdType: between\nthresholdMax: 9`).replace(
        'thresholdType: above\n',
        ''
      ),
    paths: ['scheduleOffsetMinutes', 'scheduleStartAt', 'thresholdMax', 'thresholdType'],
    stored: a =>
      expect(a).toMatchObject({
        scheduleStartAt: new Date(soon).toISOString(),
        scheduleOffsetMinutes: 0,
        thresholdMax: 9
      })
  }
]

/** The ids of a dashboard's tiles, filters and containers, by their names. */
function idsOf(d: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>()
  for (const part of ['tiles', 'filters', 'containers'])
    for (const item of (d[part] ?? []) as Array<Record<string, string>>)
      out.set(`${part}/${item.name ?? item.title}`, item.id!)
  return out
}

const storedDashboard = (name = 'Form') =>
  externalDashboard([...emu.selfHosted.dashboards.values()].find(d => d.name === name)!) as Record<
    string,
    unknown
  >
const storedAlert = () => externalAlert([...emu.selfHosted.alerts.values()][0]!) as Record<string, unknown>
const plan = (stack = 'shop', extra = {}) => obsdeploy(emu, ws, 'plan', { stack, ...extra })
const apply = (stack = 'shop', extra = {}) => obsdeploy(emu, ws, 'apply', { stack, ...extra })

describe.each(FORMS)('$name', form => {
  it('is created, updated field by field, and deleted with prune', async () => {
    ws.write({ 'form.yaml': form.base })
    const created = await apply()
    expect(errors(created)).toEqual([])
    expect(created.exitCode).toBe(0)
    expect(actions(await plan())).toEqual([])

    const ids = idsOf(storedDashboard())
    ws.write({ 'form.yaml': form.changed })
    const update = await plan()
    expect(errors(update)).toEqual([])
    const change = update.plan!.changes.find(c => (form.alert ? c.kind === 'Alert' : c.name === 'Form'))!
    expect(change.action).toBe('update')
    expect(change.fields.map(f => f.path).sort()).toEqual(form.paths)
    expect((await apply()).exitCode).toBe(0)
    form.stored(form.alert ? storedAlert() : storedDashboard())
    // Tiles, filters and containers keep their ids through the update.
    const kept = idsOf(storedDashboard())
    for (const [key, id] of ids) if (kept.has(key)) expect([key, kept.get(key)]).toEqual([key, id])
    expect(kept.size).toBeGreaterThanOrEqual(ids.size)
    expect(actions(await plan())).toEqual([])

    ws.write({ 'form.yaml': 'kind: Dashboard\nname: Other\ntiles: []\n' })
    const pruned = await apply('shop', { prune: 'true' })
    expect(errors(pruned)).toEqual([])
    expect([...emu.selfHosted.dashboards.values()].map(d => d.name)).toEqual(['Other'])
    expect(emu.selfHosted.alerts.size).toBe(0)
  })

  it('is adopted from another stack, and exported back to a manifest that plans empty', async () => {
    ws.write({ 'form.yaml': form.changed })
    expect((await apply('other')).exitCode).toBe(0)
    const before = storedDashboard()
    const alertBefore = form.alert ? storedAlert() : undefined

    // Adoption: the manifest as it is, with adopt: true; only the owner changes.
    ws.write({ 'form.yaml': form.changed.replace(/^(kind: Dashboard\nname: .*\n)/gm, '$1adopt: true\n') })
    const adopt = await plan()
    expect(errors(adopt)).toEqual([])
    const changed = adopt.plan!.changes.filter(c => c.action !== 'noop')
    expect(changed.map(c => c.name)).toContain('Form')
    for (const c of changed)
      expect([c.kind, c.fields]).toEqual([
        'Dashboard',
        [{ path: 'owner', before: 'obsdeploy:other', after: 'obsdeploy:shop' }]
      ])
    ws.remove('form.yaml')

    // Export: every field back to the manifest language; the first apply adopts, nothing else changes.
    let stderr = ''
    const code = await cli(
      ['export', '--out', 'observability', '--api-url', emu.url, '--stack', 'shop', '--kind', 'Dashboard'],
      {
        stdout: () => {},
        stderr: t => (stderr += t),
        env: { OBSDEPLOY_API_KEY: emu.credentials.apiKey },
        cwd: ws.dir,
        isTty: false
      }
    )
    expect([code, stderr]).toEqual([0, expect.any(String)])
    const dir = path.join(ws.dir, 'observability')
    for (const file of readdirSync(dir)) {
      const text = readFileSync(path.join(dir, file), 'utf8')
      expect(validateText(file, text, 'self-hosted').diagnostics).toEqual([])
    }
    expect((await apply()).exitCode).toBe(0)
    expect(actions(await plan())).toEqual([])
    const after = storedDashboard()
    expect({ ...after, tags: [] }).toEqual({ ...before, tags: [] })
    expect(after.tags).toEqual(['obsdeploy:shop'])
    if (alertBefore) expect({ ...storedAlert(), updatedAt: 0 }).toEqual({ ...alertBefore, updatedAt: 0 })
  })
})

it('a new dashboard and a new dashboard it links to (and back) are both created, the links set', async () => {
  const linking = (name: string, to: string) => `---
kind: Dashboard
name: ${name}
tiles:
${tile('T', `displayType: table\nsource: Logs\nselect: [{ aggFn: count }]\ngroupBy: service\nonClick: { type: dashboard, target: { mode: id, dashboard: ${to} } }`)}`
  ws.write({ 'links.yaml': linking('A', 'B') + linking('B', 'A') + linking('C', 'C') })
  const first = await plan()
  expect(errors(first)).toEqual([])
  expect(first.plan!.changes.find(c => c.name === 'A')!.notes.join(' ')).toMatch(/set by a second request/)
  expect((await apply()).exitCode).toBe(0)
  const idOf = (name: string) => [...emu.selfHosted.dashboards.values()].find(d => d.name === name)!.id
  for (const [from, to] of [
    ['A', 'B'],
    ['B', 'A'],
    ['C', 'C']
  ])
    expect(config(storedDashboard(from!)).onClick).toEqual({
      type: 'dashboard',
      target: { mode: 'id', id: idOf(to!) }
    })
  expect(actions(await plan())).toEqual([])
})

it('a link-out to a dashboard no manifest and no server has is a plan error at its line', async () => {
  ws.write({
    'form.yaml': dashboard(
      tile(
        'T',
        'displayType: table\nsource: Logs\nselect: [{ aggFn: count }]\nonClick: { type: dashboard, target: { mode: id, dashboard: Nowhere } }'
      )
    )
  })
  const result = await plan()
  expect(result.diagnostics).toContainEqual(
    expect.objectContaining({
      severity: 'error',
      line: 13,
      field: 'tiles[0].config.onClick.target.dashboard',
      message: expect.stringMatching(/^no dashboard named "Nowhere"/)
    })
  )
  ws.write({
    'form.yaml': dashboard(
      tile(
        'T',
        'displayType: table\nsource: Logs\nselect: [{ aggFn: count }]\nonClick: { type: dashboard, target: { mode: id, id: 65a1f0c2b3d4e5f6a7b8c0ff } }'
      )
    )
  })
  expect(errors(await plan())).toEqual(['no dashboard with id "65a1f0c2b3d4e5f6a7b8c0ff"'])
})

it('a heatmap on a log source, formulas on a session source: plan errors before any write', async () => {
  ws.write({
    'form.yaml': dashboard(
      tile('T', 'displayType: heatmap\nsource: Logs\nselect: [{ valueExpression: Duration }]')
    )
  })
  expect(errors(await plan())).toEqual(['a heatmap tile needs a trace source; this one is a log source'])
})

it('schedules on tiles of a dashboard in a later file keep working; a later date is a change', async () => {
  ws.write({ 'form.yaml': dashboard(lineTile) + alertOn(`scheduleStartAt: '${soon}'`) })
  expect((await apply()).exitCode).toBe(0)
  expect(actions(await plan())).toEqual([])
  ws.write({ 'form.yaml': dashboard(lineTile) + alertOn(`scheduleStartAt: '${later}'`) })
  expect(actions(await plan())).toEqual(['update Alert/Form alert'])
})
