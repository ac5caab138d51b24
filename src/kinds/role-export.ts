/**
 * Roles as manifests: every custom role in `roles.yaml`, `adopt: true` on those the stack does not own yet (as
 * webhooks). Predefined roles are never written: the server keeps them as they are, and a manifest of one's name is
 * refused. The `read Connection` rule the server adds to every custom role is left out (the plan leaves it out of
 * its comparison), and a rule's defaults (`integration: mongodb`, `inverted: false`) are not written.
 */
import type { LiveRole } from '../api/schemas.js'
import { withComments } from './exporting.js'
import type { KindExport } from './kind.js'
import { comparedLiveRules, ruleOf, ruleValue, ruleWords } from './role-permissions.js'

export const roleExport: KindExport<LiveRole> = {
  list: 'roles',
  writes: {
    to: { file: 'roles' },
    tags: undefined,
    skips: r => r.isPredefined,
    writer: ctx => r => {
      // `skips` keeps them out of the selection; a writer called with one anyway (a sync) writes nothing either.
      if (r.isPredefined) return { documents: [], carried: 0 }
      const comments: string[] = []
      const permissions = [...comparedLiveRules(r.permissions.map(ruleOf), false).values()].map(rule => {
        // A manifest has no `fields`: the rule is written without them, and the comment says so.
        const { fields, ...written } = ruleValue(rule)
        if (fields)
          comments.push(
            `the rule ${ruleWords(rule)} is limited to fields, which a manifest cannot say: it is written without them, so a plan of this file revokes it and grants it again without them`
          )
        return written
      })
      const value: Record<string, unknown> = { kind: 'Role', name: r.name }
      if (r.description) value.description = r.description
      value.permissions = permissions
      const other = ctx.registry.ownerOf('Role', r.id)
      if (other)
        comments.push(
          `managed by another stack (${other}): a stack never takes one over, so the plan refuses this manifest until that stack lets go`
        )
      if (!ctx.registry.owns('Role', r.id)) value.adopt = true
      return { documents: [withComments(value, comments)], carried: 0 }
    }
  }
}
