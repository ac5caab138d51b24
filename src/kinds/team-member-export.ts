/**
 * The team's members and pending invitations as manifests, by email: all in `team-members.yaml`. The API key's own
 * user is left out unless this stack already manages it: a stack never removes it (team-member.ts), so adopting it
 * would only claim what the stack cannot do, while leaving out one it manages would plan it as held back. A name is
 * written when it says more than the email (an accepted invitation's user is named by its email).
 */
import type { LiveTeamMember } from '../api/schemas.js'
import { withComments } from './exporting.js'
import type { KindExport } from './kind.js'

export const teamMemberExport: KindExport<LiveTeamMember> = {
  list: 'teamMembers',
  writes: {
    to: { file: 'team-members' },
    tags: undefined,
    skips: undefined,
    writer: ctx => m => {
      const managed = ctx.registry.owns('TeamMember', m.email)
      if (m.currentUser && !managed)
        return {
          documents: [],
          carried: 0,
          notes: [
            "The API key's own user is not written: a stack never removes it, so it is not adopted either."
          ]
        }
      const value: Record<string, unknown> = { kind: 'TeamMember', email: m.email }
      if (m.name && m.name.toLowerCase() !== m.email) value.name = m.name
      const comments = m.userId ? [] : ['a pending invitation']
      const other = ctx.registry.ownerOf('TeamMember', m.email)
      if (other)
        comments.push(
          `managed by another stack (${other}): a stack never takes one over, so the plan refuses this manifest until that stack lets go`
        )
      if (!managed) value.adopt = true
      return { documents: [withComments(value, comments)], carried: 0 }
    }
  }
}
