/**
 * The team routes over HTTP as HyperDX 2.36 serves them (routers/external-api/v2/team.ts; docs/real-server.md
 * "Team members"): the members with the key's own user marked, invitations lowercased and idempotent, a user of any
 * team refused, the self-removal 400, the plain-text 404s, zod-express-middleware's 400 for a bad email or id, the
 * join route's effect (a user named by its email, the invitation gone), and persistence.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import type { Emulator } from '../../emulator/index.js'
import { call, start } from './helpers.js'

let emu: Emulator

beforeEach(async () => {
  emu = await start()
})
afterEach(async () => {
  await emu.close()
})

const OBJECT_ID = /^[0-9a-f]{24}$/
const v2 = (p: string) => `/api/v2${p}`

describe('members', () => {
  test("lists the key's own user as the current user", async () => {
    const listed = await call(emu, 'GET', v2('/team/members'))
    expect(listed.status).toBe(200)
    expect(listed.json).toEqual({
      data: [{ id: emu.user.id, email: emu.user.email, name: emu.user.name, isCurrentUser: true }]
    })
  })

  test('refuses to remove the current user, 404s an unknown one as plain text, removes another', async () => {
    const self = await call(emu, 'DELETE', v2(`/team/member/${emu.user.id}`))
    expect([self.status, self.json]).toEqual([400, { message: 'You cannot remove yourself from the team' }])
    const unknown = await call(emu, 'DELETE', v2('/team/member/65a1f0c2b3d4e5f6a7b8cfff'))
    expect([unknown.status, unknown.text, unknown.headers.get('content-type')]).toEqual([
      404,
      'Not Found',
      'text/plain; charset=utf-8'
    ])
    const other = emu.team.addUser('bob@example.com')
    const removed = await call(emu, 'DELETE', v2(`/team/member/${other.id}`))
    expect([removed.status, removed.json]).toEqual([200, { data: { success: true } }])
    expect((await call(emu, 'GET', v2('/team/members'))).json.data).toHaveLength(1)
  })

  test("does not remove a user of another team (404), as findOneAndDelete on the key's team", async () => {
    const stranger = emu.team.addUser('zed@example.com', { teamId: '65a1f0c2b3d4e5f6a7b8cfff' })
    expect((await call(emu, 'DELETE', v2(`/team/member/${stranger.id}`))).status).toBe(404)
    expect(
      (await call(emu, 'GET', v2('/team/members'))).json.data.map((m: { email: string }) => m.email)
    ).toEqual([emu.user.email])
  })
})

describe('invitations', () => {
  test('invites lowercased, answers the same invitation again, lists it with its url', async () => {
    const first = await call(emu, 'POST', v2('/team/invitation'), {
      body: { email: 'Jane@Example.COM', name: 'Jane' }
    })
    expect(first.status).toBe(200)
    expect(first.json.data).toEqual({
      email: 'jane@example.com',
      invitationId: expect.stringMatching(OBJECT_ID),
      status: 'pending',
      url: expect.stringMatching(/^http:\/\/localhost:8080\/join-team\?token=[0-9a-f]{64}$/)
    })
    const again = await call(emu, 'POST', v2('/team/invitation'), { body: { email: 'jane@example.com' } })
    expect(again.json.data).toEqual(first.json.data)
    const listed = await call(emu, 'GET', v2('/team/invitations'))
    expect(listed.json.data).toEqual([
      {
        id: first.json.data.invitationId,
        createdAt: expect.any(String),
        email: 'jane@example.com',
        name: 'Jane',
        url: first.json.data.url
      }
    ])
  })

  test('refuses a user who exists in any team', async () => {
    emu.team.addUser('erin@example.com', { teamId: '65a1f0c2b3d4e5f6a7b8cfff' })
    for (const email of ['erin@example.com', emu.user.email.toUpperCase()]) {
      const refused = await call(emu, 'POST', v2('/team/invitation'), { body: { email } })
      expect([refused.status, refused.json]).toEqual([
        400,
        { message: 'User already exists. Please contact HyperDX team for support' }
      ])
    }
  })

  test("answers a bad email or id with zod-express-middleware's 400 list", async () => {
    const bad = await call(emu, 'POST', v2('/team/invitation'), { body: { email: 'nope' } })
    expect([bad.status, bad.json]).toEqual([
      400,
      [
        {
          type: 'Body',
          errors: {
            issues: [
              { validation: 'email', code: 'invalid_string', message: 'Invalid email', path: ['email'] }
            ],
            name: 'ZodError'
          }
        }
      ]
    ])
    const badId = await call(emu, 'DELETE', v2('/team/invitation/xyz'))
    expect([badId.status, badId.json]).toEqual([
      400,
      [
        {
          type: 'Params',
          errors: {
            issues: [{ code: 'custom', message: 'Invalid ObjectId', path: ['id'] }],
            name: 'ZodError'
          }
        }
      ]
    ])
  })

  test('deletes an invitation, then 404s it as plain text', async () => {
    const { json } = await call(emu, 'POST', v2('/team/invitation'), { body: { email: 'a@example.com' } })
    const id = json.data.invitationId as string
    expect((await call(emu, 'DELETE', v2(`/team/invitation/${id}`))).json).toEqual({
      data: { success: true }
    })
    const again = await call(emu, 'DELETE', v2(`/team/invitation/${id}`))
    expect([again.status, again.text]).toEqual([404, 'Not Found'])
  })

  test('accepting one (the join route) makes a user named by the email and deletes the invitation', async () => {
    await call(emu, 'POST', v2('/team/invitation'), { body: { email: 'sam@example.com', name: 'Sam' } })
    const user = emu.team.acceptInvitation('sam@example.com')
    expect((await call(emu, 'GET', v2('/team/invitations'))).json.data).toEqual([])
    expect((await call(emu, 'GET', v2('/team/members'))).json.data).toContainEqual({
      id: user.id,
      email: 'sam@example.com',
      name: 'sam@example.com',
      isCurrentUser: false
    })
  })

  test('an unknown team path is the router 404 page', async () => {
    const missing = await call(emu, 'GET', v2('/team/users'))
    expect(missing.status).toBe(404)
    expect(missing.text).toContain('Cannot GET /api/v2/team/users')
  })
})

test('keeps members and invitations across a restart (persistence)', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'emu-team-'))
  const file = path.join(dir, 'state.json')
  try {
    const first = await start({ persistPath: file })
    await call(first, 'POST', v2('/team/invitation'), { body: { email: 'kim@example.com' } })
    first.team.addUser('lee@example.com')
    first.save()
    await first.close()
    const second = await start({ persistPath: file })
    expect(
      (await call(second, 'GET', v2('/team/invitations'))).json.data.map((i: { email: string }) => i.email)
    ).toEqual(['kim@example.com'])
    expect((await call(second, 'GET', v2('/team/members'))).json.data).toHaveLength(2)
    await second.close()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
