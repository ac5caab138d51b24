/**
 * The plan's live preview section: which preview copies of the pull request's dashboards this run wrote, updated or
 * deleted on the server, which old copies it swept, and why none was written when none was. The stage that writes
 * them (live-preview/) fills it; the reports render it; the plan file keeps it (schema/plan.schema.json).
 */
import { z } from 'zod'
import { once } from '../manifest/once.js'

export const livePreviewSchemas = once('live preview schemas', () => {
  /** One copy and what this run did with it. */
  const LivePreviewCopy = z.object({
    /** The dashboard's own name (the manifest's). */
    dashboard: z.string(),
    /** The copy's name on the server: `[PR #7] <name>`. */
    name: z.string(),
    /** The copy's id on the server; absent when its write failed. */
    id: z.string().optional(),
    /**
     * created, updated; deleted (its dashboard is no longer changed by the pull request, or the pull request
     * closed); kept (not written: the plan has errors, the copy stays as an earlier push left it); failed.
     */
    action: z.enum(['created', 'updated', 'deleted', 'kept', 'failed']),
    /** The raw SQL tiles left out of the copy (without `live-preview-sql`), a placeholder in their place. */
    sqlLeftOut: z.array(z.string()).optional(),
    /** Why it failed, or why it was not written (a source this pull request creates has no id yet). */
    problem: z.string().optional()
  })

  /** A copy of another pull request (or of this one, older than the TTL) that this run deleted. */
  const SweptCopy = z.object({
    name: z.string(),
    id: z.string(),
    pullRequest: z.number().optional(),
    /** `pull request #5 is closed`, `last written 9 days ago (live-preview-ttl: 7 days)`. */
    why: z.string(),
    /** Set when the delete failed. */
    problem: z.string().optional()
  })

  const LivePreview = z.object({
    /** The pull request the copies are of; absent for a run that only swept. */
    pullRequest: z.number().optional(),
    /** Why no copy was written at all: a fork's pull request, a plan with errors. */
    notWritten: z.string().optional(),
    copies: z.array(LivePreviewCopy),
    swept: z.array(SweptCopy),
    /** Requests sent to the API for the copies (creates, updates, deletes), paced like every other. */
    requests: z.number()
  })
  return { LivePreviewCopy, SweptCopy, LivePreview }
})

type Schemas = ReturnType<typeof livePreviewSchemas>
export type LivePreviewCopy = z.infer<Schemas['LivePreviewCopy']>
export type SweptCopy = z.infer<Schemas['SweptCopy']>
export type LivePreview = z.infer<Schemas['LivePreview']>
