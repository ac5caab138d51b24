/**
 * Connections, data sources, saved searches and webhooks as manifests: the fields the API returns, in the
 * manifest language (other resources by name, a source's `kind` as `sourceKind`, server defaults left out),
 * `adopt: true` on what the stack does not own yet. Secrets are never written: a webhook's url becomes a
 * `${secret.NAME}` placeholder, with a comment saying which secret variable to set; write-only values the
 * API never returns (passwords, headers, query parameters) are named in a comment. Pure.
 */
import type { Document } from 'yaml'
import type {
  LiveConnection,
  LiveSavedSearch,
  LiveSource,
  LiveTeamMember,
  LiveWebhook
} from '../api/schemas.js'
import type { Registry, RegistryKind } from '../kinds/registry.js'
import { orderedUserTags } from '../kinds/ownership.js'
import { wordFor } from '../kinds/nouns.js'
import { SOURCE_REFERENCES } from '../manifest/resources-schema.js'
import { WEBHOOK_SERVICES } from '../manifest/vocabulary.js'
import { yamlLibrary } from '../yaml-library.js'

/** How ids of other resources are written: a name when it names exactly one, else the id with a comment. */
export class Namer {
  constructor(
    private readonly records: Partial<Record<string, ReadonlyArray<{ id: string; name: string }> | undefined>>
  ) {}

  /** `{[field]: name}` or `{[idField]: id}`, adding a comment to `comments` for the second. */
  ref(
    kind: string,
    field: string,
    id: unknown,
    comments: string[],
    what: string,
    idField = `${field}Id`
  ): Record<string, string> {
    if (typeof id !== 'string' || id === '') return {}
    const list = this.records[kind]
    const named = list?.filter(r => r.id === id) ?? []
    const sameName = named[0] ? (list ?? []).filter(r => r.name === named[0]!.name) : []
    if (named.length === 1 && sameName.length === 1 && named[0]!.name) return { [field]: named[0]!.name }
    comments.push(
      list === undefined
        ? `${what} ${id}: this API cannot list them, so it is written by id`
        : named.length === 0
          ? `${what} id ${id} could not be mapped to a name (no such ${what}): kept as ${idField}`
          : `${what} id ${id} has a name shared by another ${what}: kept as ${idField}`
    )
    return { [idField]: id }
  }

  /** The ids of the records of `kind` named `name` (none when this API cannot list them). */
  idsNamed(kind: string, name: string): string[] {
    return (this.records[kind] ?? []).filter(r => r.name === name).map(r => r.id)
  }
}

/**
 * An `id:` pin for a record whose name another record of its kind shares, and a comment saying so. Manifests
 * refer to these kinds by name (validate refuses two of one name, `load.ts` uniqueNames, as references could not
 * tell them apart), so each stays pinned to its own record until one of them is renamed.
 */
function twinPin(
  input: ResourceExportInput,
  kind: 'Connection' | 'Source' | 'Webhook' | 'SavedSearch',
  record: { id: string; name: string },
  comments: string[]
): Record<string, string> {
  const ids = input.namer.idsNamed(kind, record.name)
  if (ids.length < 2) return {}
  const [one, many] = [wordFor(kind), wordFor(kind, true)]
  comments.push(
    `${ids.length} ${many} are named "${record.name}" (ids ${ids.join(', ')}): each is pinned to its own with \`id:\`, but manifests name ${many} by name, so validate refuses two of one name: rename one of them here (its pin keeps it the same ${one}, and the plan renames it on the server)`
  )
  return { id: record.id }
}

/** Names of secret variables, unique in one export, as the manifests' placeholders name them. */
export class SecretNames {
  private readonly used = new Set<string>()
  readonly all: string[] = []

  /** A new name; `needed` ones are listed in the file's header (a suggestion in a comment is not). */
  name(parts: string[], needed = true): string {
    const base = parts
      .join('_')
      .normalize('NFKD')
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
    let name = /^[A-Z]/.test(base) ? base : `S_${base}`
    for (let n = 2; this.used.has(name); n++) name = `${base}_${n}`
    this.used.add(name)
    if (needed) this.all.push(name)
    return name
  }
}

