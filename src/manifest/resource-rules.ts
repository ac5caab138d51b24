/**
 * Rules of the kinds besides dashboards and alerts that the schemas cannot express: a reference given by
 * name or by id (not both), what only one API mode has, the server's handler checks (webhook URLs, saved
 * search filters) and where secrets may come from. Run on the raw document, so they add to schema errors.
 * Messages never quote the value of a secret field.
 */
import { isIP } from 'node:net'
import { diagnostic, type Diagnostic } from '../diagnostics.js'
import { formatPath, type PathSegment } from './path.js'
import { OWNERSHIP_TAG_PREFIX } from './rules.js'
import { SECRET_FIELDS, SOURCE_REFERENCES } from './resources-schema.js'
import { PREDEFINED_ROLE_NAMES, RESOURCE_LIMITS } from './vocabulary.js'
import type { ParsedDocument } from './yaml.js'

type Mode = 'self-hosted' | 'managed'
type Raw = Record<string, unknown>
type Report = (path: readonly PathSegment[], message: string) => void

const reporter =
  (doc: ParsedDocument, out: Diagnostic[]): Report =>
  (path, message) =>
    out.push(diagnostic('validate', 'error', message, { ...doc.locate(path), field: formatPath(path) }))

const record = (v: unknown): Raw | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Raw) : undefined

/** The rules of one Connection, Source, SavedSearch or Webhook document (and secrets in any document). */
export function checkResource(doc: ParsedDocument, kind: string, raw: Raw, mode: Mode): Diagnostic[] {
  const out: Diagnostic[] = []
  const report = reporter(doc, out)
  switch (kind) {
    case 'Connection':
      if (mode === 'managed')
        report(['kind'], 'the managed API has no connections: Connection manifests need self-hosted mode')
      break
    case 'Source':
      checkSource(raw, mode, report)
      break
    case 'SavedSearch':
      checkReference(raw, 'source', true, report)
      checkSavedSearchFilters(raw, report)
      checkTags(raw, report)
      break
    case 'Webhook':
      checkWebhook(raw, report, doc.unsetSecretPaths ?? new Set())
      break
    case 'TeamMember':
      // v2/team.ts is a self-hosted router; the cloud manages its users in its own console.
      if (mode === 'managed')
        report(['kind'], 'the managed API has no team routes: TeamMember manifests need self-hosted mode')
      break
    case 'Role':
      checkRole(raw, mode, report)
      break
  }
  return out
}

/**
 * Secret fields take only `${secret.NAME}` (the placeholders filled recorded on the document), and a secret
 * fills nothing else: anywhere else its value would show in plans and reports. For documents of every kind.
 */
export function checkSecretPlacement(doc: ParsedDocument, kind: string, raw: Raw): Diagnostic[] {
  const diagnostics: Diagnostic[] = []
  const report = reporter(doc, diagnostics)
  const fields = SECRET_FIELDS[kind] ?? []
  const secretPaths = doc.secretPaths ?? new Map<string, string>()
  const allowed = new Set<string>()
  for (const pattern of fields) {
    for (const path of expand(raw, pattern)) {
      const key = formatPath(path)
      allowed.add(key)
      const value = valueAt(raw, path)
      if (typeof value !== 'string' || secretPaths.has(key)) continue
      report(
        path,
        'is a secret: write it as `${secret.NAME}` and set NAME as a secret variable (the `secret-vars` input; the CLI: OBSDEPLOY_SECRET_NAME), not as text or a plain `${NAME}`'
      )
    }
  }
  for (const [key, name] of secretPaths) {
    if (allowed.has(key)) continue
    const where = fields.length > 0 ? `only ${fields.map(f => f.join('.')).join(', ')}` : 'no field'
    report(
      parsePath(key),
      `\${secret.${name}} fills a field that is not secret, where its value would show in plans; in a ${kind} ${where} may hold secrets`
    )
  }
  return diagnostics
}

/** `tiles[0].name` -> ['tiles', 0, 'name']. */
function parsePath(key: string): PathSegment[] {
  const out: PathSegment[] = []
  for (const m of key.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]!)
  return out
}

