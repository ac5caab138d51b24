/**
 * Saved searches. They carry tags, so a stack owns the ones with its ownership tag, as with dashboards
 * (adopting one from another stack moves the tag). PUT is a full replace: an omitted field returns to
 * its default (v2/savedSearches.ts), so a request always carries the whole search. Deleting one deletes
 * its alerts (controllers/savedSearch.ts): the alert kind shows those as deleted by the server.
 */
import { NOUNS } from './nouns.js'
import type { LiveSavedSearch } from '../api/schemas.js'
import { clean, type JsonObject } from '../json.js'
import type { SavedSearchSpec } from '../manifest/resources-schema.js'
import type { Kind, PlanContext } from './kind.js'
import { isOwnershipTag, orderedUserTags, userTags } from './ownership.js'
import { desiredRecords, pairRecords, recordWrites, type RecordDesired } from './records.js'
import { checkFilterTypes, filterBody } from './saved-search-filters.js'
import type { Resolved } from './references.js'
import { savedSearchExport } from './saved-search-export.js'

interface DesiredSavedSearch extends RecordDesired<SavedSearchSpec> {
  resolvedSource?: Resolved
}

export const savedSearchKind: Kind<DesiredSavedSearch, LiveSavedSearch> = {
  kind: 'SavedSearch',
  nouns: NOUNS.SavedSearch,
  fingerprint: { specs: 'savedSearches', whenEmpty: true, names: { key: 'savedSearches', at: 3 } },
  referredBy: [{ key: 'savedSearchId', as: 'savedSearch' }],
  copies: {
    what: 'saved-searches',
    isCopy: (r, c, tag) => r.name === c.name && r.tags.includes(tag),
    remove: (api, id) => api.deleteRecord('saved-searches', id)
  },
  seenOn: undefined,
  // Its alerts are this stack's: the plan names them as deleted by the server with it.
  heldWhileUsed: undefined,
  unnamedUses: undefined,
  exports: savedSearchExport,
  live: { read: api => api.listSavedSearches() },

  desired: ctx =>
    desiredRecords('SavedSearch', ctx.manifests.specs.SavedSearch, ctx.live.SavedSearch, ctx).map(d => {
      const s = d.value.spec
      // Sources are planned before saved searches: resolved now.
      ;(d.value as DesiredSavedSearch).resolvedSource = ctx.refs.resolve({
        kind: 'Source',
        name: s.source,
        id: s.sourceId,
        at: { doc: d.value.located.doc, path: [s.source !== undefined ? 'source' : 'sourceId'] }
      })
      return d
    }),

  pair: (desired, ctx) =>
    pairRecords(desired, ctx.live.SavedSearch, ctx, {
      kind: 'SavedSearch',
      liveId: l => l.id,
      liveName: l => l.name,
      owns: l => l.tags.includes(ctx.settings.ownershipTag),
      otherOwner: l => l.tags.find(isOwnershipTag),
      adoptFromOthers: true
    }),

  normalDesired(d, ctx) {
    const sent = body(d.value, ctx.settings.ownershipTag) as Parameters<typeof normal>[0]
    return normal(sent, ctx, ctx.settings.ownershipTag)
  },

  normalLive(l, ctx) {
    const owner = l.tags.includes(ctx.settings.ownershipTag)
      ? ctx.settings.ownershipTag
      : l.tags.find(isOwnershipTag)
    return normal(l, ctx, owner)
  },

  liveName: l => l.name,
  liveId: l => l.id,

  // Adoption notes come from pairing; the server's cascade onto alerts is the alert kind's to show.
  refine(pc, ctx) {
    if (pc.desired) checkFilterTypes(pc.desired.value.located, pc.live, ctx)
  },

  ...recordWrites<DesiredSavedSearch, LiveSavedSearch>(octx => ({
    kind: 'SavedSearch',
    collection: 'saved-searches',
    liveId: l => l.id,
    liveName: l => l.name,
    list: async ctx => (await ctx.api.listSavedSearches()) ?? [],
    find: (all, sent) => all.find(l => l.name === sent.name && l.tags.includes(octx.settings.ownershipTag)),
    createBody: d => body(d, octx.settings.ownershipTag),
    // Ownership is a tag in the body, so every update (one that only adopts the search included) sends it whole.
    updateBody: d => body(d, octx.settings.ownershipTag)
  }))
}

/** The whole saved search as a PUT must carry it (omitted fields reset to their defaults). */
function body(d: DesiredSavedSearch, tag: string): Record<string, unknown> {
  const s = d.spec
  return {
    name: s.name,
    sourceId: d.resolvedSource?.value,
    select: s.select ?? '',
    where: s.where ?? '',
    whereLanguage: s.whereLanguage ?? 'lucene',
    orderBy: s.orderBy ?? '',
    // A saved search has one owner: adopting one from another stack replaces that stack's tag.
    tags: [...new Set([...orderedUserTags(s.tags ?? []), tag])],
    filters: (s.filters ?? []).map(filterBody)
  }
}

function normal(
  s: { name: string; sourceId?: string | null; tags?: readonly string[] } & Record<string, unknown>,
  ctx: PlanContext,
  owner: string | undefined
): JsonObject {
  const filters = Array.isArray(s.filters)
    ? s.filters.map(f => {
        const { type, ...rest } = f as Record<string, unknown>
        return type === 'sql' || type === undefined ? rest : { type, ...rest }
      })
    : undefined
  return (clean({
    name: s.name,
    owner,
    source: typeof s.sourceId === 'string' ? ctx.refs.labelOfValue('Source', s.sourceId) : undefined,
    select: s.select,
    where: s.where,
    whereLanguage: s.whereLanguage === 'lucene' ? undefined : s.whereLanguage,
    orderBy: s.orderBy,
    tags: userTags(s.tags ?? []),
    filters
  }) ?? {}) as JsonObject
}
