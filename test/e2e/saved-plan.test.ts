/**
 * The built action (dist/index.js) as the runner runs it: a plan job saves its plan, an apply job applies
 * that plan as recorded (no planning), and a plan whose manifests changed since is refused as before.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startEmulator, type Emulator } from '../../emulator/index.js'
import { dashboard, timeTile, workspace, type Workspace } from '../support/harness.js'
import { pushEvent, runAction, type ActionRun } from './runner.js'

let emu: Emulator
let ws: Workspace
const runs: ActionRun[] = []

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: { selfHosted: false, managed: false } })
  ws = workspace()
})
afterAll(async () => {
  await Promise.all(runs.map(r => r.cleanup()))
  await emu.close()
  ws.cleanup()
})

async function action(inputs: Record<string, string>): Promise<ActionRun> {
  const run = await runAction({
    cwd: ws.dir,
    eventName: 'push',
    event: pushEvent('refs/heads/main'),
    inputs: { 'api-url': emu.url, 'api-key': emu.credentials.apiKey, 'comment-on-pr': 'false', ...inputs }
  })
  runs.push(run)
  return run
}

const dashboards = () => [...emu.selfHosted.dashboards.values()].map(d => d.name).sort()

describe('apply --plan with the built action', () => {
  it('applies a saved plan as recorded, and refuses one whose manifests changed since', async () => {
    ws.write({
      'checkout.yaml': dashboard('Checkout', timeTile('Errors', 0, 0)),
      'cart.yaml': dashboard('Cart', timeTile('Adds', 0, 0))
    })
    const planned = await action({ command: 'plan', 'plan-path': 'saved.json' })
    expect(planned.exitCode).toBe(0)
    const saved = JSON.parse(readFileSync(path.join(ws.dir, 'saved.json'), 'utf8')) as {
      apply?: { seal: string }
    }
    expect(saved.apply?.seal).toMatch(/^hmac-sha256:/)

    const applied = await action({
      command: 'apply',
      'saved-plan': 'saved.json',
      'plan-path': 'applied.json'
    })
    expect(applied.exitCode).toBe(0)
    expect(applied.stdout).toMatch(/applied as recorded/)
    expect(applied.stdout).not.toMatch(/Read \d+ manifest file/)
    expect(applied.outputs).toMatchObject({ 'has-changes': 'true', creates: '2' })
    expect(dashboards()).toEqual(['Cart', 'Checkout'])

    // A plan saved, then a manifest edited: planned again and refused, as before.
    ws.write({ 'cart.yaml': dashboard('Cart', timeTile('Adds', 0, 0, 'service:cart')) })
    expect((await action({ command: 'plan', 'plan-path': 'saved.json' })).exitCode).toBe(0)
    ws.write({ 'cart.yaml': dashboard('Cart', timeTile('Adds', 0, 0, 'service:basket')) })
    const refused = await action({
      command: 'apply',
      'saved-plan': 'saved.json',
      'plan-path': 'applied.json'
    })
    expect(refused.exitCode).toBe(1)
    expect(refused.stdout).toMatch(/checked by planning again/)
    expect(refused.stdout).toMatch(/the manifests changed since the saved plan was made/)
    expect(JSON.stringify([...emu.selfHosted.dashboards.values()])).not.toMatch(/service:basket|service:cart/)
  })
})
