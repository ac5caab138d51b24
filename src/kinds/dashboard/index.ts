/**
 * Dashboards, assembled from named steps. Identity is decided in pair.ts; tiles are matched by name and
 * keep their ids on update (FACTS.md: a tile sent without its id is a new tile, and the server deletes
 * the alerts of the tile that went away).
 */
import { NOUNS } from '../nouns.js'
import { isRegistryDashboard } from '../registry.js'
import type { LiveDashboard } from '../../api/schemas.js'
import type { Kind } from '../kind.js'
import { desiredDashboards, type DesiredDashboard } from './desired.js'
import { recordDashboardFacts } from './facts.js'
import { normalDesired, normalLive } from './normal.js'
import { refineDashboard } from './notes.js'
import { dashboardOperations, dashboardRequests } from './operations.js'
import { linkOutUses } from './links.js'
import { pairDashboards } from './pair.js'
import { savedDashboard } from './saved.js'
import { dashboardExport } from './export.js'

export const dashboardKind: Kind<DesiredDashboard, LiveDashboard> = {
  kind: 'Dashboard',
  nouns: NOUNS.Dashboard,
  fingerprint: { specs: 'dashboards', whenEmpty: true },
  referredBy: undefined,
  copies: {
    what: 'dashboards',
    isCopy: (r, c, tag) => r.name === c.name && r.tags.includes(tag) && !isRegistryDashboard(r),
    remove: (api, id) => api.deleteDashboard(id),
    // A copy with alerts is in use: another apply put them there.
    inUse: async api => {
      const alerted = new Set((await api.listAlerts()).map(a => a.dashboardId))
      return id => alerted.has(id)
    }
  },
  seenOn: d => ({ dashboard: d.name, own: true }),
  heldWhileUsed: undefined,
  unnamedUses: linkOutUses,
  exports: dashboardExport,
  live: { read: api => api.listDashboards(), first: true },
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
