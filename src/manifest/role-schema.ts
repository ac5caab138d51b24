/**
 * `kind: Role`: a custom ClickStack role of the managed cloud (`.../clickstack/roles`), as the cloud's OpenAPI
 * declares it (`ClickStackCreateRoleRequest`, `ClickStackCASLPermission`): a name, a description and CASL
 * permissions, each an `action` on a `subject`, optionally `inverted` (a rule that denies), scoped to an
 * `integration`, with `conditions` kept as an opaque mapping (the cloud's schema declares any object). Managed
 * mode only (resource-rules.ts says so at `kind`); built on first use, like the other kinds besides dashboards.
 */
import { z } from 'zod'
import { once } from './once.js'
import { API_VERSIONS } from './vocabulary.js'

export const roleSchema = once('Role schema', () => {
  const text = (what: string) => z.string().min(1, { error: 'must not be empty' }).describe(what)
  const Permission = z
    .strictObject({
      action: text(
        'What the rule allows (or denies): `create`, `read`, `update`, `delete`, or `manage` (every action).'
      ),
      subject: text(
        'What it applies to, as the server names it: `Dashboard`, `Alert`, `Source`, `Connection`, `SavedSearch`, `Webhook`, `Team`, `User`, `Role`, ... or `all` (every subject).'
      ),
      inverted: z
        .boolean()
        .optional()
        .describe('true: the rule denies the action rather than grants it (default false).'),
      integration: text(
        "What the rule is scoped to: `mongodb` (the API's resources, the default) or `clickhouse` (data access)."
      ).optional(),
      conditions: z
        .record(z.string(), z.unknown(), {
          error: 'must be a mapping'
        })
        .optional()
        .describe(
          'Conditions that narrow the rule, as the server takes them (a MongoDB filter or a ClickHouse row policy): compared and sent as written.'
        )
    })
    .describe(
      'A CASL rule. Rules compare as a set: their order does not matter, and a rule written twice is one rule.'
    )
  return z.strictObject({
    apiVersion: z.enum(API_VERSIONS).optional().describe('Optional; the manifest language version.'),
    kind: z
      .literal('Role')
      .describe(
        'A custom ClickStack role of the managed cloud (managed mode only): who is given it gets its permissions.'
      ),
    name: text(
      "The role's name: unique in the team, and never a predefined role's (Admin, Member, ReadOnly)."
    ),
    description: z
      .string()
      .optional()
      .describe('Shown in the UI (an update clears one the manifest leaves out).'),
    permissions: z
      .array(Permission)
      .describe(
        'The rules the role grants or denies: the whole list (an update replaces it). The `read` rule on `Connection` the server adds to every custom role needs not be listed, and is never removed.'
      ),
    adopt: z
      .boolean()
      .optional()
      .describe(
        'Manage an existing custom role of this name that this stack does not own (prune may then delete it).'
      )
  })
})

export type RoleSpec = z.infer<ReturnType<typeof roleSchema>>
export type RolePermissionSpec = RoleSpec['permissions'][number]
