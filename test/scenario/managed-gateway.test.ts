/**
 * Managed mode against servers that serve one prefix each: the public cloud (`clickstack` only, its
 * gateway answers anything else with an HTML 404 and refuses undeclared top-level body keys) and a
 * CONTRACT.md server (`observability` only).
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import type { Emulator, EmulatorOptions } from '../../emulator/index.js'
import type { RawSettings } from '../../src/config/inputs.js'
import { reportOf } from '../../src/report/input.js'
import { renderText } from '../../src/report/text.js'
import type { RunResult } from '../../src/run/types.js'
import { actions, emulator, errors, obsdeploy, workspace, type Workspace } from '../support/harness.js'

const example = (file: string) =>
  readFileSync(new URL(`../../examples/observability/${file}`, import.meta.url), 'utf8')
const TEAM_SLACK = '65a1f0c2b3d4e5f6a7b8ca02'

async function withServer(
  options: EmulatorOptions,
  files: Record<string, string>,
  body: (emu: Emulator, ws: Workspace) => Promise<void>
): Promise<void> {
  const emu = await emulator(options)
  const ws = workspace(files)
  try {
    await body(emu, ws)
  } finally {
    await emu.close()
    ws.cleanup()
  }
}

const managed = (settings: RawSettings = {}): RawSettings => ({ mode: 'managed', ...settings })
const prefixesUsed = (emu: Emulator): string[] => [
  ...new Set(emu.requestLog.filter(r => r.mode === 'managed').map(r => r.path.split('/')[6] ?? ''))
]
const heading = (result: RunResult) =>
  renderText(
    reportOf(
      { command: 'plan', mode: 'managed', stack: 'shop', serviceGate: { open: false, reason: '' } },
      result
    ),
    { color: false }
  ).split('\n')[0]

describe('managed-prefix auto (the default)', () => {
  it('uses clickstack on the public cloud, and the report names it', async () => {
    await withServer(
      { managedPrefixes: ['clickstack'] },
      { 'checkout.yaml': example('checkout.yaml') },
      async (emu, ws) => {
        const apply = await obsdeploy(emu, ws, 'apply', managed())
        expect(errors(apply)).toEqual([])
        expect(emu.managed().dashboards.size).toBe(1)
        expect(prefixesUsed(emu)).toEqual(['clickstack'])
        const plan = await obsdeploy(emu, ws, 'plan', managed())
        expect(actions(plan)).toEqual([])
        expect(plan.plan!.managedPrefix).toBe('clickstack')
        expect(heading(plan)).toBe('obsdeploy plan for stack shop (managed, prefix clickstack)')
      }
    )
  })

  it("falls back to the contract's observability once, when the server has no clickstack route", async () => {
    const manifest = example('checkout.yaml')
      .replace(
        'webhook: ops-pager # a webhook by name (or webhookId: raw id)',
        'webhookId: 65a1f0c2b3d4e5f6a7b8ca01'
      )
      .replace('webhook: team-slack', `webhookId: ${TEAM_SLACK}`)
    await withServer(
      { managedPrefixes: ['observability'] },
      { 'checkout.yaml': manifest },
      async (emu, ws) => {
        const apply = await obsdeploy(emu, ws, 'apply', managed())
        expect(errors(apply)).toEqual([])
        expect(emu.managed().dashboards.size).toBe(1)
        // One probe of clickstack, then observability for the rest of the run.
        const managedCalls = emu.requestLog.filter(r => r.mode === 'managed')
        expect(managedCalls[0]).toMatchObject({ method: 'GET', status: 404 })
        expect(managedCalls[0]!.path).toMatch(/\/clickstack\/dashboards$/)
        expect(managedCalls.slice(1).every(r => r.path.includes('/observability/'))).toBe(true)
        expect(apply.plan!.managedPrefix).toBe('observability')
      }
    )
  })

  it('an explicit prefix the server does not serve is an error naming the path and the prefix', async () => {
    await withServer(
      { managedPrefixes: ['clickstack'] },
      { 'checkout.yaml': example('checkout.yaml') },
      async (emu, ws) => {
        const plan = await obsdeploy(emu, ws, 'plan', managed({ 'managed-prefix': 'observability' }))
        expect(plan.exitCode).toBe(1)
        const message = errors(plan).join('\n')
        expect(message).toMatch(
          /GET \/v1\/organizations\/[^ ]+\/observability\/dashboards failed: HTTP 404 that is not this route's "not found" answer/
        )
        expect(message).toContain('Cannot GET')
        expect(message).toContain('Managed prefix "observability"')
      }
    )
  })
})

describe('managed request bodies', () => {
  it('send no `channels` (the gateway refuses it), and the plan shows the UI-added channel going', async () => {
    await withServer(
      { managedPrefixes: ['clickstack'] },
      { 'checkout.yaml': example('checkout.yaml') },
      async (emu, ws) => {
        await obsdeploy(emu, ws, 'apply', managed())
        const alert = [...emu.managed().alerts.values()].find(a => a.name === 'Checkout errors')!
        alert.channels = [alert.channel, { type: 'webhook', webhookId: TEAM_SLACK }]
        ws.write({ 'checkout.yaml': example('checkout.yaml').replace('threshold: 10', 'threshold: 20') })

        const plan = await obsdeploy(emu, ws, 'plan', managed())
        const change = plan.plan!.changes.find(c => c.name === 'Checkout errors')!
        expect(change.fields).toEqual([
          { path: 'otherChannels', before: [`team-slack (${TEAM_SLACK})`] },
          { path: 'threshold', before: 10, after: 20 }
        ])
        expect(change.notes.join(' ')).toMatch(/the managed API takes only `channel`/)

        const apply = await obsdeploy(emu, ws, 'apply', managed())
        expect(errors(apply)).toEqual([])
        const updated = [...emu.managed().alerts.values()].find(a => a.name === 'Checkout errors')!
        expect(updated).toMatchObject({ threshold: 20, channels: [{ webhookId: alert.channel.webhookId }] })
        expect(actions(await obsdeploy(emu, ws, 'plan', managed()))).toEqual([])
      }
    )
  })
})
