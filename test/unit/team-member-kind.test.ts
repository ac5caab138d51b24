/**
 * The TeamMember kind (src/kinds/team-member.ts) planned from manifest text against a live team, and its
 * operations run on a recording API: who is invited, kept, adopted or removed, ownership by email through the
 * registry, the key's own user never removed, emails masked, and the invitation's url (its joining token)
 * dropped where the API's answers are parsed.
 */
import { describe, expect, it } from '@jest/globals'
import type { ObservabilityApi } from '../../src/api/client.js'
import { LiveTeamInvitation, teamMembersOf, WrittenTeamInvitation } from '../../src/api/schemas.js'
import { applyPlan } from '../../src/apply/apply.js'
import { KINDS } from '../../src/kinds/index.js'
import type { LiveState, PlanSettings } from '../../src/kinds/kind.js'
import { REGISTRY_TAG, registryTiles } from '../../src/kinds/registry.js'
import { EmailMask, withEmailMask } from '../../src/mask-email.js'
import { silentLogger } from '../../src/log.js'
import { validateText } from '../../src/manifest/load.js'
import { computePlan } from '../../src/planner/planner.js'
import { SHOP_TAG, shopSettings } from '../support/shop-stack.js'

const TOKEN = 'a'.repeat(64)
const member = (email: string, extra = '') => `---\nkind: TeamMember\nemail: ${email}\n${extra}`

const SELF = {
  id: '650000000000000000000001',
  email: 'admin@example.com',
  name: 'admin@example.com',
  isCurrentUser: true
}

function live(
  members: Array<Record<string, unknown>>,
  invitations: Array<Record<string, unknown>> = [],
  owned: string[] = []
): LiveState {
  const registry =
    owned.length === 0
      ? []
      : [
          {
            id: 'reg',
            name: 'obsdeploy registry (stack shop)',
            tags: [SHOP_TAG, REGISTRY_TAG],
            tiles: registryTiles('shop', {
              TeamMember: Object.fromEntries(owned.map(e => [e, { name: e }]))
            }) as never
          }
        ]
  return {
    Dashboard: registry,
    Alert: [],
    Source: [],
    TeamMember: teamMembersOf(
      members.map(m => ({ isCurrentUser: false, ...m }) as never),
      invitations.map(i => LiveTeamInvitation.parse({ url: `http://ui/join-team?token=${TOKEN}`, ...i }))
    )
  }
}

/** The mask of a run with this API key: every plan below is made as such a run makes it. */
const MASK = EmailMask.forCredential({ kind: 'bearer', apiKey: 'the-api-key' })
/** How the plan names a person. */
const m = (email: string) => MASK.mask(email)

function plan(yaml: string, state: LiveState, over: Partial<PlanSettings> = {}) {
  const manifests = validateText('team.yaml', yaml, 'self-hosted')
  expect(manifests.diagnostics.filter(d => d.severity === 'error')).toEqual([])
  return withEmailMask(MASK, () =>
    computePlan({
      command: 'plan',
      settings: shopSettings(over),
      manifests,
      live: state,
      now: new Date(0),
      kinds: KINDS
    })
  )
}

const shown = (p: ReturnType<typeof plan>) =>
  p.plan.changes.map(c => `${c.action}${c.deferred ? `(${c.deferred})` : ''} ${c.address}`)
const errorsOf = (p: ReturnType<typeof plan>) =>
  p.plan.diagnostics.filter(d => d.severity === 'error').map(d => `${d.line}:${d.field} ${d.message}`)

