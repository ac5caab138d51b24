/**
 * How a dashboard update is sent (src/kinds/dashboard/patch.ts) and what the plan says it resets (notes.ts,
 * ui-only.ts): patches of the changed tiles when the server offers them and the update changes only the name, the
 * tags and existing tiles in a form the tool keeps whole; one PUT otherwise, which rewrites every tile.
 */
import { describe, expect, it } from '@jest/globals'
import type { LiveDashboard } from '../../src/api/schemas.js'
import { patchTile } from '../../src/kinds/dashboard/patch.js'
import type { DesiredDashboard } from '../../src/kinds/dashboard/desired.js'
import { notesOf } from '../../src/report/model.js'
import type { PlanOutcome } from '../../src/planner/planner.js'
import { dashboardKind } from '../../src/kinds/dashboard/index.js'
import { TAG, change, created, dashboard, plan, settings, tile } from '../support/dashboard-plan.js'

const LINE = 'displayType: line\n      source: Logs\n      select: [{ aggFn: count, where: "level:error" }]'
const MARKDOWN = 'displayType: markdown\n      markdown: hello'

const base = () =>
  dashboard('D', tile('Errors', LINE) + tile('Notes', MARKDOWN) + tile('Traffic', LINE), `tags: [team]\n`)

/** The live dashboard the manifest `base()` leaves, as the server stores it. */
async function live(): Promise<LiveDashboard[]> {
  const [d] = await created(base())
  return [{ ...d!, id: 'd-1', tags: ['team', TAG] }]
}

const writeOf = (o: PlanOutcome) =>
  (o.planned.find(p => p.change.name === 'D')!.desired!.value as DesiredDashboard).write

describe('an update sent as patches, tile by tile', () => {
  it('patches only the changed tile and resets only what only the UI can set on it', async () => {
    const moved = base().replace('- name: "Traffic"\n    x: 0', '- name: "Traffic"\n    x: 6')
    const o = plan(moved, await live(), { dashboardPatch: true })
    expect(writeOf(o)).toEqual({ via: 'patch', tiles: ['Traffic'] })
    const c = change(o, 'D')
    expect(c.resets).toEqual({
      via: 'patch',
      tiles: [
        { tile: 'Traffic', settings: ['tile filter (where)', 'granularity', 'null fill value', 'ratio mode'] }
      ]
    })
    expect(notesOf(c).at(-1)).toBe(
      'the update replaces this tile one at a time and leaves the other tiles as they are. What only the web UI can set is reset where it was set: tile "Traffic" (tile filter (where), granularity, null fill value, ratio mode)'
    )
  })

  it('a name or tag change alone is one patch that rewrites no tile, and says nothing of resets', async () => {
    const o = plan(
      base().replace('name: "D"', 'name: "D"').replace('tags: [team]', 'tags: [team, sre]'),
      await live(),
      {
        dashboardPatch: true
      }
    )
    expect(writeOf(o)).toEqual({ via: 'patch', tiles: [] })
    expect(change(o, 'D').resets).toBeUndefined()
  })

  it('a markdown tile has nothing only the UI can set: patched without a reset', async () => {
    const o = plan(base().replace('markdown: hello', 'markdown: bye'), await live(), { dashboardPatch: true })
    expect(writeOf(o)).toEqual({ via: 'patch', tiles: ['Notes'] })
    expect(change(o, 'D').resets).toBeUndefined()
  })
})

describe('an update sent as one PUT, which rewrites every tile', () => {
  it('when a tile is added: every kept tile with UI-only settings is named, and why it is a PUT', async () => {
    const more = base() + tile('New', MARKDOWN)
    const o = plan(more, await live(), { dashboardPatch: true })
    expect(writeOf(o)).toEqual({ via: 'put' })
    const c = change(o, 'D')
    expect(c.resets?.via).toBe('put')
    expect(c.resets?.why).toBe('it changes more than existing tiles, so it cannot replace them one at a time')
    expect(c.resets?.tiles.map(t => t.tile)).toEqual(['Errors', 'Traffic'])
  })

  it('when the server offers no patch, and says so', async () => {
    const moved = base().replace('- name: "Traffic"\n    x: 0', '- name: "Traffic"\n    x: 6')
    const c = change(plan(moved, await live()), 'D')
    expect(c.resets?.why).toBe('this server offers no narrower write')
    expect(c.resets?.tiles.map(t => t.tile)).toEqual(['Errors', 'Traffic'])
  })

  it('when a changed tile holds what the tool would drop (a delta item, a link-out)', async () => {
    const delta = base().replace(
      'select: [{ aggFn: count, where: "level:error" }]',
      'select: [{ aggFn: sum, valueExpression: Value, periodAggFn: delta }]'
    )
    expect(writeOf(plan(delta, await live(), { dashboardPatch: true }))).toEqual({ via: 'put' })
  })

  it('a create says nothing of resets', () => {
    expect(change(plan(base(), [], { dashboardPatch: true }), 'D').resets).toBeUndefined()
  })
})

