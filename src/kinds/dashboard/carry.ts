/**
 * What an update sends for a tile: the manifest, plus the tile config keys the server holds that no table of
 * returned-fields.ts knows (a server newer than ours), sent back exactly as read. The plan's desired side is built by
 * the same functions, so a setting the update cannot keep shows as a change, and one it keeps is listed as kept.
 */
import type { LiveTile } from '../../api/schemas.js'
import { clean, equal, type JsonObject } from '../../json.js'
import { joinKey } from '../../plan/diff.js'
import {
  carriedFields,
  DASHBOARD_FIELDS,
  TILE_CONFIG_FIELDS,
  UNKNOWN_CONFIG_FIELD,
  type FieldRule
} from '../returned-fields.js'
import { normalizeConfig, normalizeGroupBy, seriesToConfig, type SeriesLike } from '../tile-normal-form.js'

type Body = Record<string, unknown>

/** A tile config key's rule: a key no table lists (a newer server's) is carried like a UI setting. */
const configRule = (key: string): FieldRule => TILE_CONFIG_FIELDS[key] ?? UNKNOWN_CONFIG_FIELD

/** The tile as an update of `live` sends it. */
export function tileAsSent(body: Body, live: LiveTile | undefined): Body {
  if (!live) return body
  // The id exactly as the server sent it: the server matches tiles by id.
  const tile: Body = { ...(live.id !== undefined ? { id: live.id } : {}), ...body }
  // Most live tiles hold no setting an update carries: then nothing is added, and nothing need be normalised.
  if (!live.config || !holdsUnmanagedSettings(live)) return tile
  const config = (body.config as Body | undefined) ?? seriesAsConfig(body)
  if (!config) return tile
  const extra = carriedConfig(live.config, config)
  if (Object.keys(extra).length === 0) return tile
  // A series tile has no room for config settings: it is sent in the config form the server stores.
  const { series: _series, asRatio: _asRatio, ...rest } = tile
  return { ...rest, config: { ...extra, ...config } }
}

/** The tile as an update of `live` sends it, but for its id: what comparisons read. */
export function tileAsCompared(body: Body, live: LiveTile | undefined): Body {
  return holdsUnmanagedSettings(live) ? tileAsSent(body, live) : body
}

/**
 * Whether the live tile's config holds a value (not null) the manifest language has no word for: an update
 * sends it back as read, or drops it when it changes what the setting depends on. Only then can tileAsSent,
 * keptSettings or droppedSettingNotes do or say anything about the tile.
 */
export function holdsUnmanagedSettings(live: LiveTile | undefined): boolean {
  const config = live?.config ?? {}
  for (const key in config) {
    const value = config[key]
    if (value !== undefined && value !== null && configRule(key).treatment === 'carried') return true
  }
  return false
}

/** Config keys of the live tile that an update with `sent` keeps, and why each other one goes. */
function carriedConfig(live: Body, sent: Body): Body {
  const differs = differsBetween(sent, live)
  return carriedFields(live, sent, TILE_CONFIG_FIELDS, differs, UNKNOWN_CONFIG_FIELD)
}

/** Whether a field's normal form differs between two configs: both normalised on first use, once. */
function differsBetween(sent: Body, live: Body): (field: string) => boolean {
  let want: JsonObject | undefined
  let have: JsonObject | undefined
  return field => {
    want ??= normalizeConfig(sent)
    have ??= normalizeConfig(live)
    return !equal(want[field], have[field])
  }
}

/**
 * A series tile in the config form the server stores it in (FACTS.md), when that says exactly the same:
 * a table's `sortOrder` has no config equivalent the API returns, so such a tile stays in series form.
 */
export function seriesAsConfig(body: Body): Body | undefined {
  const series = body.series as SeriesLike[] | undefined
  if (!Array.isArray(series) || series.some(s => s.sortOrder !== undefined)) return undefined
  const config: Body = seriesToConfig(series, body.asRatio as boolean | undefined)
  const groupBy = normalizeGroupBy(config.groupBy)
  if (groupBy === undefined || config.displayType === 'number') delete config.groupBy
  else config.groupBy = groupBy
  return config
}

/**
 * Settings the server holds that the manifest language cannot express and that the update keeps (or a
 * plan would keep): their paths, for the plan's "kept as set in the UI" notice.
 */
export function keptSettings(tiles: ReadonlyArray<{ name: string; sent: Body; live?: LiveTile }>): string[] {
  const paths: string[] = []
  for (const t of tiles) {
    if (!t.live) continue
    const at = joinKey('tiles', t.name, true)
    const config = (t.sent.config ?? {}) as Body
    for (const key of Object.keys(config)) {
      const carried = configRule(key).treatment === 'carried'
      if (carried && clean(config[key]) !== undefined && t.live.config?.[key] !== undefined)
        paths.push(joinKey(at, key))
    }
  }
  return paths
}

/**
 * The tile settings an update removes although the manifest never mentions them: UI settings that depend on
 * something the update changes (`changed`).
 */
export function droppedSettings(
  sent: Body,
  live: LiveTile | undefined
): Array<{ key: string; changed: string[] }> {
  const liveConfig = live?.config
  // Only a setting an update carries can be dropped.
  if (!liveConfig || !holdsUnmanagedSettings(live)) return []
  const sentConfig = (sent.config as Body | undefined) ?? seriesAsConfig(sent) ?? {}
  const differs = differsBetween(sentConfig, liveConfig)
  const out: Array<{ key: string; changed: string[] }> = []
  for (const [key, value] of Object.entries(liveConfig)) {
    if (clean(value) === undefined || key in sentConfig) continue
    const rule = configRule(key)
    if (rule.treatment !== 'carried') continue
    const changed = (rule.keptWhileSame ?? []).filter(differs)
    if (changed.length > 0) out.push({ key, changed })
  }
  return out
}

/** For each setting droppedSettings finds, the reason in words. */
export function droppedSettingNotes(name: string, sent: Body, live: LiveTile | undefined): string[] {
  return droppedSettings(sent, live).map(
    ({ key, changed }) =>
      `tile "${name}": ${key} (set in the UI; the manifest language cannot express it yet) is removed by this update, because the update changes the tile's ${changed.join(' and ')}`
  )
}

/**
 * The dashboard-level fields the server returns that no table of returned-fields.ts knows (a server newer than
 * ours): a self-hosted update sends them back as read, so a server that takes them keeps them (2.36's PUT strips a
 * key its body schema does not name, and sets only the fields it names: routers/external-api/v2/dashboards.ts).
 */
export function unknownDashboardFields(live: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(live).filter(
      ([key, value]) => !Object.hasOwn(DASHBOARD_FIELDS, key) && value !== undefined
    )
  )
}