describe('masking emails', () => {
  it('tells apart two people of one first letter and domain, and names nobody in the plan file', () => {
    const p = plan(member('Alice@Example.com') + member('andrew@example.com'), live([SELF]))
    const [alice, andrew] = [m('alice@example.com'), m('andrew@example.com')]
    expect(alice).toMatch(/^a\*\*\*e@example\.com #[0-9a-f]{4}$/)
    expect(andrew).toMatch(/^a\*\*\*w@example\.com #[0-9a-f]{4}$/)
    expect(shown(p).sort()).toEqual([`create TeamMember/${alice}`, `create TeamMember/${andrew}`].sort())
    expect(JSON.stringify(p.plan)).not.toMatch(/alice|andrew/i)
  })

  it('numbers two people only when their masks, tags included, are the same', () => {
    // Two emails of one first letter, last letter and domain whose tags collide under this key: found, not made up.
    const seen = new Map<string, string>()
    let pair: [string, string] | undefined
    for (let i = 0; !pair; i++) {
      const email = `j${i}e@example.com`
      const other = seen.get(m(email))
      if (other) pair = [other, email]
      else seen.set(m(email), email)
    }
    const p = plan(member(pair[0]) + member(pair[1]), live([SELF]))
    expect(shown(p).sort()).toEqual([
      `create TeamMember/${m(pair[0])}`,
      `create TeamMember/${m(pair[0])} (2)`
    ])
  })

  it("keeps the plan's fingerprints whatever key names the people: a saved plan holds under a rotated API key", () => {
    const state = live(
      [SELF, { id: '650000000000000000000002', email: 'sam@example.com' }],
      [{ id: '650000000000000000000003', email: 'ann@example.com' }],
      ['sam@example.com', 'ann@example.com']
    )
    const yaml = member('sam@example.com') + member('new@example.com')
    const mine = plan(yaml, state)
    const rotated = EmailMask.forCredential({ kind: 'bearer', apiKey: 'a-rotated-key' })
    const theirs = withEmailMask(rotated, () =>
      computePlan({
        command: 'plan',
        settings: shopSettings(),
        manifests: validateText('team.yaml', yaml, 'self-hosted'),
        live: state,
        now: new Date(0),
        kinds: KINDS
      })
    )
    expect(shown(theirs)).not.toEqual(shown(mine))
    expect(theirs.plan.fingerprint).toEqual(mine.plan.fingerprint)
    // While a change of the live state still changes it.
    const accepted = live(
      [
        SELF,
        { id: '650000000000000000000002', email: 'sam@example.com' },
        { id: '650000000000000000000004', email: 'ann@example.com' }
      ],
      [],
      ['sam@example.com', 'ann@example.com']
    )
    expect(plan(yaml, accepted).plan.fingerprint.live).not.toBe(mine.plan.fingerprint.live)
  })

  it('shows whole emails when maskEmails is false', () => {
    const p = plan(member('Jane@Example.com'), live([SELF]), { maskEmails: false })
    expect(p.plan.changes[0]).toMatchObject({
      address: 'TeamMember/jane@example.com',
      fields: [
        { path: 'email', after: 'jane@example.com' },
        { path: 'owner', after: SHOP_TAG },
        { path: 'status', after: 'invited' }
      ]
    })
  })
})

describe('planning team members', () => {
  it('is satisfied by a member or a pending invitation of the email it manages, whatever the case', () => {
    const state = live(
      [SELF, { id: '650000000000000000000002', email: 'sam@example.com', name: 'Sam' }],
      [{ id: '650000000000000000000003', email: 'ann@example.com', name: 'Ann' }],
      ['sam@example.com', 'ann@example.com']
    )
    const p = plan(member('SAM@example.com', 'name: Samuel\n') + member('ann@example.com'), state)
    // A different name is no update: no route changes it.
    expect(shown(p)).toEqual([
      `noop TeamMember/${m('sam@example.com')}`,
      `noop TeamMember/${m('ann@example.com')}`
    ])
  })

  it('removes what it manages and no manifest declares, member or invitation, by the right id', () => {
    const state = live(
      [SELF, { id: '650000000000000000000002', email: 'sam@example.com' }],
      [{ id: '650000000000000000000003', email: 'ann@example.com' }],
      ['sam@example.com', 'ann@example.com']
    )
    const p = plan('', state)
    expect(p.plan.changes.map(c => [c.action, c.id, c.notes.at(-1)])).toEqual([
      ['delete', '650000000000000000000003', 'their pending invitation is withdrawn'],
      ['delete', '650000000000000000000002', expect.stringMatching(/^removed from the team/)]
    ])
  })

  it("holds the key's own user instead of removing it, with the reason", () => {
    const p = plan('', live([SELF], [], ['admin@example.com']))
    expect(shown(p)).toEqual([`delete(own-user) TeamMember/${m('admin@example.com')}@${SELF.id}`])
    expect(p.plan.changes[0]!.notes[0]).toMatch(/API key's own user.*You cannot remove yourself/)
    expect(p.planned[0]!.change.deferred).toBe('own-user')
  })

  it('never touches a member it does not manage: a manifest of one is an error at its email unless it adopts', () => {
    const state = live([SELF, { id: '650000000000000000000002', email: 'carol@example.com' }])
    expect(shown(plan('', state))).toEqual([])
    const p = plan(member('carol@example.com'), state)
    expect(errorsOf(p)).toEqual([
      expect.stringMatching(
        /^3:email c\*\*\*l@example\.com #[0-9a-f]{4} is a member of the team, which stack "shop" does not manage/
      )
    ])
    const adopted = plan(member('carol@example.com', 'adopt: true\n'), state)
    expect(errorsOf(adopted)).toEqual([])
    expect(shown(adopted)).toEqual([`update TeamMember/${m('carol@example.com')}`])
  })

  it("refuses one another stack's registry lists, even with adopt", () => {
    const state = live([SELF, { id: '650000000000000000000002', email: 'dee@example.com' }])
    state.Dashboard.push({
      id: 'reg2',
      name: 'obsdeploy registry (stack other)',
      tags: ['obsdeploy:other', REGISTRY_TAG],
      tiles: registryTiles('other', { TeamMember: { 'dee@example.com': { name: 'dee' } } }) as never
    })
    const p = plan(member('dee@example.com', 'adopt: true\n'), state)
    expect(errorsOf(p)).toEqual([expect.stringMatching(/managed by another stack \(obsdeploy:other\)/)])
  })

  it('is a plan error at the kind where the server has no team routes', () => {
    const state = live([SELF])
    delete state.TeamMember
    expect(errorsOf(plan(member('x@example.com'), state))).toEqual([
      expect.stringMatching(/^2:kind this API has no team routes/)
    ])
  })
})

describe('validating TeamMember manifests', () => {
  const errors = (yaml: string, mode: 'self-hosted' | 'managed' = 'self-hosted') =>
    validateText('team.yaml', yaml, mode)
      .diagnostics.filter(d => d.severity === 'error')
      .map(d => `${d.file}:${d.line}:${d.field} ${d.message}`)

  it('wants an email, and one manifest per person', () => {
    expect(errors(member('not-an-email'))).toEqual(['team.yaml:3:email must be an email address'])
    expect(errors(member('a@example.com') + member('A@Example.com'))).toEqual([
      expect.stringMatching(/^team\.yaml:6:email duplicate TeamMember email \(also at team\.yaml:3/)
    ])
  })

  it('belongs to self-hosted mode', () => {
    expect(errors(member('a@example.com'), 'managed')).toEqual([
      'team.yaml:2:kind the managed API has no team routes: TeamMember manifests need self-hosted mode'
    ])
  })
})

describe('the invitation url, which holds the joining token', () => {
  it('is dropped where the API answers are parsed', () => {
    const listed = LiveTeamInvitation.parse({
      id: 'i1',
      email: 'a@example.com',
      createdAt: '2026-01-01T00:00:00.000Z',
      url: `http://ui/join-team?token=${TOKEN}`
    })
    const written = WrittenTeamInvitation.parse({
      email: 'a@example.com',
      invitationId: 'i1',
      status: 'pending',
      url: `http://ui/join-team?token=${TOKEN}`
    })
    expect(JSON.stringify([listed, written])).not.toContain(TOKEN)
  })
})

describe('applying team member changes', () => {
  function recordingApi(answers: { invite?: () => never; absent?: boolean; registry?: () => never } = {}) {
    const calls: string[] = []
    const api = {
      mode: 'self-hosted',
      inviteTeamMember: async (body: unknown) => {
        calls.push(`invite ${JSON.stringify(body)}`)
        if (answers.invite) answers.invite()
        return { id: '650000000000000000000009', email: 'x', status: 'pending' }
      },
      deleteTeamMember: async (id: string) => {
        calls.push(`delete member ${id}`)
        return answers.absent ? 'absent' : 'deleted'
      },
      deleteTeamInvitation: async (id: string) => {
        calls.push(`delete invitation ${id}`)
        return answers.absent ? 'absent' : 'deleted'
      },
      // A registry write that fails makes the registry look for one made meanwhile: there is none.
      listDashboards: async () => [],
      createDashboard: async (body: { tiles: Array<{ config: { markdown: string } }> }) => {
        if (answers.registry) answers.registry()
        calls.push(`registry ${body.tiles[0]!.config.markdown.match(/"TeamMember": \{[^}]*\}/)?.[0] ?? '{}'}`)
        return { id: 'reg', tiles: [] }
      },
      updateDashboard: async (_id: string, body: { tiles: Array<{ config: { markdown: string } }> }) => {
        if (answers.registry) answers.registry()
        calls.push(`registry ${body.tiles[0]!.config.markdown.match(/"TeamMember": \{[^}]*\}/)?.[0] ?? '{}'}`)
        return { id: 'reg', tiles: [] }
      }
    }
    return { api: api as unknown as ObservabilityApi, calls }
  }
  const run = (p: ReturnType<typeof plan>, api: ObservabilityApi) =>
    applyPlan({
      api,
      planned: p.planned,
      dashboards: p.dashboards,
      settings: shopSettings(),
      registry: p.registry,
      concurrency: 1,
      log: silentLogger
    })

  it('invites with the lowercased email and the name, then records the email in the registry', async () => {
    const { api, calls } = recordingApi()
    const result = await run(plan(member('Jane@Example.com', 'name: Jane\n'), live([SELF])), api)
    expect(result.outcomes[0]).toMatchObject({ status: 'applied', id: '650000000000000000000009' })
    expect(calls).toEqual([
      'invite {"email":"jane@example.com","name":"Jane"}',
      'registry "TeamMember": {\n    "jane@example.com": {"name":"Jane"}'
    ])
  })

  it("says an invitation it could not record is not the stack's yet, and how to adopt it", async () => {
    const { api, calls } = recordingApi({
      registry: () => {
        throw new Error('registry dashboard update refused (409)')
      }
    })
    const result = await run(plan(member('jane@example.com', 'name: Jane\n'), live([SELF])), api)
    expect(calls).toEqual(['invite {"email":"jane@example.com","name":"Jane"}'])
    expect(result.outcomes[0]).toMatchObject({
      status: 'failed',
      message: `${m('jane@example.com')} was invited (invitation 650000000000000000000009) but could not be recorded in the registry dashboard "obsdeploy registry (stack shop)", so this stack does not own it yet: registry dashboard update refused (409). Add \`adopt: true\` to its manifest and apply again`
    })
  })

  it('removes a member and its left-over invitation, then forgets the email', async () => {
    const { api, calls } = recordingApi()
    const state = live(
      [SELF, { id: '650000000000000000000002', email: 'sam@example.com' }],
      [{ id: '650000000000000000000003', email: 'sam@example.com' }],
      ['sam@example.com']
    )
    await run(plan('', state), api)
    expect(calls).toEqual([
      'delete member 650000000000000000000002',
      'delete invitation 650000000000000000000003',
      'registry {}'
    ])
  })

  it('keeps the email in the registry when the invitation was gone (accepted since the plan?)', async () => {
    const { api, calls } = recordingApi({ absent: true })
    const state = live(
      [SELF],
      [{ id: '650000000000000000000003', email: 'ann@example.com' }],
      ['ann@example.com']
    )
    const result = await run(plan('', state), api)
    expect(calls).toEqual(['delete invitation 650000000000000000000003'])
    expect(result.outcomes[0]!.message).toMatch(/already gone/)
  })
})
