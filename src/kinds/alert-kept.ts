/**
 * What an alert update carries from the live record so that it resets nothing the manifest does not set.
 *
 * A PUT replaces the alert (controllers/alerts.ts makeAlert), so a field it omits is lost. Two kinds of field:
 * - `displayName` and `tags` (HyperDX after 2.36, pull requests 3063/3065/3067): an omitted one is reset to
 *   the value the server derives from the tile's dashboard or the saved search. A read returns the stored
 *   value, or the derived one when none is stored, and cannot tell the two apart. So the live value is sent
 *   back unless it equals what the server would derive now: then it is left out, the server derives it again,
 *   and it keeps following a rename of the dashboard, tile or saved search.
 * - any field this version of obsdeploy does not know (not in returned-fields.ts ALERT_FIELDS): sent back as read.
 *
 * Managed mode: the cloud gateway refuses a key its request schema does not declare (managed-request.ts).
 * `displayName` and `tags` are sent where the cloud's reads return them (then the API behind the gateway knows
 * them); any other unknown field cannot be sent, so the update resets it, and the plan says so.
 */
import type { LiveAlert, LiveDashboard, LiveSavedSearch } from '../api/schemas.js'
import { sameId } from '../api/schemas.js'
import { LIMITS } from '../manifest/vocabulary.js'
import { ALERT_FIELDS } from './returned-fields.js'

export interface KeptFields {
  /** Set in the UI or through the API (not derived): sent back where the manifest leaves them out. */
  displayName?: string
  tags?: string[]
  /** Fields obsdeploy does not know, as read: sent back. */
  unknown: Record<string, unknown>
  /** Managed: fields obsdeploy does not know that the update cannot send, so it resets them. */
  lost: string[]
}

/** What an alert watches, as read: its tile's dashboard, or its saved search (the caller looks it up). */
export interface AlertTarget {
  dashboard?: LiveDashboard
  search?: LiveSavedSearch
}

/** What the server derives for an alert without its own name and tags, or undefined where it cannot be told. */
export function derivedDisplay(
  live: LiveAlert,
  { dashboard, search }: AlertTarget
): { displayName: string | null; tags: string[] } | undefined {
  if (live.source === 'saved_search') {
    if (!search) return undefined
    return { displayName: clampName(search.name.trim()), tags: clampTags(search.tags) }
  }
  if (!dashboard) return undefined
  const tile = dashboard.tiles.find(t => sameId(t.id, live.tileId))
  const name = dashboard.name.trim()
  return {
    displayName: name === '' ? null : clampName(`${name} - ${tile?.name?.trim() || 'Tile'}`),
    tags: clampTags(dashboard.tags)
  }
}

/** The live fields an update of this alert must carry (see the header). */
export function keptFields(
  live: LiveAlert,
  manifest: { displayName?: string; tags?: string[] },
  target: AlertTarget,
  mode: 'self-hosted' | 'managed'
): KeptFields {
  const kept: KeptFields = { unknown: {}, lost: [] }
  const derived = derivedDisplay(live, target)
  const displayName = live.displayName
  if (
    manifest.displayName === undefined &&
    typeof displayName === 'string' &&
    displayName !== derived?.displayName
  )
    kept.displayName = displayName
  const tags = live.tags
  if (manifest.tags === undefined && Array.isArray(tags) && !(derived && sameList(tags, derived.tags)))
    kept.tags = tags
  for (const [key, value] of Object.entries(live)) {
    // Known: compared, or the server's own (returned-fields.ts says which, for every field a server returns).
    if (Object.hasOwn(ALERT_FIELDS, key) || value === undefined) continue
    if (mode === 'managed') kept.lost.push(key)
    else kept.unknown[key] = value
  }
  return kept
}

/** The plan's note on what an update keeps, or undefined when it keeps nothing. */
export function keptNote(kept: KeptFields): string | undefined {
  const said: string[] = []
  if (kept.displayName !== undefined) said.push(`displayName ${JSON.stringify(kept.displayName)}`)
  if (kept.tags !== undefined) said.push(`tags ${JSON.stringify(kept.tags)}`)
  const set =
    said.length > 0 ? `keeps ${said.join(' and ')}, set outside the manifests (in the UI or the API)` : ''
  const unknown = Object.keys(kept.unknown)
  const carried =
    unknown.length > 0
      ? `carries ${unknown.map(k => `\`${k}\``).join(', ')} as the server holds ${unknown.length === 1 ? 'it' : 'them'} (unknown to this version of obsdeploy)`
      : ''
  const lost =
    kept.lost.length > 0
      ? `resets ${kept.lost.map(k => `\`${k}\``).join(', ')} (unknown to this version of obsdeploy; the managed API refuses a field it does not declare, so the update cannot send ${kept.lost.length === 1 ? 'it' : 'them'})`
      : ''
  const text = [set, carried, lost].filter(Boolean).join('; it ')
  return text === '' ? undefined : text
}

/** The kept fields as request keys. */
export function keptBody(kept: KeptFields | undefined): Record<string, unknown> {
  if (!kept) return {}
  return {
    ...kept.unknown,
    ...(kept.displayName !== undefined ? { displayName: kept.displayName } : {}),
    ...(kept.tags !== undefined ? { tags: kept.tags } : {})
  }
}

const clampName = (name: string): string => Array.from(name).slice(0, LIMITS.alertName).join('')

/** As the server clamps derived tags: strings only, no empty one, at most the limit, each cut to its length. */
function clampTags(tags: unknown): string[] {
  if (!Array.isArray(tags)) return []
  return tags
    .filter((t): t is string => typeof t === 'string' && t !== '')
    .slice(0, LIMITS.tags)
    .map(t => t.slice(0, LIMITS.tagLength))
}

const sameList = (a: readonly unknown[], b: readonly unknown[]): boolean =>
  a.length === b.length && a.every((v, i) => v === b[i])
