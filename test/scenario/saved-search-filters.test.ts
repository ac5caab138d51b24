/**
 * Saved-search filters the web UI writes beside `sql` ones: `lucene` conditions and `sql_ast` comparisons. The
 * self-hosted server keeps them on an update only as it stores them already, and refuses a new or changed one
 * (v2/savedSearches.ts): export writes them, the next plan carries them unchanged, and a new one is a plan error.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { actions, errors, obsdeploy, useScenario } from '../support/harness.js'
import { runCli } from '../support/cli.js'

const { emu, ws } = useScenario()

const LUCENE = { type: 'lucene', condition: 'service:checkout' }
const AST = { type: 'sql_ast', operator: '=', left: 'ServiceName', right: "'cart'" }

/** A saved search of the stack with a sql filter, and the two others as the web UI stores them. */
function seed(): string {
  const logs = emu.selfHosted.sources.find(s => s.name === 'Logs')!.id
  const search = emu.selfHosted.createSavedSearch({
    name: 'Checkout',
    sourceId: logs,
    where: 'level:error',
    tags: ['obsdeploy:shop'],
    filters: [{ type: 'sql', condition: "ServiceName IN ('checkout')" }]
  })
  emu.selfHosted.savedSearches.get(search.id)!.filters.push({ ...LUCENE }, { ...AST })
  return search.id
}

describe('saved-search filters the web UI writes', () => {
  it('are exported, carried unchanged by the next plan, and kept by an update', async () => {
    const id = seed()
    const exported = await runCli(emu, ws, [
      'export',
      '--out',
      'observability',
      '--api-url',
      emu.url,
      '--stack',
      'shop',
      '--kind',
      'SavedSearch'
    ])
    expect(exported.code).toBe(0)
    const file = readFileSync(path.join(ws.dir, 'observability', 'saved-searches.yaml'), 'utf8')
    expect(file).toContain('type: lucene')
    expect(file).toContain('type: sql_ast')
    expect(file).not.toContain('cannot express')

    const plan = await obsdeploy(emu, ws, 'plan')
    expect(errors(plan)).toEqual([])
    expect(actions(plan)).toEqual([])

    // A change elsewhere sends them back as they are: the server takes them.
    const edited = file.replace(/where: .*level:error.*/, "where: 'level:warn'")
    expect(edited).not.toBe(file)
    ws.write({ 'saved-searches.yaml': edited })
    const apply = await obsdeploy(emu, ws, 'apply')
    expect(errors(apply)).toEqual([])
    expect(actions(apply)).toEqual(['update SavedSearch/Checkout'])
    expect(emu.selfHosted.savedSearches.get(id)!.filters).toEqual([
      { type: 'sql', condition: "ServiceName IN ('checkout')" },
      LUCENE,
      AST
    ])
  })

  it('a new or changed one is a plan error at its line, before any write', async () => {
    seed()
    ws.write({
      's.yaml': `kind: SavedSearch
name: Checkout
source: Logs
where: 'level:error'
filters:
  - condition: ServiceName IN ('checkout')
  - { type: lucene, condition: 'service:cart' }
  - { type: sql_ast, operator: '=', left: ServiceName, right: "'cart'" }
`
    })
    emu.clearLog()
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(plan.exitCode).toBe(1)
    const found = plan.diagnostics.filter(d => d.severity === 'error')
    // The lucene one changed; the sql_ast one is as stored.
    expect(found.map(d => `${d.line} ${d.field}: ${d.message}`)).toEqual([
      '7 filters[1]: the server keeps a lucene filter only as the saved search stores it already, and refuses a new or changed one: set it in the web UI, or write it as an sql filter'
    ])
    expect(emu.requestLog.filter(r => r.method !== 'GET' && r.path !== '/mcp')).toEqual([])
  })
})
