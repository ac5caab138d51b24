/** The references a live record holds, found wherever they are (src/planner/in-use.ts usesOf). */
import { describe, expect, it } from '@jest/globals'
import { KINDS } from '../../src/kinds/index.js'
import { usesOf } from '../../src/planner/in-use.js'

describe('usesOf', () => {
  it("finds a dashboard's sources and connections in tiles, link-outs and filters, named by tile", () => {
    const dashboard = {
      id: 'd',
      name: 'D',
      tiles: [
        { name: 'Line', config: { displayType: 'line', sourceId: 's1' } },
        { name: 'SQL', config: { configType: 'sql', connectionId: 'c1', sourceId: '' } },
        { name: 'Series', series: [{ type: 'time', sourceId: 's2' }] },
        {
          name: 'Table',
          config: {
            displayType: 'table',
            sourceId: 's1',
            onClick: { type: 'search', target: { mode: 'id', id: 's3' } }
          }
        },
        {
          name: 'Link',
          config: { onClick: { type: 'dashboard', target: { mode: 'id', id: 'other-dashboard' } } }
        }
      ],
      filters: [{ name: 'env', sourceId: 's4', appliesToSourceIds: ['s5'] }]
    }
    expect(usesOf(KINDS, 'Dashboard', dashboard)).toEqual([
      { kind: 'Source', id: 's1', at: 'tiles["Line"].sourceId' },
      { kind: 'Connection', id: 'c1', at: 'tiles["SQL"].connectionId' },
      { kind: 'Source', id: 's2', at: 'tiles["Series"][0].sourceId' },
      { kind: 'Source', id: 's1', at: 'tiles["Table"].sourceId' },
      { kind: 'Source', id: 's3', at: 'tiles["Table"].onClick' },
      { kind: 'Source', id: 's4', at: 'filters[0].sourceId' },
      { kind: 'Source', id: 's5', at: 'filters[0].appliesToSourceIds' }
    ])
  })

  it("finds an alert's webhooks in channel and channels, a source's connection and correlated sources", () => {
    const alert = {
      id: 'a',
      channel: { type: 'webhook', webhookId: 'w1' },
      channels: [
        { type: 'webhook', webhookId: 'w1' },
        { type: 'webhook', webhookId: 'w2' }
      ]
    }
    expect(usesOf(KINDS, 'Alert', alert).map(u => `${u.kind} ${u.id} ${u.at}`)).toEqual([
      'Webhook w1 channel.webhookId',
      'Webhook w1 channels[0].webhookId',
      'Webhook w2 channels[1].webhookId'
    ])
    const source = { id: 's', connection: 'c', traceSourceId: 't', sessionSourceId: 'x', from: {} }
    expect(usesOf(KINDS, 'Source', source).map(u => `${u.kind} ${u.id} ${u.at}`)).toEqual([
      'Source t traceSourceId',
      'Source x sessionSourceId',
      'Connection c connection'
    ])
    expect(usesOf(KINDS, 'SavedSearch', { id: 'q', sourceId: 's' })).toEqual([
      { kind: 'Source', id: 's', at: 'sourceId' }
    ])
  })
})
