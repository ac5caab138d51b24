/**
 * Dashboard filters. Manifests name a filter's data sources; the request carries their ids. The server assigns each
 * filter an id: a create must not send one (the create filter schema is strict), an update must send one for every
 * filter and keeps only ids of existing filters (udash convertExternalFiltersToInternal; FACTS.md). So an update sends
 * each filter with the id of the live filter of the same name (in order, for repeated names), and a new filter with a
 * placeholder the server replaces. Ids never show in a plan.
 */
import { createHash } from 'node:crypto'
import { clean, type JsonObject } from '../../json.js'
import type { DashboardFilterSpec } from '../../manifest/schema.js'

type Body = Record<string, unknown>

/** A filter as the request sends it, without its id; `sourceIds` resolves names (reporting what it cannot). */
export function filterBody(
  f: DashboardFilterSpec,
  sourceId: string | undefined,
  appliesTo: string[] | undefined
): Body {
  const {
    source: _source,
    sourceId: _id,
    appliesToSources: _names,
    appliesToSourceIds: _ids,
    type,
    ...rest
  } = f
  const body: Body = { type: type ?? 'QUERY_EXPRESSION', ...rest }
  if (sourceId !== undefined) body.sourceId = sourceId
  if (appliesTo !== undefined) body.appliesToSourceIds = appliesTo
  return body
}

/**
 * The filters of an update, each with the id of the live filter of its name, or a placeholder the server replaces.
 * The managed cloud refuses a placeholder that is not shaped like an ObjectId (24 hex digits), and one sent twice
 * (TF `dashboard_tile_ids.go` mintMissingFilterIDs): placeholders are minted so, unique in the request. Derived from
 * a counter, not drawn at random, so a plan and its apply send the same request.
 */
export function withFilterIds(bodies: readonly Body[], live: readonly Body[]): Body[] {
  const unused = [...live]
  const taken = new Set(live.map(f => String(f.id)))
  let n = 0
  const placeholder = () => {
    let id: string
    do id = objectIdShaped(`obsdeploy new filter ${++n}`)
    while (taken.has(id))
    taken.add(id)
    return id
  }
  return bodies.map(body => {
    const index = unused.findIndex(f => f.name === body.name)
    const match = index >= 0 ? unused.splice(index, 1)[0] : undefined
    return { id: match ? String(match.id) : placeholder(), ...body }
  })
}

/** Filters in the normal form: their fields without the id, in order. */
export function normalFilters(list: readonly Body[] | null | undefined): JsonObject[] | undefined {
  const out = (list ?? []).map(f => {
    const { id: _id, ...rest } = f
    return (clean(rest) ?? {}) as JsonObject
  })
  return out.length > 0 ? out : undefined
}

/** 24 hexadecimal digits, the shape of a server-assigned ObjectId. */
const objectIdShaped = (seed: string): string => createHash('sha256').update(seed).digest('hex').slice(0, 24)
