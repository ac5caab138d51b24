/**
 * The round trip, in both modes: a team's dashboards and alerts made in the UI (every tile form the real GET returns,
 * every dashboard-level field, every alert field this tool writes: test/fixtures/every-form.ts) are exported, the
 * files validate offline, the first apply adopts them, and the next plan is empty. The server's records are then what
 * they were, but for the ownership tag and the alerts' updatedAt: no field lost, no id changed (dashboards, tiles,
 * filters, containers, tabs, alerts).
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { externalAlert } from '../../emulator/alert-body.js'
import { externalDashboard } from '../../emulator/dashboard-output.js'
import { cli } from '../../src/cli.js'
import { validateText } from '../../src/manifest/load.js'
import { seedEveryForm } from '../fixtures/every-form.js'
import { actions, errors, obsdeploy, useScenario } from '../support/harness.js'

const { emu, ws } = useScenario()

type Mode = 'self-hosted' | 'managed'

async function exportAll(mode: Mode): Promise<{ code: number; stderr: string }> {
  const c = emu.credentials
  const args =
    mode === 'managed'
      ? ['--mode', 'managed', '--organization-id', c.organizationId, '--service-id', c.serviceId]
      : []
  let stderr = ''
  const code = await cli(
    // Dashboards and their alerts: the other kinds' round trip is test/scenario/round-trip.test.ts.
    [
      'export',
      '--out',
      'observability',
      '--api-url',
      emu.url,
      '--stack',
      'shop',
      '--kind',
      'Dashboard',
      ...args
    ],
    {
      stdout: () => {},
      stderr: t => (stderr += t),
      env: { OBSDEPLOY_API_KEY: c.apiKey, OBSDEPLOY_KEY_ID: c.keyId, OBSDEPLOY_KEY_SECRET: c.keySecret },
      cwd: ws.dir,
      isTty: false
    }
  )
  return { code, stderr }
}

describe.each<Mode>(['self-hosted', 'managed'])('%s', mode => {
  const store = () => (mode === 'managed' ? emu.managed() : emu.selfHosted)
  const records = () => ({
    dashboards: [...store().dashboards.values()].map(externalDashboard),
    alerts: [...store().alerts.values()].map(externalAlert)
  })

  it('export, validate, apply (adopting), plan: empty, and the records are unchanged', async () => {
    const seeded = seedEveryForm(store(), mode)
    const before = records()
    expect(before.dashboards.map(d => (d.tiles as unknown[]).length)).toEqual([
      0,
      mode === 'managed' ? 20 : 21
    ])

    const exported = await exportAll(mode)
    expect(exported).toEqual({ code: 0, stderr: expect.stringMatching(/^exported 2 of 2 dashboard/) })
    const dir = path.join(ws.dir, 'observability')
    const files = readdirSync(dir).sort()
    expect(files).toEqual(['every-form.yaml', 'link-target.yaml'])
    for (const file of files) {
      const text = readFileSync(path.join(dir, file), 'utf8')
      expect({ file, diagnostics: validateText(file, text, mode).diagnostics }).toEqual({
        file,
        diagnostics: []
      })
      // Names, not ids: an id appears only in a comment.
      expect(text.replace(/#.*$/gm, '')).not.toMatch(/[0-9a-f]{24}/)
    }
    const text = readFileSync(path.join(dir, 'every-form.yaml'), 'utf8')
    for (const words of [
      'source: Logs',
      'dashboard: Link target',
      'container: Overview',
      'tab: Latency',
      'appliesToSources:',
      'savedQueryLanguage: sql',
      'displayType: heatmap',
      'displayType: event_patterns',
      'colorRules:',
      'scheduleOffsetMinutes: 3',
      'scheduleStartAt:'
    ])
      expect(text).toContain(words)

    const adopt = await obsdeploy(emu, ws, 'plan', { mode })
    expect(errors(adopt)).toEqual([])
    for (const c of adopt.plan!.changes.filter(c => c.action !== 'noop'))
      expect([c.name, c.fields]).toEqual([c.name, [{ path: 'owner', after: 'obsdeploy:shop' }]])
    const applied = await obsdeploy(emu, ws, 'apply', { mode })
    expect(errors(applied)).toEqual([])
    expect(applied.exitCode).toBe(0)
    expect(actions(await obsdeploy(emu, ws, 'plan', { mode }))).toEqual([])

    const after = records()
    expect(after.dashboards.map(d => d.id)).toEqual(seeded.dashboards)
    expect(after.alerts.map(a => a.id)).toEqual(seeded.alerts)
    expect(after.dashboards.map(d => ({ ...d, tags: [] }))).toEqual(
      before.dashboards.map(d => ({ ...d, tags: [] }))
    )
    expect(after.dashboards.map(d => d.tags)).toEqual(
      before.dashboards.map(d => [...(d.tags as string[]), 'obsdeploy:shop'])
    )
    expect(after.alerts.map(a => ({ ...a, updatedAt: 0 }))).toEqual(
      before.alerts.map(a => ({ ...a, updatedAt: 0 }))
    )
  })
})
