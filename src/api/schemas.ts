/**
 * What we accept from the servers. Strict about the fields we rely on, tolerant of everything else
 * (extra fields pass through and are carried over on update), because CONTRACT.md, FACTS.md and the
 * real servers each show a little more or less.
 */
import { z } from 'zod'
import { isMapping } from '../json.js'

const isListOfRecords = (v: unknown): boolean => Array.isArray(v) && v.every(isMapping)

/** Ids are compared as strings: a server that sends numbers still works. */
const id = z.union([z.string().min(1), z.number()]).transform(String)

/**
 * A tile's id is kept exactly as the server sent it (a string, or a number on some servers): the server
 * matches tiles by id on update, so it must get back the same value. Compare ids with `sameId`.
 */
export type RawId = string | number
const rawId = z.union([z.string().min(1), z.number()])
export const sameId = (a: RawId | null | undefined, b: RawId | null | undefined): boolean =>
  a !== undefined && a !== null && b !== undefined && b !== null && String(a) === String(b)
const nullish = <T extends z.ZodType>(s: T) => s.nullable().optional()

export const LiveTile = z.looseObject({
  id: rawId.optional(),
  name: z.string().default(''),
  x: z.number(),
  y: z.number(),
  w: z.number(),
  h: z.number(),
  /**
   * FACTS.md: the server returns the newer `config` form; CONTRACT.md shows `series`, and an older server
   * may echo it. Both are kept as given (checked to be a mapping or a list of mappings, not copied): the
   * normal form reads them defensively, and an update carries unknown config keys back.
   */
  config: nullish(
    z.custom<Record<string, unknown> & { displayType?: string }>(isMapping, 'expected a mapping')
  ),
  series: nullish(
    z.custom<Array<Record<string, unknown> & { type?: string }>>(
      isListOfRecords,
      'expected a list of mappings'
    )
  ),
  asRatio: nullish(z.boolean()),
  containerId: nullish(z.string()),
  tabId: nullish(z.string())
})
export type LiveTile = z.infer<typeof LiveTile>
const records = nullish(
  z.custom<Array<Record<string, unknown>>>(isListOfRecords, 'expected a list of mappings')
)

/** What the apply needs from a dashboard write's answer: the id and the tile ids the server assigned. */
export const WrittenDashboard = z.looseObject({
  id,
  tiles: z.array(z.looseObject({ id: rawId.optional(), name: z.string().default('') }))
})
export type WrittenDashboard = z.infer<typeof WrittenDashboard>

export const LiveDashboard = z.looseObject({
  id,
  name: z.string().default(''),
  tags: nullish(z.array(z.string())).transform(t => t ?? []),
  tiles: nullish(z.array(LiveTile)).transform(t => t ?? []),
  filters: records,
  savedQuery: nullish(z.string()),
  savedQueryLanguage: nullish(z.string()),
  savedFilterValues: records,
  containers: records
})
export type LiveDashboard = z.infer<typeof LiveDashboard>

const Channel = z.looseObject({ type: z.string().optional(), webhookId: nullish(id) })

export const LiveAlert = z.looseObject({
  id,
  name: nullish(z.string()),
  message: nullish(z.string()),
  // CONTRACT.md does not show the alert record: only the id is relied on; the rest compares as given.
  threshold: nullish(z.number()),
  thresholdMax: nullish(z.number()),
  thresholdType: nullish(z.string()),
  interval: nullish(z.string()),
  source: nullish(z.string()),
  channel: nullish(Channel),
  channels: nullish(z.array(Channel)),
  dashboardId: nullish(id),
  tileId: nullish(id),
  savedSearchId: nullish(id),
  groupBy: nullish(z.string()),
  numConsecutiveWindows: nullish(z.number()),
  note: nullish(z.string()),
  scheduleOffsetMinutes: nullish(z.number()),
  scheduleStartAt: nullish(z.string()),
  // HyperDX after 2.36 (pull requests 3063/3065): the stored value, or the one derived when none is stored.
  displayName: nullish(z.string()),
  tags: nullish(z.array(z.string()))
})
export type LiveAlert = z.infer<typeof LiveAlert>

