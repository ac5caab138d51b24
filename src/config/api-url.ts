/**
 * Where requests may go, checked when the settings are parsed, before any request: credentials only
 * travel over https (or to this machine), and the managed ids are UUIDs.
 */
import { isIP } from 'node:net'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const isUuid = (value: string): boolean => UUID.test(value)

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  if (host === 'localhost' || host.endsWith('.localhost')) return true
  if (isIP(host) === 4) return host.startsWith('127.')
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1'
  return false
}

/** A normalized base URL without a trailing slash, or an error that names the rule. */
export function checkApiUrl(input: string, allowInsecureHttp: boolean): { url?: string; error?: string } {
  let url: URL
  try {
    url = new URL(input)
  } catch {
    // Never echo what might carry a credential (user:password@host).
    return { error: `is not a URL: "${input.replace(/\/\/[^/@]*@/, '//***@')}"` }
  }
  if (url.username || url.password) {
    // Never echo the URL back: it carries a credential.
    return { error: 'must not contain credentials; use api-key, or key-id and key-secret' }
  }
  // An empty `?` or `#` leaves url.search and url.hash empty, but would still end up in every request path.
  if (url.search || url.hash || input.includes('?') || input.includes('#')) {
    return { error: 'must not have a query string or fragment' }
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { error: `must be an https URL, got ${url.protocol.replace(':', '')}` }
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !allowInsecureHttp) {
    return {
      error: `must be https: ${url.host} is not a loopback address and credentials would travel unencrypted (set allow-insecure-http to accept that)`
    }
  }
  return { url: url.toString().replace(/\/+$/, '') }
}

/** What an api-url's path says: the API's own path already (the base is what comes before it), or nothing. */
export interface ApiPath {
  /** The URL without the API's path. */
  base: string
  /** The API path found at the end ("/api/v2", "/v1/organizations/…"). */
  dropped: string
  /** The mode that path belongs to. */
  mode: 'self-hosted' | 'managed'
  /** Managed: the ids the path names, if it names them. */
  organizationId?: string
  serviceId?: string
}

/**
 * An api-url that ends in `/api/v2` (self-hosted) or `/v1/...` (managed) names an API route, not the
 * server: requests would go to `/api/v2/api/v2/...` and come back as a bare 404. Whatever comes before
 * that path is the base (a reverse proxy may serve the API below a prefix). Both are easy to paste: the
 * HyperDX API mounts its external routes at `/api/v2` (packages/api/src/api-app.ts), and the cloud's
 * Terraform provider calls `https://api.clickhouse.cloud/v1` its base URL (internal/api/client_test.go).
 */
export function apiPathOf(url: string): ApiPath | undefined {
  const parsed = new URL(url)
  const pathname = parsed.pathname.replace(/\/+$/, '')
  const at = (prefix: string) => `${parsed.origin}${prefix}`
  const selfHosted = /^(.*?)(\/api\/v2(?:\/.*)?)$/.exec(pathname)
  if (selfHosted) return { base: at(selfHosted[1]!), dropped: selfHosted[2]!, mode: 'self-hosted' }
  const managed = /^(.*?)(\/v1(?:\/.*)?)$/.exec(pathname)
  if (!managed) return undefined
  const ids = /^\/v1\/organizations\/([^/]+)\/services\/([^/]+)/.exec(managed[2]!)
  return {
    base: at(managed[1]!),
    dropped: managed[2]!,
    mode: 'managed',
    organizationId: ids ? decodeURIComponent(ids[1]!) : undefined,
    serviceId: ids ? decodeURIComponent(ids[2]!) : undefined
  }
}
