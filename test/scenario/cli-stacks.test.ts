/**
 * The CLI with many stacks, as the README shows it: `obsdeploy plan observability/ --stacks` runs every
 * stack, `--stack payments` one of them; the terminal report, --json and --summary hold a part per stack.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from '@jest/globals'
import { runCli } from '../support/cli.js'
import { alert, dashboard, timeTile, useScenario } from '../support/harness.js'

const { emu, ws } = useScenario()

const obsdeploy = (args: string[]) => runCli(emu, ws, [...args, '--rate-limit', 'off'])

/** `obsdeploy plan observability/ --stacks` against the emulator, and more flags. */
const planStacks = (...flags: string[]) =>
  obsdeploy(['plan', 'observability/', '--stacks', '--api-url', emu.url, ...flags])

/** Two teams, each with a dashboard named Overview (the workspace puts them under observability/). */
function twoTeams(): void {
  ws.write({
    'payments/stack.yaml': 'name: payments\n',
    'payments/overview.yaml':
      dashboard('Overview', timeTile('Errors', 0, 0, 'service:payments')) +
      alert('Payment errors', 'Overview', 'Errors'),
    'search/stack.yaml': 'name: search\n',
    'search/overview.yaml': dashboard('Overview', timeTile('Errors', 0, 0, 'service:search'))
  })
}

const liveOverviews = () =>
  [...emu.selfHosted.dashboards.values()]
    .filter(d => d.name === 'Overview')
    .map(d => (d.tags ?? []).filter(t => t.startsWith('obsdeploy:')).join(' '))
    .sort()

describe('obsdeploy --stacks', () => {
  it('validates every stack offline and names them', async () => {
    twoTeams()
    const r = await obsdeploy(['validate', 'observability/', '--stacks'])
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(/^valid: payments, search \(/m)
  })

  it('applies every stack, each with its own ownership tag, and reports a part per stack', async () => {
    twoTeams()
    const r = await obsdeploy(['apply', 'observability/', '--stacks', '--api-url', emu.url])
    expect(r.code).toBe(0)
    expect(liveOverviews()).toEqual(['obsdeploy:payments', 'obsdeploy:search'])
    expect(r.stdout).toMatch(/^obsdeploy apply for 2 stacks/)
    const payments = r.stdout.indexOf('obsdeploy apply for stack payments')
    const search = r.stdout.indexOf('obsdeploy apply for stack search')
    expect(payments).toBeGreaterThan(0)
    expect(search).toBeGreaterThan(payments)
    expect(r.stdout.slice(payments, search)).toContain('observability/payments/overview.yaml:2')
    expect(r.stdout.slice(payments, search)).toContain('create Alert "Payment errors"')
    expect(r.stdout.slice(search)).toContain('observability/search/overview.yaml:2')

    // Everything is in place: a plan of both stacks is empty, and --summary writes both sections.
    const plan = await planStacks('--summary', 'sum.md')
    expect(plan.code).toBe(0)
    const summary = readFileSync(path.join(ws.dir, 'sum.md'), 'utf8')
    expect(summary).toMatch(/^### ✅ Plan for 2 stacks/)
    expect(summary).toContain('<code>observability/payments</code>')
    expect(summary).toContain('### ✅ Plan for stack payments')
    expect(summary).toContain('### ✅ Plan for stack search')
  })

  it('--stack NAME plans that stack alone (--json has its plan under stacks)', async () => {
    twoTeams()
    const r = await planStacks('--stack', 'search', '--json')
    expect(r.code).toBe(0)
    const json = JSON.parse(r.stdout) as {
      stacks: { results: { stack: string; plan?: { changes: { action: string; name: string }[] } }[] }
    }
    expect(json.stacks.results.map(s => s.stack)).toEqual(['search'])
    expect(json.stacks.results[0]!.plan!.changes.map(c => `${c.action} ${c.name}`)).toEqual([
      'create Overview'
    ])
  })

  it('--stack with a name no stack has is an error with a hint', async () => {
    twoTeams()
    const r = await planStacks('--stack', 'serch')
    expect(r.code).not.toBe(0)
    expect(`${r.stdout}${r.stderr}`).toMatch(/serch[\s\S]*search/)
    expect(emu.selfHosted.dashboards.size).toBe(0)
  })
})
