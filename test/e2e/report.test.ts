/**
 * What a reviewer sees from the built action (dist/index.js), as the runner runs it: the comment's
 * heading and links, the apply summary's links to the UI, and the pull request labels, set through a
 * loopback stand-in for GitHub's API.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startEmulator, type Emulator } from '../../emulator/index.js'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-api.js'
import { gfmDom } from '../support/gfm.js'
import { alert, dashboard, timeTile, workspace, type Workspace } from '../support/harness.js'
import { pullRequestEvent, pushEvent, runAction, type ActionRun } from './runner.js'

let emu: Emulator
let gh: FakeGitHub
let ws: Workspace
const runs: ActionRun[] = []
const HEAD = '6dcb09b5b57875f334f61aebed695e2e4193db5e'

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: { selfHosted: false, managed: false } })
  gh = await startFakeGitHub()
  ws = workspace()
})
afterAll(async () => {
  await Promise.all(runs.map(r => r.cleanup()))
  await emu.close()
  await gh.close()
  ws.cleanup()
})

async function action(
  eventName: string,
  event: object,
  inputs: Record<string, string> = {}
): Promise<ActionRun> {
  const run = await runAction({
    cwd: ws.dir,
    eventName,
    event,
    inputs: {
      command: 'plan',
      'api-url': emu.url,
      'api-key': emu.credentials.apiKey,
      'github-token': 'ghs_fake_token_for_tests',
      'ui-url': 'https://hyperdx.example.com',
      labels: 'true',
      ...inputs
    },
    env: { GITHUB_API_URL: gh.url, GITHUB_RUN_ATTEMPT: '1' }
  })
  runs.push(run)
  return run
}

const checkout = () =>
  dashboard('Checkout', timeTile('Errors', 0, 0, 'level:error')) +
  alert('Checkout errors', 'Checkout', 'Errors')
const cart = () => dashboard('Cart', timeTile('Adds', 0, 0, 'service:cart'))
const comment = (pr: number) => gh.comments(pr).at(-1)!.body

describe('the report and the labels, from the built action', () => {
  it('labels a plan that creates obsdeploy:changes, removes a stale label, keeps the others', async () => {
    ws.write({ 'checkout.yaml': checkout(), 'cart.yaml': cart() })
    gh.setLabels(21, ['bug', 'obsdeploy:destroy'])
    const run = await action('pull_request', pullRequestEvent(21))
    expect(run.exitCode).toBe(0)
    expect(gh.labels(21)).toEqual(['bug', 'obsdeploy:changes'])

    const body = comment(21)
    const dom = gfmDom(body)
    expect(dom.querySelector('h3')!.text).toBe('📝 Plan for stack shop (self-hosted)')
    const hrefs = dom.querySelectorAll('a').map(a => a.getAttribute('href'))
    expect(hrefs).toContain(`https://github.com/acme/shop/commit/${HEAD}`)
    expect(hrefs).toContain('https://github.com/acme/shop/actions/runs/1234567890')
    expect(hrefs).toContain(`https://github.com/acme/shop/blob/${HEAD}/observability/checkout.yaml#L2`)
    // Nothing from the runner's disk: not the plan file's path, not the workspace.
    expect(body).not.toContain(run.runnerTemp)
    expect(body).not.toContain(ws.dir)
  })

  it('after the merge, the apply summary links every new dashboard and alert to its page in the UI', async () => {
    const run = await action('push', pushEvent('refs/heads/main'), { command: 'apply' })
    expect(run.exitCode).toBe(0)
    const ids = new Map([...emu.selfHosted.dashboards.values()].map(d => [d.name, d.id]))
    const summaries = gfmDom(run.summary).querySelectorAll('summary')
    const ui = (name: string) =>
      summaries
        .find(s => s.querySelector('b')?.text === name)!
        .querySelectorAll('a')
        .map(a => a.getAttribute('href'))
        .filter(h => h?.startsWith('https://hyperdx.example.com/'))
    expect(ui('Checkout')).toEqual([`https://hyperdx.example.com/dashboards/${ids.get('Checkout')}`])
    expect(ui('Cart')).toEqual([`https://hyperdx.example.com/dashboards/${ids.get('Cart')}`])
    expect(ui('Checkout errors')).toEqual([`https://hyperdx.example.com/dashboards/${ids.get('Checkout')}`])
    // Each resource once: no separate results table.
    expect(run.summary.match(/<b>Checkout errors<\/b>/g)).toHaveLength(1)
  })

  it('labels a plan that deletes obsdeploy:destroy, and heads it with what goes', async () => {
    ws.remove('cart.yaml')
    const run = await action('pull_request', pullRequestEvent(21), { prune: 'true' })
    expect(run.exitCode).toBe(0)
    expect(gh.labels(21)).toEqual(['bug', 'obsdeploy:destroy'])
    expect(gfmDom(comment(21)).querySelector('h3')!.text).toBe(
      '⚠️ Plan for stack shop (self-hosted): deletes dashboard "Cart"'
    )
  })

  it('labels a plan with nothing to do obsdeploy:no-changes', async () => {
    ws.write({ 'cart.yaml': cart() })
    const run = await action('pull_request', pullRequestEvent(22))
    expect(run.exitCode).toBe(0)
    expect(gh.labels(22)).toEqual(['obsdeploy:no-changes'])
  })

  it('warns and goes on when the token cannot label', async () => {
    gh.setPermissions('read')
    try {
      gh.setLabels(23, ['obsdeploy:no-changes'])
      ws.remove('cart.yaml')
      const run = await action('pull_request', pullRequestEvent(23), { prune: 'true' })
      expect(run.exitCode).toBe(0)
      expect(run.failed).toBe(false)
      expect(gh.labels(23)).toEqual(['obsdeploy:no-changes'])
      const warnings = run.annotations.filter(a => a.level === 'warning').map(a => a.message)
      expect(warnings.some(w => w.startsWith('The pull request was not labelled obsdeploy:destroy'))).toBe(
        true
      )
      expect(warnings.join('\n')).toContain('pull-requests: write')
      expect(warnings.join('\n')).not.toContain('ghs_fake_token_for_tests')
    } finally {
      gh.setPermissions('write')
    }
  })

  it('sets no labels unless asked', async () => {
    const run = await action('pull_request', pullRequestEvent(24), { labels: 'false' })
    expect(run.exitCode).toBe(0)
    expect(gh.labels(24)).toEqual([])
    expect(gh.requests.some(r => r.path.endsWith('/issues/24/labels'))).toBe(false)
  })
})
