/**
 * A whole list from its first page. Lists that paginate and say so (`meta.total` or `X-Total-Count`) get the
 * remaining pages, requested with the page size the server used; a paginated list that gives no total is read on
 * until a page adds nothing new. A list that says it has more than its pages return is refused, not used in part.
 */
import { z } from 'zod'
import { ResponseShapeError } from './errors.js'
import { parseResponse, unwrapEnvelope } from './responses.js'
import { PaginationMeta } from './schemas.js'
import type { ApiResponse } from './transport.js'

/** Bounds the pages of a list without a total, against a server that never stops answering new ones. */
const MAX_UNCOUNTED_PAGES = 1000

/**
 * The items of `first` and of the pages after it, which `page` asks for (at `path`). `paginated`: the route pages
 * whether or not it says so (a list without a total is then read on).
 */
export async function readPages<T extends z.ZodType>(
  path: string,
  first: ApiResponse,
  item: T,
  paginated: boolean,
  page: (query: { limit: number; offset: number }) => Promise<ApiResponse>
): Promise<z.infer<T>[]> {
  const items = parseResponse(z.array(item), unwrapEnvelope(first.body), first)
  const info = pageInfo(first)
  const { limit } = info
  let { total } = info
  // A paginated list without a total (the managed cloud's declare none) may have been cut at a page size the
  // server chose, short or not: ask on until a page adds nothing new (TF client/webhook.go eachWebhook).
  if (paginated && total === undefined && items.length > 0) total = Infinity
  if (total === undefined || items.length >= total || items.length === 0) return items
  const pageSize = limit && limit > 0 ? limit : items.length
  const seen = new Set(items.map(i => (i as { id?: string }).id))
  let offset = items.length
  // Bounded: a server that keeps returning pages past `total` cannot keep us here.
  const maxPages = Number.isFinite(total) ? Math.ceil(total / pageSize) + 2 : MAX_UNCOUNTED_PAGES
  for (let pages = 0; offset < total && pages < maxPages; pages++) {
    const res = await page({ limit: pageSize, offset })
    const next = parseResponse(z.array(item), unwrapEnvelope(res.body), res)
    const fresh = next.filter(p => !seen.has((p as { id?: string }).id))
    // An empty page, or one the server repeated (it ignores offset): the list is complete.
    if (next.length === 0 || fresh.length === 0) break
    for (const p of next) {
      const key = (p as { id?: string }).id
      if (key === undefined || !seen.has(key)) items.push(p)
      seen.add(key)
    }
    offset += next.length
  }
  if (Number.isFinite(total) && items.length < total) {
    // Planning with part of a list would look like "create what is missing": refuse instead.
    throw new ResponseShapeError(
      { method: 'GET', path, status: first.status },
      'meta.total',
      `the server announced ${total} items but its pages returned ${items.length}; refusing to plan with a partial list`
    )
  }
  return items
}

/** The total a list says it has, and the page size it used. */
function pageInfo(res: ApiResponse): { total?: number; limit?: number } {
  const body = res.body as { meta?: unknown } | undefined
  const meta = body && typeof body === 'object' ? PaginationMeta.safeParse(body.meta) : undefined
  const header = Number(res.headers['x-total-count'])
  return {
    total:
      meta?.success && meta.data.total !== undefined
        ? meta.data.total
        : Number.isFinite(header)
          ? header
          : undefined,
    limit: meta?.success ? meta.data.limit : undefined
  }
}