/** Every kind's fields pass through: the Source kind compares them all (real-server.md §4.3). */
export const LiveSource = z.looseObject({
  id,
  name: z.string().default(''),
  kind: nullish(z.string()),
  connection: nullish(id)
})
export type LiveSource = z.infer<typeof LiveSource>

/** HyperDX `externalWebhookSchema`: the url in plain text, `body` for generic only; headers never. */
export const LiveWebhook = z.looseObject({
  id,
  name: z.string().default(''),
  service: nullish(z.string()),
  url: nullish(z.string()),
  description: nullish(z.string()),
  body: nullish(z.string())
})
export type LiveWebhook = z.infer<typeof LiveWebhook>

/** HyperDX `externalConnectionSchema`: everything but the password. */
export const LiveConnection = z.looseObject({
  id,
  name: z.string().default(''),
  host: nullish(z.string()),
  username: nullish(z.string()),
  hyperdxSettingPrefix: nullish(z.string()),
  isPrometheusEndpoint: nullish(z.boolean())
})
export type LiveConnection = z.infer<typeof LiveConnection>

/** HyperDX `toExternalJSON` of a saved search. */
export const LiveSavedSearch = z.looseObject({
  id,
  name: z.string().default(''),
  sourceId: nullish(id),
  select: nullish(z.string()),
  where: nullish(z.string()),
  whereLanguage: nullish(z.string()),
  orderBy: nullish(z.string()),
  tags: nullish(z.array(z.string())).transform(t => t ?? []),
  filters: nullish(z.array(z.record(z.string(), z.unknown())))
})
export type LiveSavedSearch = z.infer<typeof LiveSavedSearch>

/**
 * v2/team.ts GET /team/members: the users of the key's team. `isCurrentUser` marks the key's own user, whom
 * the server refuses to remove ("You cannot remove yourself from the team").
 */
export const LiveTeamUser = z.looseObject({
  id,
  email: z.string(),
  name: nullish(z.string()),
  isCurrentUser: nullish(z.boolean())
})
export type LiveTeamUser = z.infer<typeof LiveTeamUser>

/**
 * v2/team.ts GET /team/invitations and POST /team/invitation. Their `url` carries the invitation's token
 * (`/join-team?token=...`), which lets anyone who holds it join the team: a strict object of the fields we
 * use, so the url is dropped here, at the boundary, and never reaches the plan, a log or a report.
 */
export const LiveTeamInvitation = z
  .object({
    id,
    email: z.string(),
    name: nullish(z.string()),
    createdAt: nullish(z.string())
  })
  .strip()
export type LiveTeamInvitation = z.infer<typeof LiveTeamInvitation>

/** POST /team/invitation answers `{email, invitationId, status, url}`: the url (a secret) is dropped. */
export const WrittenTeamInvitation = z
  .object({ invitationId: id, email: z.string(), status: nullish(z.string()) })
  .strip()
  .transform(i => ({ id: i.invitationId, email: i.email, status: i.status }))
export type WrittenTeamInvitation = z.infer<typeof WrittenTeamInvitation>

/**
 * One person of the key's team as a plan sees it: a member, a pending invitation, or both (an invitation
 * left over beside the user it became). Never the invitation's url: it holds the joining token.
 */
export interface LiveTeamMember {
  /** Lowercased: the server lowercases invitations and stores users' emails lowercased (controllers/user.ts). */
  email: string
  name?: string
  /** The user's id, when a member. */
  userId?: string
  /** The pending invitation's id. */
  invitationId?: string
  /** The API key's own user (`isCurrentUser`): the server refuses to remove it. */
  currentUser?: boolean
}

