/**
 * Managed mode sends only the fields of the managed request schemas: the lists in
 * src/kinds/managed-request.ts are the managed OpenAPI's, and a series loses `dataSource` (CONTRACT.md
 * shows it; the managed series has none). Self-hosted bodies keep what the manifest wrote.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { createBody, updateBody } from '../../src/kinds/dashboard/bodies.js'
import type { DesiredDashboard } from '../../src/kinds/dashboard/desired.js'
import {
  managedAlertBody,
  MANAGED_ALERT_FIELDS,
  MANAGED_DASHBOARD_FIELDS,
  MANAGED_SERIES_FIELDS,
  MANAGED_SOURCE_FIELDS,
  MANAGED_TILE_FIELDS,
  managedSourceBody
} from '../../src/kinds/managed-request.js'

const schemas = (
  JSON.parse(
    readFileSync(new URL('../fixtures/openapi/managed-cloud.openapi.json', import.meta.url), 'utf8')
  ) as { components: { schemas: Record<string, { properties?: Record<string, unknown> }> } }
).components.schemas
const fieldsOf = (name: string) => Object.keys(schemas[name]!.properties!).sort()

describe('the managed request fields are the managed OpenAPI request schemas', () => {
  it.each([
    ['ClickStackCreateDashboardRequest', MANAGED_DASHBOARD_FIELDS],
    ['ClickStackUpdateDashboardRequest', MANAGED_DASHBOARD_FIELDS],
    ['ClickStackTileInput', MANAGED_TILE_FIELDS],
    ['ClickStackTimeChartSeries', MANAGED_SERIES_FIELDS.time!],
    ['ClickStackTableChartSeries', MANAGED_SERIES_FIELDS.table!],
    ['ClickStackNumberChartSeries', MANAGED_SERIES_FIELDS.number!],
    ['ClickStackSearchChartSeries', MANAGED_SERIES_FIELDS.search!],
    ['ClickStackMarkdownChartSeries', MANAGED_SERIES_FIELDS.markdown!],
    ['ClickStackCreateAlertRequest', MANAGED_ALERT_FIELDS],
    ['ClickStackUpdateAlertRequest', MANAGED_ALERT_FIELDS],
    ['ClickStackLogSource', MANAGED_SOURCE_FIELDS.log!],
    ['ClickStackTraceSource', MANAGED_SOURCE_FIELDS.trace!],
    ['ClickStackMetricSource', MANAGED_SOURCE_FIELDS.metric!],
    ['ClickStackSessionSource', MANAGED_SOURCE_FIELDS.session!],
    ['ClickStackPromqlSource', MANAGED_SOURCE_FIELDS.promql!]
  ])('%s', (schema, fields) => {
    expect([...fields].sort()).toEqual(fieldsOf(schema))
  })

  it("a source body keeps only its kind's fields: a field a newer server returned is not sent back", () => {
    expect(
      managedSourceBody({ kind: 'session', name: 'S', traceSourceId: 't', orderByExpression: 'x', newer: 1 })
    ).toEqual({ kind: 'session', name: 'S', traceSourceId: 't' })
  })
})

const series = {
  type: 'time',
  dataSource: 'events',
  sourceId: 'logs',
  aggFn: 'count',
  where: '',
  whereLanguage: 'lucene',
  groupBy: []
}
const desired: DesiredDashboard = {
  spec: { kind: 'Dashboard', name: 'D', tiles: [] },
  located: undefined as never,
  tiles: [
    {
      spec: { name: 'T', x: 0, y: 0, w: 6, h: 3 },
      body: { name: 'T', x: 0, y: 0, w: 6, h: 3, asRatio: false, series: [series] }
    }
  ],
  filters: [],
  waitsFor: new Set(),
  linksLater: false
}
const live = {
  id: 'd1',
  name: 'D',
  tags: [],
  tiles: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  filters: [{ id: 'f1', type: 'QUERY_EXPRESSION', name: 'S', expression: 'S', sourceId: 'logs' }]
}

describe('bodies by mode', () => {
  it('managed: no dataSource in a series, no undeclared top-level key', () => {
    const { dataSource: _dropped, ...managedSeries } = series
    expect(createBody(desired, { tag: 'obsdeploy:shop', mode: 'managed' })).toEqual({
      name: 'D',
      tags: ['obsdeploy:shop'],
      tiles: [{ name: 'T', x: 0, y: 0, w: 6, h: 3, asRatio: false, series: [managedSeries] }]
    })
    const update = updateBody(desired, live, { tag: 'obsdeploy:shop', mode: 'managed' })
    expect(Object.keys(update).sort()).toEqual(['filters', 'name', 'tags', 'tiles'])
    expect(managedAlertBody({ name: 'A', channel: {}, channels: [{}], id: 'x' })).toEqual({
      name: 'A',
      channel: {}
    })
  })

  it('self-hosted: the series as the manifest wrote it (the server drops dataSource itself)', () => {
    const body = createBody(desired, { tag: 'obsdeploy:shop', mode: 'self-hosted' })
    expect((body.tiles as Array<{ series: unknown[] }>)[0]!.series).toEqual([series])
  })
})
