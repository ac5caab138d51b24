/** Shared pieces of the API client's contract tests: settings for each mode, a fake clock, a recording logger. */
import { readFileSync } from 'node:fs'
import net from 'node:net'
import { createApi, type ApiSettings, type ObservabilityApi } from '../../src/api/client.js'
import type { Clock } from '../../src/api/pacer.js'
import type { Logger } from '../../src/log.js'
import { startEmulator, type Emulator, type EmulatorOptions, type Seed } from '../../emulator/index.js'

export type ModeName = 'self-hosted' | 'managed/observability' | 'managed/clickstack'
export const MODE_NAMES: ModeName[] = ['self-hosted', 'managed/observability', 'managed/clickstack']

export const ORG = '0b6f0a52-1c3d-4e5f-8a9b-0c1d2e3f4a5b'
export const SVC = '5e7a8b9c-0d1e-4f2a-9b3c-4d5e6f7a8b9c'

/** Seed ids (emulator/fixtures/seed.json). */
export const LOGS = '65a1f0c2b3d4e5f6a7b8c901'
export const OPS_PAGER = '65a1f0c2b3d4e5f6a7b8ca01'
export const TEAM_SLACK = '65a1f0c2b3d4e5f6a7b8ca02'
/** Well-formed ObjectIds that name nothing. */
export const UNKNOWN_ID = '65a1f0c2b3d4e5f6a7b8cfff'

/** Canary credentials: none of these may ever appear in an error message, a stack or a log line. */
export const CANARY = {
  apiKey: 'canary-SECRET-1f2e3d',
  keyId: 'canary-KEYID-7a6b5c',
  keySecret: 'canary-KEYSECRET-9e8d7c',
  readOnlyKeyId: 'canary-ROKEYID-3c2b1a',
  readOnlyKeySecret: 'canary-ROSECRET-6f5e4d'
}

export interface Secrets {
  apiKey?: string
  keyId?: string
  keySecret?: string
}

export function selfHostedSettings(
  apiUrl: string,
  apiKey: string,
  extra: Partial<ApiSettings> = {}
): ApiSettings {
  return {
    mode: 'self-hosted',
    apiUrl,
    auth: { kind: 'bearer', apiKey },
    managedPrefix: 'observability',
    rateLimit: null,
    requestTimeoutMs: 5000,
    retryBudgetMs: 5000,
    ...extra
  }
}

export function managedSettings(
  apiUrl: string,
  keyId: string,
  keySecret: string,
  extra: Partial<ApiSettings> = {}
): ApiSettings {
  return {
    mode: 'managed',
    apiUrl,
    auth: { kind: 'basic', keyId, keySecret },
    organizationId: ORG,
    serviceId: SVC,
    managedPrefix: 'observability',
    rateLimit: null,
    requestTimeoutMs: 5000,
    retryBudgetMs: 5000,
    ...extra
  }
}

/** Settings of one mode with the emulator's own (accepted) credentials. */
export function emulatorSettings(
  emu: Emulator,
  mode: ModeName,
  extra: Partial<ApiSettings> = {}
): ApiSettings {
  const c = emu.credentials
  if (mode === 'self-hosted') return selfHostedSettings(emu.url, c.apiKey, extra)
  return managedSettings(emu.url, c.keyId, c.keySecret, {
    organizationId: c.organizationId,
    serviceId: c.serviceId,
    managedPrefix: mode === 'managed/clickstack' ? 'clickstack' : 'observability',
    ...extra
  })
}

/** The path prefix of the observability resources in a mode. */
export function resourceBase(mode: ModeName, org = ORG, svc = SVC): string {
  if (mode === 'self-hosted') return '/api/v2'
  return `/v1/organizations/${org}/services/${svc}/${mode === 'managed/clickstack' ? 'clickstack' : 'observability'}`
}

