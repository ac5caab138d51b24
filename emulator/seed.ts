import { readFileSync } from 'node:fs'
import { initialRoles } from './roles.js'
import type { StoreSnapshot } from './store.js'
import type { TeamMembersSnapshot } from './team-members.js'
import type { Credentials, Seed, ServiceRecord, StoredEvent } from './types.js'

/** Everything the emulator holds, as written to `persistPath`. */
export interface PersistedState {
  version: 1
  credentials: Credentials
  team: Seed['team']
  user: Seed['user']
  selfHosted: StoreSnapshot
  /** The self-hosted team's users and invitations (absent: only the seed user, as before they were kept). */
  teamMembers?: TeamMembersSnapshot
  /** Observability resources per managed service id. */
  managed: Record<string, StoreSnapshot>
  services: ServiceRecord[]
}

export function loadDefaultSeed(): Seed {
  return readSeedFile(new URL('./fixtures/seed.json', import.meta.url))
}

export function readSeedFile(file: string | URL): Seed {
  return JSON.parse(readFileSync(file, 'utf8')) as Seed
}

/**
 * The initial state from a seed. Seed events are stored `minutesAgo` before `now`, so a query of the last hour or
 * day finds data whenever the emulator starts. Every managed service gets the same sources and webhooks, and the
 * predefined ClickStack roles plus the seed's custom ones (each service its own ids).
 */
export function stateFromSeed(seed: Seed, now: number): PersistedState {
  const events: StoredEvent[] = seed.events
    .map(event => ({
      timestamp: Math.round(now - event.minutesAgo * 60_000),
      sourceId: event.sourceId,
      fields: { ...event.fields }
    }))
    .sort((a, b) => a.timestamp - b.timestamp)
  const managed: Record<string, StoreSnapshot> = {}
  for (const service of seed.services) {
    managed[service.id] = {
      dashboards: [],
      alerts: [],
      sources: structuredClone(seed.sources),
      webhooks: structuredClone(seed.webhooks),
      // The cloud has no connections route: its sources' connection ids refer to what it manages itself.
      connections: [],
      savedSearches: [],
      events: [],
      roles: initialRoles(seed.roles, new Date(now).toISOString())
    }
  }
  return {
    version: 1,
    credentials: { ...seed.credentials },
    team: { ...seed.team },
    user: { ...seed.user },
    selfHosted: {
      dashboards: [],
      alerts: [],
      sources: structuredClone(seed.sources),
      webhooks: structuredClone(seed.webhooks),
      connections: structuredClone(seed.connections ?? []),
      savedSearches: [],
      events
    },
    managed,
    services: structuredClone(seed.services)
  }
}