/** The members and the invitations, one record per email. */
export function teamMembersOf(members: LiveTeamUser[], invitations: LiveTeamInvitation[]): LiveTeamMember[] {
  const byEmail = new Map<string, LiveTeamMember>()
  for (const m of members) {
    const email = m.email.toLowerCase()
    byEmail.set(email, {
      email,
      ...(m.name ? { name: m.name } : {}),
      userId: m.id,
      ...(m.isCurrentUser ? { currentUser: true } : {})
    })
  }
  for (const i of invitations) {
    const email = i.email.toLowerCase()
    const member = byEmail.get(email)
    if (member) member.invitationId = i.id
    else byEmail.set(email, { email, ...(i.name ? { name: i.name } : {}), invitationId: i.id })
  }
  return [...byEmail.values()].sort((a, b) => a.email.localeCompare(b.email))
}

/**
 * A CASL rule of a role (cloud OpenAPI `ClickStackCASLPermission`): `action` and `subject` required, the rest
 * optional; `conditions` an opaque mapping. `fields` is not in the cloud's schema but in HyperDX's own role model
 * (the Terraform provider's client/role.go): read so a rule that carries it is never mistaken for one without.
 */
export const LiveRolePermission = z.looseObject({
  action: z.string(),
  subject: z.string(),
  inverted: nullish(z.boolean()),
  integration: nullish(z.string()),
  conditions: nullish(z.record(z.string(), z.unknown())),
  fields: nullish(z.array(z.string()))
})
export type LiveRolePermission = z.infer<typeof LiveRolePermission>

/**
 * The managed cloud's `ClickStackRole` (GET `.../clickstack/roles`): `id`, `name`, `permissions` and
 * `isPredefined` are required there and relied on here (a predefined role is never planned or exported).
 */
export const LiveRole = z.looseObject({
  id,
  name: z.string(),
  description: nullish(z.string()),
  permissions: z.array(LiveRolePermission),
  isPredefined: z.boolean()
})
export type LiveRole = z.infer<typeof LiveRole>

/** What a create of a connection, source, webhook or saved search answers: the record, with its id. */
export const WrittenRecord = z.looseObject({ id })
export type WrittenRecord = z.infer<typeof WrittenRecord>

const IpEntry = z.looseObject({ source: z.string(), description: nullish(z.string()) })
export const LiveService = z.looseObject({
  id: id.optional(),
  name: z.string().optional(),
  tier: nullish(z.string()),
  releaseChannel: nullish(z.string()),
  ipAccessList: nullish(z.array(IpEntry)),
  privateEndpointIds: nullish(z.array(z.string())),
  endpoints: nullish(
    z.array(z.looseObject({ protocol: z.string(), enabled: nullish(z.boolean()), host: nullish(z.string()) }))
  ),
  hasTransparentDataEncryption: nullish(z.boolean()),
  transparentDataEncryptionKeyId: nullish(z.string())
})
export type LiveService = z.infer<typeof LiveService>

/**
 * A row of POST /charts/series: by default `{ts_bucket, group, 'series_0.data'}`; with `seriesReturnType: column`
 * the raw row, `{series_0, <group columns>, __hdx_time_bucket}` (live/series-rows.ts reads both).
 */
export const SeriesPoint = z.looseObject({
  ts_bucket: z.union([z.number(), z.string()]).optional(),
  group: nullish(z.array(z.unknown()))
})
export type SeriesPoint = z.infer<typeof SeriesPoint>

export const ValidateDashboardResult = z.looseObject({
  valid: z.boolean(),
  errors: nullish(z.array(z.looseObject({ path: z.string().default(''), message: z.string() }))),
  normalized: z.unknown().optional()
})
export type ValidateDashboardResult = z.infer<typeof ValidateDashboardResult>

export const PaginationMeta = z.looseObject({
  total: z.number().optional(),
  limit: z.number().optional(),
  offset: z.number().optional()
})
