/**
 * The round trip, for every form of the kinds besides builder dashboards (test/support/real-surface.ts), in both
 * modes: export -> validate -> apply (adopting) -> plan is empty, and the server's records are what they were,
 * timestamps and this stack's ownership aside: no field lost, no id changed, write-only values kept.
 */
import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { parseAllDocuments } from 'yaml'
import type { Emulator, Store } from '../../emulator/types.js'
import { cli } from '../../src/cli.js'
import { isRegistryDashboard } from '../../src/kinds/registry.js'
import { actions, errors, obsdeploy, useScenario, type Workspace } from '../support/harness.js'
import { makeEverything } from '../support/real-surface.js'

const { emu, ws } = useScenario()

type Mode = 'self-hosted' | 'managed'

async function exportTo(e: Emulator, w: Workspace, mode: Mode): Promise<string> {
  let stderr = ''
  const managed = mode === 'managed'
  const args = [
    'export',
    '--out',
    'observability',
    '--api-url',
    e.url,
    '--stack',
    'shop',
    '--rate-limit',
    'off'
  ]
  if (managed)
    args.push(
      '--mode',
      'managed',
      '--managed-prefix',
      'clickstack',
      '--organization-id',
      e.credentials.organizationId,
      '--service-id',
      e.credentials.serviceId
    )
  const code = await cli(args, {
    stdout: () => {},
    stderr: t => (stderr += t),
    env: managed
      ? { OBSDEPLOY_KEY_ID: e.credentials.keyId, OBSDEPLOY_KEY_SECRET: e.credentials.keySecret }
      : { OBSDEPLOY_API_KEY: e.credentials.apiKey },
    cwd: w.dir,
    isTty: false
  })
  expect(stderr).toMatch(/exported/)
  expect(code).toBe(0)
  return readdirSync(path.join(w.dir, 'observability'))
    .map(f => readFileSync(path.join(w.dir, 'observability', f), 'utf8'))
    .join('\n---\n')
}

/** Everything a store holds, as comparable records: no timestamps, no ownership tag of this stack. */
function records(store: Store): Record<string, unknown> {
  const strip = (r: object): Record<string, unknown> => {
    const { createdAt: _c, updatedAt: _u, ...rest } = r as Record<string, unknown>
    if (Array.isArray(rest.tags)) rest.tags = (rest.tags as string[]).filter(t => t !== 'obsdeploy:shop')
    return rest
  }
  return {
    dashboards: [...store.dashboards.values()].filter(d => !isRegistryDashboard(d)).map(strip),
    alerts: [...store.alerts.values()].map(strip),
    sources: store.sources.map(strip),
    webhooks: store.webhooks.map(strip),
    connections: store.connections.map(strip),
    savedSearches: [...store.savedSearches.values()].map(strip)
  }
}

/** The secret variables the export asks for, with the values the server holds. */
function secretVars(text: string, urls: Record<string, string>): string {
  const vars: string[] = []
  for (const doc of parseAllDocuments(text)) {
    const v = doc.toJS() as { kind?: string; name?: string; url?: string } | null
    const m = v?.kind === 'Webhook' ? /^\$\{secret\.([A-Z0-9_]+)\}$/.exec(v.url ?? '') : null
    if (m) vars.push(`${m[1]}: ${JSON.stringify(urls[v!.name!])}`)
  }
  return vars.join('\n')
}

describe.each<Mode>(['self-hosted', 'managed'])('round trip of every form (%s)', mode => {
  it('export -> validate -> apply (adopting) -> an empty plan, and the server holds what it held', async () => {
    const store = mode === 'managed' ? emu.managed() : emu.selfHosted
    const surface = makeEverything(store, mode)
    const before = records(store)
    const text = await exportTo(emu, ws, mode)
    // Secrets are placeholders, never values.
    for (const value of [...Object.values(surface.urls), ...Object.values(surface.passwords)])
      expect(text).not.toContain(value)
    for (const kind of ['Connection', 'Source', 'SavedSearch', 'Webhook', 'Dashboard', 'Alert'])
      if (mode === 'self-hosted' || kind !== 'Connection') expect(text).toContain(`kind: ${kind}`)

    const settings = {
      // The secrets hold what the server holds (the seed's webhooks' urls too).
      'secret-vars': secretVars(text, Object.fromEntries(store.webhooks.map(w => [w.name, w.url ?? '']))),
      ...(mode === 'managed' ? { mode: 'managed', 'managed-prefix': 'clickstack' } : {})
    }
    const validate = await obsdeploy(emu, ws, 'validate', settings)
    expect(errors(validate)).toEqual([])
    const apply = await obsdeploy(emu, ws, 'apply', settings)
    expect(errors(apply)).toEqual([])
    expect(apply.exitCode).toBe(0)
    const plan = await obsdeploy(emu, ws, 'plan', settings)
    expect(errors(plan)).toEqual([])
    expect(actions(plan)).toEqual([])
    expect(records(store)).toEqual(before)
  })
})
