import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { stringify } from 'yaml'
import { actions, obsdeploy, useScenario } from '../support/harness.js'

const { emu, ws } = useScenario({ per: 'file' })

const WHERES = ['', 'level:error', 'service:checkout AND level:warn', 'NOT level:info', 'duration:>100']

/** Tiles in every form the manifest language has; `alertable` says whether an alert may watch it. */
const tileArb = fc.oneof(
  fc.record({ where: fc.constantFrom(...WHERES), bar: fc.boolean(), group: fc.boolean() }).map(t => ({
    alertable: true,
    body: {
      series: [
        {
          type: 'time',
          source: 'Logs',
          aggFn: 'count',
          where: t.where,
          ...(t.bar ? { displayType: 'stacked_bar' } : {}),
          ...(t.group ? { groupBy: ['service'] } : {})
        }
      ]
    }
  })),
  fc.constantFrom(...WHERES).map(where => ({
    alertable: true,
    body: { series: [{ type: 'number', source: 'Logs', aggFn: 'avg', field: 'duration', where }] }
  })),
  fc.constantFrom(...WHERES).map(where => ({
    alertable: false,
    body: {
      config: {
        displayType: 'table',
        source: 'Logs',
        select: [{ aggFn: 'count', where }],
        groupBy: 'service'
      }
    }
  })),
  fc.constantFrom(...WHERES).map(where => ({
    alertable: true,
    body: {
      config: {
        displayType: 'line',
        source: 'Logs',
        select: [
          { aggFn: 'count', where },
          { aggFn: 'max', valueExpression: 'duration' }
        ]
      }
    }
  })),
  fc.constant({
    alertable: false,
    body: { series: [{ type: 'search', source: 'Logs', fields: ['level', 'service'], where: 'level:error' }] }
  }),
  fc
    .string({ maxLength: 40 })
    .map(text => ({ alertable: false, body: { series: [{ type: 'markdown', content: `# ${text}` }] } }))
)

const dashboardArb = fc.record({
  tags: fc.uniqueArray(fc.constantFrom('payments', 'sre', 'team-a', 'beta'), { maxLength: 3 }),
  tiles: fc.array(tileArb, { minLength: 1, maxLength: 5 }),
  alertOn: fc.array(fc.nat(4), { maxLength: 3 }),
  threshold: fc.integer({ min: 1, max: 1000 })
})

const stateArb = fc.record({
  desired: fc.uniqueArray(fc.tuple(fc.constantFrom('A', 'B', 'C', 'D', 'E', 'F'), dashboardArb), {
    selector: ([name]) => name,
    maxLength: 4
  }),
  /** Dashboards made by others (no tag of this stack), possibly with a name we want. */
  unowned: fc.uniqueArray(fc.constantFrom('A', 'Z', 'Y', 'X'), { maxLength: 2 }),
  /** Our own dashboards from an earlier run, some no longer in the manifests. */
  ownedBefore: fc.uniqueArray(fc.constantFrom('B', 'C', 'Old 1', 'Old 2'), { maxLength: 3 }),
  prune: fc.boolean()
})

function manifestText(
  desired: Array<
    [string, fc.Arbitrary<unknown> extends never ? never : ReturnType<typeof dashboardArb.generate>['value']]
  >
): string {
  const docs: unknown[] = []
  for (const [name, d] of desired) {
    const tiles = d.tiles.map((t, i) => ({
      name: `T${i}`,
      x: (i % 4) * 6,
      y: Math.floor(i / 4) * 3,
      w: 6,
      h: 3,
      ...t.body
    }))
    docs.push({ kind: 'Dashboard', name, ...(d.tags.length ? { tags: d.tags } : {}), tiles })
    const alertable = d.tiles.map((t, i) => (t.alertable ? i : -1)).filter(i => i >= 0)
    new Set(
      d.alertOn
        .map(i => alertable[i % Math.max(1, alertable.length)])
        .filter((i): i is number => i !== undefined)
    ).forEach(i =>
      docs.push({
        kind: 'Alert',
        name: `${name} alert on T${i}`,
        dashboard: name,
        tile: `T${i}`,
        threshold: d.threshold,
        thresholdType: 'above',
        interval: '5m',
        channel: { type: 'webhook', webhook: 'ops-pager' }
      })
    )
  }
  return docs.map(d => stringify(d)).join('---\n') || 'kind: Dashboard\nname: Placeholder\ntiles: []\n'
}

describe('properties of plan and apply', () => {
  let applied = 0
  let refused = 0
  it('for random manifests and live states, apply then plan is empty, and unowned resources are never touched', async () => {
    await fc.assert(
      fc.asyncProperty(stateArb, async state => {
        emu.selfHosted.dashboards.clear()
        emu.selfHosted.alerts.clear()
        const logs = emu.selfHosted.sources[0]!.id
        const hook = emu.selfHosted.webhooks[0]!.id
        for (const name of state.unowned) {
          const d = emu.selfHosted.createDashboard({
            name,
            tags: ['someone-else'],
            tiles: [
              {
                name: 'Theirs',
                x: 0,
                y: 0,
                w: 6,
                h: 3,
                config: { displayType: 'line', sourceId: logs, select: [{ aggFn: 'count' }] }
              }
            ]
          })
          emu.selfHosted.createAlert({
            name: `${name} theirs`,
            dashboardId: d.id,
            tileId: d.tiles[0]!.id,
            source: 'tile',
            threshold: 1,
            thresholdType: 'above',
            interval: '1h',
            channel: { type: 'webhook', webhookId: hook }
          })
        }
        for (const name of state.ownedBefore) {
          emu.selfHosted.createDashboard({
            name,
            tags: ['obsdeploy:shop'],
            tiles: [
              {
                name: 'T0',
                x: 0,
                y: 0,
                w: 3,
                h: 2,
                config: { displayType: 'number', sourceId: logs, select: [{ aggFn: 'count' }] }
              }
            ]
          })
        }
        const unownedBefore = JSON.stringify(
          [...emu.selfHosted.dashboards.values()].filter(d => !d.tags.includes('obsdeploy:shop'))
        )
        const unownedAlertsBefore = JSON.stringify([...emu.selfHosted.alerts.values()])

        ws.write({ 'all.yaml': manifestText(state.desired) })
        const settings = { prune: String(state.prune) }
        const apply = await obsdeploy(emu, ws, 'apply', settings)
        const unownedAfter = JSON.stringify(
          [...emu.selfHosted.dashboards.values()].filter(d => !d.tags.includes('obsdeploy:shop'))
        )
        expect(unownedAfter).toBe(unownedBefore)
        expect(
          JSON.stringify([...emu.selfHosted.alerts.values()].filter(a => a.name?.endsWith(' theirs')))
        ).toBe(unownedAlertsBefore)

        const collides = state.desired.some(([name]) => (state.unowned as readonly string[]).includes(name))
        if (collides) {
          // A name taken by someone else's dashboard is a plan error: nothing at all is applied.
          expect(apply.exitCode).toBe(1)
          refused++
          return
        }
        expect(apply.exitCode).toBe(0)
        if (apply.outputs.hasChanges) applied++
        const again = await obsdeploy(emu, ws, 'plan', settings)
        expect(actions(again)).toEqual([])
      }),
      { numRuns: 40, seed: 20261122 }
    )
    // The generator must reach both branches, or the property proves little.
    expect(applied).toBeGreaterThan(10)
    expect(refused).toBeGreaterThan(2)
  }, 120_000)
})
