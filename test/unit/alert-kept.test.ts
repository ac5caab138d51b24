/** What an alert update carries from the live alert (src/kinds/alert-kept.ts). */
import { describe, expect, it } from '@jest/globals'
import { LiveAlert, LiveDashboard, LiveSavedSearch } from '../../src/api/schemas.js'
import { derivedDisplay, keptBody, keptFields, keptNote } from '../../src/kinds/alert-kept.js'

const dashboard = LiveDashboard.parse({
  id: 'd1',
  name: 'Checkout',
  tags: ['payments', '', 'x'.repeat(40)],
  tiles: [
    { id: 't1', name: 'Errors', x: 0, y: 0, w: 6, h: 3 },
    { id: 't2', name: '', x: 6, y: 0, w: 6, h: 3 }
  ]
})
const search = LiveSavedSearch.parse({ id: 's1', name: '  Burst  ', tags: ['oncall'] })
const tileAlert = (extra: Record<string, unknown> = {}) =>
  LiveAlert.parse({ id: 'a1', source: 'tile', dashboardId: 'd1', tileId: 't1', threshold: 1, ...extra })

describe('what the server derives', () => {
  it('for a tile: "<dashboard> - <tile>", "Tile" for an unnamed one, and the dashboard\'s tags clamped', () => {
    expect(derivedDisplay(tileAlert(), { dashboard })).toEqual({
      displayName: 'Checkout - Errors',
      tags: ['payments', 'x'.repeat(32)]
    })
    expect(derivedDisplay(tileAlert({ tileId: 't2' }), { dashboard })?.displayName).toBe('Checkout - Tile')
  })
  it('for a saved search: its trimmed name and tags; nothing when the target is not read', () => {
    const a = LiveAlert.parse({ id: 'a2', source: 'saved_search', savedSearchId: 's1', threshold: 1 })
    expect(derivedDisplay(a, { search })).toEqual({ displayName: 'Burst', tags: ['oncall'] })
    expect(derivedDisplay(a, {})).toBeUndefined()
  })
})

describe('what an update keeps', () => {
  it('keeps values set in the UI and unknown fields; leaves out derived ones and what the manifest sets', () => {
    const live = tileAlert({
      displayName: 'Pager',
      tags: ['payments', 'x'.repeat(32)],
      runbookUrl: 'u',
      state: 'OK'
    })
    const kept = keptFields(live, {}, { dashboard }, 'self-hosted')
    expect(kept).toEqual({ displayName: 'Pager', unknown: { runbookUrl: 'u' }, lost: [] })
    expect(keptBody(kept)).toEqual({ displayName: 'Pager', runbookUrl: 'u' })
    expect(keptNote(kept)).toBe(
      'keeps displayName "Pager", set outside the manifests (in the UI or the API); it carries `runbookUrl` as the server holds it (unknown to this version of obsdeploy)'
    )
    expect(
      keptFields(live, { displayName: 'Mine' }, { dashboard }, 'self-hosted').displayName
    ).toBeUndefined()
  })
  it('keeps what it cannot tell from derived when the dashboard is not read', () => {
    const live = tileAlert({ displayName: 'Checkout - Errors', tags: [] })
    expect(keptFields(live, {}, {}, 'self-hosted')).toMatchObject({
      displayName: 'Checkout - Errors',
      tags: []
    })
  })
  it('managed: an unknown field cannot be sent: the note says the update resets it', () => {
    const kept = keptFields(tileAlert({ runbookUrl: 'u' }), {}, { dashboard }, 'managed')
    expect(kept).toEqual({ unknown: {}, lost: ['runbookUrl'] })
    expect(keptBody(kept)).toEqual({})
    expect(keptNote(kept)).toMatch(
      /^resets `runbookUrl` \(unknown to this version of obsdeploy; the managed API refuses/
    )
  })
})
