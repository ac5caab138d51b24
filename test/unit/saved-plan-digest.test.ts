/**
 * The live digest of a saved plan (run/saved-plan.ts) is hashed list item by list item; its bytes must stay
 * those of JSON.stringify of the whole state, or every plan saved before would stop holding.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from '@jest/globals'
import type { LiveState } from '../../src/kinds/kind.js'
import { liveDigest } from '../../src/run/saved-plan.js'

const whole = (live: unknown) =>
  `sha256:${createHash('sha256').update(JSON.stringify(live)).digest('base64url')}`

describe('liveDigest', () => {
  it('hashes the bytes of JSON.stringify of the whole live state', () => {
    const live = {
      dashboards: [
        {
          id: 'd1',
          name: 'A',
          tags: ['obsdeploy:shop'],
          tiles: [{ id: 't1', name: 'T', config: { where: '' } }]
        },
        { id: 'd2', name: 'B "quoted"', tags: [], tiles: [] }
      ],
      alerts: [{ id: 'a1', name: 'Hot', state: 'ALERT', note: undefined }],
      sources: [],
      webhooks: undefined,
      connections: [{ id: 'c1', name: 'Local', host: 'http://localhost:8123' }],
      savedSearches: [undefined, { id: 's1', name: 'Errors' }],
      service: { ipAccessList: [{ source: '10.0.0.0/8' }], idleScaling: true }
    } as unknown as LiveState
    expect(liveDigest(live)).toBe(whole(live))
  })

  it('hashes an empty state and one without lists as JSON writes them', () => {
    const empty = { dashboards: [], alerts: [], sources: [] } as unknown as LiveState
    expect(liveDigest(empty)).toBe(whole(empty))
    expect(liveDigest({} as LiveState)).toBe(whole({}))
  })

  it('changes with any field of any record', () => {
    const live = { dashboards: [{ id: 'd1', name: 'A' }], alerts: [], sources: [] } as unknown as LiveState
    const edited = { ...live, dashboards: [{ id: 'd1', name: 'B' }] } as unknown as LiveState
    expect(liveDigest(edited)).not.toBe(liveDigest(live))
  })
})
