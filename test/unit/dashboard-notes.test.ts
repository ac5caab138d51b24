/**
 * What a dashboard plan says besides its fields (src/kinds/dashboard/notes.ts): plan errors for tiles on a data
 * source of the wrong kind (at the field, before any request), the alerts an update deletes with its tiles, and
 * the PromQL warning of an adopted dashboard.
 */
import { describe, expect, it } from '@jest/globals'
import type { LiveAlert, LiveDashboard } from '../../src/api/schemas.js'
import type { PlanOutcome } from '../../src/planner/planner.js'
import {
  SOURCES,
  TAG,
  change,
  created,
  dashboard,
  errors,
  plan,
  tile,
  warnings
} from '../support/dashboard-plan.js'

const at = (o: PlanOutcome) =>
  o.plan.diagnostics
    .filter(d => d.severity === 'error')
    .map(d => ({ field: d.field, line: d.line, column: d.column, message: d.message }))

/** Logs becomes a session source: neither heatmaps, formulas nor search link-outs may use it. */
const sessionLogs = { Source: [...SOURCES.slice(1), { id: 'src-logs', name: 'Logs', kind: 'session' }] }

describe('source kinds of the tiles a plan writes', () => {
  const search = (source: string) =>
    tile(
      'T',
      `displayType: table\n      source: Logs\n      select: [{ aggFn: count }]\n      groupBy: service\n      onClick: { type: search, target: { mode: id, source: ${source} } }`
    )

  it('a search link-out to a source that is neither log nor trace is an error at its target, with its line', () => {
    expect(at(plan(dashboard('L', search('Metrics'))))).toEqual([
      {
        field: 'tiles[0].config.onClick.target',
        line: 15,
        column: 40,
        message: 'a search link-out needs a log or trace source; this one is a metric source'
      }
    ])
    expect(errors(plan(dashboard('L', search('Logs'))))).toEqual([])
    expect(errors(plan(dashboard('L', search('Traces'))))).toEqual([])
  })

  it('a dashboard link-out is no search link-out, even to a dashboard whose id a metric source has', () => {
    const target = { id: 'src-metrics', name: 'Target', tags: ['team'], tiles: [] } as LiveDashboard
    const o = plan(
      dashboard(
        'L',
        tile(
          'T',
          'displayType: table\n      source: Logs\n      select: [{ aggFn: count }]\n      groupBy: service\n      onClick: { type: dashboard, target: { mode: id, id: src-metrics } }'
        )
      ),
      [target]
    )
    expect(errors(o)).toEqual([])
  })

  it('formulas and a heatmap on the wrong kind of source: an error at the field of each tile, with its position', () => {
    const o = plan(
      dashboard(
        'K',
        tile(
          'Formula',
          'displayType: stacked_bar\n      source: Logs\n      select: [{ aggFn: count }]\n      formulas: [{ expression: "A / 2" }]'
        ) +
          tile(
            'Heat',
            'displayType: heatmap\n      source: Logs\n      select: [{ valueExpression: Latency }]'
          )
      ),
      [],
      sessionLogs
    )
    expect(at(o)).toEqual([
      {
        field: 'tiles[0].config.formulas',
        line: 14,
        column: 17,
        message: 'formulas need a metric, log or trace source; this one is a session source'
      },
      {
        field: 'tiles[1].config.source',
        line: 22,
        column: 15,
        message: 'a heatmap tile needs a trace source; this one is a session source'
      }
    ])
  })

  it('a heatmap on a trace source is fine', () => {
    const heat = tile(
      'Heat',
      'displayType: heatmap\n      source: Traces\n      select: [{ valueExpression: Duration }]'
    )
    expect(at(plan(dashboard('K', heat)))).toEqual([])
  })

  it('formulas on a metric, log or trace source are fine; no formulas, or an empty list, need no source kind', () => {
    const formula = (name: string, source: string, formulas = '[{ expression: "A * 2" }]') =>
      tile(
        name,
        `displayType: line\n      source: ${source}\n      select: [{ aggFn: count }]\n      formulas: ${formulas}`
      )
    expect(
      errors(plan(dashboard('F', formula('M', 'Metrics') + formula('L', 'Logs') + formula('T', 'Traces'))))
    ).toEqual([])
    expect(errors(plan(dashboard('F', formula('E', 'Logs', '[]')), [], sessionLogs))).toEqual([])
    expect(errors(plan(dashboard('F', tile('N')), [], sessionLogs))).toEqual([])
  })

  it('formulas the update leaves as they are, on the source they have, are allowed; changed, they are not', async () => {
    const yaml = (expression: string, w = 6) =>
      dashboard(
        'F',
        tile(
          'Formula',
          `displayType: line\n      source: Logs\n      select: [{ aggFn: count }]\n      formulas: [{ expression: "${expression}" }]`
        ).replace('w: 6', `w: ${w}`)
      )
    const [live] = await created(yaml('A * 2'))
    // The source became a session source after the tile was made: an edit of the tile's width still goes through.
    const wider = plan(yaml('A * 2', 8), [live!], sessionLogs)
    expect(errors(wider)).toEqual([])
    expect(change(wider, 'F').action).toBe('update')
    expect(errors(plan(yaml('A * 3'), [live!], sessionLogs))).toEqual([
      'formulas need a metric, log or trace source; this one is a session source'
    ])
    // The same formulas moved to another source of the wrong kind: checked again.
    const moved = dashboard(
      'F',
      tile(
        'Formula',
        'displayType: line\n      source: Other\n      select: [{ aggFn: count }]\n      formulas: [{ expression: "A * 2" }]'
      )
    )
    expect(
      errors(
        plan(moved, [live!], { Source: [...SOURCES, { id: 'src-other', name: 'Other', kind: 'session' }] })
      )
    ).toEqual(['formulas need a metric, log or trace source; this one is a session source'])
  })

  it('a heatmap that was a heatmap on a raw SQL tile of the same source id is checked as new', async () => {
    const heat = dashboard(
      'H',
      tile('Heat', 'displayType: heatmap\n      source: Logs\n      select: [{ valueExpression: Duration }]')
    )
    const [live] = await created(dashboard('H', tile('Heat')))
    // As the UI might store a raw SQL heatmap that still names the source.
    Object.assign(live!.tiles[0]!.config!, {
      displayType: 'heatmap',
      configType: 'sql',
      sqlTemplate: 'SELECT 1'
    })
    expect(errors(plan(heat, [live!], sessionLogs))).toEqual([
      'a heatmap tile needs a trace source; this one is a session source'
    ])
  })

  it('a tile on an unknown source is one error (the unknown source), not also one of its kind', () => {
    const o = plan(
      dashboard(
        'U',
        tile(
          'Heat',
          'displayType: heatmap\n      source: Nope\n      select: [{ valueExpression: Duration }]'
        ) +
          tile(
            'Formula',
            'displayType: line\n      source: Nope\n      select: [{ aggFn: count }]\n      formulas: [{ expression: "A" }]'
          )
      )
    )
    expect(at(o).map(e => e.field)).toEqual(['tiles[0].config.source', 'tiles[1].config.source'])
  })
})

