/**
 * Two applies of one stack at the same time that each create the stack's registry dashboard (each records a
 * connection it created; the emulator's `gather` fault holds both creates until both runs have read the live state,
 * so neither sees the other's registry). An apply that created a registry says so when it finds another; the next
 * plan names the extra one (deferred without prune); `apply --prune` writes its entries into the kept one (the lowest
 * id) and deletes it, so one registry dashboard holds every id the stack owns. Another stack's are never touched.
 */
import { describe, expect, it } from '@jest/globals'
import type { StoredDashboard } from '../../emulator/index.js'
import { isRegistryDashboard, parseRegistry, registryTiles } from '../../src/kinds/registry.js'
import { connection, SECRETS } from '../support/record-manifests.js'
import { errors, obsdeploy, useScenario, workspace, type Workspace } from '../support/harness.js'

const { emu, ws } = useScenario()

const secrets = { 'secret-vars': SECRETS }
const registries = (tag = 'obsdeploy:shop') =>
  [...emu.selfHosted.dashboards.values()]
    .filter(d => isRegistryDashboard(d) && d.tags.includes(tag))
    .sort((a, b) => (a.id < b.id ? -1 : 1))
const ownedIds = (d: StoredDashboard) => {
  const parsed = parseRegistry(d as never)
  if ('problem' in parsed) throw new Error(parsed.problem)
  return Object.keys(parsed.owned.Connection ?? {}).sort()
}
/** The connections the stack created (the emulator is seeded with one of its own). */
const liveConnections = () =>
  [...emu.selfHosted.connections.values()]
    .filter(c => c.name === 'Orders' || c.name === 'Billing')
    .map(c => c.id)
    .sort()

/** Two applies of stack "shop" at once, from two checkouts that each add a connection. */
async function concurrentApplies(): Promise<{
  other: Workspace
  runs: Awaited<ReturnType<typeof obsdeploy>>[]
}> {
  ws.write({ 'orders.yaml': connection('Orders') })
  const other = workspace({ 'billing.yaml': connection('Billing') })
  emu.faults.add({ method: 'POST', path: /^\/api\/v2\/connections$/, sequence: ['gather', 'gather'] })
  const runs = await Promise.all([
    obsdeploy(emu, ws, 'apply', secrets),
    obsdeploy(emu, other, 'apply', secrets)
  ])
  return { other, runs }
}

describe('two registry dashboards of one stack', () => {
  it('the apply that finds the other says so; the next plan names the extra; apply --prune leaves one with every id', async () => {
    const { other, runs } = await concurrentApplies()
    try {
      expect(registries()).toHaveLength(2)
      const [kept, extra] = registries().map(d => d.id)
      // Each recorded its own connection in its own registry.
      expect(registries().map(ownedIds).flat().sort()).toEqual(liveConnections())
      expect(liveConnections()).toHaveLength(2)
      // The run that looked last sees both; one that looked before the other created sees only its own.
      const told = runs.filter(r => r.exitCode === 1)
      expect(told.length).toBeGreaterThanOrEqual(1)
      for (const run of told)
        expect(errors(run)).toEqual([
          `the registry dashboard "obsdeploy registry (stack shop)" exists 2 times (ids ${kept}, ${extra}): another apply of this stack created one at the same time. What each apply created is recorded in one of them, and a plan reads them as one, so the stack still owns it all; the next plan names the extra one (${extra}), and \`apply --prune\` writes its entries into ${kept} (the lowest id) and deletes it. Let one apply of a stack run at a time (the workflow's \`concurrency:\` setting)`
        ])
      for (const run of runs.filter(r => r.exitCode === 0)) expect(errors(run)).toEqual([])
    } finally {
      other.cleanup()
    }

    // The merged checkout declares both connections.
    ws.write({ 'billing.yaml': connection('Billing') })
    const [kept, extra] = registries().map(d => d.id)
    const planned = await obsdeploy(emu, ws, 'plan', secrets)
    expect(errors(planned)).toEqual([])
    expect(planned.exitCode).toBe(0)
    expect(planned.plan!.changes.filter(c => c.action !== 'noop')).toEqual([
      expect.objectContaining({
        kind: 'Dashboard',
        action: 'delete',
        id: extra,
        deferred: 'prune',
        fields: [
          { path: 'name', before: 'obsdeploy registry (stack shop)' },
          { path: 'owner', before: 'obsdeploy:shop' },
          { path: 'entries', before: { Connection: 1 } }
        ],
        notes: [
          `an extra registry dashboard of this stack, left by two applies that each created one at the same time: its entries are written into the one the stack keeps (id ${kept}, the lowest id) before it is deleted: would be deleted with prune`
        ]
      })
    ])
    // Without prune nothing is deleted.
    expect(errors(await obsdeploy(emu, ws, 'apply', secrets))).toEqual([])
    expect(registries()).toHaveLength(2)

    const pruned = await obsdeploy(emu, ws, 'apply', { ...secrets, prune: 'true' })
    expect(errors(pruned)).toEqual([])
    expect(pruned.exitCode).toBe(0)
    expect(pruned.apply!.outcomes).toEqual([
      expect.objectContaining({ kind: 'Dashboard', action: 'delete', id: extra, status: 'applied' })
    ])
    expect(registries().map(d => d.id)).toEqual([kept])
    expect(ownedIds(registries()[0]!)).toEqual(liveConnections())
    expect(liveConnections()).toHaveLength(2)
    // And the stack still owns both: a plan without their manifests would delete them, with prune.
    const again = await obsdeploy(emu, ws, 'plan', { ...secrets, prune: 'true' })
    expect(again.plan!.changes.filter(c => c.action !== 'noop')).toEqual([])
    ws.remove('billing.yaml')
    const without = await obsdeploy(emu, ws, 'plan', { ...secrets, prune: 'true' })
    expect(without.plan!.changes.filter(c => c.action === 'delete').map(c => `${c.kind}/${c.name}`)).toEqual([
      'Connection/Billing'
    ])
  }, 30_000)

  it("another stack's two registry dashboards are never named nor touched", async () => {
    const tags = ['obsdeploy:billing', 'obsdeploy-registry']
    const theirs = (owned: Parameters<typeof registryTiles>[1]) =>
      emu.selfHosted.createDashboard({
        name: 'obsdeploy registry (stack billing)',
        tags,
        tiles: registryTiles('billing', owned)
      })
    theirs({ Webhook: { w1: { name: 'a' } } })
    theirs({ Webhook: { w2: { name: 'b' } } })
    ws.write({ 'orders.yaml': connection('Orders') })
    const result = await obsdeploy(emu, ws, 'apply', { ...secrets, prune: 'true' })
    expect(errors(result)).toEqual([])
    expect(result.plan!.changes.filter(c => c.kind === 'Dashboard')).toEqual([])
    expect(registries('obsdeploy:billing')).toHaveLength(2)
    expect(registries()).toHaveLength(1)
  })
})