/** The concrete paths of a pattern (`*` is every key of a mapping) present in the value. */
function expand(value: unknown, pattern: readonly string[]): PathSegment[][] {
  if (pattern.length === 0) return [[]]
  const [head, ...rest] = pattern
  const r = record(value)
  if (!r) return []
  const keys = head === '*' ? Object.keys(r) : head! in r ? [head!] : []
  return keys.flatMap(k => expand(r[k], rest).map(p => [k, ...p]))
}

function valueAt(value: unknown, path: readonly PathSegment[]): unknown {
  let v = value
  for (const seg of path) v = (v as Record<string | number, unknown> | undefined)?.[seg]
  return v
}

/** A reference by name (`field`) or by id (`fieldId`), one of the two. */
function checkReference(raw: Raw, field: string, required: boolean, report: Report, what = field): void {
  const idField = `${field}Id`
  if (raw[field] !== undefined && raw[idField] !== undefined)
    report([idField], `use \`${field}\` (by name) or \`${idField}\`, not both`)
  else if (required && raw[field] === undefined && raw[idField] === undefined)
    report([field], `needs the ${what}: \`${field}\` (by name) or \`${idField}\``)
}

/** Fields of the self-hosted source schemas that the managed API's source schemas do not declare. */
const SELF_HOSTED_ONLY: Record<string, readonly string[]> = {
  log: ['serviceVersionExpression', 'tableFilterExpression', 'orderByExpression'],
  trace: [
    'sampleRateExpression',
    'serviceVersionExpression',
    'spanLinksValueExpression',
    'displayedTimestampValueExpression',
    'orderByExpression'
  ],
  metric: ['serviceNameExpression', 'seriesTable'],
  session: ['resourceAttributesExpression'],
  promql: []
}

function checkSource(raw: Raw, mode: Mode, report: Report): void {
  checkReference(raw, 'connection', true, report, 'ClickHouse connection')
  if (mode === 'managed' && raw.connection !== undefined)
    report(['connection'], 'the managed API cannot list connections: name it by `connectionId`')
  const kind = typeof raw.sourceKind === 'string' ? raw.sourceKind : undefined
  for (const [field] of SOURCE_REFERENCES) {
    if (field in raw || `${field}Id` in raw) checkReference(raw, field, false, report, 'correlated source')
  }
  if (kind === 'session') checkReference(raw, 'traceSource', true, report, 'correlated trace source')
  if (kind === 'metric') {
    const tables = record(raw.metricTables)
    if (tables && !Object.values(tables).some(t => typeof t === 'string' && t.length > 0))
      report(['metricTables'], 'At least one metric table must be specified')
  }
  const views: unknown[] = Array.isArray(raw.materializedViews) ? raw.materializedViews : []
  views.forEach((view, i) => {
    const columns: unknown[] = Array.isArray(record(view)?.aggregatedColumns)
      ? (record(view)!.aggregatedColumns as unknown[])
      : []
    columns.forEach((c, j) => {
      const col = record(c)
      if (
        col &&
        col.aggFn !== 'count' &&
        !(typeof col.sourceColumn === 'string' && col.sourceColumn.length > 0)
      )
        report(
          ['materializedViews', i, 'aggregatedColumns', j, 'sourceColumn'],
          'Materialized View Source Column is required (unless aggFn is count)'
        )
    })
  })
  if (mode === 'managed') {
    for (const field of kind ? (SELF_HOSTED_ONLY[kind] ?? []) : [])
      if (field in raw)
        report([field], `not part of the managed API's ${kind} source: remove it in managed mode`)
    if (kind === 'trace' && raw.durationPrecision === undefined)
      report(
        ['durationPrecision'],
        'is required by the managed API (ClickStackTraceSource): 3 is the default'
      )
  } else if ('filterSettings' in raw) {
    report(['filterSettings'], 'exists only in the managed API: the self-hosted server drops it')
  }
}

