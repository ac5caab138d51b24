/**
 * What the dashboard kind tells the kinds planned after it (src/kinds/dashboard/facts.ts): per manifest its live id
 * and tile ids, per live dashboard whether this run deletes it and which of its tiles lose their alerts.
 */
import { describe, expect, it } from '@jest/globals'
import type { LiveDashboard } from '../../src/api/schemas.js'
import { KINDS } from '../../src/kinds/index.js'
import { validateText } from '../../src/manifest/load.js'
import { computePlan } from '../../src/planner/planner.js'
import { SHOP_TAG, shopSettings } from '../support/shop-stack.js'

function facts(yaml: string, dashboards: LiveDashboard[], prune = true) {
  const manifests = validateText('d.yaml', yaml, 'self-hosted')
  expect(manifests.diagnostics.filter(d => d.severity === 'error')).toEqual([])
  return computePlan({
    command: 'plan',
    settings: shopSettings({ prune }),
    manifests,
    live: {
      Dashboard: dashboards,
      Alert: [],
      Source: [{ id: 'src-logs', name: 'Logs', kind: 'log' }],
      Webhook: [],
      Connection: [],
      SavedSearch: []
    },
    now: new Date(0),
    kinds: KINDS
  }).dashboards
}

const line = { displayType: 'line', sourceId: 'src-logs', select: [{ aggFn: 'count' }] }
const liveTile = (id: string | undefined, name: string, config: Record<string, unknown> = line) => ({
  ...(id === undefined ? {} : { id }),
  name,
  x: 0,
  y: 0,
  w: 6,
  h: 3,
  config
})
const manifest = (name: string, tiles: string[]) =>
  `---\nkind: Dashboard\nname: ${name}\ntiles:\n${tiles.join('')}`
const chart = (name: string) =>
  `  - { name: ${name}, x: 0, y: 0, w: 6, h: 3, config: { displayType: line, source: Logs, select: [{ aggFn: count }] } }\n`
const markdown = (name: string) =>
  `  - { name: ${name}, x: 0, y: 0, w: 6, h: 3, config: { displayType: markdown, markdown: hi } }\n`

describe('what the alert kind learns of the dashboards', () => {
  const kept = {
    id: 'd1',
    name: 'Kept',
    tags: [SHOP_TAG],
    tiles: [
      liveTile('t1', 'Chart'),
      liveTile('t2', 'Note'),
      liveTile('t3', 'Gone'),
      liveTile(undefined, 'Unsaved'),
      liveTile(undefined, 'Draft'),
      liveTile('t5', 'Chart')
    ]
  } as LiveDashboard
  const old = { id: 'd2', name: 'Old', tags: [SHOP_TAG], tiles: [liveTile('t9', 'Chart')] } as LiveDashboard
  const yaml =
    manifest('Kept', [chart('Chart'), markdown('Note'), chart('Unsaved')]) + manifest('New', [chart('A')])

  it("per manifest: the live id it maps to and the live ids of the manifest's tiles by name", () => {
    const { desired } = facts(yaml, [kept, old])
    expect(desired).toEqual(
      new Map([
        [
          'Kept',
          {
            address: 'Dashboard/Kept',
            liveId: 'd1',
            tileIds: new Map([
              ['Chart', 't1'],
              ['Note', 't2']
            ]),
            pinnedNames: new Map()
          }
        ],
        ['New', { address: 'Dashboard/New', liveId: undefined, tileIds: new Map(), pinnedNames: new Map() }]
      ])
    )
  })

  it('per live dashboard: deleted with prune only, and the tiles that lose their alerts', () => {
    const { live } = facts(yaml, [kept, old])
    expect(live).toEqual(
      new Map([
        [
          'd1',
          {
            address: 'Dashboard/Kept',
            desiredName: 'Kept',
            deleted: false,
            // Gone and the second Chart go away; Note is no longer alertable (markdown); Draft has no id.
            droppedTileIds: new Set(['t2', 't3', 't5'])
          }
        ],
        [
          'd2',
          { address: 'Dashboard/Old@d2', desiredName: undefined, deleted: true, droppedTileIds: new Set() }
        ]
      ])
    )
    expect(facts(yaml, [kept, old], false).live.get('d2')!.deleted).toBe(false)
  })
})