describe('the alerts an update deletes with its tiles', () => {
  const alert = (id: string, dashboardId: string, tileId: string | undefined, name?: string): LiveAlert =>
    ({ id, name, dashboardId, tileId }) as LiveAlert

  it('a tile that stays alertable, or a new tile, names no alert; a removed one without alerts is not noted', async () => {
    const [live] = await created(
      dashboard('D', tile('Line') + tile('Gone', 'displayType: markdown\n      markdown: hi'))
    )
    const [line, gone] = live!.tiles.map(t => String(t.id))
    const alerts = [alert('a1', live!.id, line, 'On line'), alert('a2', live!.id, 'no-such-tile', 'stray')]
    const o = plan(
      dashboard(
        'D',
        tile('Line', 'displayType: number\n      source: Logs\n      select: [{ aggFn: count }]') +
          tile('Added')
      ),
      [live!],
      { Alert: alerts }
    )
    expect(change(o, 'D').action).toBe('update')
    expect(change(o, 'D').notes).toEqual([])
    expect(gone).toBeDefined()
  })

  it('a live tile without an id has no alerts, even beside an alert without a tile id', async () => {
    const [live] = await created(dashboard('D', tile('Gone') + tile('Kept')))
    delete live!.tiles[0]!.id
    const o = plan(dashboard('D', tile('Kept')), [live!], {
      Alert: [alert('a1', live!.id, undefined, 'Loose')]
    })
    expect(change(o, 'D').notes).toEqual([])
  })

  it('a tile that could not carry alerts, made alertable or left so, deletes none', async () => {
    const [live] = await created(
      dashboard(
        'D',
        tile('Table', 'displayType: table\n      source: Logs\n      select: [{ aggFn: count }]')
      )
    )
    const alerts = [alert('a1', live!.id, String(live!.tiles[0]!.id), 'Odd')]
    const o = plan(
      dashboard('D', tile('Table', 'displayType: pie\n      source: Logs\n      select: [{ aggFn: count }]')),
      [live!],
      { Alert: alerts }
    )
    expect(change(o, 'D').notes).toEqual([])
  })

  it.each([
    [
      'one alert is named alone',
      (d: string, t: string) => [alert('a1', d, t), alert('a2', 'other', t, 'Elsewhere')],
      '"a1"'
    ],
    [
      'two alerts are listed with a comma',
      (d: string, t: string) => [alert('a1', d, t, 'Slow'), alert('a2', d, t, 'Down')],
      '"Slow", "Down"'
    ]
  ])('a tile that becomes a table: %s', async (_, alertsOf, named) => {
    const [live] = await created(dashboard('D', tile('Line')))
    const o = plan(
      dashboard(
        'D',
        tile('Line', 'displayType: table\n      source: Logs\n      select: [{ aggFn: count }]')
      ),
      [live!],
      { Alert: alertsOf(live!.id, String(live!.tiles[0]!.id)) }
    )
    expect(change(o, 'D').notes).toEqual([
      `tile "Line" becomes a table tile, which cannot carry alerts: the server deletes ${named}`
    ])
  })
})

describe('the PromQL warning', () => {
  const promql = (o: PlanOutcome) => warnings(o).filter(w => w.includes('PromQL'))

  it('is given for an update with adopt: true, even of a dashboard this stack owns; never for a create', async () => {
    const [mine] = await created(dashboard('D', tile('E')))
    expect(promql(plan(dashboard('D', tile('E2'), 'adopt: true\n'), [mine!]))).toHaveLength(1)
    expect(promql(plan(dashboard('D', tile('E2')), [mine!]))).toEqual([])
    const theirs = { ...mine!, tags: ['team'] }
    expect(promql(plan(dashboard('New', tile('E2'), 'adopt: true\n'), [theirs]))).toEqual([])
    expect(mine!.tags).toContain(TAG)
  })
})
