/**
 * Saved searches as manifests, each with its alerts: all in `saved-searches.yaml`, selected by their tags. The
 * source by name, `adopt: true` on those the stack does not own yet.
 */
import type { LiveSavedSearch } from '../api/schemas.js'
import type { Mode } from '../config/types.js'
import { orderedUserTags } from './ownership.js'
import { alertDocument, alertsBy } from './alert-export.js'
import { twinPin, withComments } from './exporting.js'
import type { KindExport } from './kind.js'

export const savedSearchExport: KindExport<LiveSavedSearch> = {
  list: 'savedSearches',
  writes: {
    to: { file: 'saved-searches' },
    tags: s => s.tags,
    skips: undefined,
    writer: ctx => {
      const alertsOf = alertsBy(ctx.all('Alert') ?? [], a =>
        a.source === 'saved_search' ? a.savedSearchId : undefined
      )
      return s => {
        const comments: string[] = []
        const value: Record<string, unknown> = {
          kind: 'SavedSearch',
          name: s.name,
          ...twinPin(ctx.namer, 'SavedSearch', s, comments)
        }
        Object.assign(value, ctx.namer.ref('Source', 'source', s.sourceId, comments, 'source'))
        if (s.select) value.select = s.select
        if (s.where) value.where = s.where
        if (s.whereLanguage && s.whereLanguage !== 'lucene') value.whereLanguage = s.whereLanguage
        if (s.orderBy) value.orderBy = s.orderBy
        const tags = orderedUserTags(s.tags)
        if (tags.length > 0) value.tags = tags
        const all = s.filters ?? []
        const filters = all.flatMap(f => exportedFilter(f, ctx.mode))
        if (filters.length < all.length)
          comments.push(
            ctx.mode === 'managed'
              ? `${all.length - filters.length} filter(s) of another type than sql (set in the UI): the managed API takes sql filters only, so an update removes them`
              : `${all.length - filters.length} filter(s) of a shape the manifest cannot express: an update removes them`
          )
        if (filters.length > 0) value.filters = filters
        if (!s.tags.includes(ctx.ownershipTag)) value.adopt = true
        const alerts = alertsOf(s.id)
        return {
          documents: [
            withComments(value, comments),
            ...alerts.map(a => alertDocument(a, { search: s }, ctx.namer))
          ],
          ids: [s.id, ...alerts.map(a => a.id)],
          carried: alerts.length
        }
      }
    }
  }
}

/**
 * A saved search's filter in the manifest's words: sql (its default type left out), and where the server takes
 * them, the lucene and sql_ast filters the web UI writes (saved-search-filters.ts). None when it cannot go.
 */
function exportedFilter(f: Record<string, unknown>, mode: Mode): unknown[] {
  const type = f.type ?? 'sql'
  if (type === 'sql') return typeof f.condition === 'string' ? [{ condition: f.condition }] : []
  if (mode === 'managed') return []
  if (type === 'lucene' && typeof f.condition === 'string') return [{ type, condition: f.condition }]
  const sides = [f.operator, f.left, f.right]
  if (type === 'sql_ast' && sides.every(v => typeof v === 'string'))
    return [{ type, operator: f.operator, left: f.left, right: f.right }]
  return []
}
