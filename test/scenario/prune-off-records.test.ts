/**
 * Promise 3 with prune off for the kinds without tags (Connection, Source, SavedSearch, Webhook), as
 * prune-off.test.ts proves it for dashboards and alerts: removed resources are listed as "would be deleted
 * with prune" and stay, while the same apply carries out another change (so the operations are reached).
 */
import { describe, expect, it } from '@jest/globals'
import type { StoredConnection } from '../../emulator/types.js'
import { actions, errors, obsdeploy, useScenario } from '../support/harness.js'
import { connection, logSource, SECRETS, webhook } from '../support/record-manifests.js'

const { emu, ws } = useScenario()

const run = (prune: 'true' | 'false') =>
  obsdeploy(emu, ws, 'apply', {
    'secret-vars': SECRETS,
    prune
  })

const search = (name: string, where: string) => `---
kind: SavedSearch
name: ${name}
source: App logs
where: '${where}'
`

const kept = () => connection('Warehouse') + logSource('App logs', 'Warehouse') + webhook('oncall')
const removable = () =>
  connection('Archive') +
  logSource('Archive logs', 'Archive') +
  search('App warnings', 'level:warn') +
  webhook('pager')

describe('apply with prune off deletes none of the kinds without tags, while it applies other changes', () => {
  it('keeps a removed connection, source, saved search and webhook while it updates a saved search', async () => {
    ws.write({ 'all.yaml': kept() + search('App errors', 'level:error') + removable() })
    const first = await run('true')
    expect(errors(first)).toEqual([])
    const connections = () => (emu.selfHosted as unknown as { connections: StoredConnection[] }).connections
    const before = {
      connection: connections().find(c => c.name === 'Archive')!.id,
      source: emu.selfHosted.sources.find(s => s.name === 'Archive logs')!.id,
      search: [...emu.selfHosted.savedSearches.values()].find(s => s.name === 'App warnings')!.id,
      webhook: emu.selfHosted.webhooks.find(w => w.name === 'pager')!.id
    }

    ws.write({ 'all.yaml': kept() + search('App errors', 'level:fatal') })
    emu.clearLog()
    const apply = await run('false')

    expect(errors(apply)).toEqual([])
    expect(actions(apply)).toEqual(['update SavedSearch/App errors'])
    for (const address of [
      'Connection/Archive',
      'Source/Archive logs',
      'SavedSearch/App warnings',
      'Webhook/pager'
    ])
      expect(apply.plan!.changes.find(c => c.address.startsWith(address))).toMatchObject({
        action: 'delete',
        deferred: 'prune'
      })
    expect(apply.outputs.deletes).toBe(0)
    expect(emu.requestLog.filter(r => r.method === 'DELETE')).toEqual([])
    expect(connections().some(c => c.id === before.connection)).toBe(true)
    expect(emu.selfHosted.sources.some(s => s.id === before.source)).toBe(true)
    expect(emu.selfHosted.savedSearches.has(before.search)).toBe(true)
    expect(emu.selfHosted.webhooks.some(w => w.id === before.webhook)).toBe(true)
    expect([...emu.selfHosted.savedSearches.values()].find(s => s.name === 'App errors')).toMatchObject({
      where: 'level:fatal'
    })
  })
})
