/**
 * A dashboard change as a saved plan carries it: the request form of its desired record (the manifest's
 * fields its bodies read, the tiles and filters as they will be sent, what it waits for), read back into
 * the same operations (see SavedForm).
 */
import type { LiveDashboard } from '../../api/schemas.js'
import { isMapping, type Json } from '../../json.js'
import type { SavedForm } from '../kind.js'
import type { DashboardRequest, DashboardWrite, DesiredDashboard, RequestSpec } from './desired.js'
import { dashboardOperations } from './operations.js'

/**
 * save()'s JSON back, or undefined when it is not of its shape. Shallow: the seal of the saved plan proves
 * the JSON is what save() wrote from a validated manifest, so the thousands of tile bodies are not walked
 * again (they are sent as they are).
 */
function savedRequest(v: unknown): DashboardRequest | undefined {
  if (!isMapping(v) || !isMapping(v.spec) || typeof v.spec.name !== 'string') return undefined
  const { tiles, filters, waitsFor, linksLater, write } = v
  if (!Array.isArray(tiles) || !Array.isArray(filters) || !Array.isArray(waitsFor)) return undefined
  if (
    typeof linksLater !== 'boolean' ||
    !filters.every(isMapping) ||
    !waitsFor.every(w => typeof w === 'string')
  )
    return undefined
  if (
    !tiles.every(
      t => isMapping(t) && isMapping(t.spec) && typeof t.spec.name === 'string' && isMapping(t.body)
    )
  )
    return undefined
  if (write !== undefined && !isWrite(write)) return undefined
  return {
    spec: v.spec as RequestSpec,
    tiles: tiles as DashboardRequest['tiles'],
    filters,
    waitsFor: new Set(waitsFor as string[]),
    linksLater,
    ...(write !== undefined ? { write } : {})
  }
}

const isWrite = (v: unknown): v is DashboardWrite =>
  isMapping(v) &&
  (v.via === 'put' ||
    (v.via === 'patch' && Array.isArray(v.tiles) && v.tiles.every(t => typeof t === 'string')))

/** Only the fields DashboardRequest names: the rest of the manifest is in the bodies, or not sent. */
const pick = <T extends object, K extends keyof T>(from: T, keys: readonly K[]): Pick<T, K> => {
  const picked = {} as Pick<T, K>
  for (const k of keys) if (from[k] !== undefined) picked[k] = from[k]
  return picked
}
const SPEC_FIELDS = [
  'name',
  'tags',
  'containers',
  'savedQuery',
  'savedQueryLanguage',
  'savedFilterValues'
] as const
const TILE_FIELDS = ['name', 'container', 'tab'] as const

export const savedDashboard: SavedForm<DesiredDashboard, LiveDashboard> = {
  save(d) {
    if (!d) return null
    const saved: Omit<DashboardRequest, 'waitsFor'> & { waitsFor: string[] } = {
      spec: pick(d.spec, SPEC_FIELDS),
      tiles: d.tiles.map(t => ({ spec: pick(t.spec, TILE_FIELDS), body: t.body })),
      filters: d.filters,
      waitsFor: [...d.waitsFor],
      linksLater: d.linksLater,
      ...(d.write ? { write: d.write } : {})
    }
    return saved as unknown as Json
  },
  operations(saved, { change, live }, octx) {
    if (saved === null) return dashboardOperations({ change, live }, octx)
    const value = savedRequest(saved)
    if (value === undefined) return undefined
    const source = change.source ?? { file: '', line: 0, column: 0 }
    return dashboardOperations(
      { change, live, desired: { name: change.name, address: change.address, source, value } },
      octx
    )
  }
}