/**
 * Roles are managed-only: HyperDX 2.36's open-source API has no roles routes (the cloud serves them under
 * `.../clickstack/roles`). The predefined roles are immutable, and a custom role may not take one's name
 * (ClickStackCreateRoleRequest): compared case-insensitively, since a name that differs only in case would read as
 * the predefined role in the UI.
 */
function checkRole(raw: Raw, mode: Mode, report: Report): void {
  if (mode === 'self-hosted')
    report(
      ['kind'],
      "roles are managed-only: HyperDX's open-source API (2.36) has no roles routes, so Role manifests need managed mode (ClickHouse Cloud)"
    )
  const name = typeof raw.name === 'string' ? raw.name : undefined
  const predefined = PREDEFINED_ROLE_NAMES.find(p => p.toLowerCase() === name?.toLowerCase())
  if (predefined)
    report(
      ['name'],
      `"${predefined}" is a predefined role: the server keeps it as it is (it cannot be created, changed or deleted), and a custom role cannot take its name. Give this role another name`
    )
}

/**
 * v2/savedSearches.ts: every filter a create or change sends must render as one sidebar facet: a single
 * `<column> IN (...)`, `NOT IN (...)` or `BETWEEN <a> AND <b>` (common-utils filters.ts
 * isRenderablePinnedFilter). This is the same shape test, without the server's full SQL parser.
 */
export function isRenderableFilter(condition: string): boolean {
  const text = condition.trim()
  const inList = /^(.+?)\s+(?:NOT\s+)?IN\s*\((.*)\)$/is.exec(text)
  const between = /^(.+?)\s+BETWEEN\s+(\S+)\s+AND\s+(\S+)$/is.exec(text)
  const match = inList ?? between
  if (!match) return false
  const column = match[1]!.trim()
  if (/\b(?:NOT|AND|OR)\b/i.test(column) || column === '') return false
  const topLevelAnd = countTopLevelAnd(text)
  return topLevelAnd === (between && !inList ? 1 : 0)
}

function countTopLevelAnd(text: string): number {
  let count = 0
  let depth = 0
  let quote = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (ch === "'") quote = !quote
    if (quote) continue
    if (ch === '(') depth++
    else if (ch === ')') depth = Math.max(0, depth - 1)
    else if (depth === 0 && text.slice(i, i + 5).toUpperCase() === ' AND ') {
      count++
      i += 4
    }
  }
  return count
}

function checkSavedSearchFilters(raw: Raw, report: Report): void {
  const filters: unknown[] = Array.isArray(raw.filters) ? raw.filters : []
  filters.forEach((f, i) => {
    const condition = record(f)?.condition
    // lucene and sql_ast filters are checked against the live saved search at plan time.
    if ((record(f)?.type ?? 'sql') !== 'sql') return
    if (typeof condition === 'string' && !isRenderableFilter(condition))
      report(
        ['filters', i, 'condition'],
        "must be one sidebar filter: `<column> IN ('a', ...)`, `<column> NOT IN (...)` or `<column> BETWEEN <n> AND <n>` (the server refuses any other new filter)"
      )
  })
}

