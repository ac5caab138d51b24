import type { StoredDashboard, StoredTile } from './types.js'

/**
 * A stored dashboard as the API returns it. PromQL tiles (`configType: 'promql'`, made in the UI) are left out:
 * HyperDX `convertTileToExternalChart` (`packages/api/src/routers/external-api/v2/utils/dashboards.ts`) skips
 * them because this API has no shape for them. A PUT replaces the whole tile list, so an update drops them.
 */
export function externalDashboard(dashboard: StoredDashboard): StoredDashboard {
  if (!dashboard.tiles.some(isPromqlTile)) return dashboard
  return { ...dashboard, tiles: dashboard.tiles.filter(tile => !isPromqlTile(tile)) }
}

const isPromqlTile = (tile: StoredTile): boolean => tile.config.configType === 'promql'
