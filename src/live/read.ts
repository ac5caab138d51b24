/**
 * Reading the live state: each kind says how it reads its records (one list call, following pages), and
 * they are read in parallel. A plan never does one GET per resource, so 1,000 dashboards cost the same
 * handful of requests as 10 (the managed API allows 10 requests per 10 s).
 */
import type { ObservabilityApi } from '../api/client.js'
import { setPreviewCopiesAside } from '../kinds/dashboard/preview-copy.js'
import { KINDS, type AnyKind } from '../kinds/index.js'
import type { LiveReadOptions, LiveState } from '../kinds/kind.js'

export async function readLiveState(
  client: ObservabilityApi,
  options: LiveReadOptions,
  kinds: readonly AnyKind[] = KINDS
): Promise<LiveState> {
  // Dashboards first: in managed mode their list settles the path prefix, and its error says the most.
  const readers = kinds
    .flatMap(k => (k.live ? [{ kind: k.kind, ...k.live }] : []))
    .sort((a, b) => Number(b.first ?? false) - Number(a.first ?? false))
  // The reads are only useful together: the first failure cancels the others, in flight too, so a
  // wrong server fails the run once, at once, instead of retrying its siblings for a minute.
  const siblings = new AbortController()
  const outside = options.signal
  if (outside?.aborted) siblings.abort(outside.reason)
  else outside?.addEventListener('abort', () => siblings.abort(outside.reason), { once: true })
  const api = client.withSignal(siblings.signal)
  // Failures that came before the cancel: the cancelled siblings' own errors say nothing.
  const own = new Set<unknown>()
  // A question, not a list: its answer is false on any failure, so it never fails the read. Asked or not is part
  // of the state (and of a saved plan's digest of it): absent when not asked.
  const patch = Promise.resolve(options.dashboardPatch ?? false).then(
    ask => (ask ? api.canPatchDashboards() : undefined),
    () => undefined
  )
  const skipped = new Set<(typeof readers)[number]>()
  const settled = await Promise.allSettled(
    readers
      .map(async r => {
        if (r.asked && !(await r.asked(options))) {
          skipped.add(r)
          return undefined
        }
        return r.read(api, options)
      })
      .map(read =>
        read.catch((e: unknown) => {
          if (!siblings.signal.aborted) {
            own.add(e)
            siblings.abort('another read of the live state failed')
          }
          throw e
        })
      )
  )
  // Of the failures, the first in the readers' order is reported; a read ended from outside (the run
  // stopped) fails with its cancellation, never as a state with lists missing.
  const failed = settled.find(
    s => s.status === 'rejected' && (own.has(s.reason) || outside?.aborted === true)
  )
  if (failed) throw (failed as PromiseRejectedResult).reason
  const values = settled.map(s => (s as PromiseFulfilledResult<unknown[] | undefined>).value)
  // Filled kind by kind: the kinds every deployment lists have readers that always answer with a list.
  const lists: Record<string, unknown[] | undefined> = {}
  readers.forEach((r, i) => {
    if (values[i] !== undefined) lists[r.kind] = values[i]
  })
  const state = lists as unknown as LiveState
  // Here, at the one place every stage's dashboards come from, so no stage can take a preview copy for a dashboard of
  // the stack's (adopt, pair, prune, export, drift, the policies' view of other stacks).
  setPreviewCopiesAside(state)
  // A kind read only when asked, that the others' records show is needed after all (a registry lists some).
  for (const r of skipped) if (r.neededBy?.(state)) lists[r.kind] = await r.read(api, options)
  const canPatch = await patch
  if (canPatch !== undefined) state.dashboardPatch = canPatch
  return state
}
