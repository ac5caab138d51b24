/**
 * The people of the emulator's team, as HyperDX 2.36 keeps and serves them: the users (models/user.ts, of every
 * team: an email is one user in one team) and the team's invitations (models/teamInvite.ts), with the routes of
 * routers/external-api/v2/team.ts, and what the web UI's join route does with an invitation (routers/api/root.ts
 * POST /team/setup/:token: a user named by its email, the invitation deleted). Tests accept invitations and add
 * users of other teams through the methods below. The 30-day expiry (the TTL index on createdAt) is `expire`.
 */
import { randomBytes } from 'node:crypto'
import { isObjectId, newObjectId } from './ids.js'
import { jsonReply, textReply, type Reply } from './reply.js'

export interface StoredUser {
  id: string
  /** Lowercased, as models/user.ts stores it. */
  email: string
  name: string
  teamId: string
  createdAt: string
}

export interface StoredInvitation {
  id: string
  teamId: string
  /** Lowercased by POST /team/invitation. */
  email: string
  name?: string
  /** 64 hex characters: whoever holds `/join-team?token=<token>` can join the team. */
  token: string
  createdAt: string
}

export interface TeamMembersSnapshot {
  users: StoredUser[]
  invitations: StoredInvitation[]
}

/** What zod-express-middleware answers when a part fails (the server's zod is v3: this is how its errors serialize). */
const validationFailure = (type: 'Body' | 'Params', issue: Record<string, unknown>): Reply =>
  jsonReply(400, [{ type, errors: { issues: [issue], name: 'ZodError' } }])

