import { startEmulator, type Emulator, type EmulatorOptions } from '../../emulator/index.js'

export interface Answer {
  status: number
  headers: Headers
  text: string
  /** The parsed body, or undefined when it is not JSON. */
  json: any // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Emulator with rate limits off unless a test asks for them, so suites are not throttled by accident. */
export function start(options: EmulatorOptions = {}): Promise<Emulator> {
  return startEmulator({ port: 0, rateLimits: { selfHosted: false, managed: false }, ...options })
}

export async function call(
  emulator: Emulator,
  method: string,
  path: string,
  options: { body?: unknown; rawBody?: string; auth?: string | null; signal?: AbortSignal } = {}
): Promise<Answer> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' }
  const auth = options.auth === undefined ? defaultAuth(emulator, path) : options.auth
  if (auth !== null) headers.Authorization = auth
  const response = await fetch(emulator.url + path, {
    method,
    headers,
    body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    signal: options.signal
  })
  const text = await response.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.status, headers: response.headers, text, json }
}

export function bearer(emulator: Emulator): string {
  return `Bearer ${emulator.credentials.apiKey}`
}

export function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`
}

function defaultAuth(emulator: Emulator, path: string): string {
  const c = emulator.credentials
  return path.startsWith('/v1/') ? basic(c.keyId, c.keySecret) : bearer(emulator)
}

/** `/v1/organizations/{org}/services/{svc}` plus an optional suffix. */
export function servicePath(
  emulator: Emulator,
  suffix = '',
  serviceId = emulator.credentials.serviceId
): string {
  return `/v1/organizations/${emulator.credentials.organizationId}/services/${serviceId}${suffix}`
}

export const LOGS = '65a1f0c2b3d4e5f6a7b8c901'
export const TRACES = '65a1f0c2b3d4e5f6a7b8c902'
export const METRICS = '65a1f0c2b3d4e5f6a7b8c903'
/** The connection the seed's sources use. */
export const CONNECTION = '65a1f0c2b3d4e5f6a7b8c9f1'
export const OPS_PAGER = '65a1f0c2b3d4e5f6a7b8ca01'
export const TEAM_SLACK = '65a1f0c2b3d4e5f6a7b8ca02'

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

export function tableTile(name: string): Record<string, unknown> {
  return {
    name,
    x: 6,
    y: 0,
    w: 6,
    h: 3,
    config: { displayType: 'table', sourceId: LOGS, select: [{ aggFn: 'count' }], groupBy: 'service' }
  }
}

export function tileAlert(dashboardId: string, tileId: string, extra: Record<string, unknown> = {}) {
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
