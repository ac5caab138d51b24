/**
 * Promise 3 against what the server does with a delete of something still in use (docs/real-server.md): a webhook
 * that is some alert's first channel is refused (409), one that is a later channel is deleted and leaves the alert
 * pointing at nothing; a source or connection is deleted whatever names it. The plan holds back each such delete while a record it keeps still uses the resource, and names the user.
 */
import { describe, expect, it } from '@jest/globals'
import { actions, errors, obsdeploy, useScenario } from '../support/harness.js'
import { connection, logSource, SECRETS, webhook } from '../support/record-manifests.js'

const { emu, ws } = useScenario()

const apply = (prune = 'true') =>
  obsdeploy(emu, ws, 'apply', {
    'secret-vars': SECRETS,
    prune
  })

const search = (name: string, source: string) => `---
kind: SavedSearch
name: ${name}
source: ${source}
where: 'level:error'
`

const webhookId = (name: string) => emu.selfHosted.webhooks.find(w => w.name === name)!.id
const sourceId = (name: string) => emu.selfHosted.sources.find(s => s.name === name)!.id
const searchId = (name: string) => [...emu.selfHosted.savedSearches.values()].find(s => s.name === name)!.id

/** An alert made in the UI (no stack owns it) on the saved search, with these webhooks as its channels. */
function uiAlert(name: string, savedSearch: string, webhooks: string[]) {
  const channels = webhooks.map(w => ({ type: 'webhook', webhookId: webhookId(w) }))
  return emu.selfHosted.createAlert({
    name,
    source: 'saved_search',
    savedSearchId: searchId(savedSearch),
    threshold: 1,
    thresholdType: 'above',
    interval: '5m',
    ...(channels.length === 1 ? { channel: channels[0] } : { channels })
  })
}

const base = () =>
  connection('Warehouse') +
  logSource('App logs', 'Warehouse') +
  search('App errors', 'App logs') +
  webhook('oncall')

describe('a delete of something still in use is held back, and the plan names who uses it', () => {
  it('keeps a webhook that an unowned alert uses as its first or a later channel', async () => {
    ws.write({ 'all.yaml': base() + webhook('pager') + webhook('backup') })
    expect(errors(await apply())).toEqual([])
    // A saved search and its alerts made in the UI: no stack owns them.
    emu.selfHosted.createSavedSearch({
      name: 'UI errors',
      sourceId: sourceId('App logs'),
      where: 'level:error'
    })
    const first = uiAlert('Made in the UI', 'UI errors', ['pager'])
    uiAlert('Second channel', 'UI errors', ['oncall', 'backup'])

    ws.write({ 'all.yaml': base() })
    const result = await apply()
    expect(errors(result)).toEqual([])
    expect(actions(result)).toEqual([])
    const held = result.plan!.changes.filter(c => c.deferred === 'in-use')
    expect(held.map(c => c.name).sort()).toEqual(['backup', 'pager'])
    const pager = held.find(c => c.name === 'pager')!
    expect(pager.notes.join('\n')).toContain('Alert "Made in the UI" (not managed by this stack) at channel')
    expect(held.find(c => c.name === 'backup')!.notes.join('\n')).toContain('Alert "Second channel"')
    // Both webhooks are still there, and the UI's alerts still reach them.
    expect(emu.selfHosted.webhooks.map(w => w.name)).toEqual(
      expect.arrayContaining(['backup', 'oncall', 'pager'])
    )
    expect(emu.selfHosted.alerts.get(first.id)).toBeDefined()

    // Once the UI's alerts let go, the next apply deletes them.
    emu.selfHosted.alerts.clear()
    const after = await apply()
    expect(actions(after)).toEqual(['delete Webhook/backup', 'delete Webhook/pager'])
    expect(emu.selfHosted.webhooks.map(w => w.name)).not.toEqual(expect.arrayContaining(['pager']))
    expect(emu.selfHosted.webhooks.map(w => w.name)).not.toEqual(expect.arrayContaining(['backup']))
  })

  it('keeps a source that an unowned dashboard tile uses, and a connection that a kept source uses', async () => {
    ws.write({ 'all.yaml': base() + connection('Archive') + logSource('Archive logs', 'Archive') })
    expect(errors(await apply())).toEqual([])
    emu.selfHosted.createDashboard({
      name: 'Made in the UI',
      tiles: [
        {
          name: 'Archived errors',
          x: 0,
          y: 0,
          w: 6,
          h: 3,
          config: { displayType: 'number', sourceId: sourceId('Archive logs'), select: [{ aggFn: 'count' }] }
        }
      ]
    })
    ws.write({ 'all.yaml': base() })
    const result = await apply()
    expect(errors(result)).toEqual([])
    const source = result.plan!.changes.find(c => c.name === 'Archive logs')!
    expect(source.deferred).toBe('in-use')
    expect(source.notes[0]).toContain(
      'Dashboard "Made in the UI" (not managed by this stack) at tiles["Archived errors"]'
    )
    // The connection's one user is the source this run keeps: held too.
    const conn = result.plan!.changes.find(c => c.name === 'Archive')!
    expect(conn.deferred).toBe('in-use')
    expect(conn.notes[0]).toContain('Source "Archive logs"')
    expect(emu.selfHosted.sources.map(s => s.name)).toContain('Archive logs')
  })

  it('deletes what only records this run deletes were using', async () => {
    ws.write({ 'all.yaml': base() + connection('Archive') + logSource('Archive logs', 'Archive') })
    expect(errors(await apply())).toEqual([])
    ws.write({ 'all.yaml': base() })
    const result = await apply()
    expect(actions(result)).toEqual(['delete Connection/Archive', 'delete Source/Archive logs'])
    expect(result.plan!.changes.some(c => c.deferred === 'in-use')).toBe(false)
  })
})
