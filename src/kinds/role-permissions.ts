/**
 * A role's CASL permissions as a set of rules, in plain words. Two lists hold the same rules when they hold the
 * same rules in any order, a rule written twice being one: each rule has a canonical key (its action, subject,
 * integration, whether it denies, its fields and its conditions with their keys sorted), as the Terraform provider
 * compares them (`role_resource.go` permKey). An absent integration is `mongodb` (the provider's default, and what
 * it sends), an absent `inverted` is false, empty conditions are none (CASL: an empty mapping matches everything).
 *
 * The cloud adds a `read` rule on `Connection` to every custom role (the provider: "the API always ensures a `read`
 * permission on `Connection` is present"). As the provider's `filterAutoConnectionRead` does, that exact rule
 * (read, Connection, mongodb, not inverted, no fields, no conditions) is left out of the live role's rules unless
 * the manifest lists it itself: it is never planned away and never shows as drift.
 */
import type { LiveRolePermission } from '../api/schemas.js'
import type { Json, JsonObject } from '../json.js'
import type { RolePermissionSpec } from '../manifest/role-schema.js'

export const DEFAULT_INTEGRATION = 'mongodb'

/** One rule, its defaults filled in. */
export interface Rule {
  action: string
  subject: string
  inverted: boolean
  integration: string
  fields?: string[]
  conditions?: JsonObject
}

/** The rule the server adds to every custom role. */
export const AUTO_GRANT: Rule = {
  action: 'read',
  subject: 'Connection',
  inverted: false,
  integration: DEFAULT_INTEGRATION
}

/** A manifest's or a live record's rule, defaults filled in. */
export function ruleOf(p: RolePermissionSpec | LiveRolePermission): Rule {
  const rule: Rule = {
    action: p.action,
    subject: p.subject,
    inverted: p.inverted === true,
    integration: p.integration || DEFAULT_INTEGRATION
  }
  const fields = 'fields' in p && Array.isArray(p.fields) ? [...new Set(p.fields)].sort() : []
  if (fields.length > 0) rule.fields = fields
  const conditions = p.conditions ? (canonical(p.conditions) as JsonObject) : undefined
  if (conditions && Object.keys(conditions).length > 0) rule.conditions = conditions
  return rule
}

/** Keys sorted at every level, so two spellings of one mapping are one text. */
function canonical(v: unknown): Json {
  if (Array.isArray(v)) return v.map(canonical)
  if (v !== null && typeof v === 'object') {
    const out: JsonObject = {}
    for (const key of Object.keys(v).sort()) out[key] = canonical((v as Record<string, unknown>)[key])
    return out
  }
  return v === undefined ? null : (v as Json)
}

/**
 * A rule in words, without its verb: `read Source where integration is clickhouse`. Unique per rule (it says every
 * part of it), so it is also the rule's key in the normal form.
 */
export function ruleWords(r: Rule): string {
  let words = `\`${r.action} ${r.subject}\``
  if (r.integration !== DEFAULT_INTEGRATION) words += ` where integration is ${r.integration}`
  if (r.fields) words += ` on fields ${r.fields.join(', ')}`
  if (r.conditions) words += ` when ${JSON.stringify(r.conditions)}`
  return words
}

/** The rule's key: denying and granting the same thing are two rules. */
export const ruleKey = (r: Rule): string => `${r.inverted ? 'denies' : 'grants'} ${ruleWords(r)}`

const isAutoGrant = (r: Rule): boolean => ruleKey(r) === ruleKey(AUTO_GRANT)

/** A list of rules as a set, by key, in the list's order. */
export function ruleSet(rules: readonly Rule[]): Map<string, Rule> {
  const out = new Map<string, Rule>()
  for (const r of rules) if (!out.has(ruleKey(r))) out.set(ruleKey(r), r)
  return out
}

/** Whether a manifest lists the server's own rule (then it is compared like any other). */
export const listsAutoGrant = (desired: readonly Rule[]): boolean => desired.some(isAutoGrant)

/** The live role's rules as the plan compares them: the server's own rule left out unless the manifest lists it. */
export function comparedLiveRules(live: readonly Rule[], manifestListsAuto: boolean): Map<string, Rule> {
  return ruleSet(manifestListsAuto ? live : live.filter(r => !isAutoGrant(r)))
}

/** Whether the live role holds the server's own rule (an update sends it back: role.ts says why). */
export const holdsAutoGrant = (live: readonly Rule[]): boolean => live.some(isAutoGrant)

/** A rule as a request (and the normal form) carries it: the defaults explicit, as the provider sends them. */
export function ruleBody(r: Rule): JsonObject {
  const out: JsonObject = {
    action: r.action,
    subject: r.subject,
    inverted: r.inverted,
    integration: r.integration
  }
  if (r.fields) out.fields = r.fields
  if (r.conditions) out.conditions = r.conditions
  return out
}

/** A rule as a manifest writes it: the defaults left out (export writes this; the plan shows it). */
export function ruleValue(r: Rule): JsonObject {
  const out: JsonObject = { action: r.action, subject: r.subject }
  if (r.inverted) out.inverted = true
  if (r.integration !== DEFAULT_INTEGRATION) out.integration = r.integration
  if (r.fields) out.fields = r.fields
  if (r.conditions) out.conditions = r.conditions
  return out
}

/** The rules in the normal form: a mapping by key, so the diff shows each rule added or removed by its words. */
export function normalRules(rules: ReadonlyMap<string, Rule>): JsonObject {
  const out: JsonObject = {}
  for (const [key, r] of rules) out[key] = ruleValue(r)
  return out
}

/** What a change does to the rules, in plain words, and which of those words widen access. */
export interface RuleChanges {
  notes: string[]
  widens: string[]
}

/**
 * From the live rules to the desired ones. A rule added that grants: `grants ...` (widens); a grant removed:
 * `revokes ...`; a denial added: `denies ...`; a denial removed: `no longer denies ...` (widens). A changed rule (its
 * conditions, its integration) is one removed and one added: a grant with new conditions widens, whether or not
 * the new ones are narrower, since a set of conditions cannot be compared for breadth.
 */
export function ruleChanges(
  before: ReadonlyMap<string, Rule>,
  after: ReadonlyMap<string, Rule>
): RuleChanges {
  const notes: string[] = []
  const widens: string[] = []
  for (const [key, r] of before) {
    if (after.has(key)) continue
    if (r.inverted) {
      const words = `no longer denies ${ruleWords(r)}`
      notes.push(words)
      widens.push(words)
    } else notes.push(`revokes ${ruleWords(r)}`)
  }
  for (const [key, r] of after) {
    if (before.has(key)) continue
    notes.push(key)
    if (!r.inverted) widens.push(key)
  }
  return { notes, widens }
}

/**
 * What a new role grants that a reviewer must not miss: a grant of `manage` (every action) or on `all` (every
 * subject). A new role holds no users yet, so its other grants give nobody anything until someone is given the role
 * (outside this tool, in the cloud console); these two make it an administrator's role whoever gets it.
 */
export const broadGrants = (rules: ReadonlyMap<string, Rule>): string[] =>
  [...rules.values()].filter(r => !r.inverted && (r.action === 'manage' || r.subject === 'all')).map(ruleKey)
