/**
 * ClickStack role request bodies on the managed cloud (POST /roles: ClickStackCreateRoleRequest, PUT /roles/{id}:
 * ClickStackUpdateRoleRequest, each permission a ClickStackCASLPermission). The gateway refuses undeclared top-level
 * keys before this runs (gateway.ts); keys a permission does not declare are dropped, as the gateway leaves nested
 * keys to the API. The document declares no lengths and no value sets (`action`, `subject` are free strings, though
 * the Terraform provider lists `create read update delete manage` and `Dashboard … all`): none are enforced here. That
 * an empty name is refused is the emulator's assumption; the messages are zod's.
 */
import { parseWith, z, type Parsed } from './common.js'

const permission = z.object({
  action: z.string().min(1),
  subject: z.string().min(1),
  inverted: z.boolean().optional(),
  integration: z.string().min(1).optional(),
  // ClickStackCASLPermissionConditions: any object, kept as sent (a MongoDB filter or a ClickHouse row policy).
  conditions: z.record(z.unknown()).optional()
})

const name = z.string().trim().min(1)

const create = z.object({
  name,
  description: z.string().optional(),
  permissions: z.array(permission)
})

/** `name` omitted keeps the name; `permissions` is the whole replacement set. */
const update = create.extend({ name: name.optional() })

export type RolePermissionBody = z.infer<typeof permission>
export type RoleCreateBody = z.infer<typeof create>
export type RoleUpdateBody = z.infer<typeof update>

export function parseRoleBody(body: unknown, op: 'create'): Parsed<RoleCreateBody>
export function parseRoleBody(body: unknown, op: 'update'): Parsed<RoleUpdateBody>
export function parseRoleBody(body: unknown, op: 'create' | 'update'): Parsed<RoleUpdateBody> {
  return parseWith(op === 'create' ? create : update, body)
}