export interface ResourceExportInput {
  connections?: LiveConnection[]
  sources: LiveSource[]
  savedSearches?: LiveSavedSearch[]
  webhooks?: LiveWebhook[]
  /** Self-hosted: the team's members and invitations. */
  teamMembers?: LiveTeamMember[]
  ownershipTag: string
  registry: Registry
  mode: 'self-hosted' | 'managed'
  namer: Namer
  secrets: SecretNames
}

const withComments = (value: Record<string, unknown>, comments: string[]): Document => {
  const doc = new (yamlLibrary().Document)(value)
  if (comments.length > 0) doc.commentBefore = comments.map(c => ` ${c}`).join('\n')
  return doc
}

const owned = (input: ResourceExportInput, kind: RegistryKind, id: string) => input.registry.owns(kind, id)

export function connectionDocuments(input: ResourceExportInput): Document[] {
  return (input.connections ?? []).map(c => {
    const comments: string[] = [
      `password: write-only (the API never returns it); to manage it, add \`password: \${secret.${input.secrets.name(['CONNECTION', c.name, 'PASSWORD'], false)}}\``
    ]
    const value: Record<string, unknown> = {
      kind: 'Connection',
      name: c.name,
      ...twinPin(input, 'Connection', c, comments),
      host: c.host ?? '',
      username: c.username ?? ''
    }
    if (c.hyperdxSettingPrefix) value.hyperdxSettingPrefix = c.hyperdxSettingPrefix
    if (c.isPrometheusEndpoint) value.isPrometheusEndpoint = true
    if (!owned(input, 'Connection', c.id)) value.adopt = true
    return withComments(value, comments)
  })
}

/** Fields never written: computed, identity, or written in the manifest's words below. */
const SOURCE_SKIP = new Set(['id', 'name', 'kind', 'connection', 'createdAt', 'updatedAt', 'team', 'teamId'])

export function sourceDocuments(input: ResourceExportInput): Document[] {
  return input.sources.map(s => {
    const comments: string[] = []
    const value: Record<string, unknown> = {
      kind: 'Source',
      name: s.name,
      ...twinPin(input, 'Source', s, comments),
      sourceKind: s.kind
    }
    if (input.mode === 'managed') {
      if (s.connection) value.connectionId = s.connection
    } else
      Object.assign(value, input.namer.ref('Connection', 'connection', s.connection, comments, 'connection'))
    const apiRefs = new Map<string, string>(SOURCE_REFERENCES.map(([field, api]) => [api, field]))
    for (const [key, v] of Object.entries(s)) {
      if (SOURCE_SKIP.has(key) || v === null || v === undefined) continue
      const field = apiRefs.get(key)
      if (field) Object.assign(value, input.namer.ref('Source', field, v, comments, 'source'))
      else if (isDefault(s.kind, key, v)) continue
      else value[key] = v
    }
    if (!owned(input, 'Source', s.id)) value.adopt = true
    return withComments(value, comments)
  })
}

/** What the server returns for a field that was never set (real-server.md §4, response-fields.md §9). */
function isDefault(kind: unknown, key: string, value: unknown): boolean {
  if (Array.isArray(value) && value.length === 0) return true
  if (value === '') return true
  if (key === 'disabled' && value === false) return true
  return kind === 'trace' && key === 'durationPrecision' && value === 3
}

/** Webhooks the API can write; the others (managed `slack_api`, `pagerduty_api`) are named in `skipped`. */
export function webhookDocuments(input: ResourceExportInput, skipped: string[]): Document[] {
  return (input.webhooks ?? []).flatMap(w => {
    const comments: string[] = []
    if (!(WEBHOOK_SERVICES as readonly string[]).includes(w.service ?? '')) {
      skipped.push(
        `webhook "${w.name}" (${w.id}) is a ${w.service} webhook, which the API cannot create or update: not exported`
      )
      return []
    }
    const secret = input.secrets.name(['WEBHOOK', w.name, 'URL'])
    comments.push(
      `url: a secret, never written here: set the secret variable ${secret} to this webhook's url (secret-vars; the CLI: OBSDEPLOY_SECRET_${secret})`
    )
    if (w.service !== 'slack')
      comments.push(
        'headers and queryParams are write-only (the API never returns them): declare them with ${secret.NAME} values to manage them'
      )
    if (w.service === 'incidentio')
      comments.push('an incident.io body is write-only too: add `body:` to manage it')
    const value: Record<string, unknown> = {
      kind: 'Webhook',
      name: w.name,
      ...twinPin(input, 'Webhook', w, comments),
      service: w.service,
      url: `\${secret.${secret}}`
    }
    if (w.description) value.description = w.description
    if (w.service === 'generic' && w.body) value.body = w.body
    if (!owned(input, 'Webhook', w.id)) value.adopt = true
    return [withComments(value, comments)]
  })
}

