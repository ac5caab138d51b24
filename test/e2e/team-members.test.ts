/**
 * Team members as the runner runs the built action (dist/index.js) and as a user runs the CLI bundle, against the
 * emulator's team routes: a pull request plans invitations and the comment names each person by a masked email, a
 * merge invites them, the next plan is empty, an accepted invitation's member is removed with prune, the API key's
 * own user is never removed, `obsdeploy export` -> apply -> plan is empty. No run ever writes an email where
 * `mask-emails` is on (comment, summary, stdout, stderr, plan file, outputs), nor an invitation's joining token.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { startEmulator, type Emulator } from '../../emulator/index.js'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-api.js'
import { workspace, type Workspace } from '../support/harness.js'
import { pullRequestEvent, pushEvent, readable, runAction, runCli, type ActionRun } from './runner.js'

const PEOPLE = ['jane.doe@example.com', 'john.roe@example.com']
const person = (email: string, extra = '') => `---\nkind: TeamMember\nemail: ${email}\n${extra}`

let emu: Emulator
let gh: FakeGitHub
let ws: Workspace
const runs: ActionRun[] = []

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: { selfHosted: false, managed: false } })
  gh = await startFakeGitHub()
  ws = workspace({ 'team.yaml': person('Jane.Doe@Example.com', 'name: Jane Doe\n') + person(PEOPLE[1]!) })
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
      ...inputs
    },
    env: { GITHUB_API_URL: gh.url }
  })
  runs.push(run)
  return run
}

/** Every invitation token the emulator ever handed out (they are secrets: whoever holds one joins the team). */
const tokens = new Set<string>()
const noteTokens = () => emu.team.invitations.forEach(i => tokens.add(i.token))

/** Every place a run leaves text. */
function places(run: ActionRun, pr?: number): Record<string, string> {
  const planFile = run.outputs['plan-file'] ? readFileSync(run.outputs['plan-file'], 'utf8') : ''
  return {
    stdout: run.stdout,
    stderr: run.stderr,
    summary: run.summary,
    planFile,
    outputs: JSON.stringify(run.outputs),
    comments:
      pr === undefined
        ? ''
        : gh
            .comments(pr)
            .map(c => c.body)
            .join('\n')
  }
}

function expectNothingPersonal(texts: Record<string, string>, emails = PEOPLE): void {
  noteTokens()
  for (const [place, text] of Object.entries(texts)) {
    for (const email of emails)
      expect({ place, email, leaked: text.toLowerCase().includes(email) }).toEqual({
        place,
        email,
        leaked: false
      })
    for (const token of tokens)
      expect({ place, token: text.includes(token) }).toEqual({ place, token: false })
    expect({ place, joinUrl: /join-team\?token=/.test(text) }).toEqual({ place, joinUrl: false })
  }
}

