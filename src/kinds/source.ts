/**
 * Data sources. PUT is a full replace (controllers/sources.ts), so a request always carries the whole
 * source: the manifest, plus fields a newer server returns that this tool does not know, sent back as
 * read. References: the connection, and the correlated log, trace, metric and session sources, by name;
 * they compare by label (references.ts). Sources that refer to each other and are both new are created
 * without those references first and linked by a second request (a session's trace source, which the
 * server requires, is created before it instead). Owned through the registry (sources carry no tags).
 */
import { NOUNS } from './nouns.js'
import type { LiveSource } from '../api/schemas.js'
import type { Mode } from '../config/types.js'
import { clean, type JsonObject } from '../json.js'
import { SOURCE_REFERENCES, type SourceSpec } from '../manifest/resources-schema.js'
import type { Kind, PlanContext } from './kind.js'
import { managedSourceBody } from './managed-request.js'
import {
  changesMoreThanOwner,
  desiredRecords,
  registryPair,
  recordWrites,
  registryNote,
  registryOwner,
  type RecordDesired
} from './records.js'
import type { Resolved } from './references.js'
import { sourceExport } from './source-export.js'

interface DesiredSource extends RecordDesired<SourceSpec> {
  /** The references, resolved once (after this kind's pairing: sources may refer to each other). */
  resolved?: Map<string, Resolved>
}

/** Every field of the server's source schemas (types.ts, and the managed `filterSettings`). */
const KNOWN = new Set([
  'id',
  'name',
  'kind',
  'section',
  'connection',
  'from',
  'disabled',
  'querySettings',
  'timestampValueExpression',
  'defaultTableSelectExpression',
  'serviceNameExpression',
  'serviceVersionExpression',
  'severityTextExpression',
  'bodyExpression',
  'eventAttributesExpression',
  'resourceAttributesExpression',
  'displayedTimestampValueExpression',
  'metricSourceId',
  'traceSourceId',
  'logSourceId',
  'sessionSourceId',
  'traceIdExpression',
  'spanIdExpression',
  'implicitColumnExpression',
  'knownColumnsListExpression',
  'tableFilterExpression',
  'highlightedTraceAttributeExpressions',
  'highlightedRowAttributeExpressions',
  'materializedViews',
  'metadataMaterializedViews',
  'orderByExpression',
  'useTextIndexForImplicitColumn',
  'durationExpression',
  'durationPrecision',
  'parentSpanIdExpression',
  'spanNameExpression',
  'spanKindExpression',
  'sampleRateExpression',
  'statusCodeExpression',
  'statusMessageExpression',
  'spanEventsValueExpression',
  'spanLinksValueExpression',
  'metricTables',
  'seriesTable',
  'filterSettings'
])
/** Computed by the server, never sent. */
const COMPUTED = new Set(['id', 'createdAt', 'updatedAt', 'team', 'teamId', '_id', '__v'])

export const sourceKind: Kind<DesiredSource, LiveSource> = {
  kind: 'Source',
  nouns: NOUNS.Source,
  fingerprint: { specs: 'sources', whenEmpty: true, names: { key: 'sources', at: 0 } },
  // A dashboard filter's sources are a list of ids: named as a list, when the plan can name every one.
  referredBy: [
    { key: 'sourceId', as: 'source' },
    { key: 'appliesToSourceIds', as: 'appliesToSources' }
  ],
  copies: undefined,
  seenOn: undefined,
  // The server deletes a source whatever still names it (docs/real-server.md).
  heldWhileUsed: {
    fields: [
      'sourceId',
      'logSourceId',
      'traceSourceId',
      'metricSourceId',
      'sessionSourceId',
      'appliesToSourceIds'
    ]
  },
  // A source names its connection by `connection`.
  unnamedUses: (o, at) =>
    at === '' && typeof o.connection === 'string'
      ? [{ kind: 'Connection', id: o.connection, at: 'connection' }]
      : [],
  exports: sourceExport,
  live: { read: api => api.listSources() },

  desired: ctx => desiredRecords('Source', ctx.manifests.specs.Source, ctx.live.Source, ctx),

  pair: registryPair('Source', ctx => ctx.live.Source),

  normalDesired(d, ctx, live) {
    const body = { ...apiBody(d.value, ctx), ...(live ? carried(live) : {}) }
    return normal(forMode(ctx.settings.mode, body), ctx, ctx.settings.ownershipTag)
  },

  normalLive: (l, ctx) => normal(l, ctx, registryOwner('Source', l.id, ctx)),

  liveName: l => l.name,
  liveId: l => l.id,

  refine(pc, ctx) {
    registryNote(pc.change, ctx)
    const unsent = pc.live && ctx.settings.mode === 'managed' ? notSentBack(pc.live) : []
    if (pc.change.action === 'update' && unsent.length > 0)
      pc.change.notes.push(
        `not sent back: ${unsent.join(', ')} (the managed API's ${String(pc.live!.kind)} source has no such field, and its gateway refuses one); the update replaces the whole source, so they go`
      )
  },

  ...recordWrites<DesiredSource, LiveSource>(octx => {
    const resolvedBody = (d: DesiredSource) => forMode(octx.settings.mode, apiBodyOf(d))
    return {
      kind: 'Source',
      collection: 'sources',
      liveId: l => l.id,
      liveName: l => l.name,
      list: ctx => ctx.api.listSources(),
      createBody: d => withoutNewSiblings(d, resolvedBody(d)),
      linkBody: d => {
        const full = resolvedBody(d)
        return Object.keys(withoutNewSiblings(d, full)).length === Object.keys(full).length ? undefined : full
      },
      updateBody: (d, live, change) =>
        changesMoreThanOwner(change)
          ? forMode(octx.settings.mode, { ...resolvedBody(d), ...carried(live) })
          : undefined,
      entryAfter(d, _sent, live, octx) {
        // A registry entry is what owning means (registry.ts owns).
        const previous = live ? octx.registry.entry('Source', live.id) : undefined
        return previous?.name === d.spec.name ? undefined : { name: d.spec.name }
      }
    }
  })
}

