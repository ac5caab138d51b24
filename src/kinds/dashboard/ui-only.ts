/**
 * Settings of a tile that only the web UI can set: HyperDX 2.36 stores them in the tile's saved chart config
 * (common-utils `SharedChartSettingsSchema`, `_ChartConfigSchema`), but the v2 API neither returns nor accepts
 * them, and every write through the API's form builds the stored config anew without them (udash
 * `convertToInternalTileConfig`: a builder tile's `where` becomes '', `granularity`, a table's row `limit` and the
 * rest are not written). No API client can read them, so the plan cannot say whether a tile has any: it names the
 * tiles a write rewrites and what such a write resets on each (docs/real-server.md).
 */
import type { LiveTile } from '../../api/schemas.js'
import { liveDisplayType } from './tiles.js'

const TIME = ['tile filter (where)', 'granularity', 'null fill value', 'ratio mode']
const BY_DISPLAY_TYPE: Readonly<Record<string, readonly string[]>> = {
  line: TIME,
  stacked_bar: TIME,
  // "Show complete intervals" (`alignDateRangeToGranularity`): v2 keeps it on line and stacked_bar only, yet a
  // number or table tile can hold it (HyperDX's own runtime templates set it on 43 such tiles), and so can a tile
  // whose display type was changed in the UI.
  table: [
    'tile filter (where)',
    'granularity',
    'row limit',
    'alternating row colours',
    'column colours',
    'complete intervals'
  ],
  number: ['tile filter (where)', 'granularity', 'complete intervals'],
  pie: ['tile filter (where)', 'granularity', 'complete intervals'],
  bar: ['tile filter (where)', 'granularity', 'complete intervals'],
  heatmap: ['granularity'],
  // A search, event-pattern or markdown tile keeps all it has through the API's form.
  search: [],
  event_patterns: [],
  markdown: []
}
const RAW_SQL: Readonly<Record<string, readonly string[]>> = {
  line: ['granularity'],
  stacked_bar: ['granularity'],
  table: ['alternating row colours']
}

/** What a write through the API's form resets on this live tile, in words (none: nothing at risk). */
export function uiOnlySettings(live: LiveTile): readonly string[] {
  const type = liveDisplayType(live) ?? 'line'
  if (live.config?.configType === 'sql') return RAW_SQL[type] ?? []
  return BY_DISPLAY_TYPE[type] ?? TIME
}
