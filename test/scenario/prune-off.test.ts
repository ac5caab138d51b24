/**
 * Promise 3, "nothing is deleted that the plan does not name", with prune off: a removed resource is
 * listed as "would be deleted with prune" and stays, even when the same apply carries out other changes
 * (an apply with nothing else to do never reaches the operations, so that case alone proves nothing).
 * One scenario per kind that can be pruned. ServiceSettings has no prune: removing its manifest stops
 * managing the service, it never deletes it (the kind has no orphans).
 */
import { describe, expect, it } from '@jest/globals'
import { actions, alert, dashboard, obsdeploy, timeTile, useScenario } from '../support/harness.js'

const { emu, ws } = useScenario()

const storedDashboards = () => [...emu.selfHosted.dashboards.values()]
const storedAlerts = () => [...emu.selfHosted.alerts.values()]
const deletes = () => emu.requestLog.filter(r => r.method === 'DELETE').map(r => r.path)

const checkout = (where = 'level:error') =>
  dashboard('Checkout', timeTile('Errors', 0, 0, where) + timeTile('Latency', 6, 0, 'service:checkout'))
const cart = () =>
  dashboard('Cart', timeTile('Adds', 0, 0, 'service:cart')) + alert('Cart adds', 'Cart', 'Adds')

describe('apply with prune off deletes nothing, while it applies other changes', () => {
  it('keeps a removed dashboard (and its alert) while it updates another', async () => {
    ws.write({ 'checkout.yaml': checkout(), 'cart.yaml': cart() })
    await obsdeploy(emu, ws, 'apply')
    const cartBefore = storedDashboards().find(d => d.name === 'Cart')!
    const cartAlert = storedAlerts().find(a => a.name === 'Cart adds')!

    ws.remove('cart.yaml')
    ws.write({ 'checkout.yaml': checkout('level:fatal') })
    emu.clearLog()
    const apply = await obsdeploy(emu, ws, 'apply')

    expect(apply.exitCode).toBe(0)
    expect(actions(apply)).toEqual(['update Dashboard/Checkout'])
    const changes = apply.plan!.changes
    expect(changes.find(c => c.address.startsWith('Dashboard/Cart@'))).toMatchObject({
      action: 'delete',
      deferred: 'prune'
    })
    // Its alert stays with it: the dashboard is not deleted, so the server drops nothing.
    expect(changes.find(c => c.address.startsWith('Alert/Cart adds@'))).toMatchObject({
      action: 'delete',
      deferred: 'prune'
    })
    expect(apply.outputs.deletes).toBe(0)
    expect(deletes()).toEqual([])
    expect(emu.selfHosted.dashboards.get(cartBefore.id)).toMatchObject({ name: 'Cart' })
    expect(emu.selfHosted.alerts.get(cartAlert.id)).toMatchObject({ name: 'Cart adds' })
    const checkoutAfter = storedDashboards().find(d => d.name === 'Checkout')!
    expect(checkoutAfter.tiles.find(t => t.name === 'Errors')!.config).toMatchObject({
      select: [{ where: 'level:fatal' }]
    })
  })

  it('keeps a removed alert while it updates another', async () => {
    const twoAlerts = (threshold: number) =>
      checkout() +
      alert('Checkout errors', 'Checkout', 'Errors', threshold) +
      alert('Checkout latency', 'Checkout', 'Latency')
    ws.write({ 'checkout.yaml': twoAlerts(10) })
    await obsdeploy(emu, ws, 'apply')
    const latency = storedAlerts().find(a => a.name === 'Checkout latency')!

    ws.write({ 'checkout.yaml': checkout() + alert('Checkout errors', 'Checkout', 'Errors', 20) })
    emu.clearLog()
    const apply = await obsdeploy(emu, ws, 'apply')

    expect(apply.exitCode).toBe(0)
    expect(actions(apply)).toEqual(['update Alert/Checkout errors'])
    expect(apply.plan!.changes.find(c => c.name === 'Checkout latency')).toMatchObject({
      action: 'delete',
      deferred: 'prune'
    })
    expect(apply.outputs.deletes).toBe(0)
    expect(deletes()).toEqual([])
    expect(emu.selfHosted.alerts.get(latency.id)).toMatchObject({ name: 'Checkout latency' })
    expect(storedAlerts().find(a => a.name === 'Checkout errors')!.threshold).toBe(20)
  })
})
