/**
 * ClickStack roles of one managed service, as the cloud's published OpenAPI describes them (`.../clickstack/roles`,
 * ClickStackRole and its request schemas) and the ClickHouse Terraform provider sees them
 * (internal/service/clickstack/client/role.go, role_resource.go, role_data_source.go):
 * - three predefined roles, Admin, Member and ReadOnly (the provider's names), immutable: PUT and DELETE refused;
 * - names unique within the service, and never a predefined role's name (ClickStackCreateRoleRequest.name);
 * - the API adds `read` on `Connection` (integration `mongodb`, not inverted, no conditions) to every custom role that
 *   lacks it, on create and on update (role_resource.go filterAutoConnectionRead, the provider's Cloud e2e example);
 * - a PUT replaces the permissions; an omitted name or description keeps the stored one (client/role.go
 *   UpdateRoleInput);
 * - a role assigned to users cannot be deleted (the OpenAPI description of DELETE).
 * The refusals' status is 400, the only client error the document declares for these routes; their texts are the
 * emulator's (not published). What the predefined roles grant is assumed.
 */
import { ApiError, bodyValidationError } from './errors.js'
import { newObjectId } from './ids.js'
import { parseRoleBody, type RolePermissionBody } from './rules/index.js'
import type { JsonObject, RolePermission, SeedRole, StoredRole } from './types.js'

export interface RoleState {
  roles: Map<string, StoredRole>
  changed: () => void
}

/** What a permission is scoped to when it names nothing (role_resource.go integrationMongoDB). */
const DEFAULT_INTEGRATION = 'mongodb'

const PREDEFINED_AT = '2025-01-01T00:00:00.000Z'

const rule = (action: string, subject: string): RolePermission => ({
  action,
  subject,
  inverted: false,
  integration: DEFAULT_INTEGRATION
})

/** Fixed ids, so tests and seeds can name them; the same in every service. */
export const PREDEFINED_ROLE_IDS = {
  Admin: '65a1f0c2b3d4e5f6a7b8cb01',
  Member: '65a1f0c2b3d4e5f6a7b8cb02',
  ReadOnly: '65a1f0c2b3d4e5f6a7b8cb03'
} as const

const PREDEFINED: readonly StoredRole[] = [
  {
    id: PREDEFINED_ROLE_IDS.Admin,
    name: 'Admin',
    description: 'Full access to all resources',
    permissions: [rule('manage', 'all')],
    isPredefined: true,
    createdAt: PREDEFINED_AT,
    updatedAt: PREDEFINED_AT
  },
  {
    id: PREDEFINED_ROLE_IDS.Member,
    name: 'Member',
    description: 'Creates and edits dashboards, saved searches, alerts and webhooks',
    permissions: [
      ...['Dashboard', 'SavedSearch', 'Alert', 'Webhook', 'Notebook'].map(s => rule('manage', s)),
      ...['Source', 'Connection', 'Team', 'User', 'Role'].map(s => rule('read', s))
    ],
    isPredefined: true,
    createdAt: PREDEFINED_AT,
    updatedAt: PREDEFINED_AT
  },
  {
    id: PREDEFINED_ROLE_IDS.ReadOnly,
    name: 'ReadOnly',
    description: 'Read-only access to all resources',
    permissions: [rule('read', 'all')],
    isPredefined: true,
    createdAt: PREDEFINED_AT,
    updatedAt: PREDEFINED_AT
  }
]

/** The roles a new service has: the predefined ones, then the seed's custom ones as a create would store them. */
export function initialRoles(seed: readonly SeedRole[] = [], at = new Date().toISOString()): StoredRole[] {
  const roles = structuredClone([...PREDEFINED]) as StoredRole[]
  for (const custom of seed) {
    roles.push({
      id: newObjectId(),
      name: custom.name,
      ...(custom.description !== undefined ? { description: custom.description } : {}),
      permissions: withConnectionRead(custom.permissions.map(storedPermission)),
      isPredefined: false,
      createdAt: at,
      updatedAt: at
    })
  }
  return roles
}

