/**
 * A dashboard change as a saved plan carries it: the request form of its desired record (the manifest's
 * fields its bodies read, the tiles and filters as they will be sent, what it waits for), read back into
 * the same operations (see SavedForm).
 */
import { z } from 'zod'
import type { LiveDashboard } from '../../api/schemas.js'
import type { Json } from '../../json.js'
import type { DashboardSpec } from '../../manifest/schema.js'
import type { SavedForm } from '../kind.js'
import type { DashboardRequest, DesiredDashboard } from './desired.js'
import { dashboardOperations } from './operations.js'

const Body = z.record(z.string(), z.unknown())
/** Shape only: the seal of the saved plan proves the JSON is what save() wrote from a validated manifest. */
const SavedRequest = z.object({
  spec: z.looseObject({ name: z.string() }),
  tiles: z.array(z.object({ spec: z.looseObject({ name: z.string() }), body: Body })),
  filters: z.array(Body),
  waitsFor: z.array(z.string()),
  linksLater: z.boolean()
})

export const savedDashboard: SavedForm<DesiredDashboard, LiveDashboard> = {
  save(d) {
    if (!d) return null
    // The tiles' specs travel with their bodies: the dashboard's own list would only repeat them.
    const { tiles: _tiles, ...spec } = d.spec
    const saved = {
      spec,
      tiles: d.tiles,
      filters: d.filters,
      waitsFor: [...d.waitsFor],
      linksLater: d.linksLater
    }
    return saved as unknown as Json
  },
  operations(saved, { change, live }, octx) {
    if (saved === null) return dashboardOperations({ change, live }, octx)
    const parsed = SavedRequest.safeParse(saved)
    if (!parsed.success) return undefined
    const r = parsed.data
    const value: DashboardRequest = {
      spec: r.spec as DashboardSpec,
      tiles: r.tiles as DashboardRequest['tiles'],
      filters: r.filters,
      waitsFor: new Set(r.waitsFor),
      linksLater: r.linksLater
    }
    const source = change.source ?? { file: '', line: 0, column: 0 }
    return dashboardOperations(
      { change, live, desired: { name: change.name, address: change.address, source, value } },
      octx
    )
  }
}
