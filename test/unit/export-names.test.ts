/**
 * Export writes every reference to another resource through one mechanism (kinds/exporting.ts's Namer): a name when it
 * names exactly one record, else the id with a comment. Table link-outs, filters and tiles alike.
 */
import { describe, expect, it } from '@jest/globals'
import { LiveDashboard, LiveSource } from '../../src/api/schemas.js'
import { exportManifests } from '../../src/export/manifests.js'

const source = (id: string, name: string) => LiveSource.parse({ id, name, kind: 'log' })
const table = (onClick: unknown) => ({
  id: 't1',
  name: 'T',
  x: 0,
  y: 0,
  w: 6,
  h: 3,
  config: {
    displayType: 'table',
    sourceId: 'aaaaaaaaaaaaaaaaaaaaaaa1',
    select: [{ aggFn: 'count' }],
    onClick
  }
})
const dashboard = (id: string, name: string, tiles: unknown[] = [], filters: unknown[] = []) =>
  LiveDashboard.parse({ id, name, tags: [], tiles, filters })

function exported(dashboards: LiveDashboard[], sources: LiveSource[]): string {
  return exportManifests({ dashboards, alerts: [], sources, ownershipTag: 'obsdeploy:shop' })
    .filter(f => f.kind === 'Dashboard')
    .map(f => f.text)
    .join('\n')
}

describe('export names references with one mechanism', () => {
  const sources = [
    source('aaaaaaaaaaaaaaaaaaaaaaa1', 'Logs'),
    source('aaaaaaaaaaaaaaaaaaaaaaa2', 'Twin'),
    source('aaaaaaaaaaaaaaaaaaaaaaa3', 'Twin')
  ]

  it('names a link-out target, a filter source and a tile source when each name is unique', () => {
    const text = exported(
      [
        dashboard('bbbbbbbbbbbbbbbbbbbbbbb1', 'Target'),
        dashboard(
          'bbbbbbbbbbbbbbbbbbbbbbb2',
          'From',
          [table({ type: 'dashboard', target: { mode: 'id', id: 'bbbbbbbbbbbbbbbbbbbbbbb1' } })],
          [
            {
              id: 'f1',
              type: 'QUERY_EXPRESSION',
              name: 'Service',
              expression: 'service',
              sourceId: 'aaaaaaaaaaaaaaaaaaaaaaa1'
            }
          ]
        ),
        dashboard('bbbbbbbbbbbbbbbbbbbbbbb3', 'Search', [
          table({ type: 'search', target: { mode: 'id', id: 'aaaaaaaaaaaaaaaaaaaaaaa1' } })
        ])
      ],
      sources
    )
    expect(text).toMatch(/target:\n\s+mode: id\n\s+dashboard: Target/)
    expect(text).toMatch(/target:\n\s+mode: id\n\s+source: Logs/)
    expect(text).toMatch(/expression: service\n\s+source: Logs/)
    expect(text).not.toMatch(/id: bbbbbbbbbbbbbbbbbbbbbbb1/)
    expect(text).not.toMatch(/id: aaaaaaaaaaaaaaaaaaaaaaa1/)
  })

  it('keeps the id, with a comment, where a name is shared or the record is gone', () => {
    const text = exported(
      [
        dashboard('bbbbbbbbbbbbbbbbbbbbbbb1', 'Same'),
        dashboard('bbbbbbbbbbbbbbbbbbbbbbb4', 'Same'),
        dashboard('bbbbbbbbbbbbbbbbbbbbbbb2', 'From', [
          table({ type: 'dashboard', target: { mode: 'id', id: 'bbbbbbbbbbbbbbbbbbbbbbb1' } })
        ]),
        dashboard('bbbbbbbbbbbbbbbbbbbbbbb3', 'Search', [
          table({ type: 'search', target: { mode: 'id', id: 'aaaaaaaaaaaaaaaaaaaaaaa2' } })
        ]),
        dashboard('bbbbbbbbbbbbbbbbbbbbbbb5', 'Gone', [
          table({ type: 'dashboard', target: { mode: 'id', id: 'bbbbbbbbbbbbbbbbbbbbbbb9' } })
        ])
      ],
      sources
    )
    expect(text).toContain(
      'dashboard id bbbbbbbbbbbbbbbbbbbbbbb1 has a name shared by another dashboard: kept as id'
    )
    expect(text).toMatch(/target:\n\s+mode: id\n\s+id: bbbbbbbbbbbbbbbbbbbbbbb1/)
    expect(text).toContain(
      'data source id aaaaaaaaaaaaaaaaaaaaaaa2 has a name shared by another data source: kept as id'
    )
    expect(text).toMatch(/target:\n\s+mode: id\n\s+id: aaaaaaaaaaaaaaaaaaaaaaa2/)
    expect(text).toContain(
      'dashboard id bbbbbbbbbbbbbbbbbbbbbbb9 could not be mapped to a name (no such dashboard): kept as id'
    )
  })
})
