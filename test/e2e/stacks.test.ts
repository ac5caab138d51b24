/**
 * Many stacks in one repository, as GitHub's runner runs the built action (dist/index.js) against the
 * emulator and a loopback GitHub: a pull request plans the stacks whose folders it changes (listed by the
 * REST API) in one sticky comment with a section per stack; a first job's `matrix` output feeds a matrix
 * of jobs, each of which keeps its own comment; a push applies every stack.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startEmulator, type Emulator } from '../../emulator/index.js'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-api.js'
import { alert, dashboard, timeTile, workspace, type Workspace } from '../support/harness.js'
import { pullRequestEvent, pushEvent, runAction, type ActionRun } from './runner.js'

let emu: Emulator
let gh: FakeGitHub
let ws: Workspace
const runs: ActionRun[] = []

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: { selfHosted: false, managed: false } })
  gh = await startFakeGitHub()
  ws = workspace({
    'payments/stack.yaml': 'name: payments\nvars: { TEAM: payments }\n',
    'payments/overview.yaml':
      dashboard('Overview', timeTile('Errors', 0, 0, 'service:payments'), "tags: ['${TEAM}']\n") +
      alert('Payment errors', 'Overview', 'Errors'),
    'search/stack.yaml': 'name: search\n',
    'search/overview.yaml': dashboard('Overview', timeTile('Errors', 0, 0, 'service:search'))
  })
})
afterAll(async () => {
  await Promise.all(runs.map(r => r.cleanup()))
  await emu.close()
  await gh.close()
  ws.cleanup()
})

const PR = 21

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
      stacks: 'true',
      'api-url': emu.url,
      'api-key': emu.credentials.apiKey,
      'github-token': 'ghs_fake_token_for_tests',
      ...inputs
    },
    env: { GITHUB_API_URL: gh.url }
  })
  runs.push(run)
  return run
}

const comments = () => gh.comments(PR)
const dashboards = () =>
  [...emu.selfHosted.dashboards.values()]
    .map(d => `${d.name} ${d.tags.find(t => t.startsWith('obsdeploy:'))}`)
    .sort()

describe('many stacks, as the runner runs the action', () => {
  it('a pull request plans only the stacks it changes, in one comment with a section per stack', async () => {
    gh.setPullFiles(PR, ['observability/payments/overview.yaml', 'docs/notes.md'])
    const run = await action('pull_request', pullRequestEvent(PR))
    expect(run.exitCode).toBe(0)
    expect(gh.requests.filter(r => r.path === `/repos/acme/shop/pulls/${PR}/files`)).toHaveLength(1)
    expect(run.outputs).toMatchObject({ 'has-changes': 'true', creates: '2', updates: '0', deletes: '0' })
    expect(JSON.parse(run.outputs.matrix!)).toEqual([{ stack: 'payments', folder: 'observability/payments' }])
    expect(comments()).toHaveLength(1)
    const body = comments()[0]!.body
    // The run's comment: keyed by all of its stacks (`*`), the job and the API.
    expect(body).toMatch(
      /^<!-- obsdeploy:sticky stack=%2A job=Observability%2Fplan%40[0-9a-f]{8} -->\n### 📝 Plan for 1 stack \(self-hosted\)\n/
    )
    expect(body).toContain('Stacks run: the stacks the pull request changes. Not run: search.')
    expect(body).toContain('### 📝 Plan for stack payments (self-hosted)')
    expect(body).not.toContain('Plan for stack search')
    expect(run.summary).toContain('### 📝 Plan for stack payments (self-hosted)')
    // The plan file holds each planned stack's plan.
    expect(run.outputs['plan-file']).toMatch(/\.json$/)
    expect(dashboards()).toEqual([])
  })

  it('a change to a workflow plans every stack, and the same comment is updated', async () => {
    gh.setPullFiles(PR, [
      { filename: '.github/workflows/observability.yml' },
      { filename: 'observability/payments/overview.yaml' }
    ])
    const run = await action('pull_request', pullRequestEvent(PR))
    expect(run.exitCode).toBe(0)
    expect(JSON.parse(run.outputs.matrix!).map((s: { stack: string }) => s.stack)).toEqual([
      'payments',
      'search'
    ])
    expect(comments()).toHaveLength(1)
    const body = comments()[0]!.body
    expect(body).toContain('### 📝 Plan for 2 stacks (self-hosted)')
    expect(body).toContain('Stacks run: all stacks: .github/workflows/observability.yml changed')
    expect(body.indexOf('Plan for stack payments')).toBeLessThan(body.indexOf('Plan for stack search'))
    expect(run.outputs).toMatchObject({ creates: '3' })
  })

  it("a first job's matrix, without credentials; then a matrix leg per stack keeps its own comment", async () => {
    gh.setPullFiles(PR, [
      { filename: 'observability/search/overview.yaml' },
      { filename: 'observability/payments/old.yaml', status: 'removed' }
    ])
    const first = await action('pull_request', pullRequestEvent(PR), {
      command: 'validate',
      'api-url': '',
      'api-key': ''
    })
    expect(first.exitCode).toBe(0)
    const matrix = JSON.parse(first.outputs.matrix!) as Array<{ stack: string; folder: string }>
    expect(matrix).toEqual([
      { stack: 'payments', folder: 'observability/payments' },
      { stack: 'search', folder: 'observability/search' }
    ])
    const before = comments().map(c => c.body)
    for (const leg of matrix) {
      const run = await action('pull_request', pullRequestEvent(PR), { stack: leg.stack })
      expect(run.exitCode).toBe(0)
      expect(JSON.parse(run.outputs.matrix!)).toEqual([leg])
    }
    // Named stacks need no list of files.
    expect(gh.requests.filter(r => r.path.endsWith('/files'))).toHaveLength(3)
    const bodies = comments().map(c => c.body)
    expect(bodies).toHaveLength(3)
    expect(bodies[0]).toBe(before[0])
    expect(bodies[1]).toMatch(/^<!-- obsdeploy:sticky stack=payments job=/)
    expect(bodies[1]).toContain('### 📝 Plan for 1 stack (self-hosted)')
    expect(bodies[1]).toContain('Plan for stack payments')
    expect(bodies[2]).toMatch(/^<!-- obsdeploy:sticky stack=search job=/)
    expect(bodies[2]).not.toContain('Plan for stack payments')
  })

  it('when the files cannot be listed, every stack is planned, with a warning', async () => {
    // The fake answers 404 for a pull request whose files it was not given, as GitHub does for one out of reach.
    const run = await action('pull_request', pullRequestEvent(PR + 1))
    expect(run.exitCode).toBe(0)
    expect(run.annotations).toContainEqual(
      expect.objectContaining({
        level: 'warning',
        message:
          "The pull request's changed files could not be listed (404: Not Found), so every stack is planned. The job's token needs `pull-requests: read`."
      })
    )
    expect(JSON.parse(run.outputs.matrix!)).toHaveLength(2)
    expect(gh.comments(PR + 1)[0]!.body).toContain('Plan for 2 stacks')
    // The token is masked for the runner, and printed nowhere else.
    expect(run.stdout.split('ghs_fake_token_for_tests')).toHaveLength(2)
  })

  it('a push to main applies every stack: each has its own dashboard of the same name', async () => {
    const run = await action('push', pushEvent('refs/heads/main'), { command: 'apply' })
    expect(run.exitCode).toBe(0)
    expect(run.outputs).toMatchObject({ 'has-changes': 'true', creates: '3' })
    expect(dashboards()).toEqual(['Overview obsdeploy:payments', 'Overview obsdeploy:search'])
    expect(run.summary).toContain('### 📝 Apply for 2 stacks (self-hosted)')
    expect(run.summary).toContain('Stacks run: all stacks.')
    const again = await action('push', pushEvent('refs/heads/main'), { command: 'drift' })
    expect(again.exitCode).toBe(0)
    expect(again.outputs['has-changes']).toBe('false')
  })
})
