/**
 * Team members against the emulator's v2 team routes, as a user runs them: invite, a pending invitation or a member
 * satisfies the manifest, prune withdraws invitations and removes members this stack manages (never the key's own
 * user, never one it does not manage), ownership by email survives an invitation being accepted, and emails are
 * masked in the plan unless `mask-emails: false`.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from '@jest/globals'
import { isRegistryDashboard } from '../../src/kinds/registry.js'
import { EmailMask } from '../../src/mask-email.js'
import { actions, dashboard, errors, obsdeploy, timeTile, useScenario } from '../support/harness.js'

const { emu, ws } = useScenario()

const member = (email: string, extra = '') => `---
kind: TeamMember
email: ${email}
${extra}`

const run = (command: 'plan' | 'apply', settings: Record<string, string> = {}) =>
  obsdeploy(emu, ws, command, { prune: 'true', ...settings })

/** How a run with the emulator's API key names a person. */
const m = (email: string) =>
  EmailMask.forCredential({ kind: 'bearer', apiKey: emu.credentials.apiKey }).mask(email)

const invited = () => emu.team.invitations.map(i => i.email).sort()
const members = () =>
  emu.team
    .members()
    .map(m => m.email)
    .sort()

describe('TeamMember', () => {
  it('invites a new person, then plans nothing: the pending invitation satisfies the manifest', async () => {
    ws.write({ 'team.yaml': member('Jane.Doe@Example.com', 'name: Jane Doe\n') })
    const plan = await run('plan')
    expect(errors(plan)).toEqual([])
    expect(actions(plan)).toEqual([`create TeamMember/${m('jane.doe@example.com')}`])
    const applied = await run('apply')
    expect(errors(applied)).toEqual([])
    expect(invited()).toEqual(['jane.doe@example.com'])
    expect(emu.team.invitations[0]!.name).toBe('Jane Doe')
    const again = await run('plan')
    expect(actions(again)).toEqual([])
    expect(again.plan!.changes.map(c => `${c.action} ${c.address}`)).toEqual([
      `noop TeamMember/${m('jane.doe@example.com')}`
    ])
  })

  it('keeps managing a person whose invitation was accepted (ownership by email), and prunes the member', async () => {
    ws.write({ 'team.yaml': member('sam@example.com') })
    await run('apply')
    const user = emu.team.acceptInvitation('sam@example.com')
    expect(invited()).toEqual([])
    expect(actions(await run('plan'))).toEqual([])
    ws.write({ 'team.yaml': member('other@example.com') })
    const pruned = await run('apply')
    expect(errors(pruned)).toEqual([])
    const removal = pruned.plan!.changes.find(c => c.action === 'delete')!
    expect(removal).toMatchObject({ address: `TeamMember/${m('sam@example.com')}@${user.id}`, id: user.id })
    expect(members()).toEqual([emu.user.email])
    expect(invited()).toEqual(['other@example.com'])
  })

  it('withdraws a pending invitation the stack made once its manifest is gone (prune), and only shows it without', async () => {
    ws.write({ 'team.yaml': member('ann@example.com') })
    await run('apply')
    ws.write({ 'team.yaml': member('bob@example.com') })
    const off = await run('plan', { prune: 'false' })
    expect(off.plan!.changes.find(c => c.action === 'delete')).toMatchObject({ deferred: 'prune' })
    await run('apply')
    expect(invited()).toEqual(['bob@example.com'])
  })

  it('reads the team only when a manifest or the registry needs it, and prunes the last person it manages', async () => {
    ws.write({ 'team.yaml': member('ann@example.com') })
    await run('apply')
    ws.remove('team.yaml')
    ws.write({ 'other.yaml': dashboard('Checkout', timeTile('Errors', 0, 0)) })
    emu.clearLog()
    const pruned = await run('apply')
    expect(errors(pruned)).toEqual([])
    expect(emu.requestLog.map(r => r.path)).toContain('/api/v2/team/invitations')
    expect(invited()).toEqual([])
    emu.clearLog()
    await run('plan')
    expect(emu.requestLog.map(r => r.path).filter(p => p.startsWith('/api/v2/team'))).toEqual([])
  })

  it("never removes the API key's own user, even when the stack manages it: the plan says so", async () => {
    ws.write({ 'team.yaml': member(emu.user.email.toUpperCase(), 'adopt: true\n') })
    const adopted = await run('apply')
    expect(errors(adopted)).toEqual([])
    expect(adopted.plan!.changes[0]!.notes.join(' ')).toMatch(/adopts the existing member/)
    ws.write({ 'team.yaml': member('new@example.com') })
    const plan = await run('apply')
    expect(errors(plan)).toEqual([])
    const self = plan.plan!.changes.find(c => c.kind === 'TeamMember' && c.action === 'delete')!
    expect(self.deferred).toBe('own-user')
    expect(self.notes.join(' ')).toMatch(/API key's own user/)
    expect(members()).toContain(emu.user.email)
  })

  it('leaves alone a member it does not manage: a manifest of one asks for adopt, prune never removes one', async () => {
    const outsider = emu.team.addUser('carol@example.com')
    ws.write({ 'team.yaml': member('carol@example.com') })
    const plan = await run('plan')
    expect(errors(plan)).toEqual([
      expect.stringMatching(/is a member of the team, which stack "shop" does not manage.*adopt: true/)
    ])
    ws.write({ 'team.yaml': member('dan@example.com') })
    await run('apply')
    expect(members()).toContain(outsider.email)
  })

  it('says clearly why an invitation of a user of another team fails at apply', async () => {
    emu.team.addUser('erin@example.com', { teamId: '65a1f0c2b3d4e5f6a7b8cfff' })
    ws.write({ 'team.yaml': member('erin@example.com') })
    const applied = await run('apply')
    expect(applied.exitCode).toBe(1)
    expect(
      applied.apply!.outcomes.find(o => o.address === `TeamMember/${m('erin@example.com')}`)?.message
    ).toMatch(/a user with this email already exists.*belongs to one team/)
  })

  it('invites again after an invitation expired (30 days)', async () => {
    ws.write({ 'team.yaml': member('fay@example.com') })
    await run('apply')
    emu.team.expire('fay@example.com')
    expect(actions(await run('plan'))).toEqual([`create TeamMember/${m('fay@example.com')}`])
  })

  it('masks emails in the plan, and shows them whole with mask-emails: false', async () => {
    ws.write({ 'team.yaml': `${member('gus@example.com')}${member('gil@example.com')}` })
    const masked = await run('plan')
    expect(masked.plan!.changes.map(c => c.address).sort()).toEqual(
      [`TeamMember/${m('gil@example.com')}`, `TeamMember/${m('gus@example.com')}`].sort()
    )
    expect(m('gil@example.com')).not.toBe(m('gus@example.com'))
    expect(JSON.stringify(masked.plan)).not.toMatch(/gus@|gil@/)
    const whole = await run('plan', { 'mask-emails': 'false' })
    expect(whole.plan!.changes.map(c => c.name).sort()).toEqual(['gil@example.com', 'gus@example.com'])
  })

  it('applies a saved plan by planning again: the plan file holds no email', async () => {
    ws.write({ 'team.yaml': member('pat@example.com') })
    const saved = await run('plan', { 'plan-path': 'saved.json' })
    const file = readFileSync(saved.planFile!, 'utf8')
    expect(file).not.toContain('pat@')
    expect(JSON.parse(file).apply).toBeUndefined()
    const applied = await run('apply', { 'saved-plan': 'saved.json', 'plan-path': 'now.json' })
    expect(errors(applied)).toEqual([])
    expect(invited()).toEqual(['pat@example.com'])
  })

  it('applies a saved plan under a rotated API key: the people are named otherwise, and the fingerprints still hold', async () => {
    ws.write({ 'team.yaml': member('pia@example.com') })
    await run('apply')
    ws.write({ 'team.yaml': member('pia@example.com') + member('quinn@example.com') })
    const saved = await run('plan', { 'plan-path': 'saved.json' })
    const before = saved.plan!.changes.map(c => c.name)
    emu.credentials.apiKey = `${emu.credentials.apiKey}-rotated`
    const applied = await run('apply', { 'saved-plan': 'saved.json', 'plan-path': 'now.json' })
    expect(errors(applied)).toEqual([])
    expect(applied.plan!.changes.map(c => c.name)).not.toEqual(before)
    expect(invited()).toEqual(['pia@example.com', 'quinn@example.com'])
  })

  it('records the emails it manages in the registry dashboard', async () => {
    ws.write({ 'team.yaml': member('hal@example.com') })
    await run('apply')
    const registry = [...emu.selfHosted.dashboards.values()].find(isRegistryDashboard)!
    expect(JSON.stringify(registry.tiles)).toContain('hal@example.com')
  })

  it('is a validate error in managed mode, at the kind', async () => {
    ws.write({ 'team.yaml': member('ivy@example.com') })
    const result = await obsdeploy(emu, ws, 'validate', { mode: 'managed' })
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        file: 'observability/team.yaml',
        line: 2,
        field: 'kind',
        message: expect.stringMatching(/TeamMember manifests need self-hosted mode/)
      })
    ])
  })
})
