/**
 * Team members (self-hosted only: routers/external-api/v2/team.ts), the people who can read the team's data,
 * by email. A create is an invitation (POST /team/invitation); a manifest is satisfied by a member of that
 * email or by a pending invitation of it (GET /team/members, GET /team/invitations). Emails compare
 * lowercased: the server lowercases invitations and stores users' emails lowercased (controllers/user.ts).
 *
 * Ownership is the registry's (registry.ts), keyed by the email, not by an id: an invitation's id is not the
 * id of the user it becomes, and accepting deletes the invitation (routers/api/root.ts POST
 * /team/setup/:token), so an id would be forgotten exactly when the person joins. Prune removes the members
 * and invitations the registry lists, never the key's own user (`isCurrentUser`; the server answers 400
 * "You cannot remove yourself from the team"): the plan keeps that one and says why. A person the stack
 * does not manage is never touched; `adopt: true` takes one over, as for the other registry kinds.
 *
 * There is no route to change a member's or an invitation's name (and an accepted invitation's user is
 * named by its email), so `name` is sent with the invitation only and never compared.
 *
 * Emails are personal data: with `maskEmails` (the default) the plan names each person by the run's mask
 * (mask-email.ts: `j***e@example.com #3f2a`, keyed by the API credential), so the plan file, the comment, the
 * summary and the logs hold no email, and a reviewer still tells two people apart. The real email lives only in the
 * manifests, the requests and the registry dashboard on the server. For the same reason the kind has no saved
 * form (kind.ts SavedForm would write the emails into the plan file): `apply --plan` of a plan that invites or
 * removes someone plans again and compares the fingerprints (run/saved-plan.ts).
 */
import { NOUNS } from './nouns.js'
import { ApiError } from '../api/errors.js'
import type { LiveTeamMember } from '../api/schemas.js'
import { diagnostic } from '../diagnostics.js'
import { maskEmail } from '../mask-email.js'
import type { JsonObject } from '../json.js'
import type { Located } from '../manifest/load.js'
import type { TeamMemberSpec } from '../manifest/resources-schema.js'
import { DesiredAt } from './desired-at.js'
import type { Desired, Kind, Operation, PlanContext } from './kind.js'
import { registryNote, registryOwner } from './records.js'
import { teamMemberExport } from './team-member-export.js'
import { registryLists, registryName, unrecordedError } from './registry.js'

export interface DesiredTeamMember {
  spec: TeamMemberSpec
  located: Located<TeamMemberSpec>
  /** Lowercased, as the server keeps it: the identity and the registry key. */
  email: string
}

/** A live person with the name the plan gives them (masked or not), set when paired. */
export type PlannedTeamMember = LiveTeamMember & { label?: string }

