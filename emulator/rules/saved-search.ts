/**
 * Saved search request bodies (POST /saved-searches, PUT /saved-searches/{id}: a full replace, omitted fields reset to
 * their defaults) as v2/savedSearches.ts checks them: savedSearchRequestSchema, then the source must be the team's
 * (400 `sourceId must be an existing source id`), then every new or changed filter must render as one sidebar facet
 * (common-utils filters.ts isRenderablePinnedFilter; an unchanged stored filter is accepted on PUT).
 */
import { objectId, parseWith, tags, z, type Parsed, type RuleMode } from './common.js'

const filter = z.union([
  z.object({
    type: z.enum(['lucene', 'sql']).optional().default('sql'),
    condition: z.string().max(8192)
  }),
  z.object({
    type: z.literal('sql_ast'),
    operator: z.enum(['=', '<', '>', '!=', '<=', '>=']),
    left: z.string().max(8192),
    right: z.string().max(8192)
  })
])

/**
 * The managed document's filter (ClickStackSavedSearchFilter) is `{type: 'sql', condition}` only. That the cloud
 * refuses the other types is read from its schema, not seen: assumed (docs/real-server.md).
 */
const managedFilter = z.object({
  type: z.literal('sql').optional().default('sql'),
  condition: z.string().max(8192)
})

const schemaFor = (mode: RuleMode) =>
  z.object({
    name: z.string().trim().min(1).max(1024),
    sourceId: objectId,
    select: z.string().max(4096).optional().default(''),
    where: z.string().max(8192).optional().default(''),
    whereLanguage: z.enum(['lucene', 'sql']).optional().default('lucene'),
    orderBy: z.string().max(1024).optional().default(''),
    tags: tags.default([]),
    filters: z
      .array(mode === 'managed' ? managedFilter : filter)
      .max(100)
      .default([])
  })
const schemas = { 'self-hosted': schemaFor('self-hosted'), managed: schemaFor('managed') }

export type SavedSearchBody = z.infer<(typeof schemas)['self-hosted']>
export type SavedSearchFilter = SavedSearchBody['filters'][number]

export function parseSavedSearchBody(body: unknown, mode: RuleMode = 'self-hosted'): Parsed<SavedSearchBody> {
  return parseWith(schemas[mode], body) as Parsed<SavedSearchBody>
}

const filterKey = (f: SavedSearchFilter): string =>
  f.type === 'sql_ast'
    ? JSON.stringify(['sql_ast', f.operator, f.left, f.right])
    : JSON.stringify([f.type, f.condition])

/**
 * The handler's checks after the body passed, in its order. `stored` is the saved search a PUT replaces (its filters
 * are grandfathered). The renderability test is the shape test of isRenderablePinnedFilter without its SQL parser.
 */
export function savedSearchHandlerProblem(
  body: SavedSearchBody,
  ctx: { sourceIds: ReadonlySet<string>; stored?: { filters?: unknown[] } }
): string | undefined {
  if (!ctx.sourceIds.has(body.sourceId)) return 'sourceId must be an existing source id'
  const grandfathered = new Set((ctx.stored?.filters ?? []).map(f => filterKey(f as SavedSearchFilter)))
  const bad = body.filters.findIndex(f => !isRenderable(f) && !grandfathered.has(filterKey(f)))
  if (bad < 0) return undefined
  return (
    `filters[${bad}] must be a sidebar-renderable SQL predicate ` +
    `(e.g. "<column> IN ('<value>', ...)", "NOT IN (...)", or "BETWEEN <n> AND <n>"). ` +
    'Other shapes are only accepted on update when preserved unchanged from the stored saved search.'
  )
}

function isRenderable(f: SavedSearchFilter): boolean {
  if (f.type !== 'sql') return false
  const text = f.condition.trim()
  const inList = /^(.+?)\s+(?:NOT\s+)?IN\s*\((.*)\)$/is.exec(text)
  const between = /^(.+?)\s+BETWEEN\s+(\S+)\s+AND\s+(\S+)$/is.exec(text)
  const column = (inList ?? between)?.[1]?.trim()
  if (!column || /\b(?:NOT|AND|OR)\b/i.test(column)) return false
  let ands = 0
  let depth = 0
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (ch === "'") quoted = !quoted
    if (quoted) continue
    if (ch === '(') depth++
    else if (ch === ')') depth = Math.max(0, depth - 1)
    else if (depth === 0 && text.slice(i, i + 5).toUpperCase() === ' AND ') {
      ands++
      i += 4
    }
  }
  return ands === (between && !inList ? 1 : 0)
}