describe('team members, as the runner runs the action', () => {
  it('plans on a pull request: the comment and the summary name each person masked, and nothing holds an email', async () => {
    const run = await action('pull_request', pullRequestEvent(31), { command: 'plan' })
    expect(run.exitCode).toBe(0)
    expect(run.outputs.creates).toBe('2')
    // jane.doe@ and john.roe@ share a first letter, a last letter and a domain: the keyed tag tells them apart.
    const comment = readable(gh.comments(31).at(-1)!.body)
    for (const text of [comment, readable(run.summary)]) {
      const masks = new Set(text.match(/j\*\*\*e@example\.com #[0-9a-f]{4}/g))
      expect(masks.size).toBe(2)
      expect(text).not.toMatch(/#[0-9a-f]{4} \(2\)/)
    }
    expectNothingPersonal(places(run, 31))
  })

  it('applies on a merge: both are invited (lowercased, with the name), and the next plan is empty', async () => {
    const run = await action('push', pushEvent('refs/heads/main'), { command: 'apply' })
    expect(run.exitCode).toBe(0)
    expect(emu.team.invitations.map(i => [i.email, i.name]).sort()).toEqual([
      ['jane.doe@example.com', 'Jane Doe'],
      ['john.roe@example.com', undefined]
    ])
    expectNothingPersonal(places(run))
    const again = await action('push', pushEvent('refs/heads/main'), { command: 'plan' })
    expect(again.outputs['has-changes']).toBe('false')
    expectNothingPersonal(places(again))
  })

  it('removes with prune: a pending invitation and the member an accepted one became, named in the plan', async () => {
    emu.team.acceptInvitation('jane.doe@example.com')
    ws.remove('team.yaml')
    ws.write({ 'team.yaml': person(emu.user.email, 'adopt: true\n') })
    const plan = await action('pull_request', pullRequestEvent(32), { command: 'plan', prune: 'true' })
    expect(plan.exitCode).toBe(0)
    expect(plan.outputs.deletes).toBe('2')
    const comment = readable(gh.comments(32).at(-1)!.body)
    expect(comment).toMatch(/j\*\*\*e@example\.com #[0-9a-f]{4}.*removed from the team/s)
    expect(comment).toMatch(/withdrawn/)
    expectNothingPersonal(places(plan, 32), [...PEOPLE, emu.user.email])
    const applied = await action('push', pushEvent('refs/heads/main'), { command: 'apply', prune: 'true' })
    expect(applied.exitCode).toBe(0)
    expect(emu.team.members().map(m => m.email)).toEqual([emu.user.email])
    expect(emu.team.invitations).toEqual([])
  })

  it("never removes the API key's own user: the plan holds it back and says why", async () => {
    ws.remove('team.yaml')
    ws.write({ 'team.yaml': person('kim@example.com') })
    const run = await action('pull_request', pullRequestEvent(33), { command: 'plan', prune: 'true' })
    expect(run.exitCode).toBe(0)
    expect(run.outputs.deletes).toBe('0')
    const comment = readable(gh.comments(33).at(-1)!.body)
    // Its own heading and words: not among records a kept one still uses.
    expect(comment).toMatch(
      /Not removed: the API key's own user \(1\)[\s\S]*e\*\*\*r@example\.com #[0-9a-f]{4}[\s\S]*API key's own user/
    )
    expect(comment).toContain("kept: the API key's own user")
    expect(comment).not.toMatch(/still in use/)
    expect(run.summary).toContain("Not removed: the API key's own user (1)")
    expectNothingPersonal(places(run, 33), [emu.user.email, 'kim@example.com'])
    const applied = await action('push', pushEvent('refs/heads/main'), { command: 'apply', prune: 'true' })
    expect(applied.exitCode).toBe(0)
    expect(emu.team.members().map(m => m.email)).toEqual([emu.user.email])
    expect(emu.team.invitations.map(i => i.email)).toEqual(['kim@example.com'])
  })

  it('shows whole emails with mask-emails: false', async () => {
    ws.write({ 'team.yaml': person('kim@example.com') + person('mo@example.com') })
    const run = await action('pull_request', pullRequestEvent(34), {
      command: 'plan',
      'mask-emails': 'false'
    })
    expect(gh.comments(34).at(-1)!.body).toContain('mo@example.com')
    expectNothingPersonal({ summary: run.summary }, [])
  })
})

describe('team members, as a user runs the CLI bundle', () => {
  const env = () => ({ OBSDEPLOY_API_KEY: emu.credentials.apiKey })
  const args = () => ['--api-url', emu.url, '--stack', 'people', '--rate-limit', 'off']

  it('export leaves out the key’s own user for a stack that does not manage it', async () => {
    const exported = await runCli(
      ['export', '--out', 'fresh', '--kind', 'TeamMember', ...args(), '--stack', 'fresh'],
      { cwd: ws.dir, env: env() }
    )
    expect(exported.exitCode).toBe(0)
    const text = readFileSync(path.join(ws.dir, 'fresh', 'team-members.yaml'), 'utf8')
    expect(text).toContain("# The API key's own user is not written")
    expect(text).not.toContain(`email: ${emu.user.email}`)
    expect(text).toContain('email: kim@example.com\nadopt: true')
  })

  it('export -> apply -> plan is empty; the export writes no token', async () => {
    emu.team.addUser('lee@example.com', { name: 'Lee' })
    noteTokens()
    const exported = await runCli(['export', '--out', 'exported', '--kind', 'TeamMember', ...args()], {
      cwd: ws.dir,
      env: env()
    })
    expect(exported.exitCode).toBe(0)
    const files = readdirSync(path.join(ws.dir, 'exported'))
    expect(files).toEqual(['team-members.yaml'])
    const text = readFileSync(path.join(ws.dir, 'exported', 'team-members.yaml'), 'utf8')
    expect(text).toContain('email: lee@example.com\nname: Lee\nadopt: true')
    expect(text).toContain('email: kim@example.com')
    // This stack manages it (adopted above): written, or the plan would hold it back.
    expect(text).toContain(`email: ${emu.user.email}\n`)
    expectNothingPersonal({ stdout: exported.stdout, stderr: exported.stderr, file: text }, [])

    const apply = await runCli(['apply', 'exported', ...args()], { cwd: ws.dir, env: env() })
    expect({ exit: apply.exitCode, stderr: apply.stderr }).toEqual({ exit: 0, stderr: expect.any(String) })
    const plan = await runCli(['plan', 'exported', ...args(), '--json'], { cwd: ws.dir, env: env() })
    expect(plan.exitCode).toBe(0)
    const changes = JSON.parse(plan.stdout).plan.changes as Array<{ action: string; kind: string }>
    expect(changes.filter(c => c.action !== 'noop')).toEqual([])
    expect(changes.filter(c => c.kind === 'TeamMember')).toHaveLength(3)
    expectNothingPersonal({ apply: apply.stdout + apply.stderr, plan: plan.stdout + plan.stderr }, [
      'lee@example.com',
      'kim@example.com'
    ])
  })

  it('the text report follows --mask-emails', async () => {
    const masked = await runCli(['plan', 'observability', ...args()], { cwd: ws.dir, env: env() })
    const whole = await runCli(['plan', 'observability', ...args(), '--mask-emails=false'], {
      cwd: ws.dir,
      env: env()
    })
    expect(masked.stdout).toMatch(/m\*\*\*@example\.com #[0-9a-f]{4}/)
    expect(masked.stdout + masked.stderr).not.toContain('mo@example.com')
    expect(whole.stdout).toContain('mo@example.com')
  })
})