/** ClickStackRole: everything but the assignment count; no `description` key when the role has none. */
export function externalRole(r: StoredRole): JsonObject {
  const { assignedUsers: _assigned, permissions, ...rest } = r
  return { ...rest, permissions: permissions.map(p => ({ ...p })) }
}

export function getRole(s: RoleState, id: string): StoredRole {
  const role = s.roles.get(id)
  if (role === undefined) throw new ApiError(404, 'Role not found')
  return role
}

export function createRole(s: RoleState, body: unknown): StoredRole {
  const parsed = parseRoleBody(body, 'create')
  if (!parsed.ok) throw bodyValidationError(parsed.issues)
  const { name, description, permissions } = parsed.data
  checkName(s, name)
  const at = new Date().toISOString()
  const role: StoredRole = {
    id: newObjectId(),
    name,
    ...(description !== undefined ? { description } : {}),
    permissions: withConnectionRead(permissions.map(storedPermission)),
    isPredefined: false,
    createdAt: at,
    updatedAt: at
  }
  s.roles.set(role.id, role)
  s.changed()
  return role
}

/** The body is checked first, then the id (404), then whether the role may change, then the name. */
export function updateRole(s: RoleState, id: string, body: unknown): StoredRole {
  const parsed = parseRoleBody(body, 'update')
  if (!parsed.ok) throw bodyValidationError(parsed.issues)
  const existing = getRole(s, id)
  if (existing.isPredefined) throw new ApiError(400, `Predefined role "${existing.name}" cannot be modified`)
  const { name = existing.name, description = existing.description, permissions } = parsed.data
  checkName(s, name, id)
  const role: StoredRole = {
    ...existing,
    name,
    permissions: withConnectionRead(permissions.map(storedPermission)),
    updatedAt: new Date().toISOString()
  }
  if (description === undefined) delete role.description
  else role.description = description
  s.roles.set(id, role)
  s.changed()
  return role
}

export function deleteRole(s: RoleState, id: string): void {
  const role = getRole(s, id)
  if (role.isPredefined) throw new ApiError(400, `Predefined role "${role.name}" cannot be deleted`)
  const users = role.assignedUsers ?? 0
  if (users > 0)
    throw new ApiError(
      400,
      `Cannot delete role "${role.name}": it is assigned to ${users} user(s). Assign them another role first.`
    )
  s.roles.delete(id)
  s.changed()
}

/** A test's stand-in for assigning the role to users in the console. */
export function assignRole(s: RoleState, id: string, users: number): void {
  const role = getRole(s, id)
  if (users > 0) role.assignedUsers = users
  else delete role.assignedUsers
  s.changed()
}

/** A predefined role's name is reserved; any other name is one role's. */
function checkName(s: RoleState, name: string, selfId?: string): void {
  const holder = [...s.roles.values()].find(r => r.name === name && r.id !== selfId)
  if (holder === undefined) return
  throw new ApiError(
    400,
    holder.isPredefined
      ? `Role name "${name}" is reserved for a predefined role`
      : `A role named "${name}" already exists`
  )
}

/** The defaults filled in, as returned (the provider's mocked answers carry both; its flatten defaults them too). */
function storedPermission(
  p: Partial<RolePermissionBody> & { action: string; subject: string }
): RolePermission {
  return {
    action: p.action,
    subject: p.subject,
    inverted: p.inverted ?? false,
    integration: p.integration ?? DEFAULT_INTEGRATION,
    ...(p.conditions !== undefined ? { conditions: p.conditions } : {})
  }
}

/** The grant the API adds to every custom role; one sent with conditions or inverted is not it. */
export const CONNECTION_READ: Readonly<RolePermission> = Object.freeze(rule('read', 'Connection'))

const isConnectionRead = (p: RolePermission) =>
  p.action === CONNECTION_READ.action &&
  p.subject === CONNECTION_READ.subject &&
  p.integration === CONNECTION_READ.integration &&
  !p.inverted &&
  p.conditions === undefined

function withConnectionRead(permissions: RolePermission[]): RolePermission[] {
  return permissions.some(isConnectionRead) ? permissions : [...permissions, { ...CONNECTION_READ }]
}
