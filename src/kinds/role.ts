/**
 * ClickStack roles of the managed cloud (`.../clickstack/roles`, cloud OpenAPI `ClickStackRole`): who may read or
 * change dashboards, alerts, sources and the rest is set by the CASL permissions of the roles people are given. A
 * role's rules compare as a set (role-permissions.ts), and a plan says each change in plain words: what it grants,
 * revokes, denies or no longer denies; what widens access (a new grant, a denial removed, a new role that grants
 * `manage` or on `all`) is the change's `widens`, which the report's heading counts like a delete.
 *
 * Roles carry no tags: the stack owns them through its registry dashboard (registry.ts), like webhooks. A live role
 * of a manifest's name that the stack does not own is a plan error until `adopt: true`; prune deletes only what the
 * registry lists. Predefined roles (`isPredefined`: immutable) are never paired, pruned or exported, and a manifest
 * of one's name is refused (validate refuses the names the provider documents; the plan also refuses any live role
 * flagged predefined).
 *
 * Writes as the Terraform provider's `clickstack_role` does (client/role.go, role_resource.go): a create sends the
 * name, the description when set and the rules; an update always sends the name, the description (empty when the
 * manifest has none, which clears it) and the whole list of rules, which replaces the role's. The `read Connection`
 * rule the server adds to every custom role is left out of the comparison (role-permissions.ts); an update sends it
 * back when the live role holds it, so the update keeps it whether or not the server adds it again on update (the
 * provider leaves it out and relies on "the API always ensures" it: sending it costs nothing under that behaviour,
 * and removes the dependence on it). A delete the server refuses (a role users have, the team's default role) fails
 * the change with the server's words (records.ts: the registry forgets it only once it is gone).
 */
import type { LiveRole } from '../api/schemas.js'
import { diagnostic } from '../diagnostics.js'
import { clean, type JsonObject } from '../json.js'
import type { RoleSpec } from '../manifest/role-schema.js'
import type { Kind, PlanContext } from './kind.js'
import { NOUNS } from './nouns.js'
import {
  changesMoreThanOwner,
  desiredRecords,
  recordWrites,
  registryNote,
  registryOwner,
  registryPair,
  type RecordDesired
} from './records.js'
import { registryLists } from './registry.js'
import { roleExport } from './role-export.js'
import {
  AUTO_GRANT,
  broadGrants,
  comparedLiveRules,
  holdsAutoGrant,
  listsAutoGrant,
  normalRules,
  ruleBody,
  ruleChanges,
  ruleOf,
  ruleSet,
  ruleWords,
  type Rule
} from './role-permissions.js'

type DesiredRole = RecordDesired<RoleSpec>

const desiredRules = (spec: RoleSpec): Rule[] => spec.permissions.map(ruleOf)
const liveRules = (l: LiveRole): Rule[] => l.permissions.map(ruleOf)

/** Whether the manifest of this name lists the server's own rule (a live role is paired by its name). */
function manifestListsAuto(ctx: PlanContext, name: string): boolean {
  const spec = ctx.manifests.specs.Role.find(l => l.spec.name === name)?.spec
  return spec !== undefined && listsAutoGrant(desiredRules(spec))
}

const pairCustom = registryPair(
  'Role',
  ctx => ctx.live.Role?.filter(r => !r.isPredefined),
  // ClickStackCreateRoleRequest: "Must be unique within the team".
  () => 'the server allows one role of a name in a team'
)

