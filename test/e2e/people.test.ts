/**
 * People in the plan, as the runner runs the built action and a user the CLI bundle. Told apart when masked: a
 * pull request that replaces alice@ with andrew@ names the two by two different masks (first and last letter,
 * domain, keyed tag), each the same in the comment, the job summary, the log's annotations (a policy finding's
 * too), the CLI's report and the plan file; the same again in the next run with the same API key, and another
 * with another key. The API key's own user, held back from a prune, under a heading of its own. No run writes an
 * email.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { startEmulator, type Emulator } from '../../emulator/index.js'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-api.js'
import { workspace, type Workspace } from '../support/harness.js'
import { pullRequestEvent, pushEvent, readable, runAction, runCli, type ActionRun } from './runner.js'

const ALICE = 'alice@example.com'
const ANDREW = 'andrew@example.com'
const person = (email: string) => `---\nkind: TeamMember\nemail: ${email}\n`
/** A warning on every person: its finding names them, as the plan does. */
const POLICY = `kind: Policy
name: people
rules:
  - id: reviewed
    kinds: [TeamMember]
    severity: warning
    message: every invitation is reviewed by the team lead
    check: resource.email.endsWith('@example.org')
    field: email
`
/** A mask as the tests look for it: `a***e@example.com #3f2a`. */
const MASK = /[a-z]?\*\*\*[a-z]?@example\.com #[0-9a-f]{4}/g

let emu: Emulator
let gh: FakeGitHub
let ws: Workspace
const runs: ActionRun[] = []

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: { selfHosted: false, managed: false } })
  gh = await startFakeGitHub()
  ws = workspace({ 'team.yaml': person(ALICE), 'policy.yaml': POLICY })
})
afterAll(async () => {
  await Promise.all(runs.map(r => r.cleanup()))
  await emu.close()
  await gh.close()
  ws.cleanup()
})

async function action(eventName: string, event: object, inputs: Record<string, string>): Promise<ActionRun> {
  const run = await runAction({
    cwd: ws.dir,
    eventName,
    event,
    inputs: {
      'api-url': emu.url,
      'api-key': emu.credentials.apiKey,
      'github-token': 'ghs_fake_token_for_tests',
      stack: 'people',
      prune: 'true',
      ...inputs
    },
    env: { GITHUB_API_URL: gh.url }
  })
  runs.push(run)
  return run
}

/** Every place a run leaves text, as a reader sees it. */
function places(run: ActionRun, pr?: number): Record<string, string> {
  const planFile = run.outputs['plan-file'] ? readFileSync(run.outputs['plan-file'], 'utf8') : ''
  const comment = pr === undefined ? '' : (gh.comments(pr).at(-1)?.body ?? '')
  return {
    stdout: run.stdout,
    stderr: run.stderr,
    summary: readable(run.summary),
    comment: readable(comment),
    annotations: run.annotations.map(a => a.message).join('\n'),
    planFile,
    outputs: JSON.stringify(run.outputs)
  }
}

/** How the plan file names each person, by what the plan does with them. */
function labels(run: ActionRun): Record<string, string> {
  const plan = JSON.parse(readFileSync(run.outputs['plan-file']!, 'utf8')) as {
    changes: Array<{ kind: string; action: string; name: string }>
  }
  return Object.fromEntries(plan.changes.filter(c => c.kind === 'TeamMember').map(c => [c.action, c.name]))
}

function expectNoEmail(texts: Record<string, string>): void {
  for (const [place, text] of Object.entries(texts))
    for (const email of [ALICE, ANDREW, emu.user.email])
      expect({ place, email, leaked: text.toLowerCase().includes(email) }).toEqual({
        place,
        email,
        leaked: false
      })
}

