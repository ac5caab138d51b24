/**
 * Dashboards, assembled from named steps. Identity is decided in pair.ts; tiles are matched by name and
 * keep their ids on update (FACTS.md: a tile sent without its id is a new tile, and the server deletes
 * the alerts of the tile that went away).
 */
import type { LiveDashboard } from '../../api/schemas.js'
import type { Kind } from '../kind.js'
import { desiredDashboards, type DesiredDashboard } from './desired.js'
import { recordDashboardFacts } from './facts.js'
import { normalDesired, normalLive } from './normal.js'
import { refineDashboard } from './notes.js'
import { dashboardOperations, dashboardRequests } from './operations.js'
import { pairDashboards } from './pair.js'
import { savedDashboard } from './saved.js'

export const dashboardKind: Kind<DesiredDashboard, LiveDashboard> = {
  kind: 'Dashboard',
  live: { field: 'dashboards', read: api => api.listDashboards() },
  keyedPaths: new Set(['tiles', 'containers']),
  desired: desiredDashboards,
  pair: pairDashboards,
  normalDesired,
  normalLive,
  liveName: l => l.name,
  liveId: l => l.id,
  refine: refineDashboard,
  conclude: recordDashboardFacts,
  operations: dashboardOperations,
  requests: dashboardRequests,
  saved: savedDashboard
}
