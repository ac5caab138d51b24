/**
 * A live preview copy: a dashboard a pull request's plan creates or changes, written to the server as it would be
 * after the merge, so a reviewer opens it in the real UI. It is named `[PR #7] <name>` and carries tags of its own,
 * never the stack's ownership tag, so no stage takes it for the stack's: `obsdeploy-preview:<stack>` (what marks a
 * copy, and whose it is), `obsdeploy-pr:<number>` and `obsdeploy-at:<minute of its last write>`. The server keeps
 * no dates a client can read (the v2 API returns none), so the last tag is how a copy's age is known.
 *
 * A copy has no alerts (they are separate records, never copied), and its raw SQL tiles are replaced by a markdown
 * tile that says why unless the run allows them: a copy runs its queries on the live connection as soon as anyone
 * opens it, before the pull request is reviewed.
 */
import { PREVIEW_TAG_PREFIXES } from '../../manifest/rules.js'
import { LIMITS } from '../../manifest/vocabulary.js'
import type { LiveState } from '../kind.js'
import { stackTag } from '../ownership.js'

type Body = Record<string, unknown>

/** Whether a dashboard is a preview copy (of any stack): never a dashboard the stack owns, adopts or exports. */
export const isPreviewCopy = (d: { tags: readonly string[] }): boolean =>
  d.tags.some(t => t.startsWith(PREVIEW_TAG_PREFIXES.stack))

/**
 * The live read's dashboards without the preview copies, which go to `previewCopies`: the live preview's stage reads
 * them there, and no other stage sees one. The registry's and the apply's own lists look for the ownership tag, which
 * a copy never has.
 */
export function setPreviewCopiesAside(state: LiveState): void {
  // Absent when the read was of other kinds only.
  const dashboards = state.Dashboard as LiveState['Dashboard'] | undefined
  if (!dashboards?.some(isPreviewCopy)) return
  state.previewCopies = dashboards.filter(isPreviewCopy)
  state.Dashboard = dashboards.filter(d => !isPreviewCopy(d))
}

/** The tag that marks a stack's copies (shortened with a hash to fit the tag limit, as the ownership tag is). */
export const previewStackTag = (stack: string): string => stackTag(PREVIEW_TAG_PREFIXES.stack, stack)

export const pullRequestTag = (pullRequest: number): string =>
  `${PREVIEW_TAG_PREFIXES.pullRequest}${pullRequest}`

/** `obsdeploy-at:2026-12-06T07:56Z`: 30 characters, within the tag limit. */
export const writtenAtTag = (at: Date): string =>
  `${PREVIEW_TAG_PREFIXES.writtenAt}${at.toISOString().slice(0, 16)}Z`

export function previewCopyTags(stack: string, pullRequest: number, writtenAt: Date): string[] {
  return [previewStackTag(stack), pullRequestTag(pullRequest), writtenAtTag(writtenAt)]
}

const PREFIX = (pullRequest: number) => `[PR #${pullRequest}] `

/** `[PR #7] Checkout`, within the server's name limit. */
export function copyName(pullRequest: number, name: string): string {
  const prefix = PREFIX(pullRequest)
  return `${prefix}${name.slice(0, LIMITS.dashboardName - prefix.length)}`
}

/** The dashboard's own name, from its copy's. */
export function copiedName(pullRequest: number, name: string): string {
  const prefix = PREFIX(pullRequest)
  return name.startsWith(prefix) ? name.slice(prefix.length) : name
}

/** What a copy's tags say: its pull request and when it was last written (undefined where a tag is missing). */
export function copyFacts(d: { tags: readonly string[] }): { pullRequest?: number; writtenAt?: Date } {
  const out: { pullRequest?: number; writtenAt?: Date } = {}
  for (const tag of d.tags) {
    if (tag.startsWith(PREVIEW_TAG_PREFIXES.pullRequest)) {
      const n = Number(tag.slice(PREVIEW_TAG_PREFIXES.pullRequest.length))
      if (Number.isSafeInteger(n) && n > 0) out.pullRequest = n
    } else if (tag.startsWith(PREVIEW_TAG_PREFIXES.writtenAt)) {
      const at = new Date(tag.slice(PREVIEW_TAG_PREFIXES.writtenAt.length))
      if (!Number.isNaN(at.getTime())) out.writtenAt = at
    }
  }
  return out
}

/** Whether a request's tile runs raw SQL (`configType: sql`) on its connection. */
export const isRawSqlTile = (tile: Body): boolean => (tile.config as Body | undefined)?.configType === 'sql'

const LAYOUT_FIELDS = ['name', 'x', 'y', 'w', 'h', 'containerId', 'tabId'] as const

const SQL_PLACEHOLDER =
  "This tile runs raw SQL. A preview copy leaves it out: the copy would run the pull request's SQL on the live connection before anyone reviewed it. Set `live-preview-sql: true` to include raw SQL tiles."

export interface CopyBody {
  body: Body
  /** The names of the raw SQL tiles left out (a placeholder in the place of each). */
  sqlLeftOut: string[]
}

/**
 * A copy's request from the dashboard's create request: its name and tags, tiles without ids (the server gives a
 * copy its own), each raw SQL tile a markdown placeholder in its place unless `sql`.
 */
export function copyBody(request: Body, options: { name: string; tags: string[]; sql: boolean }): CopyBody {
  const sqlLeftOut: string[] = []
  const tiles = (Array.isArray(request.tiles) ? (request.tiles as Body[]) : []).map(tile => {
    const { id: _id, ...rest } = tile
    if (options.sql || !isRawSqlTile(tile)) return rest
    sqlLeftOut.push(String(tile.name ?? ''))
    const placeholder: Body = {}
    for (const field of LAYOUT_FIELDS) if (tile[field] !== undefined) placeholder[field] = tile[field]
    // The series form: both deployments' APIs take it (the managed one has no markdown config).
    placeholder.series = [{ type: 'markdown', content: SQL_PLACEHOLDER }]
    return placeholder
  })
  return { body: { ...request, name: options.name, tags: options.tags, tiles }, sqlLeftOut }
}