describe('people told apart when masked', () => {
  let first: Record<string, string>

  it('names alice and andrew apart, each alike in the comment, summary, log, annotations and plan file', async () => {
    expect((await action('push', pushEvent('refs/heads/main'), { command: 'apply' })).exitCode).toBe(0)
    expect(emu.team.invitations.map(i => i.email)).toEqual([ALICE])
    ws.write({ 'team.yaml': person(ANDREW) })

    const run = await action('pull_request', pullRequestEvent(51), { command: 'plan' })
    expect(run.exitCode).toBe(0)
    first = labels(run)
    const { delete: alice, create: andrew } = first
    expect(alice).toMatch(/^a\*\*\*e@example\.com #[0-9a-f]{4}$/)
    expect(andrew).toMatch(/^a\*\*\*w@example\.com #[0-9a-f]{4}$/)
    const seen = places(run, 51)
    for (const place of ['comment', 'summary', 'planFile'] as const) {
      expect({ place, alice: seen[place]!.includes(alice!) }).toEqual({ place, alice: true })
      expect({ place, andrew: seen[place]!.includes(andrew!) }).toEqual({ place, andrew: true })
    }
    // The log's annotations: the create's notice and the policy finding, at andrew's manifest line.
    const named = run.annotations.filter(a => a.message.includes(andrew!)).map(a => a.level)
    expect(named.sort()).toEqual(['notice', 'warning'])
    expect(seen.stdout).toContain(`TeamMember "${andrew}": create`)
    // No other mask anywhere: every output names the two people by these two.
    for (const [place, text] of Object.entries(seen))
      expect({ place, masks: [...new Set(text.match(MASK))].sort() }).toEqual({
        place,
        masks: [...new Set(text.match(MASK))].filter(m => m === alice || m === andrew).sort()
      })
    expectNoEmail(seen)
  })

  it("names them alike in the next run with the same API key: the action's, the CLI's report, validate", async () => {
    const again = await action('pull_request', pullRequestEvent(52), { command: 'plan' })
    expect(labels(again)).toEqual(first)
    expectNoEmail(places(again, 52))
    const cli = await runCli(
      ['plan', 'observability', '--api-url', emu.url, '--stack', 'people', '--prune'],
      {
        cwd: ws.dir,
        env: { OBSDEPLOY_API_KEY: emu.credentials.apiKey }
      }
    )
    expect(cli.exitCode).toBe(0)
    expect(cli.stdout).toContain(`- delete TeamMember "${first.delete}"`)
    expect(cli.stdout).toContain(`+ create TeamMember "${first.create}"`)
    expectNoEmail({ stdout: cli.stdout, stderr: cli.stderr })
    const validate = await action('pull_request', pullRequestEvent(53), { command: 'validate' })
    expect(
      validate.annotations.find(a => a.level === 'warning' && a.message.includes('[policy'))?.message
    ).toContain(first.create)
    expectNoEmail(places(validate, 53))
  })

  it('names them otherwise with another API key, and validate without one at random', async () => {
    const key = emu.credentials.apiKey
    emu.credentials.apiKey = `${key}-rotated`
    try {
      const rotated = await action('pull_request', pullRequestEvent(54), { command: 'plan' })
      expect(rotated.exitCode).toBe(0)
      const names = labels(rotated)
      expect(Object.keys(names).sort()).toEqual(['create', 'delete'])
      expect(names).not.toEqual(first)
      expectNoEmail(places(rotated, 54))
    } finally {
      emu.credentials.apiKey = key
    }
    const finding = async (pr: number) => {
      const run = await action('pull_request', pullRequestEvent(pr), { command: 'validate', 'api-key': '' })
      expectNoEmail(places(run, pr))
      return run.annotations
        .find(a => a.level === 'warning' && a.message.includes('[policy'))!
        .message.match(MASK)![0]
    }
    const [one, two, three] = [await finding(55), await finding(56), await finding(57)]
    expect(one).toMatch(/^a\*\*\*w@example\.com #/)
    // Random keys: three runs in a row naming andrew alike would be once in 2^32.
    expect(new Set([one, two, three, first.create]).size).toBeGreaterThan(1)
  })
})

describe("the API key's own user, held back from a prune", () => {
  it('has its own heading and words in the comment, the summary and the text report', async () => {
    ws.write({ 'team.yaml': person(emu.user.email) + 'adopt: true\n' + person(ANDREW) })
    expect((await action('push', pushEvent('refs/heads/main'), { command: 'apply' })).exitCode).toBe(0)
    ws.write({ 'team.yaml': person(ANDREW) })
    const run = await action('pull_request', pullRequestEvent(58), { command: 'plan' })
    expect(run.exitCode).toBe(0)
    expect(run.outputs.deletes).toBe('0')
    const self = labels(run).delete!
    expect(self).toMatch(/^e\*\*\*r@example\.com #[0-9a-f]{4}$/)
    const { comment, summary } = places(run, 58)
    for (const [place, text] of Object.entries({ comment, summary })) {
      const heading = text!.indexOf("Not removed: the API key's own user (1)")
      expect({ place, heading: heading >= 0 }).toEqual({ place, heading: true })
      expect({ place, named: text!.indexOf(self, heading) > heading }).toEqual({ place, named: true })
      expect({
        place,
        words: text!.includes("Nothing is applied by this run: 1 kept: the API key's own user.")
      }).toEqual({
        place,
        words: true
      })
      expect({ place, inUse: text!.includes('still in use') }).toEqual({ place, inUse: false })
    }
    const cli = await runCli(
      ['plan', 'observability', '--api-url', emu.url, '--stack', 'people', '--prune'],
      {
        cwd: ws.dir,
        env: { OBSDEPLOY_API_KEY: emu.credentials.apiKey }
      }
    )
    expect(cli.stdout).toContain(`Not removed: the API key's own user (1):\n! delete TeamMember "${self}"`)
    expect(cli.stdout).not.toContain('still in use')
    expectNoEmail({ ...places(run, 58), cli: cli.stdout + cli.stderr })
    const applied = await action('push', pushEvent('refs/heads/main'), { command: 'apply' })
    expect(applied.exitCode).toBe(0)
    expect(emu.team.members().map(m => m.email)).toContain(emu.user.email)
  })
})
