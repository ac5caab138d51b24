import { SlidingWindowLimiter } from './rate-limit.js'
import type { PersistedState } from './seed.js'
import { TeamMembers } from './team-members.js'
import { TeamStore } from './team-store.js'
import type { Credentials, EmulatorOptions, RateLimit, Seed, ServerProfile, ServiceRecord } from './types.js'
import { UiSessions } from './ui-sessions.js'

/** FACTS.md: self-hosted 100 requests a minute per key; managed 10 requests per 10 seconds per key. */
export const DEFAULT_RATE_LIMITS: { selfHosted: RateLimit; managed: RateLimit } = {
  selfHosted: { requests: 100, windowMs: 60_000 },
  managed: { requests: 10, windowMs: 10_000 }
}

/** FACTS.md: list `limit` defaults to 1000. */
export const DEFAULT_PAGE_SIZE = 1000

/** The seed user's web UI password when a seed (or a state persisted before there was one) names none. */
export const DEFAULT_USER_PASSWORD = 'emu-user-password'

/** HyperDX's FRONTEND_URL default: the invitations' urls start with it. */
export const FRONTEND_URL = 'http://localhost:8080'

/** The live state behind one emulator: credentials, the stores of both modes, the managed services, the limiters. */
export class EmulatorState {
  readonly credentials: Credentials
  readonly team: Seed['team']
  readonly user: Seed['user']
  readonly selfHosted: TeamStore
  /** The self-hosted team's users and invitations (v2/team.ts). */
  readonly teamMembers: TeamMembers
  readonly managedStores = new Map<string, TeamStore>()
  readonly services = new Map<string, ServiceRecord>()
  /** The web UI's signed-in sessions (POST /login/password). */
  readonly uiSessions = new UiSessions()
  selfHostedLimiter: SlidingWindowLimiter | null = null
  managedLimiter: SlidingWindowLimiter | null = null
  /** Which server every store answers as (EmulatorOptions.server). */
  #server: ServerProfile = '2.36'
  /** The time the limiters go by (EmulatorOptions.clock). */
  now: () => number = Date.now

  constructor(
    initial: PersistedState,
    readonly pageSize: number,
    readonly changed: () => void
  ) {
    this.credentials = {
      ...initial.credentials,
      userPassword: initial.credentials.userPassword ?? DEFAULT_USER_PASSWORD
    }
    this.team = initial.team
    this.user = initial.user
    this.selfHosted = new TeamStore(initial.selfHosted, initial.team.id, changed, 'self-hosted', initial.user)
    this.teamMembers = new TeamMembers(
      initial.teamMembers,
      initial.team.id,
      initial.user,
      FRONTEND_URL,
      changed
    )
    for (const service of initial.services) this.services.set(service.id, service)
    for (const [serviceId, snapshot] of Object.entries(initial.managed)) {
      this.managedStores.set(
        serviceId,
        new TeamStore(snapshot, initial.team.id, changed, 'managed', initial.user)
      )
    }
  }

  setServer(server: ServerProfile): void {
    this.#server = server
    for (const store of [this.selfHosted, ...this.managedStores.values()]) store.server = server
  }

  managedStore(serviceId: string): TeamStore {
    let store = this.managedStores.get(serviceId)
    if (store === undefined) {
      if (!this.services.has(serviceId)) throw new Error(`No managed service ${serviceId}`)
      const template = this.managedStores.values().next().value ?? this.selfHosted
      store = new TeamStore(
        {
          dashboards: [],
          alerts: [],
          sources: structuredClone(template.sources),
          webhooks: structuredClone(template.webhooks),
          connections: [],
          savedSearches: [],
          events: []
        },
        this.team.id,
        this.changed,
        'managed',
        this.user
      )
      store.server = this.#server
      this.managedStores.set(serviceId, store)
    }
    return store
  }

  /** Keys present in `limits` are applied (undefined = the default, false = off); absent keys stay as they are. */
  setRateLimits(limits: EmulatorOptions['rateLimits']): void {
    const given = limits ?? {}
    if (limits === undefined || 'selfHosted' in given) {
      const config = given.selfHosted ?? DEFAULT_RATE_LIMITS.selfHosted
      this.selfHostedLimiter = config === false ? null : new SlidingWindowLimiter(config)
    }
    if (limits === undefined || 'managed' in given) {
      const config = given.managed ?? DEFAULT_RATE_LIMITS.managed
      this.managedLimiter = config === false ? null : new SlidingWindowLimiter(config)
    }
  }

  updateService(service: ServiceRecord): void {
    this.services.set(service.id, service)
    this.changed()
  }

  snapshot(): PersistedState {
    const managed: PersistedState['managed'] = {}
    for (const [serviceId, store] of this.managedStores) managed[serviceId] = store.snapshot()
    return {
      version: 1,
      credentials: this.credentials,
      team: this.team,
      user: this.user,
      selfHosted: this.selfHosted.snapshot(),
      teamMembers: this.teamMembers.snapshot(),
      managed,
      services: [...this.services.values()]
    }
  }
}