describe('the tile as the patch tool takes it', () => {
  const liveTile = { id: 't', name: 'A', x: 0, y: 0, w: 6, h: 3, config: { displayType: 'line' } }
  const body = (config: Record<string, unknown>) => ({ name: 'A', x: 1, y: 2, w: 3, h: 4, config })

  it('keeps layout and config as sent', () => {
    const config = {
      displayType: 'line',
      sourceId: 's',
      select: [{ aggFn: 'count', where: '', whereLanguage: 'lucene' }]
    }
    expect(patchTile(body(config), liveTile)).toEqual({ ...body(config) })
  })

  it('refuses a key, select item key, number format key or quantile level the tool does not take', () => {
    const item = { aggFn: 'count', where: '', whereLanguage: 'lucene' }
    for (const config of [
      { displayType: 'line', sourceId: 's', select: [item], onClick: {} },
      // The tool knows no summary metric.
      { displayType: 'line', sourceId: 's', select: [{ ...item, metricName: 'm', metricType: 'summary' }] },
      { displayType: 'line', sourceId: 's', select: [item], numberFormat: { output: 'number', custom: 1 } },
      {
        displayType: 'line',
        sourceId: 's',
        select: [{ ...item, aggFn: 'quantile', level: 0.75, valueExpression: 'D' }]
      },
      { displayType: 'sql', configType: 'sql', connectionId: 'c', sqlTemplate: 'SELECT 1' }
    ])
      expect(patchTile(body(config), liveTile)).toBeUndefined()
    const quantile = { ...item, aggFn: 'quantile', level: 0.95, valueExpression: 'D' }
    expect(
      patchTile(body({ displayType: 'line', sourceId: 's', select: [quantile] }), liveTile)
    ).toBeDefined()
  })

  // mcp/tools/query/schemas.ts getMetricSelectIssues, which the v2 API does not make.
  it("takes a metric item as the tool's own checks do, with or without a value expression", () => {
    const sel = (item: Record<string, unknown>) =>
      body({ displayType: 'line', sourceId: 's', select: [{ where: '', whereLanguage: 'lucene', ...item }] })
    for (const item of [
      { aggFn: 'avg', metricName: 'm', metricType: 'gauge' },
      { aggFn: 'sum', metricName: 'm', metricType: 'sum', valueExpression: 'Value' },
      { aggFn: 'increase', metricName: 'm', metricType: 'sum' },
      { aggFn: 'quantile', level: 0.95, metricName: 'm', metricType: 'histogram' },
      { aggFn: 'count', metricName: 'm', metricType: 'exponential histogram' }
    ])
      expect(patchTile(sel(item), liveTile)).toEqual(sel(item))
    for (const item of [
      { aggFn: 'avg', metricName: 'm' },
      { aggFn: 'avg', metricType: 'gauge', valueExpression: 'Value' },
      { aggFn: 'avg', metricName: '', metricType: 'gauge', valueExpression: 'Value' },
      { aggFn: 'increase', metricName: 'm', metricType: 'gauge' },
      { aggFn: 'increase', valueExpression: 'Duration' },
      { aggFn: 'avg', metricName: 'm', metricType: 'histogram' }
    ])
      expect(patchTile(sel(item), liveTile)).toBeUndefined()
  })

  it('a series tile is sent in the config form', () => {
    const series = {
      name: 'A',
      x: 0,
      y: 0,
      w: 6,
      h: 3,
      series: [
        { type: 'time', sourceId: 's', aggFn: 'count', where: 'a:b', whereLanguage: 'lucene', groupBy: [] }
      ]
    }
    expect(patchTile(series, liveTile)?.config).toMatchObject({ displayType: 'line', sourceId: 's' })
  })
})

describe('an update sent as patches, refused midway', () => {
  it('says what was applied before the refusal and what was not', async () => {
    const moved = base()
      .replace('- name: "Errors"\n    x: 0', '- name: "Errors"\n    x: 6')
      .replace('- name: "Traffic"\n    x: 0', '- name: "Traffic"\n    x: 6')
    const o = plan(moved, await live(), { dashboardPatch: true })
    expect(writeOf(o)).toEqual({ via: 'patch', tiles: ['Errors', 'Traffic'] })
    const pc = o.planned.find(p => p.change.name === 'D')!
    const calls: unknown[] = []
    const api = {
      patchDashboard: async (call: unknown) => {
        calls.push(call)
        if (calls.length === 2)
          throw new Error('POST /mcp refused (tool clickstack_patch_dashboard): Tile not found')
      }
    }
    const [op] = dashboardKind.operations(pc as never, {
      settings: settings(),
      dashboards: o.dashboards,
      registry: o.registry
    })
    const error = (await op!
      .run({ api, facts: new Map(), settings: settings() } as never)
      .catch((e: unknown) => e)) as Error
    expect(calls).toHaveLength(2)
    expect(calls[0]).toMatchObject({ dashboardId: 'd-1', name: 'D', tags: ['team', TAG] })
    expect(calls[1]).not.toHaveProperty('name')
    expect(error.message).toBe(
      'POST /mcp refused (tool clickstack_patch_dashboard): Tile not found. Applied before it: the name and tags, and tile "Errors"; not applied: "Traffic". Plan again to see what is left'
    )
  })
})
