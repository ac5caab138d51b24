/**
 * A saved search's pinned filters. A new filter must be one sidebar facet, an `sql` condition; the web UI also
 * writes `lucene` conditions and `sql_ast` comparisons, which the self-hosted server keeps on an update only as it
 * stores them already (v2/savedSearches.ts). The managed cloud's schema takes `sql` filters only
 * (ClickStackSavedSearchFilter). So the others are carried where they exist, and refused in the plan elsewhere.
 */
import type { LiveSavedSearch } from '../api/schemas.js'
import { diagnostic } from '../diagnostics.js'
import type { SavedSearchSpec } from '../manifest/resources-schema.js'
import type { Located } from '../manifest/rules.js'
import type { PlanContext } from './kind.js'

type FilterSpec = NonNullable<SavedSearchSpec['filters']>[number]

/** A filter as the request sends it. */
export function filterBody(f: FilterSpec): Record<string, unknown> {
  if (f.type === 'sql_ast') return { type: f.type, operator: f.operator, left: f.left, right: f.right }
  return { type: f.type ?? 'sql', condition: f.condition }
}

/** Plan errors at the filters the server would refuse: another type than sql, unless kept as stored. */
export function checkFilterTypes(
  located: Located<SavedSearchSpec>,
  live: LiveSavedSearch | undefined,
  ctx: PlanContext
): void {
  const stored = new Set((live?.filters ?? []).map(f => filterKey(f)))
  ;(located.spec.filters ?? []).forEach((f, i) => {
    if ((f.type ?? 'sql') === 'sql') return
    const why =
      ctx.settings.mode === 'managed'
        ? `the managed API takes sql filters only (ClickStackSavedSearchFilter): remove this ${f.type} filter (an update then deletes it)`
        : stored.has(filterKey(filterBody(f)))
          ? undefined
          : `the server keeps a ${f.type} filter only as the saved search stores it already, and refuses a new or changed one: set it in the web UI, or write it as an sql filter`
    if (why === undefined) return
    const path = ['filters', i]
    ctx.report(diagnostic('plan', 'error', why, { ...located.doc.locate(path), field: `filters[${i}]` }))
  })
}

/** A filter's identity: its type and the fields of that type, in a fixed order. */
function filterKey(f: Record<string, unknown>): string {
  const type = f.type ?? 'sql'
  return JSON.stringify(
    type === 'sql_ast' ? [type, f.operator, f.left, f.right] : [type, f.condition ?? null]
  )
}
