/**
 * What an update sends for a dashboard and its tiles: the manifest, plus what the server holds that the
 * manifest language does not model, sent back exactly as read (returned-fields.ts). The plan's desired
 * side is built by the same functions, so a setting the update cannot keep shows as a change, and one
 * it keeps is listed as kept.
 */
import type { LiveDashboard, LiveTile } from '../../api/schemas.js'
import { clean, equal } from '../../json.js'
import { joinKey } from '../../plan/diff.js'
import {
  carriedFields,
  DASHBOARD_FIELDS,
  TILE_CONFIG_FIELDS,
  TILE_FIELDS,
  UNKNOWN_CONFIG_FIELD
} from '../returned-fields.js'
import { normalizeConfig, normalizeGroupBy, seriesToConfig, type SeriesLike } from '../tile-normal-form.js'

type Body = Record<string, unknown>

/** Dashboard fields the update sends back as read (filters, saved query, containers, ...). */
export function carriedDashboardFields(live: LiveDashboard): Body {
  return carriedFields(live, {}, DASHBOARD_FIELDS, () => false)
}

/** The tile as an update of `live` sends it. */
export function tileAsSent(body: Body, live: LiveTile | undefined): Body {
  if (!live) return body
  // The id exactly as the server sent it: the server matches tiles by id.
  const tile: Body = {
    ...(live.id !== undefined ? { id: live.id } : {}),
    ...body,
    ...carriedFields(live, body, TILE_FIELDS, () => false)
  }
  if (!live.config) return tile
  const config = (body.config as Body | undefined) ?? seriesAsConfig(body)
  if (!config) return tile
  const extra = carriedConfig(live.config, config)
  if (Object.keys(extra).length === 0) return tile
  // A series tile has no room for config settings: it is sent in the config form the server stores.
  const { series: _series, asRatio: _asRatio, ...rest } = tile
  return { ...rest, config: { ...extra, ...config } }
}

/** Config keys of the live tile that an update with `sent` keeps, and why each other one goes. */
function carriedConfig(live: Body, sent: Body): Body {
  const want = normalizeConfig(sent)
  const have = normalizeConfig(live)
  return carriedFields(live, sent, TILE_CONFIG_FIELDS, f => !equal(want[f], have[f]), UNKNOWN_CONFIG_FIELD)
}

/**
 * A series tile in the config form the server stores it in (FACTS.md), when that says exactly the same:
 * a table's `sortOrder` has no config equivalent the API returns, so such a tile stays in series form.
 */
function seriesAsConfig(body: Body): Body | undefined {
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
 * plan would keep): their paths, for the plan's "kept as set in the UI" notice. Only the fields the real
 * servers are known to return are listed, not whatever else a server sends.
 */
export function keptSettings(
  live: LiveDashboard,
  tiles: ReadonlyArray<{ name: string; sent: Body; live?: LiveTile }>
): string[] {
  const paths = Object.keys(carriedDashboardFields(live)).filter(k => clean(live[k]) !== undefined)
  for (const t of tiles) {
    if (!t.live) continue
    const at = joinKey('tiles', t.name, true)
    for (const key of Object.keys(carriedFields(t.live, {}, TILE_FIELDS, () => false)))
      paths.push(joinKey(at, key))
    const config = (t.sent.config ?? {}) as Body
    for (const key of Object.keys(config)) {
      const declared = TILE_CONFIG_FIELDS[key]?.treatment === 'carried'
      if (declared && clean(config[key]) !== undefined && t.live.config?.[key] !== undefined)
        paths.push(joinKey(at, key))
    }
  }
  return paths
}

/**
 * For a tile setting the update removes although the manifest never mentions it, the reason in words:
 * raw SQL the manifest cannot express, or a UI setting that depends on something the update changes.
 */
export function droppedSettingNotes(name: string, sent: Body, live: LiveTile | undefined): string[] {
  const liveConfig = live?.config
  if (!liveConfig) return []
  const sentConfig = (sent.config as Body | undefined) ?? seriesAsConfig(sent) ?? {}
  const want = normalizeConfig(sentConfig)
  const have = normalizeConfig(liveConfig)
  const notes = new Set<string>()
  for (const [key, value] of Object.entries(liveConfig)) {
    if (clean(value) === undefined || key in sentConfig) continue
    const rule = TILE_CONFIG_FIELDS[key] ?? UNKNOWN_CONFIG_FIELD
    if (rule.unexpressible) {
      notes.add(`tile "${name}" is ${rule.unexpressible}`)
    } else if (rule.treatment === 'carried') {
      const changed = (rule.keptWhileSame ?? []).filter(f => !equal(want[f], have[f]))
      if (changed.length > 0)
        notes.add(
          `tile "${name}": ${key} (set in the UI; the manifest language cannot express it yet) is removed by this update, because the update changes the tile's ${changed.join(' and ')}`
        )
    }
  }
  return [...notes]
}