/** zod v3's `z.string().email()`, near enough: one @, no spaces, a dot in the domain. */
const EMAIL = /^(?!\.)(?!.*\.\.)([A-Z0-9_'+\-.]*)[A-Z0-9_+-]@([A-Z0-9][A-Z0-9-]*\.)+[A-Z]{2,}$/i

export class TeamMembers {
  readonly users: StoredUser[]
  readonly invitations: StoredInvitation[]

  constructor(
    snapshot: TeamMembersSnapshot | undefined,
    private readonly teamId: string,
    /** The API key's user: a member of the team from the start. */
    private readonly keyUser: { id: string; email: string; name: string },
    /** FRONTEND_URL: the invitation urls start with it. */
    private readonly frontendUrl: string,
    private readonly changed: () => void
  ) {
    this.users = snapshot?.users ?? [
      {
        id: keyUser.id,
        email: keyUser.email.toLowerCase(),
        name: keyUser.name,
        teamId,
        createdAt: new Date(0).toISOString()
      }
    ]
    this.invitations = snapshot?.invitations ?? []
  }

  snapshot(): TeamMembersSnapshot {
    return structuredClone({ users: this.users, invitations: this.invitations })
  }

  /**
   * routers/external-api/v2/team.ts below `/team/` (`GET /team` itself is the self-hosted router's); `undefined`
   * for a path it does not have (Express's 404 page then).
   */
  route(method: string, segments: readonly string[], body: unknown): Reply | undefined {
    const [what, id, ...rest] = segments
    if (rest.length > 0) return undefined
    if (method === 'GET' && what === 'members' && id === undefined)
      return jsonReply(200, { data: this.members() })
    if (method === 'GET' && what === 'invitations' && id === undefined)
      return jsonReply(200, {
        data: this.invitations
          .filter(i => i.teamId === this.teamId)
          .map(i => ({ id: i.id, createdAt: i.createdAt, email: i.email, name: i.name, url: this.url(i) }))
      })
    if (method === 'POST' && what === 'invitation' && id === undefined) return this.invite(body)
    if (method === 'DELETE' && (what === 'invitation' || what === 'member') && id !== undefined) {
      if (!isObjectId(id))
        return validationFailure('Params', { code: 'custom', message: 'Invalid ObjectId', path: ['id'] })
      return what === 'invitation' ? this.deleteInvitation(id) : this.deleteMember(id)
    }
    return undefined
  }

  /** GET /team/members: the team's users, oldest first (controllers/user.ts findUsersByTeam). */
  members(): Array<{ id: string; email: string; name: string; isCurrentUser: boolean }> {
    return this.users
      .filter(u => u.teamId === this.teamId)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      .map(u => ({ id: u.id, email: u.email, name: u.name, isCurrentUser: u.id === this.keyUser.id }))
  }

  private invite(body: unknown): Reply {
    const b = (body ?? {}) as Record<string, unknown>
    if (typeof b.email !== 'string')
      return validationFailure('Body', {
        code: 'invalid_type',
        expected: 'string',
        received: b.email === undefined ? 'undefined' : typeof b.email,
        path: ['email'],
        message: 'Required'
      })
    if (!EMAIL.test(b.email))
      return validationFailure('Body', {
        validation: 'email',
        code: 'invalid_string',
        message: 'Invalid email',
        path: ['email']
      })
    if (b.name !== undefined && typeof b.name !== 'string')
      return validationFailure('Body', {
        code: 'invalid_type',
        expected: 'string',
        received: typeof b.name,
        path: ['name'],
        message: 'Expected string, received ' + typeof b.name
      })
    const email = b.email.toLowerCase()
    // findUserByEmail: a user of ANY team.
    if (this.users.some(u => u.email === email))
      return jsonReply(400, { message: 'User already exists. Please contact HyperDX team for support' })
    let invitation = this.invitations.find(i => i.teamId === this.teamId && i.email === email)
    if (!invitation) {
      invitation = {
        id: newObjectId(),
        teamId: this.teamId,
        email,
        ...(b.name !== undefined ? { name: b.name as string } : {}),
        token: randomBytes(32).toString('hex'),
        createdAt: new Date().toISOString()
      }
      this.invitations.push(invitation)
      this.changed()
    }
    return jsonReply(200, {
      data: { email, invitationId: invitation.id, status: 'pending', url: this.url(invitation) }
    })
  }

  private deleteInvitation(id: string): Reply {
    const at = this.invitations.findIndex(i => i.id === id && i.teamId === this.teamId)
    if (at < 0) return textReply(404, 'Not Found')
    this.invitations.splice(at, 1)
    this.changed()
    return jsonReply(200, { data: { success: true } })
  }

  private deleteMember(id: string): Reply {
    if (id === this.keyUser.id) return jsonReply(400, { message: 'You cannot remove yourself from the team' })
    const at = this.users.findIndex(u => u.id === id && u.teamId === this.teamId)
    if (at < 0) return textReply(404, 'Not Found')
    this.users.splice(at, 1)
    this.changed()
    return jsonReply(200, { data: { success: true } })
  }

  private url(i: StoredInvitation): string {
    return `${this.frontendUrl}/join-team?token=${i.token}`
  }

  // -------------------------------------------------------------------------------------------------
  // What tests do besides the v2 routes.

  /** routers/api/root.ts POST /team/setup/:token: the invitation becomes a user named by its email, and is deleted. */
  acceptInvitation(email: string): StoredUser {
    const invitation = this.invitations.find(i => i.email === email.toLowerCase())
    if (!invitation) throw new Error(`no invitation of ${email}`)
    const user: StoredUser = {
      id: newObjectId(),
      email: invitation.email,
      name: invitation.email,
      teamId: invitation.teamId,
      createdAt: new Date().toISOString()
    }
    this.users.push(user)
    this.invitations.splice(this.invitations.indexOf(invitation), 1)
    this.changed()
    return user
  }

  /** A user who registered on their own: of this team, or of another (`teamId`). */
  addUser(email: string, options: { name?: string; teamId?: string } = {}): StoredUser {
    const user: StoredUser = {
      id: newObjectId(),
      email: email.toLowerCase(),
      name: options.name ?? email.toLowerCase(),
      teamId: options.teamId ?? this.teamId,
      createdAt: new Date().toISOString()
    }
    this.users.push(user)
    this.changed()
    return user
  }

  /** The TTL index on createdAt (30 days): the invitation of this email disappears. */
  expire(email: string): void {
    const at = this.invitations.findIndex(i => i.email === email.toLowerCase())
    if (at >= 0) this.invitations.splice(at, 1)
    this.changed()
  }
}