/**
 * A saved search's filter in the manifest's words: sql (its default type left out), and where the server takes
 * them, the lucene and sql_ast filters the web UI writes (kinds/saved-search-filters.ts). None when it cannot go.
 */
function exportedFilter(f: Record<string, unknown>, mode: ResourceExportInput['mode']): unknown[] {
  const type = f.type ?? 'sql'
  if (type === 'sql') return typeof f.condition === 'string' ? [{ condition: f.condition }] : []
  if (mode === 'managed') return []
  if (type === 'lucene' && typeof f.condition === 'string') return [{ type, condition: f.condition }]
  const sides = [f.operator, f.left, f.right]
  if (type === 'sql_ast' && sides.every(v => typeof v === 'string'))
    return [{ type, operator: f.operator, left: f.left, right: f.right }]
  return []
}

export function savedSearchDocument(s: LiveSavedSearch, input: ResourceExportInput): Document {
  const comments: string[] = []
  const value: Record<string, unknown> = {
    kind: 'SavedSearch',
    name: s.name,
    ...twinPin(input, 'SavedSearch', s, comments)
  }
  Object.assign(value, input.namer.ref('Source', 'source', s.sourceId, comments, 'source'))
  if (s.select) value.select = s.select
  if (s.where) value.where = s.where
  if (s.whereLanguage && s.whereLanguage !== 'lucene') value.whereLanguage = s.whereLanguage
  if (s.orderBy) value.orderBy = s.orderBy
  const tags = orderedUserTags(s.tags)
  if (tags.length > 0) value.tags = tags
  const all = s.filters ?? []
  const filters = all.flatMap(f => exportedFilter(f, input.mode))
  if (filters.length < all.length)
    comments.push(
      input.mode === 'managed'
        ? `${all.length - filters.length} filter(s) of another type than sql (set in the UI): the managed API takes sql filters only, so an update removes them`
        : `${all.length - filters.length} filter(s) of a shape the manifest cannot express: an update removes them`
    )
  if (filters.length > 0) value.filters = filters
  if (!s.tags.includes(input.ownershipTag)) value.adopt = true
  return withComments(value, comments)
}

/**
 * The team's members and pending invitations, by email. The API key's own user is left out unless this stack
 * already manages it: a stack never removes it (kinds/team-member.ts), so adopting it would only claim what the
 * stack cannot do, while leaving out one it manages would plan it as held back. A name is written when it says
 * more than the email (an accepted invitation's user is named by its email).
 */
export function teamMemberDocuments(input: ResourceExportInput, notes: string[]): Document[] {
  return (input.teamMembers ?? []).flatMap(m => {
    const managed = owned(input, 'TeamMember', m.email)
    if (m.currentUser && !managed) {
      notes.push(
        "The API key's own user is not written: a stack never removes it, so it is not adopted either."
      )
      return []
    }
    const value: Record<string, unknown> = { kind: 'TeamMember', email: m.email }
    if (m.name && m.name.toLowerCase() !== m.email) value.name = m.name
    const comments = m.userId ? [] : ['a pending invitation']
    const other = input.registry.ownerOf('TeamMember', m.email)
    if (other)
      comments.push(
        `managed by another stack (${other}): a stack never takes one over, so the plan refuses this manifest until that stack lets go`
      )
    if (!managed) value.adopt = true
    return [withComments(value, comments)]
  })
}
