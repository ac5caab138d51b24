/**
 * What a managed-mode request body keeps (src/kinds/managed-request.ts), field by field: the declared
 * top-level keys of a dashboard and its tiles, each series by its type's list (a type the managed API does
 * not list goes through as written), and the declared keys of an alert. test/unit/managed-request.test.ts
 * checks the lists themselves against the managed OpenAPI document.
 */
import { describe, expect, it } from '@jest/globals'
import { managedAlertBody, managedDashboardBody } from '../../src/kinds/managed-request.js'

describe('a managed dashboard body', () => {
  it('keeps the declared keys of the dashboard and of each tile, and each series by its type', () => {
    const body = managedDashboardBody({
      name: 'Checkout',
      tags: ['obsdeploy:shop'],
      // Self-hosted only: the gateway refuses undeclared top-level keys.
      id: 'd1',
      createdAt: '2026-01-01T00:00:00.000Z',
      tiles: [
        {
          id: 't1',
          name: 'Errors',
          x: 0,
          y: 0,
          w: 6,
          h: 3,
          asRatio: false,
          updatedAt: 'dropped',
          series: [
            {
              type: 'time',
              sourceId: 's1',
              aggFn: 'count',
              dataSource: 'events',
              displayType: 'line',
              groupBy: []
            },
            { type: 'table', sourceId: 's1', aggFn: 'count', sortOrder: 'desc', displayType: 'dropped' },
            { type: 'number', sourceId: 's1', aggFn: 'count', groupBy: ['dropped'] },
            { type: 'search', sourceId: 's1', fields: ['a'], where: 'x', aggFn: 'dropped' },
            { type: 'markdown', content: '# hi', where: 'dropped' },
            { type: 'future', anything: 'kept as written' }
          ]
        },
        {
          name: 'Raw',
          x: 6,
          y: 0,
          w: 6,
          h: 3,
          config: { displayType: 'table', sqlTemplate: 'SELECT 1' },
          extra: 1
        }
      ]
    })
    expect(body).toStrictEqual({
      name: 'Checkout',
      tags: ['obsdeploy:shop'],
      tiles: [
        {
          id: 't1',
          name: 'Errors',
          x: 0,
          y: 0,
          w: 6,
          h: 3,
          asRatio: false,
          series: [
            { type: 'time', sourceId: 's1', aggFn: 'count', displayType: 'line', groupBy: [] },
            { type: 'table', sourceId: 's1', aggFn: 'count', sortOrder: 'desc' },
            { type: 'number', sourceId: 's1', aggFn: 'count' },
            { type: 'search', sourceId: 's1', fields: ['a'], where: 'x' },
            { type: 'markdown', content: '# hi' },
            { type: 'future', anything: 'kept as written' }
          ]
        },
        // A config tile has no series: none is added.
        { name: 'Raw', x: 6, y: 0, w: 6, h: 3, config: { displayType: 'table', sqlTemplate: 'SELECT 1' } }
      ]
    })
  })

  it('a body without tiles (an update of the name only) gets none', () => {
    expect(managedDashboardBody({ name: 'Checkout', id: 'd1' })).toStrictEqual({ name: 'Checkout' })
  })
})

describe('a managed alert body', () => {
  it('keeps the declared keys only: one channel, no channels list, no id', () => {
    expect(
      managedAlertBody({
        name: 'High errors',
        dashboardId: 'd1',
        tileId: 't1',
        threshold: 5,
        thresholdType: 'above',
        interval: '5m',
        source: 'tile',
        channel: { type: 'webhook', webhookId: 'w1' },
        channels: [{ type: 'webhook', webhookId: 'w1' }],
        id: 'a1',
        team: 'x'
      })
    ).toStrictEqual({
      name: 'High errors',
      dashboardId: 'd1',
      tileId: 't1',
      threshold: 5,
      thresholdType: 'above',
      interval: '5m',
      source: 'tile',
      channel: { type: 'webhook', webhookId: 'w1' }
    })
  })
})