export const basicHeader = (id: string, secret: string): string =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`

/** Emulator with its rate limits off unless a test asks for them. */
export function startEmu(options: EmulatorOptions = {}): Promise<Emulator> {
  return startEmulator({
    port: 0,
    rateLimits: { selfHosted: false, managed: false },
    randomSeed: 3,
    ...options
  })
}

/** The default seed with the canary values as the emulator's accepted credentials. */
export function canarySeed(): Seed {
  const seed = JSON.parse(
    readFileSync(new URL('../../emulator/fixtures/seed.json', import.meta.url), 'utf8')
  ) as Seed
  seed.credentials = { ...seed.credentials, ...CANARY }
  return seed
}

/** Creates APIs and closes them all at the end of a test. */
export class ApiPool {
  private readonly open: ObservabilityApi[] = []

  make(settings: ApiSettings, extra: Parameters<typeof createApi>[1] = {}): ObservabilityApi {
    const api = createApi(settings, extra)
    this.open.push(api)
    return api
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.open.splice(0).map(api => api.close()))
  }
}

/**
 * Time that moves only when someone sleeps: a retry or pacing wait of any length takes no real time, and
 * every wait asked for is recorded.
 */
export class FakeClock implements Clock {
  readonly sleeps: number[] = []

  constructor(public time = 1_700_000_000_000) {}

  now(): number {
    return this.time
  }

  async sleep(ms: number): Promise<void> {
    this.sleeps.push(ms)
    this.time += Math.max(0, ms)
    await new Promise(resolve => setImmediate(resolve))
  }
}

/**
 * A fake clock shared by a client and the emulator, which moves only when the client waits and only once
 * nothing is on the wire: every request reaches the emulator at the time it was sent (zero latency),
 * however loaded this machine is. Pacing is then checked against the emulator's real limiter without
 * depending on real time. `inFlight` says how many requests are out (set it to the client's count).
 */
export class LockstepClock extends FakeClock {
  inFlight: () => number = () => 0

  override async sleep(ms: number): Promise<void> {
    // First let a request the pacer just let go be sent (it is a few promise turns away), then wait until
    // every request sent has come back.
    do await new Promise(resolve => setImmediate(resolve))
    while (this.inFlight() > 0)
    await super.sleep(ms)
  }
}

export interface RecordingLogger extends Logger {
  lines: string[]
}

/** A logger that keeps every line, of every level. */
export function recordingLogger(): RecordingLogger {
  const lines: string[] = []
  return {
    lines,
    info: m => lines.push(`info: ${m}`),
    warn: m => lines.push(`warn: ${m}`),
    debug: m => lines.push(`debug: ${m}`)
  }
}

/** A port on 127.0.0.1 where nothing listens. */
export async function closedPort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  await new Promise<void>(resolve => server.close(() => resolve()))
  return port
}

/** The emulator's request log as `METHOD /path?query STATUS` lines. */
export function seen(emu: Emulator): string[] {
  return emu.requestLog.map(entry => {
    const query = new URLSearchParams(entry.query).toString()
    return `${entry.method} ${entry.path}${query ? `?${query}` : ''} ${entry.status}`
  })
}

/** A line tile in the server's normal (`config`) form, on the seeded Logs source. */
export function lineTile(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    x: 0,
    y: 0,
    w: 6,
    h: 3,
    config: { displayType: 'line', sourceId: LOGS, select: [{ aggFn: 'count', where: 'level:error' }] },
    ...extra
  }
}

export function dashboardBody(name: string, tiles = [lineTile('Errors')]): Record<string, unknown> {
  return { name, tiles, tags: ['contract'] }
}

export function alertBody(dashboardId: string, tileId: string, extra: Record<string, unknown> = {}) {
  return {
    dashboardId,
    tileId,
    threshold: 10,
    interval: '5m',
    source: 'tile',
    thresholdType: 'above',
    channel: { type: 'webhook', webhookId: OPS_PAGER },
    name: 'Errors',
    message: 'Too many errors',
    ...extra
  }
}

/** Waits until `check` holds (or fails after `ms`): for server-side effects that land after the client gave up. */
export async function eventually(check: () => boolean, ms = 2000): Promise<void> {
  const until = Date.now() + ms
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not reached in time')
    await new Promise(resolve => setTimeout(resolve, 10))
  }
}