export const teamMemberKind: Kind<DesiredTeamMember, PlannedTeamMember> = {
  kind: 'TeamMember',
  nouns: NOUNS.TeamMember,
  // Added after the first plan files: a plan without team members hashes as before.
  fingerprint: { specs: 'teamMembers', whenEmpty: false },
  referredBy: undefined,
  copies: undefined,
  seenOn: undefined,
  heldWhileUsed: undefined,
  unnamedUses: undefined,
  exports: teamMemberExport,
  live: {
    read: api => api.listTeam(),
    // Two more requests only for a stack with team members, or one whose registry lists some to prune.
    asked: async options => (await options.team) ?? true,
    neededBy: state => state.Dashboard.some(d => registryLists(d, 'TeamMember'))
  },

  desired(ctx) {
    const located = ctx.manifests.specs.TeamMember ?? []
    const labels = labelsOf(ctx)
    return located.map(l => {
      const email = l.spec.email.toLowerCase()
      if (ctx.live.TeamMember === undefined)
        ctx.report(
          diagnostic(
            'plan',
            'error',
            `this API has no team routes (${ctx.settings.mode}; HyperDX 2.36 or later serves them): TeamMember manifests cannot be applied here`,
            { ...l.doc.locate(['kind']), field: 'kind' }
          )
        )
      const name = labels.get(email)!
      return new DesiredAt(name, `TeamMember/${name}`, { spec: l.spec, located: l, email }, l.doc, 'email')
    })
  },

  pair(desired, ctx) {
    const live = ctx.live.TeamMember ?? []
    const labels = labelsOf(ctx)
    const labelled = (l: LiveTeamMember): PlannedTeamMember => ({ ...l, label: labels.get(l.email) })
    const byEmail = new Map(live.map(l => [l.email, l]))
    const used = new Set<string>()
    const result: ReturnType<Kind<DesiredTeamMember, PlannedTeamMember>['pair']> = { pairs: [], orphans: [] }
    const planError = (d: Desired<DesiredTeamMember>, field: 'email' | 'adopt', message: string) =>
      ctx.report(diagnostic('plan', 'error', message, { ...d.value.located.doc.locate([field]), field }))
    for (const d of desired) {
      const l = byEmail.get(d.value.email)
      if (!l) {
        result.pairs.push({ desired: d })
        continue
      }
      used.add(l.email)
      const what = `${d.name} ${l.userId ? 'is a member of the team' : 'has a pending invitation'}`
      const other = ctx.registry.ownerOf('TeamMember', l.email)
      if (ctx.registry.owns('TeamMember', l.email)) result.pairs.push({ desired: d, live: labelled(l) })
      else if (other)
        planError(
          d,
          'email',
          `${what}, managed by another stack (${other}); a stack never takes over another stack's team members: remove it from that stack's manifests first`
        )
      else if (d.value.spec.adopt)
        result.pairs.push({
          desired: d,
          live: labelled(l),
          notes: [
            `adopts ${l.userId ? 'the existing member' : 'the pending invitation'}: this stack manages it from now on (recorded in its registry dashboard "${registryName(ctx.settings.stack)}"), so prune may remove it`
          ]
        })
      else
        planError(
          d,
          'email',
          `${what}, which stack "${ctx.settings.stack}" does not manage. It is left alone: to manage it from this manifest, add \`adopt: true\` (prune may then remove it); otherwise remove this manifest`
        )
    }
    result.orphans = live
      .filter(l => !used.has(l.email) && ctx.registry.owns('TeamMember', l.email))
      .map(labelled)
    return result
  },

  normalDesired: (d, ctx, live) =>
    normal(d.name, ctx.settings.ownershipTag, live ? statusOf(live) : 'invited'),

  normalLive: (l, ctx) =>
    normal(
      // pair() labelled every record the planner passes here (its pairs and orphans).
      l.label!,
      registryOwner('TeamMember', l.email, ctx),
      statusOf(l)
    ),

  // By its id and state, not its label: the label's tag depends on the run's credential (kind.ts).
  fingerprinted: ({ id, before }) => {
    const { email: _label, ...state } = (before ?? {}) as JsonObject
    return ['TeamMember', id, state]
  },
  liveName: l => l.label ?? l.email,
  liveId: l => l.userId ?? l.invitationId,
  registryKey: l => l.email,

  refine(pc, ctx) {
    const { change, live } = pc
    if (change.action === 'delete' && live?.currentUser) {
      // The server refuses it (v2/team.ts), and a stack that locked its own key out could not apply again.
      change.deferred = 'own-user'
      change.notes = [
        `not removed: it is the API key's own user (the server answers "You cannot remove yourself from the team"). It stays in the team and in this stack's registry; put its manifest back to manage it again`
      ]
      return
    }
    // An adoption's note comes from pairing; the registry holds no write-only fingerprints of people.
    if (change.action !== 'update') registryNote(change, ctx)
    if (change.action === 'create')
      change.notes.push(
        'invited: the person joins through the emailed link (the invitation expires after 30 days, and the next plan invites again)'
      )
    if (change.action === 'delete' && live?.userId)
      change.notes.push(
        "removed from the team: their alerts stay, now created by the API key's user (controllers/user.ts deleteTeamMember)"
      )
    else if (change.action === 'delete') change.notes.push('their pending invitation is withdrawn')
  },

  operations(pc) {
    const { change, desired, live } = pc
    if (change.action === 'noop' || change.deferred) return []
    const lock = `TeamMember:${desired?.value.email ?? live?.email ?? change.name}`
    const op = (label: string, run: Operation['run']): Operation => ({
      address: change.address,
      label,
      lock,
      provides: [],
      after: [],
      run
    })
    if (change.action === 'delete' && live) {
      return [
        op('remove', async ctx => {
          const removed: string[] = []
          let absent = false
          if (live.userId) {
            if ((await ctx.api.deleteTeamMember(live.userId)) === 'absent') absent = true
            else removed.push('member')
          }
          if (live.invitationId) {
            if ((await ctx.api.deleteTeamInvitation(live.invitationId)) === 'absent') absent = true
            else removed.push('invitation')
          }
          // An invitation gone since the plan may have been accepted: the registry keeps the email, so the
          // next plan removes the member it became (or forgets the email if it expired).
          if (!absent) await ctx.registry.forget('TeamMember', live.email)
          return {
            status: 'applied',
            id: live.userId ?? live.invitationId,
            message: absent
              ? 'already gone (an invitation accepted or expired since the plan?): plan again to see'
              : undefined
          }
        })
      ]
    }
    if (!desired) return []
    const email = desired.value.email
    const entry = { name: desired.value.spec.name ?? email }
    if (live)
      return [
        op('adopt', async ctx => {
          await ctx.registry.record('TeamMember', email, entry)
          return { status: 'applied', id: live.userId ?? live.invitationId }
        })
      ]
    return [
      op('invite', async ctx => {
        const body: { email: string; name?: string } = { email }
        if (desired.value.spec.name !== undefined) body.name = desired.value.spec.name
        let invitation
        try {
          invitation = await ctx.api.inviteTeamMember(body)
        } catch (e) {
          if (e instanceof ApiError && e.status === 400 && /already exists/i.test(e.serverMessage ?? ''))
            throw new Error(
              `${change.name} cannot be invited: the server says a user with this email already exists ("${e.serverMessage}"). A HyperDX user belongs to one team, and this one is not in the API key's team (the plan saw no member of this email): the user must be removed from their team first, or drop this manifest`,
              { cause: e }
            )
          throw e
        }
        try {
          await ctx.registry.record('TeamMember', email, entry)
        } catch (e) {
          throw unrecordedError(
            `${change.name} was invited (invitation ${invitation.id})`,
            ctx.settings.stack,
            e
          )
        }
        return { status: 'applied', id: invitation.id }
      })
    ]
  },

  // As operations: the member's and the invitation's deletes, or an invitation; each recorded or forgotten.
  requests({ change, desired, live }) {
    if (change.action === 'noop' || change.deferred) return { requests: 0 }
    if (change.action === 'delete')
      return live
        ? { requests: (live.userId ? 1 : 0) + (live.invitationId ? 1 : 0), registry: 1 }
        : { requests: 0 }
    if (!desired) return { requests: 0 }
    return { requests: live ? 0 : 1, registry: 1 }
  }
}