function checkTags(raw: Raw, report: Report): void {
  const seen = new Set<string>()
  const tags: unknown[] = Array.isArray(raw.tags) ? raw.tags : []
  tags.forEach((tag, i) => {
    if (typeof tag !== 'string') return
    if (tag.startsWith(OWNERSHIP_TAG_PREFIX))
      report(['tags', i], `tags starting with "${OWNERSHIP_TAG_PREFIX}" are reserved for the ownership tag`)
    if (seen.has(tag)) report(['tags', i], `duplicate tag "${tag}"`)
    seen.add(tag)
  })
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\r\n\t\x00-\x1F\x7F]/
const HEADER_NAME = /^[!#$%&'*+\-.0-9A-Z^_`a-z|~]+$/

/** `unset`: fields a secret without a value fills (validate): their values are checked at plan time. */
function checkWebhook(raw: Raw, report: Report, unset: ReadonlySet<string>): void {
  if (typeof raw.name === 'string' && raw.name !== raw.name.trim())
    report(
      ['name'],
      'must not start or end with whitespace (the server trims it, and the names would differ)'
    )
  const service = raw.service
  if (typeof raw.url === 'string' && !unset.has('url')) {
    const problem = webhookUrlProblem(raw.url, service)
    if (problem) report(['url'], problem)
  }
  if (service === 'slack') {
    for (const field of ['headers', 'queryParams', 'body'])
      if (raw[field] !== undefined) report([field], `${field} is not supported for the slack webhook service`)
  }
  const headers = record(raw.headers)
  if (headers) {
    if (Object.keys(headers).length > RESOURCE_LIMITS.webhookHeaders)
      report(['headers'], `A webhook cannot have more than ${RESOURCE_LIMITS.webhookHeaders} headers`)
    for (const [key, value] of Object.entries(headers)) {
      if (key.length > RESOURCE_LIMITS.headerName || !HEADER_NAME.test(key))
        report(
          ['headers', key],
          "invalid header name: 1-256 letters, digits and !#$%&'*+-.^_`|~ (the server refuses it)"
        )
      else if (/^\d/.test(key)) report(['headers', key], 'Header name cannot start with a number')
      if (typeof value === 'string' && (value.length > RESOURCE_LIMITS.headerValue || CONTROL.test(value)))
        report(
          ['headers', key],
          `header values are at most ${RESOURCE_LIMITS.headerValue} characters, without control characters`
        )
    }
  }
  const params = record(raw.queryParams)
  if (params) {
    if (Object.keys(params).length > RESOURCE_LIMITS.webhookQueryParams)
      report(
        ['queryParams'],
        `A webhook cannot have more than ${RESOURCE_LIMITS.webhookQueryParams} query parameters`
      )
    for (const [key, value] of Object.entries(params)) {
      if (key.length > RESOURCE_LIMITS.queryParamKey || CONTROL.test(key))
        report(
          ['queryParams', key],
          'query parameter names are 1-1024 characters, without control characters'
        )
      if (
        typeof value === 'string' &&
        (value.length > RESOURCE_LIMITS.queryParamValue || CONTROL.test(value))
      )
        report(
          ['queryParams', key],
          `query parameter values are at most ${RESOURCE_LIMITS.queryParamValue} characters, without control characters`
        )
    }
  }
}

/**
 * What the server's validateWebhookUrl refuses (utils/validators.ts), in words that never quote the URL (it
 * is a secret). A host on the server's WEBHOOK_HOSTNAME_ALLOWLIST is accepted there, which this cannot see.
 */
export function webhookUrlProblem(url: string, service: unknown): string | undefined {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return 'is not a valid URL'
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must use http or https'
  const host = parsed.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '')
    .toLowerCase()
  if (service === 'slack' && host.split('.').slice(-2).join('.') !== 'slack.com')
    return "a slack webhook's host must end in slack.com"
  if (host === 'localhost' || host.endsWith('.localhost') || isPrivateAddress(host))
    return 'points at a private or reserved address, which the server refuses (unless its WEBHOOK_HOSTNAME_ALLOWLIST names the host)'
  return undefined
}

const V4_BLOCKED: Array<[string, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4]
]

const v4Number = (ip: string): number => ip.split('.').reduce((n, part) => n * 256 + Number(part), 0)

/** Private, loopback, link-local, CGNAT, multicast, documentation or reserved address literals. */
export function isPrivateAddress(host: string): boolean {
  if (isIP(host) === 4) {
    const n = v4Number(host)
    return V4_BLOCKED.some(
      ([net, bits]) => Math.floor(n / 2 ** (32 - bits)) === Math.floor(v4Number(net) / 2 ** (32 - bits))
    )
  }
  if (isIP(host) !== 6) return false
  const mapped = /^(?:::ffff:|::)(\d+\.\d+\.\d+\.\d+)$/i.exec(host)
  if (mapped) return isPrivateAddress(mapped[1]!)
  const h = host.toLowerCase()
  return (
    h === '::' ||
    h === '::1' ||
    /^fe[89ab]/.test(h) ||
    /^f[cd]/.test(h) ||
    /^ff/.test(h) ||
    h.startsWith('2001:db8:') ||
    h.startsWith('100::')
  )
}