export const roleKind: Kind<DesiredRole, LiveRole> = {
  kind: 'Role',
  nouns: NOUNS.Role,
  // Added after the first plan files: a plan without roles hashes as before.
  fingerprint: { specs: 'roles', whenEmpty: false },
  referredBy: undefined,
  copies: undefined,
  seenOn: undefined,
  heldWhileUsed: undefined,
  unnamedUses: undefined,
  exports: roleExport,
  live: {
    read: api => api.listRoles(),
    // One request more only for a stack with roles, or one whose registry lists some to prune.
    asked: async options => (await options.roles) ?? true,
    neededBy: state => state.Dashboard.some(d => registryLists(d, 'Role'))
  },

  desired: ctx => desiredRecords('Role', ctx.manifests.specs.Role, ctx.live.Role, ctx),

  pair(desired, ctx) {
    const predefined = new Map(
      (ctx.live.Role ?? []).filter(r => r.isPredefined).map(r => [r.name.toLowerCase(), r])
    )
    const custom = desired.filter(d => {
      const p = predefined.get(d.name.toLowerCase())
      if (!p) return true
      ctx.report(
        diagnostic(
          'plan',
          'error',
          `"${p.name}" is a predefined role of this team (id ${p.id}): the server keeps it as it is (it cannot be changed or deleted), and a custom role cannot take its name. Give this role another name`,
          { ...d.value.located.doc.locate(['name']), field: 'name' }
        )
      )
      return false
    })
    return pairCustom(custom, ctx)
  },

  keyedPaths: new Set(['permissions']),

  normalDesired: (d, ctx) =>
    normal({
      name: d.value.spec.name,
      owner: ctx.settings.ownershipTag,
      description: d.value.spec.description,
      permissions: normalRules(ruleSet(desiredRules(d.value.spec)))
    }),

  normalLive: (l, ctx) =>
    normal({
      name: l.name,
      owner: registryOwner('Role', l.id, ctx),
      description: l.description,
      permissions: normalRules(comparedLiveRules(liveRules(l), manifestListsAuto(ctx, l.name)))
    }),

  liveName: l => l.name,
  liveId: l => l.id,

  refine(pc, ctx) {
    const { change, desired, live } = pc
    if (change.deferred === undefined && desired) {
      const after = ruleSet(desiredRules(desired.value.spec))
      if (change.action === 'create') {
        change.notes.push(...after.keys())
        setWidens(change, broadGrants(after))
        if (!listsAutoGrant([...after.values()])) change.notes.push(AUTO_GRANT_NOTE)
      } else if (change.action === 'update' && live) {
        const before = comparedLiveRules(liveRules(live), listsAutoGrant([...after.values()]))
        const { notes, widens } = ruleChanges(before, after)
        change.notes.push(...notes)
        setWidens(change, widens)
      }
    }
    if (change.action === 'delete' && !change.deferred)
      change.notes.push(
        "the server refuses to delete a role that users have, or the team's default role: the apply then fails with its words, and the role stays this stack's"
      )
    registryNote(change, ctx)
  },

  ...recordWrites<DesiredRole, LiveRole>(() => ({
    kind: 'Role',
    collection: 'roles',
    liveId: l => l.id,
    liveName: l => l.name,
    list: async ctx => (await ctx.api.listRoles()) ?? [],
    find: (all, body) => all.find(l => !l.isPredefined && l.name === body.name),
    createBody: d => {
      const out: Record<string, unknown> = { name: d.spec.name }
      if (d.spec.description !== undefined) out.description = d.spec.description
      out.permissions = permissionsBody(desiredRules(d.spec), false)
      return out
    },
    updateBody(d, live, change) {
      if (!changesMoreThanOwner(change)) return undefined
      const rules = desiredRules(d.spec)
      return {
        name: d.spec.name,
        description: d.spec.description ?? '',
        permissions: permissionsBody(rules, holdsAutoGrant(liveRules(live)) && !listsAutoGrant(rules))
      }
    },
    // A registry entry is what owning means: recorded on create and adoption, kept while its name is the same.
    entryAfter(d, _sent, live, octx) {
      const previous = live ? octx.registry.entry('Role', live.id) : undefined
      return previous?.name === d.spec.name ? undefined : { name: d.spec.name }
    }
  }))
}

const AUTO_GRANT_NOTE = `the server also grants ${ruleWords(AUTO_GRANT)} to every custom role: left out of the comparison, and never removed`

/** The rules as a request sends them: each once, in the manifest's order; the server's own rule kept when asked. */
function permissionsBody(rules: readonly Rule[], keepAutoGrant: boolean): JsonObject[] {
  const set = ruleSet(keepAutoGrant ? [...rules, AUTO_GRANT] : rules)
  return [...set.values()].map(ruleBody)
}

function setWidens(change: { widens?: string[] }, widens: string[]): void {
  if (widens.length > 0) change.widens = widens
}

function normal(o: Record<string, unknown>): JsonObject {
  return (clean(o) ?? {}) as JsonObject
}