/**
 * How the plan names each person: the manifests' emails and the ones this stack's registry lists (they may
 * be deleted: their labels must not collide either), masked unless `maskEmails` is false.
 */
function labelsOf(ctx: PlanContext): Map<string, string> {
  const owned = (ctx.live.TeamMember ?? []).filter(l => ctx.registry.owns('TeamMember', l.email))
  return labelsFor(
    [
      ...(ctx.manifests.specs.TeamMember ?? []).map(l => l.spec.email.toLowerCase()),
      ...owned.map(l => l.email)
    ],
    ctx.settings.maskEmails !== false
  )
}

/**
 * How the plan names each email: itself, or masked; masks two emails share (their tags too: once in 65,536
 * for two people of one first letter, last letter and domain) get `(2)`, `(3)`, ... in the emails' order, so
 * every address of the plan stays unique.
 */
function labelsFor(emails: readonly string[], mask: boolean): Map<string, string> {
  const labels = new Map<string, string>()
  const count = new Map<string, number>()
  for (const email of [...new Set(emails)].sort()) {
    if (!mask) {
      labels.set(email, email)
      continue
    }
    const masked = maskEmail(email)
    const n = (count.get(masked) ?? 0) + 1
    count.set(masked, n)
    labels.set(email, n === 1 ? masked : `${masked} (${n})`)
  }
  return labels
}

const statusOf = (l: LiveTeamMember): string => (l.userId ? 'member' : 'invited')

function normal(email: string, owner: string | undefined, status: string): JsonObject {
  const out: JsonObject = { email }
  if (owner !== undefined) out.owner = owner
  out.status = status
  return out
}