/** The references of a source's manifest, resolved (and their problems reported) once. */
function resolveRefs(d: DesiredSource, ctx: PlanContext): Map<string, Resolved> {
  if (d.resolved) return d.resolved
  const s = d.spec as Record<string, unknown>
  const doc = d.located.doc
  const out = new Map<string, Resolved>()
  const one = (kind: 'Connection' | 'Source', field: string, apiField: string) => {
    const name = s[field] as string | undefined
    const id = s[`${field}Id`] as string | undefined
    if (name === undefined && id === undefined) return
    out.set(
      apiField,
      ctx.refs.resolve({ kind, name, id, at: { doc, path: [name !== undefined ? field : `${field}Id`] } })
    )
  }
  one('Connection', 'connection', 'connection')
  for (const [field, apiField] of SOURCE_REFERENCES) one('Source', field, apiField)
  d.resolved = out
  return out
}

/** The request body in the API's words, with references as ids or placeholders. */
function apiBody(d: DesiredSource, ctx: PlanContext): Record<string, unknown> {
  resolveRefs(d, ctx)
  return apiBodyOf(d)
}

function apiBodyOf(d: DesiredSource): Record<string, unknown> {
  const {
    apiVersion: _v,
    kind: _k,
    id: _id,
    adopt: _adopt,
    sourceKind,
    connection: _c,
    connectionId: _cid,
    ...rest
  } = d.spec as SourceSpec & Record<string, unknown>
  const body: Record<string, unknown> = { kind: sourceKind, ...rest }
  for (const [field, apiField] of SOURCE_REFERENCES) {
    delete body[field]
    delete body[apiField]
  }
  for (const [apiField, r] of d.resolved ?? []) body[apiField] = r.value
  return body
}

/**
 * Without references to sources this run also creates (they may refer back), except the trace source a
 * session source must have (types.ts SessionSourceSchema), which is then created first.
 */
function withoutNewSiblings(d: DesiredSource, body: Record<string, unknown>): Record<string, unknown> {
  const out = { ...body }
  for (const [, apiField] of SOURCE_REFERENCES) {
    if (d.spec.sourceKind === 'session' && apiField === 'traceSourceId') continue
    const value = out[apiField]
    if (typeof value === 'string' && value.startsWith('new:Source/')) delete out[apiField]
  }
  return out
}

/** Fields of the live source this tool does not know (a newer server): a full-replace PUT keeps them. */
function carried(live: LiveSource): Record<string, unknown> {
  return Object.fromEntries(Object.entries(live).filter(([k]) => !KNOWN.has(k) && !COMPUTED.has(k)))
}

/** Managed mode sends only what the managed source schema of the body's kind declares (managed-request.ts). */
const forMode = (mode: Mode, body: Record<string, unknown>) =>
  mode === 'managed' ? managedSourceBody(body) : body

/** The live source's fields a managed update cannot send back: its kind's managed schema lacks them. */
function notSentBack(live: LiveSource): string[] {
  const kept = Object.keys(managedSourceBody(live))
  return Object.keys(live).filter(
    k => !COMPUTED.has(k) && !kept.includes(k) && live[k] !== undefined && live[k] !== null
  )
}

/** `5 minute` and `5m` are one granularity: the server returns the short form (v2/sources.ts). */
function shortGranularity(value: unknown): unknown {
  if (typeof value !== 'string') return value
  const m = /^(\d+) (second|minute|hour|day)$/.exec(value)
  return m ? `${m[1]}${m[2]![0]}` : value
}

/**
 * Both sides in the manifest's words: references as labels, `kind` as `sourceKind`, granularities in
 * short form, defaults (disabled false, durationPrecision 3, empty lists) left out.
 */
function normal(source: Record<string, unknown>, ctx: PlanContext, owner: string | undefined): JsonObject {
  const out: Record<string, unknown> = { owner }
  for (const [key, value] of Object.entries(source)) {
    if (COMPUTED.has(key)) continue
    if (key === 'kind') out.sourceKind = value
    else if (key === 'connection')
      out.connection = typeof value === 'string' ? ctx.refs.labelOfValue('Connection', value) : value
    else if (SOURCE_REFERENCES.some(([, api]) => api === key)) {
      const field = SOURCE_REFERENCES.find(([, api]) => api === key)![0]
      out[field] = typeof value === 'string' ? ctx.refs.labelOfValue('Source', value) : value
    } else out[key] = value
  }
  if (out.disabled === false) delete out.disabled
  if (out.sourceKind === 'trace' && (out.durationPrecision === 3 || out.durationPrecision === undefined))
    delete out.durationPrecision
  if (Array.isArray(out.materializedViews))
    out.materializedViews = out.materializedViews.map(v =>
      v && typeof v === 'object'
        ? { ...v, minGranularity: shortGranularity((v as Record<string, unknown>).minGranularity) }
        : v
    )
  const meta = out.metadataMaterializedViews
  if (meta && typeof meta === 'object')
    out.metadataMaterializedViews = {
      ...meta,
      granularity: shortGranularity((meta as Record<string, unknown>).granularity)
    }
  return (clean(out) ?? {}) as JsonObject
}
